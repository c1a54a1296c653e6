//! File → Export PNG… and the play pane's "Export GIF of this play…": ask where (through the
//! [`crate::files::Dialogs`] abstraction), then leave an [`ExportRequest`] that the app runs
//! on a worker thread (`crate::export::job::ExportJob`, above the state) with progress and Cancel.

use std::path::PathBuf;

use crate::files::ChooserFor;

use super::EditorState;
use super::work::ExportRequest;

/// Pixels per cell of the editor's exports before a scale is chosen (the CLI's default).
pub const EXPORT_SCALE: u32 = 16;

impl EditorState {
    /// The open file's stem, or `level`.
    fn export_stem(&self) -> String {
        self.path
            .as_ref()
            .and_then(|p| p.file_stem())
            .map_or_else(|| "level".into(), |s| s.to_string_lossy().into_owned())
    }

    /// File → Export PNG…: the design as a PNG image (the built-in chooser, listing PNG
    /// files, when no native dialog is available).
    pub(super) fn export_png(&mut self) {
        let name = format!("{}.png", self.export_stem());
        if let Some(path) = self.pick_export_path(ChooserFor::ExportPng, name) {
            self.export_png_to(path);
        }
    }

    /// The native save dialog for an image named `name` in the level's folder: the chosen
    /// path; `None` when the user cancelled, or when no native dialog is available, after
    /// opening the built-in chooser for `what` instead (it exports when answered).
    fn pick_export_path(&mut self, what: ChooserFor, name: String) -> Option<PathBuf> {
        let dir = self.doc_dir();
        self.dialogs.set_dir(&dir);
        let path = self.dialogs.pick_save_image(&name);
        if path.is_none() {
            self.builtin_chooser(what, dir, name);
        }
        path
    }

    /// Exports the design as a PNG image to `path`.
    pub(super) fn export_png_to(&mut self, path: PathBuf) {
        self.export_request = Some(ExportRequest {
            path,
            level: self.doc_json(),
            play: None,
            scale: self.settings.export_scale,
            kinds: self.kinds,
        });
        self.status = "exporting…".into();
    }

    /// "Export GIF of this play…": the session's inputs from its start, as an animated GIF.
    pub(super) fn export_gif(&mut self) {
        self.doc.play_settle();
        let name = format!("{}.gif", self.export_stem());
        if self.doc.play().is_none() {
            return;
        }
        if let Some(path) = self.pick_export_path(ChooserFor::ExportGif, name) {
            self.export_gif_to(path);
        }
    }

    /// Exports the play so far, from its start, as an animated GIF to `path`.
    pub(super) fn export_gif_to(&mut self, path: PathBuf) {
        self.doc.play_settle();
        let Some(p) = self.doc.play() else {
            self.status = "not playing: nothing to export".into();
            return;
        };
        let (level, inputs, seed) = (p.start.clone(), p.inputs.clone(), p.seed);
        self.export_request = Some(ExportRequest {
            path,
            level,
            play: Some((inputs, seed)),
            scale: self.settings.export_scale,
            kinds: self.kinds,
        });
        self.status = "exporting…".into();
    }
}

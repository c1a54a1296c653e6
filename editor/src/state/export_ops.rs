//! File → Export PNG… and the play pane's "Export GIF of this play…": ask where (through the
//! [`crate::files::Dialogs`] abstraction), then leave an [`ExportRequest`] that the app runs
//! on a worker thread ([`crate::export::job::ExportJob`]) with progress and Cancel.

use crate::export::job::ExportRequest;

use super::EditorState;

/// Pixels per cell of the editor's exports (the CLI's default).
pub const EXPORT_SCALE: u32 = 16;

impl EditorState {
    /// The open file's stem, or `level`.
    fn export_stem(&self) -> String {
        self.path
            .as_ref()
            .and_then(|p| p.file_stem())
            .map_or_else(|| "level".into(), |s| s.to_string_lossy().into_owned())
    }

    /// File → Export PNG…: the design as a PNG image.
    pub(super) fn export_png(&mut self) {
        let name = format!("{}.png", self.export_stem());
        if let Some(path) = self.dialogs.pick_save_image(&name) {
            self.export_request = Some(ExportRequest {
                path,
                level: self.doc_json(),
                play: None,
                scale: EXPORT_SCALE,
            });
            self.status = "exporting…".into();
        }
    }

    /// "Export GIF of this play…": the session's inputs from its start, as an animated GIF.
    pub(super) fn export_gif(&mut self) {
        self.doc.play_settle();
        let name = format!("{}.gif", self.export_stem());
        let Some(p) = self.doc.play() else { return };
        let (level, inputs, seed) = (p.start.clone(), p.inputs.clone(), p.seed);
        if let Some(path) = self.dialogs.pick_save_image(&name) {
            self.export_request = Some(ExportRequest {
                path,
                level,
                play: Some((inputs, seed)),
                scale: EXPORT_SCALE,
            });
            self.status = "exporting…".into();
        }
    }
}

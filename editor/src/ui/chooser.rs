//! The built-in file chooser (`egui_file`), shown for every file dialog of the editor (open,
//! save, add levels, record a replay, export) when no native dialog is available
//! ([`crate::files::Dialogs::take_unavailable`]): the state holds the request
//! ([`crate::files::Chooser`]), this module the dialog's widgets, and the answer goes back as
//! [`Action::ChooserDone`].

use std::path::{Path, PathBuf};

use eframe::egui;
use egui_file::{FileDialog, State};

use crate::files::{Chooser, ChooserFor, has_extension};
use crate::state::{Action, EditorState};

/// The open chooser: the request it answers and its dialog.
pub type ChooserSlot = Option<(Chooser, FileDialog)>;

/// Draws the chooser while the state asks for one and pushes its answer.
pub fn chooser_ui(
    ctx: &egui::Context,
    st: &EditorState,
    slot: &mut ChooserSlot,
    out: &mut Vec<Action>,
) {
    let Some(req) = &st.chooser else {
        *slot = None;
        return;
    };
    if slot.as_ref().is_none_or(|(r, _)| r != req) {
        *slot = Some((req.clone(), dialog(req)));
    }
    let Some((_, d)) = slot.as_mut() else { return };
    d.show(ctx);
    match d.state() {
        State::Open => {}
        State::Selected => {
            // Several files when adding levels (the ticked ones, else the one chosen).
            let mut chosen: Vec<PathBuf> = Vec::new();
            if d.has_multi_select() {
                chosen.extend(d.selection().into_iter().map(Path::to_path_buf));
            }
            if chosen.is_empty() {
                chosen.extend(d.path().map(Path::to_path_buf));
            }
            out.push(Action::ChooserDone(chosen));
            *slot = None;
        }
        State::Cancelled | State::Closed => {
            out.push(Action::ChooserDone(Vec::new()));
            *slot = None;
        }
    }
}

/// The `egui_file` dialog for a request: open or save, its title, one or several files, the
/// suggested name, and only files with the purpose's extension listed.
fn dialog(req: &Chooser) -> FileDialog {
    let p = req.purpose;
    let d = if p.saves() {
        FileDialog::save_file().default_filename(req.file_name.clone())
    } else {
        let add = p == ChooserFor::AddLevels;
        let d = FileDialog::open_file().multi_select(add);
        if add {
            d.open_button_text("Add".into())
        } else {
            d
        }
    };
    let mut d = d
        .title(p.title())
        .id(egui::Id::unique("tilesmith-chooser"))
        .initial_path(req.dir.clone())
        .show_rename(false)
        .show_new_folder(false);
    if let Some(ext) = p.extension() {
        d = d.show_files_filter(Box::new(move |f: &Path| has_extension(f, ext)));
    }
    d.open();
    d
}

//! The built-in file chooser (`egui_file`), shown for Open and Save As when no native dialog
//! is available ([`crate::files::Dialogs::take_unavailable`]): the state holds the request
//! ([`crate::files::Chooser`]), this module the dialog's widgets, and the answer goes back as
//! [`Action::ChooserDone`].

use std::path::Path;

use eframe::egui;
use egui_file::{FileDialog, State};

use crate::files::Chooser;
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
        let mut d = if req.save {
            FileDialog::save_file()
                .title("Save the level as")
                .default_filename(req.file_name.clone())
        } else {
            FileDialog::open_file().title("Open a level")
        }
        .id(egui::Id::unique("tilesmith-chooser"))
        .initial_path(req.dir.clone())
        .show_rename(false)
        .show_new_folder(false);
        d.open();
        *slot = Some((req.clone(), d));
    }
    let Some((_, d)) = slot.as_mut() else { return };
    d.show(ctx);
    match d.state() {
        State::Open => {}
        State::Selected => {
            let chosen = d.path().map(Path::to_path_buf);
            out.push(Action::ChooserDone(chosen));
            *slot = None;
        }
        State::Cancelled | State::Closed => {
            out.push(Action::ChooserDone(None));
            *slot = None;
        }
    }
}

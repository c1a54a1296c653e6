//! The built-in file chooser as a fallback for every file dialog of the editor: when the
//! dialog just asked could not be shown (no native dialog available,
//! [`crate::files::Dialogs::take_unavailable`]), the state asks for the chooser
//! ([`crate::files::Chooser`]) with what the file is for ([`ChooserFor`]) and says why in the
//! status bar; the UI's answer ([`Action::ChooserDone`]) finishes what the dialog was for.

use std::path::PathBuf;

use super::{Action, EditorState};
use crate::campaign::CampaignAction;
use crate::files::{Chooser, ChooserFor};

impl EditorState {
    /// Opens the built-in chooser for `purpose`, starting in `dir` and suggesting `file_name`
    /// when saving, if the dialog just asked could not be shown; says why in the status bar.
    /// After a plain cancel of a native dialog it does nothing.
    pub(super) fn builtin_chooser(&mut self, purpose: ChooserFor, dir: PathBuf, file_name: String) {
        if let Some(why) = self.dialogs.take_unavailable() {
            self.status = format!("{why}: using the built-in file chooser");
            self.chooser = Some(Chooser {
                purpose,
                dir,
                file_name,
            });
        }
    }

    /// The built-in chooser's answer: does what the dialog was for with the chosen files
    /// (a file saved with the wrong extension gets the right one added:
    /// [`ChooserFor::with_extension`], for the images); "cancelled" when none.
    pub(super) fn chooser_done(&mut self, files: Vec<PathBuf>) {
        let Some(c) = self.chooser.take() else { return };
        let then = self.after_chooser_save.take();
        let Some(first) = files.first().cloned() else {
            self.status = "cancelled".into();
            return;
        };
        match c.purpose {
            ChooserFor::Open => {
                // The unsaved-changes question was asked before the chooser opened.
                self.confirmed = true;
                self.apply(Action::OpenPath(first));
            }
            ChooserFor::SaveLevel => {
                self.save_to(&first);
                // Saved for the unsaved-changes question: now do what it was asked for.
                if let Some(then) = then.filter(|_| !self.dirty()) {
                    self.confirmed = true;
                    self.apply(*then);
                }
            }
            ChooserFor::AddLevels => self.campaign_action(CampaignAction::AddFiles(files)),
            ChooserFor::NewCampaign => self.new_campaign_at(first),
            ChooserFor::SaveCampaignAs => self.save_campaign(Some(first)),
            ChooserFor::SaveReplay => self.record_to(&first),
            ChooserFor::ExportPng => self.export_png_to(c.purpose.with_extension(first)),
            ChooserFor::ExportGif => self.export_gif_to(c.purpose.with_extension(first)),
        }
    }
}

//! The export widgets: the play pane's "Export GIF of this play…" button (every kind's play
//! pane shows it) and the progress window of a running export, with Cancel.

use eframe::egui::{self, Ui};

use crate::export::job::ExportJob;
use crate::state::{Action, PlayAction};

/// The play pane's button that exports the session as an animated GIF.
pub fn export_gif_button(ui: &mut Ui, out: &mut Vec<Action>) {
    if ui
        .button("Export GIF of this play…")
        .on_hover_text(
            "An animated GIF of the steps played so far from the start, one frame per step, \
             with the changed cells outlined and the rules that fired named",
        )
        .clicked()
    {
        out.push(Action::Play(PlayAction::ExportGif));
    }
}

/// The progress window of a running export; true when Cancel was clicked.
pub fn export_progress(ctx: &egui::Context, job: &ExportJob) -> bool {
    let (done, total) = job.progress();
    let mut cancel = false;
    egui::Window::new("Exporting")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .show(ctx, |ui| {
            ui.label(job.path.display().to_string());
            ui.add(
                egui::ProgressBar::new(done as f32 / total.max(1) as f32)
                    .text(format!("{done} / {total} steps"))
                    .desired_width(260.0),
            );
            cancel = ui.button("Cancel").clicked();
        });
    cancel
}

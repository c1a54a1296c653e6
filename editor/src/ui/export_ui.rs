//! The export widgets: the play pane's "Export GIF of this play…" button (every kind's play
//! pane shows it), the export dialog (the scale, then where: issue #31 defect 11) and the
//! progress window of a running export, with Cancel.

use eframe::egui::{self, Ui};

use crate::export::job::ExportJob;
use crate::export::{CAPTION_PX, MAX_SCALE, image_size};
use crate::state::{Action, EditorState, ExportWhat, PlayAction};

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
        out.push(Action::ShowExport(Some(ExportWhat::Gif)));
    }
}

/// The export dialog while the state asks for it: the pixels per cell (remembered between
/// exports, as `tilesmith render --scale`), the image size it gives (or why it is too large),
/// then Export…, which asks where.
pub fn export_dialog(ctx: &egui::Context, st: &EditorState, out: &mut Vec<Action>) {
    let Some(what) = st.export_dialog else { return };
    let (title, go) = match what {
        ExportWhat::Png => ("Export PNG", Action::ExportPng),
        ExportWhat::Gif => ("Export GIF", Action::Play(PlayAction::ExportGif)),
    };
    let mut open = true;
    egui::Window::new(title)
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .show(ctx, |ui| {
            let mut scale = st.settings.export_scale;
            ui.horizontal(|ui| {
                let r = ui.add(egui::DragValue::new(&mut scale).range(1..=MAX_SCALE));
                ui.label("pixels per cell");
                if r.accessible_name("Export scale").changed() {
                    out.push(Action::SetExportScale(scale));
                }
            });
            let (w, h) = st.map_size();
            let band = if what == ExportWhat::Gif {
                CAPTION_PX
            } else {
                0
            };
            let size = image_size(w, h, scale, band);
            match &size {
                Ok((iw, ih)) => ui.label(format!("{iw} × {ih} pixels")),
                Err(e) => ui.colored_label(egui::Color32::from_rgb(255, 110, 110), e),
            };
            ui.horizontal(|ui| {
                if ui
                    .add_enabled(size.is_ok(), egui::Button::new("Export…"))
                    .clicked()
                {
                    out.push(Action::ShowExport(None));
                    out.push(go.clone());
                }
                if ui.button("Cancel").clicked() {
                    out.push(Action::ShowExport(None));
                }
            });
        });
    if !open {
        out.push(Action::ShowExport(None));
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

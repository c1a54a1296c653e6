//! What the play pane shows while a step computes on a worker thread (issue 15;
//! [`crate::doc::step_job`]): over the map (which keeps its last picture, dimmed) a box with
//! a spinner, `computing tick 12… 2.4 s` and Cancel; the side panel shows the same in place
//! of the kind's play controls, which wait for the game to come back. Esc cancels too
//! ([`super::shortcuts`]).

use eframe::egui::{self, Color32, Rect, RichText, Ui, vec2};

use crate::state::{Action, PlayAction, StepBusy};

/// The spinner, the words and Cancel, in `ui`.
fn busy_row(ui: &mut Ui, busy: &StepBusy, out: &mut Vec<Action>) {
    ui.horizontal(|ui| {
        ui.add(egui::Spinner::new().size(18.0));
        ui.label(RichText::new(busy.text()).strong());
        let cancel = ui
            .add_enabled(!busy.cancelling, egui::Button::new("Cancel"))
            .on_hover_text("Stop this step (Esc): the game stays as it was before it");
        if cancel.clicked() {
            out.push(PlayAction::CancelStep.into());
        }
    });
}

/// The side panel's box while a step computes.
pub fn busy_panel(ui: &mut Ui, busy: &StepBusy, out: &mut Vec<Action>) {
    busy_row(ui, busy, out);
    ui.label(
        "The game is being computed on a worker thread; its controls come back when the \
         step is done. The rest of the editor works meanwhile.",
    );
}

/// The box over the map (`rect`, the canvas) while a step computes; the map under it is
/// dimmed.
pub fn busy_overlay(ui: &Ui, rect: Rect, busy: &StepBusy, out: &mut Vec<Action>) {
    ui.painter_at(rect)
        .rect_filled(rect, 0.0, Color32::from_black_alpha(110));
    egui::Area::new(egui::Id::unique("step-busy"))
        .fixed_pos(rect.center())
        .pivot(egui::Align2::CENTER_CENTER)
        .order(egui::Order::Foreground)
        .show(ui.ctx(), |ui| {
            egui::Frame::popup(ui.style())
                .inner_margin(vec2(16.0, 10.0))
                .show(ui, |ui| busy_row(ui, busy, out));
        });
    // The elapsed time and the spinner move: draw again soon.
    ui.ctx()
        .request_repaint_after(std::time::Duration::from_millis(50));
}

/// The window of a file being read on a worker thread: spinner, `loading level.json… 1.2 s`
/// and Cancel (Esc).
pub fn load_progress(ctx: &egui::Context, job: &crate::state::LoadJob, out: &mut Vec<Action>) {
    let name = job.path.file_name().map_or_else(
        || job.path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    egui::Window::new("Opening")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                ui.add(egui::Spinner::new().size(18.0));
                ui.label(format!(
                    "loading {name}… {:.1} s",
                    job.started.elapsed().as_secs_f32()
                ));
                if ui
                    .button("Cancel")
                    .on_hover_text("Stop opening this file (Esc): the open level stays")
                    .clicked()
                {
                    out.push(Action::CancelLoad);
                }
            });
        });
    ctx.request_repaint_after(std::time::Duration::from_millis(50));
}

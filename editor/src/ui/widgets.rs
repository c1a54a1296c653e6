//! Small widgets that several panels share. They sit below both `layout` (the panels round
//! the map) and `panels` (their contents), so that `panels` does not import `layout` back
//! (`layout` places what `panels` draws, one way).

use eframe::egui::Ui;

use super::commands::Command;
use crate::state::{Action, Pane};

/// The label of the button that hides a panel (`«` on the left, `»` on the right).
fn hide_label(pane: Pane) -> &'static str {
    match pane {
        Pane::Palette => "«",
        Pane::Side => "»",
        Pane::Problems => "hide",
    }
}

/// The button that hides `pane`, with the command's shortcut in its tooltip.
pub fn hide_button(ui: &mut Ui, pane: Pane, c: Command, out: &mut Vec<Action>) {
    let what = c.label().to_lowercase();
    if ui
        .small_button(hide_label(pane))
        .on_hover_text(format!("Hide the {what} ({})", c.shortcut_text()))
        .clicked()
    {
        out.push(Action::ShowPane(pane, Some(false)));
    }
}

/// How many columns of palette entries (a `lead`-point swatch, then a label) fit the width
/// left in `ui`, at most `max` and at least 1, for entries labelled `labels` in the body font:
/// the palettes' grids use it so that a narrow palette (a 1024 × 640 window) shows whole names
/// in one column rather than cut ones in two (issue #31 defect 9).
pub fn palette_columns<'a>(
    ui: &Ui,
    labels: impl IntoIterator<Item = &'a str>,
    lead: f32,
    max: usize,
) -> usize {
    let font = eframe::egui::TextStyle::Body.resolve(ui.style());
    let gap = ui.spacing().item_spacing.x;
    let widest = labels
        .into_iter()
        .map(|l| {
            ui.fonts_mut(|f| {
                f.layout_no_wrap(l.to_string(), font.clone(), eframe::egui::Color32::WHITE)
                    .size()
                    .x
            })
        })
        .fold(0.0f32, f32::max);
    let entry = lead + gap + widest;
    (((ui.available_width() + 6.0) / (entry + 6.0)) as usize).clamp(1, max.max(1))
}

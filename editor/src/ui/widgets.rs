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

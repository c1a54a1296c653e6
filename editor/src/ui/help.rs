//! The Help menu's keyboard shortcut sheet and the Replace dialog: windows over the editor,
//! opened by their commands (F1, Ctrl+H) and closed with their close button or Esc.

use eframe::egui::{self, RichText, Ui};

use super::commands::Command;
use crate::doc::ui::KindUi;
use crate::state::{Action, EditorState};

/// The keys of the play session, added by the shell to the kind's input table: key, what it
/// does.
pub const PLAY_KEYS: [(&str, &str); 4] = [
    ("Enter", "run or pause (real-time kinds)"),
    ("Backspace", "step back one step (tick, turn, frame)"),
    (".", "one step with the input chosen in the play pane"),
    ("Escape", "stop playing (after cancelling a drag)"),
];

/// The canvas's pointer and key gestures that are not commands: gesture, what it does.
pub const CANVAS_KEYS: [(&str, &str); 6] = [
    (
        "Left / right button",
        "paint with the primary / secondary brush",
    ),
    (
        "Alt+click",
        "pick a cell's token (eyedropper) with any tool",
    ),
    (
        "Escape during a drag",
        "cancel the rectangle, line or selection",
    ),
    ("Wheel, Ctrl+wheel", "zoom around the pointer"),
    ("Middle drag, Space+drag", "pan"),
    ("Arrow keys", "pan (when not playing)"),
];

/// The keyboard shortcut sheet (Help → Keyboard shortcuts, F1): every entry of the command
/// table with its shortcut, the play keys (the shell's and the open kind's input table) and
/// the canvas gestures.
pub fn shortcut_sheet(ctx: &egui::Context, st: &EditorState, out: &mut Vec<Action>) {
    if !st.shortcuts_open {
        return;
    }
    let mut open = true;
    egui::Window::new("Keyboard shortcuts")
        .open(&mut open)
        .collapsible(false)
        .default_width(560.0)
        .show(ctx, |ui| {
            egui::ScrollArea::vertical()
                .max_height(520.0)
                .show(ui, |ui| {
                    ui.strong("Commands (menus and toolbar)");
                    let rows: Vec<(String, String, String)> = Command::SHEET
                        .iter()
                        .map(|c| {
                            (
                                c.shortcut_text(),
                                c.label().to_string(),
                                c.about().to_string(),
                            )
                        })
                        .collect();
                    sheet_grid(ui, "sheet-commands", &rows);
                    ui.separator();
                    ui.strong(format!("While playing ({} level)", st.kind_name()));
                    let mut play: Vec<(String, String, String)> = PLAY_KEYS
                        .iter()
                        .map(|(k, what)| (k.to_string(), String::new(), what.to_string()))
                        .collect();
                    play.extend(st.kind().inputs().iter().map(|s| {
                        (
                            s.key.replace('|', " or "),
                            s.label.to_string(),
                            format!("input `{}`", s.word),
                        )
                    }));
                    sheet_grid(ui, "sheet-play", &play);
                    ui.separator();
                    ui.strong("Canvas");
                    let canvas: Vec<(String, String, String)> = CANVAS_KEYS
                        .iter()
                        .map(|(k, what)| (k.to_string(), String::new(), what.to_string()))
                        .collect();
                    sheet_grid(ui, "sheet-canvas", &canvas);
                });
        });
    if !open {
        out.push(Action::ShowShortcuts(false));
    }
}

/// Rows of key, name and description.
fn sheet_grid(ui: &mut Ui, id: &str, rows: &[(String, String, String)]) {
    egui::Grid::new(id)
        .num_columns(3)
        .striped(true)
        .spacing(egui::vec2(12.0, 3.0))
        .show(ui, |ui| {
            for (key, name, about) in rows {
                ui.monospace(key);
                ui.label(RichText::new(name).strong());
                ui.label(about);
                ui.end_row();
            }
        });
}

/// The Replace dialog (Edit → Replace…, Ctrl+H): the kind's pair and its Replace all button
/// ([`KindUi::replace_ui`]). Nothing is replaced until that button is pressed.
pub fn replace_dialog(
    ctx: &egui::Context,
    st: &EditorState,
    kind: &mut dyn KindUi,
    out: &mut Vec<Action>,
) {
    if !st.replace_open {
        return;
    }
    let mut open = true;
    egui::Window::new("Replace")
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            kind.replace_ui(ui, st, out);
            if st.playing() {
                ui.label(RichText::new("Stop playing (F5) to edit the design.").weak());
            }
        });
    if !open {
        out.push(Action::ShowReplace(false));
    }
}

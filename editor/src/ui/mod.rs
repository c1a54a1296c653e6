//! Drawing: functions that read [`EditorState`] and push [`Action`]s. Nothing here changes the
//! state directly, and nothing here names a kind: the kind's panels and cell drawing come from
//! its [`KindUi`](crate::doc::ui::KindUi).

pub mod canvas;
pub mod chooser;
pub mod code;
pub mod commands;
pub mod export_ui;
pub mod help;
pub mod layout;
pub mod mesh;
pub mod new_level;
pub mod panels;
pub mod step_ui;
mod ui_state;
pub mod widgets;

use eframe::egui::{self, Event, Key, Modifiers, RichText, Ui};
use tilesmith_engine::{Input, InputSpec};

use crate::state::{Action, Answer, EditorState, MapAction, Pane, Pending, PlayAction};
use commands::Command;
pub use ui_state::UiState;

/// Draws the whole editor into `ui` and pushes the actions of this frame into `out`.
pub fn draw(ui: &mut Ui, st: &EditorState, us: &mut UiState, out: &mut Vec<Action>) {
    us.kind_for(st);
    if st.showing_overview() {
        egui::Panel::top("menu").show(ui, |ui| {
            panels::menu_ui(ui, st, out);
            autosave_warning(ui, st);
        });
        egui::Panel::bottom("status").show(ui, |ui| {
            ui.horizontal(|ui| ui.label(&st.status));
        });
        egui::CentralPanel::default().show(ui, |ui| {
            crate::campaign::ui::overview_ui(ui, st, (&mut us.overview, us.uis), out);
        });
        help::shortcut_sheet(ui.ctx(), st, out);
        chooser::chooser_ui(ui.ctx(), st, &mut us.chooser, out);
        pending_ui(ui.ctx(), st, out);
        shortcuts(ui.ctx(), st, out);
        return;
    }
    egui::Panel::top("menu").show(ui, |ui| {
        panels::menu_ui(ui, st, out);
        autosave_warning(ui, st);
        if st.campaign.is_some() {
            crate::campaign::ui::back_strip_ui(ui, st, out);
        }
        panels::toolbar_ui(ui, st, out);
    });
    egui::Panel::bottom("status").show(ui, |ui| {
        ui.horizontal(|ui| {
            if !st.settings.show_problems {
                let text = RichText::new(format!("Problems ({})", st.problems.len()));
                let text = match layout::problems_color(st) {
                    Some(c) => text.color(c),
                    None => text,
                };
                let c = Command::ProblemsPanel;
                if ui
                    .small_button(text)
                    .on_hover_text(format!("Show the problems list ({})", c.shortcut_text()))
                    .clicked()
                {
                    out.push(Action::ShowPane(Pane::Problems, Some(true)));
                }
            }
            panels::status_ui(ui, st, us.kind.as_ref());
        });
    });
    layout::panels_and_canvas(ui, st, us, out);
    help::replace_dialog(ui.ctx(), st, us.kind.as_mut(), out);
    help::shortcut_sheet(ui.ctx(), st, out);
    new_level::new_level_dialog(ui.ctx(), st, &mut us.new_form, out);
    export_ui::export_dialog(ui.ctx(), st, out);
    chooser::chooser_ui(ui.ctx(), st, &mut us.chooser, out);
    pending_ui(ui.ctx(), st, out);
    shortcuts(ui.ctx(), st, out);
}

/// The warning of a failing autosave, under the menu until a copy is written again.
fn autosave_warning(ui: &mut Ui, st: &EditorState) {
    if let Some(e) = &st.autosave_error {
        ui.label(
            RichText::new(format!(
                "Autosave failed ({e}): unsaved changes have no crash copy until it works \
                 again. Save (Ctrl+S) keeps them."
            ))
            .color(ui.visuals().warn_fg_color)
            .strong(),
        );
    }
}

/// The modal dialog of a pending question, if any.
pub fn pending_ui(ctx: &egui::Context, st: &EditorState, out: &mut Vec<Action>) {
    let Some(p) = &st.pending else { return };
    egui::Modal::new(egui::Id::unique("pending")).show(ctx, |ui| {
        ui.set_max_width(460.0);
        let buttons: &[(&str, Answer)] = match p {
            Pending::Unsaved { .. } => {
                ui.heading("Unsaved changes");
                // Asked with the overview shown: the question is about the campaign.
                ui.label(if st.showing_overview() {
                    "The campaign has changes that are not saved."
                } else {
                    "The level has changes that are not saved."
                });
                &[
                    ("Save", Answer::Save),
                    ("Discard", Answer::Discard),
                    ("Cancel", Answer::Cancel),
                ]
            }
            Pending::ExternalChange { .. } => {
                ui.heading("The file changed on disk");
                ui.label("Another program changed the open file, and the editor has unsaved changes. Which version do you keep?");
                &[
                    ("Keep mine", Answer::KeepMine),
                    ("Load disk version", Answer::TakeDisk),
                ]
            }
            Pending::RestoreAutosave(f) => {
                ui.heading("Autosave found");
                ui.label(format!(
                    "An autosave copy of {} was left behind (did the editor crash?). Restore it?",
                    f.file
                        .as_ref()
                        .map_or("an untitled level".to_string(), |p| p.display().to_string())
                ));
                &[
                    ("Restore", Answer::Restore),
                    ("Delete copy", Answer::DropAutosave),
                    ("Later", Answer::Cancel),
                ]
            }
            Pending::ConfirmResize {
                width,
                height,
                lost,
                ..
            } => {
                ui.heading("Resize removes essential cells");
                ui.label(format!(
                    "Resizing to {width} × {height} with this anchor would remove: {}. \
                     Resize anyway (Undo brings them back), or Cancel and choose another anchor?",
                    lost.join("; ")
                ));
                &[
                    ("Resize anyway", Answer::ResizeAnyway),
                    ("Cancel", Answer::Cancel),
                ]
            }
            Pending::ConfirmWrites { files, to } => {
                ui.heading("Save writes another file");
                let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
                ui.label(format!(
                    "Saving {} also writes {}, a file the level refers to and which you \
                     edited here but did not open. Write it?",
                    to.display(),
                    names.join(", ")
                ));
                &[
                    ("Write and save", Answer::WriteFiles),
                    ("Cancel", Answer::Cancel),
                ]
            }
            Pending::Message(m) => {
                ui.heading("Tilesmith");
                egui::ScrollArea::vertical().max_height(300.0).show(ui, |ui| {
                    ui.monospace(m);
                });
                &[("OK", Answer::Ok)]
            }
        };
        ui.horizontal(|ui| {
            for (label, a) in buttons {
                if ui.button(*label).clicked() {
                    out.push(Action::Answer(*a));
                }
            }
        });
    });
}

/// The egui key and modifiers of a key name of a kind's input table (`ArrowLeft`,
/// `Shift+ArrowRight`, `Space`, `Z`, `Period`); `None` for names egui does not know.
pub fn key_of(name: &str) -> Option<(Modifiers, Key)> {
    let (mods, key) = match name.strip_prefix("Shift+") {
        Some(k) => (Modifiers::SHIFT, k),
        None => (Modifiers::NONE, name),
    };
    Key::from_name(key).map(|k| (mods, k))
}

/// The kind's input words that have a key, with the key (each of the alternatives of an
/// `ArrowUp|X` key name); those with modifiers first (egui's
/// `consume_key` with no modifiers also takes a Shift+key press).
fn keyed_inputs(st: &EditorState) -> Vec<(Modifiers, Key, Input)> {
    let mut keys: Vec<(Modifiers, Key, Input)> = st
        .kind()
        .inputs()
        .iter()
        .flat_map(|s: &InputSpec| {
            s.key
                .split('|')
                .filter_map(|name| key_of(name).map(|(m, k)| (m, k, s.input)))
        })
        .collect();
    keys.sort_by_key(|(m, _, _)| m.is_none());
    keys
}

/// The input whose key is held on the keyboard (with its modifiers), if any: what a running
/// game plays while the key stays down.
pub fn held_input(ctx: &egui::Context, st: &EditorState) -> Option<Input> {
    let keys = keyed_inputs(st);
    ctx.input(|i| {
        // With Shift held, the Shift+key entries first.
        keys.iter()
            .filter(|(m, k, _)| i.key_down(*k) && (m.shift == i.modifiers.shift))
            .map(|(_, _, input)| *input)
            .find(|input| !matches!(input, Input::Undo | Input::Restart | Input::Wait))
    })
}

/// Keyboard shortcuts: the command table, clipboard events, and the play keys (the kind's
/// input table while playing).
pub fn shortcuts(ctx: &egui::Context, st: &EditorState, out: &mut Vec<Action>) {
    if st.pending.is_some() {
        return;
    }
    let typing = ctx.egui_wants_keyboard_input();
    let playing = st.playing();
    let running = st.doc.play().is_some_and(|p| p.running);
    let keys = keyed_inputs(st);
    ctx.input_mut(|i| {
        // Esc undoes the innermost thing going on: a drag, then an open window, then play.
        // With none of these it is the command table's Select none.
        if !typing {
            let esc = if st.doc.map().stroke_last().is_some() {
                Some(MapAction::CancelStroke.into())
            } else if st.new_dialog {
                Some(Action::ShowNewLevel(false))
            } else if st.export_dialog.is_some() {
                Some(Action::ShowExport(None))
            } else if st.shortcuts_open {
                Some(Action::ShowShortcuts(false))
            } else if st.replace_open {
                Some(Action::ShowReplace(false))
            } else if st.loading().is_some() {
                Some(Action::CancelLoad)
            } else if st.step_busy().is_some() {
                Some(PlayAction::CancelStep.into())
            } else if playing {
                Some(PlayAction::Stop.into())
            } else {
                None
            };
            if let Some(a) = esc
                && i.consume_key(Modifiers::NONE, Key::Escape)
            {
                out.push(a);
            }
        }
        // Play keys come first: the kind's keys (a letter such as Z or R may be a game key)
        // take precedence over the tool shortcuts while playing.
        if playing && !typing {
            if i.consume_key(Modifiers::NONE, Key::Enter) {
                out.push(PlayAction::Run(!running).into());
            }
            if i.consume_key(Modifiers::NONE, Key::Backspace) {
                out.push(PlayAction::Back.into());
            }
            // `.` steps with the input chosen in the pane (wait unless chosen otherwise).
            if i.consume_key(Modifiers::NONE, Key::Period) {
                out.push(PlayAction::Step(None).into());
            }
            for (m, k, input) in &keys {
                let held_kind = !matches!(input, Input::Undo | Input::Restart | Input::Wait);
                if running && held_kind {
                    continue; // while running, these keys are held, not pressed
                }
                if i.consume_key(*m, *k) {
                    out.push(PlayAction::Step(Some(*input)).into());
                }
            }
        }
        for c in Command::ALL {
            if (typing && !c.works_in_text()) || !c.available(st) {
                continue;
            }
            if let Some(s) = c.shortcut()
                && i.consume_shortcut(&s)
            {
                out.push(c.action(st));
            }
        }
        if typing {
            return;
        }
        // Clipboard shortcuts arrive as events when the platform translates them.
        for e in &i.events {
            match e {
                Event::Copy => out.push(MapAction::Copy.into()),
                Event::Cut => out.push(MapAction::Cut.into()),
                Event::Paste(text) => out.push(MapAction::PasteText(text.clone()).into()),
                _ => {}
            }
        }
        if !playing {
            if i.consume_key(Modifiers::NONE, Key::Backspace) {
                out.push(MapAction::DeleteSelection.into());
            }
            let step = 48.0;
            for (k, d) in [
                (Key::ArrowLeft, [step, 0.0]),
                (Key::ArrowRight, [-step, 0.0]),
                (Key::ArrowUp, [0.0, step]),
                (Key::ArrowDown, [0.0, -step]),
            ] {
                if i.consume_key(Modifiers::NONE, k) {
                    out.push(Action::Pan(d));
                }
            }
        }
    });
}

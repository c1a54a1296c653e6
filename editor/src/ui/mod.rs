//! Drawing: functions that read [`EditorState`] and push [`Action`]s. Nothing here changes the
//! state directly.

pub mod baba;
pub mod canvas;
pub mod commands;
pub mod panels;
pub mod play;

use eframe::egui::{self, Event, Key, Modifiers, RichText, Ui};
use tilesmith_engine::{Dir, Input};

use crate::state::{Action, Answer, EditorState, Pending, SideTab};
use commands::Command;

/// UI-side state that is not part of the document: widget buffers and caches.
#[derive(Debug, Default)]
pub struct UiState {
    /// Buffers of the side panels.
    pub panels: panels::PanelState,
    /// The canvas texture cache.
    pub canvas: canvas::CanvasCache,
    /// Buffers of the baba panels (palette filter, typed sentence).
    pub baba: baba::BabaPanelState,
}

/// Draws the whole editor into `ui` and pushes the actions of this frame into `out`.
pub fn draw(ui: &mut Ui, st: &EditorState, us: &mut UiState, out: &mut Vec<Action>) {
    egui::Panel::top("menu").show(ui, |ui| {
        panels::menu_ui(ui, st, out);
        panels::toolbar_ui(ui, st, out);
    });
    egui::Panel::bottom("status").show(ui, |ui| {
        panels::status_ui(ui, st);
    });
    egui::Panel::bottom("problems")
        .resizable(true)
        .default_size(90.0)
        .show(ui, |ui| {
            panels::problems_ui(ui, st, out);
        });
    egui::Panel::left("palette")
        .resizable(true)
        .default_size(210.0)
        .show(ui, |ui| {
            egui::ScrollArea::vertical()
                .id_salt("palette-scroll")
                .show(ui, |ui| match &st.baba {
                    Some(d) => baba::palette_ui(ui, d, &mut us.baba, out),
                    None => panels::palette_ui(ui, st, out),
                });
        });
    let rules_tab = st.side_tab == SideTab::Rules;
    // Each page has its own panel (and width): the rule editor wants more room.
    egui::Panel::right(if rules_tab { "side-rules" } else { "side" })
        .resizable(true)
        .default_size(if rules_tab { 450.0 } else { 300.0 })
        .show(ui, |ui| {
            ui.horizontal(|ui| {
                let main = if st.playing() { "Play pane" } else { "Cell & level" };
                let rules_help = if st.baba.is_some() {
                    "The rules the text on the map forms, live; type a sentence to place it as text tiles"
                } else {
                    "The rule editor: pre and post rules, with a live preview of the selected rule on the map"
                };
                for (tab, label, help) in [
                    (SideTab::Main, main, "The cell inspector, level properties and history (while playing: the play pane)"),
                    (SideTab::Rules, "Rules", rules_help),
                ] {
                    if ui
                        .selectable_label(st.side_tab == tab, RichText::new(label).heading())
                        .on_hover_text(help)
                        .clicked()
                        && st.side_tab != tab
                    {
                        out.push(Action::SideTab(tab));
                    }
                }
            });
            ui.separator();
            egui::ScrollArea::vertical()
                .id_salt(if rules_tab { "rules-scroll" } else { "side-scroll" })
                .show(ui, |ui| {
                    if let Some(d) = &st.baba {
                        if rules_tab {
                            baba::rules_ui(ui, st, d, &mut us.baba, out);
                        } else if d.play.is_some() {
                            baba::play_ui(ui, d, out);
                            ui.separator();
                            baba::inspector_ui(ui, st, d, out);
                        } else {
                            baba::inspector_ui(ui, st, d, out);
                            ui.separator();
                            baba::name_ui(ui, d, out);
                            panels::resize_ui(ui, st.map_size(), &mut us.panels, out);
                            ui.separator();
                            panels::history_ui(
                                ui,
                                &d.history.done_names(),
                                &d.history.undone_names(),
                                out,
                            );
                        }
                    } else if rules_tab {
                        let mut events = Vec::new();
                        crate::rules::ui::rules_ui(
                            ui,
                            &st.level,
                            &st.rules,
                            crate::rules::ui::RulesView {
                                // While playing, the map shows the game, not the preview.
                                preview: st.rule_preview().filter(|_| st.play.is_none()),
                                never: st.never_matching(),
                                playing: st.play.is_some(),
                            },
                            &mut events,
                        );
                        out.extend(events.into_iter().map(Action::Rule));
                    } else if st.play.is_some() {
                        play::play_ui(ui, st, out);
                        ui.separator();
                        panels::inspector_ui(ui, st, out);
                    } else {
                        panels::inspector_ui(ui, st, out);
                        ui.separator();
                        panels::properties_ui(ui, st, &mut us.panels, out);
                        ui.separator();
                        panels::history_ui(
                            ui,
                            &st.history.done_names(),
                            &st.history.undone_names(),
                            out,
                        );
                    }
                });
        });
    egui::CentralPanel::default()
        .frame(egui::Frame::NONE)
        .show(ui, |ui| {
            canvas::canvas_ui(ui, st, &mut us.canvas, out);
        });
    pending_ui(ui.ctx(), st, out);
    shortcuts(ui.ctx(), st, out);
}

/// The modal dialog of a pending question, if any.
pub fn pending_ui(ctx: &egui::Context, st: &EditorState, out: &mut Vec<Action>) {
    let Some(p) = &st.pending else { return };
    egui::Modal::new(egui::Id::unique("pending")).show(ctx, |ui| {
        ui.set_max_width(460.0);
        let buttons: &[(&str, Answer)] = match p {
            Pending::Unsaved { .. } => {
                ui.heading("Unsaved changes");
                ui.label("The level has changes that are not saved.");
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

fn arrow_dir(k: Key) -> Option<Dir> {
    match k {
        Key::ArrowLeft => Some(Dir::Left),
        Key::ArrowRight => Some(Dir::Right),
        Key::ArrowUp => Some(Dir::Up),
        Key::ArrowDown => Some(Dir::Down),
        _ => None,
    }
}

/// The arrow held on the keyboard as a play input (Shift = meta), if any.
pub fn held_input(ctx: &egui::Context) -> Option<Input> {
    ctx.input(|i| {
        [
            Key::ArrowLeft,
            Key::ArrowRight,
            Key::ArrowUp,
            Key::ArrowDown,
        ]
        .into_iter()
        .find(|k| i.key_down(*k))
        .and_then(arrow_dir)
        .map(|d| {
            if i.modifiers.shift {
                Input::Meta(d)
            } else {
                Input::Move(d)
            }
        })
    })
}

/// Keyboard shortcuts: the command table, clipboard events, and the play keys.
pub fn shortcuts(ctx: &egui::Context, st: &EditorState, out: &mut Vec<Action>) {
    if st.pending.is_some() {
        return;
    }
    let typing = ctx.egui_wants_keyboard_input();
    let playing = st.playing();
    ctx.input_mut(|i| {
        // Baba play keys come first: Z undoes a turn and R restarts, as in the game.
        if !typing && i.modifiers.is_none() && st.baba.as_ref().is_some_and(|d| d.play.is_some()) {
            let turn = |out: &mut Vec<Action>, input| {
                out.push(Action::Baba(crate::state::baba::BabaAction::Turn(input)));
            };
            for k in [
                Key::ArrowLeft,
                Key::ArrowRight,
                Key::ArrowUp,
                Key::ArrowDown,
            ] {
                if i.consume_key(Modifiers::NONE, k) {
                    turn(out, Input::Move(arrow_dir(k).unwrap_or(Dir::Right)));
                }
            }
            for k in [Key::Space, Key::Period] {
                if i.consume_key(Modifiers::NONE, k) {
                    turn(out, Input::Wait);
                }
            }
            if i.consume_key(Modifiers::NONE, Key::Z) {
                turn(out, Input::Undo);
            }
            if i.consume_key(Modifiers::NONE, Key::R) {
                turn(out, Input::Restart);
            }
        }
        for c in Command::ALL {
            if typing && !c.works_in_text() {
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
                Event::Copy => out.push(Action::Copy),
                Event::Cut => out.push(Action::Cut),
                Event::Paste(_) => out.push(Action::Paste),
                _ => {}
            }
        }
        if i.consume_key(Modifiers::NONE, Key::Backspace) && !playing {
            out.push(Action::DeleteSelection);
        }
        if let Some(p) = &st.play {
            if i.consume_key(Modifiers::NONE, Key::Enter) {
                out.push(Action::PlayRun(!p.running));
            }
            if i.consume_key(Modifiers::NONE, Key::Period) {
                out.push(Action::PlayStep(None));
            }
            if i.consume_key(Modifiers::NONE, Key::Backspace) {
                out.push(Action::PlayBack);
            }
            if !p.running {
                for k in [
                    Key::ArrowLeft,
                    Key::ArrowRight,
                    Key::ArrowUp,
                    Key::ArrowDown,
                ] {
                    let d = arrow_dir(k).unwrap_or(Dir::Right);
                    if i.consume_key(Modifiers::SHIFT, k) {
                        out.push(Action::PlayStep(Some(Input::Meta(d))));
                    } else if i.consume_key(Modifiers::NONE, k) {
                        out.push(Action::PlayStep(Some(Input::Move(d))));
                    }
                }
            }
        } else {
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

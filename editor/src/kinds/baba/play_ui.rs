//! The baba play pane: the end banner, the move pad, the play actions, the active rules and
//! the turn list.

use eframe::egui::{self, Color32, RichText, Sense, Ui, vec2};
use tilesmith_engine::{Dir, Input, Status};

use super::{BabaAction, BabaDoc, BabaPlay};

use crate::play::reach_ui::row_mark;
use crate::state::{Action, PlayAction};

fn input_label(i: Input) -> &'static str {
    match i {
        Input::Move(Dir::Left) => "left",
        Input::Move(Dir::Right) => "right",
        Input::Move(Dir::Up) => "up",
        Input::Move(Dir::Down) => "down",
        Input::Undo => "undo",
        Input::Restart => "restart",
        _ => "wait",
    }
}

/// The play pane of a baba document: the moves, wait, undo, restart, the turn list (click a
/// turn to go back to it), the rules active in the current turn, and a banner when won or
/// lost.
pub fn play_ui(ui: &mut Ui, d: &BabaDoc, out: &mut Vec<Action>) {
    let Some(p) = &d.play else { return };
    let status = p.status();
    banner_ui(ui, p, &status);
    ui.label(format!("turn {}   status {}", p.turn(), status.word()));
    pad_ui(ui, &status, out);
    actions_ui(ui, p, out);
    ui.separator();
    ui.strong(format!("Active rules in turn {}", p.turn()));
    if p.rules().is_empty() {
        ui.label(RichText::new("(none)").italics());
    }
    rule_rows(ui, d, out);
    ui.separator();
    turns_ui(ui, p, out);
}

/// A banner when the level is won, or when nothing can move.
fn banner_ui(ui: &mut Ui, p: &BabaPlay, status: &Status) {
    match status {
        Status::Won { .. } => {
            egui::Frame::new()
                .fill(Color32::from_rgb(40, 120, 40))
                .inner_margin(8.0)
                .corner_radius(4.0)
                .show(ui, |ui| {
                    ui.label(
                        RichText::new(format!("Level won in {} turns!", p.turn()))
                            .heading()
                            .color(Color32::WHITE),
                    );
                });
        }
        Status::Lost { reason } => {
            egui::Frame::new()
                .fill(Color32::from_rgb(120, 40, 40))
                .inner_margin(8.0)
                .corner_radius(4.0)
                .show(ui, |ui| {
                    ui.label(
                        RichText::new(format!("Nothing can move: {reason} (Z undoes)"))
                            .strong()
                            .color(Color32::WHITE),
                    );
                });
        }
        // Baba levels never end in a draw.
        Status::Running | Status::Draw { .. } => {}
    }
}

/// The arrows and wait, as a pad.
fn pad_ui(ui: &mut Ui, status: &Status, out: &mut Vec<Action>) {
    let won = matches!(*status, Status::Won { .. });
    egui::Grid::new("baba-pad").show(ui, |ui| {
        ui.label("");
        pad(
            ui,
            out,
            Input::Move(Dir::Up),
            "Up",
            "Move up (Up arrow)",
            !won,
        );
        ui.label("");
        ui.end_row();
        pad(
            ui,
            out,
            Input::Move(Dir::Left),
            "Left",
            "Move left (Left arrow)",
            !won,
        );
        pad(
            ui,
            out,
            Input::Wait,
            "Wait",
            "Wait one turn (Space or .)",
            !won,
        );
        pad(
            ui,
            out,
            Input::Move(Dir::Right),
            "Right",
            "Move right (Right arrow)",
            !won,
        );
        ui.end_row();
        ui.label("");
        pad(
            ui,
            out,
            Input::Move(Dir::Down),
            "Down",
            "Move down (Down arrow)",
            !won,
        );
        ui.label("");
        ui.end_row();
    });
}

/// Undo, redo, restart, use as design, record.
fn actions_ui(ui: &mut Ui, p: &BabaPlay, out: &mut Vec<Action>) {
    ui.horizontal_wrapped(|ui| {
        pad(
            ui,
            out,
            Input::Undo,
            "Undo (Z)",
            "Take back the last turn, as the game does",
            p.turn() > 0,
        );
        if ui
            .add_enabled(p.redo_len() > 0, egui::Button::new("Redo turn"))
            .on_hover_text("Step forward again through turns that were undone")
            .clicked()
        {
            out.push(Action::Play(PlayAction::Forward));
        }
        pad(
            ui,
            out,
            Input::Restart,
            "Restart (R)",
            "Back to the level's start (the turns stay in the list)",
            p.turn() > 0,
        );
        if ui
            .button("Use as design")
            .on_hover_text("Copy this state into the design (one undo step)")
            .clicked()
        {
            out.push(Action::Play(PlayAction::UseAsDesign));
        }
        if ui
            .add_enabled(p.turn() > 0, egui::Button::new("Record replay"))
            .on_hover_text(
                "Save the turns up to this one as a replay file, checked by `tilesmith run --replay`",
            )
            .clicked()
        {
            out.push(Action::Play(PlayAction::Record));
        }
        crate::ui::export_ui::export_gif_button(ui, out);
    });
}

/// The turn list: one row per turn with its input and the rules it formed and broke, coloured
/// by the shell's reachability mark of the state after it (win in N, dead, unknown).
fn turns_ui(ui: &mut Ui, p: &BabaPlay, out: &mut Vec<Action>) {
    ui.strong("Turns");
    // One row per turn, only the visible rows are laid out (sessions can be long).
    let reachable = p.turn() as usize + p.redo_len();
    let row_h =
        ui.text_style_height(&egui::TextStyle::Button) + ui.spacing().button_padding.y * 2.0;
    egui::ScrollArea::both()
        .id_salt("baba-turns")
        .max_height(200.0)
        .stick_to_bottom(true)
        .show_rows(ui, row_h, reachable.min(p.log.len()) + 1, |ui, rows| {
            ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
            for row in rows {
                let n = row as u64;
                let text = match row.checked_sub(1).and_then(|i| p.log.get(i)) {
                    None => "0: start".to_string(),
                    Some(l) => {
                        let mut text = format!("{n}: {}", input_label(l.input));
                        for f in &l.formed {
                            text.push_str(&format!("  + {f}"));
                        }
                        for b in &l.broken {
                            text.push_str(&format!("  - {b}"));
                        }
                        if l.status.is_over() {
                            text.push_str(&format!("  ({})", l.status.word()));
                        }
                        text
                    }
                };
                // The shell's reachability mark of the state after this turn, if any.
                let mark = row_mark(ui, &p.session, n);
                let text = match &mark {
                    Some(m) => format!("{text}   {}", m.words),
                    None => text,
                };
                let mut rt = RichText::new(text);
                if let Some(m) = &mark {
                    rt = rt.color(m.color);
                }
                if n > p.turn() {
                    rt = rt.italics();
                    if mark.is_none() {
                        rt = rt.weak();
                    }
                }
                let tip = match &mark {
                    Some(m) => format!(
                        "go to this turn; + rule formed, - rule broken in it; {}",
                        m.tip
                    ),
                    None => "go to this turn; + rule formed, - rule broken in it".into(),
                };
                if ui
                    .selectable_label(p.turn() == n, rt)
                    .on_hover_text(tip)
                    .clicked()
                {
                    out.push(PlayAction::Scrub(n).into());
                }
            }
        });
}

fn pad(ui: &mut Ui, out: &mut Vec<Action>, i: Input, label: &str, tip: &str, enabled: bool) {
    if ui
        .add_enabled(enabled, egui::Button::new(label).min_size(vec2(34.0, 0.0)))
        .on_hover_text(tip)
        .clicked()
    {
        out.push(PlayAction::Step(Some(i)).into());
    }
}

/// The rows of the rule list (the shown rules of `d`): hovering anywhere on a row highlights
/// the rule's text tiles on the map.
pub(super) fn rule_rows(ui: &mut Ui, d: &BabaDoc, out: &mut Vec<Action>) {
    let mut hovered = None;
    let (left, right) = (ui.max_rect().left(), ui.max_rect().right());
    for (i, r) in d.rules().iter().enumerate() {
        let on = d.hovered_rule == Some(i);
        let mut text = RichText::new(&*r.text).monospace();
        if on {
            text = text.color(Color32::from_rgb(255, 120, 255)).strong();
        }
        let resp = ui
            .add(egui::Label::new(text).sense(Sense::hover()))
            .on_hover_ui(|ui| {
                // Built only while hovered.
                ui.label(format!(
                    "{} text tile(s) at (x, y): {}",
                    r.tiles.len(),
                    r.tiles
                        .iter()
                        .map(|t| format!("({}, {})", t.pos.x, t.pos.y))
                        .collect::<Vec<_>>()
                        .join(" ")
                ));
            });
        let row = egui::Rect::from_x_y_ranges(left..=right, resp.rect.y_range());
        if on {
            ui.painter()
                .rect_filled(row, 2.0, Color32::from_rgba_unmultiplied(255, 0, 255, 28));
        }
        if resp.hovered() || ui.rect_contains_pointer(row) {
            hovered = Some(i);
        }
    }
    if hovered != d.hovered_rule {
        out.push(Action::from(BabaAction::HoverRule(hovered)));
    }
}

//! The play pane of a board game: who is to move (in their colour) or how the game ended,
//! undo, redo and restart, the turn being clicked (a selected piece, a chain so far, a choice
//! between turns sharing the keys clicked), the legal turns by notation (each playable with a
//! click), and the turns played. On the board: the last turn's squares, the selected piece,
//! the chain so far, the legal targets, and a banner when the game is over.

use eframe::egui::{self, Align2, Color32, FontId, Painter, RichText, Stroke, Ui};
use tilesmith_engine::kind::board::play::Primitive;
use tilesmith_engine::kind::board::rules::{NO_POS, PosId};
use tilesmith_engine::{Game as _, Input, Pos, Status};

use super::play::BoardPlay;
use super::ui::{piece_radius, player_color};
use super::{BoardAction, BoardDoc, look};
use crate::doc::ui::MapGeom;
use crate::play::pane::{LegalList, legal_list_ui, status_banner};
use crate::play::reach_ui::row_mark;
use crate::state::{Action, PlayAction};

fn step(out: &mut Vec<Action>, i: usize) {
    out.push(Action::from(PlayAction::Step(Some(Input::Choice(
        i as u32,
    )))));
}

/// The player to move, or how the game ended.
fn status_ui(ui: &mut Ui, p: &BoardPlay) {
    let g = p.game();
    let turn = || {
        let to = g.position().to_move(g.rules());
        let name = p.board.player_name(to).to_string();
        (player_color(&p.board, to), format!("{name} to move"))
    };
    // A generation failure stops the game without a result: "Stopped", not "Game over";
    // where it is written when the rules have a file: `game.zrf:6:29: …`.
    let stopped = match (g.error(), g.error_problem()) {
        (Some(_), Some(pr)) if pr.file.is_some() => Some(format!("Stopped: {}", pr.render(""))),
        (Some(_), _) => match g.status() {
            Status::Lost { reason } => Some(format!("Stopped: {reason}")),
            _ => None,
        },
        (None, _) => None,
    };
    status_banner(ui, &g.status(), turn, stopped);
}

/// Undo, redo, restart and the ply counter.
fn history_buttons(ui: &mut Ui, p: &BoardPlay, out: &mut Vec<Action>) {
    let s = &p.session;
    ui.horizontal_wrapped(|ui| {
        if ui
            .add_enabled(s.steps() > 0, egui::Button::new("Undo move"))
            .on_hover_text("Take back the last turn (Z or Backspace)")
            .clicked()
        {
            out.push(PlayAction::Back.into());
        }
        if ui
            .add_enabled(s.steps() < s.history_len(), egui::Button::new("Redo move"))
            .on_hover_text("Play the undone turn again")
            .clicked()
        {
            out.push(PlayAction::Forward.into());
        }
        if ui
            .add_enabled(s.steps() > 0, egui::Button::new("Restart game"))
            .on_hover_text("Back to the position the game started from (R)")
            .clicked()
        {
            out.push(PlayAction::Reset.into());
        }
        ui.label(format!("ply {}", s.steps()));
    });
}

/// The turn being clicked: the selection, the chain so far, the choice between turns.
fn pick_ui(ui: &mut Ui, p: &BoardPlay, out: &mut Vec<Action>) {
    let (pick, b, turns) = (&p.pick, &p.board, p.turns());
    if !pick.choose.is_empty() {
        ui.label(RichText::new("Several turns match: choose one").strong());
        ui.horizontal_wrapped(|ui| {
            for &i in &pick.choose {
                let n = &turns[i].notation;
                if ui
                    .button(RichText::new(n).monospace())
                    .accessible_name(format!("choose {n}"))
                    .clicked()
                {
                    step(out, i);
                }
            }
        });
    }
    if !pick.keys.is_empty() {
        let chain: Vec<String> = pick
            .keys
            .iter()
            .enumerate()
            .map(|(n, k)| {
                let from = k.from.map_or(String::new(), |f| b.pos_name(f).to_string());
                let takes = pick.candidates(turns).first().is_some_and(|&i| {
                    turns[i].parts[n]
                        .primitives
                        .iter()
                        .any(|x| matches!(x, Primitive::Capture(_)))
                });
                format!(
                    "{from}{}{}",
                    if takes { 'x' } else { '-' },
                    b.pos_name(k.to)
                )
            })
            .collect();
        ui.label(format!(
            "Chain so far: {} — click where the piece goes next",
            chain.join(", ")
        ));
        ui.horizontal(|ui| {
            if !pick.complete(turns).is_empty() && ui.button("End the turn here").clicked() {
                out.push(BoardAction::EndChain.into());
            }
            if ui.button("Cancel the turn").clicked() {
                out.push(BoardAction::CancelPick.into());
            }
        });
    } else if let Some(f) = pick.from {
        let piece = p.game().position().cells[f as usize]
            .map_or_else(|| "empty".to_string(), |c| b.describe(&c));
        ui.label(format!(
            "Selected {} ({piece}): click a green target, or another piece",
            b.pos_name(f)
        ));
    } else if p.session.game.status() == Status::Running {
        ui.label(
            RichText::new("Click a piece, then where it goes (or a legal move below).").weak(),
        );
    }
    if let Some(n) = &p.note {
        ui.label(RichText::new(n).weak().italics());
    }
}

/// The legal turns, each a button playing it; those that fit the clicks so far stand out.
fn legal_ui(ui: &mut Ui, p: &BoardPlay, out: &mut Vec<Action>) {
    let turns = p.turns();
    let words: Vec<String> = turns.iter().map(|t| t.notation.clone()).collect();
    let fits = p.pick.candidates(turns);
    let picking = p.pick.from.is_some() || !p.pick.keys.is_empty();
    let list = LegalList {
        title: "Legal moves",
        id: "legal moves",
        words: &words,
        total: words.len() as u64,
        cap: words.len(),
        name: None,
        height: 160.0,
    };
    if let Some(i) = legal_list_ui(ui, &list, |i| picking && !fits.contains(&i)) {
        step(out, i);
    }
}

/// The turns played (and those undone, which Redo plays again); a click goes there.
fn played_ui(ui: &mut Ui, p: &BoardPlay, out: &mut Vec<Action>) {
    let played = p.played();
    let now = p.session.steps() as usize;
    ui.strong("Moves played");
    if played.is_empty() {
        ui.label(RichText::new("(none yet)").weak());
        return;
    }
    egui::ScrollArea::vertical()
        .id_salt("moves played")
        .max_height(140.0)
        .show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                for (i, w) in played
                    .iter()
                    .enumerate()
                    .take(p.session.history_len() as usize)
                {
                    let mut text = RichText::new(format!("{}. {w}", i + 1)).monospace();
                    // A one-player level: the shell's reachability mark of the position after
                    // the move colours it.
                    let mark = row_mark(ui, &p.session, i as u64 + 1);
                    if let Some(m) = &mark {
                        text = text.color(m.color);
                    }
                    if i >= now {
                        text = text.italics();
                        if mark.is_none() {
                            text = text.weak();
                        }
                    }
                    let tip = mark.map_or("go to the position after this move".into(), |m| {
                        format!("go to the position after this move; {}: {}", m.words, m.tip)
                    });
                    if ui
                        .selectable_label(i + 1 == now, text)
                        .on_hover_text(tip)
                        .clicked()
                    {
                        out.push(PlayAction::Scrub(i as u64 + 1).into());
                    }
                }
            });
        });
}

/// The play pane.
pub fn play_ui(ui: &mut Ui, d: &BoardDoc, out: &mut Vec<Action>) {
    let Some(p) = &d.play else { return };
    status_ui(ui, p);
    history_buttons(ui, p, out);
    ui.separator();
    pick_ui(ui, p, out);
    ui.separator();
    legal_ui(ui, p, out);
    ui.separator();
    played_ui(ui, p, out);
    ui.separator();
    ui.horizontal_wrapped(|ui| {
        if ui
            .button("Use this position as the design")
            .on_hover_text("The position in play becomes the design (one undo step)")
            .clicked()
        {
            out.push(PlayAction::UseAsDesign.into());
        }
        if ui
            .button("Record replay…")
            .on_hover_text("Save the moves played as a replay (their notations)")
            .clicked()
        {
            out.push(PlayAction::Record.into());
        }
        crate::ui::export_ui::export_gif_button(ui, out);
    });
}

/// The screen centre of position `i`.
fn center(p: &BoardPlay, g: &MapGeom, i: PosId) -> Option<egui::Pos2> {
    p.board
        .layout
        .cell
        .get(i as usize)
        .map(|c| g.cell_rect(*c).center())
}

/// Shades the last turn's key origin and destination (drawn under the pieces).
pub fn paint_last_move(painter: &Painter, p: &BoardPlay, g: &MapGeom) {
    let Some((f, t)) = p.game().position().last else {
        return;
    };
    for i in [f, t].into_iter().filter(|i| *i != NO_POS) {
        if let Some(c) = center(p, g, i) {
            let r = egui::Rect::from_center_size(c, egui::vec2(g.zoom, g.zoom));
            painter.rect_filled(r.shrink(1.0), 2.0, look::LAST_MOVE);
        }
    }
}

/// The selection, the chain so far and the legal targets; a banner over the board when the
/// game is over.
pub fn paint_overlays(painter: &Painter, p: &BoardPlay, g: &MapGeom) {
    let b = &p.board;
    let cell = g.zoom;
    let square = |c: egui::Pos2| egui::Rect::from_center_size(c, egui::vec2(cell, cell));
    let turns = p.turns();
    let radius = piece_radius(b, g.zoom);
    let round = !b.layout.squares;
    for k in &p.pick.keys {
        if let (Some(a), Some(z)) = (k.from.and_then(|f| center(p, g, f)), center(p, g, k.to)) {
            painter.line_segment([a, z], Stroke::new((cell * 0.08).max(2.0), look::SELECTED));
        }
    }
    if let Some(c) = p.pick.from.and_then(|f| center(p, g, f)) {
        look::paint_mark(painter, square(c), look::SELECTED, round);
    }
    let cells = p.shown_cells();
    for t in p.pick.targets(turns) {
        if let Some(c) = center(p, g, t) {
            look::paint_target(painter, c, radius, cells[t as usize].is_some());
        }
    }
    let (_, drops) = p.pick.starts(turns);
    for t in drops {
        if let Some(c) = center(p, g, t) {
            look::paint_target(painter, c, radius * 0.7, false);
        }
    }
    let status = p.session.game.status();
    if status.is_over() {
        let text = match status {
            Status::Won {
                winner: Some(w), ..
            } => format!("{w} wins"),
            Status::Won { .. } => "Solved".into(),
            Status::Draw { .. } => "Draw".into(),
            Status::Lost { .. } if p.session.game.error().is_some() => "Stopped".into(),
            Status::Lost { .. } | Status::Running => "Game over".into(),
        };
        let l = &b.layout;
        let top = g.cell_rect(Pos::new(0, 0)).min;
        let width = l.width as f32 * g.zoom;
        let at = top + egui::vec2(width / 2.0, (l.height as f32 * g.zoom) / 2.0);
        let font = FontId::proportional((g.zoom * 0.8).clamp(16.0, 40.0));
        let galley = painter.layout_no_wrap(text.clone(), font.clone(), Color32::WHITE);
        let bg = egui::Rect::from_center_size(at, galley.size() + egui::vec2(24.0, 12.0));
        painter.rect_filled(bg, 6.0, Color32::from_black_alpha(190));
        painter.text(at, Align2::CENTER_CENTER, text, font, Color32::WHITE);
    }
}

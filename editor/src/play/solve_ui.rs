//! The Solve section of the play pane: the budget, the Solve button, the progress and
//! Cancel, and the result with its line to step and, for two players, each legal move's
//! value ([`super::solver`] holds the logic).

use std::path::Path;
use std::time::{Duration, Instant};

use eframe::egui::text::{LayoutJob, TextFormat};
use eframe::egui::{self, Color32, FontId, RichText, Ui};
use tilesmith_engine::intended;
use tilesmith_engine::search::alphabeta::{self, Value};
use tilesmith_engine::search::bfs;
use tilesmith_engine::search::solve::{MoveValue, Outcome};

use super::solver::{IntendedCheck, SolveResult, Solver, value_words};
use crate::doc::play::PlaySession;
use crate::state::{Action, PlayAction};

/// The pause between the steps of "Play the rest".
const AUTO_STEP: Duration = Duration::from_millis(150);

/// The Solve section of the play pane. `level`: the level's file, when saved (its intended
/// solution, `NAME.intended.replay.json`, is kept beside it).
pub fn solve_ui(
    ui: &mut Ui,
    p: &PlaySession,
    level: Option<&Path>,
    s: &mut Solver,
    out: &mut Vec<Action>,
) {
    if s.poll(p) {
        ui.ctx().request_repaint();
    }
    ui.heading("Solve");
    ui.add(
        egui::Slider::new(&mut s.seconds, 1.0..=600.0)
            .logarithmic(true)
            .suffix(" s")
            .text("time budget"),
    )
    .on_hover_text(
        "The longest a solve may search (two players: half for the position, half for its moves)",
    );
    if s.solving() {
        progress_ui(ui, s);
    } else if ui
        .button("Solve from here")
        .on_hover_text(
            "Search the position in play: one player, a shortest solution (A* where the kind \
             gives an estimate, else breadth-first); \
             two players, its value and each move's (alpha-beta)",
        )
        .clicked()
    {
        s.start(p, level.and_then(intended::beside));
        ui.ctx().request_repaint();
    }
    if p.game.players().len() < 2 {
        let keep = ui
            .add_enabled(
                level.is_some() && p.steps() > 0,
                egui::Button::new("Keep this play as the intended solution"),
            )
            .on_hover_text(
                "Save the play so far beside the level as NAME.intended.replay.json: Solve and \
                 `tilesmith solve` then say whether a shorter solution exists and where it \
                 leaves yours",
            )
            .on_disabled_hover_text("Play some steps of a saved level first");
        if keep.clicked() {
            out.push(Action::from(PlayAction::KeepIntended));
        }
    }
    if let Some(n) = &s.note {
        ui.label(RichText::new(n).small().weak());
    }
    let Some(r) = &s.result else { return };
    let mut auto = s.auto;
    result_ui(ui, p, r, &mut auto, out);
    s.auto = auto;
}

/// The progress bar (the budget used), what is searched and how fast, and Cancel.
fn progress_ui(ui: &mut Ui, s: &mut Solver) {
    let pr = s.progress();
    let text = pr.as_ref().map_or("starting".to_string(), |x| {
        format!(
            "{}: {} states, depth {}, {} states/s",
            x.phase,
            x.progress.states,
            x.progress.depth,
            x.progress.per_second.round()
        )
    });
    let fraction = pr.as_ref().map_or(0.0, |x| {
        (x.progress.elapsed.as_secs_f32() / s.seconds.max(1.0)).min(1.0)
    });
    let used = pr
        .as_ref()
        .map_or(0.0, |x| x.progress.elapsed.as_secs_f32());
    ui.add(egui::ProgressBar::new(fraction).text(format!("{used:.1} s of {:.0} s", s.seconds)));
    ui.label(RichText::new(text).small());
    if s.cancelling() {
        ui.label(RichText::new("cancelling…").small().weak());
    } else if ui.button("Cancel the solve").clicked() {
        s.cancel();
    }
    ui.ctx().request_repaint_after(Duration::from_millis(100));
}

/// The result: what was found, the line with its step buttons, each move's value.
fn result_ui(
    ui: &mut Ui,
    p: &PlaySession,
    r: &SolveResult,
    auto: &mut Option<Instant>,
    out: &mut Vec<Action>,
) {
    let secs = r.solved.elapsed.as_secs_f64();
    match &r.solved.outcome {
        Outcome::OnePlayer(o) => {
            ui.label(one_player_words(o, secs));
            if let Some(c) = &r.solved.intended {
                intended_ui(ui, c);
            }
        }
        Outcome::TwoPlayers(o) => {
            ui.label(two_players_words(o, &r.players, secs));
        }
    }
    let line = r.solved.line();
    if !line.is_empty() {
        line_ui(ui, p, r, auto, out);
    }
    if let Some(moves) = &r.solved.moves {
        moves_ui(ui, p, r, moves, out);
    }
}

/// A one-player answer in words.
fn one_player_words(o: &bfs::Outcome, secs: f64) -> String {
    match &o.answer {
        bfs::Answer::Solved(sol) => format!(
            "Solved: {} moves{}, {} ({}, {} states, {secs:.2} s)",
            sol.moves.len(),
            // A kind whose moves are several steps each (falling: a placement is frames).
            if sol.words.len() != sol.moves.len() {
                format!(" ({} steps)", sol.words.len())
            } else {
                String::new()
            },
            if sol.shortest {
                "proved shortest"
            } else {
                "not proved shortest"
            },
            o.algorithm.word(),
            o.states
        ),
        bfs::Answer::Unsolvable => format!(
            "Unsolvable: every reachable state explored ({} states, {} moves deep, {secs:.2} s)",
            o.states, o.depth
        ),
        bfs::Answer::Unknown(tilesmith_engine::search::Budget::Cancelled) => format!(
            "Unknown: cancelled after {} states, {} moves deep ({secs:.2} s)",
            o.states, o.depth
        ),
        bfs::Answer::Unknown(b) => format!(
            "Unknown: the {} budget ran out after {} states, {} moves deep ({secs:.2} s)",
            b.word(),
            o.states,
            o.depth
        ),
    }
}

/// The intended solution against the one found: a shortcut in the warning colour, with
/// the step where the found line leaves the intended one.
fn intended_ui(ui: &mut Ui, c: &IntendedCheck) {
    let (text, warn) = intended_words(c);
    let mut t = RichText::new(text);
    if warn {
        t = t.color(ui.visuals().warn_fg_color).strong();
    }
    ui.label(t);
}

/// The words of [`intended_ui`], and whether they warn (a shortcut, or an intended solution
/// that does not win or cannot be compared).
fn intended_words(c: &IntendedCheck) -> (String, bool) {
    let f = &c.file;
    let s = match &c.result {
        Err(why) => return (format!("Intended solution {f}: not compared: {why}"), true),
        Ok(s) => s,
    };
    let steps = |n: usize| format!("{n} step{}", if n == 1 { "" } else { "s" });
    if !s.wins {
        return (
            format!(
                "Intended solution {f}: it does not win (it ends after {})",
                steps(s.steps)
            ),
            true,
        );
    }
    match (s.shortcut, s.leaves_at) {
        (Some(true), at) => (
            format!(
                "Shortcut: the solution above is {} shorter than your intended one ({}, {f}){}",
                steps(s.shorter_by),
                steps(s.steps),
                at.map_or(String::new(), |k| format!("; it leaves yours at step {k}"))
            ),
            true,
        ),
        (Some(false), None) => (
            format!(
                "Your intended solution ({}, {f}) is the shortest solution found",
                steps(s.steps)
            ),
            false,
        ),
        (Some(false), Some(k)) => (
            format!(
                "Your intended solution ({}, {f}) is shortest; the solution above is as short \
                 and leaves yours at step {k}",
                steps(s.steps)
            ),
            false,
        ),
        (None, _) => (
            format!(
                "Intended solution {f} ({}): not compared, no solution was found within the \
                 budget",
                steps(s.steps)
            ),
            false,
        ),
    }
}

/// A two-player answer in words, for the player to move.
fn two_players_words(o: &alphabeta::Outcome, players: &[String], secs: f64) -> String {
    let who = players
        .get(o.player)
        .cloned()
        .unwrap_or_else(|| format!("player {}", o.player + 1));
    let plies = |k: u32| if k == 1 { "ply" } else { "plies" };
    let what = match o.value {
        Value::Win(k) => format!("{who} to move wins in {k} {}", plies(k)),
        Value::Loss(k) => format!("{who} to move loses in {k} {}", plies(k)),
        Value::Draw => format!(
            "a draw with best play ({who} to move; proved at {} plies)",
            o.depth
        ),
        Value::Unknown => format!(
            "unknown for {who}: {} after {} plies searched",
            o.stopped.map_or("stopped", |b| b.word()),
            o.depth
        ),
    };
    format!("Value: {what} ({} states, {secs:.2} s)", o.states)
}

/// The line (solution or principal variation), the step played so far marked, and the
/// buttons that play it.
fn line_ui(
    ui: &mut Ui,
    p: &PlaySession,
    r: &SolveResult,
    auto: &mut Option<Instant>,
    out: &mut Vec<Action>,
) {
    let line = r.solved.line();
    let at = r.at(p);
    let name = match r.solved.outcome {
        Outcome::OnePlayer(_) => "solution",
        Outcome::TwoPlayers(_) => "principal variation",
    };
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(format!("The {name}:")).small());
        for (i, w) in line.iter().enumerate() {
            let mut t = RichText::new(w).monospace();
            if at.is_some_and(|a| i < a) {
                t = t.color(Color32::from_rgb(120, 200, 120));
            } else if at == Some(i) {
                t = t.strong().underline();
            }
            ui.label(t);
        }
    });
    let next = r.next_input(p);
    if let Some(t) = *auto {
        match next {
            Some(input) if p.computing().is_none() => {
                if t.elapsed() >= AUTO_STEP {
                    out.push(Action::from(PlayAction::Step(Some(input))));
                    *auto = Some(Instant::now());
                }
                ui.ctx().request_repaint_after(AUTO_STEP);
            }
            Some(_) => {}
            None => *auto = None,
        }
    }
    ui.horizontal_wrapped(|ui| {
        let step = ui.add_enabled(
            next.is_some(),
            egui::Button::new(format!("Step the {name}")),
        );
        if step.clicked()
            && let Some(input) = next
        {
            if p.running {
                out.push(Action::from(PlayAction::Run(false)));
            }
            out.push(Action::from(PlayAction::Step(Some(input))));
        }
        let rest = ui.add_enabled(next.is_some(), egui::Button::new("Play the rest"));
        if rest.clicked() {
            if p.running {
                out.push(Action::from(PlayAction::Run(false)));
            }
            *auto = Some(Instant::now() - AUTO_STEP);
            ui.ctx().request_repaint();
        }
    });
    let where_ = match at {
        Some(a) if a == line.len() => format!("all {} steps played", line.len()),
        Some(a) => format!("{a} of {} steps played", line.len()),
        None => "play has left this line (undo to come back to it)".into(),
    };
    ui.label(RichText::new(where_).small().weak());
}

/// Each legal move with its value for the player to move; a click plays it.
fn moves_ui(
    ui: &mut Ui,
    p: &PlaySession,
    r: &SolveResult,
    moves: &[MoveValue],
    out: &mut Vec<Action>,
) {
    let here = r.at(p) == Some(0);
    ui.label(RichText::new("Each move, for the player to move:").small());
    ui.horizontal_wrapped(|ui| {
        for m in moves {
            move_value_ui(ui, p, m, here, out);
        }
    });
}

/// One move and its value, as one button (so that the pair wraps as one) that plays it.
fn move_value_ui(ui: &mut Ui, p: &PlaySession, m: &MoveValue, here: bool, out: &mut Vec<Action>) {
    let text = match (m.value, m.stopped) {
        (Value::Unknown, Some(b)) => format!("unknown ({})", b.word()),
        (v, _) => value_words(v),
    };
    let color = match m.value {
        Value::Win(_) => Color32::from_rgb(120, 200, 120),
        Value::Loss(_) => Color32::from_rgb(230, 120, 110),
        _ => ui.visuals().text_color(),
    };
    let mut job = LayoutJob::default();
    let mono = TextFormat {
        font_id: FontId::monospace(12.0),
        color: ui.visuals().strong_text_color(),
        ..TextFormat::default()
    };
    job.append(&m.word, 0.0, mono);
    let value = TextFormat {
        font_id: FontId::proportional(13.0),
        color,
        ..TextFormat::default()
    };
    job.append(&format!(" {text}"), 4.0, value);
    let b = ui
        .add_enabled(here, egui::Button::new(job).small())
        .on_hover_text("Play this move")
        .on_disabled_hover_text("Play is no longer at the position solved");
    if b.clicked()
        && let Ok(input) = p.game.read_input(&m.word)
    {
        out.push(Action::from(PlayAction::Step(Some(input))));
    }
}

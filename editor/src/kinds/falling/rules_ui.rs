//! The rules page (clear rules, fall laws, game over, sequence, timing, score, goal) and the
//! FPGDL script pane with line numbers and errors at their line.

use std::collections::BTreeMap;

use eframe::egui::{self, Color32, RichText, Ui};
use tilesmith_engine::kind::falling::fpgdl::{Script, ScriptError};
use tilesmith_engine::kind::falling::level::{
    ClearRule, FallLaw, FallingLevel, GameOver, Goal, Order, PuyoScore, ScoreRule,
};

use super::ui::set_rest;
use super::{FallingDoc, clear_rule_name, fall_law_name};
use crate::state::{Action, EditorState};
use crate::ui::code::{CodeLayout, LineMark, code_pane};

/// The Puyo Puyo Tsu tables (`../shared/corpus/falling/puyo_scoring.json`).
pub fn tsu_tables() -> PuyoScore {
    PuyoScore {
        chain_bonus: vec![
            0, 0, 8, 16, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480,
            512,
        ],
        color_bonus: vec![0, 0, 3, 6, 12, 24],
        group_bonus: vec![0, 0, 0, 0, 0, 2, 3, 4, 5, 6, 7, 10],
    }
}

/// Draws the rules page.
pub fn rules_ui(ui: &mut Ui, d: &FallingDoc, out: &mut Vec<Action>) {
    let level = &d.design().rest;
    egui::ScrollArea::vertical()
        .id_salt("falling rules")
        .show(ui, |ui| {
            controls_ui(ui, level, out);
            ui.separator();
            clear_ui(ui, level, out);
            ui.separator();
            fall_ui(ui, level, out);
            ui.separator();
            game_over_ui(ui, level, out);
            ui.separator();
            sequence_ui(ui, level, out);
            ui.separator();
            timing_ui(ui, level, out);
            ui.separator();
            score_ui(ui, level, out);
            ui.separator();
            goal_ui(ui, level, out);
        });
}

fn controls_ui(ui: &mut Ui, level: &FallingLevel, out: &mut Vec<Action>) {
    ui.heading("Controls");
    ui.horizontal_wrapped(|ui| {
        let mut r = level.clone();
        let mut changed = false;
        changed |= ui
            .checkbox(&mut r.hard_drop, "hard drop")
            .on_hover_text("HD (Space) drops the tumo and places it at once")
            .changed();
        changed |= ui
            .checkbox(&mut r.hold, "hold")
            .on_hover_text(
                "H (C) puts the tumo into the hold slot and takes the held one, once per placement",
            )
            .changed();
        changed |= ui
            .checkbox(&mut r.shadow, "shadow")
            .on_hover_text("Show where the tumo would land")
            .changed();
        changed |= ui
            .checkbox(&mut r.quick_turn, "quick turn")
            .on_hover_text(
                "Puyo: a second press of a failed turn within 15 frames turns two states at once",
            )
            .changed();
        if changed {
            set_rest(out, "Set controls", None, r);
        }
    });
    ui.horizontal(|ui| {
        ui.label("hidden rows")
            .on_hover_text("Top rows whose blocks never take part in a clear (Puyo's row 13)");
        let mut n = level.hidden_rows;
        ui.add(egui::DragValue::new(&mut n).range(0..=16));
        if n != level.hidden_rows {
            let mut r = level.clone();
            r.hidden_rows = n;
            set_rest(out, "Set hidden rows", Some("hidden rows"), r);
        }
    });
}

fn clear_ui(ui: &mut Ui, level: &FallingLevel, out: &mut Vec<Action>) {
    ui.heading("Clear rules")
        .on_hover_text("A block vanishes when any rule flags it");
    let mut r = level.clone();
    let mut what = None;
    for (i, rule) in level.clear.iter().enumerate() {
        ui.horizontal(|ui| {
            ui.label(clear_rule_name(rule));
            match &mut r.clear[i] {
                ClearRule::Connected { min } => {
                    ui.label("min");
                    if ui.add(egui::DragValue::new(min).range(2..=64)).changed() {
                        what = Some(("Set clear rule", Some(format!("clear {i}"))));
                    }
                }
                ClearRule::Squares { size } => {
                    ui.label("size");
                    if ui.add(egui::DragValue::new(size).range(2..=8)).changed() {
                        what = Some(("Set clear rule", Some(format!("clear {i}"))));
                    }
                }
                ClearRule::Lines { min, diagonal } => {
                    ui.label("min");
                    if ui.add(egui::DragValue::new(min).range(2..=64)).changed() {
                        what = Some(("Set clear rule", Some(format!("clear {i}"))));
                    }
                    if ui.checkbox(diagonal, "diagonal").changed() {
                        what = Some(("Set clear rule", None));
                    }
                }
                ClearRule::Rows => {}
            }
            if ui
                .small_button("x")
                .on_hover_text("Remove this rule")
                .clicked()
            {
                what = Some(("Remove clear rule", None));
                // With its kept unknown members, not leaving them to the next rule of its word.
                r.remove_clear_rule(i);
            }
        });
        if what
            .as_ref()
            .is_some_and(|(w, _)| *w == "Remove clear rule")
        {
            break;
        }
    }
    ui.horizontal_wrapped(|ui| {
        ui.label("add");
        for (label, rule) in [
            ("connected", ClearRule::Connected { min: 4 }),
            ("rows", ClearRule::Rows),
            ("squares", ClearRule::Squares { size: 2 }),
            (
                "lines",
                ClearRule::Lines {
                    min: 3,
                    diagonal: true,
                },
            ),
        ] {
            if ui.small_button(label).clicked() {
                r.clear.push(rule);
                what = Some(("Add clear rule", None));
            }
        }
    });
    if let Some((w, merge)) = what {
        set_rest(out, w, merge.as_deref(), r);
    }
}

fn fall_ui(ui: &mut Ui, level: &FallingLevel, out: &mut Vec<Action>) {
    ui.heading("Fall laws")
        .on_hover_text("In order; a later law's request wins (gravity last makes every block fall as far as it can)");
    let mut r = level.clone();
    let mut what = None;
    for (i, f) in level.fall.iter().enumerate() {
        ui.horizontal(|ui| {
            ui.label(format!("{}. {}", i + 1, fall_law_name(*f)));
            if i > 0 && ui.small_button("^").on_hover_text("Earlier").clicked() {
                r.fall.swap(i - 1, i);
                what = Some("Reorder fall laws");
            }
            if ui.small_button("x").clicked() && what.is_none() {
                r.fall.remove(i);
                what = Some("Remove fall law");
            }
        });
    }
    ui.horizontal_wrapped(|ui| {
        ui.label("add");
        for f in [FallLaw::Gravity, FallLaw::Rows, FallLaw::Joined] {
            if ui.small_button(fall_law_name(f)).clicked() {
                r.fall.push(f);
                what = Some("Add fall law");
            }
        }
    });
    if let Some(w) = what {
        set_rest(out, w, None, r);
    }
}

fn game_over_ui(ui: &mut Ui, level: &FallingLevel, out: &mut Vec<Action>) {
    ui.heading("Game over");
    let mut r = level.clone();
    let mut what = None;
    let has = |g: fn(&GameOver) -> bool| level.game_over.iter().any(g);
    ui.horizontal_wrapped(|ui| {
        let mut spawn = has(|g| matches!(g, GameOver::SpawnBlocked));
        let mut top = has(|g| matches!(g, GameOver::TopRow));
        let timeout = level.game_over.iter().find_map(|g| match g {
            GameOver::TopRowTimeout { frames } => Some(*frames),
            _ => None,
        });
        let mut timed = timeout.is_some();
        let mut frames = timeout.unwrap_or(180);
        let mut changed = ui.checkbox(&mut spawn, "spawn blocked").changed();
        changed |= ui.checkbox(&mut top, "block in top row").changed();
        changed |= ui.checkbox(&mut timed, "top row for").changed();
        let f = ui.add_enabled(
            timed,
            egui::DragValue::new(&mut frames)
                .range(1..=36_000)
                .suffix(" frames"),
        );
        if f.changed() {
            changed = true;
            what = Some(("Set game over", Some("game over frames".to_string())));
        }
        if changed {
            let mut rules = Vec::new();
            if spawn {
                rules.push(GameOver::SpawnBlocked);
            }
            if top {
                rules.push(GameOver::TopRow);
            }
            if timed {
                rules.push(GameOver::TopRowTimeout { frames });
            }
            // Each condition keeps its kept unknown members.
            r.set_game_over(rules);
            what.get_or_insert(("Set game over", None));
        }
    });
    if let Some((w, merge)) = what {
        set_rest(out, w, merge.as_deref(), r);
    }
}

fn sequence_ui(ui: &mut Ui, level: &FallingLevel, out: &mut Vec<Action>) {
    ui.heading("Sequence");
    let mut r = level.clone();
    let mut what = None;
    ui.horizontal(|ui| {
        for (o, label, tip) in [
            (
                Order::Random,
                "random",
                "Each next tumo drawn uniformly from the list (seeded)",
            ),
            (
                Order::Bag,
                "bag",
                "Every listed tumo once per bag, bags shuffled (Tetris 7-bag)",
            ),
            (
                Order::Fixed,
                "fixed",
                "The list in order; the sequence ends when it is used up",
            ),
        ] {
            if ui
                .selectable_label(level.sequence.order == o, label)
                .on_hover_text(tip)
                .clicked()
                && level.sequence.order != o
            {
                r.sequence.order = o;
                what = Some("Set sequence order");
            }
        }
    });
    let names: Vec<&str> = level
        .sequence
        .tumos
        .iter()
        .filter_map(|&t| level.tumos.get(t).map(|t| t.name.as_str()))
        .collect();
    ui.label(format!(
        "tumos: {}",
        if names.is_empty() {
            "(none)".into()
        } else {
            names.join(" ")
        }
    ));
    ui.horizontal_wrapped(|ui| {
        ui.label("add");
        for (i, t) in level.tumos.iter().enumerate() {
            if ui.small_button(&t.name).clicked() {
                r.sequence.tumos.push(i);
                what = Some("Add to sequence");
            }
        }
        if !level.sequence.tumos.is_empty() && ui.small_button("remove last").clicked() {
            r.sequence.tumos.pop();
            what = Some("Remove from sequence");
        }
    });
    if let Some(w) = what {
        set_rest(out, w, None, r);
    }
}

fn timing_ui(ui: &mut Ui, level: &FallingLevel, out: &mut Vec<Action>) {
    ui.heading("Timing")
        .on_hover_text("In frames (60 a second); 0 = instant");
    let mut r = level.clone();
    let t = &mut r.timing;
    let mut changed = None;
    egui::Grid::new("timing").num_columns(4).show(ui, |ui| {
        let rows: [(&str, &mut u32, &str); 7] = [
            (
                "gravity",
                &mut t.gravity,
                "frames per cell of the tumo's fall",
            ),
            (
                "soft drop",
                &mut t.soft_drop,
                "frames per cell while soft drop is held",
            ),
            (
                "lock",
                &mut t.lock,
                "frames a landed tumo waits before it is placed",
            ),
            (
                "spawn",
                &mut t.spawn,
                "frames from placing to the next spawn",
            ),
            ("clear", &mut t.clear, "frames a vanish takes"),
            (
                "fall",
                &mut t.fall,
                "frames per cell of a field block's fall",
            ),
            (
                "land",
                &mut t.land,
                "frames a fallen block rests before it counts as settled (puyoai's grounding)",
            ),
        ];
        for (k, (label, v, tip)) in rows.into_iter().enumerate() {
            ui.label(label).on_hover_text(tip);
            if ui.add(egui::DragValue::new(v).range(0..=3600)).changed() {
                changed = Some(label);
            }
            if k % 2 == 1 || k == 6 {
                ui.end_row();
            }
        }
    });
    if let Some(label) = changed {
        set_rest(out, "Set timing", Some(&format!("timing {label}")), r);
    }
}

/// `"0, 0, 8, 16"` from a table.
fn table_text(t: &[u64]) -> String {
    t.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
}

/// A table from `"0, 0, 8, 16"`; `None` when a number does not read.
fn parse_table(s: &str) -> Option<Vec<u64>> {
    s.split([',', ' '])
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().ok())
        .collect()
}

fn score_ui(ui: &mut Ui, level: &FallingLevel, out: &mut Vec<Action>) {
    ui.heading("Score");
    let mut r = level.clone();
    let mut what = None;
    ui.horizontal(|ui| {
        let kind = match &level.score {
            None => 0,
            Some(ScoreRule::Puyo(_)) => 1,
            Some(ScoreRule::Rows(_)) => 2,
        };
        for (k, label) in [(0, "none"), (1, "puyo (Tsu)"), (2, "rows")] {
            if ui.selectable_label(kind == k, label).clicked() && kind != k {
                r.score = match k {
                    1 => Some(ScoreRule::Puyo(tsu_tables())),
                    2 => Some(ScoreRule::Rows(vec![0, 100, 300, 500, 800])),
                    _ => None,
                };
                what = Some(("Set score rule", None));
            }
        }
    });
    let mut row = |ui: &mut Ui, label: &str, t: &mut Vec<u64>, key: &str| {
        ui.horizontal(|ui| {
            ui.label(label);
            let mut s = table_text(t);
            if ui
                .add(egui::TextEdit::singleline(&mut s).desired_width(220.0))
                .changed()
                && let Some(v) = parse_table(&s).filter(|v| !v.is_empty())
            {
                *t = v;
                what = Some(("Set score table", Some(key.to_string())));
            }
        });
    };
    match &mut r.score {
        Some(ScoreRule::Puyo(p)) => {
            row(ui, "chain bonus", &mut p.chain_bonus, "chain");
            row(ui, "colour bonus", &mut p.color_bonus, "colour");
            row(ui, "group bonus", &mut p.group_bonus, "group");
        }
        Some(ScoreRule::Rows(points)) => row(ui, "points by rows", points, "rows"),
        None => {}
    }
    if let Some((w, merge)) = what {
        set_rest(out, w, merge.as_deref(), r);
    }
}

fn goal_ui(ui: &mut Ui, level: &FallingLevel, out: &mut Vec<Action>) {
    ui.heading("Goal").on_hover_text(
        "Reaching it wins; with a fixed sequence, missing it when the sequence ends loses",
    );
    let mut r = level.clone();
    let mut what = None;
    ui.horizontal_wrapped(|ui| {
        let kind = match level.goal {
            None => 0,
            Some(Goal::ClearAll) => 1,
            Some(Goal::Chain { .. }) => 2,
            Some(Goal::Score { .. }) => 3,
            Some(Goal::Rows { .. }) => 4,
        };
        for (k, label) in [
            (0, "none"),
            (1, "clear all"),
            (2, "chain"),
            (3, "score"),
            (4, "rows"),
        ] {
            if ui.selectable_label(kind == k, label).clicked() && kind != k {
                r.goal = match k {
                    1 => Some(Goal::ClearAll),
                    2 => Some(Goal::Chain { min: 2 }),
                    3 => Some(Goal::Score { min: 1000 }),
                    4 => Some(Goal::Rows { min: 4 }),
                    _ => None,
                };
                what = Some(("Set goal", None::<String>));
            }
        }
        match &mut r.goal {
            Some(Goal::Chain { min }) | Some(Goal::Rows { min }) => {
                ui.label("at least");
                if ui.add(egui::DragValue::new(min).range(1..=99)).changed() {
                    what = Some(("Set goal", Some("goal min".into())));
                }
            }
            Some(Goal::Score { min }) => {
                ui.label("at least");
                if ui
                    .add(egui::DragValue::new(min).range(1..=u32::MAX as u64))
                    .changed()
                {
                    what = Some(("Set goal", Some("goal min".into())));
                }
            }
            _ => {}
        }
    });
    if let Some((w, merge)) = what {
        set_rest(out, w, merge.as_deref(), r);
    }
}

/// The error of the script text `source`, if it does not load (compiled in a sandbox with
/// its budgets; cached by the caller's key).
pub fn script_error(source: &str) -> Option<ScriptError> {
    Script::new(source).err()
}

thread_local! {
    static CHECKED: std::cell::RefCell<Option<(u64, Option<ScriptError>)>> =
        const { std::cell::RefCell::new(None) };
}

/// The load error of `source`, computed once per text.
fn cached_error(source: &str) -> Option<ScriptError> {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    source.hash(&mut h);
    let key = h.finish();
    CHECKED.with(|c| {
        let mut c = c.borrow_mut();
        if let Some((k, e)) = c.as_ref()
            && *k == key
        {
            return e.clone();
        }
        let e = script_error(source);
        *c = Some((key, e.clone()));
        e
    })
}

/// The script pane: the FPGDL source in the shared code pane (source line numbers, so a
/// wrapped line keeps one); an error (from loading the text, or
/// from the running game) is shown under it and its line is marked.
pub fn script_ui(ui: &mut Ui, _st: &EditorState, d: &FallingDoc, out: &mut Vec<Action>) {
    let level = &d.design().rest;
    ui.heading("FPGDL script");
    ui.label(
        RichText::new(
            "Lua 5.4, sandboxed: update() runs every frame after the built-in rules, with \
             getFieldBlock, getComboBlockNum, getAllBlockDownFlag, setBlockDeleteFlag, \
             setBlockDownCellNum, getFieldWidth, getFieldHeight",
        )
        .small(),
    );
    let mut has = level.script.is_some();
    if ui.checkbox(&mut has, "this level has a script").changed() {
        let mut r = level.clone();
        r.script = has.then(|| "function update()\nend\n".to_string());
        set_rest(
            out,
            if has { "Add script" } else { "Remove script" },
            None,
            r,
        );
    }
    let Some(source) = &level.script else { return };
    let error = cached_error(source);
    let run_error = d.play.as_ref().and_then(|p| p.script_error());
    let shown = run_error.as_ref().or(error.as_ref());
    if let Some(e) = shown {
        ui.label(
            RichText::new(e.to_string())
                .color(Color32::from_rgb(255, 110, 110))
                .monospace(),
        );
    } else {
        ui.label(RichText::new("loads without errors").color(Color32::from_rgb(120, 220, 120)));
    }
    let marks: BTreeMap<usize, LineMark> = shown
        .and_then(|e| e.line)
        .map(|line| {
            let color = Color32::from_rgb(255, 110, 110);
            (line, LineMark { color, note: None })
        })
        .into_iter()
        .collect();
    let mut text = source.clone();
    let layout = CodeLayout {
        name: "script text",
        rows: 18,
        wrap: true,
    };
    egui::ScrollArea::vertical()
        .id_salt("script")
        .max_height(420.0)
        .show(ui, |ui| {
            let r = code_pane(ui, &mut text, &marks, &mut None, layout)
                .response
                .response;
            if r.accessible_name("script text").changed() {
                let mut rr = level.clone();
                rr.script = Some(text.clone());
                set_rest(out, "Edit script", Some("script"), rr);
            }
        });
}

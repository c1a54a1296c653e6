//! Headless window tests (egui_kittest) of the falling document: editing a rotation-state
//! grid, auto-rotate about a between-cells pivot, the kick lab's answer on a T-spin triple,
//! and a Tetris line clear in the play pane.

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

use eframe::egui::{Event, Key, Modifiers, PointerButton, Pos2, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use serde_json::{Value, json};
use tilesmith_editor::app::TilesmithApp;
use tilesmith_editor::kinds::falling::FallingDoc;
use tilesmith_editor::state::EditorState;
use tilesmith_engine::kind::falling::FallingLevel;

mod common;
use common::{harness, settle};

/// The SRS JLSTZ kick table, y down (the guideline's table with dy negated).
fn srs_jlstz() -> Value {
    json!({
        "0>1": [[0, 0], [-1, 0], [-1, -1], [0, 2], [-1, 2]],
        "1>0": [[0, 0], [1, 0], [1, 1], [0, -2], [1, -2]],
        "1>2": [[0, 0], [1, 0], [1, 1], [0, -2], [1, -2]],
        "2>1": [[0, 0], [-1, 0], [-1, -1], [0, 2], [-1, 2]],
        "2>3": [[0, 0], [1, 0], [1, -1], [0, 2], [1, 2]],
        "3>2": [[0, 0], [-1, 0], [-1, 1], [0, -2], [-1, -2]],
        "3>0": [[0, 0], [-1, 0], [-1, 1], [0, -2], [-1, -2]],
        "0>3": [[0, 0], [1, 0], [1, -1], [0, 2], [1, 2]]
    })
}

/// A Tetris level of `w` × `h` with one T tumo (SRS shapes and kicks), `rows + rows`, the
/// given field rows (top first, `#` a block) and an optional active T.
fn tetris(w: usize, h: usize, field: &[&str], active: Option<Value>) -> FallingLevel {
    let mut rows: Vec<String> = vec![".".repeat(w); h - field.len()];
    rows.extend(field.iter().map(|r| r.to_string()));
    let mut doc = json!({
        "kind": "falling",
        "name": "ui tetris",
        "width": w,
        "height": h,
        "blocks": [
            {"name": "purple", "color": [160, 60, 220], "form": "square", "role": "normal"},
            {"name": "grey", "color": [120, 120, 120], "form": "square", "role": "normal"}
        ],
        "tumos": [{
            "name": "T",
            "states": [
                [[0, -1, 0], [-1, -1, -1], [0, 0, 0]],
                [[0, -1, 0], [0, -1, -1], [0, -1, 0]],
                [[0, 0, 0], [-1, -1, -1], [0, -1, 0]],
                [[0, -1, 0], [-1, -1, 0], [0, -1, 0]]
            ],
            "block": "purple",
            "pivot": [1, 1],
            "kicks": srs_jlstz()
        }],
        "hard_drop": true,
        "shadow": true,
        "clear": [{"rule": "rows"}],
        "fall": ["rows"],
        "sequence": {"order": "random", "tumos": ["T"]},
        "timing": {"gravity": 30, "soft_drop": 2, "lock": 30, "spawn": 0, "clear": 0, "fall": 0},
        "score": {"rule": "rows", "points": [0, 100, 300, 500, 800]},
        "field": rows,
        "legend": {"#": "grey"}
    });
    if let Some(a) = active {
        doc["active"] = a;
    }
    FallingLevel::from_json(&doc).unwrap()
}

fn doc<'a>(h: &'a Harness<'static, TilesmithApp>) -> &'a FallingDoc {
    h.state()
        .state
        .doc_as::<FallingDoc>()
        .expect("a falling document")
}

fn click(h: &mut Harness<'static, TilesmithApp>, label: &str) {
    h.get_by_label(label).click();
    settle(h);
}

/// Presses and releases `button` at `p`.
fn click_at(h: &mut Harness<'static, TilesmithApp>, p: Pos2, button: PointerButton) {
    h.event(Event::PointerMoved(p));
    for pressed in [true, false] {
        h.event(Event::PointerButton {
            pos: p,
            button,
            pressed,
            modifiers: Modifiers::NONE,
        });
        h.step();
    }
    settle(h);
}

#[test]
fn clicking_a_state_grid_sets_cells_and_each_click_is_one_undo_step() {
    let mut h = harness(EditorState::new(tetris(10, 8, &[], None)));
    click(&mut h, "Rules");
    h.run_steps(5);
    let grid = h.get_by_label("state 1 grid").rect();
    // Cell (2, 2) of state 1 (the second state) is empty; a left click paints -1.
    let cell = grid.min + vec2(2.5 * 26.0, 2.5 * 26.0);
    assert_eq!(doc(&h).design().rest.tumos[0].states[1].cells[2 * 3 + 2], 0);
    click_at(&mut h, cell, PointerButton::Primary);
    assert_eq!(doc(&h).design().rest.tumos[0].states[1].cells[8], -1);
    // Label 1 chosen, then a click on cell (0, 0) paints label 1.
    click(&mut h, "label 1");
    click_at(&mut h, grid.min + vec2(13.0, 13.0), PointerButton::Primary);
    assert_eq!(doc(&h).design().rest.tumos[0].states[1].cells[0], 1);
    // The right button empties a cell.
    click_at(&mut h, cell, PointerButton::Secondary);
    assert_eq!(doc(&h).design().rest.tumos[0].states[1].cells[8], 0);
    assert_eq!(
        doc(&h).map.history.done_names(),
        ["Paint tumo cell", "Paint tumo cell", "Paint tumo cell"]
    );
    // Ctrl+Z takes back the last click only.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    settle(&mut h);
    assert_eq!(doc(&h).design().rest.tumos[0].states[1].cells[8], -1);
    assert_eq!(doc(&h).design().rest.tumos[0].states[1].cells[0], 1);
}

#[test]
fn auto_rotate_turns_state_0_about_a_between_cells_pivot() {
    // Panic Bomber's pair in a 2 × 2 box: blocks 1 and 2 on the top row, the pivot at the
    // box's centre (a cell corner, [0.5, 0.5]).
    let mut level = tetris(10, 8, &[], None);
    level.tumos[0].states.truncate(1);
    level.tumos[0].states[0] = tilesmith_engine::kind::falling::shape::ShapeGrid {
        side: 2,
        cells: vec![1, 2, 0, 0],
    };
    level.tumos[0].pivot = [0.5, 0.5];
    level.tumos[0].kicks = tilesmith_engine::kind::falling::shape::Kicks::None;
    let mut h = harness(EditorState::new(level));
    click(&mut h, "Rules");
    click(&mut h, "Auto-rotate: 4 states");
    let states: Vec<Vec<i8>> = doc(&h).design().rest.tumos[0]
        .states
        .iter()
        .map(|s| s.cells.clone())
        .collect();
    // Turning 90° clockwise on screen about the centre: top-left → top-right →
    // bottom-right → bottom-left (the spec's between-cells illustration, §3.2).
    assert_eq!(
        states,
        [
            vec![1, 2, 0, 0],
            vec![0, 1, 0, 2],
            vec![0, 0, 2, 1],
            vec![2, 0, 1, 0]
        ]
    );
    assert_eq!(doc(&h).map.history.done_names(), ["Auto-rotate (4 states)"]);
}

#[test]
fn the_kick_lab_shows_the_t_spin_triple_kick() {
    let mut h = harness(EditorState::new(tetris(10, 8, &[], None)));
    click(&mut h, "Rules");
    click(&mut h, "Kicks");
    click(&mut h, "T-spin triple setup");
    click(&mut h, "CW");
    // solution-finder's MinoRotationTest.Kicks.WithT.checks4ok1: the fifth test, (-1, -2)
    // with y up, is (-1, +2) with y down.
    h.get_by_label("CW to state 1: test 5 of 5 fitted: offset (-1, +2), now state 1");
}

#[test]
fn a_hard_drop_in_the_play_pane_clears_a_row() {
    // The bottom row has a gap of three; the T (state 0, bump up) drops its flat side into it.
    let active = json!({"tumo": "T", "state": 0, "x": 3, "y": 0, "labels": []});
    let level = tetris(10, 8, &["###...####"], Some(active));
    let mut h = harness(EditorState::new(level));
    click(&mut h, "Start playing");
    h.get_by_label("Play pane");
    h.key_press(Key::Space);
    settle(&mut h);
    let p = doc(&h).play.as_ref().unwrap();
    assert_eq!(p.game().rows(), 1);
    assert_eq!(p.game().score(), 100);
    // The full row vanished and the T's bump (column 4) dropped one row (`rows` fall law).
    let field = p.field_grid();
    let bottom: Vec<u8> = (0..10)
        .map(|x| *field.get(tilesmith_engine::Pos::new(x, 7)).unwrap())
        .collect();
    assert_eq!(bottom, [0, 0, 0, 0, 1, 0, 0, 0, 0, 0]);
}

#[test]
fn up_and_x_turn_clockwise_and_z_counter_clockwise_in_play() {
    let active = json!({"tumo": "T", "state": 0, "x": 3, "y": 2, "labels": []});
    let mut h = harness(EditorState::new(tetris(10, 8, &[], Some(active))));
    click(&mut h, "Start playing");
    let state = |h: &Harness<'static, TilesmithApp>| {
        doc(h).play.as_ref().unwrap().game().active().unwrap().state
    };
    h.key_press(Key::X);
    settle(&mut h);
    assert_eq!(state(&h), 1);
    h.key_press(Key::ArrowUp);
    settle(&mut h);
    assert_eq!(state(&h), 2);
    h.key_press(Key::Z);
    settle(&mut h);
    assert_eq!(state(&h), 1);
}

#[test]
fn removing_the_first_of_two_connected_rules_keeps_the_second_rules_members() {
    // Two `connected` rules with kept unknown members; the first one's remove button takes
    // its members with it, and the remaining rule keeps its own ("second").
    let mut doc_json = tetris(10, 8, &[], None).to_json();
    doc_json["clear"] = json!([
        {"rule": "connected", "min": 4, "note": "first"},
        {"rule": "connected", "min": 5, "note": "second"}
    ]);
    let level = FallingLevel::from_json(&doc_json).unwrap();
    let mut h = harness(EditorState::new(level));
    click(&mut h, "Rules");
    h.run_steps(5);
    // The page tab named Rules (the pane's own button has the same label).
    let tabs = h.get_all_by_label("Rules").count();
    h.get_all_by_label("Rules").nth(tabs - 1).unwrap().click();
    settle(&mut h);
    h.get_all_by_label("x").next().unwrap().click();
    settle(&mut h);
    let saved = doc(&h).design().rest.to_json();
    assert_eq!(
        saved["clear"],
        json!([{"rule": "connected", "min": 5, "note": "second"}])
    );
    assert_eq!(doc(&h).map.history.done_names(), ["Remove clear rule"]);
}

/// Issue #31 defect 7: a game its script stopped reads as stopped by the error (the CLI's
/// `"status":"error"`), not "Game over"; the banner wraps inside the map instead of running
/// past its box over the play badge.
#[test]
fn a_script_error_is_shown_as_stopped_not_game_over() {
    let doc = json!({
        "kind": "falling", "name": "f", "width": 6, "height": 6,
        "blocks": [{"name": "red", "color": [230, 40, 40]}],
        "tumos": [{"name": "pair", "states": [[[0, -1, 0], [0, 1, 0], [0, 0, 0]]], "block": "red"}],
        "clear": [{"rule": "connected", "min": 4}], "fall": ["gravity"],
        "sequence": {"order": "random", "tumos": ["pair"]},
        "script": "function update()\n  local t = nil\n  return t.field_that_does_not_exist_anywhere_in_this_script\nend\n",
    });
    let mut h = harness(EditorState::new(FallingLevel::from_json(&doc).unwrap()));
    click(&mut h, "Start playing");
    click(&mut h, "Frame");
    let game = &h.state().state.doc.play().unwrap().game;
    assert!(game.error().is_some(), "the script stops the game");
    let banner = h.get_by_label_contains("Stopped: script error: script line 3");
    assert!(h.query_by_label_contains("Game over").is_none());
    // The play pane's status is the CLI's word.
    h.get_by_label("error");
    assert!(h.query_by_label("lost").is_none());
    // Inside the canvas (the map's width), below the badge.
    let badge = h.get_by_label("Playing — Esc to stop");
    let (b, g) = (banner.rect(), badge.rect());
    assert!(
        b.min.y >= g.max.y,
        "the banner overlaps the badge: {b:?} {g:?}"
    );
    let screen = h.ctx.content_rect();
    assert!(
        b.max.x <= screen.max.x - 300.0,
        "the banner runs into the side panel: {b:?}"
    );
}

/// Issue #31 defect 2, in the window at 1280 × 800: the script pane numbers source lines, one
/// number a line however many rows it wraps to, so the line of a load error and of a runtime
/// error is the number marked and the number beside its text (line 5 had been numbered 9).
#[test]
fn the_script_pane_numbers_source_lines_and_marks_the_errors_line() {
    use tilesmith_editor::ui::code::{Gutter, gutter_id};
    let f =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../levels/falling/lua-rules.json");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
    let script = doc["script"].as_str().unwrap().to_string();
    let lines = script.lines().count();
    let gutter = |h: &Harness<'static, TilesmithApp>| -> Gutter {
        h.ctx
            .data(|d| d.get_temp::<Gutter>(gutter_id("script text")))
            .unwrap()
    };
    let open = |script: &str| {
        let mut d = doc.clone();
        d["script"] = json!(script);
        let mut h = harness(EditorState::new(FallingLevel::from_json(&d).unwrap()));
        click(&mut h, "Rules");
        click(&mut h, "Script");
        h
    };
    let h = open(&script);
    let g = gutter(&h);
    let numbers: Vec<usize> = g.numbers.iter().map(|(n, _)| *n).collect();
    assert_eq!(numbers[0], 1);
    assert!(numbers.windows(2).all(|w| w[1] == w[0] + 1), "{numbers:?}");
    // The first line wraps at this width: line 2 is more than one row below line 1.
    let row = g.numbers[5].1 - g.numbers[4].1;
    assert!(
        g.numbers[1].1 - g.numbers[0].1 > 1.5 * row,
        "{:?}",
        &g.numbers[..3]
    );
    assert!(
        numbers.len() >= lines.min(20),
        "{} of {lines}",
        numbers.len()
    );
    // A load error on line 6 (the `local DY` line): the message, the mark and the number agree.
    let broken: String = script
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == 5 {
                format!("{l} = = oops\n")
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    assert!(script.lines().nth(5).unwrap().starts_with("local DY"));
    let h = open(&broken);
    // (In the pane and in the problems list.)
    assert!(h.query_all_by_label_contains("script line 6:").count() >= 1);
    assert_eq!(gutter(&h).marked, [6]);
    // A runtime error on line 3 of a short script, after a frame of play.
    let failing = "function update()\n  local t = nil\n  return t.x\nend\n";
    let mut h = open(failing);
    click(&mut h, "Start playing");
    click(&mut h, "Play pane");
    click(&mut h, "Frame");
    click(&mut h, "Rules");
    assert!(h.query_all_by_label_contains("script line 3:").count() >= 1);
    assert_eq!(gutter(&h).marked, [3]);
}

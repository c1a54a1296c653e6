//! Headless window tests (egui_kittest) of the board document: placing pieces with the
//! palette and the canvas (the saved level changes), two plies of checkers played by clicks
//! on the board and taken back with the play pane's undo, and the rules text typed in the
//! Rules tab, compiled after a pause with its error at its line.
//!
//! The ZRF files are read where they are (`../shared/corpus/board/`); expected values come
//! from the rules (checkers: Black first, c3 to d4 and f6 to e5 are legal plies).

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

use std::path::Path;

use eframe::egui::{Event, Modifiers, PointerButton, Pos2, pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use serde_json::json;
use tilesmith_editor::app::TilesmithApp;
use tilesmith_editor::doc::map::MapLevel as _;
use tilesmith_editor::kinds::board::{BoardDoc, Design, new_design};
use tilesmith_editor::state::EditorState;

mod common;
use common::{harness, settle};

fn doc<'a>(h: &'a Harness<'static, TilesmithApp>) -> &'a BoardDoc {
    h.state()
        .state
        .doc_as::<BoardDoc>()
        .expect("a board document")
}

/// The screen centre of the position named `name` on the canvas.
fn screen_of(h: &Harness<'static, TilesmithApp>, name: &str) -> Pos2 {
    let app = h.state();
    let b = doc(h).shown_board();
    let i = b
        .rules
        .board
        .positions
        .iter()
        .position(|p| p.name == name)
        .unwrap();
    let c = b.layout.cell[i];
    let v = &app.state.view;
    let min = app.ui.canvas.rect().min;
    pos2(
        min.x + v.pan[0] + (c.x as f32 + 0.5) * v.zoom,
        min.y + v.pan[1] + (c.y as f32 + 0.5) * v.zoom,
    )
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

fn click_square(h: &mut Harness<'static, TilesmithApp>, name: &str) {
    let p = screen_of(h, name);
    click_at(h, p, PointerButton::Primary);
}

fn click(h: &mut Harness<'static, TilesmithApp>, label: &str) {
    h.get_by_label(label).click();
    settle(h);
}

fn piece_on(h: &Harness<'static, TilesmithApp>, name: &str) -> Option<String> {
    let b = doc(h).shown_board();
    let i = b
        .rules
        .board
        .positions
        .iter()
        .position(|p| p.name == name)?;
    doc(h).shown_cells()[i].map(|p| b.describe(&p))
}

#[test]
fn pieces_placed_with_the_palette_and_the_canvas_go_into_the_saved_level() {
    // A new level is tic-tac-toe with an empty board.
    let mut h = harness(EditorState::new(new_design()));
    assert_eq!(piece_on(&h, "b2"), None);
    // The palette's O Man on the left button, then a click on b2; X's on the right, on a1.
    click(&mut h, "O Man");
    click_square(&mut h, "b2");
    h.get_by_label("X Man").click_secondary();
    settle(&mut h);
    let a1 = screen_of(&h, "a1");
    click_at(&mut h, a1, PointerButton::Secondary);
    assert_eq!(piece_on(&h, "b2").as_deref(), Some("O Man"));
    assert_eq!(piece_on(&h, "a1").as_deref(), Some("X Man"));
    // The player to move: O.
    click(&mut h, "player to move");
    click(&mut h, "O");
    let saved = h.state().state.doc_json();
    assert_eq!(
        saved["setup"],
        json!({"X": {"Man": ["a1"]}, "O": {"Man": ["b2"]}})
    );
    assert_eq!(saved["to_move"], json!("O"));
    // The eraser takes b2 away again.
    click(&mut h, "eraser");
    click_square(&mut h, "b2");
    assert_eq!(piece_on(&h, "b2"), None);
    assert_eq!(
        h.state().state.doc_json()["setup"],
        json!({"X": {"Man": ["a1"]}, "O": {}})
    );
}

#[test]
fn two_plies_of_checkers_by_clicks_then_undo_restores_the_position() {
    let zrf = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/corpus/board/english-checkers.zrf");
    let text = std::fs::read_to_string(zrf).unwrap();
    let design = Design::from_json(&json!({
        "kind": "board", "rules": {"zrf": text}, "variant": "English Checkers"
    }))
    .unwrap();
    let mut h = harness(EditorState::new(design));
    click(&mut h, "Start playing");
    h.get_by_label("Black to move");
    let hash = |h: &Harness<'static, TilesmithApp>| {
        doc(h).play.as_ref().unwrap().session.game.state_hash()
    };
    let start = hash(&h);
    click_square(&mut h, "c3");
    click_square(&mut h, "d4");
    h.get_by_label("White to move");
    let after_one = hash(&h);
    click_square(&mut h, "f6");
    click_square(&mut h, "e5");
    assert_eq!(piece_on(&h, "d4").as_deref(), Some("Black Man"));
    assert_eq!(piece_on(&h, "e5").as_deref(), Some("White Man"));
    assert_eq!(doc(&h).play.as_ref().unwrap().played(), ["c3-d4", "f6-e5"]);
    h.get_by_label("Black to move");
    click(&mut h, "Undo move");
    assert_eq!(hash(&h), after_one);
    h.get_by_label("White to move");
    click(&mut h, "Undo move");
    assert_eq!(hash(&h), start);
    assert_eq!(piece_on(&h, "c3").as_deref(), Some("Black Man"));
    assert_eq!(piece_on(&h, "e5"), None);
    // A legal move of the list plays too.
    click(&mut h, "c3-d4");
    assert_eq!(hash(&h), after_one);
}

#[test]
fn a_move_block_that_runs_away_stops_the_game_and_says_so() {
    // White's man steps north; Black's pawn has a move block that never ends, so the game
    // stops on Black's turn: no result, "Stopped" with the error, not "Game over" or a draw.
    let text = "(game (title \"Loop\") (players White Black) (turn-order White Black)
      (board (grid (start-rectangle 0 0 50 50)
        (dimensions (\"a/b/c\" (50 0)) (\"3/2/1\" (0 50)))
        (directions (n 0 -1) (s 0 1))))
      (piece (name Man) (moves (n (verify empty?) add)))
      (piece (name Pawn) (moves ((while true mark) add)))
      (board-setup (White (Man a1)) (Black (Pawn c3))))";
    let design = Design::from_json(&json!({"kind": "board", "rules": {"zrf": text}})).unwrap();
    let mut h = harness(EditorState::new(design));
    click(&mut h, "Start playing");
    h.get_by_label("White to move");
    click(&mut h, "a1-a2");
    // The banner's text (egui gives a label's text as the node's value).
    let shown = |h: &Harness<'static, TilesmithApp>, prefix: &str| {
        h.query_all_by(|n| n.value().is_some_and(|v| v.starts_with(prefix)))
            .count()
    };
    assert!(shown(&h, "Stopped: move generation failed: ") > 0);
    assert_eq!(shown(&h, "Game over"), 0);
    assert_eq!(shown(&h, "Draw"), 0);
    // Undo takes the stop back: White to move again.
    click(&mut h, "Undo move");
    h.get_by_label("White to move");
}

#[test]
fn typed_rules_compile_after_a_pause_with_the_error_at_its_line() {
    let mut h = harness(EditorState::new(new_design()));
    click(&mut h, "Rules");
    let field = h.get_by_label("rules text");
    field.focus();
    field.type_text("(oops");
    // Not yet compiled while typing goes on …
    h.step();
    assert!(!doc(&h).design().rest.text.contains("(oops"));
    // … then, after the pause, one edit; the text does not compile, the board stays.
    h.run_steps(6);
    let d = doc(&h).design();
    assert!(d.rest.text.contains("(oops"), "{}", &d.rest.text[..60]);
    assert!(d.problems.iter().any(|p| !p.warning));
    assert_eq!(
        d.board.rules.title, "Tic-Tac-Toe",
        "the last good rules stay"
    );
    assert_eq!(doc(&h).map.history.done_names(), ["Edit rules"]);
}

#[test]
fn the_status_bar_names_the_board_and_the_hovered_position_not_map_cells() {
    // English checkers: an 8x8 grid, all 64 positions kept; its map has one more column and
    // row for the coordinates, which the status bar must not count or show as x/y.
    let zrf = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/corpus/board/english-checkers.zrf");
    let text = std::fs::read_to_string(zrf).unwrap();
    let design = Design::from_json(&json!({
        "kind": "board", "rules": {"zrf": text}, "variant": "English Checkers"
    }))
    .unwrap();
    let mut h = harness(EditorState::new(design));
    settle(&mut h);
    h.get_by_label("board level, 8 × 8 board, 64 positions");
    // Black's man on c3, from the file's board-setup.
    let p = screen_of(&h, "c3");
    h.event(Event::PointerMoved(p));
    settle(&mut h);
    h.get_by_label("c3: Black Man");
}

//! Headless window tests (egui_kittest) of the board kind's move-generation debugger and of
//! the computer player (the shell's shared one, `play::computer`) in a board game.
//!
//! The debugger: English checkers (corpus) with a Black man on c3 and White men on d4 and d6,
//! Black to move. By the rules (a man steps diagonally forward; a jump over an enemy man is
//! a `jump-type` move, and `move-priorities` ranks jumps over steps) the man has the jump
//! c3-e5 capturing d4 (the capture runs at level 3, the movement is the key) that goes on over
//! d6 to c7 (chain c3xe5xc7), and the step c3-b4, generated but removed by move-priorities.
//!
//! The computer opponent: tic-tac-toe (the new level's rules), X to move on an empty board:
//! a legal turn is one of the nine drops; the default think time is 1 s.

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

use std::path::Path;
use std::time::{Duration, Instant};

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

fn click(h: &mut Harness<'static, TilesmithApp>, label: &str) {
    h.get_by_label(label).click();
    settle(h);
}

fn checkers(setup: serde_json::Value, to_move: &str) -> Design {
    let zrf = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/corpus/board/english-checkers.zrf");
    let text = std::fs::read_to_string(zrf).unwrap();
    Design::from_json(&json!({
        "kind": "board", "rules": {"zrf": text}, "variant": "English Checkers",
        "setup": setup, "to_move": to_move
    }))
    .unwrap()
}

/// Inspects the position named `name` (as a click while playing, or Alt+click, does).
fn inspect(h: &mut Harness<'static, TilesmithApp>, name: &str) {
    let b = doc(h).shown_board();
    let i = b
        .rules
        .board
        .positions
        .iter()
        .position(|p| p.name == name)
        .unwrap();
    let cell = b.layout.cell[i];
    h.state_mut().state.inspect = Some(cell);
    settle(h);
}

#[test]
fn debugger_lists_the_checkers_jump_with_its_capture_and_the_step_removed_by_priorities() {
    let design = checkers(
        json!({"Black": {"Man": ["c3"]}, "White": {"Man": ["d4", "d6"]}}),
        "Black",
    );
    let mut h = harness(EditorState::new(design));
    click(&mut h, "Rules");
    click(&mut h, "Debugger");
    // Nothing inspected yet: the page says how to pick a square.
    h.get_by_label_contains("click a square on the board");
    inspect(&mut h, "c3");
    h.get_by_label("Square: c3");
    // The jump: its movement is the key at level 1, the capture of d4 at level 3; it is
    // offered, as the first part of the chain c3xe5xc7.
    h.get_by_label("move [key c3-e5] (L1)  xd4 (L3)  partial: legal: c3xe5xc7");
    // The step: generated, removed by move-priorities (a jump-type move ranks higher).
    h.get_by_label_contains("move [key c3-b4] (L1): removed: a jump-type move");
    // Stepping the jump: level 1 (the man on e5), then level 3 (d4 emptied).
    h.get_by_label_contains("move [key c3-e5] (L1)").click();
    settle(&mut h);
    h.get_by_label("level 1: movement");
    h.get_by_label("touches c3, e5");
    click(&mut h, "Next stage");
    h.get_by_label("level 3: captures");
    h.get_by_label("touches d4");
    // The continuation from e5: the jump over d6 to c7.
    click(&mut h, "Look at the continuation");
    h.get_by_label_contains("move [key e5-c7] (L1)  xd6 (L3)");
}

/// Runs frames until the game in play has had `plies` turns, or `limit` has passed; the time
/// it took.
fn wait_for_plies(h: &mut Harness<'static, TilesmithApp>, plies: u64, limit: Duration) -> Duration {
    let t0 = Instant::now();
    while doc(h).play.as_ref().unwrap().session.steps() < plies && t0.elapsed() < limit {
        std::thread::sleep(Duration::from_millis(20));
        h.step();
    }
    settle(h);
    t0.elapsed()
}

fn pieces(h: &Harness<'static, TilesmithApp>) -> usize {
    doc(h).shown_cells().iter().flatten().count()
}

#[test]
fn the_computer_plays_a_legal_drop_within_its_budget_and_undo_takes_it_back() {
    let mut h = harness(EditorState::new(new_design()));
    click(&mut h, "Start playing");
    h.get_by_label("X to move");
    // "Computer move now": the search runs on a worker; the pane shows its progress.
    click(&mut h, "Computer move now");
    h.get_by_label("Cancel the search");
    let took = wait_for_plies(&mut h, 1, Duration::from_secs(5));
    assert!(took < Duration::from_secs(3), "1 s budget, took {took:?}");
    h.get_by_label("O to move");
    let played = doc(&h).play.as_ref().unwrap().played().to_vec();
    assert_eq!(played.len(), 1);
    // A drop of X's Man on one of the nine squares, which is now X's.
    assert_eq!(pieces(&h), 1);
    h.get_by_label_contains(&format!("played {}", played[0]));
    // Undo takes it back.
    click(&mut h, "Undo move");
    h.get_by_label("X to move");
    assert_eq!(pieces(&h), 0);
    // X played by the computer: it moves on its own; after an undo it pauses.
    click(&mut h, "X played by the computer");
    wait_for_plies(&mut h, 1, Duration::from_secs(5));
    h.get_by_label("O to move");
    assert_eq!(pieces(&h), 1);
    click(&mut h, "Undo move");
    h.get_by_label("Resume the computer players");
    std::thread::sleep(Duration::from_millis(300));
    settle(&mut h);
    assert_eq!(pieces(&h), 0, "paused after the undo");
    h.get_by_label("X to move");
}

#[test]
fn an_iteration_budget_makes_the_worker_deterministic_and_its_turn_is_legal() {
    use tilesmith_editor::kinds::board::BoardPlay;
    use tilesmith_editor::play::computer::Computer;
    use tilesmith_engine::Input;
    // Tic-tac-toe, X to move: nine legal drops. With an iteration budget of 300 (and 10 s
    // of time, never reached) the shared computer player's search stops after exactly 300
    // playouts, and its move comes back as the input of one of the nine drops.
    let level =
        json!({"kind": "board", "rules": {"zrf": tilesmith_editor::kinds::board::NEW_RULES}});
    let mut p = BoardPlay::new(level).unwrap();
    assert_eq!(p.turns().len(), 9);
    let run = |p: &BoardPlay| {
        let mut c = Computer::default();
        c.iterations = Some(300);
        c.think = 10.0;
        c.start(&p.session);
        assert!(c.thinking());
        let t0 = Instant::now();
        loop {
            if let Some(i) = c.poll(&p.session) {
                return (i, c.last.clone().unwrap());
            }
            assert!(
                t0.elapsed() < Duration::from_secs(10),
                "the worker never finished"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    };
    let (input, said) = run(&p);
    assert!(
        matches!(input, Input::Choice(i) if i < 9),
        "{input:?} is not one of the nine drops"
    );
    assert!(said.contains("after 300 iterations"), "{said}");
    // The same seed and budget give the same turn.
    assert_eq!(run(&p).0, input);
    p.step(input);
    assert_eq!(p.game().position().cells.iter().flatten().count(), 1);
    p.step(Input::Undo);
    assert_eq!(p.game().position().cells.iter().flatten().count(), 0);
}

/// Issue #31 defect 3: the computer's move is drawn without waiting for a mouse or key event.
/// In the frame where the worker's turn is played, the window asks for another frame (the
/// board drawn in that frame predates the move); with both sides played by the computer, the
/// game goes on with no input at all.
#[test]
fn the_computers_move_is_drawn_without_an_input_event() {
    let mut h = harness(EditorState::new(new_design()));
    click(&mut h, "Start playing");
    click(&mut h, "X played by the computer");
    click(&mut h, "O played by the computer");
    let t0 = Instant::now();
    let mut seen = 0;
    // Only frames the app asked for are run: no input event, no frame of our own.
    while seen < 3 && t0.elapsed() < Duration::from_secs(20) {
        if !h.ctx.has_requested_repaint() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
        let before = doc(&h).play.as_ref().unwrap().session.steps();
        h.step();
        let after = doc(&h).play.as_ref().unwrap().session.steps();
        if after > before {
            seen = after;
            assert!(
                h.ctx.has_requested_repaint(),
                "ply {after} was played after the frame was drawn, and no frame follows"
            );
        }
    }
    assert!(seen >= 3, "the computers stalled after {seen} plies");
}

//! Headless window tests (egui_kittest) of the play pane's shared tools (issue #29
//! "Editor"): Solve on a one-player level gives the shortest solution `tilesmith solve`
//! proves, and stepping it wins; Solve on the empty tic-tac-toe board gives a draw, each of
//! the nine drops a draw, and its principal variation steps as play; Cancel stops a long
//! solve. (The computer player through the shared module: `board_debugger.rs`.)

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use tilesmith_editor::app::TilesmithApp;
use tilesmith_editor::kinds::board::new_design;
use tilesmith_editor::state::{Action, EditorState, PlayAction};
use tilesmith_engine::Status;

mod common;
use common::{harness, play_words, settle};

fn levels_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../levels")
}

/// Clicks the widget labelled `label` (through accesskit: the play pane's lower sections may
/// be scrolled out of the side panel).
fn click(h: &mut Harness<'static, TilesmithApp>, label: &str) {
    h.get_by_label(label).click_accesskit();
    settle(h);
}

/// A window on the level file `rel` (under `levels/`), playing it.
fn playing(rel: &str) -> Harness<'static, TilesmithApp> {
    let mut s = EditorState::new(new_design());
    s.apply(Action::OpenPath(levels_dir().join(rel)));
    assert!(s.pending.is_none(), "{}", s.status);
    let mut h = harness(s);
    click(&mut h, "Start playing");
    assert!(h.state().state.playing(), "{}", h.state().state.status);
    h
}

/// Runs frames until the solve under way has finished, or `limit` has passed; the time it
/// took.
fn wait_solved(h: &mut Harness<'static, TilesmithApp>, limit: Duration) -> Duration {
    let t0 = Instant::now();
    while h.state().ui.play_tools.solver.solving() && t0.elapsed() < limit {
        std::thread::sleep(Duration::from_millis(20));
        h.step();
    }
    settle(h);
    t0.elapsed()
}

/// The steps played in the session.
fn steps(h: &Harness<'static, TilesmithApp>) -> u64 {
    h.state().state.doc.play().unwrap().steps()
}

/// `tilesmith solve` on `rel`: its JSON line.
fn cli_solve(rel: &str) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_tilesmith"))
        .arg("solve")
        .arg(levels_dir().join(rel))
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn solve_finds_the_clis_shortest_solution_and_stepping_it_wins() {
    // First Words: the CLI proves a shortest solution of 6 moves (docs/solver.md's table).
    let cli = cli_solve("baba/first-words.json");
    assert_eq!(cli["result"], "solved");
    assert_eq!(cli["steps"], 6);
    let mut h = playing("baba/first-words.json");
    click(&mut h, "Solve from here");
    wait_solved(&mut h, Duration::from_secs(60));
    h.get_by_label_contains("Solved: 6 moves, proved shortest");
    let line = {
        let r = h.state().ui.play_tools.solver.result.as_ref().unwrap();
        r.solved.line().join(" ")
    };
    assert_eq!(line, cli["solution"].as_str().unwrap());
    // One step, then the rest: each is a step of play (undo takes it back).
    click(&mut h, "Step the solution");
    assert_eq!(steps(&h), 1);
    h.get_by_label("1 of 6 steps played");
    h.state_mut().state.apply(Action::Play(PlayAction::Back));
    settle(&mut h);
    assert_eq!(steps(&h), 0);
    h.get_by_label("0 of 6 steps played");
    click(&mut h, "Play the rest");
    let t0 = Instant::now();
    while steps(&h) < 6 && t0.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(30));
        h.step();
    }
    settle(&mut h);
    assert_eq!(steps(&h), 6);
    h.get_by_label("all 6 steps played");
    let status = h.state().state.doc.play().unwrap().game.status();
    assert!(matches!(status, Status::Won { .. }), "{status:?}");
}

#[test]
fn solve_on_the_empty_tic_tac_toe_board_is_a_draw_with_every_drop_a_draw() {
    let mut h = harness(EditorState::new(new_design()));
    click(&mut h, "Start playing");
    click(&mut h, "Solve from here");
    wait_solved(&mut h, Duration::from_secs(60));
    h.get_by_label_contains("Value: a draw with best play (X to move; proved at 9 plies)");
    // The nine drops, each a draw (a button that plays the move, labelled with its value).
    for square in ["a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"] {
        h.get_by_label(&format!("@{square} draw"));
    }
    // The principal variation is a whole drawn game; its first step is X's drop.
    let pv = h
        .state()
        .ui
        .play_tools
        .solver
        .result
        .as_ref()
        .unwrap()
        .solved
        .line()
        .to_vec();
    assert_eq!(pv.len(), 9, "{pv:?}");
    click(&mut h, "Step the principal variation");
    assert_eq!(steps(&h), 1);
    h.get_by_label("O to move");
    let played = h.state().state.doc.play().unwrap().words.clone();
    assert_eq!(played, pv[..1]);
    h.get_by_label("1 of 9 steps played");
}

#[test]
fn cancel_stops_a_long_solve() {
    // A boulder level a breadth-first search does not finish within minutes (docs/solver.md:
    // depth 12 in 10 s of a release build).
    let mut h = playing("boulder/welcome.json");
    h.state_mut().ui.play_tools.solver.seconds = 600.0;
    click(&mut h, "Solve from here");
    std::thread::sleep(Duration::from_millis(300));
    settle(&mut h);
    h.get_by_label("Cancel the solve");
    h.get_by_label_contains("states, depth");
    click(&mut h, "Cancel the solve");
    let took = wait_solved(&mut h, Duration::from_secs(30));
    assert!(took < Duration::from_secs(10), "cancel took {took:?}");
    h.get_by_label_contains("Unknown: cancelled after");
    assert_eq!(steps(&h), 0, "nothing is played");
}

/// Solve on a pasta puzzle (issue #28: "Solve shows the value and the principal variation,
/// which can be stepped"): `puzzle-heal-then-trade` is a red win in 2 decisions (Debug, then
/// TradeOff: docs/pasta-level-format.md), proved by the shared Solve; playing its principal
/// variation wins the game for red.
#[test]
fn solve_proves_a_pasta_puzzle_and_its_line_wins_for_red() {
    let mut h = playing("pasta/puzzle-heal-then-trade.json");
    click(&mut h, "Solve from here");
    wait_solved(&mut h, Duration::from_secs(60));
    // The position's value, and the decision that keeps it ("do", Debug's heal).
    h.get_by_label_contains("Value: red to move wins in 2 plies");
    h.get_by_label("do wins in 2");
    let pv = h
        .state()
        .ui
        .play_tools
        .solver
        .result
        .as_ref()
        .unwrap()
        .solved
        .line()
        .to_vec();
    assert_eq!(pv, ["do", "do"], "Debug, then TradeOff");
    click(&mut h, "Play the rest");
    let t0 = Instant::now();
    while steps(&h) < 2 && t0.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(30));
        h.step();
    }
    settle(&mut h);
    let status = h.state().state.doc.play().unwrap().game.status();
    assert!(
        matches!(&status, Status::Won { winner: Some(w), .. } if w == "red"),
        "{status:?}"
    );
}

#[test]
fn solve_compares_the_intended_solution_kept_beside_the_level() {
    // Baba at (0, 2), the flag three cells right: the shortest win is R R R. The designer's
    // intended solution goes round by row 1 (U R R R D, 5 steps), so the solver's line is 2
    // steps shorter and leaves it at step 1 (after one step Baba is at (1, 2), not (0, 1)).
    let dir = tempfile::tempdir().unwrap();
    let level = dir.path().join("detour.json");
    std::fs::write(
        &level,
        r#"{"kind": "baba", "name": "Detour", "width": 6, "height": 4, "map": [
  ["text_baba", "text_is", "text_you", null, null, null],
  [null, null, null, null, null, null],
  ["baba", null, null, "flag", null, null],
  ["text_flag", "text_is", "text_win", null, null, null]]}"#,
    )
    .unwrap();
    let mut s = EditorState::new(new_design());
    s.apply(Action::OpenPath(level.clone()));
    assert!(s.pending.is_none(), "{}", s.status);
    let mut h = harness(s);
    click(&mut h, "Start playing");
    play_words(&mut h, "U R R R D");
    let won = h.state().state.doc.play().unwrap().game.status();
    assert!(matches!(won, Status::Won { .. }), "{won:?}");
    click(&mut h, "Keep this play as the intended solution");
    let kept = dir.path().join("detour.intended.replay.json");
    assert!(kept.is_file(), "{}", h.state().state.status);
    for _ in 0..5 {
        h.state_mut().state.apply(Action::Play(PlayAction::Back));
    }
    settle(&mut h);
    assert_eq!(steps(&h), 0);
    click(&mut h, "Solve from here");
    wait_solved(&mut h, Duration::from_secs(60));
    h.get_by_label_contains("Solved: 3 moves, proved shortest");
    h.get_by_label(
        "Shortcut: the solution above is 2 steps shorter than your intended one (5 steps, \
         detour.intended.replay.json); it leaves yours at step 1",
    );
    // `tilesmith solve` reads the same file beside the level and says the same.
    let out = Command::new(env!("CARGO_BIN_EXE_tilesmith"))
        .arg("solve")
        .arg(&level)
        .output()
        .unwrap();
    let cli: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(cli["intended"]["shortcut"], true, "{cli}");
    assert_eq!(cli["intended"]["shorter_by"], 2);
    assert_eq!(cli["intended"]["leaves_at"], 1);
    // The solution itself kept as the intended one: no shortcut, and the same line.
    click(&mut h, "Play the rest");
    let t0 = Instant::now();
    while steps(&h) < 3 && t0.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(30));
        h.step();
    }
    settle(&mut h);
    click(&mut h, "Keep this play as the intended solution");
    for _ in 0..3 {
        h.state_mut().state.apply(Action::Play(PlayAction::Back));
    }
    settle(&mut h);
    click(&mut h, "Solve from here");
    wait_solved(&mut h, Duration::from_secs(60));
    h.get_by_label(
        "Your intended solution (3 steps, detour.intended.replay.json) is the shortest \
         solution found",
    );
    // Solved from a later position, the comparison is refused, not made wrongly.
    play_words(&mut h, "R");
    click(&mut h, "Solve from here");
    wait_solved(&mut h, Duration::from_secs(60));
    h.get_by_label_contains("not compared: it starts elsewhere");
}

#[test]
fn keeping_an_intended_solution_needs_a_saved_level() {
    let h = playing("baba/first-words.json");
    // The level is saved, but nothing is played yet: the button waits for a step.
    let keep = h.get_by_label("Keep this play as the intended solution");
    assert!(keep.accesskit_node().is_disabled());
    // An untitled level: refused with a message, nothing written.
    let mut s = EditorState::new(new_design());
    s.apply(Action::Play(PlayAction::Start));
    s.apply(Action::Play(PlayAction::KeepIntended));
    assert!(s.status.contains("save the level first"), "{}", s.status);
}

#[test]
fn solve_on_a_falling_puzzle_gives_placements_played_as_frames_to_a_win() {
    // The rows puzzle: 3 placements, proved shortest (docs/solver.md's table); each placement
    // is played as its frame words, so the line has more steps than moves.
    let cli = cli_solve("falling/tetris-rows-puzzle.json");
    assert_eq!(cli["result"], "solved");
    assert_eq!(cli["steps"], 3);
    let mut h = playing("falling/tetris-rows-puzzle.json");
    click(&mut h, "Solve from here");
    wait_solved(&mut h, Duration::from_secs(60));
    let n = {
        let r = h.state().ui.play_tools.solver.result.as_ref().unwrap();
        r.solved.line().len()
    };
    assert!(n > 3, "{n}");
    h.get_by_label_contains(&format!("Solved: 3 moves ({n} steps), proved shortest"));
    click(&mut h, "Play the rest");
    let t0 = Instant::now();
    while steps(&h) < n as u64 && t0.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(30));
        h.step();
    }
    settle(&mut h);
    let status = h.state().state.doc.play().unwrap().game.status();
    assert!(matches!(status, Status::Won { .. }), "{status:?}");
}

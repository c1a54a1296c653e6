//! Play steps on a worker thread (issue 15): a long step does not block the window's frames,
//! the play pane shows it computing (spinner, `computing frame 1… 0.0 s`, Cancel) while the
//! rest of the editor keeps working, and Cancel (or Esc) leaves the game as it was before the
//! step (same state hash, same history), with "… cancelled" in the status bar.
//!
//! The slow steps are genuinely slow levels: a falling level whose script loops until its
//! budget (10 million Lua instructions or 1 s, whichever comes first), and a large boulder
//! level with many rules.

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use serde_json::{Value, json};
use tilesmith_editor::app::TilesmithApp;
use tilesmith_editor::state::{Action, EditorState, PlayAction};
use tilesmith_engine::Input;
use tilesmith_engine::kind::falling::FallingLevel;

mod common;
use common::{harness, settle};

/// A 10 × 8 falling level with the T piece and `script`.
fn falling_level(script: &str) -> FallingLevel {
    let doc: Value = json!({
        "kind": "falling", "name": "slow script", "width": 10, "height": 8,
        "blocks": [{"name": "T", "color": [160, 60, 220]}],
        "tumos": [{"name": "T", "states": [
            [[0, -1, 0], [-1, -1, -1], [0, 0, 0]],
            [[0, -1, 0], [0, -1, -1], [0, -1, 0]],
            [[0, 0, 0], [-1, -1, -1], [0, -1, 0]],
            [[0, -1, 0], [-1, -1, 0], [0, -1, 0]]
        ], "block": "T", "pivot": [1, 1]}],
        "clear": [{"rule": "rows"}], "fall": ["rows"],
        "timing": {"gravity": 30, "soft_drop": 2, "lock": 30, "spawn": 0, "clear": 0, "fall": 0},
        "script": script,
    });
    FallingLevel::from_json(&doc).unwrap()
}

/// A script whose `update()` never ends on its own: every frame runs into the budget.
const FOREVER: &str = "function update()\n  while true do end\nend\n";

fn hash(h: &Harness<'static, TilesmithApp>) -> (u64, u64, usize) {
    let p = h.state().state.doc.play().unwrap();
    (p.game.state_hash(), p.game.steps(), p.game.redo_len())
}

fn busy(h: &Harness<'static, TilesmithApp>) -> bool {
    h.state().state.step_busy().is_some()
}

/// Runs frames until no step computes (at most 20 s).
fn wait_idle(h: &mut Harness<'static, TilesmithApp>) {
    let start = Instant::now();
    while busy(h) {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the step never ends"
        );
        std::thread::sleep(Duration::from_millis(5));
        h.step();
    }
    settle(h);
}

#[test]
fn a_slow_frame_computes_on_a_worker_and_cancel_restores_the_game() {
    let mut h = harness(EditorState::new(falling_level(FOREVER)));
    h.state_mut().state.apply(Action::Play(PlayAction::Start));
    settle(&mut h);
    let before = hash(&h);
    assert_eq!(before.1, 0);
    // One frame of the game: its script runs until cancelled (or its budget).
    let t0 = Instant::now();
    h.state_mut()
        .state
        .apply(Action::Play(PlayAction::Step(Some(Input::Wait))));
    assert!(
        t0.elapsed() < Duration::from_millis(200),
        "the step did not hold the UI thread: {:?}",
        t0.elapsed()
    );
    assert!(busy(&h), "the frame is computing on the worker");
    // The window draws frames meanwhile, with the overlay (and the side panel's box).
    h.step();
    assert!(busy(&h));
    assert!(h.query_all_by_label_contains("computing frame 1…").count() >= 1);
    assert!(h.query_by_label("Cancel").is_some());
    // Play keys wait for the step (the game is on the worker).
    h.state_mut()
        .state
        .apply(Action::Play(PlayAction::Step(Some(Input::Wait))));
    assert!(
        h.state().state.status.contains("Esc cancels"),
        "{}",
        h.state().state.status
    );
    // Cancel: the frame stops, the game is as before.
    h.query_all_by_label("Cancel").next().unwrap().click();
    h.step();
    wait_idle(&mut h);
    assert_eq!(
        hash(&h),
        before,
        "the cancelled frame left the game as it was"
    );
    let st = &h.state().state;
    assert_eq!(st.status, "frame 1 cancelled");
    let p = st.doc.play().unwrap();
    assert!(
        p.inputs.is_empty(),
        "no input recorded for a cancelled step"
    );
    assert!(p.game.error().is_none(), "{:?}", p.game.error());
    assert!(h.query_by_label_contains("computing frame").is_none());
}

#[test]
fn esc_cancels_a_slow_frame() {
    let mut h = harness(EditorState::new(falling_level(FOREVER)));
    h.state_mut().state.apply(Action::Play(PlayAction::Start));
    settle(&mut h);
    let before = hash(&h);
    h.state_mut()
        .state
        .apply(Action::Play(PlayAction::Step(Some(Input::Wait))));
    assert!(busy(&h));
    h.key_press(eframe::egui::Key::Escape);
    h.step();
    wait_idle(&mut h);
    assert_eq!(hash(&h), before);
    assert!(
        h.state().state.playing(),
        "Esc cancelled the step, not the play"
    );
    assert_eq!(h.state().state.status, "frame 1 cancelled");
}

#[test]
fn a_slow_frame_left_alone_ends_as_it_would_have() {
    // Not cancelled, the frame runs into the script's budget: the game stops on that error
    // exactly as when the frame is computed outside the editor.
    let mut h = harness(EditorState::new(falling_level(FOREVER)));
    h.state_mut().state.apply(Action::Play(PlayAction::Start));
    settle(&mut h);
    h.state_mut()
        .state
        .apply(Action::Play(PlayAction::Step(Some(Input::Wait))));
    wait_idle(&mut h);
    let p = h.state().state.doc.play().unwrap();
    assert_eq!(p.game.steps(), 1);
    assert_eq!(p.inputs, vec![Input::Wait], "the computed step is recorded");
    let e = p.game.error().unwrap();
    assert!(
        e.contains("budget exceeded") || e.contains("time limit"),
        "{e}"
    );
    let level = falling_level(FOREVER);
    let mut g = tilesmith_engine::kind::falling::FallingGame::new(level, p.seed);
    use tilesmith_engine::Game as _;
    g.step(Input::Wait);
    assert_eq!(g.state_hash(), p.game.state_hash());
}

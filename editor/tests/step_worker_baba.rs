//! A baba turn on the play pane's worker thread (issue 15): a long turn does not block the
//! window's frames, the play pane shows `computing turn 1…` with Cancel, and Cancel leaves the
//! game as before the turn (same state hash, same history, nothing logged); left alone, the
//! turn is logged with the rules it formed, as it is without a worker.

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use serde_json::{Value, json};
use tilesmith_editor::app::TilesmithApp;
use tilesmith_editor::state::{Action, EditorState, PlayAction};
use tilesmith_engine::kind::baba::BabaLevel;
use tilesmith_engine::{Dir, Input};

mod common;
use common::{harness, settle};

/// A `side` × `side` level: BABA IS YOU and KEKE IS MOVE on row 0, baba at (0, 1) and a keke
/// in every other cell of the rows below: one turn moves tens of thousands of kekes.
fn crowd(side: usize) -> BabaLevel {
    let mut map = vec![vec![Value::Null; side]; side];
    let words = [
        "text_baba",
        "text_is",
        "text_you",
        "",
        "text_keke",
        "text_is",
        "text_move",
    ];
    for (x, w) in words.iter().enumerate().filter(|(_, w)| !w.is_empty()) {
        map[0][x] = json!(w);
    }
    map[1][0] = json!("baba");
    for (y, row) in map.iter_mut().enumerate().skip(2) {
        for (x, c) in row.iter_mut().enumerate() {
            if (x + y) % 2 == 0 {
                *c = json!("keke");
            }
        }
    }
    let doc = json!({"kind": "baba", "width": side, "height": side, "map": map});
    BabaLevel::from_json(&doc).unwrap_or_else(|p| panic!("{p:#?}"))
}

fn window_state(level: BabaLevel) -> EditorState {
    let mut st = EditorState::new(level);
    st.background_work = true;
    st
}

fn hash(h: &Harness<'static, TilesmithApp>) -> (u64, u64, usize) {
    let p = h.state().state.doc.play().unwrap();
    (p.game.state_hash(), p.game.steps(), p.game.redo_len())
}

fn busy(h: &Harness<'static, TilesmithApp>) -> bool {
    h.state().state.step_busy().is_some()
}

fn wait_idle(h: &mut Harness<'static, TilesmithApp>) {
    let start = Instant::now();
    while busy(h) {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the turn never ends"
        );
        std::thread::sleep(Duration::from_millis(5));
        h.step();
    }
    settle(h);
}

#[test]
fn a_slow_baba_turn_computes_on_a_worker_and_cancel_restores_the_game() {
    let mut h = harness(window_state(crowd(200)));
    h.state_mut().state.apply(Action::Play(PlayAction::Start));
    settle(&mut h);
    let before = hash(&h);
    let right = Input::Move(Dir::Right);
    h.state_mut()
        .state
        .apply(Action::Play(PlayAction::Step(Some(right))));
    assert!(
        busy(&h),
        "a turn moving 20 000 kekes takes longer than a frame"
    );
    for _ in 0..2 {
        h.step();
    }
    assert!(busy(&h));
    assert!(h.query_all_by_label_contains("computing turn 1…").count() >= 1);
    // The rules list and the canvas are drawn from what was seen before the turn.
    h.query_all_by_label("Cancel").next().unwrap().click();
    h.step();
    wait_idle(&mut h);
    assert_eq!(
        hash(&h),
        before,
        "the cancelled turn left the game as it was"
    );
    assert_eq!(h.state().state.status, "turn 1 cancelled");
    assert!(h.state().state.doc.play().unwrap().inputs.is_empty());
    // Left alone, the same turn is computed and logged: baba one cell right.
    h.state_mut()
        .state
        .apply(Action::Play(PlayAction::Step(Some(right))));
    wait_idle(&mut h);
    let p = h.state().state.doc.play().unwrap();
    assert_eq!(p.game.steps(), 1);
    assert_eq!(p.inputs, vec![right]);
    let layers = p.game.layers(tilesmith_engine::Pos::new(1, 1));
    assert!(layers.iter().any(|l| l.token == "baba"), "{layers:?}");
}

//! Hold for the falling kind (issue #29 "Falling gains hold"), as guideline Tetris, NullpoMino
//! and Techmino have it: one slot, `H` once per placement, the held tumo back at its spawn
//! position in its spawn rotation state, the first hold taking the next tumo of the sequence.
//! Expectations worked out from those rules on `levels/falling/tetris.json` (spawn in the two
//! hidden rows, a 7-bag) with `"hold": true` and a fixed sequence.
//! See `docs/falling-semantics.md`, "Hold".

#![allow(clippy::unwrap_used)]

use serde_json::{Value, json};
use tilesmith_engine::game::Game;
use tilesmith_engine::input::{Input, Turn};
use tilesmith_engine::kind::falling::{FallingGame, FallingLevel};
use tilesmith_engine::kind::kind_named;

/// `levels/falling/tetris.json` with `hold` as given and the fixed sequence `tumos`.
fn tetris(hold: bool, tumos: &[&str]) -> Value {
    let path = tilesmith_tests::workspace().join("levels/falling/tetris.json");
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    v["hold"] = json!(hold);
    v["sequence"] = json!({"order": "fixed", "tumos": tumos});
    v
}

fn game(doc: &Value) -> FallingGame {
    FallingGame::new(FallingLevel::from_json(doc).unwrap(), 0)
}

/// The active tumo's name, rotation state and grid position.
fn active(g: &FallingGame) -> (String, usize, i32, i32) {
    let a = g.active().unwrap();
    (a.name, a.state, a.x, a.y)
}

/// Hard-drops the active tumo and waits (`timing.spawn` 6 frames) for the next one.
fn drop_it(g: &mut FallingGame) {
    g.step(Input::HardDrop);
    for _ in 0..100 {
        if g.active().is_some() {
            return;
        }
        g.step(Input::Wait);
    }
    panic!("no tumo spawned");
}

fn held(g: &FallingGame) -> Option<String> {
    g.held().map(|q| g.level().tumos[q.tumo].name.clone())
}

fn next(g: &FallingGame) -> Vec<String> {
    g.next_tumos()
        .iter()
        .map(|q| g.level().tumos[q.tumo].name.clone())
        .collect()
}

#[test]
fn the_first_hold_takes_the_next_tumo_and_a_second_waits_for_the_placement() {
    let doc = tetris(true, &["T", "I", "O", "L", "J", "S", "Z"]);
    let mut g = game(&doc);
    let t_spawn = active(&g);
    assert_eq!(t_spawn.0, "T");
    let i_spawn = {
        let mut other = game(&tetris(true, &["I", "T"]));
        other.step(Input::Wait);
        active(&other)
    };
    g.step(Input::Hold);
    assert_eq!(held(&g).as_deref(), Some("T"));
    // The I comes from the queue, at its spawn position and state: the same place an I that
    // spawns first is in after one frame (gravity 60 frames a row: it has not fallen).
    assert_eq!(active(&g), i_spawn);
    assert_eq!(next(&g), ["O", "L", "J", "S", "Z"]);
    assert!(g.hold_used() && g.last_frame().hold);
    // Once per placement: a second H is a wait.
    let before = g.state_hash();
    g.step(Input::Hold);
    assert_eq!(active(&g), i_spawn);
    assert_eq!(held(&g).as_deref(), Some("T"));
    assert_ne!(g.state_hash(), before, "a frame passed");
    assert!(!g.last_frame().hold);
    // After a placement the hold works again and swaps: T comes back in state 0 at its spawn
    // place, though it was turned and moved before it was held.
    drop_it(&mut g);
    assert_eq!(active(&g).0, "O");
    assert!(!g.hold_used());
    drop_it(&mut g);
    assert_eq!(active(&g).0, "L");
    g.step(Input::Hold);
    assert_eq!(active(&g), t_spawn);
    assert_eq!(held(&g).as_deref(), Some("L"));
    g.step(Input::Turn(Turn::Cw));
    g.step(Input::Move(tilesmith_engine::Dir::Left));
    assert_ne!(active(&g).1, 0);
    drop_it(&mut g);
    assert_eq!(active(&g).0, "J");
    g.step(Input::Hold);
    assert_eq!(active(&g).0, "L");
    assert_eq!(active(&g).1, 0);
    assert_eq!(held(&g).as_deref(), Some("J"));
}

#[test]
fn the_held_tumo_comes_back_in_its_spawn_state_at_its_spawn_place() {
    let mut g = game(&tetris(true, &["T", "I", "O"]));
    let t_spawn = active(&g);
    g.step(Input::Turn(Turn::Cw));
    g.step(Input::Move(tilesmith_engine::Dir::Right));
    g.step(Input::Hold);
    drop_it(&mut g); // the I
    g.step(Input::Hold); // O into the slot, T back
    assert_eq!(active(&g), t_spawn);
    assert_eq!(held(&g).as_deref(), Some("O"));
}

#[test]
fn a_first_hold_with_the_sequence_used_up_does_nothing() {
    let mut g = game(&tetris(true, &["T"]));
    let before = active(&g);
    g.step(Input::Hold);
    assert_eq!(active(&g), before);
    assert_eq!(held(&g), None);
    assert!(!g.hold_used());
}

#[test]
fn h_on_a_level_without_hold_is_a_wait() {
    let doc = tetris(false, &["T", "I", "O"]);
    let mut a = game(&doc);
    let mut b = game(&doc);
    for _ in 0..3 {
        a.step(Input::Hold);
        b.step(Input::Wait);
    }
    assert_eq!(a.state_hash(), b.state_hash());
    assert_eq!(held(&a), None);
}

#[test]
fn undo_and_a_saved_level_keep_the_hold_slot() {
    let doc = tetris(true, &["T", "I", "O", "L"]);
    let mut g = game(&doc);
    let start = g.state_hash();
    g.step(Input::Hold);
    let after_hold = g.state_hash();
    assert_ne!(start, after_hold);
    assert!(g.undo());
    assert_eq!(g.state_hash(), start);
    assert_eq!(held(&g), None);
    assert!(g.redo());
    assert_eq!(g.state_hash(), after_hold);
    // Saved and loaded: the same state, slot and "used" flag included.
    let saved = g.to_level();
    assert_eq!(saved["state"]["hold"]["tumo"], "T");
    assert_eq!(saved["state"]["hold_used"], true);
    assert_eq!(saved["hold"], true);
    let back = game(&saved);
    assert_eq!(back.state_hash(), after_hold);
    assert_eq!(held(&back).as_deref(), Some("T"));
    // The hash tells a held T from a held I: the slot is part of the state.
    let mut other = game(&tetris(true, &["I", "T", "O", "L"]));
    other.step(Input::Hold);
    assert_ne!(other.state_hash(), after_hold);
}

#[test]
fn hold_is_read_checked_and_written_with_unknown_members_kept() {
    let falling = kind_named("falling").unwrap();
    let mut doc = tetris(true, &["T"]);
    doc["x-note"] = json!({"keep": [1, 2]});
    let level = FallingLevel::from_json(&doc).unwrap();
    assert!(level.hold);
    let out = level.to_json();
    assert_eq!(out["hold"], true);
    assert_eq!(out["x-note"], json!({"keep": [1, 2]}));
    // Without hold the member is not written, so older levels round-trip unchanged.
    let plain = FallingLevel::from_json(&tetris(false, &["T"])).unwrap();
    assert!(!plain.hold);
    assert!(plain.to_json().get("hold").is_none());
    doc["hold"] = json!("yes");
    let problems = falling.check(&doc);
    assert!(
        problems
            .iter()
            .any(|p| p.is_error() && p.path.to_string() == "$.hold"),
        "{problems:?}"
    );
    // The word and the key.
    let spec = falling.inputs().iter().find(|s| s.word == "H").unwrap();
    assert_eq!(spec.input, Input::Hold);
    assert_eq!(falling.parse_input("h").unwrap(), Input::Hold);
}

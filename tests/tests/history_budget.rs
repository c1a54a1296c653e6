//! The undo history of every kind stays within its byte budget (`Game::set_history_budget`,
//! issue #15 D3): the oldest steps are dropped first, undo still works for the steps kept,
//! `Game::history_trimmed` counts the dropped ones, and a restart returns to the start.
//!
//! The boulder case is D3's reproducer: a valid level whose one `pre` rule adds 1 to `a` on
//! every field each tick, so every tick changes every field and the history grows by 12
//! bytes per field per tick (docs/architecture.md, "Undo") without a budget.

#![allow(clippy::unwrap_used)]

use serde_json::{Value, json};
use tilesmith_engine::game::{DEFAULT_HISTORY_BYTES, Game};
use tilesmith_engine::input::Input;
use tilesmith_engine::kind::kind_of;
use tilesmith_tests::workspace;

/// D3's level: `side`×`side` fields of mud inside a wall, `me` at (1, 1), and one `pre` rule
/// (`any`, east) that matches every field (`*`) and writes its own token back with `a` + 1.
fn d3_level(side: usize) -> Value {
    let mut map = vec![vec![json!("mud"); side]; side];
    for (y, row) in map.iter_mut().enumerate() {
        for (x, c) in row.iter_mut().enumerate() {
            if x == 0 || y == 0 || x == side - 1 || y == side - 1 {
                *c = json!("wall");
            }
        }
    }
    map[1][1] = json!("me");
    json!({
        "kind": "boulder", "name": "D3", "width": side, "height": side,
        "gems": [0, 0, 0], "ticks": [100000, 100000, 100000],
        "pre": [{"situation": "any", "direction": "east",
                 "original": [{"token": "*"}],
                 "result": [{"token": "0", "values": {"a": 1}}]}],
        "map": map
    })
}

fn start(doc: &Value) -> Box<dyn Game> {
    kind_of(doc).unwrap().start(doc, 7).unwrap()
}

fn load(rel: &str) -> Value {
    tilesmith_engine::load_file(&workspace().join(rel))
        .unwrap_or_else(|e| panic!("{rel}: {e:?}"))
        .value
}

/// Plays `n` steps with `input`, checking after each that the history is within `budget`;
/// returns the state hash after each step (index 0: the start).
fn play_within(
    g: &mut dyn Game,
    input: impl Fn(&dyn Game) -> Input,
    n: usize,
    budget: usize,
) -> Vec<u64> {
    let mut hashes = vec![g.state_hash()];
    for _ in 0..n {
        let i = input(&*g);
        g.step(i);
        assert!(
            g.history_bytes() <= budget,
            "{}: history {} bytes over the budget of {budget} at step {}",
            g.kind().name(),
            g.history_bytes(),
            g.steps()
        );
        hashes.push(g.state_hash());
    }
    hashes
}

/// After `hashes.len() - 1` steps with a trimmed history: undo walks back exactly over the
/// kept steps with the states recorded on the way, stops at step `history_trimmed()`, and a
/// restart gives the start state with nothing trimmed.
fn check_undo_and_restart(g: &mut dyn Game, hashes: &[u64]) {
    let n = hashes.len() as u64 - 1;
    assert_eq!(g.steps(), n);
    let trimmed = g.history_trimmed();
    assert!(trimmed > 0, "{}: nothing was trimmed", g.kind().name());
    assert!(trimmed < n, "{}: no step kept", g.kind().name());
    while g.undo() {
        assert_eq!(
            g.state_hash(),
            hashes[g.steps() as usize],
            "{} step {}",
            g.kind().name(),
            g.steps()
        );
    }
    assert_eq!(
        g.steps(),
        trimmed,
        "{}: undo stops at the oldest kept step",
        g.kind().name()
    );
    // Redo goes forward again over the kept steps.
    while g.redo() {}
    assert_eq!(g.steps(), n);
    assert_eq!(g.state_hash(), hashes[n as usize]);
    g.step(Input::Restart);
    assert_eq!(
        g.steps(),
        0,
        "{}: restart returns to step 0",
        g.kind().name()
    );
    assert_eq!(
        g.state_hash(),
        hashes[0],
        "{}: restart returns to the start",
        g.kind().name()
    );
    assert_eq!(g.history_trimmed(), 0);
    assert_eq!(g.history_bytes(), 0);
}

#[test]
fn d3_boulder_history_grows_by_every_changed_field_without_a_budget() {
    // 60×60 = 3 600 fields: every tick changes `a` on each (12 bytes a field).
    let doc = d3_level(60);
    let mut g = start(&doc);
    g.step(Input::Wait);
    let one = g.history_bytes();
    assert!(one >= 3600 * 12, "one tick holds {one} bytes");
    for _ in 0..99 {
        g.step(Input::Wait);
    }
    assert_eq!(g.history_trimmed(), 0, "100 ticks fit the default budget");
    assert!(g.history_bytes() >= 100 * 3600 * 12);
    assert!(g.history_bytes() < DEFAULT_HISTORY_BYTES);
}

#[test]
fn d3_boulder_history_stays_within_its_budget_and_restart_still_works() {
    let doc = d3_level(60);
    let mut g = start(&doc);
    // Room for about 20 ticks of 3 600 changed fields.
    let budget = 20 * 3600 * 12;
    g.set_history_budget(budget);
    let hashes = play_within(g.as_mut(), |_| Input::Wait, 120, budget);
    // Every tick holds the same (every field changes), so the kept ticks are the newest
    // budget / per-tick ones.
    assert!(
        g.history_trimmed() >= 100,
        "trimmed {}",
        g.history_trimmed()
    );
    check_undo_and_restart(g.as_mut(), &hashes);
    // The game after the restart plays the same ticks again (same RNG, same globals).
    let again = play_within(g.as_mut(), |_| Input::Wait, 120, budget);
    assert_eq!(again, hashes);
}

#[test]
fn lowering_a_boulder_budget_trims_at_once_and_zero_keeps_nothing() {
    let doc = d3_level(30);
    let mut g = start(&doc);
    let hashes = play_within(g.as_mut(), |_| Input::Wait, 10, DEFAULT_HISTORY_BYTES);
    let all = g.history_bytes();
    g.set_history_budget(all / 2);
    assert!(g.history_bytes() <= all / 2);
    assert!(g.history_trimmed() >= 5);
    g.set_history_budget(0);
    assert_eq!(g.history_bytes(), 0);
    assert_eq!(g.history_trimmed(), 10);
    assert!(!g.undo(), "nothing left to undo");
    g.step(Input::Restart);
    assert_eq!(g.state_hash(), hashes[0]);
}

#[test]
fn falling_history_stays_within_its_budget_and_restart_still_works() {
    let doc = load("levels/falling/tetris.json");
    let mut g = start(&doc);
    let budget = 4096;
    g.set_history_budget(budget);
    // Soft drop every frame: tumos land, lock and spawn, so frames change cells and the
    // queue as well as the counters.
    let hashes = play_within(g.as_mut(), |_| Input::SoftDrop, 400, budget);
    check_undo_and_restart(g.as_mut(), &hashes);
    let again = play_within(g.as_mut(), |_| Input::SoftDrop, 400, budget);
    assert_eq!(again, hashes, "the same frames after the restart");
}

#[test]
fn board_history_stays_within_its_budget_and_restart_still_works() {
    // rotate-three never ends: 16 legal moves in every position (docs/board-levels.md).
    let doc = load("levels/board/rotate-three.zrf");
    let mut g = start(&doc);
    let budget = 2048;
    g.set_history_budget(budget);
    let hashes = play_within(
        g.as_mut(),
        |g| Input::Choice((g.steps() % 7) as u32),
        200,
        budget,
    );
    check_undo_and_restart(g.as_mut(), &hashes);
}

/// A baba level where BABA IS YOU and baba walks along an empty row: every turn moves baba
/// and changes nothing else, so every turn's undo patch holds one journal entry.
fn walk_level() -> Value {
    let mut map = vec![vec![Value::Null; 12]; 3];
    for (x, w) in ["text_baba", "text_is", "text_you"].iter().enumerate() {
        map[0][x] = json!(w);
    }
    map[1][1] = json!("baba");
    json!({"kind": "baba", "name": "walk", "width": 12, "height": 3, "map": map})
}

#[test]
fn baba_history_stays_within_its_budget_in_bytes_and_restart_still_works() {
    use tilesmith_engine::Dir;
    use tilesmith_engine::kind::baba::game::{ENTRY_BYTES, MIN_HISTORY_TURNS};
    let doc = walk_level();
    let walk = |g: &dyn Game| {
        if g.steps().is_multiple_of(2) {
            Input::Move(Dir::Right)
        } else {
            Input::Move(Dir::Left)
        }
    };
    // One turn's bytes: one journal entry (baba moved) and the turn's counters.
    let mut g = start(&doc);
    let first = g.state_hash();
    g.step(walk(&*g));
    let turn = g.history_bytes();
    assert!(turn >= ENTRY_BYTES, "one turn holds {turn} bytes");
    play_within(g.as_mut(), walk, 99, DEFAULT_HISTORY_BYTES);
    assert_eq!(g.history_bytes(), 100 * turn, "every turn costs the same");
    assert_eq!(g.history_trimmed(), 0);
    // Lowering the budget trims at once, the oldest turns first.
    g.set_history_budget(80 * turn);
    assert_eq!(g.history_bytes(), 80 * turn);
    assert_eq!(g.history_trimmed(), 20);
    // The minimum number of turns is kept whatever the budget.
    g.set_history_budget(0);
    assert_eq!(g.history_bytes(), MIN_HISTORY_TURNS * turn);
    assert_eq!(g.history_trimmed(), (100 - MIN_HISTORY_TURNS) as u64);
    g.step(Input::Restart);
    assert_eq!(g.state_hash(), first, "restart returns to the start");
    assert_eq!(g.history_trimmed(), 0);

    // Playing with a budget of 100 turns: 300 turns keep the newest 100.
    let mut g = start(&doc);
    let budget = 100 * turn;
    g.set_history_budget(budget);
    let hashes = play_within(g.as_mut(), walk, 300, budget);
    assert_eq!(g.history_trimmed(), 200);
    check_undo_and_restart(g.as_mut(), &hashes);
    let again = play_within(g.as_mut(), walk, 300, budget);
    assert_eq!(again, hashes, "the same turns after the restart");
}

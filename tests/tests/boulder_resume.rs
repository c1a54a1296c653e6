//! Resuming a saved play state (`tilesmith run --out`, the editor's "use as design") goes on
//! exactly where the game stood: playing k ticks, saving, loading and playing the rest equals
//! playing all ticks at once, also for rules that fire every n ticks ("rare" situations) and
//! for slime, which draws from the random number generator.

// Helpers outside #[test] functions unwrap too (clippy.toml allows it only inside them); a
// panic there is a test failure like any other.
#![allow(clippy::unwrap_used)]

use serde_json::Value;
use tilesmith_engine::kind::boulder::{BoulderGame, BoulderLevel};
use tilesmith_engine::replay::Replay;
use tilesmith_engine::{Game as _, Input};
use tilesmith_tests::workspace;

fn level_and_inputs(name: &str) -> (BoulderLevel, Vec<Input>, u64) {
    let replay = Replay::load(
        &workspace()
            .join("tests/replays/boulder")
            .join(format!("{name}.json")),
    )
    .unwrap();
    let doc = replay.document().unwrap();
    (
        BoulderLevel::from_json(&doc.value).unwrap(),
        replay.inputs.clone(),
        replay.seed,
    )
}

/// The game after `inputs`, as a level document (map and saved state).
fn play(level: BoulderLevel, seed: u64, inputs: &[Input]) -> (BoulderGame, Value) {
    let mut g = BoulderGame::new(level, seed);
    for i in inputs {
        g.step(*i);
    }
    let v = g.to_level();
    (g, v)
}

/// Plays `k` inputs, saves through the level text, reloads (with another seed: the saved
/// generator must win) and plays the rest; `strip_clock` drops the saved clock first, as the
/// files of older versions had none.
fn resumed(
    level: &BoulderLevel,
    seed: u64,
    inputs: &[Input],
    k: usize,
    strip_clock: bool,
) -> Value {
    let (_, mut saved) = play(level.clone(), seed, &inputs[..k]);
    if strip_clock {
        let st = saved["state"].as_object_mut().unwrap();
        st.remove("tick_count");
        st.remove("rng");
    }
    let text = tilesmith_engine::json_text::layout(&saved);
    let doc = tilesmith_engine::load_text(&text).unwrap();
    let reloaded = BoulderLevel::from_json(&doc.value).unwrap();
    play(reloaded, seed.wrapping_add(12345), &inputs[k..]).1
}

/// A 16×12 level built for this test: a 4×4 slime blob in mud (slime draws from the random
/// number generator every tick, spec §4.4) and a pot whose value `a` a "rare" rule with
/// sparsity 3 raises every third tick (spec §4.5). The figure sits walled in a corner.
fn clockwork() -> (BoulderLevel, Vec<Input>, u64) {
    let mut rows = Vec::new();
    for y in 0..12 {
        let row: Vec<&str> = (0..16)
            .map(|x| match (x, y) {
                (0 | 15, _) | (_, 0 | 11) => "wall",
                (1, 1) => "me",
                (2, 1) | (1, 2) | (2, 2) => "wall",
                (13, 1) => "pot",
                (6..=9, 5..=8) => "slime",
                _ => "mud",
            })
            .collect();
        rows.push(row);
    }
    let v = serde_json::json!({
        "name": "clockwork", "width": 16, "height": 12, "gems": [0, 0, 0],
        "ticks": [1000, 1000, 1000],
        "pre": [{"situation": "rare", "sparsity": 3, "direction": "east",
                 "original": [{"token": "pot"}], "result": [{"token": "0", "values": {"a": 1}}]}],
        "map": rows,
    });
    let level = BoulderLevel::from_json(&v).unwrap();
    (level, vec![Input::Wait; 40], 7)
}

#[test]
fn resuming_a_saved_state_equals_playing_on() {
    let mut differs_without_clock = 0;
    let cases = [
        ("clockwork", clockwork()),
        ("ember-field", level_and_inputs("ember-field")),
        ("demolition-yard", level_and_inputs("demolition-yard")),
    ];
    for (name, (level, inputs, seed)) in cases {
        assert!(inputs.len() >= 12, "{name}: a replay long enough to split");
        let (direct_game, direct) = play(level.clone(), seed, &inputs);
        for k in [1, 5, inputs.len() / 2, inputs.len() - 1] {
            let r = resumed(&level, seed, &inputs, k, false);
            assert_eq!(r["map"], direct["map"], "{name}: map after resuming at {k}");
            assert_eq!(
                r["state"], direct["state"],
                "{name}: state after resuming at {k}"
            );
            if resumed(&level, seed, &inputs, k, true)["map"] != direct["map"] {
                differs_without_clock += 1;
            }
        }
        assert_eq!(
            direct["state"]["tick_count"].as_u64(),
            Some(direct_game.tick_count())
        );
    }
    // Without the clock the resumed games go wrong (rare rules fire on other ticks, slime
    // draws other numbers), so the comparison above has something to catch.
    assert!(differs_without_clock > 0);
}

#[test]
fn a_malformed_clock_is_reported_at_its_json_path() {
    let (level, _, _) = level_and_inputs("ember-field");
    let mut v = level.to_json();
    v["state"] = serde_json::json!({"gems": 1, "tick_count": -3, "rng": "00ff:12"});
    let problems = BoulderLevel::from_json(&v).unwrap_err();
    let paths: Vec<String> = problems.iter().map(|p| p.path.to_string()).collect();
    assert!(
        paths.contains(&"$.state.tick_count".to_string()),
        "{paths:?}"
    );
    assert!(paths.contains(&"$.state.rng".to_string()), "{paths:?}");
}

/// A session started from a saved state counts its own steps from 0 (undo, the tick slider and
/// recorded replays use them), while the clock goes on from the saved tick count.
#[test]
fn a_game_from_a_saved_state_counts_its_steps_from_zero() {
    let (level, inputs, seed) = clockwork();
    let (_, saved) = play(level, seed, &inputs[..10]);
    let resumed = BoulderLevel::from_json(&saved).unwrap();
    let mut g = BoulderGame::new(resumed.clone(), seed);
    assert_eq!(g.steps(), 0);
    assert_eq!(g.tick_count(), 10);
    assert!(!g.undo(), "nothing to undo at the start of the session");
    let r = g.step(Input::Wait);
    assert_eq!((r.step, g.steps(), g.tick_count()), (1, 1, 11));
    g.step(Input::Wait);
    assert!(g.undo());
    assert_eq!((g.steps(), g.tick_count()), (1, 11));
    // A replay of this session (level embedded with its clock) re-runs to the same state.
    let replay = Replay {
        level: tilesmith_engine::replay::ReplayLevel::Embedded(resumed.to_json()),
        seed,
        inputs: vec![Input::Wait; 5],
        words: None,
        ticks: 5,
        hash: None,
        status: None,
        summary: None,
        source: None,
    };
    let mut direct = BoulderGame::new(resumed, seed);
    for _ in 0..5 {
        direct.step(Input::Wait);
    }
    let out = replay.recorded(&direct).run().unwrap();
    assert!(out.matches);
    assert_eq!(out.game.to_level()["map"], direct.to_level()["map"]);
}

/// A 5×3 level where a boulder above the figure falls on it in the first tick.
fn doomed() -> BoulderLevel {
    let v = serde_json::json!({
        "name": "doomed", "width": 5, "height": 4, "gems": [0, 0, 0],
        "ticks": [1000, 1000, 1000],
        "map": [["wall", "wall", "wall", "wall", "wall"],
                ["wall", "stone", "mud", "exit", "wall"],
                ["wall", "path", "mud", "mud", "wall"],
                ["wall", "me", "wall", "wall", "wall"]],
    });
    BoulderLevel::from_json(&v).unwrap()
}

/// A lost game (no `me` left) saves a state that loads again, still lost, and stays lost.
#[test]
fn a_lost_game_saves_a_state_that_loads_again() {
    let mut g = BoulderGame::new(doomed(), 1);
    for _ in 0..5 {
        g.step(Input::Wait);
    }
    assert_eq!(g.status().word(), "lost", "{}", g.summary());
    let saved = g.to_level();
    assert_eq!(saved["state"]["status"], "lost");
    let text = tilesmith_engine::json_text::layout(&saved);
    let doc = tilesmith_engine::load_text(&text).unwrap();
    let errors: Vec<_> = doc.check().into_iter().filter(|p| p.is_error()).collect();
    assert!(errors.is_empty(), "{errors:?}\n{text}");
    let mut again = doc.start(9).unwrap();
    assert_eq!(again.status(), g.status(), "the reason is kept too");
    assert_eq!(again.state_hash(), g.state_hash());
    let r = again.step(Input::Wait);
    assert!(r.changed.is_empty(), "a finished game does not go on");
    assert_eq!(again.to_level(), saved);
    // Without a finished status, a map without `me` is still an error.
    let mut running = saved.clone();
    running["state"]["status"] = "running".into();
    running["state"].as_object_mut().unwrap().remove("reason");
    assert!(BoulderLevel::from_json(&running).is_err());
    // A status the game could not have is rejected.
    let mut bad = saved.clone();
    bad["state"]["status"] = "paused".into();
    assert!(BoulderLevel::from_json(&bad).is_err());
}

/// The clock stops at the largest tick count a state may hold, so the saved state of a game at
/// the limit always loads again.
#[test]
fn the_clock_stops_at_the_largest_tick_count_that_loads() {
    use tilesmith_engine::kind::boulder::MAX_TICK_COUNT;
    let (level, _, seed) = clockwork();
    let mut v = level.to_json();
    v["state"] = serde_json::json!({"tick_count": MAX_TICK_COUNT - 1});
    let mut g = BoulderGame::new(BoulderLevel::from_json(&v).unwrap(), seed);
    g.step(Input::Wait);
    assert_eq!(
        g.summary()["ticks"],
        1,
        "the last tick below the limit runs"
    );
    assert_eq!(g.tick_count(), MAX_TICK_COUNT as u64);
    let before = g.to_level();
    let r = g.step(Input::Wait);
    assert!(r.changed.is_empty(), "no tick past the limit");
    assert_eq!(g.summary()["ticks"], 1, "no tick past the limit");
    assert_eq!(g.tick_count(), MAX_TICK_COUNT as u64);
    assert_eq!(g.to_level(), before);
    assert_eq!(before["state"]["tick_count"], MAX_TICK_COUNT);
    let reloaded = BoulderLevel::from_json(&before).unwrap();
    let mut again = BoulderGame::new(reloaded, seed);
    again.step(Input::Wait);
    assert_eq!(again.tick_count(), MAX_TICK_COUNT as u64);
    // One more is rejected by the loader, as before.
    v["state"] = serde_json::json!({"tick_count": MAX_TICK_COUNT + 1});
    assert!(BoulderLevel::from_json(&v).is_err());
}

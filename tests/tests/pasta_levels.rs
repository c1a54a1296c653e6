//! The shipped Pasta Logic levels (`levels/pasta/`): each checks clean and starts; the
//! prototype's four presets are its `src/Preset.ts` lists in their order; the full game is
//! the §4 setup drawn from the seed; the placed program starts in execution; and a game of
//! each, played by a seeded random player, ends.

#![allow(clippy::unwrap_used)]

mod pasta;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use serde_json::{Value, json};
use tilesmith_engine::GameKind;
use tilesmith_engine::kind::pasta::Pasta;
use tilesmith_tests::workspace;

fn read(name: &str) -> Value {
    let path = workspace().join("levels").join("pasta").join(name);
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn names(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|c| {
            c.as_str()
                .or_else(|| c["card"].as_str())
                .unwrap()
                .to_string()
        })
        .collect()
}

#[test]
fn every_level_checks_clean_and_a_random_game_of_it_ends() {
    let dir = workspace().join("levels").join("pasta");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.to_string_lossy().ends_with(".replay.json") {
            continue; // a puzzle's intended solution (pasta_puzzles.rs), no level
        }
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert!(
            Pasta.check(&doc).is_empty(),
            "{}: {:?}",
            path.display(),
            Pasta.check(&doc)
        );
        for seed in 0..4u64 {
            let mut g = Pasta.start(&doc, seed).unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut k = 0;
            while !g.status().is_over() {
                let w = pasta::words(&*g);
                let word = &w[rng.next_u32() as usize % w.len()];
                let i = g.read_input(word).unwrap();
                g.step(i);
                k += 1;
                assert!(k < 20_000, "{} does not end", path.display());
            }
        }
        n += 1;
    }
    assert!(n >= 6, "only {n} levels in levels/pasta");
}

/// `src/Preset.ts` of github.com/nishio/pastalogic, the four lists in their order.
#[test]
fn the_presets_are_the_prototype_lists() {
    let presets = [
        (
            "we-are-programmer.json",
            [
                "MoveFlag",
                "Reorder",
                "Reverse",
                "Subroutine",
                "Rotate",
                "SwapCommand",
                "Bug",
                "FastPass",
            ],
        ),
        (
            "life-race.json",
            [
                "Increment",
                "Reorder",
                "AddFlag",
                "MoveFlag",
                "ForkBomb",
                "Debug",
                "TradeOff",
                "Bug",
            ],
        ),
        (
            "inflation.json",
            [
                "SwapCommand",
                "Subroutine",
                "AddFlag",
                "MoveFlag",
                "Increment",
                "FastPass",
                "TradeOff",
                "Debug",
            ],
        ),
        (
            "catastrophe.json",
            [
                "RemoveFlag",
                "RemoveCommand",
                "Increment",
                "Subroutine",
                "SwapCommand",
                "Bug",
                "ForkBomb",
                "TradeOff",
            ],
        ),
    ];
    for (file, cards) in presets {
        let doc = read(file);
        assert_eq!(names(&doc["cards"]), cards, "{file}");
        let g = Pasta.start(&doc, 0).unwrap();
        let s = g.summary();
        assert_eq!(s["phase"], "placement", "{file}");
        assert_eq!(s["hand"], json!({"red": 5, "blue": 5}));
        assert_eq!(s["to_move"], "red");
    }
}

#[test]
fn the_full_game_draws_its_setup_and_the_placed_program_runs() {
    let g = Pasta.start(&read("full-game.json"), 3).unwrap();
    let s = g.summary();
    assert_eq!(s["phase"], "placement");
    assert_eq!(names(&s["cards"]).len(), 8);
    let g = Pasta
        .start(&read("program-after-placement.json"), 0)
        .unwrap();
    let s = g.summary();
    assert_eq!(s["phase"], "execution");
    assert_eq!(s["reserve"], json!({"red": 5, "blue": 5}));
    // Increment (card 0) holds one red flag: red has the right at cursor 0.
    assert_eq!(
        (s["cursor"].clone(), s["to_move"].clone()),
        (json!(0), json!("red"))
    );
}

/// The stored replay `tests/replays/pasta/life-race-red-wins.json` on the placed program,
/// worked out by hand: red's Increment raises Bug to 2 (its chip stays until Bug is left);
/// Reorder, AddFlag ×2 and MoveFlag skipped; ForkBomb's blue flag: red 5 − 2 = 3, the flag
/// goes; ForkBomb's red flag: blue 5 − 2 = 3; TradeOff: red 3 − 1 = 2, blue 3 − 2 = 1;
/// Bug {1}+1 = 2: blue 1 − 2 = −1, red wins by W1. Reserves 5 + 1 each.
#[test]
fn the_stored_replay_ends_as_worked_out() {
    let path = workspace().join("tests/replays/pasta/life-race-red-wins.json");
    let replay = tilesmith_engine::replay::Replay::load(&path).unwrap();
    let mut g = replay.document().unwrap().start(replay.seed).unwrap();
    for w in replay.words.clone().unwrap() {
        assert!(!g.status().is_over(), "over before {w}");
        let i = g.read_input(&w).unwrap();
        g.step(i);
    }
    assert_eq!(
        Some(g.state_hash()),
        replay.hash,
        "the replay reaches its recorded state"
    );
    let s = &g.summary();
    assert_eq!(
        (
            s["status"].clone(),
            s["winner"].clone(),
            s["reason"].clone()
        ),
        (json!("won"), json!("red"), json!("life"))
    );
    assert_eq!(s["life"], json!({"red": 2, "blue": -1}));
    assert_eq!(s["reserve"], json!({"red": 6, "blue": 6}));
    assert_eq!(s["cards"][4]["flags"], json!([]));
}

//! The shipped Pasta Logic puzzles (issue #28 "Original levels": "red to move wins within N
//! decisions", both players' decisions counted, one per card family, each with a replay of
//! its solution). For each `levels/pasta/puzzle-*.json` the solver that `tilesmith solve`
//! runs (alpha-beta with a transposition table and iterative deepening over the game's
//! searcher, at most N plies) proves a win for red in exactly N decisions, so no shorter
//! win exists; and the intended solution beside it (`NAME.intended.replay.json`, issue
//! #29's name) wins for red in N decisions and matches its recorded end. The N of each
//! puzzle is the one its description promises, worked out by hand in
//! `docs/pasta-level-format.md` ("Puzzles").

#![allow(clippy::unwrap_used)]

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use tilesmith_engine::replay::{Replay, ReplayLevel};
use tilesmith_engine::search::alphabeta::Value;
use tilesmith_engine::search::solve;
use tilesmith_engine::{Status, load_file};
use tilesmith_tests::workspace;

/// Each puzzle with the number of decisions of its shortest win and its intended line.
const PUZZLES: [(&str, u32, &str); 6] = [
    ("puzzle-rotate-to-the-front", 3, "do do do"),
    ("puzzle-heal-then-trade", 2, "do do"),
    ("puzzle-reverse-gear", 2, "do do"),
    ("puzzle-turn-it-down", 3, "do:ForkBomb#1 do do"),
    ("puzzle-long-call", 3, "do:Subroutine#1 do:Bug do"),
    ("puzzle-cut-the-queue", 2, "do:Bug do"),
];

fn dir() -> PathBuf {
    workspace().join("levels").join("pasta")
}

/// Every `puzzle-*.json` in `levels/pasta/` is in the table (and so is tested).
#[test]
fn every_shipped_puzzle_is_listed() {
    let mut found: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            let stem = name.strip_suffix(".json")?;
            (stem.starts_with("puzzle-") && !stem.ends_with(".replay")).then(|| stem.to_string())
        })
        .collect();
    found.sort();
    let mut listed: Vec<String> = PUZZLES.iter().map(|p| p.0.to_string()).collect();
    listed.sort();
    assert_eq!(found, listed);
}

/// The solver proves red's win in N decisions (none shorter), and its principal variation
/// has N words.
#[test]
fn the_solver_proves_each_puzzle_a_shortest_win_for_red() {
    for (name, n, _) in PUZZLES {
        let doc = load_file(&dir().join(format!("{name}.json"))).unwrap();
        assert!(doc.check().is_empty(), "{name}: {:?}", doc.check());
        let game = doc.start(0).unwrap();
        assert_eq!(game.to_move(), Some(0), "{name}: red (player 0) to move");
        // The entry point `tilesmith solve` and the editor's Solve call.
        let solve = |plies: u32| {
            let mut root = game.searcher().unwrap();
            let limits = solve::Limits {
                max_steps: Some(plies),
                ..solve::Limits::default()
            };
            match solve::solve(root.as_mut(), &limits, &AtomicBool::new(false), &mut |_| {}) {
                Ok(solve::Outcome::TwoPlayers(out)) => out,
                other => panic!("{name}: {other:?}"),
            }
        };
        let out = solve(n);
        assert_eq!(out.value, Value::Win(n), "{name}: {out:?}");
        assert_eq!(out.player, 0, "{name}: the value is red's");
        assert_eq!(out.pv_words.len(), n as usize, "{name}: {:?}", out.pv_words);
        // Within one decision fewer there is no win.
        let out = solve(n - 1);
        assert!(
            !matches!(out.value, Value::Win(_)),
            "{name}: a win within {} decisions: {out:?}",
            n - 1
        );
    }
}

/// The intended replay beside each puzzle plays its level, wins for red in N decisions,
/// matches its recorded end, and holds the intended words.
#[test]
fn each_intended_replay_is_a_shortest_win() {
    for (name, n, words) in PUZZLES {
        let r = dir().join(format!("{name}.intended.replay.json"));
        let replay = Replay::load(&r).unwrap_or_else(|e| panic!("{}: {e}", r.display()));
        match &replay.level {
            ReplayLevel::Path(p) => assert_eq!(
                p.canonicalize().unwrap(),
                dir().join(format!("{name}.json")).canonicalize().unwrap(),
            ),
            ReplayLevel::Embedded(_) => panic!("{name}: the replay embeds its level"),
        }
        assert_eq!(replay.words.as_ref().unwrap().join(" "), words, "{name}");
        assert_eq!(replay.inputs.len(), n as usize, "{name}");
        let outcome = replay.run().unwrap();
        match outcome.game.status() {
            Status::Won { winner, .. } => assert_eq!(winner.as_deref(), Some("red"), "{name}"),
            s => panic!("{name}: {s:?}"),
        }
        assert!(
            outcome.matches,
            "{name}: no longer matches its recorded end"
        );
    }
}

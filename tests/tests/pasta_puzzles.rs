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
const PUZZLES: [(&str, u32, &str); 9] = [
    ("puzzle-rotate-to-the-front", 3, "do do do"),
    ("puzzle-heal-then-trade", 2, "do do"),
    ("puzzle-reverse-gear", 2, "do do"),
    ("puzzle-turn-it-down", 3, "do:ForkBomb#1 do do"),
    ("puzzle-long-call", 3, "do:Subroutine#1 do:Bug do"),
    ("puzzle-cut-the-queue", 2, "do:Bug do"),
    // Found by a search over random programs (docs/pasta-level-format.md, "Puzzles"): the
    // line is blue's best defence as the solver found it; the test below checks that only
    // one of red's first choices wins.
    (
        "puzzle-swap-the-line",
        9,
        "do:SwapCommand do:SwapCommand.1 do:Rotate do:RemoveFlag do:Rotate.1 do:Reorder.2 do do:MoveFlag.1 do:Subroutine.1",
    ),
    (
        "puzzle-defuse",
        8,
        "do:ForkBomb do:RemoveCommand skip skip do:Increment do:RemoveCommand skip do:Rotate",
    ),
    (
        "puzzle-one-move-of-36",
        7,
        "do:AddFlag.1>RemoveCommand do:RemoveFlag#1 do:RemoveCommand=2,3,1 do:RemoveFlag do:Reorder.1>RemoveCommand do:RemoveFlag#1 do:RemoveCommand.1+RemoveCommand.2+RemoveCommand.4",
    ),
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

/// The three searched puzzles promise that of red's first choices only one wins within N
/// decisions: after each other choice, blue (to move, or red again) has no forced loss for
/// itself within the N − 1 decisions left, and after the intended one it has.
#[test]
fn the_searched_puzzles_have_one_winning_first_choice() {
    for (name, n, words) in &PUZZLES[6..] {
        let doc = load_file(&dir().join(format!("{name}.json"))).unwrap();
        let game = doc.start(0).unwrap();
        let first = words.split_whitespace().next().unwrap();
        let choices: Vec<String> = game.legal_inputs().into_iter().map(|c| c.word).collect();
        assert!(choices.len() > 1, "{name}");
        let mut winning = Vec::new();
        for w in &choices {
            let mut g = doc.start(0).unwrap();
            let input = g.read_input(w).unwrap();
            g.step(input);
            let red_wins = match g.status() {
                Status::Won { winner, .. } => winner.as_deref() == Some("red"),
                Status::Running => {
                    let mut root = g.searcher().unwrap();
                    let limits = solve::Limits {
                        max_steps: Some(n - 1),
                        ..solve::Limits::default()
                    };
                    match solve::solve(root.as_mut(), &limits, &AtomicBool::new(false), &mut |_| {})
                    {
                        Ok(solve::Outcome::TwoPlayers(out)) => match out.value {
                            Value::Win(_) => out.player == 0,
                            Value::Loss(_) => out.player == 1,
                            _ => false,
                        },
                        other => panic!("{name} after {w}: {other:?}"),
                    }
                }
                _ => false,
            };
            if red_wins {
                winning.push(w.clone());
            }
        }
        assert_eq!(winning, [first.to_string()], "{name}: of {choices:?}");
    }
}

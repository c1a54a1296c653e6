//! The falling kind's search (issue #29): one move is one placement of the active tumo at a
//! reachable final position, found by a search over the frame inputs, and expanded back to
//! the frame words. Expectations: the published count of distinct placements of the seven
//! tetrominoes on an empty 10-wide field (I 17, O 9, T 34, S 17, Z 17, J 34, L 34: 162),
//! with hold those of the next tumo added; every move's words, stepped frame by frame, give
//! the state the search's jump gives; the shipped puzzles solved (`docs/falling-levels.md`
//! says how each is won). See `docs/solver.md`, "Falling".

#![allow(clippy::unwrap_used)]

use std::sync::atomic::AtomicBool;

use serde_json::{Value, json};
use tilesmith_engine::game::{Game, GameKind, Status};
use tilesmith_engine::kind::falling::game::search::FallingSearch;
use tilesmith_engine::kind::falling::{FallingGame, FallingLevel};
use tilesmith_engine::kind::kind_named;
use tilesmith_engine::search::bfs;
use tilesmith_engine::search_game::SearchGame;

fn falling() -> &'static dyn GameKind {
    kind_named("falling").unwrap()
}

fn shipped(name: &str) -> Value {
    let path = tilesmith_tests::workspace()
        .join("levels/falling")
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// `levels/falling/tetris.json` with the fixed sequence `tumos` and `hold`.
fn tetris(tumos: &[&str], hold: bool) -> Value {
    let mut v = shipped("tetris.json");
    v["sequence"] = json!({"order": "fixed", "tumos": tumos});
    v["hold"] = json!(hold);
    v
}

fn searcher(doc: &Value) -> Box<dyn SearchGame> {
    falling().start(doc, 0).unwrap().searcher().unwrap()
}

fn moves(s: &mut dyn SearchGame) -> Vec<u32> {
    let mut v = Vec::new();
    s.moves(&mut v).unwrap();
    v
}

/// Breadth-first search of `s` with the default budgets.
fn solve(s: &mut dyn SearchGame) -> bfs::Outcome {
    bfs::solve(
        s,
        &bfs::Limits::default(),
        &AtomicBool::new(false),
        &mut |_| {},
    )
    .unwrap()
}

#[test]
fn each_tetromino_has_its_published_number_of_placements_on_an_empty_field() {
    for (name, n) in [
        ("I", 17),
        ("O", 9),
        ("T", 34),
        ("S", 17),
        ("Z", 17),
        ("J", 34),
        ("L", 34),
    ] {
        let mut s = searcher(&tetris(&[name, "O"], false));
        assert_eq!(moves(s.as_mut()).len(), n, "{name}");
    }
}

#[test]
fn with_hold_the_placements_of_the_tumo_the_hold_brings_are_moves_too() {
    // T now, I next: 34 placements of the T, 17 of the I after H.
    let mut s = searcher(&tetris(&["T", "I", "O"], true));
    let m = moves(s.as_mut());
    assert_eq!(m.len(), 34 + 17);
    let held: Vec<_> = m.iter().filter(|&&mv| s.words(mv)[0] == "H").collect();
    assert_eq!(held.len(), 17);
}

#[test]
fn every_move_played_as_frame_words_reaches_the_same_state() {
    let doc = tetris(&["T", "I", "O", "S"], true);
    let mut s = searcher(&doc);
    let level = FallingLevel::from_json(&doc).unwrap();
    let mut exact = FallingSearch::new(&FallingGame::new(level, 0));
    for mv in moves(s.as_mut()) {
        let words = s.words(mv);
        s.play(mv).unwrap();
        let mut g = falling().start(&doc, 0).unwrap();
        for w in &words {
            g.step(falling().parse_input(w).unwrap());
        }
        let mut after = g.searcher().unwrap();
        assert_eq!(after.key(), s.key(), "move {mv}: {}", words.join(" "));
        // The whole state, frame count, timers and counters included, not only the key.
        let f = g.as_any().downcast_ref::<FallingGame>().unwrap();
        exact.play(mv).unwrap();
        assert_eq!(exact.game().state_hash(), Game::state_hash(f), "move {mv}");
        assert!(exact.undo());
        // A placement ends with the next tumo in play, at its spawn place.
        assert!(g.summary()["active"].is_object(), "{}", words.join(" "));
        assert_eq!(g.summary()["frames"], words.len());
        assert!(moves(after.as_mut()).len() > 17);
        assert!(s.undo());
    }
    assert!(!s.undo());
}

#[test]
fn the_shipped_puzzles_are_solved_in_their_placements() {
    // puyo-all-clear: two pairs, one way (docs/falling-levels.md: "Only one placement
    // clears the field"); puyo-4-chain: three pairs; tetris-rows-puzzle: J, T, I with a T
    // turned under an overhang.
    for (name, steps) in [
        ("puyo-all-clear.json", 2),
        ("puyo-4-chain.json", 3),
        ("tetris-rows-puzzle.json", 3),
    ] {
        let doc = shipped(name);
        let mut s = searcher(&doc);
        let out = solve(s.as_mut());
        let bfs::Answer::Solved(sol) = out.answer else {
            panic!("{name}: {:?}", out.answer)
        };
        assert_eq!(sol.moves.len(), steps, "{name}");
        let mut g = falling().start(&doc, 0).unwrap();
        for w in &sol.words {
            g.step(falling().parse_input(w).unwrap());
        }
        assert!(
            matches!(g.status(), Status::Won { .. }),
            "{name}: {}",
            sol.words.join(" ")
        );
    }
}

#[test]
fn a_tumo_that_does_not_lock_in_time_is_an_error_not_a_hang() {
    // No hard drop and a lock of 216 000 frames: the wait to place is over the search's
    // 65 536-frame bound.
    let mut doc = tetris(&["O", "I"], false);
    doc["hard_drop"] = json!(false);
    doc["timing"]["lock"] = json!(216_000);
    let mut s = searcher(&doc);
    let mut v = Vec::new();
    let e = s.moves(&mut v).unwrap_err();
    assert!(e.message.contains("not placed within 65536 frames"), "{e}");
}

#[test]
fn a_clear_all_level_is_dead_when_its_rows_cannot_be_filled_by_the_tumos_left() {
    // 4 wide, rows clear, one O left (4 blocks).
    let level = |rows: &[&str]| {
        let mut field = vec!["....".to_string(); 6 - rows.len()];
        field.extend(rows.iter().map(|r| r.to_string()));
        json!({
            "kind": "falling", "name": "cap", "width": 4, "height": 6,
            "blocks": [{"name": "o", "color": [200, 200, 0]}],
            "tumos": [{"name": "O", "states": [[[-1, -1], [-1, -1]]], "block": "o"}],
            "clear": [{"rule": "rows"}], "fall": ["rows"], "hard_drop": true,
            "sequence": {"order": "fixed", "tumos": ["O"]},
            "goal": {"rule": "clear_all"},
            "timing": {"gravity": 60, "soft_drop": 3, "lock": 30, "spawn": 0, "clear": 0, "fall": 0, "land": 0},
            "legend": {"X": "o"}, "field": field
        })
    };
    // Two rows with three empty cells each need 6 blocks: more than the O has.
    assert!(searcher(&level(&["X...", "X..."])).is_dead());
    // One row with three empty cells needs 3, but the O's 4 blocks cannot start a row (it
    // would need 4 more): the 3 empty cells right of the full column are no multiple of 4.
    assert!(searcher(&level(&["X..."])).is_dead());
    // A 2 × 2 hole the O fills exactly is not dead, and the search clears it in one
    // placement.
    let mut s = searcher(&level(&["XX..", "XX.."]));
    assert!(!s.is_dead());
    let solve = |s: &mut dyn SearchGame| {
        bfs::solve(
            s,
            &bfs::Limits::default(),
            &AtomicBool::new(false),
            &mut |_| {},
        )
        .unwrap()
    };
    match solve(s.as_mut()).answer {
        bfs::Answer::Solved(sol) => assert_eq!(sol.moves.len(), 1),
        a => panic!("{a:?}"),
    }
    // And the dead ones are proved unsolvable.
    let mut s = searcher(&level(&["X..."]));
    assert_eq!(solve(s.as_mut()).answer, bfs::Answer::Unsolvable);
}

#[test]
fn an_endless_level_without_a_goal_is_dead_from_the_start() {
    // No goal, no win (issue 10: only a goal wins): the search proves it at once.
    let mut s = searcher(&shipped("tetris.json"));
    assert!(s.is_dead());
    let out = solve(s.as_mut());
    assert_eq!((out.answer, out.states), (bfs::Answer::Unsolvable, 1));
}

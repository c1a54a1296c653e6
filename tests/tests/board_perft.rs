//! perft conformance of the board kind on the real ZRF files of `../shared/corpus/board/`
//! against the published counts in its `perft.json` (read at run time, never copied):
//! English checkers (a whole jump chain is one ply, capture compulsory by
//! `move-priorities`, a crowned man ends the move) and chess (the legality filter of
//! `(checkmated King)`, en passant by `last-from?`/`last-to?`), and Lewthwaite's game.
#![allow(clippy::unwrap_used)]

use std::time::Instant;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng as _, SeedableRng as _};
use serde_json::Value;
use tilesmith_engine::kind::board::Rules;
use tilesmith_engine::kind::board::play::{Engine, PerftEnd, Position, perft, play_turn, turns};
use tilesmith_engine::kind::board::zrf::compile;
use tilesmith_tests::corpus;

fn load(file: &str, variant: Option<&str>) -> Rules {
    let path = corpus("board").join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    match compile(&text, variant) {
        Ok((rules, _warnings)) => rules,
        Err(problems) => panic!("{} does not compile: {problems:?}", path.display()),
    }
}

fn published(game: &str) -> Vec<u64> {
    let text = std::fs::read_to_string(corpus("board").join("perft.json")).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    let table = v[game].as_object().unwrap();
    (1..=table.len())
        .map(|d| table[&d.to_string()].as_u64().unwrap())
        .collect()
}

/// perft at each depth up to `max`, against the published table, printing the time taken.
fn check(rules: &Rules, game: &str, max: u32) {
    let table = published(game);
    let pos = Position::initial(rules);
    for d in 1..=max {
        let t = Instant::now();
        let n = perft(rules, &pos, d, PerftEnd::FullDepth);
        eprintln!(
            "{game} perft {d} = {n} in {:.3}s",
            t.elapsed().as_secs_f64()
        );
        assert_eq!(n, table[d as usize - 1], "{game} perft {d}");
    }
}

/// Deep counts run where they are fast: the whole table in release builds, fewer depths in
/// debug builds (where the engine is not optimised). See BENCHMARKS.md for the timings.
fn depth(release: u32, debug: u32) -> u32 {
    if cfg!(debug_assertions) {
        debug
    } else {
        release
    }
}

#[test]
fn english_checkers_perft_matches_the_published_counts() {
    let rules = load("english-checkers.zrf", Some("English Checkers"));
    check(&rules, "checkers_english", 8);
}

#[test]
fn chess_perft_matches_the_published_counts() {
    let rules = load("chess.zrf", Some("Chess"));
    check(&rules, "chess", depth(5, 4));
}

/// Puts `player`'s `piece` on each of `squares` (names as the rules give them).
fn place(rules: &Rules, pos: &mut Position, player: &str, piece: &str, squares: &[&str]) {
    let player = rules.players.iter().position(|p| p == player).unwrap() as u8;
    let kind = rules.pieces.iter().position(|p| p.name == piece).unwrap() as u8;
    for sq in squares {
        let i = rules
            .board
            .positions
            .iter()
            .position(|d| d.name == *sq)
            .unwrap();
        pos.cells[i] = Some(tilesmith_engine::kind::board::play::Piece {
            player,
            kind,
            attrs: 0,
        });
    }
}

#[test]
fn checkers_openings_jump_chains_and_crowning() {
    let rules = load("english-checkers.zrf", None);
    let pos = Position::initial(&rules);
    // Black moves first; its men on the third rank step diagonally forward.
    let mut names: Vec<String> = turns(&rules, &pos)
        .into_iter()
        .map(|t| t.notation)
        .collect();
    names.sort();
    assert_eq!(
        names,
        vec![
            "a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"
        ]
    );

    // A double jump is one turn of two parts, and capture is compulsory: the man on a1
    // may not step while the man on c3 can jump.
    let mut pos = Position::initial(&rules);
    pos.cells.iter_mut().for_each(|c| *c = None);
    place(&rules, &mut pos, "Black", "Man", &["c3", "a1"]);
    place(&rules, &mut pos, "White", "Man", &["d4", "f6", "h8"]);
    let all = turns(&rules, &pos);
    let names: Vec<&str> = all.iter().map(|t| t.notation.as_str()).collect();
    assert_eq!(names, vec!["c3xe5xg7"]);
    assert_eq!(all[0].parts.len(), 2);
    let mut after = pos.clone();
    play_turn(&rules, &mut after, &all[0]);
    assert_eq!(after.cells.iter().flatten().count(), 3);

    // A man crowned by a jump stops there, though as a King it could jump on (d8xf6).
    let mut pos = Position::initial(&rules);
    pos.cells.iter_mut().for_each(|c| *c = None);
    place(&rules, &mut pos, "Black", "Man", &["b6"]);
    place(&rules, &mut pos, "White", "Man", &["c7", "e7"]);
    let all = turns(&rules, &pos);
    let names: Vec<&str> = all.iter().map(|t| t.notation.as_str()).collect();
    assert_eq!(names, vec!["b6xd8"]);
    let mut after = pos.clone();
    play_turn(&rules, &mut after, &all[0]);
    let d8 = rules
        .board
        .positions
        .iter()
        .position(|d| d.name == "d8")
        .unwrap();
    let king = rules.pieces.iter().position(|p| p.name == "King").unwrap() as u8;
    assert_eq!(after.cells[d8].map(|p| p.kind), Some(king));
}

#[test]
fn lewthwaite_5x5_slides_into_the_hole() {
    let rules = load("lewthwaite.zrf", None);
    let pos = Position::initial(&rules);
    // White to move; the hole is c3 and White's men beside it are c4, b3, d3 and c2.
    let mut names: Vec<String> = turns(&rules, &pos)
        .into_iter()
        .map(|t| t.notation)
        .collect();
    names.sort();
    assert_eq!(names, vec!["b3-c3", "c2-c3", "c4-c3", "d3-c3"]);
    // Each slide opens a hole with three Black men and the White man just moved around it.
    assert_eq!(perft(&rules, &pos, 2, PerftEnd::FullDepth), 12);
}

#[test]
fn lewthwaite_7x7_push_moves_a_whole_line_at_once() {
    let rules = load("lewthwaite.zrf", Some("Lewthwaite's game (7x7)"));
    let pos = Position::initial(&rules);
    let all = turns(&rules, &pos);
    let mut names: Vec<String> = all.iter().map(|t| t.notation.clone()).collect();
    names.sort();
    // The hole is d4. A White man next to it steps in; a White man two away pushes a Black
    // man and a White man so that the White one enters the hole (the pushed line must end
    // with a friend: the flag of the last piece pushed).
    assert_eq!(
        names,
        vec![
            "a4-b4", "c4-d4", "d1-d2", "d3-d4", "d5-d4", "d7-d6", "e4-d4", "g4-f4"
        ]
    );
    // d7-d6 is three movements at once: d7->d6, d6->d5, d5->d4 (the key is the first).
    let push = all.iter().find(|t| t.notation == "d7-d6").unwrap();
    assert_eq!(push.parts.len(), 1);
    assert_eq!(push.parts[0].primitives.len(), 3);
    let mut after = pos.clone();
    play_turn(&rules, &mut after, push);
    let name = |p: &Position, sq: &str| {
        let i = rules
            .board
            .positions
            .iter()
            .position(|d| d.name == sq)
            .unwrap();
        p.cells[i].map(|c| rules.players[c.player as usize].clone())
    };
    assert_eq!(name(&after, "d7"), None);
    assert_eq!(name(&after, "d6"), Some("White".into()));
    assert_eq!(name(&after, "d5"), Some("Black".into()));
    assert_eq!(name(&after, "d4"), Some("White".into()));
    assert_eq!(after.cells.iter().flatten().count(), 48);
}

/// Regression values, not published counts: Lewthwaite's game has no published perft. These
/// numbers are what this engine counted when its depth 1 and 2 had been checked by hand
/// (above); they guard against changes in the generator.
#[test]
fn lewthwaite_perft_regression_values() {
    let five = load("lewthwaite.zrf", None);
    let seven = load("lewthwaite.zrf", Some("Lewthwaite's game (7x7)"));
    let p5 = Position::initial(&five);
    let p7 = Position::initial(&seven);
    let counts5: Vec<u64> = (1..=6)
        .map(|d| perft(&five, &p5, d, PerftEnd::FullDepth))
        .collect();
    assert_eq!(counts5, vec![4, 12, 32, 64, 104, 176]);
    let counts7: Vec<u64> = (1..=6)
        .map(|d| perft(&seven, &p7, d, PerftEnd::FullDepth))
        .collect();
    assert_eq!(counts7, vec![8, 36, 132, 528, 2320, 9712]);
}

#[test]
fn halma_steps_and_jumps_without_returning_to_the_start() {
    let rules = load("halma.zrf", None);
    let pos = Position::initial(&rules);
    // Counted by hand from the setup: steps n/w into empty squares and jumps over a man.
    // i3-i5 could jump back to i3 (pass partial lets the chain go on), but that would
    // return the board to the start of the turn: it is not a turn.
    let mut names: Vec<String> = turns(&rules, &pos)
        .into_iter()
        .map(|t| t.notation)
        .collect();
    names.sort();
    let mut expected = vec![
        "i4-i5", "i4-h4", "j4-j5", "j4-h4", "h3-h4", "h3-g3", "i3-i5", "i3-g3", "j3-j5", "g2-g3",
        "g2-f2", "h2-h4", "h2-f2", "g1-f1", "g1-g3", "h1-f1",
    ];
    expected.sort();
    assert_eq!(names, expected);
}

/// Halma and Chinese checkers (all variants): random games of up to 120 turns play without
/// a generation error, every position's notations are unique, every player gets turns, and
/// with `pass partial` each prefix of a jump chain is a turn too.
#[test]
fn halma_and_chinese_checkers_play() {
    let games = [
        ("halma.zrf", "Halma 10x10"),
        ("halma.zrf", "Halma (4 players)"),
        ("halma.zrf", "Halma 8x8"),
        ("chinese-checkers.zrf", "Chinese Checkers"),
        ("chinese-checkers.zrf", "Super Chinese Checkers"),
        ("chinese-checkers.zrf", "Chinese Checkers Capturing"),
    ];
    let mut chains = 0;
    for (file, variant) in games {
        let engine = Engine::new(load(file, Some(variant)));
        let rules = engine.rules();
        let mut pos = engine.initial();
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut movers = std::collections::BTreeSet::new();
        for _ in 0..120 {
            if engine.outcome(&pos, &[]).is_some() {
                break;
            }
            let all = engine.turns(&pos).unwrap();
            let names: std::collections::HashSet<&str> =
                all.iter().map(|t| t.notation.as_str()).collect();
            assert_eq!(names.len(), all.len(), "{variant}: notations not unique");
            for t in all.iter().filter(|t| t.parts.len() > 1) {
                chains += 1;
                let prefix = &t.parts[..t.parts.len() - 1];
                assert!(
                    all.iter().any(|u| u.parts == prefix),
                    "{variant}: the prefix of {} is not a turn",
                    t.notation
                );
            }
            movers.insert(pos.to_move(rules));
            let pick = &all[rng.next_u32() as usize % all.len()];
            engine.play_turn(&mut pos, pick);
        }
        assert_eq!(
            movers.len(),
            rules.players.len(),
            "{variant}: every player moved"
        );
    }
    assert!(chains > 0, "some jump chain was offered");
}

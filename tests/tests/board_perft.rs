//! perft conformance of the board kind on the real ZRF files of `../shared/corpus/board/`
//! against the published counts in its `perft.json` (read at run time, never copied):
//! English checkers (a whole jump chain is one ply, capture compulsory by
//! `move-priorities`, a crowned man ends the move) and chess (the legality filter of
//! `(checkmated King)`, en passant by `last-from?`/`last-to?`), and Lewthwaite's game.
#![allow(clippy::unwrap_used)]

use std::time::Instant;

use serde_json::Value;
use tilesmith_engine::kind::board::Rules;
use tilesmith_engine::kind::board::play::{PerftEnd, Position, perft, turns};
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
        eprintln!("{game} perft {d} = {n} in {:.3}s", t.elapsed().as_secs_f64());
        assert_eq!(n, table[d as usize - 1], "{game} perft {d}");
    }
}

/// Deep counts run where they are fast: the whole table in release builds, fewer depths in
/// debug builds (where the engine is not optimised). See BENCHMARKS.md for the timings.
fn depth(release: u32, debug: u32) -> u32 {
    if cfg!(debug_assertions) { debug } else { release }
}

#[test]
fn english_checkers_perft_matches_the_published_counts() {
    let rules = load("english-checkers.zrf", Some("English Checkers"));
    check(&rules, "checkers_english", depth(8, 6));
}

#[test]
fn chess_perft_matches_the_published_counts() {
    let rules = load("chess.zrf", Some("Chess"));
    check(&rules, "chess", depth(5, 3));
}

#[test]
fn checkers_opening_turns_and_a_capture_chain() {
    let rules = load("english-checkers.zrf", None);
    let pos = Position::initial(&rules);
    // Black moves first; its men on the third rank step diagonally forward.
    let mut names: Vec<String> = turns(&rules, &pos).into_iter().map(|t| t.notation).collect();
    names.sort();
    assert_eq!(
        names,
        vec!["a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"]
    );
}

//! The board kind's random turn for playouts (`SearchGame::advance_random`, issue #29
//! "Search speed of the board kind"), which draws a turn without building every child and
//! tests the legality filter only on the turns it draws: every turn it plays is one of the
//! legal turns the full expansion (`Engine::successors`, the perft-tested path) gives, with
//! the same resulting position; each legal turn is equally likely (a chi-square test where
//! the legality filter removes some moves); and the status it reads lazily is the status
//! worked out from the full list of children, and each turn drawn is one of the full
//! expansion's, on random games of chess (royal pieces), Reversi (forced passes), English
//! and Chinese checkers and halma (chains of partial moves) and tic-tac-toe.

#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng as _;
use tilesmith_engine::kind::board::play::searcher::BoardSearch;
use tilesmith_engine::kind::board::play::{Engine, Position, moves};
use tilesmith_engine::kind::board::zrf;
use tilesmith_engine::search_game::SearchGame;
use tilesmith_tests::{corpus, workspace};

fn engine_of(path: std::path::PathBuf) -> Arc<Engine> {
    let text = std::fs::read_to_string(path).unwrap();
    let (rules, _) = zrf::compile(&text, None).unwrap();
    Arc::new(Engine::new(rules))
}

fn chess() -> Arc<Engine> {
    engine_of(corpus("board").join("chess.zrf"))
}

/// One random turn from `pos` by the playout's draw: the position it leads to.
fn drawn(e: &Arc<Engine>, pos: &Position, rng: &mut ChaCha8Rng) -> Position {
    let mut s = BoardSearch::new(Arc::clone(e), pos.clone());
    assert!(s.advance_random(rng, &mut Vec::new()).unwrap());
    s.position().clone()
}

/// A chess position on a fixed random game where the legality filter removes some of the
/// generated moves and at least three legal turns remain.
fn position_with_illegal_moves(e: &Arc<Engine>) -> (Position, Vec<Position>) {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for _game in 0..50 {
        let mut pos = e.initial();
        for _ply in 0..300 {
            let kids = e.successors(&pos).unwrap();
            if kids.is_empty() {
                break;
            }
            let generated = moves(e.rules(), &pos).unwrap().len();
            if kids.len() >= 3 && generated > kids.len() + 5 {
                return (pos, kids);
            }
            pos = drawn(e, &pos, &mut rng);
        }
    }
    panic!("no chess position with illegal moves on 50 random games");
}

#[test]
fn the_playout_turn_is_uniform_among_the_legal_turns_when_some_are_illegal() {
    let e = chess();
    let (pos, kids) = position_with_illegal_moves(&e);
    let k = kids.len();
    let n = 200 * k;
    let mut count = vec![0u64; k];
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for _ in 0..n {
        let after = drawn(&e, &pos, &mut rng);
        // Exact legality: the turn drawn is a legal turn, and its position is the child's.
        let i = kids.iter().position(|c| *c == after);
        count[i.expect("the drawn turn is one of the legal turns")] += 1;
    }
    // Chi-square against the uniform law, k - 1 degrees of freedom: the 1e-6 quantile is
    // below dof + 8 sqrt(2 dof) + 20 for every dof (Wilson-Hilferty), so a uniform draw
    // fails this about once in a million seeds; drawing the pseudo-legal moves uniformly and
    // skipping the illegal ones to the next would not pass (some turns would get double).
    let expect = n as f64 / k as f64;
    let chi2: f64 = count
        .iter()
        .map(|&c| (c as f64 - expect).powi(2) / expect)
        .sum();
    let dof = (k - 1) as f64;
    let bound = dof + 8.0 * (2.0 * dof).sqrt() + 20.0;
    assert!(
        chi2 < bound,
        "chi2 {chi2:.1} over {k} legal turns (bound {bound:.1}): {count:?}"
    );
}

/// Plays `games` random games of at most `plies` with the playout's draw and checks, at
/// each position, that the status read lazily is the one worked out with every child.
fn statuses_agree(e: &Arc<Engine>, games: u32, plies: u32, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..games {
        let mut g = BoardSearch::new(Arc::clone(e), e.initial());
        for _ in 0..plies {
            let mut full = BoardSearch::new(Arc::clone(e), g.position().clone());
            let mut list = Vec::new();
            full.moves(&mut list).unwrap();
            // Both without a history (`repetition` along `g`'s path is not compared).
            let mut fresh = BoardSearch::new(Arc::clone(e), g.position().clone());
            let lazy = fresh.status().unwrap();
            assert_eq!(lazy, full.status().unwrap(), "at {:?}", g.position());
            if lazy.is_over() || g.status().unwrap().is_over() {
                break;
            }
            assert!(!list.is_empty());
            // The turn drawn is a legal turn, with the full expansion's position.
            let kids = e.successors(g.position()).unwrap();
            assert!(g.advance_random(&mut rng, &mut Vec::new()).unwrap());
            assert!(kids.contains(g.position()), "not a legal turn's position");
        }
    }
}

#[test]
fn the_lazy_status_is_the_status_from_every_child() {
    statuses_agree(&chess(), 2, 150, 1);
    let board = |name: &str| engine_of(workspace().join("levels/board").join(name));
    statuses_agree(&board("reversi.zrf"), 2, 80, 2);
    statuses_agree(&board("tic-tac-toe.zrf"), 20, 10, 3);
    statuses_agree(
        &engine_of(corpus("board").join("english-checkers.zrf")),
        2,
        120,
        4,
    );
    // Chains of partial moves where the playout hands a position over to the full expansion
    // with the first parts it generated (`Expander::expand_generated`).
    statuses_agree(
        &engine_of(corpus("board").join("chinese-checkers.zrf")),
        1,
        60,
        5,
    );
    statuses_agree(&engine_of(corpus("board").join("halma.zrf")), 1, 40, 6);
}

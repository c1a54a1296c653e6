//! Boulder levels for the search tests (`tests/boulder_estimate.rs`,
//! `tests/boulder_visited_key.rs`): seeded random small maps, small enough that
//! breadth-first search finishes, level rules from JSON, and one search run by algorithm.

use std::sync::atomic::AtomicBool;

use rand_chacha::ChaCha8Rng;
use rand_core::Rng;
use tilesmith_engine::Game as _;
use tilesmith_engine::Grid;
use tilesmith_engine::kind::boulder::game::BoulderGame;
use tilesmith_engine::kind::boulder::level::rule_from_json;
use tilesmith_engine::kind::boulder::{BoulderLevel, Cell, Token};
use tilesmith_engine::problem::JsonPath;
use tilesmith_engine::search::bfs::{Limits, Outcome};
use tilesmith_engine::search::{Algorithm, astar, bfs, ida};
use tilesmith_engine::search_game::SearchGame;

use crate::level;

/// A seeded random 5×4 map: one `me`, one or two exits, stones, gems, mud, path and walls,
/// sometimes a swapling; 0–2 gems needed, 40 ticks allowed, no rules.
pub fn random_level(rng: &mut ChaCha8Rng) -> BoulderLevel {
    let (w, h) = (5, 4);
    let pool = [
        Token::Path,
        Token::Path,
        Token::Mud,
        Token::Mud,
        Token::Stone,
        Token::Gem,
        Token::Gem,
        Token::Wall,
    ];
    let mut cells: Vec<Cell> = (0..w * h)
        .map(|_| Cell::new(pool[(rng.next_u32() as usize) % pool.len()]))
        .collect();
    let mut place = |t: Token, rng: &mut ChaCha8Rng| {
        let i = (rng.next_u32() as usize) % cells.len();
        cells[i] = Cell::new(t);
    };
    place(Token::Exit, rng);
    if rng.next_u32().is_multiple_of(3) {
        place(Token::Exit, rng);
    }
    if rng.next_u32().is_multiple_of(4) {
        place(Token::Swapling, rng);
    }
    place(Token::Me, rng);
    let mut l = level(Grid::from_vec(w, h, cells).expect("5×4 cells"));
    let need = rng.next_u32() % 3;
    l.gems = [need, need, need];
    l.ticks = [40, 40, 40];
    l
}

/// `l` with the `pre` rules written as JSON (spec §4.5).
///
/// # Panics
/// When a rule does not read: the fixture is wrong.
pub fn with_rules(mut l: BoulderLevel, pre: &[serde_json::Value]) -> BoulderLevel {
    l.pre = pre
        .iter()
        .map(|r| rule_from_json(r, &JsonPath::root()).expect("a rule of the fixture"))
        .collect();
    l
}

/// The kind's searcher at the start of `l` (seed 0).
///
/// # Panics
/// When boulder offers no searcher.
pub fn searcher(l: &BoulderLevel) -> Box<dyn SearchGame> {
    BoulderGame::new(l.clone(), 0)
        .searcher()
        .expect("boulder has a searcher")
}

/// One search of `g` by `algorithm`, at most `max` ticks, no other budget.
///
/// # Panics
/// When the kind reports a search error.
pub fn search(g: &mut dyn SearchGame, algorithm: Algorithm, max: u32) -> Outcome {
    let limits = Limits {
        max_steps: Some(max),
        ..Limits::default()
    };
    let cancel = AtomicBool::new(false);
    match algorithm {
        Algorithm::Bfs => bfs::solve(g, &limits, &cancel, &mut |_| {}),
        Algorithm::AStar => astar::solve(g, &limits, &cancel, &mut |_| {}),
        Algorithm::Ida => ida::solve(g, &limits, &cancel, &mut |_| {}),
    }
    .expect("no search error")
}

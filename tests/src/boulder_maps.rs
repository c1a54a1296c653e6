//! Seeded random small boulder maps for the search tests (`tests/boulder_estimate.rs`,
//! `tests/boulder_visited_key.rs`): small enough that breadth-first search finishes.

use rand_chacha::ChaCha8Rng;
use rand_core::Rng;
use tilesmith_engine::Grid;
use tilesmith_engine::kind::boulder::{BoulderLevel, Cell, Token};

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

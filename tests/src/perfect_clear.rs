//! Perfect-clear openers for the falling kind (issue #29, "Falling, perfect clears"): seeded
//! openers of 11 tetrominoes (a shuffled 7-bag and the first 4 of a second shuffled bag) on
//! the empty field of `levels/falling/tetris.json` with hold, played as a fixed sequence with
//! the goal `clear_all`, and a depth-first search over the falling kind's placements (its
//! [`SearchGame`] macro moves) for 10 placements that clear the 4 bottom rows.
//!
//! The search is here, beside the tests and the example that use it, not in
//! `tilesmith-search`: it is the plain depth-first search a perfect-clear finder is, with a
//! set of the states already found to lead nowhere (by key), the kind's `is_dead` (the rows
//! the tumos left cannot fill, walls of full columns splitting the empty cells into parts
//! that are not a multiple of 4) and a depth bound; and the perfect-clear finders' pruning
//! rule: in the rows still to clear, every 4-connected part of the empty cells must hold a
//! multiple of 4 cells. That rule is not a sure one (a row cleared between two enclosed
//! parts joins them, so a clear that needs such a join is missed), which is why it is here
//! and not in the kind's `is_dead`; every opener is found with it anyway.

use std::collections::HashSet;

use serde_json::{Value, json};
use tilesmith_engine::kind::falling::game::search::FallingSearch;
use tilesmith_engine::kind::falling::{FallingGame, FallingLevel};
use tilesmith_engine::search_game::{Move, SearchError, SearchGame, SearchStatus, StateKey};

/// The seven tetrominoes, in the order of `levels/falling/tetris.json`.
pub const TETROMINOES: [&str; 7] = ["I", "O", "T", "S", "Z", "J", "L"];

/// SplitMix64: the seeded generator of the openers (a fixed, documented sequence).
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` by rejection.
    fn below(&mut self, n: u64) -> u64 {
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let v = self.next();
            if v < zone {
                return v % n;
            }
        }
    }

    /// A Fisher–Yates shuffle of the seven tetrominoes.
    fn bag(&mut self) -> [&'static str; 7] {
        let mut b = TETROMINOES;
        for i in (1..7).rev() {
            b.swap(i, self.below(i as u64 + 1) as usize);
        }
        b
    }
}

/// Opener `seed`: a shuffled bag of the seven, then the first four of a second shuffled bag.
pub fn opener(seed: u64) -> Vec<&'static str> {
    let mut r = SplitMix(seed);
    let mut v = r.bag().to_vec();
    v.extend_from_slice(&r.bag()[..4]);
    v
}

/// `levels/falling/tetris.json` (10 × 22, SRS with its kicks, hard drop) with hold, the
/// fixed sequence `tumos` and the goal `clear_all`.
pub fn level(tumos: &[&str]) -> Value {
    let path = crate::workspace().join("levels/falling/tetris.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut v: Value = serde_json::from_str(&text).expect("tetris.json is JSON");
    v["hold"] = json!(true);
    v["sequence"] = json!({"order": "fixed", "tumos": tumos});
    v["goal"] = json!({"rule": "clear_all"});
    v
}

/// A searcher at the start of `doc` (a level of [`level`]), seed 0.
///
/// # Panics
/// When `doc` is not a falling level.
pub fn searcher(doc: &Value) -> FallingSearch {
    let level = FallingLevel::from_json(doc).expect("a falling level");
    FallingSearch::new(&FallingGame::new(level, 0))
}

/// The rows left to clear for a 4-row perfect clear: `4 − rows cleared`.
const PC_ROWS: usize = 4;

/// True when, in the bottom rows still to clear, a 4-connected part of the empty cells holds
/// a number of cells that is not a multiple of 4 (see the module documentation).
pub fn odd_part(g: &FallingGame) -> bool {
    let f = g.field();
    let (w, h) = (f.width, f.height);
    let rows = PC_ROWS.saturating_sub(g.rows() as usize).min(h);
    let top = h - rows;
    let mut seen = vec![false; w * h];
    let mut stack = Vec::new();
    for start in top * w..h * w {
        if seen[start] || f.cells[start] != 0 {
            continue;
        }
        seen[start] = true;
        stack.push(start);
        let mut n = 0;
        while let Some(i) = stack.pop() {
            n += 1;
            let (x, y) = (i % w, i / w);
            let mut near = |j: usize| {
                if !seen[j] && f.cells[j] == 0 {
                    seen[j] = true;
                    stack.push(j);
                }
            };
            if x > 0 {
                near(i - 1);
            }
            if x + 1 < w {
                near(i + 1);
            }
            if y > top {
                near(i - w);
            }
            if y + 1 < h {
                near(i + w);
            }
        }
        if n % 4 != 0 {
            return true;
        }
    }
    false
}

/// What [`perfect_clear`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The placements (moves) of the perfect clear; `None` when there is none within the
    /// depth, or the node budget ran out (`exhausted`).
    pub moves: Option<Vec<Move>>,
    /// The frame words that play them (each move's [`SearchGame::words`]).
    pub words: Vec<String>,
    /// States expanded.
    pub nodes: u64,
    /// True when the node budget ran out before an answer.
    pub exhausted: bool,
}

/// A depth-first search from `root` for a win within `depth` moves, expanding at most
/// `max_nodes` states; `root` is back in its state when it returns.
///
/// # Errors
/// A [`SearchError`] from the kind.
pub fn perfect_clear(
    root: &mut FallingSearch,
    depth: u32,
    max_nodes: u64,
) -> Result<Found, SearchError> {
    let mut d = Dfs {
        failed: HashSet::new(),
        nodes: 0,
        max_nodes,
        path: Vec::new(),
    };
    let won = d.search(root, depth)?;
    let moves = won.then(|| d.path.clone());
    let mut words = Vec::new();
    if let Some(m) = &moves {
        for &mv in m {
            words.extend(root.words(mv));
            root.play(mv)?;
        }
        for _ in m {
            root.undo();
        }
    }
    Ok(Found {
        moves,
        words,
        nodes: d.nodes,
        exhausted: !won && d.nodes >= max_nodes,
    })
}

struct Dfs {
    /// States (with the moves left) from which no win was found.
    failed: HashSet<(StateKey, u32)>,
    nodes: u64,
    max_nodes: u64,
    path: Vec<Move>,
}

impl Dfs {
    fn search(&mut self, g: &mut FallingSearch, left: u32) -> Result<bool, SearchError> {
        match g.status()? {
            SearchStatus::Won(_) => return Ok(true),
            SearchStatus::Running => {}
            _ => return Ok(false),
        }
        if left == 0 || self.nodes >= self.max_nodes || g.is_dead() || odd_part(g.game()) {
            return Ok(false);
        }
        let key = (g.key(), left);
        if self.failed.contains(&key) {
            return Ok(false);
        }
        self.nodes += 1;
        let mut moves = Vec::new();
        g.moves(&mut moves)?;
        for mv in moves {
            g.play(mv)?;
            self.path.push(mv);
            let won = self.search(g, left - 1);
            g.undo();
            if won? {
                // The path stays, root first: the caller replays it for its words.
                return Ok(true);
            }
            self.path.pop();
        }
        if self.nodes < self.max_nodes {
            self.failed.insert(key);
        }
        Ok(false)
    }
}

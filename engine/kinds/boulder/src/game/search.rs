//! Boulder's [`SearchGame`] (issue #29): a copy of the game stepped tick by tick on the fast
//! path (no observer, no list of changed cells) and undone from its tick patches.
//!
//! Moves: the nine input words in the order of the kind's input table (`.`, `L`, `R`, `U`,
//! `D`, `ML`, `MR`, `MU`, `MD`). A lost game (the figure destroyed, the time run out) is over.
//! The key hashes every field's token and values, the globals (`ticks` among them: the time
//! limit and the points depend on it, so states at different ticks are different states),
//! the phase of the tick count that the level's `Rare` rules read (the count modulo their
//! periods' least common multiple), the RNG's position and the status.
//!
//! The visited key ([`SearchGame::visited_key`]) leaves the global `ticks` out when no rule
//! reads or writes it: then only the time limit and the points read it, and a state reached
//! at a later tick is never better than the same state reached earlier (fewer ticks leave
//! more time and as many points), so the searches prune it (`docs/solver.md`, "Boulder's
//! visited key").
//!
//! The estimate and the dead-state test are the lower bound on the ticks to a win of
//! [`super::estimate`], offered only where the level's rules leave it standing.

use std::hash::{Hash as _, Hasher as _};
use std::sync::Arc;

use super::BoulderGame;
use super::estimate::Bound;
use crate::level::{BoulderLevel, Situation};
use crate::token::{Global, ValueName};
use tilesmith_core::game::{Game, Status};
use tilesmith_core::hash::KeyHasher;
use tilesmith_core::input::Input;
use tilesmith_core::search_game::{Move, SearchError, SearchGame, SearchStatus, StateKey};

/// A boulder position ready for search; see the module documentation.
#[derive(Clone)]
pub struct BoulderSearch {
    game: BoulderGame,
    /// The estimate's tables (shared by forks); `None` when the rules leave no bound.
    bound: Option<Arc<Bound>>,
    /// What of the tick count the rules read: the least common multiple of the `Rare`
    /// rules' periods (1: no such rule), or 0 when that passes [`MAX_PERIOD`] (the count
    /// itself is then hashed).
    period: u64,
    /// No rule reads or writes the global `ticks` (see the module documentation).
    timeless: bool,
}

/// The longest period of `Rare` rules folded into the key as a phase; past it the key
/// holds the tick count itself (states at different ticks never share a key then).
const MAX_PERIOD: u64 = 1 << 20;

/// The least common multiple of the periods of `level`'s `Rare` rules (1: none), or 0 when
/// it passes [`MAX_PERIOD`].
fn rare_period(level: &BoulderLevel) -> u64 {
    fn gcd(a: u64, b: u64) -> u64 {
        if b == 0 { a } else { gcd(b, a % b) }
    }
    let mut l: u64 = 1;
    for rule in level.pre.iter().chain(&level.post) {
        if let Situation::Rare { sparsity } = rule.situation
            && sparsity > 0
        {
            let s = u64::from(sparsity);
            l = l / gcd(l, s) * s;
            if l > MAX_PERIOD {
                return 0;
            }
        }
    }
    l
}

/// True when no rule of `level` names the global `ticks`, in a condition or a write.
fn ticks_unnamed(level: &BoulderLevel) -> bool {
    let names_ticks = |values: &[(ValueName, i64)]| {
        values
            .iter()
            .any(|(n, _)| *n == ValueName::Global(Global::Ticks))
    };
    level.pre.iter().chain(&level.post).all(|rule| {
        !rule.original.iter().any(|p| names_ticks(&p.values))
            && !rule.result.iter().any(|w| names_ticks(&w.values))
    })
}

/// The input of move `mv`.
fn input(mv: Move) -> Option<Input> {
    super::super::INPUTS.get(mv as usize).map(|s| s.input)
}

impl BoulderSearch {
    /// A searcher at the current state of `g`, with an empty path (its own undo history,
    /// unbounded).
    pub fn new(g: &BoulderGame) -> BoulderSearch {
        let mut game = g.clone();
        game.history.clear();
        game.history.set_budget(usize::MAX);
        game.history.set_limit(usize::MAX);
        game.cancel = None;
        let bound = Bound::new(&game).map(Arc::new);
        let period = rare_period(&game.level);
        let timeless = ticks_unnamed(&game.level);
        BoulderSearch {
            game,
            bound,
            period,
            timeless,
        }
    }

    /// The key, with or without the global `ticks`.
    fn hash(&self, with_ticks: bool) -> StateKey {
        let g = &self.game;
        let mut h = KeyHasher::new();
        g.board.tokens().hash(&mut h);
        if g.board.values_mask() != 0 {
            for i in 0..g.board.len() {
                for v in g.board.values(i) {
                    h.write_u64(v as u64);
                }
            }
        }
        for (i, v) in g.globals.iter().enumerate() {
            if with_ticks || i != Global::Ticks as usize {
                h.write_u32(*v);
            }
        }
        h.write_u64(match self.period {
            0 => g.tick,
            p => g.tick % p,
        });
        h.write_u64(g.rng.get_word_pos() as u64);
        h.write_u8(match g.status {
            Status::Running => 0,
            Status::Won { .. } => 1,
            Status::Lost { .. } => 2,
            Status::Draw { .. } => 3,
        });
        h.finish128()
    }

    /// The game at the current state.
    pub fn game(&self) -> &BoulderGame {
        &self.game
    }
}

impl SearchGame for BoulderSearch {
    fn players(&self) -> usize {
        1
    }

    fn to_move(&self) -> usize {
        0
    }

    fn status(&mut self) -> Result<SearchStatus, SearchError> {
        Ok(match self.game.status {
            Status::Won { .. } => SearchStatus::Won(0),
            Status::Running => SearchStatus::Running,
            Status::Lost { .. } => SearchStatus::Lost,
            Status::Draw { .. } => SearchStatus::Draw,
        })
    }

    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), SearchError> {
        if !self.game.status.is_over() {
            out.extend(0..super::super::INPUTS.len() as Move);
        }
        Ok(())
    }

    fn play(&mut self, mv: Move) -> Result<(), SearchError> {
        let Some(i) = input(mv) else {
            return Err(SearchError::new(format!("boulder has no move {mv}")));
        };
        if self.game.status.is_over() {
            return Err(SearchError::new("the game is over"));
        }
        self.game.tick(i);
        Ok(())
    }

    fn undo(&mut self) -> bool {
        Game::undo(&mut self.game)
    }

    fn fork(&self) -> Box<dyn SearchGame> {
        let mut c = self.clone();
        c.game.history.clear();
        Box::new(c)
    }

    fn key(&self) -> StateKey {
        self.hash(true)
    }

    fn visited_key(&self) -> StateKey {
        self.hash(!self.timeless)
    }

    fn word(&self, mv: Move) -> String {
        super::super::INPUTS
            .get(mv as usize)
            .map_or("?", |s| s.word)
            .to_string()
    }

    fn is_dead(&mut self) -> bool {
        self.bound.as_ref().is_some_and(|b| b.dead(&self.game))
    }

    fn estimate(&mut self) -> Option<u32> {
        self.bound.as_ref().map(|b| b.ticks_to_win(&self.game))
    }

    fn bytes(&self) -> usize {
        std::mem::size_of::<BoulderGame>()
            + self.game.board.state_bytes()
            + self.game.board.scratch_bytes()
    }
}

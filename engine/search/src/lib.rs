//! Search over any kind that offers a [`SearchGame`] (issue #29 "one search module over the
//! `Game` trait", issue #28 "the computer player"): the algorithms know the trait and the
//! primitives of `tilesmith-core` only and name no kind. They are a crate of their own,
//! which depends on `tilesmith-core` alone and on which no kind crate depends, so the
//! compiler refuses a kind that imports them (`docs/architecture.md`, "Crates"; the
//! `Cargo.toml`s are held by `engine/tests/structure.rs`). The facade re-exports this crate
//! as `tilesmith_engine::search`.
//!
//! - [`bfs`]: breadth-first search of a one-player game for a proved shortest solution,
//!   within a memory, time and step budget, cancellable, with progress; and the exhaustive
//!   count of a state space ([`bfs::explore`]); with [`bfs::solve_all`], the number of
//!   distinct shortest solutions and where they part ([`count`]).
//! - [`astar`] and [`ida`]: A* and IDA* for a one-player game whose kind gives an estimate
//!   ([`tilesmith_core::search_game::SearchGame::estimate`]): proved shortest solutions when
//!   it is admissible, A* within the same budgets as breadth-first search, IDA* with a
//!   bounded transposition table for spaces too large to store.
//! - [`alphabeta`]: the value of a two-player position within N plies (win, loss, draw or
//!   unknown) and its principal variation, by alpha-beta with a transposition table and
//!   iterative deepening.
//! - [`mcts`]: Monte Carlo tree search (UCT) for the computer player of any number of
//!   players.
//! - [`solve`]: the entry point `tilesmith solve` and the editor's Solve share (the
//!   algorithm chosen by the number of players), and each legal move's value
//!   ([`solve::move_values`]).
//! - [`playout`]: random playouts, the flat Monte Carlo player, and whole games between
//!   players ([`playout::Player`]) for `tilesmith match`.
//! - [`random`]: the random choices [`mcts`] and [`playout`] share.
//!
//! `docs/solver.md` describes what each gives, the key choice, the transposition table's
//! rule for path-dependent values, and the limits.
//!
//! [`SearchGame`]: tilesmith_core::search_game::SearchGame

#![warn(missing_docs)]

pub mod alphabeta;
pub mod astar;
pub mod bfs;
pub mod count;
pub mod ida;
pub mod mcts;
pub mod playout;
pub mod random;
pub mod solve;
#[cfg(test)]
mod test_graph;
mod visited;

use std::hash::{BuildHasherDefault, Hasher};

use tilesmith_core::search_game::Move;

/// The clock of a search: when it started and when it last reported progress. One place for
/// the time budget and the progress calls of every search (breadth-first, A*, IDA*).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Clock {
    /// When the search started.
    pub(crate) started: std::time::Instant,
    next_report: std::time::Duration,
}

impl Clock {
    /// A clock started now; the first progress report comes after 100 ms.
    pub(crate) fn new() -> Clock {
        Clock {
            started: std::time::Instant::now(),
            next_report: std::time::Duration::from_millis(100),
        }
    }

    /// Checked at every state a search counts (`states` so far), reading the clock at every
    /// 256th: [`Budget::Time`] once `time` has passed, else a [`Progress`] (`states`, `depth`)
    /// about ten times a second.
    pub(crate) fn tick(
        &mut self,
        states: u64,
        depth: u32,
        time: Option<std::time::Duration>,
        progress: &mut dyn FnMut(&Progress),
    ) -> Option<Budget> {
        if !states.is_multiple_of(256) {
            return None;
        }
        let elapsed = self.started.elapsed();
        if time.is_some_and(|t| elapsed >= t) {
            return Some(Budget::Time);
        }
        if elapsed >= self.next_report {
            self.next_report = elapsed + std::time::Duration::from_millis(100);
            progress(&Progress::new(states, depth, self.started));
        }
        None
    }
}

/// A visited state of a breadth-first search that is expanded: its first parent (an index
/// into the search's records), the move from there, its depth. Here, below [`bfs`] and
/// [`count`], which both read it.
#[derive(Clone, Copy)]
pub(crate) struct Record {
    pub(crate) parent: u32,
    pub(crate) mv: Move,
    pub(crate) depth: u32,
}

/// A hasher for [`tilesmith_core::search_game::StateKey`]s, which are hashes already: it keeps the
/// low 64 bits of the key as they are.
#[derive(Default, Clone, Copy)]
pub(crate) struct KeyPass(u64);

impl Hasher for KeyPass {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u128(&mut self, v: u128) {
        self.0 = v as u64;
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// A hash map or set keyed by state keys.
pub(crate) type KeyBuild = BuildHasherDefault<KeyPass>;

/// The default memory budget of a search's tables (1 GiB), as `--memory` sets it.
pub const DEFAULT_MEMORY: usize = 1 << 30;

/// The algorithm of a one-player search (`tilesmith solve --algorithm`, [`solve::solve_with`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Breadth-first search ([`bfs`]): every visited state stored, proved shortest always.
    Bfs,
    /// A* ([`astar`]): best first by moves made plus the kind's estimate, every visited state
    /// stored; proved shortest when the estimate is admissible.
    AStar,
    /// IDA* ([`ida`]): iterative deepening depth-first search on moves made plus the
    /// estimate, with a bounded transposition table, for spaces too large to store.
    Ida,
}

impl Algorithm {
    /// `bfs`, `astar` or `ida`, as the CLI reads and prints it.
    pub fn word(self) -> &'static str {
        match self {
            Algorithm::Bfs => "bfs",
            Algorithm::AStar => "astar",
            Algorithm::Ida => "ida",
        }
    }

    /// The algorithm named `word` (`bfs`, `astar`, `ida`), if any.
    pub fn from_word(word: &str) -> Option<Algorithm> {
        [Algorithm::Bfs, Algorithm::AStar, Algorithm::Ida]
            .into_iter()
            .find(|a| a.word() == word)
    }
}

/// Why a search stopped before it had its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// The memory budget of its tables would have been exceeded.
    Memory,
    /// The time budget ran out.
    Time,
    /// The step (or ply) bound was reached with states left to expand.
    Steps,
    /// The cancel flag was set.
    Cancelled,
}

impl Budget {
    /// `memory`, `time`, `steps` or `cancelled`, as the CLI prints it.
    pub fn word(self) -> &'static str {
        match self {
            Budget::Memory => "memory",
            Budget::Time => "time",
            Budget::Steps => "steps",
            Budget::Cancelled => "cancelled",
        }
    }
}

/// How a search is going, for a progress display: handed to the callback about ten times a
/// second and once at the end.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    /// Distinct states stored (breadth-first) or positions visited (alpha-beta).
    pub states: u64,
    /// The depth being searched, in moves (plies).
    pub depth: u32,
    /// States per second so far.
    pub per_second: f64,
    /// Time since the search started.
    pub elapsed: std::time::Duration,
}

impl Progress {
    pub(crate) fn new(states: u64, depth: u32, started: std::time::Instant) -> Progress {
        let elapsed = started.elapsed();
        Progress {
            states,
            depth,
            per_second: states as f64 / elapsed.as_secs_f64().max(1e-9),
            elapsed,
        }
    }
}

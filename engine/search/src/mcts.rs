//! Monte Carlo tree search (UCT) over any [`SearchGame`], for any number of players: the
//! computer player of the board kind's play pane, and of every kind that offers search
//! (moved here from the board kind, issue #28: one search shared by the kinds instead of a
//! copy each).
//!
//! The search is deterministic for a given seed when only the iteration budget limits it;
//! a wall-clock budget stops it after a varying number of iterations. It is cancellable
//! through an [`AtomicBool`] (checked at every iteration and every ply of a playout) and
//! reports [`Progress`] through a callback. It runs on its own copies of the position
//! ([`SearchGame::fork`]; a [`SearchGame`] is `Send`), so it can run on a worker thread.
//!
//! Each iteration walks down the tree by UCB1 (an unvisited child first, chosen at random),
//! expands the leaf it reaches (every move at once, states stored, through
//! [`SearchGame::children`]), plays one random game from it, and credits every node on the
//! way with the result as seen by the player who made the move into it: 1 for a win, 0 for
//! a loss, 1/n for a draw among n players (0 in a one-player game), and a playout cut off by
//! the ply limit counts as a draw. A path-dependent end (`repetition`) is judged inside each
//! playout only (from the state it starts at), not along the tree: every node is a fork.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng as _;

use crate::playout::uniform;
use tilesmith_core::search_game::{Move, SearchError, SearchGame, SearchStatus};

/// How long a [`search`] may run, and how it plays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchLimits {
    /// Wall-clock budget. With neither this nor `iterations`, one second.
    pub time: Option<Duration>,
    /// The most iterations (one playout each). With only this limit, the search is
    /// deterministic for a given `seed`.
    pub iterations: Option<u64>,
    /// The longest random playout, in turns; a playout cut off there counts as a draw.
    pub max_playout_plies: u32,
    /// The seed of the ChaCha8 generator behind every random choice.
    pub seed: u64,
    /// The UCB1 exploration constant (larger explores more); `SearchLimits::default` uses
    /// 0.7 for results in 0..1.
    pub exploration: f64,
}

impl Default for SearchLimits {
    /// One second, no iteration limit, playouts of at most 500 turns, seed 0.
    fn default() -> Self {
        SearchLimits {
            time: Some(Duration::from_secs(1)),
            iterations: None,
            max_playout_plies: 500,
            seed: 0,
            exploration: 0.7,
        }
    }
}

/// How a search is going: handed to the progress callback about ten times a second, and once
/// at the end.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    /// Iterations (playouts) done.
    pub iterations: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// The fraction of the budget used, 0 to 1 (the larger of time and iterations).
    pub fraction: f32,
    /// The move the search would play now: an index into the root's [`SearchGame::moves`].
    pub best: Option<usize>,
    /// Its notation.
    pub best_notation: Option<String>,
    /// How many iterations went through it.
    pub best_visits: u64,
    /// Its mean result for the player to move, 0 (loses) to 1 (wins).
    pub best_score: f64,
}

/// What the search found for one move of the position.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnStats {
    /// The move's word ([`SearchGame::word`]).
    pub notation: String,
    /// Iterations through it.
    pub visits: u64,
    /// Mean result for the player to move, 0 to 1 (0 when not visited).
    pub score: f64,
}

/// Why a search stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The iteration budget is used up.
    Iterations,
    /// The time budget is used up.
    Time,
    /// The cancel flag was set.
    Cancelled,
    /// There is one move: no search was needed.
    OnlyTurn,
    /// The game is over in the position (no move to choose).
    GameOver,
}

/// The result of a [`search`].
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The move to play, an index into the root's [`SearchGame::moves`] (the most visited,
    /// ties to the better score, then the earlier); `None` when the game is over.
    pub best: Option<usize>,
    /// Its notation.
    pub notation: Option<String>,
    /// Every move, in the order of [`SearchGame::moves`], with what the search found
    /// (empty when the game is over).
    pub turns: Vec<TurnStats>,
    /// Iterations done.
    pub iterations: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// Why it stopped.
    pub stopped: StopReason,
}

/// Memory the tree may take, in bytes (estimated from [`SearchGame::bytes`] of the root).
pub const MAX_TREE_BYTES: usize = 96 << 20;

/// Searches the moves of the player to move in `root` within `limits`, and returns the
/// move to play. `progress` is called about every 100 ms and once at the end; `cancel` stops
/// the search (it then returns the best move found so far, [`StopReason::Cancelled`]). A
/// cancelled search returns within one ply of a playout. `root` itself is not changed.
///
/// # Errors
/// A [`SearchError`] from the kind in any state the search reaches.
pub fn search(
    root: &dyn SearchGame,
    limits: &SearchLimits,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(&Progress),
) -> Result<SearchResult, SearchError> {
    let mut s = Search::new(limits, cancel);
    s.run(root, progress)
}

// ---------------------------------------------------------------------------------------

struct Node {
    state: Box<dyn SearchGame>,
    /// The player who made the move into this node.
    mover: usize,
    /// Children are `first..first + count` in the arena, once expanded.
    first: u32,
    count: u32,
    expanded: bool,
    /// `Some(winner)` when the game is over here (`Some(None)`: a draw or a lost puzzle).
    terminal: Option<Option<usize>>,
    visits: u64,
    total: f64,
}

enum Ending {
    Decided(Option<usize>),
    Cutoff,
    Cancelled,
}

struct Search<'c> {
    limits: SearchLimits,
    time: Option<Duration>,
    cancel: &'c AtomicBool,
    rng: ChaCha8Rng,
    nodes: Vec<Node>,
    max_nodes: usize,
    players: usize,
    kids: Vec<Box<dyn SearchGame>>,
    moves: Vec<Move>,
    started: Instant,
    iterations: u64,
    path: Vec<u32>,
}

/// The winner of a status that is over (`None`: nobody).
fn winner_of(s: SearchStatus) -> Option<usize> {
    match s {
        SearchStatus::Won(w) => Some(w),
        _ => None,
    }
}

impl<'c> Search<'c> {
    fn new(limits: &SearchLimits, cancel: &'c AtomicBool) -> Self {
        let time = match (limits.time, limits.iterations) {
            (None, None) => Some(Duration::from_secs(1)),
            (t, _) => t,
        };
        Search {
            limits: *limits,
            time,
            cancel,
            rng: ChaCha8Rng::seed_from_u64(limits.seed),
            nodes: Vec::new(),
            max_nodes: 0,
            players: 1,
            kids: Vec::new(),
            moves: Vec::new(),
            started: Instant::now(),
            iterations: 0,
            path: Vec::new(),
        }
    }

    fn run(
        &mut self,
        root: &dyn SearchGame,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<SearchResult, SearchError> {
        let mut state = root.fork();
        self.players = state.players().max(1);
        let mut notations = Vec::new();
        if state.status()? == SearchStatus::Running {
            state.moves(&mut self.moves)?;
            notations = self.moves.iter().map(|&m| state.word(m)).collect();
        }
        let per_node = std::mem::size_of::<Node>() + state.bytes() + 64;
        self.max_nodes = (MAX_TREE_BYTES / per_node).max(64);
        self.nodes.push(Node {
            state,
            mover: 0,
            first: 0,
            count: 0,
            expanded: false,
            terminal: None,
            visits: 0,
            total: 0.0,
        });
        // The root: over, or a single move, needs no search.
        let over = self.look(0)?;
        let n = self.nodes[0].count as usize;
        if over || n == 0 || n != notations.len() {
            // (The children always match the moves; if they ever did not, the search could
            // not name its choice: report the game as over rather than a wrong move.)
            return Ok(self.result(&notations, StopReason::GameOver, progress));
        }
        if n == 1 {
            return Ok(self.result(&notations, StopReason::OnlyTurn, progress));
        }
        let mut next_report = Duration::from_millis(100);
        let stopped = loop {
            if self.cancel.load(Ordering::Relaxed) {
                break StopReason::Cancelled;
            }
            if self
                .limits
                .iterations
                .is_some_and(|max| self.iterations >= max)
            {
                break StopReason::Iterations;
            }
            let elapsed = self.started.elapsed();
            if self.time.is_some_and(|t| elapsed >= t) {
                break StopReason::Time;
            }
            if elapsed >= next_report {
                next_report = elapsed + Duration::from_millis(100);
                progress(&self.progress(&notations));
            }
            if !self.iterate()? {
                break StopReason::Cancelled;
            }
            self.iterations += 1;
        };
        Ok(self.result(&notations, stopped, progress))
    }

    /// Decides whether the game is over at node `i`; expands it (children stored) when it
    /// is not and the tree has room. Returns whether the game is over.
    fn look(&mut self, i: usize) -> Result<bool, SearchError> {
        let status = self.nodes[i].state.status()?;
        if status.is_over() {
            self.nodes[i].terminal = Some(winner_of(status));
            return Ok(true);
        }
        self.moves.clear();
        self.nodes[i].state.moves(&mut self.moves)?;
        if self.moves.is_empty() {
            self.nodes[i].terminal = Some(None);
            return Ok(true);
        }
        // The root is always expanded: its children are the moves to choose from.
        if i == 0 || self.nodes.len() + self.moves.len() <= self.max_nodes {
            let who = self.nodes[i].state.to_move();
            self.kids.clear();
            self.nodes[i].state.children(&mut self.kids)?;
            let first = self.nodes.len() as u32;
            let count = self.kids.len() as u32;
            for state in self.kids.drain(..) {
                self.nodes.push(Node {
                    state,
                    mover: who,
                    first: 0,
                    count: 0,
                    expanded: false,
                    terminal: None,
                    visits: 0,
                    total: 0.0,
                });
            }
            let node = &mut self.nodes[i];
            node.first = first;
            node.count = count;
            node.expanded = true;
        }
        Ok(false)
    }

    /// One iteration: select, expand, play out, back up. False when cancelled.
    fn iterate(&mut self) -> Result<bool, SearchError> {
        self.path.clear();
        let mut i = 0usize;
        self.path.push(0);
        while self.nodes[i].expanded && self.nodes[i].terminal.is_none() {
            i = self.select(i);
            self.path.push(i as u32);
        }
        let ending = match self.nodes[i].terminal {
            Some(w) => Ending::Decided(w),
            None => {
                if self.look(i)? {
                    Ending::Decided(self.nodes[i].terminal.flatten())
                } else {
                    self.playout(i)?
                }
            }
        };
        let winner = match ending {
            Ending::Cancelled => return Ok(false),
            Ending::Decided(w) => w,
            Ending::Cutoff => None,
        };
        let n = self.players;
        for &k in &self.path {
            let node = &mut self.nodes[k as usize];
            node.visits += 1;
            node.total += value(winner, node.mover, n);
        }
        Ok(true)
    }

    /// The child of `i` to descend to: an unvisited one (at random), else the best by UCB1.
    fn select(&mut self, i: usize) -> usize {
        let node = &self.nodes[i];
        let (first, count) = (node.first as usize, node.count as usize);
        let kids = &self.nodes[first..first + count];
        let unvisited = kids.iter().filter(|c| c.visits == 0).count();
        if unvisited > 0 {
            let pick = uniform(&mut self.rng, unvisited);
            let k = kids
                .iter()
                .enumerate()
                .filter(|(_, c)| c.visits == 0)
                .nth(pick)
                .map_or(0, |(k, _)| k);
            return first + k;
        }
        let ln = (node.visits.max(1) as f64).ln();
        let c = self.limits.exploration;
        let mut best = (f64::NEG_INFINITY, first);
        for (k, kid) in kids.iter().enumerate() {
            let v = kid.visits as f64;
            let ucb = kid.total / v + c * (ln / v).sqrt();
            if ucb > best.0 {
                best = (ucb, first + k);
            }
        }
        best.1
    }

    /// A random game from node `i` (the game is not over there; its moves are in
    /// `self.moves`): from one of its stored children when it was expanded, else from a
    /// random move of a copy.
    fn playout(&mut self, i: usize) -> Result<Ending, SearchError> {
        let node = &self.nodes[i];
        if self.moves.is_empty() || self.limits.max_playout_plies == 0 {
            return Ok(Ending::Cutoff);
        }
        let mut work = if node.expanded {
            let k = uniform(&mut self.rng, node.count as usize);
            self.nodes[node.first as usize + k].state.fork()
        } else {
            let k = uniform(&mut self.rng, self.moves.len());
            let mut w = node.state.fork();
            w.advance(self.moves[k])?;
            w
        };
        let mut plies = 1u32;
        loop {
            if self.cancel.load(Ordering::Relaxed) {
                return Ok(Ending::Cancelled);
            }
            let status = work.status()?;
            if status.is_over() {
                return Ok(Ending::Decided(winner_of(status)));
            }
            self.moves.clear();
            work.moves(&mut self.moves)?;
            if plies >= self.limits.max_playout_plies || self.moves.is_empty() {
                return Ok(Ending::Cutoff);
            }
            let k = uniform(&mut self.rng, self.moves.len());
            work.advance(self.moves[k])?;
            plies += 1;
        }
    }

    /// The root child to play: the most visited, ties to the better mean, then the first.
    fn best(&self) -> Option<usize> {
        let root = self.nodes.first()?;
        if !root.expanded {
            return None;
        }
        let first = root.first as usize;
        let kids = &self.nodes[first..first + root.count as usize];
        let mut best: Option<(u64, f64, usize)> = None;
        for (k, c) in kids.iter().enumerate() {
            let mean = mean(c);
            if best.is_none_or(|(v, m, _)| c.visits > v || (c.visits == v && mean > m)) {
                best = Some((c.visits, mean, k));
            }
        }
        best.map(|b| b.2)
    }

    fn progress(&self, notations: &[String]) -> Progress {
        let elapsed = self.started.elapsed();
        let by_time = self
            .time
            .map_or(0.0, |t| elapsed.as_secs_f64() / t.as_secs_f64().max(1e-9));
        let by_iter = self
            .limits
            .iterations
            .map_or(0.0, |m| self.iterations as f64 / (m.max(1) as f64));
        let best = self.best();
        let kid = best.and_then(|b| self.nodes.get(self.nodes[0].first as usize + b));
        Progress {
            iterations: self.iterations,
            elapsed,
            fraction: by_time.max(by_iter).clamp(0.0, 1.0) as f32,
            best,
            best_notation: best.and_then(|b| notations.get(b).cloned()),
            best_visits: kid.map_or(0, |c| c.visits),
            best_score: kid.map_or(0.0, mean),
        }
    }

    fn result(
        &self,
        notations: &[String],
        stopped: StopReason,
        progress: &mut dyn FnMut(&Progress),
    ) -> SearchResult {
        let root = &self.nodes[0];
        let best = match stopped {
            StopReason::GameOver => None,
            StopReason::OnlyTurn => Some(0),
            _ => self.best(),
        };
        let listed = if stopped == StopReason::GameOver {
            &[][..]
        } else {
            notations
        };
        let turns = listed
            .iter()
            .enumerate()
            .map(|(k, notation)| {
                let kid = root
                    .expanded
                    .then(|| self.nodes.get(root.first as usize + k))
                    .flatten();
                TurnStats {
                    notation: notation.clone(),
                    visits: kid.map_or(0, |c| c.visits),
                    score: kid.map_or(0.0, mean),
                }
            })
            .collect();
        let mut p = self.progress(notations);
        p.best = best;
        p.best_notation = best.and_then(|b| notations.get(b).cloned());
        p.fraction = 1.0;
        progress(&p);
        SearchResult {
            best,
            notation: p.best_notation,
            turns,
            iterations: self.iterations,
            elapsed: self.started.elapsed(),
            stopped,
        }
    }
}

fn mean(n: &Node) -> f64 {
    if n.visits == 0 {
        0.0
    } else {
        n.total / n.visits as f64
    }
}

/// The result of a game for `player`: 1 won, 0 lost, a draw 1/n of n players (0 alone).
fn value(winner: Option<usize>, player: usize, nplayers: usize) -> f64 {
    match winner {
        Some(w) if w == player => 1.0,
        Some(_) => 0.0,
        None if nplayers <= 1 => 0.0,
        None => 1.0 / nplayers as f64,
    }
}

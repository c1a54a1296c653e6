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
//! the ply limit counts as a draw, or as the kind's [`SearchGame::leaf_score`] of each player
//! there when the kind gives one (Pasta Logic: the prototype's leaf score). A path-dependent end (`repetition`) is judged inside each
//! playout only (from the state it starts at), not along the tree: every node is a fork.
//!
//! **Wide nodes** (issue #28: "the search draws choices without listing them all"): a state
//! whose kind numbers its moves ([`SearchGame::move_count`]) and has more than
//! [`WIDE_MOVES`] of them (Pasta Logic's MoveFlag and Reorder reach hundreds of thousands)
//! is not expanded at once; its children are drawn at random, distinct, one at a time as
//! its visits grow (progressive widening: at most [`WIDEN_BASE`] + ⌊[`WIDEN_FACTOR`] ·
//! √visits⌋ children), and playouts draw their moves by number. Such a root reports only the
//! moves it drew ([`SearchResult::turns`], each with its [`TurnStats::index`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng as _;

use crate::random::uniform;
use tilesmith_core::search_game::{Move, SearchError, SearchGame, SearchStatus};

/// How long a [`search`] may run, and how it plays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchLimits {
    /// Wall-clock budget. With neither this nor `iterations`, one second.
    pub time: Option<Duration>,
    /// The most iterations (one playout each). With only this limit, the search is
    /// deterministic for a given `seed`.
    pub iterations: Option<u64>,
    /// The longest random playout, in turns; a playout cut off there is scored for each
    /// player by the kind's [`SearchGame::leaf_score`] when it gives one, else counts as a
    /// draw.
    pub max_playout_plies: u32,
    /// The seed of the ChaCha8 generator behind every random choice.
    pub seed: u64,
    /// The UCB1 exploration constant (larger explores more); `SearchLimits::default` uses
    /// 0.7 for results in 0..1.
    pub exploration: f64,
    /// In a two-player game, the value of a draw (or of a playout cut off without a leaf
    /// score) for the player to move at the root; the other player counts it as 1 minus
    /// this. Below 1/2 the search prefers a risky line to a sure draw (contempt). `None`:
    /// 1/n for each of n players.
    pub draw_value: Option<f64>,
}

impl Default for SearchLimits {
    /// One second, no iteration limit, playouts of at most 500 turns, seed 0, a draw 1/n.
    fn default() -> Self {
        SearchLimits {
            time: Some(Duration::from_secs(1)),
            iterations: None,
            max_playout_plies: 500,
            seed: 0,
            exploration: 0.7,
            draw_value: None,
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
    /// The move's index in the root's [`SearchGame::moves`] (for a wide root, the move's
    /// number).
    pub index: usize,
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
    /// That move, as [`SearchGame::play`] takes it.
    pub best_move: Option<Move>,
    /// Its notation.
    pub notation: Option<String>,
    /// Every move, in the order of [`SearchGame::moves`], with what the search found
    /// (empty when the game is over); for a wide root (more than [`WIDE_MOVES`] numbered
    /// moves) only the moves drawn, in increasing order.
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

/// A state with more numbered moves than this ([`SearchGame::move_count`]) is a wide node:
/// its children are drawn lazily (progressive widening, see the module documentation).
pub const WIDE_MOVES: u64 = 64;
/// Children a wide node may have before it is visited.
pub const WIDEN_BASE: usize = 16;
/// A wide node may have [`WIDEN_BASE`] + ⌊`WIDEN_FACTOR` · √visits⌋ children.
pub const WIDEN_FACTOR: f64 = 2.0;

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
    /// The move into this node, and its index in the parent's moves (for a wide parent, the
    /// move's number, the same).
    mv: Move,
    index: u32,
    /// The children, as nodes of the arena.
    kids: Vec<u32>,
    /// The children are made (all of them), or, for a wide node, drawn as it is visited.
    expanded: bool,
    /// For a wide node, its number of moves; 0 otherwise.
    wide: u64,
    /// `Some(winner)` when the game is over here (`Some(None)`: a draw or a lost puzzle).
    terminal: Option<Option<usize>>,
    visits: u64,
    total: f64,
}

impl Node {
    fn new(state: Box<dyn SearchGame>, mover: usize, mv: Move, index: u32) -> Node {
        Node {
            state,
            mover,
            mv,
            index,
            kids: Vec::new(),
            expanded: false,
            wide: 0,
            terminal: None,
            visits: 0,
            total: 0.0,
        }
    }
}

enum Ending {
    Decided(Option<usize>),
    /// Cut off by the ply limit: each player's [`SearchGame::leaf_score`] there when the kind
    /// gives one (else a draw).
    Cutoff(Option<Vec<f64>>),
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
    /// The player to move at the root.
    root_player: usize,
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
            root_player: 0,
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
        let state = root.fork();
        self.players = state.players().max(1);
        self.root_player = state.to_move();
        let per_node = std::mem::size_of::<Node>() + state.bytes() + 64;
        self.max_nodes = (MAX_TREE_BYTES / per_node).max(64);
        self.nodes.push(Node::new(state, 0, 0, 0));
        // The root: over, or a single move, needs no search.
        if self.look(0)? {
            return Ok(self.result(StopReason::GameOver, progress));
        }
        if self.nodes[0].wide == 0 && self.nodes[0].kids.len() == 1 {
            return Ok(self.result(StopReason::OnlyTurn, progress));
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
                progress(&self.progress());
            }
            if !self.iterate()? {
                break StopReason::Cancelled;
            }
            self.iterations += 1;
        };
        Ok(self.result(stopped, progress))
    }

    /// Decides whether the game is over at node `i`; when it is not, makes its children
    /// (stored, when the tree has room) or marks it wide (children drawn as it is visited).
    /// Returns whether the game is over.
    fn look(&mut self, i: usize) -> Result<bool, SearchError> {
        let status = self.nodes[i].state.status()?;
        if status.is_over() {
            self.nodes[i].terminal = Some(winner_of(status));
            return Ok(true);
        }
        let numbered = self.nodes[i].state.move_count()?;
        if numbered == Some(0) {
            self.nodes[i].terminal = Some(None);
            return Ok(true);
        }
        if let Some(n) = numbered.filter(|&n| n > WIDE_MOVES) {
            let node = &mut self.nodes[i];
            node.wide = n.min(u64::from(Move::MAX));
            node.expanded = true;
            return Ok(false);
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
            let mut ids = Vec::with_capacity(self.kids.len());
            for (k, (state, &mv)) in self.kids.drain(..).zip(&self.moves).enumerate() {
                ids.push(first + k as u32);
                self.nodes.push(Node::new(state, who, mv, k as u32));
            }
            let node = &mut self.nodes[i];
            node.kids = ids;
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
            match self.select(i)? {
                Some(k) => {
                    i = k;
                    self.path.push(i as u32);
                }
                None => break,
            }
        }
        let terminal = self.nodes[i].terminal;
        let ending = match terminal {
            Some(w) => Ending::Decided(w),
            None if !self.nodes[i].expanded && self.look(i)? => {
                Ending::Decided(self.nodes[i].terminal.flatten())
            }
            None => self.playout(i)?,
        };
        let (winner, scores) = match ending {
            Ending::Cancelled => return Ok(false),
            Ending::Decided(w) => (w, None),
            Ending::Cutoff(scores) => (None, scores),
        };
        let n = self.players;
        let draw = self
            .limits
            .draw_value
            .filter(|_| n == 2)
            .map(|d| d.clamp(0.0, 1.0));
        let me = self.root_player;
        for &k in &self.path {
            let node = &mut self.nodes[k as usize];
            node.visits += 1;
            node.total += match (&scores, winner, draw) {
                (Some(s), _, _) => s.get(node.mover).copied().unwrap_or(0.0),
                (None, None, Some(d)) if node.mover == me => d,
                (None, None, Some(d)) => 1.0 - d,
                (None, _, _) => value(winner, node.mover, n),
            };
        }
        Ok(true)
    }

    /// The child of `i` to descend to: for a wide node a new child while its visits allow
    /// one; an unvisited one (at random); else the best by UCB1. `None` for a wide node
    /// without children and no room for one (the iteration plays out from `i`).
    fn select(&mut self, i: usize) -> Result<Option<usize>, SearchError> {
        let node = &self.nodes[i];
        if node.wide > 0 {
            let allowed = WIDEN_BASE + (WIDEN_FACTOR * (node.visits as f64).sqrt()) as usize;
            let room = self.nodes.len() < self.max_nodes || i == 0;
            if (node.kids.len() as u64) < node.wide && node.kids.len() < allowed && room {
                return self.widen(i).map(Some);
            }
            if node.kids.is_empty() {
                return Ok(None);
            }
        }
        let node = &self.nodes[i];
        let unvisited = node
            .kids
            .iter()
            .filter(|&&k| self.nodes[k as usize].visits == 0)
            .count();
        if unvisited > 0 {
            let pick = uniform(&mut self.rng, unvisited);
            let k = node
                .kids
                .iter()
                .filter(|&&k| self.nodes[k as usize].visits == 0)
                .nth(pick)
                .copied()
                .unwrap_or(node.kids[0]);
            return Ok(Some(k as usize));
        }
        let ln = (node.visits.max(1) as f64).ln();
        let c = self.limits.exploration;
        let mut best = (f64::NEG_INFINITY, node.kids[0]);
        for &k in &node.kids {
            let kid = &self.nodes[k as usize];
            let v = kid.visits as f64;
            let ucb = kid.total / v + c * (ln / v).sqrt();
            if ucb > best.0 {
                best = (ucb, k);
            }
        }
        Ok(Some(best.1 as usize))
    }

    /// Draws a move of wide node `i` that it has no child for yet (uniformly among those),
    /// and adds the child.
    fn widen(&mut self, i: usize) -> Result<usize, SearchError> {
        let node = &self.nodes[i];
        let taken = |m: u64| {
            node.kids
                .iter()
                .any(|&k| u64::from(self.nodes[k as usize].mv) == m)
        };
        let n = node.wide;
        let free = n - node.kids.len() as u64;
        // Rejection while most moves are free; else the k-th free move, counted.
        let mut mv = None;
        if free * 2 > n {
            while mv.is_none() {
                let m = uniform(&mut self.rng, n as usize) as u64;
                mv = (!taken(m)).then_some(m);
            }
        } else {
            let k = uniform(&mut self.rng, free as usize) as u64;
            mv = (0..n).filter(|&m| !taken(m)).nth(k as usize);
        }
        let mv = mv.unwrap_or(0) as Move;
        let who = node.state.to_move();
        let mut state = node.state.fork();
        state.play(mv)?;
        let id = self.nodes.len() as u32;
        self.nodes.push(Node::new(state, who, mv, mv));
        self.nodes[i].kids.push(id);
        Ok(id as usize)
    }

    /// A random game from node `i` (the game is not over there), on a copy, drawing moves
    /// by number where the kind numbers them ([`SearchGame::advance_random`]).
    fn playout(&mut self, i: usize) -> Result<Ending, SearchError> {
        if self.limits.max_playout_plies == 0 {
            return Ok(Ending::Cutoff(None));
        }
        let mut work = self.nodes[i].state.fork();
        let mut plies = 0u32;
        loop {
            if self.cancel.load(Ordering::Relaxed) {
                return Ok(Ending::Cancelled);
            }
            let status = work.status()?;
            if status.is_over() {
                return Ok(Ending::Decided(winner_of(status)));
            }
            if plies >= self.limits.max_playout_plies {
                let scores: Option<Vec<f64>> = (0..self.players)
                    .map(|p| work.leaf_score(p).map(|v| v.clamp(0.0, 1.0)))
                    .collect();
                return Ok(Ending::Cutoff(scores));
            }
            if !work.advance_random(&mut self.rng, &mut self.moves)? {
                return Ok(Ending::Cutoff(None));
            }
            plies += 1;
        }
    }

    /// The root child to play: the most visited, ties to the better mean, then the first.
    fn best(&self) -> Option<u32> {
        let root = self.nodes.first()?;
        let mut best: Option<(u64, f64, u32)> = None;
        for &k in &root.kids {
            let c = &self.nodes[k as usize];
            let mean = mean(c);
            if best.is_none_or(|(v, m, _)| c.visits > v || (c.visits == v && mean > m)) {
                best = Some((c.visits, mean, k));
            }
        }
        best.map(|b| b.2)
    }

    fn progress(&self) -> Progress {
        let elapsed = self.started.elapsed();
        let by_time = self
            .time
            .map_or(0.0, |t| elapsed.as_secs_f64() / t.as_secs_f64().max(1e-9));
        let by_iter = self
            .limits
            .iterations
            .map_or(0.0, |m| self.iterations as f64 / (m.max(1) as f64));
        let kid = self.best().map(|k| &self.nodes[k as usize]);
        Progress {
            iterations: self.iterations,
            elapsed,
            fraction: by_time.max(by_iter).clamp(0.0, 1.0) as f32,
            best: kid.map(|c| c.index as usize),
            best_notation: kid.map(|c| self.nodes[0].state.word(c.mv)),
            best_visits: kid.map_or(0, |c| c.visits),
            best_score: kid.map_or(0.0, mean),
        }
    }

    fn result(&self, stopped: StopReason, progress: &mut dyn FnMut(&Progress)) -> SearchResult {
        let root = &self.nodes[0];
        let best = match stopped {
            StopReason::GameOver => None,
            _ => self.best().map(|k| &self.nodes[k as usize]),
        };
        let mut turns: Vec<TurnStats> = if stopped == StopReason::GameOver {
            Vec::new()
        } else {
            root.kids
                .iter()
                .map(|&k| {
                    let kid = &self.nodes[k as usize];
                    TurnStats {
                        index: kid.index as usize,
                        notation: root.state.word(kid.mv),
                        visits: kid.visits,
                        score: mean(kid),
                    }
                })
                .collect()
        };
        turns.sort_by_key(|t| t.index);
        let mut p = self.progress();
        p.best = best.map(|c| c.index as usize);
        p.best_notation = best.map(|c| root.state.word(c.mv));
        p.fraction = 1.0;
        progress(&p);
        SearchResult {
            best: p.best,
            best_move: best.map(|c| c.mv),
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

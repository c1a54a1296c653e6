//! A computer opponent for any ZRF game: Monte Carlo tree search (UCT) over the legal turns,
//! with uniformly random playouts to the end of the game (or a ply limit), for any player
//! and any number of players.
//!
//! The search is deterministic for a given seed when only the iteration budget limits it;
//! a wall-clock budget stops it after a varying number of iterations. It is cancellable
//! through an [`AtomicBool`] (checked at every iteration and every ply of a playout) and
//! reports [`Progress`] through a callback. Everything it takes is `Send + Sync`
//! ([`Engine`], [`Position`]), so it can run on a worker thread with its own clone of the
//! engine (or an `Arc<Engine>`).
//!
//! Each iteration walks down the tree by UCB1 (an unvisited child first, chosen at random),
//! expands the leaf it reaches (every legal turn at once, positions stored), plays one
//! random game from it, and credits every node on the way with the result as seen by the
//! player who made the turn into it: 1 for a win, 0 for a loss, 1/n for a draw among n
//! players (0 in a one-player game), and a playout cut off by the ply limit counts as a
//! draw. `repetition` is judged inside each playout only (from the leaf it starts at), not
//! along the tree.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng as _;

use super::super::rules::PlayerId;
use super::ctx::Ctx;
use super::end::evaluate;
use super::perft::{ChildSink, children, last_mover, placement_hash, uniform};
use super::turns::{self, Expander, mover};
use super::{Engine, GenError, Position};

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
    /// The turn the search would play now: an index into [`Engine::turns`] of the position.
    pub best: Option<usize>,
    /// Its notation.
    pub best_notation: Option<String>,
    /// How many iterations went through it.
    pub best_visits: u64,
    /// Its mean result for the player to move, 0 (loses) to 1 (wins).
    pub best_score: f64,
}

/// What the search found for one legal turn of the position.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnStats {
    /// The turn's notation (as [`Engine::turns`] gives it).
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
    /// There is one legal turn: no search was needed.
    OnlyTurn,
    /// The game is over in the position (no turn to choose).
    GameOver,
}

/// The result of a [`search`].
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The turn to play, an index into [`Engine::turns`] of the position (the most visited,
    /// ties to the better score, then the earlier); `None` when the game is over.
    pub best: Option<usize>,
    /// Its notation.
    pub notation: Option<String>,
    /// Every legal turn, in the order of [`Engine::turns`], with what the search found
    /// (empty when the game is over).
    pub turns: Vec<TurnStats>,
    /// Iterations done.
    pub iterations: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// Why it stopped.
    pub stopped: StopReason,
}

/// Memory the tree may take, in bytes (estimated from the size of a position).
pub const MAX_TREE_BYTES: usize = 96 << 20;

/// Searches the legal turns of the player to move in `pos` within `limits`, and returns the
/// turn to play. `progress` is called about every 100 ms and once at the end; `cancel` stops
/// the search (it then returns the best turn found so far, [`StopReason::Cancelled`]). A
/// cancelled search returns within one ply of a playout.
///
/// # Errors
/// A [`GenError`] from move generation in any position the search reaches.
pub fn search(
    engine: &Engine,
    pos: &Position,
    limits: &SearchLimits,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(&Progress),
) -> Result<SearchResult, GenError> {
    let ctx = engine.ctx();
    let mut s = Search::new(&ctx, limits, cancel);
    s.run(pos, progress)
}

// ---------------------------------------------------------------------------------------

struct Node {
    pos: Position,
    /// The player who made the turn into this node.
    mover: PlayerId,
    /// Children are `first..first + count` in the arena, once expanded.
    first: u32,
    count: u32,
    expanded: bool,
    /// `Some(winner)` when the game is over here (`Some(None)`: a draw).
    terminal: Option<Option<PlayerId>>,
    visits: u64,
    total: f64,
}

enum Ending {
    Decided(Option<PlayerId>),
    Cutoff,
    Cancelled,
}

struct Search<'c, 'r> {
    ctx: &'c Ctx<'r>,
    limits: SearchLimits,
    time: Option<Duration>,
    cancel: &'c AtomicBool,
    rng: ChaCha8Rng,
    ex: Expander,
    sink: ChildSink,
    nodes: Vec<Node>,
    max_nodes: usize,
    work: Position,
    seen: Vec<u64>,
    path: Vec<u32>,
    started: Instant,
    iterations: u64,
}

impl<'c, 'r> Search<'c, 'r> {
    fn new(ctx: &'c Ctx<'r>, limits: &SearchLimits, cancel: &'c AtomicBool) -> Self {
        let time = match (limits.time, limits.iterations) {
            (None, None) => Some(Duration::from_secs(1)),
            (t, _) => t,
        };
        Search {
            ctx,
            limits: *limits,
            time,
            cancel,
            rng: ChaCha8Rng::seed_from_u64(limits.seed),
            ex: Expander::default(),
            sink: ChildSink::default(),
            nodes: Vec::new(),
            max_nodes: 0,
            work: Position::default(),
            seen: Vec::new(),
            path: Vec::new(),
            started: Instant::now(),
            iterations: 0,
        }
    }

    fn run(
        &mut self,
        pos: &Position,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<SearchResult, GenError> {
        let ctx = self.ctx;
        let legal = turns::report(ctx, pos)?.legal;
        let notations: Vec<String> = legal.into_iter().map(|t| t.notation).collect();
        let per_node = std::mem::size_of::<Node>()
            + std::mem::size_of_val(pos.cells.as_slice())
            + pos.reserve.iter().map(|r| r.len() * 4 + 24).sum::<usize>()
            + 64;
        self.max_nodes = (MAX_TREE_BYTES / per_node).max(64);
        self.nodes.push(Node {
            pos: pos.clone(),
            mover: 0,
            first: 0,
            count: 0,
            expanded: false,
            terminal: None,
            visits: 0,
            total: 0.0,
        });
        // The root: over, or a single turn, needs no search.
        let over = self.look(0)?;
        let n = self.nodes[0].count as usize;
        if over || n == 0 || n != notations.len() {
            // (The children always match the turns; if they ever did not, the search could not
            // name its choice: report the game as over rather than a wrong turn.)
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

    /// Generates the turns of node `i` and decides whether the game is over there; expands
    /// it (children stored) when it is not and the tree has room. The children of the node
    /// stay in `self.sink`. Returns whether the game is over.
    fn look(&mut self, i: usize) -> Result<bool, GenError> {
        let ctx = self.ctx;
        let pos = &self.nodes[i].pos;
        children(ctx, &mut self.ex, pos, &mut self.sink)?;
        if let Some(o) = evaluate(ctx, &mut self.ex, pos, Some(self.sink.n > 0), None)? {
            self.nodes[i].terminal = Some(o.winner);
            return Ok(true);
        }
        if self.sink.n == 0 {
            self.nodes[i].terminal = Some(None);
            return Ok(true);
        }
        // The root is always expanded: its children are the turns to choose from.
        if i == 0 || self.nodes.len() + self.sink.n <= self.max_nodes {
            let who = mover(ctx, &self.nodes[i].pos);
            let first = self.nodes.len() as u32;
            for k in 0..self.sink.n {
                self.nodes.push(Node {
                    pos: self.sink.kids[k].clone(),
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
            node.count = self.sink.n as u32;
            node.expanded = true;
        }
        Ok(false)
    }

    /// One iteration: select, expand, play out, back up. False when cancelled.
    fn iterate(&mut self) -> Result<bool, GenError> {
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
        let n = self.ctx.nplayers;
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

    /// A random game from node `i`, whose turns are in `self.sink` (the game is not over
    /// there).
    fn playout(&mut self, i: usize) -> Result<Ending, GenError> {
        let ctx = self.ctx;
        self.seen.clear();
        self.seen.push(placement_hash(&self.nodes[i].pos));
        let mut plies = 0u32;
        if self.sink.n == 0 || self.limits.max_playout_plies == 0 {
            return Ok(Ending::Cutoff);
        }
        let k = uniform(&mut self.rng, self.sink.n);
        std::mem::swap(&mut self.work, &mut self.sink.kids[k]);
        self.seen.push(placement_hash(&self.work));
        plies += 1;
        loop {
            if self.cancel.load(Ordering::Relaxed) {
                return Ok(Ending::Cancelled);
            }
            children(ctx, &mut self.ex, &self.work, &mut self.sink)?;
            let h = *self.seen.last().unwrap_or(&0);
            let repeated_by = (self.seen.iter().filter(|&&x| x == h).count() >= 3)
                .then(|| last_mover(ctx, &self.work));
            if let Some(o) = evaluate(
                ctx,
                &mut self.ex,
                &self.work,
                Some(self.sink.n > 0),
                repeated_by,
            )? {
                return Ok(Ending::Decided(o.winner));
            }
            if plies >= self.limits.max_playout_plies || self.sink.n == 0 {
                return Ok(Ending::Cutoff);
            }
            let k = uniform(&mut self.rng, self.sink.n);
            std::mem::swap(&mut self.work, &mut self.sink.kids[k]);
            self.seen.push(placement_hash(&self.work));
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
fn value(winner: Option<PlayerId>, player: PlayerId, nplayers: usize) -> f64 {
    match winner {
        Some(w) if w == player => 1.0,
        Some(_) => 0.0,
        None if nplayers <= 1 => 0.0,
        None => 1.0 / nplayers as f64,
    }
}

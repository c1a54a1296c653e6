//! Breadth-first search for the shortest solutions of one-player games (issue #29), and the
//! exhaustive count of a reachable state space.
//!
//! The search stores no states: each visited state is a record of its parent and the move
//! from it (12 bytes) plus its key in the visited set. To expand a state it walks the one
//! game from the state it is at to the next one, undoing to their common ancestor and
//! playing the moves down ([`SearchGame::undo`], [`SearchGame::play`]); in breadth-first
//! order consecutive states are mostly siblings or cousins, so a few moves each. The goal
//! test is made when a state is generated, so the first win found is at the least depth:
//! a solution found is a proved shortest one (in moves).
//!
//! Budgets: the memory of the visited set and the records (`memory`, default 1 GiB;
//! checked before a table grows), a time budget, a step bound (no state deeper than
//! `max_steps` moves is made) and a cancel flag (checked at every state generated).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::count::{Count, Counting};
use crate::visited::KeySet;
use crate::{Algorithm, Budget, Clock, DEFAULT_MEMORY, Progress, Record};
use tilesmith_core::search_game::{Move, SearchError, SearchGame, SearchStatus, StateKey};

/// The budgets of a [`solve`] or an [`explore`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most moves a solution may have (and the deepest states made); `None`: no bound.
    /// For a two-player game in [`crate::solve::solve`]: the most plies looked ahead
    /// (`None`: [`crate::solve::DEFAULT_PLIES`]).
    pub max_steps: Option<u32>,
    /// Wall-clock budget; `None`: none.
    pub time: Option<Duration>,
    /// The most bytes the visited set and the state records may take
    /// ([`crate::DEFAULT_MEMORY`], 1 GiB, by default).
    pub memory: usize,
}

impl Default for Limits {
    /// No step or time bound, 1 GiB.
    fn default() -> Self {
        Limits {
            max_steps: None,
            time: None,
            memory: DEFAULT_MEMORY,
        }
    }
}

/// A solution: the moves from the start, and their words (a macro move gives several).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The moves, each in the state where it is played.
    pub moves: Vec<Move>,
    /// The input words that play it, for `tilesmith run` ([`SearchGame::words`] of each move).
    pub words: Vec<String>,
    /// True when it is proved shortest: always, breadth-first; A* and IDA* when the kind's
    /// estimate is admissible, as [`SearchGame::estimate`] promises (false when the estimate
    /// was caught over the moves left along this solution: [`crate::astar`]).
    pub shortest: bool,
}

/// What a [`solve`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A solution; breadth-first, so proved shortest (A*, IDA*: [`Solution::shortest`]).
    Solved(Solution),
    /// The whole reachable space was explored without a win.
    Unsolvable,
    /// A budget ran out first (which one); `depth` moves were fully explored.
    Unknown(Budget),
}

/// The result of a [`solve`] or an [`explore`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The answer ([`explore`]: `Unsolvable` when the whole space was counted, whether or not
    /// it holds wins, else `Unknown`).
    pub answer: Answer,
    /// Distinct states reached (the start included).
    pub states: u64,
    /// The depth (in moves) of the deepest state reached.
    pub depth: u32,
    /// Time taken.
    pub elapsed: Duration,
    /// With [`solve_all`], when solved: the count of the distinct shortest solutions.
    pub count: Option<Count>,
    /// The algorithm that searched ([`Algorithm::Bfs`] here).
    pub algorithm: Algorithm,
}

/// Bytes of one state record (parent, move, depth).
const RECORD_BYTES: usize = std::mem::size_of::<Record>();

/// Searches the one-player game `root` breadth-first for a shortest solution within
/// `limits`. `progress` is called about ten times a second and once at the end; `cancel`
/// stops the search ([`Answer::Unknown`]`(`[`Budget::Cancelled`]`)`). `root` is back in its
/// state when this returns.
///
/// # Errors
/// A [`SearchError`] from the kind (a step it could not compute).
pub fn solve(
    root: &mut dyn SearchGame,
    limits: &Limits,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Outcome, SearchError> {
    Bfs::new(root, *limits, cancel, false).run(progress)
}

/// [`solve`], and also counts the distinct shortest solutions (as sequences of states: two
/// inputs leading from one state to the same next state are one step), up to `cap`
/// ([`crate::count::SOLUTION_CAP`] for the CLI), and the first step where two of them differ
/// ([`Outcome::count`]; how, and the memory it takes: [`crate::count`]). The layer of the
/// first win is finished before it returns; the solution is the one [`solve`] finds.
///
/// # Errors
/// As [`solve`].
pub fn solve_all(
    root: &mut dyn SearchGame,
    limits: &Limits,
    cap: u64,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Outcome, SearchError> {
    let mut bfs = Bfs::new(root, *limits, cancel, false);
    bfs.counting = Some(Counting::new(cap));
    bfs.run(progress)
}

/// Explores the whole state space reachable from `root` and counts its distinct states
/// (`--exhaustive`): a state where the game is over (won, lost, drawn) or dead is counted
/// and not expanded. Works for any number of players (the key tells whose turn it is).
/// States are told apart by [`SearchGame::key`], not the coarser visited key of the solving
/// searches.
/// [`Answer::Unsolvable`] when the count is complete, [`Answer::Unknown`] when a budget
/// ran out (the count is then of what was reached).
///
/// # Errors
/// As [`solve`].
pub fn explore(
    root: &mut dyn SearchGame,
    limits: &Limits,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Outcome, SearchError> {
    Bfs::new(root, *limits, cancel, true).run(progress)
}

struct Bfs<'g, 'c> {
    g: &'g mut dyn SearchGame,
    limits: Limits,
    cancel: &'c AtomicBool,
    exhaustive: bool,
    records: Vec<Record>,
    seen: KeySet,
    /// The record the game is at.
    cur: u32,
    clock: Clock,
    moves: Vec<Move>,
    down: Vec<Move>,
    /// Moves played on the game and not undone: undone at the end, whatever happened.
    played: usize,
    /// With [`solve_all`]: the counts.
    counting: Option<Counting>,
    /// With [`solve_all`]: the first solution found, and its length (the layer being
    /// finished).
    first_win: Option<Vec<Move>>,
    /// With [`solve_all`]: the budget that cut the last layer's count short.
    count_stopped: Option<Budget>,
}

impl<'g, 'c> Bfs<'g, 'c> {
    fn new(g: &'g mut dyn SearchGame, limits: Limits, cancel: &'c AtomicBool, all: bool) -> Self {
        Bfs {
            g,
            limits,
            cancel,
            exhaustive: all,
            records: Vec::new(),
            seen: KeySet::default(),
            cur: 0,
            clock: Clock::new(),
            moves: Vec::new(),
            down: Vec::new(),
            played: 0,
            counting: None,
            first_win: None,
            count_stopped: None,
        }
    }

    fn outcome(&self, answer: Answer) -> Outcome {
        Outcome {
            answer,
            states: self.seen.len() as u64,
            depth: self.records.last().map_or(0, |r| r.depth),
            elapsed: self.clock.started.elapsed(),
            count: None,
            algorithm: Algorithm::Bfs,
        }
    }

    fn run(mut self, progress: &mut dyn FnMut(&Progress)) -> Result<Outcome, SearchError> {
        let r = self.search(progress);
        // Back to the start, whatever happened.
        while self.played > 0 {
            self.undo();
        }
        let mut out = self.outcome(r?);
        if let (Some(c), Answer::Solved(_)) = (&self.counting, &out.answer) {
            out.count = Some(c.count(&self.records, self.count_stopped));
        }
        let last = self.records.last().map_or(0, |r| r.depth);
        progress(&Progress::new(out.states, last, self.clock.started));
        Ok(out)
    }

    /// The bytes the tables would take if the one that is full grew now.
    fn bytes_after_growth(&self) -> usize {
        let rec = self.records.capacity() * RECORD_BYTES;
        let rec_grow = if self.records.len() == self.records.capacity() {
            self.records.capacity().max(1024) * 2 * RECORD_BYTES
        } else {
            0
        };
        // The visited set's tables during its next insert (old and new while it doubles).
        let set = self.seen.bytes_after_insert();
        let counting = self.counting.as_ref().map_or(0, |c| {
            c.bytes_after_growth(self.records.capacity() + rec_grow / RECORD_BYTES)
        });
        rec + set + rec_grow + counting
    }

    /// The budget that stops the search now, if any (checked per state generated).
    fn over_budget(&mut self, progress: &mut dyn FnMut(&Progress)) -> Option<Budget> {
        if self.cancel.load(Ordering::Relaxed) {
            return Some(Budget::Cancelled);
        }
        if self.bytes_after_growth() > self.limits.memory {
            return Some(Budget::Memory);
        }
        let depth = self.records.last().map_or(0, |r| r.depth);
        self.clock
            .tick(self.seen.len() as u64, depth, self.limits.time, progress)
    }

    /// The key of the current state in the visited set: [`SearchGame::visited_key`] when
    /// solving; the exact [`SearchGame::key`] when exploring, whose count is the number of
    /// distinct reachable states (the pruning of the visited key is about shortest
    /// solutions, not the size of the space).
    fn key(&self) -> StateKey {
        if self.exhaustive {
            self.g.key()
        } else {
            self.g.visited_key()
        }
    }

    fn search(&mut self, progress: &mut dyn FnMut(&Progress)) -> Result<Answer, SearchError> {
        self.seen.insert(self.key());
        self.records.push(Record {
            parent: u32::MAX,
            mv: 0,
            depth: 0,
        });
        let status = self.g.status()?;
        if let Some(c) = &mut self.counting {
            c.root(matches!(status, SearchStatus::Won(_)));
        }
        match status {
            SearchStatus::Won(_) if !self.exhaustive => {
                return Ok(Answer::Solved(Solution {
                    moves: Vec::new(),
                    words: Vec::new(),
                    shortest: true,
                }));
            }
            SearchStatus::Running if !self.g.is_dead() => {}
            _ => return Ok(Answer::Unsolvable),
        }
        let mut next = 0usize;
        let mut stepped_out = false;
        while next < self.records.len() {
            let n = next as u32;
            next += 1;
            let depth = self.records[n as usize].depth;
            // Counting: the layer of the first win is complete.
            if self
                .first_win
                .as_ref()
                .is_some_and(|w| depth as usize >= w.len())
            {
                break;
            }
            if self.limits.max_steps.is_some_and(|m| depth >= m) {
                stepped_out = true;
                break;
            }
            self.goto(n)?;
            self.moves.clear();
            self.g.moves(&mut self.moves)?;
            if let Some(c) = &mut self.counting {
                c.begin(depth);
            }
            for k in 0..self.moves.len() {
                if let Some(b) = self.over_budget(progress) {
                    return self.stopped(b);
                }
                let mv = self.moves[k];
                self.play(mv)?;
                let won = self.child(n, depth, mv);
                self.undo();
                if won? {
                    return self.won();
                }
            }
        }
        if self.first_win.is_some() {
            return self.won();
        }
        Ok(if stepped_out {
            Answer::Unknown(Budget::Steps)
        } else {
            Answer::Unsolvable
        })
    }

    /// The game is at a child of record `n` (at `depth`), reached by `mv`: stores it when
    /// it is new and running (counting: a win too, and the paths of a state seen again in
    /// this layer). True when it is a win that ends the search (not counting).
    fn child(&mut self, n: u32, depth: u32, mv: Move) -> Result<bool, SearchError> {
        let key = self.key();
        if let Some(c) = &mut self.counting
            && !c.first_from_parent(key)
        {
            return Ok(false);
        }
        if !self.seen.insert(key) {
            if let Some(c) = &mut self.counting {
                c.merge(&self.records, key, n);
            }
            return Ok(false);
        }
        let won = match self.g.status()? {
            SearchStatus::Won(_) if !self.exhaustive => {
                if self.first_win.is_none() {
                    let mut moves = self.path_to(n);
                    moves.push(mv);
                    self.first_win = Some(moves);
                }
                true
            }
            SearchStatus::Running if !self.g.is_dead() => false,
            // Over or dead: counted (in the visited set), not expanded.
            _ => return Ok(false),
        };
        if won && self.counting.is_none() {
            return Ok(true);
        }
        let index = self.records.len() as u32;
        self.records.push(Record {
            parent: n,
            mv,
            depth: depth + 1,
        });
        if let Some(c) = &mut self.counting {
            c.add(key, n, index, won);
        }
        Ok(false)
    }

    /// The answer once the first win is found (counting: its layer finished).
    fn won(&mut self) -> Result<Answer, SearchError> {
        let moves = self.first_win.take().unwrap_or_default();
        Ok(Answer::Solved(self.solution(moves)?))
    }

    /// The answer when budget `b` ran out: unknown, unless counting had found the shortest
    /// solution already (then solved, its count cut short).
    fn stopped(&mut self, b: Budget) -> Result<Answer, SearchError> {
        if self.first_win.is_some() {
            self.count_stopped = Some(b);
            return self.won();
        }
        Ok(Answer::Unknown(b))
    }

    fn play(&mut self, mv: Move) -> Result<(), SearchError> {
        self.g.play(mv)?;
        self.played += 1;
        Ok(())
    }

    fn undo(&mut self) {
        if self.g.undo() {
            self.played -= 1;
        }
    }

    /// The moves from the start to record `n`.
    fn path_to(&self, mut n: u32) -> Vec<Move> {
        let mut v = Vec::new();
        while n != 0 && n != u32::MAX {
            let r = self.records[n as usize];
            v.push(r.mv);
            n = r.parent;
        }
        v.reverse();
        v
    }

    /// Walks the game from the record it is at to record `target`.
    fn goto(&mut self, target: u32) -> Result<(), SearchError> {
        let (mut a, mut b) = (self.cur, target);
        let depth = |s: &Self, i: u32| s.records[i as usize].depth;
        self.down.clear();
        while depth(self, a) > depth(self, b) {
            self.undo();
            a = self.records[a as usize].parent;
        }
        while depth(self, b) > depth(self, a) {
            self.down.push(self.records[b as usize].mv);
            b = self.records[b as usize].parent;
        }
        while a != b {
            self.undo();
            a = self.records[a as usize].parent;
            self.down.push(self.records[b as usize].mv);
            b = self.records[b as usize].parent;
        }
        for i in (0..self.down.len()).rev() {
            self.play(self.down[i])?;
        }
        self.cur = target;
        Ok(())
    }

    /// Plays `moves` from the start to write their words, and goes back.
    fn solution(&mut self, moves: Vec<Move>) -> Result<Solution, SearchError> {
        self.goto(0)?;
        let mut words = Vec::new();
        let mut played = 0;
        let mut r = Ok(());
        for &mv in &moves {
            words.extend(self.g.words(mv));
            r = self.play(mv);
            if r.is_err() {
                break;
            }
            played += 1;
        }
        for _ in 0..played {
            self.undo();
        }
        r?;
        Ok(Solution {
            moves,
            words,
            shortest: true,
        })
    }
}

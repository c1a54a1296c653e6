//! The value of a two-player position within N plies (issue #29 "Two players", issue #28
//! "solve"): alpha-beta (negamax) with a transposition table and iterative deepening, and
//! the principal variation.
//!
//! **Values.** Seen by the player to move: a win in k plies is `WIN - k`, a loss in k plies
//! `-(WIN - k)`, a draw 0. A state still running at the depth limit (the horizon) is
//! unknown. Each depth is searched with the horizon scored as a small gain for the root
//! player (+1 from the root player's side, the optimistic bound `v+`); when that gives a
//! win or a loss, no horizon state mattered and the value is proved. When it gives 0, the
//! same depth is searched again with the horizon as a small loss (`v-`): 0 again proves a
//! draw (every line ends within the depth or the root player can do no better than a draw
//! anyway). Otherwise the depth is deepened, up to `max_plies`; then the value is unknown.
//! (`v-` ≤ the true value ≤ `v+` whatever the horizon hides, so an equal pair is exact.)
//! The players need not alternate: when the same player moves again after a move (pasta),
//! the child's score is taken without negation and searched with the same window.
//!
//! **The transposition table** is keyed by [`StateKey`] (128 bits; no full-state compare)
//! and holds, per state, the value, its bound (exact, lower, upper), the depth searched and
//! the best move; one table per horizon scoring. Values are stored relative to the state
//! (a win in k plies from it), so they are valid wherever it is reached.
//!
//! **Path-dependent values** (board `repetition`, pasta's draw by repetition): a terminal
//! state whose status depended on an earlier state of the current path says which
//! ([`SearchGame::history_dependence`], counted in plies from the root). Each value carries
//! the earliest path state it depended on, the least over the values it was computed from;
//! a state at ply p stores its value in the table only when that is p or later (every state
//! it depended on lies on its own subtree's path, so the value is the state's alone). A
//! value that depended on a state above it is used where it was found and never stored.
//! What this does not cover (a stored value reused where an earlier repetition would have
//! ended a line sooner) is said in `docs/solver.md`.
//!
//! More than two players: not offered (no max^n); [`value`] refuses them.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::{Budget, DEFAULT_MEMORY, KeyBuild, Progress};
use tilesmith_core::search_game::{Move, SearchError, SearchGame, SearchStatus, StateKey};

/// The score of a win now (a win in k plies scores `WIN - k`).
pub const WIN: i32 = 1_000_000;
/// Scores above this (or below its negative) are wins (losses) at a distance.
const DECIDED: i32 = WIN / 2;

/// The budgets of a [`value`] search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most plies (decisions of either player) looked ahead.
    pub max_plies: u32,
    /// Wall-clock budget; `None`: none.
    pub time: Option<Duration>,
    /// The most bytes the transposition tables may take (1 GiB by default); when full, no
    /// new entry is stored.
    pub memory: usize,
}

impl Default for Limits {
    /// 64 plies, no time limit, 1 GiB.
    fn default() -> Self {
        Limits {
            max_plies: 64,
            time: None,
            memory: DEFAULT_MEMORY,
        }
    }
}

/// A game value for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// The player to move wins in this many plies (both players' moves counted) at most,
    /// whatever the other does.
    Win(u32),
    /// The player to move loses in this many plies at least, whatever they do.
    Loss(u32),
    /// Neither can do better than a draw.
    Draw,
    /// Not proved within the plies searched.
    Unknown,
}

impl Value {
    /// `win`, `loss`, `draw` or `unknown`, as the CLI prints it.
    pub fn word(self) -> &'static str {
        match self {
            Value::Win(_) => "win",
            Value::Loss(_) => "loss",
            Value::Draw => "draw",
            Value::Unknown => "unknown",
        }
    }
}

/// The result of a [`value`] search.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The value for the player to move at the root.
    pub value: Value,
    /// The player to move at the root.
    pub player: usize,
    /// The principal variation: best play by both sides from the root, as far as the
    /// search followed it.
    pub pv: Vec<Move>,
    /// Its words, played in turn from the root.
    pub pv_words: Vec<String>,
    /// The deepest depth (plies) fully searched.
    pub depth: u32,
    /// Positions visited (moves played, the root included).
    pub states: u64,
    /// Why it stopped without a value, when it did (`Steps`: `max_plies` reached).
    pub stopped: Option<Budget>,
    /// Time taken.
    pub elapsed: Duration,
}

/// Searches the value of `root` (a two-player game) for the player to move within
/// `limits.max_plies` plies; `root` is back in its state when this returns. `progress` is
/// called after each depth and at the end; `cancel` stops the search (checked at every move;
/// the value is then unknown, with the depth last finished).
///
/// # Errors
/// A [`SearchError`] from the kind, or for a game that does not have two players.
pub fn value(
    root: &mut dyn SearchGame,
    limits: &Limits,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Outcome, SearchError> {
    if root.players() != 2 {
        return Err(SearchError::new(format!(
            "alpha-beta searches games of two players; this one has {} (one player: \
             breadth-first search; more than two: not offered)",
            root.players()
        )));
    }
    let mut s = AlphaBeta {
        g: root,
        limits: *limits,
        cancel,
        started: Instant::now(),
        states: 1,
        root_player: 0,
        horizon: 1,
        tables: [HashMap::default(), HashMap::default()],
        moves: Vec::new(),
        pv: Vec::new(),
        ply: 0,
    };
    s.root_player = s.g.to_move();
    let r = s.deepen(progress);
    while s.ply > 0 {
        s.g.undo();
        s.ply -= 1;
    }
    let (value, depth, stopped) = r?;
    let pv = if value == Value::Unknown {
        Vec::new()
    } else {
        s.principal_variation(value)?
    };
    let pv_words = s.words(&pv)?;
    let out = Outcome {
        value,
        player: s.root_player,
        pv,
        pv_words,
        depth,
        states: s.states,
        stopped,
        elapsed: s.started.elapsed(),
    };
    progress(&Progress::new(s.states, depth, s.started));
    Ok(out)
}

#[derive(Clone, Copy)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy)]
struct Entry {
    depth: u32,
    value: i32,
    bound: Bound,
    best: Option<Move>,
}

/// Bytes per table entry, counted with the map's slot overhead.
const ENTRY_BYTES: usize = std::mem::size_of::<(StateKey, Entry)>() + 1;

/// Why a search below the root stopped.
enum Stop {
    Budget(Budget),
    Error(SearchError),
}

impl From<SearchError> for Stop {
    fn from(e: SearchError) -> Self {
        Stop::Error(e)
    }
}

struct AlphaBeta<'g, 'c> {
    g: &'g mut dyn SearchGame,
    limits: Limits,
    cancel: &'c AtomicBool,
    started: Instant,
    states: u64,
    root_player: usize,
    /// +1: the horizon favours the root player (`v+`); -1: it favours the other (`v-`).
    horizon: i32,
    /// The tables of `v+` and `v-`.
    tables: [HashMap<StateKey, Entry, KeyBuild>; 2],
    /// Move lists per ply.
    moves: Vec<Vec<Move>>,
    /// The principal variation per ply (triangular).
    pv: Vec<Vec<Move>>,
    /// Plies played from the root.
    ply: usize,
}

/// A child's score seen from its parent when another player moves in the child: negated,
/// and a win or loss one ply further away. When the same player moves again (a card game
/// where one player may decide several times in a row, pasta), the parent takes the child's
/// score as it is, one ply further away (`parent_score(-child)`); a game over is scored
/// for the player [`SearchGame::to_move`] names there, in the parent's comparison too.
fn parent_score(child: i32) -> i32 {
    let v = -child;
    if v > DECIDED {
        v - 1
    } else if v < -DECIDED {
        v + 1
    } else {
        v
    }
}

impl AlphaBeta<'_, '_> {
    /// Iterative deepening to a proved value: (value, depth searched, why it stopped).
    fn deepen(
        &mut self,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<(Value, u32, Option<Budget>), SearchError> {
        let mut done = 0;
        for depth in 1..=self.limits.max_plies {
            let plus = match self.pass(depth, 1) {
                Ok(v) => v,
                Err(Stop::Budget(b)) => return Ok((Value::Unknown, done, Some(b))),
                Err(Stop::Error(e)) => return Err(e),
            };
            if let Some(v) = decided(plus) {
                return Ok((v, depth, None));
            }
            if plus == 0 {
                match self.pass(depth, -1) {
                    Ok(0) => return Ok((Value::Draw, depth, None)),
                    Ok(_) => {}
                    Err(Stop::Budget(b)) => return Ok((Value::Unknown, done, Some(b))),
                    Err(Stop::Error(e)) => return Err(e),
                }
            }
            done = depth;
            progress(&Progress::new(self.states, depth, self.started));
        }
        Ok((Value::Unknown, done, Some(Budget::Steps)))
    }

    /// One search of the root to `depth` plies with the horizon scored `horizon`.
    fn pass(&mut self, depth: u32, horizon: i32) -> Result<i32, Stop> {
        self.horizon = horizon;
        let (v, _) = self.negamax(depth, -WIN - 1, WIN + 1)?;
        Ok(v)
    }

    fn table(&mut self) -> &mut HashMap<StateKey, Entry, KeyBuild> {
        &mut self.tables[usize::from(self.horizon < 0)]
    }

    fn check(&mut self) -> Result<(), Stop> {
        if self.cancel.load(Ordering::Relaxed) {
            return Err(Stop::Budget(Budget::Cancelled));
        }
        if self.states.is_multiple_of(1024)
            && self
                .limits
                .time
                .is_some_and(|t| self.started.elapsed() >= t)
        {
            return Err(Stop::Budget(Budget::Time));
        }
        Ok(())
    }

    /// The score of the current state for the player to move, searched `depth` plies, and
    /// the earliest path state (ply) it depended on (`usize::MAX`: none).
    fn negamax(&mut self, depth: u32, alpha: i32, beta: i32) -> Result<(i32, usize), Stop> {
        let ply = self.ply;
        while self.pv.len() <= ply {
            self.pv.push(Vec::new());
            self.moves.push(Vec::new());
        }
        self.pv[ply].clear();
        let status = self.g.status()?;
        if status.is_over() {
            let dep = self.g.history_dependence().unwrap_or(usize::MAX);
            let v = match status {
                SearchStatus::Won(w) if w == self.g.to_move() => WIN,
                SearchStatus::Won(_) | SearchStatus::Lost => -WIN,
                _ => 0,
            };
            return Ok((v, dep));
        }
        if depth == 0 {
            let good = if self.g.to_move() == self.root_player {
                self.horizon
            } else {
                -self.horizon
            };
            return Ok((good, usize::MAX));
        }
        let key = self.g.key();
        let mut hint = None;
        if let Some(e) = self.table().get(&key).copied() {
            hint = e.best;
            if e.depth >= depth {
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => e.value >= beta,
                    Bound::Upper => e.value <= alpha,
                };
                if cut {
                    return Ok((e.value, usize::MAX));
                }
            }
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        moves.clear();
        self.g.moves(&mut moves)?;
        if let Some(h) = hint
            && let Some(i) = moves.iter().position(|&m| m == h)
        {
            moves.swap(0, i);
        }
        let r = self.children(&moves, depth, alpha, beta);
        self.moves[ply] = moves;
        let (best, best_move, dep) = r?;
        let bound = if best <= alpha {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        if dep >= ply {
            let full = (self.tables[0].len() + self.tables[1].len() + 1) * ENTRY_BYTES * 2
                > self.limits.memory;
            let t = self.table();
            if !full || t.contains_key(&key) {
                t.insert(
                    key,
                    Entry {
                        depth,
                        value: best,
                        bound,
                        best: best_move,
                    },
                );
            }
        }
        Ok((best, dep))
    }

    /// Searches the moves of the current state: (best score, its move, dependence).
    fn children(
        &mut self,
        moves: &[Move],
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> Result<(i32, Option<Move>, usize), Stop> {
        let ply = self.ply;
        let mut best = -WIN - 1;
        let mut best_move = None;
        let mut dep = usize::MAX;
        for &mv in moves {
            self.check()?;
            let mover = self.g.to_move();
            self.g.play(mv)?;
            self.states += 1;
            self.ply += 1;
            let same = self.g.to_move() == mover;
            let r = if same {
                self.negamax(depth - 1, alpha, beta)
            } else {
                self.negamax(depth - 1, -beta, -alpha)
            };
            self.g.undo();
            self.ply -= 1;
            let (child, d) = r?;
            dep = dep.min(d);
            let v = if same {
                parent_score(-child)
            } else {
                parent_score(child)
            };
            if v > best {
                best = v;
                best_move = Some(mv);
                if v > alpha {
                    alpha = v;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(mv);
                    head[ply].extend_from_slice(&tail[0]);
                }
            }
            if alpha >= beta {
                break;
            }
        }
        Ok((best, best_move, dep))
    }

    /// The principal variation of the last pass, extended through the table's best moves
    /// where a table hit cut it short, and stopped at the end of the game.
    fn principal_variation(&mut self, value: Value) -> Result<Vec<Move>, SearchError> {
        let mut line: Vec<Move> = self.pv.first().cloned().unwrap_or_default();
        let limit = match value {
            Value::Win(k) | Value::Loss(k) => k as usize,
            _ => self.limits.max_plies as usize,
        };
        let mut played = 0;
        let mut moves = Vec::new();
        let mut r = Ok(());
        while played < limit {
            match self.g.status() {
                Ok(SearchStatus::Running) => {}
                Ok(_) => break,
                Err(e) => {
                    r = Err(e);
                    break;
                }
            }
            let mv = match line.get(played) {
                Some(&m) => m,
                None => {
                    let key = self.g.key();
                    match self.table().get(&key).and_then(|e| e.best) {
                        Some(m) => m,
                        None => break,
                    }
                }
            };
            moves.clear();
            if let Err(e) = self.g.moves(&mut moves) {
                r = Err(e);
                break;
            }
            if !moves.contains(&mv) {
                break;
            }
            if let Err(e) = self.g.play(mv) {
                r = Err(e);
                break;
            }
            if played >= line.len() {
                line.push(mv);
            }
            played += 1;
        }
        for _ in 0..played {
            self.g.undo();
        }
        line.truncate(played);
        r.map(|_| line)
    }

    /// The words of `line`, played in turn from the root.
    fn words(&mut self, line: &[Move]) -> Result<Vec<String>, SearchError> {
        let mut words = Vec::new();
        let mut played = 0;
        let mut r = Ok(());
        for &mv in line {
            words.extend(self.g.words(mv));
            if let Err(e) = self.g.play(mv) {
                r = Err(e);
                break;
            }
            played += 1;
        }
        for _ in 0..played {
            self.g.undo();
        }
        r.map(|_| words)
    }
}

/// The value a root score proves, if it is a win or a loss.
fn decided(v: i32) -> Option<Value> {
    if v > DECIDED {
        Some(Value::Win((WIN - v) as u32))
    } else if v < -DECIDED {
        Some(Value::Loss((WIN + v) as u32))
    } else {
        None
    }
}

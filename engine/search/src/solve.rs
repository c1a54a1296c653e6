//! Solving a position, whatever its number of players (issue #29 "Solve", "each legal move
//! listed with its proved value"): the one entry point that `tilesmith solve` and the
//! editor's Solve button share, so that both choose the algorithm the same way.
//!
//! - [`solve`]: one player, a shortest solution by A* ([`crate::astar::solve`]) when the
//!   kind gives an estimate at the start, else by breadth-first search
//!   ([`crate::bfs::solve`]); [`solve_with`] takes the algorithm (also IDA*,
//!   [`crate::ida::solve`]); two players, the value for the player to move and the principal
//!   variation by alpha-beta ([`crate::alphabeta::value`]).
//! - [`move_values`]: in a two-player position, each legal move with its value for the player
//!   who plays it ("wins in 7", "loses in 4", "draw"), by an alpha-beta search of the
//!   position after it, all within one time budget.
//! - [`first_dead_step`]: along a play that ends where no win is reachable, the first step
//!   after which none was reachable any more (`tilesmith solve --from REPLAY --witness`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::alphabeta::{self, Value};
use crate::{Algorithm, Budget, Progress, astar, bfs, ida};
use tilesmith_core::search_game::{Move, SearchError, SearchGame, SearchStatus};

/// The default ply bound of a two-player solve (`tilesmith solve` without `--max-steps`).
pub const DEFAULT_PLIES: u32 = 64;

/// The budgets of a [`solve`] or of [`move_values`]: those of the breadth-first search, whose
/// `max_steps` is, for two players, the most plies looked ahead (`None`: [`DEFAULT_PLIES`]);
/// [`move_values`] shares `time` among the moves.
pub use crate::bfs::Limits;

/// What a [`solve`] found, by the number of players.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// A one-player game: solved (proved shortest: [`bfs::Solution::shortest`]), unsolvable
    /// or unknown, by the algorithm [`bfs::Outcome::algorithm`] names.
    OnePlayer(bfs::Outcome),
    /// A two-player game: the value for the player to move and the principal variation.
    TwoPlayers(alphabeta::Outcome),
}

/// Solves `root`: for a one-player game A* when the kind gives an estimate at the start
/// ([`SearchGame::estimate`] is `Some` there), else breadth-first search
/// ([`default_algorithm`]); alpha-beta for two players (more than two: refused by
/// alpha-beta). `root` is back in its state when this returns.
///
/// # Errors
/// A [`SearchError`] from the kind, or for a game of more than two players.
pub fn solve(
    root: &mut dyn SearchGame,
    limits: &Limits,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Outcome, SearchError> {
    solve_with(root, None, limits, cancel, progress)
}

/// The algorithm [`solve`] uses for the one-player game `root`: [`Algorithm::AStar`] when
/// the kind gives an estimate in this state, else [`Algorithm::Bfs`].
pub fn default_algorithm(root: &mut dyn SearchGame) -> Algorithm {
    if root.estimate().is_some() {
        Algorithm::AStar
    } else {
        Algorithm::Bfs
    }
}

/// [`solve`] with the one-player algorithm given (`None`: [`default_algorithm`];
/// `tilesmith solve --algorithm`); a two-player game is searched by alpha-beta whatever it
/// says.
///
/// # Errors
/// As [`solve`].
pub fn solve_with(
    root: &mut dyn SearchGame,
    algorithm: Option<Algorithm>,
    limits: &Limits,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Outcome, SearchError> {
    if root.players() >= 2 {
        let l = alphabeta::Limits {
            max_plies: limits.max_steps.unwrap_or(DEFAULT_PLIES),
            time: limits.time,
            memory: limits.memory,
        };
        return alphabeta::value(root, &l, cancel, progress).map(Outcome::TwoPlayers);
    }
    let algorithm = algorithm.unwrap_or_else(|| default_algorithm(root));
    match algorithm {
        Algorithm::Bfs => bfs::solve(root, limits, cancel, progress),
        Algorithm::AStar => astar::solve(root, limits, cancel, progress),
        Algorithm::Ida => ida::solve(root, limits, cancel, progress),
    }
    .map(Outcome::OnePlayer)
}

/// Where a play became dead ([`first_dead_step`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeadFrom {
    /// The first step (counted from 1; 0: the start itself) after which no win was
    /// reachable for the rest of the play; `None` when a search on the way ran out of a
    /// budget (`stopped`).
    pub step: Option<usize>,
    /// The budget that stopped a search on the way, when one did.
    pub stopped: Option<Budget>,
    /// The searches made (one per state looked at).
    pub searches: usize,
}

/// Along a one-player play of `steps` steps whose last state is unsolvable (the caller
/// solved it), the first step after which no win was reachable any more: the state after
/// step `k` is `state_at(k)` (`state_at(0)` the start), and each state looked at is solved
/// by [`bfs::solve`] with the same `limits`. When the play is `monotone` (it never goes back:
/// no undo, no restart), every state after a dead one is dead, so the step is found by
/// bisection (about log₂ `steps` searches); otherwise the states are solved from the end
/// backwards until one is solvable, so the answer is the first step of the last dead stretch.
///
/// # Errors
/// A [`SearchError`] from `state_at` or the kind.
pub fn first_dead_step(
    steps: usize,
    monotone: bool,
    limits: &Limits,
    cancel: &AtomicBool,
    state_at: &mut dyn FnMut(usize) -> Result<Box<dyn SearchGame>, SearchError>,
) -> Result<DeadFrom, SearchError> {
    let mut searches = 0;
    // `Ok(true)`: dead; `Ok(false)`: solvable; `Err`: a budget.
    let mut dead = |k: usize| -> Result<Result<bool, Budget>, SearchError> {
        searches += 1;
        let mut g = state_at(k)?;
        Ok(
            match bfs::solve(g.as_mut(), limits, cancel, &mut |_| {})?.answer {
                bfs::Answer::Solved(_) => Ok(false),
                bfs::Answer::Unsolvable => Ok(true),
                bfs::Answer::Unknown(b) => Err(b),
            },
        )
    };
    let found = if monotone {
        // States `live..` hold the first dead one; `hi` is dead.
        let (mut live, mut hi) = (0, steps);
        loop {
            if live >= hi {
                break Ok(hi);
            }
            let mid = live + (hi - live) / 2;
            match dead(mid)? {
                Ok(true) => hi = mid,
                Ok(false) => live = mid + 1,
                Err(b) => break Err(b),
            }
        }
    } else {
        let mut k = steps;
        loop {
            if k == 0 {
                break Ok(0);
            }
            match dead(k - 1)? {
                Ok(true) => k -= 1,
                Ok(false) => break Ok(k),
                Err(b) => break Err(b),
            }
        }
    };
    Ok(match found {
        Ok(step) => DeadFrom {
            step: Some(step),
            stopped: None,
            searches,
        },
        Err(b) => DeadFrom {
            step: None,
            stopped: Some(b),
            searches,
        },
    })
}

/// One legal move of a two-player position and its value for the player who plays it.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveValue {
    /// The move, in the root's [`SearchGame::moves`].
    pub mv: Move,
    /// Its word ([`SearchGame::word`] in the root).
    pub word: String,
    /// Its value for the player to move at the root, plies counted from the root (the move
    /// itself is the first): `Win(1)` when the move wins at once. [`Value::Unknown`] when the
    /// search after it did not finish, or was not started (`stopped` says why).
    pub value: Value,
    /// Positions the search after it visited.
    pub states: u64,
    /// Why its value is unknown, when it is: a budget (time, memory, the ply bound) or
    /// cancelled.
    pub stopped: Option<Budget>,
}

/// Each legal move of the two-player position `root`, in the order of
/// [`SearchGame::moves`], with its value for the player to move (the position after it
/// searched by [`alphabeta::value`] within one ply less). The time budget is one deadline
/// for all the moves: a move reached after it has the value unknown, `stopped` time.
/// `progress` gets the index of the move being searched and that search's progress.
///
/// # Errors
/// A [`SearchError`] from the kind, or for a game that does not have two players.
pub fn move_values(
    root: &dyn SearchGame,
    limits: &Limits,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(usize, &Progress),
) -> Result<Vec<MoveValue>, SearchError> {
    if root.players() != 2 {
        return Err(SearchError::new(format!(
            "move values are searched in games of two players; this one has {}",
            root.players()
        )));
    }
    let started = Instant::now();
    let mut g = root.fork();
    let mover = g.to_move();
    let mut moves = Vec::new();
    if !g.status()?.is_over() {
        g.moves(&mut moves)?;
    }
    let plies = limits.max_steps.unwrap_or(DEFAULT_PLIES).saturating_sub(1);
    let mut out = Vec::with_capacity(moves.len());
    for (i, &mv) in moves.iter().enumerate() {
        let word = g.word(mv);
        let left = limits.time.map(|t| t.saturating_sub(started.elapsed()));
        let stop = if cancel.load(Ordering::Relaxed) {
            Some(Budget::Cancelled)
        } else if left.is_some_and(|t| t.is_zero()) {
            Some(Budget::Time)
        } else {
            None
        };
        if let Some(b) = stop {
            out.push(MoveValue {
                mv,
                word,
                value: Value::Unknown,
                states: 0,
                stopped: Some(b),
            });
            continue;
        }
        let mut child = g.fork();
        child.play(mv)?;
        let (value, states, stopped) = match child.status()? {
            SearchStatus::Won(p) if p == mover => (Value::Win(1), 1, None),
            SearchStatus::Won(_) | SearchStatus::Lost => (Value::Loss(1), 1, None),
            SearchStatus::Draw => (Value::Draw, 1, None),
            SearchStatus::Running if plies == 0 => (Value::Unknown, 1, Some(Budget::Steps)),
            SearchStatus::Running => {
                let l = alphabeta::Limits {
                    max_plies: plies,
                    time: left,
                    memory: limits.memory,
                };
                let o = alphabeta::value(child.as_mut(), &l, cancel, &mut |p| progress(i, p))?;
                let same = o.player == mover;
                (seen_from_parent(o.value, same), o.states, o.stopped)
            }
        };
        out.push(MoveValue {
            mv,
            word,
            value,
            states,
            stopped: if value == Value::Unknown {
                stopped
            } else {
                None
            },
        });
    }
    Ok(out)
}

/// The value of a child position for the parent's player to move, one ply further: as it is
/// when the same player moves in the child (`same`), else turned round.
fn seen_from_parent(v: Value, same: bool) -> Value {
    match (v, same) {
        (Value::Win(k), true) | (Value::Loss(k), false) => Value::Win(k + 1),
        (Value::Loss(k), true) | (Value::Win(k), false) => Value::Loss(k + 1),
        (other, _) => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_graph::Graph;

    /// A play through the states `play` of a graph where 0 → 1 → 2 → 3 (won), 1 → 4 → 5 and
    /// 4 → 0: 4 is solvable (back to 0), 5 is a dead end (no moves).
    fn dead_from(play: &[usize], monotone: bool) -> DeadFrom {
        let edges = vec![vec![1], vec![2, 4], vec![3], vec![], vec![5, 0], vec![]];
        let cancel = AtomicBool::new(false);
        let mut at = |k: usize| -> Result<Box<dyn SearchGame>, SearchError> {
            Ok(Box::new(Graph {
                path: vec![play[k]],
                ..Graph::new(edges.clone(), vec![3])
            }))
        };
        first_dead_step(
            play.len() - 1,
            monotone,
            &Limits::default(),
            &cancel,
            &mut at,
        )
        .unwrap()
    }

    #[test]
    fn the_first_dead_step_of_a_play() {
        // 0 1 4 5: dead after step 3 (5), solvable before; both ways find it.
        assert_eq!(dead_from(&[0, 1, 4, 5], true).step, Some(3));
        assert_eq!(dead_from(&[0, 1, 4, 5], false).step, Some(3));
        // A play that starts dead: 5 5 5 (no moves, but a play may wait there): step 0.
        assert_eq!(dead_from(&[5, 5, 5], true).step, Some(0));
        assert_eq!(dead_from(&[5, 5, 5], false).step, Some(0));
        // Not monotone: 0 1 4 5, then back to 1 (an undo) and 4 5 again: the last dead
        // stretch starts after step 6, found from the end by one search (state 4 after step
        // 5 is solvable).
        let d = dead_from(&[0, 1, 4, 5, 1, 4, 5], false);
        assert_eq!((d.step, d.searches), (Some(6), 1));
        // Monotone, dead from step 3 of 6: bisection looks at states 3 (dead), 1 and 2.
        let d = dead_from(&[0, 1, 4, 5, 5, 5, 5], true);
        assert_eq!((d.step, d.searches), (Some(3), 3));
    }

    #[test]
    fn a_childs_value_is_turned_round_for_the_other_player_and_one_ply_further() {
        assert_eq!(seen_from_parent(Value::Loss(2), false), Value::Win(3));
        assert_eq!(seen_from_parent(Value::Win(4), false), Value::Loss(5));
        assert_eq!(seen_from_parent(Value::Win(4), true), Value::Win(5));
        assert_eq!(seen_from_parent(Value::Draw, false), Value::Draw);
        assert_eq!(seen_from_parent(Value::Unknown, true), Value::Unknown);
    }
}

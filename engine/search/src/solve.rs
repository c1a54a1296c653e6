//! Solving a position, whatever its number of players (issue #29 "Solve", "each legal move
//! listed with its proved value"): the one entry point that `tilesmith solve` and the
//! editor's Solve button share, so that both choose the algorithm the same way.
//!
//! - [`solve`]: one player, a proved shortest solution by breadth-first search
//!   ([`crate::bfs::solve`]); two players, the value for the player to move and the principal
//!   variation by alpha-beta ([`crate::alphabeta::value`]).
//! - [`move_values`]: in a two-player position, each legal move with its value for the player
//!   who plays it ("wins in 7", "loses in 4", "draw"), by an alpha-beta search of the
//!   position after it, all within one time budget.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::alphabeta::{self, Value};
use crate::{Budget, Progress, bfs};
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
    /// A one-player game: solved (proved shortest), unsolvable or unknown.
    OnePlayer(bfs::Outcome),
    /// A two-player game: the value for the player to move and the principal variation.
    TwoPlayers(alphabeta::Outcome),
}

/// Solves `root`: breadth-first search for a one-player game, alpha-beta for two players
/// (more than two: refused by alpha-beta). `root` is back in its state when this returns.
///
/// # Errors
/// A [`SearchError`] from the kind, or for a game of more than two players.
pub fn solve(
    root: &mut dyn SearchGame,
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
    bfs::solve(root, limits, cancel, progress).map(Outcome::OnePlayer)
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

    #[test]
    fn a_childs_value_is_turned_round_for_the_other_player_and_one_ply_further() {
        assert_eq!(seen_from_parent(Value::Loss(2), false), Value::Win(3));
        assert_eq!(seen_from_parent(Value::Win(4), false), Value::Loss(5));
        assert_eq!(seen_from_parent(Value::Win(4), true), Value::Win(5));
        assert_eq!(seen_from_parent(Value::Draw, false), Value::Draw);
        assert_eq!(seen_from_parent(Value::Unknown, true), Value::Unknown);
    }
}

//! A designer's intended solution against the solver's (issue #29: "is my intended solution
//! the only short one, or did I leave a shortcut?"), for any kind by name: a replay played
//! with the state key ([`crate::search_game::StateKey`]) after each step, the keys along a
//! line of search moves, and the comparison of the two, used by `tilesmith solve --intended`
//! and by the editor's Solve when the level has an intended replay beside it
//! (`NAME.intended.replay.json` beside `NAME.json`).
//!
//! Two lines are compared by their states, not their words: a line "leaves" another at the
//! first step (counted from 1) after which their states differ, so two spellings of the same
//! moves do not count as parting.

use crate::game::{Game, Status, StepReport};
use crate::input::Input;
use crate::replay::{Replay, play_with};
use crate::search_game::{Move, SearchGame, StateKey};
use crate::{Document, LoadError};

/// A replay played on its own level and seed, as `tilesmith run --replay` plays it.
pub struct PlayedLine {
    /// The game after the steps played.
    pub game: Box<dyn Game>,
    /// The state key at the start and after each step (when asked for), `steps + 1` of
    /// them; empty otherwise. A kind without search gives no keys at all.
    pub keys: Vec<StateKey>,
    /// The steps played (fewer than the replay's when its game ended first).
    pub steps: usize,
    /// True when no step went back (no undo, no restart): every state after a dead one is
    /// dead.
    pub monotone: bool,
    /// The inputs of the steps played.
    pub inputs: Vec<Input>,
}

/// The state key of a game's position (its searcher's); `None` for a kind without search.
pub fn key_of(game: &dyn Game) -> Option<StateKey> {
    game.searcher().map(|s| s.key())
}

/// Plays `replay` on its own level and seed, at most `upto` of its steps, with the state key
/// after each step when `keys`.
///
/// # Errors
/// The replay's level does not load or start ([`LoadError`]).
pub fn play_line(
    replay: &Replay,
    upto: Option<usize>,
    keys: bool,
) -> Result<PlayedLine, LoadError> {
    let doc: Document = replay.document()?;
    let mut game = doc.start(replay.seed).map_err(LoadError::Problems)?;
    let ticks = upto.map_or(replay.ticks, |u| (u as u64).min(replay.ticks));
    let mut all_keys = Vec::new();
    if keys && let Some(k) = key_of(game.as_ref()) {
        all_keys.push(k);
    }
    let (mut steps, mut monotone, mut inputs) = (0, true, Vec::new());
    let mut each = |g: &dyn Game, input: Input, _: &StepReport| {
        steps += 1;
        monotone &= !matches!(input, Input::Undo | Input::Restart);
        inputs.push(input);
        if keys && let Some(k) = key_of(g) {
            all_keys.push(k);
        }
    };
    play_with(game.as_mut(), &replay.inputs, ticks, Some(&mut each));
    Ok(PlayedLine {
        game,
        keys: all_keys,
        steps,
        monotone,
        inputs,
    })
}

/// The state keys along `moves` played from `root` (its key first; the line stops at a move
/// that cannot be played); `root` is not changed.
pub fn keys_along(root: &dyn SearchGame, moves: &[Move]) -> Vec<StateKey> {
    let mut g = root.fork();
    let mut keys = vec![g.key()];
    for &mv in moves {
        if g.play(mv).is_err() {
            break;
        }
        keys.push(g.key());
    }
    keys
}

/// The first step (from 1) after which the states of two lines differ (a line that ends
/// first differs there); `None` when they are the same line. Both start at index 0 with the
/// state before their first step.
pub fn leaves_at<T: PartialEq>(found: &[T], intended: &[T]) -> Option<usize> {
    (1..found.len().max(intended.len())).find(|&i| found.get(i) != intended.get(i))
}

/// A one-player intended solution against the shortest one found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shortcut {
    /// The intended line's steps (as played: fewer than recorded when its game ended first).
    pub steps: usize,
    /// True when the intended line wins.
    pub wins: bool,
    /// True when the solver's line is shorter; `None` when the search found no solution and
    /// could not prove that none exists (its budget ran out).
    pub shortcut: Option<bool>,
    /// How many steps shorter the solver's line is (0 when it is not).
    pub shorter_by: usize,
    /// The step (from 1) where the solver's line leaves the intended one, when they differ
    /// and a solution was found.
    pub leaves_at: Option<usize>,
}

/// Compares the intended line `intended` (played with keys) with `found`, the states of the
/// shortest solution found (its start first), or no solution: `proved_none` when the search
/// proved there is none.
pub fn compare_one(
    intended: &PlayedLine,
    found: Option<&[StateKey]>,
    proved_none: bool,
) -> Shortcut {
    let wins = matches!(intended.game.status(), Status::Won { .. });
    let (shortcut, shorter_by, leaves) = match found {
        Some(f) => {
            let k = f.len().saturating_sub(1);
            (
                Some(k < intended.steps),
                intended.steps.saturating_sub(k),
                leaves_at(f, &intended.keys),
            )
        }
        None if proved_none => (Some(false), 0, None),
        None => (None, 0, None),
    };
    Shortcut {
        steps: intended.steps,
        wins,
        shortcut,
        shorter_by,
        leaves_at: leaves,
    }
}

/// The intended replay beside the level file `level` (`NAME.intended.replay.json` beside
/// `NAME.json`) when that file exists.
pub fn beside(level: &std::path::Path) -> Option<std::path::PathBuf> {
    let own = level.with_extension("intended.replay.json");
    own.is_file().then_some(own)
}

#[cfg(test)]
mod tests {
    use super::leaves_at;

    #[test]
    fn lines_part_at_the_first_differing_state() {
        assert_eq!(leaves_at(&[0, 1, 2, 3], &[0, 1, 5, 3]), Some(2));
        assert_eq!(leaves_at(&[0, 1, 2], &[0, 1, 2]), None);
        // A shorter line leaves a longer one where it ends.
        assert_eq!(leaves_at(&[0, 1], &[0, 1, 2]), Some(2));
    }
}

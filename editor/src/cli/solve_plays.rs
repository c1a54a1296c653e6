//! The replays `tilesmith solve` reads (issue #29): `--from REPLAY` (solve from the state a
//! play reached), `--witness` (the first step of that play after which no win was
//! reachable), and `--intended REPLAY` or the level's own `NAME.intended.replay.json`
//! (whether a solution shorter than the designer's intended one exists, and where it leaves
//! it). A replay is played on its own level with its own seed, as `tilesmith run --replay`
//! plays it; its start must be the start of the level being solved (the same state key),
//! else it is a replay of another level and the command fails.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use serde_json::{Value, json};
use tilesmith_engine::input::format_inputs;
use tilesmith_engine::replay::{Replay, play_with};
use tilesmith_engine::search::alphabeta;
use tilesmith_engine::search::solve::{self as search_solve, Limits};
use tilesmith_engine::search_game::{Move, SearchError, SearchGame, StateKey};
use tilesmith_engine::{Game, Input, Status};

use super::common::{load_problems, print_problems};

/// A replay, played.
pub(super) struct Played {
    /// The replay.
    pub replay: Replay,
    /// Its file.
    pub file: PathBuf,
    /// The game after the steps played.
    pub game: Box<dyn Game>,
    /// The state key at the start and after each step (when asked for).
    pub keys: Vec<StateKey>,
    /// The steps played (fewer than the replay's when its game ended first).
    pub steps: usize,
    /// True when no step went back (no undo, no restart): every state after a dead one is
    /// dead.
    pub monotone: bool,
    /// The words of the steps played, as `tilesmith run --inputs` reads them.
    pub text: String,
}

/// The state key of a game's position (its searcher's).
fn key_of(game: &dyn Game) -> Option<StateKey> {
    game.searcher().map(|s| s.key())
}

/// Reads the replay `file`; problems are printed.
pub(super) fn load(file: &Path) -> Result<Replay, ExitCode> {
    Replay::load(file).map_err(|e| {
        print_problems(file, &load_problems(file, e));
        ExitCode::FAILURE
    })
}

/// Plays `replay` (read from `file`) on its own level and seed, at most `upto` steps, with
/// the state key after each step when `keys`. Its start must have the key `start`
/// (the level solved, started as it is solved).
pub(super) fn play(
    replay: &Replay,
    file: &Path,
    upto: Option<usize>,
    keys: bool,
    start: StateKey,
) -> Result<Played, ExitCode> {
    let fail = |e| {
        print_problems(file, &load_problems(file, e));
        ExitCode::FAILURE
    };
    let doc = replay.document().map_err(fail)?;
    let mut game = doc
        .start(replay.seed)
        .map_err(|p| fail(tilesmith_engine::LoadError::Problems(p)))?;
    if key_of(game.as_ref()) != Some(start) {
        eprintln!(
            "tilesmith: solve: {}: a play of another level (or of another variant or seed) than the one solved: its start differs",
            file.display()
        );
        return Err(ExitCode::FAILURE);
    }
    let ticks = upto.map_or(replay.ticks, |u| (u as u64).min(replay.ticks));
    let mut all_keys = vec![start];
    let (mut steps, mut monotone, mut inputs) = (0, true, Vec::new());
    let mut each = |g: &dyn Game, input: Input, _: &tilesmith_engine::StepReport| {
        steps += 1;
        monotone &= !matches!(input, Input::Undo | Input::Restart);
        inputs.push(input);
        if keys {
            all_keys.push(key_of(g).unwrap_or_default());
        }
    };
    play_with(game.as_mut(), &replay.inputs, ticks, Some(&mut each));
    let text = match &replay.words {
        Some(w) => w.iter().take(steps).cloned().collect::<Vec<_>>().join(" "),
        None => format_inputs(&inputs),
    };
    Ok(Played {
        replay: replay.clone(),
        file: file.to_path_buf(),
        game,
        keys: if keys { all_keys } else { Vec::new() },
        steps,
        monotone,
        text,
    })
}

/// The state keys along `moves` played from `root` (its key first); `root` is not changed.
pub(super) fn keys_along(root: &dyn SearchGame, moves: &[Move]) -> Vec<StateKey> {
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
/// first differs there); `None` when they are the same line.
fn leaves_at(found: &[StateKey], intended: &[StateKey]) -> Option<usize> {
    (1..found.len().max(intended.len())).find(|&i| found.get(i) != intended.get(i))
}

/// The `"intended"` member of a one-player line: `found`, the states of the shortest
/// solution found (`None`: none found, `proved_none`: none exists).
pub(super) fn intended_one(p: &Played, found: Option<&[StateKey]>, proved_none: bool) -> Value {
    let won = matches!(p.game.status(), Status::Won { .. });
    let (shortcut, by, leaves) = match found {
        Some(f) => {
            let k = f.len() - 1;
            let shortcut = k < p.steps;
            (
                json!(shortcut),
                p.steps.saturating_sub(k),
                json!(leaves_at(f, &p.keys)),
            )
        }
        None if proved_none => (json!(false), 0, Value::Null),
        None => (Value::Null, 0, Value::Null),
    };
    json!({"steps": p.steps, "wins": won, "shortcut": shortcut, "shorter_by": by,
           "leaves_at": leaves})
}

/// The `"intended"` member of a two-player line: whether the player to move (`player`)
/// wins faster than the intended line (the plies of the value against its plies), and
/// where the principal variation (`pv`, its states) leaves it.
pub(super) fn intended_two(
    p: &Played,
    out: &alphabeta::Outcome,
    player: &str,
    pv: &[StateKey],
) -> Value {
    let won = matches!(p.game.status(), Status::Won { winner: Some(w), .. } if w == player);
    let (shortcut, by) = match out.value {
        alphabeta::Value::Win(k) => (
            json!((k as usize) < p.steps),
            p.steps.saturating_sub(k as usize),
        ),
        alphabeta::Value::Unknown => (Value::Null, 0),
        _ => (json!(false), 0),
    };
    json!({"steps": p.steps, "wins": won, "shortcut": shortcut, "shorter_by": by,
           "leaves_at": leaves_at(pv, &p.keys)})
}

/// The intended replay of `level`: the one given, else `NAME.intended.replay.json` beside
/// `NAME.json` when that file exists.
pub(super) fn intended_file(level: &Path, given: Option<&Path>) -> Option<PathBuf> {
    if let Some(g) = given {
        return Some(g.to_path_buf());
    }
    let own = level.with_extension("intended.replay.json");
    own.is_file().then_some(own)
}

/// The `"witness"` member for the unsolvable end of the play `p` (`states`: the states its
/// search explored): the first step after which no win was reachable, each state on the
/// way solved with the same `limits` ([`search_solve::first_dead_step`]).
pub(super) fn witness(
    p: &Played,
    start: StateKey,
    states: u64,
    limits: &Limits,
    cancel: &AtomicBool,
) -> Result<Value, SearchError> {
    let mut state_at = |k: usize| -> Result<Box<dyn SearchGame>, SearchError> {
        let played = play(&p.replay, &p.file, Some(k), false, start)
            .map_err(|_| SearchError::new("the replay could not be played again"))?;
        played
            .game
            .searcher()
            .ok_or_else(|| SearchError::new("the level offers no search"))
    };
    let d = search_solve::first_dead_step(p.steps, p.monotone, limits, cancel, &mut state_at)?;
    let mut w = json!({"states": states, "dead_from": d.step});
    if let (Some(b), Some(o)) = (d.stopped, w.as_object_mut()) {
        o.insert("budget".into(), json!(b.word()));
    }
    Ok(w)
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

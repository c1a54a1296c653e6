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
use tilesmith_engine::Status;
use tilesmith_engine::input::format_inputs;
use tilesmith_engine::intended::{self, PlayedLine};
use tilesmith_engine::replay::Replay;
use tilesmith_engine::search::alphabeta;
use tilesmith_engine::search::solve::{self as search_solve, Limits};
use tilesmith_engine::search_game::{SearchError, SearchGame, StateKey};

use super::common::{load_problems, print_problems};

/// A replay, played.
pub(super) struct Played {
    /// The replay.
    pub replay: Replay,
    /// Its file.
    pub file: PathBuf,
    /// What it did: the game after its steps, the state keys (when asked for), the steps.
    pub line: PlayedLine,
    /// The words of the steps played, as `tilesmith run --inputs` reads them.
    pub text: String,
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
    let line = intended::play_line(replay, upto, keys).map_err(fail)?;
    let first = match line.keys.first() {
        Some(&k) => Some(k),
        None => intended::key_of(
            replay
                .document()
                .map_err(fail)?
                .start(replay.seed)
                .map_err(|p| fail(tilesmith_engine::LoadError::Problems(p)))?
                .as_ref(),
        ),
    };
    if first != Some(start) {
        eprintln!(
            "tilesmith: solve: {}: a play of another level (or of another variant or seed) than the one solved: its start differs",
            file.display()
        );
        return Err(ExitCode::FAILURE);
    }
    let text = match &replay.words {
        Some(w) => w
            .iter()
            .take(line.steps)
            .cloned()
            .collect::<Vec<_>>()
            .join(" "),
        None => format_inputs(&line.inputs),
    };
    Ok(Played {
        replay: replay.clone(),
        file: file.to_path_buf(),
        line,
        text,
    })
}

/// The `"intended"` member of a one-player line: `found`, the states of the shortest
/// solution found (`None`: none found, `proved_none`: none exists).
pub(super) fn intended_one(p: &Played, found: Option<&[StateKey]>, proved_none: bool) -> Value {
    let c = intended::compare_one(&p.line, found, proved_none);
    json!({"steps": c.steps, "wins": c.wins, "shortcut": c.shortcut, "shorter_by": c.shorter_by,
           "leaves_at": c.leaves_at})
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
    let won = matches!(p.line.game.status(), Status::Won { winner: Some(w), .. } if w == player);
    let (shortcut, by) = match out.value {
        alphabeta::Value::Win(k) => (
            json!((k as usize) < p.line.steps),
            p.line.steps.saturating_sub(k as usize),
        ),
        alphabeta::Value::Unknown => (Value::Null, 0),
        _ => (json!(false), 0),
    };
    json!({"steps": p.line.steps, "wins": won, "shortcut": shortcut, "shorter_by": by,
           "leaves_at": intended::leaves_at(pv, &p.line.keys)})
}

/// The intended replay of `level`: the one given, else `NAME.intended.replay.json` beside
/// `NAME.json` when that file exists.
pub(super) fn intended_file(level: &Path, given: Option<&Path>) -> Option<PathBuf> {
    if let Some(g) = given {
        return Some(g.to_path_buf());
    }
    intended::beside(level)
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
            .line
            .game
            .searcher()
            .ok_or_else(|| SearchError::new("the level offers no search"))
    };
    let d = search_solve::first_dead_step(
        p.line.steps,
        p.line.monotone,
        limits,
        cancel,
        &mut state_at,
    )?;
    let mut w = json!({"states": states, "dead_from": d.step});
    if let (Some(b), Some(o)) = (d.stopped, w.as_object_mut()) {
        o.insert("budget".into(), json!(b.word()));
    }
    Ok(w)
}

//! Playing a level file as `tilesmith run` does (`run LEVEL`, and `run CAMPAIGN --play
//! INDEX` through [`super::campaign`]): its arguments, the summary line, `--trace`, `--out`
//! and `--record`, and a game that stopped on an error reported where its document places it
//! (`Document::stop_problem`).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use tilesmith_engine::input::{MAX_REPLAY_TICKS, split_inputs};
use tilesmith_engine::replay::{Replay, ReplayLevel, play_words};
use tilesmith_engine::{Game, Input, StepReport, parse_inputs};

use super::common::{choose_variant, load, print_problems};

/// Arguments of `tilesmith run`.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// The level file (not needed with `--replay`), or a campaign file with `--play`.
    #[arg(required_unless_present = "replay")]
    pub level: Option<PathBuf>,
    /// Play level INDEX (0 = the first) of the campaign file given as LEVEL, if it is
    /// unlocked under the progress file; the best points are recorded there.
    #[arg(long, value_name = "INDEX", conflicts_with = "variant")]
    pub play: Option<usize>,
    /// The campaign's progress file (default: beside the campaign, `NAME.progress.json`).
    #[arg(long, value_name = "FILE", requires = "play")]
    pub progress: Option<PathBuf>,
    /// Inputs, one per step (tick, turn or frame), separated by spaces, in the words of the
    /// level's kind. Boulder: `.` no key; `L R U D` arrows; `ML MR MU MD` arrows with the meta
    /// (shift) key. Baba: `. L R U D`, `undo`, `restart`. Falling (one frame each): `.`, `L R`
    /// move, `SD` soft drop, `HD` hard drop, `CW CCW 180` turn, `H` hold (a level with `hold`; else a wait). `WORD*N` is N steps of WORD
    /// (`R*3` = `R R R`). Board (one whole turn each, read in the position where it is
    /// played): the legal moves' notations (`c3-d4`, `c3xe5xc7`, `@d3`, `pass`), `undo`,
    /// `restart`. Pasta (one decision each, read where it is played): `@Card`, `skip`, `do`,
    /// `do:ARGS` (`do:Bug+Debug`, `do:Bug.2>Debug`, `do:Bug#1`; docs/pasta-semantics.md).
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    pub inputs: String,
    /// The variant of a board game to play, by title (a ZRF file's `variant`; default: the
    /// level's, else the file's default).
    #[arg(long)]
    pub variant: Option<String>,
    /// Number of steps (ticks, turns, frames) to compute (default: the number of inputs);
    /// steps past the inputs get no key. A board game steps only by a move: there `--ticks N`
    /// plays the first N moves of `--inputs`, and more steps than moves is an error. At most
    /// 1 000 000 (the most a replay holds): more is refused before anything is played.
    #[arg(long)]
    pub ticks: Option<u64>,
    /// Seed of the random number generator (slime; the setup of a pasta level without
    /// cards).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Write the final state to this file, in the level format (it loads again).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Print one JSON line per event to stderr: each rule that fired with its match
    /// positions, and the cells each main rule changed; for a board game, each ply with its
    /// player, move and the positions it changed (before and after), and how the game ended;
    /// for a pasta game, each decision with its player, card, word and what it changed.
    #[arg(long)]
    pub trace: bool,
    /// Re-run a replay file (level, seed, inputs, final-state hash) instead of LEVEL; exit 1
    /// when the final state differs from the recorded one. `--trace` and `--out` work with
    /// it; `--record` does not (the replay is already a record).
    #[arg(long, conflicts_with_all = ["level", "inputs", "ticks", "seed", "variant", "play", "record"])]
    pub replay: Option<PathBuf>,
    /// Record this run as a replay file (level path, seed, inputs, final-state hash).
    #[arg(long)]
    pub record: Option<PathBuf>,
}

/// What runs after each step: the `--trace` printer when `a.trace` asks for it, else nothing,
/// so that steps build no reports ([`tilesmith_engine::replay::OnStep`]).
pub(super) fn on_step<'a>(
    a: &RunArgs,
    traced: &'a mut dyn FnMut(&dyn Game, Input, &StepReport),
) -> tilesmith_engine::replay::OnStep<'a> {
    a.trace.then_some(traced)
}

/// Prints the `--trace` events of a step on stderr when `a.trace` asks for them.
pub(super) fn trace(a: &RunArgs, game: &dyn Game, input: Input, report: &StepReport) {
    if a.trace {
        let mut err = std::io::stderr().lock();
        for event in game.trace(input, report) {
            let _ = writeln!(err, "{event}");
        }
    }
}

/// What a play gave: its inputs, their words when the kind's words depend on the position,
/// and the steps played.
pub(super) struct Played {
    pub inputs: Vec<Input>,
    pub words: Option<Vec<String>>,
    pub ticks: u64,
}

/// The replay of `played` on the level file `level` (`doc`) started with `seed`, recording
/// `game`'s end. A variant chosen on the command line is not in the file: the level is then
/// embedded.
pub(super) fn recorded(
    doc: &tilesmith_engine::Document,
    variant: Option<&str>,
    level: &Path,
    seed: u64,
    played: Played,
    game: &dyn Game,
) -> Replay {
    let level = match variant {
        Some(_) => ReplayLevel::Embedded(doc.value.clone()),
        None => ReplayLevel::Path(level.to_path_buf()),
    };
    Replay {
        level,
        seed,
        inputs: played.inputs,
        words: played.words,
        ticks: played.ticks,
        hash: None,
        status: None,
        summary: None,
        source: None,
    }
    .recorded(game)
}

/// Writes the game's state as a level (`--out`), atomically.
pub(super) fn write_out(out: &Path, game: &dyn Game) -> Result<(), ExitCode> {
    let text = tilesmith_engine::json_text::layout(&game.to_level());
    tilesmith_engine::json_text::write_atomic(out, text.as_bytes()).map_err(|e| {
        eprintln!("{}:1:1: cannot write the state: {e}", out.display());
        ExitCode::FAILURE
    })
}

/// Plays the level file `level` as `run` does (summary line on stdout), then gives the
/// finished game to `done`, whose code is the exit code (unless the game stopped on an
/// error, which exits 1 without calling it).
pub fn run_level(
    level: &Path,
    a: &RunArgs,
    done: impl FnOnce(&dyn tilesmith_engine::Game) -> ExitCode,
) -> ExitCode {
    let mut doc = match load(level) {
        Ok(d) => d,
        Err(p) => {
            print_problems(level, &p);
            return ExitCode::FAILURE;
        }
    };
    if let Err(e) = choose_variant(&mut doc, a.variant.as_deref()) {
        eprintln!("tilesmith: {e}");
        return ExitCode::FAILURE;
    }
    let positional = doc.kind.positional_inputs();
    // The words are the level's kind's: `ML` is an error on a baba level. Words that mean
    // something only in a position (board moves) are read as they are played.
    let inputs = if positional {
        match split_inputs(&a.inputs) {
            Ok(_) => Vec::new(),
            Err(e) => {
                eprintln!("tilesmith: --inputs: {e}");
                return ExitCode::FAILURE;
            }
        }
    } else {
        match parse_inputs(doc.kind, &a.inputs) {
            Ok(i) => i,
            Err(e) => {
                eprintln!("tilesmith: --inputs: {e}");
                return ExitCode::FAILURE;
            }
        }
    };
    if let Err(code) = check_ticks(a) {
        return code;
    }
    let mut game = match doc.start(a.seed) {
        Ok(g) => g,
        Err(p) => {
            print_problems(level, &p);
            return ExitCode::FAILURE;
        }
    };
    // Where the game played is not quite the file's, say so rather than play another game.
    print_problems(level, &game.warnings());
    let mut traced = |game: &dyn Game, input: Input, report: &StepReport| {
        trace(a, game, input, report);
    };
    let (inputs, words, ticks) = if positional {
        let runs = split_inputs(&a.inputs).unwrap_or_default();
        let words: u64 = runs.iter().map(|r| r.count).sum();
        let ticks = a.ticks.unwrap_or(words);
        // A game that has no step without a move (board) cannot play steps past the words.
        if ticks > words && game.read_input(".").is_err() {
            eprintln!(
                "tilesmith: --ticks {ticks}: a {} game steps only by a move, and --inputs gives {words}",
                doc.kind.name()
            );
            return ExitCode::FAILURE;
        }
        match play_words(game.as_mut(), &runs, ticks, on_step(a, &mut traced)) {
            Ok(played) => (played.inputs, Some(played.words), ticks),
            Err(e) => {
                // A word after a game that stopped on an error of its rules: the error first,
                // where it is written, since it is why the game ended.
                if let Some(stop) = game.error() {
                    print_problems(level, &[doc.stop_problem(game.as_ref(), stop)]);
                }
                eprintln!("tilesmith: --inputs: {e}");
                return ExitCode::FAILURE;
            }
        }
    } else {
        let ticks = a.ticks.unwrap_or(inputs.len() as u64);
        tilesmith_engine::replay::play_with(game.as_mut(), &inputs, ticks, on_step(a, &mut traced));
        (inputs, None, ticks)
    };
    if let Some(out) = &a.out
        && let Err(code) = write_out(out, game.as_ref())
    {
        return code;
    }
    if let Some(rec) = &a.record {
        let played = Played {
            inputs,
            words,
            ticks,
        };
        let replay = recorded(
            &doc,
            a.variant.as_deref(),
            level,
            a.seed,
            played,
            game.as_ref(),
        );
        if let Err(code) = write_replay(rec, &replay) {
            return code;
        }
    }
    println!("{}", game.summary());
    match game.error() {
        Some(e) => {
            print_problems(level, &[doc.stop_problem(game.as_ref(), e)]);
            ExitCode::FAILURE
        }
        None => done(game.as_ref()),
    }
}

/// Refuses a step count no replay could hold, before anything is played (issue #30:
/// `--ticks 18446744073709551615` ran until killed).
fn check_ticks(a: &RunArgs) -> Result<(), ExitCode> {
    match a.ticks.filter(|t| *t > MAX_REPLAY_TICKS) {
        Some(t) => {
            eprintln!(
                "tilesmith: --ticks {t}: at most {MAX_REPLAY_TICKS} steps (the most a replay holds)"
            );
            Err(ExitCode::FAILURE)
        }
        None => Ok(()),
    }
}

/// Writes `replay` to `rec` (`--record`), atomically, its level path relative to the
/// replay's folder.
pub(super) fn write_replay(rec: &Path, replay: &Replay) -> Result<(), ExitCode> {
    let base = rec
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let text = format!(
        "{}\n",
        serde_json::to_string_pretty(&replay.to_json(base)).unwrap_or_default()
    );
    tilesmith_engine::json_text::write_atomic(rec, text.as_bytes()).map_err(|e| {
        eprintln!("{}:1:1: cannot write the replay: {e}", rec.display());
        ExitCode::FAILURE
    })
}

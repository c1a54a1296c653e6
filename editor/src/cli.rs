//! The headless commands of `tilesmith`: `run` steps a level and prints a JSON summary,
//! `check` validates level files, `perft` counts move sequences of a board game. All print
//! `FILE:LINE:COL: message (at PATH)` for bad input and exit with code 1, never panicking.
//! A `.zrf` file (a board game's rules) is a level of its own; its problems are printed at
//! the ZRF file's lines. A campaign file (`"kind": "campaign"`) is checked with its levels,
//! and `run CAMPAIGN --play INDEX` plays one of its levels (see `crate::campaign_cli`).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use tilesmith_engine::input::split_inputs;
use tilesmith_engine::replay::{Replay, ReplayLevel, play_words};
use tilesmith_engine::{
    Document, Game, Input, JsonPath, LoadError, Problem, StepReport, load_file, parse_inputs,
};

/// Tilesmith: a level editor and rule-authoring tool for rule-driven tile puzzles.
///
/// With no command, opens the editor (on FILE, or on the default level).
#[derive(Debug, Parser)]
#[command(name = "tilesmith", version, args_conflicts_with_subcommands = true)]
pub struct Args {
    /// A level file to open in the editor.
    pub file: Option<PathBuf>,
    /// Benchmark the editor: pan and zoom a generated 500×500 level for N frames, print the
    /// mean frame time, and exit.
    #[arg(long, value_name = "N")]
    pub bench_frames: Option<u32>,
    /// For the crash-recovery test: run the editor without a window on FILE, making N
    /// one-cell edits (`TilesmithApp::run_headless`), then idle until killed.
    #[arg(long, value_name = "N", hide = true, requires = "file")]
    pub headless_edits: Option<usize>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play a level headlessly and print one JSON line with the outcome.
    Run(RunArgs),
    /// Validate level files; print one line per problem and exit 1 if any file has errors.
    /// A campaign file is checked with every level in it.
    Check {
        /// The files to check (levels or campaigns).
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Count the move sequences of a board game (perft): print `DEPTH COUNT` for each depth
    /// from 1 to DEPTH. A whole turn (a jump chain, a pass) is one ply.
    Perft {
        /// The board level or ZRF file.
        file: PathBuf,
        /// The deepest depth counted (1 or more).
        #[arg(value_parser = clap::value_parser!(u32).range(1..))]
        depth: u32,
        /// The variant of a ZRF file, by title (default: the file's default variant).
        #[arg(long)]
        variant: Option<String>,
        /// Count a game that ends before DEPTH as one sequence (the published Reversi
        /// convention); by default it adds nothing.
        #[arg(long)]
        end_is_leaf: bool,
    },
    /// Draw a level as a PNG image, headless: width × SCALE by height × SCALE pixels, each
    /// cell as the editor's canvas draws it.
    Render(crate::export_cli::RenderArgs),
    /// Play a level (or a replay) headlessly and write an animated GIF, one frame per step.
    Gif(crate::export_cli::GifArgs),
    /// Open a level in the editor.
    Edit {
        /// The level file.
        file: Option<PathBuf>,
    },
}

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
    /// move, `SD` soft drop, `HD` hard drop, `CW CCW 180` turn. `WORD*N` is N steps of WORD
    /// (`R*3` = `R R R`). Board (one whole turn each, read in the position where it is
    /// played): the legal moves' notations (`c3-d4`, `c3xe5xc7`, `@d3`, `pass`), `undo`,
    /// `restart`.
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    pub inputs: String,
    /// The variant of a board game to play, by title (a ZRF file's `variant`; default: the
    /// level's, else the file's default).
    #[arg(long)]
    pub variant: Option<String>,
    /// Number of steps (ticks, turns, frames) to compute (default: the number of inputs);
    /// steps past the inputs get no key. A board game steps only by a move: there `--ticks N`
    /// plays the first N moves of `--inputs`, and more steps than moves is an error.
    #[arg(long)]
    pub ticks: Option<u64>,
    /// Seed of the random number generator (slime).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Write the final state to this file, in the level format (it loads again).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Print one JSON line per event to stderr: each rule that fired with its match
    /// positions, and the cells each main rule changed; for a board game, each ply with its
    /// player, move and the positions it changed (before and after), and how the game ended.
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

/// Runs a CLI command and gives the process exit code.
pub fn run_command(cmd: Command) -> ExitCode {
    match cmd {
        Command::Run(a) => run(&a),
        Command::Check { files } => check(&files),
        Command::Perft {
            file,
            depth,
            variant,
            end_is_leaf,
        } => perft(&file, depth, variant.as_deref(), end_is_leaf),
        Command::Render(a) => crate::export_cli::render(&a),
        Command::Gif(a) => crate::export_cli::gif(&a),
        Command::Edit { file } => open_editor(file, None),
    }
}

/// Opens the editor window on `file` (or on the default level) and runs it until it closes.
/// The problems of `file` are printed on stderr first, as `check` prints them (`FILE:LINE:COL:
/// message (at PATH)`), so a level opened in repair mode is also reported on the terminal.
pub fn open_editor(file: Option<PathBuf>, bench_frames: Option<u32>) -> ExitCode {
    if let Some(f) = &file
        && !crate::campaign_cli::is_campaign(f)
    {
        let problems = match load(f) {
            Ok(doc) => doc.check(),
            Err(p) => p,
        };
        print_problems(f, &problems);
    }
    tilesmith_editor::run(file, bench_frames)
}

/// Prints each problem on stderr as `FILE:LINE:COL: message (at PATH)`.
pub fn print_problems(file: &Path, problems: &[Problem]) {
    let name = file.display().to_string();
    let mut err = std::io::stderr().lock();
    for p in problems {
        let _ = writeln!(err, "{}", p.render(&name));
    }
}

/// Loads a file, or prints its problems (as `FILE:LINE:COL: …`) and gives `None`.
fn load(file: &Path) -> Result<Document, Vec<Problem>> {
    match load_file(file) {
        Ok(d) => Ok(d),
        Err(LoadError::Io(e)) => Err(vec![Problem {
            line: Some(1),
            column: Some(1),
            ..Problem::error(
                tilesmith_engine::JsonPath::root(),
                format!("cannot read the file: {e}"),
            )
        }]),
        Err(LoadError::Problems(p)) => Err(p),
    }
}

fn check(files: &[PathBuf]) -> ExitCode {
    let mut failed = false;
    let mut out = std::io::stdout().lock();
    for f in files {
        if crate::campaign_cli::is_campaign(f) {
            failed |= crate::campaign_cli::check(f, &mut out);
            continue;
        }
        let problems = match load(f) {
            Ok(doc) => doc.check(),
            Err(p) => p,
        };
        failed |= problems.iter().any(Problem::is_error);
        for p in &problems {
            let _ = writeln!(out, "{}", p.render(&f.display().to_string()));
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn load_problems(file: &Path, e: LoadError) -> Vec<Problem> {
    match e {
        LoadError::Io(e) => vec![Problem {
            line: Some(1),
            column: Some(1),
            ..Problem::error(
                tilesmith_engine::JsonPath::root(),
                format!("cannot read the file: {e}"),
            )
        }],
        LoadError::Problems(p) => {
            let _ = file;
            p
        }
    }
}

/// Prints the `--trace` events of a step on stderr when `a.trace` asks for them.
fn trace(a: &RunArgs, game: &dyn Game, input: Input, report: &StepReport) {
    if a.trace {
        let mut err = std::io::stderr().lock();
        for event in game.trace(input, report) {
            let _ = writeln!(err, "{event}");
        }
    }
}

/// Writes the game's state as a level (`--out`), atomically.
fn write_out(out: &Path, game: &dyn Game) -> Result<(), ExitCode> {
    let text = tilesmith_engine::json_text::layout(&game.to_level());
    tilesmith_engine::json_text::write_atomic(out, text.as_bytes()).map_err(|e| {
        eprintln!("{}:1:1: cannot write the state: {e}", out.display());
        ExitCode::FAILURE
    })
}

fn run_replay(file: &Path, a: &RunArgs) -> ExitCode {
    let replay = match Replay::load(file) {
        Ok(r) => r,
        Err(e) => {
            print_problems(file, &load_problems(file, e));
            return ExitCode::FAILURE;
        }
    };
    let level_name = match &replay.level {
        ReplayLevel::Path(p) => p.clone(),
        ReplayLevel::Embedded(_) => file.to_path_buf(),
    };
    let outcome = match replay.run_with(|game, input, report| trace(a, game, input, report)) {
        Ok(o) => o,
        Err(e) => {
            print_problems(&level_name, &load_problems(&level_name, e));
            return ExitCode::FAILURE;
        }
    };
    if let Some(out) = &a.out
        && let Err(code) = write_out(out, outcome.game.as_ref())
    {
        return code;
    }
    println!("{}", outcome.game.summary());
    if let Some(e) = outcome.game.error() {
        match outcome.game.error_problem() {
            Some(p) => print_problems(&level_name, &[p]),
            None => eprintln!("{}: {e}", level_name.display()),
        }
        return ExitCode::FAILURE;
    }
    if outcome.matches {
        ExitCode::SUCCESS
    } else {
        eprintln!(
            "{}:1:1: the final state differs from the recorded one (hash {:016x}, recorded {}; status {}, recorded {})",
            file.display(),
            outcome.hash,
            replay.hash.map_or("none".into(), |h| format!("{h:016x}")),
            outcome.game.outcome_word(),
            replay.status.as_deref().unwrap_or("none"),
        );
        ExitCode::FAILURE
    }
}

fn run(a: &RunArgs) -> ExitCode {
    if let Some(r) = &a.replay {
        return run_replay(r, a);
    }
    let Some(level) = &a.level else {
        eprintln!("tilesmith: run needs a LEVEL file or --replay FILE");
        return ExitCode::FAILURE;
    };
    match (a.play, crate::campaign_cli::is_campaign(level)) {
        (Some(index), true) => crate::campaign_cli::play(level, index, a),
        (None, true) => {
            eprintln!(
                "tilesmith: {} is a campaign; choose its level with --play INDEX (0 = the first)",
                level.display()
            );
            ExitCode::FAILURE
        }
        (Some(_), false) => {
            // Why it is no campaign, located: invalid JSON, too large, another kind.
            if let Err(p) = tilesmith_engine::campaign::Campaign::load(level) {
                print_problems(level, &p);
            }
            eprintln!(
                "tilesmith: --play needs a campaign file (\"kind\": \"campaign\"); {} is not one",
                level.display()
            );
            ExitCode::FAILURE
        }
        (None, false) => run_level(level, a, |_| ExitCode::SUCCESS),
    }
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
    let mut game = match doc.start(a.seed) {
        Ok(g) => g,
        Err(p) => {
            print_problems(level, &p);
            return ExitCode::FAILURE;
        }
    };
    // Where the game played is not quite the file's, say so rather than play another game.
    print_problems(level, &game.warnings());
    let trace = |game: &dyn Game, input: Input, report: &StepReport| {
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
        match play_words(game.as_mut(), &runs, ticks, trace) {
            Ok(played) => (played.inputs, Some(played.words), ticks),
            Err(e) => {
                // A word after a game that stopped on an error of its rules: the error first,
                // where it is written, since it is why the game ended.
                if let Some(stop) = game.error() {
                    print_problems(level, &[stopped_at(&doc, game.as_ref(), stop)]);
                }
                eprintln!("tilesmith: --inputs: {e}");
                return ExitCode::FAILURE;
            }
        }
    } else {
        let ticks = a.ticks.unwrap_or(inputs.len() as u64);
        tilesmith_engine::replay::play_with(game.as_mut(), &inputs, ticks, trace);
        (inputs, None, ticks)
    };
    if let Some(out) = &a.out
        && let Err(code) = write_out(out, game.as_ref())
    {
        return code;
    }
    if let Some(rec) = &a.record {
        // A variant chosen on the command line is not in the file: the level is embedded.
        let level = match &a.variant {
            Some(_) => ReplayLevel::Embedded(doc.value.clone()),
            None => ReplayLevel::Path(level.to_path_buf()),
        };
        let replay = Replay {
            level,
            seed: a.seed,
            inputs,
            words,
            ticks,
            hash: None,
            status: None,
            summary: None,
            source: None,
        }
        .recorded(game.as_ref());
        if let Err(code) = write_replay(rec, &replay) {
            return code;
        }
    }
    println!("{}", game.summary());
    match game.error() {
        Some(e) => {
            print_problems(level, &[stopped_at(&doc, game.as_ref(), e)]);
            ExitCode::FAILURE
        }
        None => done(game.as_ref()),
    }
}

/// Writes `replay` to `rec` (`--record`), atomically, its level path relative to the
/// replay's folder.
fn write_replay(rec: &Path, replay: &Replay) -> Result<(), ExitCode> {
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

/// The problem of a game that stopped on an error: where the game locates it (a board
/// game's move block in its ZRF file), else at the script's line in a `.lua` program, else
/// at the level's `script` member (a falling level) or the level as a whole.
fn stopped_at(doc: &Document, game: &dyn tilesmith_engine::Game, message: String) -> Problem {
    if let Some(mut p) = game.error_problem() {
        if p.file.is_none() && p.line.is_none() {
            tilesmith_engine::problem::locate(&doc.text, std::slice::from_mut(&mut p));
        }
        return p;
    }
    let line = game.error_line();
    // The falling kind's script; other kinds' errors are the level's as a whole.
    let at = if doc.program.is_some() || doc.value.get("script").is_some() {
        JsonPath::root().key("script")
    } else {
        JsonPath::root()
    };
    let mut p = Problem::error(at, message);
    match (&doc.program, line) {
        (Some(_), Some(l)) => {
            p.line = Some(l);
            p.column = Some(1);
        }
        _ => tilesmith_engine::problem::locate(&doc.text, std::slice::from_mut(&mut p)),
    }
    p
}

/// Sets the variant the level plays (`--variant`) through its kind
/// ([`tilesmith_engine::GameKind::with_variant`]); the level's check reports a variant its
/// rules do not have.
///
/// # Errors
/// The kind's message when the level has no variants to choose from.
fn choose_variant(doc: &mut Document, variant: Option<&str>) -> Result<(), String> {
    let Some(title) = variant else {
        return Ok(());
    };
    doc.value = doc
        .kind
        .with_variant(&doc.value, title)
        .map_err(|e| format!("--variant: {e}"))?;
    // A title the rules do not have is the command line's error, not the file's.
    let root = tilesmith_engine::JsonPath::root().key("variant");
    match doc
        .kind
        .check(&doc.value)
        .into_iter()
        .find(|p| p.is_error() && p.path == root)
    {
        Some(p) => Err(format!("--variant: {}", p.message)),
        None => Ok(()),
    }
}

/// `tilesmith perft`: `DEPTH COUNT` for each depth from 1 to `depth`.
fn perft(file: &Path, depth: u32, variant: Option<&str>, end_is_leaf: bool) -> ExitCode {
    let mut doc = match load(file) {
        Ok(d) => d,
        Err(p) => {
            print_problems(file, &p);
            return ExitCode::FAILURE;
        }
    };
    if let Err(e) = choose_variant(&mut doc, variant) {
        eprintln!("tilesmith: perft: {e}");
        return ExitCode::FAILURE;
    }
    let game = match doc.start(0) {
        Ok(g) => g,
        Err(p) => {
            print_problems(file, &p);
            return ExitCode::FAILURE;
        }
    };
    let mut out = std::io::stdout().lock();
    for d in 1..=depth {
        let n = match game.perft(d, end_is_leaf) {
            Some(Ok(n)) => n,
            Some(Err(mut p)) => {
                // At the move block in the rules file, like `run`'s stop on the same failure.
                if p.file.is_none() && p.line.is_none() {
                    tilesmith_engine::problem::locate(&doc.text, std::slice::from_mut(&mut p));
                }
                print_problems(file, &[p]);
                return ExitCode::FAILURE;
            }
            None => {
                eprintln!(
                    "tilesmith: perft: {} levels have no list of legal moves to count",
                    game.kind().name()
                );
                return ExitCode::FAILURE;
            }
        };
        if writeln!(out, "{d} {n}").and_then(|_| out.flush()).is_err() {
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

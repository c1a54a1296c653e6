//! The headless commands of `tilesmith`: `run` steps a level and prints a JSON summary,
//! `check` validates level files, `perft` counts move sequences of a board game, `solve`
//! solves a level ([`solve`]), `playouts` and `match` play random and whole games
//! ([`versus`]). All print
//! `FILE:LINE:COL: message (at PATH)` for bad input and exit with code 1, never panicking.
//! A `.zrf` file (a board game's rules) is a level of its own; its problems are printed at
//! the ZRF file's lines. A campaign file (`"kind": "campaign"`) is checked with its levels,
//! and `run CAMPAIGN --play INDEX` plays one of its levels (see [`campaign`]).
//!
//! Layout: this dispatcher imports one module per command group ([`run`], [`check`],
//! [`perft`], [`export`], [`campaign`], [`edit`], [`solve`], [`versus`]); what several of them share lies below
//! them ([`play`]: `run`'s playing of a level; [`common`]: loading and printing problems), and
//! nothing below imports what is above it.

mod campaign;
mod check;
mod common;
mod edit;
mod export;
mod perft;
mod play;
mod run;
mod solve;
mod solve_campaign;
mod solve_plays;
mod versus;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use tilesmith_editor::doc::registry::Kinds;
use tilesmith_editor::doc::ui::KindUis;

pub use edit::open_editor;
pub use play::RunArgs;

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
        /// The time allowed for all depths, in seconds (more than 0, at most 1 000 000):
        /// when it runs out, the depths completed stay printed and the exit code is 3.
        #[arg(long, default_value_t = 60.0, value_parser = perft_time)]
        time: f64,
    },
    /// Draw a level as a PNG image, headless: width × SCALE by height × SCALE pixels, each
    /// cell as the editor's canvas draws it.
    Render(export::RenderArgs),
    /// Play a level (or a replay) headlessly and write an animated GIF, one frame per step.
    Gif(export::GifArgs),
    /// Solve a level (issue #29): a proved shortest solution of a one-player level
    /// (breadth-first search), or the value of a two-player position for the player to move
    /// within `--max-steps` plies (alpha-beta with a transposition table) and its principal
    /// variation. `--all` counts the shortest solutions, `--intended` (or the level's own
    /// NAME.intended.replay.json) looks for a shortcut, `--from` solves from where a replay
    /// stopped and `--witness` finds its first dead step. One JSON line; exit 0 solved
    /// (value proved), 1 an error, 2 unsolvable, 3 unknown (a budget ran out).
    Solve(solve::SolveArgs),
    /// Play random playouts from a level's start and print
    /// `{"playouts","plies","seconds","per_second"}`.
    Playouts(versus::PlayoutArgs),
    /// Play whole games of a two-player level between two players (`random`, `flat-mc:K`,
    /// `ai:SECONDS`), swapping colours every other game, and print
    /// `{"games","wins":[a,b],"draws","seconds"}`.
    Match(versus::MatchArgs),
    /// Open a level in the editor.
    Edit {
        /// The level file.
        file: Option<PathBuf>,
    },
}

/// Runs a CLI command and gives the process exit code; `lists` are the kinds the editor
/// draws (`render`, `gif`) and their UIs, built at the top (`main.rs`).
pub fn run_command(cmd: Command, lists: (Kinds, KindUis)) -> ExitCode {
    quiet_on_closed_pipe();
    match cmd {
        Command::Run(a) => run::run(&a),
        Command::Check { files } => check::check(&files),
        Command::Perft {
            file,
            depth,
            variant,
            end_is_leaf,
            time,
        } => perft::perft(&file, depth, variant.as_deref(), end_is_leaf, time),
        Command::Render(a) => export::render(&a, lists),
        Command::Gif(a) => export::gif(&a, lists),
        Command::Solve(a) if tilesmith_engine::campaign::is_campaign_file(&a.level) => {
            solve_campaign::solve_campaign(&a)
        }
        Command::Solve(a) => solve::solve(&a),
        Command::Playouts(a) => versus::playouts(&a),
        Command::Match(a) => versus::matches(&a),
        Command::Edit { file } => open_editor(file, None),
    }
}

/// Reads `perft --time`: seconds, more than 0 and at most 1 000 000 (about 11 days).
fn perft_time(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(t) if t > 0.0 && t <= 1_000_000.0 => Ok(t),
        Ok(t) => Err(format!(
            "{t} is not a time above 0 and at most 1000000 seconds"
        )),
        Err(e) => Err(format!("{s:?} is not a number of seconds: {e}")),
    }
}

/// A command whose reader went away (`tilesmith run … --trace | head`) stops quietly with exit
/// 0, as `grep` and `rg` do, instead of panicking with a backtrace: `println!` panics with
/// "failed printing to stdout: Broken pipe", and Rust ignores SIGPIPE. Any other panic goes to
/// the default hook.
fn quiet_on_closed_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let p = info.payload();
        let msg = p
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| p.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if msg.starts_with("failed printing to stdout") && msg.contains("Broken pipe") {
            std::process::exit(0);
        }
        default(info);
    }));
}

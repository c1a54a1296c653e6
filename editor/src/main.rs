//! `tilesmith`: the Tilesmith editor (GUI) and its headless CLI (`run`, `check`).
//!
//! A thin main: clap parses the arguments, then either a CLI command runs or the editor opens.
//! The lists of kinds and of their UIs are built here, at the top, and handed to the CLI.

mod cli;

use std::process::ExitCode;

use clap::Parser as _;

fn main() -> ExitCode {
    let args = cli::Args::parse();
    match args.command {
        Some(cmd) => cli::run_command(
            cmd,
            (
                tilesmith_editor::kinds::registry(),
                tilesmith_editor::kinds::uis(),
            ),
        ),
        None => match (args.headless_edits, args.file) {
            (Some(n), Some(file)) => tilesmith_editor::app::TilesmithApp::run_headless(
                file,
                n,
                std::time::Duration::from_millis(200),
            ),
            (_, file) => cli::open_editor(file, args.bench_frames),
        },
    }
}

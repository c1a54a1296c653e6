//! `tilesmith run`: a level (or a campaign's level with `--play`), or a replay with
//! `--replay`.

use std::path::Path;
use std::process::ExitCode;

use tilesmith_engine::replay::{Replay, ReplayLevel};
use tilesmith_engine::{Game, Input, StepReport};

use super::common::{load_problems, print_problems};
use super::play::{RunArgs, run_level, trace, write_out};

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
    let mut traced =
        |game: &dyn Game, input: Input, report: &StepReport| trace(a, game, input, report);
    let outcome = match replay.run_with(super::play::on_step(a, &mut traced)) {
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
        // Where the game places it in its rules (a file, or a member of the level); an error
        // at a line of the level's own source (no file, a column: a falling script's line)
        // is said without a place, since the replay's level is not read from that source.
        match outcome.game.error_problem() {
            Some(p) if p.file.is_some() || p.column.is_none() => {
                print_problems(&level_name, &[p]);
            }
            _ => eprintln!("{}: {e}", level_name.display()),
        }
        return ExitCode::FAILURE;
    }
    match outcome.mismatch(&replay) {
        None => ExitCode::SUCCESS,
        Some(m) => {
            eprintln!("{}:1:1: {m}", file.display());
            ExitCode::FAILURE
        }
    }
}

/// `tilesmith run`.
pub(super) fn run(a: &RunArgs) -> ExitCode {
    if let Some(r) = &a.replay {
        return run_replay(r, a);
    }
    let Some(level) = &a.level else {
        eprintln!("tilesmith: run needs a LEVEL file or --replay FILE");
        return ExitCode::FAILURE;
    };
    match (a.play, tilesmith_engine::campaign::is_campaign_file(level)) {
        (Some(index), true) => super::campaign::play(level, index, a),
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

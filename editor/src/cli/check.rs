//! `tilesmith check`: level files, campaigns and replays, one line per problem.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use tilesmith_engine::Problem;

use tilesmith_engine::replay::{Replay, ReplayLevel};

use super::common::{load, load_problems};

/// `tilesmith check`: prints the problems of each file, at most
/// [`tilesmith_engine::problem::MAX_PROBLEMS`] and then `FILE: … and N more problems`; exit 1
/// when any is an error. A replay (`"tilesmith": "replay"`, such as a puzzle's
/// `NAME.intended.replay.json` beside it) is played and checked against what it recorded, as
/// `run --replay` does, so that `check levels/pasta/*.json` checks the levels and their
/// intended solutions.
pub(super) fn check(files: &[PathBuf]) -> ExitCode {
    let mut failed = false;
    let mut out = std::io::stdout().lock();
    for f in files {
        if tilesmith_engine::campaign::is_campaign_file(f) {
            failed |= super::campaign::check(f, &mut out);
            continue;
        }
        if tilesmith_engine::replay::is_replay_file(f) {
            let lines = replay_problems(f);
            failed |= !lines.is_empty();
            for l in lines {
                let _ = writeln!(out, "{l}");
            }
            continue;
        }
        let problems = tilesmith_engine::problem::cap(match load(f) {
            Ok(doc) => doc.check(),
            Err(p) => p,
        });
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

/// The problems of replay `f`, rendered: its own (file, version, inputs), its level's, a
/// game error while playing it, or a final state other than the recorded one.
fn replay_problems(f: &Path) -> Vec<String> {
    let render = |file: &Path, p: Vec<Problem>| -> Vec<String> {
        let name = file.display().to_string();
        tilesmith_engine::problem::cap(p)
            .iter()
            .map(|p| p.render(&name))
            .collect()
    };
    let replay = match Replay::load(f) {
        Ok(r) => r,
        Err(e) => return render(f, load_problems(f, e)),
    };
    let level = match &replay.level {
        ReplayLevel::Path(p) => p.clone(),
        ReplayLevel::Embedded(_) => f.to_path_buf(),
    };
    let outcome = match replay.run() {
        Ok(o) => o,
        Err(e) => return render(&level, load_problems(&level, e)),
    };
    if let Some(e) = outcome.game.error() {
        return vec![format!("{}: replay stopped: {e}", f.display())];
    }
    outcome
        .mismatch(&replay)
        .map(|m| format!("{}:1:1: {m}", f.display()))
        .into_iter()
        .collect()
}

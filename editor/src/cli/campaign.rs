//! The campaign side of the headless CLI (docs/campaign.md): `tilesmith check CAMPAIGN`
//! checks the campaign and every level in it; `tilesmith run CAMPAIGN --play INDEX` plays
//! an unlocked level and records its best points in the progress file, atomically.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use tilesmith_engine::campaign::{self, Campaign, Progress, check_file, default_progress_path};
use tilesmith_engine::problem::quote_at_most;

use super::common::print_problems;
use super::play::{RunArgs, run_level};

/// Checks the campaign `file` and its levels ([`campaign::check_file`]), one line per
/// problem on `out`; true when any is an error.
pub fn check(file: &Path, out: &mut impl Write) -> bool {
    let problems = check_file(file);
    for p in &problems {
        let _ = writeln!(out, "{}", p.render());
    }
    problems.iter().any(|p| p.problem.is_error())
}

/// `tilesmith run CAMPAIGN --play INDEX`: plays entry `index` when it is unlocked under the
/// progress file (`--progress`, default beside the campaign), prints the level's summary
/// line, and records the best points there. Exit 1 for a bad campaign or progress file, an
/// index past the end, a locked entry (saying what it needs and has), a level that cannot
/// be played, or progress that cannot be written.
pub fn play(file: &Path, index: usize, a: &RunArgs) -> ExitCode {
    let c = match Campaign::load(file) {
        Ok(c) => c,
        Err(p) => {
            print_problems(file, &p);
            return ExitCode::FAILURE;
        }
    };
    let progress_file = a
        .progress
        .clone()
        .unwrap_or_else(|| default_progress_path(file));
    let progress = match Progress::load(&progress_file) {
        Ok(p) => p,
        Err(p) => {
            print_problems(&progress_file, &p);
            return ExitCode::FAILURE;
        }
    };
    let Some(entry) = c.entries.get(index) else {
        eprintln!(
            "tilesmith: --play {index}: {} has {} level(s){}",
            file.display(),
            c.entries.len(),
            match c.entries.len() {
                0 => String::new(),
                n => format!(" (0 to {})", n - 1),
            }
        );
        return ExitCode::FAILURE;
    };
    let name = quote_at_most(&entry.path, 240);
    // Recorded points count at most what each level can earn.
    let caps = c.level_max_points(file);
    let above = c.points_above_capped(index, &progress, &caps);
    if above < u64::from(entry.unlock) {
        eprintln!(
            "tilesmith: level {index} ({name}) of {} is locked: it needs {} point(s) from the \
             levels above it, which have {} (progress: {})",
            file.display(),
            entry.unlock,
            above,
            progress_file.display()
        );
        return ExitCode::FAILURE;
    }
    let level = campaign::resolve_entry(file, &entry.path);
    run_level(&level, a, |game| {
        let mut progress = progress;
        let earned = game.points_earned();
        // Results written meanwhile (the editor, another run) are kept: the file is read
        // again and merged, best per level, before it is written.
        if let Ok(now) = Progress::load(&progress_file) {
            progress.merge(&now);
        }
        if progress.record_game(&entry.path, game)
            && let Err(e) = progress.save(&progress_file)
        {
            eprintln!(
                "{}:1:1: cannot write the progress: {e}",
                progress_file.display()
            );
            return ExitCode::FAILURE;
        }
        eprintln!(
            "tilesmith: level {index} ({name}): {earned} point(s), best {}; {} point(s) in all",
            progress.best_points(&entry.path),
            c.points_above_capped(c.entries.len(), &progress, &caps)
        );
        ExitCode::SUCCESS
    })
}

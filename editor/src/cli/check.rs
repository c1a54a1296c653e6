//! `tilesmith check`: level files and campaigns, one line per problem.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use tilesmith_engine::Problem;

use super::common::load;

/// `tilesmith check`: prints the problems of each file, at most
/// [`tilesmith_engine::problem::MAX_PROBLEMS`] and then `FILE: … and N more problems`; exit 1
/// when any is an error.
pub(super) fn check(files: &[PathBuf]) -> ExitCode {
    let mut failed = false;
    let mut out = std::io::stdout().lock();
    for f in files {
        if tilesmith_engine::campaign::is_campaign_file(f) {
            failed |= super::campaign::check(f, &mut out);
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

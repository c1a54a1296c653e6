//! `tilesmith edit` (and `tilesmith` with no command): the editor window.

use std::path::PathBuf;
use std::process::ExitCode;

use super::common::{load, print_problems};

/// Opens the editor window on `file` (or on the default level) and runs it until it closes.
/// The problems of `file` are printed on stderr first, as `check` prints them (`FILE:LINE:COL:
/// message (at PATH)`), so a level opened in repair mode is also reported on the terminal.
pub fn open_editor(file: Option<PathBuf>, bench_frames: Option<u32>) -> ExitCode {
    if let Some(f) = &file
        && !tilesmith_engine::campaign::is_campaign_file(f)
    {
        let problems = match load(f) {
            Ok(doc) => doc.check(),
            Err(p) => p,
        };
        print_problems(f, &problems);
    }
    tilesmith_editor::run(file, bench_frames)
}

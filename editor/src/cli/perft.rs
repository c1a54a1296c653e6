//! `tilesmith perft`: counting the move sequences of a board game.

use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;

use super::common::{choose_variant, load, print_problems};

/// `tilesmith perft`: `DEPTH COUNT` for each depth from 1 to `depth`.
pub(super) fn perft(file: &Path, depth: u32, variant: Option<&str>, end_is_leaf: bool) -> ExitCode {
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

//! `tilesmith perft`: counting the move sequences of a board game.

use std::io::Write as _;
use std::path::Path;
use std::process::ExitCode;
use std::sync::mpsc::{RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use tilesmith_engine::Document;

use super::common::{choose_variant, load, print_problems};

/// What one depth of a perft run gave: its count, or the reason it stopped.
enum Depth {
    /// The depth and its number of move sequences.
    Count(u32, u64),
    /// Generation failed: the problem, located.
    Failed(tilesmith_engine::Problem),
    /// The kind has no list of legal moves to count.
    NoMoves(&'static str),
}

/// `tilesmith perft`: `DEPTH COUNT` for each depth from 1 to `depth`, each printed as soon
/// as it is counted, within `time` seconds in all (issue #30, "Bounded commands"). The count
/// runs on a worker thread; when the time runs out the depths completed have been printed,
/// a message names the depth that was under way, and the exit code is 3 (the process ends,
/// and the worker with it). Exit 1 for a bad file or a failed generation.
pub(super) fn perft(
    file: &Path,
    depth: u32,
    variant: Option<&str>,
    end_is_leaf: bool,
    time: f64,
) -> ExitCode {
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
    if let Err(p) = doc.start(0) {
        print_problems(file, &p);
        return ExitCode::FAILURE;
    }
    let (tx, rx) = std::sync::mpsc::channel();
    let worker = doc.clone();
    let spawned = std::thread::Builder::new()
        .name("tilesmith-perft".into())
        .spawn(move || count(&worker, depth, end_is_leaf, &tx));
    if let Err(e) = spawned {
        eprintln!("tilesmith: perft: cannot start a worker thread: {e}");
        return ExitCode::FAILURE;
    }
    let deadline = Instant::now() + Duration::from_secs_f64(time);
    let mut out = std::io::stdout().lock();
    for d in 1..=depth {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(Depth::Count(d, n)) => {
                if writeln!(out, "{d} {n}").and_then(|_| out.flush()).is_err() {
                    return ExitCode::FAILURE;
                }
            }
            Ok(Depth::Failed(p)) => {
                print_problems(file, &[p]);
                return ExitCode::FAILURE;
            }
            Ok(Depth::NoMoves(kind)) => {
                eprintln!("tilesmith: perft: {kind} levels have no list of legal moves to count");
                return ExitCode::FAILURE;
            }
            Err(RecvTimeoutError::Timeout) => {
                let done = match d - 1 {
                    0 => "no depth is complete".to_string(),
                    1 => "depth 1 is complete".to_string(),
                    n => format!("depths 1 to {n} are complete"),
                };
                eprintln!(
                    "tilesmith: perft: the time limit of {time} s ran out while counting depth \
                     {d}; {done} (--time sets the limit)"
                );
                return ExitCode::from(3);
            }
            Err(RecvTimeoutError::Disconnected) => {
                eprintln!("tilesmith: perft: the count stopped at depth {d} (a bug)");
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}

/// Counts depths 1 to `depth` of `doc`'s game in turn, sending each as it is done; stops at
/// the first failure, or when the receiver is gone.
fn count(doc: &Document, depth: u32, end_is_leaf: bool, tx: &Sender<Depth>) {
    let Ok(game) = doc.start(0) else {
        return;
    };
    for d in 1..=depth {
        let sent = match game.perft(d, end_is_leaf) {
            Some(Ok(n)) => tx.send(Depth::Count(d, n)),
            Some(Err(mut p)) => {
                // At the move block in the rules file, like `run`'s stop on the same failure.
                if p.file.is_none() && p.line.is_none() {
                    tilesmith_engine::problem::locate(&doc.text, std::slice::from_mut(&mut p));
                }
                let _ = tx.send(Depth::Failed(p));
                return;
            }
            None => {
                let _ = tx.send(Depth::NoMoves(game.kind().name()));
                return;
            }
        };
        if sent.is_err() {
            return;
        }
    }
}

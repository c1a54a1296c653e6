//! The entry points fuzzed for issue #15: each takes arbitrary bytes, feeds them to one loader
//! the way the CLI and the editor do, and returns normally for every input. A panic, a hang
//! or an allocation failure is the bug a fuzzer looks for; a located problem is the correct
//! answer to bad input.
//!
//! The same functions run under libFuzzer (`tests/fuzz/`, cargo-fuzz, nightly) and as
//! proptest cases on stable (`tests/tests/fuzz_loaders.rs`), from the seed corpus in
//! `tests/fuzz/seeds/<target>/`.

use std::path::Path;

use tilesmith_engine::campaign::Campaign;
use tilesmith_engine::document::{load_bytes, load_kind_text};
use tilesmith_engine::replay::Replay;
use tilesmith_engine::{Document, Problem};

/// The most steps a fuzzed game is played after loading.
pub const FUZZ_STEPS: usize = 8;

/// A fuzz target's entry point: it must return normally for every input.
pub type Target = fn(&[u8]);

/// The fuzz targets: the name of each (its folder under `tests/fuzz/seeds/` and its
/// `tests/fuzz/fuzz_targets/*.rs`) and its entry point.
pub const TARGETS: &[(&str, Target)] = &[
    ("level", level),
    ("campaign", campaign),
    ("replay", replay),
    ("zrf", zrf),
    ("fpgdl", fpgdl),
];

/// Every problem must have a place: a line and column (or a file of its own). The last line
/// of a capped report (`… and N more problems`, [`Problem::more_count`]) counts the problems
/// it leaves out and has none.
fn assert_located(problems: &[Problem]) {
    for p in problems {
        assert!(
            p.line.is_some() || p.file.is_some() || p.more_count().is_some(),
            "problem without a place: {p:?}"
        );
    }
}

/// Checks a loaded document, and plays up to [`FUZZ_STEPS`] steps with inputs picked by
/// `data`'s bytes when it has no errors.
fn exercise(doc: &Document, data: &[u8]) {
    let problems = doc.check();
    assert_located(&problems);
    if problems.iter().any(Problem::is_error) {
        return;
    }
    let Ok(mut game) = doc.start(data.len() as u64) else {
        return;
    };
    let choices = game.legal_inputs();
    let words = doc.kind.inputs();
    for (i, b) in data.iter().rev().take(FUZZ_STEPS).enumerate() {
        let input = if choices.is_empty() {
            if words.is_empty() {
                break;
            }
            words[usize::from(*b) % words.len()].input
        } else {
            choices[(usize::from(*b) + i) % choices.len()].input
        };
        let _ = game.step(input);
    }
    let _ = game.status();
}

/// A level of any kind (boulder, baba, falling, board), read as `load_bytes` reads a `.json`
/// file: check, then start and play a few steps.
pub fn level(data: &[u8]) {
    match load_bytes(data) {
        Ok(doc) => exercise(&doc, data),
        Err(p) => assert_located(&p),
    }
}

/// A campaign file.
pub fn campaign(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Err(p) = Campaign::parse(text) {
        assert_located(&p);
    }
}

/// A replay file (its level path resolved in a folder that does not exist, so only the
/// replay's own members are read).
pub fn replay(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Err(p) = Replay::from_text(text, Path::new("/nonexistent-tilesmith-fuzz")) {
        assert_located(&p);
    }
}

/// A ZRF rules file opened as a board document.
pub fn zrf(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match load_kind_text(text, Path::new("fuzz.zrf")) {
        Ok(doc) => exercise(&doc, data),
        Err(p) => assert_located(&p),
    }
}

/// An FPGDL program (a falling-blocks level written in Lua).
pub fn fpgdl(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match load_kind_text(text, Path::new("fuzz.lua")) {
        Ok(doc) => exercise(&doc, data),
        Err(p) => assert_located(&p),
    }
}

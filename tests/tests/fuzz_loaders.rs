//! The fuzz targets of `tests/fuzz/` (issue #15) as proptest cases on stable: arbitrary bytes
//! and mutated seeds from `tests/fuzz/seeds/<target>/` go to the same entry points
//! (`tilesmith_tests::fuzz`), which must return normally (no panic; problems located).
//!
//! CI runs a few hundred cases per target. For a longer run set `TILESMITH_FUZZ_CASES`
//! (cases per target and per generator), e.g. `TILESMITH_FUZZ_CASES=20000 cargo test
//! --release -p tilesmith-tests --test fuzz_loaders -- --nocapture`; each test then prints
//! how many inputs it tried and the slowest one.

#![allow(clippy::unwrap_used)]

use std::cell::Cell;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use tilesmith_tests::fuzz::{TARGETS, level};

/// Cases per target and per generator (`TILESMITH_FUZZ_CASES`, default `default`).
fn cases(default: u32) -> u32 {
    std::env::var("TILESMITH_FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// The seed files of `target`: `tests/fuzz/seeds/<target>/`, except the FPGDL programs, whose
/// seeds are the paper's listings the falling tests already keep in `tests/data/fpgdl/`.
fn seeds(target: &str) -> Vec<Vec<u8>> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = if target == "fpgdl" {
        root.join("data").join("fpgdl")
    } else {
        root.join("fuzz").join("seeds").join(target)
    };
    let mut out: Vec<Vec<u8>> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| std::fs::read(e.unwrap().path()).unwrap())
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no seeds in {}", dir.display());
    out
}

/// One edit of a seed: at a fraction of its length, delete, duplicate or overwrite a span, or
/// insert a fragment that loaders find hard (deep nesting, huge numbers, odd strings).
#[derive(Clone, Debug)]
enum Edit {
    Delete(f64, usize),
    Duplicate(f64, usize),
    Flip(f64, u8),
    Insert(f64, &'static str),
}

const FRAGMENTS: &[&str] = &[
    "[",
    "]",
    "{",
    "}",
    ",",
    ":",
    "\"",
    "\\",
    "-1",
    "0",
    "1e999",
    "18446744073709551616",
    "-9223372036854775809",
    "null",
    "true",
    "\"\u{0}\"",
    "\"\u{feff}\"",
    "[[[[[[[[[[[[",
    "\"width\": 100000",
    "\"height\": 0",
    "\"kind\": \"baba\"",
    "\"kind\": \"falling\"",
    "\"kind\": \"board\"",
    "\"kind\": \"campaign\"",
    "\"me\"",
    "\"rules\"",
    "while true do end",
    "(define",
    "(game",
    "(board",
    ")",
    "for i=1,1e9 do end",
    "\u{1F600}",
    "\n",
    "\t",
];

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (0.0..1.0f64, 1..64usize).prop_map(|(a, n)| Edit::Delete(a, n)),
        (0.0..1.0f64, 1..256usize).prop_map(|(a, n)| Edit::Duplicate(a, n)),
        (0.0..1.0f64, any::<u8>()).prop_map(|(a, b)| Edit::Flip(a, b)),
        (0.0..1.0f64, proptest::sample::select(FRAGMENTS)).prop_map(|(a, s)| Edit::Insert(a, s)),
    ]
}

fn apply(seed: &[u8], edits: &[Edit]) -> Vec<u8> {
    let mut v = seed.to_vec();
    for e in edits {
        let at = |a: f64, len: usize| ((a * len as f64) as usize).min(len);
        match *e {
            Edit::Delete(a, n) => {
                let i = at(a, v.len());
                let j = (i + n).min(v.len());
                v.drain(i..j);
            }
            Edit::Duplicate(a, n) => {
                let i = at(a, v.len());
                let j = (i + n).min(v.len());
                let span = v[i..j].to_vec();
                v.splice(j..j, span);
            }
            Edit::Flip(a, b) => {
                if !v.is_empty() {
                    let i = at(a, v.len() - 1);
                    v[i] = b;
                }
            }
            Edit::Insert(a, s) => {
                let i = at(a, v.len());
                v.splice(i..i, s.bytes());
            }
        }
    }
    v
}

/// Runs `f` on `n` inputs from `strategy`; fails on the first panic (proptest shrinks it)
/// and prints the count and the slowest input's time.
fn run<S: Strategy<Value = Vec<u8>>>(name: &str, n: u32, strategy: S, f: fn(&[u8])) {
    let mut runner = TestRunner::new(Config {
        cases: n,
        failure_persistence: None,
        ..Config::default()
    });
    let tried = Cell::new(0u32);
    let slowest = Cell::new(Duration::ZERO);
    runner
        .run(&strategy, |data| {
            let t = Instant::now();
            f(&data);
            slowest.set(slowest.get().max(t.elapsed()));
            tried.set(tried.get() + 1);
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    println!(
        "{name}: {} inputs, 0 panics, slowest {:?}",
        tried.get(),
        slowest.get()
    );
}

#[test]
fn arbitrary_bytes_are_answered_without_a_panic() {
    for &(name, f) in TARGETS {
        let strategy = proptest::collection::vec(any::<u8>(), 0..512);
        run(&format!("{name} (bytes)"), cases(200), strategy, f);
    }
}

#[test]
fn mutated_seeds_are_answered_without_a_panic() {
    for &(name, f) in TARGETS {
        let seeds = seeds(name);
        let strategy = (
            proptest::sample::select(seeds),
            proptest::collection::vec(edit(), 1..6),
        )
            .prop_map(|(s, e)| apply(&s, &e));
        run(&format!("{name} (mutated seeds)"), cases(200), strategy, f);
    }
}

#[test]
fn the_seeds_themselves_load() {
    // The seeds are real files of the project; each must pass through its target, and the
    // level seeds must load without errors (so mutations start from valid input).
    for &(name, f) in TARGETS {
        for s in seeds(name) {
            f(&s);
        }
    }
    // Inputs that once failed a target (a looping `<close>` handler; a report of more than
    // 100 problems, whose count line has no place), kept as regression cases.
    for s in seeds("level-hostile") {
        level(&s);
    }
    for s in seeds("level") {
        let doc = tilesmith_engine::document::load_bytes(&s).unwrap();
        let errors: Vec<_> = doc
            .check()
            .into_iter()
            .filter(tilesmith_engine::Problem::is_error)
            .collect();
        assert!(errors.is_empty(), "{errors:?}");
    }
}

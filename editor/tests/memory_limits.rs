//! Loading within the documented limits cannot exhaust memory (issue #15 D2, D6).
//!
//! Each case writes a worst-case file and runs the real `tilesmith` binary on it in a child
//! process whose address space is capped with `ulimit -v` (through `sh -c`). The run must end
//! with exit 0 (the file is fine) or exit 1 with a located message (`FILE:LINE:COL: …`), never
//! be killed or abort with an allocation failure. The cap is 4 GiB for the worst cases named in
//! the issue, the figure the issue measured them against.

#![cfg(unix)]
#![allow(clippy::unwrap_used)]

use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, Output};

/// Address-space cap of the child, in KiB (4 GiB).
const CAP_KIB: u64 = 4 * 1024 * 1024;

/// Runs `tilesmith ARGS…` under the address-space cap.
fn capped(args: &[&str]) -> Output {
    let mut script = format!("ulimit -v {CAP_KIB} && exec \"$0\"");
    for i in 0..args.len() {
        let _ = write!(script, " \"${}\"", i + 1);
    }
    Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_tilesmith"))
        .args(args)
        .output()
        .unwrap()
}

/// Exit 0, or exit 1 with a located problem of `file`; never a signal or an abort.
fn clean(out: &Output, file: &Path) -> String {
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let code = out.status.code();
    assert!(
        matches!(code, Some(0 | 1)),
        "status {:?} (killed or aborted): {}",
        out.status,
        &text[..text.len().min(2000)]
    );
    if code == Some(1) {
        let name = file.display().to_string();
        assert!(
            text.lines().any(|l| l.starts_with(&format!("{name}:"))),
            "exit 1 without a located problem: {}",
            &text[..text.len().min(2000)]
        );
    }
    text
}

/// D2: 70 000 arrays nested 120 deep (16 MB, 8.4 million arrays). Loading built serde_json's
/// tree (2.5 GB) and then a second, position-keeping tree to place the problem: over 4 GB.
/// Now the text is refused before any tree is built: it holds more JSON values than the
/// documented limit.
#[test]
fn deeply_nested_arrays_are_refused_within_the_cap() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("d2.json");
    let one = format!("{}{}", "[".repeat(120), "]".repeat(120));
    let mut text = String::with_capacity(70_000 * 241 + 2);
    text.push('[');
    for i in 0..70_000 {
        if i > 0 {
            text.push(',');
        }
        text.push_str(&one);
    }
    text.push(']');
    std::fs::write(&file, &text).unwrap();
    let out = capped(&["check", file.to_str().unwrap()]);
    let msg = clean(&out, &file);
    assert_eq!(out.status.code(), Some(1), "{msg}");
    assert!(msg.contains("JSON values"), "{msg}");
    assert!(msg.contains(":1:"), "{msg}");
}

/// D2, the other way round: more values than the documented limit
/// (`MAX_JSON_VALUES`) are refused before any tree is built, at the line and column of the
/// first value over the limit.
#[test]
fn too_many_values_are_refused_before_reading() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("many.json");
    let n = tilesmith_engine::document::MAX_JSON_VALUES + 10;
    let mut text = String::with_capacity(3 * n + 16);
    text.push_str("{\"map\": [\n");
    for i in 0..n - 3 {
        text.push_str(if i > 0 { ",[]" } else { "[]" });
    }
    text.push_str("\n]}");
    std::fs::write(&file, &text).unwrap();
    let out = capped(&["check", file.to_str().unwrap()]);
    let msg = clean(&out, &file);
    assert_eq!(out.status.code(), Some(1), "{msg}");
    assert!(msg.contains("JSON values"), "{msg}");
    // `{` and `"map"` come first, then the arrays on line 2.
    assert!(msg.contains(":2:"), "{msg}");
}

/// Issue #30's review: 1.14 million small objects (`{"Man": ["a1"]}`, about 1 kB each in
/// serde_json's tree) in a 30 MB board level took 1.2 GB before the loader saw them. Objects
/// and arrays now count as what they cost (`OBJECT_WEIGHT`, `ARRAY_WEIGHT`), so as many
/// objects as `MAX_JSON_VALUES / OBJECT_WEIGHT`, plus a few, are refused before any tree is
/// built, while the same number of plain strings is read.
#[test]
fn objects_count_as_what_they_cost() {
    use tilesmith_engine::document::{MAX_JSON_VALUES, OBJECT_WEIGHT};
    let dir = tempfile::tempdir().unwrap();
    let n = MAX_JSON_VALUES / OBJECT_WEIGHT + 10;
    let body = |item: &str| {
        let mut t = String::from("{\"kind\": \"board\", \"notes\": [\n");
        for i in 0..n {
            if i > 0 {
                t.push(',');
            }
            t.push_str(item);
        }
        t.push_str("\n]}");
        t
    };
    let file = dir.path().join("objects.json");
    std::fs::write(&file, body("{\"M\":1}")).unwrap();
    let out = capped(&["check", file.to_str().unwrap()]);
    let msg = clean(&out, &file);
    assert_eq!(out.status.code(), Some(1), "{msg}");
    assert!(msg.contains("JSON values"), "{msg}");
    assert!(msg.contains(":2:"), "{msg}");
    let file = dir.path().join("strings.json");
    std::fs::write(&file, body("\"M\"")).unwrap();
    let out = capped(&["check", file.to_str().unwrap()]);
    let msg = clean(&out, &file);
    assert!(!msg.contains("JSON values"), "{msg}");
}

/// A boulder level of `n` × `n` fields: a wall around mud with stones and gems, `me` and the
/// exit in the bottom row inside.
fn square_level(n: usize) -> String {
    let mut s = format!(
        "{{\"kind\":\"boulder\",\"name\":\"big\",\"width\":{n},\"height\":{n},\
         \"gems\":[0,0,0],\"ticks\":[100,50,25],\"map\":[\n"
    );
    for y in 0..n {
        s.push('[');
        for x in 0..n {
            let t = if x == 0 || y == 0 || x == n - 1 || y == n - 1 {
                "wall"
            } else if y == n - 2 && x == 1 {
                "me"
            } else if y == n - 2 && x == n - 2 {
                "exit"
            } else if (x * 7 + y * 3) % 11 == 0 {
                "stone"
            } else {
                "mud"
            };
            if x > 0 {
                s.push(',');
            }
            let _ = write!(s, "\"{t}\"");
        }
        s.push_str(if y + 1 < n { "],\n" } else { "]\n" });
    }
    s.push_str("]}\n");
    s
}

/// D6: a 3000 × 3000 boulder level (9 million fields, 56 MB) took 1.4 GB to check and 2.8 GB
/// for a tick. It is over the documented limits now (4 194 304 fields, 6 291 456 JSON values)
/// and refused before its tree is built.
#[test]
fn a_3000_square_boulder_level_is_refused_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("d6.json");
    std::fs::write(&file, square_level(3000)).unwrap();
    for args in [
        vec!["check", file.to_str().unwrap()],
        vec!["run", file.to_str().unwrap(), "--ticks", "1"],
    ] {
        let out = capped(&args);
        let msg = clean(&out, &file);
        assert_eq!(out.status.code(), Some(1), "{msg}");
        assert!(msg.contains("JSON values"), "{msg}");
    }
}

/// The largest boulder map within the limits, 2048 × 2048, checks and plays a tick under the
/// cap (measured: 0.7 GB for `check`, 1.1 GB for `run --ticks 1`). Slow in a debug build
/// (about 35 s), so run it on purpose: `cargo test --release -p tilesmith --test
/// memory_limits -- --ignored`.
#[test]
#[ignore = "slow in debug builds; run with --release -- --ignored"]
fn the_largest_boulder_level_checks_and_ticks_within_the_cap() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("max.json");
    std::fs::write(&file, square_level(2048)).unwrap();
    for args in [
        vec!["check", file.to_str().unwrap()],
        vec!["run", file.to_str().unwrap(), "--ticks", "1"],
    ] {
        let out = capped(&args);
        let msg = clean(&out, &file);
        assert_eq!(out.status.code(), Some(0), "{msg}");
    }
}

//! "Did you mean" hints of `tilesmith check` for the falling and board kinds (docs/editor.md,
//! "Repair mode"): a misspelt name gets the nearest name the level or its rules define, in a
//! located message that names the file; a name near nothing gets only the list.

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

use std::path::{Path, PathBuf};

use serde_json::Value;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn shipped(rel: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(workspace().join(rel)).unwrap()).unwrap()
}

/// `tilesmith check FILE`: its exit code and the lines it printed.
fn check(file: &Path) -> (Option<i32>, Vec<String>) {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_tilesmith"))
        .args(["check".as_ref(), file.as_os_str()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout) + String::from_utf8_lossy(&o.stderr);
    (o.status.code(), text.lines().map(str::to_string).collect())
}

/// The line of `file` holding `needle` (1-based).
fn line_of(file: &Path, needle: &str) -> usize {
    let text = std::fs::read_to_string(file).unwrap();
    1 + text.lines().position(|l| l.contains(needle)).unwrap()
}

fn expect(lines: &[String], file: &Path, needle: &str, message: &str) {
    let prefix = format!("{}:{}:", file.display(), line_of(file, needle));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(&prefix) && l.contains(message)),
        "{prefix} … {message}\n{lines:#?}"
    );
}

#[test]
fn falling_names_get_hints_from_the_levels_own_names() {
    let dir = tempfile::tempdir().unwrap();
    let mut v = shipped("levels/falling/columns.json");
    v["legend"]["r"] = "rubby".into();
    v["sequence"]["tumos"][0] = "colum".into();
    v["clear"][0]["rule"] = "lnies".into();
    v["fall"][0] = "gravty".into();
    let file = dir.path().join("columns.json");
    std::fs::write(&file, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    let (code, lines) = check(&file);
    assert_eq!(code, Some(1));
    expect(
        &lines,
        &file,
        "rubby",
        "unknown block kind \"rubby\" (did you mean \"ruby\"?)",
    );
    expect(
        &lines,
        &file,
        "colum\"",
        "unknown tumo \"colum\" (did you mean \"column\"?)",
    );
    expect(
        &lines,
        &file,
        "lnies",
        "unknown clear rule \"lnies\" (did you mean \"lines\"?)",
    );
    expect(
        &lines,
        &file,
        "gravty",
        "unknown fall law \"gravty\" (did you mean \"gravity\"?)",
    );
}

#[test]
fn board_names_get_hints_from_the_rules() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        workspace().join("levels/board/tic-tac-toe.zrf"),
        dir.path().join("tic-tac-toe.zrf"),
    )
    .unwrap();
    let mut v = shipped("levels/board/tic-tac-toe-x-to-win.json");
    v["setup"] = serde_json::json!({"X": {"Mann": ["a1"]}, "Zed": {"Man": ["c1"]}});
    let file = dir.path().join("x.json");
    std::fs::write(&file, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    let (code, lines) = check(&file);
    assert_eq!(code, Some(1));
    expect(
        &lines,
        &file,
        "Mann",
        "unknown piece \"Mann\" (did you mean \"Man\"?) (the pieces are Man)",
    );
    // "Zed" is near neither X nor O: the list only.
    expect(
        &lines,
        &file,
        "Zed",
        "unknown player \"Zed\" (the players are X, O)",
    );
}

//! The file formats the kinds declare (issue #27 item 2) reach the editor unchanged: the Open
//! dialog's filters and the File → Import items are built from the kinds' `GameKind::file_types`,
//! and must read exactly as they did when the shell wrote them by hand.

use std::path::Path;

use tilesmith_editor::kinds::registry;

#[test]
fn the_open_dialog_offers_every_kinds_files_as_before() {
    let filters = registry().open_filters();
    let as_pairs: Vec<(&str, Vec<&str>)> = filters
        .iter()
        .map(|(name, ext)| (name.as_str(), ext.clone()))
        .collect();
    assert_eq!(
        as_pairs,
        [
            (
                "Level (JSON), FPGDL program (Lua) or board rules (ZRF)",
                vec!["json", "lua", "zrf"]
            ),
            ("Level (JSON)", vec!["json"]),
            ("FPGDL program (Lua)", vec!["lua"]),
            ("Board game rules (ZRF)", vec!["zrf"]),
            ("All files", vec!["*"]),
        ]
    );
}

#[test]
fn a_file_opens_through_the_kind_that_declares_its_extension() {
    let kinds = registry();
    let lua = kinds
        .file_type(Path::new("game.LUA"))
        .expect("falling declares .lua");
    assert_eq!(lua.extension, "lua");
    let zrf = kinds
        .file_type(Path::new("dir/chess.zrf"))
        .expect("board declares .zrf");
    assert_eq!(zrf.extension, "zrf");
    assert!(kinds.file_type(Path::new("level.json")).is_none());
    assert!(kinds.file_type(Path::new("no-extension")).is_none());
    // The one format opened by an import item keeps the menu label it had.
    let imports: Vec<(String, &str)> = kinds
        .file_types()
        .filter_map(|t| Some((format!("Import {}…", t.word), t.import_about?)))
        .collect();
    assert_eq!(
        imports,
        [(
            "Import FPGDL program…".to_string(),
            "Open a falling-block program (.lua): its setup calls become the level and \
             update() its script; Save As writes it as a level file"
        )]
    );
}

/// Runs the `tilesmith` binary in `dir`.
fn tilesmith_in(dir: &Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_tilesmith"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("tilesmith runs")
}

/// A program's script error is reported at the program's own line (falling's
/// `Game::error_problem`, placed by `Document::stop_problem`), by `run` and by the replay of
/// that run: the messages the CLI gave when it branched on programs itself.
#[test]
fn a_failing_program_is_reported_at_its_line_by_run_and_by_its_replay() {
    let dir = tempfile::tempdir().unwrap();
    let source = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/fpgdl/puyo.lua"),
    )
    .unwrap();
    let bad = source.replacen(
        "function update()\n",
        "function update()\n  error(\"boom\")\n",
        1,
    );
    assert_ne!(bad, source, "the program has an update() to break");
    let line = bad.lines().position(|l| l.contains("boom")).unwrap() + 1;
    std::fs::write(dir.path().join("bad.lua"), bad).unwrap();

    let out = tilesmith_in(
        dir.path(),
        &[
            "run",
            "bad.lua",
            "--inputs",
            "HD",
            "--record",
            "bad.replay.json",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("\"status\":\"error\""));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!("bad.lua:{line}:1: script error: script line {line}: boom (at $.script)\n")
    );

    let out = tilesmith_in(dir.path(), &["run", "--replay", "bad.replay.json"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!("bad.lua: script error: script line {line}: boom\n")
    );
}

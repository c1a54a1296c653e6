//! The kind seam: the editor's registry lists exactly the engine's kinds, and the problems list
//! of the editor says exactly what `tilesmith check` says of the same document, for every
//! shipped level of every kind and for a set of broken documents.

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

use std::path::{Path, PathBuf};
use std::process::Command;

use tilesmith_editor::kinds::boulder::{BoulderAction, BoulderDoc};
use tilesmith_editor::kinds::{self, baba::BabaDoc};
use tilesmith_editor::state::{Action, EditorState, Pending, PlayAction, problem_cell};
use tilesmith_engine::kind::boulder::{BoulderLevel, Cell, Token};
use tilesmith_engine::{GameKind as _, Pos, Severity};

/// One problem as both sides can print it: severity, message and JSON path.
type Line = (Severity, String, String);

fn levels_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../levels")
}

/// `tilesmith check FILE`, its lines parsed back into problems, and whether it exited 0.
fn cli_check(file: &Path) -> (Vec<Line>, bool) {
    let out = Command::new(env!("CARGO_BIN_EXE_tilesmith"))
        .arg("check")
        .arg(file)
        .output()
        .expect("the tilesmith binary runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    let prefix = format!("{}:", file.display());
    let lines = text
        .lines()
        .filter_map(|l| l.strip_prefix(&prefix))
        .map(|rest| {
            // LINE:COL: [warning: ]message (at PATH)
            let mut parts = rest.splitn(3, ':');
            let (_, _, body) = (parts.next(), parts.next(), parts.next().unwrap_or(""));
            let body = body.trim_start();
            let (sev, body) = match body.strip_prefix("warning: ") {
                Some(b) => (Severity::Warning, b),
                None => (Severity::Error, body),
            };
            let (msg, path) = body.rsplit_once(" (at ").expect("a located problem line");
            (sev, msg.to_string(), path.trim_end_matches(')').to_string())
        })
        .collect();
    (lines, out.status.success())
}

fn editor_lines(st: &mut EditorState) -> Vec<Line> {
    st.refresh();
    st.problems
        .iter()
        .map(|p| (p.severity, p.message.clone(), p.path.to_string()))
        .collect()
}

fn open(file: &Path) -> EditorState {
    let mut st = EditorState::new(BoulderLevel::new("blank", 4, 4));
    st.apply(Action::OpenPath(file.to_path_buf()));
    assert!(st.pending.is_none(), "{}: {:?}", file.display(), st.pending);
    st
}

fn save_as(st: &mut EditorState, file: &Path) {
    st.dialogs = Box::new(tilesmith_editor::files::ScriptedDialogs {
        saves: vec![file.to_path_buf()],
        ..Default::default()
    });
    st.apply(Action::SaveAs);
    assert_eq!(st.path.as_deref(), Some(file), "{}", st.status);
}

/// Engine kinds whose editor module is still to come: the editor refuses their levels with
/// a message instead of opening them.
const NO_EDITOR_YET: [&str; 0] = [];

#[test]
fn the_registry_lists_exactly_the_engine_kinds() {
    let editor: Vec<&str> = kinds::registry().iter().map(|k| k.name).collect();
    let engine: Vec<&str> = tilesmith_engine::kind::kinds()
        .iter()
        .map(|k| k.name())
        .filter(|k| !NO_EDITOR_YET.contains(k))
        .collect();
    assert_eq!(editor, engine);
    for name in NO_EDITOR_YET {
        assert!(
            tilesmith_engine::kind::kind_named(name).is_some(),
            "{name} is an engine kind"
        );
        assert!(
            kinds::registry().entry(name).is_none(),
            "{name} has an editor module now"
        );
        let Err(e) = kinds::registry().open_doc(&serde_json::json!({"kind": name})) else {
            panic!("a {name} level opens in the editor");
        };
        assert_eq!(
            e[0].message,
            format!("levels of kind \"{name}\" cannot be edited yet")
        );
    }
    for k in kinds::registry().iter() {
        assert_eq!(k.engine.name(), k.name);
        // Each entry's new document is of its own kind, and its saved form opens as it.
        let st = EditorState::new((k.new_doc)());
        assert_eq!(st.kind_name(), k.name);
        let again = kinds::registry()
            .open_doc(&st.doc_json())
            .expect("a new level opens again");
        assert_eq!(again.kind().name(), k.name);
        assert!(again.is_level(&st.doc_json()));
    }
}

#[test]
fn every_shipped_level_gets_the_problems_check_reports() {
    let mut n = 0;
    for entry in kinds::registry().iter() {
        let dir = levels_dir().join(entry.name);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            // A replay beside its level (`NAME.intended.replay.json`) is no level.
            .filter(|p| !p.to_string_lossy().ends_with(".replay.json"))
            .collect();
        files.sort();
        assert!(!files.is_empty(), "no levels in {}", dir.display());
        for f in files {
            let mut st = open(&f);
            assert_eq!(st.kind_name(), entry.name, "{}", f.display());
            let (cli, ok) = cli_check(&f);
            assert!(ok, "{} is shipped, so it checks clean", f.display());
            assert_eq!(editor_lines(&mut st), cli, "{}", f.display());
            n += 1;
        }
    }
    assert!(n >= 16, "only {n} levels found");
}

#[test]
fn a_second_me_is_the_same_error_in_the_editor_and_in_check() {
    let dir = tempfile::tempdir().unwrap();
    let mut st = open(&levels_dir().join("boulder/welcome.json"));
    assert!(editor_lines(&mut st).iter().all(|l| l.0 != Severity::Error));
    let d = st.doc_as::<BoulderDoc>().unwrap();
    let free = d
        .level()
        .map
        .iter()
        .find(|(_, c)| c.token == Token::Path || c.token == Token::Mud)
        .map(|(p, _)| p)
        .unwrap();
    st.apply(BoulderAction::SetCell {
        pos: free,
        cell: Cell::new(Token::Me),
    });
    let lines = editor_lines(&mut st);
    assert!(
        lines
            .iter()
            .any(|l| l.0 == Severity::Error && l.1.contains("2 \"me\" fields")),
        "{lines:?}"
    );
    // Save is allowed (work in progress) but says so; the saved file checks the same.
    let file = dir.path().join("two-me.json");
    save_as(&mut st, &file);
    assert!(st.status.contains("error(s) remain"), "{}", st.status);
    let (cli, ok) = cli_check(&file);
    assert!(!ok, "check exits 1");
    assert_eq!(editor_lines(&mut st), cli);
    // The saved work in progress opens again, with the same errors listed.
    let mut again = open(&file);
    assert_eq!(editor_lines(&mut again), cli);
    // Play refuses with the first error and shows where it is.
    st.apply(PlayAction::Start);
    assert!(!st.playing());
    assert!(st.status.contains("cannot play"), "{}", st.status);
    let first = st.problems.iter().find(|p| p.is_error()).unwrap();
    assert_eq!(st.inspect, problem_cell(first));
    assert!(st.inspect.is_some());
}

#[test]
fn no_me_is_the_same_error_in_the_editor_and_in_check() {
    let dir = tempfile::tempdir().unwrap();
    let mut st = EditorState::new(BoulderLevel::new("t", 8, 6));
    st.apply(BoulderAction::SetCell {
        pos: Pos::new(1, 1),
        cell: Cell::new(Token::Path),
    });
    let file = dir.path().join("no-me.json");
    save_as(&mut st, &file);
    let (cli, ok) = cli_check(&file);
    assert!(!ok);
    assert!(cli.iter().any(|l| l.1.contains("no \"me\"")), "{cli:?}");
    assert_eq!(editor_lines(&mut st), cli);
    st.apply(Action::Play(PlayAction::Start));
    assert!(!st.playing());
}

#[test]
fn a_level_check_refuses_does_not_open_and_the_dialog_lists_checks_lines() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad-rule.json");
    // A rule whose original and result lists differ in length (spec boulder §4.5).
    let text = r#"{"name": "bad", "width": 3, "height": 1, "gems": [0, 0, 0], "ticks": [9, 9, 9],
  "map": [["me", "exit", "mud"]],
  "pre": [{"situation": "any", "direction": "east",
           "original": [{"token": "mud"}], "result": [{"token": "path"}, {"token": "mud"}]}]}"#;
    std::fs::write(&file, text).unwrap();
    let (cli, ok) = cli_check(&file);
    assert!(!ok && !cli.is_empty());
    let mut st = EditorState::new(BoulderLevel::new("blank", 4, 4));
    st.apply(Action::OpenPath(file.clone()));
    let Some(Pending::Message(m)) = &st.pending else {
        panic!("the open is refused with a message: {:?}", st.pending);
    };
    assert!(m.contains(&file.display().to_string()), "{m}");
    for (_, msg, path) in &cli {
        assert!(
            m.contains(msg.as_str()) && m.contains(path.as_str()),
            "{m}\nlacks {msg} at {path}"
        );
    }
}

#[test]
fn a_baba_level_with_no_text_gets_checks_warnings() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("no-text.json");
    std::fs::write(
        &file,
        r#"{"kind": "baba", "name": "quiet", "width": 3, "height": 2,
  "map": [["baba", null, "flag"], [null, "rock", null]]}"#,
    )
    .unwrap();
    let (cli, _) = cli_check(&file);
    assert!(!cli.is_empty(), "check warns about a level no one can play");
    let mut st = open(&file);
    assert!(st.doc_as::<BabaDoc>().is_some());
    assert_eq!(editor_lines(&mut st), cli);
}

#[test]
fn copy_puts_the_cells_on_the_system_clipboard_as_level_json_and_they_paste_back() {
    use tilesmith_editor::state::MapAction;
    use tilesmith_editor::tools::CellRect;
    let mut st = EditorState::new(BoulderLevel::new("t", 8, 6));
    // BoulderLevel::new: a wall border, me at (1, 1), mud inside.
    st.selection = Some(CellRect::span(Pos::new(0, 0), Pos::new(2, 1)));
    st.apply(MapAction::Copy);
    let text = st
        .clipboard_out
        .take()
        .expect("copy fills the system clipboard");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        v,
        serde_json::json!([["wall", "wall", "wall"], ["wall", "me", "mud"]]),
        "rows of cells in the level file's form"
    );
    // Text in that form, from anywhere, pastes as cells: here a stone and a gem.
    st.hover = Some(Pos::new(4, 3));
    st.apply(MapAction::PasteText(r#"[["stone", "gem"]]"#.into()));
    let d = st.doc_as::<BoulderDoc>().unwrap();
    assert_eq!(
        d.level().map.get(Pos::new(4, 3)).unwrap().token,
        Token::Stone
    );
    assert_eq!(d.level().map.get(Pos::new(5, 3)).unwrap().token, Token::Gem);
    assert_eq!(d.history().done_names(), ["Paste"]);
    // Other text (or cells of another kind) leaves the editor's clipboard as it was.
    st.hover = Some(Pos::new(1, 4));
    st.apply(MapAction::PasteText("hello".into()));
    let d = st.doc_as::<BoulderDoc>().unwrap();
    assert_eq!(
        d.level().map.get(Pos::new(1, 4)).unwrap().token,
        Token::Stone
    );
    st.hover = Some(Pos::new(2, 2));
    st.apply(MapAction::PasteText(r#"[[{"kind": "baba"}]]"#.into()));
    let d = st.doc_as::<BoulderDoc>().unwrap();
    assert_eq!(
        d.level().map.get(Pos::new(2, 2)).unwrap().token,
        Token::Stone
    );
    assert_eq!(d.history().len_done(), 3);

    // Baba stacks travel the same way.
    let mut b = EditorState::new(
        tilesmith_engine::kind::baba::BabaLevel::from_json(&serde_json::json!({
            "kind": "baba", "width": 3, "height": 1,
            "map": [[["rock", "baba"], null, "text_is"]]
        }))
        .unwrap(),
    );
    b.selection = Some(CellRect::span(Pos::new(0, 0), Pos::new(2, 0)));
    b.apply(MapAction::Copy);
    let text = b.clipboard_out.take().unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v[0][1], serde_json::Value::Null);
    assert_eq!(v[0][2], serde_json::json!("text_is"));
    assert_eq!(v[0][0].as_array().map(Vec::len), Some(2));
    b.hover = Some(Pos::new(1, 0));
    b.apply(MapAction::PasteText(text));
    let d = b.doc_as::<BabaDoc>().unwrap();
    assert_eq!(d.level().map.get(Pos::new(1, 0)).unwrap().len(), 2);
}

#[test]
fn a_large_map_is_checked_off_the_ui_thread_with_the_same_answer() {
    use tilesmith_editor::state::SYNC_CHECK_CELLS;
    let (w, h) = (320, 300);
    assert!(w * h > SYNC_CHECK_CELLS);
    let mut st = EditorState::new(BoulderLevel::new("big", w, h));
    st.apply(BoulderAction::SetCell {
        pos: Pos::new(5, 5),
        cell: Cell::new(Token::Me),
    });
    st.refresh();
    assert!(st.problems_pending(), "the check runs on a worker");
    let start = std::time::Instant::now();
    while st.problems_pending() {
        assert!(start.elapsed().as_secs() < 60, "the check never arrived");
        std::thread::sleep(std::time::Duration::from_millis(10));
        st.refresh();
    }
    let want = tilesmith_engine::kind::boulder::Boulder.check(&st.doc_json());
    assert_eq!(st.problems, want);
    assert!(
        st.problems
            .iter()
            .any(|p| p.is_error() && p.message.contains("2 \"me\"")),
        "{:?}",
        st.problems
    );
}

/// A small falling level: two kinds, one tumo "pair" (`-1` over label 1), the given extra
/// members merged in.
fn falling_text(extra: &str) -> String {
    format!(
        r#"{{"kind": "falling", "name": "f", "width": 6, "height": 6,
  "blocks": [{{"name": "red", "color": [230, 40, 40]}}, {{"name": "blue", "color": [40, 40, 230]}}],
  "tumos": [{{"name": "pair", "states": [[[0, -1, 0], [0, 1, 0], [0, 0, 0]]], "block": "red"}},
            {{"name": "spare", "states": [[[-1]]], "block": "blue"}}],
  "clear": [{{"rule": "connected", "min": 4}}], "fall": ["gravity"],
  "sequence": {{"order": "random", "tumos": ["pair"]}}{extra}}}"#
    )
}

#[test]
fn a_falling_level_gets_checks_warnings_and_an_edit_gets_its_errors() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("f.json");
    // "spare" is never in the sequence: a warning, on both sides.
    std::fs::write(&file, falling_text("")).unwrap();
    let (cli, ok) = cli_check(&file);
    assert!(ok, "warnings only: {cli:?}");
    let mut st = open(&file);
    assert!(
        st.doc_as::<tilesmith_editor::kinds::falling::FallingDoc>()
            .is_some()
    );
    assert_eq!(editor_lines(&mut st), cli);
    // An edit that breaks the tumo (label 2 with no label 1) is the same error in the
    // problems list as in `check` of the saved file.
    let d = st
        .doc_as::<tilesmith_editor::kinds::falling::FallingDoc>()
        .unwrap();
    let mut rest = d.design().rest.clone();
    rest.tumos[0].states[0].cells[4] = 2;
    st.apply(tilesmith_editor::kinds::falling::FallingAction::SetRest {
        what: "Paint tumo cell".into(),
        merge: None,
        rest: Box::new(rest),
    });
    let broken = dir.path().join("broken.json");
    save_as(&mut st, &broken);
    let (cli, ok) = cli_check(&broken);
    assert!(!ok, "the edit is an error: {cli:?}");
    assert_eq!(editor_lines(&mut st), cli);
}

#[test]
fn a_falling_level_whose_script_does_not_load_opens_with_checks_error_to_fix_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad-script.json");
    std::fs::write(
        &file,
        falling_text(r#", "script": "function update()\n  local x = = 1\nend\n""#),
    )
    .unwrap();
    let (cli, ok) = cli_check(&file);
    assert!(!ok && !cli.is_empty());
    assert!(cli[0].1.contains("script line 2"), "{cli:?}");
    // The level opens (so the script can be fixed in the script pane) and the problems list
    // says what `check` says.
    let mut st = open(&file);
    assert_eq!(editor_lines(&mut st), cli);
}

#[test]
fn a_pasta_program_being_laid_out_opens_with_checks_errors_and_an_edit_gets_its_errors() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("short.json");
    // Three cards cannot take 5 flags a player (one own flag a card while placing, §5), and
    // a life of 7 is over the die's 6: errors on both sides, yet the editor opens it.
    std::fs::write(
        &file,
        r#"{"kind": "pasta", "cards": ["Bug", "Debug", "AddFlag"], "life": {"red": 7, "blue": 5}}"#,
    )
    .unwrap();
    let (cli, ok) = cli_check(&file);
    assert!(!ok && cli.len() >= 3, "{cli:?}");
    let mut st = open(&file);
    assert_eq!(editor_lines(&mut st), cli);
    // Two more cards: the hands can be placed; the life is still wrong, the same in both.
    for card in [
        tilesmith_engine::kind::pasta::Card::Rotate,
        tilesmith_engine::kind::pasta::Card::Reverse,
    ] {
        st.apply(kinds::pasta::PastaAction::InsertCard { card, at: 9 });
    }
    let fixed = dir.path().join("five.json");
    save_as(&mut st, &fixed);
    let (cli, ok) = cli_check(&fixed);
    assert!(!ok, "{cli:?}");
    assert_eq!(cli.len(), 1, "only the life: {cli:?}");
    assert_eq!(cli[0].2, "$.life.red");
    assert_eq!(editor_lines(&mut st), cli);
    // A card the engine does not know does not open: its problem is located.
    let Err(p) =
        kinds::registry().open_doc(&serde_json::json!({"kind": "pasta", "cards": ["Bug", "Bugg"]}))
    else {
        panic!("an unknown card opens");
    };
    assert!(
        p.iter().any(|p| p.path.to_string() == "$.cards[1]"),
        "{p:?}"
    );
}

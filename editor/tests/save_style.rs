//! Saving keeps a level's text (issue #31 defect 12): every shipped level, opened and saved
//! without an edit through the editor's save path, is byte-identical to its file (the shipped
//! levels are in the one text style of `json_text::layout`, `docs/level-format.md`); an edit
//! changes only the lines it touches.

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

use std::path::{Path, PathBuf};

use tilesmith_editor::files::ScriptedDialogs;
use tilesmith_editor::state::{Action, EditorState};

fn shipped() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../levels");
    let mut out = Vec::new();
    for d in std::fs::read_dir(&root).unwrap() {
        let d = d.unwrap().path();
        if d.is_dir() {
            for f in std::fs::read_dir(&d).unwrap() {
                let f = f.unwrap().path();
                // A replay beside its level (`NAME.intended.replay.json`) is no level.
                let replay = f.to_string_lossy().ends_with(".replay.json");
                if f.extension().is_some_and(|e| e == "json") && !replay {
                    out.push(f);
                }
            }
        }
    }
    out.sort();
    assert!(out.len() >= 30, "{} levels", out.len());
    out
}

/// Opens `file` and saves it, unedited, as `to`.
fn save_unedited(file: &Path, to: &Path) -> EditorState {
    let mut st = EditorState::new(
        tilesmith_editor::kinds::registry()
            .new_doc("boulder")
            .unwrap(),
    );
    st.apply(Action::OpenPath(file.to_path_buf()));
    assert!(st.pending.is_none(), "{}: {:?}", file.display(), st.pending);
    st.dialogs = Box::new(ScriptedDialogs {
        opens: vec![],
        saves: vec![to.to_path_buf()],
    });
    st.apply(Action::SaveAs);
    assert!(st.pending.is_none(), "{}: {:?}", file.display(), st.pending);
    st
}

#[test]
fn every_shipped_level_saved_without_edits_is_byte_identical() {
    let dir = tempfile::tempdir().unwrap();
    let mut differ = Vec::new();
    for f in shipped() {
        let text = std::fs::read_to_string(&f).unwrap();
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        // Every shipped level is in the one style.
        if tilesmith_engine::json_text::layout(&value) != text {
            differ.push(format!("{}: not in the file style", f.display()));
        }
        let kind = value["kind"].as_str().unwrap_or("");
        if tilesmith_editor::kinds::registry().entry(kind).is_none() {
            continue; // a kind the editor cannot edit yet (pasta): the style is all there is
        }
        // Saved beside a copy of its folder, so that paths relative to the level (a board
        // level's rules file) stay what they were.
        let folder = dir.path().join(f.parent().unwrap().file_name().unwrap());
        std::fs::create_dir_all(&folder).unwrap();
        for g in std::fs::read_dir(f.parent().unwrap()).unwrap() {
            let g = g.unwrap().path();
            if g.is_file() {
                std::fs::copy(&g, folder.join(g.file_name().unwrap())).unwrap();
            }
        }
        let copy = folder.join(f.file_name().unwrap());
        let to = folder.join("saved.json");
        save_unedited(&copy, &to);
        let (a, b) = (
            std::fs::read_to_string(&f).unwrap(),
            std::fs::read_to_string(&to).unwrap(),
        );
        if a != b {
            let line = a
                .lines()
                .zip(b.lines())
                .position(|(x, y)| x != y)
                .unwrap_or(0);
            differ.push(format!(
                "{}: line {}:\n  file:  {}\n  saved: {}",
                f.display(),
                line + 1,
                a.lines().nth(line).unwrap_or(""),
                b.lines().nth(line).unwrap_or("")
            ));
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

#[test]
fn an_edit_changes_only_its_lines() {
    let f = Path::new(env!("CARGO_MANIFEST_DIR")).join("../levels/boulder/welcome.json");
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("welcome.json");
    std::fs::copy(&f, &copy).unwrap();
    let to = dir.path().join("saved.json");
    let mut st = save_unedited(&copy, &to);
    let level = st
        .doc_as::<tilesmith_editor::kinds::boulder::BoulderDoc>()
        .unwrap()
        .level()
        .clone();
    let mut props = tilesmith_editor::kinds::boulder::edit::Props::of(&level);
    props.name = "Renamed".into();
    st.apply(tilesmith_editor::kinds::boulder::BoulderAction::SetProps {
        props,
        field: "name",
    });
    st.dialogs = Box::new(ScriptedDialogs {
        opens: vec![],
        saves: vec![to.clone()],
    });
    st.apply(Action::SaveAs);
    let (a, b) = (
        std::fs::read_to_string(&f).unwrap(),
        std::fs::read_to_string(&to).unwrap(),
    );
    let changed: Vec<(&str, &str)> = a.lines().zip(b.lines()).filter(|(x, y)| x != y).collect();
    assert_eq!(a.lines().count(), b.lines().count());
    assert_eq!(changed.len(), 1, "{changed:?}");
    assert!(changed[0].1.contains("\"Renamed\""), "{changed:?}");
}

//! Repair mode as a user meets it (docs/editor.md, "Repair mode"): a level with a misspelt
//! token opens anyway, the problems list names the field with a "did you mean" hint, a click
//! shows the cell, painting the right token fixes it, and the saved file checks clean; what
//! was not fixed is saved as it was found. Also `tilesmith FILE` printing the problems.

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

use egui_kittest::kittest::Queryable as _;
use serde_json::{Value, json};
use tilesmith_editor::kinds::boulder::{BoulderAction, BoulderDoc};
use tilesmith_editor::state::{Action, EditorState};
use tilesmith_engine::Pos;
use tilesmith_engine::kind::boulder::{BoulderLevel, Cell, Token};

mod common;
use common::{harness, settle};
#[allow(dead_code)] // each test file uses some of the helpers
mod repair_common;
use repair_common::*;

fn broken() -> Value {
    json!({
        "kind": "boulder", "name": "broken", "width": 5, "height": 3,
        "gems": [0, 0, 0], "ticks": [100, 50, 25],
        "map": [
            ["wall", "wall", "wall", "wall", "wall"],
            ["wall", "me", "stonee", "exit", "wall"],
            ["wall", "wall", "wall", "wall"]
        ]
    })
}

#[test]
fn open_see_the_problem_fix_save_and_check_clean() {
    let file = write("welcome.json", &broken());
    let mut st = EditorState::new(BoulderLevel::new("start", 5, 5));
    st.apply(Action::OpenPath(file.clone()));
    assert_eq!(st.path.as_deref(), Some(file.as_path()), "{}", st.status);
    assert!(st.status.contains("error(s)"), "{}", st.status);
    let mut h = harness(st);
    // The unknown field is on the map, marked, and the problems list suggests the fix.
    let d = h.state().state.doc_as::<BoulderDoc>().unwrap();
    assert_eq!(
        d.level().map.get(Pos::new(2, 1)).unwrap().token,
        Token::Unknown
    );
    assert_eq!(
        d.level().map.get(Pos::new(4, 2)).unwrap().token,
        Token::Unknown
    );
    assert_eq!(
        click_selects(&mut h, "unknown token \"stonee\" (did you mean \"stone\"?)"),
        (2, 1, 2, 1)
    );
    // The short row's problem selects its first missing field (drawn as a "…" cell).
    assert_eq!(
        click_selects(&mut h, "row 2 has 4 fields but row 0 has 5"),
        (4, 2, 4, 2)
    );

    // Saving before the fix keeps what could not be read, exactly.
    h.state_mut().state.apply(Action::Save);
    assert_eq!(saved(&file)["map"], broken()["map"]);

    // Fix both fields, save, and the file checks clean.
    for (pos, t) in [
        (Pos::new(2, 1), Token::Stone),
        (Pos::new(4, 2), Token::Wall),
    ] {
        h.state_mut().state.apply(BoulderAction::SetCell {
            pos,
            cell: Cell::new(t),
        });
    }
    h.state_mut().state.apply(Action::Save);
    settle(&mut h);
    assert!(
        h.state().state.status.starts_with("saved"),
        "{}",
        h.state().state.status
    );
    assert!(
        !h.state().state.status.contains("error"),
        "{}",
        h.state().state.status
    );
    let p = check_file(&file);
    assert!(p.is_empty(), "{p:?}");
    h.get_by_label("No problems.");
}

#[test]
fn undo_brings_the_unknown_field_back_with_its_text() {
    let file = write("undo.json", &broken());
    let mut st = EditorState::new(BoulderLevel::new("start", 5, 5));
    st.apply(Action::OpenPath(file));
    st.apply(BoulderAction::SetCell {
        pos: Pos::new(2, 1),
        cell: Cell::new(Token::Stone),
    });
    st.apply(tilesmith_editor::state::MapAction::Undo);
    assert_eq!(st.doc_json()["map"][1][2], json!("stonee"));
}

#[test]
fn the_command_line_prints_the_problems_before_opening_the_window() {
    let file = write("cli.json", &broken());
    // No display: the window cannot open, but the problems are printed first.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_tilesmith"))
        .arg(&file)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    let text = std::fs::read_to_string(&file).unwrap();
    let line = 1 + text.lines().position(|l| l.contains("stonee")).unwrap();
    let expected = format!(
        "{}:{line}:7: unknown token \"stonee\" (did you mean \"stone\"?) (at $.map[1][2])",
        file.display()
    );
    assert!(err.lines().any(|l| l == expected), "{err}");
    assert!(err.contains("row 2 has 4 fields but row 0 has 5"), "{err}");
}

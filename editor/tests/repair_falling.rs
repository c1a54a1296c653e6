//! Repair mode for falling levels as a user meets it (docs/editor.md, "Repair mode";
//! docs/falling-editor.md): a level whose `field` holds a character that is not a `legend`
//! key and a row that is too short opens anyway; the unknown character is a visible cell that
//! names it, the short row is padded with missing cells; the problems list shows both, a click
//! selects the cell; what is not fixed is saved exactly as found, Play is refused, and once
//! the cells are painted the saved file checks clean.

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

use std::path::Path;

use egui_kittest::kittest::Queryable as _;
use serde_json::{Value, json};
use tilesmith_editor::kinds::falling::{FallingAction, FallingDoc};
use tilesmith_editor::state::{Action, EditorState, MapAction, PlayAction};
use tilesmith_editor::tools::Button;
use tilesmith_engine::Pos;
use tilesmith_engine::kind::falling::FallingLevel;
use tilesmith_engine::kind::falling::level::{MISSING_CELL, UNKNOWN_FIRST};

mod common;
use common::{harness, settle};
#[allow(dead_code)] // each test file uses some of the helpers
mod repair_common;
use repair_common::*;

/// A 4 × 3 level with a legend of `R` and `G`: row 1 is one cell short and row 2 holds `r`
/// (no legend key; the designer meant `R`).
fn broken() -> Value {
    json!({
        "kind": "falling", "name": "broken", "width": 4, "height": 3,
        "blocks": [{"name": "red", "color": [255, 0, 0]}, {"name": "green", "color": [0, 255, 0]}],
        "tumos": [{"name": "dot", "states": [[[1]]]}],
        "clear": [{"rule": "connected", "min": 4}], "fall": ["gravity"],
        "legend": {"R": "red", "G": "green"},
        "field": ["....", "R.G", "GrR."]
    })
}

fn open(file: &Path) -> EditorState {
    let mut st = EditorState::new(FallingLevel::new("start", 5, 5));
    st.apply(Action::OpenPath(file.to_path_buf()));
    assert_eq!(st.path.as_deref(), Some(file), "{}", st.status);
    st
}

/// Paints cell `pos` with block `id` (0 = empty) with the pencil.
fn paint(st: &mut EditorState, pos: Pos, id: u8) {
    st.apply(FallingAction::SetPrimary(id));
    st.apply(Action::Map(MapAction::CellPress {
        pos,
        button: Button::Primary,
        alt: false,
    }));
    st.apply(Action::Map(MapAction::CellRelease));
}

#[test]
fn open_see_the_problems_fix_save_and_check_clean() {
    let file = write("broken.json", &broken());
    let st = open(&file);
    assert!(st.status.contains("2 error(s)"), "{}", st.status);
    let mut h = harness(st);
    let d = h.state().state.doc_as::<FallingDoc>().unwrap();
    let at = |x, y| *d.design().map.get(Pos::new(x, y)).unwrap();
    assert_eq!(at(1, 2), UNKNOWN_FIRST);
    assert_eq!(d.unknown_text(at(1, 2)).as_deref(), Some("r"));
    assert_eq!(
        d.unknown_description(at(1, 2)).unwrap(),
        "unknown \"r\" (not in \"legend\"; saved as found until painted over)"
    );
    assert_eq!(at(3, 1), MISSING_CELL);
    assert_eq!(d.unknown_text(at(3, 1)).as_deref(), Some("\u{2026}"));
    assert_eq!(at(0, 2), 2, "the readable cells stay what they are");

    // The problems list shows both, as `tilesmith check` words them; a click selects.
    assert_eq!(
        click_selects(
            &mut h,
            "row 2, column 1: \"r\" is not in \"legend\" (known: \"G\", \"R\")"
        ),
        (1, 2, 1, 2)
    );
    let (x0, y0, _, _) = click_selects(&mut h, "row 1 of \"field\" has 3 cells but \"width\" is 4");
    assert_eq!((x0, y0), (3, 1), "the short row's first missing cell");

    // Saving before the fix keeps what could not be read, exactly.
    h.state_mut().state.apply(Action::Save);
    assert_eq!(saved(&file)["field"], broken()["field"]);
    assert_eq!(saved(&file)["legend"], broken()["legend"]);

    // Play is refused while the errors remain.
    h.state_mut().state.apply(PlayAction::Start);
    assert!(
        h.state().state.status.starts_with("cannot play"),
        "{}",
        h.state().state.status
    );
    assert!(h.state().state.doc.play().is_none());

    // Paint the unknown cell red: the short row is still saved short.
    paint(&mut h.state_mut().state, Pos::new(1, 2), 1);
    h.state_mut().state.apply(Action::Save);
    assert_eq!(saved(&file)["field"], json!(["....", "R.G", "GRR."]));

    // Undo brings the unknown character back.
    h.state_mut().state.apply(MapAction::Undo);
    assert_eq!(h.state().state.doc_json()["field"][2], json!("GrR."));
    h.state_mut().state.apply(MapAction::Redo);

    // Fill the missing cell: the file checks clean.
    paint(&mut h.state_mut().state, Pos::new(3, 1), 0);
    h.state_mut().state.apply(Action::Save);
    settle(&mut h);
    let status = h.state().state.status.clone();
    assert!(
        status.starts_with("saved") && !status.contains("error"),
        "{status}"
    );
    assert_eq!(saved(&file)["field"], json!(["....", "R.G.", "GRR."]));
    let p = tilesmith_engine::load_file(&file).unwrap().check();
    assert!(p.is_empty(), "{p:?}");
    h.get_by_label("No problems.");
}

#[test]
fn the_eyedropper_copies_an_unknown_character_and_names_it() {
    let file = write("pick.json", &broken());
    let mut h = harness(open(&file));
    h.state_mut().state.apply(Action::Map(MapAction::CellPress {
        pos: Pos::new(1, 2),
        button: Button::Primary,
        alt: true,
    }));
    h.state_mut()
        .state
        .apply(Action::Map(MapAction::CellRelease));
    settle(&mut h);
    h.get_by_label_contains("left: unknown \"r\"");
    h.state_mut().state.apply(Action::Map(MapAction::CellPress {
        pos: Pos::new(0, 0),
        button: Button::Primary,
        alt: false,
    }));
    h.state_mut()
        .state
        .apply(Action::Map(MapAction::CellRelease));
    assert_eq!(h.state().state.doc_json()["field"][0], json!("r..."));
}

#[test]
fn other_falling_errors_still_refuse_the_file() {
    let mut bad = broken();
    bad["legend"]["G"] = json!("gren");
    let file = write("legend.json", &bad);
    let mut st = EditorState::new(FallingLevel::new("start", 5, 5));
    st.apply(Action::OpenPath(file.clone()));
    assert_ne!(st.path.as_deref(), Some(file.as_path()));
}

#[test]
fn the_command_line_output_is_unchanged() {
    let file = write("cli.json", &broken());
    let (code, out) = check_cli(&file);
    assert_eq!(code, Some(1));
    let text = std::fs::read_to_string(&file).unwrap();
    let line = 1 + text.lines().position(|l| l.contains("GrR.")).unwrap();
    let f = file.display();
    let e = format!(
        "{f}:{line}:5: row 2, column 1: \"r\" is not in \"legend\" (known: \"G\", \"R\") (at $.field[2])"
    );
    assert!(out.lines().any(|l| l == e), "{e}\n{out}");
}

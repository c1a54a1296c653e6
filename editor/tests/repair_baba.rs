//! Repair mode for baba levels as a user meets it (docs/editor.md, "Repair mode"): a level
//! with a misspelt object and a misspelt text word opens anyway, the problems list names each
//! with a "did you mean" hint over the baba vocabulary, a click on a problem (also on a row
//! that is too short) selects its cell, what is not fixed is saved as it was found, and once
//! the stacks are fixed the saved file checks clean.

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

use std::path::Path;

use egui_kittest::kittest::Queryable as _;
use serde_json::{Value, json};
use tilesmith_editor::kinds::baba::{BabaAction, BabaDoc};
use tilesmith_editor::state::{Action, EditorState, MapAction};
use tilesmith_engine::Pos;
use tilesmith_engine::kind::baba::{BabaLevel, Kind, Tile};

mod common;
use common::{harness, settle};
#[allow(dead_code)] // each test file uses some of the helpers
mod repair_common;
use repair_common::*;

/// BABA IS YOU and FLAG IS WIN (so a fixed level has no warning either), a misspelt rock, a
/// misspelt WIN on top of a flag, and a last row one cell short.
fn broken() -> Value {
    json!({
        "kind": "baba", "name": "broken", "width": 4, "height": 3,
        "map": [
            ["text_baba", "text_is", "text_you", null],
            ["baba", "rokc", ["flag", "text_wim"], null],
            ["text_flag", "text_is", "text_win"]
        ]
    })
}

fn tile(t: &str) -> Tile {
    Tile::new(Kind::from_token(t).unwrap())
}

fn open(file: &Path) -> EditorState {
    let mut st = EditorState::new(BabaLevel::new("start", 5, 5));
    st.apply(Action::OpenPath(file.to_path_buf()));
    assert_eq!(st.path.as_deref(), Some(file), "{}", st.status);
    st
}

#[test]
fn open_see_the_problems_fix_save_and_check_clean() {
    let file = write("broken.json", &broken());
    let st = open(&file);
    assert!(st.status.contains("error(s)"), "{}", st.status);
    let mut h = harness(st);
    // The unreadable entries are on the map as unknown tiles that name their text.
    let d = h.state().state.doc_as::<BabaDoc>().unwrap();
    let at = |x, y| d.level().map.get(Pos::new(x, y)).unwrap().clone();
    assert!(at(1, 1)[0].kind.is_unknown());
    assert_eq!(
        at(2, 1)[0],
        tile("flag"),
        "the readable part of the stack stays"
    );
    assert!(at(2, 1)[1].kind.is_unknown());
    assert_eq!(d.tile_name(&at(1, 1)[0]), "unknown \"rokc\"");
    assert_eq!(
        d.tile_description(&at(1, 1)[0]),
        "unknown \"rokc\" (saved as found until replaced)"
    );
    assert_eq!(d.tile_name(&at(3, 2)[0]), "missing cell");

    // The problems list suggests the fixes; a click selects the cell.
    assert_eq!(
        click_selects(&mut h, "unknown token \"rokc\" (did you mean \"rock\"?)"),
        (1, 1, 1, 1)
    );
    h.get_by_label_contains(
        "unknown word \"wim\" in text tile \"text_wim\" (did you mean \"text_win\"?)",
    );

    // Saving before the fix keeps what could not be read, exactly.
    h.state_mut().state.apply(Action::Save);
    assert_eq!(saved(&file)["map"], broken()["map"]);

    // Fix the rock only: the misspelt WIN and the short row are still saved as found.
    h.state_mut().state.apply(BabaAction::SetStack {
        pos: Pos::new(1, 1),
        stack: vec![tile("rock")],
        what: "Fix",
    });
    h.state_mut().state.apply(Action::Save);
    let s = saved(&file);
    assert_eq!(s["map"][1][1], json!("rock"));
    assert_eq!(s["map"][1][2], json!(["flag", "text_wim"]));
    assert_eq!(s["map"][2], broken()["map"][2]);

    // Fix the rest, save, and the file checks clean.
    let fixes = [
        (Pos::new(2, 1), vec![tile("flag"), tile("text_win")]),
        (Pos::new(3, 2), vec![]),
    ];
    for (pos, stack) in fixes {
        let what = "Fix";
        h.state_mut()
            .state
            .apply(BabaAction::SetStack { pos, stack, what });
    }
    h.state_mut().state.apply(Action::Save);
    settle(&mut h);
    let status = h.state().state.status.clone();
    assert!(
        status.starts_with("saved") && !status.contains("error"),
        "{status}"
    );
    let p = check_file(&file);
    assert!(p.is_empty(), "{p:?}");
    assert_eq!(
        saved(&file)["map"][2],
        json!(["text_flag", "text_is", "text_win", null])
    );
    h.get_by_label("No problems.");
}

#[test]
fn a_click_on_a_short_row_selects_its_first_missing_cell() {
    let file = write("short.json", &broken());
    let mut h = harness(open(&file));
    assert_eq!(
        click_selects(&mut h, "row 2 has 3 cells but row 0 has 4"),
        (3, 2, 3, 2)
    );
    assert_eq!(h.state().state.inspect, Some(Pos::new(3, 2)));
}

#[test]
fn undo_brings_the_unknown_entry_back_with_its_text() {
    let file = write("undo.json", &broken());
    let mut st = open(&file);
    st.apply(BabaAction::SetStack {
        pos: Pos::new(1, 1),
        stack: vec![tile("rock")],
        what: "Fix",
    });
    assert_eq!(st.doc_json()["map"][1][1], json!("rock"));
    st.apply(MapAction::Undo);
    assert_eq!(st.doc_json()["map"][1][1], json!("rokc"));
}

#[test]
fn a_level_with_unknown_entries_cannot_be_played() {
    let file = write("play.json", &broken());
    let mut st = open(&file);
    st.apply(tilesmith_editor::state::PlayAction::Start);
    assert!(st.status.starts_with("cannot play"), "{}", st.status);
    assert!(st.doc.play().is_none());
}

#[test]
fn the_command_line_hints_over_the_baba_vocabulary() {
    let file = write("cli.json", &broken());
    let (code, err) = check_cli(&file);
    assert_eq!(code, Some(1));
    let text = std::fs::read_to_string(&file).unwrap();
    let line = |s: &str| 1 + text.lines().position(|l| l.contains(s)).unwrap();
    let f = file.display();
    let expected = [
        format!(
            "{f}:{}:7: unknown token \"rokc\" (did you mean \"rock\"?) (at $.map[1][1])",
            line("rokc")
        ),
        format!(
            "{f}:{}:9: unknown word \"wim\" in text tile \"text_wim\" (did you mean \"text_win\"?) (at $.map[1][2][1])",
            line("text_wim")
        ),
    ];
    for e in expected {
        assert!(err.lines().any(|l| l == e), "{e}\n{err}");
    }
    assert!(err.contains("row 2 has 3 cells but row 0 has 4"), "{err}");
}

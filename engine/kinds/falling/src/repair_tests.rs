//! Repair mode for falling levels (docs/editor.md, "Repair mode"): a field character that is
//! not a legend key and a short field row no longer refuse the level in the editor; the
//! character is written back byte for byte, the short row stays short, and once the cells
//! are fixed `tilesmith check` is clean.

#![allow(clippy::unwrap_used)]

use serde_json::{Value, json};

use super::FallingLevel;
use super::field::EMPTY;
use super::level::{MISSING_CELL, UNKNOWN_FIRST};
use tilesmith_core::grid::Pos;

/// A valid 4 × 3 level with a legend of `R` (red) and `G` (green), its field `rows`.
fn level(rows: &[&str]) -> Value {
    json!({
        "kind": "falling",
        "name": "Repair",
        "width": 4,
        "height": 3,
        "blocks": [
            {"name": "red", "color": [255, 0, 0]},
            {"name": "green", "color": [0, 255, 0]}
        ],
        "tumos": [{"name": "dot", "states": [[[1]]]}],
        "clear": [{"rule": "connected", "min": 4}],
        "fall": ["gravity"],
        "legend": {"R": "red", "G": "green"},
        "field": rows
    })
}

#[test]
fn falling_unknown_character_and_short_row_open_and_save_unchanged() {
    // `ü` (2 bytes in UTF-8) is no legend key; row 1 is one cell short.
    let doc = level(&["....", "R.G", "GüRü"]);
    assert!(FallingLevel::from_json(&doc).is_err());
    let l = FallingLevel::from_json_editable(&doc).unwrap();
    assert_eq!((l.field.width, l.field.height), (4, 3));
    assert_eq!(l.unknown, vec!['ü']);
    let at = |x: usize, y: usize| l.field.cells[y * 4 + x];
    assert_eq!(at(1, 2), UNKNOWN_FIRST);
    assert_eq!(at(3, 2), UNKNOWN_FIRST, "one id per distinct character");
    assert_eq!(l.unknown_char(at(1, 2)), Some('ü'));
    assert_eq!(at(3, 1), MISSING_CELL);
    assert_eq!(at(0, 1), 1);
    assert!(l.has_unknown());

    // Saved: the field rows come back exactly as they were read.
    let saved = l.to_json();
    assert_eq!(saved["field"], json!(["....", "R.G", "GüRü"]));
    assert_eq!(saved["legend"], json!({"R": "red", "G": "green"}));
    let text = serde_json::to_string(&saved["field"]).unwrap();
    assert!(text.contains("\"GüRü\""), "{text}");

    // check on the saved document reports both problems, located at their cells.
    let p = FallingLevel::check(&saved);
    let cells: Vec<Option<Pos>> = p.iter().map(|p| p.cell).collect();
    assert_eq!(p.len(), 3, "{p:?}");
    assert!(
        cells.contains(&Some(Pos::new(3, 1))),
        "short row at its first missing cell"
    );
    assert!(cells.contains(&Some(Pos::new(1, 2))));
    assert!(cells.contains(&Some(Pos::new(3, 2))));
}

#[test]
fn falling_repaired_level_checks_clean() {
    let mut l = FallingLevel::from_json_editable(&level(&["....", "R.G", "GüR."])).unwrap();
    // Fix the unknown cell (paint green) and fill the missing one (paint empty).
    l.field.cells[2 * 4 + 1] = 2;
    l.field.cells[4 + 3] = EMPTY;
    assert!(!l.has_unknown());
    let saved = l.to_json();
    assert_eq!(saved["field"], json!(["....", "R.G.", "GGR."]));
    let p = FallingLevel::check(&saved);
    assert!(p.iter().all(|p| !p.is_error()), "{p:?}");
    assert!(FallingLevel::from_json(&saved).is_ok());
}

#[test]
fn falling_missing_cell_before_a_written_one_keeps_columns() {
    let mut l = FallingLevel::from_json_editable(&level(&["....", "R", "...."])).unwrap();
    l.field.cells[4 + 2] = 1; // painted past the row's end
    assert_eq!(l.to_json()["field"][1], json!("R.R"));
}

#[test]
fn falling_repair_keeps_refusing_other_errors() {
    // A bad legend value and a wrong row count still refuse the file.
    let mut bad = level(&["....", "....", "...."]);
    bad["legend"]["R"] = json!("rde");
    assert!(FallingLevel::from_json_editable(&bad).is_err());
    assert!(FallingLevel::from_json_editable(&level(&["....", "...."])).is_err());
    // A row longer than `width` widens the field: nothing is dropped.
    let l = FallingLevel::from_json_editable(&level(&["....", "R.G.G", "...."])).unwrap();
    assert_eq!(l.field.width, 5);
    assert_eq!(l.to_json()["field"], json!(["....", "R.G.G", "...."]));
}

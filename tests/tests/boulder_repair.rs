//! Repair mode of the boulder loader (docs/editor.md, "Repair mode"): a level whose map fields
//! cannot all be read opens for editing, keeps what it could not read, and writes it back
//! unchanged; the strict check still reports every such field, with "did you mean" hints.

#![allow(clippy::unwrap_used)]

use serde_json::{Value, json};
use tilesmith_engine::GameKind as _;
use tilesmith_engine::kind::boulder::{Boulder, BoulderLevel, Token};
use tilesmith_engine::problem::locate;

fn broken() -> Value {
    json!({
        "kind": "boulder", "name": "broken", "width": 4, "height": 3,
        "gems": [0, 0, 0], "ticks": [100, 50, 25],
        "map": [
            ["wall", "wall", "wall", "wall"],
            ["me", "stonee", {"token": "gem", "values": {"a": 1, "bogus": 2}}, "exit"],
            ["wall", "wall", "wall"]
        ]
    })
}

#[test]
fn the_strict_check_names_every_unreadable_field_with_a_hint() {
    let text = serde_json::to_string_pretty(&broken()).unwrap();
    let mut p = Boulder.check(&broken());
    locate(&text, &mut p);
    let lines: Vec<String> = p.iter().map(|x| x.render("b.json")).collect();
    assert!(
        lines
            .iter()
            .any(|l| l
                .contains("unknown token \"stonee\" (did you mean \"stone\"?) (at $.map[1][1])")),
        "{lines:?}"
    );
    // "bogus" is not within a third of its length of any value name: no hint.
    assert!(
        lines
            .iter()
            .any(|l| l.contains("unknown value \"bogus\" (at $.map[1][2].values.bogus)")),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("row 2 has 3 fields but row 0 has 4")),
        "{lines:?}"
    );
}

#[test]
fn repair_mode_opens_the_level_and_marks_what_it_could_not_read() {
    assert!(BoulderLevel::from_json(&broken()).is_err());
    let l = BoulderLevel::from_json_editable(&broken()).unwrap();
    assert_eq!((l.width(), l.height()), (4, 3));
    let tok = |x, y| l.map.get(tilesmith_engine::Pos::new(x, y)).unwrap().token;
    assert_eq!(tok(0, 1), Token::Me);
    assert_eq!(tok(1, 1), Token::Unknown);
    assert_eq!(tok(2, 1), Token::Unknown, "a field with an unknown value");
    assert_eq!(tok(3, 1), Token::Exit);
    assert_eq!(tok(3, 2), Token::Unknown, "the short row is padded");
    assert_eq!(
        l.unknown,
        vec![
            Some(json!("stonee")),
            Some(json!({"token": "gem", "values": {"a": 1, "bogus": 2}})),
            None
        ]
    );
}

#[test]
fn saving_writes_back_what_could_not_be_read_unchanged() {
    let l = BoulderLevel::from_json_editable(&broken()).unwrap();
    let saved = l.to_json();
    assert_eq!(saved["map"], broken()["map"]);
    // And it opens again the same way.
    let again = BoulderLevel::from_json_editable(&saved).unwrap();
    assert_eq!(again.map, l.map);
}

#[test]
fn fixing_every_field_makes_the_level_check_clean() {
    let mut l = BoulderLevel::from_json_editable(&broken()).unwrap();
    let mut set = |x, y, t| {
        *l.map.get_mut(tilesmith_engine::Pos::new(x, y)).unwrap() =
            tilesmith_engine::kind::boulder::Cell::new(t);
    };
    set(1, 1, Token::Stone);
    set(2, 1, Token::Gem);
    set(3, 2, Token::Wall);
    let saved = l.to_json();
    let p = Boulder.check(&saved);
    assert!(p.iter().all(|x| !x.is_error()), "{p:?}");
    assert_eq!(saved["map"][2], json!(["wall", "wall", "wall", "wall"]));
}

#[test]
fn a_moved_unknown_field_keeps_its_text() {
    let mut l = BoulderLevel::from_json_editable(&broken()).unwrap();
    let c = *l.map.get(tilesmith_engine::Pos::new(1, 1)).unwrap();
    *l.map.get_mut(tilesmith_engine::Pos::new(1, 0)).unwrap() = c;
    *l.map.get_mut(tilesmith_engine::Pos::new(1, 1)).unwrap() =
        tilesmith_engine::kind::boulder::Cell::new(Token::Path);
    let saved = l.to_json();
    assert_eq!(saved["map"][0][1], json!("stonee"));
    assert_eq!(saved["map"][1][1], json!("path"));
}

#[test]
fn a_map_that_is_not_rows_still_refuses_the_level() {
    let mut doc = broken();
    doc["map"] = json!("wall");
    assert!(BoulderLevel::from_json_editable(&doc).is_err());
    doc["map"] = json!([["wall"], "me"]);
    assert!(BoulderLevel::from_json_editable(&doc).is_err());
}

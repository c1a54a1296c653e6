//! Repair mode of the baba loader (docs/editor.md, "Repair mode"): a level whose map entries
//! cannot all be read opens for editing, keeps each entry it could not read as an unknown tile,
//! and writes it back unchanged; the strict check still reports every such entry, with "did
//! you mean" hints over the baba vocabulary (object nouns, text tiles of every word).

#![allow(clippy::unwrap_used)]

use serde_json::{Value, json};
use tilesmith_engine::kind::baba::{Baba, BabaGame, BabaLevel, Kind, Tile};
use tilesmith_engine::problem::locate;
use tilesmith_engine::{GameKind as _, Pos};

/// Row 1 holds a misspelt object (`rokc`), a stack with a misspelt text word on top of a
/// flag, and an object with a misspelt value name; row 2 is one cell short.
fn broken() -> Value {
    json!({
        "kind": "baba", "name": "broken", "width": 4, "height": 3,
        "map": [
            ["text_baba", "text_is", "text_you", null],
            ["baba", "rokc", ["flag", "text_wim"], {"token": "rock", "values": {"directon": 3}}],
            ["text_flag", "text_is", "text_win"]
        ]
    })
}

fn rendered(doc: &Value) -> Vec<String> {
    let text = serde_json::to_string_pretty(doc).unwrap();
    let mut p = Baba.check(doc);
    locate(&text, &mut p);
    p.iter().map(|x| x.render("b.json")).collect()
}

fn has(lines: &[String], part: &str) -> bool {
    lines.iter().any(|l| l.contains(part))
}

#[test]
fn the_strict_check_names_every_unreadable_entry_with_a_hint() {
    let lines = rendered(&broken());
    for part in [
        "unknown token \"rokc\" (did you mean \"rock\"?) (at $.map[1][1])",
        "unknown word \"wim\" in text tile \"text_wim\" (did you mean \"text_win\"?) (at $.map[1][2][1])",
        "unknown value \"directon\" (did you mean \"direction\"?) (at $.map[1][3].values.directon)",
        "row 2 has 3 cells but row 0 has 4 (at $.map[2])",
    ] {
        assert!(has(&lines, part), "{part}: {lines:#?}");
    }
}

#[test]
fn hints_reach_text_tiles_and_stay_quiet_when_nothing_is_near() {
    let mut doc = broken();
    doc["map"][1] = json!(["yuo", "txet_baba", "zzzzzz", "Babba"]);
    doc["map"][2] = json!(["text_flga", "text_qqqq", null, null]);
    let lines = rendered(&doc);
    // YOU exists only as text, so a bare "yuo" suggests its text tile.
    assert!(
        has(&lines, "unknown token \"yuo\" (did you mean \"text_you\"?)"),
        "{lines:#?}"
    );
    assert!(
        has(
            &lines,
            "unknown token \"txet_baba\" (did you mean \"text_baba\"?)"
        ),
        "{lines:#?}"
    );
    assert!(
        has(&lines, "unknown token \"Babba\" (did you mean \"baba\"?)"),
        "{lines:#?}"
    );
    assert!(
        has(
            &lines,
            "unknown word \"flga\" in text tile \"text_flga\" (did you mean \"text_flag\"?)"
        ),
        "{lines:#?}"
    );
    let quiet = |t: &str| {
        lines
            .iter()
            .any(|l| l.contains(t) && !l.contains("did you mean"))
    };
    assert!(quiet("\"zzzzzz\""), "{lines:#?}");
    assert!(quiet("\"text_qqqq\""), "{lines:#?}");
}

#[test]
fn the_row_length_problem_names_the_first_missing_cell() {
    let p = Baba.check(&broken());
    let row = p
        .iter()
        .find(|x| x.message.starts_with("row 2 has"))
        .unwrap();
    assert_eq!(row.cell, Some(Pos::new(3, 2)));
    // A long row: its first extra cell.
    let mut doc = broken();
    doc["map"][2] = json!(["text_flag", "text_is", "text_win", null, "baba"]);
    let p = Baba.check(&doc);
    let row = p
        .iter()
        .find(|x| x.message.starts_with("row 2 has"))
        .unwrap();
    assert_eq!(row.cell, Some(Pos::new(4, 2)));
}

#[test]
fn repair_mode_opens_the_level_and_marks_what_it_could_not_read() {
    assert!(BabaLevel::from_json(&broken()).is_err());
    let l = BabaLevel::from_json_editable(&broken()).unwrap();
    assert_eq!((l.width(), l.height()), (4, 3));
    let kinds = |x, y| -> Vec<Kind> {
        l.map
            .get(Pos::new(x, y))
            .unwrap()
            .iter()
            .map(|t| t.kind)
            .collect()
    };
    let k = |t: &str| Kind::from_token(t).unwrap();
    assert_eq!(kinds(0, 1), vec![k("baba")]);
    assert_eq!(kinds(1, 1), vec![Kind::Unknown(0)]);
    assert_eq!(
        kinds(2, 1),
        vec![k("flag"), Kind::Unknown(1)],
        "only the bad entry"
    );
    assert_eq!(
        kinds(3, 1),
        vec![Kind::Unknown(2)],
        "an object with a bad value"
    );
    assert_eq!(
        kinds(3, 2),
        vec![Kind::Unknown(3)],
        "the short row is padded"
    );
    assert_eq!(
        l.unknown,
        vec![
            Some(json!("rokc")),
            Some(json!("text_wim")),
            Some(json!({"token": "rock", "values": {"directon": 3}})),
            None
        ]
    );
    assert!(l.has_unknown());
}

#[test]
fn saving_writes_back_what_could_not_be_read_unchanged() {
    let l = BabaLevel::from_json_editable(&broken()).unwrap();
    let saved = l.to_json();
    assert_eq!(saved["map"], broken()["map"]);
    let again = BabaLevel::from_json_editable(&saved).unwrap();
    assert_eq!(again.map, l.map);
    assert_eq!(again.unknown, l.unknown);
}

#[test]
fn fixing_every_entry_makes_the_level_check_clean() {
    let mut l = BabaLevel::from_json_editable(&broken()).unwrap();
    let t = |s: &str| Tile::new(Kind::from_token(s).unwrap());
    let mut set = |x, y, s: Vec<Tile>| *l.map.get_mut(Pos::new(x, y)).unwrap() = s;
    set(1, 1, vec![t("rock")]);
    set(2, 1, vec![t("flag"), t("text_win")]);
    set(3, 1, vec![]);
    set(3, 2, vec![]);
    let saved = l.to_json();
    let p = Baba.check(&saved);
    assert!(p.iter().all(|x| !x.is_error()), "{p:?}");
    assert_eq!(saved["map"][1][2], json!(["flag", "text_win"]));
    assert_eq!(
        saved["map"][2],
        json!(["text_flag", "text_is", "text_win", null])
    );
}

#[test]
fn moved_and_restacked_unknown_entries_keep_their_text() {
    let mut l = BabaLevel::from_json_editable(&broken()).unwrap();
    // Move "rokc" up a row onto the empty cell, and put a baba on top of "text_wim".
    let rokc = std::mem::take(l.map.get_mut(Pos::new(1, 1)).unwrap());
    *l.map.get_mut(Pos::new(3, 0)).unwrap() = rokc;
    l.map
        .get_mut(Pos::new(2, 1))
        .unwrap()
        .push(Tile::new(Kind::from_token("baba").unwrap()));
    let saved = l.to_json();
    assert_eq!(saved["map"][0][3], json!("rokc"));
    assert_eq!(saved["map"][1][1], Value::Null);
    assert_eq!(saved["map"][1][2], json!(["flag", "text_wim", "baba"]));
    // A missing cell moved inside a row is written as an empty cell, so later cells keep
    // their places; at the end of the row it is left out.
    let mut l = BabaLevel::from_json_editable(&broken()).unwrap();
    let missing = l.map.get(Pos::new(3, 2)).unwrap().clone();
    *l.map.get_mut(Pos::new(0, 2)).unwrap() = missing;
    assert_eq!(l.to_json()["map"][2], json!([null, "text_is", "text_win"]));
}

#[test]
fn a_game_leaves_unknown_entries_out() {
    let l = BabaLevel::from_json_editable(&broken()).unwrap();
    let g = BabaGame::new(l, 0);
    // The readable objects only: 3 text tiles, a baba and a flag, 3 text tiles.
    assert!(g.objects().iter().all(|o| !o.kind.is_unknown()));
    assert_eq!(g.objects().len(), 8);
}

#[test]
fn what_cannot_be_kept_still_refuses_the_level() {
    let mut doc = broken();
    doc["map"] = json!("baba");
    assert!(BabaLevel::from_json_editable(&doc).is_err());
    doc["map"] = json!([["baba"], "rock"]);
    assert!(BabaLevel::from_json_editable(&doc).is_err());
    doc["map"] = json!([["baba"]]);
    doc["name"] = json!(7);
    assert!(BabaLevel::from_json_editable(&doc).is_err());
}

#[test]
fn a_cell_over_the_stack_limit_is_kept_whole() {
    let mut doc = broken();
    let many = Value::Array(vec![json!("rock"); 65]);
    doc["map"][0][3] = many.clone();
    let l = BabaLevel::from_json_editable(&doc).unwrap();
    assert_eq!(l.map.get(Pos::new(3, 0)).unwrap().len(), 1);
    assert_eq!(l.to_json()["map"][0][3], many);
}

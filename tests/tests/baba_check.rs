//! Bad baba level files get located errors (JSON path, line and column), never a panic; and no
//! input sequence makes a game panic. Expected lines and columns are counted by hand.

use proptest::prelude::*;
use tilesmith_engine::game::Game;
use tilesmith_engine::kind::baba::{BabaGame, BabaLevel};
use tilesmith_engine::{Dir, Input, Problem, load_text};

fn errors(text: &str) -> Vec<Problem> {
    match load_text(text) {
        Err(p) => p,
        Ok(doc) => doc.check().into_iter().filter(Problem::is_error).collect(),
    }
}

/// A baba level, one member per line; `map` is the last member, one row per line.
fn level(width: &str, height: &str, rows: &[&str]) -> String {
    format!(
        "{{\n  \"kind\": \"baba\",\n  \"name\": \"t\",\n  \"width\": {width},\n  \"height\": {height},\n  \"map\": [\n    {}\n  ]\n}}\n",
        rows.join(",\n    ")
    )
}

const OK_ROWS: [&str; 2] = [
    r#"["text_baba", "text_is", "text_you"]"#,
    r#"["baba", null, ["flag", "text_win"]]"#,
];

fn one(text: &str) -> Problem {
    let e = errors(text);
    assert_eq!(e.len(), 1, "expected one error, got {e:#?}");
    e[0].clone()
}

#[test]
fn the_base_level_is_valid_with_a_warning_for_no_win_rule() {
    let text = level("3", "2", &OK_ROWS);
    assert!(errors(&text).is_empty());
    let doc = load_text(&text).unwrap();
    let all = doc.check();
    assert_eq!(all.len(), 1, "{all:#?}");
    assert!(all[0].message.contains("win"), "{}", all[0].message);
}

#[test]
fn unknown_object_is_located() {
    let p = one(&level("3", "2", &[OK_ROWS[0], r#"["baba", "exit", null]"#]));
    assert_eq!(p.path.to_string(), "$.map[1][1]");
    assert_eq!((p.line, p.column), (Some(8), Some(14)));
    assert!(
        p.message.contains("unknown token \"exit\""),
        "{}",
        p.message
    );
    assert_eq!(p.cell, Some(tilesmith_engine::Pos::new(1, 1)));
}

#[test]
fn unknown_word_and_word_without_text_prefix() {
    let p = one(&level(
        "3",
        "2",
        &[r#"["text_baba", "text_is", "text_jump"]"#, OK_ROWS[1]],
    ));
    assert_eq!(p.path.to_string(), "$.map[0][2]");
    assert!(p.message.contains("unknown word \"jump\""), "{}", p.message);
    let p = one(&level(
        "3",
        "2",
        &[r#"["text_baba", "is", "text_you"]"#, OK_ROWS[1]],
    ));
    assert!(p.message.contains("write \"text_is\""), "{}", p.message);
}

#[test]
fn bad_directions_are_located_at_the_value() {
    for bad in ["0", "5", "\"up\"", "1.5", "-1"] {
        let row =
            format!(r#"["baba", {{"token": "rock", "values": {{"direction": {bad}}}}}, null]"#);
        let p = one(&level("3", "2", &[OK_ROWS[0], &row]));
        assert_eq!(p.path.to_string(), "$.map[1][1].values.direction", "{bad}");
        assert_eq!(p.line, Some(8), "{bad}");
        assert!(p.message.contains("direction"), "{}", p.message);
    }
}

#[test]
fn wrong_row_length_and_size_mismatches() {
    let p = one(&level("3", "2", &[OK_ROWS[0], r#"["baba"]"#]));
    assert_eq!(p.path.to_string(), "$.map[1]");
    assert!(
        p.message.contains("row 1 has 1 cells but row 0 has 3"),
        "{}",
        p.message
    );
    let p = one(&level("4", "2", &OK_ROWS));
    assert_eq!(p.path.to_string(), "$.width");
    assert_eq!((p.line, p.column), (Some(4), Some(12)));
    let p = one(&level("3", "5", &OK_ROWS));
    assert_eq!(p.path.to_string(), "$.height");
}

#[test]
fn absurd_sizes_are_refused() {
    let p = one(&level("100000", "2", &OK_ROWS));
    assert_eq!(p.path.to_string(), "$.width");
    assert!(p.message.contains("too large"), "{}", p.message);
    let e = errors(&level("-3", "2", &OK_ROWS));
    assert_eq!(e[0].path.to_string(), "$.width");
    let many = format!("[{}]", vec!["\"rock\""; 65].join(", "));
    let row = format!(r#"["baba", {many}, null]"#);
    let p = one(&level("3", "2", &[OK_ROWS[0], &row]));
    assert_eq!(p.path.to_string(), "$.map[1][1]");
    assert!(p.message.contains("65 objects"), "{}", p.message);
}

#[test]
fn wrong_types_are_located() {
    let p = one(&level("3", "2", &[OK_ROWS[0], r#"["baba", 7, null]"#]));
    assert_eq!(p.path.to_string(), "$.map[1][1]");
    let p = one(&level(
        "3",
        "2",
        &[OK_ROWS[0], r#"["baba", [["rock"]], null]"#],
    ));
    assert_eq!(p.path.to_string(), "$.map[1][1][0]");
    let p = one(&level(
        "3",
        "2",
        &[OK_ROWS[0], r#"["baba", {"values": {}}, null]"#],
    ));
    assert!(p.message.contains("\"token\" is missing"), "{}", p.message);
    let e = errors("{\"kind\": \"baba\", \"width\": 1, \"height\": 1}");
    assert_eq!(e[0].path.to_string(), "$.map");
    let e = errors("{\"kind\": \"baba\", \"width\": 1, \"height\": 1, \"map\": {}}");
    assert!(e[0].message.contains("array of rows"), "{}", e[0].message);
}

#[test]
fn unknown_member_of_a_cell_object_is_a_warning() {
    let text = level(
        "3",
        "2",
        &[
            OK_ROWS[0],
            r#"["baba", {"token": "rock", "colour": "red"}, null]"#,
        ],
    );
    assert!(errors(&text).is_empty());
    let all = load_text(&text).unwrap().check();
    assert!(
        all.iter()
            .any(|p| p.path.to_string() == "$.map[1][1].colour" && !p.is_error()),
        "{all:#?}"
    );
}

#[test]
fn saved_levels_load_again_unchanged() {
    let text = level("3", "2", &OK_ROWS);
    let doc = load_text(&text).unwrap();
    let l = BabaLevel::from_json(&doc.value).unwrap();
    let mut g = BabaGame::new(l.clone(), 0);
    assert_eq!(BabaLevel::from_json(&g.to_level()).unwrap(), l);
    g.step(Input::Move(Dir::Right));
    let after = BabaLevel::from_json(&g.to_level()).unwrap();
    assert_eq!(
        after
            .map
            .get(tilesmith_engine::Pos::new(1, 1))
            .unwrap()
            .len(),
        1
    );
}

fn arb_cell() -> impl Strategy<Value = serde_json::Value> {
    let token = prop::sample::select(vec![
        "baba",
        "keke",
        "rock",
        "wall",
        "flag",
        "water",
        "lava",
        "key",
        "door",
        "skull",
        "belt",
        "text_baba",
        "text_keke",
        "text_rock",
        "text_wall",
        "text_flag",
        "text_is",
        "text_you",
        "text_win",
        "text_push",
        "text_stop",
        "text_move",
        "text_and",
        "text_not",
        "text_on",
        "text_near",
        "text_facing",
        "text_lonely",
        "text_has",
        "text_make",
        "text_text",
        "text_sink",
        "text_defeat",
        "text_hot",
        "text_melt",
        "text_open",
        "text_shut",
        "text_shift",
        "text_pull",
        "text_weak",
        "text_float",
        "text_tele",
        "text_swap",
        "text_up",
        "text_left",
        "text_fall",
        "text_more",
        "text_eat",
        "text_empty",
        "text_all",
        "text_write",
        "text_safe",
        "text_still",
    ]);
    prop_oneof![
        3 => Just(serde_json::Value::Null),
        2 => token.clone().prop_map(|t| serde_json::json!(t)),
        1 => (token.clone(), 1u32..5).prop_map(|(t, d)| serde_json::json!({"token": t, "values": {"direction": d}})),
        1 => prop::collection::vec(token, 2..4).prop_map(|v| serde_json::json!(v)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Random boards of words and objects, played with random inputs including undo and
    /// restart: never a panic, undo always restores the state before the turn exactly.
    #[test]
    fn random_boards_never_panic_and_undo_is_exact(
        cells in prop::collection::vec(arb_cell(), 36),
        inputs in prop::collection::vec(0u8..7, 0..25),
    ) {
        let rows: Vec<serde_json::Value> = cells.chunks(6).map(|c| serde_json::json!(c)).collect();
        let doc = serde_json::json!({"kind": "baba", "name": "p", "width": 6, "height": 6, "map": rows});
        let level = BabaLevel::from_json(&doc).expect("valid");
        let mut g = BabaGame::new(level, 1);
        for i in inputs {
            let input = match i {
                0 => Input::Move(Dir::Left),
                1 => Input::Move(Dir::Right),
                2 => Input::Move(Dir::Up),
                3 => Input::Move(Dir::Down),
                4 => Input::Wait,
                5 => Input::Undo,
                _ => Input::Restart,
            };
            let before = g.state_hash();
            let was_won = g.status().is_over() && matches!(g.status(), tilesmith_engine::Status::Won { .. });
            g.step(input);
            if matches!(input, Input::Move(_) | Input::Wait) && !was_won {
                g.undo();
                prop_assert_eq!(g.state_hash(), before);
                g.redo();
            }
            let _ = g.summary();
            let _ = g.to_level();
        }
    }

    /// Arbitrary JSON values in cells give problems, never a panic.
    #[test]
    fn arbitrary_cells_never_panic(s in ".{0,40}", n in any::<i64>()) {
        let doc = serde_json::json!({"kind": "baba", "width": 2, "height": 1,
            "map": [[s, {"token": s, "values": {"direction": n}}]]});
        let _ = BabaLevel::from_json(&doc);
        let _ = tilesmith_engine::GameKind::check(&tilesmith_engine::kind::baba::Baba, &doc);
    }
}

#[test]
fn undo_history_is_bounded_and_restart_still_reaches_the_start() {
    use tilesmith_engine::kind::baba::game::MIN_HISTORY_TURNS;
    use tilesmith_engine::kind::baba::{BabaGame, BabaLevel};
    let doc: serde_json::Value = serde_json::from_str(
        r#"{"kind":"baba","name":"walk","width":8,"height":3,
            "map":[["text_baba","text_is","text_you",null,null,null,null,null],
                   ["baba",null,null,null,null,null,null,null],
                   [null,null,null,null,null,null,null,null]]}"#,
    )
    .unwrap();
    let mut g = BabaGame::new(BabaLevel::from_json(&doc).unwrap(), 0);
    // A budget of one object copy: the history keeps only the minimum number of turns.
    g.set_history_budget(1);
    let start = g.state_hash();
    let turns = MIN_HISTORY_TURNS + 6;
    for i in 0..turns {
        let d = if i % 2 == 0 {
            tilesmith_engine::Dir::Right
        } else {
            tilesmith_engine::Dir::Left
        };
        g.step(tilesmith_engine::Input::Move(d));
    }
    assert_eq!(g.steps(), turns as u64);
    let mut undone = 0;
    while g.undo() {
        undone += 1;
    }
    assert_eq!(undone, MIN_HISTORY_TURNS, "only the last turns are kept");
    assert_eq!(g.steps(), 6);
    g.step(tilesmith_engine::Input::Restart);
    assert_eq!(
        g.state_hash(),
        start,
        "restart returns to the level's start"
    );
    assert_eq!(g.steps(), 0);
}

//! Bad falling level files get located errors (JSON path, line and column), never a panic;
//! warnings name what a designer probably did not mean; and a level survives `to_json` →
//! `from_json` unchanged, unknown members included (issue 10, `docs/falling-level-format.md`).

#![allow(clippy::unwrap_used)]

use serde_json::{Value, json};
use tilesmith_engine::kind::falling::FallingLevel;
use tilesmith_engine::kind::falling::level::{
    ClearRule, FallLaw, GameOver, Goal, MAX_CELLS, Order, Role, ScoreRule, Timing,
};
use tilesmith_engine::kind::falling::shape::Kicks;
use tilesmith_engine::{Input, Problem, load_text};

/// A valid level with two tumos, a clear rule and a fall law: no errors, no warnings.
fn base() -> Value {
    json!({
        "kind": "falling",
        "name": "Base",
        "width": 6,
        "height": 8,
        "blocks": [
            {"name": "red", "color": [255, 0, 0], "form": "round", "role": "normal"},
            {"name": "green", "color": [0, 255, 0], "form": "round"},
            {"name": "ojama", "color": [128, 128, 128], "role": "garbage"}
        ],
        "tumos": [
            {"name": "pair",
             "states": [[[0, 1, 0], [0, 2, 0], [0, 0, 0]], [[0, 0, 0], [0, 2, 1], [0, 0, 0]],
                        [[0, 0, 0], [0, 2, 0], [0, 1, 0]], [[0, 0, 0], [1, 2, 0], [0, 0, 0]]],
             "pivot": [1, 1],
             "kicks": {"0>1": [[0, 0], [-1, 0]], "1>0": [[0, 0], [1, 0]]}},
            {"name": "bar",
             "states": [[[0, -1, 0], [0, -1, 0], [0, -1, 0]], [[0, 0, 0], [-1, -1, -1], [0, 0, 0]]],
             "block": "green"}
        ],
        "clear": [{"rule": "connected", "min": 4}],
        "fall": ["gravity"],
        "legend": {"R": "red", "G": "green", "O": "ojama"},
        "field": ["......", "......", "......", "......", "......", "......", "R.....", "RG.O.."]
    })
}

fn with(f: impl FnOnce(&mut Value)) -> Value {
    let mut v = base();
    f(&mut v);
    v
}

fn without(key: &str) -> Value {
    with(|v| {
        v.as_object_mut().unwrap().remove(key);
    })
}

/// Every problem `tilesmith check` reports for a document, located in its pretty text.
fn check(doc: &Value) -> (Vec<Problem>, String) {
    let text = serde_json::to_string_pretty(doc).unwrap();
    let problems = match load_text(&text) {
        Ok(d) => d.check(),
        Err(p) => p,
    };
    (problems, text)
}

fn errors(doc: &Value) -> Vec<Problem> {
    check(doc).0.into_iter().filter(Problem::is_error).collect()
}

/// The one error of `doc`: asserts its path, that its message contains `needle`, and that its
/// line and column point at the start of the value at that path in the text.
fn one_error(doc: &Value, path: &str, needle: &str) -> Problem {
    let (problems, text) = check(doc);
    let e: Vec<Problem> = problems.into_iter().filter(Problem::is_error).collect();
    assert_eq!(e.len(), 1, "expected one error at {path}, got {e:#?}");
    let p = e[0].clone();
    assert_eq!(p.path.to_string(), path, "{p:#?}");
    assert!(
        p.message.contains(needle),
        "message {:?} lacks {needle:?}",
        p.message
    );
    assert_located(&p, &text, doc);
    p
}

/// The problem's line and column are where its path's value starts in the text (or, for a
/// missing member, where its parent starts).
fn assert_located(p: &Problem, text: &str, doc: &Value) {
    let (Some(line), Some(col)) = (p.line, p.column) else {
        panic!("{p:#?} is not located");
    };
    let at: String = text
        .lines()
        .nth(line - 1)
        .unwrap()
        .chars()
        .skip(col - 1)
        .collect();
    // The deepest existing value on the path.
    let mut v = doc;
    for seg in &p.path.0 {
        let next = match seg {
            tilesmith_engine::problem::PathSeg::Key(k) => v.get(k),
            tilesmith_engine::problem::PathSeg::Index(i) => v.get(*i),
        };
        match next {
            Some(n) => v = n,
            None => break,
        }
    }
    let first = match v {
        Value::Object(_) => "{".to_string(),
        Value::Array(_) => "[".to_string(),
        other => other.to_string(),
    };
    assert!(
        at.starts_with(&first),
        "{} is located at line {line} column {col}, where the text is {at:?}, not {first:?}",
        p.path
    );
}

#[test]
fn the_base_level_is_valid_and_has_no_warnings() {
    let (problems, _) = check(&base());
    assert!(problems.is_empty(), "{problems:#?}");
    let l = FallingLevel::from_json(&base()).unwrap();
    assert_eq!(l.field.width, 6);
    assert_eq!(l.field.height, 8);
    assert_eq!(l.blocks[1].role, Role::Normal, "role defaults to normal");
    assert_eq!(l.blocks[1].form, "round");
    assert_eq!(l.blocks[2].role, Role::Garbage);
    assert_eq!(l.block_named("ojama"), Some(3));
    // Defaults (issue 10, docs/falling-level-format.md).
    assert!(!l.quick_turn && !l.hard_drop && !l.shadow);
    assert_eq!(l.hidden_rows, 0);
    assert_eq!(l.game_over, vec![GameOver::SpawnBlocked]);
    assert_eq!(l.sequence.order, Order::Random);
    assert_eq!(l.sequence.tumos, vec![0, 1], "every tumo by default");
    assert_eq!(l.timing, Timing::default());
    assert_eq!(l.preview, 2);
    assert_eq!(l.score, None);
    assert_eq!(l.goal, None);
    assert_eq!(l.active, None);
    // The pair's labels default to every normal kind; the bar's -1 cells are green.
    assert_eq!(l.tumos[0].labels, vec![1, 2]);
    assert_eq!(l.tumos[1].block, 2);
    assert_eq!(l.tumos[1].pivot, [1.0, 1.0], "the grid's centre by default");
    // The field: row 7 is "RG.O..", y from the top.
    assert_eq!(l.field.get(0, 7), 1);
    assert_eq!(l.field.get(1, 7), 2);
    assert_eq!(l.field.get(3, 7), 3);
    assert_eq!(l.field.get(0, 6), 1);
    assert_eq!(l.field.get(2, 7), 0);
    match &l.tumos[0].kicks {
        Kicks::Table(t) => {
            assert_eq!(t.get(&(0, 1)), Some(&vec![(0, 0), (-1, 0)]));
            assert_eq!(t.len(), 2);
        }
        Kicks::None => panic!("kicks were given"),
    }
}

#[test]
fn a_tumo_without_block_takes_kind_index_plus_one() {
    // Spec A1: tumo i (from 0) has kind i + 1 when "block" is missing.
    let l = FallingLevel::from_json(&with(|v| {
        v["tumos"][1].as_object_mut().unwrap().remove("block");
    }))
    .unwrap();
    assert_eq!(l.tumos[1].block, 2);
    // Tumo 3 (index 3) with -1 cells and only 3 kinds: no default.
    let doc = with(|v| {
        let bar = v["tumos"][1].clone();
        for name in ["b2", "b3"] {
            let mut t = bar.clone();
            t["name"] = json!(name);
            t.as_object_mut().unwrap().remove("block");
            v["tumos"].as_array_mut().unwrap().push(t);
        }
    });
    one_error(&doc, "$.tumos[3]", "\"block\" is missing");
}

// ---------------------------------------------------------------------------------------------
// Top-level members.

#[test]
fn width_and_height_errors() {
    one_error(
        &with(|v| v["width"] = json!("6")),
        "$.width",
        "must be a whole number",
    );
    one_error(&with(|v| v["width"] = json!(0)), "$.width", "at least 1");
    one_error(&with(|v| v["height"] = json!(257)), "$.height", "too large");
    one_error(&without("height"), "$.height", "missing");
    // A field row count that differs from the height.
    one_error(&with(|v| v["height"] = json!(9)), "$.field", "has 8 rows");
}

#[test]
fn absurd_sizes_are_refused_before_allocating() {
    // A width of 10^12 would be a huge field: refused at the number.
    one_error(
        &with(|v| v["width"] = json!(1_000_000_000_000u64)),
        "$.width",
        "too large",
    );
    // A field of a million rows is refused before a row is read.
    let rows = vec![Value::String("......".into()); 1_000_000];
    let e = errors(&with(|v| v["field"] = Value::Array(rows)));
    assert!(
        e.iter()
            .any(|p| p.path.to_string() == "$.field" && p.message.contains("at most")),
        "{e:#?}"
    );
    // The largest field is accepted.
    assert_eq!(MAX_CELLS, 256 * 256);
    let doc = with(|v| {
        v["width"] = json!(256);
        v["height"] = json!(256);
        v.as_object_mut().unwrap().remove("field");
    });
    assert!(errors(&doc).is_empty());
    // A state grid of 100 rows and a kick list of 10^5 offsets are refused at their arrays.
    let big = vec![json!([0]); 100];
    one_error(
        &with(|v| v["tumos"][1]["states"][0] = Value::Array(big)),
        "$.tumos[1].states[0]",
        "at most 8",
    );
    let kicks = vec![json!([0, 0]); 100_000];
    one_error(
        &with(|v| v["tumos"][0]["kicks"]["0>1"] = Value::Array(kicks)),
        "$.tumos[0].kicks[\"0>1\"]",
        "at most 32",
    );
}

#[test]
fn wrong_types_of_top_level_members() {
    one_error(
        &with(|v| v["quick_turn"] = json!(1)),
        "$.quick_turn",
        "true or false",
    );
    one_error(
        &with(|v| v["clear"] = json!({"rule": "rows"})),
        "$.clear",
        "must be an array",
    );
    one_error(
        &with(|v| v["fall"] = json!("gravity")),
        "$.fall",
        "must be an array",
    );
    one_error(
        &with(|v| v["timing"] = json!([1])),
        "$.timing",
        "must be an object",
    );
    one_error(
        &with(|v| v["script"] = json!(5)),
        "$.script",
        "must be a string",
    );
    one_error(
        &with(|v| v["name"] = json!(5)),
        "$.name",
        "must be a string",
    );
    one_error(&with(|v| v["preview"] = json!(17)), "$.preview", "0 to 16");
    one_error(
        &with(|v| v["hidden_rows"] = json!(9)),
        "$.hidden_rows",
        "0 to 8",
    );
}

#[test]
fn kind_mismatch_is_reported_by_from_json() {
    let e = FallingLevel::from_json(&with(|v| v["kind"] = json!("baba"))).unwrap_err();
    assert_eq!(e[0].path.to_string(), "$.kind");
    let e = FallingLevel::from_json(&without("kind")).unwrap_err();
    assert!(e[0].message.contains("\"kind\" is missing"), "{e:#?}");
    // Any ASCII case names the kind.
    assert!(FallingLevel::from_json(&with(|v| v["kind"] = json!("FALLING"))).is_ok());
}

// ---------------------------------------------------------------------------------------------
// Blocks.

#[test]
fn block_errors() {
    // Without blocks every name that refers to one fails too; the first error is the cause.
    let e = errors(&without("blocks"));
    assert_eq!(e[0].path.to_string(), "$.blocks", "{e:#?}");
    assert!(e[0].message.contains("missing"));
    let e = errors(&with(|v| v["blocks"] = json!([])));
    assert_eq!(e[0].path.to_string(), "$.blocks", "{e:#?}");
    assert!(e[0].message.contains("at least one"));
    let p = one_error(
        &with(|v| v["blocks"][1]["role"] = json!("metal")),
        "$.blocks[1].role",
        "unknown role \"metal\"",
    );
    assert!(
        p.message.contains("normal, garbage, iron"),
        "lists the known roles: {}",
        p.message
    );
    one_error(
        &with(|v| v["blocks"][0]["color"] = json!([1, 2])),
        "$.blocks[0].color",
        "[r, g, b]",
    );
    one_error(
        &with(|v| v["blocks"][0]["color"][2] = json!(300)),
        "$.blocks[0].color[2]",
        "0 to 255",
    );
    one_error(
        &with(|v| {
            v["blocks"]
                .as_array_mut()
                .unwrap()
                .push(json!({"name": "green"}))
        }),
        "$.blocks[3].name",
        "already defined by blocks[1]",
    );
    one_error(
        &with(|v| {
            v["blocks"]
                .as_array_mut()
                .unwrap()
                .push(json!({"color": [1, 2, 3]}))
        }),
        "$.blocks[3]",
        "needs a \"name\"",
    );
    // 100 block kinds: more than ids 1–99 can hold.
    let many: Vec<Value> = (0..100).map(|i| json!({"name": format!("k{i}")})).collect();
    let e = errors(&with(|v| v["blocks"] = Value::Array(many)));
    assert_eq!(e[0].path.to_string(), "$.blocks", "{e:#?}");
    assert!(e[0].message.contains("at most 99"));
}

// ---------------------------------------------------------------------------------------------
// Tumos.

#[test]
fn state_count_and_shape_errors() {
    one_error(
        &with(|v| v["tumos"][0]["states"] = json!([])),
        "$.tumos[0].states",
        "1 to 8 rotation states, found 0",
    );
    let nine = vec![json!([[-1]]); 9];
    one_error(
        &with(|v| v["tumos"][1]["states"] = Value::Array(nine)),
        "$.tumos[1].states",
        "at most 8",
    );
    // A row of 2 cells in a 3-row state: not square.
    one_error(
        &with(|v| v["tumos"][1]["states"][0][1] = json!([0, -1])),
        "$.tumos[1].states[0][1]",
        "square",
    );
    // State 1 is 2 × 2 but state 0 is 3 × 3.
    one_error(
        &with(|v| v["tumos"][1]["states"][1] = json!([[-1, -1], [-1, 0]])),
        "$.tumos[1].states[1]",
        "same side",
    );
    one_error(
        &with(|v| v["tumos"][1]["states"] = json!("none")),
        "$.tumos[1].states",
        "must be an array",
    );
    one_error(
        &with(|v| v["tumos"][1]["states"][1] = json!([[0, 0, 0], [0, 0, 0], [0, 0, 0]])),
        "$.tumos[1].states[1]",
        "no block",
    );
}

#[test]
fn cell_values_other_than_empty_own_kind_or_label_are_errors() {
    for bad in [json!(-2), json!(65), json!(1.5), json!("1"), json!(null)] {
        one_error(
            &with(|v| v["tumos"][1]["states"][0][0][1] = bad.clone()),
            "$.tumos[1].states[0][0][1]",
            "a state cell must be 0",
        );
    }
}

#[test]
fn labels_keep_their_identity_across_states() {
    // Label 2 twice in state 0.
    one_error(
        &with(|v| v["tumos"][0]["states"][0] = json!([[0, 2, 0], [0, 2, 0], [0, 1, 0]])),
        "$.tumos[0].states[0]",
        "label 2 appears more than once",
    );
    // Labels 1 and 3 but no 2.
    let doc = with(|v| {
        for s in 0..4 {
            let cells = v["tumos"][0]["states"][s].to_string().replace('2', "3");
            v["tumos"][0]["states"][s] = serde_json::from_str(&cells).unwrap();
        }
    });
    one_error(
        &doc,
        "$.tumos[0].states[0]",
        "label 3 is used but label 2 is not",
    );
    // State 1 has labels 1 and 3 while state 0 has 1 and 2.
    one_error(
        &with(|v| v["tumos"][0]["states"][1] = json!([[0, 0, 0], [0, 3, 1], [0, 0, 0]])),
        "$.tumos[0].states[1]",
        "state 1 has labels 1, 3 but state 0 has 1, 2",
    );
}

#[test]
fn names_that_do_not_resolve() {
    let p = one_error(
        &with(|v| v["tumos"][1]["block"] = json!("blue")),
        "$.tumos[1].block",
        "unknown block kind \"blue\"",
    );
    assert!(
        p.message.contains("\"red\", \"green\", \"ojama\""),
        "{}",
        p.message
    );
    one_error(
        &with(|v| v["tumos"][0]["labels"] = json!(["red", "purple"])),
        "$.tumos[0].labels[1]",
        "unknown block kind \"purple\"",
    );
    let p = one_error(
        &with(|v| v["sequence"] = json!({"order": "bag", "tumos": ["pair", "T"]})),
        "$.sequence.tumos[1]",
        "unknown tumo \"T\"",
    );
    assert!(p.message.contains("\"pair\", \"bar\""), "{}", p.message);
    one_error(
        &with(|v| v["legend"]["X"] = json!("steel")),
        "$.legend.X",
        "unknown block kind \"steel\"",
    );
    one_error(
        &with(|v| v["tumos"][1]["name"] = json!("pair")),
        "$.tumos[1].name",
        "already defined by tumos[0]",
    );
    // Labels with no kind to draw from: no normal kind and no "labels".
    let doc = with(|v| {
        v["blocks"][0]["role"] = json!("iron");
        v["blocks"][1]["role"] = json!("garbage");
    });
    one_error(&doc, "$.tumos[0]", "no block kind to draw them from");
}

#[test]
fn pivot_must_be_whole_or_half_inside_the_grid() {
    one_error(
        &with(|v| v["tumos"][0]["pivot"] = json!([0.25, 1])),
        "$.tumos[0].pivot[0]",
        "a whole number or a half",
    );
    one_error(
        &with(|v| v["tumos"][0]["pivot"] = json!([1, 3])),
        "$.tumos[0].pivot[1]",
        "from -0.5 to 2.5",
    );
    one_error(
        &with(|v| v["tumos"][0]["pivot"] = json!([1])),
        "$.tumos[0].pivot",
        "[x, y]",
    );
    let l =
        FallingLevel::from_json(&with(|v| v["tumos"][0]["pivot"] = json!([1.5, -0.5]))).unwrap();
    assert_eq!(l.tumos[0].pivot, [1.5, -0.5]);
}

#[test]
fn kick_keys_and_offsets() {
    for key in ["0-1", "0>", ">1", "a>b", "0>1>2", "00>001"] {
        one_error(
            &with(|v| v["tumos"][0]["kicks"][key] = json!([[0, 0]])),
            &format!("$.tumos[0].kicks[\"{key}\"]"),
            "\"i>j\"",
        );
    }
    one_error(
        &with(|v| v["tumos"][0]["kicks"]["0>4"] = json!([[0, 0]])),
        "$.tumos[0].kicks[\"0>4\"]",
        "states 0 to 3",
    );
    one_error(
        &with(|v| v["tumos"][0]["kicks"]["2>2"] = json!([[0, 0]])),
        "$.tumos[0].kicks[\"2>2\"]",
        "into itself",
    );
    one_error(
        &with(|v| v["tumos"][0]["kicks"]["0>1"][1] = json!([1, 0.5])),
        "$.tumos[0].kicks[\"0>1\"][1][1]",
        "whole number",
    );
    one_error(
        &with(|v| v["tumos"][0]["kicks"]["0>1"][1] = json!([1])),
        "$.tumos[0].kicks[\"0>1\"][1]",
        "[x, y]",
    );
    one_error(
        &with(|v| v["tumos"][0]["kicks"] = json!("srs")),
        "$.tumos[0].kicks",
        "\"none\" or an object",
    );
    let l = FallingLevel::from_json(&with(|v| v["tumos"][0]["kicks"] = json!("none"))).unwrap();
    assert_eq!(l.tumos[0].kicks, Kicks::None);
}

#[test]
fn spawn_positions_must_keep_the_tumo_inside_the_field() {
    // The bar's blocks are in grid column 1: spawn x = 5 puts them in column 6 of 6.
    one_error(
        &with(|v| v["tumos"][1]["spawn"] = json!([5, 0])),
        "$.tumos[1].spawn",
        "outside",
    );
    one_error(
        &with(|v| v["tumos"][1]["spawn"] = json!([1, 6])),
        "$.tumos[1].spawn",
        "outside",
    );
    assert!(errors(&with(|v| v["tumos"][1]["spawn"] = json!([-1, 0]))).is_empty());
    // A tumo wider than the field cannot be centred.
    one_error(
        &with(|v| {
            v["width"] = json!(2);
            v["field"] = json!(["..", "..", "..", "..", "..", "..", "R.", "RG"]);
            v["tumos"][1]["states"][1] = json!([[0, 0, 0], [-1, -1, -1], [0, 0, 0]]);
            v["tumos"][1]["states"] = json!([[[-1, -1, -1], [0, 0, 0], [0, 0, 0]]]);
        }),
        "$.tumos[1]",
        "does not fit",
    );
}

// ---------------------------------------------------------------------------------------------
// Rules.

#[test]
fn unknown_rule_words_list_the_known_ones() {
    let p = one_error(
        &with(|v| v["clear"][0] = json!({"rule": "colors"})),
        "$.clear[0].rule",
        "unknown clear rule \"colors\"",
    );
    assert!(
        p.message.contains("connected, rows, squares, lines"),
        "{}",
        p.message
    );
    one_error(
        &with(|v| v["clear"][0] = json!({"min": 4})),
        "$.clear[0]",
        "needs a \"rule\"",
    );
    one_error(
        &with(|v| v["clear"][0]["min"] = json!(0)),
        "$.clear[0].min",
        "from 1",
    );
    one_error(
        &with(|v| v["clear"][0] = json!({"rule": "lines", "diagonal": "yes"})),
        "$.clear[0].diagonal",
        "true or false",
    );
    let p = one_error(
        &with(|v| v["fall"] = json!(["gravity", "magnet"])),
        "$.fall[1]",
        "unknown fall law \"magnet\"",
    );
    assert!(p.message.contains("gravity, rows, joined"));
    one_error(
        &with(|v| v["game_over"] = json!([{"rule": "top_row_timeout"}])),
        "$.game_over[0]",
        "needs \"frames\"",
    );
    one_error(
        &with(|v| v["game_over"] = json!([{"rule": "top_row_timeout", "frames": 0}])),
        "$.game_over[0].frames",
        "from 1",
    );
    one_error(
        &with(|v| v["game_over"] = json!([{"rule": "overflow"}])),
        "$.game_over[0].rule",
        "spawn_blocked, top_row, top_row_timeout",
    );
    one_error(
        &with(|v| v["sequence"] = json!({"order": "shuffle"})),
        "$.sequence.order",
        "random, bag, fixed",
    );
    one_error(
        &with(|v| v["timing"] = json!({"lock": -1})),
        "$.timing.lock",
        "from 0 to 216000",
    );
    one_error(
        &with(|v| v["score"] = json!({"rule": "tetris"})),
        "$.score.rule",
        "puyo, rows",
    );
    one_error(
        &with(|v| v["score"] = json!({"rule": "rows", "points": []})),
        "$.score.points",
        "at least one entry",
    );
    one_error(
        &with(|v| v["score"] = json!({"rule": "puyo", "chain_bonus": [0, -8]})),
        "$.score.chain_bonus[1]",
        "from 0",
    );
    one_error(
        &with(|v| v["goal"] = json!({"rule": "chain"})),
        "$.goal",
        "needs \"min\"",
    );
    one_error(
        &with(|v| v["goal"] = json!({"rule": "perfect"})),
        "$.goal.rule",
        "clear_all, chain, score, rows",
    );
}

#[test]
fn rules_are_read_with_their_defaults() {
    let l = FallingLevel::from_json(&with(|v| {
        v["clear"] = json!([{"rule": "connected"}, {"rule": "rows"}, {"rule": "squares"},
            {"rule": "lines"}, {"rule": "lines", "min": 5, "diagonal": true}]);
        v["fall"] = json!(["rows", "gravity", "joined"]);
        v["game_over"] = json!([{"rule": "top_row"}, {"rule": "top_row_timeout", "frames": 90}]);
        v["sequence"] = json!({"order": "fixed", "tumos": ["bar", "pair", "bar"]});
        v["timing"] = json!({"gravity": 0, "fall": 7});
        v["score"] = json!({"rule": "rows"});
        v["goal"] = json!({"rule": "score", "min": 1000});
    }))
    .unwrap();
    assert_eq!(
        l.clear,
        vec![
            ClearRule::Connected { min: 4 },
            ClearRule::Rows,
            ClearRule::Squares { size: 2 },
            ClearRule::Lines {
                min: 3,
                diagonal: false
            },
            ClearRule::Lines {
                min: 5,
                diagonal: true
            },
        ]
    );
    assert_eq!(
        l.fall,
        vec![FallLaw::Rows, FallLaw::Gravity, FallLaw::Joined]
    );
    assert_eq!(
        l.game_over,
        vec![GameOver::TopRow, GameOver::TopRowTimeout { frames: 90 }]
    );
    assert_eq!(l.sequence.order, Order::Fixed);
    assert_eq!(l.sequence.tumos, vec![1, 0, 1]);
    assert_eq!(l.timing.gravity, 0);
    assert_eq!(l.timing.fall, 7);
    assert_eq!(
        l.timing.lock,
        Timing::default().lock,
        "missing members default"
    );
    assert_eq!(l.score, Some(ScoreRule::Rows(vec![0, 100, 300, 500, 800])));
    assert_eq!(l.goal, Some(Goal::Score { min: 1000 }));
    // The Puyo tables default to Tsu's (puyo_scoring.json).
    let l = FallingLevel::from_json(&with(|v| v["score"] = json!({"rule": "puyo"}))).unwrap();
    let Some(ScoreRule::Puyo(t)) = l.score else {
        panic!("puyo score")
    };
    assert_eq!(t.chain_bonus[2], 8);
    assert_eq!(t.chain_bonus[19], 512);
    assert_eq!(t.color_bonus, vec![0, 0, 3, 6, 12, 24]);
    assert_eq!(t.group_bonus, vec![0, 0, 0, 0, 0, 2, 3, 4, 5, 6, 7, 10]);
}

// ---------------------------------------------------------------------------------------------
// Field, legend, active tumo, state.

#[test]
fn field_and_legend_errors() {
    one_error(
        &with(|v| v["field"][2] = json!(".....")),
        "$.field[2]",
        "has 5 cells but \"width\" is 6",
    );
    let p = one_error(
        &with(|v| v["field"][7] = json!("RG.X..")),
        "$.field[7]",
        "row 7, column 3: \"X\" is not in \"legend\"",
    );
    assert_eq!(p.cell, Some(tilesmith_engine::Pos::new(3, 7)));
    one_error(
        &with(|v| v["field"][0] = json!(7)),
        "$.field[0]",
        "must be a string",
    );
    one_error(
        &with(|v| v["legend"]["RR"] = json!("red")),
        "$.legend.RR",
        "one character",
    );
    one_error(
        &with(|v| v["legend"]["."] = json!("red")),
        "$.legend[\".\"]",
        "empty cell",
    );
    // Non-ASCII characters count as one cell each.
    let l = FallingLevel::from_json(&with(|v| {
        v["legend"]["é"] = json!("green");
        v["field"][0] = json!("é....é");
    }))
    .unwrap();
    assert_eq!(l.field.get(0, 0), 2);
    assert_eq!(l.field.get(5, 0), 2);
}

#[test]
fn active_tumo_errors() {
    let ok = json!({"tumo": "pair", "state": 1, "x": 2, "y": 3, "labels": ["green", "red"]});
    let l = FallingLevel::from_json(&with(|v| v["active"] = ok.clone())).unwrap();
    let a = l.active.unwrap();
    assert_eq!((a.tumo, a.state, a.x, a.y), (0, 1, 2, 3));
    assert_eq!(a.labels, vec![2, 1]);
    one_error(
        &with(|v| {
            v["active"] = ok.clone();
            v["active"]["tumo"] = json!("Z");
        }),
        "$.active.tumo",
        "unknown tumo \"Z\"",
    );
    one_error(
        &with(|v| {
            v["active"] = ok.clone();
            v["active"]["state"] = json!(4);
        }),
        "$.active.state",
        "from 0 to 3",
    );
    // State 1 at x = 4 puts label 1 in column 6 of 6.
    one_error(
        &with(|v| {
            v["active"] = ok.clone();
            v["active"]["x"] = json!(4);
        }),
        "$.active",
        "outside the field",
    );
    // At x = -1, y = 5 in state 1 the axis is at (0, 6), where the field holds red.
    one_error(
        &with(|v| {
            v["active"] = ok.clone();
            v["active"]["x"] = json!(-1);
            v["active"]["y"] = json!(5);
        }),
        "$.active",
        "overlaps the field block at [0, 6]",
    );
    one_error(
        &with(|v| {
            v["active"] = ok.clone();
            v["active"]["labels"] = json!(["red"]);
        }),
        "$.active.labels",
        "2 labelled blocks but \"labels\" names 1",
    );
    one_error(
        &with(|v| {
            v["active"] = json!({"tumo": "pair"});
        }),
        "$.active",
        "needs \"labels\"",
    );
    // The bar has no labels; x and y default to its spawn position (centred: x = 1, y = 0).
    let l = FallingLevel::from_json(&with(|v| v["active"] = json!({"tumo": "bar"}))).unwrap();
    let a = l.active.unwrap();
    assert_eq!((a.x, a.y, a.state), (1, 0, 0));
}

#[test]
fn saved_state_errors() {
    for (state, path, needle) in [
        (json!({"rng": "abc:1"}), "$.state.rng", "64 hex digits"),
        (json!({"frames": -1}), "$.state.frames", "from 0"),
        (
            json!({"status": "paused"}),
            "$.state.status",
            "\"running\", \"won\" or \"lost\"",
        ),
        (
            json!({"reason": "x"}),
            "$.state.reason",
            "only for a \"lost\"",
        ),
        (
            json!({"queue": [{"tumo": "nope"}]}),
            "$.state.queue[0].tumo",
            "unknown tumo",
        ),
        (
            json!({"queue": [{"tumo": "pair", "labels": ["red"]}]}),
            "$.state.queue[0].labels",
            "2 labelled",
        ),
        (
            json!({"bag": ["bar", 3]}),
            "$.state.bag[1]",
            "must be a string",
        ),
        (json!({"moving": [[1, 1, 2]]}), "$.state.moving[0]", "empty"),
        (
            json!({"moving": [[6, 1, 2]]}),
            "$.state.moving[0][0]",
            "from 0 to 5",
        ),
        (
            json!({"pending": {"frames": 0}}),
            "$.state.pending.frames",
            "from 1",
        ),
        (
            json!({"fixed_next": 3}),
            "$.state.fixed_next",
            "from 0 to 2",
        ),
        (
            json!({"last_failed_turn": {"turn": "UP", "frame": 1}}),
            "$.state.last_failed_turn.turn",
            "CW",
        ),
        (json!({"speed": 1}), "$.state.speed", "unknown member"),
    ] {
        one_error(&with(|v| v["state"] = state.clone()), path, needle);
    }
}

// ---------------------------------------------------------------------------------------------
// Warnings.

fn warnings(doc: &Value) -> Vec<Problem> {
    let (p, text) = check(doc);
    assert!(p.iter().all(|x| !x.is_error()), "{p:#?}");
    for w in &p {
        assert_located(w, &text, doc);
    }
    p
}

#[test]
fn warnings_for_what_is_probably_a_mistake() {
    // A tumo the sequence never lists.
    let w = warnings(&with(|v| v["sequence"] = json!({"tumos": ["pair"]})));
    assert_eq!(w.len(), 1, "{w:#?}");
    assert_eq!(w[0].path.to_string(), "$.tumos[1]");
    assert!(w[0].message.contains("never played"), "{}", w[0].message);
    // ... unless it is the active tumo.
    let w = warnings(&with(|v| {
        v["sequence"] = json!({"tumos": ["pair"]});
        v["active"] = json!({"tumo": "bar"});
    }));
    assert!(w.is_empty(), "{w:#?}");
    // A rows fall law with no clear rule that clears rows.
    let w = warnings(&with(|v| v["fall"] = json!(["rows"])));
    assert_eq!(w.len(), 1, "{w:#?}");
    assert_eq!(w[0].path.to_string(), "$.fall[0]");
    let w = warnings(&with(|v| {
        v["fall"] = json!(["rows"]);
        v["clear"] = json!([{"rule": "rows"}]);
    }));
    assert!(w.is_empty(), "{w:#?}");
    // Unknown members of rule objects and timing, an unknown form.
    let w = warnings(&with(|v| {
        v["clear"][0]["minimum"] = json!(3);
        v["timing"] = json!({"gravty": 3});
        v["blocks"][0]["form"] = json!("hexagon");
    }));
    let paths: Vec<String> = w.iter().map(|p| p.path.to_string()).collect();
    assert_eq!(
        paths,
        vec!["$.blocks[0].form", "$.clear[0].minimum", "$.timing.gravty"]
    );
    // No clear rule and no script.
    let w = warnings(&with(|v| v["clear"] = json!([])));
    assert_eq!(w.len(), 1);
    assert_eq!(w[0].path.to_string(), "$.clear");
    // A state that changes the number of blocks.
    let w = warnings(&with(|v| {
        v["tumos"][1]["states"][1] = json!([[0, 0, 0], [-1, -1, 0], [0, 0, 0]]);
    }));
    assert_eq!(w.len(), 1, "{w:#?}");
    assert_eq!(w[0].path.to_string(), "$.tumos[1].states[1]");
}

#[test]
fn a_kick_table_on_a_one_state_tumo_is_a_warning() {
    // A one-state tumo has no "i>j" pair, so any key is an error; the warning is for a table
    // that is there at all but can never be used.
    let w = warnings(&with(|v| {
        v["tumos"][1]["states"] = json!([[[0, -1, 0], [0, -1, 0], [0, -1, 0]]]);
        v["tumos"][1]["kicks"] = json!({});
    }));
    assert_eq!(w.len(), 1, "{w:#?}");
    assert_eq!(w[0].path.to_string(), "$.tumos[1].kicks");
    assert!(
        w[0].message.contains("one rotation state"),
        "{}",
        w[0].message
    );
    let e = errors(&with(|v| {
        v["tumos"][1]["states"] = json!([[[0, -1, 0], [0, -1, 0], [0, -1, 0]]]);
        v["tumos"][1]["kicks"] = json!({"0>1": [[0, 0]]});
    }));
    assert_eq!(e.len(), 1, "{e:#?}");
    assert_eq!(e[0].path.to_string(), "$.tumos[1].kicks[\"0>1\"]");
    let l = FallingLevel::from_json(&with(|v| {
        v["tumos"][1]["states"] = json!([[[0, -1, 0], [0, -1, 0], [0, -1, 0]]]);
    }))
    .unwrap();
    let mut l2 = l.clone();
    l2.tumos[1].kicks = Kicks::Table([((0, 1), vec![(0, 0)])].into_iter().collect());
    let w = l2.warnings();
    assert_eq!(w.len(), 1, "{w:#?}");
    assert_eq!(w[0].path.to_string(), "$.tumos[1].kicks");
    assert!(l.warnings().is_empty());
}

// ---------------------------------------------------------------------------------------------
// Round trip.

/// A level using every member, with unknown members at the top, in a block and in a tumo.
fn full() -> Value {
    with(|v| {
        v["author"] = json!({"who": "me", "year": 2026});
        v["blocks"][0]["sprite"] = json!("red.png");
        v["tumos"][0]["comment"] = json!("the Puyo pair");
        v["tumos"][0]["spawn"] = json!([1, 0]);
        v["tumos"][0]["pivot"] = json!([1.5, 0.5]);
        v["tumos"][1]["labels"] = json!(["ojama"]);
        v["quick_turn"] = json!(true);
        v["hard_drop"] = json!(true);
        v["shadow"] = json!(true);
        v["clear"] = json!([{"rule": "connected", "min": 4}, {"rule": "rows"},
            {"rule": "squares", "size": 2}, {"rule": "lines", "min": 3, "diagonal": true}]);
        v["fall"] = json!(["rows", "gravity"]);
        v["hidden_rows"] = json!(1);
        v["game_over"] =
            json!([{"rule": "spawn_blocked"}, {"rule": "top_row_timeout", "frames": 60}]);
        v["sequence"] = json!({"order": "bag", "tumos": ["pair", "bar", "pair"]});
        v["timing"] =
            json!({"gravity": 20, "soft_drop": 1, "lock": 15, "spawn": 7, "clear": 25, "fall": 3});
        v["score"] = json!({"rule": "puyo", "chain_bonus": [0, 0, 8], "color_bonus": [0, 0, 3], "group_bonus": [0]});
        v["goal"] = json!({"rule": "rows", "min": 3});
        v["preview"] = json!(3);
        v["active"] =
            json!({"tumo": "pair", "state": 2, "x": 3, "y": 1, "labels": ["green", "green"]});
        v["script"] = json!("function update()\n  -- nothing\nend\n");
        v["state"] = json!({
            "frames": 99, "score": 1234, "rows": 2, "chain": 3, "max_chain": 4,
            "status": "lost", "reason": "the next tumo cannot appear",
            "rng": format!("{}:17", "ab".repeat(32)),
            "queue": [{"tumo": "bar", "labels": []}, {"tumo": "pair", "labels": ["red", "green"]}],
            "bag": ["pair"], "fixed_next": 1, "gravity_timer": 3, "lock_timer": 2,
            "since_place": 40, "soft_drop_timer": 5, "top_row_frames": 0,
            "last_failed_turn": {"turn": "CW", "frame": 97},
            "placed_since_clear": false, "quiet": false,
            "moving": [[0, 6, 2]],
            "pending": {"frames": 4, "delete": [[0, 7], [1, 7]], "down": [[0, 6, 8]]}
        });
    })
}

#[test]
fn to_json_then_from_json_gives_an_equal_level() {
    for doc in [base(), full()] {
        let l = FallingLevel::from_json(&doc).unwrap();
        let saved = l.to_json();
        let back = FallingLevel::from_json(&saved).unwrap_or_else(|e| panic!("{e:#?}\n{saved:#}"));
        assert_eq!(back, l);
        assert_eq!(back.to_json(), saved, "to_json is stable");
    }
    // Unknown members are written back.
    let saved = FallingLevel::from_json(&full()).unwrap().to_json();
    assert_eq!(saved["author"], json!({"who": "me", "year": 2026}));
    assert_eq!(saved["blocks"][0]["sprite"], "red.png");
    assert_eq!(saved["tumos"][0]["comment"], "the Puyo pair");
    assert_eq!(saved["tumos"][0]["pivot"], json!([1.5, 0.5]));
    assert_eq!(
        saved["tumos"][1]["pivot"],
        json!([1, 1]),
        "whole pivots stay integers"
    );
    assert_eq!(saved["state"]["rng"], format!("{}:17", "ab".repeat(32)));
}

/// `full()` with an unknown member in every rule object, `sequence`, `timing`, `score` and
/// `goal`, and two `connected` rules so the second one's members are told from the first's.
fn full_with_rule_extras() -> Value {
    let mut v = full();
    v["clear"] = json!([
        {"rule": "connected", "min": 4, "note": "first"},
        {"rule": "rows", "weight": 2},
        {"rule": "connected", "min": 5, "note": "second", "tag": [1, 2]},
        {"rule": "squares", "size": 2},
        {"rule": "lines", "min": 3, "diagonal": true, "sweep": {"speed": 4}}
    ]);
    v["game_over"] = json!([
        {"rule": "spawn_blocked", "why": "default"},
        {"rule": "top_row_timeout", "frames": 60, "flash": true}
    ]);
    v["sequence"]["seed_note"] = json!("bag of three");
    v["timing"]["das"] = json!(10);
    v["score"]["display"] = json!("tsu");
    v["goal"]["hint"] = json!("three rows");
    v
}

#[test]
fn unknown_members_of_rules_sequence_timing_score_and_goal_are_kept() {
    let doc = full_with_rule_extras();
    // Warned as having no effect, one per member, each at its place.
    let mut paths: Vec<String> = FallingLevel::check(&doc)
        .iter()
        .filter(|p| p.message.contains("unknown member"))
        .map(|p| {
            assert!(p.message.contains("kept"), "{}", p.message);
            p.path.to_string()
        })
        .collect();
    paths.sort();
    assert_eq!(
        paths,
        [
            "$.clear[0].note",
            "$.clear[1].weight",
            "$.clear[2].note",
            "$.clear[2].tag",
            "$.clear[4].sweep",
            "$.game_over[0].why",
            "$.game_over[1].flash",
            "$.goal.hint",
            "$.score.display",
            "$.sequence.seed_note",
            "$.timing.das",
        ]
    );
    let l = FallingLevel::from_json(&doc).unwrap();
    let saved = l.to_json();
    // Each place writes its members back where they were.
    assert_eq!(saved["clear"], doc["clear"]);
    assert_eq!(saved["game_over"], doc["game_over"]);
    assert_eq!(saved["sequence"]["seed_note"], "bag of three");
    assert_eq!(saved["timing"]["das"], 10);
    assert_eq!(saved["timing"]["gravity"], 20, "known members as before");
    assert_eq!(saved["score"]["display"], "tsu");
    assert_eq!(
        saved["goal"],
        json!({"rule": "rows", "min": 3, "hint": "three rows"})
    );
    let back = FallingLevel::from_json(&saved).unwrap();
    assert_eq!(back, l);
    assert_eq!(back.to_json(), saved, "to_json is stable");
    // Without unknown members nothing is kept.
    assert!(
        FallingLevel::from_json(&full())
            .unwrap()
            .rule_extra
            .is_empty()
    );
}

#[test]
fn kept_members_follow_their_rule_through_edits() {
    let mut l = FallingLevel::from_json(&full_with_rule_extras()).unwrap();
    // Remove the rows rule: the rules after it move up and keep their members (kept per rule
    // word and occurrence), and the removed rule's member is gone.
    l.clear.remove(1);
    let saved = l.to_json();
    assert_eq!(saved["clear"][0]["note"], "first");
    assert_eq!(saved["clear"][1]["note"], "second");
    assert_eq!(saved["clear"][1]["tag"], json!([1, 2]));
    assert!(saved["clear"][2].get("note").is_none(), "squares has none");
    assert_eq!(
        saved["clear"][3]["sweep"],
        json!({"speed": 4}),
        "lines keeps its member"
    );
    assert!(
        saved["clear"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r.get("weight").is_none()),
        "the removed rows rule's member is gone"
    );
    // An edited rule keeps its members.
    l.clear[1] = tilesmith_engine::kind::falling::level::ClearRule::Connected { min: 6 };
    assert_eq!(
        l.to_json()["clear"][1],
        json!({"rule": "connected", "min": 6, "note": "second", "tag": [1, 2]})
    );
    // The game-over list rebuilt in another order (as the editor does) keeps each member
    // with its condition.
    l.game_over.reverse();
    let saved = l.to_json();
    assert_eq!(saved["game_over"][0]["flash"], true);
    assert_eq!(saved["game_over"][1]["why"], "default");
    // A known member of the rule as it now is wins over a kept one of the same name.
    l.goal = Some(tilesmith_engine::kind::falling::level::Goal::Chain { min: 2 });
    l.rule_extra.goal.insert("min".into(), json!(99));
    let saved = l.to_json();
    assert_eq!(
        saved["goal"],
        json!({"rule": "chain", "min": 2, "hint": "three rows"})
    );
}

#[test]
fn removing_the_first_of_two_rules_of_one_word_keeps_the_second_ones_members() {
    use tilesmith_engine::kind::falling::level::GameOver;
    // Kept members are keyed by (rule word, occurrence): removing the first `connected` rule
    // by hand on `clear` would give the remaining one "first". The level's own edit (the one
    // the editor uses) moves the members with their rule.
    let mut l = FallingLevel::from_json(&full_with_rule_extras()).unwrap();
    l.remove_clear_rule(0);
    let saved = l.to_json();
    assert_eq!(saved["clear"][0], json!({"rule": "rows", "weight": 2}));
    assert_eq!(
        saved["clear"][1],
        json!({"rule": "connected", "min": 5, "note": "second", "tag": [1, 2]})
    );
    assert!(
        saved["clear"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r.get("note") != Some(&json!("first"))),
        "the removed rule's member is gone"
    );
    // Swapped, two rules of one word keep their own members.
    let mut l = FallingLevel::from_json(&full_with_rule_extras()).unwrap();
    l.swap_clear_rules(0, 2);
    let saved = l.to_json();
    assert_eq!(saved["clear"][0]["min"], 5);
    assert_eq!(saved["clear"][0]["note"], "second");
    assert_eq!(saved["clear"][2]["min"], 4);
    assert_eq!(saved["clear"][2]["note"], "first");
    assert!(saved["clear"][2].get("tag").is_none());
    // Game-over conditions set anew: two timeouts, the first removed, the second kept with
    // its member; the spawn condition moved last keeps its own.
    let mut doc = full_with_rule_extras();
    doc["game_over"] = json!([
        {"rule": "spawn_blocked", "why": "default"},
        {"rule": "top_row_timeout", "frames": 60, "flash": "first"},
        {"rule": "top_row_timeout", "frames": 90, "flash": "second"}
    ]);
    let mut l = FallingLevel::from_json(&doc).unwrap();
    l.set_game_over(vec![
        GameOver::TopRowTimeout { frames: 90 },
        GameOver::SpawnBlocked,
    ]);
    let saved = l.to_json();
    assert_eq!(
        saved["game_over"],
        json!([
            {"rule": "top_row_timeout", "frames": 90, "flash": "second"},
            {"rule": "spawn_blocked", "why": "default"}
        ])
    );
}

#[test]
fn to_json_completes_the_legend_for_blocks_without_a_character() {
    let mut l = FallingLevel::from_json(&base()).unwrap();
    // Paint a green block and an ojama where the legend has none for them.
    l.legend.retain(|(c, _)| *c == 'R');
    l.field.set(5, 0, 2);
    let saved = l.to_json();
    let back = FallingLevel::from_json(&saved).unwrap_or_else(|e| panic!("{e:#?}\n{saved:#}"));
    assert_eq!(back.field, l.field);
    assert_eq!(saved["legend"]["R"], "red");
    assert_eq!(
        saved["legend"]["g"], "green",
        "the first letter of the name"
    );
    assert_eq!(saved["legend"]["o"], "ojama");
}

// ---------------------------------------------------------------------------------------------
// No panic.

fn replace_nth(v: &mut Value, target: usize, with: &Value, n: &mut usize) -> bool {
    if *n == target {
        *v = with.clone();
        return true;
    }
    *n += 1;
    match v {
        Value::Array(a) => a.iter_mut().any(|e| replace_nth(e, target, with, n)),
        Value::Object(o) => o.values_mut().any(|e| replace_nth(e, target, with, n)),
        _ => false,
    }
}

fn count_nodes(v: &Value) -> usize {
    1 + match v {
        Value::Array(a) => a.iter().map(count_nodes).sum(),
        Value::Object(o) => o.values().map(count_nodes).sum(),
        _ => 0,
    }
}

/// Loads, checks, starts, plays and saves a text; none of it may panic.
fn exercise(text: &str) {
    let Ok(doc) = load_text(text) else { return };
    let problems = doc.check();
    let started = doc.start(7);
    assert_eq!(
        started.is_ok(),
        !problems.iter().any(Problem::is_error),
        "check and start disagree on {text}"
    );
    if let Ok(mut g) = started {
        let inputs = [
            Input::Move(tilesmith_engine::Dir::Left),
            Input::Turn(tilesmith_engine::input::Turn::Cw),
            Input::SoftDrop,
            Input::HardDrop,
            Input::Wait,
            Input::Turn(tilesmith_engine::input::Turn::Half),
            Input::Move(tilesmith_engine::Dir::Right),
            Input::Turn(tilesmith_engine::input::Turn::Ccw),
        ];
        for i in 0..40 {
            g.step(inputs[i % inputs.len()]);
        }
        let saved = g.to_level();
        let again = load_text(&saved.to_string()).unwrap();
        let errs: Vec<Problem> = again
            .check()
            .into_iter()
            .filter(Problem::is_error)
            .collect();
        assert!(
            errs.is_empty(),
            "a saved game does not load: {errs:#?}\n{saved:#}"
        );
        g.step(Input::Restart);
    }
}

#[test]
fn mutated_documents_never_panic() {
    let mut docs = 0;
    // Script-free documents: every value replaced by each of a few others.
    let mut src = full();
    src.as_object_mut().unwrap().remove("script");
    src.as_object_mut().unwrap().remove("state");
    let replacements = [
        json!(null),
        json!(-1),
        json!(0),
        json!(1e300),
        json!("x"),
        json!([]),
        json!({}),
        json!([[0]]),
        json!(4294967296u64),
        json!(9),
    ];
    for src in [base(), src] {
        let n = count_nodes(&src);
        for target in 0..n {
            for r in &replacements {
                let mut v = src.clone();
                let mut k = 0;
                replace_nth(&mut v, target, r, &mut k);
                exercise(&v.to_string());
                docs += 1;
            }
        }
    }
    // Byte mutations of the text: cuts and flipped bytes.
    let text = serde_json::to_string_pretty(&base()).unwrap();
    let bytes = text.as_bytes();
    for i in (0..bytes.len()).step_by(7) {
        let mut b = bytes.to_vec();
        b[i] = b"0-9\"[]{}.:,x"[i % 12];
        if let Ok(t) = String::from_utf8(b) {
            exercise(&t);
            docs += 1;
        }
        let mut b = bytes.to_vec();
        b.drain(i..(i + 5).min(bytes.len()));
        if let Ok(t) = String::from_utf8(b) {
            exercise(&t);
            docs += 1;
        }
    }
    assert!(docs > 300, "only {docs} documents were tried");
}

#[test]
fn huge_inputs_make_few_short_problems() {
    // A huge string where a block name is expected is quoted by a prefix and its length.
    let huge = "a".repeat(1_000_000);
    let e = errors(&with(|v| v["tumos"][1]["block"] = json!(huge.clone())));
    assert_eq!(e.len(), 1, "{}", e.len());
    assert!(e[0].message.len() < 300, "{}", e[0].message.len());
    assert!(e[0].message.contains("(1000000 characters)"));
    let e = errors(&with(|v| v["legend"][&huge] = json!("red")));
    assert_eq!(e.len(), 1);
    assert!(e[0].render("f.json").len() < 400);
    // Objects with 100000 members are refused whole, not member by member.
    let many: serde_json::Map<String, Value> =
        (0..100_000).map(|i| (format!("k{i}"), json!(1))).collect();
    for (key, path) in [
        ("timing", "$.timing"),
        ("legend", "$.legend"),
        ("state", "$.state"),
        ("sequence", "$.sequence"),
        ("goal", "$.goal"),
    ] {
        let doc = with(|v| v[key] = Value::Object(many.clone()));
        let p = one_error(&doc, path, "members (at most");
        assert!(p.message.contains("100000"), "{}", p.message);
    }
    let e = errors(&with(|v| {
        v["tumos"][0]["kicks"] = Value::Object(many.clone())
    }));
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].path.to_string(), "$.tumos[0].kicks");
    // A field full of unknown characters: 40 000 errors, 100 located and the rest counted
    // (issue #30: at most 100 problems a file, then `… and N more problems`).
    let doc = with(|v| {
        v["width"] = json!(200);
        v["height"] = json!(200);
        v["field"] = json!(vec!["z".repeat(200); 200]);
    });
    let e = errors(&doc);
    assert_eq!(e.len(), 101, "{}", e.len());
    assert_eq!(e[100].more_count(), Some(39_900), "{}", e[100].message);
}

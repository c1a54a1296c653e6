//! Members the boulder loader does not understand are kept and written back, and the
//! load-time warnings docs/level-format.md lists ("Warnings") are reported by `check`
//! (issue #15 D9): unknown members of map fields and of rule blocks, and `sparsity` on a
//! rule that is not `rare`. Unknown top-level and rule members were kept before; they still
//! are.

#![allow(clippy::unwrap_used)]

use serde_json::{Value, json};
use tilesmith_engine::game::GameKind;
use tilesmith_engine::kind::boulder::{Boulder, BoulderLevel};
use tilesmith_engine::kind::kind_of;
use tilesmith_engine::{Problem, Severity};

/// A valid level whose field (2, 1), rule blocks and one rule carry members the format does
/// not define.
fn level() -> Value {
    json!({
        "kind": "boulder", "name": "kept", "width": 5, "height": 3,
        "gems": [0, 0, 0], "ticks": [100, 50, 25],
        "time1": 40,
        "pre": [{
            "situation": "left", "sparsity": 4, "direction": "east", "author": "ann",
            "original": [{"token": "mud", "comment": "soft", "values": {"a": 1}}],
            "result": [{"token": "path", "why": ["dig", 2]}]
        }],
        "map": [
            ["wall", "wall", "wall", "wall", "wall"],
            ["wall", "me", {"token": "mud", "note": "start here", "values": {"b": 2}}, {"token": "exit", "hint": {"x": 1}}, "wall"],
            ["wall", "wall", "wall", "wall", "wall"]
        ]
    })
}

fn warnings(problems: &[Problem]) -> Vec<(String, String)> {
    problems
        .iter()
        .filter(|p| p.severity == Severity::Warning)
        .map(|p| (p.path.to_string(), p.message.clone()))
        .collect()
}

#[test]
fn check_reports_the_documented_load_time_warnings() {
    let doc = level();
    let problems = Boulder.check(&doc);
    assert!(problems.iter().all(|p| !p.is_error()), "{problems:#?}");
    let w = warnings(&problems);
    let paths: Vec<&str> = w.iter().map(|(p, _)| p.as_str()).collect();
    for want in [
        "$.map[1][2].note",
        "$.map[1][3].hint",
        "$.pre[0].original[0].comment",
        "$.pre[0].result[0].why",
        "$.pre[0].sparsity",
    ] {
        assert!(paths.contains(&want), "no warning at {want}: {w:#?}");
    }
    let msg = |path: &str| w.iter().find(|(p, _)| p == path).unwrap().1.clone();
    assert!(msg("$.map[1][2].note").contains("unknown member \"note\" of a field"));
    assert!(
        msg("$.pre[0].original[0].comment").contains("unknown member \"comment\" of a rule block")
    );
    assert!(msg("$.pre[0].sparsity").contains("only matters with situation \"rare\""));
    // Top-level and rule-level extras are allowed without a warning (level-format.md).
    assert!(
        !paths
            .iter()
            .any(|p| p.contains("time1") || p.contains("author"))
    );
}

#[test]
fn saving_writes_every_unknown_member_back() {
    let doc = level();
    let saved = BoulderLevel::from_json(&doc).unwrap().to_json();
    // Fields: the unknown members with the token and values as they were.
    assert_eq!(saved["map"][1][2], doc["map"][1][2]);
    assert_eq!(saved["map"][1][3], doc["map"][1][3]);
    assert_eq!(saved["map"][1][1], json!("me"));
    // Rule blocks, the rule's own extra member and its unused sparsity.
    assert_eq!(saved["pre"][0]["original"][0], doc["pre"][0]["original"][0]);
    assert_eq!(saved["pre"][0]["result"][0], doc["pre"][0]["result"][0]);
    assert_eq!(saved["pre"][0]["author"], json!("ann"));
    assert_eq!(saved["pre"][0]["sparsity"], json!(4));
    assert_eq!(saved["time1"], json!(40));
    // The whole document round-trips member for member (kind and name are written as
    // they were).
    assert_eq!(saved, doc);
    // And again, with the same warnings.
    assert_eq!(BoulderLevel::from_json(&saved).unwrap().to_json(), saved);
    assert_eq!(
        warnings(&Boulder.check(&saved)),
        warnings(&Boulder.check(&doc))
    );
}

#[test]
fn a_kept_sparsity_never_replaces_the_one_of_a_rare_rule() {
    let mut doc = level();
    let mut l = BoulderLevel::from_json(&doc).unwrap();
    // The rule becomes rare every 7 ticks (as the rule editor would set it): the kept 4 is
    // not written over the real period.
    l.pre[0].situation = tilesmith_engine::kind::boulder::Situation::Rare { sparsity: 7 };
    let saved = l.to_json();
    assert_eq!(saved["pre"][0]["situation"], json!("rare"));
    assert_eq!(saved["pre"][0]["sparsity"], json!(7));
    // A field's unknown member never replaces its token.
    doc["map"][1][2]["token"] = json!("gem");
    let l = BoulderLevel::from_json(&doc).unwrap();
    assert_eq!(l.to_json()["map"][1][2]["token"], json!("gem"));
    assert!(kind_of(&doc).is_ok());
}

#[test]
fn kept_field_members_stay_with_their_position_and_go_when_it_is_cut_off() {
    let doc = level();
    let mut l = BoulderLevel::from_json(&doc).unwrap();
    // Painting the field keeps its member; the written field is an object again.
    *l.map.get_mut(tilesmith_engine::Pos::new(2, 1)).unwrap() =
        tilesmith_engine::kind::boulder::Cell::new(tilesmith_engine::kind::boulder::Token::Gem);
    assert_eq!(
        l.to_json()["map"][1][2],
        json!({"token": "gem", "note": "start here"})
    );
    // A map without that position writes nothing of it.
    l.map = tilesmith_engine::Grid::new(
        2,
        2,
        tilesmith_engine::kind::boulder::Cell::new(tilesmith_engine::kind::boulder::Token::Wall),
    );
    let saved = l.to_json();
    assert_eq!(saved["map"].as_array().unwrap().len(), 2);
    assert!(!saved.to_string().contains("start here"));
}

//! `check` of Pasta Logic levels (issue #28, "Level format"): every refusal the issue lists,
//! each located by its JSON path; unknown members kept and written back; a level's saved
//! form (`--out`) checks clean and reads back to the same game.

#![allow(clippy::unwrap_used)]

mod pasta;

use serde_json::{Value, json};
use tilesmith_engine::GameKind;
use tilesmith_engine::kind::pasta::Pasta;

/// The errors of `doc` as `(path, message)`.
fn errors(doc: &Value) -> Vec<(String, String)> {
    Pasta
        .check(doc)
        .into_iter()
        .filter(|p| p.is_error())
        .map(|p| (p.path.to_string(), p.message))
        .collect()
}

/// Asserts that `doc` is refused with an error at `path` whose message contains `words`.
fn refused(doc: Value, path: &str, words: &str) {
    let e = errors(&doc);
    assert!(
        e.iter().any(|(p, m)| p == path && m.contains(words)),
        "expected an error at {path} containing {words:?}, got {e:?} for {doc}"
    );
    assert!(Pasta.start(&doc, 0).is_err());
}

fn base(more: Value) -> Value {
    let mut doc =
        json!({"kind": "pasta", "cards": ["Bug", "Debug", "Rotate", "AddFlag", "MoveFlag"]});
    if let (Some(o), Value::Object(m)) = (doc.as_object_mut(), more) {
        o.extend(m);
    }
    doc
}

#[test]
fn good_levels_check_clean() {
    assert!(errors(&json!({"kind": "pasta"})).is_empty());
    assert!(errors(&base(json!({}))).is_empty());
    assert!(
        errors(&base(
            json!({"cards": ["bug", "DEBUG", "rotate", "addflag", "moveFLAG"], "first": "Blue"})
        ))
        .is_empty()
    );
    let full = base(
        json!({"flags": [["red"], ["blue", "red"], [], [], ["blue"]], "life": {"red": 6, "blue": 1},
        "cursor": 4, "direction": "backward", "chips": {"Bug#1": 2, "Debug#1": -2}, "reserve": {"red": 8, "blue": 8}}),
    );
    assert!(errors(&full).is_empty(), "{:?}", errors(&full));
}

#[test]
fn unknown_and_repeated_cards() {
    refused(
        base(json!({"cards": ["Bug", "Debgu"]})),
        "$.cards[1]",
        "unknown card \"Debgu\" (did you mean \"Debug\"?)",
    );
    refused(
        base(json!({"cards": ["Bug", "bug"]})),
        "$.cards[1]",
        "already in the program",
    );
    refused(base(json!({"cards": []})), "$.cards", "1 to 16 cards");
    refused(base(json!({"cards": "Bug"})), "$.cards", "must be an array");
}

#[test]
fn flags_refusals() {
    refused(
        base(json!({"flags": [["red"], ["green"], [], [], []]})),
        "$.flags[1][0]",
        "not a player's flag",
    );
    refused(
        base(json!({"flags": [["red"], ["blue"]]})),
        "$.flags",
        "\"flags\" has 2 queues but \"cards\" has 5 cards",
    );
    refused(
        json!({"kind": "pasta", "flags": [["red"]]}),
        "$.flags",
        "needs \"cards\"",
    );
    refused(
        json!({"kind": "pasta", "chips": {"Bug#1": 1}}),
        "$.chips",
        "needs \"cards\"",
    );
}

#[test]
fn cursor_outside_the_line() {
    refused(base(json!({"cursor": 5})), "$.cursor", "0…4");
    refused(base(json!({"cursor": -1})), "$.cursor", "0…4");
    refused(json!({"kind": "pasta", "cursor": 8}), "$.cursor", "0…7");
}

#[test]
fn chips_refusals() {
    refused(
        base(json!({"chips": {"Bug#1": 2, "Debug#1": 1}})),
        "$.chips",
        "3 Increment chips",
    );
    refused(
        base(json!({"chips": {"Bug#1": -1, "Debug#1": -2}})),
        "$.chips",
        "3 Decrement chips",
    );
    refused(
        base(json!({"chips": {"Bug#1": 3}})),
        "$.chips[\"Bug#1\"]",
        "2 chips of each kind",
    );
    refused(
        base(json!({"chips": {"Bug#2": 1}})),
        "$.chips[\"Bug#2\"]",
        "Bug has no parameter #2",
    );
    refused(
        base(json!({"chips": {"Rotate#1": 1}})),
        "$.chips[\"Rotate#1\"]",
        "Rotate has no parameter #1",
    );
    refused(
        base(json!({"chips": {"Reverse#1": 1}})),
        "$.chips[\"Reverse#1\"]",
        "not in the program",
    );
    refused(
        base(json!({"chips": {"Bug#1": -2}})),
        "$.chips[\"Bug#1\"]",
        "below 0",
    );
}

#[test]
fn life_refusals() {
    refused(
        base(json!({"life": {"red": 7, "blue": 5}})),
        "$.life.red",
        "above 6",
    );
    refused(
        base(json!({"life": {"red": 5, "blue": 0}})),
        "$.life.blue",
        "at most 0",
    );
    refused(
        base(json!({"life": {"red": 5}})),
        "$.life",
        "\"blue\" is missing",
    );
    refused(
        base(json!({"life": {"red": 5, "blue": 5, "green": 1}})),
        "$.life.green",
        "not a player",
    );
}

/// A5: hand + reserve + flags on cards at most 10 a colour.
#[test]
fn more_than_ten_flags_of_a_colour() {
    refused(
        base(json!({"hand": {"red": 5, "blue": 5}, "reserve": {"red": 6, "blue": 5}})),
        "$.reserve",
        "red has 11 flags",
    );
    refused(
        base(
            json!({"flags": [["red"], [], [], [], []], "hand": {"red": 5, "blue": 0}, "reserve": {"red": 5, "blue": 0}}),
        ),
        "$.reserve",
        "red has 11 flags",
    );
}

/// §5: a hand needs a card without the player's flag for every flag in it; 5 flags need 5
/// cards.
#[test]
fn a_hand_that_cannot_be_placed() {
    refused(
        json!({"kind": "pasta", "cards": ["Bug", "Debug", "Rotate", "AddFlag"]}),
        "$.cards",
        "red cannot place 5 flags: only 4 cards",
    );
    refused(
        base(json!({"flags": [["blue"], ["blue"], [], [], []], "hand": {"red": 0, "blue": 4}})),
        "$.hand",
        "blue cannot place 4 flags: only 3 cards",
    );
}

#[test]
fn a_second_own_flag_on_a_card_is_refused_only_while_placing() {
    refused(
        base(json!({"flags": [["red", "red"], [], [], [], []], "hand": {"red": 1, "blue": 1}})),
        "$.flags[0]",
        "two red flags on one card while flags are still in hand",
    );
    // After placement (both hands empty) commands may stack own flags: accepted.
    let ok = base(json!({"flags": [["red", "red"], ["blue"], [], [], []]}));
    assert!(errors(&ok).is_empty(), "{:?}", errors(&ok));
}

#[test]
fn first_direction_and_resume() {
    refused(
        base(json!({"first": "green"})),
        "$.first",
        "must be one of red, blue, found \"green\"",
    );
    refused(
        base(json!({"direction": "sideways"})),
        "$.direction",
        "must be one of forward, backward, found \"sideways\"",
    );
    refused(
        base(json!({"direction": 2})),
        "$.direction",
        "must be one of forward, backward, found 2",
    );
    let ex = base(json!({"flags": [["red"], ["blue"], [], [], []]}));
    let mut bad = ex.clone();
    bad["resume"] = json!({"flag": 3});
    refused(bad, "$.resume.flag", "0…0");
    let mut bad = ex.clone();
    bad["resume"] = json!({"subroutine": {"card": 1, "flag": 0}});
    refused(bad, "$.resume.subroutine.card", "not Subroutine");
    let mut bad = ex;
    bad["resume"] = json!({"seen": ["xyz"]});
    refused(bad, "$.resume.seen[0]", "32 hexadecimal digits");
}

/// Unknown members are kept and written back by `--out`; card names are written in the
/// spec's spelling.
#[test]
fn unknown_members_are_kept_and_names_written_back() {
    let doc = json!({"kind": "pasta", "name": "x", "author": {"who": "me"}, "cards": ["bug", "debug"],
        "flags": [["RED"], ["blue"]]});
    assert!(errors(&doc).is_empty());
    let g = pasta::start(&doc);
    let out = g.to_level();
    assert_eq!(out["author"], json!({"who": "me"}));
    assert_eq!(out["name"], "x");
    assert_eq!(out["cards"], json!(["Bug", "Debug"]));
    assert_eq!(out["flags"], json!([["red"], ["blue"]]));
    assert!(errors(&out).is_empty(), "{:?}", errors(&out));
    assert_eq!(pasta::start(&out).summary(), g.summary());
}

/// A random JSON value of a few kinds, for the loader fuzz test.
fn junk(r: u64) -> Value {
    match r % 12 {
        0 => json!(null),
        1 => json!(-1),
        2 => json!(1e300),
        3 => json!(3.5),
        4 => json!("red"),
        5 => json!(["Bug", "Bug"]),
        6 => json!({"red": 99, "blue": -3}),
        7 => json!([["red", "blue"], "x", []]),
        8 => json!({"Bug#1": 5, "Nope#9": 1, "Bug": 1}),
        9 => {
            json!({"flag": 99, "subroutine": {"card": 99, "flag": 1, "next": 2}, "seen": ["zz"], "lap": -5})
        }
        10 => json!(20),
        _ => json!("ſtone\u{0}"),
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 300, ..proptest::prelude::ProptestConfig::default() })]

    /// Any member replaced by junk: `check` and `start` answer without a panic, and a level
    /// that checks clean starts and plays its first listed word.
    #[test]
    fn junk_members_never_panic(picks in proptest::collection::vec((0usize..12, 0u64..1000), 1..4)) {
        let mut doc = json!({"kind": "pasta", "cards": ["Subroutine", "Bug", "Reorder"],
            "flags": [["red"], ["blue"], ["red", "blue"]],
            "resume": {"flag": 0, "subroutine": null, "lap": 0, "seen": []}});
        let members = ["cards", "flags", "hand", "reserve", "life", "first", "cursor", "direction", "chips", "resume", "name", "kind"];
        for (m, r) in picks {
            doc[members[m]] = junk(r);
        }
        let problems = Pasta.check(&doc);
        if let Ok(mut g) = Pasta.start(&doc, 1) {
            proptest::prop_assert!(problems.iter().all(|p| !p.is_error()));
            if let Some(c) = g.legal_inputs().first() {
                g.step(c.input);
            }
        }
    }
}

#[test]
fn a_bad_card_does_not_hide_or_invent_other_problems() {
    // Ten cards, the last misspelt: the line is still ten long, so cursor 9 is on it (no
    // "0…7", the length of the drawn setup), and the flags are still checked against it.
    let doc = serde_json::json!({
        "kind": "pasta",
        "cards": ["Bug", "Debug", "Rotate", "Reverse", "AddFlag", "MoveFlag", "ForkBomb",
                  "TradeOff", "Subroutine", "Increemnt"],
        "cursor": 9,
        "flags": [["green"], [], [], [], [], [], [], [], [], []]
    });
    let p = tilesmith_engine::kind::pasta::PastaLevel::from_json(&doc).unwrap_err();
    let paths: Vec<String> = p.iter().map(|x| x.path.to_string()).collect();
    assert_eq!(paths, ["$.cards[9]", "$.flags[0][0]"], "{p:?}");
    assert!(
        p[0].message.contains("did you mean \"Increment\""),
        "{}",
        p[0].message
    );
    assert_eq!(p[1].message, "\"green\" is not a player's flag (red, blue)");
}

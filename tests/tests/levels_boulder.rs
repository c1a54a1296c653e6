//! The shipped boulder levels in `levels/boulder/`: each loads without errors, has a recorded
//! winning replay in `tests/replays/boulder/` with the same stem, and together they use every
//! object of the spec (boulder §3.1) and at least twelve level rules covering fire, a ghostling,
//! sand and sieve, a pot and a teleporter (`docs/levels.md` describes each level).

// Helpers outside #[test] functions unwrap too (clippy.toml allows it only inside them); a
// panic there is a test failure like any other.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::Value;
use tilesmith_engine::replay::{Replay, ReplayLevel};
use tilesmith_engine::{Dir, Input, Status, load_file};
use tilesmith_tests::{json_files, workspace};

/// Every object of spec boulder §3.1.
const ALL_TOKENS: [&str; 22] = [
    "me",
    "mud",
    "stone",
    "gem",
    "exit",
    "wall",
    "bricks",
    "path",
    "explosion",
    "slime",
    "swapling",
    "blockling",
    "xling",
    "ghostling",
    "fire",
    "norththing",
    "eastthing",
    "souththing",
    "westthing",
    "pot",
    "sieve",
    "sand",
];

fn level_files() -> Vec<PathBuf> {
    json_files(&workspace().join("levels").join("boulder"))
}

fn replay_dir() -> PathBuf {
    workspace().join("tests").join("replays").join("boulder")
}

fn stem(p: &Path) -> String {
    p.file_stem().unwrap().to_string_lossy().into_owned()
}

fn read_json(p: &Path) -> Value {
    let text = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The token names of a map field (`"foo"` or `{"token": "foo", …}`).
fn field_token(v: &Value) -> &str {
    match v {
        Value::String(s) => s,
        Value::Object(o) => o["token"].as_str().expect("a field token is a string"),
        other => panic!("unexpected map field {other}"),
    }
}

/// The names a rule block's `token` names: one string, or an array of strings.
fn block_names(block: &Value) -> Vec<String> {
    match &block["token"] {
        Value::String(s) => vec![s.to_ascii_lowercase()],
        Value::Array(a) => a
            .iter()
            .filter_map(|x| x.as_str().map(str::to_ascii_lowercase))
            .collect(),
        _ => Vec::new(),
    }
}

/// Every rule (`pre` and `post`) of every level, with the level's stem.
fn all_rules() -> Vec<(String, Value)> {
    let mut v = Vec::new();
    for f in level_files() {
        let doc = read_json(&f);
        for list in ["pre", "post"] {
            if let Some(Value::Array(rules)) = doc.get(list) {
                v.extend(rules.iter().map(|r| (stem(&f), r.clone())));
            }
        }
    }
    v
}

fn original(rule: &Value) -> &Vec<Value> {
    rule["original"].as_array().expect("original is an array")
}

fn result(rule: &Value) -> &Vec<Value> {
    rule["result"].as_array().expect("result is an array")
}

fn mentions(rule: &Value, name: &str) -> bool {
    original(rule)
        .iter()
        .any(|b| block_names(b).iter().any(|n| n == name))
}

/// True when the rule's result writes the token `name` (literally) at some index whose
/// original block does not already demand exactly that token, i.e. the token appears there.
fn writes_new(rule: &Value, name: &str) -> bool {
    let orig = original(rule);
    result(rule).iter().enumerate().any(|(i, b)| {
        b["token"].as_str() == Some(name) && block_names(&orig[i]) != vec![name.to_string()]
    })
}

/// True when a result block copies the token of another position of the match (`"k"` at index
/// i ≠ k): the rule carries an object from one field to another.
fn carries(rule: &Value) -> bool {
    result(rule).iter().enumerate().any(|(i, b)| {
        b["token"]
            .as_str()
            .and_then(|s| s.parse::<usize>().ok())
            .is_some_and(|k| k != i)
    })
}

#[test]
fn there_are_at_least_six_levels_with_kebab_case_names() {
    let files = level_files();
    assert!(files.len() >= 6, "only {} boulder levels", files.len());
    for f in &files {
        let s = stem(f);
        assert!(
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                && !s.starts_with('-')
                && !s.ends_with('-'),
            "{s} is not a lower-case kebab-case name"
        );
    }
    assert!(
        files.iter().any(|f| stem(f) == "welcome"),
        "welcome.json (the editor's default level) is missing"
    );
}

#[test]
fn every_level_loads_and_checks_without_errors() {
    for f in level_files() {
        let doc = load_file(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        assert_eq!(doc.kind.name(), "boulder", "{}", f.display());
        let errors: Vec<String> = doc
            .check()
            .iter()
            .filter(|p| p.is_error())
            .map(|p| p.render(&f.display().to_string()))
            .collect();
        assert!(errors.is_empty(), "{}:\n{}", f.display(), errors.join("\n"));
        doc.start(0)
            .unwrap_or_else(|p| panic!("{} does not start: {p:?}", f.display()));
    }
}

#[test]
fn every_level_has_a_consistent_header_and_a_bordered_map() {
    for f in level_files() {
        let v = read_json(&f);
        let name = stem(&f);
        assert_eq!(v["kind"], "boulder", "{name}");
        assert!(
            v["name"].as_str().is_some_and(|s| !s.trim().is_empty()),
            "{name}: no name"
        );
        let w = v["width"].as_u64().unwrap() as usize;
        let h = v["height"].as_u64().unwrap() as usize;
        assert!(
            (12..=30).contains(&w) && (6..=30).contains(&h),
            "{name}: {w}×{h}"
        );
        let map = v["map"].as_array().unwrap();
        assert_eq!(map.len(), h, "{name}: height");
        let gems: Vec<u64> = v["gems"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect();
        let ticks: Vec<u64> = v["ticks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect();
        assert_eq!(gems.len(), 3, "{name}: gems");
        assert_eq!(ticks.len(), 3, "{name}: ticks");
        assert!(
            gems[0] < gems[1] && gems[1] < gems[2],
            "{name}: gems {gems:?}"
        );
        assert!(
            ticks[0] > ticks[1] && ticks[1] > ticks[2],
            "{name}: ticks {ticks:?}"
        );
        let mut exits = 0;
        for (y, row) in map.iter().enumerate() {
            let row = row.as_array().unwrap();
            assert_eq!(row.len(), w, "{name}: row {y}");
            for (x, c) in row.iter().enumerate() {
                let t = field_token(c);
                exits += usize::from(t == "exit");
                if y == 0 || y == h - 1 || x == 0 || x == w - 1 {
                    assert!(
                        t == "wall" || t == "exit",
                        "{name}: border field ({x},{y}) is {t}"
                    );
                }
            }
        }
        assert!(exits >= 1, "{name}: no exit");
    }
}

#[test]
fn every_level_has_a_replay_with_the_same_stem() {
    let replays: BTreeSet<String> = json_files(&replay_dir()).iter().map(|p| stem(p)).collect();
    for f in level_files() {
        assert!(
            replays.contains(&stem(&f)),
            "no replay tests/replays/boulder/{}.json",
            stem(&f)
        );
    }
}

#[test]
fn every_replay_wins_its_level_and_matches_its_recorded_state() {
    let levels: BTreeSet<String> = level_files().iter().map(|p| stem(p)).collect();
    for r in json_files(&replay_dir()) {
        let replay = Replay::load(&r).unwrap_or_else(|e| panic!("{}: {e}", r.display()));
        // The replay plays the level file of the same name, not an embedded copy.
        match &replay.level {
            ReplayLevel::Path(p) => {
                assert_eq!(stem(p), stem(&r), "{} plays {}", r.display(), p.display());
                assert!(levels.contains(&stem(p)), "{}: unknown level", r.display());
            }
            ReplayLevel::Embedded(_) => panic!("{}: embedded level", r.display()),
        }
        assert!(replay.hash.is_some(), "{}: no recorded hash", r.display());
        assert_eq!(replay.status.as_deref(), Some("won"), "{}", r.display());
        let outcome = replay
            .run()
            .unwrap_or_else(|e| panic!("{}: {e}", r.display()));
        assert!(
            outcome.matches,
            "{}: final state differs from the recorded one",
            r.display()
        );
        match outcome.game.status() {
            Status::Won { points, .. } => {
                assert!(
                    (1..=3).contains(&points),
                    "{}: {points} points",
                    r.display()
                )
            }
            other => panic!("{}: ended {other:?}", r.display()),
        }
        // The win comes with the last input: one input fewer and the figure is still playing.
        let doc = replay.document().unwrap();
        let mut g = doc.start(replay.seed).unwrap();
        for &i in &replay.inputs[..replay.inputs.len() - 1] {
            g.step(i);
        }
        assert_eq!(g.status(), Status::Running, "{}", r.display());
    }
}

#[test]
fn no_level_is_won_by_waiting() {
    for f in level_files() {
        let doc = load_file(&f).unwrap();
        let limit = read_json(&f)["ticks"][0].as_u64().unwrap();
        let mut g = doc.start(0).unwrap();
        for _ in 0..=limit {
            g.step(Input::Wait);
        }
        assert!(
            matches!(g.status(), Status::Lost { .. }),
            "{}: idling ends {:?}",
            f.display(),
            g.status()
        );
    }
}

#[test]
fn the_levels_together_use_every_object() {
    let mut used = BTreeSet::new();
    for f in level_files() {
        let v = read_json(&f);
        for row in v["map"].as_array().unwrap() {
            for c in row.as_array().unwrap() {
                used.insert(field_token(c).to_ascii_lowercase());
            }
        }
    }
    let missing: Vec<&str> = ALL_TOKENS
        .iter()
        .copied()
        .filter(|t| !used.contains(*t))
        .collect();
    assert!(missing.is_empty(), "no level map uses {missing:?}");
}

#[test]
fn the_levels_have_at_least_twelve_named_rules() {
    let rules = all_rules();
    assert!(rules.len() >= 12, "only {} rules", rules.len());
    for (level, r) in &rules {
        assert!(
            r["name"].as_str().is_some_and(|s| !s.trim().is_empty()),
            "{level}: a rule without a name: {r}"
        );
        assert_eq!(original(r).len(), result(r).len(), "{level}: {}", r["name"]);
    }
}

#[test]
fn the_rules_cover_the_required_themes() {
    let rules = all_rules();
    let any = |what: &str, f: &dyn Fn(&Value) -> bool| {
        assert!(rules.iter().any(|(_, r)| f(r)), "no rule for {what}");
    };
    any("fire spreading", &|r| {
        mentions(r, "fire") && writes_new(r, "fire")
    });
    any("a ghostling moved by rules", &|r| {
        mentions(r, "ghostling") && writes_new(r, "ghostling")
    });
    any("sand falling through a sieve", &|r| {
        mentions(r, "sand") && mentions(r, "sieve") && writes_new(r, "sand")
    });
    any("a pot making gems", &|r| {
        mentions(r, "pot") && writes_new(r, "gem")
    });
    any("a norththing/souththing teleporter", &|r| {
        mentions(r, "norththing") && mentions(r, "souththing") && carries(r)
    });
    any("an eastthing/westthing teleporter", &|r| {
        mentions(r, "eastthing") && mentions(r, "westthing") && carries(r)
    });
    // Rules that move an object mark both fields as moved (spec boulder §6 L12).
    for (level, r) in &rules {
        if carries(r) || writes_new(r, "ghostling") {
            let moved = result(r)
                .iter()
                .filter(|b| b["values"]["moved"].as_i64().is_some_and(|m| m > 0))
                .count();
            assert!(moved >= 2, "{level}: {} moves without `moved`", r["name"]);
        }
    }
}

fn count(map: &Value, token: &str) -> usize {
    map["map"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|row| row.as_array().unwrap())
        .filter(|c| field_token(c) == token)
        .count()
}

fn find(map: &Value, token: &str) -> (usize, usize) {
    for (y, row) in map["map"].as_array().unwrap().iter().enumerate() {
        for (x, c) in row.as_array().unwrap().iter().enumerate() {
            if field_token(c) == token {
                return (x, y);
            }
        }
    }
    panic!("no {token}");
}

fn start(stem: &str) -> Box<dyn tilesmith_engine::Game> {
    let f = workspace()
        .join("levels")
        .join("boulder")
        .join(format!("{stem}.json"));
    load_file(&f).unwrap().start(0).unwrap()
}

#[test]
fn ember_field_fire_spreads_and_burns_out() {
    let mut g = start("ember-field");
    let before = count(&g.to_level(), "fire");
    for _ in 0..20 {
        g.step(Input::Wait);
    }
    let after = count(&g.to_level(), "fire");
    assert!(after > before, "fire did not spread: {before} → {after}");
    for _ in 0..200 {
        g.step(Input::Wait);
    }
    assert_eq!(count(&g.to_level(), "fire"), 0, "the fire never burns out");
}

#[test]
fn looking_glass_ghost_moves_against_the_arrow() {
    let mut g = start("looking-glass-ghost");
    let (x, y) = find(&g.to_level(), "ghostling");
    g.step(Input::Move(Dir::Right));
    assert_eq!(find(&g.to_level(), "ghostling"), (x - 1, y));
    g.step(Input::Move(Dir::Left));
    assert_eq!(find(&g.to_level(), "ghostling"), (x, y));
}

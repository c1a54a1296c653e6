//! The JSON Schema of the level formats (`schemas/level.schema.json`, boulder and baba, chosen
//! by `kind`): it compiles, it accepts our levels (each against its own kind's definition) and
//! the course corpus, it rejects hand-written invalid documents, and it never accepts what the
//! engine loader rejects.
//!
//! The engine loader is the authority on what a level is; the schema documents the format for
//! designers and tools. Everything the schema accepts must load without errors, and the schema
//! may be stricter than the loader only where a document is surely a mistake (unknown members of
//! fields and rule blocks, `null` where an object is expected).

// Helpers outside #[test] functions unwrap too (clippy.toml allows it only inside them); a
// panic there is a test failure like any other.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use jsonschema::Validator;
use serde_json::{Value, json};
use tilesmith_engine::kind::boulder::{Global, Token, ValueKey};

/// The workspace root (`/work/main`).
fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn schema_path() -> PathBuf {
    workspace().join("schemas/level.schema.json")
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{} is not valid JSON: {e}", path.display()))
}

fn schema() -> Value {
    read_json(&schema_path())
}

fn validator() -> Validator {
    jsonschema::draft202012::new(&schema())
        .unwrap_or_else(|e| panic!("schemas/level.schema.json does not compile: {e}"))
}

/// A validator for one entry of the schema's `$defs` (only for definitions without `$ref`).
fn def_validator(name: &str) -> Validator {
    let s = schema();
    let def = s["$defs"]
        .get(name)
        .unwrap_or_else(|| panic!("the schema has no $defs/{name}"));
    jsonschema::draft202012::new(def)
        .unwrap_or_else(|e| panic!("$defs/{name} does not compile on its own: {e}"))
}

/// The schema's errors for `doc`, one line each (`/path: message`).
fn schema_errors(v: &Validator, doc: &Value) -> Vec<String> {
    v.iter_errors(doc)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

/// Every `*.json` file under `dir`, recursively, sorted; plus the number of files of any kind.
fn json_files(dir: &Path) -> (Vec<PathBuf>, usize) {
    fn walk(dir: &Path, json: &mut Vec<PathBuf>, all: &mut usize) {
        let entries =
            std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
        for entry in entries {
            let path = entry
                .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
                .path();
            if path.is_dir() {
                walk(&path, json, all);
            } else {
                *all += 1;
                // Replays beside their levels (`NAME.intended.replay.json`, issue #29) are
                // no levels.
                let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
                let replay = name.is_some_and(|n| n.ends_with(".replay.json"));
                if path.extension().is_some_and(|x| x == "json") && !replay {
                    json.push(path);
                }
            }
        }
    }
    let (mut json, mut all) = (Vec::new(), 0);
    walk(dir, &mut json, &mut all);
    json.sort();
    (json, all)
}

/// The engine's error-severity problems for a level text (empty = the engine accepts it).
fn engine_errors_text(text: &str) -> Vec<String> {
    match tilesmith_engine::load_text(text) {
        Ok(doc) => doc
            .check()
            .into_iter()
            .filter(|p| p.is_error())
            .map(|p| p.render("<doc>"))
            .collect(),
        Err(problems) => problems.iter().map(|p| p.render("<doc>")).collect(),
    }
}

/// The engine's error-severity problems for a level file.
fn engine_errors_file(path: &Path) -> Vec<String> {
    let name = path.display().to_string();
    match tilesmith_engine::load_file(path) {
        Ok(doc) => doc
            .check()
            .into_iter()
            .filter(|p| p.is_error())
            .map(|p| p.render(&name))
            .collect(),
        Err(tilesmith_engine::LoadError::Io(e)) => vec![format!("{name}: {e}")],
        Err(tilesmith_engine::LoadError::Problems(ps)) => {
            ps.iter().map(|p| p.render(&name)).collect()
        }
    }
}

/// Validates every file against the schema and fails with all problems at once.
fn assert_all_valid(v: &Validator, files: &[PathBuf]) {
    let mut failures = Vec::new();
    for f in files {
        let errors = schema_errors(v, &read_json(f));
        if !errors.is_empty() {
            failures.push(format!("{}:\n  {}", f.display(), errors.join("\n  ")));
        }
    }
    assert!(
        failures.is_empty(),
        "{} file(s) do not match schemas/level.schema.json:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The files of a corpus folder under `/work/shared/corpus/boulder/`; fails when it is missing.
fn corpus(folder: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/corpus/boulder")
        .join(folder);
    assert!(
        dir.is_dir(),
        "the course corpus folder {} is missing (expected the shared material next to the \
         workspace: ../shared/corpus/boulder/{folder})",
        dir.display()
    );
    let (files, _) = json_files(&dir);
    assert!(
        !files.is_empty(),
        "the corpus folder {} has no *.json files",
        dir.display()
    );
    files
}

// ---------------------------------------------------------------------------------------------
// (a) The schema compiles.

#[test]
fn schema_is_valid_draft_2020_12_and_compiles() {
    let s = schema();
    assert_eq!(
        s["$schema"], "https://json-schema.org/draft/2020-12/schema",
        "the schema must declare draft 2020-12"
    );
    assert!(s["$id"].is_string(), "the schema needs an $id");
    if let Err(e) = jsonschema::meta::validate(&s) {
        panic!("the schema does not match the draft 2020-12 meta-schema: {e}");
    }
    validator();
}

#[test]
fn every_definition_has_a_title_and_a_description() {
    let s = schema();
    let defs = s["$defs"].as_object().expect("$defs is an object");
    for required in ["cell", "values", "rule", "originalBlock", "resultBlock"] {
        assert!(defs.contains_key(required), "$defs/{required} is missing");
    }
    let mut missing = Vec::new();
    for (name, def) in defs {
        for key in ["title", "description"] {
            if def[key].as_str().is_none_or(str::is_empty) {
                missing.push(format!("$defs/{name} has no {key}"));
            }
        }
    }
    for (name, prop) in s["properties"].as_object().expect("properties") {
        if prop.get("description").is_none() && prop.get("$ref").is_none() {
            missing.push(format!("properties/{name} has no description"));
        }
    }
    for key in ["title", "description"] {
        if !s[key].is_string() {
            missing.push(format!("the schema has no top-level {key}"));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// The name patterns must list exactly the engine's tokens, values and globals, in any ASCII
/// letter case, and nothing else (catches drift when the engine gains a token).
#[test]
fn name_patterns_match_the_engine_names() {
    let cases = |name: &str| {
        let mut mixed = String::new();
        for (i, c) in name.chars().enumerate() {
            mixed.push(if i % 2 == 0 {
                c.to_ascii_uppercase()
            } else {
                c
            });
        }
        [name.to_string(), name.to_ascii_uppercase(), mixed]
    };
    let check = |def: &str, names: &[&str], others: &[&str]| {
        let v = def_validator(def);
        for n in names {
            for c in cases(n) {
                assert!(v.is_valid(&json!(c)), "$defs/{def} rejects {c:?}");
            }
        }
        for o in others {
            assert!(!v.is_valid(&json!(o)), "$defs/{def} accepts {o:?}");
        }
    };
    let tokens: Vec<&str> = Token::ALL.iter().map(|t| t.name()).collect();
    let fields: Vec<&str> = ValueKey::ALL.iter().map(|k| k.name()).collect();
    let globals: Vec<&str> = Global::ALL.iter().map(|g| g.name()).collect();
    let both: Vec<&str> = fields.iter().chain(&globals).copied().collect();
    check(
        "tokenName",
        &tokens,
        &[
            "",
            "*",
            "0",
            "lava",
            "mee",
            " me",
            "me ",
            "stones",
            "ſtone",
            "bloc\u{212A}ling",
        ],
    );
    check("fieldValueName", &fields, &["gems", "x", "speed", "", "e"]);
    check("ruleValueName", &both, &["speed", "w", "", "gem"]);
    check(
        "situation",
        &[
            "any",
            "rare",
            "left",
            "right",
            "up",
            "down",
            "metaleft",
            "metaright",
            "metaup",
            "metadown",
        ],
        &["sometimes", "meta", "metaany", "northeast", ""],
    );
    check(
        "direction",
        &["east", "west", "north", "south"],
        &["northeast", "left", ""],
    );
    // Every name the schema accepts is one the engine knows.
    for t in &tokens {
        assert!(Token::from_name(&t.to_ascii_uppercase()).is_some());
    }
    assert_eq!(
        Token::from_name("ſtone"),
        None,
        "the engine folds ASCII only"
    );
}

/// Why the schema spells case-insensitive names as `[Mm][Ee]` and not `(?i:me)`: the crate
/// accepts the ES2025 modifier group, but folds case by Unicode rules, so `(?i:stone)` also
/// matches "ſtone" (U+017F LONG S), which the engine rejects. If this test fails after a
/// `jsonschema` upgrade, the `$comment` of the schema and docs/level-format.md need a review.
#[test]
fn modifier_groups_would_fold_unicode() {
    let v = jsonschema::draft202012::new(&json!({"type": "string", "pattern": "^(?i:stone)$"}))
        .expect("(?i:…) compiles");
    assert!(v.is_valid(&json!("STONE")));
    assert!(v.is_valid(&json!("ſtone")));
    assert!(!def_validator("tokenName").is_valid(&json!("ſtone")));
}

// ---------------------------------------------------------------------------------------------
// (b) and (e): our levels.

/// The `*.json` levels committed under `levels/` (6 boulder + 10 baba + 12 falling + 2 board)
/// when this check was last raised. The level tests fail when fewer are found, so an emptied or
/// moved folder cannot make them pass with nothing checked. Raise it when levels are added.
const LEVELS_AT_LEAST: usize = 30;

/// Every `*.json` level under `levels/`, at least [`LEVELS_AT_LEAST`] of them. Campaign
/// files (`"kind": "campaign"`, schemas/campaign.schema.json, tested in `campaign.rs`) are
/// no levels and are left out.
fn our_levels() -> Vec<PathBuf> {
    let dir = workspace().join("levels");
    assert!(dir.is_dir(), "{} is missing", dir.display());
    let (mut files, all) = json_files(&dir);
    files.retain(|f| !tilesmith_engine::campaign::is_campaign(&read_json(f)));
    assert!(
        files.len() >= LEVELS_AT_LEAST,
        "levels/ holds {} *.json level(s) ({all} file(s) in all), expected at least \
         {LEVELS_AT_LEAST}",
        files.len()
    );
    files
}

#[test]
fn every_level_in_levels_matches_the_schema() {
    assert_all_valid(&validator(), &our_levels());
}

#[test]
fn every_level_the_schema_accepts_loads_in_the_engine() {
    let v = validator();
    let files = our_levels();
    let mut failures = Vec::new();
    for f in &files {
        if !v.is_valid(&read_json(f)) {
            continue; // reported by every_level_in_levels_matches_the_schema
        }
        let errors = engine_errors_file(f);
        if !errors.is_empty() {
            failures.push(errors.join("\n"));
        }
    }
    assert!(
        failures.is_empty(),
        "the schema accepts level(s) that the engine rejects:\n{}",
        failures.join("\n")
    );
}

// ---------------------------------------------------------------------------------------------
// (c) The course corpus.

#[test]
fn course_levels_ws1718_match_the_schema() {
    let files = corpus("ws1718");
    assert_all_valid(&validator(), &files);
    for f in &files {
        let errors = engine_errors_file(f);
        assert!(errors.is_empty(), "{}", errors.join("\n"));
    }
}

#[test]
fn course_group_tests_ws1718_match_the_schema() {
    let files = corpus("ws1718_group_tests");
    assert_all_valid(&validator(), &files);
    for f in &files {
        let errors = engine_errors_file(f);
        assert!(errors.is_empty(), "{}", errors.join("\n"));
    }
}

// ---------------------------------------------------------------------------------------------
// (d) Hand-written documents.

/// A small valid level: a wall border, `me`, an exit and one rule of each list.
fn base() -> Value {
    json!({
        "name": "Base",
        "width": 4,
        "height": 3,
        "gems": [0, 1, 2],
        "ticks": [100, 50, 20],
        "pre": [{
            "situation": "any",
            "direction": "east",
            "original": [{"token": "stone"}, {"token": "path"}],
            "result": [{"token": "1"}, {"token": "0"}]
        }],
        "post": [],
        "map": [
            ["wall", "wall", "wall", "wall"],
            ["wall", "me", "exit", "wall"],
            ["wall", "wall", "wall", "wall"]
        ]
    })
}

/// `base()` changed by `f`.
fn with(f: impl FnOnce(&mut Value)) -> Value {
    let mut v = base();
    f(&mut v);
    v
}

/// `base()` without the top-level member `key`.
fn without(key: &str) -> Value {
    with(|v| {
        v.as_object_mut().expect("an object").remove(key);
    })
}

/// `base()` with its single `pre` rule replaced by `rule`.
fn with_rule(rule: Value) -> Value {
    with(|v| v["pre"] = json!([rule]))
}

/// A rule with one original and one result block.
fn rule1(original: Value, result: Value) -> Value {
    json!({"situation": "any", "direction": "east", "original": [original], "result": [result]})
}

/// Does the engine reject the document too, or is the schema deliberately stricter?
#[derive(Clone, Copy, Debug, PartialEq)]
enum Engine {
    Rejects,
    /// The engine accepts it (with a warning or silently); the schema rejects it on purpose.
    StricterSchema,
}

fn invalid_cases() -> Vec<(&'static str, Value, Engine)> {
    use Engine::*;
    vec![
        ("a level that is not an object", json!([1, 2]), Rejects),
        (
            "gems with 2 entries",
            with(|v| v["gems"] = json!([1, 2])),
            Rejects,
        ),
        (
            "gems with 4 entries",
            with(|v| v["gems"] = json!([1, 2, 3, 4])),
            Rejects,
        ),
        ("gems not an array", with(|v| v["gems"] = json!(3)), Rejects),
        (
            "a negative tick limit",
            with(|v| v["ticks"] = json!([10, -1, 0])),
            Rejects,
        ),
        (
            "a fractional gem count",
            with(|v| v["gems"] = json!([0, 1.5, 2])),
            Rejects,
        ),
        (
            "a threshold above 2^32-1",
            with(|v| v["ticks"] = json!([4_294_967_296_u64, 1, 0])),
            Rejects,
        ),
        ("missing gems", without("gems"), Rejects),
        ("missing map", without("map"), Rejects),
        ("missing width", without("width"), Rejects),
        ("width 0", with(|v| v["width"] = json!(0)), Rejects),
        ("width 10001", with(|v| v["width"] = json!(10_001)), Rejects),
        (
            "width as a string",
            with(|v| v["width"] = json!("4")),
            Rejects,
        ),
        ("name not a string", with(|v| v["name"] = json!(5)), Rejects),
        (
            "negative maxslime",
            with(|v| v["maxslime"] = json!(-1)),
            Rejects,
        ),
        ("pre not an array", with(|v| v["pre"] = json!({})), Rejects),
        (
            "unknown kind",
            with(|v| v["kind"] = json!("sokoban")),
            Rejects,
        ),
        (
            "kind baba with a boulder map",
            with(|v| v["kind"] = json!("baba")),
            Rejects,
        ),
        ("kind not a string", with(|v| v["kind"] = json!(1)), Rejects),
        (
            "state not an object",
            with(|v| v["state"] = json!([1])),
            Rejects,
        ),
        (
            "state with an unknown global",
            with(|v| v["state"] = json!({"w": 1})),
            Rejects,
        ),
        (
            "state with a negative global",
            with(|v| v["state"] = json!({"gems": -1})),
            Rejects,
        ),
        (
            "state with a per-field value",
            with(|v| v["state"] = json!({"a": 1})),
            Rejects,
        ),
        ("an empty map", with(|v| v["map"] = json!([])), Rejects),
        ("an empty row", with(|v| v["map"] = json!([[]])), Rejects),
        (
            "a row that is not an array",
            with(|v| v["map"][1] = json!("wall")),
            Rejects,
        ),
        ("no me", with(|v| v["map"][1][1] = json!("path")), Rejects),
        (
            "two me in one row",
            with(|v| v["map"][1][2] = json!("ME")),
            Rejects,
        ),
        (
            "two me in two rows",
            with(|v| v["map"][2][1] = json!({"token": "me"})),
            Rejects,
        ),
        (
            "an unknown token in the map",
            with(|v| v["map"][0][0] = json!("lava")),
            Rejects,
        ),
        (
            "a digit token in the map",
            with(|v| v["map"][0][0] = json!("0")),
            Rejects,
        ),
        (
            "a number as a map field",
            with(|v| v["map"][0][0] = json!(0)),
            Rejects,
        ),
        (
            "a token with a LONG S",
            with(|v| v["map"][0][0] = json!("ſtone")),
            Rejects,
        ),
        (
            "a token with a KELVIN SIGN",
            with(|v| v["map"][0][0] = json!("bloc\u{212A}ling")),
            Rejects,
        ),
        (
            "a field object without token",
            with(|v| v["map"][0][0] = json!({"values": {"a": 1}})),
            Rejects,
        ),
        (
            "a negative value in a map field",
            with(|v| v["map"][0][0] = json!({"token": "wall", "values": {"a": -1}})),
            Rejects,
        ),
        (
            "a fractional value in a map field",
            with(|v| v["map"][0][0] = json!({"token": "wall", "values": {"a": 0.5}})),
            Rejects,
        ),
        (
            "a value above 2^32-1 in a map field",
            with(|v| v["map"][0][0] = json!({"token": "wall", "values": {"a": 4_294_967_296_u64}})),
            Rejects,
        ),
        (
            "a global in a map field",
            with(|v| v["map"][0][0] = json!({"token": "wall", "values": {"gems": 1}})),
            Rejects,
        ),
        (
            "an unknown value in a map field",
            with(|v| v["map"][0][0] = json!({"token": "wall", "values": {"speed": 1}})),
            Rejects,
        ),
        (
            "field values as an array",
            with(|v| v["map"][0][0] = json!({"token": "wall", "values": [1]})),
            Rejects,
        ),
        (
            "an unknown situation",
            with_rule(
                json!({"situation": "sometimes", "direction": "east", "original": [{"token": "*"}], "result": [{"token": "0"}]}),
            ),
            Rejects,
        ),
        (
            "situation northeast is a direction typo",
            with_rule(
                json!({"situation": "any", "direction": "northeast", "original": [{"token": "*"}], "result": [{"token": "0"}]}),
            ),
            Rejects,
        ),
        (
            "rare without sparsity",
            with_rule(
                json!({"situation": "rare", "direction": "east", "original": [{"token": "*"}], "result": [{"token": "0"}]}),
            ),
            Rejects,
        ),
        (
            "RARE without sparsity",
            with_rule(
                json!({"situation": "RARE", "direction": "east", "original": [{"token": "*"}], "result": [{"token": "0"}]}),
            ),
            Rejects,
        ),
        (
            "rare with sparsity 0",
            with_rule(
                json!({"situation": "rare", "sparsity": 0, "direction": "east", "original": [{"token": "*"}], "result": [{"token": "0"}]}),
            ),
            Rejects,
        ),
        (
            "a rule without direction",
            with_rule(
                json!({"situation": "any", "original": [{"token": "*"}], "result": [{"token": "0"}]}),
            ),
            Rejects,
        ),
        (
            "a rule without result",
            with_rule(
                json!({"situation": "any", "direction": "east", "original": [{"token": "*"}]}),
            ),
            Rejects,
        ),
        (
            "an empty original",
            with_rule(
                json!({"situation": "any", "direction": "east", "original": [], "result": []}),
            ),
            Rejects,
        ),
        (
            "a rule name that is not a string",
            with_rule(
                json!({"name": 3, "situation": "any", "direction": "east", "original": [{"token": "*"}], "result": [{"token": "0"}]}),
            ),
            Rejects,
        ),
        (
            "\"*\" in a result block",
            with_rule(rule1(json!({"token": "stone"}), json!({"token": "*"}))),
            Rejects,
        ),
        (
            "an array in a result block",
            with_rule(rule1(json!({"token": "stone"}), json!({"token": ["gem"]}))),
            Rejects,
        ),
        (
            "a negative index in a result block",
            with_rule(rule1(json!({"token": "stone"}), json!({"token": -1}))),
            Rejects,
        ),
        (
            "an unknown token in a result block",
            with_rule(rule1(json!({"token": "stone"}), json!({"token": "lava"}))),
            Rejects,
        ),
        (
            "an unknown token in an original block",
            with_rule(rule1(json!({"token": "lava"}), json!({"token": "0"}))),
            Rejects,
        ),
        (
            "an unknown alternative in an original block",
            with_rule(rule1(
                json!({"token": ["mud", "lava"]}),
                json!({"token": "0"}),
            )),
            Rejects,
        ),
        (
            "a digit string alternative in an original block",
            with_rule(rule1(json!({"token": ["mud", "1"]}), json!({"token": "0"}))),
            Rejects,
        ),
        (
            "an empty alternative list",
            with_rule(rule1(json!({"token": []}), json!({"token": "0"}))),
            Rejects,
        ),
        (
            "a block without token",
            with_rule(rule1(json!({"values": {"a": 1}}), json!({"token": "0"}))),
            Rejects,
        ),
        (
            "a boolean token",
            with_rule(rule1(json!({"token": true}), json!({"token": "0"}))),
            Rejects,
        ),
        (
            "a fractional index",
            with_rule(rule1(json!({"token": "stone"}), json!({"token": 0.5}))),
            Rejects,
        ),
        (
            "a negative value in an original block",
            with_rule(rule1(
                json!({"token": "stone", "values": {"a": -1}}),
                json!({"token": "0"}),
            )),
            Rejects,
        ),
        (
            "an unknown value in a rule block",
            with_rule(rule1(
                json!({"token": "stone", "values": {"speed": 1}}),
                json!({"token": "0"}),
            )),
            Rejects,
        ),
        (
            "a result value below -(2^32-1)",
            with_rule(rule1(
                json!({"token": "stone"}),
                json!({"token": "0", "values": {"a": -4_294_967_296_i64}}),
            )),
            Rejects,
        ),
        (
            "a rule block that is a string",
            with_rule(rule1(json!("stone"), json!({"token": "0"}))),
            Rejects,
        ),
        // The schema is stricter than the engine here on purpose: these are typos or noise.
        (
            "an unknown member of a map field",
            with(|v| v["map"][0][0] = json!({"token": "wall", "value": {"a": 1}})),
            StricterSchema,
        ),
        (
            "null field values",
            with(|v| v["map"][0][0] = json!({"token": "wall", "values": null})),
            StricterSchema,
        ),
        (
            "an unknown member of a rule block",
            with_rule(rule1(
                json!({"token": "stone", "value": {"a": 1}}),
                json!({"token": "0"}),
            )),
            StricterSchema,
        ),
        (
            "null block values",
            with_rule(rule1(
                json!({"token": "stone", "values": null}),
                json!({"token": "0"}),
            )),
            StricterSchema,
        ),
        (
            "a null rule name",
            with_rule(
                json!({"name": null, "situation": "any", "direction": "east", "original": [{"token": "*"}], "result": [{"token": "0"}]}),
            ),
            StricterSchema,
        ),
        (
            "a non-numeric sparsity on a non-rare rule",
            with_rule(
                json!({"situation": "any", "sparsity": "x", "direction": "east", "original": [{"token": "*"}], "result": [{"token": "0"}]}),
            ),
            StricterSchema,
        ),
    ]
}

#[test]
fn invalid_documents_are_rejected() {
    let v = validator();
    let mut failures = Vec::new();
    for (what, doc, engine) in invalid_cases() {
        if v.is_valid(&doc) {
            failures.push(format!("the schema accepts {what}"));
        }
        let engine_errors = engine_errors_text(&doc.to_string());
        match engine {
            Engine::Rejects if engine_errors.is_empty() => {
                failures.push(format!(
                    "the engine accepts {what} (expected both to reject)"
                ));
            }
            Engine::StricterSchema if !engine_errors.is_empty() => failures.push(format!(
                "the engine now rejects {what}; mark the case Engine::Rejects"
            )),
            _ => {}
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn valid_cases() -> Vec<(&'static str, Value)> {
    let any_rule = |situation: &str, direction: &str| json!({"situation": situation, "direction": direction, "original": [{"token": "*"}], "result": [{"token": 0}]});
    vec![
        ("the base level", base()),
        (
            "no name, no pre, no post",
            with(|v| {
                let o = v.as_object_mut().unwrap();
                o.remove("name");
                o.remove("pre");
                o.remove("post");
            }),
        ),
        (
            "upper- and mixed-case tokens",
            with(|v| {
                v["map"][0] = json!(["WALL", "Wall", "wAlL", "wall"]);
                v["map"][1][1] = json!({"token": "ME"});
            }),
        ),
        (
            "upper-case value names in a map field",
            with(|v| {
                v["map"][0][0] =
                    json!({"token": "wall", "values": {"A": 1, "Direction": 2, "d": 0}})
            }),
        ),
        (
            "every per-field value in a map field",
            with(|v| {
                v["map"][0][0] = json!({"token": "swapling", "values": {
            "moved": 1, "falling": 1, "loose": 1, "slippery": 1, "pushable": 1, "bam": 0, "bamrich": 0,
            "direction": 4, "a": 1, "b": 2, "c": 3, "d": 4_294_967_295_u64}})
            }),
        ),
        (
            "empty field values",
            with(|v| v["map"][0][0] = json!({"token": "mud", "values": {}})),
        ),
        (
            "whole numbers written with a zero fraction",
            with(|v| {
                v["width"] = json!(4.0);
                v["gems"] = json!([0.0, 1, 2]);
            }),
        ),
        ("kind boulder", with(|v| v["kind"] = json!("boulder"))),
        ("kind Boulder", with(|v| v["kind"] = json!("Boulder"))),
        (
            "a state object",
            with(|v| v["state"] = json!({"gems": 3, "ticks": 120, "x": 1, "y": 0, "z": 2})),
        ),
        (
            "a partial upper-case state",
            with(|v| v["state"] = json!({"GEMS": 1, "X": 4})),
        ),
        ("an empty state", with(|v| v["state"] = json!({}))),
        (
            "unknown top-level members",
            with(|v| {
                v["time1"] = json!(280);
                v["editor"] = json!({"zoom": 2});
            }),
        ),
        ("maxslime 0", with(|v| v["maxslime"] = json!(0))),
        (
            "upper-case situation and direction",
            with_rule(any_rule("ANY", "EAST")),
        ),
        (
            "every situation and direction",
            with(|v| {
                let mut rules = Vec::new();
                for (s, d) in [
                    ("any", "east"),
                    ("left", "west"),
                    ("right", "north"),
                    ("up", "south"),
                    ("down", "East"),
                    ("metaleft", "WEST"),
                    ("metaright", "North"),
                    ("metaup", "south"),
                    ("metadown", "east"),
                ] {
                    rules.push(any_rule(s, d));
                }
                rules.push(
                    json!({"situation": "Rare", "sparsity": 5, "direction": "east",
                "original": [{"token": "*"}], "result": [{"token": "0"}]}),
                );
                v["post"] = json!(rules);
            }),
        ),
        (
            "integer index tokens",
            with_rule(json!({"situation": "any", "direction": "west",
            "original": [{"token": "stone"}, {"token": 1}], "result": [{"token": 1}, {"token": 0}]})),
        ),
        (
            "digit string index tokens with a leading zero",
            with_rule(json!({"situation": "any", "direction": "west",
            "original": [{"token": "stone"}, {"token": "*"}], "result": [{"token": "01"}, {"token": "0"}]})),
        ),
        (
            "a digit string in an original block",
            with_rule(rule1(json!({"token": "7"}), json!({"token": "gem"}))),
        ),
        (
            "alternatives with \"*\" and upper case",
            with_rule(rule1(
                json!({"token": ["MUD", "*", "path"]}),
                json!({"token": "Gem"}),
            )),
        ),
        (
            "globals and upper-case values in rule blocks",
            with_rule(rule1(
                json!({"token": "*", "values": {"A": 1, "GEMS": 4, "x": 0, "Ticks": 2}}),
                json!({"token": "0", "values": {"gems": 1, "Z": 1, "ticks": 0, "moved": 1}}),
            )),
        ),
        (
            "negative values in a result block",
            with_rule(rule1(
                json!({"token": "path", "values": {"a": 1}}),
                json!({"token": "0", "values": {"a": -1, "x": -4_294_967_295_i64}}),
            )),
        ),
        (
            "a rule name and an unknown rule member",
            with_rule(json!({"name": "stones fall left",
            "note": "kept by the engine", "situation": "any", "direction": "east",
            "original": [{"token": "stone"}], "result": [{"token": "0"}]})),
        ),
        (
            "a sparsity on a non-rare rule",
            with_rule(
                json!({"situation": "any", "sparsity": 3, "direction": "east",
            "original": [{"token": "stone"}], "result": [{"token": "0"}]}),
            ),
        ),
        (
            "a one-field level",
            json!({"width": 1, "height": 1, "gems": [0, 0, 0], "ticks": [1, 1, 1], "map": [["me"]]}),
        ),
    ]
}

#[test]
fn valid_edge_cases_are_accepted_by_schema_and_engine() {
    let v = validator();
    let mut failures = Vec::new();
    for (what, doc) in valid_cases() {
        let errors = schema_errors(&v, &doc);
        if !errors.is_empty() {
            failures.push(format!(
                "the schema rejects {what}:\n  {}",
                errors.join("\n  ")
            ));
        }
        let errors = engine_errors_text(&doc.to_string());
        if !errors.is_empty() {
            failures.push(format!(
                "the engine rejects {what}:\n  {}",
                errors.join("\n  ")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// What the schema cannot check: it accepts these, and the engine rejects them.
#[test]
fn engine_checks_what_the_schema_cannot() {
    let v = validator();
    let cases = [
        (
            "width different from the rows",
            with(|v| v["width"] = json!(5)),
        ),
        (
            "height different from the rows",
            with(|v| v["height"] = json!(2)),
        ),
        (
            "rows of different lengths",
            with(|v| v["map"][2] = json!(["wall", "wall", "wall"])),
        ),
        (
            "original and result of different lengths",
            with_rule(json!({"situation": "any", "direction": "east",
            "original": [{"token": "stone"}, {"token": "path"}], "result": [{"token": "0"}]})),
        ),
        (
            "an index outside the window",
            with_rule(rule1(json!({"token": "stone"}), json!({"token": "1"}))),
        ),
    ];
    for (what, doc) in cases {
        assert!(
            v.is_valid(&doc),
            "the schema now rejects {what}; update the docs"
        );
        assert!(
            !engine_errors_text(&doc.to_string()).is_empty(),
            "the engine accepts {what}"
        );
    }
}

/// A level saved by the engine (with `kind`, `state` and rule names) matches the schema.
#[test]
fn engine_output_matches_the_schema() {
    use tilesmith_engine::kind::boulder::BoulderLevel;
    let v = validator();
    let mut doc = with_rule(
        json!({"name": "swap", "situation": "rare", "sparsity": 2, "direction": "west",
        "original": [{"token": ["stone", "gem"], "values": {"a": 0}}, {"token": "*"}],
        "result": [{"token": 1, "values": {"a": -1}}, {"token": "0", "values": {"gems": 1}}]}),
    );
    doc["state"] = json!({"gems": 1, "ticks": 9, "x": 0, "y": 0, "z": 0});
    doc["map"][0][0] = json!({"token": "WALL", "values": {"A": 1}});
    let level = BoulderLevel::from_json(&doc).expect("the engine loads the document");
    let saved = level.to_json();
    let errors = schema_errors(&v, &saved);
    assert!(errors.is_empty(), "{}\n{saved:#}", errors.join("\n"));
    let blank = BoulderLevel::new("Blank", 10, 8).to_json();
    let errors = schema_errors(&v, &blank);
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

/// The JSON examples of docs/level-format.md are valid: whole levels as they are, rules inside
/// `base()`.
#[test]
fn documentation_examples_are_valid() {
    let path = workspace().join("docs/level-format.md");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let v = validator();
    let mut blocks = 0;
    for block in text.split("```json\n").skip(1) {
        let json_text = block.split("```").next().unwrap_or_default();
        let example: Value = serde_json::from_str(json_text)
            .unwrap_or_else(|e| panic!("a docs example is not JSON ({e}):\n{json_text}"));
        let doc = if example.get("map").is_some() {
            example
        } else {
            with_rule(example)
        };
        let mut errors = schema_errors(&v, &doc);
        errors.extend(engine_errors_text(&doc.to_string()));
        assert!(errors.is_empty(), "{}\n{doc:#}", errors.join("\n"));
        blocks += 1;
    }
    assert!(
        blocks >= 2,
        "expected a level and a rule example in the docs"
    );
}

// ---------------------------------------------------------------------------------------------
// (f) The baba format.

/// A validator for `$defs/<name>` that may use `$ref`s to other definitions.
fn ref_validator(name: &str) -> Validator {
    let s = schema();
    let sub = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$ref": format!("#/$defs/{name}"),
        "$defs": s["$defs"].clone(),
    });
    jsonschema::draft202012::new(&sub)
        .unwrap_or_else(|e| panic!("$defs/{name} does not compile: {e}"))
}

/// Every file under `levels/<kind>/` declares its kind (boulder files may leave it out) and
/// matches that kind's definition, not only the combined schema.
#[test]
fn levels_of_each_kind_match_their_kind_definition() {
    for (kind, def) in [
        ("boulder", "boulderLevel"),
        ("baba", "babaLevel"),
        ("falling", "fallingLevel"),
        ("board", "boardLevel"),
        ("pasta", "pastaLevel"),
    ] {
        let dir = workspace().join("levels").join(kind);
        let (files, _) = json_files(&dir);
        assert!(!files.is_empty(), "no levels in {}", dir.display());
        for f in &files {
            let doc = read_json(f);
            let declared = doc
                .get("kind")
                .and_then(Value::as_str)
                .unwrap_or("boulder")
                .to_ascii_lowercase();
            assert_eq!(declared, kind, "{} declares kind {declared}", f.display());
        }
        assert_all_valid(&ref_validator(def), &files);
    }
}

/// The baba token pattern lists exactly the engine's palette, in any ASCII case.
#[test]
fn baba_token_pattern_matches_the_engine_palette() {
    use tilesmith_engine::kind::baba::{Kind, palette};
    let v = def_validator("babaToken");
    for e in palette() {
        assert!(v.is_valid(&json!(e.token)), "rejects {}", e.token);
        assert!(
            v.is_valid(&json!(e.token.to_ascii_uppercase())),
            "rejects {}",
            e.token.to_ascii_uppercase()
        );
        assert!(Kind::from_token(&e.token).is_some());
    }
    for bad in [
        "",
        "text",
        "text_",
        "text_text_baba",
        "is",
        "you",
        "exit",
        "baba ",
        "text_exit",
        "ſkull",
        "empty",
        "level",
        "all",
    ] {
        assert!(!v.is_valid(&json!(bad)), "accepts {bad:?}");
        assert!(
            Kind::from_token(bad).is_none(),
            "the engine accepts {bad:?}"
        );
    }
}

fn baba_base() -> Value {
    json!({
        "kind": "baba",
        "name": "Base",
        "width": 3,
        "height": 2,
        "map": [
            ["text_baba", "text_is", "text_you"],
            ["baba", null, ["flag", {"token": "text_win", "values": {"direction": 3}}]]
        ]
    })
}

fn baba_with(f: impl FnOnce(&mut Value)) -> Value {
    let mut v = baba_base();
    f(&mut v);
    v
}

#[test]
fn baba_valid_documents_are_accepted_by_schema_and_engine() {
    let v = validator();
    let cases = [
        ("the base", baba_base()),
        ("kind in capitals", baba_with(|v| v["kind"] = json!("BABA"))),
        (
            "no name",
            baba_with(|v| {
                v.as_object_mut().unwrap().remove("name");
            }),
        ),
        (
            "empty array cell",
            baba_with(|v| v["map"][1][1] = json!([])),
        ),
        (
            "token in capitals",
            baba_with(|v| v["map"][1][0] = json!("BABA")),
        ),
        (
            "object without values",
            baba_with(|v| v["map"][1][0] = json!({"token": "rock"})),
        ),
        (
            "every direction",
            baba_with(|v| {
                v["map"][1][1] = json!([
                    {"token": "keke", "values": {"direction": 1}},
                    {"token": "keke", "values": {"direction": 2}},
                    {"token": "keke", "values": {"direction": 3}},
                    {"token": "keke", "values": {"direction": 4}}
                ])
            }),
        ),
        (
            "unknown top-level member",
            baba_with(|v| v["author"] = json!("me")),
        ),
    ];
    for (what, doc) in cases {
        let errors = schema_errors(&v, &doc);
        assert!(errors.is_empty(), "{what}: {}", errors.join("\n"));
        let engine = engine_errors_text(&doc.to_string());
        assert!(engine.is_empty(), "{what}: {}", engine.join("\n"));
    }
}

#[test]
fn baba_invalid_documents_are_rejected_by_schema_and_engine() {
    let v = validator();
    let cases = [
        (
            "unknown object",
            baba_with(|v| v["map"][1][0] = json!("exit")),
        ),
        (
            "unknown word",
            baba_with(|v| v["map"][0][2] = json!("text_jump")),
        ),
        (
            "a word as an object",
            baba_with(|v| v["map"][0][1] = json!("is")),
        ),
        (
            "direction 0",
            baba_with(|v| v["map"][1][0] = json!({"token": "baba", "values": {"direction": 0}})),
        ),
        (
            "direction 5",
            baba_with(|v| v["map"][1][0] = json!({"token": "baba", "values": {"direction": 5}})),
        ),
        (
            "direction as text",
            baba_with(|v| v["map"][1][0] = json!({"token": "baba", "values": {"direction": "up"}})),
        ),
        (
            "unknown value",
            baba_with(|v| v["map"][1][0] = json!({"token": "baba", "values": {"speed": 1}})),
        ),
        (
            "object without token",
            baba_with(|v| v["map"][1][0] = json!({"values": {"direction": 1}})),
        ),
        (
            "nested stack",
            baba_with(|v| v["map"][1][0] = json!([["baba"]])),
        ),
        (
            "a number as a cell",
            baba_with(|v| v["map"][1][0] = json!(7)),
        ),
        ("width 0", baba_with(|v| v["width"] = json!(0))),
        ("width too large", baba_with(|v| v["width"] = json!(1001))),
        (
            "height missing",
            baba_with(|v| {
                v.as_object_mut().unwrap().remove("height");
            }),
        ),
        (
            "map missing",
            baba_with(|v| {
                v.as_object_mut().unwrap().remove("map");
            }),
        ),
        ("no rows", baba_with(|v| v["map"] = json!([]))),
        (
            "a row that is not an array",
            baba_with(|v| v["map"][1] = json!("baba")),
        ),
        (
            "65 objects in a cell",
            baba_with(|v| v["map"][1][1] = json!(vec!["rock"; 65])),
        ),
        ("name not a string", baba_with(|v| v["name"] = json!(3))),
    ];
    for (what, doc) in cases {
        assert!(!v.is_valid(&doc), "the schema accepts {what}");
        assert!(
            !engine_errors_text(&doc.to_string()).is_empty(),
            "the engine accepts {what}"
        );
    }
}

#[test]
fn baba_engine_checks_what_the_schema_cannot() {
    let v = validator();
    let cases = [
        (
            "width different from the rows",
            baba_with(|v| v["width"] = json!(4)),
        ),
        (
            "height different from the rows",
            baba_with(|v| v["height"] = json!(3)),
        ),
        (
            "rows of different lengths",
            baba_with(|v| v["map"][1] = json!(["baba"])),
        ),
    ];
    for (what, doc) in cases {
        assert!(
            v.is_valid(&doc),
            "the schema now rejects {what}; update the docs"
        );
        assert!(
            !engine_errors_text(&doc.to_string()).is_empty(),
            "the engine accepts {what}"
        );
    }
}

#[test]
fn baba_engine_output_matches_the_schema() {
    use tilesmith_engine::kind::baba::BabaLevel;
    let v = validator();
    let level = BabaLevel::from_json(&baba_base()).expect("loads");
    let saved = level.to_json();
    let errors = schema_errors(&v, &saved);
    assert!(errors.is_empty(), "{}\n{saved:#}", errors.join("\n"));
    assert_eq!(BabaLevel::from_json(&saved).expect("reloads"), level);
    let blank = BabaLevel::new("Blank", 5, 4).to_json();
    let errors = schema_errors(&v, &blank);
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

/// A saved play state with its clock (as `tilesmith run --out` writes it) matches the schema,
/// and a malformed clock is rejected by both the schema and the engine.
#[test]
fn saved_states_with_a_clock_match_the_schema() {
    use tilesmith_engine::Game as _;
    let v = validator();
    let level = tilesmith_engine::kind::boulder::BoulderLevel::from_json(&base()).unwrap();
    let mut g = tilesmith_engine::kind::boulder::BoulderGame::new(level, 3);
    for _ in 0..5 {
        g.step(tilesmith_engine::Input::Wait);
    }
    let saved = g.to_level();
    assert_eq!(saved["state"]["tick_count"], 5);
    assert!(saved["state"]["rng"].as_str().is_some());
    assert!(
        schema_errors(&v, &saved).is_empty(),
        "{:?}",
        schema_errors(&v, &saved)
    );
    assert!(engine_errors_text(&saved.to_string()).is_empty());
    for bad in [
        json!({"tick_count": -1}),
        json!({"tick_count": "5"}),
        json!({"rng": "abc:1"}),
        json!({"rng": format!("{}:x", "0".repeat(64))}),
        json!({"rng": 5}),
        json!({"rng": format!("{}:007", "0".repeat(64))}),
        json!({"rng": format!("{}:{}", "0".repeat(64), "9".repeat(39))}),
        json!({"tick_count": 9007199254740992u64}),
        json!({"status": "paused"}),
        json!({"status": "Lost"}),
        json!({"reason": 3}),
    ] {
        let doc = with(|d| d["state"] = bad.clone());
        assert!(!schema_errors(&v, &doc).is_empty(), "schema accepts {bad}");
        assert!(
            !engine_errors_text(&doc.to_string()).is_empty(),
            "engine accepts {bad}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// (g) The falling format.

/// A small falling level using most members.
fn falling_base() -> Value {
    json!({
        "kind": "falling",
        "name": "Base",
        "width": 6,
        "height": 6,
        "blocks": [
            {"name": "red", "color": [255, 0, 0], "form": "round"},
            {"name": "blue", "color": [0, 0, 255], "form": "round", "role": "normal"},
            {"name": "ojama", "role": "garbage"},
            {"name": "iron", "role": "iron", "form": "square"}
        ],
        "tumos": [
            {"name": "pair", "labels": ["red", "blue"], "pivot": [1, 1], "kicks": "none",
             "states": [[[0, 1, 0], [0, 2, 0], [0, 0, 0]], [[0, 0, 0], [0, 2, 1], [0, 0, 0]],
                        [[0, 0, 0], [0, 2, 0], [0, 1, 0]], [[0, 0, 0], [1, 2, 0], [0, 0, 0]]]},
            {"name": "O", "block": "red", "pivot": [0.5, 0.5], "spawn": [2, 0],
             "kicks": {"0>1": [[0, 0], [1, -1]]},
             "states": [[[-1, -1], [-1, -1]], [[-1, -1], [-1, -1]]]}
        ],
        "quick_turn": true, "hard_drop": false, "shadow": true,
        "clear": [{"rule": "connected", "min": 4}, {"rule": "rows"}],
        "fall": ["gravity"],
        "hidden_rows": 1,
        "game_over": [{"rule": "spawn_blocked"}, {"rule": "top_row_timeout", "frames": 30}],
        "sequence": {"order": "bag", "tumos": ["pair", "O"]},
        "timing": {"gravity": 16, "soft_drop": 2, "lock": 30, "spawn": 12, "clear": 50, "fall": 2},
        "score": {"rule": "puyo"},
        "goal": {"rule": "chain", "min": 2},
        "preview": 2,
        "legend": {"R": "red", "B": "blue", "O": "ojama", "#": "iron"},
        "field": ["......", "......", "......", "......", "R...B.", "RR#OBB"]
    })
}

fn falling_with(f: impl FnOnce(&mut Value)) -> Value {
    let mut v = falling_base();
    f(&mut v);
    v
}

#[test]
fn falling_valid_documents_are_accepted_by_schema_and_engine() {
    let v = validator();
    let def = ref_validator("fallingLevel");
    let cases = [
        ("the base", falling_base()),
        (
            "kind in capitals",
            falling_with(|v| v["kind"] = json!("FALLING")),
        ),
        (
            "only the required members",
            json!({"kind": "falling", "width": 4, "height": 4, "blocks": [{"name": "x"}]}),
        ),
        (
            "rows score and a goal by rows",
            falling_with(|v| {
                v["score"] = json!({"rule": "rows", "points": [0, 40, 100, 300, 1200]});
                v["goal"] = json!({"rule": "rows", "min": 4});
            }),
        ),
        (
            "squares, lines, joined, top row, fixed",
            falling_with(|v| {
                v["clear"] = json!([{"rule": "squares", "size": 2}, {"rule": "lines", "min": 3, "diagonal": true}]);
                v["fall"] = json!(["rows", "joined", "gravity"]);
                v["game_over"] = json!([{"rule": "top_row"}]);
                v["sequence"] = json!({"order": "fixed", "tumos": ["O", "O", "pair"]});
                v["goal"] = json!({"rule": "clear_all"});
            }),
        ),
        (
            "an active tumo",
            falling_with(|v| {
                v["active"] =
                    json!({"tumo": "pair", "state": 1, "x": 0, "y": 0, "labels": ["blue", "blue"]})
            }),
        ),
        (
            "a script",
            falling_with(|v| v["script"] = json!("function update()\nend\n")),
        ),
        (
            "unknown members at the top, in a block and in a tumo",
            falling_with(|v| {
                v["author"] = json!("me");
                v["blocks"][0]["sprite"] = json!("red.png");
                v["tumos"][0]["comment"] = json!("Puyo");
            }),
        ),
        (
            "unknown members in clear rules, game-over rules, sequence, timing, score and goal",
            falling_with(|v| {
                v["clear"][0]["note"] = json!("puyo");
                v["clear"][1]["note"] = json!("rows");
                v["game_over"][0]["note"] = json!("spawn");
                v["game_over"][1]["note"] = json!("timeout");
                v["sequence"]["note"] = json!("bag");
                v["timing"]["note"] = json!(60);
                v["score"]["note"] = json!({"a": 1});
                v["goal"]["note"] = json!([1]);
            }),
        ),
    ];
    for (what, doc) in cases {
        let errors = schema_errors(&v, &doc);
        assert!(errors.is_empty(), "{what}: {}", errors.join("\n"));
        assert!(def.is_valid(&doc), "{what}: $defs/fallingLevel rejects it");
        let engine = engine_errors_text(&doc.to_string());
        assert!(engine.is_empty(), "{what}: {}", engine.join("\n"));
    }
}

#[test]
fn falling_invalid_documents_are_rejected_by_schema_and_engine() {
    let v = validator();
    let cases = [
        ("width 0", falling_with(|v| v["width"] = json!(0))),
        ("width 257", falling_with(|v| v["width"] = json!(257))),
        ("no blocks", falling_with(|v| v["blocks"] = json!([]))),
        (
            "blocks missing",
            falling_with(|v| {
                v.as_object_mut().unwrap().remove("blocks");
            }),
        ),
        (
            "an unknown role",
            falling_with(|v| v["blocks"][0]["role"] = json!("metal")),
        ),
        (
            "a colour of two",
            falling_with(|v| v["blocks"][0]["color"] = json!([1, 2])),
        ),
        (
            "a colour above 255",
            falling_with(|v| v["blocks"][0]["color"] = json!([1, 2, 256])),
        ),
        (
            "nine states",
            falling_with(|v| v["tumos"][1]["states"] = json!(vec![json!([[-1]]); 9])),
        ),
        (
            "no states",
            falling_with(|v| v["tumos"][1]["states"] = json!([])),
        ),
        (
            "a cell value of 2.5",
            falling_with(|v| v["tumos"][1]["states"][0][0][0] = json!(2.5)),
        ),
        (
            "a cell value of -2",
            falling_with(|v| v["tumos"][1]["states"][0][0][0] = json!(-2)),
        ),
        (
            "a pivot of 0.25",
            falling_with(|v| v["tumos"][1]["pivot"] = json!([0.25, 0])),
        ),
        (
            "kicks as a word",
            falling_with(|v| v["tumos"][1]["kicks"] = json!("srs")),
        ),
        (
            "a kick key without >",
            falling_with(|v| v["tumos"][1]["kicks"] = json!({"0-1": [[0, 0]]})),
        ),
        (
            "a kick offset of three",
            falling_with(|v| v["tumos"][1]["kicks"] = json!({"0>1": [[0, 0, 0]]})),
        ),
        (
            "an unknown clear rule",
            falling_with(|v| v["clear"] = json!([{"rule": "colors"}])),
        ),
        (
            "connected min 0",
            falling_with(|v| v["clear"] = json!([{"rule": "connected", "min": 0}])),
        ),
        (
            "an unknown fall law",
            falling_with(|v| v["fall"] = json!(["magnet"])),
        ),
        (
            "a timeout without frames",
            falling_with(|v| v["game_over"] = json!([{"rule": "top_row_timeout"}])),
        ),
        (
            "an unknown order",
            falling_with(|v| v["sequence"] = json!({"order": "shuffle"})),
        ),
        (
            "a negative timing",
            falling_with(|v| v["timing"] = json!({"lock": -1})),
        ),
        (
            "an unknown score rule",
            falling_with(|v| v["score"] = json!({"rule": "tetris"})),
        ),
        (
            "an empty points table",
            falling_with(|v| v["score"] = json!({"rule": "rows", "points": []})),
        ),
        (
            "a chain goal without min",
            falling_with(|v| v["goal"] = json!({"rule": "chain"})),
        ),
        (
            "a legend key of two characters",
            falling_with(|v| v["legend"]["RR"] = json!("red")),
        ),
        (
            "a legend key \".\"",
            falling_with(|v| v["legend"]["."] = json!("red")),
        ),
        (
            "a field row that is not a string",
            falling_with(|v| v["field"][0] = json!(6)),
        ),
        ("preview 17", falling_with(|v| v["preview"] = json!(17))),
        (
            "an active tumo without a name",
            falling_with(|v| v["active"] = json!({"state": 0})),
        ),
        (
            "a state with a bad rng",
            falling_with(|v| v["state"] = json!({"rng": "abc:1"})),
        ),
        (
            "a state with an unknown status",
            falling_with(|v| v["state"] = json!({"status": "paused"})),
        ),
        (
            "a state with an unknown member",
            falling_with(|v| v["state"] = json!({"speed": 1})),
        ),
        (
            "a script that is not a string",
            falling_with(|v| v["script"] = json!(5)),
        ),
    ];
    for (what, doc) in cases {
        assert!(!v.is_valid(&doc), "the schema accepts {what}");
        assert!(
            !engine_errors_text(&doc.to_string()).is_empty(),
            "the engine accepts {what}"
        );
    }
}

#[test]
fn falling_engine_checks_what_the_schema_cannot() {
    let v = validator();
    let cases = [
        (
            "an unknown block name",
            falling_with(|v| v["tumos"][1]["block"] = json!("green")),
        ),
        (
            "an unknown tumo in the sequence",
            falling_with(|v| v["sequence"]["tumos"][0] = json!("T")),
        ),
        (
            "a legend value that is no block",
            falling_with(|v| v["legend"]["X"] = json!("steel")),
        ),
        (
            "a field row too short",
            falling_with(|v| v["field"][0] = json!("..")),
        ),
        (
            "a field character not in the legend",
            falling_with(|v| v["field"][0] = json!("Z.....")),
        ),
        (
            "more field rows than the height",
            falling_with(|v| v["height"] = json!(5)),
        ),
        (
            "states of different sides",
            falling_with(|v| v["tumos"][1]["states"][1] = json!([[-1]])),
        ),
        (
            "a row longer than the grid",
            falling_with(|v| v["tumos"][1]["states"][0][0] = json!([-1, -1, 0])),
        ),
        (
            "a label missing in one state",
            falling_with(|v| v["tumos"][0]["states"][1] = json!([[0, 0, 0], [0, 2, 0], [0, 0, 0]])),
        ),
        (
            "a kick key naming state 5",
            falling_with(|v| v["tumos"][1]["kicks"] = json!({"0>5": []})),
        ),
        (
            "a spawn outside the field",
            falling_with(|v| v["tumos"][1]["spawn"] = json!([5, 0])),
        ),
        (
            "an active tumo on a block",
            falling_with(|v| v["active"] = json!({"tumo": "O", "x": 0, "y": 4})),
        ),
        (
            "hidden rows beyond the height",
            falling_with(|v| v["hidden_rows"] = json!(7)),
        ),
    ];
    for (what, doc) in cases {
        assert!(
            v.is_valid(&doc),
            "the schema now rejects {what}: {:?}; update the docs",
            schema_errors(&v, &doc)
        );
        assert!(
            !engine_errors_text(&doc.to_string()).is_empty(),
            "the engine accepts {what}"
        );
    }
}

/// A level saved by the engine, and a game saved mid-play (`tilesmith run --out`: an active
/// tumo, the queue, the bag, blocks in motion, a clear in progress), match the schema.
#[test]
fn falling_engine_output_matches_the_schema() {
    use tilesmith_engine::Game as _;
    use tilesmith_engine::kind::falling::{FallingGame, FallingLevel};
    let v = validator();
    let level = FallingLevel::from_json(&falling_base()).expect("loads");
    let saved = level.to_json();
    let errors = schema_errors(&v, &saved);
    assert!(errors.is_empty(), "{}\n{saved:#}", errors.join("\n"));
    // Unknown members the engine keeps in the rule and setting objects are saved back, and
    // the saved file still validates.
    let mut doc = falling_base();
    doc["clear"][1]["note"] = json!("rows");
    doc["game_over"][0]["note"] = json!("spawn");
    doc["sequence"]["note"] = json!("bag");
    doc["timing"]["note"] = json!(60);
    doc["score"]["note"] = json!(1);
    doc["goal"]["note"] = json!(true);
    let saved = FallingLevel::from_json(&doc).expect("loads").to_json();
    for (member, at) in [
        ("/clear/1/note", json!("rows")),
        ("/game_over/0/note", json!("spawn")),
        ("/sequence/note", json!("bag")),
        ("/timing/note", json!(60)),
        ("/score/note", json!(1)),
        ("/goal/note", json!(true)),
    ] {
        assert_eq!(saved.pointer(member), Some(&at), "{member} kept\n{saved:#}");
    }
    let errors = schema_errors(&v, &saved);
    assert!(errors.is_empty(), "{}\n{saved:#}", errors.join("\n"));
    let blank = FallingLevel::new("Blank", 10, 20).to_json();
    let errors = schema_errors(&v, &blank);
    assert!(errors.is_empty(), "{}\n{blank:#}", errors.join("\n"));
    let mut doc = falling_base();
    doc["timing"] =
        json!({"gravity": 1, "soft_drop": 0, "lock": 0, "spawn": 3, "clear": 4, "fall": 3});
    let mut g = FallingGame::new(FallingLevel::from_json(&doc).unwrap(), 3);
    let mut checked = 0;
    for frame in 0..400 {
        if frame % 7 == 0 {
            let saved = g.to_level();
            let errors = schema_errors(&v, &saved);
            assert!(
                errors.is_empty(),
                "frame {frame}: {}\n{saved:#}",
                errors.join("\n")
            );
            assert!(saved["state"].is_object());
            checked += 1;
        }
        let input = match frame % 5 {
            0 => tilesmith_engine::Input::Move(tilesmith_engine::Dir::Left),
            1 => tilesmith_engine::Input::Turn(tilesmith_engine::input::Turn::Cw),
            _ => tilesmith_engine::Input::SoftDrop,
        };
        g.step(input);
    }
    assert!(checked > 10);
}

/// The JSON examples of docs/falling-level-format.md are valid whole levels.
#[test]
fn falling_documentation_examples_are_valid() {
    let path = workspace().join("docs/falling-level-format.md");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let v = validator();
    let mut blocks = 0;
    for block in text.split("```json\n").skip(1) {
        let json_text = block.split("```").next().unwrap_or_default();
        let doc: Value = serde_json::from_str(json_text)
            .unwrap_or_else(|e| panic!("a docs example is not JSON ({e}):\n{json_text}"));
        let mut errors = schema_errors(&v, &doc);
        errors.extend(engine_errors_text(&doc.to_string()));
        assert!(errors.is_empty(), "{}\n{doc:#}", errors.join("\n"));
        blocks += 1;
    }
    assert!(
        blocks >= 2,
        "expected at least two level examples in the docs"
    );
}

// ---------------------------------------------------------------------------------------------
// (h) The board format.

/// A race on a 3×3 board with a piece attribute (the rules of a small board level).
const BOARD_ZRF: &str = "(game (title \"Tiny\") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 50 50)
    (dimensions (\"a/b/c\" (50 0)) (\"3/2/1\" (0 50)))
    (directions (n 0 -1) (s 0 1))))
  (piece (name Man) (attribute moved? false)
    (moves (n (verify empty?) (set-attribute moved? true) add)))
  (piece (name Pawn) (moves (s (verify empty?) add)))
  (board-setup (White (Man a1 b1)) (Black (Pawn c3))))
";

/// A board level using every member.
fn board_base() -> Value {
    json!({
        "kind": "board",
        "name": "Race",
        "rules": {"zrf": BOARD_ZRF},
        "variant": "Tiny",
        "setup": {"White": {"Man": ["a2", "b1"]}, "Black": {"Pawn": ["c3"]}},
        "reserve": {"White": {"Man": 2}},
        "attributes": {"a2": {"moved?": true}},
        "to_move": "Black",
        "turn": 1,
        "last": ["a1", "a2"]
    })
}

fn board_with(f: impl FnOnce(&mut Value)) -> Value {
    let mut v = board_base();
    f(&mut v);
    v
}

#[test]
fn board_valid_documents_are_accepted_by_schema_and_engine() {
    let v = validator();
    let def = ref_validator("boardLevel");
    let cases = [
        ("the base", board_base()),
        ("BOARD", board_with(|v| v["kind"] = json!("BOARD"))),
        (
            "the rules alone",
            json!({"kind": "board", "rules": {"zrf": BOARD_ZRF}}),
        ),
        (
            "rules with the file they came from",
            board_with(|v| v["rules"]["file"] = json!("tiny.zrf")),
        ),
        (
            "an empty board",
            board_with(|v| {
                v["setup"] = json!({});
                v.as_object_mut().unwrap().remove("attributes");
            }),
        ),
        ("no last move", board_with(|v| v["last"] = Value::Null)),
        (
            "a drop as the last move (no origin)",
            board_with(|v| v["last"] = json!([null, "a2"])),
        ),
        (
            "an unknown member",
            board_with(|v| v["designer"] = json!("me")),
        ),
    ];
    for (what, doc) in cases {
        assert!(
            def.is_valid(&doc),
            "{what}: {:?}",
            schema_errors(&def, &doc)
        );
        assert!(v.is_valid(&doc), "{what}: {:?}", schema_errors(&v, &doc));
        let errors = engine_errors_text(&doc.to_string());
        assert!(errors.is_empty(), "{what}: {errors:?}");
    }
    // A rules file relative to the level's folder.
    let dir = std::env::temp_dir().join(format!("tilesmith-schema-board-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("tiny.zrf"), BOARD_ZRF).unwrap();
    let doc = board_with(|v| v["rules"] = json!("tiny.zrf"));
    std::fs::write(dir.join("race.json"), doc.to_string()).unwrap();
    assert!(def.is_valid(&doc));
    let errors = engine_errors_file(&dir.join("race.json"));
    assert!(errors.is_empty(), "{errors:?}");
}

#[test]
fn board_invalid_documents_are_rejected_by_schema_and_engine() {
    let v = validator();
    let cases = [
        (
            "no rules",
            board_with(|v| drop(v.as_object_mut().unwrap().remove("rules"))),
        ),
        ("rules as a number", board_with(|v| v["rules"] = json!(3))),
        (
            "rules without zrf",
            board_with(|v| v["rules"] = json!({"file": "x.zrf"})),
        ),
        (
            "zrf as lines",
            board_with(|v| v["rules"] = json!({"zrf": ["(game)"]})),
        ),
        ("a variant number", board_with(|v| v["variant"] = json!(2))),
        (
            "setup as a list",
            board_with(|v| v["setup"] = json!(["a1"])),
        ),
        (
            "positions as a string",
            board_with(|v| v["setup"]["White"]["Man"] = json!("a1")),
        ),
        (
            "a position number",
            board_with(|v| v["setup"]["White"]["Man"] = json!([1])),
        ),
        (
            "a negative reserve",
            board_with(|v| v["reserve"]["White"]["Man"] = json!(-1)),
        ),
        (
            "a reserve too large",
            board_with(|v| v["reserve"]["White"]["Man"] = json!(1_000_001)),
        ),
        (
            "an attribute that is not true or false",
            board_with(|v| v["attributes"]["a2"]["moved?"] = json!(1)),
        ),
        (
            "to_move as a number",
            board_with(|v| v["to_move"] = json!(1)),
        ),
        ("a negative turn", board_with(|v| v["turn"] = json!(-1))),
        (
            "last with one position",
            board_with(|v| v["last"] = json!(["a1"])),
        ),
        ("last of numbers", board_with(|v| v["last"] = json!([0, 1]))),
        (
            "last with an empty origin",
            board_with(|v| v["last"] = json!(["", "a2"])),
        ),
        (
            "last without a destination",
            board_with(|v| v["last"] = json!(["a1", null])),
        ),
    ];
    for (what, doc) in cases {
        assert!(!v.is_valid(&doc), "the schema accepts {what}");
        assert!(
            !engine_errors_text(&doc.to_string()).is_empty(),
            "the engine accepts {what}"
        );
    }
}

#[test]
fn board_engine_checks_what_the_schema_cannot() {
    let v = validator();
    let cases = [
        (
            "an unknown player",
            board_with(|v| v["setup"]["Red"] = json!({})),
        ),
        (
            "an unknown piece",
            board_with(|v| v["setup"]["White"]["King"] = json!(["c1"])),
        ),
        (
            "an unknown position",
            board_with(|v| v["setup"]["White"]["Man"] = json!(["d4"])),
        ),
        (
            "two pieces on one position",
            board_with(|v| v["setup"]["Black"]["Pawn"] = json!(["b1"])),
        ),
        (
            "an unknown variant",
            board_with(|v| v["variant"] = json!("Chess")),
        ),
        (
            "an unknown attribute",
            board_with(|v| v["attributes"]["a2"] = json!({"crowned": true})),
        ),
        (
            "a turn past the order",
            board_with(|v| v["turn"] = json!(2)),
        ),
        (
            "a turn of another player",
            board_with(|v| v["turn"] = json!(0)),
        ),
        (
            "a ZRF error",
            board_with(|v| {
                v["rules"]["zrf"] = json!(BOARD_ZRF.replace("(Man a1 b1)", "(Kong a1 b1)"));
            }),
        ),
        (
            "a rules file name without its folder",
            board_with(|v| v["rules"] = json!("tiny.zrf")),
        ),
    ];
    for (what, doc) in cases {
        assert!(
            v.is_valid(&doc),
            "the schema now rejects {what}: {:?}; update the docs",
            schema_errors(&v, &doc)
        );
        assert!(
            !engine_errors_text(&doc.to_string()).is_empty(),
            "the engine accepts {what}"
        );
    }
}

/// Positions saved by a running board game (`tilesmith run --out`) match the schema.
#[test]
fn board_engine_output_matches_the_schema() {
    let v = validator();
    let doc = tilesmith_engine::load_text(&board_base().to_string()).unwrap();
    let mut g = doc.start(0).unwrap();
    for word in ["c3-c2", "b1-b2", "c2-c1"] {
        let saved = g.to_level();
        let errors = schema_errors(&v, &saved);
        assert!(errors.is_empty(), "{}\n{saved:#}", errors.join("\n"));
        assert!(engine_errors_text(&saved.to_string()).is_empty());
        let input = g.read_input(word).unwrap();
        g.step(input);
    }
    assert_eq!(g.steps(), 3);
}

/// The JSON examples of docs/board-level-format.md are valid levels; their rules files are
/// read from the corpus (`../shared/corpus/board/`).
#[test]
fn board_documentation_examples_are_valid() {
    let path = workspace().join("docs/board-level-format.md");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let v = validator();
    let rules_dir = workspace().join("../shared/corpus/board");
    let mut blocks = 0;
    for block in text.split("```json\n").skip(1) {
        let json_text = block.split("```").next().unwrap_or_default();
        let mut doc: Value = serde_json::from_str(json_text)
            .unwrap_or_else(|e| panic!("a docs example is not JSON ({e}):\n{json_text}"));
        let mut errors = schema_errors(&v, &doc);
        errors.extend(
            tilesmith_engine::document::resolve_files(&mut doc, &rules_dir)
                .iter()
                .map(|p| p.render("<example>")),
        );
        errors.extend(engine_errors_text(&doc.to_string()));
        assert!(errors.is_empty(), "{}\n{json_text}", errors.join("\n"));
        blocks += 1;
    }
    assert!(
        blocks >= 2,
        "expected at least two level examples in the docs"
    );
}

//! Every class of bad input named by the engine issue gets a located error, never a panic.
//! Expected lines and columns are counted by hand in the texts below.

// Helpers outside #[test] functions unwrap too (clippy.toml allows it only inside them); a
// panic there is a test failure like any other.
#![allow(clippy::unwrap_used)]

use proptest::prelude::*;
use tilesmith_engine::document::load_bytes;
use tilesmith_engine::{Problem, load_text};

/// All problems of a text (syntax or meaning), errors only, located.
fn errors(text: &str) -> Vec<Problem> {
    match load_text(text) {
        Err(p) => p,
        Ok(doc) => doc.check().into_iter().filter(Problem::is_error).collect(),
    }
}

/// The one error of `text`, with its rendering as `check` prints it.
fn one_error(text: &str) -> (Problem, String) {
    let e = errors(text);
    assert_eq!(e.len(), 1, "expected exactly one error, got {e:#?}");
    let line = e[0].render("f.json");
    (e[0].clone(), line)
}

/// A valid level, written one member per line, with `{MAP}` etc. replaced.
fn level_with(name_value_pairs: &[(&str, &str)]) -> String {
    let mut members = vec![
        ("name", "\"t\""),
        ("width", "3"),
        ("height", "2"),
        ("gems", "[0, 1, 2]"),
        ("ticks", "[100, 50, 20]"),
        (
            "map",
            "[[\"me\", \"mud\", \"exit\"],\n  [\"wall\", \"wall\", \"wall\"]]",
        ),
    ];
    for (k, v) in name_value_pairs {
        match members.iter_mut().find(|(n, _)| n == k) {
            Some(m) => m.1 = v,
            None => members.insert(members.len() - 1, (k, v)),
        }
    }
    let body: Vec<String> = members
        .iter()
        .map(|(k, v)| format!("  \"{k}\": {v}"))
        .collect();
    format!("{{\n{}\n}}\n", body.join(",\n"))
}

#[test]
fn the_base_level_is_valid() {
    assert!(errors(&level_with(&[])).is_empty());
}

#[test]
fn json_syntax_error_has_line_and_column() {
    let (p, line) = one_error("{\n  \"name\": \"x\",\n  \"width\": 3,,\n}");
    assert_eq!((p.line, p.column), (Some(3), Some(14)));
    assert!(line.starts_with("f.json:3:14: invalid JSON"), "{line}");
}

#[test]
fn empty_file_and_binary_garbage() {
    let (_, line) = one_error("   \n");
    assert_eq!(line, "f.json:1:1: the file is empty (at $)");
    let e = load_bytes(&[b'{', b'\n', 0xff, 0xfe, 0x00]).unwrap_err();
    assert_eq!((e[0].line, e[0].column), (Some(2), Some(1)));
    assert!(e[0].message.contains("not UTF-8"));
    // Valid UTF-8 but not JSON.
    let e = load_bytes(b"\x01\x02garbage").unwrap_err();
    assert!(e[0].message.starts_with("invalid JSON"));
}

#[test]
fn a_row_of_the_wrong_length() {
    let text = level_with(&[(
        "map",
        "[[\"me\", \"mud\", \"exit\"],\n  [\"wall\", \"wall\"]]",
    )]);
    let (p, line) = one_error(&text);
    assert_eq!(p.path.to_string(), "$.map[1]");
    assert!(
        line.contains("row 1 has 2 fields but row 0 has 3"),
        "{line}"
    );
    assert_eq!((p.line, p.column), (Some(8), Some(3)));
}

#[test]
fn width_and_height_that_do_not_match_the_map() {
    let e = errors(&level_with(&[("width", "4"), ("height", "3")]));
    let paths: Vec<String> = e.iter().map(|p| p.path.to_string()).collect();
    assert_eq!(paths, ["$.height", "$.width"]);
    assert!(
        e[0].message
            .contains("\"height\" is 3 but the map has 2 rows")
    );
    assert_eq!((e[1].line, e[1].column), (Some(3), Some(12)));
}

#[test]
fn unknown_token_in_the_map() {
    let (p, line) = one_error(&level_with(&[(
        "map",
        "[[\"me\", \"lava\", \"exit\"],\n  [\"wall\", \"wall\", \"wall\"]]",
    )]));
    assert_eq!(p.path.to_string(), "$.map[0][1]");
    assert_eq!(p.cell, Some(tilesmith_engine::Pos::new(1, 0)));
    assert_eq!(line, "f.json:7:18: unknown token \"lava\" (at $.map[0][1])");
}

#[test]
fn negative_values_in_the_map() {
    let (p, line) = one_error(&level_with(&[(
        "map",
        "[[\"me\", {\"token\": \"mud\", \"values\": {\"a\": -2}}, \"exit\"],\n  [\"wall\", \"wall\", \"wall\"]]",
    )]));
    assert_eq!(p.path.to_string(), "$.map[0][1].values.a");
    assert!(line.contains("must not be negative, found -2"), "{line}");
}

fn rule_error(rule: &str) -> (Problem, String) {
    one_error(&level_with(&[("pre", &format!("[{rule}]"))]))
}

#[test]
fn rule_lengths_differ() {
    let (p, line) = rule_error(
        r#"{"situation":"any","direction":"east","original":[{"token":"mud"},{"token":"path"}],"result":[{"token":"path"}]}"#,
    );
    assert_eq!(p.path.to_string(), "$.pre[0].result");
    assert!(
        line.contains("\"original\" has 2 block(s) but \"result\" has 1"),
        "{line}"
    );
}

#[test]
fn index_outside_the_window() {
    let (p, line) = rule_error(
        r#"{"situation":"any","direction":"east","original":[{"token":"mud"}],"result":[{"token":"1"}]}"#,
    );
    assert_eq!(p.path.to_string(), "$.pre[0].result[0].token");
    assert!(line.contains("index 1 is outside the window"), "{line}");
    // An integer index is the same as a digit string (§6 L2).
    let (p, _) = rule_error(
        r#"{"situation":"any","direction":"east","original":[{"token":"mud"}],"result":[{"token":3}]}"#,
    );
    assert_eq!(p.path.to_string(), "$.pre[0].result[0].token");
}

#[test]
fn a_list_token_in_a_result() {
    let (p, line) = rule_error(
        r#"{"situation":"any","direction":"east","original":[{"token":"mud"}],"result":[{"token":["mud","path"]}]}"#,
    );
    assert_eq!(p.path.to_string(), "$.pre[0].result[0].token");
    assert!(
        line.contains("token list is not allowed in a result block"),
        "{line}"
    );
}

#[test]
fn unknown_situation_and_direction() {
    let (p, line) = rule_error(
        r#"{"situation":"sometimes","direction":"east","original":[{"token":"mud"}],"result":[{"token":"0"}]}"#,
    );
    assert_eq!(p.path.to_string(), "$.pre[0].situation");
    assert!(line.contains("unknown situation \"sometimes\""), "{line}");
    let (p, line) = rule_error(
        r#"{"situation":"any","direction":"northeast","original":[{"token":"mud"}],"result":[{"token":"0"}]}"#,
    );
    assert_eq!(p.path.to_string(), "$.pre[0].direction");
    assert!(line.contains("unknown direction \"northeast\""), "{line}");
}

#[test]
fn rare_without_sparsity() {
    let (p, line) = rule_error(
        r#"{"situation":"rare","direction":"east","original":[{"token":"mud"}],"result":[{"token":"0"}]}"#,
    );
    assert_eq!(p.path.to_string(), "$.pre[0].situation");
    assert!(line.contains("needs a \"sparsity\""), "{line}");
    let (p, _) = rule_error(
        r#"{"situation":"rare","sparsity":0,"direction":"east","original":[{"token":"mud"}],"result":[{"token":"0"}]}"#,
    );
    assert_eq!(p.path.to_string(), "$.pre[0].sparsity");
    assert!(errors(&level_with(&[(
        "pre",
        r#"[{"situation":"rare","sparsity":4,"direction":"east","original":[{"token":"mud"}],"result":[{"token":"0"}]}]"#
    )]))
    .is_empty());
}

#[test]
fn gems_and_ticks_must_be_three_numbers() {
    let (p, line) = one_error(&level_with(&[("gems", "[1, 2]")]));
    assert_eq!(p.path.to_string(), "$.gems");
    assert!(
        line.contains("must be an array of three numbers, found 2 entries"),
        "{line}"
    );
    let (p, _) = one_error(&level_with(&[("ticks", "[100, \"fifty\", 20]")]));
    assert_eq!(p.path.to_string(), "$.ticks[1]");
    let (p, _) = one_error(&level_with(&[("ticks", "12")]));
    assert_eq!(p.path.to_string(), "$.ticks");
    let (p, _) = one_error(&level_with(&[("gems", "[0, 1.5, 2]")]));
    assert_eq!(p.path.to_string(), "$.gems[1]");
}

#[test]
fn absurd_sizes_are_refused_without_allocating() {
    let e = errors(&level_with(&[("width", "1000000000000")]));
    assert!(
        e.iter()
            .any(|p| p.path.to_string() == "$.width" && p.message.contains("too large")),
        "{e:#?}"
    );
    let e = errors(&level_with(&[("height", "-3")]));
    assert!(
        e.iter()
            .any(|p| p.path.to_string() == "$.height" && p.message.contains("negative")),
        "{e:#?}"
    );
    // A map wider than the limit: one row of 10 001 fields.
    let row = vec!["\"mud\""; 10_001].join(",");
    let e = errors(&level_with(&[
        ("width", "10001"),
        ("height", "1"),
        ("map", &format!("[[{row}]]")),
    ]));
    assert!(e.iter().any(|p| p.message.contains("too large")), "{e:#?}");
    // Deep nesting is refused by the size scan before parsing (MAX_JSON_DEPTH, 128), not a
    // stack overflow.
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(
        errors(&deep)[0]
            .message
            .contains("nested more than 128 deep")
    );
}

#[test]
fn a_level_needs_exactly_one_me() {
    let (p, _) = one_error(&level_with(&[(
        "map",
        "[[\"mud\", \"mud\", \"exit\"],\n  [\"wall\", \"wall\", \"wall\"]]",
    )]));
    assert!(p.message.contains("no \"me\""));
    let (p, _) = one_error(&level_with(&[(
        "map",
        "[[\"me\", \"me\", \"exit\"],\n  [\"wall\", \"wall\", \"wall\"]]",
    )]));
    assert_eq!(p.path.to_string(), "$.map[0][1]");
}

#[test]
fn unknown_kind_and_unknown_value_names() {
    let (p, _) = one_error(&level_with(&[("kind", "\"tetris\"")]));
    assert_eq!(p.path.to_string(), "$.kind");
    let (p, _) = rule_error(
        r#"{"situation":"any","direction":"east","original":[{"token":"mud","values":{"speed":1}}],"result":[{"token":"0"}]}"#,
    );
    assert_eq!(p.path.to_string(), "$.pre[0].original[0].values.speed");
}

/// Every message of `text` (errors and warnings, as `check` prints them) is short, and the
/// first one quotes a prefix of the huge value and its length.
fn all_lines_short(text: &str, len: usize) {
    let problems = match load_text(text) {
        Err(p) => p,
        Ok(doc) => doc.check(),
    };
    assert!(!problems.is_empty());
    for p in &problems {
        let short = |s: &str| s.chars().take(300).collect::<String>();
        assert!(
            p.message.len() < 200,
            "a {}-byte message: {}",
            p.message.len(),
            short(&p.message)
        );
        // The line adds the file, the place and the path (whose keys are shortened too).
        let line = p.render("f.json");
        assert!(
            line.len() < 400,
            "a {}-byte line: {}",
            line.len(),
            short(&line)
        );
    }
    let first = problems[0].render("f.json");
    assert!(
        first.contains(&format!("\u{2026}\" ({len} characters)")),
        "{first}"
    );
}

#[test]
fn a_huge_value_is_quoted_by_a_short_prefix_and_its_length() {
    let huge = "a".repeat(1_000_000);
    // A map token, boulder and baba.
    all_lines_short(
        &level_with(&[(
            "map",
            &format!("[[\"me\", \"{huge}\", \"exit\"],\n  [\"wall\", \"wall\", \"wall\"]]"),
        )]),
        huge.len(),
    );
    let baba = format!(
        r#"{{"kind":"baba","name":"t","width":2,"height":1,"map":[["baba","text_{huge}"]]}}"#
    );
    all_lines_short(&baba, huge.len());
    // A kind, a global, a value name and a field member.
    all_lines_short(&level_with(&[("kind", &format!("\"{huge}\""))]), huge.len());
    all_lines_short(
        &level_with(&[("state", &format!("{{\"{huge}\": 1}}"))]),
        huge.len(),
    );
    all_lines_short(
        &level_with(&[(
            "map",
            &format!(
                "[[\"me\", {{\"token\": \"mud\", \"values\": {{\"{huge}\": 1}}}}, \"exit\"],\n  [\"wall\", \"wall\", \"wall\"]]"
            ),
        )]),
        huge.len(),
    );
    // A rule's situation.
    let (p, line) = rule_error(&format!(
        r#"{{"situation":"{huge}","direction":"east","original":[{{"token":"mud"}}],"result":[{{"token":"0"}}]}}"#
    ));
    assert!(p.message.len() < 200, "{}", p.message.len());
    assert!(line.len() < 400, "{}", line.len());
    assert!(
        p.message
            .starts_with(&format!("unknown situation \"{}\u{2026}\"", "a".repeat(40)))
    );
}

fn corpus_texts() -> Vec<String> {
    let dir = tilesmith_tests::corpus("boulder/ws1718");
    tilesmith_tests::json_files(&dir)
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2000)) {
        if let Ok(doc) = load_bytes(&bytes) {
            let _ = doc.check();
            let _ = doc.start(0);
        }
    }

    /// Mutated course levels: cut, splice and byte flips. Loading and checking never panics,
    /// and whatever loads also plays 20 ticks without panicking.
    #[test]
    fn mutated_levels_never_panic(which in 0usize..10, cut in 0usize..20_000, len in 0usize..40, flip in any::<u8>(), pos in 0usize..20_000) {
        let texts = corpus_texts();
        let mut bytes = texts[which % texts.len()].clone().into_bytes();
        let p = pos % bytes.len();
        bytes[p] = flip;
        let c = cut % bytes.len();
        let end = (c + len).min(bytes.len());
        bytes.drain(c..end);
        if let Ok(doc) = load_bytes(&bytes) {
            let _ = doc.check();
            if let Ok(mut g) = doc.start(1) {
                for _ in 0..20 {
                    g.step(tilesmith_engine::Input::Move(tilesmith_engine::Dir::Right));
                }
            }
        }
    }

    /// Structural mutations of a valid JSON document: replace one value anywhere by another
    /// JSON value. Exercises every type check of the loader.
    #[test]
    fn values_of_the_wrong_type_never_panic(which in 0usize..10, target in 0usize..5000, replacement in prop_oneof![
        Just(serde_json::json!(null)), Just(serde_json::json!(-1)), Just(serde_json::json!(1e300)),
        Just(serde_json::json!("*")), Just(serde_json::json!("9")), Just(serde_json::json!([])),
        Just(serde_json::json!({})), Just(serde_json::json!([["me"]])), Just(serde_json::json!(4294967296u64)),
    ]) {
        let texts = corpus_texts();
        let mut v: serde_json::Value = serde_json::from_str(&texts[which % texts.len()]).unwrap();
        let mut n = 0;
        replace_nth(&mut v, target, &replacement, &mut n);
        let text = v.to_string();
        if let Ok(doc) = load_text(&text) {
            let _ = doc.check();
            if let Ok(mut g) = doc.start(0) {
                for _ in 0..10 {
                    g.step(tilesmith_engine::Input::Wait);
                }
                let _ = g.to_level();
            }
        }
    }
}

fn replace_nth(
    v: &mut serde_json::Value,
    target: usize,
    with: &serde_json::Value,
    n: &mut usize,
) -> bool {
    if *n == target {
        *v = with.clone();
        return true;
    }
    *n += 1;
    match v {
        serde_json::Value::Array(a) => a.iter_mut().any(|e| replace_nth(e, target, with, n)),
        serde_json::Value::Object(o) => o.values_mut().any(|e| replace_nth(e, target, with, n)),
        _ => false,
    }
}

#[test]
fn extreme_rule_values_are_errors_not_panics() {
    let min = "{\"a\":-9223372036854775808}";
    for (side, rule) in [
        (
            "result",
            format!(
                r#"{{"situation":"any","direction":"east","original":[{{"token":"mud"}}],"result":[{{"token":"0","values":{min}}}]}}"#
            ),
        ),
        (
            "original",
            format!(
                r#"{{"situation":"any","direction":"east","original":[{{"token":"mud","values":{min}}}],"result":[{{"token":"0"}}]}}"#
            ),
        ),
    ] {
        let e = errors(&level_with(&[("pre", &format!("[{rule}]"))]));
        assert_eq!(e.len(), 1, "{side}: {e:#?}");
        assert_eq!(
            e[0].path.to_string(),
            format!("$.pre[0].{side}[0].values.a")
        );
    }
}

#[test]
fn a_map_full_of_errors_is_capped_and_located() {
    // 200×200 unknown tokens: 40 000 errors, of which the report lists the first 100, each
    // located, and counts the other 39 900 in its last line (issue #30: at most 100 problems
    // a file, then `… and N more problems`).
    let row = vec!["\"zz\""; 200].join(",");
    let map = format!("[{}]", vec![format!("[{row}]"); 200].join(",\n"));
    let e = errors(&level_with(&[
        ("width", "200"),
        ("height", "200"),
        ("map", &map),
    ]));
    assert_eq!(e.len(), 101, "{} problems", e.len());
    assert_eq!(e[100].more_count(), Some(39_900));
    assert!(e[..100].iter().all(|p| p.message.contains("\"zz\"")));
    assert!(e[..100].iter().all(|p| p.line.is_some()));
    // The second field of row 0 is on line 7 (the map's first line): `  "map": [["zz","zz",…`.
    assert_eq!((e[1].line, e[1].column), (Some(7), Some(17)));
}

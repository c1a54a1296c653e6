//! The editor's structure as `docs/architecture.md` promises it: outside `src/kinds/`, no
//! source names a kind's module or types; no source file is over 800 lines; no function is
//! over 120 lines. (`.ci/run` checks the first two with grep as well.)

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn all_sources() -> Vec<PathBuf> {
    let mut v = Vec::new();
    sources(&src(), &mut v);
    v.sort();
    assert!(v.len() > 20, "found only {} sources", v.len());
    v
}

/// The kinds' module names: the folders under `src/kinds/`.
fn kind_names() -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(src().join("kinds"))
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// True when `word` occurs in `line` as a whole identifier.
fn has_word(line: &str, word: &str) -> bool {
    let b = line.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    line.match_indices(word).any(|(i, _)| {
        let before = i.checked_sub(1).map(|j| b[j]);
        let after = b.get(i + word.len()).copied();
        !before.is_some_and(ident) && !after.is_some_and(ident)
    })
}

#[test]
fn the_shell_names_no_kind() {
    let kinds = kind_names();
    assert!(kinds.contains(&"boulder".to_string()) && kinds.contains(&"baba".to_string()));
    let types = [
        "BoulderGame",
        "BabaGame",
        "Token",
        "Tile",
        "BoulderLevel",
        "BabaLevel",
    ];
    let mut found = Vec::new();
    for f in all_sources() {
        if f.starts_with(src().join("kinds")) {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            let path_hit = kinds.iter().any(|k| code.contains(&format!("{k}::")));
            let type_hit = types.iter().any(|t| has_word(code, t));
            if path_hit || type_hit {
                found.push(format!("{}:{}: {}", f.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "kind names outside src/kinds:\n{}",
        found.join("\n")
    );
}

#[test]
fn no_source_file_is_over_800_lines() {
    let long: Vec<String> = all_sources()
        .into_iter()
        .filter_map(|f| {
            let n = std::fs::read_to_string(&f).unwrap().lines().count();
            (n > 800).then(|| format!("{} has {n} lines", f.display()))
        })
        .collect();
    assert!(long.is_empty(), "{}", long.join("\n"));
}

/// The functions of `text` as (name, first line, line count), found by their `fn` line and
/// the brace that closes it (strings and comments with braces are rare enough in this code
/// base to be checked by eye when this test points at them).
fn functions(text: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let t = lines[i].trim_start();
        let t = t.strip_prefix("pub ").unwrap_or(t);
        let t = t
            .strip_prefix("pub(crate) ")
            .or_else(|| t.strip_prefix("pub(super) "))
            .unwrap_or(t);
        let t = t.strip_prefix("const ").unwrap_or(t);
        if let Some(rest) = t.strip_prefix("fn ") {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let (mut depth, mut started, mut j) = (0i32, false, i);
            'scan: while j < lines.len() {
                let code = lines[j].split("//").next().unwrap_or("");
                for c in code.chars() {
                    match c {
                        '{' => {
                            depth += 1;
                            started = true;
                        }
                        '}' => depth -= 1,
                        ';' if !started => break 'scan,
                        _ => {}
                    }
                }
                if started && depth == 0 {
                    break;
                }
                j += 1;
            }
            if started {
                out.push((name, i + 1, j - i + 1));
                i = j + 1;
                continue;
            }
        }
        i += 1;
    }
    out
}

#[test]
fn no_function_is_over_120_lines() {
    let mut long = Vec::new();
    for f in all_sources() {
        let text = std::fs::read_to_string(&f).unwrap();
        for (name, at, n) in functions(&text) {
            if n > 120 {
                long.push(format!("{}:{at}: fn {name} has {n} lines", f.display()));
            }
        }
    }
    assert!(long.is_empty(), "{}", long.join("\n"));
}

#[test]
fn the_function_finder_measures_what_it_should() {
    let text = "fn a() {\n    x();\n}\n\npub fn b(\n    y: u8,\n) -> u8 {\n    if y > 0 { 1 } else { 0 }\n}\ntrait T {\n    fn c(&self);\n}\n";
    assert_eq!(
        functions(text),
        [("a".to_string(), 1, 3), ("b".to_string(), 5, 5)]
    );
}

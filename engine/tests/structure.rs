//! The engine's structure as `docs/architecture.md` promises it (issue #27): the shared
//! files name no kind; a kind imports neither another kind nor the list of kinds (it reaches
//! the traits through `crate::game` and its primitives through their own modules), nor the
//! by-name layer (`document`, `replay`, `campaign`), which the lower shared files (`game`,
//! `input`, …) do not import either, nor the list; `super::` paths are resolved to module
//! paths for these checks; no shared string literal is a kind's name or extension; no
//! source file is over 800 lines and no function over 120, except those on the allow-lists
//! below, each with its reason. The kinds are read from the folders under `src/kind/`, so a
//! new kind is covered without editing this test.

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

use std::path::Path;

/// Files longer than 800 lines on purpose or for now, as paths below `src/`, with why.
const LONG_FILES: &[(&str, &str)] = &[(
    "kind/falling/fpgdl/sandbox.rs",
    "long today, not yet split (issue #27 item 6)",
)];

/// Functions longer than 120 lines, as (path below `src/`, name), with why.
const LONG_FUNCTIONS: &[(&str, &str, &str)] = &[
    (
        "kind/baba/turn/movement.rs",
        "move_round",
        "baba's tuned move loop (BENCHMARKS.md, Keke replay): one pass over the movers whose \
         locals stay in registers; cut into functions it would change what is inlined",
    ),
    (
        "kind/falling/fpgdl/import.rs",
        "install",
        "long today, not yet split (issue #27 item 6)",
    ),
    (
        "kind/falling/fpgdl/import.rs",
        "to_level",
        "long today, not yet split (issue #27 item 6)",
    ),
    (
        "kind/falling/fpgdl/sandbox.rs",
        "setup",
        "long today, not yet split (issue #27 item 6)",
    ),
];

/// Shared files (outside `src/kind/`) that still name a kind, with why.
const NAMING_KINDS: &[(&str, &str)] = &[];

/// Type names of the kinds that the shared layers must not use (besides the module paths
/// `kind::<kind>` and the kinds' own sub-folders, found from the file system).
const KIND_TYPES: &[&str] = &[
    "BoulderGame",
    "BoulderLevel",
    "BabaGame",
    "BabaLevel",
    "FallingGame",
    "FallingLevel",
    "BoardGame",
    "BoardLevel",
    "PastaGame",
    "PastaLevel",
    "ScriptError",
    "ZrfProblem",
];

/// `f` below `src/`, with `/` separators (the allow-lists' form).
fn rel(f: &Path) -> String {
    let r = f.strip_prefix(src()).unwrap_or(f);
    r.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// The folders directly under `dir`, by name, sorted.
fn folders(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// The kinds' module names: the folders under `src/kind/`.
fn kind_names() -> Vec<String> {
    folders(&src().join("kind"))
}

/// The module names of the kinds' own sub-folders (`fpgdl`, `zrf`, `play`…): a shared file
/// that writes `zrf::` reaches into a kind. A sub-folder named as a shared module (`game/`,
/// which holds the parts of a kind's `game.rs`) is left out: there `game::` is the shared
/// `crate::game`.
fn kind_submodules() -> Vec<String> {
    let shared = |m: &String| src().join(format!("{m}.rs")).exists() || src().join(m).is_dir();
    let mut v: Vec<String> = kind_names()
        .iter()
        .flat_map(|k| folders(&src().join("kind").join(k)))
        .filter(|m| !shared(m))
        .collect();
    v.sort();
    v.dedup();
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

/// The code of `line`, its `//` comment cut off.
fn code(line: &str) -> &str {
    line.split("//").next().unwrap_or("")
}

/// The identifier at the start of `s`.
fn ident(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// Where `line` of a shared file names a kind: a path `kind::<kind>`, a kind's sub-module
/// path (`zrf::`), a kind in a `kind::{…}` list, or one of [`KIND_TYPES`].
fn names_a_kind(line: &str, kinds: &[String], submodules: &[String]) -> bool {
    let c = code(line);
    let path = kinds.iter().any(|k| c.contains(&format!("kind::{k}")));
    let sub = submodules.iter().any(|m| {
        c.match_indices(&format!("{m}::"))
            .any(|(i, _)| !c[..i].ends_with(|ch: char| ch.is_alphanumeric() || ch == '_'))
    });
    let listed = c
        .split("kind::{")
        .skip(1)
        .any(|rest| kinds.iter().any(|k| has_word(rest, k)));
    let types = KIND_TYPES.iter().any(|t| has_word(c, t));
    path || sub || listed || types
}

#[test]
fn shared_files_name_no_kind() {
    let (kinds, submodules) = (kind_names(), kind_submodules());
    assert!(kinds.len() >= 4 && kinds.contains(&"baba".to_string()));
    assert!(submodules.contains(&"zrf".to_string()));
    let kind_dir = src().join("kind");
    let mut found = Vec::new();
    for f in all_sources() {
        if f.starts_with(&kind_dir) {
            continue;
        }
        let allowed = NAMING_KINDS.iter().any(|(p, _)| rel(&f) == *p);
        let text = std::fs::read_to_string(&f).unwrap();
        let hits: Vec<String> = text
            .lines()
            .enumerate()
            .filter(|(_, line)| names_a_kind(line, &kinds, &submodules))
            .map(|(i, line)| format!("{}:{}: {}", rel(&f), i + 1, line.trim()))
            .collect();
        match (allowed, hits.is_empty()) {
            (false, _) => found.extend(hits),
            (true, true) => found.push(format!(
                "{} names no kind any more: take it off NAMING_KINDS",
                rel(&f)
            )),
            (true, false) => {}
        }
    }
    assert!(
        found.is_empty(),
        "kind names in shared engine files:\n{}",
        found.join("\n")
    );
}

/// Where `line` of a file of kind `own` reaches outside its kind into `src/kind/`: a path
/// `crate::kind` not followed by `::<own>`, a `crate::{…}` list holding `kind`, or a chain
/// of exactly `up` `super::`s (the one that reaches `src/kind/`) not followed by `own`.
fn reaches_other_kind(line: &str, own: &str, up: usize) -> bool {
    let c = code(line);
    let crate_path = c.match_indices("crate::kind").any(|(i, _)| {
        let rest = &c[i + "crate::kind".len()..];
        if ident(rest).is_empty() {
            // `crate::kind` itself, or `crate::kind::…`.
            match rest.strip_prefix("::") {
                Some(r) => ident(r) != own,
                None => true,
            }
        } else {
            false // `crate::kinds…`, another name
        }
    });
    let crate_list = c
        .split("crate::{")
        .skip(1)
        .any(|rest| has_word(rest, "kind"));
    let chain = "super::".repeat(up);
    let supers = c.match_indices(&chain).any(|(i, _)| {
        let rest = &c[i + chain.len()..];
        let before_ok = !c[..i].ends_with("super::");
        before_ok && !rest.starts_with("super::") && ident(rest) != own
    });
    crate_path || crate_list || supers
}

/// The number of `super::` that lead from the module of `f` (below `src/kind/<kind>/`) to
/// `src/kind/` itself: 1 from `<kind>/mod.rs`, one more per folder level, and one more for a
/// file that is not a `mod.rs`.
fn supers_to_kind_list(kind_root: &Path, f: &Path) -> usize {
    let depth = f
        .parent()
        .and_then(|p| p.strip_prefix(kind_root).ok())
        .map_or(0, |p| p.components().count());
    let is_mod = f.file_name().is_some_and(|n| n == "mod.rs");
    1 + depth + usize::from(!is_mod)
}

#[test]
fn kinds_import_no_other_kind_nor_the_list() {
    let kinds = kind_names();
    let mut found = Vec::new();
    for own in &kinds {
        let root = src().join("kind").join(own);
        let mut files = Vec::new();
        sources(&root, &mut files);
        files.sort();
        assert!(!files.is_empty(), "kind {own} has no sources");
        for f in files {
            let up = supers_to_kind_list(&root, &f);
            let text = std::fs::read_to_string(&f).unwrap();
            for (i, line) in text.lines().enumerate() {
                if reaches_other_kind(line, own, up) {
                    found.push(format!("{}:{}: {}", rel(&f), i + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "kinds reaching another kind or the list of kinds:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_import_checks_see_what_they_should() {
    let kinds: Vec<String> = ["baba", "board"].map(String::from).to_vec();
    let subs = vec!["zrf".to_string()];
    assert!(names_a_kind(
        "use crate::kind::board::zrf::X;",
        &kinds,
        &subs
    ));
    assert!(names_a_kind("let m = zrf::MAX;", &kinds, &subs));
    assert!(names_a_kind(
        "use crate::kind::{kind_of, baba};",
        &kinds,
        &subs
    ));
    assert!(names_a_kind("fn f(g: &BabaGame) {}", &kinds, &subs));
    assert!(!names_a_kind(
        "use crate::kind::{kind_of, kinds};",
        &kinds,
        &subs
    ));
    assert!(!names_a_kind("// see crate::kind::baba", &kinds, &subs));
    assert!(!names_a_kind("let b = board_zrf::x;", &kinds, &subs));
    assert!(reaches_other_kind("use crate::kind::baba::X;", "board", 2));
    assert!(reaches_other_kind("use crate::kind::kinds;", "board", 2));
    assert!(reaches_other_kind("use crate::kind;", "board", 2));
    assert!(reaches_other_kind("use crate::{game, kind};", "board", 2));
    assert!(reaches_other_kind("use super::super::baba::X;", "board", 2));
    assert!(reaches_other_kind("super::kinds()", "board", 1));
    assert!(!reaches_other_kind(
        "use crate::kind::board::rules::X;",
        "board",
        2
    ));
    assert!(!reaches_other_kind(
        "use super::super::board::X;",
        "board",
        2
    ));
    assert!(!reaches_other_kind(
        "use super::super::rules::X;",
        "board",
        3
    ));
    assert!(!reaches_other_kind("use super::rules::X;", "board", 2));
    assert!(!reaches_other_kind("use crate::game::Game;", "board", 2));
    let root = Path::new("/k/board");
    assert_eq!(supers_to_kind_list(root, Path::new("/k/board/mod.rs")), 1);
    assert_eq!(supers_to_kind_list(root, Path::new("/k/board/game.rs")), 2);
    assert_eq!(
        supers_to_kind_list(root, Path::new("/k/board/zrf/mod.rs")),
        2
    );
    assert_eq!(supers_to_kind_list(root, Path::new("/k/board/zrf/x.rs")), 3);
}

#[test]
fn no_source_file_is_over_800_lines() {
    let mut long = Vec::new();
    let mut stale = Vec::new();
    for f in all_sources() {
        let n = std::fs::read_to_string(&f).unwrap().lines().count();
        let allowed = LONG_FILES.iter().any(|(p, _)| rel(&f) == *p);
        if n > 800 && !allowed {
            long.push(format!("{} has {n} lines", rel(&f)));
        }
        if n <= 800 && allowed {
            stale.push(format!("{} has {n} lines: take it off LONG_FILES", rel(&f)));
        }
    }
    long.extend(stale);
    assert!(long.is_empty(), "{}", long.join("\n"));
}

#[path = "../../tests/shared/rust_functions.rs"]
mod rust_functions;
use rust_functions::{all_sources, functions, sources, src};

#[test]
fn no_function_is_over_120_lines() {
    let mut long = Vec::new();
    let mut seen = Vec::new();
    for f in all_sources() {
        let text = std::fs::read_to_string(&f).unwrap();
        for (name, at, n) in functions(&text) {
            if n <= 120 {
                continue;
            }
            let r = rel(&f);
            if LONG_FUNCTIONS
                .iter()
                .any(|(p, fname, _)| r == *p && name == *fname)
            {
                seen.push((r, name));
            } else {
                long.push(format!("{r}:{at}: fn {name} has {n} lines"));
            }
        }
    }
    for (p, name, _) in LONG_FUNCTIONS {
        if !seen.iter().any(|(r, n)| r == p && n == name) {
            long.push(format!(
                "{p}: fn {name} is no longer over 120 lines: take it off LONG_FUNCTIONS"
            ));
        }
    }
    assert!(long.is_empty(), "{}", long.join("\n"));
}

#[test]
fn the_function_finder_measures_what_it_should() {
    let text = "fn a() {\n    x();\n}\n\npub fn b(\n    y: u8,\n) -> u8 {\n    if y > 0 { 1 } else { 0 }\n}\ntrait T {\n    fn c(&self);\n}\npub(in crate::kind) fn d() {\n}\n\
                pub fn e(h: [u8; 32]) {\n}\npub(crate) unsafe fn f() {\n}\nasync fn g() {\n}\n\
                pub(in crate::kind) const fn h() -> [u8; 2] {\n    [0; 2]\n}\n";
    assert_eq!(
        functions(text),
        [
            ("a".to_string(), 1, 3),
            ("b".to_string(), 5, 5),
            ("d".to_string(), 13, 2),
            ("e".to_string(), 15, 2),
            ("f".to_string(), 17, 2),
            ("g".to_string(), 19, 2),
            ("h".to_string(), 21, 3)
        ]
    );
}

/// The module path of `f` below `src/` (`kind/board/zrf/x.rs` → `kind::board::zrf::x`,
/// a `mod.rs` is its folder's module, `lib.rs` the crate root), as segments.
fn module_of(rel_path: &str) -> Vec<String> {
    let mut v: Vec<String> = rel_path
        .trim_end_matches(".rs")
        .split('/')
        .map(String::from)
        .collect();
    if v.last().is_some_and(|l| l == "mod" || l == "lib") {
        v.pop();
    }
    v
}

/// The crate paths that `code` (one line) names, resolved to segments from the crate root:
/// `crate::a::b`, `super::super::a` (relative to `module`), `self::a`, with each name of a
/// `{…}` group after a path as a path of its own (one level deep is enough here).
fn crate_paths(code: &str, module: &[String]) -> Vec<Vec<String>> {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = Vec::new();
    let starts: Vec<usize> = ["crate::", "super::", "self::"]
        .iter()
        .flat_map(|p| code.match_indices(p).map(|(i, _)| i))
        .filter(|&i| {
            let before = &code[..i];
            !before.ends_with(is_ident) && !before.ends_with("::")
        })
        .collect();
    for i in starts {
        let mut rest = &code[i..];
        let mut base: Vec<String> = Vec::new();
        if let Some(r) = rest.strip_prefix("crate::") {
            rest = r;
        } else if let Some(r) = rest.strip_prefix("self::") {
            base = module.to_vec();
            rest = r;
        } else {
            base = module.to_vec();
            while let Some(r) = rest.strip_prefix("super::") {
                base.pop();
                rest = r.trim_start();
            }
        }
        loop {
            let id = ident(rest);
            if id.is_empty() {
                break;
            }
            base.push(id.to_string());
            rest = &rest[id.len()..];
            match rest.strip_prefix("::") {
                Some(r) => rest = r,
                None => break,
            }
        }
        if let Some(group) = rest.strip_prefix('{') {
            let group = group.split('}').next().unwrap_or("");
            for item in group.split(',') {
                let mut p = base.clone();
                p.extend(
                    item.trim()
                        .split("::")
                        .map(ident)
                        .take_while(|s| !s.is_empty())
                        .map(String::from),
                );
                out.push(p);
            }
        }
        out.push(base);
    }
    out
}

/// The by-name layer: modules that read documents by their kind's name.
const BY_NAME: [&str; 3] = ["document", "replay", "campaign"];

/// The shared files below the list of kinds (`src/kind/mod.rs`), which the kinds use.
const LOWER: [&str; 10] = [
    "game",
    "input",
    "history",
    "read",
    "grid",
    "problem",
    "level_json",
    "json_text",
    "hash",
    "observe",
];

/// Imports between the lower files that close a loop, as (file, imported module, why).
const LOWER_LOOPS: &[(&str, &str, &str)] = &[];

/// What a path `p` named in module `module` breaks: a kind reaching another kind, the list
/// of kinds, or the by-name layer; a lower shared file reaching the list or the by-name
/// layer.
fn broken_rule(module: &[String], p: &[String]) -> Option<String> {
    let first = p.first().map(String::as_str).unwrap_or("");
    let in_kind = module.first().is_some_and(|m| m == "kind") && module.len() >= 2;
    let lower = module.len() == 1 && LOWER.contains(&module[0].as_str());
    if in_kind {
        if first == "kind" && p.get(1) != module.get(1) {
            return Some(format!("kind {} reaches {}", module[1], p.join("::")));
        }
        if BY_NAME.contains(&first) {
            return Some(format!(
                "kind {} reaches the by-name layer {first}",
                module[1]
            ));
        }
    }
    if lower && (first == "kind" || BY_NAME.contains(&first)) {
        return Some(format!("lower file {} reaches {}", module[0], p.join("::")));
    }
    None
}

#[test]
fn the_layers_import_only_downwards() {
    let mut found = Vec::new();
    let mut loops_seen = Vec::new();
    let mut lower_imports: Vec<(String, String)> = Vec::new();
    for f in all_sources() {
        let r = rel(&f);
        let module = module_of(&r);
        let text = std::fs::read_to_string(&f).unwrap();
        for (i, line) in text.lines().enumerate() {
            for p in crate_paths(code(line), &module) {
                if let Some(why) = broken_rule(&module, &p) {
                    found.push(format!("{r}:{}: {why}: {}", i + 1, line.trim()));
                }
                let lower = module.len() == 1 && LOWER.contains(&module[0].as_str());
                if lower
                    && p.first()
                        .is_some_and(|m| LOWER.contains(&m.as_str()) && *m != module[0])
                {
                    lower_imports.push((module[0].clone(), p[0].clone()));
                }
            }
        }
    }
    for (a, b) in &lower_imports {
        if lower_imports.iter().any(|(x, y)| x == b && y == a) {
            let file = format!("{a}.rs");
            if LOWER_LOOPS.iter().any(|(p, m, _)| *p == file && m == b) {
                loops_seen.push((file, b.clone()));
            } else if !LOWER_LOOPS
                .iter()
                .any(|(p, m, _)| *p == format!("{b}.rs") && m == a)
            {
                found.push(format!("{file} imports {b}, which imports {a}: a loop"));
            }
        }
    }
    for (p, m, _) in LOWER_LOOPS {
        if !loops_seen.iter().any(|(f, x)| f == p && x == m) {
            found.push(format!(
                "{p} -> {m} is no loop any more: take it off LOWER_LOOPS"
            ));
        }
    }
    found.sort();
    found.dedup();
    assert!(
        found.is_empty(),
        "imports against the layers:\n{}",
        found.join("\n")
    );
}

/// The kinds' declared file extensions (`extension: "zrf"` in `src/kind/<kind>/mod.rs`).
fn kind_extensions() -> Vec<String> {
    let mut v = Vec::new();
    for k in kind_names() {
        let text = std::fs::read_to_string(src().join("kind").join(&k).join("mod.rs")).unwrap();
        for line in text.lines() {
            if let Some(rest) = line.trim().strip_prefix("extension: \"") {
                v.push(rest.split('"').next().unwrap_or("").to_string());
            }
        }
    }
    v
}

/// The string literals of `line` (simple `"…"` ones, escapes skipped over).
fn string_literals(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = code_before_comment(line).chars();
    while let Some(c) = chars.next() {
        if c == '"' {
            let mut s = String::new();
            while let Some(d) = chars.next() {
                match d {
                    '\\' => s.extend(chars.next()),
                    '"' => break,
                    _ => s.push(d),
                }
            }
            out.push(s);
        }
    }
    out
}

/// `line` up to a `//` that is outside a string.
fn code_before_comment(line: &str) -> &str {
    let mut in_str = false;
    let b = line.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' if in_str => i += 1,
            b'"' => in_str = !in_str,
            b'/' if !in_str && b.get(i + 1) == Some(&b'/') => return &line[..i],
            _ => {}
        }
        i += 1;
    }
    line
}

/// Shared files' string literals that equal a kind's name or extension, with why.
const NAMING_KINDS_IN_STRINGS: &[(&str, &str, &str)] = &[];

#[test]
fn shared_files_hold_no_kind_name_in_a_string() {
    let mut words = kind_names();
    words.extend(kind_extensions());
    assert!(words.contains(&"zrf".to_string()) && words.contains(&"lua".to_string()));
    let kind_dir = src().join("kind");
    let mut found = Vec::new();
    for f in all_sources() {
        if f.starts_with(&kind_dir) {
            continue;
        }
        let r = rel(&f);
        let text = std::fs::read_to_string(&f).unwrap();
        let mut in_tests = 0i32; // brace depth inside a `mod tests` block, test data
        for (i, line) in text.lines().enumerate() {
            let c = code_before_comment(line);
            if in_tests > 0 || c.trim_start().starts_with("mod tests") {
                in_tests += c.matches('{').count() as i32 - c.matches('}').count() as i32;
                continue;
            }
            for s in string_literals(line) {
                let allowed = NAMING_KINDS_IN_STRINGS
                    .iter()
                    .any(|(p, w, _)| *p == r && *w == s);
                if words.contains(&s) && !allowed {
                    found.push(format!("{r}:{}: \"{s}\": {}", i + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "kind names in strings of shared files:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_layer_checks_see_what_they_should() {
    let m = |s: &str| module_of(s);
    let types = m("kind/falling/level/types.rs");
    assert_eq!(types, ["kind", "falling", "level", "types"]);
    let p = crate_paths("use super::super::super::super::kind::baba::Baba;", &types);
    assert_eq!(p[0], ["kind", "baba", "Baba"]);
    assert!(p.iter().any(|p| broken_rule(&types, p).is_some()));
    let repair = m("kind/falling/repair.rs");
    let p = crate_paths("use super::super::baba::look::add_unknown;", &repair);
    assert_eq!(p[0], ["kind", "baba", "look", "add_unknown"]);
    assert!(broken_rule(&repair, &p[0]).is_some());
    let own = crate_paths("use super::level::X;", &repair);
    assert!(broken_rule(&repair, &own[0]).is_none());
    let game = m("game.rs");
    for line in [
        "let k = crate::kind::kind_named(\"x\");",
        "use crate::kind;",
        "use crate::document::Document;",
        "use crate::{grid::Grid, replay::Replay};",
        "use super::campaign;",
    ] {
        let hit = crate_paths(line, &game)
            .iter()
            .any(|p| broken_rule(&game, p).is_some());
        assert!(hit, "{line}");
    }
    assert!(
        crate_paths("use crate::grid::Grid;", &game)
            .iter()
            .all(|p| broken_rule(&game, p).is_none())
    );
    let kind_file = m("kind/board/mod.rs");
    let p = crate_paths("use crate::document::load_file;", &kind_file);
    assert!(broken_rule(&kind_file, &p[0]).is_some());
    assert_eq!(
        string_literals("x == Some(\"board\") // \"lua\""),
        ["board"]
    );
    assert_eq!(string_literals("f(\"a\\\"b\", \"zrf\")"), ["a\"b", "zrf"]);
}

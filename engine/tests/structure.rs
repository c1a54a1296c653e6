//! The engine's structure as `docs/architecture.md` promises it (issue #27). The layers are
//! crates, so the compiler refuses most wrong imports: `tilesmith-core` (the shared
//! primitives and the traits) depends on no other crate of the engine, and each kind crate
//! (`engine/kinds/<kind>/`) on `tilesmith-core` only, and so does the search crate
//! (`engine/search/`, the algorithms over `SearchGame`), on which no kind depends, which this
//! test holds by reading their `Cargo.toml`s. By reading sources it holds what the compiler
//! cannot see: the shared files (core, search, and the facade's `document`, `replay`,
//! `campaign`; not the list of kinds, `src/kind.rs`) name no kind and hold no kind's name or extension as a string; the core
//! modules import each other without loops (`super::` paths are resolved to module paths);
//! no source file is over 800 lines and no function over 120, except those on the
//! allow-lists below, each with its reason. The kinds are read from the folders under
//! `kinds/`, so a new kind is covered without editing this test.

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Files longer than 800 lines on purpose or for now, as paths below `engine/`, with why.
const LONG_FILES: &[(&str, &str)] = &[];

/// Functions longer than 120 lines, as (path below `engine/`, name), with why.
const LONG_FUNCTIONS: &[(&str, &str, &str)] = &[
    (
        "kinds/baba/src/turn/movement.rs",
        "move_round",
        "baba's tuned move loop (BENCHMARKS.md, Keke replay): one pass over the movers whose \
         locals stay in registers; cut into functions it would change what is inlined",
    ),
    (
        "kinds/falling/src/fpgdl/import.rs",
        "install",
        "the FPGDL API's host functions (setFieldSize, createBlockPattern, …) registered in \
         one list in the paper's order, each a closure over the recorder: read top to bottom \
         against the paper's API table; split by group it would only scatter that list",
    ),
    (
        "kinds/falling/src/fpgdl/import.rs",
        "to_level",
        "the recorder written out as a level document member by member, in the level \
         format's order (docs/falling-level-format.md), one match per recorded call",
    ),
    (
        "kinds/falling/src/fpgdl/sandbox/mod.rs",
        "setup",
        "the sandbox's environment built in one place, one standard-library entry after \
         another as the module's doc lists them (kept, removed, replaced), so that what a \
         script gets can be checked against that list in one reading",
    ),
];

/// Shared files (core, and the facade but for the list of kinds) that still name a kind, with
/// why.
const NAMING_KINDS: &[(&str, &str)] = &[];

/// Type names of the kinds that the shared layers must not use (besides the module paths
/// `kind::<kind>`, the crates `tilesmith_<kind>` and the kinds' own sub-folders, found from
/// the file system): every `pub` struct, enum, trait and type alias a kind crate declares
/// ([`kind_types`]), except those a shared crate declares too. This list only checks that
/// the declarations are found: a sixth kind's types are held without a change here.
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
    "PastaSearch",
    "Card",
    "ScriptError",
    "ZrfProblem",
];

/// The names of the `pub` structs, enums, traits and type aliases declared in the sources
/// under `dir`.
fn declared_types(dir: &Path) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for_each_source_line(dir, |line| {
        let Some(rest) = line.trim_start().strip_prefix("pub ") else {
            return;
        };
        for kw in ["struct ", "enum ", "trait ", "type "] {
            if let Some(name) = rest.strip_prefix(kw) {
                let name: String = name
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    out.insert(name);
                }
            }
        }
    });
    out
}

/// Calls `f` with each line of each Rust source under `dir`.
fn for_each_source_line(dir: &Path, mut f: impl FnMut(&str)) {
    let mut files = Vec::new();
    sources(dir, &mut files);
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        text.lines().for_each(&mut f);
    }
}

/// Names the shared crates have of their own, which a kind's type of the same name does not
/// make a kind's: enum variants (a line starting with a capitalised name and `(`, `{`, `,`)
/// and names imported from outside the workspace (`use std::io::Write`).
fn shared_names(dir: &Path) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for_each_source_line(dir, |line| {
        let t = code(line).trim();
        let name: String = t
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let after = t[name.len()..].trim_start();
        if name.starts_with(|c: char| c.is_ascii_uppercase())
            && (after.starts_with('(') || after.starts_with('{') || after.starts_with(','))
        {
            out.insert(name);
        }
        if t.starts_with("use ") && !t.starts_with("use crate") && !t.starts_with("use super") {
            out.extend(
                t.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .filter(|w| w.starts_with(|c: char| c.is_ascii_uppercase()))
                    .map(String::from),
            );
        }
    });
    out
}

/// The kinds' own type names: declared `pub` in a kind crate and in no shared crate (nor a
/// variant or outside name there, [`shared_names`]).
fn kind_types() -> Vec<String> {
    let mut shared = declared_types(&src());
    for dir in [src(), core_src(), search_src()] {
        shared.extend(declared_types(&dir));
        shared.extend(shared_names(&dir));
    }
    let mut v = BTreeSet::new();
    for k in kind_names() {
        v.extend(declared_types(&kind_src(&k)));
    }
    v.into_iter().filter(|t| !shared.contains(t)).collect()
}

/// The engine's folder: the facade package, holding `core/` and `kinds/`.
fn engine() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// The shared crate's sources: `core/src/`.
fn core_src() -> PathBuf {
    engine().join("core").join("src")
}

/// The search crate's sources: `search/src/`.
fn search_src() -> PathBuf {
    engine().join("search").join("src")
}

/// The sources of the kind crate `kind`: `kinds/<kind>/src/`.
fn kind_src(kind: &str) -> PathBuf {
    engine().join("kinds").join(kind).join("src")
}

/// The list of kinds, the one facade file that names them all.
fn list_file() -> PathBuf {
    src().join("kind.rs")
}

/// Every `.rs` file of the engine's crates (facade, core, search, kinds), sorted.
fn engine_sources() -> Vec<PathBuf> {
    let mut v = Vec::new();
    sources(&src(), &mut v);
    sources(&core_src(), &mut v);
    sources(&search_src(), &mut v);
    for k in kind_names() {
        sources(&kind_src(&k), &mut v);
    }
    v.sort();
    assert!(v.len() > 80, "found only {} sources", v.len());
    v
}

/// The shared files: core's, search's and the facade's sources but for the list of kinds.
fn shared_sources() -> Vec<PathBuf> {
    let mut v = Vec::new();
    sources(&src(), &mut v);
    sources(&core_src(), &mut v);
    sources(&search_src(), &mut v);
    v.retain(|f| *f != list_file());
    v.sort();
    assert!(v.len() > 15, "found only {} shared sources", v.len());
    v
}

/// `f` below `engine/`, with `/` separators (the allow-lists' form).
fn rel(f: &Path) -> String {
    rel_below(f.strip_prefix(engine()).unwrap_or(f))
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

/// The kinds' names: the folders under `kinds/` (crate `tilesmith-<kind>`, re-exported as
/// `tilesmith_engine::kind::<kind>`).
fn kind_names() -> Vec<String> {
    folders(&engine().join("kinds"))
}

/// The module names of the kinds' own sub-folders (`fpgdl`, `zrf`, `play`…): a shared file
/// that writes `zrf::` reaches into a kind. A sub-folder named as a shared module (`game/`,
/// which holds the parts of a kind's `game.rs`) is left out: there `game::` is the shared
/// `tilesmith_core::game`.
fn kind_submodules() -> Vec<String> {
    let shared = |m: &String| {
        [src(), core_src(), search_src()]
            .iter()
            .any(|d| d.join(format!("{m}.rs")).exists() || d.join(m).is_dir())
    };
    let mut v: Vec<String> = kind_names()
        .iter()
        .flat_map(|k| folders(&kind_src(k)))
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

/// Where `line` of a shared file names a kind: a path `kind::<kind>`, a kind's crate
/// `tilesmith_<kind>`, a kind's sub-module path (`zrf::`), a kind in a `kind::{…}` list, or
/// one of the kinds' type names (`types`, [`kind_types`]).
fn names_a_kind(line: &str, kinds: &[String], submodules: &[String], types: &[String]) -> bool {
    let c = code(line);
    let path = kinds
        .iter()
        .any(|k| c.contains(&format!("kind::{k}")) || has_word(c, &format!("tilesmith_{k}")));
    let sub = submodules.iter().any(|m| {
        c.match_indices(&format!("{m}::"))
            .any(|(i, _)| !c[..i].ends_with(|ch: char| ch.is_alphanumeric() || ch == '_'))
    });
    let listed = c
        .split("kind::{")
        .skip(1)
        .any(|rest| kinds.iter().any(|k| has_word(rest, k)));
    let types = types.iter().any(|t| has_word(c, t));
    path || sub || listed || types
}

#[test]
fn shared_files_name_no_kind() {
    let (kinds, submodules, types) = (kind_names(), kind_submodules(), kind_types());
    assert!(kinds.len() >= 4 && kinds.contains(&"baba".to_string()));
    assert!(submodules.contains(&"zrf".to_string()));
    for t in KIND_TYPES {
        assert!(
            types.iter().any(|x| x == t),
            "{t} not found among {types:?}"
        );
    }
    let mut found = Vec::new();
    for f in shared_sources() {
        let allowed = NAMING_KINDS.iter().any(|(p, _)| rel(&f) == *p);
        let text = std::fs::read_to_string(&f).unwrap();
        let hits: Vec<String> = text
            .lines()
            .enumerate()
            .filter(|(_, line)| names_a_kind(line, &kinds, &submodules, &types))
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

/// The engine's crates (`tilesmith-…`) that the package in `dir` depends on, from any of
/// the dependency tables of its `Cargo.toml` (normal, dev, build, per target), sorted.
fn engine_dependencies(dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    let mut in_deps = false;
    let mut v = Vec::new();
    for line in text.lines() {
        let t = line.split('#').next().unwrap_or("").trim();
        if t.starts_with('[') {
            in_deps = t.contains("dependencies");
        }
        if in_deps {
            v.extend(crate_names(t));
        }
    }
    v.sort();
    v.dedup();
    v
}

/// The engine's crate names in `line` (`tilesmith-core`, `tilesmith_baba`, as a key, a table
/// header or a renamed `package`), with `-`.
fn crate_names(line: &str) -> Vec<String> {
    line.match_indices("tilesmith")
        .filter(|(i, _)| !line[..*i].ends_with(|c: char| c.is_alphanumeric() || c == '_'))
        .map(|(i, _)| {
            line[i..]
                .split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_'))
                .next()
                .unwrap_or("")
                .replace('_', "-")
        })
        .filter(|n| n.len() > "tilesmith-".len())
        .collect()
}

#[test]
fn the_crates_depend_only_downwards() {
    assert_eq!(
        engine_dependencies(&engine().join("core")),
        Vec::<String>::new(),
        "tilesmith-core depends on no other crate of the engine"
    );
    assert_eq!(
        engine_dependencies(&engine().join("search")),
        ["tilesmith-core"],
        "tilesmith-search (the algorithms) depends on tilesmith-core only: no kind, not the \
         facade"
    );
    let facade = engine_dependencies(&engine());
    assert!(
        facade.contains(&"tilesmith-search".to_string()),
        "the facade re-exports tilesmith-search as `search`"
    );
    for k in kind_names() {
        let deps = engine_dependencies(&engine().join("kinds").join(&k));
        assert!(
            !deps.contains(&"tilesmith-search".to_string()),
            "the kind crate tilesmith-{k} depends on the search algorithms: a kind offers a \
             SearchGame (tilesmith-core) and never runs a search itself"
        );
        assert_eq!(
            deps,
            ["tilesmith-core"],
            "the kind crate tilesmith-{k} depends on tilesmith-core only: no other kind, not \
             the facade"
        );
        assert!(
            facade.contains(&format!("tilesmith-{k}")),
            "the facade lists the kind crate tilesmith-{k}"
        );
    }
}

#[test]
fn the_import_checks_see_what_they_should() {
    let kinds: Vec<String> = ["baba", "board"].map(String::from).to_vec();
    let subs = vec!["zrf".to_string()];
    let types = vec!["BabaGame".to_string()];
    assert!(names_a_kind(
        "use crate::kind::board::zrf::X;",
        &kinds,
        &subs,
        &types
    ));
    assert!(names_a_kind("let m = zrf::MAX;", &kinds, &subs, &types));
    assert!(names_a_kind(
        "use crate::kind::{kind_of, baba};",
        &kinds,
        &subs,
        &types
    ));
    assert!(names_a_kind("fn f(g: &BabaGame) {}", &kinds, &subs, &types));
    assert!(!names_a_kind(
        "use crate::kind::{kind_of, kinds};",
        &kinds,
        &subs,
        &types
    ));
    assert!(!names_a_kind(
        "// see crate::kind::baba",
        &kinds,
        &subs,
        &types
    ));
    assert!(!names_a_kind(
        "let b = board_zrf::x;",
        &kinds,
        &subs,
        &types
    ));
    assert!(names_a_kind(
        "pub use tilesmith_baba as baba;",
        &kinds,
        &subs,
        &types
    ));
    assert!(!names_a_kind(
        "use tilesmith_babas::X;",
        &kinds,
        &subs,
        &types
    ));
    assert_eq!(
        crate_names("tilesmith-core.workspace = true"),
        ["tilesmith-core"]
    );
    assert_eq!(
        crate_names("b = { package = \"tilesmith-baba\", path = \"../baba\" }"),
        ["tilesmith-baba"]
    );
    assert_eq!(
        crate_names("[dependencies.tilesmith_board]"),
        ["tilesmith-board"]
    );
    assert!(crate_names("serde.workspace = true").is_empty());
}

#[test]
fn no_source_file_is_over_800_lines() {
    let mut long = Vec::new();
    let mut stale = Vec::new();
    for f in engine_sources() {
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

// `all_sources` (one crate's `src/`, asserted to hold many files) is the editor's: the
// engine's sources are spread over its crates ([`engine_sources`]).
#[allow(dead_code)]
#[path = "../../tests/shared/rust_functions.rs"]
mod rust_functions;
use rust_functions::{crate_paths, functions, graph_of, loops, module_of, sources, src};

#[test]
fn no_function_is_over_120_lines() {
    let mut long = Vec::new();
    let mut seen = Vec::new();
    for f in engine_sources() {
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

/// The top-level modules of the crate whose sources are in `src` (its `.rs` files and
/// folders, `lib.rs` excepted).
fn top_modules(src: &Path) -> Vec<String> {
    let mut v = Vec::new();
    for e in std::fs::read_dir(src).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let m = name.strip_suffix(".rs").unwrap_or(&name).to_string();
        if m != "lib" && !v.contains(&m) {
            v.push(m);
        }
    }
    v.sort();
    v
}

/// The other top-level modules of its crate that a file of module `module` names in `code`
/// (one line), out of `modules`.
fn crate_imports(code: &str, module: &[String], modules: &[String]) -> Vec<String> {
    crate_paths(code, module, &[])
        .into_iter()
        .filter_map(|p| p.first().cloned())
        .filter(|m| modules.contains(m) && Some(m) != module.first())
        .collect()
}

/// The import graph between the top-level modules of the crate in `src`: which modules each
/// names in its code, unit tests (`#[cfg(test)]` and what follows it) left out.
fn module_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let modules = top_modules(src);
    let mut graph: BTreeMap<String, BTreeSet<String>> = modules
        .iter()
        .map(|m| (m.clone(), BTreeSet::new()))
        .collect();
    let mut files = Vec::new();
    sources(src, &mut files);
    for f in files {
        let module = module_of(&rel_below(f.strip_prefix(src).unwrap_or(&f)));
        let Some(top) = module.first() else {
            continue; // lib.rs: the module list
        };
        let text = std::fs::read_to_string(&f).unwrap();
        for stmt in statements(&text) {
            let mut found = crate_imports(&stmt, &module, &modules);
            found.extend(
                group_roots(&stmt)
                    .into_iter()
                    .filter(|m| modules.contains(m)),
            );
            for m in found {
                if Some(&m) != module.first() {
                    graph.entry(top.clone()).or_default().insert(m);
                }
            }
        }
    }
    graph
}

/// The code lines of `text` before its unit tests (`#[cfg(test)]`), comments cut, with a
/// `use` spread over several lines (as rustfmt writes a long one) joined into one.
fn statements(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut open: Option<String> = None;
    for line in text.lines().take_while(|l| l.trim() != "#[cfg(test)]") {
        let c = code(line).trim();
        match open.as_mut() {
            Some(s) => {
                s.push(' ');
                s.push_str(c);
                if c.ends_with(';') {
                    out.extend(open.take());
                }
            }
            None if (c.starts_with("use ") || c.contains(" use ")) && !c.ends_with(';') => {
                open = Some(c.to_string());
            }
            None => out.push(c.to_string()),
        }
    }
    out.extend(open);
    out
}

/// The first names of the items of a `crate::{…}` group, at any depth of nesting
/// (`use crate::{a::{b, c}, d};` gives `a` and `d`).
fn group_roots(stmt: &str) -> Vec<String> {
    let Some(i) = stmt.find("crate::{") else {
        return Vec::new();
    };
    let body = &stmt[i + "crate::{".len()..];
    let (mut depth, mut items, mut item) = (0usize, Vec::new(), String::new());
    for ch in body.chars() {
        match ch {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => items.push(std::mem::take(&mut item)),
            _ if depth == 0 => item.push(ch),
            _ => {}
        }
    }
    items.push(item);
    items
        .iter()
        .map(|it| {
            it.trim()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect::<String>()
        })
        .filter(|n| !n.is_empty())
        .collect()
}

/// The compiler holds the crates' layers (`the_crates_depend_only_downwards`); inside the
/// shared crates (`tilesmith-core`: the primitives and the traits; `tilesmith-search`: the
/// algorithms), the modules are held to import each other without a loop of any length: what
/// two modules both need goes into a module below both (issue #27, "Done when": a loop is
/// allowed only inside one kind's folder).
#[test]
fn the_shared_crates_have_no_loop_between_modules() {
    let core = module_graph(&core_src());
    assert!(
        core.contains_key("game") && core["game"].contains("grid"),
        "{core:?}"
    );
    let search = module_graph(&search_src());
    assert!(
        search["solve"].contains("bfs") && search["bfs"].contains("count"),
        "{search:?}"
    );
    let mut found = Vec::new();
    for (name, graph) in [("tilesmith-core", &core), ("tilesmith-search", &search)] {
        for l in loops(graph) {
            found.push(format!("{name}: {}", l.join(" -> ")));
        }
    }
    assert!(
        found.is_empty(),
        "loops between modules of a shared crate:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_loop_finder_sees_loops_of_any_length() {
    let g = graph_of;
    assert_eq!(
        loops(&g(&[("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")])),
        [["a", "b", "c"]]
    );
    assert!(loops(&g(&[("a", "b"), ("b", "c"), ("a", "c")])).is_empty());
    assert!(
        crate_imports(
            "use crate::count::{Count, Counting};",
            &["bfs".into()],
            &["count".into()]
        )
        .iter()
        .all(|m| m == "count")
    );
    assert!(crate_imports("use crate::bfs::X;", &["bfs".into()], &["bfs".into()]).is_empty());
    // A long `use` that rustfmt spreads over lines, with a nested group, names every module.
    let text = "use crate::{\n    astar::{running, solution},\n    bfs::Limits,\n    Budget,\n};\nfn f() {}\n";
    let stmts = statements(text);
    assert_eq!(
        stmts[0],
        "use crate::{ astar::{running, solution}, bfs::Limits, Budget, };"
    );
    assert_eq!(group_roots(&stmts[0]), ["astar", "bfs", "Budget"]);
}

/// `r` (a relative path) with `/` separators.
fn rel_below(r: &Path) -> String {
    r.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// The kinds' declared file extensions (`extension: "zrf"` in `kinds/<kind>/src/lib.rs`).
fn kind_extensions() -> Vec<String> {
    let mut v = Vec::new();
    for k in kind_names() {
        let text = std::fs::read_to_string(kind_src(&k).join("lib.rs")).unwrap();
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
    let mut found = Vec::new();
    for f in shared_sources() {
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
    let types = m("level/parse/types.rs");
    assert_eq!(types, ["level", "parse", "types"]);
    let p = crate_paths("use super::super::super::grid::Pos;", &types, &[]);
    assert_eq!(p[0], ["grid", "Pos"]);
    let repair = m("play/repair.rs");
    let p = crate_paths("use super::super::look::add_unknown;", &repair, &[]);
    assert_eq!(p[0], ["look", "add_unknown"]);
    assert_eq!(m("lib.rs"), Vec::<String>::new());
    let modules: Vec<String> = ["game", "grid", "input"].map(String::from).to_vec();
    let game = m("game.rs");
    assert_eq!(
        crate_imports("use crate::{grid::Pos, input::Input};", &game, &modules),
        ["grid", "input"]
    );
    assert_eq!(
        crate_imports("use super::input;", &game, &modules),
        ["input"]
    );
    assert!(crate_imports("use crate::game::Status;", &game, &modules).is_empty());
    assert!(crate_imports("use serde::Serialize;", &game, &modules).is_empty());
    assert_eq!(
        string_literals("x == Some(\"board\") // \"lua\""),
        ["board"]
    );
    assert_eq!(string_literals("f(\"a\\\"b\", \"zrf\")"), ["a\"b", "zrf"]);
}

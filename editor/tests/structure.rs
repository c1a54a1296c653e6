//! The editor's structure as `docs/architecture.md` promises it: outside `src/kinds/`, no
//! source names a kind's module or types, or the list of kinds (only `main.rs` and `app.rs`,
//! which build it and hand it down), or a kind's file formats (`lua`, `zrf`, `program`, …,
//! as code, and the formats' names in strings: they come from the kinds' declarations); no
//! kind imports another or the list (`super::` paths resolved to module paths); no shell
//! string is exactly a kind's name; no source file is over 800 lines; no function is over 120 lines.
//! The kinds are the folders under `src/kinds/`, so a new kind is covered without a change
//! here. (`.ci/run` checks the kind names, the list, the format names and the file sizes
//! with grep as well.)

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

use std::path::{Path, PathBuf};

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

/// The kinds' type-name stems: each kind's module name capitalized (`boulder` → `Boulder`),
/// which starts every type a kind declares (`BoulderGame`, `FallingDoc`, `BoardUi`, …).
fn kind_stems(kinds: &[String]) -> Vec<String> {
    kinds
        .iter()
        .map(|k| {
            let mut c = k.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// The identifiers of `code`, in order.
fn identifiers(code: &str) -> Vec<&str> {
    code.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
        .collect()
}

/// What ends each string literal in the string lines of [`code_and_strings`].
const END: char = '\u{1}';

/// `text` split into its code and its string literals, line by line: comments (line, block,
/// doc) are dropped, and each string literal's contents go to the second text instead of
/// the first, each ended by [`END`]. Escapes and raw strings (`r#"…"#`) are understood; a `'` starts a character
/// literal when it closes one or two characters later, else it is a lifetime.
fn code_and_strings(text: &str) -> (Vec<String>, Vec<String>) {
    let b: Vec<char> = text.chars().collect();
    let (mut code, mut strings) = (vec![String::new()], vec![String::new()]);
    let newline = |code: &mut Vec<String>, strings: &mut Vec<String>| {
        code.push(String::new());
        strings.push(String::new());
    };
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '\n' {
            newline(&mut code, &mut strings);
            i += 1;
        } else if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i < b.len() && !(b[i] == '*' && b.get(i + 1) == Some(&'/')) {
                if b[i] == '\n' {
                    newline(&mut code, &mut strings);
                }
                i += 1;
            }
            i += 2;
        } else if c == '"' || (c == 'r' && matches!(next, Some('"' | '#'))) {
            // A string: `"…"` with escapes, or raw `r##"…"##`.
            let raw = c == 'r';
            let mut hashes = 0;
            if raw {
                i += 1;
                while b.get(i) == Some(&'#') {
                    hashes += 1;
                    i += 1;
                }
                if b.get(i) != Some(&'"') {
                    code.last_mut().unwrap().push('r');
                    continue;
                }
            }
            i += 1;
            while i < b.len() {
                let d = b[i];
                if !raw && d == '\\' {
                    i += 2;
                    continue;
                }
                if d == '"' && (0..hashes).all(|k| b.get(i + 1 + k) == Some(&'#')) {
                    i += 1 + hashes;
                    break;
                }
                if d == '\n' {
                    newline(&mut code, &mut strings);
                } else {
                    strings.last_mut().unwrap().push(d);
                }
                i += 1;
            }
            strings.last_mut().unwrap().push(END);
        } else if c == '\'' && (b.get(i + 2) == Some(&'\'') || next == Some('\\')) {
            // A character literal ('x', '\n', '\u{…}').
            i += 1;
            while i < b.len() && b[i] != '\'' {
                i += if b[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
        } else {
            code.last_mut().unwrap().push(c);
            i += 1;
        }
    }
    (code, strings)
}

/// The shell's sources: every source outside `src/kinds/`, as (file, code lines, string
/// lines), without the files under `src/kinds/`.
fn shell_sources() -> Vec<(PathBuf, Vec<String>, Vec<String>)> {
    all_sources()
        .into_iter()
        .filter(|f| !f.starts_with(src().join("kinds")))
        .map(|f| {
            let (code, strings) = code_and_strings(&std::fs::read_to_string(&f).unwrap());
            (f, code, strings)
        })
        .collect()
}

/// The top-level wiring that builds the list of kinds and hands it down: the only shell
/// files that may name `kinds` (`docs/architecture.md`).
fn is_top_level(f: &Path) -> bool {
    f == src().join("main.rs") || f == src().join("app.rs")
}

/// What `code` (one line of a shell source, comments and strings removed) names of a kind:
/// a kind's module path (`boulder::`), a type of a kind (`BoulderGame`, `FallingDoc`, or
/// the shared `Token`/`Tile`), or the list of kinds (`kinds::`) outside the top level.
fn kind_names_in(code: &str, kinds: &[String], top_level: bool) -> Vec<String> {
    let stems = kind_stems(kinds);
    let ids = identifiers(code);
    let mut hits = Vec::new();
    for k in kinds {
        if code.contains(&format!("{k}::")) && has_word(code, k) {
            hits.push(format!("{k}::"));
        }
    }
    for id in &ids {
        let kind_type = stems.iter().any(|s| {
            id.strip_prefix(s.as_str()).is_some_and(|rest| {
                rest.is_empty() || rest.starts_with(|c: char| c.is_ascii_uppercase())
            })
        });
        if kind_type || ["Token", "Tile"].contains(id) {
            hits.push((*id).to_string());
        }
    }
    if !top_level
        && ids
            .windows(2)
            .any(|w| w[1] == "kinds" && (w[0] == "crate" || w[0] == "tilesmith_editor"))
    {
        hits.push("crate::kinds".into());
    }
    if !top_level && ids.windows(2).any(|w| w == ["EditorState", "new"]) {
        // `EditorState::new` (in app.rs) reaches the list of kinds: the shell uses
        // `EditorState::with_kinds` with the list it was handed.
        hits.push("EditorState::new".into());
    }
    hits
}

/// The words of a kind's own file formats that the shell must not use as code: they come
/// from the kinds' declarations (`GameKind::file_types`), not from the shell.
const FORMAT_WORDS: [&str; 5] = ["lua", "zrf", "fpgdl", "program", "script"];

/// The words of kind file formats that no string of the shell may hold either (a dialog's
/// filter, a menu item): the kinds declare them.
const FORMAT_NAMES: [&str; 3] = ["lua", "zrf", "fpgdl"];

/// What `code` and `strings` (one line of a shell source) say of a kind's file format: a
/// format word as an identifier or a part of one (`is_program_path`, `doc.program`), or a
/// format's name in a string.
fn format_words_in(code: &str, strings: &str) -> Vec<String> {
    let mut hits = Vec::new();
    for id in identifiers(code) {
        let lower = id.to_ascii_lowercase();
        if lower.split('_').any(|part| FORMAT_WORDS.contains(&part)) {
            hits.push(id.to_string());
        }
    }
    for w in identifiers(strings) {
        if FORMAT_NAMES.contains(&w.to_ascii_lowercase().as_str()) {
            hits.push(format!("\"{w}\""));
        }
    }
    hits
}

#[test]
fn the_shell_names_no_kind() {
    let kinds = kind_names();
    assert!(kinds.contains(&"boulder".to_string()) && kinds.contains(&"baba".to_string()));
    let mut found = Vec::new();
    for (f, code, _) in shell_sources() {
        for (i, line) in code.iter().enumerate() {
            let hits = kind_names_in(line, &kinds, is_top_level(&f));
            if !hits.is_empty() {
                found.push(format!("{}:{}: {}", f.display(), i + 1, hits.join(", ")));
            }
        }
    }
    assert!(
        found.is_empty(),
        "kind names outside src/kinds (the list of kinds is built in main.rs/app.rs and \
         handed down):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_shell_names_no_kind_file_format() {
    let mut found = Vec::new();
    for (f, code, strings) in shell_sources() {
        for (i, (line, text)) in code.iter().zip(&strings).enumerate() {
            let hits = format_words_in(line, text);
            if !hits.is_empty() {
                found.push(format!("{}:{}: {}", f.display(), i + 1, hits.join(", ")));
            }
        }
    }
    assert!(
        found.is_empty(),
        "kind file formats named outside src/kinds (they come from GameKind::file_types):\n{}",
        found.join("\n")
    );
}

#[test]
fn no_kind_imports_another() {
    let kinds = kind_names();
    let mut found = Vec::new();
    for k in &kinds {
        let mut files = Vec::new();
        sources(&src().join("kinds").join(k), &mut files);
        for f in files {
            let (code, _) = code_and_strings(&std::fs::read_to_string(&f).unwrap());
            for (i, line) in code.iter().enumerate() {
                let ids = identifiers(line);
                for other in kinds.iter().filter(|o| *o != k) {
                    if ids
                        .windows(2)
                        .any(|w| w[0] == "kinds" && w[1] == other.as_str())
                    {
                        found.push(format!("{}:{}: kinds::{other}", f.display(), i + 1));
                    }
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "kinds importing another kind:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_checks_see_what_they_should() {
    let kinds: Vec<String> = ["baba", "board", "boulder", "falling", "pasta"]
        .map(String::from)
        .to_vec();
    let (code, strings) = code_and_strings(
        "use crate::kinds::registry; // crate::kinds in a comment\n\
         let d = FallingDoc::new(); let s = \"BoulderGame and is_program_path\";\n\
         let p = PastaUi; let q = Boards; let c = '\"'; let l: &'static str = \"FPGDL (Lua)\";\n\
         if doc.program.is_some() || is_zrf(p) {}\n\
         let st = EditorState::new(doc); let f = r#\"a \"zrf\" file\"#;\n",
    );
    assert_eq!(kind_names_in(&code[0], &kinds, false), ["crate::kinds"]);
    assert!(kind_names_in(&code[0], &kinds, true).is_empty());
    assert_eq!(kind_names_in(&code[1], &kinds, false), ["FallingDoc"]);
    assert_eq!(kind_names_in(&code[2], &kinds, false), ["PastaUi"]);
    assert_eq!(kind_names_in(&code[4], &kinds, false), ["EditorState::new"]);
    assert!(format_words_in(&code[1], &strings[1]).is_empty());
    assert_eq!(
        format_words_in(&code[2], &strings[2]),
        ["\"FPGDL\"", "\"Lua\""]
    );
    assert_eq!(
        format_words_in(&code[3], &strings[3]),
        ["program", "is_zrf"]
    );
    assert_eq!(format_words_in(&code[4], &strings[4]), ["\"zrf\""]);
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

#[path = "../../tests/shared/rust_functions.rs"]
mod rust_functions;
use rust_functions::{
    all_sources, crate_paths, functions, graph_of, ident, loops, module_of, sources, src,
};

/// The names that stand for the editor's library crate in its own paths.
const EDITOR_ROOTS: &[&str] = &["tilesmith_editor"];

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
    let text = "fn a() {\n    x();\n}\n\npub fn b(\n    y: u8,\n) -> u8 {\n    if y > 0 { 1 } else { 0 }\n}\ntrait T {\n    fn c(&self);\n}\n\
                pub(in crate::ui) fn d() {\n}\npub fn e(h: [u8; 32]) {\n}\n\
                pub(crate) unsafe fn f() {\n}\nasync fn g() {\n}\nconst fn h() -> [u8; 2] {\n    [0; 2]\n}\n";
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

/// `f` below `src/`, with `/` separators.
fn rel(f: &Path) -> String {
    let r = f.strip_prefix(src()).unwrap_or(f);
    r.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// What a path `p` named in a file of module `module` breaks: a kind's file reaching
/// `crate::kinds` other than `crate::kinds::<itself>` (another kind, or the list); a shell
/// file outside the top level reaching `crate::kinds` at all.
fn path_rule(module: &[String], p: &[String], top_level: bool) -> Option<String> {
    if p.first().is_none_or(|f| f != "kinds") {
        return None;
    }
    let in_kind = module.first().is_some_and(|m| m == "kinds");
    if in_kind && module.len() >= 2 {
        (p.get(1) != module.get(1)).then(|| format!("kind {} reaches {}", module[1], p.join("::")))
    } else if !in_kind && !top_level {
        Some(format!("shell reaches {}", p.join("::")))
    } else {
        None
    }
}

/// True when `code` has a path segment `kinds` followed by `::` (the `.kinds` field never
/// is).
fn kinds_segment(code: &str) -> bool {
    code.match_indices("kinds").any(|(i, _)| {
        let before = code[..i].chars().next_back();
        let after = &code[i + "kinds".len()..];
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
            && after.trim_start().starts_with("::")
    })
}

#[test]
fn imports_keep_to_their_side() {
    let mut found = Vec::new();
    for f in all_sources() {
        let r = rel(&f);
        let module = module_of(&r);
        let top = is_top_level(&f);
        let in_kind = f.starts_with(src().join("kinds"));
        let (code, _) = code_and_strings(&std::fs::read_to_string(&f).unwrap());
        for (i, line) in code.iter().enumerate() {
            for p in crate_paths(line, &module, EDITOR_ROOTS) {
                if let Some(why) = path_rule(&module, &p, top) {
                    found.push(format!("{r}:{}: {why}", i + 1));
                }
            }
            if !in_kind && !top && kinds_segment(line) {
                found.push(format!("{r}:{}: `kinds::` in the shell", i + 1));
            }
        }
    }
    found.dedup();
    assert!(
        found.is_empty(),
        "imports across the kinds' line (only main.rs/app.rs name the list; a kind names \
         only itself):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_shell_branches_on_no_kind_name() {
    let kinds = kind_names();
    let mut found = Vec::new();
    for (f, _, strings) in shell_sources() {
        for (i, line) in strings.iter().enumerate() {
            for s in line.split(END) {
                if kinds.iter().any(|k| k == s) {
                    found.push(format!("{}:{}: \"{s}\"", rel(&f), i + 1));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "kind names as strings in the shell (the kinds name themselves):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_import_checks_see_what_they_should() {
    let repair = module_of("kinds/falling/repair.rs");
    assert_eq!(repair, ["kinds", "falling", "repair"]);
    let p = crate_paths(
        "use super::super::baba::look::add_unknown;",
        &repair,
        EDITOR_ROOTS,
    );
    assert_eq!(p[0], ["kinds", "baba", "look", "add_unknown"]);
    assert!(path_rule(&repair, &p[0], false).is_some());
    let p = crate_paths(
        "let r = crate::kinds::registry();",
        &module_of("kinds/falling/ui.rs"),
        EDITOR_ROOTS,
    );
    assert!(path_rule(&module_of("kinds/falling/ui.rs"), &p[0], false).is_some());
    let own = crate_paths(
        "use crate::kinds::falling::doc::X; use super::doc::Y;",
        &repair,
        EDITOR_ROOTS,
    );
    assert!(own.iter().all(|p| path_rule(&repair, p, false).is_none()));
    let panels = module_of("ui/panels.rs");
    for line in [
        "use crate::{doc::registry::Kinds, kinds::registry};",
        "let r = super::super::kinds::registry();",
    ] {
        let hit = crate_paths(line, &panels, EDITOR_ROOTS)
            .iter()
            .any(|p| path_rule(&panels, p, false).is_some());
        assert!(hit && kinds_segment(line), "{line}");
    }
    assert!(!kinds_segment("let k = &st.kinds; st.kinds.len();"));
    let (_, strings) = code_and_strings("if st.doc.kind().name() == \"board\" { f(\"a board\") }");
    assert_eq!(
        strings[0].split(END).collect::<Vec<_>>(),
        ["board", "a board", ""]
    );
}

/// The `use` statements of `code` (code lines, comments and strings removed), each joined
/// into one line, with whether it is a re-export (`pub use`, `pub(crate) use`). A
/// statement whose first segment is one of `children` (the file's child modules) gets
/// `self::` before it, so that [`crate_paths`] resolves it.
fn use_statements(code: &[String], children: &[String]) -> Vec<(bool, String)> {
    let mut out = Vec::new();
    let mut cur: Option<(bool, String)> = None;
    for line in code {
        let t = line.trim();
        if cur.is_none() {
            let (public, rest) = if let Some(r) = t.strip_prefix("pub use ") {
                (true, r)
            } else if let Some(r) = t.strip_prefix("pub(crate) use ") {
                (true, r)
            } else if let Some(r) = t.strip_prefix("use ") {
                (false, r)
            } else {
                continue;
            };
            let rest = if children.iter().any(|c| ident(rest) == c) {
                format!("self::{rest}")
            } else {
                rest.to_string()
            };
            cur = Some((public, format!("use {rest}")));
        } else if let Some((_, s)) = &mut cur {
            s.push(' ');
            s.push_str(t);
        }
        if cur.as_ref().is_some_and(|(_, s)| s.ends_with(';')) {
            out.extend(cur.take());
        }
    }
    out
}

/// `line` with `self::` before each path that starts with one of `children` (a parent
/// module's `layout::f()` naming its child `layout`), so that [`crate_paths`] resolves it.
fn child_paths_from_self(line: &str, children: &[String]) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(i) = rest.find(|c: char| c.is_alphanumeric() || c == '_') {
        let id = ident(&rest[i..]);
        let before = &rest[..i];
        let prefixed = out.ends_with("::") || before.ends_with("::") || before.ends_with('.');
        out.push_str(before);
        if !prefixed
            && rest[i + id.len()..].starts_with("::")
            && children.iter().any(|c| c == id)
            && !out.ends_with(|c: char| c.is_alphanumeric() || c == '_')
        {
            out.push_str("self::");
        }
        out.push_str(id);
        rest = &rest[i + id.len()..];
    }
    out.push_str(rest);
    out
}

/// The shell's files as a graph: for each file (path below `src/`), the files it imports
/// from (`use` statements and paths in code, resolved to the file that defines the named
/// module, or through a module's `pub use` to the child that defines the item). Re-exports
/// give no edge of their own: a parent that only re-exports a child's item does not use it.
fn shell_graph() -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
    import_graph(false)
}

/// The import graph of the library's shell files (`binary` false), or of the binary's own
/// files (`binary`: `main.rs` and `cli/`, the command line). The binary is a crate of its own
/// above the library: its `crate::` is not the library's, and nothing of the library can
/// import it, so each is a graph of its own.
fn import_graph(
    binary: bool,
) -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
    use std::collections::{BTreeMap, BTreeSet};
    // In the binary, `tilesmith_editor::` names the library, outside this graph.
    let roots: &[&str] = if binary { &[] } else { EDITOR_ROOTS };
    let files: Vec<(String, Vec<String>, Vec<String>)> = shell_sources()
        .into_iter()
        .filter(|(f, _, _)| {
            (*f == src().join("main.rs") || f.starts_with(src().join("cli"))) == binary
        })
        .map(|(f, mut code, _)| {
            // A file's unit tests (`#[cfg(test)] mod tests { use super::*; … }`, at its end)
            // are not part of what it imports, and their `super` is the file itself.
            if let Some(i) = code.iter().position(|l| l.trim() == "#[cfg(test)]") {
                code.truncate(i);
            }
            let r = rel(&f);
            (r.clone(), module_of(&r), code)
        })
        .collect();
    let file_of: BTreeMap<Vec<String>, String> = files
        .iter()
        .map(|(r, m, _)| (m.clone(), r.clone()))
        .collect();
    let children = |m: &[String]| -> Vec<String> {
        file_of
            .keys()
            .filter(|k| k.len() == m.len() + 1 && k.starts_with(m))
            .map(|k| k[m.len()].clone())
            .collect()
    };
    // Re-exports: (module, item) -> the module path it comes from.
    let mut reexports: BTreeMap<(Vec<String>, String), Vec<String>> = BTreeMap::new();
    for (_, m, code) in &files {
        for (public, s) in use_statements(code, &children(m)) {
            if public {
                for p in crate_paths(&s, m, roots) {
                    if let Some((item, from)) = p.split_last() {
                        reexports.insert((m.clone(), item.clone()), from.to_vec());
                    }
                }
            }
        }
    }
    // The file a path names: its longest prefix that is a module file, then through that
    // module's re-export of the next segment, if any.
    let target = |p: &[String]| -> Option<String> {
        let mut p = p.to_vec();
        for _ in 0..8 {
            let n = (0..=p.len())
                .rev()
                .find(|&n| file_of.contains_key(&p[..n]))?;
            let module = p[..n].to_vec();
            match p
                .get(n)
                .and_then(|item| reexports.get(&(module.clone(), item.clone())))
            {
                Some(from) if from.starts_with(&module) && from.len() > module.len() => {
                    let mut q = from.clone();
                    q.extend(p[n..].iter().cloned());
                    p = q;
                }
                _ => return file_of.get(&module).cloned(),
            }
        }
        None
    };
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (r, m, code) in &files {
        let mut lines: Vec<String> = use_statements(code, &children(m))
            .into_iter()
            .filter(|(public, _)| !public)
            .map(|(_, s)| s)
            .collect();
        let kids = children(m);
        lines.extend(
            code.iter()
                .filter(|l| {
                    let t = l.trim_start();
                    !(t.starts_with("use ")
                        || t.starts_with("pub use ")
                        || t.starts_with("pub(crate) use "))
                })
                .map(|l| child_paths_from_self(l, &kids)),
        );
        // What the file uses of its own re-exports (`pub use child::X` and then `X` in code).
        for ((module, item), from) in &reexports {
            if module == m
                && code.iter().any(|l| {
                    let t = l.trim_start();
                    !(t.starts_with("use ") || t.starts_with("pub use "))
                        && identifiers(l).contains(&item.as_str())
                })
                && let Some(t) = file_of.get(from.as_slice()).filter(|t| *t != r)
            {
                graph.entry(r.clone()).or_default().insert(t.clone());
            }
        }
        let edges = graph.entry(r.clone()).or_default();
        for l in &lines {
            let paths = crate_paths(l, m, roots);
            // A group's base (`super` of `use super::{a, b}`) is named only through its items.
            let named = paths
                .iter()
                .filter(|p| !paths.iter().any(|q| q.len() > p.len() && q.starts_with(p)));
            for p in named {
                // The list of kinds and the kinds are above the shell (and not in this graph).
                if p.first().is_some_and(|f| f == "kinds") {
                    continue;
                }
                if let Some(t) = target(p).filter(|t| t != r) {
                    edges.insert(t);
                }
            }
        }
    }
    graph
}

#[test]
fn the_shell_has_no_loop_between_files() {
    let found = loops(&shell_graph());
    assert!(
        found.is_empty(),
        "loops between the shell's files (docs/architecture.md, \"Layers\"; move what both \
         sides use into a file below both):\n{}",
        found
            .iter()
            .map(|c| c.join(" -> "))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn the_command_line_has_no_loop_between_files() {
    // `cli/`: one file per command group and a dispatcher (`cli/mod.rs`) that imports them,
    // what several share below them (issue #27 item 4).
    let graph = import_graph(true);
    let edges = |f: &str| graph.get(f).cloned().unwrap_or_default();
    // The graph is the command line's: the dispatcher reaches the commands, a command its
    // helpers.
    assert!(edges("cli/mod.rs").contains("cli/solve.rs"), "{graph:?}");
    assert!(edges("cli/mod.rs").contains("cli/solve_campaign.rs"));
    assert!(edges("cli/solve_campaign.rs").contains("cli/solve.rs"));
    assert!(edges("cli/solve.rs").contains("cli/solve_plays.rs"));
    let found = loops(&graph);
    assert!(
        found.is_empty(),
        "loops between the command line's files (docs/architecture.md, \"Layers\"):\n{}",
        found
            .iter()
            .map(|c| c.join(" -> "))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn the_loop_finder_sees_what_it_should() {
    let g = graph_of;
    assert_eq!(
        loops(&g(&[
            ("a", "b"),
            ("b", "c"),
            ("c", "a"),
            ("c", "d"),
            ("d", "e")
        ])),
        [["a", "b", "c"]]
    );
    assert!(loops(&g(&[("a", "b"), ("b", "c"), ("a", "c")])).is_empty());
    // The graph itself: the shell's known one-way imports are edges, the re-export of a
    // child resolves to the child, and `use child::X` in a parent counts.
    let graph = shell_graph();
    let edges = |f: &str| graph.get(f).cloned().unwrap_or_default();
    assert!(edges("doc/ui.rs").contains("state/mod.rs"));
    assert!(edges("export/job.rs").contains("state/work.rs"));
    assert!(edges("state/mod.rs").contains("state/action.rs"));
    assert!(edges("ui/layout.rs").contains("ui/ui_state.rs"));
    assert!(edges("doc/mod.rs").contains("doc/map.rs"));
    assert!(!edges("state/mod.rs").contains("state/export_ops.rs"));
    assert_eq!(
        child_paths_from_self(
            "match layout::f(x.layout::g) { a::layout::h }",
            &["layout".into()]
        ),
        "match self::layout::f(x.layout::g) { a::layout::h }"
    );
    let code = vec!["use map::{".to_string(), "    A, B,".into(), "};".into()];
    assert_eq!(
        use_statements(&code, &["map".into()]),
        [(false, "use self::map::{ A, B, };".to_string())]
    );
}

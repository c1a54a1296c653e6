//! The functions of a Rust source text and their lengths, for the structure tests of the
//! engine (`engine/tests/structure.rs`) and the editor (`editor/tests/structure.rs`), which
//! hold both crates to 120 lines a function; the crate's source files they read; and the
//! loops of an import graph (Kosaraju). One file, included by both with `#[path]`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// What follows the visibility and qualifiers of `line` (`pub`, `pub(crate)`,
/// `pub(in path)`, `const`, `async`, `unsafe`, `extern "C"`), trimmed.
pub fn fn_line(line: &str) -> &str {
    let mut t = line.trim_start();
    loop {
        let before = t;
        if let Some(rest) = t.strip_prefix("pub(") {
            t = rest
                .split_once(')')
                .map_or(t, |(_, after)| after.trim_start());
        }
        for q in [
            "pub ",
            "const ",
            "async ",
            "unsafe ",
            "extern \"C\" ",
            "default ",
        ] {
            t = t.strip_prefix(q).unwrap_or(t);
        }
        if t == before {
            return t;
        }
    }
}

/// The functions of `text` as (name, first line, line count), found by their `fn` line and
/// the brace that closes it (strings and comments with braces are rare enough in this code
/// base to be checked by eye when this test points at them).
pub fn functions(text: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let t = fn_line(lines[i]);
        if let Some(rest) = t.strip_prefix("fn ") {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let (mut depth, mut nest, mut started, mut j) = (0i32, 0i32, false, i);
            'scan: while j < lines.len() {
                let code = lines[j].split("//").next().unwrap_or("");
                for c in code.chars() {
                    match c {
                        '{' => {
                            depth += 1;
                            started = true;
                        }
                        '}' => depth -= 1,
                        '[' | '(' if !started => nest += 1,
                        ']' | ')' if !started => nest -= 1,
                        ';' if !started && nest == 0 => break 'scan,
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

/// Adds every `.rs` file below `dir` to `out`.
pub fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The including crate's `src/` folder.
pub fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file below [`src`], sorted.
pub fn all_sources() -> Vec<PathBuf> {
    let mut v = Vec::new();
    sources(&src(), &mut v);
    v.sort();
    assert!(v.len() > 20, "found only {} sources", v.len());
    v
}

/// The module path of a file below its crate's `src/` (`kinds/falling/repair.rs` →
/// `kinds::falling::repair`; a `mod.rs` is its folder's module, `lib.rs`/`main.rs` the
/// crate root), as segments.
pub fn module_of(rel_path: &str) -> Vec<String> {
    let mut v: Vec<String> = rel_path
        .trim_end_matches(".rs")
        .split('/')
        .map(String::from)
        .collect();
    if v.last()
        .is_some_and(|l| ["mod", "lib", "main"].contains(&l.as_str()))
    {
        v.pop();
    }
    v
}

/// The identifier at the start of `s`.
pub fn ident(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The crate paths that `code` (one line, no comments or strings) names, resolved to
/// segments from the crate root: `crate::a::b`, `ROOT::a` for each name in `roots` that
/// stands for the crate (`tilesmith_editor`), `super::super::a` (relative to `module`),
/// `self::a`, with each name of a `{…}` group after a path as a path of its own (one level
/// deep).
pub fn crate_paths(code: &str, module: &[String], roots: &[&str]) -> Vec<Vec<String>> {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = Vec::new();
    let prefixes: Vec<String> = ["crate", "super", "self"]
        .iter()
        .chain(roots)
        .map(|r| format!("{r}::"))
        .collect();
    let starts: Vec<usize> = prefixes
        .iter()
        .flat_map(|p| code.match_indices(p.as_str()).map(|(i, _)| i))
        .filter(|&i| {
            let before = code[..i].trim_end_matches(' ');
            !code[..i].ends_with(is_ident) && !before.ends_with("::")
        })
        .collect();
    for i in starts {
        let mut rest = &code[i..];
        let mut base: Vec<String> = Vec::new();
        let root = std::iter::once(&"crate")
            .chain(roots)
            .find_map(|r| rest.strip_prefix(r).and_then(|x| x.strip_prefix("::")));
        if let Some(r) = root {
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
            let id = ident(rest.trim_start());
            if id.is_empty() {
                break;
            }
            base.push(id.to_string());
            rest = &rest.trim_start()[id.len()..];
            match rest.trim_start().strip_prefix("::") {
                Some(r) => rest = r,
                None => break,
            }
        }
        if let Some(group) = rest.trim_start().strip_prefix('{') {
            let group = group.split('}').next().unwrap_or("");
            for item in group.split(',') {
                let mut p = base.clone();
                p.extend(
                    item.trim()
                        .split("::")
                        .map(|s| ident(s.trim()))
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

/// The loops of an import graph (file or module → what it imports): its strongly connected
/// components of more than one node, each sorted (Kosaraju: an order by finishing time, then the reversed graph in reverse order).
pub fn loops(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    fn visit<'a>(
        n: &'a str,
        g: &'a BTreeMap<String, BTreeSet<String>>,
        seen: &mut BTreeSet<&'a str>,
        out: &mut Vec<&'a str>,
    ) {
        if seen.insert(n) {
            for m in g.get(n).into_iter().flatten() {
                visit(m, g, seen, out);
            }
            out.push(n);
        }
    }
    let mut order = Vec::new();
    let mut seen = BTreeSet::new();
    for n in graph.keys() {
        visit(n, graph, &mut seen, &mut order);
    }
    let mut reversed: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (a, bs) in graph {
        for b in bs {
            reversed.entry(b.clone()).or_default().insert(a.clone());
        }
    }
    let mut done = BTreeSet::new();
    let mut out = Vec::new();
    for n in order.into_iter().rev() {
        let mut c = Vec::new();
        visit(n, &reversed, &mut done, &mut c);
        if c.len() > 1 {
            let mut c: Vec<String> = c.into_iter().map(String::from).collect();
            c.sort();
            out.push(c);
        }
    }
    out
}

/// A graph from a list of edges `(from, to)`, every node present, for the tests of [`loops`].
pub fn graph_of(edges: &[(&str, &str)]) -> BTreeMap<String, BTreeSet<String>> {
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (a, b) in edges {
        g.entry(a.to_string()).or_default().insert(b.to_string());
        g.entry(b.to_string()).or_default();
    }
    g
}

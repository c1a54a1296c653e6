//! Shared helpers for the Tilesmith conformance tests: small maps written as text, and the
//! paths of the workspace and of the shared corpus.

pub mod baba;
pub mod boulder_maps;
pub mod fuzz;
pub mod keke;
pub mod perfect_clear;

use std::path::PathBuf;

use tilesmith_engine::Grid;
use tilesmith_engine::kind::boulder::{BoulderLevel, Cell, Token, ValueKey};

/// The workspace root.
pub fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `../shared/corpus/<sub>` beside the workspace. Panics with a clear message when missing: the
/// corpus is part of the test environment (CI clones it beside the project).
pub fn corpus(sub: &str) -> PathBuf {
    let p = workspace()
        .join("..")
        .join("shared")
        .join("corpus")
        .join(sub);
    assert!(
        p.is_dir(),
        "the shared corpus folder {} is missing; clone shared/ beside the project",
        p.display()
    );
    p
}

/// Every `*.json` file directly in `dir`, sorted.
pub fn json_files(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    v.sort();
    v
}

/// Parses a map written like the spec's tables: one row per line, fields separated by
/// spaces. A field is a token name with optional markers: `*` sets `moved`, `+` sets `moved`
/// and `falling` (spec boulder §4.4), and `[k=v,…]` sets other values, e.g. `swapling[direction=1]`.
pub fn grid(text: &str) -> Grid<Cell> {
    let rows: Vec<Vec<Cell>> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| l.split_whitespace().map(cell).collect())
        .collect();
    let w = rows[0].len();
    assert!(rows.iter().all(|r| r.len() == w), "ragged test map");
    Grid::from_vec(w, rows.len(), rows.into_iter().flatten().collect()).expect("consistent")
}

fn cell(word: &str) -> Cell {
    let (head, vals) = match word.find('[') {
        Some(i) => (&word[..i], Some(word[i + 1..].trim_end_matches(']'))),
        None => (word, None),
    };
    let name = head.trim_end_matches(['*', '+']);
    let mut c = Cell::new(Token::from_name(name).unwrap_or_else(|| panic!("unknown token {name}")));
    if head.ends_with('*') || head.ends_with('+') {
        c.values[ValueKey::Moved as usize] = 1;
    }
    if head.ends_with('+') {
        c.values[ValueKey::Falling as usize] = 1;
    }
    for kv in vals.into_iter().flat_map(|v| v.split(',')) {
        let (k, v) = kv.split_once('=').expect("k=v");
        let key = ValueKey::ALL
            .iter()
            .find(|x| x.name() == k)
            .unwrap_or_else(|| panic!("unknown value {k}"));
        c.values[*key as usize] = v.parse().expect("number");
    }
    c
}

/// A level around `map` with generous limits (gems 0, ticks 1000) and no rules.
pub fn level(map: Grid<Cell>) -> BoulderLevel {
    let mut l = BoulderLevel::new("test", 3, 3);
    l.map = map;
    l.gems = [0, 0, 0];
    l.ticks = [1000, 1000, 1000];
    l
}

/// The map's tokens and only the values `moved` and `falling`, as the spec's tables show them
/// (other values such as `loose` are set by the reset and not shown there).
pub fn shown(g: &Grid<Cell>) -> Vec<Vec<String>> {
    (0..g.height())
        .map(|y| {
            g.row(y)
                .iter()
                .map(|c| {
                    let m = if c.get(ValueKey::Falling) > 0 && c.get(ValueKey::Moved) > 0 {
                        "+"
                    } else if c.get(ValueKey::Moved) > 0 {
                        "*"
                    } else {
                        ""
                    };
                    format!("{}{m}", c.token.name())
                })
                .collect()
        })
        .collect()
}

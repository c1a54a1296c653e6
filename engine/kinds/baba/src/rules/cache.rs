//! Rule forming by line, with a cache of each line's last rules and, in a searcher, a memo
//! of the rules of every line arrangement met (spec baba §3.3: a sentence lies within one
//! run of one row or column).

use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::{FormedRule, TextTile, line_rules};

/// Every rule the text tiles form (§3), in board order (by the cell of the rule's first tile,
/// row-major; a row before a column at the same cell), each with its tiles. Identical rules
/// using the same tiles are listed once; the same rule formed by different tiles is listed
/// once per formation (its multiplicity, §3.3).
///
/// This is the full re-form: [`RuleCache::form`] with an empty cache.
pub fn form_rules(width: usize, height: usize, texts: &[TextTile]) -> Vec<FormedRule> {
    RuleCache::default().form(width, height, texts)
}

/// What one line (a row or a column) held at the last [`RuleCache::form`]: its text tiles in
/// reading order and the rules they formed.
#[derive(Clone, Debug, Default)]
struct LineRules {
    tiles: Vec<TextTile>,
    /// Shared with the [`LineMemo`], when there is one.
    rules: Arc<[FormedRule]>,
    /// The line's rules went over [`MAX_LINE_RULE_TILES`](super::MAX_LINE_RULE_TILES): the rest were not read.
    cut: bool,
}

/// Rule forming that re-reads only the lines whose text changed (a speed step of issue 11).
///
/// The rules a line forms depend only on the text tiles of that line (§3.3: a sentence lies
/// within one run of one row or column; a tile's stack index is part of it), so the cache
/// keeps, per row and per column, the tiles it was last read with and the rules they formed,
/// and [`RuleCache::form`] reads again only the lines whose tiles differ. The result, order
/// included, is what [`form_rules`] gives for the same tiles; a game keeps one cache across
/// its turns.
#[derive(Clone, Debug, Default)]
pub struct RuleCache {
    width: usize,
    height: usize,
    /// Rows top to bottom, then columns left to right.
    lines: Vec<LineRules>,
    /// The rules of every line arrangement met, when kept ([`RuleCache::keep_lines`]).
    memo: Option<Box<LineMemo>>,
}

impl RuleCache {
    /// Every rule the text tiles form, as [`form_rules`]: `width` × `height` is the map
    /// (tiles outside it are ignored).
    pub fn form(&mut self, width: usize, height: usize, texts: &[TextTile]) -> Vec<FormedRule> {
        if width == 0 || height == 0 {
            return Vec::new();
        }
        if self.width != width || self.height != height {
            self.width = width;
            self.height = height;
            self.lines = vec![LineRules::default(); width + height];
        }
        // Within a cell the tiles keep the order of `texts` (stable sorts).
        let mut by_row: Vec<TextTile> = Vec::with_capacity(texts.len());
        by_row.extend(
            texts
                .iter()
                .filter(|t| t.pos.x < width && t.pos.y < height)
                .copied(),
        );
        let mut by_col = by_row.clone();
        by_row.sort_by_key(|t| (t.pos.y, t.pos.x));
        by_col.sort_by_key(|t| (t.pos.x, t.pos.y));
        let mut total = 0;
        for (vertical, sorted) in [(false, &by_row), (true, &by_col)] {
            let line_of = |t: &TextTile| if vertical { t.pos.x } else { t.pos.y };
            let base = if vertical { height } else { 0 };
            let count = if vertical { width } else { height };
            let mut rest: &[TextTile] = sorted;
            for l in 0..count {
                let n = rest.iter().take_while(|t| line_of(t) == l).count();
                let (tiles, after) = rest.split_at(n);
                rest = after;
                let cached = &mut self.lines[base + l];
                if tiles.len() < 3 {
                    // A sentence needs three words in three cells: nothing to read or keep.
                    cached.tiles.clear();
                    cached.rules = Arc::default();
                    cached.cut = false;
                    continue;
                }
                if cached.tiles != tiles {
                    cached.tiles.clear();
                    cached.tiles.extend_from_slice(tiles);
                    (cached.rules, cached.cut) = match &mut self.memo {
                        Some(m) => m.line(tiles, vertical),
                        None => {
                            let (rules, cut) = line_rules(tiles, vertical);
                            (rules.into(), cut)
                        }
                    };
                }
                total += cached.rules.len();
            }
        }
        let mut out: Vec<FormedRule> = Vec::with_capacity(total);
        for line in &self.lines {
            out.extend(line.rules.iter().cloned());
        }
        out.sort_by_key(|r| {
            let p = r.tiles.first().map(|t| t.pos).unwrap_or_default();
            (p.y, p.x, r.vertical)
        });
        out
    }

    /// From now on, keeps the rules of every line arrangement met (a memo of at most 2²⁰
    /// tiles, emptied when full), so that a line whose text comes back to an arrangement met before is
    /// not read again: for a searcher, which meets the same arrangements throughout a
    /// search. What [`RuleCache::form`] gives does not change.
    pub fn keep_lines(&mut self) {
        self.memo.get_or_insert_default();
    }

    /// How many line arrangements the memo holds (0 without one).
    pub fn kept_lines(&self) -> usize {
        self.memo
            .as_ref()
            .map_or(0, |m| m.map.iter().map(|m| m.len()).sum())
    }

    /// The lines the last [`RuleCache::form`] did not read whole ([`MAX_LINE_RULE_TILES`](super::MAX_LINE_RULE_TILES)):
    /// `(vertical, index)`, rows (y) before columns (x).
    pub fn cut_lines(&self) -> Vec<(bool, usize)> {
        self.lines
            .iter()
            .enumerate()
            .filter(|(_, l)| l.cut)
            .map(|(i, _)| (i >= self.height, i.checked_sub(self.height).unwrap_or(i)))
            .collect()
    }
}

/// The most a [`LineMemo`] holds, counted in tiles (each tile of a key, each tile of a
/// stored rule, and one for each rule and each entry): 48–52 bytes each with the map's
/// share (measured), so 50–55 MB. When an entry would go over, the memo is emptied first.
const MEMO_TILES: usize = 1 << 20;

/// A line's rules, shared, and whether they were cut ([`line_rules`]).
type LineEntry = (Arc<[FormedRule]>, bool);

/// The rules of each line arrangement met (issue #29, BENCHMARKS.md "Where the time goes
/// now": the same text arrangements come back throughout a search, each time with other
/// objects around them). The rules a line forms depend on its text tiles alone (§3.3: each
/// tile's cell, stack index and word) and on whether it is a row or a column; the memo is
/// keyed by exactly these, so a stored entry is what [`line_rules`] gives again. Whether
/// the rules' conditions hold is read later, by the evaluation, not here.
#[derive(Clone, Debug, Default)]
struct LineMemo {
    /// For the rows, then the columns: a line's tiles in reading order → its rules and
    /// whether they were cut.
    map: [FxHashMap<Vec<TextTile>, LineEntry>; 2],
    /// The size of what `map` holds, in [`MEMO_TILES`] units.
    held: usize,
}

impl LineMemo {
    /// What [`line_rules`] gives for `tiles` (a row's, or a column's when `vertical`):
    /// stored, or read and stored.
    fn line(&mut self, tiles: &[TextTile], vertical: bool) -> (Arc<[FormedRule]>, bool) {
        if let Some((rules, cut)) = self.map[usize::from(vertical)].get(tiles) {
            return (Arc::clone(rules), *cut);
        }
        let (rules, cut) = line_rules(tiles, vertical);
        let rules: Arc<[FormedRule]> = rules.into();
        let size = 1 + tiles.len() + rules.iter().map(|f| 1 + f.tiles.len()).sum::<usize>();
        if self.held + size > MEMO_TILES {
            self.map = Default::default();
            self.held = 0;
        }
        if size <= MEMO_TILES {
            self.map[usize::from(vertical)].insert(tiles.to_vec(), (Arc::clone(&rules), cut));
            self.held += size;
        }
        (rules, cut)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::word::Word;
    use tilesmith_core::grid::Pos;

    fn tile(x: usize, y: usize, layer: usize, word: Word) -> TextTile {
        TextTile {
            pos: Pos::new(x, y),
            layer,
            word,
        }
    }

    /// A searcher's memo gives what a fresh re-form gives, each time, as arrangements come
    /// back: the same words in the same cells at other stack indices (an object came to lie
    /// below the text: the rules' tiles differ), the same line of words with a condition in
    /// it, and a line broken and mended again.
    #[test]
    fn the_memo_forms_what_a_fresh_reform_forms_as_arrangements_come_back() {
        let word = |name: &str| Word::from_name(name).expect("a word of the vocabulary");
        let (baba, is, you) = (word("baba"), word("is"), word("you"));
        let (on, flag) = (word("on"), word("flag"));
        let row = |y: usize, layers: [usize; 3]| {
            vec![
                tile(1, y, layers[0], baba),
                tile(2, y, layers[1], is),
                tile(3, y, layers[2], you),
            ]
        };
        let conditional = vec![
            tile(0, 5, 0, baba),
            tile(1, 5, 0, on),
            tile(2, 5, 0, flag),
            tile(3, 5, 0, is),
            tile(4, 5, 0, you),
        ];
        // The same cells, IS moved off the line (no rule), then back.
        let broken = vec![tile(1, 2, 0, baba), tile(2, 3, 0, is), tile(3, 2, 0, you)];
        let arrangements = [
            row(2, [0, 0, 0]),
            row(2, [0, 1, 0]),
            broken.clone(),
            row(2, [0, 0, 0]),
            row(2, [0, 1, 0]),
            conditional.clone(),
            row(2, [1, 0, 0]),
            conditional,
            broken,
            row(2, [0, 1, 0]),
        ];
        let mut memo = RuleCache::default();
        memo.keep_lines();
        for (i, texts) in arrangements.iter().enumerate() {
            let fresh = form_rules(8, 8, texts);
            assert_eq!(memo.form(8, 8, texts), fresh, "arrangement {i}");
        }
        // Stacked IS at layer 1: a rule whose IS tile is at layer 1, as the fresh one says.
        let formed = memo.form(8, 8, &row(2, [0, 1, 0]));
        assert_eq!(formed.len(), 1);
        assert_eq!(formed[0].tiles[1].layer, 1);
        // The conditional line's rule keeps its condition.
        assert!(
            memo.form(8, 8, &arrangements[5])
                .iter()
                .any(|f| !f.rule.conditions.is_empty())
        );
        // Each distinct line arrangement of three tiles or more was stored once.
        assert_eq!(memo.kept_lines(), 4);
    }
}

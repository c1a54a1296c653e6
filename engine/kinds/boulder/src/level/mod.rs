//! The boulder level document: load from JSON with located problems, and save (spec boulder §3).
//!
//! The format is the WS 2017/18 course format (§3) plus two optional top-level fields:
//! `"kind"` (default `"boulder"`) and `"state"` (the globals of a saved play state). Unknown
//! top-level fields (e.g. `time1`) are kept in [`BoulderLevel::extra`] and written back.
//! Token and value names are read case-insensitively and written lower case (§6 F1).

use std::collections::BTreeMap;
use tilesmith_core::problem::Capped as _;

use serde_json::{Map, Value, json};

use super::token::{Global, Globals, Token, VALUE_COUNT, ValueKey, ValueName, Values};
use tilesmith_core::game::Status;
use tilesmith_core::grid::{Dir, Grid, Pos};
use tilesmith_core::problem::{JsonPath, Problem};

mod parse;
mod parse_rule;
mod write;

pub(crate) use parse::KNOWN_KEYS;
pub use parse::cell_from_json;
use parse::*;
pub use parse_rule::rule_from_json;
pub use write::rule_to_json;

pub use tilesmith_core::level_json::{MAX_CELLS, MAX_SIDE};
/// The largest absolute number accepted for a value in a file.
pub const MAX_VALUE: i64 = u32::MAX as i64;

/// One field of the map: a token and its values (spec boulder §3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cell {
    /// The object on the field.
    pub token: Token,
    /// The field's values, indexed by [`ValueKey`]; all 0 means "none set".
    pub values: Values,
}

impl Cell {
    /// A cell with `token` and no value set.
    pub const fn new(token: Token) -> Self {
        Self {
            token,
            values: [0; VALUE_COUNT],
        }
    }

    /// The value `key` of this field.
    pub fn get(&self, key: ValueKey) -> u32 {
        self.values[key as usize]
    }

    /// This cell with value `key` set to `v`.
    pub fn with(mut self, key: ValueKey, v: u32) -> Self {
        self.values[key as usize] = v;
        self
    }

    /// The enemy heading stored in `direction`, if it is 1–4.
    pub fn direction(&self) -> Option<Dir> {
        Dir::from_value(self.get(ValueKey::Direction))
    }

    /// The JSON form: the plain token string when every value is 0, otherwise
    /// `{"token": …, "values": {…}}` listing the non-zero values.
    pub fn to_json(&self) -> Value {
        if self.token == Token::Unknown {
            // Outside its level (a clipboard) the original text is not at hand.
            return Value::String(self.token.name().into());
        }
        if self.values.iter().all(|&v| v == 0) {
            return Value::String(self.token.name().into());
        }
        let mut values = Map::new();
        for k in ValueKey::ALL {
            let v = self.get(*k);
            if v != 0 {
                values.insert(k.name().into(), json!(v));
            }
        }
        json!({"token": self.token.name(), "values": values})
    }
}

/// When a rule runs (spec boulder §4.5 "situation").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Situation {
    /// Every tick.
    Any,
    /// Every `sparsity` ticks: in ticks whose number (1-based, not the `ticks` global) is a
    /// multiple of `sparsity` (§6 L9).
    Rare {
        /// The period in ticks, at least 1.
        sparsity: u32,
    },
    /// When the input is this arrow without meta (`left`, `right`, `up`, `down`).
    Input(Dir),
    /// When the input is this arrow with meta (`metaleft`, …).
    Meta(Dir),
}

impl Situation {
    /// The file name of the situation (`any`, `rare`, `left`, `metaup`, …).
    pub fn name(&self) -> String {
        match self {
            Situation::Any => "any".into(),
            Situation::Rare { .. } => "rare".into(),
            Situation::Input(d) => d.name().into(),
            Situation::Meta(d) => format!("meta{}", d.name()),
        }
    }

    /// Parses a situation name case-insensitively; `rare` gets `sparsity` 1 here and the caller
    /// fills in the real period.
    pub fn from_name(s: &str) -> Option<Situation> {
        let s = s.to_ascii_lowercase();
        let dir = |n: &str| Dir::ALL.into_iter().find(|d| d.name() == n);
        match s.as_str() {
            "any" => Some(Situation::Any),
            "rare" => Some(Situation::Rare { sparsity: 1 }),
            _ => match s.strip_prefix("meta") {
                Some(rest) => dir(rest).map(Situation::Meta),
                None => dir(&s).map(Situation::Input),
            },
        }
    }
}

/// The token part of an `original` rule block.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TokenPattern {
    /// `"*"`: matches every field.
    Any,
    /// One name or a list of alternatives.
    OneOf(Vec<Token>),
    /// A number (integer or digit string): never matches a field (§4.5, §6 L2).
    Index(u32),
}

/// The token part of a `result` rule block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenWrite {
    /// Write this token.
    Set(Token),
    /// Copy the token of position k (0-based) of the matched window, as it was before this
    /// match wrote anything (§6 L6).
    Copy(usize),
}

/// A rule block of an `original` list: what a field must hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    /// The accepted tokens.
    pub token: TokenPattern,
    /// `(value, n)`: n = 0 means "must be 0", n > 0 means "at least n" (§4.5).
    pub values: Vec<(ValueName, i64)>,
    /// Unknown members of the block (a warning each when loaded), kept for saving.
    pub extra: Map<String, Value>,
}

/// A rule block of a `result` list: how a matched field changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Write {
    /// The token to write.
    pub token: TokenWrite,
    /// `(value, n)`: n = 0 sets 0, other n is added and the sum clamped at 0 (§4.5). A global is
    /// changed once per field this block writes (§6 V4).
    pub values: Vec<(ValueName, i64)>,
    /// Unknown members of the block (a warning each when loaded), kept for saving.
    pub extra: Map<String, Value>,
}

/// A level rule (spec boulder §4.5).
#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    /// Optional comment shown by the editor; ignored by the engine.
    pub name: Option<String>,
    /// When the rule runs.
    pub situation: Situation,
    /// The direction lines are read in: `Right` = east (rows left to right), `Left` = west,
    /// `Down` = south (columns top to bottom), `Up` = north.
    pub direction: Dir,
    /// The blocks to find, in line direction.
    pub original: Vec<Pattern>,
    /// The blocks written over the found window; same length as `original`.
    pub result: Vec<Write>,
    /// Unknown members of the rule object, kept for saving.
    pub extra: Map<String, Value>,
}

/// A boulder level (spec boulder §3).
#[derive(Clone, Debug, PartialEq)]
pub struct BoulderLevel {
    /// Display name.
    pub name: String,
    /// Gems needed for 1, 2 and 3 points.
    pub gems: [u32; 3],
    /// Tick limits for 1, 2 and 3 points.
    pub ticks: [u32; 3],
    /// Rules run before the main rules each tick.
    pub pre: Vec<Rule>,
    /// Rules run after the main rules each tick.
    pub post: Vec<Rule>,
    /// Optional slime limit.
    pub maxslime: Option<u32>,
    /// The map, `map[y][x]` with row 0 at the top.
    pub map: Grid<Cell>,
    /// Globals of a saved play state (`"state"`), if any.
    pub state: Option<Globals>,
    /// The clock of a saved play state (`"state"` members `tick_count` and `rng`), if any: a
    /// game started from this level goes on from it, so playing 10 ticks, saving with
    /// `run --out` and playing 10 more equals playing 20.
    pub clock: Option<Clock>,
    /// The status of a saved finished game (`"state"` members `status` and `reason`): `None`
    /// for a game that goes on (and for every level that is not a saved state). A finished
    /// game may have no `me` left; a game started from it is over at once.
    pub status: Option<Status>,
    /// Unknown top-level members, in file order.
    pub extra: Map<String, Value>,
    /// Unknown members of map fields written as objects (a warning each when loaded), by
    /// position `(y, x)` (row from the top, column from the left), kept for saving: they
    /// stay with the position, whatever is painted there later, and are dropped with it
    /// when a resize cuts the position off.
    pub field_extra: BTreeMap<(usize, usize), Map<String, Value>>,
    /// Repair mode ([`BoulderLevel::from_json_editable`]): the original JSON of each field
    /// that could not be read, `None` for a field missing from a short row. A
    /// [`Token::Unknown`] cell refers to its entry by its value `moved` (index 0), so the
    /// entry follows the cell when it is moved or copied within the level; painting over the
    /// cell drops the reference. Saved as found (a missing field is not written). Empty for a
    /// level that loads without problems.
    pub unknown: Vec<Option<Value>>,
}

impl BoulderLevel {
    /// A new level of `width` × `height`: a `wall` border around `mud`, `me` at (1, 1) and an
    /// `exit` at the bottom-right inside corner. Sizes are clamped to 3…[`MAX_SIDE`].
    pub fn new(name: &str, width: usize, height: usize) -> Self {
        let (w, h) = (width.clamp(3, MAX_SIDE), height.clamp(3, MAX_SIDE));
        let mut map = Grid::new(w, h, Cell::new(Token::Mud));
        for (i, c) in map.cells_mut().iter_mut().enumerate() {
            let (x, y) = (i % w, i / w);
            if x == 0 || y == 0 || x == w - 1 || y == h - 1 {
                *c = Cell::new(Token::Wall);
            }
        }
        *map.get_mut(Pos::new(1, 1)).expect("inside") = Cell::new(Token::Me);
        *map.get_mut(Pos::new(w - 2, h - 2)).expect("inside") = Cell::new(Token::Exit);
        Self {
            name: name.into(),
            gems: [0, 0, 0],
            ticks: [1000, 500, 250],
            pre: Vec::new(),
            post: Vec::new(),
            maxslime: None,
            clock: None,
            status: None,
            map,
            state: None,
            extra: Map::new(),
            field_extra: BTreeMap::new(),
            unknown: Vec::new(),
        }
    }

    /// Reads a level from a parsed JSON document.
    ///
    /// # Errors
    /// Every error-severity problem found (warnings are not reported here; see
    /// [`BoulderLevel::warnings`]). Paths are set; lines and columns are not.
    pub fn from_json(doc: &Value) -> Result<Self, Vec<Problem>> {
        Self::from_json_with_warnings(doc).map(|(l, _)| l)
    }

    /// [`BoulderLevel::from_json`] plus the warnings found while reading (the load-time
    /// warnings of docs/level-format.md: unknown members of map fields and rule blocks,
    /// `sparsity` on a rule that is not `rare`), in document order. What they name is kept
    /// and written back by [`BoulderLevel::to_json`].
    ///
    /// # Errors
    /// Every error-severity problem found, as [`BoulderLevel::from_json`].
    pub fn from_json_with_warnings(doc: &Value) -> Result<(Self, Vec<Problem>), Vec<Problem>> {
        let mut p = Vec::new();
        let level = parse_level(doc, &mut p, true, false);
        match level {
            Some(l) if p.iter().all(|x| !x.is_error()) => Ok((l, p)),
            _ => Err(p.into_iter().filter(Problem::is_error).collect()),
        }
    }

    /// Reads a level for editing ("repair mode", docs/editor.md): like
    /// [`BoulderLevel::from_json`], but a map with no `me` or with several is accepted, and so
    /// is a map whose fields cannot all be read: each such field (an unknown token name, a bad
    /// value, a field that is not a string or object) becomes a [`Token::Unknown`] cell whose
    /// JSON is kept in [`BoulderLevel::unknown`] and written back unchanged, and rows of
    /// different lengths are padded to the longest with cells for the missing fields (not
    /// written back), while `width` and `height` are taken from the map. The editor shows the
    /// errors (those of `tilesmith check` on [`BoulderLevel::to_json`]) in its problems list; a
    /// designer can save such work in progress and open it again to finish it. Every other
    /// error (the map is not an array of arrays, bad thresholds, bad rules, a bad state) still
    /// refuses the document, so nothing the file holds is dropped.
    ///
    /// # Errors
    /// Every error-severity problem outside the map's fields and the figure count.
    pub fn from_json_editable(doc: &Value) -> Result<Self, Vec<Problem>> {
        let mut p = Vec::new();
        let level = parse_level(doc, &mut p, false, true);
        match level {
            Some(l) if p.iter().all(|x| !x.is_error()) => Ok(l),
            _ => Err(p.into_iter().filter(Problem::is_error).collect()),
        }
    }

    /// The errors about the figure: none, or the map has no `me` or several (spec boulder
    /// §3: exactly one `me`). Part of [`BoulderLevel::from_json`]'s errors.
    pub fn figure_problems(&self) -> Vec<Problem> {
        figure_problems(&self.map, self.status.is_some())
    }

    /// Warnings about a loadable level: no exit, fewer gems on the map than `gems[0]`,
    /// thresholds out of order, rules that can never match.
    pub fn warnings(&self) -> Vec<Problem> {
        let root = JsonPath::root();
        let mut w = Vec::new();
        let count = |t: Token| self.map.cells().iter().filter(|c| c.token == t).count();
        if count(Token::Exit) == 0 {
            w.push_capped(Problem::warning(
                root.key("map"),
                "the map has no exit, so the level cannot be won",
            ));
        }
        let gems = count(Token::Gem);
        if (gems as u64) < self.gems[0] as u64 {
            w.push_capped(Problem::warning(
                    root.key("gems"),
                    format!(
                        "the map has {gems} gem(s) but the exit needs {}; more must come from rules or enemies",
                        self.gems[0]
                    ),
                ),
            );
        }
        if !(self.gems[0] <= self.gems[1] && self.gems[1] <= self.gems[2]) {
            w.push_capped(Problem::warning(
                root.key("gems"),
                "gems thresholds should not decrease (1, 2, 3 points)",
            ));
        }
        if !(self.ticks[0] >= self.ticks[1] && self.ticks[1] >= self.ticks[2]) {
            w.push_capped(Problem::warning(
                root.key("ticks"),
                "ticks limits should not increase (1, 2, 3 points)",
            ));
        }
        for nm in super::analysis::never_matching(self) {
            let list = if nm.post { "post" } else { "pre" };
            let names: Vec<&str> = nm.missing.iter().map(|t| t.name()).collect();
            w.push_capped(Problem::warning(
                    root.key(list)
                        .index(nm.index)
                        .key("original")
                        .index(nm.block)
                        .key("token"),
                    format!(
                        "this rule can never match: it needs {} here, which is on no field and which no rule or main rule creates",
                        names.join(" or ")
                    ),
                ),
            );
        }
        for (list, rules) in [("pre", &self.pre), ("post", &self.post)] {
            for (i, r) in rules.iter().enumerate() {
                for (k, b) in r.original.iter().enumerate() {
                    if let TokenPattern::Index(_) = b.token {
                        w.push_capped(Problem::warning(
                            root.key(list)
                                .index(i)
                                .key("original")
                                .index(k)
                                .key("token"),
                            "a number in an original block never matches a field",
                        ));
                    }
                }
            }
        }
        w
    }

    /// Map width in cells.
    pub fn width(&self) -> usize {
        self.map.width()
    }

    /// Map height in cells.
    pub fn height(&self) -> usize {
        self.map.height()
    }
}

/// The clock of a saved play state: how many ticks were computed and where the random number
/// generator stood (spec boulder §4.1 leaves saved states open; Tilesmith extension).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Ticks computed before the state was saved (the game's internal counter, which rule
    /// situations such as "every n ticks" use; not the `ticks` global).
    pub tick_count: u64,
    /// The ChaCha8 generator's 32-byte seed and its word position, when saved.
    pub rng: Option<([u8; 32], u128)>,
}

/// The largest `tick_count` a saved state may hold (2^53 − 1: exact in every JSON reader, and
/// far from overflowing the tick counter).
pub const MAX_TICK_COUNT: i64 = (1 << 53) - 1;

/// The ChaCha8 word position wraps at 2^68; a saved position is below it.
pub const RNG_WORD_LIMIT: u128 = 1 << 68;

/// The points globals `g` earn under thresholds `gems` and `ticks` (spec boulder §5), 0 for none.
pub(super) fn points_of(g: Globals, gems: [u32; 3], ticks: [u32; 3]) -> u32 {
    let (have, took) = (g[Global::Gems as usize], g[Global::Ticks as usize]);
    (1..=3)
        .rev()
        .find(|&k| have >= gems[k - 1] && took <= ticks[k - 1])
        .unwrap_or(0) as u32
}

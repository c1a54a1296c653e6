//! The boulder level document: load from JSON with located problems, and save (spec boulder §3).
//!
//! The format is the WS 2017/18 course format (§3) plus two optional top-level fields:
//! `"kind"` (default `"boulder"`) and `"state"` (the globals of a saved play state). Unknown
//! top-level fields (e.g. `time1`) are kept in [`BoulderLevel::extra`] and written back.
//! Token and value names are read case-insensitively and written lower case (§6 F1).

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::token::{Global, Globals, Token, VALUE_COUNT, ValueKey, ValueName, Values};
use crate::game::Status;
use crate::grid::{Dir, Grid, Pos};
use crate::level_json::{self, int, natural, type_name};
use crate::problem::{JsonPath, Problem, did_you_mean, nearest, quote};

pub use crate::level_json::{MAX_CELLS, MAX_SIDE};
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

/// Top-level members this loader understands; everything else goes to `extra`.
const KNOWN_KEYS: &[&str] = &[
    "kind", "name", "width", "height", "gems", "ticks", "pre", "post", "maxslime", "map", "state",
];

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
            w.push(Problem::warning(
                root.key("map"),
                "the map has no exit, so the level cannot be won",
            ));
        }
        let gems = count(Token::Gem);
        if (gems as u64) < self.gems[0] as u64 {
            w.push(Problem::warning(
                root.key("gems"),
                format!("the map has {gems} gem(s) but the exit needs {}; more must come from rules or enemies", self.gems[0]),
            ));
        }
        if !(self.gems[0] <= self.gems[1] && self.gems[1] <= self.gems[2]) {
            w.push(Problem::warning(
                root.key("gems"),
                "gems thresholds should not decrease (1, 2, 3 points)",
            ));
        }
        if !(self.ticks[0] >= self.ticks[1] && self.ticks[1] >= self.ticks[2]) {
            w.push(Problem::warning(
                root.key("ticks"),
                "ticks limits should not increase (1, 2, 3 points)",
            ));
        }
        for nm in super::analysis::never_matching(self) {
            let list = if nm.post { "post" } else { "pre" };
            let names: Vec<&str> = nm.missing.iter().map(|t| t.name()).collect();
            w.push(Problem::warning(
                root.key(list).index(nm.index).key("original").index(nm.block).key("token"),
                format!(
                    "this rule can never match: it needs {} here, which is on no field and which no rule or main rule creates",
                    names.join(" or ")
                ),
            ));
        }
        for (list, rules) in [("pre", &self.pre), ("post", &self.post)] {
            for (i, r) in rules.iter().enumerate() {
                for (k, b) in r.original.iter().enumerate() {
                    if let TokenPattern::Index(_) = b.token {
                        w.push(Problem::warning(
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

    /// The level as a JSON document in the course format (with `"kind": "boulder"` first).
    pub fn to_json(&self) -> Value {
        let mut o = Map::new();
        o.insert("kind".into(), json!("boulder"));
        o.insert("name".into(), json!(self.name));
        o.insert("width".into(), json!(self.width()));
        o.insert("height".into(), json!(self.height()));
        o.insert("gems".into(), json!(self.gems));
        o.insert("ticks".into(), json!(self.ticks));
        if let Some(m) = self.maxslime {
            o.insert("maxslime".into(), json!(m));
        }
        if !self.pre.is_empty() {
            o.insert(
                "pre".into(),
                Value::Array(self.pre.iter().map(rule_to_json).collect()),
            );
        }
        if !self.post.is_empty() {
            o.insert(
                "post".into(),
                Value::Array(self.post.iter().map(rule_to_json).collect()),
            );
        }
        // A clock or status without globals still needs the state object (globals 0).
        let needs_state = self.clock.is_some() || self.status.is_some();
        if let Some(s) = self.state.or(needs_state.then_some([0; 5])) {
            let mut st = Map::new();
            for g in Global::ALL {
                st.insert(g.name().into(), json!(s[g as usize]));
            }
            if let Some(c) = self.clock {
                st.insert("tick_count".into(), json!(c.tick_count));
                if let Some((seed, word)) = c.rng {
                    let hex: String = seed.iter().map(|b| format!("{b:02x}")).collect();
                    st.insert("rng".into(), json!(format!("{hex}:{word}")));
                }
            }
            if let Some(status) = &self.status {
                st.insert("status".into(), json!(status.word()));
                if let Status::Lost { reason } = status {
                    st.insert("reason".into(), json!(reason));
                }
            }
            o.insert("state".into(), Value::Object(st));
        }
        for (k, v) in &self.extra {
            o.insert(k.clone(), v.clone());
        }
        let rows: Vec<Value> = (0..self.height())
            .map(|y| {
                let row = self.map.row(y).iter().enumerate();
                Value::Array(
                    row.filter_map(|(x, c)| {
                        if c.token == Token::Unknown {
                            // The field as it was found; a missing one stays missing.
                            return match self.unknown.get(c.get(ValueKey::Moved) as usize) {
                                Some(kept) => kept.clone(),
                                None => Some(c.to_json()),
                            };
                        }
                        Some(match self.field_extra.get(&(y, x)) {
                            None => c.to_json(),
                            Some(more) => cell_with_extra(c, more),
                        })
                    })
                    .collect(),
                )
            })
            .collect();
        o.insert("map".into(), Value::Array(rows));
        Value::Object(o)
    }

    /// The level as text: one member per line, one rule per line and one map row per line, so
    /// files diff well. Ends with a newline.
    pub fn to_pretty_string(&self) -> String {
        crate::json_text::layout(&self.to_json())
    }
}

/// A field written as an object with its unknown members after `token` and `values`.
fn cell_with_extra(c: &Cell, more: &Map<String, Value>) -> Value {
    let mut o = match c.to_json() {
        Value::Object(o) => o,
        token => {
            let mut o = Map::new();
            o.insert("token".into(), token);
            o
        }
    };
    for (k, v) in more {
        o.entry(k.clone()).or_insert_with(|| v.clone());
    }
    Value::Object(o)
}

/// The JSON form of a rule (members `name`, `situation`, `sparsity`, `direction`, `original`,
/// `result`, then unknown members).
pub fn rule_to_json(r: &Rule) -> Value {
    let mut o = Map::new();
    if let Some(n) = &r.name {
        o.insert("name".into(), json!(n));
    }
    o.insert("situation".into(), json!(r.situation.name()));
    if let Situation::Rare { sparsity } = r.situation {
        o.insert("sparsity".into(), json!(sparsity));
    }
    o.insert("direction".into(), json!(r.direction.compass()));
    let values = |vs: &[(ValueName, i64)]| {
        let mut m = Map::new();
        for (k, v) in vs {
            m.insert(k.name().into(), json!(v));
        }
        m
    };
    let block = |token: Value, vs: &[(ValueName, i64)], extra: &Map<String, Value>| {
        let mut b = Map::new();
        b.insert("token".into(), token);
        if !vs.is_empty() {
            b.insert("values".into(), Value::Object(values(vs)));
        }
        for (k, v) in extra {
            b.entry(k.clone()).or_insert_with(|| v.clone());
        }
        Value::Object(b)
    };
    let original = r
        .original
        .iter()
        .map(|p| {
            let t = match &p.token {
                TokenPattern::Any => json!("*"),
                TokenPattern::OneOf(ts) if ts.len() == 1 => json!(ts[0].name()),
                TokenPattern::OneOf(ts) => json!(ts.iter().map(|t| t.name()).collect::<Vec<_>>()),
                TokenPattern::Index(k) => json!(k.to_string()),
            };
            block(t, &p.values, &p.extra)
        })
        .collect();
    let result = r
        .result
        .iter()
        .map(|w| {
            let t = match w.token {
                TokenWrite::Set(t) => json!(t.name()),
                TokenWrite::Copy(k) => json!(k.to_string()),
            };
            block(t, &w.values, &w.extra)
        })
        .collect();
    o.insert("original".into(), Value::Array(original));
    o.insert("result".into(), Value::Array(result));
    // An unknown member never replaces a known one (a kept `sparsity` of a rule that is
    // `rare` now).
    for (k, v) in &r.extra {
        o.entry(k.clone()).or_insert_with(|| v.clone());
    }
    Value::Object(o)
}

/// Reads a rule from JSON (used by the editor's JSON view too).
///
/// # Errors
/// The rule's problems, with paths relative to `path`.
pub fn rule_from_json(v: &Value, path: &JsonPath) -> Result<Rule, Vec<Problem>> {
    let mut p = Vec::new();
    match parse_rule(v, path, &mut p) {
        Some(r) if p.iter().all(|x| !x.is_error()) => Ok(r),
        _ => Err(p),
    }
}

fn three(doc: &Map<String, Value>, key: &str, p: &mut Vec<Problem>) -> Option<[u32; 3]> {
    let path = JsonPath::root().key(key);
    match doc.get(key) {
        None => {
            p.push(Problem::error(
                path,
                format!("\"{key}\" is missing (three numbers for 1, 2 and 3 points)"),
            ));
            None
        }
        Some(Value::Array(a)) if a.len() == 3 => {
            let mut out = [0u32; 3];
            let mut ok = true;
            for (i, v) in a.iter().enumerate() {
                match natural(v, &path.index(i), &format!("\"{key}\"[{i}]"), MAX_VALUE, p) {
                    Some(n) => out[i] = n as u32,
                    None => ok = false,
                }
            }
            ok.then_some(out)
        }
        Some(v) => {
            let found = match v {
                Value::Array(a) => format!("{} entries", a.len()),
                other => type_name(other).to_string(),
            };
            p.push(Problem::error(
                path,
                format!("\"{key}\" must be an array of three numbers, found {found}"),
            ));
            None
        }
    }
}

fn parse_level(
    doc: &Value,
    p: &mut Vec<Problem>,
    figure_rule: bool,
    repair: bool,
) -> Option<BoulderLevel> {
    let root = JsonPath::root();
    let Value::Object(o) = doc else {
        p.push(Problem::error(
            root,
            format!("a level must be a JSON object, found {}", type_name(doc)),
        ));
        return None;
    };
    let name = level_json::name(o, p);
    // In repair mode the map decides the size: a bad `width` or `height` is only reported
    // (by the check of the level as saved, where they are written from the map).
    let mut scratch = Vec::new();
    let sides = if repair { &mut scratch } else { &mut *p };
    let width = level_json::side(o, "width", (MAX_SIDE, MAX_CELLS), sides);
    let height = level_json::side(o, "height", (MAX_SIDE, MAX_CELLS), sides);
    let gems = three(o, "gems", p);
    let ticks = three(o, "ticks", p);
    let maxslime = o
        .get("maxslime")
        .and_then(|v| natural(v, &root.key("maxslime"), "\"maxslime\"", MAX_VALUE, p))
        .map(|n| n as u32);
    let mut rules = |key: &str| -> Vec<Rule> {
        match o.get(key) {
            None => Vec::new(),
            Some(Value::Array(a)) => a
                .iter()
                .enumerate()
                .filter_map(|(i, r)| parse_rule(r, &root.key(key).index(i), p))
                .collect(),
            Some(v) => {
                p.push(Problem::error(
                    root.key(key),
                    format!(
                        "\"{key}\" must be an array of rules, found {}",
                        type_name(v)
                    ),
                ));
                Vec::new()
            }
        }
    };
    let pre = rules("pre");
    let post = rules("post");
    let (state, clock, saved_status) = match o.get("state").and_then(|s| parse_state(s, p)) {
        Some((g, c, st)) => (Some(g), c, st),
        None => (None, None, None),
    };
    // A saved "won" earns the points its globals earn; none is a contradiction.
    let status = match (saved_status, &gems, &ticks, state) {
        (Some(Status::Won { .. }), Some(gems), Some(ticks), Some(g)) => {
            match points_of(g, *gems, *ticks) {
                0 => {
                    p.push(Problem::error(
                        root.key("state").key("status"),
                        "\"state\".status is \"won\" but the state's gems and ticks earn no points",
                    ));
                    None
                }
                points => Some(Status::won(points)),
            }
        }
        (other, ..) => other,
    };
    let mut unknown = Vec::new();
    let map = if repair {
        let kept = |v: Option<&Value>| {
            unknown.push(v.cloned());
            Cell::new(Token::Unknown).with(ValueKey::Moved, (unknown.len() - 1) as u32)
        };
        level_json::grid_repair(o.get("map"), (MAX_SIDE, MAX_CELLS), p, parse_cell, kept)
    } else {
        level_json::grid(
            o.get("map"),
            (width, height),
            "fields",
            (MAX_SIDE, MAX_CELLS),
            p,
            parse_cell,
        )
    };
    let extra: Map<String, Value> = o
        .iter()
        .filter(|(k, _)| !KNOWN_KEYS.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let map = map?;
    let field_extra = field_extras(o.get("map"));
    if figure_rule {
        // A finished game (won, or lost because the figure was destroyed) may have none.
        p.extend(figure_problems(&map, status.is_some()));
    }
    Some(BoulderLevel {
        name,
        gems: gems?,
        ticks: ticks?,
        pre,
        post,
        maxslime,
        map,
        state,
        clock,
        status,
        extra,
        field_extra,
        unknown,
    })
}

/// The unknown members of the map's fields written as objects, by `(y, x)` (parse_cell
/// warns about each).
fn field_extras(map: Option<&Value>) -> BTreeMap<(usize, usize), Map<String, Value>> {
    let mut out = BTreeMap::new();
    let Some(Value::Array(rows)) = map else {
        return out;
    };
    for (y, row) in rows.iter().enumerate() {
        let Value::Array(cells) = row else { continue };
        for (x, c) in cells.iter().enumerate() {
            if let Value::Object(o) = c {
                let more: Map<String, Value> = o
                    .iter()
                    .filter(|(k, _)| *k != "token" && *k != "values")
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                if !more.is_empty() {
                    out.insert((y, x), more);
                }
            }
        }
    }
    out
}

/// No `me` (unless the state is `finished`), or every `me` after the first (row-major), as
/// errors.
fn figure_problems(map: &Grid<Cell>, finished: bool) -> Vec<Problem> {
    let root = JsonPath::root();
    let mes: Vec<Pos> = map
        .iter()
        .filter(|(_, c)| c.token == Token::Me)
        .map(|(p, _)| p)
        .collect();
    match mes.len() {
        0 if finished => Vec::new(),
        0 => vec![Problem::error(
            root.key("map"),
            "the map has no \"me\" (exactly one is required)",
        )],
        1 => Vec::new(),
        n => mes[1..]
            .iter()
            .map(|&at| {
                Problem::error(
                    root.key("map").index(at.y).index(at.x),
                    format!("the map has {n} \"me\" fields (exactly one is required)"),
                )
                .at_cell(at)
            })
            .collect(),
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

/// Reads `"<64 hex digits>:<decimal word position>"` (the position without leading zeros and
/// below [`RNG_WORD_LIMIT`]); the error says what is wrong.
fn parse_rng(s: &str) -> Result<([u8; 32], u128), String> {
    let format = "must be \"<64 hex digits>:<word position>\" as written by `tilesmith run --out`";
    let Some((hex, word)) = s.split_once(':') else {
        return Err(format!("{format}; found {} (no ':')", quote(s)));
    };
    if hex.len() != 64 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!(
            "{format}; the seed before ':' has {} characters, not 64 hex digits",
            hex.chars().count()
        ));
    }
    let mut seed = [0u8; 32];
    for (i, b) in seed.iter_mut().enumerate() {
        *b = hex
            .get(2 * i..2 * i + 2)
            .and_then(|h| u8::from_str_radix(h, 16).ok())
            .ok_or_else(|| format!("{format}; the seed is not hex"))?;
    }
    let canonical = word == "0" || (!word.starts_with('0') && !word.is_empty());
    match word.parse::<u128>() {
        Ok(n) if canonical && word.bytes().all(|b| b.is_ascii_digit()) && n < RNG_WORD_LIMIT => {
            Ok((seed, n))
        }
        _ => Err(format!(
            "{format}; the word position {} is not a whole number below 2^68 without leading zeros",
            quote(word)
        )),
    }
}

/// The points globals `g` earn under thresholds `gems` and `ticks` (spec boulder §5), 0 for none.
pub(super) fn points_of(g: Globals, gems: [u32; 3], ticks: [u32; 3]) -> u32 {
    let (have, took) = (g[Global::Gems as usize], g[Global::Ticks as usize]);
    (1..=3)
        .rev()
        .find(|&k| have >= gems[k - 1] && took <= ticks[k - 1])
        .unwrap_or(0) as u32
}

/// A saved state's globals, clock and status (`None` for "running" or no status).
type SavedState = (Globals, Option<Clock>, Option<Status>);

fn parse_state(v: &Value, p: &mut Vec<Problem>) -> Option<SavedState> {
    let path = JsonPath::root().key("state");
    let Value::Object(o) = v else {
        p.push(Problem::error(
            path,
            format!(
                "\"state\" must be an object of globals, found {}",
                type_name(v)
            ),
        ));
        return None;
    };
    let mut g = [0u32; 5];
    let mut tick_count = None;
    let mut rng = None;
    let mut status = None;
    let mut reason = None;
    for (k, v) in o {
        if k.eq_ignore_ascii_case("status") {
            match v.as_str() {
                Some("running") => {}
                Some("won") => status = Some(Status::won(0)),
                Some("lost") => {
                    status = Some(Status::Lost {
                        reason: String::new(),
                    })
                }
                _ => p.push(Problem::error(
                    path.key(k),
                    format!(
                        "\"state\".status must be \"running\", \"won\" or \"lost\", found {}",
                        v.as_str().map_or_else(|| type_name(v).to_string(), quote)
                    ),
                )),
            }
            continue;
        }
        if k.eq_ignore_ascii_case("reason") {
            match v.as_str() {
                Some(r) => reason = Some((r.to_string(), path.key(k))),
                None => p.push(Problem::error(
                    path.key(k),
                    format!("\"state\".reason must be a string, found {}", type_name(v)),
                )),
            }
            continue;
        }
        if k.eq_ignore_ascii_case("tick_count") {
            tick_count = natural(
                v,
                &path.key(k),
                &format!("\"state\".{k} (ticks computed)"),
                MAX_TICK_COUNT,
                p,
            );
            continue;
        }
        if k.eq_ignore_ascii_case("rng") {
            rng = match v.as_str().map(parse_rng) {
                Some(Ok(r)) => Some(r),
                Some(Err(why)) => {
                    p.push(Problem::error(path.key(k), format!("\"state\".{k} {why}")));
                    None
                }
                None => {
                    p.push(Problem::error(
                        path.key(k),
                        format!(
                            "\"state\".{k} must be a string \"<64 hex digits>:<word position>\" as written by `tilesmith run --out`, found {}",
                            type_name(v)
                        ),
                    ));
                    None
                }
            };
            continue;
        }
        match Global::ALL
            .iter()
            .find(|x| x.name().eq_ignore_ascii_case(k))
        {
            Some(gl) => {
                if let Some(n) = natural(v, &path.key(k), &format!("\"state\".{k}"), MAX_VALUE, p) {
                    g[*gl as usize] = n as u32;
                }
            }
            None => p.push(Problem::error(
                path.key(k),
                format!(
                    "unknown global {} (known: gems, ticks, x, y, z, and tick_count, rng, status, reason)",
                    quote(k)
                ),
            )),
        }
    }
    let clock = (tick_count.is_some() || rng.is_some()).then(|| Clock {
        tick_count: tick_count.unwrap_or(0),
        rng,
    });
    match (&mut status, reason) {
        (Some(Status::Lost { reason }), r) => {
            *reason = r.map_or_else(|| "the game was lost before it was saved".into(), |r| r.0);
        }
        (_, Some((_, rp))) => p.push(Problem::error(
            rp,
            "\"state\".reason is only for a \"lost\" status",
        )),
        _ => {}
    }
    Some((g, clock, status))
}

/// One map field from its JSON form (a token name, or `{"token": …, "values": {…}}`), as in a
/// level's `map`; `None` when it is not a valid field. For pasting cells copied as JSON.
pub fn cell_from_json(v: &Value) -> Option<Cell> {
    let mut p = Vec::new();
    let cell = parse_cell(v, &JsonPath::root(), Pos::new(0, 0), &mut p)?;
    p.iter().all(|x| !x.is_error()).then_some(cell)
}

fn parse_cell(v: &Value, path: &JsonPath, at: Pos, p: &mut Vec<Problem>) -> Option<Cell> {
    let token_of = |s: &str, path: JsonPath, p: &mut Vec<Problem>| match Token::from_name(s) {
        Some(t) => Some(t),
        None => {
            let hint = did_you_mean(Token::suggest(s).map(Token::name));
            p.push(Problem::error(path, format!("unknown token {}{hint}", quote(s))).at_cell(at));
            None
        }
    };
    match v {
        Value::String(s) => token_of(s, path.clone(), p).map(Cell::new),
        Value::Object(o) => {
            let token = match o.get("token") {
                Some(Value::String(s)) => token_of(s, path.key("token"), p),
                Some(other) => {
                    p.push(
                        Problem::error(
                            path.key("token"),
                            format!(
                                "a field's token must be a string, found {}",
                                type_name(other)
                            ),
                        )
                        .at_cell(at),
                    );
                    None
                }
                None => {
                    p.push(
                        Problem::error(path.clone(), "a field object needs a \"token\"")
                            .at_cell(at),
                    );
                    None
                }
            };
            let mut values = [0u32; VALUE_COUNT];
            match o.get("values") {
                None | Some(Value::Null) => {}
                Some(Value::Object(vs)) => {
                    for (k, v) in vs {
                        let vp = path.key("values").key(k);
                        match ValueName::from_name(k) {
                            Some(ValueName::Field(key)) => {
                                if let Some(n) =
                                    natural(v, &vp, &format!("value {}", quote(k)), MAX_VALUE, p)
                                {
                                    values[key as usize] = n as u32;
                                }
                            }
                            Some(ValueName::Global(_)) => p.push(
                                Problem::error(
                                    vp,
                                    format!(
                                        "{} is a global value and cannot be set on a field",
                                        quote(k)
                                    ),
                                )
                                .at_cell(at),
                            ),
                            None => {
                                let names = ValueKey::ALL.iter().map(|k| k.name());
                                let hint = did_you_mean(nearest(k, names));
                                p.push(
                                    Problem::error(vp, format!("unknown value {}{hint}", quote(k)))
                                        .at_cell(at),
                                )
                            }
                        }
                    }
                }
                Some(other) => p.push(
                    Problem::error(
                        path.key("values"),
                        format!("\"values\" must be an object, found {}", type_name(other)),
                    )
                    .at_cell(at),
                ),
            }
            for k in o.keys().filter(|k| *k != "token" && *k != "values") {
                p.push(
                    Problem::warning(
                        path.key(k),
                        format!(
                            "unknown member {} of a field is ignored (kept when saved)",
                            quote(k)
                        ),
                    )
                    .at_cell(at),
                );
            }
            Some(Cell {
                token: token?,
                values,
            })
        }
        other => {
            p.push(
                Problem::error(
                    path.clone(),
                    format!(
                        "a field must be a token string or an object, found {}",
                        type_name(other)
                    ),
                )
                .at_cell(at),
            );
            None
        }
    }
}

/// A digit-only string or a JSON integer as an index.
fn index_token(v: &Value) -> Option<i64> {
    match v {
        Value::String(s) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => {
            Some(s.parse().unwrap_or(i64::MAX))
        }
        Value::Number(_) => int(v),
        _ => None,
    }
}

fn parse_values(
    v: Option<&Value>,
    path: &JsonPath,
    original: bool,
    p: &mut Vec<Problem>,
) -> Vec<(ValueName, i64)> {
    let mut out = Vec::new();
    match v {
        None | Some(Value::Null) => {}
        Some(Value::Object(o)) => {
            for (k, v) in o {
                let vp = path.key(k);
                let Some(name) = ValueName::from_name(k) else {
                    p.push(Problem::error(vp, format!("unknown value {}", quote(k))));
                    continue;
                };
                match int(v) {
                    Some(n) if n.unsigned_abs() > MAX_VALUE as u64 => p.push(Problem::error(vp, format!("value {} is out of range ({n})", quote(k)))),
                    Some(n) if n < 0 && original => p.push(Problem::error(
                        vp,
                        format!("value {} is negative ({n}) in an original block, which can never match", quote(k)),
                    )),
                    Some(n) => {
                        out.retain(|(x, _)| *x != name);
                        out.push((name, n));
                    }
                    None => {
                        p.push(Problem::error(vp, format!("value {} must be a whole number, found {}", quote(k), type_name(v))))
                    }
                }
            }
        }
        Some(other) => p.push(Problem::error(
            path.clone(),
            format!("\"values\" must be an object, found {}", type_name(other)),
        )),
    }
    out
}

/// Warns about each unknown member of a rule block and gives them back, to be kept.
fn unknown_block_members(
    block: &Map<String, Value>,
    path: &JsonPath,
    p: &mut Vec<Problem>,
) -> Map<String, Value> {
    let mut more = Map::new();
    for (k, v) in block
        .iter()
        .filter(|(k, _)| *k != "token" && *k != "values")
    {
        p.push(Problem::warning(
            path.key(k),
            format!(
                "unknown member {} of a rule block is ignored (kept when saved)",
                quote(k)
            ),
        ));
        more.insert(k.clone(), v.clone());
    }
    more
}

fn parse_rule(v: &Value, path: &JsonPath, p: &mut Vec<Problem>) -> Option<Rule> {
    let Value::Object(o) = v else {
        p.push(Problem::error(
            path.clone(),
            format!("a rule must be an object, found {}", type_name(v)),
        ));
        return None;
    };
    let errors_before = p.iter().filter(|x| x.is_error()).count();
    let name = match o.get("name") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(other) => {
            p.push(Problem::error(
                path.key("name"),
                format!(
                    "a rule's \"name\" must be a string, found {}",
                    type_name(other)
                ),
            ));
            None
        }
    };
    let situation = match o.get("situation") {
        Some(Value::String(s)) => match Situation::from_name(s) {
            Some(Situation::Rare { .. }) => match o.get("sparsity") {
                None => {
                    p.push(Problem::error(
                        path.key("situation"),
                        "situation \"rare\" needs a \"sparsity\" (a whole number ≥ 1)",
                    ));
                    None
                }
                Some(sv) => match int(sv) {
                    Some(n) if (1..=MAX_VALUE).contains(&n) => {
                        Some(Situation::Rare { sparsity: n as u32 })
                    }
                    _ => {
                        p.push(Problem::error(
                            path.key("sparsity"),
                            "\"sparsity\" must be a whole number ≥ 1",
                        ));
                        None
                    }
                },
            },
            Some(s) => Some(s),
            None => {
                p.push(Problem::error(
                    path.key("situation"),
                    format!("unknown situation {} (known: any, rare, left, right, up, down, metaleft, metaright, metaup, metadown)", quote(s)),
                ));
                None
            }
        },
        Some(other) => {
            p.push(Problem::error(
                path.key("situation"),
                format!("\"situation\" must be a string, found {}", type_name(other)),
            ));
            None
        }
        None => {
            p.push(Problem::error(path.clone(), "a rule needs a \"situation\""));
            None
        }
    };
    if o.contains_key("sparsity") && !matches!(situation, Some(Situation::Rare { .. }) | None) {
        p.push(Problem::warning(
            path.key("sparsity"),
            "\"sparsity\" only matters with situation \"rare\" and is ignored (kept when saved)",
        ));
    }
    let direction = match o.get("direction") {
        Some(Value::String(s)) => match Dir::ALL
            .into_iter()
            .find(|d| d.compass().eq_ignore_ascii_case(s))
        {
            Some(d) => Some(d),
            None => {
                p.push(Problem::error(
                    path.key("direction"),
                    format!(
                        "unknown direction {} (known: east, west, north, south)",
                        quote(s)
                    ),
                ));
                None
            }
        },
        Some(other) => {
            p.push(Problem::error(
                path.key("direction"),
                format!("\"direction\" must be a string, found {}", type_name(other)),
            ));
            None
        }
        None => {
            p.push(Problem::error(path.clone(), "a rule needs a \"direction\""));
            None
        }
    };
    let blocks = |key: &str, p: &mut Vec<Problem>| -> Option<&Vec<Value>> {
        match o.get(key) {
            Some(Value::Array(a)) if !a.is_empty() => Some(a),
            Some(Value::Array(_)) => {
                p.push(Problem::error(
                    path.key(key),
                    format!("\"{key}\" must have at least one block"),
                ));
                None
            }
            Some(other) => {
                p.push(Problem::error(
                    path.key(key),
                    format!(
                        "\"{key}\" must be an array of blocks, found {}",
                        type_name(other)
                    ),
                ));
                None
            }
            None => {
                p.push(Problem::error(
                    path.clone(),
                    format!("a rule needs \"{key}\""),
                ));
                None
            }
        }
    };
    let orig_json = blocks("original", p);
    let res_json = blocks("result", p);
    let mut original = Vec::new();
    if let Some(a) = orig_json {
        for (i, b) in a.iter().enumerate() {
            let bp = path.key("original").index(i);
            let Value::Object(bo) = b else {
                p.push(Problem::error(
                    bp,
                    format!("a rule block must be an object, found {}", type_name(b)),
                ));
                continue;
            };
            let tp = bp.key("token");
            let token = match bo.get("token") {
                Some(Value::String(s)) if s == "*" => Some(TokenPattern::Any),
                Some(t) if index_token(t).is_some() => {
                    let k = index_token(t).unwrap_or(0);
                    if !(0..=MAX_VALUE).contains(&k) {
                        p.push(Problem::error(tp, format!("index {k} is out of range")));
                        None
                    } else {
                        Some(TokenPattern::Index(k as u32))
                    }
                }
                Some(Value::String(s)) => match Token::from_name(s) {
                    Some(t) => Some(TokenPattern::OneOf(vec![t])),
                    None => {
                        p.push(Problem::error(tp, format!("unknown token {}", quote(s))));
                        None
                    }
                },
                Some(Value::Array(alts)) if !alts.is_empty() => {
                    let mut ts = Vec::new();
                    let mut any = false;
                    for (j, a) in alts.iter().enumerate() {
                        match a.as_str() {
                            Some("*") => any = true,
                            Some(s) => match Token::from_name(s) {
                                Some(t) => ts.push(t),
                                None => p.push(Problem::error(
                                    tp.index(j),
                                    format!("unknown token {}", quote(s)),
                                )),
                            },
                            None => p.push(Problem::error(
                                tp.index(j),
                                format!(
                                    "a token alternative must be a string, found {}",
                                    type_name(a)
                                ),
                            )),
                        }
                    }
                    Some(if any {
                        TokenPattern::Any
                    } else {
                        TokenPattern::OneOf(ts)
                    })
                }
                Some(Value::Array(_)) => {
                    p.push(Problem::error(tp, "a token list must not be empty"));
                    None
                }
                Some(other) => {
                    p.push(Problem::error(
                        tp,
                        format!(
                            "a token must be a string, a list or an index, found {}",
                            type_name(other)
                        ),
                    ));
                    None
                }
                None => {
                    p.push(Problem::error(bp.clone(), "a rule block needs a \"token\""));
                    None
                }
            };
            let extra = unknown_block_members(bo, &bp, p);
            let values = parse_values(bo.get("values"), &bp.key("values"), true, p);
            if let Some(token) = token {
                original.push(Pattern {
                    token,
                    values,
                    extra,
                });
            }
        }
    }
    let len = orig_json.map_or(0, Vec::len);
    let mut result = Vec::new();
    if let Some(a) = res_json {
        for (i, b) in a.iter().enumerate() {
            let bp = path.key("result").index(i);
            let Value::Object(bo) = b else {
                p.push(Problem::error(
                    bp,
                    format!("a rule block must be an object, found {}", type_name(b)),
                ));
                continue;
            };
            let tp = bp.key("token");
            let token = match bo.get("token") {
                Some(t) if index_token(t).is_some() => {
                    let k = index_token(t).unwrap_or(0);
                    if k < 0 || k as u64 >= len as u64 {
                        p.push(Problem::error(
                            tp,
                            format!("index {k} is outside the window (the original has {len} block(s), so 0…{})", len.saturating_sub(1)),
                        ));
                        None
                    } else {
                        Some(TokenWrite::Copy(k as usize))
                    }
                }
                Some(Value::String(s)) if s == "*" => {
                    p.push(Problem::error(
                        tp,
                        "\"*\" is not allowed in a result block; use a token or an index",
                    ));
                    None
                }
                Some(Value::String(s)) => match Token::from_name(s) {
                    Some(t) => Some(TokenWrite::Set(t)),
                    None => {
                        p.push(Problem::error(tp, format!("unknown token {}", quote(s))));
                        None
                    }
                },
                Some(Value::Array(_)) => {
                    p.push(Problem::error(
                        tp,
                        "a token list is not allowed in a result block (it must say one token)",
                    ));
                    None
                }
                Some(other) => {
                    p.push(Problem::error(
                        tp,
                        format!(
                            "a token must be a string or an index, found {}",
                            type_name(other)
                        ),
                    ));
                    None
                }
                None => {
                    p.push(Problem::error(bp.clone(), "a rule block needs a \"token\""));
                    None
                }
            };
            let extra = unknown_block_members(bo, &bp, p);
            let values = parse_values(bo.get("values"), &bp.key("values"), false, p);
            if let Some(token) = token {
                result.push(Write {
                    token,
                    values,
                    extra,
                });
            }
        }
    }
    if let (Some(o), Some(r)) = (orig_json, res_json)
        && o.len() != r.len()
    {
        p.push(Problem::error(
            path.key("result"),
            format!(
                "\"original\" has {} block(s) but \"result\" has {}; they must be the same length",
                o.len(),
                r.len()
            ),
        ));
    }
    const RULE_KEYS: &[&str] = &[
        "name",
        "situation",
        "sparsity",
        "direction",
        "original",
        "result",
    ];
    // A `sparsity` the rule's situation does not use is kept as an unknown member.
    let rare = matches!(situation, Some(Situation::Rare { .. }));
    let extra: Map<String, Value> = o
        .iter()
        .filter(|(k, _)| !RULE_KEYS.contains(&k.as_str()) || (*k == "sparsity" && !rare))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    if p.iter().filter(|x| x.is_error()).count() > errors_before {
        return None;
    }
    Some(Rule {
        name,
        situation: situation?,
        direction: direction?,
        original,
        result,
        extra,
    })
}

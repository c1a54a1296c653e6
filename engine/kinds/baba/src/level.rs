//! The baba level document: load from JSON with located problems, and save.
//!
//! Format (issue 5, `docs/level-format.md`):
//! ```json
//! {"kind": "baba", "name": "First", "width": 3, "height": 1,
//!  "map": [["baba", {"token": "rock", "values": {"direction": 3}}, ["flag", "text_win"]]]}
//! ```
//! `map` lists rows top first (`map[y][x]`, x = column from the left). A cell is `null` or `[]`
//! (empty), a token string, an object `{"token": …, "values": {"direction": n}}` (n: 1 right,
//! 2 up, 3 left, 4 down; default 1), or an array of these: a stack, bottom first. Tokens are
//! object nouns (`baba`) or `text_` plus a word (`text_is`); they are read case-insensitively
//! and written lower case. Unknown top-level members are kept and written back.

use serde_json::{Map, Value, json};
use tilesmith_core::problem::Capped as _;

use super::rules::{FormedRule, TextTile, form_rules};
use super::word::{Kind, OBJECT_NOUNS, Prop, Verb, Word};
use tilesmith_core::grid::{Dir, Grid, Pos};
use tilesmith_core::level_json::{self, int, type_name};
use tilesmith_core::problem::{JsonPath, Problem, did_you_mean, nearest, quote};

/// The largest `width` or `height` accepted.
pub const MAX_SIDE: usize = 1000;
/// The largest number of cells (`width * height`) accepted.
pub const MAX_CELLS: usize = 1_000_000;
/// The largest number of objects in one cell of a level file.
pub const MAX_STACK: usize = 64;
/// The largest number of objects in a level file.
pub const MAX_OBJECTS: usize = 1_000_000;

/// One object of a level file: what it is and where it faces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tile {
    /// Entity or text.
    pub kind: Kind,
    /// The facing (default right).
    pub dir: Dir,
}

impl Tile {
    /// A tile facing right.
    pub const fn new(kind: Kind) -> Self {
        Self {
            kind,
            dir: Dir::Right,
        }
    }

    /// The JSON form: the token string when facing right, else `{"token", "values"}`.
    pub fn to_json(&self) -> Value {
        if self.dir == Dir::Right {
            Value::String(self.kind.token())
        } else {
            json!({"token": self.kind.token(), "values": {"direction": self.dir.value()}})
        }
    }
}

/// A baba level: a name and a grid of stacks (bottom first).
#[derive(Clone, Debug, PartialEq)]
pub struct BabaLevel {
    /// Display name.
    pub name: String,
    /// The map, `map[y][x]`; each cell is a stack listed bottom first.
    pub map: Grid<Vec<Tile>>,
    /// Unknown top-level members, in file order.
    pub extra: Map<String, Value>,
    /// Repair mode ([`BabaLevel::from_json_editable`]): the original JSON of each stack entry
    /// that could not be read, `None` for a cell missing from a short row. A
    /// [`Kind::Unknown`]`(i)` tile refers to entry `i`, so the entry follows the tile when it
    /// is moved, copied within the level or restacked; erasing or replacing the tile drops
    /// the reference. Written back as found by [`BabaLevel::to_json`] (a missing cell is not
    /// written). Empty for a level read by [`BabaLevel::from_json`].
    pub unknown: Vec<Option<Value>>,
}

pub(crate) const KNOWN_KEYS: &[&str] = &["kind", "name", "width", "height", "map"];

impl BabaLevel {
    /// An empty level of `width` × `height` (clamped to 1…[`MAX_SIDE`]).
    pub fn new(name: &str, width: usize, height: usize) -> Self {
        let (w, h) = (width.clamp(1, MAX_SIDE), height.clamp(1, MAX_SIDE));
        Self {
            name: name.into(),
            map: Grid::new(w, h, Vec::new()),
            extra: Map::new(),
            unknown: Vec::new(),
        }
    }

    /// Reads a level from a parsed JSON document.
    ///
    /// # Errors
    /// Every error-severity problem, with its JSON path (lines and columns are filled in by
    /// [`tilesmith_core::problem::locate`]).
    pub fn from_json(doc: &Value) -> Result<Self, Vec<Problem>> {
        let mut p = Vec::new();
        let level = parse_level(doc, &mut p, false);
        match level {
            Some(l) if p.iter().all(|x| !x.is_error()) => Ok(l),
            _ => Err(p.into_iter().filter(Problem::is_error).collect()),
        }
    }

    /// Reads a level for editing ("repair mode", docs/editor.md): like
    /// [`BabaLevel::from_json`], but a map whose entries cannot all be read is accepted. Each
    /// stack entry that cannot be read (an unknown object or text name such as `"rokc"` or
    /// `"text_wim"`, a bad `direction`, an unknown value, a nested array, a cell of more than
    /// [`MAX_STACK`] objects as a whole, a cell that is not a tile) becomes a
    /// [`Kind::Unknown`] tile whose JSON is kept in [`BabaLevel::unknown`] and written back
    /// unchanged; rows shorter than the longest are padded with tiles for the missing cells
    /// (not written back), and `width` and `height` are taken from the map. The editor shows
    /// the errors (those of `tilesmith check` on [`BabaLevel::to_json`]) in its problems
    /// list.
    ///
    /// # Errors
    /// Every error outside the map's entries (a bad `name`, a map that is not an array of
    /// arrays, one over [`MAX_SIDE`], [`MAX_CELLS`] or [`MAX_OBJECTS`]), or more than 65 536
    /// entries that cannot be read: then nothing could be kept.
    pub fn from_json_editable(doc: &Value) -> Result<Self, Vec<Problem>> {
        let mut p = Vec::new();
        let level = parse_level(doc, &mut p, true);
        match level {
            Some(l) if p.iter().all(|x| !x.is_error()) => Ok(l),
            _ => Err(p.into_iter().filter(Problem::is_error).collect()),
        }
    }

    /// True when the map holds a [`Kind::Unknown`] tile (repair mode): the level cannot be
    /// played as it is.
    pub fn has_unknown(&self) -> bool {
        !self.unknown.is_empty()
            && self
                .map
                .cells()
                .iter()
                .flatten()
                .any(|t| t.kind.is_unknown())
    }

    /// Width in cells.
    pub fn width(&self) -> usize {
        self.map.width()
    }

    /// Height in cells.
    pub fn height(&self) -> usize {
        self.map.height()
    }

    /// The text tiles of the map, row-major, each with its cell and stack index.
    pub fn text_tiles(&self) -> Vec<TextTile> {
        let mut v = Vec::new();
        for (pos, stack) in self.map.iter() {
            for (layer, t) in stack.iter().enumerate() {
                if let Kind::Text(word) = t.kind {
                    v.push(TextTile { pos, layer, word });
                }
            }
        }
        v
    }

    /// The rules the text on the map forms (spec §3), in board order, each with the text tiles
    /// it uses (for hover highlighting). Implicit rules are not listed.
    pub fn rules(&self) -> Vec<FormedRule> {
        form_rules(self.width(), self.height(), &self.text_tiles())
    }

    /// The text tiles that take part in no rule (to dim them in the editor), row-major.
    pub fn unused_text(&self) -> Vec<TextTile> {
        super::rules::unused_text(&self.text_tiles(), &self.rules())
    }

    /// Warnings about a loadable level: no text forms a YOU rule, or no WIN rule.
    /// A line whose rules hold more than [`super::rules::MAX_LINE_RULE_TILES`] tiles is a
    /// warning too (only its first rules are read).
    pub fn warnings(&self) -> Vec<Problem> {
        let mut cache = super::rules::RuleCache::default();
        let rules = cache.form(self.width(), self.height(), &self.text_tiles());
        let has = |p: Prop| {
            rules.iter().any(|r| {
                r.rule.verb == Verb::Is && !r.rule.negated && r.rule.complement == Word::Prop(p)
            })
        };
        let mut w = Vec::new();
        if !has(Prop::You) {
            w.push_capped(Problem::warning(
                JsonPath::root().key("map"),
                "no text on the map forms an \"… is you\" rule, so the level starts lost",
            ));
        }
        if !has(Prop::Win) {
            w.push_capped(Problem::warning(
                JsonPath::root().key("map"),
                "no text on the map forms an \"… is win\" rule; one must be built to win",
            ));
        }
        for (vertical, i) in cache.cut_lines() {
            let (path, line) = if vertical {
                (JsonPath::root().key("map"), format!("column x = {i}"))
            } else {
                (JsonPath::root().key("map").index(i), format!("row y = {i}"))
            };
            w.push_capped(Problem::warning(
                path,
                format!(
                    "the text of {line} forms rules holding more than {} tiles in all; \
                     only its first rules, in reading order, are read",
                    super::rules::MAX_LINE_RULE_TILES
                ),
            ));
        }
        w
    }

    /// The level as a JSON document (`kind` first, `map` last, one row per line when laid out
    /// with [`tilesmith_core::json_text::layout`]).
    pub fn to_json(&self) -> Value {
        let mut o = Map::new();
        o.insert("kind".into(), json!("baba"));
        o.insert("name".into(), json!(self.name));
        o.insert("width".into(), json!(self.width()));
        o.insert("height".into(), json!(self.height()));
        for (k, v) in &self.extra {
            o.insert(k.clone(), v.clone());
        }
        let rows: Vec<Value> = (0..self.height()).map(|y| self.row_to_json(y)).collect();
        o.insert("map".into(), Value::Array(rows));
        Value::Object(o)
    }

    /// Row `y` as written: each cell by [`BabaLevel::cell_json`]; missing cells at the end of
    /// the row are left out (so a short row read in repair mode stays short), missing cells
    /// before a written one are `null`.
    fn row_to_json(&self, y: usize) -> Value {
        let mut cells: Vec<Option<Value>> =
            self.map.row(y).iter().map(|c| self.cell_json(c)).collect();
        while cells.last().is_some_and(Option::is_none) {
            cells.pop();
        }
        Value::Array(
            cells
                .into_iter()
                .map(|c| c.unwrap_or(Value::Null))
                .collect(),
        )
    }

    /// The JSON form of a cell of this level, as [`stack_to_json`] but with each
    /// [`Kind::Unknown`] tile written as the JSON kept for it in [`BabaLevel::unknown`] (`"?"`
    /// for a tile that refers to no entry, pasted from another level). `None` when the cell
    /// holds only tiles for missing cells of a short row (nothing to write).
    pub fn cell_json(&self, stack: &[Tile]) -> Option<Value> {
        if !stack.iter().any(|t| t.kind.is_unknown()) {
            return Some(stack_to_json(stack));
        }
        let mut out = Vec::with_capacity(stack.len());
        for t in stack {
            match t.kind {
                Kind::Unknown(i) => match self.unknown.get(i as usize) {
                    Some(Some(v)) => out.push(v.clone()),
                    Some(None) => {}
                    None => out.push(t.to_json()),
                },
                _ => out.push(t.to_json()),
            }
        }
        match out.len() {
            0 => None,
            1 => out.pop(),
            _ => Some(Value::Array(out)),
        }
    }
}

/// The JSON form of a cell: `null` when empty, the tile alone when one, else an array.
pub fn stack_to_json(stack: &[Tile]) -> Value {
    match stack {
        [] => Value::Null,
        [t] => t.to_json(),
        many => Value::Array(many.iter().map(Tile::to_json).collect()),
    }
}

fn parse_level(doc: &Value, p: &mut Vec<Problem>, repair: bool) -> Option<BabaLevel> {
    let root = JsonPath::root();
    let Value::Object(o) = doc else {
        p.push_capped(Problem::error(
            root,
            format!("a level must be a JSON object, found {}", type_name(doc)),
        ));
        return None;
    };
    let name = level_json::name(o, p);
    let limits = (MAX_SIDE, MAX_CELLS);
    if repair {
        let (map, unknown) = repair_map(o.get("map"), p)?;
        return Some(BabaLevel {
            name,
            map,
            extra: extra_members(o),
            unknown,
        });
    }
    let width = level_json::side(o, "width", limits, p);
    let height = level_json::side(o, "height", limits, p);
    let mut objects = 0usize;
    let mut too_many = false;
    let map = level_json::grid(
        o.get("map"),
        (width, height),
        "cells",
        limits,
        p,
        |c, path, at, p| {
            if too_many {
                return None;
            }
            let stack = parse_cell(c, path, at, p);
            objects += stack.len();
            if objects > MAX_OBJECTS {
                too_many = true;
                p.push_capped(Problem::error(
                    JsonPath::root().key("map"),
                    format!("the map holds too many objects (at most {MAX_OBJECTS})"),
                ));
                return None;
            }
            Some(stack)
        },
    );
    Some(BabaLevel {
        name,
        map: map?,
        extra: extra_members(o),
        unknown: Vec::new(),
    })
}

/// The top-level members the loader does not know, in file order (kept and written back).
fn extra_members(o: &Map<String, Value>) -> Map<String, Value> {
    o.iter()
        .filter(|(k, _)| !KNOWN_KEYS.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// The JSON kept for each unreadable entry (`None`: a missing cell), as [`BabaLevel::unknown`].
type Kept = Vec<Option<Value>>;

/// The most entries [`BabaLevel::from_json_editable`] keeps as [`Kind::Unknown`] tiles (their
/// index is 16 bits, so that a tile stays as small as before).
const MAX_UNKNOWN: usize = u16::MAX as usize + 1;

/// The `map` in repair mode ([`BabaLevel::from_json_editable`]): the grid, with
/// [`Kind::Unknown`] tiles for the entries that cannot be read, and the kept JSON of those
/// entries. The entries' problems are dropped (the check of the level as written reports
/// them); warnings are kept. `None` (with an error) when the map's structure cannot be read,
/// it holds more than [`MAX_OBJECTS`] objects or more than [`MAX_UNKNOWN`] unreadable entries.
fn repair_map(v: Option<&Value>, p: &mut Vec<Problem>) -> Option<(Grid<Vec<Tile>>, Kept)> {
    let unknown = std::cell::RefCell::new(Vec::new());
    let keep = |v: Option<&Value>| {
        let mut u = unknown.borrow_mut();
        u.push(v.cloned());
        Tile::new(Kind::Unknown(
            u16::try_from(u.len() - 1).unwrap_or(u16::MAX),
        ))
    };
    let mut objects = 0usize;
    let map = level_json::grid_repair(
        v,
        (MAX_SIDE, MAX_CELLS),
        p,
        |c, path, at, p| {
            if objects > MAX_OBJECTS || unknown.borrow().len() > MAX_UNKNOWN {
                return Some(Vec::new()); // refused below; stop copying
            }
            let stack = repair_cell(c, path, at, p, &keep);
            objects += stack.len();
            Some(stack)
        },
        |v| vec![keep(v)],
    );
    let map = map?;
    if objects > MAX_OBJECTS {
        p.push_capped(Problem::error(
            JsonPath::root().key("map"),
            format!("the map holds too many objects (at most {MAX_OBJECTS})"),
        ));
        return None;
    }
    let unknown = unknown.into_inner();
    if unknown.len() > MAX_UNKNOWN {
        p.push_capped(Problem::error(
                JsonPath::root().key("map"),
                format!(
                    "more than {MAX_UNKNOWN} entries of the map cannot be read; too many to keep while repairing"
                ),
            ),
        );
        return None;
    }
    Some((map, unknown))
}

/// One cell in repair mode: each stack entry [`parse_tile`] cannot read becomes `keep(entry)`
/// (its problems are dropped, its warnings kept); a cell of more than [`MAX_STACK`] entries is
/// kept whole.
fn repair_cell(
    v: &Value,
    path: &JsonPath,
    at: Pos,
    p: &mut Vec<Problem>,
    keep: &dyn Fn(Option<&Value>) -> Tile,
) -> Vec<Tile> {
    let mut entry = |t: &Value, path: &JsonPath| {
        if matches!(t, Value::Array(_) | Value::Null) {
            return keep(Some(t));
        }
        let mut scratch = Vec::new();
        match parse_tile(t, path, at, &mut scratch) {
            Some(tile) if !scratch.iter().any(Problem::is_error) => {
                p.append(&mut scratch);
                tile
            }
            _ => keep(Some(t)),
        }
    };
    match v {
        Value::Null => Vec::new(),
        Value::Array(items) if items.len() <= MAX_STACK => items
            .iter()
            .enumerate()
            .map(|(i, t)| entry(t, &path.index(i)))
            .collect(),
        Value::Array(_) => vec![keep(Some(v))],
        _ => vec![entry(v, path)],
    }
}

/// One cell from its JSON form (`null`, a tile, or an array of tiles, bottom first), as in a
/// level's `map`; `None` when it is not a valid cell. For pasting cells copied as JSON.
pub fn stack_from_json(v: &Value) -> Option<Vec<Tile>> {
    let mut p = Vec::new();
    let stack = parse_cell(v, &JsonPath::root(), Pos::new(0, 0), &mut p);
    p.iter().all(|x| !x.is_error()).then_some(stack)
}

/// Parses one cell: `null`, a tile, or an array of tiles (a stack, bottom first).
fn parse_cell(v: &Value, path: &JsonPath, at: Pos, p: &mut Vec<Problem>) -> Vec<Tile> {
    match v {
        Value::Null => Vec::new(),
        Value::Array(items) => {
            if items.len() > MAX_STACK {
                p.push_capped(
                    Problem::error(
                        path.clone(),
                        format!("a cell holds {} objects (at most {MAX_STACK})", items.len()),
                    )
                    .at_cell(at),
                );
                return Vec::new();
            }
            items
                .iter()
                .enumerate()
                .filter_map(|(i, t)| {
                    if matches!(t, Value::Array(_) | Value::Null) {
                        p.push_capped(
                            Problem::error(
                                path.index(i),
                                format!(
                                    "a stack entry must be a token string or an object, found {}",
                                    type_name(t)
                                ),
                            )
                            .at_cell(at),
                        );
                        return None;
                    }
                    parse_tile(t, &path.index(i), at, p)
                })
                .collect()
        }
        _ => parse_tile(v, path, at, p).into_iter().collect(),
    }
}

fn token_of(s: &str, path: JsonPath, at: Pos, p: &mut Vec<Problem>) -> Option<Kind> {
    let lower = s.to_ascii_lowercase();
    match Kind::from_token(&lower) {
        Some(k) => Some(k),
        None => {
            // Built only for a problem that is listed (`push_capped_with`).
            p.push_capped_with(tilesmith_core::problem::Severity::Error, || {
                let hint = if let Some(w) = lower.strip_prefix("text_") {
                    format!(
                        "unknown word {} in text tile {}{}",
                        quote(w),
                        quote(s),
                        did_you_mean(suggest_text(w).as_deref())
                    )
                } else if Word::from_name(&lower).is_some() {
                    format!(
                        "{} is a word, not an object; write \"text_{lower}\" for its text tile",
                        quote(s)
                    )
                } else {
                    match suggest_token(&lower) {
                        Some(n) => {
                            format!("unknown token {}{}", quote(s), did_you_mean(Some(&n)))
                        }
                        None => format!(
                            "unknown token {} (objects are nouns such as \"baba\"; text tiles are \"text_<word>\")",
                            quote(s)
                        ),
                    }
                };
                Problem::error(path, hint).at_cell(at)
            });
            None
        }
    }
}

/// The text tile nearest to the unknown word `w` of a `text_<w>` token (case-insensitive
/// edit distance over every word: nouns, operators, properties, letters), for "did you
/// mean": `"wim"` gives `text_win`.
pub fn suggest_text(w: &str) -> Option<String> {
    let words = Word::all();
    nearest(w, words.iter().map(|w| w.name())).map(|n| format!("text_{n}"))
}

/// The token nearest to an unknown token `t` written without `text_`, for "did you mean":
/// an object noun or a whole text token (`"rokc"` gives `rock`, `"txet_baba"` gives
/// `text_baba`), else the text tile of a word (`"yuo"` gives `text_you`, since YOU exists only
/// as text).
pub fn suggest_token(t: &str) -> Option<String> {
    let texts: Vec<String> = Word::all().iter().map(|w| Kind::Text(*w).token()).collect();
    let tokens = OBJECT_NOUNS
        .iter()
        .copied()
        .chain(texts.iter().map(String::as_str));
    nearest(t, tokens)
        .map(str::to_string)
        .or_else(|| suggest_text(t))
}

fn parse_tile(v: &Value, path: &JsonPath, at: Pos, p: &mut Vec<Problem>) -> Option<Tile> {
    match v {
        Value::String(s) => token_of(s, path.clone(), at, p).map(Tile::new),
        Value::Object(o) => {
            let kind = match o.get("token") {
                Some(Value::String(s)) => token_of(s, path.key("token"), at, p),
                Some(other) => {
                    p.push_capped(
                        Problem::error(
                            path.key("token"),
                            format!("a token must be a string, found {}", type_name(other)),
                        )
                        .at_cell(at),
                    );
                    None
                }
                None => {
                    p.push_capped(Problem::error(path.clone(), "\"token\" is missing").at_cell(at));
                    None
                }
            };
            let mut dir = Dir::Right;
            match o.get("values") {
                None | Some(Value::Null) => {}
                Some(Value::Object(vals)) => {
                    for (k, v) in vals {
                        let vp = path.key("values").key(k);
                        if k.eq_ignore_ascii_case("direction") {
                            match int(v).and_then(|n| u32::try_from(n).ok()).and_then(Dir::from_value) {
                                Some(d) => dir = d,
                                None => p.push_capped(Problem::error(
                                        vp,
                                        format!("\"direction\" must be 1 (right), 2 (up), 3 (left) or 4 (down), found {v}"),
                                    )
                                    .at_cell(at),
                                ),
                            }
                        } else {
                            p.push_capped(Problem::error(
                                    vp,
                                    match nearest(k, ["direction"]) {
                                        Some(_) => format!(
                                            "unknown value {} (did you mean \"direction\"?)",
                                            quote(k)
                                        ),
                                        None => format!(
                                            "unknown value {} (baba objects have only \"direction\")",
                                            quote(k)
                                        ),
                                    },
                                )
                                .at_cell(at),
                            );
                        }
                    }
                }
                Some(other) => p.push_capped(
                    Problem::error(
                        path.key("values"),
                        format!("\"values\" must be an object, found {}", type_name(other)),
                    )
                    .at_cell(at),
                ),
            }
            for k in o.keys() {
                if k != "token" && k != "values" {
                    p.push_capped(
                        Problem::warning(
                            path.key(k),
                            format!("unknown member {} of a cell object is ignored", quote(k)),
                        )
                        .at_cell(at),
                    );
                }
            }
            kind.map(|kind| Tile { kind, dir })
        }
        other => {
            p.push_capped(
                Problem::error(
                    path.clone(),
                    format!(
                        "a cell must be null, a token string, an object or an array, found {}",
                        type_name(other)
                    ),
                )
                .at_cell(at),
            );
            None
        }
    }
}

/// The warnings (not errors) of a level document's cells, e.g. unknown members of a cell
/// object, with their JSON paths.
pub fn cell_warnings(doc: &Value) -> Vec<Problem> {
    let mut p = Vec::new();
    let _ = parse_level(doc, &mut p, false);
    p.retain(|x| !x.is_error());
    p
}

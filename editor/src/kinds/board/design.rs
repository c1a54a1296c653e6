//! The board design as the editor holds it: the pieces on the display grid (what the map
//! tools paint), the ZRF rules text and the level's other members, and the rules last
//! compiled from that text.
//!
//! The map is the display grid of [`Layout`]: one cell per position (at its place in the
//! ZRF's pixel layout), plus cells that hold no position (killed positions, the gaps of a
//! hex-like board, the coordinate margins). Only cells of positions are read; the document
//! empties the others after every edit ([`Design::clear_holes`]).
//!
//! While the rules text has errors, the last rules that compiled stay in use (the board, the
//! pieces, the brushes), and the problems of the text are listed at their lines.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{Map, Value, json};
use tilesmith_engine::kind::board::level::{BoardLevel, default_attrs};
use tilesmith_engine::kind::board::play::{Piece, Position};
use tilesmith_engine::kind::board::rules::{PieceId, PlayerId, PosId, Rules};
use tilesmith_engine::kind::board::zrf::{self, ZrfProblem};
use tilesmith_engine::{Grid, JsonPath, Pos, Problem};

use super::layout::Layout;
use crate::doc::map::MapLevel;
use crate::tools::MapCell;

/// One display cell: the piece on the position drawn there (`None`: empty, or no position).
pub type Cell = Option<Piece>;

impl MapCell for Option<Piece> {
    type Brush = Option<Piece>;

    fn empty() -> Self {
        None
    }

    /// The brush's piece (`None`: the eraser).
    fn painted(&self, brush: &Option<Piece>) -> Self {
        *brush
    }

    fn same_area(&self, other: &Self) -> bool {
        self == other
    }
}

/// Rules compiled for one variant, with what the editor derives from them once.
#[derive(Debug)]
pub struct Compiled {
    /// The rules.
    pub rules: Arc<Rules>,
    /// Where each position is drawn.
    pub layout: Layout,
    /// The pieces of the rules' own `board-setup`, by position.
    pub initial: Vec<Option<Piece>>,
    /// The attribute bits of a new piece.
    pub attrs: u32,
    /// The label of each piece type ([`super::look::initials`]).
    pub labels: Vec<String>,
}

impl Compiled {
    /// Derives the layout, the set-up pieces and the labels of `rules`.
    pub fn new(rules: Arc<Rules>) -> Compiled {
        Compiled {
            layout: Layout::new(&rules.board),
            initial: Position::initial(&rules).cells,
            attrs: default_attrs(&rules),
            labels: super::look::initials(&rules.pieces),
            rules,
        }
    }

    /// The display grid holding `cells` (one entry per position).
    pub fn map_of(&self, cells: &[Option<Piece>]) -> Grid<Cell> {
        let l = &self.layout;
        let mut g = Grid::new(l.width, l.height, None);
        for (c, piece) in l.cell.iter().zip(cells) {
            if let Some(m) = g.get_mut(*c) {
                *m = *piece;
            }
        }
        g
    }

    /// The piece on each position of `map`.
    pub fn cells_of(&self, map: &Grid<Cell>) -> Vec<Option<Piece>> {
        self.layout
            .cell
            .iter()
            .map(|c| map.get(*c).copied().flatten())
            .collect()
    }

    /// A new piece of `player` and type `kind` (default attributes).
    pub fn piece(&self, player: PlayerId, kind: PieceId) -> Piece {
        Piece {
            player,
            kind,
            attrs: self.attrs,
        }
    }

    /// The name of player `p` (`?` when out of range).
    pub fn player_name(&self, p: PlayerId) -> &str {
        self.rules
            .players
            .get(p as usize)
            .map_or("?", String::as_str)
    }

    /// The name of piece type `k` (`?` when out of range).
    pub fn piece_name(&self, k: PieceId) -> &str {
        self.rules
            .pieces
            .get(k as usize)
            .map_or("?", |d| d.name.as_str())
    }

    /// The name of position `i` (`?` when out of range).
    pub fn pos_name(&self, i: PosId) -> &str {
        self.rules
            .board
            .positions
            .get(i as usize)
            .map_or("?", |d| d.name.as_str())
    }

    /// `White King`.
    pub fn describe(&self, p: &Piece) -> String {
        format!("{} {}", self.player_name(p.player), self.piece_name(p.kind))
    }
}

/// The level's members besides the pieces: the rules text and where it comes from, the
/// variant, the player to move, and the members kept as written.
#[derive(Clone, Debug, PartialEq)]
pub struct Rest {
    /// The ZRF text.
    pub text: String,
    /// The rules file the text was read from, as the loader named it (problems are reported
    /// at its lines).
    pub file: Option<String>,
    /// The rules file (absolute) when the text is that file's: Save then writes `"rules":
    /// "PATH"` relative to the level, and writes the text to this file when it differs.
    /// `None`: the level holds the text (`{"zrf": TEXT}`).
    pub link: Option<PathBuf>,
    /// The `variant` member (`None`: the file's default variant).
    pub variant: Option<String>,
    /// The `to_move` member (`None`: the first player of the turn order).
    pub to_move: Option<String>,
    /// The `turn` member as written.
    pub turn: Option<Value>,
    /// The `reserve` member as written.
    pub reserve: Option<Value>,
    /// The `last` member as written.
    pub last: Option<Value>,
    /// The level had a `setup` member (then it is always written back).
    pub had_setup: bool,
    /// While the rules have not compiled since the level was opened: its `setup` and
    /// `attributes` members as written (kept, written back, and read once the rules compile).
    pub raw: Option<Map<String, Value>>,
    /// `name` and the members this format does not use, in their order.
    pub extra: Map<String, Value>,
}

/// A board design: the pieces on the display grid, the rest of the level, and the rules last
/// compiled (equality compares the pieces and the rest only).
#[derive(Clone, Debug)]
pub struct Design {
    /// The rest of the level.
    pub rest: Rest,
    /// The pieces on the display grid (x = column, y = row from the top).
    pub map: Grid<Cell>,
    /// The rules that last compiled, which the map is laid out for.
    pub board: Arc<Compiled>,
    /// The problems of the current text (errors: the rules in use are older).
    pub problems: Arc<Vec<ZrfProblem>>,
}

impl PartialEq for Design {
    fn eq(&self, other: &Self) -> bool {
        self.rest == other.rest && self.map == other.map
    }
}

/// The problems of compiling `text` for `variant`.
pub fn zrf_problems(text: &str, variant: Option<&str>) -> Vec<ZrfProblem> {
    match zrf::compile(text, variant) {
        Ok((_, w)) => w,
        Err(e) => e,
    }
}

/// The rules file `file` (absolute) when it holds exactly `text`.
fn link_of(file: Option<&str>, text: &str) -> Option<PathBuf> {
    let f = Path::new(file?);
    let on_disk = tilesmith_engine::kind::board::read_rules_file(f).ok()?;
    (on_disk == text).then(|| std::fs::canonicalize(f).unwrap_or_else(|_| f.to_path_buf()))
}

impl Design {
    /// The level's name (`untitled` when it has none).
    pub fn name(&self) -> &str {
        self.rest
            .extra
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("untitled")
    }

    /// The piece on each position.
    pub fn cells(&self) -> Vec<Option<Piece>> {
        self.board.cells_of(&self.map)
    }

    /// The piece on position `i`.
    pub fn piece_at(&self, i: PosId) -> Option<Piece> {
        let c = self.board.layout.cell.get(i as usize)?;
        self.map.get(*c).copied().flatten()
    }

    /// Empties the display cells that hold no position (painting strokes and pastes may
    /// reach them). Returns true when one held something.
    pub fn clear_holes(&mut self) -> bool {
        let l = &self.board.layout;
        let mut changed = false;
        for y in 0..self.map.height() {
            for x in 0..self.map.width() {
                let p = Pos::new(x, y);
                if l.at(p).is_none()
                    && let Some(c) = self.map.get_mut(p)
                    && c.is_some()
                {
                    *c = None;
                    changed = true;
                }
            }
        }
        changed
    }

    /// The design with the rules `text` for `variant`: compiled, the pieces carried over by
    /// position, player and type names (the new rules' own setup when the design still had
    /// the old rules' setup); while the text has errors the last good rules stay.
    pub fn with_rules(&self, text: String, variant: Option<String>) -> Design {
        let mut d = self.clone();
        d.rest.text = text;
        d.rest.variant = variant;
        match zrf::compile(&d.rest.text, d.rest.variant.as_deref()) {
            Ok(_) if d.rest.raw.is_some() => {
                // The first rules that compile: the level's own members are read now.
                let doc = d.to_json();
                match Design::from_json(&doc) {
                    Ok(mut read) => {
                        // The text is still the linked file's (edited here, written back on
                        // Save), though the file on disk still holds the text that failed.
                        read.rest.link.clone_from(&d.rest.link);
                        return read;
                    }
                    Err(_) => {
                        d.rest.raw = None;
                        return d.with_rules(d.rest.text.clone(), d.rest.variant.clone());
                    }
                }
            }
            Ok((rules, warnings)) => {
                let new = Compiled::new(Arc::new(rules));
                d.map = self.carried_to(&new);
                d.board = Arc::new(new);
                d.problems = Arc::new(warnings);
            }
            Err(problems) => d.problems = Arc::new(problems),
        }
        d
    }

    /// The pieces of this design on the board of `new`.
    fn carried_to(&self, new: &Compiled) -> Grid<Cell> {
        let old = &self.board;
        let cells = self.cells();
        if !self.rest.had_setup && cells == old.initial {
            return new.map_of(&new.initial);
        }
        let index = |names: Vec<&str>| -> HashMap<String, usize> {
            names
                .into_iter()
                .enumerate()
                .map(|(i, n)| (n.to_ascii_lowercase(), i))
                .collect()
        };
        let r = &new.rules;
        let positions = index(r.board.positions.iter().map(|p| p.name.as_str()).collect());
        let players = index(r.players.iter().map(String::as_str).collect());
        let pieces = index(r.pieces.iter().map(|p| p.name.as_str()).collect());
        let attrs = index(r.attributes.iter().map(|a| a.0.as_str()).collect());
        let mut out = vec![None; r.board.positions.len()];
        for (i, piece) in cells.iter().enumerate() {
            let Some(p) = piece else { continue };
            let lower = |s: &str| s.to_ascii_lowercase();
            let (Some(&at), Some(&player), Some(&kind)) = (
                positions.get(&lower(old.pos_name(i as PosId))),
                players.get(&lower(old.player_name(p.player))),
                pieces.get(&lower(old.piece_name(p.kind))),
            ) else {
                continue;
            };
            let mut bits = new.attrs;
            for (a, (name, _)) in old.rules.attributes.iter().enumerate().take(32) {
                if let Some(&na) = attrs.get(&lower(name)).filter(|na| **na < 32) {
                    let on = p.attrs & (1 << a) != 0;
                    bits = if on {
                        bits | 1 << na
                    } else {
                        bits & !(1 << na)
                    };
                }
            }
            out[at] = Some(Piece {
                player: player as PlayerId,
                kind: kind as PieceId,
                attrs: bits,
            });
        }
        new.map_of(&out)
    }

    /// The `rules` member that holds the text.
    fn rules_json(&self) -> Value {
        match &self.rest.file {
            Some(f) => json!({"file": f, "zrf": self.rest.text}),
            None => json!({"zrf": self.rest.text}),
        }
    }

    /// The `setup` member: every player, each piece type's positions in board order.
    fn setup_json(&self, cells: &[Option<Piece>]) -> Value {
        let b = &self.board;
        let mut setup = Map::new();
        for pl in &b.rules.players {
            setup.insert(pl.clone(), json!({}));
        }
        for (i, c) in cells.iter().enumerate() {
            let Some(p) = c else { continue };
            if let Some(Value::Object(per)) = setup.get_mut(b.player_name(p.player)) {
                let list = per
                    .entry(b.piece_name(p.kind).to_string())
                    .or_insert_with(|| json!([]));
                if let Value::Array(l) = list {
                    l.push(json!(b.pos_name(i as PosId)));
                }
            }
        }
        Value::Object(setup)
    }

    /// The `attributes` member: the pieces whose attributes differ from the defaults.
    fn attributes_json(&self, cells: &[Option<Piece>]) -> Map<String, Value> {
        let b = &self.board;
        let mut out = Map::new();
        for (i, c) in cells.iter().enumerate() {
            let Some(p) = c.filter(|p| p.attrs != b.attrs) else {
                continue;
            };
            let mut a = Map::new();
            for (k, (name, _)) in b.rules.attributes.iter().enumerate().take(32) {
                if (p.attrs ^ b.attrs) & (1 << k) != 0 {
                    a.insert(name.clone(), json!(p.attrs & (1 << k) != 0));
                }
            }
            out.insert(b.pos_name(i as PosId).to_string(), Value::Object(a));
        }
        out
    }

    /// The level document with `rules` as its `rules` member: `setup` when the level had one
    /// or the pieces differ from the rules' own setup, `attributes` where pieces differ from
    /// the defaults, and the other members as written.
    fn json_with(&self, rules: Value) -> Value {
        let r = &self.rest;
        let mut o = Map::new();
        o.insert("kind".into(), json!("board"));
        if let Some(n) = r.extra.get("name") {
            o.insert("name".into(), n.clone());
        }
        o.insert("rules".into(), rules);
        if let Some(v) = &r.variant {
            o.insert("variant".into(), json!(v));
        }
        let cells = self.cells();
        match &r.raw {
            Some(raw) => {
                if let Some(v) = raw.get("setup") {
                    o.insert("setup".into(), v.clone());
                }
            }
            None if r.had_setup || cells != self.board.initial => {
                o.insert("setup".into(), self.setup_json(&cells));
            }
            None => {}
        }
        if let Some(v) = &r.reserve {
            o.insert("reserve".into(), v.clone());
        }
        let attributes = match &r.raw {
            Some(raw) => raw.get("attributes").cloned(),
            None => {
                let a = self.attributes_json(&cells);
                (!a.is_empty()).then_some(Value::Object(a))
            }
        };
        if let Some(a) = attributes {
            o.insert("attributes".into(), a);
        }
        if let Some(v) = &r.to_move {
            o.insert("to_move".into(), json!(v));
        }
        for (k, v) in [("turn", &r.turn), ("last", &r.last)] {
            if let Some(v) = v {
                o.insert(k.into(), v.clone());
            }
        }
        for (k, v) in &r.extra {
            if !o.contains_key(k) {
                o.insert(k.clone(), v.clone());
            }
        }
        Value::Object(o)
    }

    /// The rules file Save would write: the linked file, when its text on disk differs.
    pub fn rules_to_write(&self) -> Option<PathBuf> {
        let link = self.rest.link.as_ref()?;
        let on_disk = tilesmith_engine::kind::board::read_rules_file(link).ok();
        (on_disk.as_deref() != Some(self.rest.text.as_str())).then(|| link.clone())
    }

    /// What Save writes to `file`: for rules linked to a file, first that file (atomically,
    /// when its text on disk differs), then a level whose `rules` is the file's path relative
    /// to `file`'s folder; otherwise the level holding the text.
    ///
    /// # Errors
    /// A message when the rules file cannot be written.
    pub fn saved_json(&self, file: &Path) -> Result<Value, String> {
        let Some(link) = &self.rest.link else {
            return Ok(self.to_json());
        };
        let on_disk = tilesmith_engine::kind::board::read_rules_file(link).ok();
        if on_disk.as_deref() != Some(self.rest.text.as_str()) {
            tilesmith_engine::json_text::write_atomic(link, self.rest.text.as_bytes())
                .map_err(|e| format!("cannot write the rules file {}: {e}", link.display()))?;
        }
        let name = self.rules_name(file).unwrap_or_default();
        Ok(self.json_with(json!(name)))
    }

    /// The `"rules"` name Save writes for the rules file when the level is saved as `file`:
    /// the file's path relative to the level's folder, `/`-separated; `None` when the level
    /// holds its rules text.
    pub fn rules_name(&self, file: &Path) -> Option<String> {
        let link = self.rest.link.as_ref()?;
        let base = file.parent().unwrap_or(Path::new("."));
        let rel = match std::fs::canonicalize(base).or_else(|_| std::path::absolute(base)) {
            Ok(b) => tilesmith_engine::replay::relative_path(link, &b),
            Err(_) => link.clone(),
        };
        Some(rel.to_string_lossy().replace('\\', "/"))
    }
}

impl Design {
    /// The design of a level document whose rules text (held in it) does not compile: no
    /// board, the text and every member kept. `None` when the document has another problem.
    fn uncompiled(doc: &Value) -> Option<Design> {
        let o = doc.as_object()?;
        let r = o.get("rules")?.as_object()?;
        let text = r.get("zrf")?.as_str()?.to_string();
        let string = |v: Option<&Value>| match v {
            None => Some(None),
            Some(Value::String(s)) => Some(Some(s.clone())),
            Some(_) => None,
        };
        let file = string(r.get("file"))?;
        let variant = string(o.get("variant"))?;
        if text.len() > zrf::MAX_ZRF_BYTES {
            return None;
        }
        let problems = zrf::compile(&text, variant.as_deref()).err()?;
        let board = Compiled::new(Arc::new(Rules::default()));
        let raw = ["setup", "attributes"]
            .iter()
            .filter_map(|k| o.get(*k).map(|v| (k.to_string(), v.clone())))
            .collect();
        let rest = Rest {
            link: link_of(file.as_deref(), &text),
            text,
            file,
            variant,
            to_move: o.get("to_move").and_then(Value::as_str).map(str::to_string),
            turn: o.get("turn").cloned(),
            reserve: o.get("reserve").cloned(),
            last: o.get("last").cloned(),
            had_setup: o.contains_key("setup"),
            raw: Some(raw),
            extra: o
                .iter()
                .filter(|(k, _)| {
                    !tilesmith_engine::kind::board::level::MEMBERS.contains(&k.as_str())
                })
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        };
        Some(Design {
            map: board.map_of(&[]),
            board: Arc::new(board),
            problems: Arc::new(problems),
            rest,
        })
    }
}

impl MapLevel for Design {
    type Cell = Cell;

    fn map(&self) -> &Grid<Cell> {
        &self.map
    }

    fn map_mut(&mut self) -> &mut Grid<Cell> {
        &mut self.map
    }

    fn limits() -> (usize, usize) {
        let side = super::layout::MAX_DISPLAY_SIDE + 1;
        (side, side * side)
    }

    fn fixed_size() -> Option<&'static str> {
        Some("The board's size and shape come from its rules (the Rules tab).")
    }

    /// A cell as `null`, `[player, type]` or `[player, type, attribute bits]` (ids: indices
    /// into the rules' players and pieces).
    fn cell_to_json(cell: &Cell) -> Value {
        match cell {
            None => Value::Null,
            Some(p) if p.attrs == 0 => json!([p.player, p.kind]),
            Some(p) => json!([p.player, p.kind, p.attrs]),
        }
    }

    fn cell_from_json(v: &Value) -> Option<Cell> {
        match v {
            Value::Null => Some(None),
            Value::Array(a) if a.len() == 2 || a.len() == 3 => {
                let n = |i: usize| a.get(i).and_then(Value::as_u64);
                Some(Some(Piece {
                    player: u8::try_from(n(0)?).ok()?,
                    kind: u8::try_from(n(1)?).ok()?,
                    attrs: match a.get(2) {
                        Some(v) => u32::try_from(v.as_u64()?).ok()?,
                        None => 0,
                    },
                }))
            }
            _ => None,
        }
    }

    /// A level whose rules text does not compile opens too (to be fixed in the Rules tab),
    /// with no board until it compiles; any other error refuses it.
    fn from_json(doc: &Value) -> Result<Self, Vec<Problem>> {
        let level = match BoardLevel::from_json(doc) {
            Ok(level) => level,
            Err(p) => return Design::uncompiled(doc).ok_or(p),
        };
        let Some(o) = doc.as_object() else {
            return Err(vec![Problem::error(
                JsonPath::root(),
                "a level must be a JSON object",
            )]);
        };
        let board = Compiled::new(Arc::clone(&level.rules));
        let map = board.map_of(&level.start.cells);
        let text = level.source.text.clone();
        let rest = Rest {
            link: link_of(level.source.file.as_deref(), &text),
            text,
            file: level.source.file.clone(),
            variant: level.variant.clone(),
            to_move: o.get("to_move").and_then(Value::as_str).map(str::to_string),
            turn: o.get("turn").cloned(),
            reserve: o.get("reserve").cloned(),
            last: o.get("last").cloned(),
            had_setup: o.contains_key("setup"),
            raw: None,
            extra: level.extra.clone(),
        };
        Ok(Design {
            problems: Arc::new(zrf_problems(&rest.text, rest.variant.as_deref())),
            rest,
            map,
            board: Arc::new(board),
        })
    }

    fn to_json(&self) -> Value {
        self.json_with(self.rules_json())
    }
}

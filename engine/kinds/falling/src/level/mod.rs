//! The falling-block level format (`"kind": "falling"`): blocks, tumos with rotation
//! states, clear rules, fall laws, game over, sequence, timing, score, goal, the starting
//! field, an optional active tumo and an optional FPGDL script. See
//! `docs/falling-level-format.md` and `schemas/level.schema.json`.
//!
//! Coordinates: `x` is the column from the left, `y` the row from the **top** everywhere in
//! this format (spec falling-blocks §10 A4), kick offsets included.

use std::collections::BTreeSet;
use tilesmith_core::problem::Capped as _;

use serde_json::{Map, Value};

use super::field::{BlockId, EMPTY, Field};
use super::shape::Kicks;
use tilesmith_core::problem::{JsonPath, Problem, quote};

mod parse;
mod types;
mod write;

pub(crate) use parse::KNOWN_KEYS;
use parse::*;
pub use types::*;

/// Largest field side in cells.
pub const MAX_SIDE: usize = 256;
/// Largest number of field cells.
pub const MAX_CELLS: usize = 65_536;
/// Largest number of block kinds (ids 1–99; spec A2 reserves 100 and above).
pub const MAX_BLOCK_KINDS: usize = 99;
/// Repair mode: the first block id that stands for an unknown field character (a character
/// that is not a `legend` key), index 0 of [`FallingLevel::unknown`]; ids from here to
/// [`MISSING_CELL`] − 1 are unknown characters (docs/editor.md, "Repair mode").
pub const UNKNOWN_FIRST: BlockId = 100;
/// Repair mode: the block id of a cell missing from a short `field` row (padded for display,
/// not written back).
pub const MISSING_CELL: BlockId = 255;
/// Largest number of tumos.
pub const MAX_TUMOS: usize = 64;
/// Largest number of rotation states of one tumo.
pub const MAX_STATES: usize = 8;
/// Largest side of a rotation-state grid.
pub const MAX_GRID: usize = 8;
/// Largest label number in a rotation state (a grid has at most this many cells).
pub const MAX_LABEL: usize = MAX_GRID * MAX_GRID;
/// Most kick offsets tested for one pair of states.
pub const MAX_KICK_TESTS: usize = 32;
/// Largest absolute kick offset, spawn coordinate or active-tumo coordinate.
pub const MAX_OFFSET: i64 = MAX_SIDE as i64;
/// Longest `sequence.tumos` list.
pub const MAX_SEQUENCE: usize = 4096;
/// Most next tumos shown (`preview`).
pub const MAX_PREVIEW: usize = 16;
/// Largest timing value in frames (one hour at 60 frames a second), also the largest
/// `top_row_timeout` duration.
pub const MAX_TIMING: u32 = 216_000;
/// Longest score table (`chain_bonus`, `color_bonus`, `group_bonus`, `points`).
pub const MAX_TABLE: usize = 256;
/// Largest entry of a score table.
pub const MAX_BONUS: u64 = 1_000_000_000;
/// Largest count in a saved state or a goal (2^53 − 1: exact in every JSON reader).
pub const MAX_COUNT: u64 = (1 << 53) - 1;
/// Largest script in bytes.
pub const MAX_SCRIPT_BYTES: usize = 1 << 20;
/// The forms the editor knows how to draw; another form is accepted with a warning and drawn
/// as a square.
pub const FORMS: [&str; 3] = ["square", "round", "gem"];
/// The number of next tumos shown when `preview` is missing.
pub const DEFAULT_PREVIEW: usize = 2;
/// How long a failed turn is remembered for a quick turn, in frames (issue 10: "within 15
/// frames").
pub const QUICK_TURN_FRAMES: u64 = 15;

/// The rows of the buffer zone above the field: rows y = −1 … −248, inside the field's
/// columns, where the active tumo's blocks may be (moving, turning, kicking) and which are
/// always empty. SRS has no ceiling (the corpus README: "Cells above the listed rows are
/// empty"), and guideline Tetris keeps 20 hidden rows above its 20 visible ones; 248
/// (`MAX_OFFSET − MAX_GRID`) is as good as no ceiling while the grid of a tumo in the buffer
/// stays within the ±256 coordinates of `active`. A tumo placed with a block there loses the
/// game (lock out).
pub const BUFFER_ROWS: usize = MAX_OFFSET as usize - MAX_GRID;

/// A falling-block level.
#[derive(Clone, Debug, PartialEq)]
pub struct FallingLevel {
    /// The level's name.
    pub name: String,
    /// Block kinds, id = index + 1.
    pub blocks: Vec<BlockKind>,
    /// Tumos.
    pub tumos: Vec<Tumo>,
    /// `quick_turn` (Puyo).
    pub quick_turn: bool,
    /// `hard_drop`.
    pub hard_drop: bool,
    /// `hold`: one hold slot, used with the input `H` once per placement (guideline
    /// Tetris's hold; `docs/falling-semantics.md`, "Hold"). Default false.
    pub hold: bool,
    /// `shadow`.
    pub shadow: bool,
    /// Clear rules.
    pub clear: Vec<ClearRule>,
    /// Fall laws, in the order they make requests (a later law's request wins, spec A17).
    pub fall: Vec<FallLaw>,
    /// Top rows whose blocks never take part in a clear.
    pub hidden_rows: usize,
    /// Game-over conditions.
    pub game_over: Vec<GameOver>,
    /// The tumo sequence.
    pub sequence: Sequence,
    /// Timing in frames.
    pub timing: Timing,
    /// The score rule, if any.
    pub score: Option<ScoreRule>,
    /// The goal, if any.
    pub goal: Option<Goal>,
    /// The field (its size is the level's `width` × `height`).
    pub field: Field,
    /// The legend: a field character and the block it stands for, in file order.
    pub legend: Vec<(char, BlockId)>,
    /// A tumo already in play.
    pub active: Option<ActiveTumo>,
    /// FPGDL source defining `update()`.
    pub script: Option<String>,
    /// How many next tumos are shown (`preview`, default [`DEFAULT_PREVIEW`]).
    pub preview: usize,
    /// The saved play state (`state`), written by `tilesmith run --out`; `None` for a level
    /// that starts from the beginning.
    pub state: Option<SavedState>,
    /// Top-level members the loader does not know, written back unchanged.
    pub extra: Map<String, Value>,
    /// Unknown members of the rule objects, `sequence`, `timing`, `score` and `goal`,
    /// written back unchanged.
    pub rule_extra: RuleExtras,
    /// Repair mode ([`FallingLevel::from_json_editable`]): the field characters that are not
    /// `legend` keys, in order of first appearance; field cell id [`UNKNOWN_FIRST`] + i holds
    /// character i and is written back as it. Empty for a level read by
    /// [`FallingLevel::from_json`].
    pub unknown: Vec<char>,
}

/// The characters tried, in order, for block kinds that have no legend character yet.
fn legend_candidates() -> impl Iterator<Item = char> {
    ('A'..='Z')
        .chain('a'..='z')
        .chain('0'..='9')
        .chain("#@$%&*+=?!~^<>/|:;".chars())
        .chain((0xC0u32..0x250).filter_map(char::from_u32))
}

impl Default for FallingLevel {
    /// An empty 6 × 12 level with one normal block kind and no tumo.
    fn default() -> Self {
        Self::new("", 6, 12)
    }
}

impl FallingLevel {
    /// Removes clear rule `i` (no-op when out of range) and its kept unknown members
    /// ([`RuleExtras::clear`]); the other rules keep theirs even when they share its word.
    pub fn remove_clear_rule(&mut self, i: usize) {
        edit_with_extras(
            &mut self.clear,
            &mut self.rule_extra.clear,
            ClearRule::word,
            |l, e| {
                if i < l.len() {
                    l.remove(i);
                    e.remove(i);
                }
            },
        );
    }

    /// Swaps clear rules `i` and `j` (no-op when either is out of range), their kept unknown
    /// members with them.
    pub fn swap_clear_rules(&mut self, i: usize, j: usize) {
        edit_with_extras(
            &mut self.clear,
            &mut self.rule_extra.clear,
            ClearRule::word,
            |l, e| {
                if i < l.len() && j < l.len() {
                    l.swap(i, j);
                    e.swap(i, j);
                }
            },
        );
    }

    /// Sets the game-over conditions to `rules`, each keeping the kept unknown members
    /// ([`RuleExtras::game_over`]) of the first old condition equal to it (or, failing that,
    /// of the first old one of its word not yet used), so they follow their condition when
    /// conditions are removed or reordered.
    pub fn set_game_over(&mut self, rules: Vec<GameOver>) {
        edit_with_extras(
            &mut self.game_over,
            &mut self.rule_extra.game_over,
            GameOver::word,
            |l, e| {
                type Kept = Option<Map<String, Value>>;
                let mut old: Vec<Option<(GameOver, Kept)>> =
                    l.drain(..).zip(e.drain(..)).map(Some).collect();
                for r in rules {
                    let at = old
                        .iter()
                        .position(|o| o.as_ref().is_some_and(|(g, _)| *g == r))
                        .or_else(|| {
                            old.iter()
                                .position(|o| o.as_ref().is_some_and(|(g, _)| g.word() == r.word()))
                        });
                    let extra = at.and_then(|at| old[at].take()).and_then(|(_, x)| x);
                    l.push(r);
                    e.push(extra);
                }
            },
        );
    }

    /// An empty level of `width` × `height` cells (clamped to 1…[`MAX_SIDE`] and
    /// [`MAX_CELLS`]) with one normal block kind `block`, no tumo, no rules and default timing.
    pub fn new(name: &str, width: usize, height: usize) -> Self {
        let width = width.clamp(1, MAX_SIDE);
        let height = height.clamp(1, MAX_SIDE).min(MAX_CELLS / width);
        Self {
            name: name.into(),
            blocks: vec![BlockKind {
                name: "block".into(),
                color: [200, 60, 60],
                form: "square".into(),
                role: Role::Normal,
                extra: Map::new(),
            }],
            tumos: Vec::new(),
            quick_turn: false,
            hard_drop: false,
            hold: false,
            shadow: false,
            clear: Vec::new(),
            fall: Vec::new(),
            hidden_rows: 0,
            game_over: vec![GameOver::SpawnBlocked],
            sequence: Sequence::default(),
            timing: Timing::default(),
            score: None,
            goal: None,
            field: Field::new(width, height),
            legend: Vec::new(),
            active: None,
            script: None,
            preview: DEFAULT_PREVIEW,
            state: None,
            extra: Map::new(),
            rule_extra: RuleExtras::default(),
            unknown: Vec::new(),
        }
    }

    /// Reads a level document of kind `falling`.
    ///
    /// # Errors
    /// Every problem found, each with its JSON path.
    pub fn from_json(doc: &Value) -> Result<Self, Vec<tilesmith_core::problem::Problem>> {
        let mut cx = Ctx::default();
        let level = parse_level(doc, &mut cx);
        match level {
            Some(l) if cx.p.iter().all(|x| !x.is_error()) => Ok(l),
            _ => Err(cx.p.into_iter().filter(Problem::is_error).collect()),
        }
    }

    /// Reads a level document of kind `falling` for the editor's repair mode (docs/editor.md,
    /// "Repair mode"): a `field` character that is not a `legend` key becomes a cell of id
    /// [`UNKNOWN_FIRST`] + i, the character kept as [`FallingLevel::unknown`]`[i]` and written
    /// back unchanged by [`FallingLevel::to_json`]; a row shorter than the field's width is
    /// padded with [`MISSING_CELL`] cells (not written back); the field's width is the largest
    /// of `width` and the rows' lengths. The problems are those of [`FallingLevel::check`] on
    /// [`FallingLevel::to_json`], which the editor lists.
    ///
    /// # Errors
    /// Every other error, as [`FallingLevel::from_json`] (a bad legend, tumo, rule, a field
    /// whose row count is not `height`, a row that is not a string), or more than 155 distinct
    /// unknown characters.
    pub fn from_json_editable(doc: &Value) -> Result<Self, Vec<tilesmith_core::problem::Problem>> {
        let mut cx = Ctx {
            editable: true,
            ..Ctx::default()
        };
        let level = parse_level(doc, &mut cx);
        match level {
            Some(l) if cx.p.iter().all(|x| !x.is_error()) => Ok(l),
            _ => Err(cx.p.into_iter().filter(Problem::is_error).collect()),
        }
    }

    /// True when the field holds an unknown character or a missing cell (repair mode): the
    /// level cannot be played as it is.
    pub fn has_unknown(&self) -> bool {
        self.field.cells.iter().any(|&c| c >= UNKNOWN_FIRST)
    }

    /// The unknown character of field cell id `id` (repair mode), `None` for a block id, an
    /// id of no character of this level or [`MISSING_CELL`].
    pub fn unknown_char(&self, id: BlockId) -> Option<char> {
        if id == MISSING_CELL {
            return None;
        }
        let i = id.checked_sub(UNKNOWN_FIRST)?;
        self.unknown.get(i as usize).copied()
    }

    /// Every problem of a document: its errors when it has any, else its warnings (unknown
    /// members of rule objects, tumos never drawn, a kick table on a one-state tumo, a `rows`
    /// fall law with no rule that clears rows, …).
    pub fn check(doc: &Value) -> Vec<Problem> {
        let mut cx = Ctx::default();
        let level = parse_level(doc, &mut cx);
        if cx.p.iter().any(Problem::is_error) {
            return cx.p.into_iter().filter(Problem::is_error).collect();
        }
        let mut w = cx.p;
        if let Some(l) = level {
            w.extend(l.warnings());
        }
        w
    }

    /// Warnings about a loadable level (not the ones found while reading, see
    /// [`FallingLevel::check`]).
    pub fn warnings(&self) -> Vec<Problem> {
        let root = JsonPath::root();
        let mut w = Vec::new();
        let active = self.active.as_ref().map(|a| a.tumo);
        for (i, t) in self.tumos.iter().enumerate() {
            if !self.sequence.tumos.contains(&i) && active != Some(i) {
                w.push_capped(Problem::warning(
                    root.key("tumos").index(i),
                    format!(
                        "tumo {} is never played: the sequence does not list it",
                        quote(&t.name)
                    ),
                ));
            }
            if t.states.len() == 1 && matches!(&t.kicks, Kicks::Table(_)) {
                w.push_capped(Problem::warning(
                    root.key("tumos").index(i).key("kicks"),
                    format!(
                        "tumo {} has one rotation state, so its kick table is never used",
                        quote(&t.name)
                    ),
                ));
            }
        }
        let clears_rows = self.clear.contains(&ClearRule::Rows);
        if self.script.is_none()
            && !clears_rows
            && let Some(i) = self.fall.iter().position(|f| *f == FallLaw::Rows)
        {
            w.push_capped(Problem::warning(
                    root.key("fall").index(i),
                    "the \"rows\" fall law drops blocks by the rows cleared below them, but no clear rule clears rows (add {\"rule\": \"rows\"})",
                ),
            );
        }
        if self.script.is_none() && self.clear.is_empty() {
            w.push_capped(Problem::warning(
                root.key("clear"),
                "no clear rule and no script: blocks never vanish",
            ));
        }
        if self.hidden_rows >= self.field.height && !self.clear.is_empty() {
            w.push_capped(Problem::warning(
                root.key("hidden_rows"),
                "every row is hidden, so no block ever takes part in a clear",
            ));
        }
        if self.tumos.is_empty() && self.active.is_none() {
            w.push_capped(Problem::warning(
                root.key("tumos"),
                "the level has no tumo, so nothing is ever played",
            ));
        }
        w
    }

    /// The id of the block kind called `name`.
    pub fn block_named(&self, name: &str) -> Option<BlockId> {
        self.blocks
            .iter()
            .position(|b| b.name == name)
            .and_then(|i| BlockId::try_from(i + 1).ok())
    }

    /// The index of the tumo called `name`.
    pub fn tumo_named(&self, name: &str) -> Option<usize> {
        self.tumos.iter().position(|t| t.name == name)
    }

    /// The name of block kind `id`, `"?"` for an unknown id.
    pub fn block_name(&self, id: BlockId) -> &str {
        (id as usize)
            .checked_sub(1)
            .and_then(|i| self.blocks.get(i))
            .map_or("?", |b| b.name.as_str())
    }

    /// The role of block kind `id` ([`Role::Normal`] for an unknown id).
    pub fn role(&self, id: BlockId) -> Role {
        (id as usize)
            .checked_sub(1)
            .and_then(|i| self.blocks.get(i))
            .map_or(Role::Normal, |b| b.role)
    }

    /// The roles of the block kinds, index `id − 1` (for [`super::field::RuleContext`]).
    pub fn roles(&self) -> Vec<Role> {
        self.blocks.iter().map(|b| b.role).collect()
    }

    /// The grid position `(x, y)` of tumo `tumo`'s top-left cell when it spawns: its `spawn`,
    /// or centred: grid left = ⌊(width − side) / 2⌋, and the grid top chosen so that the
    /// topmost block of state 0 is in row 0. `None` for an unknown tumo.
    pub fn spawn_position(&self, tumo: usize) -> Option<(i32, i32)> {
        let t = self.tumos.get(tumo)?;
        if let Some([x, y]) = t.spawn {
            return Some((x, y));
        }
        Some(default_spawn(t, self.field.width))
    }

    /// The legend character of block kind `id`: the first legend entry for it.
    pub fn legend_char(&self, id: BlockId) -> Option<char> {
        self.legend.iter().find(|(_, b)| *b == id).map(|(c, _)| *c)
    }

    /// Adds a legend character for every block kind in the field that has none (the first
    /// letter of its name when free, else the first free character of `A`–`Z`, `a`–`z`,
    /// `0`–`9`, a few signs, then Latin letters with accents). [`FallingLevel::to_json`] needs
    /// a character for every block in the field; levels read from JSON and saved by a game
    /// always have them.
    pub fn complete_legend(&mut self) {
        let mut present = BTreeSet::new();
        for &c in &self.field.cells {
            if c != EMPTY && c < UNKNOWN_FIRST {
                present.insert(c);
            }
        }
        for id in present {
            if self.legend_char(id).is_some() {
                continue;
            }
            let used: BTreeSet<char> = self.legend.iter().map(|(c, _)| *c).collect();
            let first = self
                .block_name(id)
                .chars()
                .next()
                .filter(|c| !c.is_whitespace() && !c.is_control() && *c != '.' && *c != '"');
            let pick = first
                .into_iter()
                .chain(legend_candidates())
                .find(|c| !used.contains(c));
            if let Some(c) = pick {
                self.legend.push((c, id));
            }
        }
    }

    /// The field as rows of legend characters, top first (`.` empty; `?` for a block kind
    /// without a legend character, which [`FallingLevel::complete_legend`] prevents). Repair
    /// mode: an unknown character's cell is written as the character, and [`MISSING_CELL`]s
    /// at a row's end are left out (so an untouched short row stays short); one before a
    /// written cell is written `.` so that later cells keep their columns.
    pub fn field_rows(&self) -> Vec<String> {
        let f = &self.field;
        (0..f.height)
            .map(|y| {
                let row = &f.cells[y * f.width..(y + 1) * f.width];
                let end = row
                    .iter()
                    .rposition(|&c| c != MISSING_CELL)
                    .map_or(0, |i| i + 1);
                row[..end]
                    .iter()
                    .map(|&id| match id {
                        EMPTY | MISSING_CELL => '.',
                        id if id >= UNKNOWN_FIRST => self.unknown_char(id).unwrap_or('?'),
                        id => self.legend_char(id).unwrap_or('?'),
                    })
                    .collect()
            })
            .collect()
    }
}

/// The default spawn position of `t` in a field `width` wide (see
/// [`FallingLevel::spawn_position`]).
fn default_spawn(t: &Tumo, width: usize) -> (i32, i32) {
    let side = t.side() as i64;
    let x = (width as i64 - side).div_euclid(2);
    let top = t
        .states
        .first()
        .and_then(|s| s.blocks().map(|(_, y, _)| y).min())
        .unwrap_or(0) as i64;
    (x as i32, -top as i32)
}

//! The falling-block level format (`"kind": "falling"`): blocks, tumos with rotation
//! states, clear rules, fall laws, game over, sequence, timing, score, goal, the starting
//! field, an optional active tumo and an optional FPGDL script. See
//! `docs/falling-level-format.md` and `schemas/level.schema.json`.
//!
//! Coordinates: `x` is the column from the left, `y` the row from the **top** everywhere in
//! this format (spec falling-blocks §10 A4), kick offsets included.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value, json};

use super::field::{BlockId, EMPTY, Field};
use super::shape::{Kicks, ShapeGrid, Turn};
use crate::game::Status;
use crate::level_json::{int, type_name};
use crate::problem::{JsonPath, Problem, did_you_mean, nearest, quote};

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

/// What a block kind does besides its colour (`role`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Role {
    /// Takes part in clears.
    #[default]
    Normal,
    /// Never part of a group; vanishes when a neighbouring group vanishes (Puyo's ojama).
    Garbage,
    /// Never vanishes.
    Iron,
}

/// One block kind (`blocks[i]`, id `i + 1`).
#[derive(Clone, Debug, PartialEq)]
pub struct BlockKind {
    /// The kind's name, unique in the level.
    pub name: String,
    /// `[r, g, b]`, each 0–255.
    pub color: [u8; 3],
    /// How it is drawn: `square`, `round`, `gem`, … (free text; unknown forms draw square).
    pub form: String,
    /// Normal, garbage or iron.
    pub role: Role,
    /// Members the loader does not know, written back unchanged.
    pub extra: Map<String, Value>,
}

/// One tumo (`tumos[i]`).
#[derive(Clone, Debug, PartialEq)]
pub struct Tumo {
    /// The tumo's name, unique in the level.
    pub name: String,
    /// The rotation states, 1 to [`MAX_STATES`], all of the same side.
    pub states: Vec<ShapeGrid>,
    /// The kind of the `-1` cells.
    pub block: BlockId,
    /// The kinds a labelled cell may take at spawn (default: every `normal` kind).
    pub labels: Vec<BlockId>,
    /// `[x, y]` in grid coordinates: cell `(i, j)` has its centre at `[i, j]`, so
    /// `[1.5, 1.5]` is the corner between cells (1,1), (2,1), (1,2) and (2,2). What the
    /// editor's auto-rotate turns about.
    pub pivot: [f64; 2],
    /// The kick tests per pair of states.
    pub kicks: Kicks,
    /// `[x, y]` of the grid's top-left cell at spawn; `None`: centred in the top row.
    pub spawn: Option<[i32; 2]>,
    /// Members the loader does not know.
    pub extra: Map<String, Value>,
}

/// A clear rule (`clear[i]`). A block vanishes when any rule flags it (spec A17).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClearRule {
    /// Same-kind groups of at least `min` through the four neighbours (Puyo).
    Connected {
        /// Smallest group that vanishes.
        min: usize,
    },
    /// Full rows (Tetris).
    Rows,
    /// Same-kind `size` × `size` squares (Lumines).
    Squares {
        /// The square's side.
        size: usize,
    },
    /// Same-kind straight lines of at least `min`, diagonals too when `diagonal` (Columns).
    Lines {
        /// Shortest line that vanishes.
        min: usize,
        /// Whether diagonal lines count.
        diagonal: bool,
    },
}

/// A fall law (`fall[i]`, spec §3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FallLaw {
    /// Every block falls until it lands.
    Gravity,
    /// Blocks drop by the number of cleared rows below them (Tetris's naive gravity).
    Rows,
    /// Horizontally connected blocks fall only together (law 3).
    Joined,
}

/// A game-over condition (`game_over[i]`, spec §4.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameOver {
    /// The next tumo cannot appear (default).
    SpawnBlocked,
    /// A block is placed in the top row (`y = 0`).
    TopRow,
    /// A block has stayed in the top row for `frames` frames.
    TopRowTimeout {
        /// Frames allowed.
        frames: u32,
    },
}

/// How the next tumo is chosen (`sequence.order`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Order {
    /// Uniformly at random from the seeded RNG.
    #[default]
    Random,
    /// Each tumo once per bag, bags shuffled by the seeded RNG (Tetris's 7-bag).
    Bag,
    /// The list in order; the sequence ends when it is used up.
    Fixed,
}

/// `sequence`: the order and the tumos it draws from (indices into `tumos`).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Sequence {
    /// Random, bag or fixed.
    pub order: Order,
    /// Tumo indices (for `fixed`, the whole sequence in order).
    pub tumos: Vec<usize>,
}

/// `timing`, in frames (60 a second). Zero means instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    /// Frames per cell of the tumo's own fall.
    pub gravity: u32,
    /// Frames per cell while soft drop is held (each `SD` input moves one cell at once).
    pub soft_drop: u32,
    /// Frames a landed tumo waits before it is placed.
    pub lock: u32,
    /// Frames from placing to the next spawn.
    pub spawn: u32,
    /// Frames a vanish takes.
    pub clear: u32,
    /// Frames per cell of a field block's fall.
    pub fall: u32,
    /// Frames a field block that fell stays in motion after it has come to rest (its
    /// grounding; puyoai's `FRAMES_GROUNDING`).
    pub land: u32,
}

impl Default for Timing {
    /// The defaults, from puyoai's timing model of Puyo Puyo Tsu
    /// (`../shared/corpus/falling/puyo_scoring.json`, `frames`) where it has one:
    /// `gravity` 16 (`FRAMES_FREE_FALL`), `soft_drop` 2 and `fall` 2 (`FRAMES_TO_DROP_FAST`: 2
    /// frames a row), `spawn` 12 (`FRAMES_PREPARING_NEXT`), `clear` 50
    /// (`FRAMES_VANISH_ANIMATION`), `land` 20 (`FRAMES_GROUNDING`); `lock` 30 (half a second,
    /// the Tetris guideline's lock delay; puyoai has none). With these a Puyo chain step takes
    /// puyoai's 50 + 2 × (largest drop) + 20 frames (50 when nothing falls).
    fn default() -> Self {
        Self {
            gravity: 16,
            soft_drop: 2,
            lock: 30,
            spawn: 12,
            clear: 50,
            fall: 2,
            land: 20,
        }
    }
}

/// `score`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScoreRule {
    /// Puyo Puyo Tsu: `10 × erased × clamp(chain + colour + group bonuses, 1, 999)`.
    Puyo(PuyoScore),
    /// Points per number of rows cleared at once, index = rows (capped at the last entry).
    Rows(Vec<u64>),
}

/// The Puyo Puyo Tsu bonus tables (`../shared/corpus/falling/puyo_scoring.json`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuyoScore {
    /// Index: chain number (1 for the first clear); the last entry repeats beyond.
    pub chain_bonus: Vec<u64>,
    /// Index: number of distinct colours erased; the last entry repeats beyond.
    pub color_bonus: Vec<u64>,
    /// Index: group size; the last entry repeats beyond.
    pub group_bonus: Vec<u64>,
}

impl Default for PuyoScore {
    /// The Puyo Puyo Tsu tables of `puyo_scoring.json`.
    fn default() -> Self {
        Self {
            chain_bonus: vec![
                0, 0, 8, 16, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448,
                480, 512,
            ],
            color_bonus: vec![0, 0, 3, 6, 12, 24],
            group_bonus: vec![0, 0, 0, 0, 0, 2, 3, 4, 5, 6, 7, 10],
        }
    }
}

/// The points of `{"rule": "rows"}` when `points` is missing: 0, 100, 300, 500 and 800 for
/// 0 to 4 rows at once.
pub const DEFAULT_ROW_POINTS: [u64; 5] = [0, 100, 300, 500, 800];

/// `goal`: reaching it wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// No block left in the field.
    ClearAll,
    /// A chain of at least `min`.
    Chain {
        /// Chain length.
        min: u32,
    },
    /// A score of at least `min`.
    Score {
        /// Points.
        min: u64,
    },
    /// At least `min` rows cleared in all.
    Rows {
        /// Rows.
        min: u32,
    },
}

/// `active`: a tumo already in play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActiveTumo {
    /// Index into `tumos`.
    pub tumo: usize,
    /// Rotation state.
    pub state: usize,
    /// Field column of the grid's left column (may be negative when that column is empty).
    pub x: i32,
    /// Field row of the grid's top row (may be negative).
    pub y: i32,
    /// The kind of each label, label 1 first.
    pub labels: Vec<BlockId>,
}

/// The unknown members of the level's rule objects (`clear[i]`, `game_over[i]`) and of
/// `sequence`, `timing`, `score` and `goal`: they have no effect, but are kept and written back
/// by [`FallingLevel::to_json`], as [`FallingLevel::extra`] keeps the top level's. A known
/// member of the object as written wins over a kept member of the same name (a `"min"` kept on
/// a `rows` rule is not written once the rule becomes `connected`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RuleExtras {
    /// Per clear rule, keyed by its rule word and the occurrence of that word in `clear`
    /// (`("connected", 0)` for the first `connected` rule), so that the members follow their
    /// rule when other rules are added, removed, reordered or edited.
    pub clear: BTreeMap<(String, usize), Map<String, Value>>,
    /// Per game-over condition, keyed as for `clear`.
    pub game_over: BTreeMap<(String, usize), Map<String, Value>>,
    /// Of `sequence`.
    pub sequence: Map<String, Value>,
    /// Of `timing`.
    pub timing: Map<String, Value>,
    /// Of `score` (written while the level has a score rule).
    pub score: Map<String, Value>,
    /// Of `goal` (written while the level has a goal).
    pub goal: Map<String, Value>,
}

impl RuleExtras {
    /// True when nothing is kept.
    pub fn is_empty(&self) -> bool {
        self.clear.is_empty()
            && self.game_over.is_empty()
            && self.sequence.is_empty()
            && self.timing.is_empty()
            && self.score.is_empty()
            && self.goal.is_empty()
    }
}

/// Adds to `o` the members of `kept` it does not have (known members win).
fn merge_kept(o: &mut Value, kept: Option<&Map<String, Value>>) {
    if let (Value::Object(o), Some(kept)) = (o, kept) {
        for (k, v) in kept {
            o.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
}

/// For each entry of a rule list, its key in [`RuleExtras`]: the rule word and how many
/// entries before it have the same word.
fn occurrence_keys<'a>(words: impl Iterator<Item = &'a str>) -> Vec<(String, usize)> {
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    words
        .map(|w| {
            let n = seen.entry(w).or_insert(0);
            let key = (w.to_string(), *n);
            *n += 1;
            key
        })
        .collect()
}

/// Edits a rule list and its kept members together: `edit` is applied to the list and to a
/// parallel list of each rule's kept members, then the members are keyed again by the new
/// occurrences, so they stay with their rule. Kept members of no rule in the list (their rule
/// was removed or changed its word) stay while their key is not taken.
fn edit_with_extras<R>(
    list: &mut Vec<R>,
    kept: &mut BTreeMap<(String, usize), Map<String, Value>>,
    word: fn(&R) -> &'static str,
    edit: impl FnOnce(&mut Vec<R>, &mut Vec<Option<Map<String, Value>>>),
) {
    let keys = occurrence_keys(list.iter().map(word));
    let mut extras: Vec<Option<Map<String, Value>>> = keys.iter().map(|k| kept.remove(k)).collect();
    edit(list, &mut extras);
    let keys = occurrence_keys(list.iter().map(word));
    for k in &keys {
        kept.remove(k);
    }
    for (k, e) in keys.into_iter().zip(extras) {
        if let Some(e) = e {
            kept.insert(k, e);
        }
    }
}

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

/// A tumo waiting in the queue of next tumos, with the kinds its labels will have.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct QueuedTumo {
    /// Index into `tumos`.
    pub tumo: usize,
    /// The kind of each label, label 1 first.
    pub labels: Vec<BlockId>,
}

/// A clear waiting for its animation to end (`timing.clear` > 0): the frame's delete flags
/// and fall requests, carried out together when `frames` reaches 0.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct SavedPending {
    /// Frames left, at least 1.
    pub frames: u32,
    /// Cells flagged to vanish, `(x, y)`, row-major.
    pub delete: Vec<(usize, usize)>,
    /// Fall requests, `(x, y, cells)`, row-major, cells ≥ 1.
    pub down: Vec<(usize, usize, u32)>,
}

/// The state of a game in play beyond the field and the active tumo (`state`): what
/// `tilesmith run --out` saves so that the game continues exactly where it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedState {
    /// Frames played.
    pub frames: u64,
    /// Points.
    pub score: u64,
    /// Whole rows cleared.
    pub rows: u64,
    /// The current or last chain's length.
    pub chain: u32,
    /// The longest chain so far.
    pub max_chain: u32,
    /// Running, won or lost (a won game's points are 1).
    pub status: Status,
    /// The ChaCha8 generator's 32-byte seed and word position; `None`: seeded from the run's
    /// seed.
    pub rng: Option<([u8; 32], u128)>,
    /// The next tumos already drawn, first next first.
    pub queue: Vec<QueuedTumo>,
    /// What is left of the current bag (`bag` order), next first.
    pub bag: Vec<usize>,
    /// The index of the next entry of a `fixed` sequence.
    pub fixed_next: usize,
    /// Frames since the active tumo last fell a cell.
    pub gravity_timer: u32,
    /// Frames the active tumo has been resting on something.
    pub lock_timer: u32,
    /// Frames since the last placement.
    pub since_place: u32,
    /// Frames since the last soft-drop move.
    pub soft_drop_timer: u32,
    /// Consecutive frames with a settled block in the top row.
    pub top_row_frames: u32,
    /// The last turn that failed and its frame, for a quick turn.
    pub last_failed_turn: Option<(Turn, u64)>,
    /// True when a tumo was placed since the last clear (the next clear starts a new chain).
    pub placed_since_clear: bool,
    /// True when the last rules pass deleted and moved nothing.
    pub quiet: bool,
    /// Blocks in motion: `(x, y, frames left)`, row-major.
    pub moving: Vec<(usize, usize, u32)>,
    /// A clear in progress.
    pub pending: Option<SavedPending>,
}

impl Default for SavedState {
    fn default() -> Self {
        Self {
            frames: 0,
            score: 0,
            rows: 0,
            chain: 0,
            max_chain: 0,
            status: Status::Running,
            rng: None,
            queue: Vec::new(),
            bag: Vec::new(),
            fixed_next: 0,
            gravity_timer: 0,
            lock_timer: 0,
            since_place: 0,
            soft_drop_timer: 0,
            top_row_frames: 0,
            last_failed_turn: None,
            placed_since_clear: true,
            quiet: true,
            moving: Vec::new(),
            pending: None,
        }
    }
}

/// Top-level members this format knows; others are kept in [`FallingLevel::extra`].
const KNOWN_KEYS: &[&str] = &[
    "kind",
    "name",
    "width",
    "height",
    "blocks",
    "tumos",
    "quick_turn",
    "hard_drop",
    "shadow",
    "clear",
    "fall",
    "hidden_rows",
    "game_over",
    "sequence",
    "timing",
    "score",
    "goal",
    "preview",
    "legend",
    "field",
    "active",
    "script",
    "state",
];

/// The most members of an object of the format other than the level, a block kind or a tumo
/// (whose unknown members are kept): a rule, `sequence`, `timing`, `score`, `goal`,
/// `active`, `state`.
const MAX_MEMBERS: usize = 64;
/// The most `legend` entries.
pub const MAX_LEGEND: usize = 256;
/// The most entries of a kick table (8 states give 56 pairs).
const MAX_KICK_PAIRS: usize = MAX_STATES * MAX_STATES;

/// The known members of a block kind; others are kept in [`BlockKind::extra`].
const BLOCK_KEYS: &[&str] = &["name", "color", "form", "role"];
/// The known members of a tumo; others are kept in [`Tumo::extra`].
const TUMO_KEYS: &[&str] = &[
    "name", "states", "block", "labels", "pivot", "kicks", "spawn",
];

impl Role {
    /// The word of the level format: `normal`, `garbage` or `iron`.
    pub fn word(self) -> &'static str {
        match self {
            Role::Normal => "normal",
            Role::Garbage => "garbage",
            Role::Iron => "iron",
        }
    }

    /// Every role, in the order of the format's documentation.
    pub const ALL: [Role; 3] = [Role::Normal, Role::Garbage, Role::Iron];
}

impl FallLaw {
    /// The word of the level format: `gravity`, `rows` or `joined`.
    pub fn word(self) -> &'static str {
        match self {
            FallLaw::Gravity => "gravity",
            FallLaw::Rows => "rows",
            FallLaw::Joined => "joined",
        }
    }

    /// Every fall law.
    pub const ALL: [FallLaw; 3] = [FallLaw::Gravity, FallLaw::Rows, FallLaw::Joined];
}

impl Order {
    /// The word of the level format: `random`, `bag` or `fixed`.
    pub fn word(self) -> &'static str {
        match self {
            Order::Random => "random",
            Order::Bag => "bag",
            Order::Fixed => "fixed",
        }
    }

    /// Every order.
    pub const ALL: [Order; 3] = [Order::Random, Order::Bag, Order::Fixed];
}

impl ClearRule {
    /// The rule's word: `connected`, `rows`, `squares` or `lines`.
    pub fn word(&self) -> &'static str {
        match self {
            ClearRule::Connected { .. } => "connected",
            ClearRule::Rows => "rows",
            ClearRule::Squares { .. } => "squares",
            ClearRule::Lines { .. } => "lines",
        }
    }

    /// The JSON form, every member written.
    pub fn to_json(&self) -> Value {
        match self {
            ClearRule::Connected { min } => json!({"rule": "connected", "min": min}),
            ClearRule::Rows => json!({"rule": "rows"}),
            ClearRule::Squares { size } => json!({"rule": "squares", "size": size}),
            ClearRule::Lines { min, diagonal } => {
                json!({"rule": "lines", "min": min, "diagonal": diagonal})
            }
        }
    }
}

impl GameOver {
    /// The rule's word: `spawn_blocked`, `top_row` or `top_row_timeout`.
    pub fn word(&self) -> &'static str {
        match self {
            GameOver::SpawnBlocked => "spawn_blocked",
            GameOver::TopRow => "top_row",
            GameOver::TopRowTimeout { .. } => "top_row_timeout",
        }
    }

    /// The JSON form.
    pub fn to_json(&self) -> Value {
        match self {
            GameOver::TopRowTimeout { frames } => {
                json!({"rule": "top_row_timeout", "frames": frames})
            }
            other => json!({"rule": other.word()}),
        }
    }
}

impl Goal {
    /// The JSON form.
    pub fn to_json(&self) -> Value {
        match self {
            Goal::ClearAll => json!({"rule": "clear_all"}),
            Goal::Chain { min } => json!({"rule": "chain", "min": min}),
            Goal::Score { min } => json!({"rule": "score", "min": min}),
            Goal::Rows { min } => json!({"rule": "rows", "min": min}),
        }
    }
}

impl ScoreRule {
    /// The JSON form, every table written.
    pub fn to_json(&self) -> Value {
        match self {
            ScoreRule::Puyo(t) => json!({
                "rule": "puyo",
                "chain_bonus": t.chain_bonus,
                "color_bonus": t.color_bonus,
                "group_bonus": t.group_bonus,
            }),
            ScoreRule::Rows(points) => json!({"rule": "rows", "points": points}),
        }
    }
}

impl Timing {
    /// Every timing value as `(member name, frames)`, in the format's order.
    pub fn members(&self) -> [(&'static str, u32); 7] {
        [
            ("gravity", self.gravity),
            ("soft_drop", self.soft_drop),
            ("lock", self.lock),
            ("spawn", self.spawn),
            ("clear", self.clear),
            ("fall", self.fall),
            ("land", self.land),
        ]
    }

    fn member_mut(&mut self, name: &str) -> Option<&mut u32> {
        match name {
            "gravity" => Some(&mut self.gravity),
            "soft_drop" => Some(&mut self.soft_drop),
            "lock" => Some(&mut self.lock),
            "spawn" => Some(&mut self.spawn),
            "clear" => Some(&mut self.clear),
            "fall" => Some(&mut self.fall),
            "land" => Some(&mut self.land),
            _ => None,
        }
    }
}

impl Tumo {
    /// The number of labels (positive cells) of each state: labels run from 1 to this.
    pub fn label_count(&self) -> usize {
        self.states
            .first()
            .map_or(0, |s| s.cells.iter().filter(|&&v| v > 0).count())
    }

    /// The side of its state grids.
    pub fn side(&self) -> usize {
        self.states.first().map_or(0, |s| s.side)
    }
}

/// A pivot coordinate as JSON: a whole number when it is one, else the half.
fn half_json(v: f64) -> Value {
    if v.fract() == 0.0 {
        json!(v as i64)
    } else {
        json!(v)
    }
}

/// A Lost/Won/Running status as its saved word.
fn status_word(s: &Status) -> &'static str {
    s.word()
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
    pub fn from_json(doc: &Value) -> Result<Self, Vec<crate::problem::Problem>> {
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
    pub fn from_json_editable(doc: &Value) -> Result<Self, Vec<crate::problem::Problem>> {
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
                w.push(Problem::warning(
                    root.key("tumos").index(i),
                    format!(
                        "tumo {} is never played: the sequence does not list it",
                        quote(&t.name)
                    ),
                ));
            }
            if t.states.len() == 1 && matches!(&t.kicks, Kicks::Table(_)) {
                w.push(Problem::warning(
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
            w.push(Problem::warning(
                root.key("fall").index(i),
                "the \"rows\" fall law drops blocks by the rows cleared below them, but no clear rule clears rows (add {\"rule\": \"rows\"})",
            ));
        }
        if self.script.is_none() && self.clear.is_empty() {
            w.push(Problem::warning(
                root.key("clear"),
                "no clear rule and no script: blocks never vanish",
            ));
        }
        if self.hidden_rows >= self.field.height && !self.clear.is_empty() {
            w.push(Problem::warning(
                root.key("hidden_rows"),
                "every row is hidden, so no block ever takes part in a clear",
            ));
        }
        if self.tumos.is_empty() && self.active.is_none() {
            w.push(Problem::warning(
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

    /// The level as a document that [`FallingLevel::from_json`] reads back to an equal level,
    /// unknown members included. Every member is written, defaults too; `score`, `goal`,
    /// `active`, `script` and `state` only when set.
    pub fn to_json(&self) -> Value {
        let mut level = self.clone();
        level.complete_legend();
        let name_of = |id: BlockId| json!(level.block_name(id));
        let tumo_name = |i: usize| json!(level.tumos.get(i).map_or("?", |t| t.name.as_str()));
        let mut o = Map::new();
        o.insert("kind".into(), json!("falling"));
        o.insert("name".into(), json!(level.name));
        o.insert("width".into(), json!(level.field.width));
        o.insert("height".into(), json!(level.field.height));
        let blocks: Vec<Value> = level
            .blocks
            .iter()
            .map(|b| {
                let mut m = Map::new();
                m.insert("name".into(), json!(b.name));
                m.insert("color".into(), json!(b.color));
                m.insert("form".into(), json!(b.form));
                m.insert("role".into(), json!(b.role.word()));
                for (k, v) in &b.extra {
                    m.insert(k.clone(), v.clone());
                }
                Value::Object(m)
            })
            .collect();
        o.insert("blocks".into(), Value::Array(blocks));
        let tumos: Vec<Value> = level
            .tumos
            .iter()
            .map(|t| {
                let mut m = Map::new();
                m.insert("name".into(), json!(t.name));
                let states: Vec<Value> = t
                    .states
                    .iter()
                    .map(|s| {
                        Value::Array(s.cells.chunks(s.side.max(1)).map(|r| json!(r)).collect())
                    })
                    .collect();
                m.insert("states".into(), Value::Array(states));
                m.insert("block".into(), name_of(t.block));
                m.insert(
                    "labels".into(),
                    Value::Array(t.labels.iter().map(|&b| name_of(b)).collect()),
                );
                m.insert(
                    "pivot".into(),
                    json!([half_json(t.pivot[0]), half_json(t.pivot[1])]),
                );
                m.insert("kicks".into(), kicks_to_json(&t.kicks));
                if let Some(s) = t.spawn {
                    m.insert("spawn".into(), json!(s));
                }
                for (k, v) in &t.extra {
                    m.insert(k.clone(), v.clone());
                }
                Value::Object(m)
            })
            .collect();
        o.insert("tumos".into(), Value::Array(tumos));
        o.insert("quick_turn".into(), json!(level.quick_turn));
        o.insert("hard_drop".into(), json!(level.hard_drop));
        o.insert("shadow".into(), json!(level.shadow));
        let kept = &level.rule_extra;
        let keys = occurrence_keys(level.clear.iter().map(ClearRule::word));
        let clear = level.clear.iter().zip(&keys).map(|(r, k)| {
            let mut v = r.to_json();
            merge_kept(&mut v, kept.clear.get(k));
            v
        });
        o.insert("clear".into(), Value::Array(clear.collect()));
        o.insert(
            "fall".into(),
            Value::Array(level.fall.iter().map(|f| json!(f.word())).collect()),
        );
        o.insert("hidden_rows".into(), json!(level.hidden_rows));
        let keys = occurrence_keys(level.game_over.iter().map(GameOver::word));
        let game_over = level.game_over.iter().zip(&keys).map(|(g, k)| {
            let mut v = g.to_json();
            merge_kept(&mut v, kept.game_over.get(k));
            v
        });
        o.insert("game_over".into(), Value::Array(game_over.collect()));
        let mut sequence = json!({
            "order": level.sequence.order.word(),
            "tumos": level.sequence.tumos.iter().map(|&i| tumo_name(i)).collect::<Vec<_>>(),
        });
        merge_kept(&mut sequence, Some(&kept.sequence));
        o.insert("sequence".into(), sequence);
        let mut timing = Map::new();
        for (k, v) in level.timing.members() {
            timing.insert(k.into(), json!(v));
        }
        let mut timing = Value::Object(timing);
        merge_kept(&mut timing, Some(&kept.timing));
        o.insert("timing".into(), timing);
        if let Some(s) = &level.score {
            let mut v = s.to_json();
            merge_kept(&mut v, Some(&kept.score));
            o.insert("score".into(), v);
        }
        if let Some(g) = &level.goal {
            let mut v = g.to_json();
            merge_kept(&mut v, Some(&kept.goal));
            o.insert("goal".into(), v);
        }
        o.insert("preview".into(), json!(level.preview));
        if let Some(a) = &level.active {
            o.insert(
                "active".into(),
                json!({
                    "tumo": tumo_name(a.tumo),
                    "state": a.state,
                    "x": a.x,
                    "y": a.y,
                    "labels": a.labels.iter().map(|&b| name_of(b)).collect::<Vec<_>>(),
                }),
            );
        }
        if let Some(s) = &level.script {
            o.insert("script".into(), json!(s));
        }
        if let Some(s) = &level.state {
            o.insert("state".into(), level.state_to_json(s));
        }
        for (k, v) in &level.extra {
            o.insert(k.clone(), v.clone());
        }
        let mut legend = Map::new();
        for (c, id) in &level.legend {
            legend.insert(c.to_string(), name_of(*id));
        }
        o.insert("legend".into(), Value::Object(legend));
        o.insert(
            "field".into(),
            Value::Array(level.field_rows().into_iter().map(Value::String).collect()),
        );
        Value::Object(o)
    }

    fn state_to_json(&self, s: &SavedState) -> Value {
        let name_of = |id: BlockId| json!(self.block_name(id));
        let tumo_name = |i: usize| json!(self.tumos.get(i).map_or("?", |t| t.name.as_str()));
        let mut o = Map::new();
        o.insert("frames".into(), json!(s.frames));
        o.insert("score".into(), json!(s.score));
        o.insert("rows".into(), json!(s.rows));
        o.insert("chain".into(), json!(s.chain));
        o.insert("max_chain".into(), json!(s.max_chain));
        o.insert("status".into(), json!(status_word(&s.status)));
        if let Status::Lost { reason } = &s.status {
            o.insert("reason".into(), json!(reason));
        }
        if let Some((seed, word)) = s.rng {
            let hex: String = seed.iter().map(|b| format!("{b:02x}")).collect();
            o.insert("rng".into(), json!(format!("{hex}:{word}")));
        }
        o.insert(
            "queue".into(),
            Value::Array(
                s.queue
                    .iter()
                    .map(|q| {
                        json!({
                            "tumo": tumo_name(q.tumo),
                            "labels": q.labels.iter().map(|&b| name_of(b)).collect::<Vec<_>>(),
                        })
                    })
                    .collect(),
            ),
        );
        o.insert(
            "bag".into(),
            Value::Array(s.bag.iter().map(|&i| tumo_name(i)).collect()),
        );
        o.insert("fixed_next".into(), json!(s.fixed_next));
        o.insert("gravity_timer".into(), json!(s.gravity_timer));
        o.insert("lock_timer".into(), json!(s.lock_timer));
        o.insert("since_place".into(), json!(s.since_place));
        o.insert("soft_drop_timer".into(), json!(s.soft_drop_timer));
        o.insert("top_row_frames".into(), json!(s.top_row_frames));
        o.insert(
            "last_failed_turn".into(),
            match s.last_failed_turn {
                Some((t, f)) => json!({"turn": crate::input::Input::Turn(t).word(), "frame": f}),
                None => Value::Null,
            },
        );
        o.insert("placed_since_clear".into(), json!(s.placed_since_clear));
        o.insert("quiet".into(), json!(s.quiet));
        o.insert(
            "moving".into(),
            Value::Array(s.moving.iter().map(|&(x, y, n)| json!([x, y, n])).collect()),
        );
        if let Some(p) = &s.pending {
            o.insert(
                "pending".into(),
                json!({
                    "frames": p.frames,
                    "delete": p.delete.iter().map(|&(x, y)| json!([x, y])).collect::<Vec<_>>(),
                    "down": p.down.iter().map(|&(x, y, n)| json!([x, y, n])).collect::<Vec<_>>(),
                }),
            );
        }
        Value::Object(o)
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

fn kicks_to_json(k: &Kicks) -> Value {
    match k {
        Kicks::None => json!("none"),
        Kicks::Table(m) => {
            let mut o = Map::new();
            for ((i, j), tests) in m {
                o.insert(
                    format!("{i}>{j}"),
                    Value::Array(tests.iter().map(|&(x, y)| json!([x, y])).collect()),
                );
            }
            Value::Object(o)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Reading.

/// The problems found so far, and the unknown members of rule objects kept so far.
#[derive(Default)]
struct Ctx {
    p: Vec<Problem>,
    kept: RuleExtras,
    /// Repair mode: unknown field characters and short rows are kept, not errors.
    editable: bool,
    /// Repair mode: the unknown field characters found, in order.
    unknown: Vec<char>,
}

/// `"a", "b", "c"` for a message, at most 12 names.
fn name_list<S: AsRef<str>>(names: &[S]) -> String {
    let mut s: Vec<String> = names.iter().take(12).map(|n| quote(n.as_ref())).collect();
    if names.len() > 12 {
        s.push(format!("… ({} in all)", names.len()));
    }
    if s.is_empty() {
        "none".into()
    } else {
        s.join(", ")
    }
}

impl Ctx {
    fn err(&mut self, path: JsonPath, msg: impl Into<String>) {
        self.p.push(Problem::error(path, msg));
    }

    fn warn(&mut self, path: JsonPath, msg: impl Into<String>) {
        self.p.push(Problem::warning(path, msg));
    }

    fn object<'a>(
        &mut self,
        v: &'a Value,
        path: &JsonPath,
        what: &str,
    ) -> Option<&'a Map<String, Value>> {
        match v {
            Value::Object(o) => Some(o),
            other => {
                self.err(
                    path.clone(),
                    format!("{what} must be an object, found {}", type_name(other)),
                );
                None
            }
        }
    }

    /// An object of at most `max` members (larger ones are refused before being read, so a
    /// file cannot make a problem per member by the million).
    fn object_at_most<'a>(
        &mut self,
        v: &'a Value,
        path: &JsonPath,
        what: &str,
        max: usize,
    ) -> Option<&'a Map<String, Value>> {
        let o = self.object(v, path, what)?;
        if o.len() > max {
            self.err(
                path.clone(),
                format!("{what} has {} members (at most {max})", o.len()),
            );
            return None;
        }
        Some(o)
    }

    /// An object of the format (a rule, `timing`, `state`, …): at most [`MAX_MEMBERS`]
    /// members.
    fn small_object<'a>(
        &mut self,
        v: &'a Value,
        path: &JsonPath,
        what: &str,
    ) -> Option<&'a Map<String, Value>> {
        self.object_at_most(v, path, what, MAX_MEMBERS)
    }

    /// An array of at most `max` entries (longer ones are refused before being read).
    fn array<'a>(
        &mut self,
        v: &'a Value,
        path: &JsonPath,
        what: &str,
        max: usize,
    ) -> Option<&'a Vec<Value>> {
        match v {
            Value::Array(a) if a.len() > max => {
                self.err(
                    path.clone(),
                    format!("{what} has {} entries (at most {max})", a.len()),
                );
                None
            }
            Value::Array(a) => Some(a),
            other => {
                self.err(
                    path.clone(),
                    format!("{what} must be an array, found {}", type_name(other)),
                );
                None
            }
        }
    }

    fn string<'a>(&mut self, v: &'a Value, path: &JsonPath, what: &str) -> Option<&'a str> {
        match v {
            Value::String(s) => Some(s),
            other => {
                self.err(
                    path.clone(),
                    format!("{what} must be a string, found {}", type_name(other)),
                );
                None
            }
        }
    }

    fn boolean(&mut self, v: &Value, path: &JsonPath, what: &str) -> Option<bool> {
        match v {
            Value::Bool(b) => Some(*b),
            other => {
                self.err(
                    path.clone(),
                    format!("{what} must be true or false, found {}", type_name(other)),
                );
                None
            }
        }
    }

    /// A whole number from `lo` to `hi`.
    fn num(&mut self, v: &Value, path: &JsonPath, what: &str, lo: i64, hi: i64) -> Option<i64> {
        match int(v) {
            Some(n) if (lo..=hi).contains(&n) => Some(n),
            Some(n) => {
                self.err(
                    path.clone(),
                    format!("{what} must be from {lo} to {hi}, found {n}"),
                );
                None
            }
            None => {
                let found = match v {
                    Value::Number(n) => format!("{n}"),
                    other => type_name(other).to_string(),
                };
                self.err(
                    path.clone(),
                    format!("{what} must be a whole number, found {found}"),
                );
                None
            }
        }
    }

    /// An optional member: `None` when missing, else the checked value.
    fn opt_num(
        &mut self,
        o: &Map<String, Value>,
        key: &str,
        path: &JsonPath,
        lo: i64,
        hi: i64,
    ) -> Option<Option<i64>> {
        match o.get(key) {
            None => Some(None),
            Some(v) => self
                .num(v, &path.key(key), &format!("\"{key}\""), lo, hi)
                .map(Some),
        }
    }

    /// Warns about members of `o` not in `known`; they are ignored.
    fn unknown_members(&mut self, o: &Map<String, Value>, path: &JsonPath, known: &[&str]) {
        for k in o.keys() {
            if !known.contains(&k.as_str()) {
                self.warn(
                    path.key(k),
                    format!(
                        "unknown member {} is ignored (known: {})",
                        quote(k),
                        known.join(", ")
                    ),
                );
            }
        }
    }

    /// Warns about members of `o` not in `known` and returns them: they have no effect but
    /// are kept and saved ([`RuleExtras`]).
    fn kept_members(
        &mut self,
        o: &Map<String, Value>,
        path: &JsonPath,
        known: &[&str],
    ) -> Map<String, Value> {
        let mut kept = Map::new();
        for (k, v) in o {
            if !known.contains(&k.as_str()) {
                self.warn(
                    path.key(k),
                    format!(
                        "unknown member {} has no effect; it is kept and saved (known: {})",
                        quote(k),
                        known.join(", ")
                    ),
                );
                kept.insert(k.clone(), v.clone());
            }
        }
        kept
    }

    /// A `"rule"` word among `known`.
    fn rule_word<'a>(
        &mut self,
        o: &'a Map<String, Value>,
        path: &JsonPath,
        what: &str,
        known: &[&str],
    ) -> Option<&'a str> {
        let Some(v) = o.get("rule") else {
            self.err(
                path.clone(),
                format!(
                    "{what} needs a \"rule\" member (one of {})",
                    known.join(", ")
                ),
            );
            return None;
        };
        let s = self.string(v, &path.key("rule"), "\"rule\"")?;
        if known.contains(&s) {
            Some(s)
        } else {
            self.err(
                path.key("rule"),
                format!(
                    "unknown {what} {}{} (known: {})",
                    quote(s),
                    did_you_mean(nearest(s, known.iter().copied())),
                    known.join(", ")
                ),
            );
            None
        }
    }

    /// A block name that must resolve.
    fn block_ref(
        &mut self,
        v: &Value,
        path: &JsonPath,
        what: &str,
        blocks: &[String],
    ) -> Option<BlockId> {
        let s = self.string(v, path, what)?;
        match blocks.iter().position(|b| b == s) {
            Some(i) => BlockId::try_from(i + 1).ok(),
            None => {
                self.err(
                    path.clone(),
                    format!(
                        "unknown block kind {}{} (known: {})",
                        quote(s),
                        did_you_mean(nearest(s, blocks.iter().map(String::as_str))),
                        name_list(blocks)
                    ),
                );
                None
            }
        }
    }

    /// A tumo name that must resolve.
    fn tumo_ref(
        &mut self,
        v: &Value,
        path: &JsonPath,
        what: &str,
        tumos: &[String],
    ) -> Option<usize> {
        let s = self.string(v, path, what)?;
        match tumos.iter().position(|t| t == s) {
            Some(i) => Some(i),
            None => {
                self.err(
                    path.clone(),
                    format!(
                        "unknown tumo {}{} (known: {})",
                        quote(s),
                        did_you_mean(nearest(s, tumos.iter().map(String::as_str))),
                        name_list(tumos)
                    ),
                );
                None
            }
        }
    }

    /// A list of block names.
    fn block_list(
        &mut self,
        v: &Value,
        path: &JsonPath,
        what: &str,
        blocks: &[String],
        max: usize,
    ) -> Option<Vec<BlockId>> {
        let a = self.array(v, path, what, max)?;
        let mut out = Vec::with_capacity(a.len());
        let mut ok = true;
        for (i, e) in a.iter().enumerate() {
            match self.block_ref(e, &path.index(i), "a block kind", blocks) {
                Some(b) => out.push(b),
                None => ok = false,
            }
        }
        ok.then_some(out)
    }
}

/// What the tumos need from the rest of the level while being read.
struct TumoCx<'a> {
    blocks: &'a [String],
    normal: Vec<BlockId>,
}

fn parse_level(doc: &Value, cx: &mut Ctx) -> Option<FallingLevel> {
    let root = JsonPath::root();
    let Value::Object(o) = doc else {
        cx.err(
            root,
            format!("a level must be a JSON object, found {}", type_name(doc)),
        );
        return None;
    };
    match o.get("kind") {
        Some(Value::String(k)) if k.eq_ignore_ascii_case("falling") => {}
        Some(Value::String(k)) => cx.err(
            root.key("kind"),
            format!(
                "{} is not a falling level (\"kind\" must be \"falling\")",
                quote(k)
            ),
        ),
        Some(v) => cx.err(
            root.key("kind"),
            format!("\"kind\" must be a string, found {}", type_name(v)),
        ),
        None => cx.err(
            root.clone(),
            "\"kind\" is missing (a falling level needs \"kind\": \"falling\")",
        ),
    }
    let name = crate::level_json::name(o, &mut cx.p);
    let width = crate::level_json::side(o, "width", (MAX_SIDE, MAX_CELLS), &mut cx.p);
    let height = crate::level_json::side(o, "height", (MAX_SIDE, MAX_CELLS), &mut cx.p);
    let size = match (width, height) {
        (Some(w), Some(h)) if w * h > MAX_CELLS => {
            cx.err(
                root.key("height"),
                format!("the field is too large ({w} × {h} cells; at most {MAX_CELLS})"),
            );
            None
        }
        (Some(w), Some(h)) => Some((w, h)),
        _ => None,
    };

    // Names resolve against the raw lists, so that one bad block or tumo does not make every
    // reference to the others an error too.
    let raw_names = |key: &str, max: usize| -> Vec<String> {
        o.get(key)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .take(max)
                    .map(|b| {
                        b.get("name")
                            .and_then(Value::as_str)
                            .unwrap_or("")
                            .to_string()
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    let block_names = raw_names("blocks", MAX_BLOCK_KINDS);
    let normal: Vec<BlockId> = o
        .get("blocks")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .take(MAX_BLOCK_KINDS)
                .enumerate()
                .filter(|(_, b)| b.get("role").is_none_or(|r| r == "normal"))
                .filter_map(|(i, _)| BlockId::try_from(i + 1).ok())
                .collect()
        })
        .unwrap_or_default();
    let blocks = parse_blocks(o.get("blocks"), cx);
    let tcx = TumoCx {
        blocks: &block_names,
        normal,
    };
    let tumos = parse_tumos(o.get("tumos"), &tcx, cx);
    let tumo_names = raw_names("tumos", MAX_TUMOS);

    let flag = |cx: &mut Ctx, key: &str| match o.get(key) {
        None => Some(false),
        Some(v) => cx.boolean(v, &root.key(key), &format!("\"{key}\"")),
    };
    let quick_turn = flag(cx, "quick_turn");
    let hard_drop = flag(cx, "hard_drop");
    let shadow = flag(cx, "shadow");
    let clear = parse_clear(o.get("clear"), cx);
    let fall = parse_fall(o.get("fall"), cx);
    let hidden_rows = match o.get("hidden_rows") {
        None => Some(0),
        Some(v) => cx
            .num(
                v,
                &root.key("hidden_rows"),
                "\"hidden_rows\"",
                0,
                height.unwrap_or(MAX_SIDE) as i64,
            )
            .map(|n| n as usize),
    };
    let game_over = parse_game_over(o.get("game_over"), cx);
    let sequence = parse_sequence(o.get("sequence"), &tumo_names, cx);
    let timing = parse_timing(o.get("timing"), cx);
    let score = match o.get("score") {
        None => Some(None),
        Some(v) => parse_score(v, cx).map(Some),
    };
    let goal = match o.get("goal") {
        None => Some(None),
        Some(v) => parse_goal(v, cx).map(Some),
    };
    let preview = match o.get("preview") {
        None => Some(DEFAULT_PREVIEW),
        Some(v) => cx
            .num(
                v,
                &root.key("preview"),
                "\"preview\"",
                0,
                MAX_PREVIEW as i64,
            )
            .map(|n| n as usize),
    };
    let legend = parse_legend(o.get("legend"), &block_names, cx);
    let field = match (size, &legend) {
        (Some((w, h)), Some(legend)) => parse_field(o.get("field"), w, h, legend, cx),
        _ => None,
    };
    let script = match o.get("script") {
        None | Some(Value::Null) => Some(None),
        Some(Value::String(s)) if s.len() > MAX_SCRIPT_BYTES => {
            cx.err(
                root.key("script"),
                format!(
                    "the script is too long ({} bytes; at most {MAX_SCRIPT_BYTES})",
                    s.len()
                ),
            );
            None
        }
        Some(v) => cx
            .string(v, &root.key("script"), "\"script\"")
            .map(|s| Some(s.to_string())),
    };

    // Checks that need several members.
    if let (Some(tumos), Some((w, h))) = (&tumos, size) {
        for (i, t) in tumos.iter().enumerate() {
            check_spawn(t, i, w, h, cx);
        }
    }
    let active = match (o.get("active"), &tumos, &field) {
        (None | Some(Value::Null), _, _) => Some(None),
        (Some(v), Some(tumos), Some(field)) => {
            parse_active(v, tumos, &tumo_names, &block_names, field, cx).map(Some)
        }
        _ => None,
    };
    let state = match (o.get("state"), &tumos, &field, &sequence) {
        (None | Some(Value::Null), _, _, _) => Some(None),
        (Some(v), Some(tumos), Some(field), Some(seq)) => {
            parse_state(v, tumos, &tumo_names, &block_names, field, seq, cx).map(Some)
        }
        _ => None,
    };

    let extra: Map<String, Value> = o
        .iter()
        .filter(|(k, _)| !KNOWN_KEYS.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    Some(FallingLevel {
        name,
        blocks: blocks?,
        tumos: tumos?,
        quick_turn: quick_turn?,
        hard_drop: hard_drop?,
        shadow: shadow?,
        clear: clear?,
        fall: fall?,
        hidden_rows: hidden_rows?,
        game_over: game_over?,
        sequence: sequence?,
        timing: timing?,
        score: score?,
        goal: goal?,
        field: field?,
        legend: legend?,
        active: active?,
        script: script?,
        preview: preview?,
        state: state?,
        extra,
        rule_extra: std::mem::take(&mut cx.kept),
        unknown: std::mem::take(&mut cx.unknown),
    })
}

fn parse_blocks(v: Option<&Value>, cx: &mut Ctx) -> Option<Vec<BlockKind>> {
    let path = JsonPath::root().key("blocks");
    let Some(v) = v else {
        cx.err(path, "\"blocks\" is missing (the block kinds, e.g. [{\"name\": \"red\", \"color\": [255, 0, 0]}])");
        return None;
    };
    let a = cx.array(v, &path, "\"blocks\"", MAX_BLOCK_KINDS)?;
    if a.is_empty() {
        cx.err(path, "\"blocks\" must list at least one block kind");
        return None;
    }
    let mut out = Vec::with_capacity(a.len());
    let mut ok = true;
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for (i, b) in a.iter().enumerate() {
        let bp = path.index(i);
        match parse_block(b, &bp, cx) {
            Some(k) => {
                if let Some(first) = seen.get(&k.name) {
                    cx.err(
                        bp.key("name"),
                        format!(
                            "block kind {} is already defined by blocks[{first}]",
                            quote(&k.name)
                        ),
                    );
                    ok = false;
                } else {
                    seen.insert(k.name.clone(), i);
                }
                out.push(k);
            }
            None => ok = false,
        }
    }
    ok.then_some(out)
}

fn parse_block(v: &Value, path: &JsonPath, cx: &mut Ctx) -> Option<BlockKind> {
    let o = cx.object(v, path, "a block kind")?;
    let name = match o.get("name") {
        None => {
            cx.err(path.clone(), "a block kind needs a \"name\"");
            None
        }
        Some(v) => match cx.string(v, &path.key("name"), "\"name\"") {
            Some("") => {
                cx.err(path.key("name"), "a block kind's name must not be empty");
                None
            }
            s => s.map(str::to_string),
        },
    };
    let color = match o.get("color") {
        None => Some([128, 128, 128]),
        Some(v) => {
            let cp = path.key("color");
            match v {
                Value::Array(a) if a.len() == 3 => {
                    let mut c = [0u8; 3];
                    let mut ok = true;
                    for (k, e) in a.iter().enumerate() {
                        match cx.num(e, &cp.index(k), "a colour component", 0, 255) {
                            Some(n) => c[k] = n as u8,
                            None => ok = false,
                        }
                    }
                    ok.then_some(c)
                }
                other => {
                    cx.err(
                        cp,
                        format!(
                            "\"color\" must be [r, g, b] with each 0–255, found {}",
                            match other {
                                Value::Array(a) => format!("{} entries", a.len()),
                                o => type_name(o).to_string(),
                            }
                        ),
                    );
                    None
                }
            }
        }
    };
    let form = match o.get("form") {
        None => Some("square".to_string()),
        Some(v) => match cx.string(v, &path.key("form"), "\"form\"") {
            Some(s) => {
                if !FORMS.contains(&s) {
                    cx.warn(
                        path.key("form"),
                        format!(
                            "unknown form {} is drawn as a square (known: {})",
                            quote(s),
                            FORMS.join(", ")
                        ),
                    );
                }
                Some(s.to_string())
            }
            None => None,
        },
    };
    let role = match o.get("role") {
        None => Some(Role::Normal),
        Some(v) => match cx.string(v, &path.key("role"), "\"role\"") {
            Some(s) => match Role::ALL.iter().find(|r| r.word() == s) {
                Some(r) => Some(*r),
                None => {
                    cx.err(
                        path.key("role"),
                        format!("unknown role {} (known: normal, garbage, iron)", quote(s)),
                    );
                    None
                }
            },
            None => None,
        },
    };
    let extra = o
        .iter()
        .filter(|(k, _)| !BLOCK_KEYS.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    Some(BlockKind {
        name: name?,
        color: color?,
        form: form?,
        role: role?,
        extra,
    })
}

fn parse_tumos(v: Option<&Value>, tcx: &TumoCx<'_>, cx: &mut Ctx) -> Option<Vec<Tumo>> {
    let path = JsonPath::root().key("tumos");
    let Some(v) = v else {
        return Some(Vec::new());
    };
    let a = cx.array(v, &path, "\"tumos\"", MAX_TUMOS)?;
    let mut out = Vec::with_capacity(a.len());
    let mut ok = true;
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for (i, t) in a.iter().enumerate() {
        let tp = path.index(i);
        match parse_tumo(t, i, &tp, tcx, cx) {
            Some(t) => {
                if let Some(first) = seen.get(&t.name) {
                    cx.err(
                        tp.key("name"),
                        format!(
                            "tumo {} is already defined by tumos[{first}]",
                            quote(&t.name)
                        ),
                    );
                    ok = false;
                } else {
                    seen.insert(t.name.clone(), i);
                }
                out.push(t);
            }
            None => ok = false,
        }
    }
    ok.then_some(out)
}

/// One rotation state: a square grid of `side` (the first state's side, or `None` for the
/// first state itself).
fn parse_state_grid(
    v: &Value,
    path: &JsonPath,
    side: Option<usize>,
    index: usize,
    cx: &mut Ctx,
) -> Option<ShapeGrid> {
    let rows = cx.array(v, path, &format!("state {index}"), MAX_GRID)?;
    let n = rows.len();
    if n == 0 {
        cx.err(path.clone(), format!("state {index} has no rows"));
        return None;
    }
    if let Some(s) = side
        && s != n
    {
        cx.err(
            path.clone(),
            format!("state {index} is {n} × {n} but state 0 is {s} × {s}; every state must have the same side"),
        );
        return None;
    }
    let mut grid = ShapeGrid::new(n);
    let mut ok = true;
    for (y, row) in rows.iter().enumerate() {
        let rp = path.index(y);
        let Some(r) = cx.array(row, &rp, &format!("row {y} of state {index}"), MAX_GRID) else {
            ok = false;
            continue;
        };
        if r.len() != n {
            cx.err(
                rp,
                format!(
                    "row {y} of state {index} has {} cells but the state has {n} rows; a state must be a square grid",
                    r.len()
                ),
            );
            ok = false;
            continue;
        }
        for (x, c) in r.iter().enumerate() {
            match int(c) {
                Some(k) if k == -1 || (0..=MAX_LABEL as i64).contains(&k) => {
                    grid.cells[y * n + x] = k as i8;
                }
                _ => {
                    let found = match c {
                        Value::Number(num) => format!("{num}"),
                        other => type_name(other).to_string(),
                    };
                    cx.err(
                        rp.index(x),
                        format!("a state cell must be 0 (empty), -1 (a block of the tumo's kind) or a label 1–{MAX_LABEL}, found {found}"),
                    );
                    ok = false;
                }
            }
        }
    }
    ok.then_some(grid)
}

fn parse_tumo(
    v: &Value,
    index: usize,
    path: &JsonPath,
    tcx: &TumoCx<'_>,
    cx: &mut Ctx,
) -> Option<Tumo> {
    let o = cx.object(v, path, "a tumo")?;
    let name = match o.get("name") {
        None => {
            cx.err(path.clone(), "a tumo needs a \"name\"");
            None
        }
        Some(v) => match cx.string(v, &path.key("name"), "\"name\"") {
            Some("") => {
                cx.err(path.key("name"), "a tumo's name must not be empty");
                None
            }
            s => s.map(str::to_string),
        },
    };
    // States.
    let sp = path.key("states");
    let states = match o.get("states") {
        None => {
            cx.err(
                path.clone(),
                "a tumo needs \"states\": its rotation states, each a square grid",
            );
            None
        }
        Some(v) => match cx.array(v, &sp, "\"states\"", MAX_STATES) {
            Some(a) if a.is_empty() => {
                cx.err(sp.clone(), "a tumo needs 1 to 8 rotation states, found 0");
                None
            }
            Some(a) => {
                let mut states = Vec::with_capacity(a.len());
                let mut side = None;
                let mut ok = true;
                for (s, sv) in a.iter().enumerate() {
                    match parse_state_grid(sv, &sp.index(s), side, s, cx) {
                        Some(g) => {
                            side = side.or(Some(g.side));
                            states.push(g);
                        }
                        None => {
                            ok = false;
                            if side.is_none() {
                                // Without state 0's side the others cannot be compared.
                                break;
                            }
                        }
                    }
                }
                if ok && check_labels(&states, &sp, cx) {
                    Some(states)
                } else {
                    None
                }
            }
            None => None,
        },
    };
    let side = states.as_ref().and_then(|s| s.first()).map(|s| s.side);
    let has_own = states
        .as_ref()
        .is_some_and(|s| s.iter().any(|g| g.cells.contains(&-1)));
    let label_count = states
        .as_ref()
        .and_then(|s| s.first())
        .map_or(0, |g| g.cells.iter().filter(|&&v| v > 0).count());
    // The kind of the -1 cells (spec A1: default tumo index + 1).
    let block = match o.get("block") {
        Some(v) => cx.block_ref(v, &path.key("block"), "\"block\"", tcx.blocks),
        None => {
            let default = BlockId::try_from(index + 1)
                .ok()
                .filter(|&b| (b as usize) <= tcx.blocks.len());
            match default {
                Some(b) => Some(b),
                None if has_own => {
                    cx.err(
                        path.clone(),
                        format!(
                            "\"block\" is missing: the tumo has -1 cells and there is no block kind {} to default to (spec A1: tumo i has kind i + 1)",
                            index + 1
                        ),
                    );
                    None
                }
                None => Some(1),
            }
        }
    };
    let labels = match o.get("labels") {
        Some(v) => cx.block_list(v, &path.key("labels"), "\"labels\"", tcx.blocks, 256),
        None => Some(tcx.normal.clone()),
    };
    if let Some(l) = &labels
        && l.is_empty()
        && label_count > 0
    {
        cx.err(
            if o.contains_key("labels") {
                path.key("labels")
            } else {
                path.clone()
            },
            "the tumo has labelled blocks but no block kind to draw them from (\"labels\" is empty, or no kind has the role \"normal\")",
        );
    }
    let pivot = match (o.get("pivot"), side) {
        (None, Some(s)) => Some([(s as f64 - 1.0) / 2.0; 2]),
        (None, None) => None,
        (Some(v), side) => {
            let pp = path.key("pivot");
            match v {
                Value::Array(a) if a.len() == 2 => {
                    let mut p = [0.0; 2];
                    let mut ok = true;
                    for (k, e) in a.iter().enumerate() {
                        let hi = side.map_or(MAX_GRID as f64, |s| s as f64 - 0.5);
                        match e.as_f64() {
                            Some(f) if (f * 2.0).fract() == 0.0 && (-0.5..=hi).contains(&f) => {
                                p[k] = f;
                            }
                            Some(f) if (f * 2.0).fract() == 0.0 => {
                                cx.err(
                                    pp.index(k),
                                    format!("a pivot coordinate must be from -0.5 to {hi} (inside the grid or on its edge), found {f}"),
                                );
                                ok = false;
                            }
                            _ => {
                                cx.err(
                                    pp.index(k),
                                    format!(
                                        "a pivot coordinate must be a whole number or a half (e.g. 1 or 1.5), found {}",
                                        match e {
                                            Value::Number(n) => format!("{n}"),
                                            o => type_name(o).to_string(),
                                        }
                                    ),
                                );
                                ok = false;
                            }
                        }
                    }
                    ok.then_some(p)
                }
                _ => {
                    cx.err(
                        pp,
                        "\"pivot\" must be [x, y] in grid coordinates, halves allowed",
                    );
                    None
                }
            }
        }
    };
    let states_len = states.as_ref().map(Vec::len);
    let kicks = match o.get("kicks") {
        None => Some(Kicks::None),
        Some(v) => parse_kicks(v, &path.key("kicks"), states_len, cx),
    };
    let spawn = match o.get("spawn") {
        None | Some(Value::Null) => Some(None),
        Some(v) => parse_xy(v, &path.key("spawn"), "\"spawn\"", cx).map(Some),
    };
    let extra = o
        .iter()
        .filter(|(k, _)| !TUMO_KEYS.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    Some(Tumo {
        name: name?,
        states: states?,
        block: block?,
        labels: labels?,
        pivot: pivot?,
        kicks: kicks?,
        spawn: spawn?,
        extra,
    })
}

/// Labels keep their identity across states (spec A1): each state has the same labels, each
/// once, numbered 1 to n; every state has a block. Returns false after reporting a problem.
fn check_labels(states: &[ShapeGrid], path: &JsonPath, cx: &mut Ctx) -> bool {
    let mut ok = true;
    let mut sets = Vec::with_capacity(states.len());
    for (s, g) in states.iter().enumerate() {
        let mut set = BTreeSet::new();
        for &v in &g.cells {
            if v > 0 && !set.insert(v) {
                cx.err(
                    path.index(s),
                    format!("label {v} appears more than once in state {s}; a label is one block"),
                );
                ok = false;
            }
        }
        if g.cells.iter().all(|&v| v == 0) {
            cx.err(path.index(s), format!("state {s} has no block"));
            ok = false;
        }
        sets.push(set);
    }
    if !ok {
        return false;
    }
    let first = &sets[0];
    if let Some(missing) = (1..=first.len() as i8).find(|l| !first.contains(l)) {
        let max = first.iter().max().copied().unwrap_or(0);
        cx.err(
            path.index(0),
            format!("labels must be numbered 1 to n without gaps: label {max} is used but label {missing} is not"),
        );
        return false;
    }
    let show = |s: &BTreeSet<i8>| {
        let v: Vec<String> = s.iter().map(i8::to_string).collect();
        if v.is_empty() {
            "none".to_string()
        } else {
            v.join(", ")
        }
    };
    let own0 = states[0].cells.iter().filter(|&&v| v == -1).count();
    for (s, set) in sets.iter().enumerate().skip(1) {
        if set != first {
            cx.err(
                path.index(s),
                format!(
                    "state {s} has labels {} but state 0 has {}; a labelled block keeps its label in every state (spec A1)",
                    show(set),
                    show(first)
                ),
            );
            ok = false;
        }
        let own = states[s].cells.iter().filter(|&&v| v == -1).count();
        if own != own0 {
            cx.warn(
                path.index(s),
                format!("state {s} has {own} cells of -1 but state 0 has {own0}: the tumo changes its number of blocks when it turns"),
            );
        }
    }
    ok
}

fn parse_xy(v: &Value, path: &JsonPath, what: &str, cx: &mut Ctx) -> Option<[i32; 2]> {
    match v {
        Value::Array(a) if a.len() == 2 => {
            let x = cx.num(&a[0], &path.index(0), "x", -MAX_OFFSET, MAX_OFFSET);
            let y = cx.num(&a[1], &path.index(1), "y", -MAX_OFFSET, MAX_OFFSET);
            Some([x? as i32, y? as i32])
        }
        _ => {
            cx.err(
                path.clone(),
                format!("{what} must be [x, y], two whole numbers"),
            );
            None
        }
    }
}

fn parse_kicks(v: &Value, path: &JsonPath, states: Option<usize>, cx: &mut Ctx) -> Option<Kicks> {
    match v {
        Value::String(s) if s == "none" => Some(Kicks::None),
        Value::String(s) => {
            cx.err(
                path.clone(),
                format!(
                    "\"kicks\" must be \"none\" or an object from \"i>j\" to offset lists, found {}",
                    quote(s)
                ),
            );
            None
        }
        Value::Object(o) if o.len() > MAX_KICK_PAIRS => {
            cx.err(
                path.clone(),
                format!(
                    "\"kicks\" has {} entries (at most {MAX_KICK_PAIRS})",
                    o.len()
                ),
            );
            None
        }
        Value::Object(o) => {
            let mut table = BTreeMap::new();
            let mut ok = true;
            let n = states.unwrap_or(MAX_STATES);
            for (k, list) in o {
                let kp = path.key(k);
                let pair = k.split_once('>').and_then(|(i, j)| {
                    let digits = |s: &str| {
                        !s.is_empty() && s.len() <= 2 && s.bytes().all(|b| b.is_ascii_digit())
                    };
                    (digits(i) && digits(j))
                        .then(|| Some((i.parse::<usize>().ok()?, j.parse::<usize>().ok()?)))
                        .flatten()
                });
                let Some((i, j)) = pair else {
                    cx.err(
                        kp,
                        format!("a kick key must be \"i>j\" (state i to state j, e.g. \"0>1\"), found {}", quote(k)),
                    );
                    ok = false;
                    continue;
                };
                if i >= n || j >= n {
                    cx.err(
                        kp,
                        format!(
                            "kick key {} names a state the tumo does not have (states 0 to {})",
                            quote(k),
                            n.saturating_sub(1)
                        ),
                    );
                    ok = false;
                    continue;
                }
                if i == j {
                    cx.err(
                        kp,
                        format!("kick key {} turns a state into itself", quote(k)),
                    );
                    ok = false;
                    continue;
                }
                let Some(a) = cx.array(
                    list,
                    &kp,
                    &format!("kick list {}", quote(k)),
                    MAX_KICK_TESTS,
                ) else {
                    ok = false;
                    continue;
                };
                let mut tests = Vec::with_capacity(a.len());
                for (t, e) in a.iter().enumerate() {
                    match parse_xy(e, &kp.index(t), "a kick offset", cx) {
                        Some([dx, dy]) => tests.push((dx, dy)),
                        None => ok = false,
                    }
                }
                table.insert((i, j), tests);
            }
            ok.then_some(Kicks::Table(table))
        }
        other => {
            cx.err(
                path.clone(),
                format!(
                    "\"kicks\" must be \"none\" or an object from \"i>j\" to offset lists, found {}",
                    type_name(other)
                ),
            );
            None
        }
    }
}

/// The spawn position must put every block of state 0 inside the field.
fn check_spawn(t: &Tumo, index: usize, width: usize, height: usize, cx: &mut Ctx) {
    let path = JsonPath::root().key("tumos").index(index);
    let (x, y) = match t.spawn {
        Some([x, y]) => (x, y),
        None => default_spawn(t, width),
    };
    let Some(s0) = t.states.first() else { return };
    let outside = s0.blocks().any(|(bx, by, _)| {
        let (fx, fy) = (x as i64 + bx as i64, y as i64 + by as i64);
        fx < 0 || fy < 0 || fx >= width as i64 || fy >= height as i64
    });
    if outside {
        if t.spawn.is_some() {
            cx.err(
                path.key("spawn"),
                format!(
                    "at spawn [{x}, {y}] some blocks of tumo {} are outside the {width} × {height} field",
                    quote(&t.name)
                ),
            );
        } else {
            cx.err(
                path,
                format!(
                    "tumo {} does not fit in the {width} × {height} field when centred in the top row",
                    quote(&t.name)
                ),
            );
        }
    }
}

fn parse_clear(v: Option<&Value>, cx: &mut Ctx) -> Option<Vec<ClearRule>> {
    let path = JsonPath::root().key("clear");
    let Some(v) = v else {
        return Some(Vec::new());
    };
    let a = cx.array(v, &path, "\"clear\"", 64)?;
    let mut out = Vec::with_capacity(a.len());
    let mut ok = true;
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, r) in a.iter().enumerate() {
        let rp = path.index(i);
        let rule = (|| {
            let o = cx.small_object(r, &rp, "a clear rule")?;
            let word = cx.rule_word(
                o,
                &rp,
                "clear rule",
                &["connected", "rows", "squares", "lines"],
            )?;
            let known: &[&str] = match word {
                "connected" => &["rule", "min"],
                "rows" => &["rule"],
                "squares" => &["rule", "size"],
                _ => &["rule", "min", "diagonal"],
            };
            let kept = cx.kept_members(o, &rp, known);
            let n = seen.entry(word).or_insert(0);
            if !kept.is_empty() {
                cx.kept.clear.insert((word.to_string(), *n), kept);
            }
            *n += 1;
            match word {
                "connected" => {
                    let min = cx.opt_num(o, "min", &rp, 1, MAX_CELLS as i64)?.unwrap_or(4);
                    Some(ClearRule::Connected { min: min as usize })
                }
                "rows" => Some(ClearRule::Rows),
                "squares" => {
                    let size = cx.opt_num(o, "size", &rp, 1, MAX_SIDE as i64)?.unwrap_or(2);
                    Some(ClearRule::Squares {
                        size: size as usize,
                    })
                }
                _ => {
                    let min = cx.opt_num(o, "min", &rp, 1, MAX_SIDE as i64);
                    let diagonal = match o.get("diagonal") {
                        None => Some(false),
                        Some(v) => cx.boolean(v, &rp.key("diagonal"), "\"diagonal\""),
                    };
                    Some(ClearRule::Lines {
                        min: min?.unwrap_or(3) as usize,
                        diagonal: diagonal?,
                    })
                }
            }
        })();
        match rule {
            Some(r) => out.push(r),
            None => ok = false,
        }
    }
    ok.then_some(out)
}

fn parse_fall(v: Option<&Value>, cx: &mut Ctx) -> Option<Vec<FallLaw>> {
    let path = JsonPath::root().key("fall");
    let Some(v) = v else {
        return Some(Vec::new());
    };
    let a = cx.array(v, &path, "\"fall\"", 64)?;
    let mut out = Vec::with_capacity(a.len());
    let mut ok = true;
    for (i, e) in a.iter().enumerate() {
        let ep = path.index(i);
        let Some(s) = cx.string(e, &ep, "a fall law") else {
            ok = false;
            continue;
        };
        match FallLaw::ALL.iter().find(|f| f.word() == s) {
            Some(f) => out.push(*f),
            None => {
                cx.err(
                    ep,
                    format!(
                        "unknown fall law {}{} (known: gravity, rows, joined)",
                        quote(s),
                        did_you_mean(nearest(s, FallLaw::ALL.iter().map(|f| f.word())))
                    ),
                );
                ok = false;
            }
        }
    }
    ok.then_some(out)
}

fn parse_game_over(v: Option<&Value>, cx: &mut Ctx) -> Option<Vec<GameOver>> {
    let path = JsonPath::root().key("game_over");
    let Some(v) = v else {
        return Some(vec![GameOver::SpawnBlocked]);
    };
    let a = cx.array(v, &path, "\"game_over\"", 16)?;
    let mut out = Vec::with_capacity(a.len());
    let mut ok = true;
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, r) in a.iter().enumerate() {
        let rp = path.index(i);
        let rule = (|| {
            let o = cx.small_object(r, &rp, "a game-over condition")?;
            let word = cx.rule_word(
                o,
                &rp,
                "game-over condition",
                &["spawn_blocked", "top_row", "top_row_timeout"],
            )?;
            let known: &[&str] = match word {
                "top_row_timeout" => &["rule", "frames"],
                _ => &["rule"],
            };
            let kept = cx.kept_members(o, &rp, known);
            let n = seen.entry(word).or_insert(0);
            if !kept.is_empty() {
                cx.kept.game_over.insert((word.to_string(), *n), kept);
            }
            *n += 1;
            match word {
                "spawn_blocked" => Some(GameOver::SpawnBlocked),
                "top_row" => Some(GameOver::TopRow),
                _ => match cx.opt_num(o, "frames", &rp, 1, MAX_TIMING as i64)? {
                    Some(f) => Some(GameOver::TopRowTimeout { frames: f as u32 }),
                    None => {
                        cx.err(
                                rp.clone(),
                                "\"top_row_timeout\" needs \"frames\": how long a block may stay in the top row",
                            );
                        None
                    }
                },
            }
        })();
        match rule {
            Some(r) => out.push(r),
            None => ok = false,
        }
    }
    ok.then_some(out)
}

fn parse_sequence(v: Option<&Value>, tumos: &[String], cx: &mut Ctx) -> Option<Sequence> {
    let path = JsonPath::root().key("sequence");
    let Some(v) = v else {
        return Some(Sequence {
            order: Order::Random,
            tumos: (0..tumos.len()).collect(),
        });
    };
    let o = cx.small_object(v, &path, "\"sequence\"")?;
    cx.kept.sequence = cx.kept_members(o, &path, &["order", "tumos"]);
    let order = match o.get("order") {
        None => Some(Order::Random),
        Some(v) => match cx.string(v, &path.key("order"), "\"order\"") {
            Some(s) => match Order::ALL.iter().find(|x| x.word() == s) {
                Some(x) => Some(*x),
                None => {
                    cx.err(
                        path.key("order"),
                        format!("unknown order {} (known: random, bag, fixed)", quote(s)),
                    );
                    None
                }
            },
            None => None,
        },
    };
    let list = match o.get("tumos") {
        None => Some((0..tumos.len()).collect()),
        Some(v) => {
            let lp = path.key("tumos");
            match cx.array(v, &lp, "\"tumos\"", MAX_SEQUENCE) {
                Some(a) => {
                    let mut out = Vec::with_capacity(a.len());
                    let mut ok = true;
                    for (i, e) in a.iter().enumerate() {
                        match cx.tumo_ref(e, &lp.index(i), "a tumo name", tumos) {
                            Some(t) => out.push(t),
                            None => ok = false,
                        }
                    }
                    ok.then_some(out)
                }
                None => None,
            }
        }
    };
    Some(Sequence {
        order: order?,
        tumos: list?,
    })
}

fn parse_timing(v: Option<&Value>, cx: &mut Ctx) -> Option<Timing> {
    let path = JsonPath::root().key("timing");
    let mut t = Timing::default();
    let Some(v) = v else { return Some(t) };
    let o = cx.small_object(v, &path, "\"timing\"")?;
    let mut ok = true;
    for (k, v) in o {
        match t.member_mut(k) {
            Some(slot) => {
                match cx.num(v, &path.key(k), &format!("\"{k}\""), 0, MAX_TIMING as i64) {
                    Some(n) => *slot = n as u32,
                    None => ok = false,
                }
            }
            None => {
                cx.warn(
                    path.key(k),
                    format!(
                        "unknown member {} has no effect; it is kept and saved (known: gravity, soft_drop, lock, spawn, clear, fall, land)",
                        quote(k)
                    ),
                );
                cx.kept.timing.insert(k.clone(), v.clone());
            }
        }
    }
    ok.then_some(t)
}

fn parse_table(
    o: &Map<String, Value>,
    key: &str,
    path: &JsonPath,
    default: &[u64],
    cx: &mut Ctx,
) -> Option<Vec<u64>> {
    let Some(v) = o.get(key) else {
        return Some(default.to_vec());
    };
    let tp = path.key(key);
    let a = cx.array(v, &tp, &format!("\"{key}\""), MAX_TABLE)?;
    if a.is_empty() {
        cx.err(tp, format!("\"{key}\" must have at least one entry"));
        return None;
    }
    let mut out = Vec::with_capacity(a.len());
    let mut ok = true;
    for (i, e) in a.iter().enumerate() {
        match cx.num(e, &tp.index(i), "a table entry", 0, MAX_BONUS as i64) {
            Some(n) => out.push(n as u64),
            None => ok = false,
        }
    }
    ok.then_some(out)
}

fn parse_score(v: &Value, cx: &mut Ctx) -> Option<ScoreRule> {
    let path = JsonPath::root().key("score");
    let o = cx.small_object(v, &path, "\"score\"")?;
    let word = cx.rule_word(o, &path, "score rule", &["puyo", "rows"])?;
    if word == "puyo" {
        cx.kept.score = cx.kept_members(
            o,
            &path,
            &["rule", "chain_bonus", "color_bonus", "group_bonus"],
        );
        let d = PuyoScore::default();
        let chain = parse_table(o, "chain_bonus", &path, &d.chain_bonus, cx);
        let color = parse_table(o, "color_bonus", &path, &d.color_bonus, cx);
        let group = parse_table(o, "group_bonus", &path, &d.group_bonus, cx);
        Some(ScoreRule::Puyo(PuyoScore {
            chain_bonus: chain?,
            color_bonus: color?,
            group_bonus: group?,
        }))
    } else {
        cx.kept.score = cx.kept_members(o, &path, &["rule", "points"]);
        parse_table(o, "points", &path, &DEFAULT_ROW_POINTS, cx).map(ScoreRule::Rows)
    }
}

fn parse_goal(v: &Value, cx: &mut Ctx) -> Option<Goal> {
    let path = JsonPath::root().key("goal");
    let o = cx.small_object(v, &path, "\"goal\"")?;
    let word = cx.rule_word(o, &path, "goal", &["clear_all", "chain", "score", "rows"])?;
    if word == "clear_all" {
        cx.kept.goal = cx.kept_members(o, &path, &["rule"]);
        return Some(Goal::ClearAll);
    }
    cx.kept.goal = cx.kept_members(o, &path, &["rule", "min"]);
    let hi = match word {
        "score" => MAX_COUNT as i64,
        _ => u32::MAX as i64,
    };
    let Some(min) = cx.opt_num(o, "min", &path, 1, hi)? else {
        cx.err(path, format!("the goal {} needs \"min\"", quote(word)));
        return None;
    };
    Some(match word {
        "chain" => Goal::Chain { min: min as u32 },
        "score" => Goal::Score { min: min as u64 },
        _ => Goal::Rows { min: min as u32 },
    })
}

fn parse_legend(
    v: Option<&Value>,
    blocks: &[String],
    cx: &mut Ctx,
) -> Option<Vec<(char, BlockId)>> {
    let path = JsonPath::root().key("legend");
    let Some(v) = v else {
        return Some(Vec::new());
    };
    let o = cx.object_at_most(v, &path, "\"legend\"", MAX_LEGEND)?;
    let mut out = Vec::with_capacity(o.len());
    let mut ok = true;
    for (k, v) in o {
        let kp = path.key(k);
        let mut chars = k.chars();
        let c = match (chars.next(), chars.next()) {
            (Some('.'), None) => {
                cx.err(
                    kp,
                    "\".\" is the empty cell and cannot stand for a block kind",
                );
                ok = false;
                continue;
            }
            (Some(c), None) => c,
            _ => {
                cx.err(
                    kp,
                    format!("a legend key must be one character, found {}", quote(k)),
                );
                ok = false;
                continue;
            }
        };
        match cx.block_ref(v, &kp, "a legend value", blocks) {
            Some(b) => out.push((c, b)),
            None => ok = false,
        }
    }
    ok.then_some(out)
}

fn parse_field(
    v: Option<&Value>,
    width: usize,
    height: usize,
    legend: &[(char, BlockId)],
    cx: &mut Ctx,
) -> Option<Field> {
    let path = JsonPath::root().key("field");
    let mut field = Field::new(width, height);
    let Some(v) = v else { return Some(field) };
    let rows = cx.array(v, &path, "\"field\"", MAX_SIDE)?;
    if rows.len() != height {
        cx.err(
            path,
            format!(
                "\"field\" has {} rows but \"height\" is {height}",
                rows.len()
            ),
        );
        return None;
    }
    let map: BTreeMap<char, BlockId> = legend.iter().copied().collect();
    if cx.editable {
        return editable_field(rows, width, &map, cx);
    }
    let mut ok = true;
    let mut errors = 0usize;
    for (y, row) in rows.iter().enumerate() {
        let rp = path.index(y);
        let Some(s) = cx.string(row, &rp, &format!("row {y} of \"field\"")) else {
            ok = false;
            continue;
        };
        let n = s.chars().count();
        if n != width {
            // Located at the row's first missing cell (short row) or first extra one.
            cx.p.push(
                Problem::error(
                    rp,
                    format!("row {y} of \"field\" has {n} cells but \"width\" is {width}"),
                )
                .at_cell(crate::grid::Pos::new(n.min(width.saturating_sub(1)), y)),
            );
            ok = false;
            continue;
        }
        for (x, c) in s.chars().enumerate() {
            if c == '.' {
                continue;
            }
            match map.get(&c) {
                Some(&b) => field.cells[y * width + x] = b,
                None => {
                    ok = false;
                    errors += 1;
                    if errors <= 100 {
                        cx.p.push(
                            Problem::error(
                                rp.clone(),
                                format!(
                                    "row {y}, column {x}: {} is not in \"legend\" (known: {})",
                                    quote(&c.to_string()),
                                    if map.is_empty() {
                                        "only \".\" for empty; add a \"legend\"".to_string()
                                    } else {
                                        name_list(
                                            &map.keys().map(|c| c.to_string()).collect::<Vec<_>>(),
                                        )
                                    }
                                ),
                            )
                            .at_cell(crate::grid::Pos::new(x, y)),
                        );
                    }
                }
            }
        }
    }
    if errors > 100 {
        cx.err(
            path,
            format!("{errors} field cells are not in \"legend\"; the first 100 are shown"),
        );
    }
    ok.then_some(field)
}

/// The field in repair mode ([`FallingLevel::from_json_editable`]): as wide as the widest of
/// `width` and the rows, short rows padded with [`MISSING_CELL`], characters that are not
/// legend keys kept as unknown cells. `None` (with an error) for a row that is not a string,
/// a field over [`MAX_CELLS`] or too many distinct unknown characters.
fn editable_field(
    rows: &[Value],
    width: usize,
    map: &BTreeMap<char, BlockId>,
    cx: &mut Ctx,
) -> Option<Field> {
    let path = JsonPath::root().key("field");
    let mut strs = Vec::with_capacity(rows.len());
    for (y, row) in rows.iter().enumerate() {
        strs.push(cx.string(row, &path.index(y), &format!("row {y} of \"field\""))?);
    }
    let longest = strs.iter().map(|s| s.chars().count()).max().unwrap_or(0);
    let w = width.max(longest);
    if w > MAX_SIDE || w * strs.len() > MAX_CELLS {
        cx.err(
            path,
            format!("a \"field\" row has {longest} cells; at most {MAX_SIDE} and {MAX_CELLS} cells in all"),
        );
        return None;
    }
    let most = (MISSING_CELL - UNKNOWN_FIRST) as usize;
    let mut field = Field::new(w, strs.len());
    field.cells.fill(MISSING_CELL);
    for (y, s) in strs.iter().enumerate() {
        for (x, c) in s.chars().enumerate() {
            let id = match (c, map.get(&c)) {
                ('.', _) => EMPTY,
                (_, Some(&b)) => b,
                _ => match cx.unknown.iter().position(|&u| u == c) {
                    Some(i) => UNKNOWN_FIRST + i as BlockId,
                    None if cx.unknown.len() < most => {
                        cx.unknown.push(c);
                        UNKNOWN_FIRST + (cx.unknown.len() - 1) as BlockId
                    }
                    None => {
                        cx.err(
                            path.index(y),
                            format!("more than {most} different characters of \"field\" are not in \"legend\""),
                        );
                        return None;
                    }
                },
            };
            field.cells[y * w + x] = id;
        }
    }
    Some(field)
}

/// The field cells the blocks of `state` of `t` cover with the grid's top-left cell at
/// `(x, y)`, with their grid values.
fn covered(t: &Tumo, state: usize, x: i32, y: i32) -> Vec<(i64, i64, i8)> {
    t.states
        .get(state)
        .map(|g| {
            g.blocks()
                .map(|(bx, by, v)| (x as i64 + bx as i64, y as i64 + by as i64, v))
                .collect()
        })
        .unwrap_or_default()
}

fn parse_active(
    v: &Value,
    tumos: &[Tumo],
    tumo_names: &[String],
    blocks: &[String],
    field: &Field,
    cx: &mut Ctx,
) -> Option<ActiveTumo> {
    let path = JsonPath::root().key("active");
    let o = cx.small_object(v, &path, "\"active\"")?;
    cx.unknown_members(o, &path, &["tumo", "state", "x", "y", "labels"]);
    let Some(tv) = o.get("tumo") else {
        cx.err(
            path,
            "\"active\" needs \"tumo\": the name of the tumo in play",
        );
        return None;
    };
    let tumo = cx.tumo_ref(tv, &path.key("tumo"), "\"tumo\"", tumo_names)?;
    let t = &tumos[tumo];
    let state = cx
        .opt_num(o, "state", &path, 0, t.states.len() as i64 - 1)?
        .unwrap_or(0) as usize;
    let (sx, sy) = match t.spawn {
        Some([x, y]) => (x, y),
        None => default_spawn(t, field.width),
    };
    let x = cx.opt_num(o, "x", &path, -MAX_OFFSET, MAX_OFFSET);
    let y = cx.opt_num(o, "y", &path, -MAX_OFFSET, MAX_OFFSET);
    let (x, y) = (x?.map_or(sx, |n| n as i32), y?.map_or(sy, |n| n as i32));
    let n = t.label_count();
    let labels = match o.get("labels") {
        None if n == 0 => Vec::new(),
        None => {
            cx.err(
                path,
                format!("\"active\" needs \"labels\": the block kinds of the tumo's {n} labelled blocks, label 1 first"),
            );
            return None;
        }
        Some(v) => {
            let l = cx.block_list(v, &path.key("labels"), "\"labels\"", blocks, MAX_LABEL)?;
            if l.len() != n {
                cx.err(
                    path.key("labels"),
                    format!(
                        "tumo {} has {n} labelled blocks but \"labels\" names {}",
                        quote(&t.name),
                        l.len()
                    ),
                );
                return None;
            }
            l
        }
    };
    let buffer = BUFFER_ROWS as i64;
    for (fx, fy, _) in covered(t, state, x, y) {
        if fx < 0 || fy < -buffer || fx >= field.width as i64 || fy >= field.height as i64 {
            cx.err(
                path,
                format!("the active tumo at [{x}, {y}] in state {state} has a block outside the field and its buffer zone, at [{fx}, {fy}]"),
            );
            return None;
        }
        if field.get(fx, fy) != EMPTY {
            cx.err(
                path,
                format!("the active tumo at [{x}, {y}] in state {state} overlaps the field block at [{fx}, {fy}]"),
            );
            return None;
        }
    }
    Some(ActiveTumo {
        tumo,
        state,
        x,
        y,
        labels,
    })
}

/// Reads `"<64 hex digits>:<decimal word position>"`, as the boulder kind writes its RNG.
fn parse_rng(s: &str) -> Option<([u8; 32], u128)> {
    let (hex, word) = s.split_once(':')?;
    if hex.len() != 64 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let mut seed = [0u8; 32];
    for (i, b) in seed.iter_mut().enumerate() {
        *b = u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    let canonical = word == "0" || (!word.starts_with('0') && !word.is_empty());
    if !canonical || !word.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n = word.parse::<u128>().ok()?;
    (n < (1u128 << 68)).then_some((seed, n))
}

/// Reads an `[x, y]` or `[x, y, n]` list of field cells.
fn parse_cells(
    v: &Value,
    path: &JsonPath,
    what: &str,
    with_count: bool,
    field: &Field,
    cx: &mut Ctx,
) -> Option<Vec<(usize, usize, u32)>> {
    let a = cx.array(v, path, what, field.cells.len())?;
    let mut out = Vec::with_capacity(a.len());
    let mut ok = true;
    let len = if with_count { 3 } else { 2 };
    for (i, e) in a.iter().enumerate() {
        let ep = path.index(i);
        match e {
            Value::Array(c) if c.len() == len => {
                let x = cx.num(&c[0], &ep.index(0), "x", 0, field.width as i64 - 1);
                let y = cx.num(&c[1], &ep.index(1), "y", 0, field.height as i64 - 1);
                let n = if with_count {
                    cx.num(
                        &c[2],
                        &ep.index(2),
                        "a frame or cell count",
                        1,
                        u32::MAX as i64,
                    )
                } else {
                    Some(1)
                };
                match (x, y, n) {
                    (Some(x), Some(y), Some(n)) => out.push((x as usize, y as usize, n as u32)),
                    _ => ok = false,
                }
            }
            _ => {
                cx.err(
                    ep,
                    if with_count {
                        "an entry must be [x, y, n]"
                    } else {
                        "an entry must be [x, y]"
                    },
                );
                ok = false;
            }
        }
    }
    ok.then_some(out)
}

fn parse_state(
    v: &Value,
    tumos: &[Tumo],
    tumo_names: &[String],
    blocks: &[String],
    field: &Field,
    seq: &Sequence,
    cx: &mut Ctx,
) -> Option<SavedState> {
    let path = JsonPath::root().key("state");
    let o = cx.small_object(v, &path, "\"state\"")?;
    let known = [
        "frames",
        "score",
        "rows",
        "chain",
        "max_chain",
        "status",
        "reason",
        "rng",
        "queue",
        "bag",
        "fixed_next",
        "gravity_timer",
        "lock_timer",
        "since_place",
        "soft_drop_timer",
        "top_row_frames",
        "last_failed_turn",
        "placed_since_clear",
        "quiet",
        "moving",
        "pending",
    ];
    for k in o.keys() {
        if !known.contains(&k.as_str()) {
            cx.err(
                path.key(k),
                format!(
                    "unknown member {} of \"state\" (known: {})",
                    quote(k),
                    known.join(", ")
                ),
            );
        }
    }
    let mut s = SavedState::default();
    let mut ok = true;
    let big = MAX_COUNT as i64;
    let small = u32::MAX as i64;
    macro_rules! number {
        ($key:literal, $field:ident, $hi:expr, $ty:ty) => {
            match cx.opt_num(o, $key, &path, 0, $hi) {
                Some(Some(n)) => s.$field = n as $ty,
                Some(None) => {}
                None => ok = false,
            }
        };
    }
    number!("frames", frames, big, u64);
    number!("score", score, big, u64);
    number!("rows", rows, big, u64);
    number!("chain", chain, small, u32);
    number!("max_chain", max_chain, small, u32);
    number!("fixed_next", fixed_next, seq.tumos.len() as i64, usize);
    number!("gravity_timer", gravity_timer, small, u32);
    number!("lock_timer", lock_timer, small, u32);
    number!("since_place", since_place, small, u32);
    number!("soft_drop_timer", soft_drop_timer, small, u32);
    number!("top_row_frames", top_row_frames, small, u32);
    for (key, slot) in [
        ("placed_since_clear", &mut s.placed_since_clear),
        ("quiet", &mut s.quiet),
    ] {
        if let Some(v) = o.get(key) {
            match cx.boolean(v, &path.key(key), &format!("\"{key}\"")) {
                Some(b) => *slot = b,
                None => ok = false,
            }
        }
    }
    let reason = match o.get("reason") {
        None => None,
        Some(v) => match cx.string(v, &path.key("reason"), "\"reason\"") {
            Some(r) => Some(r.to_string()),
            None => {
                ok = false;
                None
            }
        },
    };
    match o.get("status") {
        None => {}
        Some(v) => match cx.string(v, &path.key("status"), "\"status\"") {
            Some("running") => {}
            Some("won") => s.status = Status::won(1),
            Some("lost") => {
                s.status = Status::Lost {
                    reason: reason.clone().unwrap_or_else(|| "lost".into()),
                }
            }
            Some(other) => {
                cx.err(
                    path.key("status"),
                    format!(
                        "\"status\" must be \"running\", \"won\" or \"lost\", found {}",
                        quote(other)
                    ),
                );
                ok = false;
            }
            None => ok = false,
        },
    }
    if reason.is_some() && !matches!(s.status, Status::Lost { .. }) {
        cx.err(
            path.key("reason"),
            "\"reason\" is only for a \"lost\" status",
        );
        ok = false;
    }
    if let Some(v) = o.get("rng") {
        match v.as_str().and_then(parse_rng) {
            Some(r) => s.rng = Some(r),
            None => {
                cx.err(
                    path.key("rng"),
                    "\"rng\" must be \"<64 hex digits>:<word position>\" as written by `tilesmith run --out`",
                );
                ok = false;
            }
        }
    }
    if let Some(v) = o.get("queue") {
        let qp = path.key("queue");
        match cx.array(v, &qp, "\"queue\"", MAX_PREVIEW + 1) {
            Some(a) => {
                for (i, e) in a.iter().enumerate() {
                    let ep = qp.index(i);
                    let q = (|| {
                        let eo = cx.small_object(e, &ep, "a queued tumo")?;
                        let Some(tv) = eo.get("tumo") else {
                            cx.err(ep.clone(), "a queued tumo needs \"tumo\"");
                            return None;
                        };
                        let t = cx.tumo_ref(tv, &ep.key("tumo"), "\"tumo\"", tumo_names)?;
                        let n = tumos[t].label_count();
                        let labels = match eo.get("labels") {
                            None => Vec::new(),
                            Some(l) => cx.block_list(
                                l,
                                &ep.key("labels"),
                                "\"labels\"",
                                blocks,
                                MAX_LABEL,
                            )?,
                        };
                        if labels.len() != n {
                            cx.err(
                                ep.key("labels"),
                                format!(
                                    "tumo {} has {n} labelled blocks but \"labels\" names {}",
                                    quote(&tumos[t].name),
                                    labels.len()
                                ),
                            );
                            return None;
                        }
                        Some(QueuedTumo { tumo: t, labels })
                    })();
                    match q {
                        Some(q) => s.queue.push(q),
                        None => ok = false,
                    }
                }
            }
            None => ok = false,
        }
    }
    if let Some(v) = o.get("bag") {
        let bp = path.key("bag");
        match cx.array(v, &bp, "\"bag\"", MAX_SEQUENCE) {
            Some(a) => {
                for (i, e) in a.iter().enumerate() {
                    match cx.tumo_ref(e, &bp.index(i), "a tumo name", tumo_names) {
                        Some(t) => s.bag.push(t),
                        None => ok = false,
                    }
                }
            }
            None => ok = false,
        }
    }
    match o.get("last_failed_turn") {
        None | Some(Value::Null) => {}
        Some(v) => {
            let tp = path.key("last_failed_turn");
            let turn = (|| {
                let to = cx.small_object(v, &tp, "\"last_failed_turn\"")?;
                let word = to.get("turn").and_then(Value::as_str);
                let turn = match word {
                    Some("CW") => Turn::Cw,
                    Some("CCW") => Turn::Ccw,
                    Some("180") => Turn::Half,
                    _ => {
                        cx.err(
                            tp.key("turn"),
                            "\"turn\" must be \"CW\", \"CCW\" or \"180\"",
                        );
                        return None;
                    }
                };
                let frame = match to.get("frame") {
                    Some(f) => cx.num(f, &tp.key("frame"), "\"frame\"", 0, big)?,
                    None => {
                        cx.err(tp.clone(), "\"last_failed_turn\" needs \"frame\"");
                        return None;
                    }
                };
                Some((turn, frame as u64))
            })();
            match turn {
                Some(t) => s.last_failed_turn = Some(t),
                None => ok = false,
            }
        }
    }
    if let Some(v) = o.get("moving") {
        let mp = path.key("moving");
        match parse_cells(v, &mp, "\"moving\"", true, field, cx) {
            Some(cells) => {
                for (i, &(x, y, _)) in cells.iter().enumerate() {
                    if field.get(x as i64, y as i64) == EMPTY {
                        cx.err(
                            mp.index(i),
                            format!("cell [{x}, {y}] is empty, so nothing there can be in motion"),
                        );
                        ok = false;
                    }
                }
                s.moving = cells;
            }
            None => ok = false,
        }
    }
    if let Some(v) = o.get("pending") {
        let pp = path.key("pending");
        let pending = (|| {
            let po = cx.small_object(v, &pp, "\"pending\"")?;
            cx.unknown_members(po, &pp, &["frames", "delete", "down"]);
            let frames = match po.get("frames") {
                Some(f) => cx.num(f, &pp.key("frames"), "\"frames\"", 1, MAX_TIMING as i64)?,
                None => {
                    cx.err(pp.clone(), "\"pending\" needs \"frames\"");
                    return None;
                }
            };
            let delete = match po.get("delete") {
                Some(d) => parse_cells(d, &pp.key("delete"), "\"delete\"", false, field, cx)?,
                None => Vec::new(),
            };
            let down = match po.get("down") {
                Some(d) => parse_cells(d, &pp.key("down"), "\"down\"", true, field, cx)?,
                None => Vec::new(),
            };
            Some(SavedPending {
                frames: frames as u32,
                delete: delete.into_iter().map(|(x, y, _)| (x, y)).collect(),
                down,
            })
        })();
        match pending {
            Some(p) => s.pending = Some(p),
            None => ok = false,
        }
    }
    ok.then_some(s)
}

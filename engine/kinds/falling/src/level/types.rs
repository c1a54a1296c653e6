//! The parts of a falling-block level ([`FallingLevel`](super::FallingLevel)): block kinds,
//! tumos, rules, sequence, timing, score, goal, the active tumo and the saved state of a game
//! in play, and the unknown members kept with them.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use crate::field::BlockId;
use crate::shape::{Kicks, ShapeGrid, Turn};
use tilesmith_core::game::Status;

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
    /// The rotation states, 1 to [`MAX_STATES`](super::MAX_STATES), all of the same side.
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
/// by [`FallingLevel::to_json`](super::FallingLevel::to_json), as
/// [`FallingLevel::extra`](super::FallingLevel::extra) keeps the top level's. A known member of
/// the object as written wins over a kept member of the same name (a `"min"` kept on a `rows`
/// rule is not written once the rule becomes `connected`).
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
pub(super) fn merge_kept(o: &mut Value, kept: Option<&Map<String, Value>>) {
    if let (Value::Object(o), Some(kept)) = (o, kept) {
        for (k, v) in kept {
            o.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
}

/// For each entry of a rule list, its key in [`RuleExtras`]: the rule word and how many
/// entries before it have the same word.
pub(super) fn occurrence_keys<'a>(words: impl Iterator<Item = &'a str>) -> Vec<(String, usize)> {
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
pub(super) fn edit_with_extras<R>(
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
    /// The tumo in the hold slot (`hold`, a level with `"hold": true`), with its labels'
    /// kinds; `None` when the slot is empty.
    pub hold: Option<QueuedTumo>,
    /// True when the active tumo came from a hold, so `H` does nothing until it is placed.
    pub hold_used: bool,
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
            hold: None,
            hold_used: false,
            quiet: true,
            moving: Vec::new(),
            pending: None,
        }
    }
}

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

    pub(super) fn member_mut(&mut self, name: &str) -> Option<&mut u32> {
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

//! The falling-block level format (`"kind": "falling"`): blocks, tumos with rotation
//! states, clear rules, fall laws, game over, sequence, timing, score, goal, the starting
//! field, an optional active tumo and an optional FPGDL script. See
//! `docs/falling-level-format.md` and `schemas/level.schema.json`.
//!
//! Coordinates: `x` is the column from the left, `y` the row from the **top** everywhere in
//! this format (spec falling-blocks §10 A4), kick offsets included.

use serde_json::{Map, Value};

use super::field::{BlockId, Field};
use super::shape::{Kicks, ShapeGrid};

/// Largest field side in cells.
pub const MAX_SIDE: usize = 256;
/// Largest number of field cells.
pub const MAX_CELLS: usize = 65_536;
/// Largest number of block kinds (ids 1–99; spec A2 reserves 100 and above).
pub const MAX_BLOCK_KINDS: usize = 99;
/// Largest number of tumos.
pub const MAX_TUMOS: usize = 64;
/// Largest number of rotation states of one tumo.
pub const MAX_STATES: usize = 8;
/// Largest side of a rotation-state grid.
pub const MAX_GRID: usize = 8;

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
    /// Top-level members the loader does not know, written back unchanged.
    pub extra: Map<String, Value>,
}

impl FallingLevel {
    /// Reads a level document of kind `falling`.
    ///
    /// # Errors
    /// Every problem found, each with its JSON path.
    pub fn from_json(doc: &Value) -> Result<Self, Vec<crate::problem::Problem>> {
        let _ = doc;
        todo!("core helper")
    }

    /// The level as a document that [`FallingLevel::from_json`] reads back to an equal level,
    /// unknown members included.
    pub fn to_json(&self) -> Value {
        todo!("core helper")
    }

    /// The id of the block kind called `name`.
    pub fn block_named(&self, name: &str) -> Option<BlockId> {
        self.blocks
            .iter()
            .position(|b| b.name == name)
            .and_then(|i| BlockId::try_from(i + 1).ok())
    }
}

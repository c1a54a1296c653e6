//! The Tilesmith engine: rule-driven tile puzzle games behind one small trait.
//!
//! Design decision: every game kind is one module implementing [`game::GameKind`] (check a
//! level document, start a game) and [`game::Game`] (step, undo/redo, describe cells), so the
//! CLI and the editor never `match` on the kind. A step is deterministic: all randomness comes
//! from one seeded ChaCha8 RNG per game, kept in the tick history. Undo stores backward diffs of
//! the cells a step changed, never a snapshot of the map. Observation of a step goes through a
//! generic [`observe::TickObserver`] whose no-op default costs nothing in plain play.
//!
//! Coordinates everywhere: `x` = column from the left, `y` = row from the top, 0-based.
//! This crate depends on no GUI and no CLI crate.

#![warn(missing_docs)]

pub mod campaign;
pub mod document;
pub mod intended;
pub mod kind;
pub mod replay;

// The shared layer (crate `tilesmith-core`), at the paths it had when it was part of this
// crate.
pub use tilesmith_core::{
    game, grid, hash, history, input, json_keys, json_text, level_json, observe, problem, read,
    search_game,
};
/// The search algorithms (crate `tilesmith-search`: breadth-first search, alpha-beta, Monte
/// Carlo tree search, playouts) over [`search_game::SearchGame`], at the path they had when
/// they were part of this crate.
pub use tilesmith_search as search;

pub use campaign::{Campaign, CampaignEntry, Progress};
pub use document::{Document, LoadError, load_file, load_kind_text, load_text};
pub use game::parse_inputs;
pub use game::{Game, GameKind, Status, StepReport};
pub use grid::{Dir, Grid, Pos};
pub use input::Input;
pub use input::{InputError, InputSpec, format_inputs};
pub use problem::{JsonPath, Problem, Severity};

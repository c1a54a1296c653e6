//! The shared layer of the Tilesmith engine: the primitives every game kind builds on (grid,
//! inputs, problems with JSON paths, JSON text, bounded reading, hashing, observation, the
//! byte-budgeted undo history) and the traits every kind implements ([`game::GameKind`],
//! [`game::Game`]).
//!
//! It names no kind: each kind is a crate of its own that depends on this one, and the
//! `tilesmith-engine` facade lists the kinds and re-exports these modules at the same paths
//! (`tilesmith_engine::grid`, `tilesmith_engine::game`, …), `docs/architecture.md`, "Layers".
//!
//! Coordinates everywhere: `x` = column from the left, `y` = row from the top, 0-based.

#![warn(missing_docs)]

pub mod game;
pub mod grid;
pub mod hash;
pub mod history;
pub mod input;
mod json_cursor;
pub mod json_keys;
pub mod json_text;
pub mod level_json;
pub mod observe;
pub mod problem;
pub mod random;
pub mod read;
pub mod search_game;

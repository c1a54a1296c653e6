//! The board kind: board games written in Zillions-of-Games rule files (ZRF), played with
//! the move primitives of spec `move-primitives.md`: generation on the board as it stands,
//! execution in three levels, cascades, key primitives, partial moves and the legality
//! filter.
//!
//! [`zrf::compile`] reads a ZRF text into [`Rules`]; [`play`] generates, plays and counts
//! moves on a [`Position`]; [`game::BoardGame`] is the running [`crate::kind::Game`].

pub mod game;
pub mod play;
pub mod rules;
pub mod zrf;

pub use play::{Move, Position, Primitive, TurnMove};
pub use rules::Rules;

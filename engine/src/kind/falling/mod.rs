//! The falling kind: falling-block puzzles as the FPGDL paper describes them (spec
//! `falling-blocks.md`): block kinds, tumos with rotation shapes and kicks, clear rules, fall
//! laws, game over, and rule programs in Lua (FPGDL) run by this host (FPPS). A step is one
//! frame; the kind plays at 60 frames a second.

pub mod field;
pub mod fpgdl;
pub mod level;
pub mod shape;

pub use field::{BlockId, Field, Requests};
pub use level::FallingLevel;
pub use shape::{Kicks, ShapeGrid};

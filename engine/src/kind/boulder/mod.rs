//! The boulder kind: the Boulder Dash variant of the WS 2017/18 course (spec `boulder.md`).
//!
//! One token per field, values per field, five globals, and a tick of 1/5 s made of: reset of
//! values, `pre` rules, main rules, `post` rules (§4.2).

pub mod analysis;
pub mod board;
pub mod game;
pub mod level;
mod main_rules;
pub mod rules;
pub mod token;

use serde_json::Value;

pub use board::Board;
pub use game::BoulderGame;
pub use level::{BoulderLevel, Cell, Pattern, Rule, Situation, TokenPattern, TokenWrite, Write};
pub use rules::CompiledRule;
pub use token::{Global, Globals, Token, ValueKey, ValueName};

use crate::kind::{Game, GameKind};
use crate::problem::Problem;

/// The boulder game kind.
#[derive(Debug, Clone, Copy, Default)]
pub struct Boulder;

impl GameKind for Boulder {
    fn name(&self) -> &'static str {
        "boulder"
    }

    fn check(&self, doc: &Value) -> Vec<Problem> {
        match BoulderLevel::from_json(doc) {
            Ok(level) => level.warnings(),
            Err(problems) => problems,
        }
    }

    fn start(&self, doc: &Value, seed: u64) -> Result<Box<dyn Game>, Vec<Problem>> {
        let level = BoulderLevel::from_json(doc)?;
        Ok(Box::new(BoulderGame::new(level, seed)))
    }

    fn steps_per_second(&self) -> f64 {
        5.0
    }
}

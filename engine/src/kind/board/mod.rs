//! The board kind: board games written in Zillions-of-Games rule files (ZRF), played with
//! the move primitives of spec `move-primitives.md`: generation on the board as it stands,
//! execution in three levels, cascades, key primitives, partial moves and the legality
//! filter.
//!
//! [`zrf::compile`] reads a ZRF text into [`Rules`]; [`play`] generates, plays and counts
//! moves on a [`Position`]; [`game::BoardGame`] is the running [`crate::game::Game`], whose
//! steps are whole turns chosen from the legal ones ([`Input::Choice`], written by their
//! notation); [`level::BoardLevel`] is the JSON level (`docs/board-level-format.md`). A
//! `.zrf` file opens as a level of its own ([`crate::document::load_rules`]).

pub mod game;
pub mod level;
pub mod play;
pub mod rules;
pub mod zrf;

use serde_json::Value;

pub use game::BoardGame;
pub use level::BoardLevel;
pub use play::{Move, Position, Primitive, TurnMove};
pub use rules::Rules;

use crate::game::{Game, GameKind};
use crate::input::{Input, InputSpec};
use crate::problem::Problem;

/// What a board game takes in every position besides its legal turns: undo and restart.
/// The turns themselves are listed by [`Game::legal_inputs`].
const INPUTS: [InputSpec; 2] = [
    InputSpec {
        word: "undo",
        input: Input::Undo,
        label: "Undo",
        key: "Z",
    },
    InputSpec {
        word: "restart",
        input: Input::Restart,
        label: "Restart",
        key: "R",
    },
];

/// The board game kind.
#[derive(Debug, Clone, Copy, Default)]
pub struct Board;

impl GameKind for Board {
    fn name(&self) -> &'static str {
        "board"
    }

    fn check(&self, doc: &Value) -> Vec<Problem> {
        BoardLevel::check(doc)
    }

    fn start(&self, doc: &Value, _seed: u64) -> Result<Box<dyn Game>, Vec<Problem>> {
        // Board games have no randomness: the seed is not used.
        let level = BoardLevel::from_json(doc)?;
        Ok(Box::new(BoardGame::new(level)))
    }

    /// Turns per second when a game is run on its own: a board game waits for each move.
    fn steps_per_second(&self) -> f64 {
        1.0
    }

    fn inputs(&self) -> &'static [InputSpec] {
        &INPUTS
    }

    fn positional_inputs(&self) -> bool {
        true
    }

    /// The level with its `variant` member set to `title` (replacing any).
    fn with_variant(&self, doc: &Value, title: &str) -> Result<Value, String> {
        let mut doc = doc.clone();
        match doc.as_object_mut() {
            Some(o) => {
                o.insert("variant".into(), Value::String(title.to_string()));
                Ok(doc)
            }
            None => Err("the level is not a JSON object".into()),
        }
    }
}

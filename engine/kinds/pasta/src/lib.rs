//! The Pasta Logic kind (issue #28; spec `pasta-logic.md`): two players write a program by
//! raising flags on a line of command cards, then a cursor walks the line and each flag's
//! owner may run the card's command, which rewrites the program as it runs.
//!
//! [`level::PastaLevel`] is the JSON level (`docs/pasta-level-format.md`); [`state::State`]
//! the whole game state as a small `Copy` value; `rules.rs` the rules; [`choice`] the
//! choices of a decision in canonical order, and `words.rs` their words;
//! [`game::PastaGame`] the running [`Game`]. Every rules choice is in
//! `docs/pasta-semantics.md` with the spec item it settles.

#![warn(missing_docs)]

pub mod card;
pub mod choice;
pub mod game;
pub mod level;
mod moves;
mod resume;
mod rules;
pub mod search;
pub mod state;
mod words;

use serde_json::Value;

pub use card::Card;
pub use choice::Choice;
pub use game::PastaGame;
pub use level::PastaLevel;
pub use search::PastaSearch;
pub use state::State;

use tilesmith_core::game::{Game, GameKind};
use tilesmith_core::input::{Input, InputSpec};
use tilesmith_core::problem::Problem;

/// What a Pasta Logic game takes at every decision besides its choices: undo and restart.
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

/// The Pasta Logic kind.
#[derive(Debug, Clone, Copy, Default)]
pub struct Pasta;

impl GameKind for Pasta {
    fn name(&self) -> &'static str {
        "pasta"
    }

    fn check(&self, doc: &Value) -> Vec<Problem> {
        PastaLevel::check(doc)
    }

    /// `seed` draws the spec §4 setup when the level has no `cards`.
    fn start(&self, doc: &Value, seed: u64) -> Result<Box<dyn Game>, Vec<Problem>> {
        let level = PastaLevel::from_json(doc)?;
        Ok(Box::new(PastaGame::new(&level, seed)))
    }

    /// Decisions per second when a game is run on its own: each waits for a word.
    fn steps_per_second(&self) -> f64 {
        1.0
    }

    fn inputs(&self) -> &'static [InputSpec] {
        &INPUTS
    }

    fn positional_inputs(&self) -> bool {
        true
    }
}

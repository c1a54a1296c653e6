//! The boulder kind: the Boulder Dash variant of the WS 2017/18 course (spec `boulder.md`).
//!
//! One token per field, values per field, five globals, and a tick of 1/5 s made of: reset of
//! values, `pre` rules, main rules, `post` rules (§4.2).

#![warn(missing_docs)]

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
pub use level::{
    BoulderLevel, Cell, MAX_TICK_COUNT, Pattern, Rule, Situation, TokenPattern, TokenWrite, Write,
};
pub use rules::CompiledRule;
pub use token::{Global, Globals, Token, ValueKey, ValueName};

use tilesmith_core::game::{Game, GameKind};
use tilesmith_core::grid::Dir;
use tilesmith_core::input::{Input, InputSpec};
use tilesmith_core::problem::Problem;

/// Boulder's input words: no key, the four arrows, and the four arrows with the meta (shift)
/// key, which act on the neighbouring field without moving (`metaleft` … rules). Boulder has
/// no undo or restart word: a level is replayed from its start.
const INPUTS: [InputSpec; 9] = [
    InputSpec {
        word: ".",
        input: Input::Wait,
        label: "Wait",
        key: "Period",
    },
    InputSpec {
        word: "L",
        input: Input::Move(Dir::Left),
        label: "Left",
        key: "ArrowLeft",
    },
    InputSpec {
        word: "R",
        input: Input::Move(Dir::Right),
        label: "Right",
        key: "ArrowRight",
    },
    InputSpec {
        word: "U",
        input: Input::Move(Dir::Up),
        label: "Up",
        key: "ArrowUp",
    },
    InputSpec {
        word: "D",
        input: Input::Move(Dir::Down),
        label: "Down",
        key: "ArrowDown",
    },
    InputSpec {
        word: "ML",
        input: Input::Meta(Dir::Left),
        label: "Dig left",
        key: "Shift+ArrowLeft",
    },
    InputSpec {
        word: "MR",
        input: Input::Meta(Dir::Right),
        label: "Dig right",
        key: "Shift+ArrowRight",
    },
    InputSpec {
        word: "MU",
        input: Input::Meta(Dir::Up),
        label: "Dig up",
        key: "Shift+ArrowUp",
    },
    InputSpec {
        word: "MD",
        input: Input::Meta(Dir::Down),
        label: "Dig down",
        key: "Shift+ArrowDown",
    },
];

/// The boulder game kind.
#[derive(Debug, Clone, Copy, Default)]
pub struct Boulder;

impl GameKind for Boulder {
    fn name(&self) -> &'static str {
        "boulder"
    }

    fn check(&self, doc: &Value) -> Vec<Problem> {
        let doc = &tilesmith_core::level_json::known_members(doc, level::KNOWN_KEYS);
        match BoulderLevel::from_json_with_warnings(doc) {
            Ok((level, mut loaded)) => {
                loaded.extend(level.warnings());
                loaded
            }
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

    /// 3: a won level gives 1 to 3 points by its `gems` and `ticks` thresholds (spec §5
    /// item 5, §6 W4).
    fn max_points(&self, _doc: &Value) -> u32 {
        3
    }

    fn inputs(&self) -> &'static [InputSpec] {
        &INPUTS
    }
}

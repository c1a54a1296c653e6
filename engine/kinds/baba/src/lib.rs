//! The baba kind: Baba Is You, where the rules are text tiles on the grid (spec `baba.md`).
//!
//! A cell holds a stack of objects. Each object is an entity (a noun such as BABA) or a text
//! tile (a word), with a facing and an internal ID that orders everything that happens
//! "at the same time" (§2). Rules are read from the text after every step of a turn
//! ([`rules`], §3), evaluated per object into properties ([`eval`], §3.7), and a turn runs the
//! documented order of §4.2 (`turn/`). Undo restores each turn's backward diff (the objects
//! it changed, IDs included), so undo and redo are exact.
//!
//! Editor-facing API: [`BabaLevel::from_json`] / [`BabaLevel::to_json`] read and write levels;
//! [`BabaLevel::rules`] lists the rules the text forms with the tiles each uses;
//! [`BabaLevel::unused_text`] the text tiles that form no rule; [`palette`] the objects and
//! text tiles grouped by [`WordClass`]; [`sentence_tiles`] places a typed sentence as text
//! tiles in a row or a column. A running [`BabaGame`] offers the rules of the current turn
//! through [`BabaGame::rules`] and [`BabaGame::unused_text`] (and, through the `Game` trait,
//! in `summary()["rules"]`).

#![warn(missing_docs)]

pub mod eval;
pub mod game;
pub mod level;
mod level_thing;
pub mod rules;
mod turn;
pub mod word;

use serde_json::Value;

pub use eval::ObjId;
pub use game::{BabaGame, BabaSearch, OPERATION_BUDGET, ObjectView};
pub use level::{BabaLevel, Tile};
pub use rules::{
    Arg, Condition, FormedRule, MAX_LINE_RULE_TILES, Rule, RuleCache, TextTile, form_rules,
    parse_words, sentence_tiles, words_of,
};
pub use word::{
    Kind, LETTERS, Letter, Noun, PaletteEntry, Prefix, Prep, Prop, Verb, Word, WordClass, palette,
};

use tilesmith_core::game::{Game, GameKind};
use tilesmith_core::grid::Dir;
use tilesmith_core::input::{Input, InputSpec};
use tilesmith_core::problem::Problem;

/// Baba's input words: wait, the four arrows, and the game's own undo and restart keys. Baba
/// has no meta keys.
const INPUTS: [InputSpec; 7] = [
    InputSpec {
        word: ".",
        input: Input::Wait,
        label: "Wait",
        key: "Space",
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

/// The baba game kind.
#[derive(Debug, Clone, Copy, Default)]
pub struct Baba;

impl GameKind for Baba {
    fn name(&self) -> &'static str {
        "baba"
    }

    fn check(&self, doc: &Value) -> Vec<Problem> {
        let doc = &tilesmith_core::level_json::known_members(doc, level::KNOWN_KEYS);
        match BabaLevel::from_json(doc) {
            Ok(level) => {
                let mut w = level::cell_warnings(doc);
                w.extend(level.warnings());
                w
            }
            Err(problems) => problems,
        }
    }

    fn start(&self, doc: &Value, seed: u64) -> Result<Box<dyn Game>, Vec<Problem>> {
        let level = BabaLevel::from_json(doc)?;
        Ok(Box::new(BabaGame::new(level, seed)))
    }

    fn steps_per_second(&self) -> f64 {
        4.0
    }

    fn inputs(&self) -> &'static [InputSpec] {
        &INPUTS
    }
}

//! The falling kind: falling-block puzzles as the FPGDL paper describes them (spec
//! `falling-blocks.md`): block kinds, tumos with rotation shapes and kicks, clear rules, fall
//! laws, game over, and rule programs in Lua (FPGDL) run by this host (FPPS). A step is one
//! frame; the kind plays at 60 frames a second.
//!
//! Editor-facing API: [`FallingLevel::from_json`] / [`FallingLevel::to_json`] read and write
//! levels ([`FallingLevel::check`] gives the warnings too); a running [`FallingGame`] offers
//! the field ([`FallingGame::field`]), the blocks in motion ([`FallingGame::moving`],
//! [`FallingGame::fall_offset`]), the active tumo ([`FallingGame::active`]) and its shadow
//! ([`FallingGame::shadow`]), the next tumos ([`FallingGame::next_tumos`]), the counters, a
//! clear in progress ([`FallingGame::pending_clear`]), what the last frame did
//! ([`FallingGame::last_frame`]) and a script error ([`FallingGame::script_error`]).

pub mod field;
pub mod fpgdl;
pub mod game;
pub mod level;
#[cfg(test)]
mod repair_tests;
pub mod shape;

pub use field::{BlockId, Field, Requests};
pub use game::{ActiveView, ClearEvent, FallingGame, FrameReport, PendingClear};
pub use level::FallingLevel;
pub use shape::{Kicks, ShapeGrid};

use serde_json::Value;

use crate::game::{Game, GameKind};
use crate::grid::Dir;
use crate::input::{Input, InputSpec, Turn};
use crate::problem::{JsonPath, Problem};

/// The falling kind's input words: wait, move, soft drop, hard drop and the three turns.
const INPUTS: [InputSpec; 8] = [
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
        word: "SD",
        input: Input::SoftDrop,
        label: "Soft drop",
        key: "ArrowDown",
    },
    InputSpec {
        word: "HD",
        input: Input::HardDrop,
        label: "Hard drop",
        key: "Space",
    },
    InputSpec {
        word: "CW",
        input: Input::Turn(Turn::Cw),
        label: "Turn",
        key: "ArrowUp|X",
    },
    InputSpec {
        word: "CCW",
        input: Input::Turn(Turn::Ccw),
        label: "Turn back",
        key: "Z",
    },
    InputSpec {
        word: "180",
        input: Input::Turn(Turn::Half),
        label: "Turn 180°",
        key: "A",
    },
];

/// The falling-block game kind.
#[derive(Debug, Clone, Copy, Default)]
pub struct Falling;

/// The problem of a script that does not load (at `$.script`): `script line N: …` when the
/// line is known (the form `Document` reads the line of an FPGDL program from), else
/// `script error: …`.
fn script_problem(level: &FallingLevel) -> Option<Problem> {
    let src = level.script.as_deref()?;
    fpgdl::Script::new(src).err().map(|e| {
        let message = match e.line {
            Some(_) => e.to_string(),
            None => format!("script error: {e}"),
        };
        Problem::error(JsonPath::root().key("script"), message)
    })
}

impl GameKind for Falling {
    fn name(&self) -> &'static str {
        "falling"
    }

    fn check(&self, doc: &Value) -> Vec<Problem> {
        let problems = FallingLevel::check(doc);
        if problems.iter().any(Problem::is_error) {
            return problems;
        }
        match FallingLevel::from_json(doc)
            .ok()
            .and_then(|l| script_problem(&l))
        {
            Some(p) => vec![p],
            None => problems,
        }
    }

    fn start(&self, doc: &Value, seed: u64) -> Result<Box<dyn Game>, Vec<Problem>> {
        let level = FallingLevel::from_json(doc)?;
        if let Some(p) = script_problem(&level) {
            return Err(vec![p]);
        }
        Ok(Box::new(FallingGame::new(level, seed)))
    }

    fn steps_per_second(&self) -> f64 {
        60.0
    }

    /// 1 for a level with a `goal` (reaching it wins, issue 10), 0 without: such a level
    /// is only ever lost, so it earns no points in a campaign.
    fn max_points(&self, doc: &Value) -> u32 {
        u32::from(doc.get("goal").is_some_and(|g| !g.is_null()))
    }

    fn inputs(&self) -> &'static [InputSpec] {
        &INPUTS
    }
}

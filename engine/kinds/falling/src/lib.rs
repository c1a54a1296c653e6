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

#![warn(missing_docs)]

pub mod field;
pub mod fpgdl;
pub mod game;
pub mod level;
#[cfg(test)]
mod probe_tests;
#[cfg(test)]
mod repair_tests;
pub mod shape;

pub use field::{BlockId, Field, Requests};
pub use game::{ActiveView, ClearEvent, FallingGame, FrameReport, PendingClear};
pub use level::FallingLevel;
pub use shape::{Kicks, ShapeGrid};

use std::path::Path;

use serde_json::Value;

use tilesmith_core::game::{FileOpening, FileType, Game, GameKind, OpenedFile};
use tilesmith_core::grid::Dir;
use tilesmith_core::input::{Input, InputSpec, Turn};
use tilesmith_core::problem::{JsonPath, Problem};

/// The falling kind's input words: wait, move, soft drop, hard drop, the three turns and
/// hold (`H` on C, guideline Tetris's hold key; Shift is not a key of its own here).
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
    InputSpec {
        word: "H",
        input: Input::Hold,
        label: "Hold",
        key: "C",
    },
];

/// The falling-block game kind.
#[derive(Debug, Clone, Copy, Default)]
pub struct Falling;

/// The files the falling kind opens besides levels: FPGDL programs.
const FILE_TYPES: [FileType; 1] = [FileType {
    extension: "lua",
    word: "FPGDL program",
    label: "FPGDL program (Lua)",
    short_label: "FPGDL program (Lua)",
    opening: FileOpening::Import,
    max_bytes: None,
    import_about: Some(
        "Open a falling-block program (.lua): its setup calls become the level and \
         update() its script; Save As writes it as a level file",
    ),
}];

/// A script error as a problem at `$.script`: `script line N: …` when the line is known
/// (the form `Document` reads the line of an FPGDL program from), else `script error: …`;
/// `when` is added to the message.
fn script_problem(e: &fpgdl::ScriptError, when: &str) -> Problem {
    let message = match e.line {
        Some(_) => e.to_string(),
        None => format!("script error: {e}"),
    };
    Problem::error(JsonPath::root().key("script"), format!("{message}{when}"))
}

/// The game of `level`, or the problem of its script when it does not load (its top level
/// runs once, in [`FallingGame::new`]).
fn started(level: FallingLevel, seed: u64) -> Result<FallingGame, Vec<Problem>> {
    let game = FallingGame::new(level, seed);
    match game.script_error() {
        Some(e) => Err(vec![script_problem(e, "")]),
        None => Ok(game),
    }
}

/// A script's error when it loads or in the first frame (its top level and `update()` run
/// once with no key), as a problem at `$.script`: `check` finds a script that fails (or runs
/// over its budget) as soon as play starts, not only one that fails to load (issue #30: an
/// `update()` looping in an error handler made `run` exit 1 but passed `check`). The script
/// runs twice at most (its load, then the first frame or the start's probe for settling,
/// [`FallingGame::probe_error`]), each within its 1 s; a level without a script runs none.
fn first_frame_problem(level: FallingLevel) -> Option<Problem> {
    level.script.as_ref()?;
    let mut game = match started(level, 0) {
        Ok(g) => g,
        Err(p) => return p.into_iter().next(),
    };
    if let Some(e) = game.probe_error() {
        return Some(script_problem(e, " (in the first frame, with no key)"));
    }
    game.step(tilesmith_core::input::Input::Wait);
    let e = game.script_error()?;
    Some(script_problem(e, " (in the first frame, with no key)"))
}

impl GameKind for Falling {
    fn name(&self) -> &'static str {
        "falling"
    }

    fn check(&self, doc: &Value) -> Vec<Problem> {
        let doc = &tilesmith_core::level_json::known_members(doc, level::KNOWN_KEYS);
        let problems = FallingLevel::check(doc);
        if problems.iter().any(Problem::is_error) {
            return problems;
        }
        let Ok(level) = FallingLevel::from_json(doc) else {
            return problems;
        };
        match first_frame_problem(level) {
            Some(p) => vec![p],
            None => problems,
        }
    }

    fn start(&self, doc: &Value, seed: u64) -> Result<Box<dyn Game>, Vec<Problem>> {
        let level = FallingLevel::from_json(doc)?;
        match started(level, seed) {
            Ok(g) => Ok(Box::new(g)),
            Err(p) => Err(p),
        }
    }

    fn steps_per_second(&self) -> f64 {
        60.0
    }

    /// 1 for a level with a `goal` (reaching it wins, issue 10), 0 without: such a level
    /// is only ever lost, so it earns no points in a campaign.
    fn max_points(&self, doc: &Value) -> u32 {
        u32::from(doc.get("goal").is_some_and(|g| !g.is_null()))
    }

    /// FPGDL programs (`.lua`, spec falling-blocks §5), imported as levels.
    fn file_types(&self) -> &'static [FileType] {
        &FILE_TYPES
    }

    /// Imports a whole FPGDL program as a document: its setup calls become a level of kind
    /// `falling` named after the file's stem, with the program as its `script` (see
    /// [`fpgdl::import_program`]); the program is the document's source, where its problems
    /// are placed ([`GameKind::source_line`]).
    ///
    /// # Errors
    /// One problem at the program's line: a script error (syntax, run time, budget, a bad
    /// setup call; line 1 when the error has no line).
    fn open_file(&self, text: &str, path: &Path) -> Result<OpenedFile, Vec<Problem>> {
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut value = fpgdl::import_program(text).map_err(|e| {
            vec![Problem {
                line: Some(e.line.unwrap_or(1)),
                column: Some(1),
                ..Problem::error(JsonPath::root(), e.message)
            }]
        })?;
        value["name"] = Value::String(name);
        Ok(OpenedFile {
            value,
            source: Some(text.to_string()),
        })
    }

    /// The script line a problem's message names, in the `Display` form of a
    /// [`fpgdl::ScriptError`] (`script line N: …`).
    fn source_line(&self, message: &str) -> Option<usize> {
        fpgdl::ScriptError::line_in_message(message)
    }

    fn inputs(&self) -> &'static [InputSpec] {
        &INPUTS
    }
}

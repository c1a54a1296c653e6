//! Game kinds behind one small trait.
//!
//! A game kind (boulder, baba and falling now; board later) is one module that implements
//! [`GameKind`]: check a level document, start a [`Game`] from it, and declare the kind's input
//! words ([`GameKind::inputs`], read with [`GameKind::parse_input`] and
//! [`crate::input::parse_inputs`]). A running [`Game`] steps deterministically, undoes and
//! redoes steps, and describes its cells for drawing. The CLI and the editor talk to kinds
//! only through these two traits, so nothing outside a kind's module assumes "one token per
//! cell" or "a tick is 1/5 s".

pub mod baba;
pub mod board;
pub mod boulder;
pub mod falling;

use serde::Serialize;
use serde_json::Value;

use crate::grid::{Dir, Pos};
pub use crate::input::{Input, InputError, InputSpec, Turn};
use crate::observe::Phase;
use crate::problem::{JsonPath, Problem, quote};

/// Whether a game goes on, was won or was lost.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Status {
    /// The game goes on.
    Running,
    /// Won, with the points earned (boulder: 1–3).
    Won {
        /// Points earned, 1–3 for boulder (spec boulder §5).
        points: u32,
    },
    /// Lost, with the reason in a few words (e.g. "the figure was destroyed").
    Lost {
        /// Why the game was lost, in a few lower-case words.
        reason: String,
    },
}

impl Status {
    /// `running`, `won` or `lost`, as printed by `tilesmith run`.
    pub fn word(&self) -> &'static str {
        match self {
            Status::Running => "running",
            Status::Won { .. } => "won",
            Status::Lost { .. } => "lost",
        }
    }

    /// True unless [`Status::Running`].
    pub fn is_over(&self) -> bool {
        !matches!(self, Status::Running)
    }
}

/// One level rule that fired in a step, with where it matched.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RuleFiring {
    /// The phase the rule ran in (`Phase::Pre(i)` or `Phase::Post(i)`; `i` is the rule index).
    pub phase: Phase,
    /// The rule's optional `name`.
    pub name: Option<String>,
    /// The first cell (position 0 of the window) of each match, in the order applied.
    pub at: Vec<Pos>,
}

/// What one step changed and why. Built by [`Game::step`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct StepReport {
    /// The number of the step just computed, 1 for the first.
    pub step: u64,
    /// Every cell whose contents differ from before the step, row-major.
    pub changed: Vec<Pos>,
    /// Every level rule that matched at least once, in the order it ran.
    pub fired: Vec<RuleFiring>,
    /// For each phase that changed anything, the cells it changed, row-major.
    pub phases: Vec<(Phase, Vec<Pos>)>,
}

/// One drawable layer of a cell, bottom first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Layer {
    /// The token name (`stone`, `text_baba`, …).
    pub token: String,
    /// The direction the object faces, when it has one.
    pub dir: Option<Dir>,
}

/// A running game of one kind. Created by [`GameKind::start`].
pub trait Game {
    /// The kind's name (`boulder`, …).
    fn kind(&self) -> &'static str;
    /// `(width, height)` in cells.
    fn size(&self) -> (usize, usize);
    /// Computes one step (a tick for boulder) with `input`, records it for undo and reports what
    /// changed. Once the game is over, a step changes nothing. [`Input::Undo`] undoes the last
    /// step and [`Input::Restart`] undoes all of them (both also after the game is over).
    fn step(&mut self, input: Input) -> StepReport;
    /// Undoes the last step; false when there is nothing to undo.
    fn undo(&mut self) -> bool;
    /// Redoes the last undone step exactly; false when there is nothing to redo.
    fn redo(&mut self) -> bool;
    /// Number of steps currently applied (the position in the history).
    fn steps(&self) -> u64;
    /// Number of steps that can be redone.
    fn redo_len(&self) -> usize;
    /// Won, lost or running.
    fn status(&self) -> Status;
    /// True while a step still computes a turn: by default until the game is won or lost.
    /// A kind whose lost state is not final (baba: nothing is YOU, but MOVE objects may
    /// rebuild a YOU rule) keeps taking turns then; replays and the CLI follow this.
    fn takes_turns(&self) -> bool {
        !self.status().is_over()
    }
    /// An error that stopped the game and that `tilesmith run` reports by exiting 1: a
    /// falling level's script failed or ran over its budget (`script error: script line 3:
    /// …`). `None` by default and for a game that ended by its own rules.
    fn error(&self) -> Option<String> {
        None
    }
    /// The line of the level's program (a falling level's script, 1-based) where the error
    /// of [`Game::error`] happened, when known.
    fn error_line(&self) -> Option<usize> {
        None
    }
    /// The one-line JSON summary printed by `tilesmith run`.
    fn summary(&self) -> Value;
    /// The current state as a level document of this kind, which loads again.
    fn to_level(&self) -> Value;
    /// The layers of the cell at `pos`, bottom first.
    fn layers(&self, pos: Pos) -> Vec<Layer>;
    /// A 64-bit FNV-1a hash of the whole state (map, values, globals, status), for replays.
    fn state_hash(&self) -> u64;
    /// The concrete game, so that a kind's editor module can reach it behind `dyn Game`
    /// (`game.as_any().downcast_ref::<BoulderGame>()`).
    fn as_any(&self) -> &dyn std::any::Any;
    /// The concrete game, mutably; see [`Game::as_any`].
    fn as_any_mut(&mut self) -> &mut dyn std::any::Any;
}

/// A game kind: the rules of one family of tile puzzles.
pub trait GameKind: Sync {
    /// The kind's name as written in a level's `"kind"` field.
    fn name(&self) -> &'static str;
    /// All problems (errors and warnings) of a parsed level document, with their JSON paths.
    fn check(&self, doc: &Value) -> Vec<Problem>;
    /// Starts a game from a level document with RNG seed `seed`.
    ///
    /// # Errors
    /// The level's error-severity problems when it cannot be played.
    fn start(&self, doc: &Value, seed: u64) -> Result<Box<dyn Game>, Vec<Problem>>;
    /// How many steps make one second at normal speed (boulder: 5).
    fn steps_per_second(&self) -> f64;
    /// The kind's input words in the order an editor shows them, `.` (wait) first. Each
    /// [`InputSpec::word`] equals [`Input::word`] of its input.
    fn inputs(&self) -> &'static [InputSpec];
    /// Reads one input word (no repeat count) for a level of this kind. The default looks the
    /// word up in [`GameKind::inputs`], ignoring ASCII case.
    ///
    /// # Errors
    /// [`InputError::Unknown`] naming the word and listing the kind's words.
    fn parse_input(&self, word: &str) -> Result<Input, InputError> {
        crate::input::lookup(self, word)
    }
}

/// Every game kind the engine knows, default first.
pub fn kinds() -> &'static [&'static dyn GameKind] {
    &[&boulder::Boulder, &baba::Baba, &falling::Falling]
}

/// The kind called `name` (as [`GameKind::name`] and [`Game::kind`] give it, ASCII case
/// ignored), e.g. to find the input words of a running game: `kind_named(game.kind())`.
pub fn kind_named(name: &str) -> Option<&'static dyn GameKind> {
    kinds()
        .iter()
        .copied()
        .find(|k| k.name().eq_ignore_ascii_case(name))
}

/// The kind a document declares in its `"kind"` field (default `boulder`).
///
/// # Errors
/// A problem at `$.kind` when the field is not a string or names no known kind.
pub fn kind_of(doc: &Value) -> Result<&'static dyn GameKind, Problem> {
    let path = JsonPath::root().key("kind");
    let name = match doc.get("kind") {
        None => "boulder",
        Some(Value::String(s)) => s.as_str(),
        Some(_) => return Err(Problem::error(path, "\"kind\" must be a string")),
    };
    kind_named(name).ok_or_else(|| {
        let known: Vec<_> = kinds().iter().map(|k| k.name()).collect();
        Problem::error(
            path,
            format!("unknown kind {} (known: {})", quote(name), known.join(", ")),
        )
    })
}

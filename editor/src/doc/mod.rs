//! The document seam: what the shell holds of an open level, whatever its kind.
//!
//! The shell ([`crate::state::EditorState`]) holds a `Box<dyn` [`KindDoc`]`>` and never names a
//! kind's types. A kind's editor module (under [`crate::kinds`]) implements [`KindDoc`] for its
//! document (built on the generic [`map::MapDoc`], which writes undo, redo, copy, cut, paste,
//! move, delete and resize once) and [`ui::KindUi`] for its panels and canvas drawing; the
//! list of kinds ([`crate::kinds::registry`], built at the top and handed down as a
//! [`registry::Kinds`] the state holds) says what each kind gives ([`registry::KindEntry`]). Actions only a kind understands travel
//! as a [`KindAction`], which the kind downcasts to its own action type.

pub mod history;
pub mod map;
pub mod play;
pub mod registry;
pub mod step_job;
pub mod ui;

use std::any::Any;
use std::path::Path;
use std::sync::Arc;

use serde_json::Value;
use tilesmith_engine::{GameKind, Input, Pos, Problem};

use crate::tools::{Button, CellRect, Tool};
pub use map::CheckJob;
use map::MapOps;
use play::PlaySession;

/// A message a kind's editor module sends itself through the shell's action queue.
pub trait KindMsg: Any + std::fmt::Debug + Send + Sync {
    /// The message as [`Any`], to downcast.
    fn as_any(&self) -> &dyn Any;
}

impl<T: Any + std::fmt::Debug + Send + Sync> KindMsg for T {
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// An action only one kind understands (boulder's token brushes and rule editor, baba's
/// stacks and sentences, …), carried opaquely by the shell to the open document.
#[derive(Clone)]
pub struct KindAction(Arc<dyn KindMsg>);

impl KindAction {
    /// Wraps a kind's own action value.
    pub fn new<T: KindMsg>(msg: T) -> Self {
        Self(Arc::new(msg))
    }

    /// The action as the kind's type `T`, if it is one.
    pub fn get<T: 'static>(&self) -> Option<&T> {
        (*self.0).as_any().downcast_ref::<T>()
    }
}

impl std::fmt::Debug for KindAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (*self.0).fmt(f)
    }
}

/// The parts of the shell a kind's action may read or change.
#[derive(Debug)]
pub struct Cx<'a> {
    /// The one-line status message.
    pub status: &'a mut String,
    /// The selected rectangle.
    pub selection: &'a mut Option<CellRect>,
    /// The cell shown in the inspector.
    pub inspect: &'a mut Option<Pos>,
    /// The cell under the pointer.
    pub hover: Option<Pos>,
    /// A message to show in a dialog (e.g. a file that cannot be written).
    pub message: &'a mut Option<String>,
}

/// An open level of one kind, as the shell sees it. Implemented once per kind, in the kind's
/// module under [`crate::kinds`].
///
/// Map operations go through [`KindDoc::map`] (the generic map document). Play goes through
/// the generic [`PlaySession`] (`dyn Game`); a kind overrides the `play_*` methods only to add
/// what its engine offers beyond the trait.
pub trait KindDoc: Any + Send {
    /// The engine's kind (name, check, start, speed, input words).
    fn kind(&self) -> &'static dyn GameKind;
    /// What one step of play is called (`tick`, `turn`, `frame`, `ply`).
    fn step_noun(&self) -> &'static str {
        "step"
    }
    /// True when play runs by itself on a clock (boulder's ticks, falling frames); false for
    /// turn-based kinds, where every step waits for a key (Run and Enter do nothing).
    fn real_time(&self) -> bool {
        true
    }
    /// False for a kind whose level is not a grid of cells (pasta: a line of command cards).
    /// The shell then offers none of its grid tools (pencil, rectangle, line, fill,
    /// eyedropper, select, copy, cut, paste, delete, resize, grid lines), refuses their
    /// actions, and hands the whole canvas to the kind ([`ui::KindUi::canvas_ui`]), which
    /// draws it and handles the pointer itself. The map of such a kind ([`KindDoc::map`])
    /// still holds its history (undo, redo, saved state) and the check. True by default.
    fn has_grid(&self) -> bool {
        true
    }
    /// The document as [`Any`], for the kind's own UI module to downcast.
    fn as_any(&self) -> &dyn Any;
    /// The document as mutable [`Any`].
    fn as_any_mut(&mut self) -> &mut dyn Any;
    /// The design's map document: history, clipboard, strokes, resize.
    fn map(&self) -> &dyn MapOps;
    /// The design's map document, to change.
    fn map_mut(&mut self) -> &mut dyn MapOps;
    /// The design as a level document of this kind: what the check and play read, and what
    /// Save writes unless the kind overrides [`KindDoc::save_json`].
    fn to_json(&self) -> Value;
    /// The level document Save writes to `file`, after writing the files the level refers to
    /// that differ from the design (a board level's ZRF rules file, atomically). By default
    /// [`KindDoc::to_json`]; a kind whose levels refer to other files writes those references
    /// relative to `file`'s folder here.
    ///
    /// # Errors
    /// A message when a file the level refers to cannot be written (the level is not written
    /// then).
    fn save_json(&mut self, _file: &Path) -> Result<Value, String> {
        Ok(self.to_json())
    }
    /// The files other than the level that [`KindDoc::save_json`] would write now (their text
    /// on disk differs from the design's), absolute. The shell asks before writing one the
    /// user did not open here (issue #30: a level's rules file may be anywhere). Default:
    /// none.
    fn files_to_write(&self) -> Vec<std::path::PathBuf> {
        Vec::new()
    }
    /// True when some errors of this kind's check are what play shows, so Play starts whatever
    /// the engine starts rather than refusing on them (falling: a script that fails in its
    /// first frame is an error of `check`, issue #30, and play stops there showing the line).
    /// Default: false (Play refuses a level with errors).
    fn play_shows_errors(&self) -> bool {
        false
    }
    /// Problems `check` gives the level saved as `file` that the design alone does not show:
    /// how the saved level refers to other files (a board level's rules file outside the
    /// level's folder is a warning, issue #30). The problems list adds them to the check of
    /// the design. Default: none.
    fn file_warnings(&self, _file: &Path) -> Vec<Problem> {
        Vec::new()
    }
    /// Replaces the design by the level document `doc` of this kind, as one undoable edit
    /// named `name` (reload from disk, restore an autosave).
    ///
    /// # Errors
    /// The document's problems when it is not a level this editor can hold.
    fn load(&mut self, name: &str, doc: &Value) -> Result<(), Vec<Problem>>;
    /// True when the design equals the level document `doc`.
    fn is_level(&self, doc: &Value) -> bool;
    /// The check of the design as a job for a worker thread (a copy of the level, turned into
    /// its document and checked there, so the UI thread does neither).
    fn check_job(&self) -> CheckJob {
        let (kind, doc) = (self.kind(), self.to_json());
        Box::new(move || kind.check(&doc))
    }
    /// Takes over the brushes and the clipboard of the previous document of the same kind.
    fn keep_tools_of(&mut self, old: &mut dyn KindDoc);
    /// `(width, height)` of the map as shown: the play state's while playing, else the
    /// design's.
    fn shown_size(&self) -> (usize, usize);
    /// The eyedropper at `pos`: takes the cell's contents as the brush of `button`.
    fn pick(&mut self, pos: Pos, button: Button);
    /// Starts a stroke of `tool` with the brush of `button` at `pos`.
    fn begin_stroke(
        &mut self,
        tool: Tool,
        button: Button,
        pos: Pos,
        filled: bool,
        selection: Option<CellRect>,
    );
    /// Copies the cells of `r` as shown to the clipboard. The default copies the design's
    /// cells; a kind overrides it to copy the play state while playing.
    fn copy_shown(&mut self, r: CellRect) {
        self.map_mut().copy(r);
    }
    /// Runs an action of this kind (others are ignored).
    fn apply(&mut self, action: &KindAction, cx: &mut Cx<'_>);
    /// Replaces every cell like the brush-pair's "from" by its "to" (Edit → Replace all);
    /// false when the kind has no such command.
    fn replace_all(&mut self, _cx: &mut Cx<'_>) -> bool {
        false
    }
    /// True when the kind offers [`KindDoc::replace_all`].
    fn has_replace_all(&self) -> bool {
        false
    }
    /// The design's cells that a resize must not remove without asking first, each with
    /// what it holds in a word or two (boulder: every `me` and `exit`; baba: every text
    /// tile). The kind decides; by default none.
    fn essential_cells(&self) -> Vec<(Pos, String)> {
        Vec::new()
    }
    /// Recomputes derived data after an action (caches keyed by the history generation).
    fn refresh(&mut self) {}
    /// Forgets pointer-hover state (a tool or tab switch).
    fn unhover(&mut self) {}

    /// The play session, while playing.
    fn play(&self) -> Option<&PlaySession>;
    /// The play session, to change.
    fn play_mut(&mut self) -> Option<&mut PlaySession>;
    /// Starts playing the design with RNG seed `seed`.
    ///
    /// # Errors
    /// The design's error-severity problems when it cannot be played.
    fn start_play(&mut self, seed: u64) -> Result<(), Vec<Problem>>;
    /// Stops playing; the design is as it was.
    fn stop_play(&mut self);
    /// One step with `input` (the game's undo and restart inputs go back instead). An override
    /// keeps the session's `inputs` (for replays), `report` and `running` as
    /// [`PlaySession::begin_step`] and [`PlaySession::end_step`] do.
    fn play_step(&mut self, input: Input) {
        if let Some(p) = self.play_mut() {
            p.step(input);
        }
    }
    /// One step of a running game with `input` held on the keyboard (or the input chosen in
    /// the pane). By default the same as [`KindDoc::play_step`]; a real-time kind whose keys
    /// act once per press (falling: turns, hard drop) or auto-repeat (falling: moves) turns
    /// the held key into presses here.
    fn play_held(&mut self, input: Input) {
        self.play_step(input);
    }
    /// A press of `button` on the map cell `pos` while playing (the shell shows the cell in
    /// the inspector too). A kind whose moves are chosen by clicking (board: a piece, then
    /// where it goes) plays them here; by default nothing else happens.
    fn play_press(&mut self, _pos: Pos, _button: Button, _cx: &mut Cx<'_>) {}
    /// Undoes one step.
    fn play_back(&mut self) {
        if let Some(p) = self.play_mut() {
            p.back();
        }
    }
    /// Redoes one undone step.
    fn play_forward(&mut self) {
        if let Some(p) = self.play_mut() {
            p.forward();
        }
    }
    /// Goes to step `t` of the history.
    fn play_scrub(&mut self, t: u64) {
        if let Some(p) = self.play_mut() {
            p.scrub(t);
        }
    }
    /// Starts again: by default a new game from the design, keeping speed, chosen input and
    /// seed.
    fn play_reset(&mut self) {
        let Some(p) = self.play() else { return };
        let (speed, chosen, seed) = (p.speed, p.chosen, p.seed);
        if self.start_play(seed).is_ok()
            && let Some(p) = self.play_mut()
        {
            p.speed = speed;
            p.chosen = chosen;
        }
    }
    /// Ends a step that is half computed (a kind's debugger), so the game is between steps.
    fn play_settle(&mut self) {}
    /// Collects the step computing on a worker thread once it is done
    /// ([`PlaySession::poll_step`]), each frame. `Some` with the status bar's message when
    /// it ended without being computed (`tick 12 cancelled`, `tick 12 failed: …`) or when
    /// the kind has more to say; `None` while it computes, once a step was computed, and
    /// when no step computes. A kind whose steps return more than a report
    /// ([`PlaySession::compute`]) collects them itself.
    fn play_poll(&mut self) -> Option<String> {
        let noun = self.step_noun();
        let p = self.play_mut()?;
        let (step, _) = p.computing()?;
        let words = p.poll_step().flatten()?;
        Some(format!("{noun} {step} {words}"))
    }
    /// The play session just started is a campaign game (spec boulder §2.2): the player plays
    /// the side to move at the start, whose win earns the points (the engine's
    /// `Game::points_earned`); a kind with several players lets the computer play the others
    /// (the shared computer player, through [`PlaySession::campaign_player`]). By default
    /// the player to move at the start is the campaign player's when the game has several.
    fn campaign_play_started(&mut self) {
        if let Some(p) = self.play_mut()
            && p.game.players().len() >= 2
        {
            p.campaign_player = p.game.to_move();
        }
    }
    /// Copies the play state into the design as one undoable edit named `name` ("use as
    /// design").
    ///
    /// # Errors
    /// A message when the state cannot be a design (e.g. over a limit of level files).
    fn use_play_state(&mut self, name: &str) -> Result<(), String> {
        let Some(level) = self.play().map(|p| p.game.to_level()) else {
            return Err("not playing".into());
        };
        self.load(name, &level).map_err(|p| {
            p.first()
                .map_or_else(|| "it does not load".into(), |p| p.message.clone())
        })
    }
}

/// Writes the [`KindDoc`] methods that every kind built on a [`map::MapDoc`] field named
/// `map` implements the same way: `as_any`, `as_any_mut`, `map`, `map_mut`, `to_json`,
/// `load`, `is_level` and `check_job`. Use it inside `impl KindDoc for …`.
#[macro_export]
macro_rules! map_doc_basics {
    () => {
        fn as_any(&self) -> &dyn std::any::Any {
            self
        }

        fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
            self
        }

        fn map(&self) -> &dyn $crate::doc::map::MapOps {
            &self.map
        }

        fn map_mut(&mut self) -> &mut dyn $crate::doc::map::MapOps {
            &mut self.map
        }

        fn to_json(&self) -> serde_json::Value {
            self.map.to_json()
        }

        fn load(
            &mut self,
            name: &str,
            doc: &serde_json::Value,
        ) -> Result<(), Vec<tilesmith_engine::Problem>> {
            self.map.load(name, doc)
        }

        fn is_level(&self, doc: &serde_json::Value) -> bool {
            self.map.is_level(doc)
        }

        fn check_job(&self) -> $crate::doc::CheckJob {
            self.map.check_job(self.kind())
        }
    };
}

/// The largest number of problems a dialog lists.
pub const MAX_LISTED_PROBLEMS: usize = 20;

/// Renders problems as `FILE:LINE:COL: message (at PATH)` lines, at most
/// [`MAX_LISTED_PROBLEMS`], then `… and N more problems` counting the rest (those a capped
/// report already counts in its last line, [`Problem::more_count`], included).
pub fn render_problems(file: &str, problems: &[Problem]) -> String {
    let listed: Vec<&Problem> = problems
        .iter()
        .filter(|p| p.more_count().is_none())
        .take(MAX_LISTED_PROBLEMS)
        .collect();
    let total: usize = problems.iter().map(|p| p.more_count().unwrap_or(1)).sum();
    let mut lines: Vec<String> = listed.iter().map(|p| p.render(file)).collect();
    if total > listed.len() {
        let more = total - listed.len();
        let s = if more == 1 { "" } else { "s" };
        lines.push(format!("\u{2026} and {more} more problem{s}"));
    }
    lines.join("\n")
}

//! The play session of any kind: a running game started from the design, separate from the
//! edits, stepped through `dyn Game` and clocked at the kind's `steps_per_second`.
//!
//! The session keeps the input of every step (so it can be recorded as a replay), the report
//! of the last step, and the play clock (running, speed, fractional steps owed). What a kind
//! offers beyond the trait (boulder's tick debugger, baba's turn log) lives in that kind's
//! editor module and wraps this session.

use std::path::Path;

use serde_json::Value;
use tilesmith_engine::replay::{Replay, ReplayLevel};
use tilesmith_engine::{Game, GameKind, Input, Problem, Status, StepReport};

/// The most steps one frame may compute while running (so a slow frame cannot stall).
pub const MAX_STEPS_PER_FRAME: usize = 8;

/// A game being played in the play pane.
pub struct PlaySession {
    /// The running game.
    pub game: Box<dyn Game>,
    /// Its kind (speed, input words).
    pub kind: &'static dyn GameKind,
    /// The design the game started from, as a level document (embedded in replays).
    pub start: Value,
    /// The RNG seed it started with.
    pub seed: u64,
    /// The input of every step computed or undone-but-redoable, step 1 first.
    pub inputs: Vec<Input>,
    /// For a kind whose inputs depend on the position ([`GameKind::positional_inputs`],
    /// board moves): the word of each input in [`PlaySession::inputs`], as the game wrote it
    /// where it was played (what a replay records). Empty for other kinds.
    pub words: Vec<String>,
    /// What the last step changed (cleared by undo and scrubbing).
    pub report: Option<StepReport>,
    /// True while steps run by themselves.
    pub running: bool,
    /// Speed factor (1 = the kind's `steps_per_second`).
    pub speed: f32,
    /// The input used by "Step" and while running when no key is held.
    pub chosen: Input,
    /// Fractional steps owed while running.
    acc: f64,
    /// Changes whenever the shown state may have changed (unique across sessions).
    version: u64,
}

impl std::fmt::Debug for PlaySession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PlaySession")
            .field("kind", &self.kind.name())
            .field("steps", &self.game.steps())
            .field("running", &self.running)
            .finish_non_exhaustive()
    }
}

/// A number unique across sessions, for the canvas cache.
pub fn next_version() -> u64 {
    static V: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    V.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl PlaySession {
    /// Starts a game of kind `kind` from the level document `design` with RNG seed `seed`.
    ///
    /// # Errors
    /// The level's error-severity problems when it cannot be played.
    pub fn new(
        kind: &'static dyn GameKind,
        design: Value,
        seed: u64,
    ) -> Result<Self, Vec<Problem>> {
        let game = kind.start(&design, seed)?;
        Ok(Self::with_game(kind, game, design, seed))
    }

    /// A session around a game already started from `design`.
    pub fn with_game(
        kind: &'static dyn GameKind,
        game: Box<dyn Game>,
        design: Value,
        seed: u64,
    ) -> Self {
        Self {
            game,
            kind,
            start: design,
            seed,
            inputs: Vec::new(),
            words: Vec::new(),
            report: None,
            running: false,
            speed: 1.0,
            chosen: Input::Wait,
            acc: 0.0,
            version: next_version(),
        }
    }

    /// A number that changes whenever the shown state may have changed.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Marks the shown state as changed.
    pub fn touch(&mut self) {
        self.version = next_version();
    }

    /// The number of steps applied (the position in the history).
    pub fn steps(&self) -> u64 {
        self.game.steps()
    }

    /// The number of steps in the history (applied plus redoable).
    pub fn history_len(&self) -> u64 {
        self.game.steps() + self.game.redo_len() as u64
    }

    /// Starts recording a step with `input`: false (and running stops) when the game takes no more turns.
    /// The caller then steps the game and calls [`PlaySession::end_step`].
    pub fn begin_step(&mut self, input: Input) -> bool {
        if !self.game.takes_turns() {
            self.running = false;
            return false;
        }
        let n = self.game.steps() as usize;
        self.inputs.truncate(n);
        self.inputs.push(input);
        if self.kind.positional_inputs() {
            self.words.truncate(n);
            let word = self.game.input_word(input);
            self.words
                .push(word.unwrap_or_else(|| input.word().to_string()));
        }
        true
    }

    /// Keeps the report of the step just computed; running stops when the game takes no more turns.
    pub fn end_step(&mut self, report: StepReport) {
        self.report = Some(report);
        self.touch();
        if !self.game.takes_turns() {
            self.running = false;
        }
    }

    /// Computes one step with `input` (the game's own undo and restart inputs go back
    /// instead). Returns the report, or `None` when nothing was computed.
    pub fn step(&mut self, input: Input) -> Option<&StepReport> {
        match input {
            Input::Undo => {
                self.back();
                return None;
            }
            Input::Restart => {
                self.forget();
                self.game.step(Input::Restart);
                return None;
            }
            _ => {}
        }
        if !self.begin_step(input) {
            return None;
        }
        let r = self.game.step(input);
        self.end_step(r);
        self.report.as_ref()
    }

    /// Drops what describes the last step (after undo, redo, scrubbing).
    pub fn forget(&mut self) {
        self.report = None;
        self.touch();
    }

    /// Undoes one step; false at step 0.
    pub fn back(&mut self) -> bool {
        self.running = false;
        self.forget();
        self.game.undo()
    }

    /// Redoes one undone step; false when there is none.
    pub fn forward(&mut self) -> bool {
        self.forget();
        self.game.redo()
    }

    /// Goes back or forward in the history to step `t` (clamped to what exists).
    pub fn scrub(&mut self, t: u64) {
        self.running = false;
        self.forget();
        while self.game.steps() > t && self.game.undo() {}
        while self.game.steps() < t && self.game.redo() {}
    }

    /// Advances the clock by `dt` seconds while running; the number of steps now due (at most
    /// [`MAX_STEPS_PER_FRAME`]; a frame that owes more drops the rest).
    pub fn due(&mut self, dt: f64) -> usize {
        if !self.running {
            self.acc = 0.0;
            return 0;
        }
        self.acc += dt.max(0.0) * self.kind.steps_per_second() * f64::from(self.speed);
        let n = (self.acc.floor().max(0.0) as usize).min(MAX_STEPS_PER_FRAME);
        self.acc -= n as f64;
        if n == MAX_STEPS_PER_FRAME {
            self.acc = 0.0;
        }
        n
    }

    /// What the play pane says when the game's undo history was trimmed to stay within its
    /// memory budget: `history trimmed: oldest 1200 steps dropped (step back stops at step
    /// 1200)`; `None` while every step can be undone.
    pub fn trimmed_note(&self) -> Option<String> {
        let n = self.game.history_trimmed();
        (n > 0).then(|| {
            format!("history trimmed: oldest {n} steps dropped (step back stops at step {n})")
        })
    }

    /// The status in a few words: `running`, `won (2 points)`, `lost: …`.
    pub fn status_text(&self) -> String {
        match self.game.status() {
            Status::Running => "running".into(),
            Status::Won {
                winner: Some(w), ..
            } => format!("won by {w}"),
            Status::Won { points, .. } => format!("won ({points} point(s))"),
            Status::Lost { reason } => format!("lost: {reason}"),
            Status::Draw { reason } => format!("draw: {reason}"),
        }
    }

    /// The session as a replay: the level (`level_file` when given, else the design the game
    /// started from, embedded), the seed, the inputs of the steps played and the final
    /// state's hash, status and summary.
    pub fn replay(&self, level_file: Option<&Path>) -> Replay {
        let n = self.game.steps() as usize;
        let level = match level_file {
            Some(f) => ReplayLevel::Path(f.to_path_buf()),
            None => ReplayLevel::Embedded(self.start.clone()),
        };
        Replay {
            level,
            seed: self.seed,
            inputs: self.inputs.iter().take(n).copied().collect(),
            words: self
                .kind
                .positional_inputs()
                .then(|| self.words.iter().take(n).cloned().collect()),
            ticks: n as u64,
            hash: None,
            status: None,
            summary: None,
            source: None,
        }
        .recorded(self.game.as_ref())
    }
}

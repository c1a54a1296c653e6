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

use super::step_job::{Away, StepJob, StepOutcome};

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
    /// Steps that outlast [`super::step_job::STEP_WAIT`] go on computing while frames are
    /// drawn ([`PlaySession::compute`]); set by the window (from
    /// `EditorState::background_work`). Off, a step is waited for however long it takes
    /// (tests, exports, the CLI: no frames run to collect it).
    pub background: bool,
    /// In a campaign game of several players, the player (an index into `Game::players`)
    /// the campaign player plays: the shared computer player (`play::computer`) plays every
    /// other. `None` outside campaign play.
    pub campaign_player: Option<usize>,
    /// Fractional steps owed while running.
    acc: f64,
    /// This session's number, unique across sessions ([`PlaySession::id`]).
    id: u64,
    /// Changes whenever the shown state may have changed (unique across sessions).
    version: u64,
    /// The step computing on a worker thread (the game is there; `game` is an [`Away`]).
    job: Option<StepJob>,
    /// The input (and its word, for a kind with positional inputs) of the step begun by
    /// [`PlaySession::begin_step`], recorded once the step is done.
    staged: Option<(Input, Option<String>)>,
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
            background: false,
            campaign_player: None,
            acc: 0.0,
            id: next_version(),
            version: next_version(),
            job: None,
            staged: None,
        }
    }

    /// A number unique to this session (a new game, a new session): what the play pane's
    /// tools keep their results for.
    pub fn id(&self) -> u64 {
        self.id
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

    /// Starts recording a step with `input`: false (and running stops) when the game takes no
    /// more turns or a step is still computing. The caller then steps the game (through
    /// [`PlaySession::compute`]) and calls [`PlaySession::end_step`], which records the input.
    pub fn begin_step(&mut self, input: Input) -> bool {
        if self.job.is_some() {
            return false;
        }
        if !self.game.takes_turns() {
            self.running = false;
            return false;
        }
        let word = self
            .kind
            .positional_inputs()
            .then(|| self.game.input_word(input))
            .map(|w| w.unwrap_or_else(|| input.word().to_string()));
        self.staged = Some((input, word));
        true
    }

    /// Keeps the report of the step just computed and records its input (dropping the
    /// inputs of the steps that could have been redone); running stops when the game takes
    /// no more turns.
    pub fn end_step(&mut self, report: StepReport) {
        if let Some((input, word)) = self.staged.take() {
            let n = (self.game.steps() as usize).saturating_sub(1);
            self.inputs.truncate(n);
            self.inputs.push(input);
            if let Some(w) = word {
                self.words.truncate(n);
                self.words.push(w);
            }
        }
        self.report = Some(report);
        self.touch();
        if !self.game.takes_turns() {
            self.running = false;
        }
    }

    /// Computes a step on a worker thread: `f` gets the game there (with a cancel flag set
    /// by [`PlaySession::cancel_step`]). When it ends within [`super::step_job::STEP_WAIT`]
    /// the game is back and the outcome returned; otherwise `None`, the step stays
    /// computing ([`PlaySession::computing`]) and [`PlaySession::poll`] gives its outcome
    /// in a later frame. While running, the clock waits for it (no steps are owed meanwhile).
    pub fn compute<R: Send + 'static>(
        &mut self,
        f: impl FnOnce(&mut dyn Game) -> R + Send + 'static,
    ) -> Option<StepOutcome<R>> {
        let game = self.send_away();
        self.computed(StepJob::spawn(game, f, self.background))
    }

    /// Takes the game out for a worker, leaving its stand-in ([`Away`]) in its place.
    fn send_away(&mut self) -> Box<dyn Game> {
        let away: Box<dyn Game> = Box::new(Away::of(self.game.as_ref()));
        std::mem::replace(&mut self.game, away)
    }

    /// [`PlaySession::compute`] for a run of several steps ([`StepJob::spawn_run`]: Cancel
    /// keeps the steps computed before it). The kind records the steps with
    /// [`PlaySession::end_run`].
    pub fn compute_run<R: Send + 'static>(
        &mut self,
        f: impl FnOnce(&mut dyn Game) -> R + Send + 'static,
    ) -> Option<StepOutcome<R>> {
        let game = self.send_away();
        self.computed(StepJob::spawn_run(game, f, self.background))
    }

    /// Records a run of `n` steps with `input` just computed, `last` the report of its last
    /// step (dropping the inputs of the steps that could have been redone).
    pub fn end_run(&mut self, input: Input, n: u64, last: Option<StepReport>) {
        let at = self.game.steps().saturating_sub(n) as usize;
        self.inputs.truncate(at);
        self.inputs.extend(std::iter::repeat_n(input, n as usize));
        self.report = last;
        self.touch();
        if !self.game.takes_turns() {
            self.running = false;
        }
    }

    fn computed<R: 'static>(
        &mut self,
        r: Result<(Box<dyn Game>, StepOutcome<R>), StepJob>,
    ) -> Option<StepOutcome<R>> {
        match r {
            Ok((game, outcome)) => {
                self.game = game;
                Some(self.settled(outcome))
            }
            Err(job) => {
                self.job = Some(job);
                None
            }
        }
    }

    /// The outcome of the step computing on the worker, once it is done (the game is then
    /// back); `None` while it computes or when no step does. `R` is the type the kind's
    /// [`PlaySession::compute`] returned.
    pub fn poll<R: 'static>(&mut self) -> Option<StepOutcome<R>> {
        let (game, outcome) = self.job.as_ref()?.poll::<R>()?;
        self.job = None;
        self.game = game;
        self.touch();
        Some(self.settled(outcome))
    }

    /// Forgets the staged input of a step that was not computed (running stops then).
    fn settled<R>(&mut self, outcome: StepOutcome<R>) -> StepOutcome<R> {
        if !matches!(outcome, StepOutcome::Done(_)) {
            self.staged = None;
            self.running = false;
        }
        outcome
    }

    /// The step computing on a worker thread, if any: its number and when it started.
    pub fn computing(&self) -> Option<(u64, std::time::Instant)> {
        self.job.as_ref().map(|j| (j.step, j.started))
    }

    /// True once Cancel was pressed for the step computing.
    pub fn cancelling(&self) -> bool {
        self.job.as_ref().is_some_and(StepJob::cancelling)
    }

    /// Cancel: asks the step computing to stop (its outcome comes through
    /// [`PlaySession::poll`] as [`StepOutcome::Cancelled`], the game as before).
    pub fn cancel_step(&mut self) {
        if let Some(j) = &self.job {
            j.cancel();
        }
    }

    /// [`PlaySession::poll`] for a step of [`PlaySession::step`]: records a computed step
    /// and gives how the step ended in a few words for the status bar (`None` while it
    /// computes, and for a step computed).
    pub fn poll_step(&mut self) -> Option<Option<String>> {
        let outcome = self.poll::<StepReport>()?;
        Some(self.take_outcome(outcome))
    }

    /// Records a step's outcome; the words for the status bar unless it was computed.
    pub fn take_outcome(&mut self, outcome: StepOutcome<StepReport>) -> Option<String> {
        match outcome {
            StepOutcome::Done(r) => {
                self.end_step(r);
                None
            }
            StepOutcome::Cancelled => Some("cancelled".into()),
            StepOutcome::Failed(e) => Some(format!("failed: {e}")),
        }
    }

    /// Computes one step with `input` (the game's own undo and restart inputs go back
    /// instead), on a worker thread ([`PlaySession::compute`]). Returns the report, or
    /// `None` when nothing was computed or the step still computes.
    pub fn step(&mut self, input: Input) -> Option<&StepReport> {
        if self.job.is_some() {
            return None;
        }
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
        let outcome = self.compute(move |g| g.step(input))?;
        self.take_outcome(outcome);
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

//! A play step computed on a worker thread (issue 15): the game moves to the thread for the
//! step and comes back with the result, so a long step (a turn, a tick, a frame whose script
//! runs long, a ply whose moves take long to generate) never blocks the UI thread.
//!
//! Every step goes to a worker; the UI thread waits up to [`STEP_WAIT`] for it, so a short
//! step is shown in the same frame as before. A step still running after that becomes the
//! session's pending job: the play pane shows the last picture with a "computing tick 12…"
//! overlay and a Cancel button, and the session holds a stand-in game ([`Away`]) until the
//! worker hands the game back. Cancel sets the game's cancel flag
//! ([`tilesmith_engine::Game::set_cancel_flag`]): a kind that honours it stops the step and
//! leaves the game exactly as before.

use std::any::Any;
use std::panic::AssertUnwindSafe;
use std::time::{Duration, Instant};

use serde_json::Value;
use tilesmith_engine::game::Layer;
use tilesmith_engine::{Game, GameKind, Input, Pos, Status, StepReport};

use crate::job::{Job, panic_text};

/// How long the UI thread waits for a step before showing it as computing (and the most
/// one step may block a frame).
pub const STEP_WAIT: Duration = Duration::from_millis(8);

/// The most a running game's frame spends computing its due steps (each waited for up to
/// [`STEP_WAIT`]) before it draws.
pub const FRAME_STEP_BUDGET: Duration = Duration::from_millis(12);

/// How a step on the worker ended.
#[derive(Debug)]
pub enum StepOutcome<R> {
    /// The step was computed; the kind's result.
    Done(R),
    /// Cancel was pressed: the game is as before the step.
    Cancelled,
    /// The step panicked (a bug): the game is back, in whatever state the step left it.
    Failed(String),
}

/// What the worker sends back: the game, and the result or the panic message.
type Finished = (Box<dyn Game>, Result<Box<dyn Any + Send>, String>);

/// A step running on a worker thread (a [`Job`] that takes the game along and brings it
/// back, even when the step panics).
pub struct StepJob {
    /// The worker, with the game's cancel flag.
    job: Job<Finished>,
    /// When the step started.
    pub started: Instant,
    /// The number of the step being computed (the steps applied before it, plus one).
    pub step: u64,
    /// The number of steps applied before the step, to undo a step that a kind which does
    /// not honour the cancel flag computed anyway.
    before: u64,
    /// A run of several steps ([`StepJob::spawn_run`]): Cancel stops it after the steps
    /// computed so far, and its result says how far it got.
    run: bool,
}

impl std::fmt::Debug for StepJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StepJob")
            .field("step", &self.step)
            .field("started", &self.started)
            .finish_non_exhaustive()
    }
}

impl StepJob {
    /// Moves `game` to a new thread and runs `f` on it there with a fresh cancel flag.
    /// With `wait`, waits up to [`STEP_WAIT`]: `Ok` with the game and the outcome when the
    /// step ended by then, else `Err` with the running job (the game stays on the thread).
    /// With `wait` false (no frames run to collect a pending step: tests, exports, the CLI)
    /// it waits for the step however long it takes. A step nobody waits for any more (the
    /// play stopped, another file was opened: the job is dropped) is cancelled; its thread
    /// ends on its own and drops the game.
    pub fn spawn<R: Send + 'static>(
        game: Box<dyn Game>,
        f: impl FnOnce(&mut dyn Game) -> R + Send + 'static,
        wait: bool,
    ) -> Result<(Box<dyn Game>, StepOutcome<R>), StepJob> {
        Self::start(game, f, false, wait)
    }

    /// [`StepJob::spawn`] for a run of several steps (`f` steps the game until it is done
    /// or a step is cancelled, which it sees as a step that changed no step count). Cancel
    /// keeps the steps computed before it: the outcome is always `f`'s result (or a panic).
    pub fn spawn_run<R: Send + 'static>(
        game: Box<dyn Game>,
        f: impl FnOnce(&mut dyn Game) -> R + Send + 'static,
        wait: bool,
    ) -> Result<(Box<dyn Game>, StepOutcome<R>), StepJob> {
        Self::start(game, f, true, wait)
    }

    fn start<R: Send + 'static>(
        mut game: Box<dyn Game>,
        f: impl FnOnce(&mut dyn Game) -> R + Send + 'static,
        run: bool,
        wait: bool,
    ) -> Result<(Box<dyn Game>, StepOutcome<R>), StepJob> {
        let before = game.steps();
        let job = Job::spawn("step", move |w| {
            game.set_cancel_flag(Some(w.cancel_flag().clone()));
            // Caught here, not by the job, so that the game comes back.
            let r = std::panic::catch_unwind(AssertUnwindSafe(|| f(game.as_mut())));
            let r = r
                .map(|v| Box::new(v) as Box<dyn Any + Send>)
                .map_err(|p| panic_text(p.as_ref()).unwrap_or_else(|| "the step panicked".into()));
            (game, r)
        })
        .expect("the system starts a thread for the step");
        let job = StepJob {
            started: job.started(),
            job,
            step: before + 1,
            before,
            run,
        };
        let limit = if wait { STEP_WAIT } else { Duration::MAX };
        match job.job.wait(limit) {
            Some(done) => Ok(job.finish(done)),
            None => Err(job),
        }
    }

    /// Asks the step to stop (the game's cancel flag).
    pub fn cancel(&self) {
        self.job.cancel();
    }

    /// True once Cancel was pressed.
    pub fn cancelling(&self) -> bool {
        self.job.cancelling()
    }

    /// The game and the outcome once the worker is done; `None` while it computes.
    pub fn poll<R: 'static>(&self) -> Option<(Box<dyn Game>, StepOutcome<R>)> {
        self.job.poll().map(|done| self.finish(done))
    }

    fn finish<R: 'static>(
        &self,
        done: Result<Finished, String>,
    ) -> (Box<dyn Game>, StepOutcome<R>) {
        let Ok((mut game, r)) = done else {
            unreachable!("the step catches its own panics, so the worker always sends the game")
        };
        game.set_cancel_flag(None);
        let outcome = match r {
            Err(msg) => StepOutcome::Failed(msg),
            Ok(_) if self.cancelling() && !self.run => {
                // A kind that does not honour the flag computed the step: take it back.
                if game.steps() > self.before {
                    game.take_back();
                }
                StepOutcome::Cancelled
            }
            Ok(v) => match v.downcast::<R>() {
                Ok(v) => StepOutcome::Done(*v),
                Err(_) => StepOutcome::Failed("a step's result of another type".into()),
            },
        };
        (game, outcome)
    }
}

/// The stand-in for a game that is on a worker thread: answers the questions of the shell
/// (kind, size, step counts, status, state hash) as the game stood when the step began, and
/// draws nothing. The play pane does not draw the game while a step computes
/// ([`super::play::PlaySession::computing`]); this only keeps the session whole meanwhile.
pub struct Away {
    kind: &'static dyn GameKind,
    size: (usize, usize),
    steps: u64,
    redo: usize,
    trimmed: u64,
    status: Status,
    hash: u64,
}

impl Away {
    /// A stand-in for `game`, taken before it leaves.
    pub fn of(game: &dyn Game) -> Away {
        Away {
            kind: game.kind(),
            size: game.size(),
            steps: game.steps(),
            redo: game.redo_len(),
            trimmed: game.history_trimmed(),
            status: game.status(),
            hash: game.state_hash(),
        }
    }
}

impl std::fmt::Debug for Away {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Away")
            .field("kind", &self.kind.name())
            .field("steps", &self.steps)
            .finish_non_exhaustive()
    }
}

impl Game for Away {
    fn kind(&self) -> &'static dyn GameKind {
        self.kind
    }
    fn size(&self) -> (usize, usize) {
        self.size
    }
    fn step(&mut self, _: Input) -> StepReport {
        StepReport {
            step: self.steps,
            ..StepReport::default()
        }
    }
    fn undo(&mut self) -> bool {
        false
    }
    fn redo(&mut self) -> bool {
        false
    }
    fn steps(&self) -> u64 {
        self.steps
    }
    fn redo_len(&self) -> usize {
        self.redo
    }
    fn history_trimmed(&self) -> u64 {
        self.trimmed
    }
    fn status(&self) -> Status {
        self.status.clone()
    }
    fn takes_turns(&self) -> bool {
        false
    }
    fn summary(&self) -> Value {
        Value::Null
    }
    fn to_level(&self) -> Value {
        Value::Null
    }
    fn layers(&self, _: Pos) -> Vec<Layer> {
        Vec::new()
    }
    fn state_hash(&self) -> u64 {
        self.hash
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

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
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, TryRecvError, channel};
use std::time::{Duration, Instant};

use serde_json::Value;
use tilesmith_engine::game::Layer;
use tilesmith_engine::{Game, GameKind, Input, Pos, Status, StepReport};

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

/// A step running on a worker thread.
pub struct StepJob {
    cancel: Arc<AtomicBool>,
    rx: Receiver<Finished>,
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

impl Drop for StepJob {
    /// A step nobody waits for any more (the play stopped, another file was opened) stops;
    /// its thread ends on its own and drops the game.
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

impl StepJob {
    /// Moves `game` to a new thread and runs `f` on it there with a fresh cancel flag.
    /// With `wait`, waits up to [`STEP_WAIT`]: `Ok` with the game and the outcome when the
    /// step ended by then, else `Err` with the running job (the game stays on the thread).
    /// With `wait` false (no frames run to collect a pending step: tests, exports, the CLI)
    /// it waits for the step however long it takes.
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
        let cancel = Arc::new(AtomicBool::new(false));
        game.set_cancel_flag(Some(cancel.clone()));
        let before = game.steps();
        let (tx, rx) = channel::<Finished>();
        std::thread::spawn(move || {
            let r = std::panic::catch_unwind(AssertUnwindSafe(|| f(game.as_mut())));
            let r = r
                .map(|v| Box::new(v) as Box<dyn Any + Send>)
                .map_err(|p| panic_text(p.as_ref()));
            let _ = tx.send((game, r));
        });
        let job = StepJob {
            cancel,
            rx,
            started: Instant::now(),
            step: before + 1,
            before,
            run,
        };
        let limit = if wait { STEP_WAIT } else { Duration::MAX };
        match job.rx.recv_timeout(limit) {
            Ok(done) => Ok(job.finish(done)),
            Err(RecvTimeoutError::Timeout) => Err(job),
            Err(RecvTimeoutError::Disconnected) => unreachable!("the worker always sends"),
        }
    }

    /// Asks the step to stop (the game's cancel flag).
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// True once Cancel was pressed.
    pub fn cancelling(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// The game and the outcome once the worker is done; `None` while it computes.
    pub fn poll<R: 'static>(&self) -> Option<(Box<dyn Game>, StepOutcome<R>)> {
        match self.rx.try_recv() {
            Ok(done) => Some(self.finish(done)),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => unreachable!("the worker always sends"),
        }
    }

    fn finish<R: 'static>(&self, (mut game, r): Finished) -> (Box<dyn Game>, StepOutcome<R>) {
        game.set_cancel_flag(None);
        let outcome = match r {
            Err(msg) => StepOutcome::Failed(msg),
            Ok(_) if self.cancelling() && !self.run => {
                // A kind that does not honour the flag computed the step: take it back.
                if game.steps() > self.before {
                    game.undo();
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

fn panic_text(p: &(dyn Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "the step panicked".into())
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

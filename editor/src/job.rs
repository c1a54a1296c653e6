//! Work on a worker thread with Cancel, progress and a result: the one mechanism behind what
//! the editor computes off the UI thread (issue 15): a play step (`doc/step_job.rs`), a
//! kind's own long computation (a computer opponent's search), an export (`export/job.rs`),
//! the reading of a level file (`state/load_ops.rs`) and the check of a large map
//! (`EditorState::refresh`). It sits below all of them and imports nothing of the editor. The
//! one other thread, the autosave writer (`files.rs`), is not a job: a long-lived thread fed
//! by a queue, with nothing to cancel or report.
//!
//! [`Job::spawn`] runs the work on a new thread and hands it a [`Worker`]: the cancel flag it
//! reads and the place it reports its progress to. The UI thread keeps the [`Job`]: it waits
//! a little for the result ([`Job::wait`]) or polls it each frame ([`Job::poll`]), reads the
//! latest progress, and asks the work to stop ([`Job::cancel`]). A job nobody keeps any more
//! is cancelled as it is dropped; its thread ends on its own. A panic in the work is caught
//! and comes back as the result's error (its message), so a bug never leaves a job running
//! for ever.

use std::any::Any;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, TryRecvError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What the work of a job gets on its thread: the cancel flag and the progress report.
#[derive(Debug)]
pub struct Worker<P = ()> {
    cancel: Arc<AtomicBool>,
    progress: Arc<Mutex<Option<P>>>,
}

impl<P> Worker<P> {
    /// True once the job was cancelled (Cancel pressed, or the job dropped): the work should
    /// stop as soon as it can.
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// The cancel flag itself, for work that hands it on (a game's
    /// [`tilesmith_engine::Game::set_cancel_flag`], a search's `cancel`).
    pub fn cancel_flag(&self) -> &Arc<AtomicBool> {
        &self.cancel
    }

    /// Reports the progress so far (it replaces the last report).
    pub fn report(&self, progress: P) {
        if let Ok(mut p) = self.progress.lock() {
            *p = Some(progress);
        }
    }
}

/// Work running on a worker thread, giving a `T` when done and reporting progress as `P`.
pub struct Job<T, P = ()> {
    cancel: Arc<AtomicBool>,
    progress: Arc<Mutex<Option<P>>>,
    rx: Receiver<Result<T, String>>,
    started: Instant,
}

impl<T, P> std::fmt::Debug for Job<T, P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Job")
            .field("started", &self.started)
            .field("cancelling", &self.cancelling())
            .finish_non_exhaustive()
    }
}

impl<T, P> Drop for Job<T, P> {
    /// Work nobody waits for any more stops; its thread ends on its own.
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

impl<T: Send + 'static, P: Send + 'static> Job<T, P> {
    /// Runs `work` on a new thread named `name`. Fails only when the system cannot start a
    /// thread.
    pub fn spawn(
        name: &str,
        work: impl FnOnce(&Worker<P>) -> T + Send + 'static,
    ) -> std::io::Result<Self> {
        let cancel = Arc::new(AtomicBool::new(false));
        let progress = Arc::new(Mutex::new(None));
        let worker = Worker {
            cancel: cancel.clone(),
            progress: progress.clone(),
        };
        let (tx, rx) = channel();
        std::thread::Builder::new()
            .name(name.into())
            .spawn(move || {
                let r = std::panic::catch_unwind(AssertUnwindSafe(|| work(&worker)));
                let r = r.map_err(|p| {
                    panic_text(p.as_ref()).unwrap_or_else(|| "the worker panicked".into())
                });
                let _ = tx.send(r);
            })?;
        Ok(Job {
            cancel,
            progress,
            rx,
            started: Instant::now(),
        })
    }
}

impl<T, P> Job<T, P> {
    /// Asks the work to stop ([`Worker::cancelled`] turns true).
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// True once the job was cancelled.
    pub fn cancelling(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// When the job started.
    pub fn started(&self) -> Instant {
        self.started
    }

    /// The progress last reported, if any.
    pub fn progress(&self) -> Option<P>
    where
        P: Clone,
    {
        self.progress.lock().ok()?.clone()
    }

    /// The result once the work is done (an error: the work panicked, with its message);
    /// `None` while it runs. A result is given once.
    pub fn poll(&self) -> Option<Result<T, String>> {
        match self.rx.try_recv() {
            Ok(r) => Some(r),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Err(STOPPED.into())),
        }
    }

    /// [`Job::poll`], waiting up to `limit` for the result (`Duration::MAX`: however long the
    /// work takes).
    pub fn wait(&self, limit: Duration) -> Option<Result<T, String>> {
        match self.rx.recv_timeout(limit) {
            Ok(r) => Some(r),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => Some(Err(STOPPED.into())),
        }
    }
}

/// The error of a job whose thread ended without a result (it was already taken).
const STOPPED: &str = "the worker stopped";

/// The message of a caught panic, when it has one.
pub fn panic_text(p: &(dyn Any + Send)) -> Option<String> {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_gives_its_result_and_progress() {
        let job: Job<u32, u32> = Job::spawn("test", |w| {
            w.report(7);
            41 + 1
        })
        .unwrap();
        assert_eq!(job.wait(Duration::MAX), Some(Ok(42)));
        assert_eq!(job.progress(), Some(7));
        // Once the result is taken, the job says its worker stopped (waited for: the thread
        // may still be dropping its end of the channel just after sending).
        assert_eq!(job.wait(Duration::MAX), Some(Err(STOPPED.into())));
    }

    #[test]
    fn cancel_reaches_the_work_and_a_panic_comes_back_as_an_error() {
        let job: Job<bool> = Job::spawn("test", |w| {
            while !w.cancelled() {
                std::thread::sleep(Duration::from_millis(1));
            }
            true
        })
        .unwrap();
        assert_eq!(job.wait(Duration::from_millis(5)), None);
        job.cancel();
        assert!(job.cancelling());
        assert_eq!(job.wait(Duration::MAX), Some(Ok(true)));
        let job: Job<()> = Job::spawn("test", |_| panic!("boom")).unwrap();
        assert_eq!(job.wait(Duration::MAX), Some(Err("boom".into())));
    }
}

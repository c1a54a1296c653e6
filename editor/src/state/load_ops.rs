//! Opening a level file on a worker thread (issue 15): the engine's loader is bounded, but a
//! file of 200 MB still takes seconds to read and check. The file is read by
//! [`super::read_document`] on a worker; the UI thread waits up to [`LOAD_WAIT`] for it (a
//! small file opens in the same frame as before), then shows "loading level.json… 1.2 s" with
//! Cancel (Esc) until it arrives, and opens it then as [`Action::OpenPath`] would have.
//! Cancel drops the result (the reading thread ends on its own). Meanwhile the actions that
//! would change the open level wait. The worker is a [`Job`] (reading a file has neither
//! progress nor a cancel flag to read: Cancel only stops waiting for it).

use std::path::Path;
use std::time::{Duration, Instant};

use super::work::{LoadJob, ReadResult};
use super::{Action, EditorState, read_document};
use crate::error::EditorError;
use crate::job::Job;

/// How long the UI thread waits for a file before showing it as loading.
pub const LOAD_WAIT: Duration = Duration::from_millis(8);

/// The error of a file whose reading thread ended without its document (a panic: a bug).
fn stopped(path: &Path) -> EditorError {
    EditorError::Read {
        path: path.to_path_buf(),
        source: std::io::Error::other("the reading thread stopped"),
    }
}

impl EditorState {
    /// The file being read on a worker, if any.
    pub fn loading(&self) -> Option<&LoadJob> {
        self.loading.as_ref()
    }

    /// The read file `p`: the result kept by [`EditorState::poll_load`] when it is `p`'s,
    /// else read now on a worker, waiting up to [`LOAD_WAIT`]. `None` while it is read (the
    /// open goes on when it arrives).
    pub(super) fn read_in_background(&mut self, p: &Path) -> Option<ReadResult> {
        if let Some((q, r)) = self.loaded.take()
            && q == p
        {
            return Some(r);
        }
        if !self.background_work {
            return Some(read_document(self.kinds, p));
        }
        let (path, kinds) = (p.to_path_buf(), self.kinds);
        let job = Job::spawn("load", move |_| read_document(kinds, &path))
            .expect("the system starts a thread to read the file");
        match job.wait(LOAD_WAIT) {
            Some(r) => Some(r.unwrap_or_else(|_| Err(stopped(p)))),
            None => {
                self.loading = Some(LoadJob {
                    path: p.to_path_buf(),
                    started: Instant::now(),
                    job,
                });
                self.status = format!("loading {}…", p.display());
                None
            }
        }
    }

    /// Opens the file read on the worker once it has arrived (each frame).
    pub fn poll_load(&mut self) {
        let Some(job) = &self.loading else { return };
        let Some(r) = job.job.poll() else { return };
        let r = r.unwrap_or_else(|_| Err(stopped(&job.path)));
        let path = job.path.clone();
        self.loading = None;
        self.loaded = Some((path.clone(), r));
        // The unsaved-changes question was answered before the file was read.
        self.confirmed = true;
        self.apply(Action::OpenPath(path));
    }

    /// Cancel (or Esc) while a file is read: the open level stays.
    pub(super) fn cancel_load(&mut self) {
        if let Some(job) = self.loading.take() {
            self.status = format!("opening {} cancelled", job.path.display());
        }
    }

    /// While a file is read, the actions that would change the level it replaces wait.
    pub(super) fn load_refuses(&mut self, a: &Action) -> bool {
        let Some(job) = &self.loading else {
            return false;
        };
        let refused = match a {
            Action::CancelLoad => {
                self.cancel_load();
                return true;
            }
            Action::Map(_)
            | Action::Play(_)
            | Action::Kind(_)
            | Action::Campaign(_)
            | Action::ReplaceAll
            | Action::New
            | Action::NewOf(_)
            | Action::OpenPath(_) => true,
            _ => false,
        };
        if refused {
            self.status = format!("loading {}… (Esc cancels)", job.path.display());
        }
        refused
    }
}

//! Opening a level file on a worker thread (issue 15): the engine's loader is bounded, but a
//! file of 200 MB still takes seconds to read and check. The file is read by
//! [`super::read_document`] on a worker; the UI thread waits up to [`LOAD_WAIT`] for it (a
//! small file opens in the same frame as before), then shows "loading level.json… 1.2 s" with
//! Cancel (Esc) until it arrives, and opens it then as [`Action::OpenPath`] would have.
//! Cancel drops the result (the reading thread ends on its own). Meanwhile the actions that
//! would change the open level wait.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError, TryRecvError, channel};
use std::time::{Duration, Instant};

use super::{Action, EditorState, read_document};
use crate::doc::KindDoc;
use crate::error::EditorError;

/// How long the UI thread waits for a file before showing it as loading.
pub const LOAD_WAIT: Duration = Duration::from_millis(8);

/// What reading a file gives: the document and the file's text, or why it cannot be opened.
pub type ReadResult = Result<(Box<dyn KindDoc>, String), EditorError>;

/// A file being read on a worker thread.
#[derive(Debug)]
pub struct LoadJob {
    /// The file.
    pub path: PathBuf,
    /// When reading started.
    pub started: Instant,
    rx: Receiver<ReadResult>,
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
        let (tx, rx) = channel();
        let (path, kinds) = (p.to_path_buf(), self.kinds);
        std::thread::spawn(move || {
            let _ = tx.send(read_document(kinds, &path));
        });
        match rx.recv_timeout(LOAD_WAIT) {
            Ok(r) => Some(r),
            Err(RecvTimeoutError::Timeout) => {
                self.loading = Some(LoadJob {
                    path: p.to_path_buf(),
                    started: Instant::now(),
                    rx,
                });
                self.status = format!("loading {}…", p.display());
                None
            }
            Err(RecvTimeoutError::Disconnected) => Some(Err(EditorError::Read {
                path: p.to_path_buf(),
                source: std::io::Error::other("the reading thread stopped"),
            })),
        }
    }

    /// Opens the file read on the worker once it has arrived (each frame).
    pub fn poll_load(&mut self) {
        let Some(job) = &self.loading else { return };
        let r = match job.rx.try_recv() {
            Ok(r) => r,
            Err(TryRecvError::Empty) => return,
            Err(TryRecvError::Disconnected) => Err(EditorError::Read {
                path: job.path.clone(),
                source: std::io::Error::other("the reading thread stopped"),
            }),
        };
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

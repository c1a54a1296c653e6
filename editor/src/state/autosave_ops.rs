//! Autosave: a copy of the document with unsaved changes in the data folder, written
//! [`AUTOSAVE_FIRST`](crate::files::AUTOSAVE_FIRST) after the first change it lacks and then
//! at most every [`AUTOSAVE_GAP`](crate::files::AUTOSAVE_GAP) while changes continue, by a
//! worker thread ([`AutosaveWorker`]). A failing write leaves
//! [`EditorState::autosave_error`] set (a warning the window shows) until a copy is written.

use std::time::{Duration, Instant};

use super::EditorState;
use crate::files::AutosaveWorker;

impl EditorState {
    /// The autosave clock, called by the app every frame with the time: reads the worker's
    /// reports, notes unsaved changes the copy lacks, and hands a copy of the document to
    /// the worker when one is due. Returns how long until it should be called again (for the
    /// app's repaint), `None` when nothing waits.
    pub fn autosave_tick(&mut self, now: Instant) -> Option<Duration> {
        let reports = self
            .autosave_worker
            .as_mut()
            .map(AutosaveWorker::poll)
            .unwrap_or_default();
        for r in reports {
            self.autosave_report(r);
        }
        self.autosave.as_ref()?;
        let g = self.doc.map().generation();
        if !self.dirty() {
            self.autosave_timer.clear();
            // Back at the saved state (an undo, a redo): a copy holds changes the document no
            // longer has, and would be offered back after a crash. It goes, once the writes
            // queued before are done (so that none brings it back).
            if self.autosave_on_disk {
                self.autosave_discard();
            }
        } else if g != self.autosaved_gen {
            self.autosave_timer.changed(now);
        }
        if self.autosave_timer.is_due(now) {
            self.autosave_start(now);
        }
        let busy = self
            .autosave_worker
            .as_ref()
            .is_some_and(AutosaveWorker::busy);
        let wait = self
            .autosave_timer
            .due_at()
            .map(|t| t.saturating_duration_since(now));
        match (wait, busy) {
            (Some(w), true) => Some(w.min(Duration::from_millis(100))),
            (None, true) => Some(Duration::from_millis(100)),
            (w, false) => w,
        }
    }

    /// True while an autosave copy is queued or being written (its report not read yet).
    pub fn autosave_busy(&self) -> bool {
        self.autosave_worker
            .as_ref()
            .is_some_and(AutosaveWorker::busy)
    }

    /// Hands a copy of the document to the worker (starting it if needed); without a
    /// worker thread the copy is written here.
    fn autosave_start(&mut self, now: Instant) {
        let Some(a) = self.autosave.clone() else {
            return;
        };
        self.autosave_timer.wrote(now);
        self.autosaved_gen = self.doc.map().generation();
        self.autosave_on_disk = true;
        let level = self.doc_json();
        if self.autosave_worker.is_none() {
            self.autosave_worker = AutosaveWorker::start().ok();
        }
        let sent = self
            .autosave_worker
            .as_mut()
            .is_some_and(|w| w.send(&a, self.path.as_deref(), level.clone()));
        if !sent {
            self.autosave_worker = None;
            let r = a
                .write(self.path.as_deref(), &level)
                .map_err(|e| format!("{}: {e}", a.dir.display()));
            self.autosave_report(r);
        }
    }

    /// Takes a write's report: success clears the warning; a failure sets it and makes the
    /// changes wait again, so the next copy is tried [`crate::files::AUTOSAVE_GAP`] later.
    fn autosave_report(&mut self, r: Result<(), String>) {
        match r {
            Ok(()) => self.autosave_error = None,
            Err(e) => {
                self.autosave_error = Some(e);
                self.autosaved_gen = 0;
            }
        }
    }

    /// Waits for the copies being written (before a save or discard removes the copy, so
    /// that a late write cannot bring it back).
    pub(super) fn autosave_flush(&mut self) {
        let reports = self
            .autosave_worker
            .as_mut()
            .map(AutosaveWorker::flush)
            .unwrap_or_default();
        for r in reports {
            self.autosave_report(r);
        }
        self.autosave_timer.clear();
    }

    /// Removes the document's autosave copy after the writes in progress (Save, Discard, and
    /// the saved state reached again).
    pub(super) fn autosave_discard(&mut self) {
        self.autosave_flush();
        if let Some(a) = &self.autosave {
            a.remove(self.path.as_deref());
        }
        self.autosave_on_disk = false;
        self.autosaved_gen = 0;
    }

    /// Writes the copy now, on this thread (`Action::Autosave`), when the document has
    /// changes the copy lacks.
    pub(super) fn autosave_now(&mut self) {
        let g = self.doc.map().generation();
        if !self.dirty() || g == self.autosaved_gen {
            return;
        }
        self.autosave_flush();
        if let Some(a) = self.autosave.clone() {
            let r = a
                .write(self.path.as_deref(), &self.doc_json())
                .map_err(|e| format!("{}: {e}", a.dir.display()));
            let ok = r.is_ok();
            self.autosave_report(r);
            if ok {
                self.autosaved_gen = g;
                self.autosave_on_disk = true;
            }
        }
    }
}

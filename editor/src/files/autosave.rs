//! The autosave copy of a document in the platform's data directory: where it goes, when it
//! is due ([`AutosaveTimer`]) and the worker thread that writes it ([`AutosaveWorker`]).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// The autosave copy of one document: `DIR/autosave-KEY.json` holding
/// `{"file": original path or null, "level": …}`, where KEY is a hash of the original path
/// (`untitled` for a new document).
#[derive(Clone, Debug)]
pub struct Autosave {
    /// The folder holding autosave copies (the platform data directory).
    pub dir: PathBuf,
}

/// An autosave copy found on disk.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    /// Where the copy is.
    pub copy: PathBuf,
    /// The document it belongs to (`None` for an untitled one).
    pub file: Option<PathBuf>,
    /// The saved level document.
    pub level: Value,
}

impl Autosave {
    /// The copy's path for a document at `file` (or an untitled one).
    pub fn path_for(&self, file: Option<&Path>) -> PathBuf {
        let key = match file {
            None => "untitled".to_string(),
            Some(f) => {
                let f = std::fs::canonicalize(f).unwrap_or_else(|_| f.to_path_buf());
                let mut h = tilesmith_engine::hash::Fnv::new();
                h.write(f.display().to_string().as_bytes());
                format!("{:016x}", h.finish())
            }
        };
        self.dir.join(format!("autosave-{key}.json"))
    }

    /// Writes the copy of `level` for the document at `file`.
    ///
    /// # Errors
    /// When the folder cannot be created or the copy cannot be written.
    pub fn write(&self, file: Option<&Path>, level: &Value) -> std::io::Result<()> {
        std::fs::create_dir_all(&self.dir)?;
        let v = json!({
            "file": file.map(|f| f.display().to_string()),
            "level": level,
        });
        tilesmith_engine::json_text::write_atomic(&self.path_for(file), v.to_string().as_bytes())
    }

    /// The copy for the document at `file`, if one was left behind (by a crash).
    pub fn find(&self, file: Option<&Path>) -> Option<Found> {
        let copy = self.path_for(file);
        let text = std::fs::read_to_string(&copy).ok()?;
        let v: Value = serde_json::from_str(&text).ok()?;
        Some(Found {
            file: v.get("file").and_then(Value::as_str).map(PathBuf::from),
            level: v.get("level")?.clone(),
            copy,
        })
    }

    /// Deletes the copy for the document at `file` (after a save or a clean exit).
    pub fn remove(&self, file: Option<&Path>) {
        let _ = std::fs::remove_file(self.path_for(file));
    }
}

/// The first autosave copy is written this long after the first change it lacks…
pub const AUTOSAVE_FIRST: Duration = Duration::from_secs(2);
/// …and the next ones at most this often while changes continue. So a copy is never more
/// than about 3 s behind the document (the write itself takes milliseconds), and a kill at
/// any moment loses at most the changes of the last 3 s.
pub const AUTOSAVE_GAP: Duration = Duration::from_secs(3);

/// When to write the autosave copy: [`AUTOSAVE_FIRST`] after the first change the copy
/// lacks, and never sooner than [`AUTOSAVE_GAP`] after the last write (debounced, so a long
/// run of edits writes one copy every 3 s rather than one per edit). Times are passed in, so
/// the rules can be tested without waiting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AutosaveTimer {
    /// When the oldest change the copy lacks was noticed.
    changed_at: Option<Instant>,
    /// When the last copy was started.
    written_at: Option<Instant>,
}

impl AutosaveTimer {
    /// Notes at `now` that the document has changes the copy lacks; the first call since
    /// the last write starts the clock.
    pub fn changed(&mut self, now: Instant) {
        self.changed_at.get_or_insert(now);
    }

    /// Forgets waiting changes (the document was saved, or holds no unsaved change).
    pub fn clear(&mut self) {
        self.changed_at = None;
    }

    /// When the next copy is due: `None` while the copy lacks nothing.
    pub fn due_at(&self) -> Option<Instant> {
        let first = self.changed_at? + AUTOSAVE_FIRST;
        Some(match self.written_at {
            Some(w) => first.max(w + AUTOSAVE_GAP),
            None => first,
        })
    }

    /// True when a copy is due at `now`.
    pub fn is_due(&self, now: Instant) -> bool {
        self.due_at().is_some_and(|t| now >= t)
    }

    /// Notes that a copy of everything changed so far was started at `now`.
    pub fn wrote(&mut self, now: Instant) {
        self.changed_at = None;
        self.written_at = Some(now);
    }
}

/// One copy for the worker to write.
struct AutosaveJob {
    autosave: Autosave,
    file: Option<PathBuf>,
    level: Value,
}

/// Writes autosave copies on a thread of its own (`tilesmith-autosave`), so that turning
/// the document into text and writing it (atomically, as Save does) never stalls a frame.
/// Copies queued while one is being written are merged: only the newest of a document is
/// written. Each finished write reports `Ok` or the error's text.
#[derive(Debug)]
pub struct AutosaveWorker {
    jobs: std::sync::mpsc::Sender<AutosaveJob>,
    done: std::sync::mpsc::Receiver<Result<(), String>>,
    /// Jobs sent whose report has not been read.
    in_flight: usize,
}

impl std::fmt::Debug for AutosaveJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AutosaveJob")
            .field("file", &self.file)
            .finish_non_exhaustive()
    }
}

impl AutosaveWorker {
    /// Starts the worker thread.
    ///
    /// # Errors
    /// When the thread cannot be started.
    pub fn start() -> std::io::Result<Self> {
        let (jobs, rx) = std::sync::mpsc::channel::<AutosaveJob>();
        let (tx, done) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .name("tilesmith-autosave".into())
            .spawn(move || {
                while let Ok(mut job) = rx.recv() {
                    // Skip to the newest copy waiting; each skipped one still reports.
                    let mut skipped = 0;
                    while let Ok(newer) = rx.try_recv() {
                        job = newer;
                        skipped += 1;
                    }
                    let r = job
                        .autosave
                        .write(job.file.as_deref(), &job.level)
                        .map_err(|e| format!("{}: {e}", job.autosave.dir.display()));
                    for _ in 0..skipped {
                        let _ = tx.send(r.clone());
                    }
                    if tx.send(r).is_err() {
                        break;
                    }
                }
            })?;
        Ok(Self {
            jobs,
            done,
            in_flight: 0,
        })
    }

    /// Queues a copy of `level` (the document at `file`, or an untitled one) in `autosave`.
    /// False when the worker has stopped (the copy is not written).
    pub fn send(&mut self, autosave: &Autosave, file: Option<&Path>, level: Value) -> bool {
        let job = AutosaveJob {
            autosave: autosave.clone(),
            file: file.map(Path::to_path_buf),
            level,
        };
        let sent = self.jobs.send(job).is_ok();
        self.in_flight += usize::from(sent);
        sent
    }

    /// The reports of the writes finished since the last call, oldest first.
    pub fn poll(&mut self) -> Vec<Result<(), String>> {
        let out: Vec<_> = self.done.try_iter().collect();
        self.in_flight -= out.len().min(self.in_flight);
        out
    }

    /// Waits until every queued copy is written (before a save removes the copy, so that a
    /// late write cannot bring it back); the reports, oldest first.
    pub fn flush(&mut self) -> Vec<Result<(), String>> {
        let mut out = Vec::new();
        while self.in_flight > 0 {
            match self.done.recv() {
                Ok(r) => out.push(r),
                Err(_) => break,
            }
            self.in_flight -= 1;
        }
        self.in_flight = 0;
        out
    }

    /// True while a copy is queued or being written.
    pub fn busy(&self) -> bool {
        self.in_flight > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_copy_waits_two_seconds_and_later_ones_come_at_most_every_three() {
        let t0 = Instant::now();
        let at = |ms: u64| t0 + Duration::from_millis(ms);
        let mut t = AutosaveTimer::default();
        assert_eq!(t.due_at(), None, "nothing changed: nothing due");
        t.changed(at(0));
        // Later changes do not push the first copy back.
        t.changed(at(1500));
        assert!(!t.is_due(at(1999)));
        assert!(t.is_due(at(2000)));
        t.wrote(at(2000));
        assert_eq!(t.due_at(), None);
        // An edit right after the write: due 3 s after the write, not 2 s after the edit.
        t.changed(at(2100));
        assert_eq!(t.due_at(), Some(at(5000)));
        t.wrote(at(5000));
        // An edit long after: 2 s after it.
        t.changed(at(20_000));
        assert_eq!(t.due_at(), Some(at(22_000)));
        // Changes every 100 ms for 30 s: no change waits more than 3 s for a copy.
        let mut t = AutosaveTimer::default();
        let mut oldest_unsaved: Option<u64> = None;
        let mut worst = 0;
        for ms in (0..30_000).step_by(100) {
            t.changed(at(ms));
            oldest_unsaved.get_or_insert(ms);
            if t.is_due(at(ms)) {
                worst = worst.max(ms - oldest_unsaved.unwrap_or(ms));
                oldest_unsaved = None;
                t.wrote(at(ms));
            }
        }
        assert!(worst <= 3000, "a change waited {worst} ms");
        assert!(worst >= 2000, "copies are debounced, not written per edit");
        t.clear();
        assert_eq!(t.due_at(), None);
    }

    #[test]
    fn the_worker_writes_the_newest_copy_and_reports_failures() {
        let dir = tempfile::tempdir().unwrap();
        let auto = Autosave {
            dir: dir.path().join("data"),
        };
        let mut w = AutosaveWorker::start().unwrap();
        for i in 0..5 {
            assert!(w.send(&auto, None, json!({ "n": i })));
        }
        let reports = w.flush();
        assert_eq!(reports.len(), 5);
        assert!(reports.iter().all(Result::is_ok));
        assert_eq!(auto.find(None).unwrap().level, json!({"n": 4}));
        assert!(!w.busy());
        // A data folder that is a file cannot hold copies: the error names the folder.
        let blocked = Autosave {
            dir: dir.path().join("file"),
        };
        std::fs::write(&blocked.dir, "x").unwrap();
        w.send(&blocked, None, json!({}));
        let r = w.flush();
        assert_eq!(r.len(), 1);
        let e = r[0].clone().unwrap_err();
        assert!(e.contains("file"), "{e}");
    }
}

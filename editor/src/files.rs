//! Files around the document: native dialogs behind a trait, the settings file with the recent
//! files, and the autosave copy in the platform's data directory.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::doc::registry::Kinds;

/// File dialogs. The app uses [`RfdDialogs`]; tests script answers with [`ScriptedDialogs`] so
/// no real dialog ever opens.
pub trait Dialogs {
    /// Asks for a level file to open; `None` when cancelled.
    fn pick_open(&mut self) -> Option<PathBuf>;
    /// Asks where to save a level, suggesting `file_name`; `None` when cancelled.
    fn pick_save(&mut self, file_name: &str) -> Option<PathBuf>;
    /// Asks where to save a replay, suggesting `file_name`; `None` when cancelled.
    fn pick_save_replay(&mut self, file_name: &str) -> Option<PathBuf> {
        self.pick_save(file_name)
    }
    /// Asks for level files to add to a campaign (several may be chosen); empty when
    /// cancelled. By default one file from [`Dialogs::pick_open`].
    fn pick_levels(&mut self) -> Vec<PathBuf> {
        self.pick_open().into_iter().collect()
    }
    /// Asks where to save a campaign, suggesting `file_name`; `None` when cancelled.
    fn pick_save_campaign(&mut self, file_name: &str) -> Option<PathBuf> {
        self.pick_save(file_name)
    }
    /// Asks where to save an exported image (`file_name` ends in `.png` or `.gif`); `None`
    /// when cancelled.
    fn pick_save_image(&mut self, file_name: &str) -> Option<PathBuf> {
        self.pick_save(file_name)
    }
    /// Why the last request showed no dialog, when no native dialog is available (no XDG
    /// desktop portal and no `zenity`); cleared by the call. The editor then opens its
    /// built-in chooser and says why in the status bar. `None` after a real answer or a
    /// cancel.
    fn take_unavailable(&mut self) -> Option<String> {
        None
    }
    /// The folder the next dialog starts in: the open document's folder.
    fn set_dir(&mut self, _dir: &Path) {}
}

/// A request for the built-in file chooser, made when no native dialog is available
/// ([`Dialogs::take_unavailable`]); the UI draws it (`egui_file`) and answers with
/// [`crate::state::Action::ChooserDone`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chooser {
    /// What the chosen file is for (and so the title, filter and extension).
    pub purpose: ChooserFor,
    /// The folder it starts in: the document's (or the campaign's) folder.
    pub dir: PathBuf,
    /// The suggested file name (when saving).
    pub file_name: String,
}

/// What the built-in chooser asks for: each file dialog of the editor that can fall back to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChooserFor {
    /// File → Open: a level, FPGDL program, rules file or campaign.
    Open,
    /// File → Save As: where to save the level.
    SaveLevel,
    /// Campaign → Add levels: level files to add (several may be chosen).
    AddLevels,
    /// File → New campaign: where to create it.
    NewCampaign,
    /// Save As on the campaign overview.
    SaveCampaignAs,
    /// Play → Record: where to save the replay.
    SaveReplay,
    /// File → Export PNG: where to write the image (`.png`).
    ExportPng,
    /// Export GIF of this play: where to write the animation (`.gif`).
    ExportGif,
}

impl ChooserFor {
    /// True when a file name is typed (a save dialog), false when files are picked.
    pub fn saves(self) -> bool {
        !matches!(self, ChooserFor::Open | ChooserFor::AddLevels)
    }

    /// The dialog's title.
    pub fn title(self) -> &'static str {
        match self {
            ChooserFor::Open => "Open a level",
            ChooserFor::SaveLevel => "Save the level as",
            ChooserFor::AddLevels => "Add levels to the campaign",
            ChooserFor::NewCampaign => "Create the campaign file",
            ChooserFor::SaveCampaignAs => "Save the campaign as",
            ChooserFor::SaveReplay => "Save the replay as",
            ChooserFor::ExportPng => "Export the level as a PNG image",
            ChooserFor::ExportGif => "Export the play as a GIF",
        }
    }

    /// The extension the chosen file must have (lower case, no dot): the chooser lists only
    /// such files (and folders), and one is added to a typed name without it. `None` when any
    /// file is accepted (a level may be JSON, Lua or ZRF).
    pub fn extension(self) -> Option<&'static str> {
        match self {
            ChooserFor::Open => None,
            ChooserFor::ExportPng => Some("png"),
            ChooserFor::ExportGif => Some("gif"),
            _ => Some("json"),
        }
    }

    /// `path` with [`ChooserFor::extension`] added when it has another one or none
    /// (`level` → `level.png`, `level.jpg` → `level.jpg.png`); unchanged otherwise.
    pub fn with_extension(self, path: PathBuf) -> PathBuf {
        match self.extension() {
            Some(ext) if !has_extension(&path, ext) => {
                let mut s = path.into_os_string();
                s.push(".");
                s.push(ext);
                PathBuf::from(s)
            }
            _ => path,
        }
    }
}

/// True when `path` ends in `.ext` (any case).
pub fn has_extension(path: &Path, ext: &str) -> bool {
    path.extension()
        .is_some_and(|e| e.to_string_lossy().eq_ignore_ascii_case(ext))
}

/// True when an executable `name` is in one of the `PATH` folders.
pub fn on_path(name: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|paths| {
        std::env::split_paths(&paths).any(|d| {
            let f = d.join(name);
            f.metadata().is_ok_and(|m| m.is_file())
        })
    })
}

/// Whether `rfd` can show a native dialog here: `Err` with the reason when there is neither
/// a D-Bus session bus (where the XDG desktop portal lives) nor `zenity` on `PATH` (rfd's
/// fallback). A session bus without a portal is found out only by asking: see
/// [`RfdDialogs`].
pub fn native_dialogs() -> Result<(), String> {
    let bus = std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some_and(|b| !b.is_empty());
    if bus || on_path("zenity") {
        Ok(())
    } else {
        Err(
            "no native file dialog (no D-Bus session for the XDG desktop portal, and zenity \
             is not installed)"
                .into(),
        )
    }
}

/// Native dialogs through `rfd` (the XDG desktop portal, or `zenity` as a fallback).
///
/// rfd gives `None` at once, as for a cancel, when it finds neither. So a request is not
/// made when [`native_dialogs`] says there is neither a D-Bus session nor `zenity`, and an
/// answer of `None` within [`INSTANT`] with no `zenity` on `PATH` (a bus without a portal)
/// also counts as "no dialog available": [`Dialogs::take_unavailable`] then says why.
#[derive(Debug, Default)]
pub struct RfdDialogs {
    /// The folder dialogs start in.
    pub dir: Option<PathBuf>,
    /// Why the last request showed no dialog.
    unavailable: Option<String>,
    /// The Open dialog's filters: levels and the kinds' own file formats
    /// ([`Kinds::open_filters`]).
    open_filters: Vec<(String, Vec<&'static str>)>,
}

/// A "cancel" faster than this with no `zenity` installed means no dialog was shown.
pub const INSTANT: Duration = Duration::from_millis(250);

impl RfdDialogs {
    /// Dialogs starting in `dir`, whose Open dialog offers the file formats of `kinds`.
    pub fn new(dir: Option<PathBuf>, kinds: Kinds) -> Self {
        Self {
            dir,
            unavailable: None,
            open_filters: kinds.open_filters(),
        }
    }

    /// Runs one rfd request, noting when no dialog could be shown.
    fn ask<T>(&mut self, f: impl FnOnce(&Self) -> Option<T>) -> Option<T> {
        self.unavailable = None;
        if let Err(why) = native_dialogs() {
            self.unavailable = Some(why);
            return None;
        }
        let start = Instant::now();
        let answer = f(self);
        if answer.is_none() && start.elapsed() < INSTANT && !on_path("zenity") {
            self.unavailable = Some(
                "no native file dialog answered (no XDG desktop portal, and zenity is not \
                 installed)"
                    .into(),
            );
        }
        answer
    }
}

impl Dialogs for RfdDialogs {
    fn take_unavailable(&mut self) -> Option<String> {
        self.unavailable.take()
    }

    fn set_dir(&mut self, dir: &Path) {
        self.dir = Some(dir.to_path_buf());
    }

    fn pick_open(&mut self) -> Option<PathBuf> {
        self.ask(Self::rfd_open)
    }

    fn pick_save(&mut self, file_name: &str) -> Option<PathBuf> {
        self.ask(|s| s.rfd_save(file_name))
    }

    fn pick_levels(&mut self) -> Vec<PathBuf> {
        self.ask(Self::rfd_levels).unwrap_or_default()
    }

    fn pick_save_campaign(&mut self, file_name: &str) -> Option<PathBuf> {
        self.ask(|s| s.rfd_save_campaign(file_name))
    }

    fn pick_save_replay(&mut self, file_name: &str) -> Option<PathBuf> {
        self.ask(|s| s.rfd_save_as("Save the replay", "Replay (JSON)", "json", file_name))
    }

    fn pick_save_image(&mut self, file_name: &str) -> Option<PathBuf> {
        let (what, ext) = if has_extension(Path::new(file_name), "gif") {
            ("Animation (GIF)", "gif")
        } else {
            ("Image (PNG)", "png")
        };
        self.ask(|s| s.rfd_save_as("Export", what, ext, file_name))
    }
}

impl RfdDialogs {
    fn rfd_open(&self) -> Option<PathBuf> {
        let mut d = rfd::FileDialog::new();
        for (name, extensions) in &self.open_filters {
            d = d.add_filter(name, extensions);
        }
        if let Some(dir) = &self.dir {
            d = d.set_directory(dir);
        }
        d.pick_file()
    }

    fn rfd_save(&self, file_name: &str) -> Option<PathBuf> {
        let mut d = rfd::FileDialog::new()
            .add_filter("Level (JSON)", &["json"])
            .set_file_name(file_name);
        if let Some(dir) = &self.dir {
            d = d.set_directory(dir);
        }
        d.save_file()
    }

    fn rfd_levels(&self) -> Option<Vec<PathBuf>> {
        let mut d = rfd::FileDialog::new()
            .set_title("Add levels to the campaign")
            .add_filter("Level (JSON)", &["json"])
            .add_filter("All files", &["*"]);
        if let Some(dir) = &self.dir {
            d = d.set_directory(dir);
        }
        d.pick_files()
    }

    /// A save dialog titled `title` with one filter (`what`, files ending in `.ext`).
    fn rfd_save_as(&self, title: &str, what: &str, ext: &str, file_name: &str) -> Option<PathBuf> {
        let mut d = rfd::FileDialog::new()
            .set_title(title)
            .add_filter(what, &[ext])
            .set_file_name(file_name);
        if let Some(dir) = &self.dir {
            d = d.set_directory(dir);
        }
        d.save_file()
    }

    fn rfd_save_campaign(&self, file_name: &str) -> Option<PathBuf> {
        let mut d = rfd::FileDialog::new()
            .set_title("Save the campaign")
            .add_filter("Campaign (JSON)", &["json"])
            .set_file_name(file_name);
        if let Some(dir) = &self.dir {
            d = d.set_directory(dir);
        }
        d.save_file()
    }
}

/// Dialogs that give pre-set answers, for tests (each call pops the next answer).
#[derive(Debug, Default)]
pub struct ScriptedDialogs {
    /// Answers to [`Dialogs::pick_open`], first used first.
    pub opens: Vec<PathBuf>,
    /// Answers to [`Dialogs::pick_save`], first used first.
    pub saves: Vec<PathBuf>,
}

impl Dialogs for ScriptedDialogs {
    fn pick_open(&mut self) -> Option<PathBuf> {
        (!self.opens.is_empty()).then(|| self.opens.remove(0))
    }

    fn pick_save(&mut self, _file_name: &str) -> Option<PathBuf> {
        (!self.saves.is_empty()).then(|| self.saves.remove(0))
    }
}

/// Dialogs as on a machine without a native one (no XDG desktop portal, no `zenity`), for
/// tests of the built-in chooser: every pick gives `None`, and
/// [`Dialogs::take_unavailable`] the reason held here.
#[derive(Debug, Default)]
pub struct NoNativeDialogs(pub String);

impl Dialogs for NoNativeDialogs {
    fn pick_open(&mut self) -> Option<PathBuf> {
        None
    }

    fn pick_save(&mut self, _file_name: &str) -> Option<PathBuf> {
        None
    }

    fn take_unavailable(&mut self) -> Option<String> {
        Some(self.0.clone())
    }
}

/// How many recent files are remembered.
pub const MAX_RECENT: usize = 10;

/// Settings kept between runs (a small JSON file in the config directory), read and written
/// with serde. A member that is missing or of the wrong type takes its default; unknown
/// members are ignored.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Recently opened or saved files, newest first.
    #[serde(deserialize_with = "lenient_recent", serialize_with = "lossy_recent")]
    pub recent: Vec<PathBuf>,
    /// Whether the grid is shown.
    #[serde(deserialize_with = "lenient_bool_true")]
    pub grid: bool,
    /// Whether the left panel (the palette) is shown (View → Palette panel, Ctrl+B).
    #[serde(deserialize_with = "lenient_bool_true")]
    pub show_palette: bool,
    /// Whether the right panel (inspector, properties, rules, play pane) is shown
    /// (View → Side panel, Ctrl+Alt+B).
    #[serde(deserialize_with = "lenient_bool_true")]
    pub show_side: bool,
    /// Whether the problems list above the status bar is shown (View → Problems list,
    /// Ctrl+J).
    #[serde(deserialize_with = "lenient_bool_true")]
    pub show_problems: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            recent: Vec::new(),
            grid: true,
            show_palette: true,
            show_side: true,
            show_problems: true,
        }
    }
}

/// The recent list, keeping the entries that are strings (at most [`MAX_RECENT`]).
fn lenient_recent<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<PathBuf>, D::Error> {
    let v: Value = serde::Deserialize::deserialize(d)?;
    Ok(v.as_array()
        .map(|list| {
            list.iter()
                .filter_map(Value::as_str)
                .map(PathBuf::from)
                .take(MAX_RECENT)
                .collect()
        })
        .unwrap_or_default())
}

/// The recent list as strings (a path that is not UTF-8 is written lossily rather than
/// failing the whole settings file).
fn lossy_recent<S: serde::Serializer>(recent: &[PathBuf], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(recent.iter().map(|p| p.to_string_lossy()))
}

/// A boolean, or `true` when the member holds something else.
fn lenient_bool_true<'de, D: serde::Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    let v: Value = serde::Deserialize::deserialize(d)?;
    Ok(v.as_bool().unwrap_or(true))
}

impl Settings {
    /// Puts `path` first in the recent list (once), keeping at most [`MAX_RECENT`].
    pub fn add_recent(&mut self, path: &Path) {
        let p = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        self.recent.retain(|r| r != &p);
        self.recent.insert(0, p);
        self.recent.truncate(MAX_RECENT);
    }

    /// Reads settings from `file`; defaults when missing or unreadable.
    pub fn load(file: &Path) -> Self {
        std::fs::read_to_string(file)
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or_default()
    }

    /// Writes settings to `file` (atomically); errors are returned, not fatal.
    ///
    /// # Errors
    /// When the directory cannot be created or the file cannot be written.
    pub fn save(&self, file: &Path) -> std::io::Result<()> {
        if let Some(dir) = file.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let text = serde_json::to_string(self).map_err(std::io::Error::other)?;
        tilesmith_engine::json_text::write_atomic(file, text.as_bytes())
    }
}

/// The platform directories of the editor: `(config dir, data dir)`, e.g.
/// `~/.config/tilesmith` and `~/.local/share/tilesmith` on Linux.
pub fn project_dirs() -> Option<(PathBuf, PathBuf)> {
    let d = directories::ProjectDirs::from("", "", "tilesmith")?;
    Some((d.config_dir().to_path_buf(), d.data_dir().to_path_buf()))
}

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

    #[test]
    fn settings_round_trip_through_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("sub/settings.json");
        let mut s = Settings {
            grid: false,
            ..Default::default()
        };
        s.add_recent(Path::new("/levels/a.json"));
        s.add_recent(Path::new("/levels/b.json"));
        s.add_recent(Path::new("/levels/a.json"));
        assert_eq!(
            s.recent,
            [
                PathBuf::from("/levels/a.json"),
                PathBuf::from("/levels/b.json")
            ]
        );
        s.save(&f).unwrap();
        assert_eq!(Settings::load(&f), s);
    }

    #[test]
    fn settings_files_with_missing_or_odd_members_load_with_defaults() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("settings.json");
        for (text, want_grid, want_recent) in [
            ("{}", true, 0),
            ("not json", true, 0),
            (r#"{"grid": "yes", "recent": 3}"#, true, 0),
            (
                r#"{"grid": false, "recent": ["/a", 7, "/b"], "other": 1}"#,
                false,
                2,
            ),
        ] {
            std::fs::write(&f, text).unwrap();
            let s = Settings::load(&f);
            assert_eq!(s.grid, want_grid, "{text}");
            assert_eq!(s.recent.len(), want_recent, "{text}");
        }
        let many: Vec<String> = (0..25).map(|i| format!("/l{i}.json")).collect();
        std::fs::write(&f, serde_json::json!({ "recent": many }).to_string()).unwrap();
        assert_eq!(Settings::load(&f).recent.len(), MAX_RECENT);
        assert_eq!(
            Settings::load(&dir.path().join("missing.json")),
            Settings::default()
        );
    }
}

//! The campaign overview: a campaign file (an ordered set of levels of any kind, unlocked by
//! points; spec boulder §2, §2.1) opened in the editor, shown as cards in the style of the
//! game's level overview, edited with undo, and played through with the progress saved.
//!
//! [`CampaignState`] is the model, free of egui: the engine's
//! [`tilesmith_engine::campaign::Campaign`] being edited with its own undo history,
//! the player's [`Progress`], and what each entry's level file holds ([`LevelInfo`], loaded
//! once per file and reloaded when the file changes). The shell applies
//! [`CampaignAction`]s (`crate::state`, file `campaign_ops.rs`); [`ui`] draws the overview and
//! [`thumb`] the levels' thumbnails. Nothing here names a kind: levels are read through the
//! engine and drawn through the kind registry.

pub mod thumb;
pub mod ui;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde_json::Value;
use tilesmith_engine::campaign::{
    Campaign, CampaignEntry, Progress, default_progress_path, max_points, resolve_entry,
};
use tilesmith_engine::document::{LoadError, load_file};
use tilesmith_engine::{Problem, Severity};

use crate::doc::history::{History, Undoable};
use crate::doc::registry::Kinds;

/// The most edits the campaign's undo history keeps.
pub const MAX_UNDO: usize = 200;

/// An action on the open campaign (pushed by the overview, applied by the shell).
#[derive(Clone, Debug, PartialEq)]
pub enum CampaignAction {
    /// File → New campaign…: asks where to save it, then writes an empty campaign there and
    /// shows its overview.
    New,
    /// Show the overview again (from a level opened for editing or playing).
    Show,
    /// Close the campaign (asks first when it has unsaved changes).
    Close,
    /// Set the title (consecutive title edits are one undo step).
    SetTitle(String),
    /// Move the entry at `from` so that it is at `to` afterwards (one undo step).
    Move {
        /// The entry's index before the move.
        from: usize,
        /// Its index after the move.
        to: usize,
    },
    /// Set entry `index`'s unlock threshold to `points` (consecutive changes of one entry's
    /// threshold are one undo step).
    SetUnlock {
        /// The entry (0 = first).
        index: usize,
        /// Points of the entries above it that open it.
        points: u32,
    },
    /// Ask for level files (a dialog) and add them at the end.
    AddLevels,
    /// Add these level files at the end, with paths relative to the campaign file.
    AddFiles(Vec<PathBuf>),
    /// Remove entry `index` (its level file stays on disk).
    Remove(usize),
    /// Undo the last campaign edit.
    Undo,
    /// Redo the last undone campaign edit.
    Redo,
    /// Save the campaign to its file, atomically.
    Save,
    /// Open entry `index`'s level as the editor's document.
    Edit(usize),
    /// Play entry `index` as a player would (refused, with the reason, when locked); a win
    /// records its points in the progress file.
    Play(usize),
    /// Play the first unlocked entry that has not earned its most points yet ("Play
    /// campaign").
    PlayNext,
}

/// What an entry's level file holds, as the overview shows it.
#[derive(Clone, Debug)]
pub struct LevelInfo {
    /// The level file, resolved against the campaign file.
    pub file: PathBuf,
    /// The level's `name`, else the file's name without `.json`.
    pub name: String,
    /// The level's kind (`boulder`, `baba`, …) when it loads.
    pub kind: Option<&'static str>,
    /// The most points it can earn; `None` when it has errors (it cannot be played).
    pub max_points: Option<u32>,
    /// The level document (files it refers to read in), for the thumbnail; `None` when it
    /// does not load.
    pub level: Option<Value>,
    /// The first problem, errors before warnings, as `PATH:LINE:COL: message` with the
    /// entry's path (`None`: no error). Only errors are kept: a warning does not stop play.
    pub problem: Option<String>,
    /// Counts loads (thumbnails are keyed by it).
    pub serial: u64,
    /// The file's modification time when read.
    modified: Option<SystemTime>,
}

/// Whether an entry can be played under the progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lock {
    /// Open (its threshold is met, or 0).
    Open,
    /// Locked: the entries above it have `have` points, it needs `need` (more than `have`).
    Locked {
        /// Points of the entries above it.
        have: u64,
        /// Its threshold.
        need: u64,
    },
}

impl Lock {
    /// The lock in words for a card: `Locked: needs 3 more points`; empty when open.
    pub fn text(self) -> String {
        match self {
            Lock::Open => String::new(),
            Lock::Locked { have, need } => {
                let more = need - have;
                format!(
                    "Locked: needs {more} more point{}",
                    if more == 1 { "" } else { "s" }
                )
            }
        }
    }
}

/// One card of the overview: an entry with its level and progress.
#[derive(Clone, Debug)]
pub struct Card<'a> {
    /// The entry's index (0 = first).
    pub index: usize,
    /// The entry.
    pub entry: &'a CampaignEntry,
    /// Its level.
    pub info: Option<&'a LevelInfo>,
    /// The best points recorded.
    pub best: u32,
    /// The most points it can give (stars shown): the level's; 1 when unknown (a level with
    /// errors); 0 for a level that cannot be won (a falling level without a goal).
    pub stars: u32,
    /// Locked or open.
    pub lock: Lock,
    /// The most points the levels above can give together (levels with errors count 0): a
    /// threshold above it can never be reached (what `tilesmith check` reports).
    pub reachable: u64,
}

impl Card<'_> {
    /// The warning for a threshold that can never be reached, if it cannot.
    pub fn unreachable(&self) -> Option<String> {
        (u64::from(self.entry.unlock) > self.reachable).then(|| {
            format!(
                "Never opens: the levels above give at most {} point{}",
                self.reachable,
                if self.reachable == 1 { "" } else { "s" }
            )
        })
    }
}

impl Card<'_> {
    /// The name shown: the level's name, else the entry's path.
    pub fn name(&self) -> &str {
        self.info.map_or(self.entry.path.as_str(), |i| &i.name)
    }

    /// The one word drawn over the thumbnail, if any: `"level does not load"` when there is
    /// no level to draw (it wins over the lock: nothing under it could be unlocked), else
    /// `"LOCKED"` when the card is locked; `None` for an open card with its level.
    pub fn thumb_overlay(&self) -> Option<&'static str> {
        if self.info.is_none_or(|i| i.level.is_none()) {
            Some("level does not load")
        } else if self.lock != Lock::Open {
            Some("LOCKED")
        } else {
            None
        }
    }

    /// Why it cannot be played, if it cannot: locked, or its level has an error.
    pub fn why_not_playable(&self) -> Option<String> {
        if let Lock::Locked { .. } = self.lock {
            return Some(self.lock.text());
        }
        match self.info {
            Some(i) if i.max_points.is_some() => None,
            Some(i) => Some(format!(
                "the level cannot be played: {}",
                i.problem.as_deref().unwrap_or("it has errors")
            )),
            None => Some("the level is not loaded".into()),
        }
    }
}

/// An edit of the campaign for [`History`]: the whole campaign of the other side of the
/// change (the campaign after it until applied, then the one before).
#[derive(Debug)]
pub struct CampaignEdit {
    name: String,
    other: Campaign,
}

impl Undoable for CampaignEdit {
    type Target = Campaign;

    fn name(&self) -> &str {
        &self.name
    }

    fn apply_swap(&mut self, target: &mut Campaign) {
        std::mem::swap(&mut self.other, target);
    }

    /// Keeps this entry's campaign from before, so the merged step undoes both.
    fn absorb(&mut self, _newer: Self) -> Result<(), Self> {
        Ok(())
    }
}

/// The open campaign: the file, the campaign being edited with its undo history, the
/// progress, and the entries' levels.
#[derive(Debug)]
pub struct CampaignState {
    /// The campaign file.
    pub file: PathBuf,
    /// The campaign as edited.
    pub campaign: Campaign,
    /// The campaign as last read or saved (unsaved changes: it differs).
    saved: Campaign,
    /// The undo history: each edit holds the whole campaign of the other side (campaigns are
    /// small); consecutive edits of one field merge into one step.
    history: History<CampaignEdit>,
    /// Where progress is kept (beside the campaign by default).
    pub progress_file: PathBuf,
    /// The player's progress.
    pub progress: Progress,
    /// Why the progress file could not be read, if it could not (it is then never written,
    /// so a bad file is not silently replaced).
    pub progress_problem: Option<String>,
    /// The levels, by entry path.
    levels: HashMap<String, LevelInfo>,
    /// The kinds that open the levels (a level of a kind not listed gets no card preview).
    kinds: Kinds,
    serial: u64,
    /// True while the overview is shown (false: a level is open for editing or playing).
    pub showing: bool,
    /// The entry path being played from the overview (a win records its points).
    pub playing: Option<String>,
    /// The last event worth telling on the overview ("won Welcome: 2 points").
    pub notice: String,
}

impl CampaignState {
    /// The campaign `campaign` from `file`, as saved there, with the progress read from
    /// `progress_file` (default: beside the campaign) and the levels loaded (opened with
    /// `kinds`).
    pub fn new(
        kinds: Kinds,
        file: PathBuf,
        campaign: Campaign,
        progress_file: Option<PathBuf>,
    ) -> Self {
        let progress_file = progress_file.unwrap_or_else(|| default_progress_path(&file));
        let (progress, progress_problem) = match Progress::load(&progress_file) {
            Ok(p) => (p, None),
            Err(p) => (
                Progress::default(),
                p.first()
                    .map(|p| p.render(&progress_file.display().to_string())),
            ),
        };
        let mut s = Self {
            kinds,
            file,
            saved: campaign.clone(),
            campaign,
            history: History::default(),
            progress_file,
            progress,
            progress_problem,
            levels: HashMap::new(),
            serial: 0,
            showing: true,
            playing: None,
            notice: String::new(),
        };
        s.reload_levels();
        s
    }

    /// Reads the campaign file `file` and its progress.
    ///
    /// # Errors
    /// The campaign's problems rendered as `FILE:LINE:COL: message` lines.
    pub fn open(kinds: Kinds, file: &Path) -> Result<Self, String> {
        let c = Campaign::load(file)
            .map_err(|p| crate::doc::render_problems(&file.display().to_string(), &p))?;
        Ok(Self::new(kinds, file.to_path_buf(), c, None))
    }

    /// True when the campaign differs from its file.
    pub fn dirty(&self) -> bool {
        self.campaign != self.saved
    }

    /// Marks the campaign as saved as it is now.
    pub fn mark_saved(&mut self) {
        self.saved = self.campaign.clone();
        self.history.seal();
    }

    /// The names of the edits to undo, oldest first.
    pub fn done_names(&self) -> Vec<&str> {
        self.history.done_names()
    }

    /// The names of the edits to redo, next first.
    pub fn undone_names(&self) -> Vec<&str> {
        self.history.undone_names()
    }

    /// Changes the campaign with `f` as one undoable edit named `name`; `merge` names a
    /// field whose consecutive edits make one step (typing a title, dragging a number).
    /// Nothing is recorded when `f` changes nothing.
    pub fn edit(&mut self, name: &str, merge: Option<String>, f: impl FnOnce(&mut Campaign)) {
        let mut after = self.campaign.clone();
        f(&mut after);
        if after == self.campaign {
            return;
        }
        let edit = CampaignEdit {
            name: name.to_string(),
            other: after,
        };
        self.history
            .push(&mut self.campaign, edit, merge.as_deref());
        self.history.keep_newest(MAX_UNDO);
        self.reload_levels();
    }

    /// Undoes the last edit; false when there is none.
    pub fn undo(&mut self) -> bool {
        let done = self.history.undo(&mut self.campaign);
        if done {
            self.reload_levels();
        }
        done
    }

    /// Redoes the last undone edit; false when there is none.
    pub fn redo(&mut self) -> bool {
        let done = self.history.redo(&mut self.campaign);
        if done {
            self.reload_levels();
        }
        done
    }

    /// Moves entry `from` to index `to` (both clamped), as one undoable edit.
    pub fn move_entry(&mut self, from: usize, to: usize) {
        let n = self.campaign.entries.len();
        if from >= n {
            return;
        }
        let to = to.min(n - 1);
        self.edit("Move level", None, |c| {
            let e = c.entries.remove(from);
            c.entries.insert(to, e);
        });
    }

    /// Adds the level files `files` at the end, each with a path relative to the campaign
    /// file and threshold 0. A file already in the campaign is skipped. Returns what was
    /// not added and why.
    pub fn add_files(&mut self, files: &[PathBuf]) -> Vec<String> {
        let mut skipped = Vec::new();
        let mut add = Vec::new();
        for f in files {
            match tilesmith_engine::campaign::entry_path_for(&self.file, f) {
                Ok(p) if self.campaign.position(&p).is_some() || add.contains(&p) => {
                    skipped.push(format!("{p} is already in the campaign"));
                }
                Ok(p) => add.push(p),
                Err(e) => skipped.push(format!("{} cannot be added: {e}", f.display())),
            }
        }
        let name = if add.len() == 1 {
            "Add level"
        } else {
            "Add levels"
        };
        self.edit(name, None, |c| {
            c.entries.extend(add.into_iter().map(|path| CampaignEntry {
                path,
                ..CampaignEntry::default()
            }));
        });
        skipped
    }

    /// The level of entry path `path`, if loaded.
    pub fn level(&self, path: &str) -> Option<&LevelInfo> {
        self.levels.get(path)
    }

    /// Loads the levels of entries not loaded yet, and again those whose file changed on
    /// disk; forgets those no longer in the campaign.
    pub fn reload_levels(&mut self) {
        let paths: Vec<String> = self
            .campaign
            .entries
            .iter()
            .map(|e| e.path.clone())
            .collect();
        self.levels.retain(|k, _| paths.contains(k));
        for p in paths {
            let file = resolve_entry(&self.file, &p);
            let modified = std::fs::metadata(&file).and_then(|m| m.modified()).ok();
            let fresh = self
                .levels
                .get(&p)
                .is_some_and(|i| i.modified == modified && modified.is_some());
            if !fresh {
                self.serial += 1;
                let mut info = load_level(&p, &file, self.serial, self.kinds);
                info.modified = modified;
                self.levels.insert(p, info);
            }
        }
    }

    /// The cards of the overview, in order.
    pub fn cards(&self) -> Vec<Card<'_>> {
        let (mut have, mut reachable): (u64, u64) = (0, 0);
        self.campaign
            .entries
            .iter()
            .enumerate()
            .map(|(index, entry)| {
                let info = self.levels.get(&entry.path);
                // A progress file cannot give more than the level can earn.
                let cap = info
                    .and_then(|i| i.max_points)
                    .unwrap_or(tilesmith_engine::campaign::MAX_LEVEL_POINTS);
                let best = self.progress.best_points(&entry.path).min(cap);
                let lock = if have >= u64::from(entry.unlock) {
                    Lock::Open
                } else {
                    Lock::Locked {
                        have,
                        need: u64::from(entry.unlock),
                    }
                };
                have += u64::from(best);
                let stars = info.and_then(|i| i.max_points).unwrap_or(1);
                let card = Card {
                    index,
                    entry,
                    info,
                    best,
                    stars,
                    lock,
                    reachable,
                };
                reachable += u64::from(info.and_then(|i| i.max_points).unwrap_or(0));
                card
            })
            .collect()
    }

    /// The best points of all entries added up, and the most the playable levels can give.
    pub fn points(&self) -> (u64, u64) {
        let caps: Vec<Option<u32>> = self
            .campaign
            .entries
            .iter()
            .map(|e| self.levels.get(&e.path).and_then(|i| i.max_points))
            .collect();
        let total =
            self.campaign
                .points_above_capped(self.campaign.entries.len(), &self.progress, &caps);
        let max = self
            .campaign
            .entries
            .iter()
            .filter_map(|e| self.levels.get(&e.path).and_then(|i| i.max_points))
            .map(u64::from)
            .sum();
        (total, max)
    }

    /// Reads the progress file again and merges it into the progress in memory, keeping the
    /// best of each level ([`Progress::merge`]): results recorded meanwhile by another
    /// program appear, and a file repaired meanwhile can be written again. A file that
    /// cannot be read sets [`CampaignState::progress_problem`] (the memory is kept). True
    /// when the memory holds a result the file lacks (it needs writing).
    pub fn refresh_progress(&mut self) -> bool {
        match Progress::load(&self.progress_file) {
            Ok(disk) => {
                self.progress.merge(&disk);
                self.progress_problem = None;
                let mut on_disk = disk;
                on_disk.merge(&self.progress)
            }
            Err(p) => {
                self.progress_problem = p
                    .first()
                    .map(|p| p.render(&self.progress_file.display().to_string()));
                false
            }
        }
    }

    /// Records a finished game of entry path `path` that earned `points` in `steps` steps,
    /// merged with the progress file as it is now ([`CampaignState::refresh_progress`]),
    /// and writes the progress file atomically when it changed. Returns the words for the
    /// overview's notice.
    ///
    /// # Errors
    /// Why the progress could not be saved (the points are kept in memory then).
    pub fn record(&mut self, path: &str, points: u32, steps: u64) -> Result<String, String> {
        // Points recorded meanwhile by `tilesmith run --play` or another window are kept.
        let merged = self.refresh_progress();
        let before = self.progress.best_points(path);
        let changed = self.progress.record(path, points, steps) || merged;
        let name = self
            .levels
            .get(path)
            .map_or(path.to_string(), |i| i.name.clone());
        let mut text = format!(
            "Won \"{name}\" with {points} point{}",
            if points == 1 { "" } else { "s" }
        );
        if before > points {
            text.push_str(&format!(" (best stays {before})"));
        }
        if !changed {
            return Ok(text);
        }
        if let Some(why) = &self.progress_problem {
            return Err(format!(
                "{text}, but the progress file is not written because it could not be read: {why}"
            ));
        }
        match self.progress.save(&self.progress_file) {
            Ok(()) => Ok(text),
            Err(e) => Err(format!(
                "{text}, but {} could not be written: {e}",
                self.progress_file.display()
            )),
        }
    }

    /// The index of the first entry that is unlocked, playable, and has not earned its most
    /// points yet (else the first unlocked playable entry); `None` when none can be played.
    pub fn next_to_play(&self) -> Option<usize> {
        let cards = self.cards();
        let playable = |c: &&Card<'_>| c.why_not_playable().is_none();
        cards
            .iter()
            .filter(playable)
            .find(|c| c.best < c.stars)
            .or_else(|| cards.iter().find(playable))
            .map(|c| c.index)
    }
}

/// Loads the level of entry path `path` from `file` for its card.
fn load_level(path: &str, file: &Path, serial: u64, kinds: Kinds) -> LevelInfo {
    let stem = file
        .file_stem()
        .map_or_else(|| path.to_string(), |s| s.to_string_lossy().into_owned());
    let mut info = LevelInfo {
        file: file.to_path_buf(),
        name: stem,
        kind: None,
        max_points: None,
        level: None,
        problem: None,
        serial,
        modified: None,
    };
    let first = |p: &[Problem]| {
        p.iter()
            .find(|p| p.severity == Severity::Error)
            .map(|p| p.render(path))
    };
    if tilesmith_engine::campaign::is_campaign_file(file) {
        let p = tilesmith_engine::campaign::nested_campaign_problem();
        info.problem = Some(p.render(path));
        return info;
    }
    match load_file(file) {
        Err(LoadError::Io(e)) => {
            info.problem = Some(format!("{path}: cannot read the level: {e}"));
        }
        Err(LoadError::Problems(p)) => info.problem = first(&p),
        Ok(doc) => {
            if let Some(n) = doc.value.get("name").and_then(Value::as_str)
                && !n.trim().is_empty()
            {
                info.name = n.to_string();
            }
            info.kind = Some(doc.kind.name());
            let problems = doc.check();
            info.problem = first(&problems);
            if info.problem.is_none() {
                info.max_points = Some(max_points(&doc));
            }
            if kinds.entry(doc.kind.name()).is_some() {
                info.level = Some(doc.value);
            }
        }
    }
    info
}

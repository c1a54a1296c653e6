//! Campaigns: an ordered set of levels of any kind, unlocked by points (the level overview of
//! spec boulder §2, §2.1 and §5), and the player's progress through one.
//!
//! A campaign file is JSON, `{"kind": "campaign", "title": …, "levels": [{"path":
//! "boulder/welcome.json", "unlock": 0}, …]}` (schema `schemas/campaign.schema.json`, format
//! in `docs/campaign.md`). Each entry names a level file by a `/`-separated path relative to
//! the campaign file's folder and the points that open it: entry `i` is unlocked when the best
//! points recorded for the entries above it (`0..i`) add up to at least its `unlock` (0:
//! always open). Points come from the kinds:
//! [`Game::points_earned`](crate::game::Game::points_earned) for a finished game and
//! [`GameKind::max_points`](crate::game::GameKind::max_points) for the most a level can give.
//!
//! Progress (best points and fewest steps per entry, keyed by the entry's path) lives in a
//! file beside the campaign by default ([`default_progress_path`]: `NAME.progress.json`), so
//! that a campaign folder stays portable; it is written atomically
//! ([`crate::json_text::write_atomic`]).
//!
//! Unknown members of the campaign, its entries and the progress file are kept and written
//! back. Every problem is a [`Problem`] with its JSON path, located at its line and column
//! when parsed from text; nothing a user loads panics.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::document::load_file;
use crate::problem::Problem;

mod check;
mod file;
mod paths;
mod progress;

pub use check::{check_file, max_points, nested_campaign_problem};
pub use file::{KIND_PEEK_BYTES, is_campaign, is_campaign_file, is_campaign_text};
pub use paths::{default_progress_path, entry_path_for, resolve_entry};
pub use progress::{Best, Progress};

use file::*;
use paths::*;

/// The `"kind"` of a campaign file.
pub const CAMPAIGN_KIND: &str = "campaign";
/// The `"kind"` of a progress file.
pub const PROGRESS_KIND: &str = "campaign-progress";
/// The largest campaign or progress file read, in bytes (larger files are refused).
pub const MAX_CAMPAIGN_BYTES: u64 = 16 * 1024 * 1024;
/// The most entries a campaign may hold.
pub const MAX_ENTRIES: usize = 10_000;
/// The longest entry path, in characters.
pub const MAX_PATH_CHARS: usize = 4096;
/// The most points any level of any kind can earn (boulder: 3, spec boulder §5): the cap of
/// a level's recorded points when the level itself cannot be read.
pub const MAX_LEVEL_POINTS: u32 = 3;

/// One level of a campaign, in the order of the overview.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CampaignEntry {
    /// The level file, relative to the campaign file's folder, folders separated by `/`
    /// (`boulder/welcome.json`, `../more/x.json`); never empty, never absolute, no `\`. It
    /// is also the key of the entry's progress ([`Progress::levels`]).
    pub path: String,
    /// The points, in total over the best points of the entries above this one, that open
    /// it; 0: always open.
    pub unlock: u32,
    /// Members of the entry object other than `path` and `unlock`, kept and written back.
    pub kept: Map<String, Value>,
}

/// A campaign: a title and its levels in order (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Campaign {
    /// The title shown above the overview; empty when the file has none.
    pub title: String,
    /// The levels in order, top (first) to bottom. Paths are unique.
    pub entries: Vec<CampaignEntry>,
    /// Top-level members other than `kind`, `title` and `levels`, kept and written back.
    pub kept: Map<String, Value>,
}

/// A problem in a file: the problem with the file it is located in (a campaign file, or
/// one of its levels).
#[derive(Clone, Debug, PartialEq)]
pub struct FileProblem {
    /// The file the problem's line and column are in.
    pub file: PathBuf,
    /// The problem, located in `file`.
    pub problem: Problem,
}

impl FileProblem {
    /// `FILE:LINE:COL: message (at PATH)`, as [`Problem::render`] gives it for `file`.
    pub fn render(&self) -> String {
        self.problem.render(&self.file.display().to_string())
    }
}

/// What checking one entry's level found (see [`Campaign::check_entries`]).
#[derive(Clone, Debug)]
pub struct EntryCheck {
    /// The level file, resolved against the campaign file ([`resolve_entry`]).
    pub file: PathBuf,
    /// The level's problems (errors and warnings), located in `file`. A file that cannot be
    /// read has one problem at its line 1, column 1.
    pub problems: Vec<Problem>,
    /// The most points the level can earn ([`max_points`]); `None` when it has errors (it
    /// cannot be played, so it counts as 0 towards the thresholds below it).
    pub max_points: Option<u32>,
}

impl EntryCheck {
    /// True when the level has an error (it does not load or cannot be played).
    pub fn has_errors(&self) -> bool {
        self.problems.iter().any(Problem::is_error)
    }
}

impl Campaign {
    /// An empty campaign with `title`.
    pub fn new(title: impl Into<String>) -> Campaign {
        Campaign {
            title: title.into(),
            ..Campaign::default()
        }
    }

    /// The index of the entry whose path is `path`, if any.
    pub fn position(&self, path: &str) -> Option<usize> {
        let key = normal_entry_path(path);
        self.entries
            .iter()
            .position(|e| normal_entry_path(&e.path) == key)
    }

    /// The level file of entry `index` of this campaign read from `campaign_file`
    /// ([`resolve_entry`]); `None` when there is no such entry.
    pub fn level_file(&self, campaign_file: &Path, index: usize) -> Option<PathBuf> {
        self.entries
            .get(index)
            .map(|e| resolve_entry(campaign_file, &e.path))
    }

    /// The points that count towards entry `index`'s `unlock`: the best points recorded in
    /// `progress` for the entries above it (`0..index`), each capped at
    /// [`MAX_LEVEL_POINTS`] (a progress file cannot give more than a level can), added up.
    /// For an index past the end, all entries. See [`Campaign::points_above_capped`] for
    /// the caps of the levels themselves.
    pub fn points_above(&self, index: usize, progress: &Progress) -> u64 {
        self.points_above_capped(index, progress, &[])
    }

    /// As [`Campaign::points_above`], with entry `i`'s points capped at `max_points[i]`
    /// when that is `Some` (the most its level can earn, [`max_points`]), else at
    /// [`MAX_LEVEL_POINTS`].
    pub fn points_above_capped(
        &self,
        index: usize,
        progress: &Progress,
        max_points: &[Option<u32>],
    ) -> u64 {
        self.entries
            .iter()
            .take(index)
            .enumerate()
            .map(|(i, e)| {
                let cap = max_points
                    .get(i)
                    .copied()
                    .flatten()
                    .unwrap_or(MAX_LEVEL_POINTS);
                u64::from(progress.best_points(&e.path).min(cap))
            })
            .sum()
    }

    /// The most points each entry's level can earn ([`max_points`]), read from its file
    /// resolved against `campaign_file` without checking it; `None` for a level that cannot
    /// be read. For [`Campaign::points_above_capped`].
    pub fn level_max_points(&self, campaign_file: &Path) -> Vec<Option<u32>> {
        self.entries
            .iter()
            .map(|e| {
                let file = resolve_entry(campaign_file, &e.path);
                if is_campaign_file(&file) {
                    return None;
                }
                load_file(&file).ok().map(|d| max_points(&d))
            })
            .collect()
    }

    /// The best points of all entries added up, each capped at [`MAX_LEVEL_POINTS`] (the
    /// total of spec §5 item 7).
    pub fn total_points(&self, progress: &Progress) -> u64 {
        self.points_above(self.entries.len(), progress)
    }

    /// True when entry `index` can be played under `progress`: [`Campaign::points_above`]
    /// is at least its `unlock`. False for an index past the end.
    pub fn is_unlocked(&self, index: usize, progress: &Progress) -> bool {
        self.entries
            .get(index)
            .is_some_and(|e| self.points_above(index, progress) >= u64::from(e.unlock))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    const TEXT: &str = "{\n  \"kind\": \"campaign\",\n  \"title\": \"T\",\n  \"levels\": [\n    {\"path\": \"a.json\", \"unlock\": 0, \"note\": \"easy\"},\n    {\"path\": \"sub/b.json\", \"unlock\": 2},\n    {\"path\": \"c.json\", \"unlock\": 4}\n  ],\n  \"author\": {\"name\": \"x\"}\n}\n";

    fn progress(best: &[(&str, u32)]) -> Progress {
        let mut p = Progress::default();
        for &(path, points) in best {
            p.record(path, points, 10);
        }
        p
    }

    #[test]
    fn a_campaign_reads_and_writes_back_with_its_unknown_members() {
        let c = Campaign::parse(TEXT).unwrap();
        assert_eq!(c.title, "T");
        let paths: Vec<_> = c.entries.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(paths, ["a.json", "sub/b.json", "c.json"]);
        let unlocks: Vec<_> = c.entries.iter().map(|e| e.unlock).collect();
        assert_eq!(unlocks, [0, 2, 4]);
        assert_eq!(c.entries[0].kept.get("note"), Some(&json!("easy")));
        assert_eq!(c.kept.get("author"), Some(&json!({"name": "x"})));
        // Written back: every member of the file, known ones first, unknown ones kept.
        let again: Value = serde_json::from_str(&c.to_text()).unwrap();
        assert_eq!(again, serde_json::from_str::<Value>(TEXT).unwrap());
        assert_eq!(Campaign::from_json(&again).unwrap(), c);
        // `unlock` defaults to 0 and `title` to empty.
        let c = Campaign::parse(r#"{"kind":"Campaign","levels":[{"path":"x.json"}]}"#).unwrap();
        assert_eq!((c.title.as_str(), c.entries[0].unlock), ("", 0));
    }

    #[test]
    fn problems_are_located_at_their_line_and_column() {
        // Line 5 is `    {"path": "b.json", "unlock": -1},`: the value -1 starts at column 34.
        let text = "{\n  \"kind\": \"campaign\",\n  \"levels\": [\n    {\"path\": \"a.json\"},\n    {\"path\": \"b.json\", \"unlock\": -1},\n    {\"path\": \"./a.json\"},\n    {\"path\": \"C:\\\\x.json\"},\n    7\n  ]\n}";
        let p = Campaign::parse(text).unwrap_err();
        let lines: Vec<String> = p.iter().map(|p| p.render("c.json")).collect();
        assert_eq!(lines.len(), 4, "{lines:#?}");
        assert_eq!(
            lines[0],
            "c.json:5:34: \"unlock\" must not be negative, found -1 (at $.levels[1].unlock)"
        );
        assert!(
            lines[1].starts_with("c.json:6:14: level 2 is the same file as level 0"),
            "{}",
            lines[1]
        );
        assert!(
            lines[2].starts_with("c.json:7:14: the path "),
            "{}",
            lines[2]
        );
        assert!(lines[2].contains("has a \\"), "{}", lines[2]);
        assert!(
            lines[3].starts_with("c.json:8:5: level 4 must be an object"),
            "{}",
            lines[3]
        );
        // Not a campaign at all, and invalid JSON at serde_json's place.
        let p = Campaign::parse("{\"kind\": \"boulder\", \"levels\": []}").unwrap_err();
        assert_eq!(
            p[0].render("c.json"),
            "c.json:1:10: a campaign's \"kind\" is \"campaign\", found \"boulder\" (at $.kind)"
        );
        let p = Campaign::parse("{\"kind\": \"campaign\",\n \"levels\": [}").unwrap_err();
        assert_eq!((p[0].line, p[0].column), (Some(2), Some(13)), "{p:?}");
        let p = Campaign::parse("  ").unwrap_err();
        assert!(p[0].message.contains("empty"));
        for bad in ["/abs.json", "", " ", "./", "a\u{7}.json"] {
            let doc = json!({"kind": "campaign", "levels": [{"path": bad}]});
            let p = Campaign::from_json(&doc).unwrap_err();
            assert_eq!(p[0].path.to_string(), "$.levels[0].path", "{bad:?}: {p:?}");
        }
    }

    #[test]
    fn an_entry_opens_with_the_points_of_the_entries_above_it() {
        let c = Campaign::parse(TEXT).unwrap();
        // Nothing played: only the first (unlock 0) is open.
        let none = Progress::default();
        assert!(c.is_unlocked(0, &none));
        assert!(!c.is_unlocked(1, &none));
        assert!(!c.is_unlocked(2, &none));
        // 1 point above b (needs 2): locked; 2 points: open; c needs 4 from a and b.
        let p = progress(&[("a.json", 1)]);
        assert_eq!(c.points_above(1, &p), 1);
        assert!(!c.is_unlocked(1, &p));
        let p = progress(&[("a.json", 2)]);
        assert!(c.is_unlocked(1, &p));
        assert!(!c.is_unlocked(2, &p));
        let p = progress(&[("a.json", 2), ("sub/b.json", 2)]);
        assert_eq!(c.points_above(2, &p), 4);
        assert!(c.is_unlocked(2, &p));
        // Points of c itself, or of a level not in the campaign, open nothing above.
        let p = progress(&[("c.json", 3), ("other.json", 3)]);
        assert!(!c.is_unlocked(1, &p));
        assert_eq!(c.total_points(&p), 3);
        assert!(!c.is_unlocked(3, &p), "past the end");
    }

    #[test]
    fn thresholds_above_the_available_points_are_errors() {
        let c = Campaign::parse(TEXT).unwrap();
        // a gives at most 3, b 1: b's 2 is reachable, c's 4 exactly.
        assert!(c.threshold_problems(&[3, 1, 1]).is_empty());
        // a gives at most 1: b (2) and c (4 > 1 + 1) cannot open.
        let p = c.threshold_problems(&[1, 1, 1]);
        let at: Vec<String> = p.iter().map(|p| p.path.to_string()).collect();
        assert_eq!(at, ["$.levels[1].unlock", "$.levels[2].unlock"]);
        assert!(
            p[1].message.contains("needs 4 point(s)"),
            "{}",
            p[1].message
        );
        assert!(p[1].message.contains("at most 2"), "{}", p[1].message);
        // A first entry with a threshold can never open.
        let c = Campaign::from_json(
            &json!({"kind": "campaign", "levels": [{"path": "a", "unlock": 1}]}),
        )
        .unwrap();
        assert_eq!(c.threshold_problems(&[3]).len(), 1);
    }

    #[test]
    fn only_the_best_pass_counts() {
        // Spec boulder §5 item 6: passes with 1, 2, 1 and 2 points give 2; the same for ticks.
        let mut p = Progress::default();
        assert!(p.record("a.json", 1, 90));
        assert!(p.record("a.json", 2, 120));
        assert!(p.record("a.json", 1, 60));
        assert!(!p.record("a.json", 2, 100));
        assert_eq!(p.best_points("a.json"), 2);
        assert_eq!(p.best("a.json").unwrap().steps, Some(60));
        // A lost game is no pass.
        assert!(!p.record("b.json", 0, 5));
        assert_eq!(p.best("b.json"), None);
        // The same path written differently is the same level.
        assert_eq!(p.best_points("./a.json"), 2);
    }

    #[test]
    fn progress_is_saved_atomically_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let campaign = dir.path().join("tour.json");
        let file = default_progress_path(&campaign);
        assert_eq!(file, dir.path().join("tour.progress.json"));
        // No file yet: no progress.
        assert_eq!(Progress::load(&file).unwrap(), Progress::default());
        let mut p = Progress::default();
        p.record("a.json", 3, 44);
        p.kept.insert("player".into(), json!("ada"));
        p.save(&file).unwrap();
        assert_eq!(Progress::load(&file).unwrap(), p);
        // Unknown members of a result are kept through a save.
        std::fs::write(
            &file,
            r#"{"kind":"campaign-progress","levels":{"a.json":{"points":1,"steps":9,"when":"today"}}}"#,
        )
        .unwrap();
        let mut p = Progress::load(&file).unwrap();
        p.record("a.json", 2, 20);
        p.save(&file).unwrap();
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        assert_eq!(
            v["levels"]["a.json"],
            json!({"points": 2, "steps": 9, "when": "today"})
        );
        // Only the progress file is in the folder: no temporary file left behind.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        // A failed save leaves the old file as it was.
        let old = std::fs::read(&file).unwrap();
        assert!(p.save(&dir.path().join("missing").join("p.json")).is_err());
        assert_eq!(std::fs::read(&file).unwrap(), old);
    }

    #[test]
    fn a_bad_progress_file_is_a_located_error() {
        let text = "{\"levels\": {\n  \"a.json\": {\"points\": \"3\"},\n  \"b.json\": 2\n}}";
        let p = Progress::parse(text).unwrap_err();
        let lines: Vec<String> = p.iter().map(|p| p.render("p.json")).collect();
        assert_eq!(
            lines,
            [
                "p.json:2:24: \"points\" must be a whole number, found a string (at $.levels[\"a.json\"].points)",
                "p.json:3:13: a level's result must be an object with \"points\", found a number (at $.levels[\"b.json\"])",
            ]
        );
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("p.json");
        std::fs::write(&f, b"\xff").unwrap();
        assert!(Progress::load(&f).unwrap_err()[0].message.contains("UTF-8"));
        assert!(
            Progress::load(dir.path()).unwrap_err()[0]
                .message
                .contains("directory")
        );
    }

    #[test]
    fn entry_paths_resolve_against_the_campaign_folder() {
        let c = Path::new("levels/tour.json");
        assert_eq!(
            resolve_entry(c, "boulder/./welcome.json"),
            Path::new("levels/boulder/welcome.json")
        );
        assert_eq!(resolve_entry(c, "../x.json"), Path::new("levels/../x.json"));
        assert_eq!(
            resolve_entry(Path::new("tour.json"), "a.json"),
            Path::new("a.json")
        );
        assert_eq!(
            entry_path_for(c, Path::new("levels/boulder/welcome.json")).unwrap(),
            "boulder/welcome.json"
        );
        assert_eq!(
            entry_path_for(c, Path::new("other/./x.json")).unwrap(),
            "../other/x.json"
        );
        assert_eq!(
            entry_path_for(Path::new("/a/b/c.json"), Path::new("/a/d/../e.json")).unwrap(),
            "../e.json"
        );
    }
}

//! Campaigns: an ordered set of levels of any kind, unlocked by points (the level overview of
//! spec boulder §2, §2.1 and §5), and the player's progress through one.
//!
//! A campaign file is JSON, `{"kind": "campaign", "title": …, "levels": [{"path":
//! "boulder/welcome.json", "unlock": 0}, …]}` (schema `schemas/campaign.schema.json`, format
//! in `docs/campaign.md`). Each entry names a level file by a `/`-separated path relative to
//! the campaign file's folder and the points that open it: entry `i` is unlocked when the best
//! points recorded for the entries above it (`0..i`) add up to at least its `unlock` (0:
//! always open). Points come from the kinds: [`Game::points_earned`] for a finished game and
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

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use serde_json::{Map, Value, json};

use crate::document::{Document, LoadError, load_file, read_at_most, regular_file, utf8_text};
use crate::game::Game;
use crate::level_json::{natural, type_name};
use crate::problem::{JsonPath, Problem, locate, quote, quote_at_most};

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

/// True when `doc` is a campaign file: an object whose `"kind"` is `"campaign"` (ASCII case
/// ignored, as kinds are).
pub fn is_campaign(doc: &Value) -> bool {
    doc.get("kind")
        .and_then(Value::as_str)
        .is_some_and(|k| k.eq_ignore_ascii_case(CAMPAIGN_KIND))
}

/// True when `text` is JSON of a campaign file ([`is_campaign`]); false for anything else,
/// invalid JSON included.
pub fn is_campaign_text(text: &str) -> bool {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    crate::document::check_json_size(text).is_ok()
        && serde_json::from_str::<Value>(text).is_ok_and(|v| is_campaign(&v))
}

/// True when `path` is a JSON file of a campaign ([`is_campaign_text`]): how the CLI and the
/// editor tell a campaign from a level. A file that cannot be read as a campaign (over
/// [`MAX_CAMPAIGN_BYTES`], not UTF-8, invalid JSON) counts as one when its first
/// [`KIND_PEEK_BYTES`] bytes hold `"kind"`, `:` and `"campaign"` (spaces between allowed,
/// case ignored), so that [`Campaign::load`]'s located error is reported for it rather than
/// the level loader's `unknown kind "campaign"`. False for a file that cannot be opened.
pub fn is_campaign_file(path: &Path) -> bool {
    let parsed = read_text(path)
        .ok()
        .filter(|t| crate::document::check_json_size(t).is_ok())
        .and_then(|t| serde_json::from_str::<Value>(t.strip_prefix('\u{feff}').unwrap_or(&t)).ok());
    match parsed {
        Some(v) => is_campaign(&v),
        None => peek_is_campaign(path),
    }
}

/// How many bytes at the start of a file that cannot be parsed are looked at for its kind
/// ([`is_campaign_file`]).
pub const KIND_PEEK_BYTES: u64 = 4096;

/// True when the first [`KIND_PEEK_BYTES`] bytes of `path` hold `"kind"`, then `:`, then
/// `"campaign"`, with only white space between (ASCII case ignored).
fn peek_is_campaign(path: &Path) -> bool {
    if regular_file(path).is_err() {
        return false;
    }
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    let mut bytes = Vec::new();
    if std::io::Read::read_to_end(&mut std::io::Read::take(file, KIND_PEEK_BYTES), &mut bytes)
        .is_err()
    {
        return false;
    }
    let text = String::from_utf8_lossy(&bytes).to_ascii_lowercase();
    text.match_indices("\"kind\"").any(|(i, k)| {
        let rest = text[i + k.len()..].trim_start();
        rest.strip_prefix(':')
            .is_some_and(|r| r.trim_start().starts_with("\"campaign\""))
    })
}

/// The level file of the entry path `entry` (`/`-separated, relative to the campaign's
/// folder) of the campaign file `campaign_file`: the campaign's folder joined with each
/// `/`-separated part (`.` parts dropped).
pub fn resolve_entry(campaign_file: &Path, entry: &str) -> PathBuf {
    let mut p = campaign_file
        .parent()
        .unwrap_or(Path::new(""))
        .to_path_buf();
    for part in entry.split('/').filter(|s| !s.is_empty() && *s != ".") {
        p.push(part);
    }
    p
}

/// The entry path (`/`-separated, relative to the campaign file's folder, `..` where
/// needed) that names `level` from the campaign file `campaign_file`: what the editor
/// writes when a level is added from a file. Both paths are made absolute against the
/// current directory first (symbolic links are not followed).
///
/// # Errors
/// Why no relative path exists: the current directory is unknown, or the two are on
/// different drives (Windows).
pub fn entry_path_for(campaign_file: &Path, level: &Path) -> Result<String, String> {
    let abs = |p: &Path| std::path::absolute(p).map_err(|e| format!("{}: {e}", p.display()));
    let base = abs(campaign_file)?;
    let base = base.parent().unwrap_or(Path::new("/"));
    let target = abs(level)?;
    fn norm(p: &Path) -> Vec<Component<'_>> {
        let mut v: Vec<Component<'_>> = Vec::new();
        for c in p.components() {
            match c {
                Component::CurDir => {}
                Component::ParentDir if matches!(v.last(), Some(Component::Normal(_))) => {
                    v.pop();
                }
                c => v.push(c),
            }
        }
        v
    }
    let (b, t) = (norm(base), norm(&target));
    let common = b.iter().zip(&t).take_while(|(x, y)| x == y).count();
    if common == 0 || !matches!(b.first(), Some(c) if Some(c) == t.first()) {
        return Err(format!(
            "{} and {} have no folder in common",
            base.display(),
            target.display()
        ));
    }
    let mut parts: Vec<String> = vec!["..".to_string(); b.len() - common];
    parts.extend(
        t[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    Ok(parts.join("/"))
}

/// Where the progress of the campaign file `campaign_file` lives by default: beside it,
/// named after it, `NAME.progress.json` for `NAME.json` (`levels/campaign.json` gives
/// `levels/campaign.progress.json`). Not in the user's data folder, so that a campaign
/// folder is portable.
pub fn default_progress_path(campaign_file: &Path) -> PathBuf {
    let stem = campaign_file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "campaign".into());
    campaign_file.with_file_name(format!("{stem}.progress.json"))
}

/// The most points the level `doc` can earn: its kind's
/// [`GameKind::max_points`](crate::game::GameKind::max_points) (boulder 3, baba 1, a falling
/// level with a goal 1 and without 0, board 1).
pub fn max_points(doc: &Document) -> u32 {
    doc.kind.max_points(&doc.value)
}

impl Campaign {
    /// An empty campaign with `title`.
    pub fn new(title: impl Into<String>) -> Campaign {
        Campaign {
            title: title.into(),
            ..Campaign::default()
        }
    }

    /// Reads a campaign from its JSON value.
    ///
    /// # Errors
    /// Every problem, with its JSON path (not located: see [`Campaign::parse`]): not an
    /// object; `kind` not `"campaign"`; `title` not a string; `levels` missing, not an array
    /// or longer than [`MAX_ENTRIES`]; an entry not an object, its `path` missing, empty,
    /// absolute, with `\`, longer than [`MAX_PATH_CHARS`] or the same as an earlier entry's;
    /// its `unlock` not a whole number 0…2³²−1.
    pub fn from_json(v: &Value) -> Result<Campaign, Vec<Problem>> {
        let root = JsonPath::root();
        let mut p = Vec::new();
        let Value::Object(o) = v else {
            return Err(vec![Problem::error(
                root,
                format!("a campaign must be a JSON object, found {}", type_name(v)),
            )]);
        };
        match o.get("kind") {
            Some(_) if is_campaign(v) => {}
            Some(Value::String(k)) => p.push(Problem::error(
                root.key("kind"),
                format!("a campaign's \"kind\" is \"campaign\", found {}", quote(k)),
            )),
            Some(k) => p.push(Problem::error(
                root.key("kind"),
                format!(
                    "\"kind\" must be the string \"campaign\", found {}",
                    type_name(k)
                ),
            )),
            None => p.push(Problem::error(
                root.key("kind"),
                "\"kind\" is missing (a campaign has \"kind\": \"campaign\")",
            )),
        }
        let title = match o.get("title") {
            None => String::new(),
            Some(Value::String(s)) => s.clone(),
            Some(t) => {
                p.push(Problem::error(
                    root.key("title"),
                    format!("\"title\" must be a string, found {}", type_name(t)),
                ));
                String::new()
            }
        };
        let entries = match o.get("levels") {
            None => {
                p.push(Problem::error(root.key("levels"), "\"levels\" is missing"));
                Vec::new()
            }
            Some(Value::Array(a)) if a.len() > MAX_ENTRIES => {
                p.push(Problem::error(
                    root.key("levels"),
                    format!("too many levels ({}; at most {MAX_ENTRIES})", a.len()),
                ));
                Vec::new()
            }
            Some(Value::Array(a)) => parse_entries(a, &mut p),
            Some(l) => {
                p.push(Problem::error(
                    root.key("levels"),
                    format!(
                        "\"levels\" must be an array of levels, found {}",
                        type_name(l)
                    ),
                ));
                Vec::new()
            }
        };
        if !p.is_empty() {
            return Err(p);
        }
        let kept = o
            .iter()
            .filter(|(k, _)| !matches!(k.as_str(), "kind" | "title" | "levels"))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        Ok(Campaign {
            title,
            entries,
            kept,
        })
    }

    /// Reads a campaign from JSON text (a leading byte-order mark is dropped).
    ///
    /// # Errors
    /// As [`Campaign::from_json`], located at their lines and columns of `text`; or one
    /// problem for an empty text or invalid JSON (at serde_json's line and column).
    pub fn parse(text: &str) -> Result<Campaign, Vec<Problem>> {
        parse_located(text, Campaign::from_json)
    }

    /// Reads a campaign file: a regular file of at most [`MAX_CAMPAIGN_BYTES`] of UTF-8
    /// JSON (see [`Campaign::parse`]).
    ///
    /// # Errors
    /// The file's problems, located in it; a file that cannot be read gives one problem at
    /// line 1, column 1 saying why.
    pub fn load(path: &Path) -> Result<Campaign, Vec<Problem>> {
        Campaign::parse(&read_text(path).map_err(|p| vec![p])?)
    }

    /// The campaign as a JSON document: `kind`, `title`, `levels` (each entry's `path`,
    /// `unlock`, then its kept members), then the kept top-level members. It reads back
    /// ([`Campaign::from_json`]) to an equal campaign.
    pub fn to_json(&self) -> Value {
        let mut o = Map::new();
        o.insert("kind".into(), json!(CAMPAIGN_KIND));
        o.insert("title".into(), json!(self.title));
        let levels = self
            .entries
            .iter()
            .map(|e| {
                let mut m = Map::new();
                m.insert("path".into(), json!(e.path));
                m.insert("unlock".into(), json!(e.unlock));
                for (k, v) in &e.kept {
                    m.entry(k.clone()).or_insert_with(|| v.clone());
                }
                Value::Object(m)
            })
            .collect();
        o.insert("levels".into(), Value::Array(levels));
        for (k, v) in &self.kept {
            o.entry(k.clone()).or_insert_with(|| v.clone());
        }
        Value::Object(o)
    }

    /// The campaign as file text: [`Campaign::to_json`] laid out with one level per line
    /// ([`crate::json_text::layout`]).
    pub fn to_text(&self) -> String {
        crate::json_text::layout(&self.to_json())
    }

    /// Writes the campaign to `path` atomically ([`crate::json_text::write_atomic`]).
    ///
    /// # Errors
    /// Any I/O error; the old file is then left as it was.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        crate::json_text::write_atomic(path, self.to_text().as_bytes())
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

    /// The problems of thresholds that can never be reached: entry `i` with an `unlock`
    /// higher than the points its entries above can give at most (the sum of
    /// `max_points[0..i]`; an entry missing from `max_points` counts 0). Errors at
    /// `$.levels[i].unlock`, not located.
    pub fn threshold_problems(&self, max_points: &[u32]) -> Vec<Problem> {
        let mut out = Vec::new();
        let mut available: u64 = 0;
        for (i, e) in self.entries.iter().enumerate() {
            if u64::from(e.unlock) > available {
                out.push(Problem::error(
                    JsonPath::root().key("levels").index(i).key("unlock"),
                    format!(
                        "level {i} ({}) needs {} point(s) to unlock, but the levels above it \
                         give at most {available}",
                        quote_at_most(&e.path, 240),
                        e.unlock
                    ),
                ));
            }
            available += u64::from(max_points.get(i).copied().unwrap_or(0));
        }
        out
    }

    /// Loads and checks the level of every entry, resolved against `campaign_file`: its
    /// problems (located in its own file) and the most points it can earn. A missing or
    /// unreadable file, or one that is no level, is a problem of its entry, never a panic.
    pub fn check_entries(&self, campaign_file: &Path) -> Vec<EntryCheck> {
        self.entries
            .iter()
            .map(|e| {
                let file = resolve_entry(campaign_file, &e.path);
                if is_campaign_file(&file) {
                    return EntryCheck {
                        file,
                        problems: vec![nested_campaign_problem()],
                        max_points: None,
                    };
                }
                let (problems, doc) = match load_file(&file) {
                    Ok(doc) => (doc.check(), Some(doc)),
                    Err(LoadError::Io(err)) => (
                        vec![Problem {
                            line: Some(1),
                            column: Some(1),
                            ..Problem::error(
                                JsonPath::root(),
                                format!("cannot read the level: {err}"),
                            )
                        }],
                        None,
                    ),
                    Err(LoadError::Problems(p)) => (p, None),
                };
                let max_points = match doc {
                    Some(d) if !problems.iter().any(Problem::is_error) => Some(max_points(&d)),
                    _ => None,
                };
                EntryCheck {
                    file,
                    problems,
                    max_points,
                }
            })
            .collect()
    }
}

/// Checks the campaign file `campaign_file` and every level in it: the campaign's own
/// problems; each level's problems in its own file; for a level that cannot be read or
/// has errors, one error at its entry's `path` in the campaign; and every unlock threshold
/// higher than the points available above it ([`Campaign::threshold_problems`], levels with
/// errors counting 0). Campaign problems first, then by entry. What `tilesmith check
/// CAMPAIGN` prints.
pub fn check_file(campaign_file: &Path) -> Vec<FileProblem> {
    let at = |problem: Problem| FileProblem {
        file: campaign_file.to_path_buf(),
        problem,
    };
    let text = match read_text(campaign_file) {
        Ok(t) => t,
        Err(p) => return vec![at(p)],
    };
    let campaign = match Campaign::parse(&text) {
        Ok(c) => c,
        Err(ps) => return ps.into_iter().map(at).collect(),
    };
    let checks = campaign.check_entries(campaign_file);
    let mut own = Vec::new();
    let mut levels = Vec::new();
    for (i, c) in checks.iter().enumerate() {
        if c.has_errors() {
            let n = c.problems.iter().filter(|p| p.is_error()).count();
            own.push(Problem::error(
                JsonPath::root().key("levels").index(i).key("path"),
                format!(
                    "level {i} ({}) cannot be played: {n} error(s) in {}",
                    quote_at_most(&campaign.entries[i].path, 240),
                    c.file.display()
                ),
            ));
        }
        levels.extend(c.problems.iter().map(|p| FileProblem {
            file: c.file.clone(),
            problem: p.clone(),
        }));
    }
    let max: Vec<u32> = checks.iter().map(|c| c.max_points.unwrap_or(0)).collect();
    own.extend(campaign.threshold_problems(&max));
    locate(text.strip_prefix('\u{feff}').unwrap_or(&text), &mut own);
    own.sort_by_key(|p| (p.line, p.column));
    own.into_iter().map(at).chain(levels).collect()
}

/// One entry's best result in a campaign's progress (spec §5 item 6: for each level only the
/// best attempt counts, for points and for ticks alike).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Best {
    /// The most points any won attempt earned (1–3 for boulder, 1 for the other kinds).
    pub points: u32,
    /// The fewest steps (ticks, turns, frames) of any attempt that earned points; `None`
    /// when not recorded.
    pub steps: Option<u64>,
    /// Members other than `points` and `steps`, kept and written back.
    pub kept: Map<String, Value>,
}

/// A player's progress through one campaign: the best result per entry, keyed by the
/// entry's path as the campaign writes it (spec §5 items 2 and 6, §6 W6: kept across
/// program runs). File form: `{"kind": "campaign-progress", "levels": {PATH: {"points": P,
/// "steps": S}}}` (schema `schemas/campaign-progress.schema.json`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Progress {
    /// The best result of each entry path that has one. Paths no longer in the campaign
    /// are kept (a level may come back) but count for nothing.
    pub levels: BTreeMap<String, Best>,
    /// Top-level members other than `kind` and `levels`, kept and written back.
    pub kept: Map<String, Value>,
}

impl Progress {
    /// The best points recorded for the entry path `path`; 0 when none.
    pub fn best_points(&self, path: &str) -> u32 {
        self.best(path).map_or(0, |b| b.points)
    }

    /// The best result recorded for the entry path `path`, if any.
    pub fn best(&self, path: &str) -> Option<&Best> {
        self.levels
            .get(path)
            .or_else(|| self.levels.get(&normal_entry_path(path)))
    }

    /// Records an attempt at the entry path `path` that earned `points` in `steps` steps:
    /// the entry's best points become the larger, its fewest steps the smaller (spec §5
    /// item 6). An attempt with 0 points (lost, or won by another player) is not a pass and
    /// records nothing. True when anything changed.
    pub fn record(&mut self, path: &str, points: u32, steps: u64) -> bool {
        if points == 0 {
            return false;
        }
        let key = if self.levels.contains_key(path) {
            path.to_string()
        } else {
            normal_entry_path(path)
        };
        let b = self.levels.entry(key).or_default();
        let before = (b.points, b.steps);
        b.points = b.points.max(points);
        b.steps = Some(b.steps.map_or(steps, |s| s.min(steps)));
        before != (b.points, b.steps)
    }

    /// Folds `other` (say, the progress file as another program left it) into this
    /// progress, keeping the best of each entry path (spec §5 item 6): the higher points and
    /// the fewest steps; members only `other` has are added. True when anything changed.
    pub fn merge(&mut self, other: &Progress) -> bool {
        let before = self.clone();
        for (k, theirs) in &other.levels {
            let key = if self.levels.contains_key(k) {
                k.clone()
            } else {
                normal_entry_path(k)
            };
            let b = self.levels.entry(key).or_default();
            b.points = b.points.max(theirs.points);
            b.steps = match (b.steps, theirs.steps) {
                (Some(a), Some(t)) => Some(a.min(t)),
                (a, t) => a.or(t),
            };
            for (m, v) in &theirs.kept {
                b.kept.entry(m.clone()).or_insert_with(|| v.clone());
            }
        }
        for (m, v) in &other.kept {
            self.kept.entry(m.clone()).or_insert_with(|| v.clone());
        }
        *self != before
    }

    /// Records a finished game of the entry path `path`: its [`Game::points_earned`] in its
    /// [`Game::steps`] (see [`Progress::record`]). True when anything changed.
    pub fn record_game(&mut self, path: &str, game: &dyn Game) -> bool {
        self.record(path, game.points_earned(), game.steps())
    }

    /// Reads progress from its JSON value.
    ///
    /// # Errors
    /// Every problem, with its JSON path (not located): not an object; `kind` present but
    /// not `"campaign-progress"`; `levels` not an object; a level's result not an object, its
    /// `points` missing or not a whole number 0…2³²−1, its `steps` not a whole number ≥ 0.
    pub fn from_json(v: &Value) -> Result<Progress, Vec<Problem>> {
        let root = JsonPath::root();
        let mut p = Vec::new();
        let Value::Object(o) = v else {
            return Err(vec![Problem::error(
                root,
                format!("progress must be a JSON object, found {}", type_name(v)),
            )]);
        };
        match o.get("kind") {
            None => {}
            Some(Value::String(k)) if k.eq_ignore_ascii_case(PROGRESS_KIND) => {}
            Some(k) => p.push(Problem::error(
                root.key("kind"),
                format!(
                    "a progress file's \"kind\" is \"{PROGRESS_KIND}\", found {}",
                    match k {
                        Value::String(s) => quote(s),
                        other => type_name(other).to_string(),
                    }
                ),
            )),
        }
        let mut levels = BTreeMap::new();
        match o.get("levels") {
            None => {}
            Some(Value::Object(m)) => {
                let lp = root.key("levels");
                for (k, v) in m {
                    if let Some(b) = parse_best(v, &lp.key(k), &mut p) {
                        levels.insert(k.clone(), b);
                    }
                }
            }
            Some(l) => p.push(Problem::error(
                root.key("levels"),
                format!(
                    "\"levels\" must be an object of results by level path, found {}",
                    type_name(l)
                ),
            )),
        }
        if !p.is_empty() {
            return Err(p);
        }
        let kept = o
            .iter()
            .filter(|(k, _)| !matches!(k.as_str(), "kind" | "levels"))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        Ok(Progress { levels, kept })
    }

    /// Reads progress from JSON text (a leading byte-order mark is dropped).
    ///
    /// # Errors
    /// As [`Progress::from_json`], located in `text`; or one problem for an empty text or
    /// invalid JSON.
    pub fn parse(text: &str) -> Result<Progress, Vec<Problem>> {
        parse_located(text, Progress::from_json)
    }

    /// Reads the progress file `path`; a file that does not exist is no progress yet
    /// (`Progress::default()`).
    ///
    /// # Errors
    /// The file's problems, located in it; a file that exists but cannot be read gives one
    /// problem at line 1, column 1. A bad progress file is never silently replaced.
    pub fn load(path: &Path) -> Result<Progress, Vec<Problem>> {
        match std::fs::symlink_metadata(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Progress::default());
            }
            _ => {}
        }
        Progress::parse(&read_text(path).map_err(|p| vec![p])?)
    }

    /// The progress as a JSON document: `kind`, `levels` (by path, each `points`, `steps`
    /// when known, then its kept members), then the kept members. Reads back to equal
    /// progress.
    pub fn to_json(&self) -> Value {
        let mut o = Map::new();
        o.insert("kind".into(), json!(PROGRESS_KIND));
        let mut levels = Map::new();
        for (k, b) in &self.levels {
            let mut m = Map::new();
            m.insert("points".into(), json!(b.points));
            if let Some(s) = b.steps {
                m.insert("steps".into(), json!(s));
            }
            for (k, v) in &b.kept {
                m.entry(k.clone()).or_insert_with(|| v.clone());
            }
            levels.insert(k.clone(), Value::Object(m));
        }
        o.insert("levels".into(), Value::Object(levels));
        for (k, v) in &self.kept {
            o.entry(k.clone()).or_insert_with(|| v.clone());
        }
        Value::Object(o)
    }

    /// Writes the progress to `path` atomically ([`crate::json_text::write_atomic`]): a
    /// crash leaves the old progress or the new, never a half-written file.
    ///
    /// # Errors
    /// Any I/O error; the old file is then left as it was.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let text = format!(
            "{}\n",
            serde_json::to_string_pretty(&self.to_json()).unwrap_or_default()
        );
        crate::json_text::write_atomic(path, text.as_bytes())
    }
}

/// The problem of a campaign file listed as an entry of a campaign, at line 1, column 1 of
/// that file.
pub fn nested_campaign_problem() -> Problem {
    Problem {
        line: Some(1),
        column: Some(1),
        ..Problem::error(
            JsonPath::root(),
            "this is a campaign file: a campaign cannot be a level of a campaign",
        )
    }
}

/// An entry path with `.` parts and repeated `/` dropped and each `..` folded into the folder
/// before it (lexically, as [`resolve_entry`] reads it on every system; a `..` above the
/// campaign's folder stays), for comparing paths: `baba/../boulder/a.json` and
/// `./boulder//a.json` are both `boulder/a.json`, `../x/a.json` stays.
fn normal_entry_path(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for s in path.split('/').filter(|s| !s.is_empty() && *s != ".") {
        if s == ".." && parts.last().is_some_and(|l| *l != "..") {
            parts.pop();
        } else {
            parts.push(s);
        }
    }
    parts.join("/")
}

/// The entries of a campaign's `levels` array; problems pushed to `p`.
fn parse_entries(a: &[Value], p: &mut Vec<Problem>) -> Vec<CampaignEntry> {
    let lp = JsonPath::root().key("levels");
    let mut out = Vec::with_capacity(a.len());
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for (i, v) in a.iter().enumerate() {
        let ep = lp.index(i);
        let Value::Object(o) = v else {
            p.push(Problem::error(
                ep,
                format!(
                    "level {i} must be an object with \"path\" and \"unlock\", found {}",
                    type_name(v)
                ),
            ));
            continue;
        };
        let path = match o.get("path") {
            None => {
                p.push(Problem::error(
                    ep.clone(),
                    format!("level {i} has no \"path\""),
                ));
                None
            }
            Some(Value::String(s)) => match entry_path_problem(s) {
                Some(why) => {
                    p.push(Problem::error(
                        ep.key("path"),
                        format!("the path {} {why}", quote_at_most(s, 240)),
                    ));
                    None
                }
                None => Some(s.clone()),
            },
            Some(x) => {
                p.push(Problem::error(
                    ep.key("path"),
                    format!("\"path\" must be a string, found {}", type_name(x)),
                ));
                None
            }
        };
        if let Some(s) = &path {
            match seen.get(&normal_entry_path(s)) {
                Some(j) => p.push(Problem::error(
                    ep.key("path"),
                    format!(
                        "level {i} is the same file as level {j}; a level is in a campaign once"
                    ),
                )),
                None => {
                    seen.insert(normal_entry_path(s), i);
                }
            }
        }
        let unlock = match o.get("unlock") {
            None => Some(0),
            Some(u) => natural(u, &ep.key("unlock"), "\"unlock\"", i64::from(u32::MAX), p)
                .map(|n| n as u32),
        };
        if let (Some(path), Some(unlock)) = (path, unlock) {
            let kept = o
                .iter()
                .filter(|(k, _)| !matches!(k.as_str(), "path" | "unlock"))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            out.push(CampaignEntry { path, unlock, kept });
        }
    }
    out
}

/// Why `s` is no entry path, if it is not.
fn entry_path_problem(s: &str) -> Option<String> {
    if s.trim().is_empty() {
        return Some("is empty".into());
    }
    if s.chars().count() > MAX_PATH_CHARS {
        return Some(format!("is too long (at most {MAX_PATH_CHARS} characters)"));
    }
    if s.contains('\\') {
        return Some("has a \\; folders are separated by / in every system".into());
    }
    if s.starts_with('/') || s.chars().nth(1) == Some(':') {
        return Some("is absolute; it must be relative to the campaign file's folder".into());
    }
    if s.chars().any(char::is_control) {
        return Some("has a control character".into());
    }
    if normal_entry_path(s).is_empty() {
        return Some("names a folder, not a level file".into());
    }
    None
}

/// One result of a progress file's `levels`; problems pushed to `p`.
fn parse_best(v: &Value, path: &JsonPath, p: &mut Vec<Problem>) -> Option<Best> {
    let Value::Object(o) = v else {
        p.push(Problem::error(
            path.clone(),
            format!(
                "a level's result must be an object with \"points\", found {}",
                type_name(v)
            ),
        ));
        return None;
    };
    let points = match o.get("points") {
        None => {
            p.push(Problem::error(path.clone(), "\"points\" is missing"));
            None
        }
        Some(x) => {
            natural(x, &path.key("points"), "\"points\"", i64::from(u32::MAX), p).map(|n| n as u32)
        }
    };
    let steps = match o.get("steps") {
        None => Some(None),
        Some(x) => natural(x, &path.key("steps"), "\"steps\"", (1i64 << 53) - 1, p).map(Some),
    };
    let kept = o
        .iter()
        .filter(|(k, _)| !matches!(k.as_str(), "points" | "steps"))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    Some(Best {
        points: points?,
        steps: steps?,
        kept,
    })
}

/// `from_json` of the JSON `text` (a leading byte-order mark dropped), its problems located
/// at their lines and columns of `text`.
///
/// # Errors
/// One problem for an empty text or invalid JSON, else those of `from_json`, located.
fn parse_located<T>(
    text: &str,
    from_json: impl FnOnce(&Value) -> Result<T, Vec<Problem>>,
) -> Result<T, Vec<Problem>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let v = crate::document::parse_json(text)?;
    from_json(&v).map_err(|mut p| {
        locate(text, &mut p);
        p
    })
}

/// The text of a campaign or progress file: a regular file of at most
/// [`MAX_CAMPAIGN_BYTES`] bytes of UTF-8.
///
/// # Errors
/// One problem at line 1, column 1 (or at the first byte that is not UTF-8) saying why.
// A problem carries its whole location; it is built once per unreadable file, so its size
// does not matter here (as in `kind_of`).
#[allow(clippy::result_large_err)]
fn read_text(path: &Path) -> Result<String, Problem> {
    let bytes = read_at_most(path, MAX_CAMPAIGN_BYTES).map_err(|e| Problem {
        line: Some(1),
        column: Some(1),
        ..Problem::error(JsonPath::root(), e.message(MAX_CAMPAIGN_BYTES))
    })?;
    utf8_text(&bytes).map(str::to_string).map_err(|p| {
        p.into_iter()
            .next()
            .unwrap_or_else(|| Problem::error(JsonPath::root(), "the file is not UTF-8 text"))
    })
}

#[cfg(test)]
mod tests {
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

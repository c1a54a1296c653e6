//! The player's progress through a campaign: best points and fewest steps per entry, read and
//! written as a progress file.

use crate::problem::Capped as _;
use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Map, Value, json};

use crate::game::Game;
use crate::level_json::{natural, type_name};
use crate::problem::{JsonPath, Problem, quote};

use super::*;

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
            Some(k) => p.push_capped(Problem::error(
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
            Some(l) => p.push_capped(Problem::error(
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

/// One result of a progress file's `levels`; problems pushed to `p`.
pub(super) fn parse_best(v: &Value, path: &JsonPath, p: &mut Vec<Problem>) -> Option<Best> {
    let Value::Object(o) = v else {
        p.push_capped(Problem::error(
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
            p.push_capped(Problem::error(path.clone(), "\"points\" is missing"));
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

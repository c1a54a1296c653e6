//! Reading and writing campaign files: telling a campaign from a level, parsing with located
//! problems, writing back with unknown members kept.

use crate::problem::Capped as _;
use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Map, Value, json};

use crate::level_json::{natural, type_name};
use crate::problem::{JsonPath, Problem, locate, quote, quote_at_most};
use crate::read::{read_at_most, utf8_text};

use super::*;

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
pub(super) fn peek_is_campaign(path: &Path) -> bool {
    crate::read::peek_member(path, KIND_PEEK_BYTES, "kind", CAMPAIGN_KIND)
}

impl Campaign {
    /// Reads a campaign from its JSON value.
    ///
    /// # Errors
    /// Every problem, with its JSON path (not located: see [`Campaign::parse`]): not an
    /// object; `kind` not `"campaign"`; `title` not a string; `levels` missing, not an array
    /// or longer than [`MAX_ENTRIES`]; an entry not an object, its `path` missing, empty,
    /// absolute, with `\`, longer than [`MAX_PATH_CHARS`] or the same as an earlier entry's;
    /// its `unlock` not a whole number 0…2³²−1; a `version` other than 1 (absent reads as 1).
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
            Some(Value::String(k)) => p.push_capped(Problem::error(
                root.key("kind"),
                format!("a campaign's \"kind\" is \"campaign\", found {}", quote(k)),
            )),
            Some(k) => p.push_capped(Problem::error(
                root.key("kind"),
                format!(
                    "\"kind\" must be the string \"campaign\", found {}",
                    type_name(k)
                ),
            )),
            None => p.push_capped(Problem::error(
                root.key("kind"),
                "\"kind\" is missing (a campaign has \"kind\": \"campaign\")",
            )),
        }
        // The versions this program reads: none is written yet, and a campaign that says it
        // is of another version is refused rather than read as this one (issue #30).
        match o.get("version") {
            None => {}
            Some(v) if v.as_u64() == Some(1) => {}
            Some(v) => p.push_capped(Problem::error(
                root.key("version"),
                format!(
                    "campaign version {} is not one this program reads (it reads 1)",
                    crate::level_json::shown(v)
                ),
            )),
        }
        let title = match o.get("title") {
            None => String::new(),
            Some(Value::String(s)) => s.clone(),
            Some(t) => {
                p.push_capped(Problem::error(
                    root.key("title"),
                    format!("\"title\" must be a string, found {}", type_name(t)),
                ));
                String::new()
            }
        };
        let entries = match o.get("levels") {
            None => {
                p.push_capped(Problem::error(root.key("levels"), "\"levels\" is missing"));
                Vec::new()
            }
            Some(Value::Array(a)) if a.len() > MAX_ENTRIES => {
                p.push_capped(Problem::error(
                    root.key("levels"),
                    format!("too many levels ({}; at most {MAX_ENTRIES})", a.len()),
                ));
                Vec::new()
            }
            Some(Value::Array(a)) => parse_entries(a, &mut p),
            Some(l) => {
                p.push_capped(Problem::error(
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
}

/// The entries of a campaign's `levels` array; problems pushed to `p`.
pub(super) fn parse_entries(a: &[Value], p: &mut Vec<Problem>) -> Vec<CampaignEntry> {
    let lp = JsonPath::root().key("levels");
    let mut out = Vec::with_capacity(a.len());
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for (i, v) in a.iter().enumerate() {
        let ep = lp.index(i);
        let Value::Object(o) = v else {
            p.push_capped(Problem::error(
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
                p.push_capped(Problem::error(
                    ep.clone(),
                    format!("level {i} has no \"path\""),
                ));
                None
            }
            Some(Value::String(s)) => match entry_path_problem(s) {
                Some(why) => {
                    p.push_capped(Problem::error(
                        ep.key("path"),
                        format!("the path {} {why}", quote_at_most(s, 240)),
                    ));
                    None
                }
                None => Some(s.clone()),
            },
            Some(x) => {
                p.push_capped(Problem::error(
                    ep.key("path"),
                    format!("\"path\" must be a string, found {}", type_name(x)),
                ));
                None
            }
        };
        if let Some(s) = &path {
            match seen.get(&normal_entry_path(s)) {
                Some(j) => p.push_capped(Problem::error(
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

/// `from_json` of the JSON `text` (a leading byte-order mark dropped), its problems located
/// at their lines and columns of `text`.
///
/// # Errors
/// One problem for an empty text or invalid JSON, else those of `from_json`, located.
pub(super) fn parse_located<T>(
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
pub(super) fn read_text(path: &Path) -> Result<String, Problem> {
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

//! Checking a campaign: thresholds that can never be reached, entries whose level is missing
//! or has errors, nested campaigns (`tilesmith check CAMPAIGN`).

use std::path::Path;

use crate::document::{Document, LoadError, load_file};
use crate::problem::{JsonPath, Problem, locate, quote_at_most};

use super::*;

/// The most points the level `doc` can earn: its kind's
/// [`GameKind::max_points`](crate::game::GameKind::max_points) (boulder 3, baba 1, a falling
/// level with a goal 1 and without 0, board 1).
pub fn max_points(doc: &Document) -> u32 {
    doc.kind.max_points(&doc.value)
}

impl Campaign {
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
    // The campaign file's own report is capped like any file's (issue #30); each level's
    // report was capped by its check.
    crate::problem::cap(own)
        .into_iter()
        .map(at)
        .chain(levels)
        .collect()
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

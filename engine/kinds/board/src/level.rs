//! Board levels: a JSON document that names a ZRF rules file (or holds its text), the variant
//! played, and optionally a position to start from: the pieces on the board (`setup`), the
//! reserves (`reserve`), piece attributes, the player to move and the last move. This is how
//! a designer saves a position or a puzzle; `docs/board-level-format.md` describes the
//! format.
//!
//! ```json
//! {"kind": "board", "rules": "chess.zrf", "variant": "Chess",
//!  "setup": {"White": {"King": ["e1"], "Rook": ["a1", "h1"]}, "Black": {"King": ["e8"]}},
//!  "to_move": "Black"}
//! ```
//!
//! `rules` is either a path (relative to the level's folder, read by the loader:
//! `tilesmith_engine::document::resolve_files`) or an object `{"zrf": TEXT, "file": NAME}`
//! holding the text; `file`, when given, is the file the text was read from, and ZRF problems
//! are reported at its lines (`game.zrf:12:5: …`). Names of players, pieces, positions and
//! attributes are matched exactly, else ignoring ASCII case (ZRF names are case-insensitive).

use std::sync::Arc;
use tilesmith_core::problem::Capped as _;

use serde_json::{Map, Value, json};

use super::play::Position;
use super::rules::{EndTest, NO_POS, PieceId, PlayerId, PosId, Rules};
use super::zrf::{self, ZrfProblem};
use tilesmith_core::level_json::type_name;
use tilesmith_core::problem::{JsonPath, Problem, quote};

pub use super::rules::{MAX_RESERVE, default_attrs};

mod start;

use start::start_position;

/// Where the rules of a level come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesSource {
    /// The ZRF text.
    pub text: String,
    /// The file it was read from (as the loader resolved it, e.g. `levels/board/game.zrf`),
    /// when known: problems are reported at its lines.
    pub file: Option<String>,
}

impl RulesSource {
    /// The `rules` member that holds this source: `{"file": …, "zrf": …}`.
    pub fn to_json(&self) -> Value {
        match &self.file {
            Some(f) => json!({"file": f, "zrf": self.text}),
            None => json!({"zrf": self.text}),
        }
    }

    /// A ZRF problem as a level problem: at the file's line and column when the file is
    /// known, else at `$.rules.zrf` with the line and column in the message.
    pub fn problem(&self, z: &ZrfProblem, variant: Option<&str>) -> Problem {
        if z.more > 0 {
            let severity = if z.warning {
                tilesmith_core::problem::Severity::Warning
            } else {
                tilesmith_core::problem::Severity::Error
            };
            return Problem::more(z.more, severity);
        }
        let mut message = z.message.clone();
        if let Some(v) = variant {
            message.push_str(&format!(" (variant {})", quote(v)));
        }
        let rules = JsonPath::root().key("rules");
        let p = |path: JsonPath, m: String| {
            if z.warning {
                Problem::warning(path, m)
            } else {
                Problem::error(path, m)
            }
        };
        match &self.file {
            Some(f) => p(rules, message).in_file(
                f.clone(),
                (z.span.line as usize).max(1),
                (z.span.col as usize).max(1),
            ),
            None => p(
                rules.key("zrf"),
                format!(
                    "rules line {}, column {}: {message}",
                    z.span.line.max(1),
                    z.span.col.max(1)
                ),
            ),
        }
    }
}

/// A board level: its rules compiled for one variant, and the position it starts from.
#[derive(Clone, Debug)]
pub struct BoardLevel {
    /// The compiled rules of the variant played.
    pub rules: Arc<Rules>,
    /// Where the rules came from.
    pub source: RulesSource,
    /// The `variant` member as written (`None`: the file's default variant).
    pub variant: Option<String>,
    /// The start position: the ZRF's board setup, with the level's replacements.
    pub start: Position,
    /// The warnings of the rules (compile warnings).
    pub warnings: Vec<Problem>,
    /// Top-level members this format does not use, kept and written back.
    pub extra: Map<String, Value>,
}

/// The members of a board level the format reads; the others (`name` among them) are kept as
/// they are and written back.
pub const MEMBERS: [&str; 9] = [
    "kind",
    "rules",
    "variant",
    "setup",
    "reserve",
    "attributes",
    "to_move",
    "turn",
    "last",
];

/// The index of `name` in `names`: an exact match, else one ignoring ASCII case.
fn find(names: impl Iterator<Item = impl AsRef<str>> + Clone, name: &str) -> Option<usize> {
    names.clone().position(|n| n.as_ref() == name).or_else(|| {
        names
            .into_iter()
            .position(|n| n.as_ref().eq_ignore_ascii_case(name))
    })
}

/// True when an end condition of `rules` tests `repetition` (then a game keeps counts of
/// the positions it has been in).
pub fn uses_repetition(rules: &Rules) -> bool {
    fn walk(t: &EndTest) -> bool {
        match t {
            EndTest::Repetition => true,
            EndTest::And(v) | EndTest::Or(v) => v.iter().any(walk),
            EndTest::Not(t) => walk(t),
            _ => false,
        }
    }
    rules.ends.iter().any(|e| walk(&e.test))
}

/// Reads the `rules` member.
fn read_source(o: &Map<String, Value>, p: &mut Vec<Problem>) -> Option<RulesSource> {
    let path = JsonPath::root().key("rules");
    match o.get("rules") {
        None => {
            p.push_capped(Problem::error(
                JsonPath::root(),
                "a board level needs \"rules\": a ZRF file name or {\"zrf\": TEXT}",
            ));
            None
        }
        Some(Value::String(name)) => {
            p.push_capped(Problem::error(
                path,
                format!(
                    "the rules file {} was not read: open the level from its file (the path is \
                     relative to the level's folder), or give the text as {{\"zrf\": TEXT}}",
                    quote(name)
                ),
            ));
            None
        }
        Some(Value::Object(r)) => {
            let text = match r.get("zrf") {
                Some(Value::String(t)) => t.clone(),
                Some(v) => {
                    p.push_capped(Problem::error(
                        path.key("zrf"),
                        format!("\"zrf\" must be the ZRF text, found {}", type_name(v)),
                    ));
                    return None;
                }
                None => {
                    p.push_capped(Problem::error(
                        path,
                        "\"rules\" as an object needs \"zrf\": the ZRF text",
                    ));
                    return None;
                }
            };
            if text.len() > zrf::MAX_ZRF_BYTES {
                p.push_capped(Problem::error(
                    path.key("zrf"),
                    format!(
                        "the ZRF text is too long ({} bytes; at most {})",
                        text.len(),
                        zrf::MAX_ZRF_BYTES
                    ),
                ));
                return None;
            }
            let file = match r.get("file") {
                None => None,
                Some(Value::String(f)) => Some(f.clone()),
                Some(v) => {
                    p.push_capped(Problem::error(
                        path.key("file"),
                        format!("\"file\" must be a file name, found {}", type_name(v)),
                    ));
                    None
                }
            };
            for k in r.keys().filter(|k| *k != "zrf" && *k != "file") {
                p.push_capped(Problem::warning(
                    path.key(k),
                    format!("unknown member {} of \"rules\" (ignored)", quote(k)),
                ));
            }
            Some(RulesSource { text, file })
        }
        Some(v) => {
            p.push_capped(Problem::error(
                path,
                format!(
                    "\"rules\" must be a ZRF file name or {{\"zrf\": TEXT}}, found {}",
                    type_name(v)
                ),
            ));
            None
        }
    }
}

impl BoardLevel {
    /// Reads a board level: compiles its rules (the `variant`, else the file's default) and
    /// builds the start position.
    ///
    /// # Errors
    /// Every error found: a bad `rules` member, ZRF errors (at the ZRF file's lines, or at
    /// `$.rules.zrf`), an unknown variant, and names in `setup`, `reserve`, `attributes`,
    /// `to_move`, `turn` and `last` that the rules do not have, each with its JSON path.
    pub fn from_json(doc: &Value) -> Result<BoardLevel, Vec<Problem>> {
        let mut p = Vec::new();
        let Some(o) = doc.as_object() else {
            return Err(vec![Problem::error(
                JsonPath::root(),
                "a level must be a JSON object",
            )]);
        };
        if let Some(v) = o.get("name").filter(|v| !v.is_string()) {
            p.push_capped(Problem::error(
                JsonPath::root().key("name"),
                format!("\"name\" must be a string, found {}", type_name(v)),
            ));
        }
        let source = read_source(o, &mut p);
        let variant = match o.get("variant") {
            None => None,
            Some(Value::String(v)) => Some(v.clone()),
            Some(v) => {
                p.push_capped(Problem::error(
                    JsonPath::root().key("variant"),
                    format!("\"variant\" must be a title, found {}", type_name(v)),
                ));
                None
            }
        };
        let Some(source) = source else {
            return Err(p);
        };
        let rules = match compile(&source, variant.as_deref()) {
            Ok((rules, warnings)) => {
                p.extend(warnings);
                rules
            }
            Err(problems) => {
                p.extend(problems);
                return Err(p);
            }
        };
        let warnings: Vec<Problem> = p.iter().filter(|q| !q.is_error()).cloned().collect();
        let start = start_position(&rules, o, &mut p);
        if p.iter().any(Problem::is_error) {
            return Err(p);
        }
        let extra = o
            .iter()
            .filter(|(k, _)| !MEMBERS.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        Ok(BoardLevel {
            rules: Arc::new(rules),
            source,
            variant,
            start,
            warnings,
            extra,
        })
    }

    /// Every problem of a level document: its errors, else its warnings. A level that names
    /// no `variant` plays the file's default one, and every variant of the file is checked
    /// (problems of other variants name the variant).
    pub fn check(doc: &Value) -> Vec<Problem> {
        let level = match BoardLevel::from_json(doc) {
            Ok(level) => level,
            Err(p) => return p,
        };
        let mut out = level.warnings.clone();
        if level.variant.is_none() {
            let Ok(titles) = zrf::variants(&level.source.text) else {
                return out;
            };
            for title in titles
                .iter()
                .filter(|t| !t.eq_ignore_ascii_case(&level.rules.title))
            {
                let found = match zrf::compile(&level.source.text, Some(title)) {
                    Ok((_, w)) => w,
                    Err(e) => e,
                };
                for z in &found {
                    let q = level.source.problem(z, Some(title));
                    // A problem every variant has is reported once, without a variant.
                    let plain = level.source.problem(z, None);
                    if !out.contains(&plain) && !out.contains(&q) {
                        out.push(q);
                    }
                }
            }
        }
        out
    }
}

/// Compiles the variant `variant` (or the default) of `source`, with its problems as level
/// problems.
///
/// # Errors
/// The compile errors (with the warnings), or an unknown variant at `$.variant`.
pub fn compile(
    source: &RulesSource,
    variant: Option<&str>,
) -> Result<(Rules, Vec<Problem>), Vec<Problem>> {
    let conv = |v: Vec<ZrfProblem>| -> Vec<Problem> {
        v.iter().map(|z| source.problem(z, None)).collect()
    };
    if let Some(title) = variant {
        let titles = zrf::variants(&source.text).map_err(conv)?;
        if find(titles.iter(), title).is_none() {
            return Err(vec![Problem::error(
                JsonPath::root().key("variant"),
                format!(
                    "the rules have no variant {} (they have: {})",
                    quote(title),
                    titles
                        .iter()
                        .map(|t| quote(t))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )]);
        }
    }
    let (rules, warnings) = zrf::compile(&source.text, variant).map_err(conv)?;
    Ok((rules, conv(warnings)))
}

/// The level document of a position: `rules`, `variant`, and the position written out in
/// full (`setup`, `reserve`, `attributes` where they differ from the defaults, `to_move`,
/// `turn` when the player does not say it, `last`), with `extra` members kept.
pub fn position_json(
    rules: &Rules,
    source: &RulesSource,
    variant: Option<&str>,
    pos: &Position,
    extra: &Map<String, Value>,
) -> Value {
    let mut o = Map::new();
    o.insert("kind".into(), json!("board"));
    if let Some(Value::String(n)) = extra.get("name") {
        o.insert("name".into(), json!(n));
    }
    o.insert("rules".into(), source.to_json());
    o.insert(
        "variant".into(),
        json!(variant.unwrap_or(rules.title.as_str())),
    );
    let pname = |i: PlayerId| rules.players.get(i as usize).cloned().unwrap_or_default();
    let kname = |i: PieceId| {
        rules
            .pieces
            .get(i as usize)
            .map(|d| d.name.clone())
            .unwrap_or_default()
    };
    let at = |i: PosId| {
        rules
            .board
            .positions
            .get(i as usize)
            .map(|d| d.name.clone())
            .unwrap_or_default()
    };
    let mut setup = Map::new();
    for pl in 0..rules.players.len() {
        setup.insert(pname(pl as PlayerId), json!({}));
    }
    let attrs0 = default_attrs(rules);
    let mut attributes = Map::new();
    for (i, cell) in pos.cells.iter().enumerate() {
        let Some(piece) = cell else { continue };
        let Some(Value::Object(per)) = setup.get_mut(&pname(piece.player)) else {
            continue;
        };
        let list = per
            .entry(kname(piece.kind))
            .or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(l) = list {
            l.push(json!(at(i as PosId)));
        }
        if piece.attrs != attrs0 {
            let mut a = Map::new();
            for (k, (name, _)) in rules.attributes.iter().enumerate().take(32) {
                if (piece.attrs ^ attrs0) & (1 << k) != 0 {
                    a.insert(name.clone(), json!(piece.attrs & (1 << k) != 0));
                }
            }
            attributes.insert(at(i as PosId), Value::Object(a));
        }
    }
    o.insert("setup".into(), Value::Object(setup));
    // Unlimited reserves (a setup without `off`) are the rules' own: written only when
    // counted.
    if !pos.reserve.iter().flatten().any(|n| *n == u32::MAX) {
        let mut reserve = Map::new();
        for (pl, counts) in pos.reserve.iter().enumerate() {
            let mut per = Map::new();
            for (k, n) in counts.iter().enumerate().filter(|(_, n)| **n > 0) {
                per.insert(kname(k as PieceId), json!(n));
            }
            if !per.is_empty() {
                reserve.insert(pname(pl as PlayerId), Value::Object(per));
            }
        }
        o.insert("reserve".into(), Value::Object(reserve));
    }
    if !attributes.is_empty() {
        o.insert("attributes".into(), Value::Object(attributes));
    }
    if let Some(entry) = rules.turn_order.get(pos.turn) {
        o.insert("to_move".into(), json!(pname(entry.player)));
        let first = rules
            .turn_order
            .iter()
            .position(|t| t.player == entry.player);
        if first != Some(pos.turn) {
            o.insert("turn".into(), json!(pos.turn));
        }
    }
    if let Some((f, t)) = pos.last {
        // A drop has no origin (NO_POS): written as `null`.
        let from = if f == NO_POS {
            Value::Null
        } else {
            json!(at(f))
        };
        o.insert("last".into(), json!([from, at(t)]));
    }
    for (k, v) in extra {
        if !o.contains_key(k) {
            o.insert(k.clone(), v.clone());
        }
    }
    Value::Object(o)
}

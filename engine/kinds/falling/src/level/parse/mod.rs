//! Reading a falling-block level from JSON: every member checked, each problem reported with
//! its path ([`FallingLevel::from_json`], [`FallingLevel::check`]).

mod field;
mod rules;
mod state;
mod tumos;

use serde_json::{Map, Value};
use tilesmith_core::problem::Capped as _;

use crate::field::BlockId;
use tilesmith_core::level_json::{int, type_name};
use tilesmith_core::problem::{JsonPath, Problem, did_you_mean, nearest, quote};

use super::*;
use field::*;
use rules::*;
use state::*;
use tumos::*;

/// Top-level members this format knows; others are kept in [`FallingLevel::extra`].
pub(crate) const KNOWN_KEYS: &[&str] = &[
    "kind",
    "name",
    "width",
    "height",
    "blocks",
    "tumos",
    "quick_turn",
    "hard_drop",
    "hold",
    "shadow",
    "clear",
    "fall",
    "hidden_rows",
    "game_over",
    "sequence",
    "timing",
    "score",
    "goal",
    "preview",
    "legend",
    "field",
    "active",
    "script",
    "state",
];

/// The most members of an object of the format other than the level, a block kind or a tumo
/// (whose unknown members are kept): a rule, `sequence`, `timing`, `score`, `goal`,
/// `active`, `state`.
pub(super) const MAX_MEMBERS: usize = 64;
/// The most `legend` entries.
pub const MAX_LEGEND: usize = 256;
/// The most entries of a kick table (8 states give 56 pairs).
pub(super) const MAX_KICK_PAIRS: usize = MAX_STATES * MAX_STATES;

/// The known members of a block kind; others are kept in [`BlockKind::extra`].
pub(super) const BLOCK_KEYS: &[&str] = &["name", "color", "form", "role"];
/// The known members of a tumo; others are kept in [`Tumo::extra`].
pub(super) const TUMO_KEYS: &[&str] = &[
    "name", "states", "block", "labels", "pivot", "kicks", "spawn",
];

/// The problems found so far, and the unknown members of rule objects kept so far.
#[derive(Default)]
pub(super) struct Ctx {
    pub(super) p: Vec<Problem>,
    pub(super) kept: RuleExtras,
    /// Repair mode: unknown field characters and short rows are kept, not errors.
    pub(super) editable: bool,
    /// Repair mode: the unknown field characters found, in order.
    pub(super) unknown: Vec<char>,
}

/// `"a", "b", "c"` for a message, at most 12 names.
pub(super) fn name_list<S: AsRef<str>>(names: &[S]) -> String {
    let mut s: Vec<String> = names.iter().take(12).map(|n| quote(n.as_ref())).collect();
    if names.len() > 12 {
        s.push(format!("… ({} in all)", names.len()));
    }
    if s.is_empty() {
        "none".into()
    } else {
        s.join(", ")
    }
}

impl Ctx {
    fn err(&mut self, path: JsonPath, msg: impl Into<String>) {
        self.p.push_capped(Problem::error(path, msg));
    }

    fn warn(&mut self, path: JsonPath, msg: impl Into<String>) {
        self.p.push_capped(Problem::warning(path, msg));
    }

    fn object<'a>(
        &mut self,
        v: &'a Value,
        path: &JsonPath,
        what: &str,
    ) -> Option<&'a Map<String, Value>> {
        match v {
            Value::Object(o) => Some(o),
            other => {
                self.err(
                    path.clone(),
                    format!("{what} must be an object, found {}", type_name(other)),
                );
                None
            }
        }
    }

    /// An object of at most `max` members (larger ones are refused before being read, so a
    /// file cannot make a problem per member by the million).
    fn object_at_most<'a>(
        &mut self,
        v: &'a Value,
        path: &JsonPath,
        what: &str,
        max: usize,
    ) -> Option<&'a Map<String, Value>> {
        let o = self.object(v, path, what)?;
        if o.len() > max {
            self.err(
                path.clone(),
                format!("{what} has {} members (at most {max})", o.len()),
            );
            return None;
        }
        Some(o)
    }

    /// An object of the format (a rule, `timing`, `state`, …): at most [`MAX_MEMBERS`]
    /// members.
    fn small_object<'a>(
        &mut self,
        v: &'a Value,
        path: &JsonPath,
        what: &str,
    ) -> Option<&'a Map<String, Value>> {
        self.object_at_most(v, path, what, MAX_MEMBERS)
    }

    /// An array of at most `max` entries (longer ones are refused before being read).
    fn array<'a>(
        &mut self,
        v: &'a Value,
        path: &JsonPath,
        what: &str,
        max: usize,
    ) -> Option<&'a Vec<Value>> {
        match v {
            Value::Array(a) if a.len() > max => {
                self.err(
                    path.clone(),
                    format!("{what} has {} entries (at most {max})", a.len()),
                );
                None
            }
            Value::Array(a) => Some(a),
            other => {
                self.err(
                    path.clone(),
                    format!("{what} must be an array, found {}", type_name(other)),
                );
                None
            }
        }
    }

    fn string<'a>(&mut self, v: &'a Value, path: &JsonPath, what: &str) -> Option<&'a str> {
        match v {
            Value::String(s) => Some(s),
            other => {
                self.err(
                    path.clone(),
                    format!("{what} must be a string, found {}", type_name(other)),
                );
                None
            }
        }
    }

    fn boolean(&mut self, v: &Value, path: &JsonPath, what: &str) -> Option<bool> {
        match v {
            Value::Bool(b) => Some(*b),
            other => {
                self.err(
                    path.clone(),
                    format!("{what} must be true or false, found {}", type_name(other)),
                );
                None
            }
        }
    }

    /// A whole number from `lo` to `hi`.
    fn num(&mut self, v: &Value, path: &JsonPath, what: &str, lo: i64, hi: i64) -> Option<i64> {
        match int(v) {
            Some(n) if (lo..=hi).contains(&n) => Some(n),
            Some(n) => {
                self.err(
                    path.clone(),
                    format!("{what} must be from {lo} to {hi}, found {n}"),
                );
                None
            }
            None => {
                let found = match v {
                    Value::Number(n) => format!("{n}"),
                    other => type_name(other).to_string(),
                };
                self.err(
                    path.clone(),
                    format!("{what} must be a whole number, found {found}"),
                );
                None
            }
        }
    }

    /// An optional member: `None` when missing, else the checked value.
    fn opt_num(
        &mut self,
        o: &Map<String, Value>,
        key: &str,
        path: &JsonPath,
        lo: i64,
        hi: i64,
    ) -> Option<Option<i64>> {
        match o.get(key) {
            None => Some(None),
            Some(v) => self
                .num(v, &path.key(key), &format!("\"{key}\""), lo, hi)
                .map(Some),
        }
    }

    /// Warns about members of `o` not in `known`; they are ignored.
    fn unknown_members(&mut self, o: &Map<String, Value>, path: &JsonPath, known: &[&str]) {
        for k in o.keys() {
            if !known.contains(&k.as_str()) {
                self.warn(
                    path.key(k),
                    format!(
                        "unknown member {} is ignored (known: {})",
                        quote(k),
                        known.join(", ")
                    ),
                );
            }
        }
    }

    /// Warns about members of `o` not in `known` and returns them: they have no effect but
    /// are kept and saved ([`RuleExtras`]).
    fn kept_members(
        &mut self,
        o: &Map<String, Value>,
        path: &JsonPath,
        known: &[&str],
    ) -> Map<String, Value> {
        let mut kept = Map::new();
        for (k, v) in o {
            if !known.contains(&k.as_str()) {
                self.warn(
                    path.key(k),
                    format!(
                        "unknown member {} has no effect; it is kept and saved (known: {})",
                        quote(k),
                        known.join(", ")
                    ),
                );
                kept.insert(k.clone(), v.clone());
            }
        }
        kept
    }

    /// A `"rule"` word among `known`.
    fn rule_word<'a>(
        &mut self,
        o: &'a Map<String, Value>,
        path: &JsonPath,
        what: &str,
        known: &[&str],
    ) -> Option<&'a str> {
        let Some(v) = o.get("rule") else {
            self.err(
                path.clone(),
                format!(
                    "{what} needs a \"rule\" member (one of {})",
                    known.join(", ")
                ),
            );
            return None;
        };
        let s = self.string(v, &path.key("rule"), "\"rule\"")?;
        if known.contains(&s) {
            Some(s)
        } else {
            self.err(
                path.key("rule"),
                format!(
                    "unknown {what} {}{} (known: {})",
                    quote(s),
                    did_you_mean(nearest(s, known.iter().copied())),
                    known.join(", ")
                ),
            );
            None
        }
    }

    /// A block name that must resolve.
    fn block_ref(
        &mut self,
        v: &Value,
        path: &JsonPath,
        what: &str,
        blocks: &[String],
    ) -> Option<BlockId> {
        let s = self.string(v, path, what)?;
        match blocks.iter().position(|b| b == s) {
            Some(i) => BlockId::try_from(i + 1).ok(),
            None => {
                self.err(
                    path.clone(),
                    format!(
                        "unknown block kind {}{} (known: {})",
                        quote(s),
                        did_you_mean(nearest(s, blocks.iter().map(String::as_str))),
                        name_list(blocks)
                    ),
                );
                None
            }
        }
    }

    /// A tumo name that must resolve.
    fn tumo_ref(
        &mut self,
        v: &Value,
        path: &JsonPath,
        what: &str,
        tumos: &[String],
    ) -> Option<usize> {
        let s = self.string(v, path, what)?;
        match tumos.iter().position(|t| t == s) {
            Some(i) => Some(i),
            None => {
                self.err(
                    path.clone(),
                    format!(
                        "unknown tumo {}{} (known: {})",
                        quote(s),
                        did_you_mean(nearest(s, tumos.iter().map(String::as_str))),
                        name_list(tumos)
                    ),
                );
                None
            }
        }
    }

    /// A list of block names.
    fn block_list(
        &mut self,
        v: &Value,
        path: &JsonPath,
        what: &str,
        blocks: &[String],
        max: usize,
    ) -> Option<Vec<BlockId>> {
        let a = self.array(v, path, what, max)?;
        let mut out = Vec::with_capacity(a.len());
        let mut ok = true;
        for (i, e) in a.iter().enumerate() {
            match self.block_ref(e, &path.index(i), "a block kind", blocks) {
                Some(b) => out.push(b),
                None => ok = false,
            }
        }
        ok.then_some(out)
    }
}

/// What the tumos need from the rest of the level while being read.
pub(super) struct TumoCx<'a> {
    blocks: &'a [String],
    normal: Vec<BlockId>,
}

pub(super) fn parse_level(doc: &Value, cx: &mut Ctx) -> Option<FallingLevel> {
    let root = JsonPath::root();
    let Value::Object(o) = doc else {
        cx.err(
            root,
            format!("a level must be a JSON object, found {}", type_name(doc)),
        );
        return None;
    };
    check_kind(o, &root, cx);
    let name = tilesmith_core::level_json::name(o, &mut cx.p);
    let (height, size) = parse_size(o, &root, cx);

    // Names resolve against the raw lists, so that one bad block or tumo does not make every
    // reference to the others an error too.
    let block_names = raw_names(o, "blocks", MAX_BLOCK_KINDS);
    let normal = normal_kinds(o);
    let blocks = parse_blocks(o.get("blocks"), cx);
    let tcx = TumoCx {
        blocks: &block_names,
        normal,
    };
    let tumos = parse_tumos(o.get("tumos"), &tcx, cx);
    let tumo_names = raw_names(o, "tumos", MAX_TUMOS);

    let flag = |cx: &mut Ctx, key: &str| match o.get(key) {
        None => Some(false),
        Some(v) => cx.boolean(v, &root.key(key), &format!("\"{key}\"")),
    };
    let quick_turn = flag(cx, "quick_turn");
    let hard_drop = flag(cx, "hard_drop");
    let hold = flag(cx, "hold");
    let shadow = flag(cx, "shadow");
    let clear = parse_clear(o.get("clear"), cx);
    let fall = parse_fall(o.get("fall"), cx);
    let hidden_rows = opt_count(o, "hidden_rows", 0, height.unwrap_or(MAX_SIDE), &root, cx);
    let game_over = parse_game_over(o.get("game_over"), cx);
    let sequence = parse_sequence(o.get("sequence"), &tumo_names, cx);
    let timing = parse_timing(o.get("timing"), cx);
    let score = match o.get("score") {
        None => Some(None),
        Some(v) => parse_score(v, cx).map(Some),
    };
    let goal = match o.get("goal") {
        None => Some(None),
        Some(v) => parse_goal(v, cx).map(Some),
    };
    let preview = opt_count(o, "preview", DEFAULT_PREVIEW, MAX_PREVIEW, &root, cx);
    let legend = parse_legend(o.get("legend"), &block_names, cx);
    let field = match (size, &legend) {
        (Some((w, h)), Some(legend)) => parse_field(o.get("field"), w, h, legend, cx),
        _ => None,
    };
    let script = parse_script(o, &root, cx);

    // Checks that need several members.
    if let (Some(tumos), Some((w, h))) = (&tumos, size) {
        for (i, t) in tumos.iter().enumerate() {
            check_spawn(t, i, w, h, cx);
        }
    }
    let active = match (o.get("active"), &tumos, &field) {
        (None | Some(Value::Null), _, _) => Some(None),
        (Some(v), Some(tumos), Some(field)) => {
            parse_active(v, tumos, &tumo_names, &block_names, field, cx).map(Some)
        }
        _ => None,
    };
    let state = match (o.get("state"), &tumos, &field, &sequence) {
        (None | Some(Value::Null), _, _, _) => Some(None),
        (Some(v), Some(tumos), Some(field), Some(seq)) => {
            parse_state(v, tumos, &tumo_names, &block_names, field, seq, cx).map(Some)
        }
        _ => None,
    };

    let extra: Map<String, Value> = o
        .iter()
        .filter(|(k, _)| !KNOWN_KEYS.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    Some(FallingLevel {
        name,
        blocks: blocks?,
        tumos: tumos?,
        quick_turn: quick_turn?,
        hard_drop: hard_drop?,
        hold: hold?,
        shadow: shadow?,
        clear: clear?,
        fall: fall?,
        hidden_rows: hidden_rows?,
        game_over: game_over?,
        sequence: sequence?,
        timing: timing?,
        score: score?,
        goal: goal?,
        field: field?,
        legend: legend?,
        active: active?,
        script: script?,
        preview: preview?,
        state: state?,
        extra,
        rule_extra: std::mem::take(&mut cx.kept),
        unknown: std::mem::take(&mut cx.unknown),
    })
}

/// Checks `kind`: it must be `"falling"` (any ASCII case).
fn check_kind(o: &Map<String, Value>, root: &JsonPath, cx: &mut Ctx) {
    match o.get("kind") {
        Some(Value::String(k)) if k.eq_ignore_ascii_case("falling") => {}
        Some(Value::String(k)) => cx.err(
            root.key("kind"),
            format!(
                "{} is not a falling level (\"kind\" must be \"falling\")",
                quote(k)
            ),
        ),
        Some(v) => cx.err(
            root.key("kind"),
            format!("\"kind\" must be a string, found {}", type_name(v)),
        ),
        None => cx.err(
            root.clone(),
            "\"kind\" is missing (a falling level needs \"kind\": \"falling\")",
        ),
    }
}

/// `width` and `height`: the height, and both when the field they make is not too large.
fn parse_size(
    o: &Map<String, Value>,
    root: &JsonPath,
    cx: &mut Ctx,
) -> (Option<usize>, Option<(usize, usize)>) {
    let width = tilesmith_core::level_json::side(o, "width", (MAX_SIDE, MAX_CELLS), &mut cx.p);
    let height = tilesmith_core::level_json::side(o, "height", (MAX_SIDE, MAX_CELLS), &mut cx.p);
    let size = match (width, height) {
        (Some(w), Some(h)) if w * h > MAX_CELLS => {
            cx.err(
                root.key("height"),
                format!("the field is too large ({w} × {h} cells; at most {MAX_CELLS})"),
            );
            None
        }
        (Some(w), Some(h)) => Some((w, h)),
        _ => None,
    };
    (height, size)
}

/// The names of the list under `key` (`blocks` or `tumos`) as written, at most `max`, `""` for
/// an entry without one: names resolve against these raw lists, so that one bad block or tumo
/// does not make every reference to the others an error too.
fn raw_names(o: &Map<String, Value>, key: &str, max: usize) -> Vec<String> {
    o.get(key)
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .take(max)
                .map(|b| {
                    b.get("name")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string()
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The ids of the block kinds as written whose role is normal (or missing).
fn normal_kinds(o: &Map<String, Value>) -> Vec<BlockId> {
    o.get("blocks")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .take(MAX_BLOCK_KINDS)
                .enumerate()
                .filter(|(_, b)| b.get("role").is_none_or(|r| r == "normal"))
                .filter_map(|(i, _)| BlockId::try_from(i + 1).ok())
                .collect()
        })
        .unwrap_or_default()
}

/// A count under `key` from 0 to `hi`, `default` when it is missing.
fn opt_count(
    o: &Map<String, Value>,
    key: &str,
    default: usize,
    hi: usize,
    root: &JsonPath,
    cx: &mut Ctx,
) -> Option<usize> {
    match o.get(key) {
        None => Some(default),
        Some(v) => cx
            .num(v, &root.key(key), &format!("\"{key}\""), 0, hi as i64)
            .map(|n| n as usize),
    }
}

/// `script`: an FPGDL program of at most [`MAX_SCRIPT_BYTES`], or none.
fn parse_script(o: &Map<String, Value>, root: &JsonPath, cx: &mut Ctx) -> Option<Option<String>> {
    match o.get("script") {
        None | Some(Value::Null) => Some(None),
        Some(Value::String(s)) if s.len() > MAX_SCRIPT_BYTES => {
            cx.err(
                root.key("script"),
                format!(
                    "the script is too long ({} bytes; at most {MAX_SCRIPT_BYTES})",
                    s.len()
                ),
            );
            None
        }
        Some(v) => cx
            .string(v, &root.key("script"), "\"script\"")
            .map(|s| Some(s.to_string())),
    }
}

//! Reading a boulder level from JSON (§3): its members, map fields and saved state, each
//! problem with its path.

use std::collections::BTreeMap;
use tilesmith_core::problem::Capped as _;

use serde_json::{Map, Value};

use crate::token::{Global, Globals, Token, VALUE_COUNT, ValueKey, ValueName};
use tilesmith_core::game::Status;
use tilesmith_core::grid::{Grid, Pos};
use tilesmith_core::level_json::{self, int, natural, type_name};
use tilesmith_core::problem::{JsonPath, Problem, did_you_mean, nearest, quote};

use super::parse_rule::*;
use super::*;

/// Top-level members this loader understands; everything else goes to `extra`.
pub(crate) const KNOWN_KEYS: &[&str] = &[
    "kind", "name", "width", "height", "gems", "ticks", "pre", "post", "maxslime", "map", "state",
];

pub(super) fn three(doc: &Map<String, Value>, key: &str, p: &mut Vec<Problem>) -> Option<[u32; 3]> {
    let path = JsonPath::root().key(key);
    match doc.get(key) {
        None => {
            p.push_capped(Problem::error(
                path,
                format!("\"{key}\" is missing (three numbers for 1, 2 and 3 points)"),
            ));
            None
        }
        Some(Value::Array(a)) if a.len() == 3 => {
            let mut out = [0u32; 3];
            let mut ok = true;
            for (i, v) in a.iter().enumerate() {
                match natural(v, &path.index(i), &format!("\"{key}\"[{i}]"), MAX_VALUE, p) {
                    Some(n) => out[i] = n as u32,
                    None => ok = false,
                }
            }
            ok.then_some(out)
        }
        Some(v) => {
            let found = match v {
                Value::Array(a) => format!("{} entries", a.len()),
                other => type_name(other).to_string(),
            };
            p.push_capped(Problem::error(
                path,
                format!("\"{key}\" must be an array of three numbers, found {found}"),
            ));
            None
        }
    }
}

pub(super) fn parse_level(
    doc: &Value,
    p: &mut Vec<Problem>,
    figure_rule: bool,
    repair: bool,
) -> Option<BoulderLevel> {
    let root = JsonPath::root();
    let Value::Object(o) = doc else {
        p.push_capped(Problem::error(
            root,
            format!("a level must be a JSON object, found {}", type_name(doc)),
        ));
        return None;
    };
    let name = level_json::name(o, p);
    // In repair mode the map decides the size: a bad `width` or `height` is only reported
    // (by the check of the level as saved, where they are written from the map).
    let mut scratch = Vec::new();
    let sides = if repair { &mut scratch } else { &mut *p };
    let width = level_json::side(o, "width", (MAX_SIDE, MAX_CELLS), sides);
    let height = level_json::side(o, "height", (MAX_SIDE, MAX_CELLS), sides);
    let gems = three(o, "gems", p);
    let ticks = three(o, "ticks", p);
    let maxslime = o
        .get("maxslime")
        .and_then(|v| natural(v, &root.key("maxslime"), "\"maxslime\"", MAX_VALUE, p))
        .map(|n| n as u32);
    let mut rules = |key: &str| -> Vec<Rule> {
        match o.get(key) {
            None => Vec::new(),
            Some(Value::Array(a)) => a
                .iter()
                .enumerate()
                .filter_map(|(i, r)| parse_rule(r, &root.key(key).index(i), p))
                .collect(),
            Some(v) => {
                p.push_capped(Problem::error(
                    root.key(key),
                    format!(
                        "\"{key}\" must be an array of rules, found {}",
                        type_name(v)
                    ),
                ));
                Vec::new()
            }
        }
    };
    let pre = rules("pre");
    let post = rules("post");
    let (state, clock, saved_status) = match o.get("state").and_then(|s| parse_state(s, p)) {
        Some((g, c, st)) => (Some(g), c, st),
        None => (None, None, None),
    };
    // A saved "won" earns the points its globals earn; none is a contradiction.
    let status = match (saved_status, &gems, &ticks, state) {
        (Some(Status::Won { .. }), Some(gems), Some(ticks), Some(g)) => {
            match points_of(g, *gems, *ticks) {
                0 => {
                    p.push_capped(Problem::error(
                        root.key("state").key("status"),
                        "\"state\".status is \"won\" but the state's gems and ticks earn no points",
                    ));
                    None
                }
                points => Some(Status::won(points)),
            }
        }
        (other, ..) => other,
    };
    let mut unknown = Vec::new();
    let map = if repair {
        let kept = |v: Option<&Value>| {
            unknown.push(v.cloned());
            Cell::new(Token::Unknown).with(ValueKey::Moved, (unknown.len() - 1) as u32)
        };
        level_json::grid_repair(o.get("map"), (MAX_SIDE, MAX_CELLS), p, parse_cell, kept)
    } else {
        level_json::grid(
            o.get("map"),
            (width, height),
            "fields",
            (MAX_SIDE, MAX_CELLS),
            p,
            parse_cell,
        )
    };
    let extra: Map<String, Value> = o
        .iter()
        .filter(|(k, _)| !KNOWN_KEYS.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let map = map?;
    let field_extra = field_extras(o.get("map"));
    if figure_rule {
        // A finished game (won, or lost because the figure was destroyed) may have none.
        p.extend(figure_problems(&map, status.is_some()));
    }
    Some(BoulderLevel {
        name,
        gems: gems?,
        ticks: ticks?,
        pre,
        post,
        maxslime,
        map,
        state,
        clock,
        status,
        extra,
        field_extra,
        unknown,
    })
}

/// The unknown members of the map's fields written as objects, by `(y, x)` (parse_cell
/// warns about each).
pub(super) fn field_extras(map: Option<&Value>) -> BTreeMap<(usize, usize), Map<String, Value>> {
    let mut out = BTreeMap::new();
    let Some(Value::Array(rows)) = map else {
        return out;
    };
    for (y, row) in rows.iter().enumerate() {
        let Value::Array(cells) = row else { continue };
        for (x, c) in cells.iter().enumerate() {
            if let Value::Object(o) = c {
                let more: Map<String, Value> = o
                    .iter()
                    .filter(|(k, _)| *k != "token" && *k != "values")
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                if !more.is_empty() {
                    out.insert((y, x), more);
                }
            }
        }
    }
    out
}

/// No `me` (unless the state is `finished`), or every `me` after the first (row-major), as
/// errors.
pub(super) fn figure_problems(map: &Grid<Cell>, finished: bool) -> Vec<Problem> {
    let root = JsonPath::root();
    let mes: Vec<Pos> = map
        .iter()
        .filter(|(_, c)| c.token == Token::Me)
        .map(|(p, _)| p)
        .collect();
    match mes.len() {
        0 if finished => Vec::new(),
        0 => vec![Problem::error(
            root.key("map"),
            "the map has no \"me\" (exactly one is required)",
        )],
        1 => Vec::new(),
        n => mes[1..]
            .iter()
            .map(|&at| {
                Problem::error(
                    root.key("map").index(at.y).index(at.x),
                    format!("the map has {n} \"me\" fields (exactly one is required)"),
                )
                .at_cell(at)
            })
            .collect(),
    }
}

/// Reads `"<64 hex digits>:<decimal word position>"` (the position without leading zeros and
/// below [`RNG_WORD_LIMIT`]); the error says what is wrong.
pub(super) fn parse_rng(s: &str) -> Result<([u8; 32], u128), String> {
    let format = "must be \"<64 hex digits>:<word position>\" as written by `tilesmith run --out`";
    let Some((hex, word)) = s.split_once(':') else {
        return Err(format!("{format}; found {} (no ':')", quote(s)));
    };
    if hex.len() != 64 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!(
            "{format}; the seed before ':' has {} characters, not 64 hex digits",
            hex.chars().count()
        ));
    }
    let mut seed = [0u8; 32];
    for (i, b) in seed.iter_mut().enumerate() {
        *b = hex
            .get(2 * i..2 * i + 2)
            .and_then(|h| u8::from_str_radix(h, 16).ok())
            .ok_or_else(|| format!("{format}; the seed is not hex"))?;
    }
    let canonical = word == "0" || (!word.starts_with('0') && !word.is_empty());
    match word.parse::<u128>() {
        Ok(n) if canonical && word.bytes().all(|b| b.is_ascii_digit()) && n < RNG_WORD_LIMIT => {
            Ok((seed, n))
        }
        _ => Err(format!(
            "{format}; the word position {} is not a whole number below 2^68 without leading zeros",
            quote(word)
        )),
    }
}

/// A saved state's globals, clock and status (`None` for "running" or no status).
pub(super) type SavedState = (Globals, Option<Clock>, Option<Status>);

pub(super) fn parse_state(v: &Value, p: &mut Vec<Problem>) -> Option<SavedState> {
    let path = JsonPath::root().key("state");
    let Value::Object(o) = v else {
        p.push_capped(Problem::error(
            path,
            format!(
                "\"state\" must be an object of globals, found {}",
                type_name(v)
            ),
        ));
        return None;
    };
    let mut g = [0u32; 5];
    let mut tick_count = None;
    let mut rng = None;
    let mut status = None;
    let mut reason = None;
    for (k, v) in o {
        if k.eq_ignore_ascii_case("status") {
            match v.as_str() {
                Some("running") => {}
                Some("won") => status = Some(Status::won(0)),
                Some("lost") => {
                    status = Some(Status::Lost {
                        reason: String::new(),
                    })
                }
                _ => p.push_capped(Problem::error(
                    path.key(k),
                    format!(
                        "\"state\".status must be \"running\", \"won\" or \"lost\", found {}",
                        v.as_str().map_or_else(|| type_name(v).to_string(), quote)
                    ),
                )),
            }
            continue;
        }
        if k.eq_ignore_ascii_case("reason") {
            match v.as_str() {
                Some(r) => reason = Some((r.to_string(), path.key(k))),
                None => p.push_capped(Problem::error(
                    path.key(k),
                    format!("\"state\".reason must be a string, found {}", type_name(v)),
                )),
            }
            continue;
        }
        if k.eq_ignore_ascii_case("tick_count") {
            tick_count = natural(
                v,
                &path.key(k),
                &format!("\"state\".{k} (ticks computed)"),
                MAX_TICK_COUNT,
                p,
            );
            continue;
        }
        if k.eq_ignore_ascii_case("rng") {
            rng = match v.as_str().map(parse_rng) {
                Some(Ok(r)) => Some(r),
                Some(Err(why)) => {
                    p.push_capped(Problem::error(path.key(k), format!("\"state\".{k} {why}")));
                    None
                }
                None => {
                    p.push_capped(Problem::error(
                            path.key(k),
                            format!(
                                "\"state\".{k} must be a string \"<64 hex digits>:<word position>\" as written by `tilesmith run --out`, found {}",
                                type_name(v)
                            ),
                        ),
                    );
                    None
                }
            };
            continue;
        }
        match Global::ALL
            .iter()
            .find(|x| x.name().eq_ignore_ascii_case(k))
        {
            Some(gl) => {
                if let Some(n) = natural(v, &path.key(k), &format!("\"state\".{k}"), MAX_VALUE, p) {
                    g[*gl as usize] = n as u32;
                }
            }
            None => p.push_capped(Problem::error(
                    path.key(k),
                    format!(
                        "unknown global {} (known: gems, ticks, x, y, z, and tick_count, rng, status, reason)",
                        quote(k)
                    ),
                ),
            ),
        }
    }
    let clock = (tick_count.is_some() || rng.is_some()).then(|| Clock {
        tick_count: tick_count.unwrap_or(0),
        rng,
    });
    match (&mut status, reason) {
        (Some(Status::Lost { reason }), r) => {
            *reason = r.map_or_else(|| "the game was lost before it was saved".into(), |r| r.0);
        }
        (_, Some((_, rp))) => p.push_capped(Problem::error(
            rp,
            "\"state\".reason is only for a \"lost\" status",
        )),
        _ => {}
    }
    Some((g, clock, status))
}

/// One map field from its JSON form (a token name, or `{"token": …, "values": {…}}`), as in a
/// level's `map`; `None` when it is not a valid field. For pasting cells copied as JSON.
pub fn cell_from_json(v: &Value) -> Option<Cell> {
    let mut p = Vec::new();
    let cell = parse_cell(v, &JsonPath::root(), Pos::new(0, 0), &mut p)?;
    p.iter().all(|x| !x.is_error()).then_some(cell)
}

/// The token named `s`, or an "unknown token" problem at `path` (cell `at`) with the nearest
/// name; once the report is full the problem is only counted, so no did-you-mean search.
fn token_named(s: &str, path: JsonPath, at: Pos, p: &mut Vec<Problem>) -> Option<Token> {
    if let Some(t) = Token::from_name(s) {
        return Some(t);
    }
    p.push_capped_with(tilesmith_core::problem::Severity::Error, || {
        let hint = did_you_mean(Token::suggest(s).map(Token::name));
        Problem::error(path, format!("unknown token {}{hint}", quote(s))).at_cell(at)
    });
    None
}

pub(super) fn parse_cell(
    v: &Value,
    path: &JsonPath,
    at: Pos,
    p: &mut Vec<Problem>,
) -> Option<Cell> {
    let token_of = |s: &str, path: JsonPath, p: &mut Vec<Problem>| token_named(s, path, at, p);
    match v {
        Value::String(s) => token_of(s, path.clone(), p).map(Cell::new),
        Value::Object(o) => {
            let token = match o.get("token") {
                Some(Value::String(s)) => token_of(s, path.key("token"), p),
                Some(other) => {
                    p.push_capped(
                        Problem::error(
                            path.key("token"),
                            format!(
                                "a field's token must be a string, found {}",
                                type_name(other)
                            ),
                        )
                        .at_cell(at),
                    );
                    None
                }
                None => {
                    p.push_capped(
                        Problem::error(path.clone(), "a field object needs a \"token\"")
                            .at_cell(at),
                    );
                    None
                }
            };
            let mut values = [0u32; VALUE_COUNT];
            match o.get("values") {
                None | Some(Value::Null) => {}
                Some(Value::Object(vs)) => {
                    for (k, v) in vs {
                        let vp = path.key("values").key(k);
                        match ValueName::from_name(k) {
                            Some(ValueName::Field(key)) => {
                                if let Some(n) =
                                    natural(v, &vp, &format!("value {}", quote(k)), MAX_VALUE, p)
                                {
                                    values[key as usize] = n as u32;
                                }
                            }
                            Some(ValueName::Global(_)) => p.push_capped(
                                Problem::error(
                                    vp,
                                    format!(
                                        "{} is a global value and cannot be set on a field",
                                        quote(k)
                                    ),
                                )
                                .at_cell(at),
                            ),
                            None => {
                                let names = ValueKey::ALL.iter().map(|k| k.name());
                                let hint = did_you_mean(nearest(k, names));
                                p.push_capped(
                                    Problem::error(vp, format!("unknown value {}{hint}", quote(k)))
                                        .at_cell(at),
                                )
                            }
                        }
                    }
                }
                Some(other) => p.push_capped(
                    Problem::error(
                        path.key("values"),
                        format!("\"values\" must be an object, found {}", type_name(other)),
                    )
                    .at_cell(at),
                ),
            }
            for k in o.keys().filter(|k| *k != "token" && *k != "values") {
                p.push_capped(
                    Problem::warning(
                        path.key(k),
                        format!(
                            "unknown member {} of a field is ignored (kept when saved)",
                            quote(k)
                        ),
                    )
                    .at_cell(at),
                );
            }
            Some(Cell {
                token: token?,
                values,
            })
        }
        other => {
            p.push_capped(
                Problem::error(
                    path.clone(),
                    format!(
                        "a field must be a token string or an object, found {}",
                        type_name(other)
                    ),
                )
                .at_cell(at),
            );
            None
        }
    }
}

/// A digit-only string or a JSON integer as an index.
pub(super) fn index_token(v: &Value) -> Option<i64> {
    match v {
        Value::String(s) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => {
            Some(s.parse().unwrap_or(i64::MAX))
        }
        Value::Number(_) => int(v),
        _ => None,
    }
}

pub(super) fn parse_values(
    v: Option<&Value>,
    path: &JsonPath,
    original: bool,
    p: &mut Vec<Problem>,
) -> Vec<(ValueName, i64)> {
    let mut out = Vec::new();
    match v {
        None | Some(Value::Null) => {}
        Some(Value::Object(o)) => {
            for (k, v) in o {
                let vp = path.key(k);
                let Some(name) = ValueName::from_name(k) else {
                    p.push_capped(Problem::error(vp, format!("unknown value {}", quote(k))));
                    continue;
                };
                match int(v) {
                    Some(n) if n.unsigned_abs() > MAX_VALUE as u64 => p.push_capped(Problem::error(vp, format!("value {} is out of range ({n})", quote(k))),
                    ),
                    Some(n) if n < 0 && original => p.push_capped(Problem::error(
                            vp,
                            format!(
                                "value {} is negative ({n}) in an original block, which can never match",
                                quote(k)
                            ),
                        ),
                    ),
                    Some(n) => {
                        out.retain(|(x, _)| *x != name);
                        out.push((name, n));
                    }
                    None => p.push_capped(Problem::error(
                            vp,
                            format!(
                                "value {} must be a whole number, found {}",
                                quote(k),
                                type_name(v)
                            ),
                        ),
                    ),
                }
            }
        }
        Some(other) => p.push_capped(Problem::error(
            path.clone(),
            format!("\"values\" must be an object, found {}", type_name(other)),
        )),
    }
    out
}

/// Warns about each unknown member of a rule block and gives them back, to be kept.
pub(super) fn unknown_block_members(
    block: &Map<String, Value>,
    path: &JsonPath,
    p: &mut Vec<Problem>,
) -> Map<String, Value> {
    let mut more = Map::new();
    for (k, v) in block
        .iter()
        .filter(|(k, _)| *k != "token" && *k != "values")
    {
        p.push_capped(Problem::warning(
            path.key(k),
            format!(
                "unknown member {} of a rule block is ignored (kept when saved)",
                quote(k)
            ),
        ));
        more.insert(k.clone(), v.clone());
    }
    more
}

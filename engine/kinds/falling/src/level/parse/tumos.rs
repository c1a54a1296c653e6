//! Reading the block kinds and the tumos: rotation states, labels, kicks, spawn positions.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::field::BlockId;
use crate::shape::{Kicks, ShapeGrid};
use tilesmith_core::level_json::{int, type_name};
use tilesmith_core::problem::{JsonPath, quote};

use super::*;

pub(super) fn parse_blocks(v: Option<&Value>, cx: &mut Ctx) -> Option<Vec<BlockKind>> {
    let path = JsonPath::root().key("blocks");
    let Some(v) = v else {
        cx.err(path, "\"blocks\" is missing (the block kinds, e.g. [{\"name\": \"red\", \"color\": [255, 0, 0]}])");
        return None;
    };
    let a = cx.array(v, &path, "\"blocks\"", MAX_BLOCK_KINDS)?;
    if a.is_empty() {
        cx.err(path, "\"blocks\" must list at least one block kind");
        return None;
    }
    let mut out = Vec::with_capacity(a.len());
    let mut ok = true;
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for (i, b) in a.iter().enumerate() {
        let bp = path.index(i);
        match parse_block(b, &bp, cx) {
            Some(k) => {
                if let Some(first) = seen.get(&k.name) {
                    cx.err(
                        bp.key("name"),
                        format!(
                            "block kind {} is already defined by blocks[{first}]",
                            quote(&k.name)
                        ),
                    );
                    ok = false;
                } else {
                    seen.insert(k.name.clone(), i);
                }
                out.push(k);
            }
            None => ok = false,
        }
    }
    ok.then_some(out)
}

pub(super) fn parse_block(v: &Value, path: &JsonPath, cx: &mut Ctx) -> Option<BlockKind> {
    let o = cx.object(v, path, "a block kind")?;
    let name = match o.get("name") {
        None => {
            cx.err(path.clone(), "a block kind needs a \"name\"");
            None
        }
        Some(v) => match cx.string(v, &path.key("name"), "\"name\"") {
            Some("") => {
                cx.err(path.key("name"), "a block kind's name must not be empty");
                None
            }
            s => s.map(str::to_string),
        },
    };
    let color = match o.get("color") {
        None => Some([128, 128, 128]),
        Some(v) => {
            let cp = path.key("color");
            match v {
                Value::Array(a) if a.len() == 3 => {
                    let mut c = [0u8; 3];
                    let mut ok = true;
                    for (k, e) in a.iter().enumerate() {
                        match cx.num(e, &cp.index(k), "a colour component", 0, 255) {
                            Some(n) => c[k] = n as u8,
                            None => ok = false,
                        }
                    }
                    ok.then_some(c)
                }
                other => {
                    cx.err(
                        cp,
                        format!(
                            "\"color\" must be [r, g, b] with each 0–255, found {}",
                            match other {
                                Value::Array(a) => format!("{} entries", a.len()),
                                o => type_name(o).to_string(),
                            }
                        ),
                    );
                    None
                }
            }
        }
    };
    let form = match o.get("form") {
        None => Some("square".to_string()),
        Some(v) => match cx.string(v, &path.key("form"), "\"form\"") {
            Some(s) => {
                if !FORMS.contains(&s) {
                    cx.warn(
                        path.key("form"),
                        format!(
                            "unknown form {} is drawn as a square (known: {})",
                            quote(s),
                            FORMS.join(", ")
                        ),
                    );
                }
                Some(s.to_string())
            }
            None => None,
        },
    };
    let role = match o.get("role") {
        None => Some(Role::Normal),
        Some(v) => match cx.string(v, &path.key("role"), "\"role\"") {
            Some(s) => match Role::ALL.iter().find(|r| r.word() == s) {
                Some(r) => Some(*r),
                None => {
                    cx.err(
                        path.key("role"),
                        format!("unknown role {} (known: normal, garbage, iron)", quote(s)),
                    );
                    None
                }
            },
            None => None,
        },
    };
    let extra = o
        .iter()
        .filter(|(k, _)| !BLOCK_KEYS.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    Some(BlockKind {
        name: name?,
        color: color?,
        form: form?,
        role: role?,
        extra,
    })
}

pub(super) fn parse_tumos(v: Option<&Value>, tcx: &TumoCx<'_>, cx: &mut Ctx) -> Option<Vec<Tumo>> {
    let path = JsonPath::root().key("tumos");
    let Some(v) = v else {
        return Some(Vec::new());
    };
    let a = cx.array(v, &path, "\"tumos\"", MAX_TUMOS)?;
    let mut out = Vec::with_capacity(a.len());
    let mut ok = true;
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for (i, t) in a.iter().enumerate() {
        let tp = path.index(i);
        match parse_tumo(t, i, &tp, tcx, cx) {
            Some(t) => {
                if let Some(first) = seen.get(&t.name) {
                    cx.err(
                        tp.key("name"),
                        format!(
                            "tumo {} is already defined by tumos[{first}]",
                            quote(&t.name)
                        ),
                    );
                    ok = false;
                } else {
                    seen.insert(t.name.clone(), i);
                }
                out.push(t);
            }
            None => ok = false,
        }
    }
    ok.then_some(out)
}

/// One rotation state: a square grid of `side` (the first state's side, or `None` for the
/// first state itself).
pub(super) fn parse_state_grid(
    v: &Value,
    path: &JsonPath,
    side: Option<usize>,
    index: usize,
    cx: &mut Ctx,
) -> Option<ShapeGrid> {
    let rows = cx.array(v, path, &format!("state {index}"), MAX_GRID)?;
    let n = rows.len();
    if n == 0 {
        cx.err(path.clone(), format!("state {index} has no rows"));
        return None;
    }
    if let Some(s) = side
        && s != n
    {
        cx.err(
            path.clone(),
            format!("state {index} is {n} × {n} but state 0 is {s} × {s}; every state must have the same side"),
        );
        return None;
    }
    let mut grid = ShapeGrid::new(n);
    let mut ok = true;
    for (y, row) in rows.iter().enumerate() {
        let rp = path.index(y);
        let Some(r) = cx.array(row, &rp, &format!("row {y} of state {index}"), MAX_GRID) else {
            ok = false;
            continue;
        };
        if r.len() != n {
            cx.err(
                rp,
                format!(
                    "row {y} of state {index} has {} cells but the state has {n} rows; a state must be a square grid",
                    r.len()
                ),
            );
            ok = false;
            continue;
        }
        for (x, c) in r.iter().enumerate() {
            match int(c) {
                Some(k) if k == -1 || (0..=MAX_LABEL as i64).contains(&k) => {
                    grid.cells[y * n + x] = k as i8;
                }
                _ => {
                    let found = match c {
                        Value::Number(num) => format!("{num}"),
                        other => type_name(other).to_string(),
                    };
                    cx.err(
                        rp.index(x),
                        format!("a state cell must be 0 (empty), -1 (a block of the tumo's kind) or a label 1–{MAX_LABEL}, found {found}"),
                    );
                    ok = false;
                }
            }
        }
    }
    ok.then_some(grid)
}

pub(super) fn parse_tumo(
    v: &Value,
    index: usize,
    path: &JsonPath,
    tcx: &TumoCx<'_>,
    cx: &mut Ctx,
) -> Option<Tumo> {
    let o = cx.object(v, path, "a tumo")?;
    let name = match o.get("name") {
        None => {
            cx.err(path.clone(), "a tumo needs a \"name\"");
            None
        }
        Some(v) => match cx.string(v, &path.key("name"), "\"name\"") {
            Some("") => {
                cx.err(path.key("name"), "a tumo's name must not be empty");
                None
            }
            s => s.map(str::to_string),
        },
    };
    let states = parse_states(o, path, cx);
    let side = states.as_ref().and_then(|s| s.first()).map(|s| s.side);
    let has_own = states
        .as_ref()
        .is_some_and(|s| s.iter().any(|g| g.cells.contains(&-1)));
    let label_count = states
        .as_ref()
        .and_then(|s| s.first())
        .map_or(0, |g| g.cells.iter().filter(|&&v| v > 0).count());
    // The kind of the -1 cells (spec A1: default tumo index + 1).
    let block = match o.get("block") {
        Some(v) => cx.block_ref(v, &path.key("block"), "\"block\"", tcx.blocks),
        None => {
            let default = BlockId::try_from(index + 1)
                .ok()
                .filter(|&b| (b as usize) <= tcx.blocks.len());
            match default {
                Some(b) => Some(b),
                None if has_own => {
                    cx.err(
                        path.clone(),
                        format!(
                            "\"block\" is missing: the tumo has -1 cells and there is no block kind {} to default to (spec A1: tumo i has kind i + 1)",
                            index + 1
                        ),
                    );
                    None
                }
                None => Some(1),
            }
        }
    };
    let labels = match o.get("labels") {
        Some(v) => cx.block_list(v, &path.key("labels"), "\"labels\"", tcx.blocks, 256),
        None => Some(tcx.normal.clone()),
    };
    if let Some(l) = &labels
        && l.is_empty()
        && label_count > 0
    {
        cx.err(
            if o.contains_key("labels") {
                path.key("labels")
            } else {
                path.clone()
            },
            "the tumo has labelled blocks but no block kind to draw them from (\"labels\" is empty, or no kind has the role \"normal\")",
        );
    }
    let pivot = match (o.get("pivot"), side) {
        (None, Some(s)) => Some([(s as f64 - 1.0) / 2.0; 2]),
        (None, None) => None,
        (Some(v), side) => parse_pivot(v, &path.key("pivot"), side, cx),
    };
    let states_len = states.as_ref().map(Vec::len);
    let kicks = match o.get("kicks") {
        None => Some(Kicks::None),
        Some(v) => parse_kicks(v, &path.key("kicks"), states_len, cx),
    };
    let spawn = match o.get("spawn") {
        None | Some(Value::Null) => Some(None),
        Some(v) => parse_xy(v, &path.key("spawn"), "\"spawn\"", cx).map(Some),
    };
    let extra = o
        .iter()
        .filter(|(k, _)| !TUMO_KEYS.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    Some(Tumo {
        name: name?,
        states: states?,
        block: block?,
        labels: labels?,
        pivot: pivot?,
        kicks: kicks?,
        spawn: spawn?,
        extra,
    })
}

/// `states`: 1 to [`MAX_STATES`] square grids of one side whose labels match.
fn parse_states(o: &Map<String, Value>, path: &JsonPath, cx: &mut Ctx) -> Option<Vec<ShapeGrid>> {
    let sp = path.key("states");
    match o.get("states") {
        None => {
            cx.err(
                path.clone(),
                "a tumo needs \"states\": its rotation states, each a square grid",
            );
            None
        }
        Some(v) => match cx.array(v, &sp, "\"states\"", MAX_STATES) {
            Some(a) if a.is_empty() => {
                cx.err(sp.clone(), "a tumo needs 1 to 8 rotation states, found 0");
                None
            }
            Some(a) => {
                let mut states = Vec::with_capacity(a.len());
                let mut side = None;
                let mut ok = true;
                for (s, sv) in a.iter().enumerate() {
                    match parse_state_grid(sv, &sp.index(s), side, s, cx) {
                        Some(g) => {
                            side = side.or(Some(g.side));
                            states.push(g);
                        }
                        None => {
                            ok = false;
                            if side.is_none() {
                                // Without state 0's side the others cannot be compared.
                                break;
                            }
                        }
                    }
                }
                if ok && check_labels(&states, &sp, cx) {
                    Some(states)
                } else {
                    None
                }
            }
            None => None,
        },
    }
}

/// `pivot`: `[x, y]` in grid coordinates, halves allowed, inside the grid of `side` or on its
/// edge.
fn parse_pivot(v: &Value, pp: &JsonPath, side: Option<usize>, cx: &mut Ctx) -> Option<[f64; 2]> {
    match v {
        Value::Array(a) if a.len() == 2 => {
            let mut p = [0.0; 2];
            let mut ok = true;
            for (k, e) in a.iter().enumerate() {
                let hi = side.map_or(MAX_GRID as f64, |s| s as f64 - 0.5);
                match e.as_f64() {
                    Some(f) if (f * 2.0).fract() == 0.0 && (-0.5..=hi).contains(&f) => {
                        p[k] = f;
                    }
                    Some(f) if (f * 2.0).fract() == 0.0 => {
                        cx.err(
                            pp.index(k),
                            format!("a pivot coordinate must be from -0.5 to {hi} (inside the grid or on its edge), found {f}"),
                        );
                        ok = false;
                    }
                    _ => {
                        cx.err(
                            pp.index(k),
                            format!(
                                "a pivot coordinate must be a whole number or a half (e.g. 1 or 1.5), found {}",
                                match e {
                                    Value::Number(n) => format!("{n}"),
                                    o => type_name(o).to_string(),
                                }
                            ),
                        );
                        ok = false;
                    }
                }
            }
            ok.then_some(p)
        }
        _ => {
            cx.err(
                pp.clone(),
                "\"pivot\" must be [x, y] in grid coordinates, halves allowed",
            );
            None
        }
    }
}

/// Labels keep their identity across states (spec A1): each state has the same labels, each
/// once, numbered 1 to n; every state has a block. Returns false after reporting a problem.
pub(super) fn check_labels(states: &[ShapeGrid], path: &JsonPath, cx: &mut Ctx) -> bool {
    let mut ok = true;
    let mut sets = Vec::with_capacity(states.len());
    for (s, g) in states.iter().enumerate() {
        let mut set = BTreeSet::new();
        for &v in &g.cells {
            if v > 0 && !set.insert(v) {
                cx.err(
                    path.index(s),
                    format!("label {v} appears more than once in state {s}; a label is one block"),
                );
                ok = false;
            }
        }
        if g.cells.iter().all(|&v| v == 0) {
            cx.err(path.index(s), format!("state {s} has no block"));
            ok = false;
        }
        sets.push(set);
    }
    if !ok {
        return false;
    }
    let first = &sets[0];
    if let Some(missing) = (1..=first.len() as i8).find(|l| !first.contains(l)) {
        let max = first.iter().max().copied().unwrap_or(0);
        cx.err(
            path.index(0),
            format!("labels must be numbered 1 to n without gaps: label {max} is used but label {missing} is not"),
        );
        return false;
    }
    let show = |s: &BTreeSet<i8>| {
        let v: Vec<String> = s.iter().map(i8::to_string).collect();
        if v.is_empty() {
            "none".to_string()
        } else {
            v.join(", ")
        }
    };
    let own0 = states[0].cells.iter().filter(|&&v| v == -1).count();
    for (s, set) in sets.iter().enumerate().skip(1) {
        if set != first {
            cx.err(
                path.index(s),
                format!(
                    "state {s} has labels {} but state 0 has {}; a labelled block keeps its label in every state (spec A1)",
                    show(set),
                    show(first)
                ),
            );
            ok = false;
        }
        let own = states[s].cells.iter().filter(|&&v| v == -1).count();
        if own != own0 {
            cx.warn(
                path.index(s),
                format!("state {s} has {own} cells of -1 but state 0 has {own0}: the tumo changes its number of blocks when it turns"),
            );
        }
    }
    ok
}

pub(super) fn parse_xy(v: &Value, path: &JsonPath, what: &str, cx: &mut Ctx) -> Option<[i32; 2]> {
    match v {
        Value::Array(a) if a.len() == 2 => {
            let x = cx.num(&a[0], &path.index(0), "x", -MAX_OFFSET, MAX_OFFSET);
            let y = cx.num(&a[1], &path.index(1), "y", -MAX_OFFSET, MAX_OFFSET);
            Some([x? as i32, y? as i32])
        }
        _ => {
            cx.err(
                path.clone(),
                format!("{what} must be [x, y], two whole numbers"),
            );
            None
        }
    }
}

pub(super) fn parse_kicks(
    v: &Value,
    path: &JsonPath,
    states: Option<usize>,
    cx: &mut Ctx,
) -> Option<Kicks> {
    match v {
        Value::String(s) if s == "none" => Some(Kicks::None),
        Value::String(s) => {
            cx.err(
                path.clone(),
                format!(
                    "\"kicks\" must be \"none\" or an object from \"i>j\" to offset lists, found {}",
                    quote(s)
                ),
            );
            None
        }
        Value::Object(o) if o.len() > MAX_KICK_PAIRS => {
            cx.err(
                path.clone(),
                format!(
                    "\"kicks\" has {} entries (at most {MAX_KICK_PAIRS})",
                    o.len()
                ),
            );
            None
        }
        Value::Object(o) => {
            let mut table = BTreeMap::new();
            let mut ok = true;
            let n = states.unwrap_or(MAX_STATES);
            for (k, list) in o {
                let kp = path.key(k);
                let pair = k.split_once('>').and_then(|(i, j)| {
                    let digits = |s: &str| {
                        !s.is_empty() && s.len() <= 2 && s.bytes().all(|b| b.is_ascii_digit())
                    };
                    (digits(i) && digits(j))
                        .then(|| Some((i.parse::<usize>().ok()?, j.parse::<usize>().ok()?)))
                        .flatten()
                });
                let Some((i, j)) = pair else {
                    cx.err(
                        kp,
                        format!("a kick key must be \"i>j\" (state i to state j, e.g. \"0>1\"), found {}", quote(k)),
                    );
                    ok = false;
                    continue;
                };
                if i >= n || j >= n {
                    cx.err(
                        kp,
                        format!(
                            "kick key {} names a state the tumo does not have (states 0 to {})",
                            quote(k),
                            n.saturating_sub(1)
                        ),
                    );
                    ok = false;
                    continue;
                }
                if i == j {
                    cx.err(
                        kp,
                        format!("kick key {} turns a state into itself", quote(k)),
                    );
                    ok = false;
                    continue;
                }
                let Some(a) = cx.array(
                    list,
                    &kp,
                    &format!("kick list {}", quote(k)),
                    MAX_KICK_TESTS,
                ) else {
                    ok = false;
                    continue;
                };
                let mut tests = Vec::with_capacity(a.len());
                for (t, e) in a.iter().enumerate() {
                    match parse_xy(e, &kp.index(t), "a kick offset", cx) {
                        Some([dx, dy]) => tests.push((dx, dy)),
                        None => ok = false,
                    }
                }
                table.insert((i, j), tests);
            }
            ok.then_some(Kicks::Table(table))
        }
        other => {
            cx.err(
                path.clone(),
                format!(
                    "\"kicks\" must be \"none\" or an object from \"i>j\" to offset lists, found {}",
                    type_name(other)
                ),
            );
            None
        }
    }
}

/// The spawn position must put every block of state 0 inside the field.
pub(super) fn check_spawn(t: &Tumo, index: usize, width: usize, height: usize, cx: &mut Ctx) {
    let path = JsonPath::root().key("tumos").index(index);
    let (x, y) = match t.spawn {
        Some([x, y]) => (x, y),
        None => default_spawn(t, width),
    };
    let Some(s0) = t.states.first() else { return };
    let outside = s0.blocks().any(|(bx, by, _)| {
        let (fx, fy) = (x as i64 + bx as i64, y as i64 + by as i64);
        fx < 0 || fy < 0 || fx >= width as i64 || fy >= height as i64
    });
    if outside {
        if t.spawn.is_some() {
            cx.err(
                path.key("spawn"),
                format!(
                    "at spawn [{x}, {y}] some blocks of tumo {} are outside the {width} × {height} field",
                    quote(&t.name)
                ),
            );
        } else {
            cx.err(
                path,
                format!(
                    "tumo {} does not fit in the {width} × {height} field when centred in the top row",
                    quote(&t.name)
                ),
            );
        }
    }
}

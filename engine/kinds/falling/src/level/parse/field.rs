//! Reading the legend, the starting field (strict and repair mode) and the active tumo.

use std::collections::BTreeMap;
use tilesmith_core::problem::Capped as _;

use serde_json::Value;

use crate::field::{BlockId, EMPTY, Field};
use tilesmith_core::problem::{JsonPath, Problem, quote};

use super::*;

pub(super) fn parse_legend(
    v: Option<&Value>,
    blocks: &[String],
    cx: &mut Ctx,
) -> Option<Vec<(char, BlockId)>> {
    let path = JsonPath::root().key("legend");
    let Some(v) = v else {
        return Some(Vec::new());
    };
    let o = cx.object_at_most(v, &path, "\"legend\"", MAX_LEGEND)?;
    let mut out = Vec::with_capacity(o.len());
    let mut ok = true;
    for (k, v) in o {
        let kp = path.key(k);
        let mut chars = k.chars();
        let c = match (chars.next(), chars.next()) {
            (Some('.'), None) => {
                cx.err(
                    kp,
                    "\".\" is the empty cell and cannot stand for a block kind",
                );
                ok = false;
                continue;
            }
            (Some(c), None) => c,
            _ => {
                cx.err(
                    kp,
                    format!("a legend key must be one character, found {}", quote(k)),
                );
                ok = false;
                continue;
            }
        };
        match cx.block_ref(v, &kp, "a legend value", blocks) {
            Some(b) => out.push((c, b)),
            None => ok = false,
        }
    }
    ok.then_some(out)
}

pub(super) fn parse_field(
    v: Option<&Value>,
    width: usize,
    height: usize,
    legend: &[(char, BlockId)],
    cx: &mut Ctx,
) -> Option<Field> {
    let path = JsonPath::root().key("field");
    let mut field = Field::new(width, height);
    let Some(v) = v else { return Some(field) };
    let rows = cx.array(v, &path, "\"field\"", MAX_SIDE)?;
    if rows.len() != height {
        cx.err(
            path,
            format!(
                "\"field\" has {} rows but \"height\" is {height}",
                rows.len()
            ),
        );
        return None;
    }
    let map: BTreeMap<char, BlockId> = legend.iter().copied().collect();
    if cx.editable {
        return editable_field(rows, width, &map, cx);
    }
    let mut ok = true;
    for (y, row) in rows.iter().enumerate() {
        let rp = path.index(y);
        let Some(s) = cx.string(row, &rp, &format!("row {y} of \"field\"")) else {
            ok = false;
            continue;
        };
        let n = s.chars().count();
        if n != width {
            // Located at the row's first missing cell (short row) or first extra one.
            cx.p.push(
                Problem::error(
                    rp,
                    format!("row {y} of \"field\" has {n} cells but \"width\" is {width}"),
                )
                .at_cell(tilesmith_core::grid::Pos::new(
                    n.min(width.saturating_sub(1)),
                    y,
                )),
            );
            ok = false;
            continue;
        }
        for (x, c) in s.chars().enumerate() {
            if c == '.' {
                continue;
            }
            match map.get(&c) {
                Some(&b) => field.cells[y * width + x] = b,
                None => {
                    ok = false;
                    // Every one counted, the first ones listed (`push_capped`).
                    cx.p.push_capped(
                        Problem::error(
                            rp.clone(),
                            format!(
                                "row {y}, column {x}: {} is not in \"legend\" (known: {})",
                                quote(&c.to_string()),
                                if map.is_empty() {
                                    "only \".\" for empty; add a \"legend\"".to_string()
                                } else {
                                    name_list(
                                        &map.keys().map(|c| c.to_string()).collect::<Vec<_>>(),
                                    )
                                }
                            ),
                        )
                        .at_cell(tilesmith_core::grid::Pos::new(x, y)),
                    );
                }
            }
        }
    }
    ok.then_some(field)
}

/// The field in repair mode ([`FallingLevel::from_json_editable`]): as wide as the widest of
/// `width` and the rows, short rows padded with [`MISSING_CELL`], characters that are not
/// legend keys kept as unknown cells. `None` (with an error) for a row that is not a string,
/// a field over [`MAX_CELLS`] or too many distinct unknown characters.
pub(super) fn editable_field(
    rows: &[Value],
    width: usize,
    map: &BTreeMap<char, BlockId>,
    cx: &mut Ctx,
) -> Option<Field> {
    let path = JsonPath::root().key("field");
    let mut strs = Vec::with_capacity(rows.len());
    for (y, row) in rows.iter().enumerate() {
        strs.push(cx.string(row, &path.index(y), &format!("row {y} of \"field\""))?);
    }
    let longest = strs.iter().map(|s| s.chars().count()).max().unwrap_or(0);
    let w = width.max(longest);
    if w > MAX_SIDE || w * strs.len() > MAX_CELLS {
        cx.err(
            path,
            format!("a \"field\" row has {longest} cells; at most {MAX_SIDE} and {MAX_CELLS} cells in all"),
        );
        return None;
    }
    let most = (MISSING_CELL - UNKNOWN_FIRST) as usize;
    let mut field = Field::new(w, strs.len());
    field.cells.fill(MISSING_CELL);
    for (y, s) in strs.iter().enumerate() {
        for (x, c) in s.chars().enumerate() {
            let id = match (c, map.get(&c)) {
                ('.', _) => EMPTY,
                (_, Some(&b)) => b,
                _ => match cx.unknown.iter().position(|&u| u == c) {
                    Some(i) => UNKNOWN_FIRST + i as BlockId,
                    None if cx.unknown.len() < most => {
                        cx.unknown.push(c);
                        UNKNOWN_FIRST + (cx.unknown.len() - 1) as BlockId
                    }
                    None => {
                        cx.err(
                            path.index(y),
                            format!("more than {most} different characters of \"field\" are not in \"legend\""),
                        );
                        return None;
                    }
                },
            };
            field.cells[y * w + x] = id;
        }
    }
    Some(field)
}

/// The field cells the blocks of `state` of `t` cover with the grid's top-left cell at
/// `(x, y)`, with their grid values.
pub(super) fn covered(t: &Tumo, state: usize, x: i32, y: i32) -> Vec<(i64, i64, i8)> {
    t.states
        .get(state)
        .map(|g| {
            g.blocks()
                .map(|(bx, by, v)| (x as i64 + bx as i64, y as i64 + by as i64, v))
                .collect()
        })
        .unwrap_or_default()
}

pub(super) fn parse_active(
    v: &Value,
    tumos: &[Tumo],
    tumo_names: &[String],
    blocks: &[String],
    field: &Field,
    cx: &mut Ctx,
) -> Option<ActiveTumo> {
    let path = JsonPath::root().key("active");
    let o = cx.small_object(v, &path, "\"active\"")?;
    cx.unknown_members(o, &path, &["tumo", "state", "x", "y", "labels"]);
    let Some(tv) = o.get("tumo") else {
        cx.err(
            path,
            "\"active\" needs \"tumo\": the name of the tumo in play",
        );
        return None;
    };
    let tumo = cx.tumo_ref(tv, &path.key("tumo"), "\"tumo\"", tumo_names)?;
    let t = &tumos[tumo];
    let state = cx
        .opt_num(o, "state", &path, 0, t.states.len() as i64 - 1)?
        .unwrap_or(0) as usize;
    let (sx, sy) = match t.spawn {
        Some([x, y]) => (x, y),
        None => default_spawn(t, field.width),
    };
    let x = cx.opt_num(o, "x", &path, -MAX_OFFSET, MAX_OFFSET);
    let y = cx.opt_num(o, "y", &path, -MAX_OFFSET, MAX_OFFSET);
    let (x, y) = (x?.map_or(sx, |n| n as i32), y?.map_or(sy, |n| n as i32));
    let n = t.label_count();
    let labels = match o.get("labels") {
        None if n == 0 => Vec::new(),
        None => {
            cx.err(
                path,
                format!("\"active\" needs \"labels\": the block kinds of the tumo's {n} labelled blocks, label 1 first"),
            );
            return None;
        }
        Some(v) => {
            let l = cx.block_list(v, &path.key("labels"), "\"labels\"", blocks, MAX_LABEL)?;
            if l.len() != n {
                cx.err(
                    path.key("labels"),
                    format!(
                        "tumo {} has {n} labelled blocks but \"labels\" names {}",
                        quote(&t.name),
                        l.len()
                    ),
                );
                return None;
            }
            l
        }
    };
    let buffer = BUFFER_ROWS as i64;
    for (fx, fy, _) in covered(t, state, x, y) {
        if fx < 0 || fy < -buffer || fx >= field.width as i64 || fy >= field.height as i64 {
            cx.err(
                path,
                format!("the active tumo at [{x}, {y}] in state {state} has a block outside the field and its buffer zone, at [{fx}, {fy}]"),
            );
            return None;
        }
        if field.get(fx, fy) != EMPTY {
            cx.err(
                path,
                format!("the active tumo at [{x}, {y}] in state {state} overlaps the field block at [{fx}, {fy}]"),
            );
            return None;
        }
    }
    Some(ActiveTumo {
        tumo,
        state,
        x,
        y,
        labels,
    })
}

//! Checks shared by every kind's level loader: JSON types, whole numbers, the `name`, `width`
//! and `height` members, and the row-major `map` grid. Each pushes [`Problem`]s with JSON paths
//! instead of failing, so a loader reports every problem of a file at once.

use crate::problem::Capped as _;
use serde_json::{Map, Value};

use crate::grid::{Grid, Pos};
use crate::problem::{JsonPath, Problem};

/// The largest `width` or `height` accepted by the boulder kind.
pub const MAX_SIDE: usize = 10_000;
/// The largest number of cells (`width * height`) accepted by the boulder kind: 2048 × 2048.
/// A map this large takes about 0.7 GB to check and 1.1 GB to play (issue #15 D6, measured
/// with `tilesmith check` and `run --ticks 1`); the limit was 16 777 216 fields, which needed
/// over 4 GB.
pub const MAX_CELLS: usize = 4 * 1024 * 1024;

/// The document a check parses: `doc` itself, or a copy without the top-level members the
/// kind does not read (`known`), whichever copies less. A loader keeps unknown members by
/// copying them (to write them back); a check drops the level at once, so when the unknown
/// members hold more JSON values than the known ones, the known ones are copied instead and
/// the check never copies more than half of the document (issue #30: a 30 MB level checked
/// within 1 GB, whatever member is huge). Borrowed when nothing is unknown.
pub fn known_members<'a>(doc: &'a Value, known: &[&str]) -> std::borrow::Cow<'a, Value> {
    let Value::Object(o) = doc else {
        return std::borrow::Cow::Borrowed(doc);
    };
    let (mut inside, mut outside) = (0usize, 0usize);
    for (k, v) in o {
        if known.contains(&k.as_str()) {
            inside += values_in(v);
        } else {
            outside += values_in(v);
        }
    }
    if outside == 0 || outside <= inside {
        return std::borrow::Cow::Borrowed(doc);
    }
    std::borrow::Cow::Owned(Value::Object(
        o.iter()
            .filter(|(k, _)| known.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
    ))
}

/// How many JSON values `v` holds, itself included (iterative: no recursion on deep input).
fn values_in(v: &Value) -> usize {
    let mut n = 0;
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        n += 1;
        match v {
            Value::Array(a) => stack.extend(a),
            Value::Object(o) => stack.extend(o.values()),
            _ => {}
        }
    }
    n
}

/// Size limits of a kind's maps: `(largest side, largest number of cells)`.
pub type Limits = (usize, usize);

/// "a string", "an array", … for messages.
pub fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A value as a message shows it: a string quoted (once, [`crate::problem::quote`]), a
/// number, `true`, `false` or `null` as written, an array or object by its type.
pub fn shown(v: &Value) -> String {
    match v {
        Value::String(s) => crate::problem::quote(s),
        Value::Array(_) | Value::Object(_) => type_name(v).to_string(),
        other => other.to_string(),
    }
}

/// A JSON number that is a whole number (`3` or `3.0`), as `i64`.
pub fn int(v: &Value) -> Option<i64> {
    v.as_i64().or_else(|| {
        v.as_f64()
            .filter(|f| f.fract() == 0.0 && f.abs() < 9e15)
            .map(|f| f as i64)
    })
}

/// A non-negative whole number up to `max`, or a problem at `path` naming `what`.
pub fn natural(
    v: &Value,
    path: &JsonPath,
    what: &str,
    max: i64,
    p: &mut Vec<Problem>,
) -> Option<u64> {
    match int(v) {
        Some(n) if n < 0 => {
            p.push_capped(Problem::error(
                path.clone(),
                format!("{what} must not be negative, found {n}"),
            ));
            None
        }
        Some(n) if n > max => {
            p.push_capped(Problem::error(
                path.clone(),
                format!("{what} is too large ({n}; at most {max})"),
            ));
            None
        }
        Some(n) => Some(n as u64),
        None => {
            p.push_capped(Problem::error(
                path.clone(),
                format!("{what} must be a whole number, found {}", type_name(v)),
            ));
            None
        }
    }
}

/// The optional top-level `name` (a string; empty when missing).
pub fn name(o: &Map<String, Value>, p: &mut Vec<Problem>) -> String {
    match o.get("name") {
        Some(Value::String(s)) => s.clone(),
        Some(v) => {
            p.push_capped(Problem::error(
                JsonPath::root().key("name"),
                format!("\"name\" must be a string, found {}", type_name(v)),
            ));
            String::new()
        }
        None => String::new(),
    }
}

/// The required top-level `width` or `height` (`key`): a whole number 1…`limits.0`.
pub fn side(
    o: &Map<String, Value>,
    key: &str,
    limits: Limits,
    p: &mut Vec<Problem>,
) -> Option<usize> {
    let path = JsonPath::root().key(key);
    match o.get(key) {
        None => {
            p.push_capped(Problem::error(path, format!("\"{key}\" is missing")));
            None
        }
        Some(v) => match natural(v, &path, &format!("\"{key}\""), limits.0 as i64, p) {
            Some(0) => {
                p.push_capped(Problem::error(
                    path,
                    format!("\"{key}\" must be at least 1"),
                ));
                None
            }
            n => n.map(|n| n as usize),
        },
    }
}

/// The top-level `map`: an array of equally long rows, top row first, checked against the
/// declared `width` and `height`. `cell` parses one entry (given its path and position) and
/// returns `None` after pushing its problems; `unit` names an entry in messages ("fields",
/// "cells"). A map over `limits` is refused before any entry is read. Returns the grid only
/// when no error was found.
pub fn grid<T>(
    v: Option<&Value>,
    (width, height): (Option<usize>, Option<usize>),
    unit: &str,
    (max_side, max_cells): Limits,
    p: &mut Vec<Problem>,
    mut cell: impl FnMut(&Value, &JsonPath, Pos, &mut Vec<Problem>) -> Option<T>,
) -> Option<Grid<T>> {
    let path = JsonPath::root().key("map");
    let Some(v) = v else {
        p.push_capped(Problem::error(path, "\"map\" is missing"));
        return None;
    };
    let Value::Array(rows) = v else {
        p.push_capped(Problem::error(
            path,
            format!("\"map\" must be an array of rows, found {}", type_name(v)),
        ));
        return None;
    };
    if rows.is_empty() {
        p.push_capped(Problem::error(path, "\"map\" has no rows"));
        return None;
    }
    let w0 = match &rows[0] {
        Value::Array(r) => r.len(),
        _ => 0,
    };
    if rows.len() > max_side || w0 > max_side || rows.len().saturating_mul(w0) > max_cells {
        p.push_capped(Problem::error(
            path,
            format!("the map is too large (at most {max_side} per side and {max_cells} {unit})"),
        ));
        return None;
    }
    // Whether an error was found here: counted, not read back from `p`, whose last entry
    // may be the count of a capped report (`push_capped`).
    let mut failed = false;
    let mut cells = Vec::with_capacity(rows.len() * w0);
    for (y, row) in rows.iter().enumerate() {
        let rp = path.index(y);
        let Value::Array(r) = row else {
            p.push_capped(Problem::error(
                rp,
                format!(
                    "row {y} must be an array of {unit}, found {}",
                    type_name(row)
                ),
            ));
            failed = true;
            continue;
        };
        if r.len() != w0 {
            // Located at the row's first missing entry (short row) or first extra one (long
            // row), the cell an editor that pads rows shows there.
            p.push_capped(
                Problem::error(
                    rp,
                    format!("row {y} has {} {unit} but row 0 has {w0}", r.len()),
                )
                .at_cell(Pos::new(r.len().min(w0), y)),
            );
            failed = true;
            continue;
        }
        for (x, c) in r.iter().enumerate() {
            match cell(c, &rp.index(x), Pos::new(x, y), p) {
                Some(t) => cells.push(t),
                None => failed = true,
            }
        }
    }
    if let Some(h) = height
        && h != rows.len()
    {
        p.push_capped(Problem::error(
            JsonPath::root().key("height"),
            format!("\"height\" is {h} but the map has {} rows", rows.len()),
        ));
        failed = true;
    }
    if let Some(w) = width
        && w != w0
    {
        p.push_capped(Problem::error(
            JsonPath::root().key("width"),
            format!("\"width\" is {w} but the map rows have {w0} {unit}"),
        ));
        failed = true;
    }
    if w0 == 0 {
        p.push_capped(Problem::error(path.index(0), "map rows must not be empty"));
        failed = true;
    }
    if failed {
        return None;
    }
    Grid::from_vec(w0, rows.len(), cells)
}

/// The top-level `map` read in repair mode (docs/editor.md, "Repair mode"): an array of rows,
/// each an array, top row first, at most `limits`. A field `cell` cannot read (it returns
/// `None` or pushes an error) becomes `kept(Some(field))`, and rows shorter than the longest
/// are padded with `kept(None)`; the problems of such fields are dropped here (the strict
/// check reports them), warnings are kept. `width` and `height` are not compared. `None`
/// (with an error) when the map is missing, not an array of arrays, empty or too large.
pub fn grid_repair<T>(
    v: Option<&Value>,
    (max_side, max_cells): Limits,
    p: &mut Vec<Problem>,
    mut cell: impl FnMut(&Value, &JsonPath, Pos, &mut Vec<Problem>) -> Option<T>,
    mut kept: impl FnMut(Option<&Value>) -> T,
) -> Option<Grid<T>> {
    let path = JsonPath::root().key("map");
    let Some(v) = v else {
        p.push_capped(Problem::error(path, "\"map\" is missing"));
        return None;
    };
    let Value::Array(rows) = v else {
        p.push_capped(Problem::error(
            path,
            format!("\"map\" must be an array of rows, found {}", type_name(v)),
        ));
        return None;
    };
    let mut width = 0;
    for (y, row) in rows.iter().enumerate() {
        match row {
            Value::Array(r) => width = width.max(r.len()),
            other => {
                p.push_capped(Problem::error(
                    path.index(y),
                    format!("row {y} must be an array, found {}", type_name(other)),
                ));
                return None;
            }
        }
    }
    if rows.is_empty() || width == 0 {
        p.push_capped(Problem::error(path, "\"map\" has no fields"));
        return None;
    }
    if rows.len() > max_side || width > max_side || rows.len().saturating_mul(width) > max_cells {
        p.push_capped(Problem::error(
            path,
            format!("the map is too large (at most {max_side} per side and {max_cells} fields)"),
        ));
        return None;
    }
    let mut cells = Vec::with_capacity(rows.len() * width);
    let mut scratch = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        let Value::Array(r) = row else { continue };
        for (x, c) in r.iter().enumerate() {
            scratch.clear();
            let read = cell(c, &path.index(y).index(x), Pos::new(x, y), &mut scratch);
            match read {
                Some(t) if !scratch.iter().any(Problem::is_error) => {
                    p.append(&mut scratch);
                    cells.push(t);
                }
                _ => cells.push(kept(Some(c))),
            }
        }
        cells.extend((r.len()..width).map(|_| kept(None)));
    }
    Grid::from_vec(width, rows.len(), cells)
}

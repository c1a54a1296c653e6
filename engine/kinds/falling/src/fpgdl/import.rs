//! Importing a whole FPGDL program (spec §5, §6.1, §7): its top level runs once in the
//! sandbox with setup functions that record what they are told, and the record becomes a
//! level document of kind `falling`, with the whole program as its `script`.
//!
//! Readings (spec §10):
//! * `setTumo(arrays, tumoId, rot)` (A12, A13): `tumoId` is the tumo, from 0; `rot` the
//!   rotation state, from 0. `arrays` holds rows `0 … N−1` (top first); each row is a list
//!   of N cells at Lua indices `1 … N`, as table constructors make them. N is the longest
//!   row; an empty or missing row is all zeros (the listings' preparation loop leaves an
//!   empty `arrays[N]`). Any other row or a row of another length is an error. Cells are
//!   `0`, `-1` or a label `1 … 127` (A1), each label at most once in a state; every state
//!   of a tumo has the same side and the same blocks; tumos and states are numbered without
//!   gaps. A later call for the same tumo and state replaces the earlier one.
//! * The tumo's `block` (its `-1` cells) is kind `tumoId + 1` (A1); for a tumo without `-1`
//!   cells, that kind if it exists, else kind 1.
//! * `pivot`: the cell filled in every state (the axis block; the T piece's centre), the one
//!   nearest the grid centre if several; otherwise the grid centre.
//! * `createBlockPattern(id)`: ids are created in order 1, 2, …; creating an existing id
//!   again does nothing.
//! * `setBlockForm(id, form)` (A14): form 1 is `round`, every other form `square`.
//! * `setBlockFormColor(id, r, g, b)`: each 0–255. A block's name is its colour's name
//!   (hue based: red, orange, yellow, green, cyan, light blue, blue, purple, magenta; white,
//!   grey, black when unsaturated), `blue 2` for a second blue; `block N` when no colour was
//!   set (then it is grey).
//! * `setSuperRotation`, `setQuickTurn`, `setHardDrop`: Lua truth (nil and false are off).
//!   `setSuperRotation(true)` gives no kicks yet (`"kicks": "none"`): the SRS presets are
//!   not in the engine yet. `blockSize` and `setClearMode` are presentation or unspecified
//!   (A14) and are not recorded: the rules are the script's `update()`.
//! * The level: `shadow` true, no built-in clear rules or fall laws, a random sequence of
//!   every tumo, an empty field, and `script` = the whole program.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use mlua::{Lua, Table, Value};
use serde_json::{Value as Json, json};

use super::sandbox::Sandbox;
use super::{NO_UPDATE, ScriptError, check_size, int_arg};
use crate::level::{MAX_BLOCK_KINDS, MAX_CELLS, MAX_GRID, MAX_SIDE, MAX_STATES, MAX_TUMOS};
use crate::shape::ShapeGrid;

/// One recorded block kind.
#[derive(Clone, Debug, Default)]
struct BlockRec {
    color: Option<[u8; 3]>,
    form: i64,
}

/// One recorded rotation state and the line of its `setTumo`.
#[derive(Clone, Debug)]
struct StateRec {
    grid: ShapeGrid,
    line: Option<usize>,
}

/// What the setup functions were told.
#[derive(Debug, Default)]
struct Recorder {
    size: Option<(usize, usize)>,
    quick_turn: bool,
    hard_drop: bool,
    blocks: Vec<BlockRec>,
    tumos: BTreeMap<usize, BTreeMap<usize, StateRec>>,
}

/// Runs a whole FPGDL program's top level (spec §5 "initial setup") in the sandbox with
/// recording setup functions and returns the level document it describes:
///
/// `{"kind":"falling","name":"FPGDL program","width":W,"height":H,"blocks":[{"name","color":
/// [r,g,b],"form","role":"normal"},…],"tumos":[{"name":"tumo 0","states":[[[…]]],"block",
/// "pivot":[x,y],"kicks":"none"},…],"quick_turn","hard_drop","shadow":true,"clear":[],
/// "fall":[],"sequence":{"order":"random","tumos":[every tumo]},"field":[H rows of W "."],
/// "legend":{},"script":source}`. The Get functions read the recorded size and an empty
/// field; the Set functions do nothing. See the module notes for the readings of each
/// setup function.
///
/// # Errors
/// A syntax or run-time error, a budget exceeded, no `update` function, a setup call with a
/// bad argument (a non-square shape, a size over [`MAX_SIDE`] or [`MAX_CELLS`], a block id
/// not created, …), or a program that sets no field size, creates no block kind or defines
/// no tumo. Errors carry the script line when there is one.
pub fn import_program(source: &str) -> Result<Json, ScriptError> {
    check_size(source)?;
    let sandbox = Sandbox::new()?;
    let main = sandbox.compile(source)?;
    let rec = Arc::new(Mutex::new(Recorder::default()));
    sandbox.run(|lua| {
        let env = sandbox.fresh_env()?;
        install(lua, &env, &rec)?;
        main.call::<()>(env.clone())?;
        match env.raw_get::<Value>("update")? {
            Value::Function(_) => Ok(()),
            _ => Err(mlua::Error::runtime(NO_UPDATE)),
        }
    })?;
    let rec = lock(&rec);
    to_level(&rec, source)
}

fn err(message: impl Into<String>) -> mlua::Error {
    mlua::Error::runtime(message.into())
}

/// The script line that called the running host function.
fn caller_line(lua: &Lua) -> Option<usize> {
    lua.inspect_stack(1, |d| d.current_line()).flatten()
}

fn truth(v: &Value) -> bool {
    !matches!(v, Value::Nil | Value::Boolean(false))
}

/// A created block id (1-based) as an index.
fn block_index(rec: &Recorder, v: &Value, fname: &str) -> mlua::Result<usize> {
    let id = int_arg(v, 1, fname)?;
    match usize::try_from(id) {
        Ok(i) if i >= 1 && i <= rec.blocks.len() => Ok(i - 1),
        _ => Err(err(format!(
            "{fname}: block {id} was not created (createBlockPattern({id}) first)"
        ))),
    }
}

/// The recorder, locked (the callbacks that share it must be `Send`: mlua's `send` feature,
/// which lets a falling game's Lua state move to a worker thread with its game).
fn lock(rec: &Mutex<Recorder>) -> MutexGuard<'_, Recorder> {
    rec.lock().unwrap_or_else(PoisonError::into_inner)
}

fn install(lua: &Lua, env: &Table, rec: &Arc<Mutex<Recorder>>) -> mlua::Result<()> {
    let r = Arc::clone(rec);
    env.raw_set(
        "setFieldSize",
        lua.create_function(move |_, (w, h): (Value, Value)| {
            let w = int_arg(&w, 1, "setFieldSize")?;
            let h = int_arg(&h, 2, "setFieldSize")?;
            let side = |v: i64, what: &str| match usize::try_from(v) {
                Ok(s) if (1..=MAX_SIDE).contains(&s) => Ok(s),
                _ => Err(err(format!(
                    "setFieldSize: the {what} must be 1 to {MAX_SIDE} cells (got {v})"
                ))),
            };
            let (w, h) = (side(w, "width")?, side(h, "height")?);
            if w * h > MAX_CELLS {
                return Err(err(format!(
                    "setFieldSize: {w} × {h} is {} cells; at most {MAX_CELLS}",
                    w * h
                )));
            }
            lock(&r).size = Some((w, h));
            Ok(())
        })?,
    )?;
    let r = Arc::clone(rec);
    env.raw_set(
        "getFieldWidth",
        lua.create_function(move |_, ()| Ok(lock(&r).size.map_or(0, |s| s.0)))?,
    )?;
    let r = Arc::clone(rec);
    env.raw_set(
        "getFieldHeight",
        lua.create_function(move |_, ()| Ok(lock(&r).size.map_or(0, |s| s.1)))?,
    )?;
    for (name, on) in [("setQuickTurn", true), ("setHardDrop", false)] {
        let r = Arc::clone(rec);
        env.raw_set(
            name,
            lua.create_function(move |_, v: Value| {
                let mut rec = lock(&r);
                if on {
                    rec.quick_turn = truth(&v);
                } else {
                    rec.hard_drop = truth(&v);
                }
                Ok(())
            })?,
        )?;
    }
    let r = Arc::clone(rec);
    env.raw_set(
        "createBlockPattern",
        lua.create_function(move |_, id: Value| {
            let id = int_arg(&id, 1, "createBlockPattern")?;
            let mut rec = lock(&r);
            let next = rec.blocks.len() + 1;
            match usize::try_from(id) {
                Ok(i) if i >= 1 && i < next => Ok(()),
                Ok(i) if i == next && i <= MAX_BLOCK_KINDS => {
                    rec.blocks.push(BlockRec::default());
                    Ok(())
                }
                Ok(i) if i == next => Err(err(format!(
                    "createBlockPattern({id}): at most {MAX_BLOCK_KINDS} block kinds"
                ))),
                _ => Err(err(format!(
                    "createBlockPattern({id}): block kinds are created in order 1, 2, …; the \
                     next is {next}"
                ))),
            }
        })?,
    )?;
    let r = Arc::clone(rec);
    env.raw_set(
        "setBlockForm",
        lua.create_function(move |_, (id, form): (Value, Value)| {
            let mut rec = lock(&r);
            let i = block_index(&rec, &id, "setBlockForm")?;
            rec.blocks[i].form = int_arg(&form, 2, "setBlockForm")?;
            Ok(())
        })?,
    )?;
    let r = Arc::clone(rec);
    env.raw_set(
        "setBlockFormColor",
        lua.create_function(move |_, (id, cr, cg, cb): (Value, Value, Value, Value)| {
            let mut rec = lock(&r);
            let i = block_index(&rec, &id, "setBlockFormColor")?;
            let mut color = [0u8; 3];
            for (k, v) in [cr, cg, cb].iter().enumerate() {
                let c = int_arg(v, k + 2, "setBlockFormColor")?;
                color[k] = u8::try_from(c).map_err(|_| {
                    err(format!(
                        "setBlockFormColor: colour components are 0 to 255 (got {c})"
                    ))
                })?;
            }
            rec.blocks[i].color = Some(color);
            Ok(())
        })?,
    )?;
    let r = Arc::clone(rec);
    env.raw_set(
        "setTumo",
        lua.create_function(move |lua, (arrays, tumo, rot): (Value, Value, Value)| {
            let Value::Table(arrays) = arrays else {
                return Err(err(format!(
                    "bad argument #1 to 'setTumo' (table expected, got {})",
                    arrays.type_name()
                )));
            };
            let tumo = int_arg(&tumo, 2, "setTumo")?;
            let rot = int_arg(&rot, 3, "setTumo")?;
            let tumo = usize::try_from(tumo)
                .ok()
                .filter(|t| *t < MAX_TUMOS)
                .ok_or_else(|| {
                    err(format!(
                        "setTumo: tumo numbers are 0 to {} (got {tumo})",
                        MAX_TUMOS - 1
                    ))
                })?;
            let rot = usize::try_from(rot)
                .ok()
                .filter(|s| *s < MAX_STATES)
                .ok_or_else(|| {
                    err(format!(
                        "setTumo: rotation shapes are numbered 0 to {} (got {rot})",
                        MAX_STATES - 1
                    ))
                })?;
            let grid = read_grid(&arrays)?;
            let line = caller_line(lua);
            lock(&r)
                .tumos
                .entry(tumo)
                .or_default()
                .insert(rot, StateRec { grid, line });
            Ok(())
        })?,
    )?;
    Ok(())
}

/// A row or column key as an integer.
fn key_int(k: &Value) -> Option<i64> {
    match k {
        Value::Integer(i) => Some(*i),
        Value::Number(f) if f.fract() == 0.0 && f.abs() < 1e15 => Some(*f as i64),
        _ => None,
    }
}

/// Reads `arrays` (spec §7, A13): rows `0 … N−1`, each a list of N cells at `1 … N`.
fn read_grid(arrays: &Table) -> mlua::Result<ShapeGrid> {
    let mut rows: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
    for pair in arrays.pairs::<Value, Value>() {
        let (k, v) = pair?;
        let Some(r) = key_int(&k) else {
            return Err(err(format!(
                "setTumo: the shape table has a key that is not a row number ({})",
                k.type_name()
            )));
        };
        let Value::Table(row) = v else {
            return Err(err(format!(
                "setTumo: row {r} is a {}, not a list of cells",
                v.type_name()
            )));
        };
        let mut cells: BTreeMap<i64, Value> = BTreeMap::new();
        for cell in row.pairs::<Value, Value>() {
            let (c, v) = cell?;
            match key_int(&c) {
                Some(c) if (1..=MAX_GRID as i64 + 1).contains(&c) => {
                    cells.insert(c, v);
                }
                _ => {
                    return Err(err(format!(
                        "setTumo: row {r} has a cell that is not at a column 1 to {MAX_GRID}"
                    )));
                }
            }
        }
        if cells.is_empty() {
            continue; // an empty row is all zeros
        }
        let n = cells.len();
        if cells.keys().copied().ne(1..=n as i64) {
            return Err(err(format!(
                "setTumo: row {r} is not a list of cells at columns 1, 2, …"
            )));
        }
        let mut out = Vec::with_capacity(n);
        for (c, v) in cells {
            let x = int_arg(&v, 1, "setTumo").map_err(|_| {
                err(format!(
                    "setTumo: row {r}, column {c} is not a number (a {})",
                    v.type_name()
                ))
            })?;
            if !(-1..=127).contains(&x) {
                return Err(err(format!(
                    "setTumo: row {r}, column {c} is {x}; a cell is 0 (empty), -1 (a block of \
                     the tumo's kind) or a label 1 to 127"
                )));
            }
            out.push(x);
        }
        rows.insert(r, out);
    }
    let side = rows.values().map(Vec::len).max().unwrap_or(0);
    if side == 0 {
        return Err(err("setTumo: the shape has no cells"));
    }
    if side > MAX_GRID {
        return Err(err(format!(
            "setTumo: a shape is at most {MAX_GRID} × {MAX_GRID} (a row has {side} cells)"
        )));
    }
    let mut grid = ShapeGrid::new(side);
    let mut seen_labels = Vec::new();
    for (r, cells) in &rows {
        let y = usize::try_from(*r)
            .ok()
            .filter(|y| *y < side)
            .ok_or_else(|| {
                err(format!(
                    "setTumo: row {r} is outside the {side} × {side} shape (rows 0 to {})",
                    side - 1
                ))
            })?;
        if cells.len() != side {
            return Err(err(format!(
                "setTumo: row {r} has {} cells, but the shape is {side} × {side} (a shape is \
                 square)",
                cells.len()
            )));
        }
        for (x, v) in cells.iter().enumerate() {
            if *v > 0 {
                if seen_labels.contains(v) {
                    return Err(err(format!(
                        "setTumo: label {v} appears twice in one shape (a label is one block)"
                    )));
                }
                seen_labels.push(*v);
            }
            grid.cells[y * side + x] = i8::try_from(*v).unwrap_or(0);
        }
    }
    if grid.cells.iter().all(|c| *c == 0) {
        return Err(err("setTumo: the shape has no block"));
    }
    Ok(grid)
}

/// The blocks of a state as a sorted list of cell values.
fn block_values(g: &ShapeGrid) -> Vec<i8> {
    let mut v: Vec<i8> = g.cells.iter().copied().filter(|c| *c != 0).collect();
    v.sort_unstable();
    v
}

/// A colour's name, from its hue (or its lightness when it has little colour).
fn color_name([r, g, b]: [u8; 3]) -> &'static str {
    let (r, g, b) = (f64::from(r), f64::from(g), f64::from(b));
    let max = r.max(g).max(b);
    let min = r.min(g).min(b);
    let d = max - min;
    if max < 40.0 {
        return "black";
    }
    if d < 0.2 * max {
        return if max > 200.0 { "white" } else { "grey" };
    }
    let hue = if max == r {
        60.0 * ((g - b) / d).rem_euclid(6.0)
    } else if max == g {
        60.0 * ((b - r) / d + 2.0)
    } else {
        60.0 * ((r - g) / d + 4.0)
    };
    match hue {
        h if !(15.0..345.0).contains(&h) => "red",
        h if h < 45.0 => "orange",
        h if h < 70.0 => "yellow",
        h if h < 165.0 => "green",
        h if h < 195.0 => "cyan",
        h if h < 225.0 => "light blue",
        h if h < 255.0 => "blue",
        h if h < 285.0 => "purple",
        _ => "magenta",
    }
}

/// A grid coordinate as JSON: an integer when whole.
fn coord(v: f64) -> Json {
    if v.fract() == 0.0 {
        json!(v as i64)
    } else {
        json!(v)
    }
}

fn to_level(rec: &Recorder, source: &str) -> Result<Json, ScriptError> {
    let fail = |line: Option<usize>, message: String| ScriptError { line, message };
    let Some((width, height)) = rec.size else {
        return Err(fail(
            None,
            "the program never calls setFieldSize(width, height)".into(),
        ));
    };
    if rec.blocks.is_empty() {
        return Err(fail(
            None,
            "the program creates no block kind (createBlockPattern(1))".into(),
        ));
    }
    if rec.tumos.is_empty() {
        return Err(fail(
            None,
            "the program defines no tumo (setTumo(arrays, 0, 0))".into(),
        ));
    }

    let mut names: Vec<String> = Vec::new();
    let mut blocks = Vec::new();
    for (i, b) in rec.blocks.iter().enumerate() {
        let base = match b.color {
            Some(c) => color_name(c).to_string(),
            None => format!("block {}", i + 1),
        };
        let mut name = base.clone();
        let mut k = 2;
        while names.contains(&name) {
            name = format!("{base} {k}");
            k += 1;
        }
        names.push(name.clone());
        let form = if b.form == 1 { "round" } else { "square" };
        blocks.push(json!({
            "name": name,
            "color": b.color.unwrap_or([128, 128, 128]),
            "form": form,
            "role": "normal",
        }));
    }

    let mut tumos = Vec::new();
    let mut tumo_names = Vec::new();
    for (i, (&id, states)) in rec.tumos.iter().enumerate() {
        let first_line = states.values().next().and_then(|s| s.line);
        if id != i {
            return Err(fail(
                first_line,
                format!(
                    "tumo {i} is missing: tumos are numbered 0, 1, … without gaps (this is tumo {id})"
                ),
            ));
        }
        let mut grids: Vec<&ShapeGrid> = Vec::new();
        for (j, (&rot, s)) in states.iter().enumerate() {
            if rot != j {
                return Err(fail(
                    s.line,
                    format!(
                        "rotation shape {j} of tumo {id} is missing: shapes are numbered 0, 1, … \
                         without gaps (this is shape {rot})"
                    ),
                ));
            }
            if let Some(g0) = grids.first() {
                if s.grid.side != g0.side {
                    return Err(fail(
                        s.line,
                        format!(
                            "rotation shape {rot} of tumo {id} is {n} × {n}, but shape 0 is {m} × {m}",
                            n = s.grid.side,
                            m = g0.side
                        ),
                    ));
                }
                if block_values(&s.grid) != block_values(g0) {
                    return Err(fail(
                        s.line,
                        format!(
                            "rotation shape {rot} of tumo {id} has other blocks than shape 0 (a \
                             turn keeps a tumo's blocks)"
                        ),
                    ));
                }
            }
            grids.push(&s.grid);
        }
        let has_own = grids[0].cells.contains(&-1);
        let kind = if id < rec.blocks.len() {
            id
        } else if has_own {
            return Err(fail(
                first_line,
                format!(
                    "tumo {id} has -1 cells, which are block kind {} (tumo + 1, spec A1), but only \
                     {} kinds were created",
                    id + 1,
                    rec.blocks.len()
                ),
            ));
        } else {
            0
        };
        let side = grids[0].side;
        let centre = (side as f64 - 1.0) / 2.0;
        let pivot = (0..side * side)
            .filter(|&c| grids.iter().all(|g| g.cells[c] != 0))
            .map(|c| ((c % side) as f64, (c / side) as f64))
            .min_by(|a, b| {
                let d = |p: &(f64, f64)| (p.0 - centre).powi(2) + (p.1 - centre).powi(2);
                d(a).total_cmp(&d(b))
            })
            .unwrap_or((centre, centre));
        let states_json: Vec<Json> = grids
            .iter()
            .map(|g| {
                Json::Array(
                    g.cells
                        .chunks(side)
                        .map(|row| Json::Array(row.iter().map(|c| json!(c)).collect()))
                        .collect(),
                )
            })
            .collect();
        let name = format!("tumo {id}");
        tumo_names.push(json!(name));
        tumos.push(json!({
            "name": name,
            "states": states_json,
            "block": names[kind],
            "pivot": [coord(pivot.0), coord(pivot.1)],
            "kicks": "none",
        }));
    }

    let row = ".".repeat(width);
    Ok(json!({
        "kind": "falling",
        "name": "FPGDL program",
        "width": width,
        "height": height,
        "blocks": blocks,
        "tumos": tumos,
        "quick_turn": rec.quick_turn,
        "hard_drop": rec.hard_drop,
        "shadow": true,
        "clear": [],
        "fall": [],
        "sequence": {"order": "random", "tumos": tumo_names},
        "field": vec![row; height],
        "legend": {},
        "script": source,
    }))
}

#[cfg(test)]
mod tests {
    use super::color_name;

    #[test]
    fn the_papers_colours_get_their_usual_names() {
        let puyo = [
            [255, 0, 0],
            [0, 255, 0],
            [80, 80, 255],
            [180, 0, 255],
            [255, 255, 0],
        ];
        let names: Vec<_> = puyo.iter().map(|c| color_name(*c)).collect();
        assert_eq!(names, ["red", "green", "blue", "purple", "yellow"]);
        let tetris = [
            [255, 40, 255],
            [255, 155, 40],
            [40, 40, 255],
            [130, 255, 40],
            [255, 40, 40],
            [255, 255, 0],
            [40, 155, 255],
        ];
        let names: Vec<_> = tetris.iter().map(|c| color_name(*c)).collect();
        assert_eq!(
            names,
            [
                "magenta",
                "orange",
                "blue",
                "green",
                "red",
                "yellow",
                "light blue"
            ]
        );
        assert_eq!(color_name([0, 0, 0]), "black");
        assert_eq!(color_name([128, 128, 128]), "grey");
        assert_eq!(color_name([250, 250, 250]), "white");
    }
}

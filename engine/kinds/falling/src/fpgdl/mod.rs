//! FPGDL: rule programs in Lua, run by this host (spec falling-blocks §5, §6, §10).
//!
//! A level's `script` defines `function update()`, called once a frame after the built-in
//! rules. It sees exactly the API of spec §6 (Get and Set functions over a [`FieldView`]) and
//! its Set calls become [`Requests`]. The initial-setup functions of §6.1 exist too and do
//! nothing, so a whole FPGDL program can be a level's script; [`import_program`] turns such a
//! program's setup calls into a level document instead.
//!
//! # The API (spec §6.2, §6.3)
//! Coordinates: `x` is the column from the left (0 to W−1), `y` the row from the **top**
//! (0 to H−1) (spec A4).
//! * `getFieldWidth()`, `getFieldHeight()`: W and H.
//! * `getFieldBlock(x, y)`: 0 empty, 1–99 a settled block of that kind, 100 + kind a block
//!   in motion (A2). `getComboBlockNum(x, y)` (A8), `getAllBlockDownFlag()` (A7).
//! * `setBlockDeleteFlag(x, y)`; `setBlockDownCellNum(x, y, n)`: **sets** the cell's fall
//!   request (A5), `n < 0` counts as 0.
//! * Coordinates outside the field read as 0 and write nothing (A3), so the paper's listings,
//!   which visit `x = W` and `y = −1`, run verbatim.
//! * Coordinates and `n` are Lua integers, or floats and numeric strings with an exact
//!   integer value, as Lua's own library takes them (`luaL_checkinteger`); any other value
//!   (`1.5`, `nil`, a table) is an error "bad argument #i to 'name' (…)" at the calling line.
//!
//! # Every frame starts from the program (determinism)
//! The game's state is the field only. Each [`Script::update`] call runs the script's top
//! level again in a **fresh environment** (a new globals table with fresh copies of
//! `string`, `math` and `table`) and then calls the `update` it defined. So globals set by
//! one frame (the listings' `downnum`, `y`, `checknum`), tables changed in place and
//! upvalues of closures are all gone by the next frame: a script cannot keep state between
//! frames, and a frame's requests depend only on the field. This keeps replays, frame undo
//! and redo exact. The cost is the top level's run each frame, which for the paper's
//! programs is a few dozen no-op calls (see `engine/benches/falling_lua.rs`).
//!
//! # Untrusted scripts
//! No `io`, `os`, `require`, `dofile`, `loadfile`, `load`, `string.dump` (see the sandbox
//! notes in the source of `sandbox.rs` for the whole list). Each run (the top level in
//! [`Script::new`] or [`import_program`], or one frame in [`Script::update`]) may execute
//! at most [`INSTRUCTION_BUDGET`] Lua instructions (counted by a hook every
//! [`HOOK_INTERVAL`]) and take at most [`TIME_LIMIT`]; the Lua state may use at most
//! [`MEMORY_LIMIT`] bytes; a script is at most [`MAX_SCRIPT_BYTES`] long. `pcall` cannot
//! catch a stop. Every failure is a [`ScriptError`] with the script line when known.

mod import;
mod sandbox;

use std::cell::RefCell;
use std::time::Duration;

use mlua::{Function, Value};

pub use import::import_program;
use sandbox::Sandbox;

use super::field::Requests;

/// The most Lua instructions one run may execute: the top level in [`Script::new`] or
/// [`import_program`], or one frame (top level and `update()`) in [`Script::update`]. The
/// paper's Tetris program needs about 4 300 a frame on 10 × 20 and about 1 000 000 on the
/// largest field (256 × 256); Puyo Puyo about 2 200 on 6 × 13. Stopping an endless loop
/// takes about 0.1 s.
pub const INSTRUCTION_BUDGET: u64 = 10_000_000;

/// The hook that counts instructions runs every this many instructions; a stop is found at
/// the next such check.
pub const HOOK_INTERVAL: u32 = 250;

/// The longest one run may take (wall clock), checked with the instruction count. A safety
/// net for instructions whose cost grows with their operands (concatenating megabyte
/// strings): a script that stays within the instruction budget normally finishes in well
/// under a tenth of this.
pub const TIME_LIMIT: Duration = Duration::from_secs(1);

/// The most memory a script's Lua state may use, in bytes (the libraries take about 30 KiB).
pub const MEMORY_LIMIT: usize = 16 << 20;

/// The most strings, tables and functions that `table.sort` sorts, or `pairs`/`next` visit as
/// keys, of one table: the host holds each of them at once in a reference stack of its own
/// (of about a million slots). Over it the call fails with "too many values held at once".
/// Numbers and booleans do not count.
pub const MAX_HELD_VALUES: usize = 100_000;

/// The longest script source, in bytes.
pub const MAX_SCRIPT_BYTES: usize = 1 << 20;

/// The message of a script without `function update()`.
const NO_UPDATE: &str = "the script defines no function update()";

/// What a script's Get functions read (spec §6.2). Coordinates outside the field read as
/// empty (spec A3).
pub trait FieldView {
    /// `getFieldWidth()`.
    fn width(&self) -> i64;
    /// `getFieldHeight()`.
    fn height(&self) -> i64;
    /// `getFieldBlock(x, y)`: 0 empty, 1–99 a settled block of that kind, 100 + kind a block
    /// in motion (spec A2).
    fn block(&self, x: i64, y: i64) -> i64;
    /// `getComboBlockNum(x, y)` (spec A8).
    fn combo(&self, x: i64, y: i64) -> i64;
    /// `getAllBlockDownFlag()`: true while any field block is in motion (spec A7).
    fn all_down(&self) -> bool;
}

/// A script error: a Lua error, a budget exceeded, or a missing `update()`, with the script
/// line when known (1-based).
///
/// `message` is Lua's message without its `script:LINE:` position and traceback, e.g.
/// `attempt to call a nil value (global 'foo')`; a stop names its budget:
/// `instruction budget exceeded: …`, `time limit exceeded: …`, `memory limit exceeded: …`
/// (its `line` is where the script was last seen running). An editor shows `message` at
/// `line` of the script; the `Display` form is `script line LINE: message`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", .line.map(|l| format!("script line {l}: ")).unwrap_or_default())]
pub struct ScriptError {
    /// The script line, 1-based, when known.
    pub line: Option<usize>,
    /// What went wrong.
    pub message: String,
}

impl ScriptError {
    /// The script line of a message in the `Display` form of a [`ScriptError`]
    /// (`script line LINE: …`), e.g. a [`tilesmith_core::problem::Problem`] message made from
    /// one.
    pub fn line_in_message(message: &str) -> Option<usize> {
        let rest = message.strip_prefix("script line ")?;
        let (n, _) = rest.split_once(':')?;
        n.parse().ok()
    }
}

/// A loaded script, ready to run `update()` once a frame. `Send` (mlua's `send` feature), so
/// a game can move to a worker thread with its Lua state.
pub struct Script {
    sandbox: Sandbox,
    main: Function,
    /// How many times `update()` was asked to run ([`Script::update_runs`]).
    update_runs: u64,
}

impl std::fmt::Debug for Script {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Script")
    }
}

/// The field the top level sees in [`Script::new`]: 0 × 0.
struct NoField;

impl FieldView for NoField {
    fn width(&self) -> i64 {
        0
    }
    fn height(&self) -> i64 {
        0
    }
    fn block(&self, _: i64, _: i64) -> i64 {
        0
    }
    fn combo(&self, _: i64, _: i64) -> i64 {
        0
    }
    fn all_down(&self) -> bool {
        false
    }
}

fn check_size(source: &str) -> Result<(), ScriptError> {
    if source.len() > MAX_SCRIPT_BYTES {
        return Err(ScriptError {
            line: None,
            message: format!(
                "the script is too long ({} bytes; at most {MAX_SCRIPT_BYTES})",
                source.len()
            ),
        });
    }
    Ok(())
}

impl Script {
    /// Compiles `source` in a fresh sandbox and runs its top level once, against an empty
    /// 0 × 0 field (the setup functions do nothing).
    ///
    /// # Errors
    /// A syntax or run-time error, a budget exceeded, a source over [`MAX_SCRIPT_BYTES`],
    /// or no `update` function.
    pub fn new(source: &str) -> Result<Script, ScriptError> {
        check_size(source)?;
        let sandbox = Sandbox::new()?;
        let main = sandbox.compile(source)?;
        let script = Script {
            sandbox,
            main,
            update_runs: 0,
        };
        script.frame(&NoField, &mut Requests::new(0), false)?;
        Ok(script)
    }

    /// Runs `update()` once against `view`, setting `req` from its Set calls: the top level
    /// runs again first, in a fresh environment (see the module notes). `req` must have
    /// `width × height` cells; requests are only set, never cleared, so pass it reset.
    ///
    /// # Errors
    /// A run-time error or a budget exceeded; `req` is then unspecified.
    pub fn update(&mut self, view: &dyn FieldView, req: &mut Requests) -> Result<(), ScriptError> {
        self.update_runs += 1;
        self.frame(view, req, true)
    }

    /// How many times [`Script::update`] ran since the script was made (the top level's run
    /// in [`Script::new`] not counted), failed runs included: each may take up to the time
    /// limit, so this is what a caller counts to keep a command within its budget.
    pub fn update_runs(&self) -> u64 {
        self.update_runs
    }

    /// Gives the script a flag that stops a run of `update()` within [`HOOK_INTERVAL`]
    /// instructions (or one step of a host loop) once another thread sets it; that run fails
    /// with the error `cancelled`. `None` removes the flag.
    pub fn set_cancel_flag(&mut self, flag: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>) {
        self.sandbox.set_cancel_flag(flag);
    }

    fn frame(
        &self,
        view: &dyn FieldView,
        req: &mut Requests,
        call_update: bool,
    ) -> Result<(), ScriptError> {
        let (main, sandbox) = (&self.main, &self.sandbox);
        let req = RefCell::new(req);
        let (w, h) = (view.width(), view.height());
        let inside = move |x: i64, y: i64| x >= 0 && y >= 0 && x < w && y < h;
        // Row-major index of an inside cell.
        let index = move |x: i64, y: i64| usize::try_from(y * w + x).unwrap_or(usize::MAX);
        sandbox.run(|lua| {
            lua.scope(|scope| {
                let env = sandbox.fresh_env()?;
                env.raw_set("getFieldWidth", scope.create_function(move |_, ()| Ok(w))?)?;
                env.raw_set("getFieldHeight", scope.create_function(move |_, ()| Ok(h))?)?;
                env.raw_set(
                    "getFieldBlock",
                    scope.create_function(move |_, (x, y): (Value, Value)| {
                        let (x, y) = xy(&x, &y, "getFieldBlock")?;
                        Ok(if inside(x, y) { view.block(x, y) } else { 0 })
                    })?,
                )?;
                env.raw_set(
                    "getComboBlockNum",
                    scope.create_function(move |_, (x, y): (Value, Value)| {
                        let (x, y) = xy(&x, &y, "getComboBlockNum")?;
                        Ok(if inside(x, y) { view.combo(x, y) } else { 0 })
                    })?,
                )?;
                env.raw_set(
                    "getAllBlockDownFlag",
                    scope.create_function(move |_, ()| Ok(view.all_down()))?,
                )?;
                let req = &req;
                env.raw_set(
                    "setBlockDeleteFlag",
                    scope.create_function(move |_, (x, y): (Value, Value)| {
                        let (x, y) = xy(&x, &y, "setBlockDeleteFlag")?;
                        if inside(x, y)
                            && let Some(cell) = req.borrow_mut().delete.get_mut(index(x, y))
                        {
                            *cell = true;
                        }
                        Ok(())
                    })?,
                )?;
                env.raw_set(
                    "setBlockDownCellNum",
                    scope.create_function(move |_, (x, y, n): (Value, Value, Value)| {
                        let (x, y) = xy(&x, &y, "setBlockDownCellNum")?;
                        let n = int_arg(&n, 3, "setBlockDownCellNum")?;
                        if inside(x, y)
                            && let Some(cell) = req.borrow_mut().down.get_mut(index(x, y))
                        {
                            *cell = u32::try_from(n.max(0)).unwrap_or(u32::MAX);
                        }
                        Ok(())
                    })?,
                )?;
                main.call::<()>(&env)?;
                match env.raw_get::<Value>("update")? {
                    Value::Function(update) if call_update => update.call::<()>(()),
                    Value::Function(_) => Ok(()),
                    _ => Err(mlua::Error::runtime(NO_UPDATE)),
                }
            })
        })
    }
}

/// Two coordinate arguments.
fn xy(x: &Value, y: &Value, fname: &str) -> mlua::Result<(i64, i64)> {
    Ok((int_arg(x, 1, fname)?, int_arg(y, 2, fname)?))
}

/// An integer argument as Lua's `luaL_checkinteger` takes it: an integer, a float with an
/// exact integer value, or a string holding one.
fn int_arg(v: &Value, pos: usize, fname: &str) -> mlua::Result<i64> {
    let bad =
        |what: &str| mlua::Error::runtime(format!("bad argument #{pos} to '{fname}' ({what})"));
    let from_f64 = |f: f64| {
        if f.fract() == 0.0 && (-9.223_372_036_854_775e18..9.223_372_036_854_775e18).contains(&f) {
            Ok(f as i64)
        } else {
            Err(bad("number has no integer representation"))
        }
    };
    match v {
        Value::Integer(i) => Ok(*i),
        Value::Number(f) => from_f64(*f),
        Value::String(s) => {
            let s = s.to_str().map(|s| s.trim().to_string()).unwrap_or_default();
            if let Ok(i) = s.parse::<i64>() {
                Ok(i)
            } else if let Ok(f) = s.parse::<f64>() {
                from_f64(f)
            } else {
                Err(bad("number expected, got string"))
            }
        }
        other => Err(bad(&format!("number expected, got {}", other.type_name()))),
    }
}

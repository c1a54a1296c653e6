//! The Lua sandbox of FPGDL scripts and of the importer: which parts of the standard library a
//! script gets, the budgets (instructions, time, memory), fresh environments, and turning Lua
//! errors into [`ScriptError`]s with the script line.
//!
//! What a script gets: the base functions `assert`, `error`, `getmetatable`, `ipairs`,
//! `next`, `pairs`, `pcall`, `rawequal`, `rawget`, `rawlen`, `rawset`, `select`,
//! `setmetatable`, `tonumber`, `tostring`, `type`, `xpcall`, `_VERSION`, `_G`; and the
//! libraries `math`, `string` and `table`. Removed: `dofile`, `loadfile`, `load`, `print`,
//! `warn`, `collectgarbage`, `require` (no `package`), `io`, `os`, `debug`, `coroutine`,
//! `utf8`, `string.dump`, the pattern functions `string.find`/`match`/`gmatch`/`gsub` (a
//! single call can backtrack for hours, out of reach of the instruction hook) and
//! `math.random`/`math.randomseed` (randomness comes only from the game's seeded RNG).
//!
//! Replaced, for determinism and budgets: `pairs` and `next` visit keys in a fixed order
//! (numbers ascending, then strings bytewise, then `false`, `true`, then other keys in Lua's
//! own order); `tostring` of a table or function without `__tostring`/`__name` gives just
//! its type (no address); `string.format` refuses `%p` and formats tables and functions as
//! `tostring` does; `table.sort` is a stable merge sort (Lua's own picks pivots from the
//! clock); `table.insert`, `table.remove`, `table.move`, `pairs`, `next` and `table.sort`
//! charge their element work to the instruction budget; `string.rep` of an empty string is
//! done at once; `pcall` and `xpcall` cannot catch a budget or memory stop.
//!
//! Replaced so that every instruction a script runs is under the budgets (a stop is raised
//! by the hook, and Lua runs no hook inside a hook): `xpcall` runs its message handler after
//! the error has unwound, as an ordinary call; `setmetatable` refuses `__gc` and `__close` and
//! sets a private copy of the metatable (whose `__metatable` is the script's table), so no
//! to-be-closed handler can ever exist (mlua would run it inside the hook). See
//! `docs/reliability.md`, "Script budgets".

use std::cell::Cell;
use std::cmp::Ordering;
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use mlua::chunk::ChunkMode;
use mlua::{
    Function, HookTriggers, Lua, LuaOptions, LuaString, MultiValue, StdLib, Table, Value, VmState,
};

use super::{
    HOOK_INTERVAL, INSTRUCTION_BUDGET, MAX_HELD_VALUES, MEMORY_LIMIT, ScriptError, TIME_LIMIT,
};

mod errors;
mod host;

use errors::*;
use host::*;

/// The chunk name of scripts: Lua positions read `script:LINE:`.
const CHUNK: &str = "script";

/// What one element step of a host loop (a move in `table.insert`/`remove`, a comparison in
/// `table.sort`, a key in `pairs`/`next`) costs, in instructions: about what it takes.
const HOST_STEP: u64 = 8;

/// The largest table `table.sort` sorts.
const MAX_SORT: usize = 1 << 20;

/// The initial-setup functions of spec §6.1; in a script they do nothing.
pub(super) const SETUP_FUNCTIONS: [&str; 10] = [
    "setFieldSize",
    "blockSize",
    "setSuperRotation",
    "setQuickTurn",
    "setClearMode",
    "setHardDrop",
    "createBlockPattern",
    "setBlockForm",
    "setBlockFormColor",
    "setTumo",
];

/// The base functions a script keeps.
const BASE: [&str; 18] = [
    "assert",
    "error",
    "getmetatable",
    "ipairs",
    "next",
    "pairs",
    "pcall",
    "rawequal",
    "rawget",
    "rawlen",
    "rawset",
    "select",
    "setmetatable",
    "tonumber",
    "tostring",
    "type",
    "xpcall",
    "_VERSION",
];

/// Why a run was stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    Instructions,
    Time,
    Memory,
    /// The cancel flag ([`Sandbox::set_cancel_flag`]) was set: not the script's fault.
    Cancelled,
}

impl Stop {
    fn message(self) -> String {
        match self {
            Stop::Instructions => format!(
                "instruction budget exceeded: a run may execute at most {INSTRUCTION_BUDGET} Lua \
                 instructions"
            ),
            Stop::Time => format!(
                "time limit exceeded: a run may take at most {} ms",
                TIME_LIMIT.as_millis()
            ),
            Stop::Memory => format!(
                "memory limit exceeded: a script may use at most {} MiB",
                MEMORY_LIMIT >> 20
            ),
            Stop::Cancelled => "cancelled".to_string(),
        }
    }
}

/// A value shared by the hook and the host functions: a `Cell` that is `Sync`, since the
/// Lua state (and so its callbacks) may move to another thread with its game (the editor
/// computes long steps on a worker). Never contended: one thread runs the state at a time.
#[derive(Debug, Default)]
struct Slot<T>(Mutex<T>);

impl<T: Copy> Slot<T> {
    fn new(v: T) -> Self {
        Slot(Mutex::new(v))
    }
    fn get(&self) -> T {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
    fn set(&self, v: T) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = v;
    }
}

/// The budgets of the current run, shared by the hook and the host functions.
#[derive(Debug)]
struct Guard {
    /// Instructions left in this run.
    remaining: Slot<i64>,
    /// When this run must have finished.
    deadline: Slot<Option<Instant>>,
    /// Why this run was stopped, once it was.
    stop: Slot<Option<Stop>>,
    /// The script line where the hook last saw the script running.
    line: Slot<Option<usize>>,
    /// Set by another thread to abandon the run ([`Sandbox::set_cancel_flag`]).
    cancel: Mutex<Option<Arc<AtomicBool>>>,
}

impl Guard {
    fn arm(&self) {
        self.remaining.set(INSTRUCTION_BUDGET as i64);
        self.deadline.set(Some(Instant::now() + TIME_LIMIT));
        self.stop.set(None);
        self.line.set(None);
    }

    /// After a run: any Lua code that would still run stops at the first hook.
    fn disarm(&self) {
        self.remaining.set(0);
    }

    /// True when the cancel flag is set.
    fn cancelled(&self) -> bool {
        self.cancel
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
            .is_some_and(|c| c.load(AtomicOrdering::Relaxed))
    }

    fn halt(&self, why: Stop) -> mlua::Error {
        if self.stop.get().is_none() {
            self.stop.set(Some(why));
        }
        mlua::Error::runtime(why.message())
    }

    /// Counts `n` instructions (or units of host work) against the budget and checks the
    /// deadline.
    fn charge(&self, n: u64) -> mlua::Result<()> {
        if let Some(why) = self.stop.get() {
            return Err(self.halt(why));
        }
        let left = self
            .remaining
            .get()
            .saturating_sub(i64::try_from(n).unwrap_or(i64::MAX));
        self.remaining.set(left);
        if left < 0 {
            return Err(self.halt(Stop::Instructions));
        }
        if self.deadline.get().is_some_and(|d| Instant::now() > d) {
            return Err(self.halt(Stop::Time));
        }
        if self.cancelled() {
            return Err(self.halt(Stop::Cancelled));
        }
        Ok(())
    }

    /// After a `pcall`: a stop is not caught; neither is a memory error.
    fn after_pcall(&self, results: &MultiValue) -> mlua::Result<()> {
        if let Some(why) = self.stop.get() {
            return Err(self.halt(why));
        }
        let mut it = results.iter();
        if let (Some(Value::Boolean(false)), Some(err)) = (it.next(), it.next()) {
            let memory = match err {
                Value::String(s) => s.as_bytes().as_ref() == b"not enough memory",
                Value::Error(e) => is_memory(e),
                _ => false,
            };
            if memory {
                return Err(self.halt(Stop::Memory));
            }
        }
        Ok(())
    }
}

/// A Lua state set up as the sandbox.
pub(super) struct Sandbox {
    lua: Lua,
    guard: Arc<Guard>,
    /// Host function: a fresh environment table (base functions, copies of the libraries,
    /// no-op setup functions).
    make_env: Function,
}

impl Sandbox {
    /// A new sandbox.
    ///
    /// # Errors
    /// Only if Lua cannot be set up (out of memory).
    pub(super) fn new() -> Result<Sandbox, ScriptError> {
        let guard = Arc::new(Guard {
            remaining: Slot::new(0),
            deadline: Slot::new(None),
            stop: Slot::new(None),
            line: Slot::new(None),
            cancel: Mutex::new(None),
        });
        let lua = Lua::new_with(
            StdLib::TABLE | StdLib::STRING | StdLib::MATH,
            LuaOptions::default(),
        )
        .map_err(|e| host_error(&e))?;
        let make_env = setup(&lua, &guard).map_err(|e| host_error(&e))?;
        lua.set_memory_limit(MEMORY_LIMIT)
            .map_err(|e| host_error(&e))?;
        let hook_guard = Arc::clone(&guard);
        lua.set_hook(
            HookTriggers::new().every_nth_instruction(HOOK_INTERVAL),
            move |_, debug| {
                if debug.source().source.as_deref() == Some("=script") {
                    hook_guard.line.set(debug.current_line());
                }
                hook_guard.charge(u64::from(HOOK_INTERVAL))?;
                Ok(VmState::Continue)
            },
        )
        .map_err(|e| host_error(&e))?;
        guard.disarm();
        Ok(Sandbox {
            lua,
            guard,
            make_env,
        })
    }

    /// Compiles `source` as a script's main chunk. The chunk takes its environment as its
    /// argument (`local _ENV = ...` on the script's own first line, so lines stay the same),
    /// so each run can give it a fresh one.
    pub(super) fn compile(&self, source: &str) -> Result<Function, ScriptError> {
        let text = format!("local _ENV = ...; {source}");
        self.lua
            .load(text)
            .set_name(format!("={CHUNK}"))
            .set_mode(ChunkMode::Text)
            .into_function()
            .map_err(|e| self.error(&e))
    }

    /// A fresh environment: the base functions, fresh copies of `string`, `math` and
    /// `table`, and the setup functions as no-ops. Call inside [`Sandbox::run`].
    pub(super) fn fresh_env(&self) -> mlua::Result<Table> {
        self.make_env.call(())
    }

    /// Gives the sandbox a flag that stops a run at the next hook (every [`HOOK_INTERVAL`]
    /// instructions) or host loop step once another thread sets it; the run then fails with
    /// the error `cancelled`. `None` removes it.
    pub(super) fn set_cancel_flag(&self, flag: Option<Arc<AtomicBool>>) {
        *self
            .guard
            .cancel
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = flag;
    }

    /// Runs `f` under fresh budgets; any error becomes a [`ScriptError`].
    pub(super) fn run<R>(&self, f: impl FnOnce(&Lua) -> mlua::Result<R>) -> Result<R, ScriptError> {
        self.guard.arm();
        let r = f(&self.lua);
        let r = r.map_err(|e| self.error(&e));
        self.guard.disarm();
        r
    }

    /// A Lua error as a script error: a stop names its budget, at the line where it surfaced
    /// or else where the script was last seen; otherwise the innermost message, without its position and traceback,
    /// and the line from the position or the traceback.
    fn error(&self, e: &mlua::Error) -> ScriptError {
        let described = describe(e);
        // Where the error surfaced (exact when a host function stopped it), else where the
        // hook last saw the script.
        let line = described.line.or(self.guard.line.get());
        if let Some(why) = self.guard.stop.get() {
            return ScriptError {
                line,
                message: why.message(),
            };
        }
        if is_memory(e) {
            return ScriptError {
                line,
                message: Stop::Memory.message(),
            };
        }
        described
    }
}

/// An argument as an integer the way Lua's own library reads one (`luaL_checkinteger`: an
/// integer, a float with an exact integer value, or a string Lua converts to one, hex
/// included); `None` otherwise (the library function then raises its own error).
fn lua_int(lua: &Lua, v: Option<&Value>) -> Option<i64> {
    match v {
        Some(Value::Integer(i)) => Some(*i),
        Some(v @ (Value::Number(_) | Value::String(_))) => {
            lua.coerce_integer(v.clone()).ok().flatten()
        }
        _ => None,
    }
}

/// The bytes of a `string.rep` result charged as one instruction of the budget.
const REP_BYTES_PER_INSTRUCTION: u64 = 64;

/// Removes what a script must not have, installs the replacements and returns the function
/// that makes fresh environments.
fn setup(lua: &Lua, guard: &Arc<Guard>) -> mlua::Result<Function> {
    let g = lua.globals();
    let string: Table = g.raw_get("string")?;
    let math: Table = g.raw_get("math")?;
    let table: Table = g.raw_get("table")?;
    // The host's environment maker uses the raw `next` (its order does not matter there).
    let raw_next: Function = g.raw_get("next")?;

    // The string metatable's __index is the real `string` table: sanitise that table itself,
    // and hide the metatable from getmetatable.
    let string_meta: Table = lua.load("return getmetatable('')").eval()?;
    string_meta.raw_set("__metatable", false)?;
    for name in ["dump", "find", "match", "gmatch", "gsub"] {
        string.raw_set(name, Value::Nil)?;
    }
    for name in ["random", "randomseed"] {
        math.raw_set(name, Value::Nil)?;
    }

    let raw_rep: Function = string.raw_get("rep")?;
    let rep_guard = Arc::clone(guard);
    string.raw_set(
        "rep",
        lua.create_function(move |lua, args: MultiValue| {
            // `string.rep("", n)` copies zero bytes n times in C: answer at once.
            let empty = |v: Option<&Value>| match v {
                None | Some(Value::Nil) => true,
                Some(Value::String(s)) => s.as_bytes().is_empty(),
                _ => false,
            };
            // The count as Lua reads it (a numeric string too, `'0xDE0B6B3A7640000'`: the
            // #30 review's loop of 10^18 empty copies).
            if matches!(args.front(), Some(Value::String(s)) if s.as_bytes().is_empty())
                && empty(args.get(2))
                && lua_int(lua, args.get(1)).is_some()
            {
                return Ok(Value::String(lua.create_string("")?));
            }
            let made = raw_rep.call::<Value>(args)?;
            // One call, but as much work as a loop over its bytes: it is charged one
            // instruction per REP_BYTES_PER_INSTRUCTION bytes made, and the clock and Cancel
            // are read here too (issue #30: `while true do string.rep('x', 7e6) end` ran
            // 2.8 s of CPU past its 1 s limit, the hook being called only every 1000 calls).
            if let Value::String(s) = &made {
                rep_guard.charge(s.as_bytes().len() as u64 / REP_BYTES_PER_INSTRUCTION)?;
            }
            Ok(made)
        })?,
    )?;

    let raw_tostring: Function = g.raw_get("tostring")?;
    let tostring_fn = {
        let raw = raw_tostring.clone();
        lua.create_function(move |lua, v: Value| safe_tostring(lua, &raw, v))?
    };
    g.raw_set("tostring", tostring_fn)?;

    // `string.pack`, `unpack` and `packsize` walk their format in C, option by option: each
    // byte of it is charged as an instruction (issue #30's second review: a 6 MB format in a
    // loop ran 2.9 s).
    for name in ["pack", "unpack", "packsize"] {
        let guard = Arc::clone(guard);
        let raw: Function = string.raw_get(name)?;
        string.raw_set(
            name,
            lua.create_function(move |_, args: MultiValue| {
                if let Some(Value::String(f)) = args.front() {
                    guard.charge(f.as_bytes().len() as u64)?;
                }
                raw.call::<MultiValue>(args)
            })?,
        )?;
    }
    let raw_format: Function = string.raw_get("format")?;
    {
        let raw = raw_tostring.clone();
        let guard = Arc::clone(guard);
        string.raw_set(
            "format",
            lua.create_function(move |lua, args: MultiValue| {
                let mut args: Vec<Value> = args.into_iter().collect();
                if let Some(Value::String(f)) = args.first() {
                    let f = f.as_bytes();
                    guard.charge(f.len() as u64 / 16)?;
                    if has_pointer_conversion(&f) {
                        return Err(mlua::Error::runtime(
                            "bad argument #1 to 'format' (%p is not available in scripts)",
                        ));
                    }
                }
                for a in args.iter_mut().skip(1) {
                    if matches!(a, Value::Table(_) | Value::Function(_) | Value::Thread(_)) {
                        *a = Value::String(safe_tostring(lua, &raw, a.clone())?);
                    }
                }
                raw_format.call::<Value>(MultiValue::from_iter(args))
            })?,
        )?;
    }

    let raw_setmetatable: Function = g.raw_get("setmetatable")?;
    {
        let guard = Arc::clone(guard);
        // The key under which a live metatable keeps the script's own table; the script never
        // sees this key, so it cannot reach a live metatable.
        let own_key = lua.create_table()?;
        g.raw_set(
            "setmetatable",
            lua.create_function(move |lua, args: MultiValue| {
                set_metatable(lua, &guard, &raw_setmetatable, &own_key, args)
            })?,
        )?;
    }

    let raw_pcall: Function = g.raw_get("pcall")?;
    {
        let raw = raw_pcall.clone();
        let guard = Arc::clone(guard);
        g.raw_set(
            "pcall",
            lua.create_function(move |_, args: MultiValue| {
                let results: MultiValue = raw.call(args)?;
                guard.after_pcall(&results)?;
                Ok(results)
            })?,
        )?;
    }
    {
        let guard = Arc::clone(guard);
        g.raw_set(
            "xpcall",
            lua.create_function(move |lua, args: MultiValue| {
                xpcall(lua, &guard, &raw_pcall, args)
            })?,
        )?;
    }

    {
        let guard = Arc::clone(guard);
        g.raw_set(
            "next",
            lua.create_function(move |_, (t, k): (Value, Value)| {
                let Value::Table(t) = t else {
                    return Err(bad_table("next", &t));
                };
                ordered_next(&guard, &t, &k)
            })?,
        )?;
    }
    {
        let guard = Arc::clone(guard);
        g.raw_set(
            "pairs",
            lua.create_function(move |lua, v: Value| ordered_pairs(lua, &guard, v))?,
        )?;
    }
    {
        let guard = Arc::clone(guard);
        table.raw_set(
            "sort",
            lua.create_function(move |_, (t, cmp): (Value, Option<Function>)| {
                let Value::Table(t) = t else {
                    return Err(bad_table("sort", &t));
                };
                stable_sort(&guard, &t, cmp.as_ref())
            })?,
        )?;
    }
    {
        let guard = Arc::clone(guard);
        table.raw_set(
            "insert",
            lua.create_function(move |_, args: MultiValue| table_insert(&guard, args))?,
        )?;
    }
    {
        let guard = Arc::clone(guard);
        table.raw_set(
            "remove",
            lua.create_function(move |_, args: MultiValue| table_remove(&guard, args))?,
        )?;
    }
    {
        let guard = Arc::clone(guard);
        let raw_move: Function = table.raw_get("move")?;
        table.raw_set(
            "move",
            lua.create_function(move |lua, args: MultiValue| {
                // The count is fixed by the arguments (read as Lua reads them, numeric
                // strings included): charge it before the C loop.
                if let (Some(f), Some(e)) = (lua_int(lua, args.get(1)), lua_int(lua, args.get(2)))
                    && e >= f
                {
                    // Each element read from the source and written to the destination (the
                    // source again when none is given), through their metamethod chains.
                    let per = match (args.front(), args.get(4)) {
                        (Some(Value::Table(a)), Some(Value::Table(b))) => {
                            chain_cost(a, "__index") + chain_cost(b, "__newindex")
                        }
                        (Some(Value::Table(a)), _) => {
                            chain_cost(a, "__index") + chain_cost(a, "__newindex")
                        }
                        _ => 1,
                    };
                    guard.charge(e.abs_diff(f).saturating_add(1).saturating_mul(per))?;
                }
                raw_move.call::<Value>(args)
            })?,
        )?;
    }
    {
        // `table.concat` reads its elements in C, through `__index` when the table has one:
        // with a C function there (`table.concat` itself, `rawlen`) no Lua instruction runs
        // however long the range, so the range is charged before the C loop (the #30
        // review: `concat(t, '', 1, 1e15)` with `__index = table.concat` never ended).
        let guard = Arc::clone(guard);
        let raw_concat: Function = table.raw_get("concat")?;
        table.raw_set(
            "concat",
            lua.create_function(move |lua, args: MultiValue| {
                let first = match args.get(2) {
                    None | Some(Value::Nil) => Some(1),
                    v => lua_int(lua, v),
                };
                let last = match (args.get(3), args.front()) {
                    (None | Some(Value::Nil), Some(Value::Table(t))) => Some(t.len()?),
                    (v, _) => lua_int(lua, v),
                };
                let per = match args.front() {
                    Some(Value::Table(t)) => chain_cost(t, "__index"),
                    _ => 1,
                };
                if let (Some(i), Some(j)) = (first, last)
                    && j >= i
                {
                    guard.charge(j.abs_diff(i).saturating_add(1).saturating_mul(per))?;
                }
                raw_concat.call::<Value>(args)
            })?,
        )?;
    }
    {
        // `table.unpack` reads its range in C too, through `__index` chains: charged as
        // `table.concat` is.
        let guard = Arc::clone(guard);
        let raw_unpack: Function = table.raw_get("unpack")?;
        table.raw_set(
            "unpack",
            lua.create_function(move |lua, args: MultiValue| {
                let first = match args.get(1) {
                    None | Some(Value::Nil) => Some(1),
                    v => lua_int(lua, v),
                };
                let (last, per) = match (args.get(2), args.front()) {
                    (None | Some(Value::Nil), Some(Value::Table(t))) => {
                        (Some(t.len()?), chain_cost(t, "__index"))
                    }
                    (v, Some(Value::Table(t))) => (lua_int(lua, v), chain_cost(t, "__index")),
                    (v, _) => (lua_int(lua, v), 1),
                };
                if let (Some(i), Some(j)) = (first, last)
                    && j >= i
                {
                    guard.charge(j.abs_diff(i).saturating_add(1).saturating_mul(per))?;
                }
                raw_unpack.call::<MultiValue>(args)
            })?,
        )?;
    }

    let base = lua.create_table()?;
    for name in BASE {
        base.raw_set(name, g.raw_get::<Value>(name)?)?;
    }
    let libs = lua.create_table()?;
    libs.raw_set("string", string)?;
    libs.raw_set("math", math)?;
    libs.raw_set("table", table)?;
    let make: Function = lua
        .load(
            r#"
local base, libs, setup, next = ...
local noop = function() end
return function()
  local env = {}
  for k, v in next, base do env[k] = v end
  for name, lib in next, libs do
    local copy = {}
    for k, v in next, lib do copy[k] = v end
    env[name] = copy
  end
  for _, name in next, setup do env[name] = noop end
  env._G = env
  return env
end
"#,
        )
        .set_name("=host")
        .call((
            base,
            libs,
            lua.create_sequence_from(SETUP_FUNCTIONS)?,
            raw_next,
        ))?;
    Ok(make)
}

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

/// An error of the host's own setup (not the script's).
fn host_error(e: &mlua::Error) -> ScriptError {
    ScriptError {
        line: None,
        message: format!("cannot set up Lua: {e}"),
    }
}

/// Whether `e` is the memory limit. A host function that cannot grow the host's reference
/// stack gets mlua's "out of Lua stack" error: with [`MAX_HELD_VALUES`] bounding what a host
/// function holds, that happens only when the memory limit refuses the growth.
fn is_memory(e: &mlua::Error) -> bool {
    match e {
        mlua::Error::MemoryError(_) | mlua::Error::StackError => true,
        mlua::Error::CallbackError { cause, .. } => is_memory(cause),
        mlua::Error::WithContext { cause, .. } => is_memory(cause),
        mlua::Error::BadArgument { cause, .. } => is_memory(cause),
        _ => false,
    }
}

/// `script:LINE: rest` → `(LINE, rest)`.
fn position(msg: &str) -> Option<(usize, &str)> {
    let rest = msg.strip_prefix(CHUNK)?.strip_prefix(':')?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let line = rest[..digits].parse().ok()?;
    let rest = rest[digits..].strip_prefix(':')?;
    Some((line, rest.strip_prefix(' ').unwrap_or(rest)))
}

/// The first script line named in a traceback (`\tscript:LINE: in …`).
fn traceback_line(tb: &str) -> Option<usize> {
    tb.lines()
        .find_map(|l| position(l.trim_start()).map(|(line, _)| line))
}

/// Splits `message\nstack traceback:\n…`.
fn split_traceback(msg: &str) -> (&str, Option<&str>) {
    match msg.find("\nstack traceback:") {
        Some(i) => (&msg[..i], Some(&msg[i..])),
        None if msg.starts_with("stack traceback:") => ("", Some(msg)),
        None => (msg, None),
    }
}

fn describe(e: &mlua::Error) -> ScriptError {
    // Tracebacks from the outermost error inwards; the innermost message.
    let mut tracebacks: Vec<String> = Vec::new();
    let mut cur = e;
    let message = loop {
        match cur {
            mlua::Error::CallbackError { traceback, cause } => {
                tracebacks.push(traceback.clone());
                cur = cause;
            }
            mlua::Error::WithContext { cause, .. } => cur = cause,
            mlua::Error::RuntimeError(m) => {
                let (m, tb) = split_traceback(m);
                if let Some(tb) = tb {
                    tracebacks.push(tb.to_string());
                }
                break m.to_string();
            }
            mlua::Error::SyntaxError { message, .. } => break message.clone(),
            mlua::Error::BadArgument { to, pos, cause, .. } => {
                let to = to
                    .as_deref()
                    .map(|t| format!(" to '{t}'"))
                    .unwrap_or_default();
                break format!("bad argument #{pos}{to} ({cause})");
            }
            other => break other.to_string(),
        }
    };
    let (line, message) = match position(&message) {
        Some((line, rest)) => (Some(line), rest.to_string()),
        None => (
            tracebacks.iter().rev().find_map(|tb| traceback_line(tb)),
            error_value(&message).unwrap_or(message),
        ),
    };
    ScriptError { line, message }
}

/// The longest `__name` an error message shows, in characters.
const MAX_NAME_CHARS: usize = 64;

/// An error value that is not a string, as Lua prints it when it reaches the host (`table:
/// 0x55fe…`, or `NAME: 0x…` with a `__name`), without the machine address, which differs from
/// run to run: `error value: table`, or `error value: table with __name "NAME"` (the name cut
/// to [`MAX_NAME_CHARS`] characters). `None` for any other message.
fn error_value(msg: &str) -> Option<String> {
    let (kind, address) = msg.rsplit_once(": 0x")?;
    if kind.is_empty()
        || kind.contains('\n')
        || address.is_empty()
        || !address.bytes().all(|b| b.is_ascii_hexdigit())
    {
        return None;
    }
    Some(match kind {
        "table" | "function" | "userdata" | "thread" => format!("error value: {kind}"),
        name => {
            let cut: String = name.chars().take(MAX_NAME_CHARS).collect();
            format!("error value: table with __name \"{cut}\"")
        }
    })
}

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
    string.raw_set(
        "rep",
        lua.create_function(move |lua, args: MultiValue| {
            // `string.rep("", n)` copies zero bytes n times in C: answer at once.
            let empty = |v: Option<&Value>| match v {
                None | Some(Value::Nil) => true,
                Some(Value::String(s)) => s.as_bytes().is_empty(),
                _ => false,
            };
            if matches!(args.front(), Some(Value::String(s)) if s.as_bytes().is_empty())
                && empty(args.get(2))
                && matches!(args.get(1), Some(Value::Integer(_) | Value::Number(_)))
            {
                return Ok(Value::String(lua.create_string("")?));
            }
            raw_rep.call::<Value>(args)
        })?,
    )?;

    let raw_tostring: Function = g.raw_get("tostring")?;
    let tostring_fn = {
        let raw = raw_tostring.clone();
        lua.create_function(move |lua, v: Value| safe_tostring(lua, &raw, v))?
    };
    g.raw_set("tostring", tostring_fn)?;

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
            lua.create_function(move |_, args: MultiValue| {
                // The count is fixed by the arguments: charge it before the C loop.
                if let (Ok(f), Ok(e)) = (int_at(&args, 1, "move"), int_at(&args, 2, "move"))
                    && e >= f
                {
                    guard.charge(e.abs_diff(f).saturating_add(1))?;
                }
                raw_move.call::<Value>(args)
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

/// The message of `xpcall` when its message handler fails, as Lua's own.
const ERROR_IN_HANDLER: &str = "error in error handling";

/// `xpcall(f, handler, ...)`: `f` runs under the host's `pcall`; on an error the handler is
/// called afterwards, as an ordinary call under the budgets, with the error value, and its
/// first result is returned after `false`. Lua's own `xpcall` calls the handler while the
/// error is raised, where a stop raised by the budget hook would run it with hooks off, out of
/// reach of every budget. A handler that fails gives `false, "error in error handling"`; a
/// stop is never caught.
fn xpcall(
    lua: &Lua,
    guard: &Guard,
    raw_pcall: &Function,
    args: MultiValue,
) -> mlua::Result<MultiValue> {
    let mut args = args.into_iter();
    let f = args.next().unwrap_or(Value::Nil);
    let handler = match args.next() {
        Some(Value::Function(h)) => h,
        other => {
            let got = other.as_ref().map_or("no value", Value::type_name);
            return Err(mlua::Error::runtime(format!(
                "bad argument #2 to 'xpcall' (function expected, got {got})"
            )));
        }
    };
    let call: MultiValue = std::iter::once(f).chain(args).collect();
    let results: MultiValue = raw_pcall.call(call)?;
    guard.after_pcall(&results)?;
    let mut it = results.iter();
    let (Some(Value::Boolean(false)), err) = (it.next(), it.next()) else {
        return Ok(results);
    };
    let err = err.cloned().unwrap_or(Value::Nil);
    match handler.call::<Value>(err) {
        Ok(v) => Ok(MultiValue::from_iter([Value::Boolean(false), v])),
        Err(e) => {
            if let Some(why) = guard.stop.get() {
                return Err(guard.halt(why));
            }
            if is_memory(&e) {
                return Err(guard.halt(Stop::Memory));
            }
            Ok(MultiValue::from_iter([
                Value::Boolean(false),
                Value::String(lua.create_string(ERROR_IN_HANDLER)?),
            ]))
        }
    }
}

/// `setmetatable(t, mt)`: refuses `__gc` and `__close`, and sets a private copy of `mt`
/// whose `__metatable` field is `mt` itself (unless `mt` has its own), so `getmetatable(t)`
/// still gives `mt` but the live metatable is out of the script's reach: a metamethod added
/// to `mt` later does not reach `t` (which is how no `__close` handler can ever exist).
fn set_metatable(
    lua: &Lua,
    guard: &Guard,
    raw: &Function,
    own_key: &Table,
    args: MultiValue,
) -> mlua::Result<Value> {
    let t = match args.front() {
        Some(Value::Table(t)) => t.clone(),
        _ => return raw.call::<Value>(args),
    };
    let mt = match args.get(1) {
        Some(Value::Table(mt)) => Some(mt.clone()),
        _ => None,
    };
    if let Some(mt) = &mt {
        for name in ["__gc", "__close"] {
            if !mt.raw_get::<Value>(name)?.is_nil() {
                return Err(mlua::Error::runtime(format!(
                    "bad argument #2 to 'setmetatable' ({name} metamethods are not available \
                     in scripts)"
                )));
            }
        }
    }
    // A live copy made here: protected only if the script's own table asked for it.
    if let Some(live) = t.metatable()
        && let Value::Table(own) = live.raw_get::<Value>(own_key.clone())?
    {
        if !own.raw_get::<Value>("__metatable")?.is_nil() {
            return Err(mlua::Error::runtime("cannot change a protected metatable"));
        }
        live.raw_set("__metatable", Value::Nil)?;
    }
    let Some(mt) = mt else {
        return raw.call::<Value>(args);
    };
    let copy = lua.create_table()?;
    for pair in mt.pairs::<Value, Value>() {
        let (k, v) = pair?;
        guard.charge(HOST_STEP)?;
        copy.raw_set(k, v)?;
    }
    if copy.raw_get::<Value>("__metatable")?.is_nil() {
        copy.raw_set("__metatable", mt.clone())?;
    }
    copy.raw_set(own_key.clone(), mt)?;
    raw.call::<Value>((t, copy))
}

fn bad_table(name: &str, v: &Value) -> mlua::Error {
    mlua::Error::runtime(format!(
        "bad argument #1 to '{name}' (table expected, got {})",
        v.type_name()
    ))
}

fn safe_tostring(lua: &Lua, raw: &Function, v: Value) -> mlua::Result<LuaString> {
    let plain = match &v {
        Value::Table(t) => match t.metatable() {
            Some(mt) => {
                mt.raw_get::<Value>("__tostring")?.is_nil()
                    && mt.raw_get::<Value>("__name")?.is_nil()
            }
            None => true,
        },
        Value::Function(_) | Value::Thread(_) | Value::LightUserData(_) => true,
        _ => false,
    };
    if plain {
        lua.create_string(v.type_name())
    } else {
        raw.call(v)
    }
}

/// Whether a `string.format` format has a `%p` conversion.
fn has_pointer_conversion(f: &[u8]) -> bool {
    let mut i = 0;
    while i < f.len() {
        if f[i] == b'%' {
            i += 1;
            while i < f.len() && b"-+ #0123456789.".contains(&f[i]) {
                i += 1;
            }
            if i < f.len() && f[i] == b'p' {
                return true;
            }
        }
        i += 1;
    }
    false
}

/// The order of keys for `pairs` and `next`: numbers, strings, booleans, then the rest.
fn key_rank(k: &Value) -> u8 {
    match k {
        Value::Integer(_) | Value::Number(_) => 0,
        Value::String(_) => 1,
        Value::Boolean(_) => 2,
        _ => 3,
    }
}

fn as_f64(k: &Value) -> f64 {
    match k {
        Value::Integer(i) => *i as f64,
        Value::Number(n) => *n,
        _ => 0.0,
    }
}

/// Compares two keys of the same rank below 3 (other keys keep Lua's order: `Equal`).
fn key_cmp(a: &Value, b: &Value) -> Ordering {
    match key_rank(a).cmp(&key_rank(b)) {
        Ordering::Equal => {}
        o => return o,
    }
    match (a, b) {
        (Value::Integer(x), Value::Integer(y)) => x.cmp(y),
        (Value::String(x), Value::String(y)) => x.as_bytes().as_ref().cmp(y.as_bytes().as_ref()),
        (Value::Boolean(x), Value::Boolean(y)) => x.cmp(y),
        (x, y) if key_rank(x) == 0 => as_f64(x).total_cmp(&as_f64(y)),
        _ => Ordering::Equal,
    }
}

/// The table's keys in the fixed order (stable sort, so keys of rank 3 keep Lua's order).
fn sorted_keys(guard: &Guard, t: &Table) -> mlua::Result<Vec<Value>> {
    let n = t.raw_len() + 16;
    guard.charge((n as u64).saturating_mul(HOST_STEP))?;
    let mut keys = Vec::new();
    let mut held = Held::default();
    for pair in t.pairs::<Value, Value>() {
        let (k, _) = pair?;
        held.count(&k, "keys")?;
        keys.push(k);
    }
    guard.charge((keys.len() as u64).saturating_mul(HOST_STEP))?;
    keys.sort_by(key_cmp);
    Ok(keys)
}

fn ordered_pairs(lua: &Lua, guard: &Arc<Guard>, v: Value) -> mlua::Result<MultiValue> {
    let Value::Table(t) = v else {
        return Err(bad_table("pairs", &v));
    };
    if let Some(mt) = t.metatable()
        && let Value::Function(f) = mt.raw_get::<Value>("__pairs")?
    {
        let r: MultiValue = f.call(t)?;
        return Ok(r.into_iter().take(3).collect());
    }
    // The keys go into a Lua table, so that the memory limit and the collector see them.
    let keys = sorted_keys(guard, &t)?;
    let n = keys.len();
    let list = lua.create_table_with_capacity(n, 0)?;
    for (i, k) in keys.into_iter().enumerate() {
        list.raw_set(i + 1, k)?;
    }
    let at = Cell::new(0usize);
    let iter = lua.create_function(move |_, (t, _k): (Table, Value)| {
        loop {
            let i = at.get();
            if i >= n {
                return Ok((Value::Nil, Value::Nil));
            }
            at.set(i + 1);
            let k: Value = list.raw_get(i + 1)?;
            let v: Value = t.raw_get(k.clone())?;
            if !v.is_nil() {
                return Ok((k, v));
            }
        }
    })?;
    Ok(MultiValue::from_iter([
        Value::Function(iter),
        Value::Table(t),
        Value::Nil,
    ]))
}

/// `next(t, k)` in the fixed order: the smallest key after `k` (O(n) per call, charged).
fn ordered_next(guard: &Guard, t: &Table, k: &Value) -> mlua::Result<(Value, Value)> {
    let keys = sorted_keys(guard, t)?;
    let pos = if k.is_nil() {
        0
    } else {
        match keys.iter().position(|x| x == k) {
            Some(i) => i + 1,
            None => return Err(mlua::Error::runtime("invalid key to 'next'")),
        }
    };
    match keys.into_iter().nth(pos) {
        Some(key) => {
            let v = t.raw_get(key.clone())?;
            Ok((key, v))
        }
        None => Ok((Value::Nil, Value::Nil)),
    }
}

/// Counts the strings, tables and functions a host function holds at once (each takes a slot
/// of the host's reference stack, which holds about a million): at most [`MAX_HELD_VALUES`].
#[derive(Default)]
struct Held(usize);

impl Held {
    fn count(&mut self, v: &Value, what: &str) -> mlua::Result<()> {
        if !matches!(
            v,
            Value::Nil
                | Value::Boolean(_)
                | Value::Integer(_)
                | Value::Number(_)
                | Value::LightUserData(_)
        ) {
            self.0 += 1;
            if self.0 > MAX_HELD_VALUES {
                return Err(mlua::Error::runtime(format!(
                    "too many values held at once: a library function may hold at most \
                     {MAX_HELD_VALUES} strings, tables or functions ({what} of one table)"
                )));
            }
        }
        Ok(())
    }
}

/// Lua's `<` for sorting without a comparison function: numbers and strings.
fn default_less(a: &Value, b: &Value) -> mlua::Result<bool> {
    match (a, b) {
        (Value::Integer(x), Value::Integer(y)) => Ok(x < y),
        (Value::Integer(_) | Value::Number(_), Value::Integer(_) | Value::Number(_)) => {
            Ok(as_f64(a) < as_f64(b))
        }
        (Value::String(x), Value::String(y)) => Ok(x.as_bytes().as_ref() < y.as_bytes().as_ref()),
        _ => Err(mlua::Error::runtime(format!(
            "attempt to compare {} with {} (give table.sort a comparison function)",
            a.type_name(),
            b.type_name()
        ))),
    }
}

fn stable_sort(guard: &Guard, t: &Table, cmp: Option<&Function>) -> mlua::Result<()> {
    let n = t.len()?;
    let n = usize::try_from(n).unwrap_or(0);
    if n > MAX_SORT {
        return Err(mlua::Error::runtime(format!(
            "bad argument #1 to 'sort' (array too big: at most {MAX_SORT} elements)"
        )));
    }
    guard.charge((n as u64).saturating_mul(HOST_STEP))?;
    let mut v: Vec<Value> = Vec::with_capacity(n);
    let mut held = Held::default();
    for i in 1..=n {
        let x = t.get(i)?;
        held.count(&x, "elements")?;
        v.push(x);
    }
    let less = |a: &Value, b: &Value| -> mlua::Result<bool> {
        guard.charge(HOST_STEP)?;
        match cmp {
            Some(f) => f.call::<bool>((a.clone(), b.clone())),
            None => default_less(a, b),
        }
    };
    // Bottom-up merge sort: stable, never panics on an inconsistent order.
    let mut buf = v.clone();
    let mut width = 1;
    while width < n {
        let mut lo = 0;
        while lo < n {
            let mid = (lo + width).min(n);
            let hi = (lo + 2 * width).min(n);
            let (mut i, mut j, mut k) = (lo, mid, lo);
            while i < mid && j < hi {
                if less(&v[j], &v[i])? {
                    buf[k] = v[j].clone();
                    j += 1;
                } else {
                    buf[k] = v[i].clone();
                    i += 1;
                }
                k += 1;
            }
            buf[k..k + (mid - i)].clone_from_slice(&v[i..mid]);
            k += mid - i;
            buf[k..k + (hi - j)].clone_from_slice(&v[j..hi]);
            lo = hi;
        }
        std::mem::swap(&mut v, &mut buf);
        width *= 2;
    }
    for (i, x) in v.into_iter().enumerate() {
        t.set(i + 1, x)?;
    }
    Ok(())
}

fn int_at(args: &MultiValue, i: usize, fname: &str) -> mlua::Result<i64> {
    match args.get(i) {
        Some(v) => super::int_arg(v, i + 1, fname),
        None => Err(mlua::Error::runtime(format!(
            "bad argument #{} to '{fname}' (number expected, got no value)",
            i + 1
        ))),
    }
}

/// `table.insert(t, [pos,] v)` as Lua 5.4 does it, each element move charged.
fn table_insert(guard: &Guard, args: MultiValue) -> mlua::Result<()> {
    let t = match args.front() {
        Some(Value::Table(t)) => t.clone(),
        other => return Err(bad_table("insert", other.unwrap_or(&Value::Nil))),
    };
    let e = t.len()?.saturating_add(1);
    match args.len() {
        2 => t.set(e, args[1].clone()),
        3 => {
            let pos = int_at(&args, 1, "insert")?;
            if pos < 1 || pos > e {
                return Err(mlua::Error::runtime(
                    "bad argument #2 to 'insert' (position out of bounds)",
                ));
            }
            let mut i = e;
            while i > pos {
                guard.charge(HOST_STEP)?;
                t.set(i, t.get::<Value>(i - 1)?)?;
                i -= 1;
            }
            t.set(pos, args[2].clone())
        }
        _ => Err(mlua::Error::runtime(
            "wrong number of arguments to 'insert'",
        )),
    }
}

/// `table.remove(t [, pos])` as Lua 5.4 does it, each element move charged.
fn table_remove(guard: &Guard, args: MultiValue) -> mlua::Result<Value> {
    let t = match args.front() {
        Some(Value::Table(t)) => t.clone(),
        other => return Err(bad_table("remove", other.unwrap_or(&Value::Nil))),
    };
    let size = t.len()?;
    let mut pos = match args.get(1) {
        None | Some(Value::Nil) => size,
        Some(_) => int_at(&args, 1, "remove")?,
    };
    if pos != size && (pos < 1 || pos > size.saturating_add(1)) {
        return Err(mlua::Error::runtime(
            "bad argument #2 to 'remove' (position out of bounds)",
        ));
    }
    let result: Value = t.get(pos)?;
    while pos < size {
        guard.charge(HOST_STEP)?;
        t.set(pos, t.get::<Value>(pos + 1)?)?;
        pos += 1;
    }
    t.set(pos, Value::Nil)?;
    Ok(result)
}

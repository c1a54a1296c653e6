//! The host functions that replace Lua's own in the sandbox (`xpcall`, `setmetatable`,
//! `tostring`, ordered `pairs`/`next`, `table.sort`, `table.insert`/`remove`/`move`), so that
//! every instruction a script runs is under the budgets and every run is the same.

use super::*;

/// The message of `xpcall` when its message handler fails, as Lua's own.
pub(super) const ERROR_IN_HANDLER: &str = "error in error handling";

/// `xpcall(f, handler, ...)`: `f` runs under the host's `pcall`; on an error the handler is
/// called afterwards, as an ordinary call under the budgets, with the error value, and its
/// first result is returned after `false`. Lua's own `xpcall` calls the handler while the
/// error is raised, where a stop raised by the budget hook would run it with hooks off, out of
/// reach of every budget. A handler that fails gives `false, "error in error handling"`; a
/// stop is never caught.
pub(super) fn xpcall(
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
pub(super) fn set_metatable(
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

pub(super) fn bad_table(name: &str, v: &Value) -> mlua::Error {
    mlua::Error::runtime(format!(
        "bad argument #1 to '{name}' (table expected, got {})",
        v.type_name()
    ))
}

/// `tostring` without machine addresses: a table, function or thread with no `__tostring`
/// reads as its type, or as its `__name` (a string, cut to 64 characters) where it has one;
/// Lua's own would add `: 0x55…`, which differs between runs (issue #30). A `__tostring` is
/// the script's own text and is called as Lua calls it.
pub(super) fn safe_tostring(lua: &Lua, raw: &Function, v: Value) -> mlua::Result<LuaString> {
    let named = match &v {
        Value::Table(t) => match t.metatable() {
            Some(mt) if !mt.raw_get::<Value>("__tostring")?.is_nil() => return raw.call(v),
            Some(mt) => match mt.raw_get::<Value>("__name")? {
                Value::String(n) => {
                    Some(n.as_bytes().iter().take(64).copied().collect::<Vec<u8>>())
                }
                _ => None,
            },
            None => None,
        },
        Value::Function(_) | Value::Thread(_) | Value::LightUserData(_) => None,
        _ => return raw.call(v),
    };
    match named {
        Some(n) => lua.create_string(n),
        None => lua.create_string(v.type_name()),
    }
}

/// Whether a `string.format` format has a `%p` conversion.
pub(super) fn has_pointer_conversion(f: &[u8]) -> bool {
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
pub(super) fn key_rank(k: &Value) -> u8 {
    match k {
        Value::Integer(_) | Value::Number(_) => 0,
        Value::String(_) => 1,
        Value::Boolean(_) => 2,
        _ => 3,
    }
}

pub(super) fn as_f64(k: &Value) -> f64 {
    match k {
        Value::Integer(i) => *i as f64,
        Value::Number(n) => *n,
        _ => 0.0,
    }
}

/// Compares two keys of the same rank below 3 (other keys keep Lua's order: `Equal`).
pub(super) fn key_cmp(a: &Value, b: &Value) -> Ordering {
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
pub(super) fn sorted_keys(guard: &Guard, t: &Table) -> mlua::Result<Vec<Value>> {
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

pub(super) fn ordered_pairs(lua: &Lua, guard: &Arc<Guard>, v: Value) -> mlua::Result<MultiValue> {
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
pub(super) fn ordered_next(guard: &Guard, t: &Table, k: &Value) -> mlua::Result<(Value, Value)> {
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
pub(super) struct Held(usize);

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
pub(super) fn default_less(a: &Value, b: &Value) -> mlua::Result<bool> {
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

pub(super) fn stable_sort(guard: &Guard, t: &Table, cmp: Option<&Function>) -> mlua::Result<()> {
    let n = t.len()?;
    let n = usize::try_from(n).unwrap_or(0);
    if n > MAX_SORT {
        return Err(mlua::Error::runtime(format!(
            "bad argument #1 to 'sort' (array too big: at most {MAX_SORT} elements)"
        )));
    }
    let per = HOST_STEP + chain_cost(t, "__index") + chain_cost(t, "__newindex");
    guard.charge((n as u64).saturating_mul(per))?;
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

pub(super) fn int_at(args: &MultiValue, i: usize, fname: &str) -> mlua::Result<i64> {
    match args.get(i) {
        Some(v) => super::super::int_arg(v, i + 1, fname),
        None => Err(mlua::Error::runtime(format!(
            "bad argument #{} to '{fname}' (number expected, got no value)",
            i + 1
        ))),
    }
}

/// `table.insert(t, [pos,] v)` as Lua 5.4 does it, each element move charged.
pub(super) fn table_insert(guard: &Guard, args: MultiValue) -> mlua::Result<()> {
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
            let step = HOST_STEP + chain_cost(&t, "__index") + chain_cost(&t, "__newindex");
            let mut i = e;
            while i > pos {
                guard.charge(step)?;
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
pub(super) fn table_remove(guard: &Guard, args: MultiValue) -> mlua::Result<Value> {
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
    let step = HOST_STEP + chain_cost(&t, "__index") + chain_cost(&t, "__newindex");
    while pos < size {
        guard.charge(step)?;
        t.set(pos, t.get::<Value>(pos + 1)?)?;
        pos += 1;
    }
    t.set(pos, Value::Nil)?;
    Ok(result)
}

/// What reading (`event` = `"__index"`) or writing (`"__newindex"`) one element of `t`
/// costs when it goes through metamethods: 1 for the table itself, plus one for each table
/// of the `event` chain Lua follows in C (up to its 2 000), plus one for a function ending it.
/// A host loop over elements charges this much per element: a chain of tables makes every
/// element read a loop of its own, out of the hook's reach (issue #30's second review: a
/// chain of 1 998 tables under `table.move` ran until killed).
pub(super) fn chain_cost(t: &Table, event: &str) -> u64 {
    let mut cost = 1;
    let mut cur = t.clone();
    for _ in 0..2000 {
        let Some(mt) = cur.metatable() else { break };
        match mt.raw_get::<Value>(event) {
            Ok(Value::Table(next)) => {
                cost += 1;
                cur = next;
            }
            Ok(Value::Nil) | Err(_) => break,
            Ok(_) => {
                cost += 1;
                break;
            }
        }
    }
    cost
}

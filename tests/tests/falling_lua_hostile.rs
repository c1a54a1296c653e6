#![allow(clippy::unwrap_used)]
//! Hostile FPGDL scripts (issue 30): whatever a script does in `pcall`/`xpcall` message
//! handlers, `__tostring`/`__name` of error objects or to-be-closed variables, every run (the
//! top level, `update()`, the FPGDL import) ends with an error, and the error never shows a
//! machine address. A run that has not ended after 30 s fails its test instead of hanging.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;
use std::time::Duration;

use tilesmith_engine::kind::falling::Requests;
use tilesmith_engine::kind::falling::fpgdl::{
    FieldView, MAX_HELD_VALUES, Script, ScriptError, import_program,
};

/// Runs `f` on a thread, failing the test when it has not returned within 30 s.
fn within_guard<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || tx.send(f()).ok());
    rx.recv_timeout(Duration::from_secs(30))
        .expect("the script run did not end: it hangs")
}

struct Empty;

impl FieldView for Empty {
    fn width(&self) -> i64 {
        4
    }
    fn height(&self) -> i64 {
        4
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

/// The error of loading `source`.
fn load_err(source: &str) -> ScriptError {
    let s = source.to_string();
    within_guard(move || Script::new(&s).map(|_| ())).unwrap_err()
}

/// The error of one `update()` of `source` (which loads).
fn update_err(source: &str) -> ScriptError {
    let s = source.to_string();
    within_guard(move || {
        let mut script = Script::new(&s).unwrap();
        script.update(&Empty, &mut Requests::new(16))
    })
    .unwrap_err()
}

/// The error of importing `source` as an FPGDL program.
fn import_err(source: &str) -> ScriptError {
    let s = source.to_string();
    within_guard(move || import_program(&s).map(|_| ())).unwrap_err()
}

fn is_stop(e: &ScriptError) -> bool {
    e.message.starts_with("instruction budget exceeded")
        || e.message.starts_with("time limit exceeded")
}

fn assert_stops(e: &ScriptError) {
    assert!(is_stop(e), "{e}");
}

const LOOP: &str = "function() while true do end end";

/// A to-be-closed value whose handler loops, as the reproducer writes it.
const CLOSE: &str =
    "local x <close> = setmetatable({}, {__close=function() while true do end end})";

#[test]
fn message_handlers_that_loop_are_stopped_by_the_budget() {
    let bodies = [
        format!("xpcall(error, {LOOP})"),
        format!("xpcall({LOOP}, {LOOP})"),
        format!("pcall(xpcall, error, {LOOP})"),
        format!("pcall(function() xpcall(error, {LOOP}) end)"),
        format!("local function f() xpcall(error, {LOOP}) end\nf()"),
        format!("xpcall(error, function() xpcall(error, {LOOP}) end)"),
        // A handler that raises again, again and again.
        "while true do xpcall(error, function(e) error(e) end) end".to_string(),
        "while true do xpcall(error, function(e) error(setmetatable({}, {__name = 'N'})) end) end"
            .to_string(),
        // Error objects whose __tostring loops, raised and printed.
        format!("error(setmetatable({{}}, {{__tostring = {LOOP}}}))"),
        format!("pcall(error, setmetatable({{}}, {{__tostring = {LOOP}}}))\nwhile true do end"),
        format!("xpcall(error, tostring, setmetatable({{}}, {{__tostring = {LOOP}}}))"),
        format!(
            "xpcall(function() error(setmetatable({{}}, {{__tostring = {LOOP}}})) end, {LOOP})"
        ),
    ];
    for body in &bodies {
        assert_stops(&load_err(body));
        assert_stops(&update_err(&format!("function update()\n{body}\nend")));
        assert_stops(&import_err(&format!("setFieldSize(6, 13)\n{body}")));
    }
}

#[test]
fn to_be_closed_handlers_are_refused() {
    let refused = |e: &ScriptError| {
        assert!(
            e.message.contains("__close metamethods are not available") || is_stop(e),
            "{e}"
        );
    };
    for body in [
        format!("{CLOSE}\nwhile true do end"),
        format!("pcall(function()\n{CLOSE}\nwhile true do end\nend)\nwhile true do end"),
        format!("local function f()\n{CLOSE}\nwhile true do end\nend\nf()"),
        format!("xpcall(function()\n{CLOSE}\nwhile true do end\nend, {LOOP})\nwhile true do end"),
    ] {
        refused(&load_err(&body));
        refused(&update_err(&format!("function update()\n{body}\nend")));
        refused(&import_err(&body));
    }
    // The reproducer fails where it stands, line 1.
    let e = load_err(&format!("{CLOSE}\nwhile true do end"));
    assert_eq!(e.line, Some(1), "{e}");
    // A __close added to the metatable afterwards does not reach the value.
    for body in [
        format!(
            "local mt = {{}}\nlocal t = setmetatable({{}}, mt)\nmt.__close = {LOOP}\nlocal x <close> = t\nwhile true do end"
        ),
        format!(
            "local t = setmetatable({{}}, {{}})\ngetmetatable(t).__close = {LOOP}\nlocal x <close> = t\nwhile true do end"
        ),
        format!(
            "local mt = {{}}\nlocal t = setmetatable({{}}, mt)\nrawset(mt, '__close', {LOOP})\nfor _ in next, {{}}, nil, t do end\nwhile true do end"
        ),
    ] {
        let e = load_err(&body);
        assert!(e.message.contains("non-closable value"), "{body}: {e}");
    }
}

#[test]
fn cancel_stops_a_looping_handler() {
    let flag = Arc::new(AtomicBool::new(true));
    let f = Arc::clone(&flag);
    let e = within_guard(move || {
        let mut s = Script::new(&format!("function update() xpcall(error, {LOOP}) end")).unwrap();
        s.set_cancel_flag(Some(f));
        s.update(&Empty, &mut Requests::new(16))
    })
    .unwrap_err();
    assert_eq!(e.message, "cancelled");
}

#[test]
fn xpcall_and_metatables_keep_their_meaning() {
    let ok = |src: &str| {
        let s = format!("{src}\nfunction update() end");
        within_guard(move || Script::new(&s).map(|_| ())).unwrap();
    };
    ok(
        "local ok, v = xpcall(error, function(e) return 'h:' .. e end, 'boom')\n\
        assert(ok == false and v == 'h:boom')",
    );
    ok(
        "local ok, a, b = xpcall(function(x) return x, 2 end, error, 1)\n\
        assert(ok and a == 1 and b == 2)",
    );
    ok(
        "local ok, v = xpcall(error, function() error('again') end)\n\
        assert(ok == false and v == 'error in error handling')",
    );
    ok("assert(not pcall(xpcall, error))");
    ok("local t = {}\nlocal ok, e = pcall(error, t)\nassert(not ok and e == t)");
    ok(
        "local mt = {__index = {a = 1}}\nlocal t = setmetatable({}, mt)\n\
        assert(getmetatable(t) == mt and t.a == 1)\n\
        setmetatable(t, nil)\nassert(getmetatable(t) == nil and t.a == nil)\n\
        local p = setmetatable({}, {__metatable = 'locked'})\n\
        assert(getmetatable(p) == 'locked' and not pcall(setmetatable, p, {}))",
    );
}

#[test]
fn error_values_that_are_not_strings_show_no_address() {
    let e = load_err("error({})");
    assert_eq!(e.to_string(), "script line 1: error value: table");
    let e = load_err("\nerror(setmetatable({}, {__name = 'X'}))");
    assert_eq!(
        e.to_string(),
        "script line 2: error value: table with __name \"X\""
    );
    let long = "N".repeat(100);
    let e = load_err(&format!("error(setmetatable({{}}, {{__name = '{long}'}}))"));
    assert_eq!(
        e.message,
        format!("error value: table with __name \"{}\"", &long[..64])
    );
    let e = update_err("function update() error(function() end) end");
    assert_eq!(e.message, "error value: function");
    // The same on every run.
    assert_eq!(load_err("error({})"), load_err("error({})"));
    // An empty `__name`, or one of two lines, shows no address either.
    let e = load_err("error(setmetatable({}, {__name = ''}))");
    assert_eq!(e.message, "error value: table with __name \"\"");
    let e = load_err("error(setmetatable({}, {__name = 'a\\nb'}))");
    assert_eq!(e.message, "error value: table with __name \"a\\nb\"");
    // A string error that merely looks like one is the script's own message.
    let e = load_err("error('code: 0xFF', 0)");
    assert_eq!(e.message, "code: 0xFF");
}

#[test]
fn a_huge_error_message_is_one_bounded_line() {
    // Four million newlines used to print four million lines (issue #30).
    let e = load_err("error(string.rep('\\n', 4e6), 0)");
    assert!(!e.message.contains('\n'), "one line");
    assert!(e.message.starts_with("\\n\\n"), "{}", &e.message[..20]);
    assert!(e.message.ends_with("(4000000 characters)"), "{}", e.message);
    assert!(e.message.chars().count() < 1100, "{}", e.message.len());
}

#[test]
fn sorting_too_many_tables_names_the_limit() {
    let sort = |n: usize| {
        load_err(&format!(
            "local t = {{}}\nfor i = 1, {n} do t[i] = {{}} end\n\
             table.sort(t, function(a, b) return false end)\nerror('sorted')"
        ))
    };
    assert_eq!(sort(1000).message, "sorted");
    let e = sort(MAX_HELD_VALUES + 1);
    assert!(e.message.starts_with("too many values held at once"), "{e}");
    let e = sort(200_000);
    assert!(
        e.message.starts_with("memory limit exceeded")
            || e.message.starts_with("too many values held at once"),
        "{e}"
    );
    assert!(!e.message.contains("out of Lua stack"), "{e}");
}

#[test]
fn string_rep_reads_the_budget_and_cancel_itself() {
    // One `string.rep` is one Lua instruction but a loop's worth of work: it is charged an
    // instruction per 64 bytes made and reads the clock and Cancel itself, not only at the
    // hook every 1000 instructions (issue #30: `while true do string.rep('x', 7e6) end` ran
    // 2.8 s of CPU past its 1 s limit). With Cancel already set, the first `string.rep`
    // stops the run; read only by the hook, the run got to its own error first.
    let flag = Arc::new(AtomicBool::new(true));
    let f = Arc::clone(&flag);
    let e = within_guard(move || {
        let mut s =
            Script::new("function update() local s = string.rep('x', 100) error('reached') end")
                .unwrap();
        s.set_cancel_flag(Some(f));
        s.update(&Empty, &mut Requests::new(16))
    })
    .unwrap_err();
    assert_eq!(e.message, "cancelled");
}

/// The #30 review's loops inside C library functions, where no Lua instruction runs and so no
/// hook could stop them: a count given as a numeric string (Lua reads hex too), and elements
/// read through a C `__index`. Each is charged before the C loop and stops at once (or, for
/// the empty `rep`, answers at once), at load and in `update()`; and the functions keep their
/// meaning for ordinary arguments.
#[test]
fn c_library_loops_are_charged_before_they_start() {
    for body in [
        "table.move({}, 1, '0xDE0B6B3A7640000', 2)",
        "table.move({}, '1', '1000000000000000', 2)",
        "local t = setmetatable({}, {__index = table.concat})\ntable.concat(t, '', 1, 1e15)",
        "local t = setmetatable({}, {__index = rawlen})\ntable.concat(t, '', 1, 1e8)",
        "local t = setmetatable({}, {__index = table.concat, __len = function() return 1e15 end})\ntable.concat(t)",
    ] {
        assert_stops(&load_err(body));
        let e = update_err(&format!("function update()\n{body}\nend"));
        assert!(
            e.message.starts_with("instruction budget exceeded"),
            "{body}: {e}"
        );
    }
    // An empty string repeated a huge count given as a string is answered at once; the
    // script goes on to its own error.
    for count in ["'1000000000000000000'", "'0xDE0B6B3A7640000'"] {
        let e = load_err(&format!(
            "assert(string.rep('', {count}) == '')\nassert((''):rep({count}) == '')\nerror('done')"
        ));
        assert!(e.message.contains("done"), "{count}: {e}");
    }
    // Ordinary use is unchanged.
    let ok = "assert(table.concat({1, 2, 3}, '-') == '1-2-3')\n\
              assert(table.concat({'a', 'b', 'c'}, '', 2) == 'bc')\n\
              assert(table.concat({'a', 'b', 'c'}, ',', '2', '0x3') == 'b,c')\n\
              local m = table.move({1, 2, 3}, '1', '0x3', 2)\n\
              assert(m[1] == 1 and m[2] == 1 and m[3] == 2 and m[4] == 3)\n\
              assert(string.rep('ab', '3', '-') == 'ab-ab-ab')\n\
              function update() end";
    within_guard(move || Script::new(ok).map(|_| ())).unwrap();
}

/// The second #30 review: a chain of 1 998 tables through `__index` (or `__newindex`) makes
/// each element read or write a loop of its own in C; the host loops and the C ones charge
/// each element as many times as the chain is long, so these stop at once. Also: formats
/// walked in C (`string.pack`/`unpack`/`packsize`) are charged by length, and `tostring` of a
/// table with a `__name` shows no address.
#[test]
fn metamethod_chains_and_formats_are_charged() {
    const CHAIN: &str = "local t = {} local c = t for i = 1, 1998 do local n = {} setmetatable(c, {__index = n}) c = n end";
    const NEW_CHAIN: &str = "local d = {} local c = d for i = 1, 1998 do local n = {} setmetatable(c, {__newindex = n}) c = n end";
    for body in [
        format!("{CHAIN}\ntable.move(t, 1, 9000000, 1, {{}})"),
        format!("{NEW_CHAIN}\ntable.move({{}}, 1, 9000000, 1, d)"),
        format!("{CHAIN}\nsetmetatable(c, {{__index = rawlen}})\ntable.concat(t, '', 1, 4000000)"),
        format!("{CHAIN}\ntable.unpack(t, 1, 999000)"),
        format!("{CHAIN}\npcall(table.unpack, t, 1, 999000)"),
        format!(
            "{CHAIN}\nsetmetatable(t, {{__index = getmetatable(t).__index, __len = function() return 1000000 end}})\ntable.sort(t)"
        ),
        "local f = string.rep('!', 6000000)\nwhile true do string.unpack(f, '') end".to_string(),
        "local f = string.rep('!', 6000000)\nwhile true do string.pack(f) end".to_string(),
        "local f = string.rep('!', 6000000)\nwhile true do string.packsize(f) end".to_string(),
    ] {
        let e = load_err(&body);
        assert!(
            e.message.starts_with("instruction budget exceeded"),
            "{body}: {e}"
        );
        let e = update_err(&format!("function update()\n{body}\nend"));
        assert!(
            e.message.starts_with("instruction budget exceeded"),
            "update: {body}: {e}"
        );
    }
    // Ordinary use of the wrapped functions is unchanged.
    let ok = "local a, b, c = table.unpack({1, 2, 3})\nassert(a == 1 and c == 3)\n\
              assert(select('#', table.unpack({1, 2, 3}, 2)) == 2)\n\
              assert(string.unpack('i4', string.pack('i4', 7)) == 7)\n\
              assert(string.packsize('i4i4') == 8)\n\
              local p = setmetatable({}, {__index = {10, 20}})\n\
              assert(table.concat({table.unpack(p, 1, 2)}, ',') == '10,20')\n\
              function update() end";
    within_guard(move || Script::new(ok).map(|_| ())).unwrap();
    // `tostring` of a named table is its name, the same on every run (no `0x…`).
    for _ in 0..2 {
        let e = load_err(
            "error(tostring(setmetatable({}, {__name = 'X'})) .. '|' .. string.format('%s', setmetatable({}, {__name = 'Y'})))",
        );
        assert!(e.message.ends_with("X|Y"), "{e}");
        assert!(!e.message.contains("0x"), "{e}");
    }
}

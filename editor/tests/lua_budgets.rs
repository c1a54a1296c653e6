#![allow(clippy::unwrap_used)]
//! Hostile level scripts through the command line (issue 30): `tilesmith check` and `run` on
//! a level whose script loops in a to-be-closed handler or an `xpcall` message handler, and an
//! FPGDL program doing the same, end with exit 1 and a message naming the limit; an error value
//! that is not a string shows no machine address. A command still running after 30 s fails the
//! test instead of hanging it.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tilesmith-lua-budgets-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// A falling level with `script`, written to a temporary file.
fn level(name: &str, script: &str) -> PathBuf {
    let v = json!({
        "kind": "falling", "name": "f", "width": 6, "height": 6,
        "blocks": [{"name": "red", "color": [230, 40, 40]}],
        "tumos": [{"name": "pair", "states": [[[0, -1, 0], [0, 1, 0], [0, 0, 0]]], "block": "red"}],
        "clear": [{"rule": "connected", "min": 4}], "fall": ["gravity"],
        "sequence": {"order": "random", "tumos": ["pair"]},
        "script": script,
    });
    let p = tmp(name);
    std::fs::write(&p, v.to_string()).unwrap();
    p
}

/// Runs the binary; fails after 30 s instead of hanging. Exit code and stdout + stderr.
fn tilesmith(args: &[&str]) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tilesmith"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("tilesmith {args:?} hangs");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let o: Output = child.wait_with_output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (o.status.code(), text)
}

const CLOSE: &str =
    "local x <close> = setmetatable({}, {__close=function() while true do end end})";

#[test]
fn looping_handlers_end_check_and_run_with_exit_1() {
    // A stop by a budget (the joins may meet the memory limit before the clock, with the
    // garbage of earlier joins not yet collected).
    let stop = |text: &str| {
        text.contains("instruction budget exceeded")
            || text.contains("time limit exceeded")
            || text.contains("memory limit exceeded")
    };
    // Stopped by the budget.
    for (name, script) in [
        (
            "xpcall",
            "function update() xpcall(error, function() while true do end end) end",
        ),
        (
            "xpcall-both",
            "function update()\n  xpcall(function() while true do end end, function() while true do end end)\nend",
        ),
        (
            "pcall-xpcall",
            "function update() pcall(xpcall, error, function() while true do end end) end",
        ),
        (
            "tostring",
            "function update() error(setmetatable({}, {__tostring = function() while true do end end})) end",
        ),
        // Few instructions, each joining megabytes (docs/reliability.md, "Between two hooks").
        (
            "concat",
            "local s = string.rep('x', 3000000)\nlocal function f() return s .. s end\nfunction update() while true do local t = f() .. 'x' end end",
        ),
    ] {
        let p = level(&format!("{name}.json"), script);
        let (code, text) = tilesmith(&["run", p.to_str().unwrap(), "--inputs", "."]);
        assert_eq!(code, Some(1), "{name}: {text}");
        assert!(stop(&text), "{name}: {text}");
        // `check` runs the first frame too, so it finds what `run` finds.
        let (code, text) = tilesmith(&["check", p.to_str().unwrap()]);
        assert_eq!(code, Some(1), "check {name}: {text}");
        assert!(stop(&text), "check {name}: {text}");
        assert!(text.contains("in the first frame"), "check {name}: {text}");
    }
    // A to-be-closed handler is refused where it is made, at load and in update().
    let top = level(
        "close-top.json",
        &format!("{CLOSE}\nwhile true do end\nfunction update() end"),
    );
    let inside = level(
        "close-update.json",
        &format!("function update()\n{CLOSE}\nwhile true do end\nend"),
    );
    for (p, args) in [
        (&top, vec!["check"]),
        (&top, vec!["run"]),
        (&inside, vec!["run"]),
    ] {
        let mut args: Vec<&str> = args;
        args.push(p.to_str().unwrap());
        if args[0] == "run" {
            args.extend(["--inputs", "."]);
        }
        let (code, text) = tilesmith(&args);
        assert_eq!(code, Some(1), "{args:?}: {text}");
        assert!(
            text.contains("__close metamethods are not available"),
            "{args:?}: {text}"
        );
    }
    // The same line at the top of an FPGDL program.
    let lua = tmp("close.lua");
    std::fs::write(
        &lua,
        format!("{CLOSE}\nwhile true do end\nsetFieldSize(6, 13)\n"),
    )
    .unwrap();
    let (code, text) = tilesmith(&["check", lua.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("__close metamethods are not available"),
        "{text}"
    );
}

#[test]
fn an_error_table_reads_the_same_on_every_run() {
    let p = level("error-table.json", "function update() error({}) end");
    let (code, text) = tilesmith(&["run", p.to_str().unwrap(), "--inputs", "."]);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("script line 1: error value: table"), "{text}");
    assert!(!text.contains("0x"), "{text}");
    assert_eq!(
        tilesmith(&["run", p.to_str().unwrap(), "--inputs", "."]).1,
        text
    );
}

//! The headless CLI as a user runs it: exit codes, the one-line summary, `check` lines, `--out`,
//! `--trace` and replays. Expected values are worked out by hand from the spec.

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};

fn tilesmith(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tilesmith"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tilesmith-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn write(name: &str, v: &Value) -> PathBuf {
    let p = tmp(name);
    std::fs::write(&p, serde_json::to_string_pretty(v).unwrap()).unwrap();
    p
}

fn stdout_json(o: &Output) -> Value {
    assert!(
        o.status.success(),
        "exit {:?}, stderr {}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    let text = String::from_utf8(o.stdout.clone()).unwrap();
    assert_eq!(text.lines().count(), 1, "one JSON line: {text}");
    serde_json::from_str(text.trim()).unwrap()
}

/// me, a gem, and an exit that opens with one gem.
fn corridor() -> Value {
    json!({"name":"corridor","width":5,"height":3,"gems":[1,1,1],"ticks":[20,10,5],
        "map":[["wall","wall","wall","wall","wall"],["wall","me","gem","exit","wall"],["wall","wall","wall","wall","wall"]]})
}

#[test]
fn run_wins_a_level_and_prints_one_summary_line() {
    let f = write("corridor.json", &corridor());
    let v = stdout_json(&tilesmith(&["run", f.to_str().unwrap(), "--inputs", "R R"]));
    // Tick 1 collects the gem, tick 2 enters the open exit: 1 gem, 2 ticks ≤ 5 → 3 points.
    assert_eq!(
        v,
        json!({"kind":"boulder","status":"won","ticks":2,"gems":1,"points":3,"x":0,"y":0,"z":0})
    );
}

#[test]
fn extra_ticks_get_no_key_and_time_runs_out() {
    let f = write("corridor2.json", &corridor());
    let v = stdout_json(&tilesmith(&[
        "run",
        f.to_str().unwrap(),
        "--inputs",
        "R",
        "--ticks",
        "25",
    ]));
    assert_eq!(v["status"], "lost");
    assert_eq!(
        v["ticks"], 21,
        "lost at the end of the first tick past ticks[0] = 20"
    );
}

#[test]
fn bad_inputs_and_bad_files_exit_1_with_located_messages() {
    let f = write("corridor3.json", &corridor());
    let o = tilesmith(&["run", f.to_str().unwrap(), "--inputs", "R X"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("word 2 \"X\""));

    let empty = tmp("empty.json");
    std::fs::write(&empty, "").unwrap();
    let o = tilesmith(&["run", empty.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr).trim(),
        format!("{}:1:1: the file is empty (at $)", empty.display())
    );

    let mut bad = corridor();
    bad["map"][1][2] = json!("lava");
    let b = write("bad.json", &bad);
    let o = tilesmith(&["check", b.to_str().unwrap(), f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let out = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1, "{out}");
    assert!(lines[0].starts_with(&format!("{}:", b.display())));
    assert!(
        lines[0].ends_with("unknown token \"lava\" (at $.map[1][2])"),
        "{}",
        lines[0]
    );

    let missing = tilesmith(&["check", "/no/such/file.json"]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&missing.stdout)
            .starts_with("/no/such/file.json:1:1: cannot read the file")
    );

    let ok = tilesmith(&["check", f.to_str().unwrap()]);
    assert_eq!(ok.status.code(), Some(0));
}

#[test]
fn out_writes_a_state_that_loads_again() {
    let f = write("corridor4.json", &corridor());
    let out = tmp("state.json");
    stdout_json(&tilesmith(&[
        "run",
        f.to_str().unwrap(),
        "--inputs",
        "R",
        "--out",
        out.to_str().unwrap(),
    ]));
    let state: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(state["state"]["gems"], 1);
    assert_eq!(state["state"]["ticks"], 1);
    assert_eq!(
        state["map"][1],
        json!(["wall", {"token":"path","values":{"moved":1}}, {"token":"me","values":{"moved":1}}, "exit", "wall"])
    );
    // Loading the state and stepping once more enters the exit with the saved gem.
    let v = stdout_json(&tilesmith(&["run", out.to_str().unwrap(), "--inputs", "R"]));
    assert_eq!(v["status"], "won");
    assert_eq!(v["ticks"], 2);
}

#[test]
fn trace_reports_the_spec_line_example_positions() {
    // §4.5 line example 1 as a one-row level: matches start at columns 1 and 5.
    let mut row: Vec<Value> = [
        "path", "stone", "stone", "path", "path", "stone", "stone", "path", "stone", "path",
        "stone",
    ]
    .iter()
    .map(|t| json!(t))
    .collect();
    row.push(json!("me"));
    let level = json!({"name":"line","width":12,"height":1,"gems":[0,0,0],"ticks":[9,9,9],
        "pre":[{"name":"stones","situation":"any","direction":"east",
            "original":[{"token":"stone"},{"token":"stone"},{"token":"path"}],
            "result":[{"token":"gem"},{"token":"path"},{"token":"stone"}]}],
        "map":[row]});
    let f = write("line.json", &level);
    let o = tilesmith(&["run", f.to_str().unwrap(), "--ticks", "1", "--trace"]);
    assert!(o.status.success());
    let trace: Vec<Value> = String::from_utf8_lossy(&o.stderr)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        trace[0],
        json!({"tick":1,"phase":"pre","rule":0,"name":"stones","at":[[1,0],[5,0]]})
    );
    // No main rule moves anything on a one-row map with nothing to do, so nothing else fired.
    assert!(
        trace[1..]
            .iter()
            .all(|e| e["phase"].as_str().unwrap().starts_with("main:")),
        "{trace:?}"
    );
}

#[test]
fn trace_attributes_gravity_changes() {
    let level = json!({"name":"fall","width":3,"height":3,"gems":[0,0,0],"ticks":[9,9,9],
        "map":[["wall","stone","wall"],["wall","path","wall"],["me","mud","wall"]]});
    let f = write("fall.json", &level);
    let o = tilesmith(&["run", f.to_str().unwrap(), "--ticks", "1", "--trace"]);
    let trace: Vec<Value> = String::from_utf8_lossy(&o.stderr)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        trace,
        vec![json!({"tick":1,"phase":"main:gravity","changed":[[1,0],[1,1]]})]
    );
}

#[test]
fn replays_pass_and_a_changed_level_fails() {
    let f = write("corridor5.json", &corridor());
    let rec = tmp("corridor5.replay.json");
    stdout_json(&tilesmith(&[
        "run",
        f.to_str().unwrap(),
        "--inputs",
        "R R",
        "--record",
        rec.to_str().unwrap(),
    ]));
    let replay: Value = serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    assert_eq!(
        replay["level"], "corridor5.json",
        "the level path is relative to the replay"
    );
    assert_eq!(replay["expect"]["status"], "won");
    assert_eq!(
        tilesmith(&["run", "--replay", rec.to_str().unwrap()])
            .status
            .code(),
        Some(0)
    );
    // The designer changes the level: the gem moves, so the same inputs no longer win.
    let mut changed = corridor();
    changed["map"][1][2] = json!("path");
    changed["map"][2][2] = json!("wall");
    std::fs::write(&f, changed.to_string()).unwrap();
    let o = tilesmith(&["run", "--replay", rec.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("differs from the recorded one"));
    // `check` plays a replay too (a puzzle's intended solution lies beside its level), and
    // says the same: exit 1, the replay named at 1:1.
    let o = tilesmith(&["check", rec.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.starts_with(&format!("{}:1:1: the final state differs", rec.display())),
        "{out}"
    );
    // Put back, the level wins again: `check` of level and replay together is clean.
    std::fs::write(&f, corridor().to_string()).unwrap();
    let o = tilesmith(&["check", f.to_str().unwrap(), rec.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}

/// The boulder levels committed in `levels/boulder/` when this check was written. The test fails
/// when fewer are found, so a moved folder or a wrong path cannot make it pass with nothing
/// checked. Raise it when levels are added.
const BOULDER_LEVELS_AT_LEAST: usize = 6;

#[test]
fn the_engine_repository_levels_all_check_clean() {
    for kind in ["boulder", "pasta"] {
        every_file_checks_clean(kind);
    }
}

/// `tilesmith check levels/KIND/*.json` (the README's use) exits 0: for pasta the glob takes
/// the puzzles' intended replays beside them too, which `check` plays.
fn every_file_checks_clean(kind: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../levels")
        .join(kind);
    let files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|e| e.unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display())))
        .map(|e| e.path().display().to_string())
        .filter(|p| p.ends_with(".json"))
        .collect();
    assert!(
        files.len() >= BOULDER_LEVELS_AT_LEAST,
        "found {} level file(s) in {}, expected at least {BOULDER_LEVELS_AT_LEAST}: {files:?}",
        files.len(),
        dir.display()
    );
    let mut args = vec!["check"];
    args.extend(files.iter().map(String::as_str));
    let o = tilesmith(&args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
}

fn trace_of(name: &str, level: &Value, inputs: &str) -> Vec<Value> {
    let f = write(name, level);
    let o = tilesmith(&[
        "run",
        f.to_str().unwrap(),
        "--inputs",
        inputs,
        "--ticks",
        "1",
        "--trace",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stderr)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|e: &Value| e.get("rule").is_some_and(|r| !r.is_null()))
        .collect()
}

#[test]
fn trace_reports_the_spec_line_example_2_positions() {
    // §4.5 line example 2 (read east): matches at columns 0 and 4.
    let mut row: Vec<Value> = [
        "stone", "stone", "stone", "stone", "stone", "gem", "stone", "stone", "stone",
    ]
    .iter()
    .map(|t| json!(t))
    .collect();
    row.push(json!("me"));
    let level = json!({"name":"line2","width":10,"height":1,"gems":[0,0,0],"ticks":[9,9,9],
        "pre":[{"situation":"any","direction":"east",
            "original":[{"token":"stone"},{"token":["stone","gem"]},{"token":"stone"}],
            "result":[{"token":"gem"},{"token":"path"},{"token":"1"}]}],
        "map":[row]});
    let t = trace_of("line2.json", &level, ".");
    assert_eq!(
        t,
        vec![json!({"tick":1,"phase":"pre","rule":0,"name":null,"at":[[0,0],[4,0]]})]
    );
}

#[test]
fn trace_reports_the_spec_full_map_example_positions() {
    // §4.5 full-map example, its three rules as `pre` rules of one tick with input down:
    // rule 0 fires once where `me` is (1, 1); rule 1 (`*`) at all 12 fields; rule 2 (west,
    // stone then any) at the stones, read right to left: (1, 0) and (2, 1).
    let level = json!({"name":"full","width":4,"height":3,"gems":[0,0,0],"ticks":[9,9,9],
        "pre":[
            {"situation":"down","direction":"south","original":[{"token":"me"},{"token":["mud","path"]}],
             "result":[{"token":"path","values":{"moved":1}},{"token":"me","values":{"moved":1}}]},
            {"situation":"any","direction":"east","original":[{"token":"*"}],"result":[{"token":"0","values":{"moved":0}}]},
            {"situation":"any","direction":"west","original":[{"token":"stone"},{"token":"*"}],"result":[{"token":"1"},{"token":"0"}]}],
        "map":[["path","stone","path","path"],["path","me","stone","path"],["path","mud","mud","mud"]]});
    let t = trace_of("full.json", &level, "D");
    let all: Vec<Value> = (0..3)
        .flat_map(|y| (0..4).map(move |x| json!([x, y])))
        .collect();
    assert_eq!(
        t,
        vec![
            json!({"tick":1,"phase":"pre","rule":0,"name":null,"at":[[1,1]]}),
            json!({"tick":1,"phase":"pre","rule":1,"name":null,"at":all}),
            json!({"tick":1,"phase":"pre","rule":2,"name":null,"at":[[1,0],[2,1]]}),
        ]
    );
    // Without the down key the first rule does not fire.
    let t = trace_of("full2.json", &level, ".");
    assert_eq!(t[0]["rule"], 1);
}

/// me in a corridor of paths with room to walk.
fn hallway() -> Value {
    json!({"name":"hallway","width":8,"height":3,"gems":[0,0,0],"ticks":[90,90,90],
        "map":[["wall","wall","wall","wall","wall","wall","wall","wall"],
               ["wall","me","path","path","path","path","path","wall"],
               ["wall","wall","wall","wall","wall","wall","wall","wall"]]})
}

#[test]
fn a_repeat_count_is_the_word_repeated() {
    let f = write("hallway.json", &hallway());
    let f = f.to_str().unwrap();
    let (counted_state, spelled_state) = (tmp("counted.json"), tmp("spelled.json"));
    let counted = tilesmith(&[
        "run",
        f,
        "--inputs",
        "R*3 .",
        "--out",
        counted_state.to_str().unwrap(),
    ]);
    let spelled = tilesmith(&[
        "run",
        f,
        "--inputs",
        "R R R .",
        "--out",
        spelled_state.to_str().unwrap(),
    ]);
    assert_eq!(stdout_json(&counted), stdout_json(&spelled));
    assert_eq!(counted.stdout, spelled.stdout, "the same summary line");
    assert_eq!(stdout_json(&counted)["ticks"], 4);
    assert_eq!(
        std::fs::read(&counted_state).unwrap(),
        std::fs::read(&spelled_state).unwrap()
    );
    let state: Value =
        serde_json::from_str(&std::fs::read_to_string(&counted_state).unwrap()).unwrap();
    let cell = &state["map"][1][4];
    assert!(
        cell == "me" || cell["token"] == "me",
        "three steps right: {}",
        state["map"][1]
    );
    // A recorded run writes the run as a count, and replays.
    let rec = tmp("hallway.replay.json");
    stdout_json(&tilesmith(&[
        "run",
        f,
        "--inputs",
        "R R R R L",
        "--record",
        rec.to_str().unwrap(),
    ]));
    let replay: Value = serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    assert_eq!(replay["inputs"], "R*4 L");
    stdout_json(&tilesmith(&["run", "--replay", rec.to_str().unwrap()]));
}

#[test]
fn input_words_are_the_level_kinds() {
    let boulder = write("hallway2.json", &hallway());
    let baba = Path::new(env!("CARGO_MANIFEST_DIR")).join("../levels/baba/first-words.json");
    let run = |level: &Path, inputs: &str| {
        let o = tilesmith(&["run", level.to_str().unwrap(), "--inputs", inputs]);
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).trim().to_string(),
        )
    };
    assert_eq!(
        run(&boulder, "R Q"),
        (
            Some(1),
            "tilesmith: --inputs: word 2 \"Q\" is not a boulder input (use . L R U D ML MR MU MD)"
                .into()
        )
    );
    assert_eq!(
        run(&baba, "R ML"),
        (
            Some(1),
            "tilesmith: --inputs: word 2 \"ML\" is not a baba input (use . L R U D undo restart)"
                .into()
        )
    );
    let (code, err) = run(&boulder, "undo");
    assert_eq!(code, Some(1));
    assert!(
        err.contains("word 1 \"undo\" is not a boulder input"),
        "{err}"
    );
    let (code, err) = run(&boulder, "R*0");
    assert_eq!(code, Some(1));
    assert_eq!(
        err,
        "tilesmith: --inputs: word 1 \"R*0\" has a bad repeat count: the count must be at least 1"
    );
    // Baba's own words work on a baba level, counts included.
    let o = tilesmith(&[
        "run",
        baba.to_str().unwrap(),
        "--inputs",
        "R*2 undo*2 restart",
    ]);
    assert_eq!(stdout_json(&o)["turns"], 0);
}

/// A stone above the figure falls on it in the first tick.
fn doomed() -> Value {
    json!({"name":"doomed","width":5,"height":4,"gems":[0,0,0],"ticks":[1000,1000,1000],
        "map":[["wall","wall","wall","wall","wall"],["wall","stone","mud","exit","wall"],
               ["wall","path","mud","mud","wall"],["wall","me","wall","wall","wall"]]})
}

#[test]
fn the_out_file_of_a_lost_game_loads_again() {
    let f = write("doomed.json", &doomed());
    let out = tmp("doomed-state.json");
    let v = stdout_json(&tilesmith(&[
        "run",
        f.to_str().unwrap(),
        "--inputs",
        ". . .",
        "--out",
        out.to_str().unwrap(),
    ]));
    assert_eq!(v["status"], "lost", "{v}");
    let o = tilesmith(&["check", out.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "check: {}",
        String::from_utf8_lossy(&o.stdout)
    );
    let again = stdout_json(&tilesmith(&["run", out.to_str().unwrap(), "--inputs", "."]));
    assert_eq!(again["status"], "lost");
    assert_eq!(again["ticks"], v["ticks"], "a finished game does not go on");
}

/// Runs the binary, failing (instead of hanging) after 20 seconds.
fn tilesmith_within_time(args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tilesmith"))
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > std::time::Duration::from_secs(20) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("tilesmith {args:?} hangs");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// `check`, `run` and a replay of `path` fail at once with exit 1 and a message naming it.
fn refused(path: &Path) {
    let name = path.to_str().unwrap();
    for args in [vec!["check", name], vec!["run", name, "--inputs", "."]] {
        let o = tilesmith_within_time(&args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(text.contains(name), "{args:?}: {text}");
        assert!(text.contains("not a regular file"), "{args:?}: {text}");
    }
    let rec = tmp(&format!(
        "special-{}.replay.json",
        path.file_name().unwrap().to_string_lossy()
    ));
    std::fs::write(
        &rec,
        json!({"tilesmith": "replay", "version": 1, "level": name, "seed": 1, "inputs": "."})
            .to_string(),
    )
    .unwrap();
    let o = tilesmith_within_time(&["run", "--replay", rec.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(name) && err.contains("not a regular file"),
        "{err}"
    );
    // A replay file that is itself special is refused too.
    let o = tilesmith_within_time(&["run", "--replay", name]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(name) && err.contains("not a regular file"),
        "{err}"
    );
}

#[test]
fn only_regular_files_are_read() {
    let dir = tmp("a-directory.json");
    std::fs::create_dir_all(&dir).unwrap();
    refused(&dir);
    if Path::new("/dev/zero").exists() {
        refused(Path::new("/dev/zero"));
    }
    if cfg!(unix) {
        let fifo = tmp("a-pipe.json");
        let _ = std::fs::remove_file(&fifo);
        let made = Command::new("mkfifo").arg(&fifo).status();
        match made {
            Ok(s) if s.success() => refused(&fifo),
            _ => {
                let _ = std::io::Write::write_all(
                    &mut std::io::stderr(),
                    b"SKIPPED the named pipe case: mkfifo is not available\n",
                );
            }
        }
    } else {
        eprintln!("skipped the named pipe: not a Unix system");
    }
}

/// Issue #30 (bounded commands): a step count above the replay limit is refused before the
/// game starts (it ran until killed).
#[test]
fn run_refuses_more_ticks_than_a_replay_holds() {
    let level =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../levels/boulder/welcome.json");
    let start = std::time::Instant::now();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_tilesmith"))
        .args([
            "run",
            level.to_str().unwrap(),
            "--ticks",
            "18446744073709551615",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("--ticks 18446744073709551615: at most 1000000 steps"),
        "{err}"
    );
    assert!(o.stdout.is_empty(), "nothing played");
    assert!(start.elapsed() < std::time::Duration::from_secs(10));
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_tilesmith"))
        .args(["run", level.to_str().unwrap(), "--ticks", "1000001"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
}

/// A reader that goes away (`tilesmith playouts … | true`) stops the command quietly: exit 0
/// and no panic message, where `println!` used to panic with a backtrace. The pipe is closed
/// before the command (20 000 playouts, a good fraction of a second) has printed anything.
#[test]
fn a_closed_pipe_stops_quietly() {
    use std::process::Stdio;
    let ttt = Path::new(env!("CARGO_MANIFEST_DIR")).join("../levels/board/tic-tac-toe.zrf");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tilesmith"))
        .args(["playouts", ttt.to_str().unwrap(), "--count", "20000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(o.status.code(), Some(0), "{err}");
}

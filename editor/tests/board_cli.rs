//! The headless CLI on board games as a user runs it: `check`, `run` (moves read in their
//! position, the summary line, illegal words listing the legal ones, `--variant`,
//! `--record` and `--replay`) and `perft`, on the real ZRF files of
//! `../shared/corpus/board/` (read where they are, never copied) and on a tiny game written
//! here. Counts come from the corpus's `perft.json` or are worked out by hand.

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
    let dir = std::env::temp_dir().join(format!("tilesmith-board-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn corpus(name: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/corpus/board")
        .join(name);
    assert!(p.exists(), "the shared corpus is missing: {}", p.display());
    p.to_str().unwrap().to_string()
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn summary(o: &Output) -> Value {
    assert_eq!(o.status.code(), Some(0), "stderr: {}", err(o));
    assert_eq!(out(o).lines().count(), 1, "one line: {}", out(o));
    serde_json::from_str(out(o).trim()).unwrap()
}

fn published(game: &str, depth: u32) -> u64 {
    let v: Value =
        serde_json::from_str(&std::fs::read_to_string(corpus("perft.json")).unwrap()).unwrap();
    v[game][depth.to_string()].as_u64().unwrap()
}

/// A race on a 3×3 board (the same game as the engine's board seam tests): White's men on
/// a1 and b1 step north, Black's pawn on c3 steps south, nothing meets; the game is drawn
/// when the player to move cannot step. perft by hand: 2, 2, 4, 4, 6, then 0.
const TINY: &str = "(game (title \"Tiny\") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 50 50)
    (dimensions (\"a/b/c\" (50 0)) (\"3/2/1\" (0 50)))
    (directions (n 0 -1) (s 0 1))))
  (piece (name Man) (moves (n (verify empty?) add)))
  (piece (name Pawn) (moves (s (verify empty?) add)))
  (board-setup (White (Man a1 b1)) (Black (Pawn c3))))
";

fn tiny() -> PathBuf {
    let p = tmp("tiny.zrf");
    std::fs::write(&p, TINY).unwrap();
    p
}

#[test]
fn check_accepts_the_corpus_and_locates_zrf_errors() {
    for f in [
        "english-checkers.zrf",
        "chess.zrf",
        "halma.zrf",
        "lewthwaite.zrf",
    ] {
        let o = tilesmith(&["check", &corpus(f)]);
        assert_eq!(o.status.code(), Some(0), "{f}: {}", out(&o));
        // Warnings only, each at a line of the file itself.
        for l in out(&o).lines() {
            assert!(l.starts_with(&format!("{}:", corpus(f))), "{l}");
            assert!(l.contains(": warning: "), "{l}");
        }
    }
    let bad = tmp("bad.zrf");
    let text = TINY.replace("(Man a1 b1)", "(Kong a1 b1)");
    std::fs::write(&bad, &text).unwrap();
    let line = text.lines().position(|l| l.contains("Kong")).unwrap() + 1;
    let col = text.lines().nth(line - 1).unwrap().find("Kong").unwrap() + 1;
    let o = tilesmith(&["check", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let expected = format!("{}:{line}:{col}: ", bad.display());
    assert!(out(&o).starts_with(&expected), "{}", out(&o));
    // A JSON level that refers to it by a relative path reports at the ZRF file too.
    let level = tmp("uses-bad.json");
    std::fs::write(&level, r#"{"kind": "board", "rules": "bad.zrf"}"#).unwrap();
    let o = tilesmith(&["check", level.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(out(&o).starts_with(&expected), "{}", out(&o));
    // A rules file that is not there is a problem at the level's `rules`.
    std::fs::write(&level, "{\"kind\": \"board\",\n \"rules\": \"gone.zrf\"}").unwrap();
    let o = tilesmith(&["check", level.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        out(&o).starts_with(&format!(
            "{}:2:11: cannot read the rules file",
            level.display()
        )),
        "{}",
        out(&o)
    );
    assert!(out(&o).trim_end().ends_with("(at $.rules)"), "{}", out(&o));
}

#[test]
fn run_plays_moves_read_in_their_position() {
    let checkers = corpus("english-checkers.zrf");
    // Black moves first; after any first move White has its 7 opening moves.
    let v = summary(&tilesmith(&["run", &checkers, "--inputs", "c3-d4"]));
    assert_eq!(
        v,
        json!({"kind":"board","status":"running","ply":1,"to_move":"White","winner":null,"legal":7})
    );
    let o = tilesmith(&["run", &checkers, "--inputs", "c3-d4 c3-d4"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(out(&o), "", "no summary for a refused run");
    let e = err(&o);
    assert!(
        e.starts_with(
            "tilesmith: --inputs: word 2 \"c3-d4\" is not legal in this position (legal: "
        ),
        "{e}"
    );
    let legal: Vec<&str> = e
        .trim_end()
        .trim_end_matches(')')
        .rsplit("(legal: ")
        .next()
        .unwrap()
        .split(' ')
        .collect();
    assert_eq!(legal.len(), 7 + 2, "White's 7 moves, undo, restart: {e}");
    assert_eq!(legal[7..], ["undo", "restart"]);
    // Fool's mate: won by Black.
    let v = summary(&tilesmith(&[
        "run",
        &corpus("chess.zrf"),
        "--inputs",
        "f2-f3 e7-e5 g2-g4 d8-h4",
    ]));
    assert_eq!(
        v,
        json!({"kind":"board","status":"won","ply":4,"to_move":null,"winner":"Black","legal":0})
    );
    // Words past the end of the game are not played; undo plays after the end.
    let v = summary(&tilesmith(&[
        "run",
        &corpus("chess.zrf"),
        "--inputs",
        "f2-f3 e7-e5 g2-g4 d8-h4 undo",
    ]));
    assert_eq!(
        (v["status"].clone(), v["ply"].clone()),
        (json!("running"), json!(3))
    );
    // The tiny race to its draw, with a repeat count and upper-case words.
    let t = tiny();
    let v = summary(&tilesmith(&[
        "run",
        t.to_str().unwrap(),
        "--inputs",
        "A1-A2 c3-c2 a2-a3 c2-c1 b1-b2",
    ]));
    assert_eq!(
        v,
        json!({"kind":"board","status":"draw","ply":5,"to_move":null,"winner":null,"legal":0})
    );
    let o = tilesmith(&["run", t.to_str().unwrap(), "--inputs", "a1-a2*0"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("bad repeat count"), "{}", err(&o));
}

#[test]
fn variant_is_chosen_by_title_and_only_for_board_levels() {
    let checkers = corpus("english-checkers.zrf");
    let o = tilesmith(&["run", &checkers, "--variant", "no such game"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err(&o).contains("no variant \"no such game\""),
        "{}",
        err(&o)
    );
    assert!(err(&o).contains("\"English Checkers\""), "{}", err(&o));
    // The command line's error, not a place in the file.
    assert!(err(&o).starts_with("tilesmith: --variant: "), "{}", err(&o));
    assert!(!err(&o).contains("$.variant"), "{}", err(&o));
    // perft counts from depth 1: 0 is refused by the argument parser (exit 2).
    let o = tilesmith(&["perft", &checkers, "0"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    let v = summary(&tilesmith(&[
        "run",
        &checkers,
        "--variant",
        "english checkers",
    ]));
    assert_eq!(v["legal"], published("checkers_english", 1));
    let boulder = tmp("boulder.json");
    std::fs::write(
        &boulder,
        json!({"name":"b","width":3,"height":1,"gems":[0,0,0],"ticks":[9,9,9],
               "map":[["me","path","exit"]]})
        .to_string(),
    )
    .unwrap();
    let o = tilesmith(&["run", boulder.to_str().unwrap(), "--variant", "x"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err(&o).contains("--variant: boulder levels have no variants"),
        "{}",
        err(&o)
    );
}

#[test]
fn a_recorded_board_game_replays() {
    let rec = tmp("mate.replay.json");
    let chess = corpus("chess.zrf");
    summary(&tilesmith(&[
        "run",
        &chess,
        "--inputs",
        "F2-F3 e7-e5 g2-g4 d8-h4",
        "--record",
        rec.to_str().unwrap(),
    ]));
    let r: Value = serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    assert_eq!(
        r["inputs"], "f2-f3 e7-e5 g2-g4 d8-h4",
        "the words as written by the game"
    );
    assert_eq!(r["expect"]["status"], "won");
    assert_eq!(r["expect"]["summary"]["winner"], "Black");
    let v = summary(&tilesmith(&["run", "--replay", rec.to_str().unwrap()]));
    assert_eq!(v["winner"], "Black");
    // A replay whose word is illegal where it is played fails at its `inputs`.
    let mut bad = r.clone();
    bad["inputs"] = json!("f2-f3 e7-e5 g2-g4 d8-h5");
    std::fs::write(&rec, serde_json::to_string_pretty(&bad).unwrap()).unwrap();
    let o = tilesmith(&["run", "--replay", rec.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err(&o).contains("word 4 \"d8-h5\" is not legal in this position"),
        "{}",
        err(&o)
    );
    assert!(err(&o).contains("(at $.inputs)"), "{}", err(&o));
    // A variant chosen on the command line is recorded with the level embedded.
    let t = tiny();
    summary(&tilesmith(&[
        "run",
        t.to_str().unwrap(),
        "--variant",
        "Tiny",
        "--inputs",
        "b1-b2",
        "--record",
        rec.to_str().unwrap(),
    ]));
    let r: Value = serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    assert_eq!(r["level"]["variant"], "Tiny");
    assert_eq!(r["level"]["rules"]["zrf"], TINY);
    summary(&tilesmith(&["run", "--replay", rec.to_str().unwrap()]));
}

#[test]
fn the_out_file_of_a_board_game_loads_again() {
    let state = tmp("after.json");
    let chess = corpus("chess.zrf");
    summary(&tilesmith(&[
        "run",
        &chess,
        "--inputs",
        "e2-e4 a7-a6 e4-e5 d7-d5",
        "--out",
        state.to_str().unwrap(),
    ]));
    let o = tilesmith(&["check", state.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    // En passant is still there: the last move was saved with the position.
    let v = summary(&tilesmith(&[
        "run",
        state.to_str().unwrap(),
        "--inputs",
        "e5xd6",
    ]));
    assert_eq!(
        (v["ply"].clone(), v["to_move"].clone()),
        (json!(1), json!("Black"))
    );
}

#[test]
fn perft_prints_one_line_per_depth() {
    let o = tilesmith(&["perft", &corpus("english-checkers.zrf"), "5"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let expected: String = (1..=5)
        .map(|d| format!("{d} {}\n", published("checkers_english", d)))
        .collect();
    assert_eq!(out(&o), expected);
    let o = tilesmith(&["perft", &corpus("chess.zrf"), "3"]);
    let expected: String = (1..=3)
        .map(|d| format!("{d} {}\n", published("chess", d)))
        .collect();
    assert_eq!(out(&o), expected);
    // Ended games: none by default, one leaf each with --end-is-leaf.
    let t = tiny();
    let o = tilesmith(&["perft", t.to_str().unwrap(), "6"]);
    assert_eq!(out(&o), "1 2\n2 2\n3 4\n4 4\n5 6\n6 0\n");
    let o = tilesmith(&["perft", t.to_str().unwrap(), "6", "--end-is-leaf"]);
    assert_eq!(out(&o), "1 2\n2 2\n3 4\n4 4\n5 6\n6 6\n");
    // From a saved position: Black to mate in one (only Qh4#).
    let state = tmp("before-mate.json");
    summary(&tilesmith(&[
        "run",
        &corpus("chess.zrf"),
        "--inputs",
        "f2-f3 e7-e5 g2-g4",
        "--out",
        state.to_str().unwrap(),
    ]));
    let full = out(&tilesmith(&["perft", state.to_str().unwrap(), "2"]));
    let leaf = out(&tilesmith(&[
        "perft",
        state.to_str().unwrap(),
        "2",
        "--end-is-leaf",
    ]));
    let count = |s: &str| -> u64 { s.lines().nth(1).unwrap()[2..].parse().unwrap() };
    assert_eq!(count(&leaf), count(&full) + 1, "{full} / {leaf}");
    // Not a board game.
    let boulder = tmp("perft-boulder.json");
    std::fs::write(
        &boulder,
        json!({"name":"b","width":3,"height":1,"gems":[0,0,0],"ticks":[9,9,9],
               "map":[["me","path","exit"]]})
        .to_string(),
    )
    .unwrap();
    let o = tilesmith(&["perft", boulder.to_str().unwrap(), "1"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("boulder"), "{}", err(&o));
}

#[test]
fn a_runaway_move_block_stops_run_and_perft_with_exit_1() {
    let f = tmp("loop.zrf");
    let text = TINY.replace(
        "(piece (name Pawn) (moves (s (verify empty?) add)))",
        "(piece (name Pawn) (moves ((while true mark) add)))",
    );
    assert_ne!(text, TINY);
    std::fs::write(&f, &text).unwrap();
    let o = tilesmith(&["run", f.to_str().unwrap(), "--inputs", "a1-a2"]);
    assert_eq!(o.status.code(), Some(1));
    let v: Value = serde_json::from_str(out(&o).trim()).unwrap();
    assert_eq!(v["status"], "error", "the game stopped without a result");
    // The trace says how it ended: no winner, the error as the reason.
    let o2 = tilesmith(&["run", f.to_str().unwrap(), "--inputs", "a1-a2", "--trace"]);
    let end: Value = serde_json::from_str(err(&o2).lines().nth(1).unwrap()).unwrap();
    assert_eq!(
        (&end["ply"], &end["status"], &end["winner"]),
        (&json!(1), &json!("error"), &Value::Null)
    );
    // The reason is the error where it is written (the file's line and column).
    let reason = end["reason"].as_str().unwrap();
    assert!(
        reason.starts_with(&format!("{}:", f.display()))
            && reason.contains(": move generation failed: "),
        "{reason}"
    );
    // At the looping block in the ZRF file: its line, and the column of its `(`.
    let line = text.lines().position(|l| l.contains("while true")).unwrap() + 1;
    let col = text.lines().nth(line - 1).unwrap().find("((while").unwrap() + 1;
    let at = format!("{}:{line}:{col}: move generation failed: ", f.display());
    assert!(err(&o).starts_with(&at), "{at} / {}", err(&o));
    // A JSON level naming the file: still at the ZRF file's line.
    let level = tmp("loop-level.json");
    std::fs::write(
        &level,
        json!({"kind": "board", "rules": "loop.zrf"}).to_string(),
    )
    .unwrap();
    let o = tilesmith(&["run", level.to_str().unwrap(), "--inputs", "a1-a2"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).starts_with(&at), "{at} / {}", err(&o));
    // A word after the stop: the rules error first, at its place, then the word's error.
    let o = tilesmith(&["run", f.to_str().unwrap(), "--inputs", "a1-a2 b1-b2"]);
    assert_eq!(o.status.code(), Some(1));
    let stderr = err(&o);
    let lines: Vec<&str> = stderr.lines().collect();
    assert!(lines[0].starts_with(&at), "{at} / {}", err(&o));
    assert!(lines[1].contains("word 2 \"b1-b2\""), "{}", err(&o));
    // Recorded, the replay expects "error" (no result), and replays to it.
    let rec = tmp("loop-replay.json");
    let o = tilesmith(&[
        "run",
        f.to_str().unwrap(),
        "--inputs",
        "a1-a2",
        "--record",
        rec.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let r: Value = serde_json::from_str(&std::fs::read_to_string(&rec).unwrap()).unwrap();
    assert_eq!(r["expect"]["status"], "error");
    assert_eq!(r["expect"]["summary"]["status"], "error");
    let o = tilesmith(&["run", "--replay", rec.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "the game stops on its error");
    assert!(err(&o).starts_with(&at), "{at} / {}", err(&o));
    assert!(!err(&o).contains("differs"), "{}", err(&o));
    // White's first moves are counted; Black's are not: perft stops with the reason, at the
    // same place as `run` (`FILE:LINE:COL: message`, one line).
    let o = tilesmith(&["perft", f.to_str().unwrap(), "2"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(out(&o), "1 2\n");
    assert!(err(&o).starts_with(&at), "{at} / {}", err(&o));
    assert_eq!(err(&o).lines().count(), 1, "{}", err(&o));
    let o = tilesmith(&["perft", level.to_str().unwrap(), "2"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).starts_with(&at), "{at} / {}", err(&o));
    // Rules inline in the level: at the level's `rules.zrf` member, naming the rules' line.
    let inline = tmp("loop-inline.json");
    std::fs::write(
        &inline,
        json!({"kind": "board", "rules": {"zrf": text}}).to_string(),
    )
    .unwrap();
    let o = tilesmith(&["perft", inline.to_str().unwrap(), "2"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err(&o).starts_with(&format!("{}:1:", inline.display())),
        "{}",
        err(&o)
    );
    let what = format!(": rules line {line}, column {col}: move generation failed: ");
    assert!(err(&o).contains(&what), "{what} / {}", err(&o));
    assert!(
        err(&o).trim_end().ends_with("(at $.rules.zrf)"),
        "{}",
        err(&o)
    );
}

fn tic_tac_toe() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../levels/board/tic-tac-toe.zrf")
        .to_str()
        .unwrap()
        .to_string()
}

#[test]
fn trace_names_each_ply_its_mover_move_and_changed_positions() {
    // X takes column a in five plies (X a1 a2 a3, O b1 b2), then takes the last one back.
    let o = tilesmith(&[
        "run",
        &tic_tac_toe(),
        "--inputs",
        "@a1 @b1 @a2 @b2 @a3 undo",
        "--trace",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let lines: Vec<Value> = err(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // Each drop takes a man from the player's reserve (the file's setup: X off 5, O off 4).
    let drop = |ply: u32, player: &str, at: &str, left: u32| {
        json!({"ply": ply, "player": player, "move": format!("@{at}"),
               "changed": [{"at": at, "before": null, "after": format!("{player} Man")}],
               "reserve": [{"player": player, "piece": "Man", "before": left, "after": left - 1}]})
    };
    assert_eq!(
        lines,
        vec![
            drop(1, "X", "a1", 5),
            drop(2, "O", "b1", 4),
            drop(3, "X", "a2", 4),
            drop(4, "O", "b2", 3),
            drop(5, "X", "a3", 3),
            json!({"ply": 5, "status": "won", "winner": "X", "reason": null}),
            json!({"ply": 4, "event": "undo"}),
        ]
    );
    // Without --trace, stderr stays empty.
    let o = tilesmith(&["run", &tic_tac_toe(), "--inputs", "@a1"]);
    assert_eq!(err(&o), "");
}

#[test]
fn trace_of_a_jump_shows_the_mover_leaving_the_capture_and_the_landing() {
    // English checkers, Black (ranks 1-3) first: c3-d4, White answers f6-e5, and Black must
    // jump d4 over e5 to f6, the square White just left.
    let o = tilesmith(&[
        "run",
        &corpus("english-checkers.zrf"),
        "--inputs",
        "c3-d4 f6-e5 d4xf6",
        "--trace",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let last: Value = serde_json::from_str(err(&o).lines().nth(2).unwrap()).unwrap();
    assert_eq!(
        (&last["ply"], &last["player"], &last["move"]),
        (&json!(3), &json!("Black"), &json!("d4xf6"))
    );
    let mut changed = last["changed"].as_array().unwrap().clone();
    changed.sort_by_key(|c| c["at"].as_str().unwrap().to_string());
    assert_eq!(
        changed,
        vec![
            json!({"at": "d4", "before": "Black Man", "after": null}),
            json!({"at": "e5", "before": "White Man", "after": null}),
            json!({"at": "f6", "before": null, "after": "Black Man"}),
        ]
    );
    assert_eq!(err(&o).lines().count(), 3, "no end line: the game goes on");
}

#[test]
fn trace_shows_attributes_that_change() {
    // Spores (levels/board/spores.zrf): a Spore that jumps two squares lands guarded and
    // leaves a Husk; a guarded enemy Spore next to where it lands loses its guard. White's
    // b6-b4 lands next to Black's guarded Spore on c3 (it jumped there on ply 1).
    let spores = Path::new(env!("CARGO_MANIFEST_DIR")).join("../levels/board/spores.zrf");
    let o = tilesmith(&[
        "run",
        spores.to_str().unwrap(),
        "--inputs",
        "a1-c3 a7-b6 g7-f6 b6-b4",
        "--trace",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let lines: Vec<Value> = err(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut first = lines[0]["changed"].as_array().unwrap().clone();
    first.sort_by_key(|c| c["at"].as_str().unwrap().to_string());
    assert_eq!(
        first,
        vec![
            json!({"at": "a1", "before": "Black Spore", "after": "Black Husk"}),
            json!({"at": "c3", "before": null, "after": "Black Spore [guarded]"}),
        ]
    );
    let c3 = lines[3]["changed"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["at"] == "c3")
        .cloned();
    assert_eq!(
        c3,
        Some(json!({"at": "c3", "before": "Black Spore [guarded]", "after": "Black Spore"}))
    );
}

#[test]
fn ticks_limits_the_plies_and_refuses_steps_without_a_move() {
    let v = summary(&tilesmith(&[
        "run",
        &tic_tac_toe(),
        "--inputs",
        "@a1 @b1 @a2 @b2 @a3",
        "--ticks",
        "2",
    ]));
    assert_eq!(
        (v["ply"].clone(), v["status"].clone()),
        (json!(2), json!("running"))
    );
    let o = tilesmith(&["run", &tic_tac_toe(), "--inputs", "@a1 @b1", "--ticks", "3"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(out(&o), "");
    assert_eq!(
        err(&o),
        "tilesmith: --ticks 3: a board game steps only by a move, and --inputs gives 2\n"
    );
}

#[test]
fn a_replay_traces_and_writes_its_final_state() {
    // Record a tic-tac-toe game X wins on ply 5, then replay it with --trace and --out.
    let rec = tmp("ttt-replay.json");
    let o = tilesmith(&[
        "run",
        &tic_tac_toe(),
        "--inputs",
        "@a1 @b1 @a2 @b2 @a3",
        "--record",
        rec.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let out_file = tmp("ttt-final.json");
    let o = tilesmith(&[
        "run",
        "--replay",
        rec.to_str().unwrap(),
        "--trace",
        "--out",
        out_file.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    // Five plies and the end line.
    let lines: Vec<Value> = err(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 6, "{}", err(&o));
    assert_eq!(lines[4]["move"], "@a3");
    assert_eq!(lines[5]["winner"], "X");
    // The final position: X on a1 a2 a3, O on b1 b2; it loads and is over.
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&out_file).unwrap()).unwrap();
    let mut x: Vec<String> = serde_json::from_value(v["setup"]["X"]["Man"].clone()).unwrap();
    x.sort();
    assert_eq!(x, ["a1", "a2", "a3"]);
    let s = summary(&tilesmith(&["run", out_file.to_str().unwrap()]));
    assert_eq!(s["status"], "won");
    // --record with --replay is refused (a replay is already a record).
    let o = tilesmith(&[
        "run",
        "--replay",
        rec.to_str().unwrap(),
        "--record",
        tmp("again.json").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(!tmp("again.json").exists());
}

#[test]
fn run_refuses_a_word_after_the_end() {
    let ttt = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../levels/board/tic-tac-toe.zrf")
        .to_str()
        .unwrap()
        .to_string();
    // X takes column a with word 5; word 6 comes after the end.
    let o = tilesmith(&["run", &ttt, "--inputs", "@a1 @b1 @a2 @b2 @a3 bogus"]);
    assert_eq!(o.status.code(), Some(1), "stdout: {}", out(&o));
    assert_eq!(out(&o), "", "no summary for a refused run");
    assert_eq!(
        err(&o),
        "tilesmith: --inputs: word 6 \"bogus\" comes after the end: the game is over (only undo and restart act then)\n"
    );
    // Without it the game is won; undo after the end still acts.
    let v = summary(&tilesmith(&[
        "run",
        &ttt,
        "--inputs",
        "@a1 @b1 @a2 @b2 @a3",
    ]));
    assert_eq!(v["status"], "won");
    let v = summary(&tilesmith(&[
        "run",
        &ttt,
        "--inputs",
        "@a1 @b1 @a2 @b2 @a3 undo",
    ]));
    assert_eq!(v["status"], "running");
    // A repeated word names the repetition that failed.
    let checkers = corpus("english-checkers.zrf");
    let o = tilesmith(&["run", &checkers, "--inputs", "c3-d4 f6-e5*2"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err(&o).starts_with(
            "tilesmith: --inputs: word 2 \"f6-e5*2\", repeat 2 of 2, is not legal here (legal: "
        ),
        "{}",
        err(&o)
    );
}

#[test]
fn run_says_on_stderr_when_the_variant_played_is_not_quite_the_files() {
    // Laska's "columns-checkers-extension" stood for JavaScript (corpus README): `run` plays
    // checkers on the Laska board and must say so, at the option's line, as `check` does.
    let checkers = corpus("english-checkers.zrf");
    let o = tilesmith(&["run", &checkers, "--variant", "Laska", "--inputs", "c3-d4"]);
    assert_eq!(o.status.code(), Some(0));
    let e = err(&o);
    assert!(
        e.contains("english-checkers.zrf:106:3: warning: option \"columns-checkers-extension\""),
        "{e}"
    );
    // The file's own English Checkers has no such option: nothing on stderr.
    let o = tilesmith(&["run", &checkers, "--inputs", "c3-d4"]);
    assert_eq!(err(&o), "");
    // Chess without its JavaScript: castling rights are not kept, and the run says so.
    let o = tilesmith(&["run", &corpus("chess.zrf"), "--inputs", "e2-e4"]);
    assert!(err(&o).contains("chess.zrf:82:3: warning: option \"chess invariant\""));
}

/// Issue #31 defect 8: a `)` missing at the end of `(players X O` (line 25 of the shipped
/// tic-tac-toe) is reported at line 25, naming the outer list (`(game` at line 21) that the
/// count alone finds open; it was reported at 21:1 only.
#[test]
fn an_unclosed_list_is_reported_where_its_paren_is_missing() {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../levels/board/tic-tac-toe.zrf"),
    )
    .unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[24], "  (players X O)", "line 25 of the shipped file");
    let broken = text.replacen("  (players X O)\n", "  (players X O\n", 1);
    let f = tmp("syntax.zrf");
    std::fs::write(&f, broken).unwrap();
    let o = tilesmith(&["check", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let e = err(&o) + &out(&o);
    assert!(
        e.contains("syntax.zrf:25:3: '(' is probably never closed: line 26"),
        "{e}"
    );
    assert!(e.contains("the list opened at 21:1"), "{e}");
    // One problem, at the missing paren (not a second one at the outer list).
    assert_eq!(e.matches("syntax.zrf:").count(), 1, "{e}");
}

#[test]
fn perft_stops_at_its_time_limit_with_the_completed_depths_and_exit_3() {
    // Chess to depth 14 is far beyond a second (depth 6 alone is 119 million sequences): the
    // run stops at --time 1, having printed the depths it completed, each the published count.
    let start = std::time::Instant::now();
    let o = tilesmith(&["perft", &corpus("chess.zrf"), "14", "--time", "1"]);
    let wall = start.elapsed();
    assert_eq!(o.status.code(), Some(3), "{}", err(&o));
    let lines: Vec<String> = out(&o).lines().map(str::to_string).collect();
    assert!(lines.len() < 6, "{lines:?}");
    for (i, l) in lines.iter().enumerate() {
        let d = i as u32 + 1;
        assert_eq!(l, &format!("{d} {}", published("chess", d)));
    }
    let next = lines.len() + 1;
    let done = match lines.len() {
        0 => "no depth is complete".to_string(),
        1 => "depth 1 is complete".to_string(),
        n => format!("depths 1 to {n} are complete"),
    };
    assert!(
        err(&o).contains(&format!(
            "time limit of 1 s ran out while counting depth {next}; {done}"
        )),
        "{}",
        err(&o)
    );
    // Loading the rules is not part of the limit; generous for a loaded machine.
    assert!(wall.as_secs_f64() < 20.0, "{wall:?}");
    // A time of 0 or below is refused by the argument parser.
    let o = tilesmith(&["perft", &corpus("chess.zrf"), "1", "--time", "0"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
}

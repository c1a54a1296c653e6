//! `tilesmith solve`, `playouts` and `match` as a user runs them (issue #29, #28): one JSON
//! line each, the exit codes (0 solved or proved, 1 an error, 2 unsolvable, 3 unknown), a
//! recorded solution that `run --replay` plays to a win. Facts worked out by hand or
//! published: tic-tac-toe is a draw and has 5 478 positions; X to win in one plays c3; the
//! baba level below takes 8 moves; a walled-in figure without an exit is dead at once (no
//! way to an exit: one state); uniformly random tic-tac-toe games last 7.626 moves on
//! average (the exact mean, by summing over the game tree); a pasta Bug at blue's last life
//! is red's win in one decision. `--all`, `--intended`, `--from` and `--witness` on levels
//! small enough to count their solutions and dead steps by hand (each test says how).

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn tilesmith(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tilesmith"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tilesmith-solve-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn level(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(path)
        .to_str()
        .unwrap()
        .to_string()
}

/// The one line of stdout as JSON, after checking the exit code.
fn line(o: &Output, code: i32) -> Value {
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(code),
        "stdout: {out} stderr: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(out.lines().count(), 1, "one line: {out}");
    serde_json::from_str(out.trim()).unwrap()
}

#[test]
fn tic_tac_toe_is_a_draw_with_5478_positions() {
    let ttt = level("levels/board/tic-tac-toe.zrf");
    let v = line(&tilesmith(&["solve", &ttt]), 0);
    assert_eq!(v["kind"], "board");
    assert_eq!(v["result"], "draw");
    assert_eq!(v["for"], "X");
    assert_eq!(v["plies"], 9);
    assert_eq!(v["pv"].as_str().unwrap().split(' ').count(), 9);
    let v = line(&tilesmith(&["solve", &ttt, "--exhaustive"]), 0);
    assert_eq!(
        (v["result"].as_str(), v["states"].as_u64()),
        (Some("explored"), Some(5478))
    );
    // Within 4 plies nothing is decided: unknown, exit 3.
    let v = line(&tilesmith(&["solve", &ttt, "--max-steps", "4"]), 3);
    assert_eq!(v["result"], "unknown");
    let win = level("levels/board/tic-tac-toe-x-to-win.json");
    let v = line(&tilesmith(&["solve", &win]), 0);
    assert_eq!(
        (v["result"].as_str(), v["plies"].as_u64()),
        (Some("win"), Some(1))
    );
    assert_eq!(v["pv"], "@c3");
}

const BABA: &str = r#"{"kind": "baba", "name": "By hand", "width": 6, "height": 4, "map": [
  ["text_baba", "text_is", "text_you", null, null, null],
  [null, null, null, null, null, null],
  ["baba", null, null, null, null, null],
  ["text_flag", "text_is", null, "flag", "text_win", null]]}"#;

#[test]
fn a_solution_is_recorded_and_replayed_to_a_win() {
    // Baba walks to the right of WIN (5 right, 1 down) and pushes it left twice onto the
    // flag's row position, completing FLAG IS WIN while standing on the flag.
    let file = tmp("by-hand.json");
    std::fs::write(&file, BABA).unwrap();
    let rec = tmp("by-hand.replay.json");
    let v = line(
        &tilesmith(&[
            "solve",
            file.to_str().unwrap(),
            "--record",
            rec.to_str().unwrap(),
        ]),
        0,
    );
    assert_eq!(v["result"], "solved");
    assert_eq!(v["steps"], 8);
    assert_eq!(v["shortest"], true);
    assert_eq!(v["solution"], "R R R R R D L L");
    let run = line(&tilesmith(&["run", "--replay", rec.to_str().unwrap()]), 0);
    assert_eq!(run["status"], "won");
    let run = line(
        &tilesmith(&["run", file.to_str().unwrap(), "--inputs", "R R R R R D L L"]),
        0,
    );
    assert_eq!(run["status"], "won");
    // A step bound below 8: unknown (exit 3), with what was explored.
    let v = line(
        &tilesmith(&["solve", file.to_str().unwrap(), "--max-steps", "7"]),
        3,
    );
    assert_eq!(
        (v["result"].as_str(), v["budget"].as_str()),
        (Some("unknown"), Some("steps"))
    );
    assert!(v["states"].as_u64().unwrap() > 1);
}

/// `--algorithm`: the baba level above (no estimate: breadth-first by default) solved by A*
/// and IDA* too, the same 8 moves, each proved shortest (without an estimate A* and IDA*
/// order by moves made); `--all` counts by breadth-first search only.
#[test]
fn the_algorithm_is_chosen_and_named() {
    let file = tmp("by-hand-algorithms.json");
    std::fs::write(&file, BABA).unwrap();
    let f = file.to_str().unwrap();
    let v = line(&tilesmith(&["solve", f]), 0);
    assert_eq!(v["algorithm"], "bfs");
    for algorithm in ["astar", "ida", "bfs"] {
        let v = line(&tilesmith(&["solve", f, "--algorithm", algorithm]), 0);
        assert_eq!(v["algorithm"], algorithm);
        assert_eq!(
            (v["steps"].as_u64(), v["shortest"].as_bool()),
            (Some(8), Some(true))
        );
    }
    let o = tilesmith(&["solve", f, "--all", "--algorithm", "ida"]);
    assert_eq!(o.status.code(), Some(1));
    let o = tilesmith(&["solve", f, "--algorithm", "dijkstra"]);
    assert_eq!(o.status.code(), Some(2), "a usage error");
}

#[test]
fn unsolvable_and_errors_have_their_exit_codes() {
    let file = tmp("box.json");
    std::fs::write(
        &file,
        r#"{"kind":"boulder","name":"Box","width":3,"height":3,"gems":[1,1,1],"ticks":[2,2,2],
           "map":[["wall","wall","wall"],["wall","me","wall"],["wall","wall","wall"]]}"#,
    )
    .unwrap();
    // No exit: the kind's dead test (no way from the figure to an exit) proves it at the
    // start, one state (before boulder had one: ticks 0-2 and the lost tick 3, four states).
    let v = line(&tilesmith(&["solve", file.to_str().unwrap()]), 2);
    assert_eq!(
        (v["result"].as_str(), v["states"].as_u64()),
        (Some("unsolvable"), Some(1))
    );
    // A file that is not there, and a bad time: exit 1 with a message.
    let o = tilesmith(&["solve", tmp("missing.json").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let o = tilesmith(&["solve", file.to_str().unwrap(), "--time=-1"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--time"));
}

#[test]
fn a_time_budget_gives_unknown() {
    let v = line(
        &tilesmith(&[
            "solve",
            &level("levels/baba/spell-win.json"),
            "--time",
            "0.2",
        ]),
        3,
    );
    assert_eq!(
        (v["result"].as_str(), v["budget"].as_str()),
        (Some("unknown"), Some("time"))
    );
}

#[test]
fn playouts_and_matches_print_their_lines() {
    let ttt = level("levels/board/tic-tac-toe.zrf");
    let v = line(
        &tilesmith(&["playouts", &ttt, "--count", "2000", "--seed", "5"]),
        0,
    );
    assert_eq!(v["playouts"], 2000);
    let mean = v["plies"].as_f64().unwrap() / 2000.0;
    // 2 000 games: the standard error of the mean is about 0.025 moves.
    assert!((7.5..7.75).contains(&mean), "{mean} moves a random game");
    // The same seed, the same games.
    let again = line(
        &tilesmith(&["playouts", &ttt, "--count", "2000", "--seed", "5"]),
        0,
    );
    assert_eq!(again["plies"], v["plies"]);
    let m = line(
        &tilesmith(&[
            "match",
            &ttt,
            "--players",
            "flat-mc:30,random",
            "--games",
            "20",
            "--seed",
            "1",
        ]),
        0,
    );
    let wins: Vec<u64> = m["wins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_u64().unwrap())
        .collect();
    assert_eq!(wins.iter().sum::<u64>() + m["draws"].as_u64().unwrap(), 20);
    assert!(wins[0] >= 15 && wins[1] <= 3, "{m}");
    // A match needs two players named and a game of two players.
    let o = tilesmith(&["match", &ttt, "--players", "random"]);
    assert_eq!(o.status.code(), Some(1));
    let o = tilesmith(&["match", &ttt, "--players", "random,wizard"]);
    assert_eq!(o.status.code(), Some(1));
    let o = tilesmith(&[
        "match",
        &level("levels/baba/first-words.json"),
        "--players",
        "random,random",
    ]);
    assert_eq!(o.status.code(), Some(1));
}

/// Pasta Logic (issue #28 "solve"): red's Bug under the cursor and blue's life 1, so red's
/// `do` takes blue to 0 (W1): a win in one decision for red, principal variation `do`.
/// A match of random players on a drawn setup (placement included) plays its 10 games.
#[test]
fn pasta_is_solved_and_matched() {
    let path = tmp("pasta-win-in-one.json");
    std::fs::write(
        &path,
        r#"{"kind": "pasta", "cards": ["Bug", "ForkBomb", "Debug", "TradeOff", "Reverse",
  "AddFlag", "MoveFlag", "Rotate"], "flags": [["red"], [], [], [], [], ["blue"], [], []],
  "cursor": 0, "life": {"red": 5, "blue": 1}}"#,
    )
    .unwrap();
    let p = path.to_str().unwrap();
    let v = line(&tilesmith(&["solve", p]), 0);
    assert_eq!(v["kind"], "pasta");
    assert_eq!(v["result"], "win");
    assert_eq!(v["for"], "red");
    assert_eq!(v["plies"], 1);
    assert_eq!(v["pv"], "do");
    let drawn = tmp("pasta-drawn.json");
    std::fs::write(&drawn, r#"{"kind": "pasta"}"#).unwrap();
    for level in [p, drawn.to_str().unwrap()] {
        let m = line(
            &tilesmith(&[
                "match",
                level,
                "--players",
                "random,random",
                "--games",
                "10",
                "--seed",
                "1",
            ]),
            0,
        );
        assert_eq!(m["games"], 10);
        let wins: u64 = m["wins"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_u64().unwrap())
            .sum();
        assert_eq!(wins + m["draws"].as_u64().unwrap(), 10, "{m}");
    }
}

#[test]
fn match_swaps_colours_every_other_game() {
    // Red wins at once whoever plays it: red's flag is on Bug under the cursor and blue has
    // 1 life, so `do` wins (W1); any search finds it, and skipping would only hand the game
    // to an idle lap. So game i is won by whoever plays red: the first player in games 0
    // and 2, the second in games 1 and 3 (issue #28: colours swap every other game). Without
    // the swap it would be [4, 0].
    let file = tmp("red-wins-at-once.json");
    std::fs::write(
        &file,
        r#"{"kind": "pasta", "cards": ["Bug", "Debug", "Rotate", "Reverse", "AddFlag"],
            "flags": [["red"], [], [], [], []], "life": {"red": 5, "blue": 1}}"#,
    )
    .unwrap();
    let o = tilesmith(&[
        "match",
        file.to_str().unwrap(),
        "--players",
        "flat-mc:5,flat-mc:5",
        "--games",
        "4",
        "--seed",
        "3",
    ]);
    let v = line(&o, 0);
    assert_eq!(v["games"], 4);
    assert_eq!(v["wins"], serde_json::json!([2, 2]), "{v}");
    assert_eq!(v["draws"], 0, "{v}");
}

/// Game `i` of a match uses seed `S + i` (issue #28): a match of 6 games from seed 40 is the
/// six one-game matches from seeds 40..46 put together, the odd ones with the colours swapped
/// (both players are `random` and draw from the game's one generator, so a game plays the
/// same whoever sits where; only whose win it is swaps). The level has no program, so each
/// seed also draws its own setup (spec §4). The one-game outcomes must not all be alike, or
/// a match that reused one seed would pass too.
#[test]
fn match_game_i_uses_seed_s_plus_i() {
    let file = tmp("drawn-setup.json");
    std::fs::write(&file, r#"{"kind": "pasta", "name": "drawn"}"#).unwrap();
    let f = file.to_str().unwrap();
    let one = |seed: u64| {
        let v = line(
            &tilesmith(&[
                "match",
                f,
                "--players",
                "random,random",
                "--games",
                "1",
                "--seed",
                &seed.to_string(),
            ]),
            0,
        );
        let w = |k: usize| v["wins"][k].as_u64().unwrap();
        [w(0), w(1), v["draws"].as_u64().unwrap()]
    };
    let outcomes: Vec<[u64; 3]> = (40..46).map(one).collect();
    assert!(
        outcomes.iter().any(|o| *o != outcomes[0]),
        "seeds 40..46 all gave {:?}: pick other seeds",
        outcomes[0]
    );
    let mut expect = [0u64; 3];
    for (i, o) in outcomes.iter().enumerate() {
        let (a, b) = if i % 2 == 1 {
            (o[1], o[0])
        } else {
            (o[0], o[1])
        };
        expect[0] += a;
        expect[1] += b;
        expect[2] += o[2];
    }
    let v = line(
        &tilesmith(&[
            "match",
            f,
            "--players",
            "random,random",
            "--games",
            "6",
            "--seed",
            "40",
        ]),
        0,
    );
    assert_eq!(
        v["wins"],
        serde_json::json!([expect[0], expect[1]]),
        "{v} {outcomes:?}"
    );
    assert_eq!(v["draws"], expect[2], "{v}");
}

/// A game that never ends (two pieces shuttling on a 2 × 2 board, a win needing four pieces
/// where there are two) is stopped after 1000 plies (`MAX_GAME_PLIES`): counted as a draw in
/// the match line, and said on standard error, so that no draw the rules never produced goes
/// unnoticed.
#[test]
fn a_game_that_never_ends_is_counted_as_a_draw_and_said() {
    let file = tmp("shuttle.zrf");
    std::fs::write(
        &file,
        "(game (title \"Shuttle\") (players X O) (turn-order X O)
           (board (grid (start-rectangle 0 0 100 100)
             (dimensions (\"a/b\" (100 0)) (\"2/1\" (0 100)))
             (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0))))
           (piece (name Man) (moves (n (verify empty?) add) (e (verify empty?) add)
                                    (s (verify empty?) add) (w (verify empty?) add)))
           (board-setup (X (Man a1)) (O (Man b2)))
           (win-condition (X O) (absolute-config Man (a1 a2 b1 b2))))",
    )
    .unwrap();
    let o = tilesmith(&[
        "match",
        file.to_str().unwrap(),
        "--players",
        "random,random",
        "--games",
        "3",
    ]);
    let v = line(&o, 0);
    assert_eq!(v["wins"], serde_json::json!([0, 0]), "{v}");
    assert_eq!(v["draws"], 3, "{v}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("3 game(s) still running after 1000 plies were counted as draws"),
        "{err}"
    );
}

/// `tilesmith solve` itself (not only the function it calls) proves each shipped pasta
/// puzzle: red wins, in as many decisions as its intended replay has words (the puzzle's
/// "within N"; `tests/tests/pasta_puzzles.rs` proves that no shorter win exists).
#[test]
fn the_solve_command_proves_each_shipped_puzzle() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../levels/pasta");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if !name.starts_with("puzzle-") || name.ends_with(".replay.json") {
            continue;
        }
        let replay: Value = serde_json::from_str(
            &std::fs::read_to_string(path.with_extension("intended.replay.json")).unwrap(),
        )
        .unwrap();
        // Words, `WORD*N` standing for N of them.
        let decisions: usize = replay["inputs"]
            .as_str()
            .unwrap()
            .split_whitespace()
            .map(|w| w.rsplit_once('*').map_or(1, |(_, n)| n.parse().unwrap()))
            .sum();
        let v = line(&tilesmith(&["solve", path.to_str().unwrap()]), 0);
        assert_eq!(v["result"], "win", "{name}: {v}");
        assert_eq!(v["for"], "red", "{name}: {v}");
        assert_eq!(v["plies"], decisions as u64, "{name}: {v}");
        // The intended replay beside the puzzle is read without --intended: it wins for red,
        // and no faster win exists.
        let i = &v["intended"];
        assert_eq!(i["steps"], decisions as u64, "{name}: {v}");
        assert_eq!(
            (i["wins"].as_bool(), i["shortcut"].as_bool()),
            (Some(true), Some(false))
        );
        assert_eq!(i["shorter_by"], 0, "{name}: {v}");
        n += 1;
    }
    assert_eq!(n, 9, "the nine shipped puzzles");
}

/// A level file in the test's folder.
fn write(name: &str, text: &str) -> String {
    let f = tmp(name);
    std::fs::write(&f, text).unwrap();
    f.to_str().unwrap().to_string()
}

/// A replay of `level` (a path) with these input words.
fn replay(name: &str, level: &str, inputs: &str) -> String {
    let v = serde_json::json!({"tilesmith": "replay", "level": level, "inputs": inputs});
    write(name, &v.to_string())
}

/// BABA IS YOU and FLAG IS WIN in the top rows; baba at (0,2), the flag two columns right
/// and one row down (2,3); the map's edges stop every move out of it, and a text pushed
/// into an edge does not move. `BOTTOM_LEFT` is the cell (0,3).
fn corner(bottom_left: &str) -> String {
    format!(
        r#"{{"kind": "baba", "name": "Corner", "width": 3, "height": 4, "map": [
  ["text_baba", "text_is", "text_you"],
  ["text_flag", "text_is", "text_win"],
  ["baba", null, null],
  [{bottom_left}, null, "flag"]]}}"#
    )
}

#[test]
fn all_counts_the_shortest_solutions_and_where_they_part() {
    // Baba needs two steps right and one down, in any order: R R D, R D R and D R R, each
    // through other cells, so three solutions as sequences of states, parting at step 1
    // (R or D). Up pushes the FLAG IS WIN column into the BABA IS YOU one and the top edge:
    // nothing moves, so no longer path is shorter.
    let three = write("corner-three.json", &corner("null"));
    let v = line(&tilesmith(&["solve", &three, "--all"]), 0);
    assert_eq!(v["steps"], 3, "{v}");
    assert_eq!(v["solutions"], 3, "{v}");
    assert_eq!(v["unique"], false, "{v}");
    assert_eq!(v["differ_at"], 1, "{v}");
    assert_eq!(v["solutions_capped"], false, "{v}");
    // A WIN text in the bottom-left corner: down from the start would push it out of the
    // map, so nothing moves. R R D and R D R remain, both at (1,2) after step 1: two
    // solutions, parting at step 2.
    let two = write("corner-two.json", &corner("\"text_win\""));
    let v = line(&tilesmith(&["solve", &two, "--all"]), 0);
    assert_eq!(
        (v["solutions"].as_u64(), v["differ_at"].as_u64()),
        (Some(2), Some(2)),
        "{v}"
    );
    assert_eq!(v["unique"], false, "{v}");
    // The flag two cells right on baba's row: R R is the only path of two steps.
    let one = write(
        "corner-one.json",
        &corner("null").replace(r#"["baba", null, null]"#, r#"["baba", null, "flag"]"#),
    );
    let v = line(&tilesmith(&["solve", &one, "--all"]), 0);
    assert_eq!(
        (v["steps"].as_u64(), v["solutions"].as_u64()),
        (Some(2), Some(1)),
        "{v}"
    );
    assert_eq!(v["unique"], true, "{v}");
    assert_eq!(v["differ_at"], Value::Null, "{v}");
    // Without --all, no count.
    let v = line(&tilesmith(&["solve", &three]), 0);
    assert!(v.get("solutions").is_none(), "{v}");
    // Two players: refused.
    let ttt = level("levels/board/tic-tac-toe.zrf");
    assert_eq!(tilesmith(&["solve", &ttt, "--all"]).status.code(), Some(1));
}

#[test]
fn intended_says_whether_a_shorter_solution_leaves_it() {
    let three = write("intended-three.json", &corner("null"));
    // R D L R R wins in 5 (right, down, left along the bottom row, then right twice onto
    // the flag). The solution found, R R D (3 steps), is at (1,2) after step 1 as the
    // intended line, and at (2,2) instead of (1,3) after step 2.
    let long = replay("intended-long.replay.json", &three, "R D L R R");
    let v = line(&tilesmith(&["solve", &three, "--intended", &long]), 0);
    assert_eq!(
        v["intended"],
        serde_json::json!({"steps": 5, "wins": true, "shortcut": true, "shorter_by": 2,
                           "leaves_at": 2}),
        "{v}"
    );
    // R D R is as short: no shortcut; it still leaves the solution found at step 2.
    let short = replay("intended-short.replay.json", &three, "R D R");
    let v = line(&tilesmith(&["solve", &three, "--intended", &short]), 0);
    assert_eq!(v["intended"]["shortcut"], false, "{v}");
    assert_eq!(v["intended"]["shorter_by"], 0, "{v}");
    assert_eq!(v["intended"]["leaves_at"], 2, "{v}");
    // A play that does not win: wins false.
    let stop = replay("intended-stop.replay.json", &three, "R R");
    let v = line(&tilesmith(&["solve", &three, "--intended", &stop]), 0);
    assert_eq!(v["intended"]["wins"], false, "{v}");
    // The level's own NAME.intended.replay.json is read without --intended.
    std::fs::copy(&long, tmp("intended-three.intended.replay.json")).unwrap();
    let v = line(&tilesmith(&["solve", &three]), 0);
    assert_eq!(v["intended"]["shorter_by"], 2, "{v}");
    // A replay of another level: an error.
    let other = write("intended-other.json", &corner("\"text_win\""));
    assert_eq!(
        tilesmith(&["solve", &other, "--intended", &long])
            .status
            .code(),
        Some(1)
    );
}

#[test]
fn intended_for_two_players_compares_the_plies_of_the_win() {
    // X (a1, b2) against O (c1, a3). The intended line: X b1 threatens b3 and c3 at once, O
    // blocks c3, X completes b1-b2-b3: a win in 3 plies. X wins in 1 with c3 (a1-b2-c3),
    // the principal variation, whose first position is already another.
    let win = level("levels/board/tic-tac-toe-x-to-win.json");
    let r = replay("ttt-intended.replay.json", &win, "@b1 @c3 @b3");
    let v = line(&tilesmith(&["solve", &win, "--intended", &r]), 0);
    assert_eq!(
        v["intended"],
        serde_json::json!({"steps": 3, "wins": true, "shortcut": true, "shorter_by": 2,
                           "leaves_at": 1}),
        "{v}"
    );
}

/// BABA IS YOU, SKULL IS DEFEAT, FLAG IS WIN; baba at (0,2) with the flag below it and a
/// skull two cells right: walking onto the skull destroys baba, and nothing is YOU then.
const SKULL: &str = r#"{"kind": "baba", "name": "Skull", "width": 6, "height": 4, "map": [
  ["text_baba", "text_is", "text_you", "text_skull", "text_is", "text_defeat"],
  ["text_flag", "text_is", "text_win", null, null, null],
  ["baba", null, "skull", null, null, null],
  ["flag", null, null, null, null, null]]}"#;

#[test]
fn from_solves_where_a_play_stopped_and_witness_finds_the_first_dead_step() {
    let skull = write("skull.json", SKULL);
    // After R, baba is at (1,2): L D (or D L) reaches the flag. --record writes R then the
    // solution, which wins from the start.
    let r = replay("skull-r.replay.json", &skull, "R");
    let rec = tmp("skull-from.replay.json");
    let rec = rec.to_str().unwrap();
    let v = line(
        &tilesmith(&["solve", &skull, "--from", &r, "--record", rec]),
        0,
    );
    assert_eq!(
        (v["steps"].as_u64(), v["from"].as_u64()),
        (Some(2), Some(1)),
        "{v}"
    );
    let run = line(&tilesmith(&["run", "--replay", rec]), 0);
    assert_eq!(run["status"], "won");
    // R R walks onto the skull: baba is gone, every move leaves the one state as it is (one
    // state explored), unsolvable; after step 1 a win was still reachable, so dead from
    // step 2.
    let rr = replay("skull-rr.replay.json", &skull, "R R");
    let v = line(
        &tilesmith(&["solve", &skull, "--from", &rr, "--witness"]),
        2,
    );
    assert_eq!(v["result"], "unsolvable", "{v}");
    assert_eq!(
        v["witness"],
        serde_json::json!({"states": 1, "dead_from": 2}),
        "{v}"
    );
    // R R undo R: dead after step 2, alive again after the undo (step 3), dead after step 4
    // for good: the first step of the last dead stretch is 4.
    let back = replay("skull-back.replay.json", &skull, "R R undo R");
    let v = line(
        &tilesmith(&["solve", &skull, "--from", &back, "--witness"]),
        2,
    );
    assert_eq!(v["witness"]["dead_from"], 4, "{v}");
    // A solvable state has no witness; --witness needs --from (clap's usage error).
    let v = line(&tilesmith(&["solve", &skull, "--from", &r, "--witness"]), 0);
    assert!(v.get("witness").is_none(), "{v}");
    assert_eq!(
        tilesmith(&["solve", &skull, "--witness"]).status.code(),
        Some(2)
    );
}

#[test]
fn witness_of_a_level_dead_from_the_start_is_step_0() {
    // The walled-in figure of 2 ticks: no exit at all, so dead from the start (step 0).
    // After one wait it is at tick 1, and the kind's dead test (no way to an exit) proves
    // it there: a proof of one state.
    let file = write(
        "box-from.json",
        r#"{"kind":"boulder","name":"Box","width":3,"height":3,"gems":[1,1,1],"ticks":[2,2,2],
           "map":[["wall","wall","wall"],["wall","me","wall"],["wall","wall","wall"]]}"#,
    );
    let r = replay("box-wait.replay.json", &file, ".");
    let v = line(&tilesmith(&["solve", &file, "--from", &r, "--witness"]), 2);
    assert_eq!(
        v["witness"],
        serde_json::json!({"states": 1, "dead_from": 0}),
        "{v}"
    );
}

/// `tilesmith solve CAMPAIGN.json` (issue #29): one row per level, then the exit code of the
/// first that is not solved. A campaign of the shipped baba level `first-words` (a shortest
/// solution of 6 moves, the only one: docs/solver.md's table) and the walled-in boulder box
/// above (unsolvable): exit 2, the rows in campaign order saying so. Without the box: exit 0.
/// A level that does not load makes it exit 1, the row saying why.
#[test]
fn a_campaign_is_solved_level_by_level() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../levels/baba/first-words.json"),
        d.join("first-words.json"),
    )
    .unwrap();
    std::fs::write(
        d.join("box.json"),
        r#"{"kind":"boulder","name":"Box","width":3,"height":3,"gems":[1,1,1],"ticks":[2,2,2],
           "map":[["wall","wall","wall"],["wall","me","wall"],["wall","wall","wall"]]}"#,
    )
    .unwrap();
    // A level that does not load (no width, height, blocks or field).
    std::fs::write(
        d.join("broken.json"),
        r#"{"kind":"falling","name":"Broken"}"#,
    )
    .unwrap();
    let campaign = |name: &str, levels: &[&str]| {
        let entries: Vec<Value> = levels
            .iter()
            .map(|l| serde_json::json!({"path": l, "unlock": 0}))
            .collect();
        let c = d.join(name);
        std::fs::write(
            &c,
            serde_json::json!({"kind": "campaign", "levels": entries}).to_string(),
        )
        .unwrap();
        c
    };
    let run = |c: &Path| {
        let o = tilesmith(&["solve", c.to_str().unwrap(), "--time", "20"]);
        let text = String::from_utf8_lossy(&o.stdout).to_string();
        (o.status.code(), text)
    };
    let (code, text) = run(&campaign("two.json", &["first-words.json", "box.json"]));
    assert_eq!(code, Some(2), "{text}");
    let rows: Vec<Vec<&str>> = text
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), 2, "{text}");
    assert_eq!(
        rows[0][..5],
        ["first-words.json", "solved", "6", "yes", "yes"],
        "{text}"
    );
    assert_eq!(rows[1][..2], ["box.json", "unsolvable"], "{text}");
    let (code, text) = run(&campaign("one.json", &["first-words.json"]));
    assert_eq!(code, Some(0), "{text}");
    let (code, text) = run(&campaign(
        "with-broken.json",
        &["first-words.json", "broken.json", "box.json"],
    ));
    assert_eq!(code, Some(1), "an error before an unsolvable level: {text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("broken.json") && l.contains("error:")),
        "{text}"
    );
    // A campaign that lists itself is an error row, not a solve that starts again.
    let (code, text) = run(&campaign("self.json", &["self.json"]));
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("a campaign is not a level of a campaign"),
        "{text}"
    );
}

/// Falling (issue #29): `steps` counts placements and `solution` is the frame words with
/// `WORD*N`, which `tilesmith run` plays to a win. The Puyo puzzles as
/// `docs/falling-levels.md` describes them: "All clear in two pairs" has one solution ("Only
/// one placement clears the field"); "Four steps" has several ("Several placements of the
/// last two pairs work"), all with the same first pair ("The green/blue pair lies flat on
/// the red and green columns").
#[test]
fn falling_puzzles_are_solved_in_placements_and_replayed_by_run() {
    for (name, steps, unique) in [
        ("levels/falling/puyo-all-clear.json", 2, true),
        ("levels/falling/puyo-4-chain.json", 3, false),
    ] {
        let path = level(name);
        let v = line(&tilesmith(&["solve", &path, "--all"]), 0);
        assert_eq!(v["steps"], steps, "{name}: {v}");
        assert_eq!(v["unique"], unique, "{name}: {v}");
        if !unique {
            assert_eq!(v["differ_at"], 2, "{name}: {v}");
        }
        let text = v["solution"].as_str().unwrap();
        assert!(
            text.contains(".*"),
            "runs of waits are written WORD*N: {text}"
        );
        let r = line(&tilesmith(&["run", &path, "--inputs", text]), 0);
        assert_eq!(r["status"], "won", "{name}: {r}");
    }
}

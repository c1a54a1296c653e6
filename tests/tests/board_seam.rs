//! The kind seam for games of several players, through the `Game` trait as the CLI and the
//! editor use it: players and the player to move, legal inputs read in their position
//! (`Input::Choice`), undo and redo, `Won` with a winner and `Draw`, the JSON board level
//! (setup, reserve, attributes, to_move, last) and its problems, ZRF problems at the ZRF
//! file's lines, replays of board moves, and the defaults of the one-player kinds.
//!
//! Expectations come from the published counts in `../shared/corpus/board/perft.json`, from
//! the rules of chess and checkers, and from a tiny race game written here whose counts are
//! worked out by hand (see [`TINY`]).
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use tilesmith_engine::input::{InputChoice, split_inputs};
use tilesmith_engine::kind::board::{Board, BoardGame};
use tilesmith_engine::kind::boulder::Boulder;
use tilesmith_engine::kind::kind_named;
use tilesmith_engine::replay::{Replay, ReplayLevel, play_words};
use tilesmith_engine::{Game, GameKind, Input, InputError, Status, load_file, load_text};
use tilesmith_tests::{corpus, workspace};

/// A race on a 3×3 board: White's men on a1 and b1 step north, Black's pawn on c3 steps
/// south; nothing ever meets, and the game ends (a draw: no end condition) when the player
/// to move cannot step. By hand: White has 2 moves at first, Black 1; a White man stops on
/// rank 3 and the pawn on rank 1, so perft is 2, 2, 4, 4, 6 and then 0 (the 6 games after
/// ply 5 leave Black without a move).
const TINY: &str = r#"; A tiny race.
(game
  (title "Tiny")
  (players White Black)
  (turn-order White Black)
  (board
    (grid
      (start-rectangle 0 0 50 50)
      (dimensions ("a/b/c" (50 0)) ("3/2/1" (0 50)))
      (directions (n 0 -1) (s 0 1))
    )
  )
  (piece (name Man) (moves (n (verify empty?) add)))
  (piece (name Pawn) (moves (s (verify empty?) add)))
  (board-setup (White (Man a1 b1)) (Black (Pawn c3)))
)
"#;

fn tmp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "tilesmith-board-seam-{}-{name}",
        std::process::id()
    ));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn corpus_file(name: &str) -> PathBuf {
    corpus("board").join(name)
}

fn start_file(path: &Path) -> Box<dyn Game> {
    let doc = load_file(path).unwrap();
    assert_eq!(doc.kind.name(), "board");
    doc.start(0).unwrap()
}

fn start_json(v: &Value) -> Box<dyn Game> {
    let doc = load_text(&v.to_string()).unwrap();
    doc.start(0)
        .unwrap_or_else(|p| panic!("{}", p[0].render("<level>")))
}

fn tiny_level() -> Value {
    json!({"kind": "board", "rules": {"zrf": TINY}})
}

fn chess_text() -> String {
    std::fs::read_to_string(corpus_file("chess.zrf")).unwrap()
}

/// The words of the legal moves (without `undo` and `restart`).
fn moves(g: &dyn Game) -> Vec<String> {
    g.legal_inputs()
        .into_iter()
        .filter(|c| matches!(c.input, Input::Choice(_)))
        .map(|c| c.word)
        .collect()
}

/// Plays words one at a time, each read in its position.
fn play(g: &mut dyn Game, words: &str) {
    for w in words.split_whitespace() {
        let i = g.read_input(w).unwrap_or_else(|e| panic!("{e}"));
        g.step(i);
    }
}

fn published(game: &str, depth: u32) -> u64 {
    let text = std::fs::read_to_string(corpus_file("perft.json")).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    v[game][depth.to_string()].as_u64().unwrap()
}

/// perft through the trait: every legal input played with `step` and taken back with
/// `undo`, checking that undo restores the state exactly.
fn perft_by_steps(g: &mut dyn Game, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let hash = g.state_hash();
    let legal = moves(g);
    let mut n = 0;
    for (i, word) in legal.iter().enumerate() {
        assert_eq!(
            g.input_word(Input::Choice(i as u32)).as_deref(),
            Some(word.as_str())
        );
        let r = g.step(Input::Choice(i as u32));
        assert_eq!(r.step, g.steps());
        n += perft_by_steps(g, depth - 1);
        assert!(g.undo());
        assert_eq!(g.state_hash(), hash, "undo of {word} restores the state");
    }
    assert_eq!(moves(g), legal);
    n
}

#[test]
fn one_player_kinds_keep_their_defaults() {
    for (kind, file) in [
        ("boulder", "levels/boulder/welcome.json"),
        ("baba", "levels/baba/first-words.json"),
        ("falling", "levels/falling/tetris-classic.json"),
    ] {
        let doc = load_file(&workspace().join(file)).unwrap();
        let g = doc.start(0).unwrap();
        let k = kind_named(kind).unwrap();
        assert!(!k.positional_inputs());
        assert!(g.players().is_empty(), "{kind}: one unnamed player");
        assert_eq!(g.to_move(), None);
        let table: Vec<InputChoice> = k.inputs().iter().map(InputChoice::from).collect();
        assert_eq!(g.legal_inputs(), table, "{kind}: the fixed table");
        for s in k.inputs() {
            assert_eq!(g.read_input(s.word), Ok(s.input));
            assert_eq!(g.input_word(s.input).as_deref(), Some(s.word));
        }
        assert_eq!(g.input_word(Input::Choice(0)), None);
        assert!(matches!(
            g.read_input("c3-d4"),
            Err(InputError::Unknown { .. })
        ));
        assert_eq!(g.perft(1, false), None);
    }
    // `Won` of a one-player kind has no winner and its summary is unchanged.
    assert_eq!(
        Status::won(2),
        Status::Won {
            points: 2,
            winner: None
        }
    );
    assert_eq!(Status::won(2).word(), "won");
    assert_eq!(Status::Draw { reason: "x".into() }.word(), "draw");
    assert!(Status::Draw { reason: "x".into() }.is_over());
    assert!(!Boulder.positional_inputs() && Board.positional_inputs());
}

#[test]
fn a_board_game_lists_its_players_and_legal_moves() {
    let g = start_file(&corpus_file("english-checkers.zrf"));
    assert_eq!(g.players(), ["Black", "White"]);
    assert_eq!(g.to_move(), Some(0), "Black moves first");
    let legal = g.legal_inputs();
    let n = moves(g.as_ref()).len();
    assert_eq!(n as u64, published("checkers_english", 1));
    // The moves as choices 0..n in order, then what every position takes.
    for (i, c) in legal.iter().take(n).enumerate() {
        assert_eq!(c.input, Input::Choice(i as u32));
        assert_eq!(c.label, c.word);
        assert_eq!(g.read_input(&c.word), Ok(c.input));
        assert_eq!(g.read_input(&c.word.to_ascii_uppercase()), Ok(c.input));
    }
    let tail: Vec<_> = legal[n..]
        .iter()
        .map(|c| (c.word.as_str(), c.input))
        .collect();
    assert_eq!(tail, [("undo", Input::Undo), ("restart", Input::Restart)]);
    let mut words: Vec<_> = legal.iter().map(|c| c.word.clone()).collect();
    words.sort();
    words.dedup();
    assert_eq!(words.len(), legal.len(), "words are unique");
    assert_eq!(g.size(), (8, 8));
    assert_eq!(g.summary()["legal"], n);
}

#[test]
fn perft_through_step_and_undo_matches_the_published_counts() {
    let mut g = start_file(&corpus_file("english-checkers.zrf"));
    for d in 1..=3 {
        assert_eq!(
            perft_by_steps(g.as_mut(), d),
            published("checkers_english", d)
        );
    }
    let mut g = start_file(&corpus_file("chess.zrf"));
    for d in 1..=2 {
        assert_eq!(perft_by_steps(g.as_mut(), d), published("chess", d));
    }
    for d in 1..=3 {
        assert_eq!(g.perft(d, false), Some(Ok(published("chess", d))));
    }
}

#[test]
fn tiny_race_counts_and_ends_in_a_draw() {
    let mut g = start_json(&tiny_level());
    let full: Vec<u64> = (1..=6)
        .map(|d| g.perft(d, false).unwrap().unwrap())
        .collect();
    assert_eq!(full, [2, 2, 4, 4, 6, 0]);
    // A game that ends before the depth counts as a leaf: the 6 games ended after ply 5.
    assert_eq!(g.perft(6, true), Some(Ok(6)));
    assert_eq!(perft_by_steps(g.as_mut(), 5), 6);
    assert_eq!(moves(g.as_ref()), ["a1-a2", "b1-b2"]);
    play(g.as_mut(), "a1-a2 c3-c2 a2-a3 c2-c1");
    assert_eq!(moves(g.as_ref()), ["b1-b2"], "the man on a3 cannot step");
    play(g.as_mut(), "b1-b2");
    assert!(
        matches!(g.status(), Status::Draw { .. }),
        "{:?}",
        g.status()
    );
    assert_eq!(
        g.summary(),
        json!({"kind":"board","status":"draw","ply":5,"to_move":null,"winner":null,"legal":0})
    );
    assert_eq!(g.to_move(), None);
    // Over: a choice changes nothing, undo still works.
    let h = g.state_hash();
    assert_eq!(g.step(Input::Choice(0)).changed, []);
    assert_eq!((g.state_hash(), g.steps()), (h, 5));
    assert_eq!(
        g.layers(tilesmith_engine::Pos::new(1, 1))[0].token,
        "White Man"
    );
    assert!(g.layers(tilesmith_engine::Pos::new(0, 1)).is_empty());
    g.step(Input::Undo);
    assert_eq!(g.status(), Status::Running);
    assert_eq!(g.to_move(), Some(0));
    g.step(Input::Restart);
    assert_eq!((g.steps(), g.redo_len()), (0, 5));
    assert!(g.redo());
    assert_eq!(moves(g.as_ref()), ["c3-c2"]);
}

#[test]
fn words_are_read_in_the_position_where_they_are_played() {
    let mut g = start_file(&corpus_file("english-checkers.zrf"));
    let first = g.read_input("c3-d4").unwrap();
    let r = g.step(first);
    // The man left c3 (col 2, row 5 from the top) for d4 (col 3, row 4).
    assert_eq!(
        r.changed,
        [
            tilesmith_engine::Pos::new(3, 4),
            tilesmith_engine::Pos::new(2, 5)
        ]
    );
    assert_eq!(g.to_move(), Some(1));
    // The same word means nothing now: c3 is empty and it is White's turn.
    let e = g.read_input("c3-d4").unwrap_err();
    let InputError::NotLegal { word, legal, .. } = &e else {
        panic!("{e:?}")
    };
    assert_eq!(word, "c3-d4");
    let now: Vec<String> = g.legal_inputs().into_iter().map(|c| c.word).collect();
    assert_eq!(legal, &now);
    assert_eq!(
        e.to_string(),
        format!(
            "\"c3-d4\" is not legal in this position (legal: {})",
            now.join(" ")
        )
    );
    // Through a text: the error names the word's number.
    let mut g = start_file(&corpus_file("english-checkers.zrf"));
    let runs = split_inputs("c3-d4 c3-d4").unwrap();
    let e = play_words(g.as_mut(), &runs, 2, None).unwrap_err();
    assert!(
        e.to_string().starts_with("word 2 \"c3-d4\" is not legal"),
        "{e}"
    );
    assert_eq!(g.steps(), 1, "the word before it was played");
}

#[test]
fn fools_mate_is_won_by_black_and_undo_takes_it_back() {
    let mut g = start_file(&corpus_file("chess.zrf"));
    assert_eq!(g.players(), ["White", "Black"]);
    play(g.as_mut(), "f2-f3 e7-e5 g2-g4");
    assert_eq!(g.status(), Status::Running);
    play(g.as_mut(), "d8-h4");
    assert_eq!(
        g.status(),
        Status::Won {
            points: 1,
            winner: Some("Black".into())
        }
    );
    assert_eq!(
        g.summary(),
        json!({"kind":"board","status":"won","ply":4,"to_move":null,"winner":"Black","legal":0})
    );
    assert!(moves(g.as_ref()).is_empty());
    let won = g.state_hash();
    assert!(g.undo());
    assert_eq!((g.status(), g.to_move()), (Status::Running, Some(1)));
    assert!(moves(g.as_ref()).contains(&"d8-h4".to_string()));
    assert!(g.redo());
    assert_eq!(g.state_hash(), won);
}

#[test]
fn a_position_repeated_three_times_loses_for_the_player_who_repeated_it() {
    // chess.zrf: (loss-condition (White Black) repetition). The start position comes back
    // after plies 4 and 8; the third time, Black made the last turn.
    let mut g = start_file(&corpus_file("chess.zrf"));
    play(g.as_mut(), "g1-f3 g8-f6 f3-g1 f6-g8 g1-f3 g8-f6 f3-g1");
    assert_eq!(g.status(), Status::Running, "twice is not yet");
    play(g.as_mut(), "f6-g8");
    assert_eq!(g.summary()["winner"], "White", "{}", g.summary());
    // Undo takes the count back; another way goes on.
    g.step(Input::Undo);
    assert_eq!(g.status(), Status::Running);
    play(g.as_mut(), "b8-c6 g1-f3");
    assert_eq!(g.status(), Status::Running, "{}", g.summary());
    // Back to the position after ply 2, which has been there twice: now three times.
    play(g.as_mut(), "c6-b8");
    assert_eq!(g.summary()["winner"], "White", "{}", g.summary());
}

#[test]
fn a_stalemate_is_a_draw() {
    // Black: king h8; White: queen g6, king f7. Black to move has no move and is not in
    // check: chess.zrf's (draw-condition (White Black) stalemated).
    let level = json!({"kind": "board", "rules": {"zrf": chess_text()},
        "setup": {"White": {"Queen": ["g6"], "King": ["f7"]}, "Black": {"King": ["h8"]}},
        "to_move": "Black"});
    let g = start_json(&level);
    assert!(
        matches!(g.status(), Status::Draw { .. }),
        "{:?}",
        g.status()
    );
    assert_eq!(g.summary()["status"], "draw");
    assert_eq!(g.summary()["winner"], Value::Null);
    // The same position with White to move goes on.
    let mut white = level.clone();
    white["to_move"] = json!("White");
    assert_eq!(start_json(&white).status(), Status::Running);
}

#[test]
fn a_saved_position_loads_again_with_the_last_move() {
    let mut g = start_file(&corpus_file("chess.zrf"));
    play(g.as_mut(), "e2-e4 a7-a6 e4-e5 d7-d5");
    assert!(
        moves(g.as_ref()).contains(&"e5xd6".to_string()),
        "en passant"
    );
    let saved = g.to_level();
    assert_eq!(saved["to_move"], "White");
    assert_eq!(saved["last"], json!(["d7", "d5"]));
    assert_eq!(saved["variant"], "Chess");
    assert_eq!(saved["setup"]["White"]["Pawn"].as_array().unwrap().len(), 8);
    let text = tilesmith_engine::json_text::layout(&saved);
    let doc = load_text(&text).unwrap();
    assert!(doc.check().iter().all(|p| !p.is_error()));
    let again = doc.start(0).unwrap();
    assert_eq!(moves(again.as_ref()), moves(g.as_ref()));
    assert_eq!(again.state_hash(), g.state_hash());
    // Without the last move, en passant is gone.
    let mut no_last = saved.clone();
    no_last.as_object_mut().unwrap().remove("last");
    let g2 = start_json(&no_last);
    assert!(!moves(g2.as_ref()).contains(&"e5xd6".to_string()));
    assert_eq!(moves(g2.as_ref()).len() + 1, moves(g.as_ref()).len());
}

fn problems_of(v: &Value) -> Vec<(String, String)> {
    let doc = load_text(&serde_json::to_string_pretty(v).unwrap()).unwrap();
    doc.check()
        .into_iter()
        .filter(|p| p.is_error())
        .map(|p| {
            assert!(p.line.is_some(), "{p:?} is located");
            (p.path.to_string(), p.message)
        })
        .collect()
}

#[test]
fn names_in_a_level_that_the_rules_lack_are_located_errors() {
    let base = || json!({"kind": "board", "rules": {"zrf": TINY}});
    let case = |f: &dyn Fn(&mut Value), path: &str, needle: &str| {
        let mut v = base();
        f(&mut v);
        let p = problems_of(&v);
        assert!(
            p.iter().any(|(q, m)| q == path && m.contains(needle)),
            "{path} {needle}: {p:?}"
        );
    };
    case(
        &|v| v["setup"] = json!({"Red": {}}),
        "$.setup.Red",
        "unknown player \"Red\"",
    );
    case(
        &|v| v["setup"] = json!({"White": {"King": ["a1"]}}),
        "$.setup.White.King",
        "unknown piece \"King\"",
    );
    case(
        &|v| v["setup"] = json!({"White": {"Man": ["a1", "z9"]}}),
        "$.setup.White.Man[1]",
        "unknown position \"z9\"",
    );
    case(
        &|v| v["setup"] = json!({"White": {"Man": ["a1"]}, "Black": {"Pawn": ["A1"]}}),
        "$.setup.Black.Pawn[0]",
        "two pieces on \"a1\"",
    );
    case(
        &|v| v["to_move"] = json!("Green"),
        "$.to_move",
        "unknown player",
    );
    case(&|v| v["turn"] = json!(2), "$.turn", "too large");
    case(
        &|v| {
            v["to_move"] = json!("White");
            v["turn"] = json!(1);
        },
        "$.turn",
        "not White's",
    );
    case(
        &|v| v["reserve"] = json!({"White": {"Man": -1}}),
        "$.reserve.White.Man",
        "negative",
    );
    case(
        &|v| v["attributes"] = json!({"c2": {}}),
        "$.attributes.c2",
        "no piece",
    );
    case(
        &|v| v["last"] = json!(["a1"]),
        "$.last",
        "two position names",
    );
    case(
        &|v| v["variant"] = json!("Chess"),
        "$.variant",
        "no variant \"Chess\"",
    );
    case(&|v| v["rules"] = json!(7), "$.rules", "found a number");
    // Names are matched ignoring ASCII case, as ZRF names are.
    let mut v = base();
    v["setup"] = json!({"white": {"MAN": ["A2"]}, "Black": {"Pawn": ["c3"]}});
    v["to_move"] = json!("black");
    assert_eq!(problems_of(&v), []);
    let g = start_json(&v);
    assert_eq!(g.to_move(), Some(1));
    assert_eq!(moves(g.as_ref()), ["c3-c2"]);
    assert_eq!(g.to_level()["setup"]["White"], json!({"Man": ["a2"]}));
}

#[test]
fn zrf_problems_are_reported_at_the_zrf_files_lines() {
    let dir = tmp_dir("zrf-lines");
    let bad = TINY.replace("(Man a1 b1)", "(Kong a1 b1)");
    let line = bad.lines().position(|l| l.contains("Kong")).unwrap() + 1;
    let col = bad.lines().nth(line - 1).unwrap().find("Kong").unwrap() + 1;
    std::fs::create_dir_all(dir.join("rules")).unwrap();
    std::fs::write(dir.join("rules/bad.zrf"), &bad).unwrap();
    // The .zrf file itself.
    let zrf = dir.join("rules/bad.zrf");
    let p = load_file(&zrf).unwrap().check();
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!(
        p[0].file.as_deref(),
        Some(zrf.display().to_string().as_str())
    );
    assert_eq!((p[0].line, p[0].column), (Some(line), Some(col)));
    assert!(p[0].message.contains("Kong"), "{}", p[0].message);
    assert_eq!(
        p[0].render("ignored.json"),
        format!("{}:{line}:{col}: {}", zrf.display(), p[0].message)
    );
    // A level that refers to it, relative to the level's folder.
    let level = dir.join("puzzle.json");
    std::fs::write(&level, r#"{"kind": "board", "rules": "rules/bad.zrf"}"#).unwrap();
    let p = load_file(&level).unwrap().check();
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!(
        p[0].file.as_deref().map(Path::new),
        Some(dir.join("rules/bad.zrf").as_path())
    );
    assert_eq!((p[0].line, p[0].column), (Some(line), Some(col)));
    // The text inline: the line and column are in the message, at `$.rules.zrf`.
    let v = json!({"kind": "board", "rules": {"zrf": bad}});
    let p = problems_of(&v);
    assert_eq!(p.len(), 1);
    assert_eq!(p[0].0, "$.rules.zrf");
    assert!(
        p[0].1
            .starts_with(&format!("rules line {line}, column {col}: ")),
        "{}",
        p[0].1
    );
}

#[test]
fn a_rules_file_that_cannot_be_read_is_a_located_problem() {
    let dir = tmp_dir("missing");
    let level = dir.join("lost.json");
    std::fs::write(
        &level,
        "{\"kind\": \"board\",\n  \"rules\": \"nowhere.zrf\"}",
    )
    .unwrap();
    let doc = load_file(&level).unwrap();
    let p = doc.check();
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!(p[0].path.to_string(), "$.rules");
    assert_eq!((p[0].line, p[0].column), (Some(2), Some(12)));
    assert!(
        p[0].message.starts_with("cannot read the rules file"),
        "{}",
        p[0].message
    );
    assert!(p[0].message.contains("nowhere.zrf"));
    assert!(doc.start(0).is_err());
    // A folder is no rules file either, and a level given the bare name without a file
    // (text loaded without its folder) says how to give the rules.
    std::fs::create_dir_all(dir.join("folder.zrf")).unwrap();
    std::fs::write(&level, r#"{"kind": "board", "rules": "folder.zrf"}"#).unwrap();
    let p = load_file(&level).unwrap().check();
    assert!(
        p[0].message.contains("not a regular file"),
        "{}",
        p[0].message
    );
    let p = problems_of(&json!({"kind": "board", "rules": "game.zrf"}));
    assert!(p[0].1.contains("was not read"), "{p:?}");
}

#[test]
fn a_replay_of_board_moves_reads_them_in_their_positions() {
    let dir = tmp_dir("replay");
    std::fs::write(dir.join("tiny.zrf"), TINY).unwrap();
    let v = json!({"tilesmith": "replay", "level": "tiny.zrf",
                   "inputs": "A1-A2 c3-c2 a2-a3 c2-c1 b1-b2"});
    let r = Replay::from_json(&v, &dir).unwrap();
    assert_eq!(r.ticks, 5);
    assert_eq!(
        r.words.as_deref().unwrap(),
        ["a1-a2", "c3-c2", "a2-a3", "c2-c1", "b1-b2"],
        "the words as the game writes them"
    );
    let out = r.run().unwrap();
    assert_eq!(out.game.status().word(), "draw");
    let recorded = r.clone().recorded(out.game.as_ref());
    assert_eq!(recorded.status.as_deref(), Some("draw"));
    let written = recorded.to_json(&dir);
    assert_eq!(written["inputs"], "a1-a2 c3-c2 a2-a3 c2-c1 b1-b2");
    let again = Replay::from_json(&written, &dir).unwrap();
    assert!(again.run().unwrap().matches);
    // An embedded level refers to its rules relative to the replay's folder.
    let v = json!({"tilesmith": "replay", "level": {"kind": "board", "rules": "tiny.zrf"},
                   "inputs": "b1-b2 c3-c2"});
    let r = Replay::from_json(&v, &dir).unwrap();
    assert!(matches!(&r.level, ReplayLevel::Embedded(l) if l["rules"]["zrf"] == TINY));
    assert_eq!(r.run().unwrap().game.steps(), 2);
    // A word that is not legal where it is played is a problem at `$.inputs`.
    let text =
        "{\"tilesmith\": \"replay\", \"level\": \"tiny.zrf\",\n \"inputs\": \"a1-a2 a2-a3\"}";
    let e = Replay::from_text(text, &dir).unwrap_err();
    assert_eq!(e[0].path.to_string(), "$.inputs");
    assert_eq!((e[0].line, e[0].column), (Some(2), Some(12)));
    assert_eq!(
        e[0].message,
        "word 2 \"a2-a3\" is not legal in this position (legal: c3-c2 undo restart)"
    );
    // `draw` is a status a replay may expect.
    let v = json!({"tilesmith": "replay", "level": "tiny.zrf", "inputs": "",
                   "expect": {"status": "draw"}});
    let r = Replay::from_json(&v, &dir).unwrap();
    assert!(
        !r.run().unwrap().matches,
        "the game is running at its start"
    );
}

#[test]
fn game_kind_and_concrete_type_are_reachable() {
    let g = start_json(&tiny_level());
    assert_eq!(g.kind().name(), "board");
    let b = g.as_any().downcast_ref::<BoardGame>().unwrap();
    assert_eq!(b.rules().title, "Tiny");
    assert_eq!(b.legal_turns().len(), 2);
    let k = kind_named("board").unwrap();
    assert_eq!(
        k.inputs().iter().map(|s| s.word).collect::<Vec<_>>(),
        ["undo", "restart"]
    );
    assert!(k.steps_per_second() > 0.0);
}

/// The stored replays of complete board games (`tests/replays/board/`) replay to their
/// recorded state; each game ends on its last word and not before, and every word was read
/// in its position.
#[test]
fn stored_board_replays_are_complete_games() {
    let dir = workspace().join("tests/replays/board");
    let files = tilesmith_tests::json_files(&dir);
    assert!(
        files.len() >= 3,
        "{} replays in {}",
        files.len(),
        dir.display()
    );
    for f in files {
        let r = Replay::load(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let words = r.words.clone().unwrap();
        assert_eq!(words.len(), r.inputs.len(), "{}", f.display());
        let out = r.run().unwrap();
        assert!(out.matches, "{}", f.display());
        assert!(
            out.game.status().is_over(),
            "{}: a complete game",
            f.display()
        );
        // Played again word by word: running until the last word.
        let mut g = r.document().unwrap().start(0).unwrap();
        for (k, w) in words.iter().enumerate() {
            assert_eq!(
                g.status(),
                Status::Running,
                "{} over before word {k}",
                f.display()
            );
            let i = g.read_input(w).unwrap();
            assert_eq!(g.input_word(i).as_deref(), Some(w.as_str()));
            g.step(i);
        }
        assert_eq!(g.state_hash(), out.hash, "{}", f.display());
    }
}

/// A one-player race on a 4×3 board: the Man steps north onto an empty square. On rank 3,
/// file a wins, file b draws, file c loses, and file d ends with no condition (no move).
const RUNNER: &str = r#"(game
  (title "Runner")
  (players Solo)
  (turn-order Solo)
  (board
    (grid
      (start-rectangle 0 0 50 50)
      (dimensions ("a/b/c/d" (50 0)) ("3/2/1" (0 50)))
      (directions (n 0 -1))
    )
  )
  (piece (name Man) (moves (n (verify empty?) add)))
  (board-setup (Solo (Man a1)))
  (win-condition (Solo) (absolute-config Man (a3)))
  (draw-condition (Solo) (absolute-config Man (b3)))
  (loss-condition (Solo) (absolute-config Man (c3)))
)
"#;

#[test]
fn a_one_player_game_is_won_only_by_a_win_condition() {
    for (file, status) in [("a", "won"), ("b", "lost"), ("c", "lost"), ("d", "lost")] {
        let v = json!({"kind": "board", "rules": {"zrf": RUNNER},
                       "setup": {"Solo": {"Man": [format!("{file}1")]}}});
        let mut g = start_json(&v);
        play(g.as_mut(), &format!("{file}1-{file}2"));
        assert_eq!(g.status(), Status::Running, "{file}2: still running");
        play(g.as_mut(), &format!("{file}2-{file}3"));
        assert_eq!(g.status().word(), status, "{file}3: {:?}", g.status());
        assert_eq!(g.error(), None);
        match g.status() {
            Status::Won { winner, .. } => assert_eq!(winner.as_deref(), Some("Solo")),
            Status::Lost { reason } if file == "d" => {
                assert!(reason.contains("no move"), "{reason}")
            }
            Status::Lost { reason } => {
                let kind = if file == "b" { "draw" } else { "loss" };
                assert!(reason.contains(&format!("({kind}-condition)")), "{reason}")
            }
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn fifteen_played_to_its_written_solution_is_won() {
    let mut g = start_file(&workspace().join("levels/board/fifteen.zrf"));
    let text = std::fs::read_to_string(workspace().join("levels/board/fifteen.zrf")).unwrap();
    // The 34 moves written in the file's header (`;   a3-a2 …`).
    let solution: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.contains("hole's) is:"))
        .skip(1)
        .take_while(|l| l.starts_with(";   "))
        .flat_map(|l| l[1..].split_whitespace())
        .collect();
    assert_eq!(solution.len(), 34);
    for (i, w) in solution.iter().enumerate() {
        assert_eq!(g.status(), Status::Running, "before move {}", i + 1);
        play(g.as_mut(), w);
    }
    assert_eq!(g.status().word(), "won");
    assert_eq!(g.players(), ["Solver"]);
}

/// [`TINY`] whose Pawn's move block loops for ever.
fn runaway() -> (String, usize, usize) {
    let text = TINY.replace(
        "(piece (name Pawn) (moves (s (verify empty?) add)))",
        "(piece (name Pawn) (moves ((while true mark) add)))",
    );
    assert_ne!(text, TINY);
    let line = text.lines().position(|l| l.contains("while true")).unwrap() + 1;
    // The block is the list that opens just before `(while`.
    let col = text.lines().nth(line - 1).unwrap().find("((while").unwrap() + 1;
    (text, line, col)
}

#[test]
fn a_generation_failure_stops_the_game_at_the_move_block() {
    let (text, line, col) = runaway();
    // White's first move is generated; Black's turn runs the looping block.
    let mut g =
        tilesmith_engine::document::load_kind_text(&text, std::path::Path::new("rules/loop.zrf"))
            .unwrap()
            .start(0)
            .unwrap();
    assert_eq!(g.error(), None);
    assert!(g.error_problem().is_none());
    play(g.as_mut(), "a1-a2");
    // Stopped without a result: lost with the error as the reason, "error" in the summary.
    assert!(
        matches!(g.status(), Status::Lost { reason } if reason.starts_with("move generation failed: "))
    );
    assert_eq!(g.summary()["status"], "error");
    assert_eq!(g.summary()["winner"], Value::Null);
    assert!(g.error().unwrap().starts_with("move generation failed: "));
    let p = g.error_problem().unwrap();
    assert_eq!(p.file.as_deref(), Some("rules/loop.zrf"));
    assert_eq!((p.line, p.column), (Some(line), Some(col)));
    assert!(
        p.message
            .starts_with("move generation failed: a move block ran more than")
    );
    assert!(p.is_error());
    // perft meets the same failure one ply deeper, located at the same block.
    let fresh =
        tilesmith_engine::document::load_kind_text(&text, std::path::Path::new("rules/loop.zrf"))
            .unwrap()
            .start(0)
            .unwrap();
    assert_eq!(fresh.perft(1, false), Some(Ok(2)));
    let q = fresh.perft(2, false).unwrap().unwrap_err();
    assert_eq!(q, p, "perft's problem is the game's");
    // Undo: White to move again, no error.
    assert!(g.undo());
    assert_eq!((g.error(), g.status()), (None, Status::Running));
    // Inline rules without a file name: at `$.rules.zrf`, the place in the message.
    let mut g = start_json(&json!({"kind": "board", "rules": {"zrf": text}}));
    play(g.as_mut(), "a1-a2");
    let p = g.error_problem().unwrap();
    assert_eq!(
        (p.file.as_deref(), p.path.to_string()),
        (None, "$.rules.zrf".into())
    );
    assert!(
        p.message.starts_with(&format!(
            "rules line {line}, column {col}: move generation failed"
        )),
        "{}",
        p.message
    );
}

#[test]
fn only_a_kind_with_variants_takes_one() {
    let level = json!({"kind": "board", "rules": "chess.zrf"});
    let v = Board.with_variant(&level, "Chess").unwrap();
    assert_eq!(v["variant"], "Chess");
    assert_eq!(v["rules"], "chess.zrf");
    let boulder = json!({"name": "b", "width": 1, "height": 1});
    let e = Boulder.with_variant(&boulder, "Chess").unwrap_err();
    assert_eq!(e, "boulder levels have no variants");
}

/// Saves the position after `words`, loads the saved level again and checks that it is the
/// same position with the same legal moves, then that both continue identically.
fn saved_after_a_drop_loads_again(file: &str, words: &str, drop_to: &str, more: &str) {
    let mut g = start_file(&workspace().join("levels/board").join(file));
    play(g.as_mut(), words);
    let saved = g.to_level();
    // A drop has no origin: the last move is written [null, TO].
    assert_eq!(saved["last"], json!([null, drop_to]), "{file}");
    let text = tilesmith_engine::json_text::layout(&saved);
    let doc = load_text(&text).unwrap_or_else(|p| panic!("{file}: {}", p[0].render("<saved>")));
    let errors: Vec<String> = doc
        .check()
        .iter()
        .filter(|p| p.is_error())
        .map(|p| p.render("<saved>"))
        .collect();
    assert!(errors.is_empty(), "{file}: {errors:?}");
    let mut again = doc.start(0).unwrap();
    assert_eq!(again.state_hash(), g.state_hash(), "{file}");
    assert_eq!(moves(again.as_ref()), moves(g.as_ref()), "{file}");
    // Saved again, the position is written the same way.
    assert_eq!(again.to_level()["last"], saved["last"], "{file}");
    play(g.as_mut(), more);
    play(again.as_mut(), more);
    assert_eq!(again.state_hash(), g.state_hash(), "{file} after {more}");
    assert_eq!(
        moves(again.as_ref()),
        moves(g.as_ref()),
        "{file} after {more}"
    );
    assert_eq!(again.status(), g.status(), "{file} after {more}");
}

#[test]
fn a_position_saved_after_a_drop_loads_again_and_continues() {
    saved_after_a_drop_loads_again("tic-tac-toe.zrf", "@b2", "b2", "@a1 @c3");
    // Reversi: Black drops on d3 (flipping d4), White answers on c3 (flipping d4 back).
    saved_after_a_drop_loads_again("reversi.zrf", "@d3", "d3", "@c3");
}

#[test]
fn a_word_after_the_end_is_an_error_but_undo_and_restart_act() {
    let ttt = workspace().join("levels/board/tic-tac-toe.zrf");
    // X takes column a on its third drop: the game is over after word 5.
    let mut g = start_file(&ttt);
    let runs = split_inputs("@a1 @b1 @a2 @b2 @a3 bogus").unwrap();
    let e = play_words(g.as_mut(), &runs, 6, None).unwrap_err();
    assert_eq!(
        e,
        InputError::GameOver {
            position: 6,
            word: "bogus".into()
        }
    );
    assert_eq!(
        e.to_string(),
        "word 6 \"bogus\" comes after the end: the game is over (only undo and restart act then)"
    );
    assert_eq!(g.steps(), 5, "the words before it were played");
    assert!(!g.takes_turns());
    // A legal-looking move after the end is refused too, and a repeated one names its count.
    let mut g = start_file(&ttt);
    let runs = split_inputs("@a1 @b1 @a2 @b2 @a3 @c3*2").unwrap();
    let e = play_words(g.as_mut(), &runs, 7, None).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("word 6 \"@c3*2\" comes after the end"),
        "{e}"
    );
    // undo and restart still act after the end, and play goes on after them.
    for (words, steps) in [
        ("@a1 @b1 @a2 @b2 @a3 undo @c3", 7),
        ("@a1 @b1 @a2 @b2 @a3 restart @c3", 7),
    ] {
        let mut g = start_file(&ttt);
        let runs = split_inputs(words).unwrap();
        let played = play_words(g.as_mut(), &runs, steps, None).unwrap();
        assert_eq!(played.inputs.len(), steps as usize, "{words}");
        assert!(g.takes_turns(), "{words}");
    }
}

#[test]
fn a_repeated_word_that_fails_names_the_repetition() {
    // Black c3-d4, White f6-e5; then it is Black's turn and f6-e5 is no move of Black's.
    let mut g = start_file(&corpus_file("english-checkers.zrf"));
    let runs = split_inputs("c3-d4 f6-e5*2").unwrap();
    let e = play_words(g.as_mut(), &runs, 3, None).unwrap_err();
    let InputError::NotLegal {
        position, repeat, ..
    } = &e
    else {
        panic!("{e:?}")
    };
    assert_eq!((*position, *repeat), (Some(2), Some((2, 2))));
    assert!(
        e.to_string()
            .starts_with("word 2 \"f6-e5*2\", repeat 2 of 2, is not legal here (legal: "),
        "{e}"
    );
    assert_eq!(g.steps(), 2, "the first repetition was played");
}

#[test]
fn reserves_add_up_to_what_a_saved_level_may_hold() {
    // Tic-tac-toe with X's reserve given twice: 1 000 000 and 5 more. The reserve is capped
    // at a level's largest `reserve` count, so the position saved after a drop loads again.
    let text = std::fs::read_to_string(workspace().join("levels/board/tic-tac-toe.zrf"))
        .unwrap()
        .replace("(X (Man off 5))", "(X (Man off 1000000 off 5))");
    assert!(text.contains("off 1000000 off 5"));
    let mut g = start_json(&json!({"kind": "board", "rules": {"zrf": text}}));
    play(g.as_mut(), "@b2");
    let saved = g.to_level();
    assert_eq!(saved["reserve"]["X"]["Man"], 999_999);
    let again = start_json(&saved);
    assert_eq!(again.state_hash(), g.state_hash());
    // One more than the limit in a single `off` is an error at its place.
    let over = text.replace("off 1000000 off 5", "off 1000001");
    let p = match load_text(&json!({"kind": "board", "rules": {"zrf": over}}).to_string()) {
        Err(p) => p,
        Ok(d) => d.start(0).err().unwrap(),
    };
    assert!(
        p[0].message.contains("off needs a count from 0 to 1000000"),
        "{}",
        p[0].message
    );
}

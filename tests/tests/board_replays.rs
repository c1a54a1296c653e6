//! The stored replays of complete board games (`tests/replays/board/*.json`) against
//! expectations worked out without the engine: each game ends on its last word with the
//! winner (or draw) reasoned from the rules file, the final position is the one reasoned by
//! hand, move by move, and undo takes every ply back to the start position (redo forward
//! again). `docs/board-levels.md` ("Replays of complete games") says how each game was
//! worked out.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;
use tilesmith_engine::replay::Replay;
use tilesmith_engine::{Game, Status};
use tilesmith_tests::workspace;

/// A replay's outcome as worked out by hand.
struct Expected {
    /// The replay's file name in `tests/replays/board/`.
    file: &'static str,
    /// `won` or `draw`.
    status: &'static str,
    /// The winner, `None` for a draw.
    winner: Option<&'static str>,
    /// Plies (whole turns, a pass included).
    ply: u64,
    /// The final pieces, `Player Type square…` groups separated by `;`, or `None` where the
    /// final position was not worked out by hand (the two long checkers games).
    pieces: Option<&'static str>,
    /// The reserves left (`Player Type count` groups separated by `;`), for games with drops.
    reserve: Option<&'static str>,
    /// Squares whose pieces' attributes differ from the default (`square attribute value`
    /// groups separated by `;`); `""` for none.
    attributes: &'static str,
}

const EXPECTED: &[Expected] = &[
    Expected {
        file: "checkers-black-takes-all.json",
        status: "won",
        winner: Some("Black"),
        ply: 43,
        pieces: None,
        reserve: None,
        attributes: "",
    },
    Expected {
        file: "checkers-white-takes-all.json",
        status: "won",
        winner: Some("White"),
        ply: 44,
        pieces: None,
        reserve: None,
        attributes: "",
    },
    // f2-f3 e7-e5 g2-g4 d8-h4: the start position with four pieces moved.
    Expected {
        file: "chess-fools-mate.json",
        status: "won",
        winner: Some("Black"),
        ply: 4,
        pieces: Some(
            "White Pawn a2 b2 c2 d2 e2 f3 g4 h2; White Rook a1 h1; White Knight b1 g1; \
             White Bishop c1 f1; White Queen d1; White King e1; \
             Black Pawn a7 b7 c7 d7 e5 f7 g7 h7; Black Rook a8 h8; Black Knight b8 g8; \
             Black Bishop c8 f8; Black Queen h4; Black King e8",
        ),
        reserve: None,
        attributes: "",
    },
    // X a1, O b2, X a2, O a3, X c2, O c1: O's diagonal a3 b2 c1 on ply 6.
    Expected {
        file: "tic-tac-toe-o-wins.json",
        status: "won",
        winner: Some("O"),
        ply: 6,
        pieces: Some("X Man a1 a2 c2; O Man b2 a3 c1"),
        reserve: Some("X Man 2; O Man 1"),
        attributes: "",
    },
    // X O X / X O O / O X X (rank 3 to rank 1): nine drops, no line.
    Expected {
        file: "tic-tac-toe-draw.json",
        status: "draw",
        winner: None,
        ply: 9,
        pieces: Some("X Man a3 c3 a2 b1 c1; O Man b3 b2 c2 a1"),
        reserve: Some(""),
        attributes: "",
    },
    // 28 drops and White's pass on ply 28 (White's only disc, g3, closes no line); Black's
    // f3 flips it: 32 Black discs, none White, nobody can drop, Black has more.
    Expected {
        file: "reversi-pass-then-wipe-out.json",
        status: "won",
        winner: Some("Black"),
        ply: 29,
        pieces: Some(
            "Black Disc c8 d8 e8 f8 g8 h8 d7 e7 f7 g7 h7 c6 d6 e6 f6 g6 h6 \
             c5 d5 e5 f5 g5 h5 c4 d4 e4 g4 c3 f3 g3 h3 b2",
        ),
        reserve: Some("Black Disc 45; White Disc 47"),
        attributes: "",
    },
    // The 34 slides written in fifteen.zrf's header, in order.
    Expected {
        file: "fifteen-solved.json",
        status: "won",
        winner: Some("Solver"),
        ply: 34,
        pieces: Some(
            "Solver T1 a4; Solver T2 b4; Solver T3 c4; Solver T4 d4; Solver T5 a3; \
             Solver T6 b3; Solver T7 c3; Solver T8 d3; Solver T9 a2; Solver T10 b2; \
             Solver T11 c2; Solver T12 d2; Solver T13 a1; Solver T14 b1; Solver T15 c1",
        ),
        reserve: None,
        attributes: "",
    },
    // The six turns written in rotate-three.zrf's header.
    Expected {
        file: "rotate-three-solved.json",
        status: "won",
        winner: Some("Solver"),
        ply: 6,
        pieces: Some(
            "Solver T1 a3; Solver T2 b3; Solver T3 c3; Solver T4 a2; Solver T5 b2; \
             Solver T6 c2; Solver T7 a1; Solver T8 b1; Solver T9 c1",
        ),
        reserve: None,
        attributes: "",
    },
    // 5x5: c2-c3 c1-c2 b1-c1 b2-b1 a2-b2 a1-a2; the hole on a1 between two Black men.
    Expected {
        file: "lewthwaite-5x5-black-wins.json",
        status: "won",
        winner: Some("Black"),
        ply: 6,
        pieces: Some(
            "White Man c1 d1 b2 e2 b3 c3 d3 a4 c4 e4 b5 d5; \
             Black Man a2 b1 c2 e1 d2 a3 e3 b4 d4 a5 c5 e5",
        ),
        reserve: None,
        attributes: "",
    },
    // Black leaps up the a-file and infects a7, White grows round g1, Black leaps down the
    // g-file and grows onto f2, infecting the five White Spores left: White has none.
    Expected {
        file: "spores-black-wins.json",
        status: "won",
        winner: Some("Black"),
        ply: 11,
        pieces: Some("Black Spore a5 a6 a7 e1 e2 e3 f1 f2 g1 g2 g3; Black Husk a1 a3 g5 g7"),
        reserve: None,
        attributes: "a5 guarded true; g3 guarded true",
    },
];

/// `{player: {type: [squares, sorted]}}` of a level's `setup`, players without pieces left
/// out.
fn pieces_of(setup: &Value) -> BTreeMap<String, BTreeMap<String, Vec<String>>> {
    let mut out = BTreeMap::new();
    for (player, types) in setup.as_object().unwrap() {
        let mut per: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (kind, squares) in types.as_object().unwrap() {
            let mut l: Vec<String> = squares
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap().to_string())
                .collect();
            l.sort();
            if !l.is_empty() {
                per.insert(kind.clone(), l);
            }
        }
        if !per.is_empty() {
            out.insert(player.clone(), per);
        }
    }
    out
}

/// The same map from the `Player Type square…; …` text of [`Expected::pieces`].
fn pieces_written(text: &str) -> BTreeMap<String, BTreeMap<String, Vec<String>>> {
    let mut out: BTreeMap<String, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    for group in text.split(';').map(str::trim).filter(|g| !g.is_empty()) {
        let mut w = group.split_whitespace();
        let player = w.next().unwrap().to_string();
        let kind = w.next().unwrap().to_string();
        let l = out.entry(player).or_default().entry(kind).or_default();
        l.extend(w.map(String::from));
        l.sort();
    }
    out
}

/// `(player, type, count)` triples of a level's `reserve`, or of the written form.
fn reserve_of(v: &Value) -> Vec<(String, String, u64)> {
    let mut out = Vec::new();
    for (player, types) in v.as_object().unwrap() {
        for (kind, n) in types.as_object().unwrap() {
            out.push((player.clone(), kind.clone(), n.as_u64().unwrap()));
        }
    }
    out.sort();
    out
}

fn reserve_written(text: &str) -> Vec<(String, String, u64)> {
    let mut out: Vec<(String, String, u64)> = text
        .split(';')
        .map(str::trim)
        .filter(|g| !g.is_empty())
        .map(|g| {
            let w: Vec<&str> = g.split_whitespace().collect();
            (w[0].to_string(), w[1].to_string(), w[2].parse().unwrap())
        })
        .collect();
    out.sort();
    out
}

/// `(square, attribute, value)` triples of a level's `attributes`, or of the written form.
fn attributes_of(v: Option<&Value>) -> Vec<(String, String, bool)> {
    let mut out = Vec::new();
    for (sq, attrs) in v.and_then(Value::as_object).into_iter().flatten() {
        for (name, on) in attrs.as_object().unwrap() {
            out.push((sq.clone(), name.clone(), on.as_bool().unwrap()));
        }
    }
    out.sort();
    out
}

fn attributes_written(text: &str) -> Vec<(String, String, bool)> {
    let mut out: Vec<(String, String, bool)> = text
        .split(';')
        .map(str::trim)
        .filter(|g| !g.is_empty())
        .map(|g| {
            let w: Vec<&str> = g.split_whitespace().collect();
            (w[0].to_string(), w[1].to_string(), w[2] == "true")
        })
        .collect();
    out.sort();
    out
}

fn winner(g: &dyn Game) -> Option<String> {
    match g.status() {
        Status::Won { winner, .. } => winner,
        _ => None,
    }
}

/// Every stored board replay has a hand-worked expectation here, and every expectation a
/// replay: a new replay must say what it was checked against.
#[test]
fn every_board_replay_has_a_hand_worked_expectation() {
    let dir = workspace().join("tests/replays/board");
    let mut stored: Vec<String> = tilesmith_tests::json_files(&dir)
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    stored.sort();
    let mut listed: Vec<String> = EXPECTED.iter().map(|e| e.file.to_string()).collect();
    listed.sort();
    assert_eq!(stored, listed);
}

fn check_replay(e: &Expected) {
    let path = workspace().join("tests/replays/board").join(e.file);
    let r = Replay::load(&path).unwrap_or_else(|p| panic!("{}: {p}", path.display()));
    let words = r.words.clone().unwrap();
    assert_eq!(words.len() as u64, e.ply, "{}: words", e.file);
    let mut g = r.document().unwrap().start(0).unwrap();
    let start_level = g.to_level();
    let start_hash = g.state_hash();
    // The game runs until its last word and ends on it.
    for (k, w) in words.iter().enumerate() {
        assert_eq!(
            g.status(),
            Status::Running,
            "{}: over before word {} ({w})",
            e.file,
            k + 1
        );
        let i = g
            .read_input(w)
            .unwrap_or_else(|err| panic!("{}: word {} {w}: {err}", e.file, k + 1));
        g.step(i);
        assert_eq!(g.error(), None, "{}", e.file);
    }
    assert_eq!(g.status().word(), e.status, "{}: {:?}", e.file, g.status());
    assert_eq!(winner(g.as_ref()).as_deref(), e.winner, "{}", e.file);
    assert_eq!(g.steps(), e.ply, "{}", e.file);
    let summary = g.summary();
    assert_eq!(summary["ply"], e.ply, "{}", e.file);
    assert_eq!(
        summary["legal"], 0,
        "{}: nothing to play after the end",
        e.file
    );
    assert!(summary["to_move"].is_null(), "{}", e.file);
    // The replay file's own expectation agrees with the game.
    let out = r.run().unwrap();
    assert!(out.matches, "{}: the recorded hash and status", e.file);
    assert_eq!(out.hash, g.state_hash(), "{}", e.file);
    assert_eq!(r.status.as_deref(), Some(e.status), "{}", e.file);
    // The final position reasoned by hand.
    let end = g.to_level();
    if let Some(p) = e.pieces {
        assert_eq!(pieces_of(&end["setup"]), pieces_written(p), "{}", e.file);
    }
    if let Some(res) = e.reserve {
        assert_eq!(
            reserve_of(&end["reserve"]),
            reserve_written(res),
            "{}",
            e.file
        );
    }
    assert_eq!(
        attributes_of(end.get("attributes")),
        attributes_written(e.attributes),
        "{}",
        e.file
    );
    let end_hash = g.state_hash();
    // Undo every ply: the start position again, running, nothing more to undo.
    for k in 0..e.ply {
        assert!(g.undo(), "{}: undo {}", e.file, k + 1);
    }
    assert!(!g.undo(), "{}: undo past the start", e.file);
    assert_eq!(g.to_level(), start_level, "{}: undone to the start", e.file);
    assert_eq!(g.state_hash(), start_hash, "{}", e.file);
    assert_eq!(g.status(), Status::Running, "{}", e.file);
    assert_eq!(g.steps(), 0, "{}", e.file);
    // Redo every ply: the same end.
    for k in 0..e.ply {
        assert!(g.redo(), "{}: redo {}", e.file, k + 1);
    }
    assert_eq!(g.state_hash(), end_hash, "{}: redone", e.file);
    assert_eq!(g.status().word(), e.status, "{}", e.file);
}

#[test]
fn stored_board_replays_end_as_worked_out_and_undo_to_their_start() {
    for e in EXPECTED {
        check_replay(e);
    }
}

/// The rules file each replay plays is the one its name starts with (a replay of another
/// file would still end, but prove nothing about the file meant).
#[test]
fn each_replay_plays_the_rules_file_it_is_named_after() {
    for e in EXPECTED {
        let path = workspace().join("tests/replays/board").join(e.file);
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let level = Path::new(v["level"].as_str().unwrap());
        let stem = level.file_stem().unwrap().to_string_lossy().into_owned();
        let game = stem.strip_prefix("english-").unwrap_or(&stem);
        assert!(
            e.file.starts_with(&format!("{game}-")),
            "{}: plays {}",
            e.file,
            level.display()
        );
    }
}

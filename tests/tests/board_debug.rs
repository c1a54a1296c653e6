//! The move-generation debugger (`play::debug`): what it lists for a square, block by block,
//! and how it steps a move's execution, against positions worked out by hand from the ZRF
//! files and spec `move-primitives.md`:
//!
//! - English checkers (corpus): a Black man on c3 with White men on d4 and d6 has the jump
//!   c3-e5 (capture d4 at level 3, key c3-e5) that starts the chain `c3xe5xc7`, and plain
//!   steps removed by `move-priorities` because a jump exists; the continuation from e5 runs
//!   only the jump blocks.
//! - Spec Example 4 (castling by `cascade`, explicit `from`/`to`) in a small ZRF: the King's
//!   movement is the key, execution shows pick up, remove, set down with both pieces.
//! - Chess (corpus), spec Example 1: the Rook on e2 pinned by a Rook on e5 keeps e3, e4, e5;
//!   its moves along rank 2 are listed as removed by the legality filter.
//! - Reversi (levels): every drop with its flips at level 2; a drop square's report.

#![allow(clippy::unwrap_used)]

use tilesmith_engine::kind::board::play::debug::{self, BlockMoves, DebugMove, StageStep, Verdict};
use tilesmith_engine::kind::board::play::{self, Engine, Piece, Position, Primitive};
use tilesmith_engine::kind::board::rules::{PlayerId, PosId, Rules};
use tilesmith_engine::kind::board::zrf;
use tilesmith_tests::{corpus, workspace};

fn compile(text: &str, variant: Option<&str>) -> Rules {
    let (rules, _warnings) = zrf::compile(text, variant)
        .unwrap_or_else(|problems| panic!("does not compile: {problems:#?}"));
    rules
}

fn corpus_text(name: &str) -> String {
    std::fs::read_to_string(corpus("board").join(name)).unwrap()
}

fn level_text(name: &str) -> String {
    std::fs::read_to_string(workspace().join("levels").join("board").join(name)).unwrap()
}

fn sq(r: &Rules, name: &str) -> PosId {
    r.board
        .positions
        .iter()
        .position(|p| p.name == name)
        .unwrap_or_else(|| panic!("no position {name}")) as PosId
}

fn player(r: &Rules, name: &str) -> PlayerId {
    r.players.iter().position(|p| p == name).unwrap() as PlayerId
}

fn kind(r: &Rules, name: &str) -> u8 {
    r.pieces.iter().position(|p| p.name == name).unwrap() as u8
}

/// An empty board, `mover` to move.
fn empty(r: &Rules, mover: &str) -> Position {
    let mut p = Position::initial(r);
    p.cells.iter_mut().for_each(|c| *c = None);
    p.turn = r
        .turn_order
        .iter()
        .position(|e| e.player == player(r, mover))
        .unwrap();
    p
}

fn put(r: &Rules, p: &mut Position, at: &str, owner: &str, piece: &str) {
    p.cells[sq(r, at) as usize] = Some(Piece {
        player: player(r, owner),
        kind: kind(r, piece),
        attrs: 0,
    });
}

fn texts(m: &DebugMove) -> Vec<&str> {
    m.primitives.iter().map(|p| p.text.as_str()).collect()
}

fn levels(m: &DebugMove) -> Vec<u8> {
    m.primitives.iter().map(|p| p.level).collect()
}

/// The piece on `at` as (owner, type) names.
fn on(r: &Rules, p: &Position, at: &str) -> Option<(String, String)> {
    p.cells[sq(r, at) as usize].map(|q| {
        (
            r.players[q.player as usize].clone(),
            r.pieces[q.kind as usize].name.clone(),
        )
    })
}

fn names(r: &Rules, v: &[PosId]) -> Vec<String> {
    v.iter()
        .map(|&p| r.board.positions[p as usize].name.clone())
        .collect()
}

/// 1-based line and column of the `n`-th occurrence of `needle`.
fn place(text: &str, needle: &str, n: usize) -> (u32, u32) {
    let at = text.match_indices(needle).nth(n).unwrap().0;
    let before = &text[..at];
    let line = before.matches('\n').count() as u32 + 1;
    let col = before.rsplit('\n').next().unwrap().chars().count() as u32 + 1;
    (line, col)
}

// ---------------------------------------------------------------------------------------
// Checkers: a jump chain, its continuation, and move-priorities

fn checkers() -> (String, Engine, Position) {
    let text = corpus_text("english-checkers.zrf");
    let r = compile(&text, None);
    // Black (moving up the board) to move: men on c3 and a1; White men on d4 and d6 (and h8
    // out of the way). c3 jumps d4 to e5, then d6 to c7: c3xe5xc7.
    let mut p = empty(&r, "Black");
    put(&r, &mut p, "c3", "Black", "Man");
    put(&r, &mut p, "a1", "Black", "Man");
    put(&r, &mut p, "d4", "White", "Man");
    put(&r, &mut p, "d6", "White", "Man");
    put(&r, &mut p, "h8", "White", "Man");
    (text, Engine::new(r), p)
}

#[test]
fn checkers_jump_lists_its_capture_at_level_3_with_the_key_marked() {
    let (text, e, p) = checkers();
    let r = e.rules();
    let rep = debug::square_report(&e, &p, Some(sq(r, "c3"))).unwrap();
    assert_eq!(rep.player, player(r, "Black"));
    assert!(!rep.as_if_to_move);
    // The Man's four blocks in written order: (checker-jump nw) (checker-jump ne), then
    // (checker-shift nw) (checker-shift ne), with their move types.
    let kinds: Vec<Option<&str>> = rep
        .blocks
        .iter()
        .map(|b| b.move_type_name.as_deref())
        .collect();
    assert_eq!(
        kinds,
        [
            Some("jump-type"),
            Some("jump-type"),
            Some("normal-type"),
            Some("normal-type")
        ]
    );
    assert!(
        rep.blocks
            .iter()
            .all(|b| b.piece == "Man" && b.skipped.is_none())
    );
    // Each block is located where its macro call is written.
    let (line, col) = place(&text, "(checker-jump ne)", 0);
    assert_eq!(
        (rep.blocks[1].span.line, rep.blocks[1].span.col),
        (line, col)
    );
    // nw: b4 is empty, so (verify enemy?) fails: nothing. ne: the jump over d4.
    assert!(rep.blocks[0].moves.is_empty());
    let jump = &rep.blocks[1].moves;
    assert_eq!(jump.len(), 1);
    let j = &jump[0];
    assert_eq!(texts(j), ["c3-e5", "xd4"]);
    assert_eq!(levels(j), [1, 3]);
    assert_eq!(j.key_index, Some(0));
    assert!(j.primitives[0].key && !j.primitives[1].key);
    assert_eq!(j.continues_at, Some(sq(r, "e5")));
    assert_eq!(
        j.verdict,
        Verdict::Legal {
            notations: vec!["c3xe5xc7".to_string()]
        }
    );
    // The step c3-b4 is generated but removed: a jump exists (move-priorities); d4 is
    // occupied, so the other step block writes nothing.
    let step = &rep.blocks[2].moves;
    assert_eq!(step.len(), 1);
    assert_eq!(texts(&step[0]), ["c3-b4"]);
    match &step[0].verdict {
        Verdict::LowerPriority {
            notations,
            kept,
            reason,
        } => {
            assert_eq!(notations, &["c3-b4"]);
            assert_eq!(*kept, Some(0), "jump-type is move type 0");
            assert!(reason.contains("jump-type"), "{reason}");
            assert!(reason.contains("move-priorities"), "{reason}");
        }
        v => panic!("c3-b4 should be removed by move-priorities, is {v:?}"),
    }
    assert!(rep.blocks[3].moves.is_empty());
    // a1 has no jump; its step to b2 is removed the same way.
    let rep = debug::square_report(&e, &p, Some(sq(r, "a1"))).unwrap();
    let all: Vec<&DebugMove> = rep.blocks.iter().flat_map(|b| &b.moves).collect();
    assert_eq!(all.len(), 1);
    assert_eq!(texts(all[0]), ["a1-b2"]);
    assert!(!all[0].verdict.is_legal());
    assert!(all[0].verdict.reason().unwrap().contains("jump-type"));
}

#[test]
fn checkers_continuation_lists_the_second_jump_only() {
    let (_, e, p) = checkers();
    let r = e.rules();
    let rep = debug::square_report(&e, &p, Some(sq(r, "c3"))).unwrap();
    let first = rep.blocks[1].moves[0].mv.clone();
    let cont = debug::continuation(&e, &p, &first).expect("the jump is partial");
    // After the first part: the man on e5, d4 captured, the same piece continues.
    assert_eq!(on(r, &cont, "e5"), Some(("Black".into(), "Man".into())));
    assert_eq!(on(r, &cont, "d4"), None);
    assert_eq!(on(r, &cont, "c3"), None);
    let rep = debug::square_report(&e, &cont, Some(sq(r, "e5"))).unwrap();
    // Only jump-type blocks run (add-partial jump-type); the steps are skipped.
    let skipped: Vec<bool> = rep.blocks.iter().map(|b| b.skipped.is_some()).collect();
    assert_eq!(skipped, [false, false, true, true]);
    assert!(
        rep.blocks[2]
            .skipped
            .as_deref()
            .unwrap()
            .contains("jump-type")
    );
    let moves: Vec<&DebugMove> = rep.blocks.iter().flat_map(|b| &b.moves).collect();
    assert_eq!(moves.len(), 1);
    assert_eq!(texts(moves[0]), ["e5-c7", "xd6"]);
    assert_eq!(levels(moves[0]), [1, 3]);
    assert!(moves[0].verdict.is_legal());
    assert_eq!(moves[0].verdict.notations(), ["e5xc7"]);
    // Another piece cannot move during the chain.
    let other = debug::square_report(&e, &cont, Some(sq(r, "a1"))).unwrap();
    assert!(other.blocks.is_empty());
    assert!(other.note.unwrap().contains("e5"));
    // A non-partial move has no continuation.
    let step = debug::square_report(&e, &p, Some(sq(r, "a1"))).unwrap();
    let a1b2 = step.blocks.iter().flat_map(|b| &b.moves).next().unwrap();
    assert!(debug::continuation(&e, &p, &a1b2.mv).is_none());
}

#[test]
fn checkers_jump_executes_movement_then_capture() {
    let (_, e, p) = checkers();
    let r = e.rules();
    let rep = debug::square_report(&e, &p, Some(sq(r, "c3"))).unwrap();
    let mv = rep.blocks[1].moves[0].mv.clone();
    let stages = debug::execution_stages(&e, &p, &mv);
    let steps: Vec<(u8, StageStep)> = stages.iter().map(|s| (s.level, s.step)).collect();
    assert_eq!(steps, [(1, StageStep::Movement), (3, StageStep::Captures)]);
    assert_eq!(stages[0].title, "level 1: movement");
    assert_eq!(names(r, &stages[0].touched), ["c3", "e5"]);
    // After level 1 the captured man is still on d4 (E1: captures come last).
    assert_eq!(
        on(r, &stages[0].position, "e5"),
        Some(("Black".into(), "Man".into()))
    );
    assert_eq!(
        on(r, &stages[0].position, "d4"),
        Some(("White".into(), "Man".into()))
    );
    assert_eq!(stages[1].title, "level 3: captures");
    assert_eq!(names(r, &stages[1].touched), ["d4"]);
    assert_eq!(on(r, &stages[1].position, "d4"), None);
    // The last stage is the executed move.
    let mut done = p.clone();
    play::execute(r, &mut done, &mv);
    assert_eq!(stages[1].position, done);
    // The whole turn: two parts, four stages, ending with both White men gone.
    let turn = e
        .turns(&p)
        .unwrap()
        .into_iter()
        .find(|t| t.notation == "c3xe5xc7")
        .unwrap();
    let all = debug::turn_stages(&e, &p, &turn);
    let parts: Vec<usize> = all.iter().map(|s| s.part).collect();
    assert_eq!(parts, [0, 0, 1, 1]);
    let end = &all[3].position;
    assert_eq!(on(r, end, "c7"), Some(("Black".into(), "Man".into())));
    assert_eq!((on(r, end, "d4"), on(r, end, "d6")), (None, None));
}

// ---------------------------------------------------------------------------------------
// Spec Example 4: castling by cascade

/// Spec Example 4 as a ZRF: one rank, the King's block walks two empty squares east,
/// `cascade`s (MOVE K e1→g1), steps onto the Rook, sets `from` there, walks back two, sets
/// `to`, and `add`s (MOVE R h1→f1).
const CASTLE: &str = r#"
(game (title "Example 4")
  (players White Black)
  (turn-order White Black)
  (board (grid (start-rectangle 0 0 50 50)
    (dimensions ("a/b/c/d/e/f/g/h" (50 0)) ("1" (0 50)))
    (directions (e 1 0) (w -1 0))))
  (piece (name King)
    (moves
      (e (verify empty?) e (verify empty?)
       cascade
       e (verify friend?) (verify (piece? Rook))
       from
       w w to
       add)))
  (piece (name Rook) (moves (w (verify empty?) add)))
  (board-setup (White (King e1) (Rook h1)) (Black (King a1)))
  (draw-condition (White Black) stalemated))
"#;

#[test]
fn castling_cascade_steps_through_pick_up_remove_set_down() {
    let e = Engine::new(compile(CASTLE, None));
    let r = e.rules();
    let p = e.initial();
    let rep = debug::square_report(&e, &p, Some(sq(r, "e1"))).unwrap();
    assert_eq!(rep.blocks.len(), 1);
    let moves = &rep.blocks[0].moves;
    assert_eq!(moves.len(), 1);
    let m = &moves[0];
    // Written list [MOVE K e1→g1] [MOVE R h1→f1]; the King's movement is the key (K1).
    assert_eq!(texts(m), ["e1-g1", "h1-f1"]);
    assert_eq!(levels(m), [1, 1]);
    assert_eq!(m.key_index, Some(0));
    assert_eq!(m.verdict.notations(), ["e1-g1"]);
    let stages = debug::execution_stages(&e, &p, &m.mv);
    let titles: Vec<&str> = stages.iter().map(|s| s.title.as_str()).collect();
    assert_eq!(
        titles,
        ["level 1: pick up", "level 1: remove", "level 1: set down"]
    );
    // Pick up: both pieces leave; nothing else changes.
    assert_eq!(names(r, &stages[0].touched), ["e1", "h1"]);
    assert_eq!(on(r, &stages[0].position, "e1"), None);
    assert_eq!(on(r, &stages[0].position, "h1"), None);
    assert_eq!(stages[0].notes.len(), 2);
    // Remove: g1 and f1 were empty.
    assert!(stages[1].touched.is_empty());
    assert_eq!(stages[1].position, stages[0].position);
    // Set down: the King on g1, the Rook on f1.
    assert_eq!(names(r, &stages[2].touched), ["g1", "f1"]);
    assert_eq!(
        on(r, &stages[2].position, "g1"),
        Some(("White".into(), "King".into()))
    );
    assert_eq!(
        on(r, &stages[2].position, "f1"),
        Some(("White".into(), "Rook".into()))
    );
    assert_eq!(stages[2].position.cells.iter().flatten().count(), 3);
    let mut done = p.clone();
    play::execute(r, &mut done, &m.mv);
    assert_eq!(stages[2].position, done);
}

#[test]
fn a_cascade_onto_an_occupied_square_removes_it_in_step_two() {
    // A Black piece on g1: the King's cascade lands on it. Pick up (e1, h1), remove (g1's
    // piece: capture by moving), set down.
    let text = CASTLE.replace("(verify empty?)\n       cascade", "\n       cascade");
    assert_ne!(text, CASTLE);
    let e = Engine::new(compile(&text, None));
    let r = e.rules();
    let mut p = e.initial();
    put(r, &mut p, "g1", "Black", "Rook");
    let rep = debug::square_report(&e, &p, Some(sq(r, "e1"))).unwrap();
    let m = &rep.blocks[0].moves[0];
    let stages = debug::execution_stages(&e, &p, &m.mv);
    assert_eq!(stages[1].step, StageStep::Remove);
    assert_eq!(names(r, &stages[1].touched), ["g1"]);
    assert_eq!(on(r, &stages[1].position, "g1"), None);
    assert!(
        stages[1].notes[0].contains("Black's Rook"),
        "{:?}",
        stages[1].notes
    );
    assert_eq!(
        on(r, &stages[2].position, "g1"),
        Some(("White".into(), "King".into()))
    );
}

// ---------------------------------------------------------------------------------------
// Chess: the legality filter (spec Example 1)

#[test]
fn chess_pinned_rook_lists_its_rank_moves_as_illegal_with_the_reason() {
    let e = Engine::new(compile(&corpus_text("chess.zrf"), None));
    let r = e.rules();
    let mut p = empty(r, "White");
    put(r, &mut p, "e1", "White", "King");
    put(r, &mut p, "e2", "White", "Rook");
    put(r, &mut p, "e5", "Black", "Rook");
    put(r, &mut p, "a8", "Black", "King");
    let rep = debug::square_report(&e, &p, Some(sq(r, "e2"))).unwrap();
    // The Rook's blocks: (slide n) (slide s) (slide w) (slide e).
    assert_eq!(rep.blocks.len(), 4);
    let by_block: Vec<Vec<(&str, bool)>> = rep
        .blocks
        .iter()
        .map(|b: &BlockMoves| {
            b.moves
                .iter()
                .map(|m| (m.primitives[0].text.as_str(), m.verdict.is_legal()))
                .collect()
        })
        .collect();
    assert_eq!(
        by_block,
        vec![
            vec![("e2-e3", true), ("e2-e4", true), ("e2-e5", true)],
            vec![],
            vec![
                ("e2-d2", false),
                ("e2-c2", false),
                ("e2-b2", false),
                ("e2-a2", false)
            ],
            vec![("e2-f2", false), ("e2-g2", false), ("e2-h2", false)],
        ]
    );
    assert_eq!(rep.blocks[0].moves[2].verdict.notations(), ["e2xe5"]);
    for m in rep.blocks[2].moves.iter().chain(&rep.blocks[3].moves) {
        match &m.verdict {
            Verdict::Illegal {
                royal_at, reason, ..
            } => {
                assert_eq!(*royal_at, sq(r, "e1"));
                assert!(
                    reason.starts_with("leaves White's King on e1 attacked"),
                    "{reason}"
                );
            }
            v => panic!("{} should be illegal, is {v:?}", m.primitives[0].text),
        }
    }
    // The enemy Rook's moves, as if Black were to move: none of them is illegal (Black's
    // King on a8 is not exposed), and e5xe2 is a capture.
    let rep = debug::square_report(&e, &p, Some(sq(r, "e5"))).unwrap();
    assert!(rep.as_if_to_move);
    assert_eq!(rep.player, player(r, "Black"));
    let moves: Vec<&DebugMove> = rep.blocks.iter().flat_map(|b| &b.moves).collect();
    assert_eq!(
        moves.len(),
        3 + 3 + 4 + 3,
        "e6 e7 e8, e4 e3 e2, 4 west and 3 east"
    );
    assert!(moves.iter().all(|m| m.verdict.is_legal()));
}

// ---------------------------------------------------------------------------------------
// Reversi: drops with their flips

#[test]
fn reversi_drops_list_their_flips_at_level_2() {
    let e = Engine::new(compile(&level_text("reversi.zrf"), None));
    let r = e.rules();
    let p = e.initial();
    // Black to move from the centre (White d4 e5, Black d5 e4): @d3 flips d4, @c4 flips d4,
    // @f5 flips e5, @e6 flips e5.
    let rep = debug::square_report(&e, &p, None).unwrap();
    assert_eq!(rep.blocks.len(), 1);
    assert!(rep.blocks[0].origin.drop);
    let mut got: Vec<(Vec<&str>, Vec<u8>, String)> = rep.blocks[0]
        .moves
        .iter()
        .map(|m| (texts(m), levels(m), m.verdict.notations()[0].clone()))
        .collect();
    got.sort();
    assert_eq!(
        got,
        vec![
            (vec!["Disc@c4", "~d4"], vec![1, 2], "@c4".to_string()),
            (vec!["Disc@d3", "~d4"], vec![1, 2], "@d3".to_string()),
            (vec!["Disc@e6", "~e5"], vec![1, 2], "@e6".to_string()),
            (vec!["Disc@f5", "~e5"], vec![1, 2], "@f5".to_string()),
        ]
    );
    // Clicking the empty c4 lists the drop there only; a1 has none.
    let c4 = debug::square_report(&e, &p, Some(sq(r, "c4"))).unwrap();
    let moves: Vec<&DebugMove> = c4.blocks.iter().flat_map(|b| &b.moves).collect();
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0].primitives[0].primitive, {
        let Primitive::Drop { piece, .. } = moves[0].mv.primitives[0] else {
            panic!()
        };
        Primitive::Drop {
            at: sq(r, "c4"),
            piece,
        }
    });
    let a1 = debug::square_report(&e, &p, Some(sq(r, "a1"))).unwrap();
    assert!(a1.blocks.iter().all(|b| b.moves.is_empty()));
    // Stepping @c4: the drop, then the flip of d4.
    let stages = debug::execution_stages(&e, &p, &moves[0].mv);
    let steps: Vec<StageStep> = stages.iter().map(|s| s.step).collect();
    assert_eq!(steps, [StageStep::Movement, StageStep::Changes]);
    assert_eq!(
        on(r, &stages[0].position, "d4"),
        Some(("White".into(), "Disc".into()))
    );
    assert_eq!(
        on(r, &stages[1].position, "d4"),
        Some(("Black".into(), "Disc".into()))
    );
    assert_eq!(names(r, &stages[1].touched), ["d4"]);
}

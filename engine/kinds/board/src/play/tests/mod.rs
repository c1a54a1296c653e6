//! The worked examples of spec move-primitives §7 (1–10; for Example 7 only the written
//! list and that the result is one of the two the spec allows), the reset table, limits and end conditions, on rules built
//! by hand (the ZRF front end is tested with real files in `tests/tests/board_*.rs`).
#![allow(clippy::unwrap_used)]

use super::super::rules::*;
use super::*;

mod examples;
mod games;

/// Every shipped ZRF, every corpus ZRF and two made for the tests, compiled: the games the
/// form-against-form tests (`code.rs`, `end.rs`) play seeded random games of. Reversi's
/// flips, chess's slides, castling and `attacked?`, checkers' chains, halma's hops,
/// Lewthwaite's pushes; `testdata/effects.zrf` writes a line's squares by `create`, `flip`,
/// `change-owner`, `change-type` and `capture` beside its drop, `testdata/chain.zrf` by
/// `change-owner` inside a chain of jumps (a review: the shipped line games only drop).
pub(super) fn shipped_and_corpus_rules() -> Vec<(&'static str, Rules)> {
    [
        "testdata/effects.zrf",
        "testdata/chain.zrf",
        "../../../levels/board/reversi.zrf",
        "../../../levels/board/tic-tac-toe.zrf",
        "../../../levels/board/spores.zrf",
        "../../../levels/board/fifteen.zrf",
        "../../../levels/board/rotate-three.zrf",
        "../../../../shared/corpus/board/chess.zrf",
        "../../../../shared/corpus/board/english-checkers.zrf",
        "../../../../shared/corpus/board/halma.zrf",
        "../../../../shared/corpus/board/chinese-checkers.zrf",
        "../../../../shared/corpus/board/lewthwaite.zrf",
    ]
    .into_iter()
    .map(|rel| {
        let path = format!("{}/{rel}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{path}: {e} (clone shared/ beside the project)"));
        (rel, crate::zrf::compile(&text, None).unwrap().0)
    })
    .collect()
}

// ---------------------------------------------------------------------------------------
// A small builder for hand-written rules.

const N: DirId = 0;
const S: DirId = 1;
const E: DirId = 2;
const W: DirId = 3;
const NE: DirId = 4;
const NW: DirId = 5;
const SE: DirId = 6;
const SW: DirId = 7;
const DIRS: [(&str, i32, i32); 8] = [
    ("n", 0, -1),
    ("s", 0, 1),
    ("e", 1, 0),
    ("w", -1, 0),
    ("ne", 1, -1),
    ("nw", -1, -1),
    ("se", 1, 1),
    ("sw", -1, 1),
];
const SP: Span = Span { line: 0, col: 0 };

/// A `files` x `ranks` board named like chess (`a1` bottom left), ranks listed top first, the
/// eight directions of [`DIRS`].
fn board(files: u16, ranks: u16, players: usize) -> BoardShape {
    let mut positions = Vec::new();
    for row in 0..ranks {
        for col in 0..files {
            positions.push(PositionDef {
                name: format!("{}{}", (b'a' + col as u8) as char, ranks - row),
                col,
                row,
                ..Default::default()
            });
        }
    }
    let mut links = Vec::new();
    for row in 0..ranks as i32 {
        for col in 0..files as i32 {
            for (_, dx, dy) in DIRS {
                let (c, r) = (col + dx, row + dy);
                links.push(
                    if c < 0 || r < 0 || c >= files as i32 || r >= ranks as i32 {
                        NO_POS
                    } else {
                        (r * files as i32 + c) as PosId
                    },
                );
            }
        }
    }
    BoardShape {
        cols: files,
        rows: ranks,
        positions,
        directions: DIRS.iter().map(|d| d.0.to_string()).collect(),
        links,
        symmetry: vec![(0..8).collect(); players],
        zones: Vec::new(),
    }
}

fn rules(files: u16, ranks: u16, players: &[&str], pieces: Vec<PieceDef>) -> Rules {
    Rules {
        title: "test".into(),
        players: players.iter().map(|s| s.to_string()).collect(),
        turn_order: (0..players.len())
            .map(|p| TurnEntry {
                player: p as PlayerId,
                move_type: None,
            })
            .collect(),
        board: board(files, ranks, players.len()),
        pieces,
        ..Default::default()
    }
}

fn piece(name: &str, moves: Vec<Vec<Instr>>) -> PieceDef {
    PieceDef {
        name: name.into(),
        moves: moves.into_iter().map(block).collect(),
        drops: Vec::new(),
        span: SP,
    }
}

fn block(b: Vec<Instr>) -> MoveDef {
    MoveDef {
        move_type: None,
        block: b,
        span: SP,
    }
}

fn at(r: &Rules, name: &str) -> PosId {
    r.board
        .positions
        .iter()
        .position(|p| p.name == name)
        .unwrap() as PosId
}

fn kind(r: &Rules, name: &str) -> PieceId {
    r.pieces.iter().position(|p| p.name == name).unwrap() as PieceId
}

fn put(r: &Rules, pos: &mut Position, sq: &str, player: PlayerId, k: &str) {
    pos.cells[at(r, sq) as usize] = Some(Piece {
        player,
        kind: kind(r, k),
        attrs: 0,
    });
}

fn empty_pos(r: &Rules) -> Position {
    let mut p = Position::initial(r);
    p.cells.iter_mut().for_each(|c| *c = None);
    p
}

fn cell(r: &Rules, pos: &Position, sq: &str) -> Option<(PlayerId, String)> {
    pos.cells[at(r, sq) as usize].map(|p| (p.player, r.pieces[p.kind as usize].name.clone()))
}

fn st(d: DirId) -> Instr {
    Instr::Step(d, SP)
}
fn add() -> Instr {
    Instr::Add {
        kind: AddKind::Add,
        promote: vec![],
        continue_type: None,
        span: SP,
    }
}
fn add_as(k: PieceId) -> Instr {
    Instr::Add {
        kind: AddKind::Add,
        promote: vec![k],
        continue_type: None,
        span: SP,
    }
}
fn add_partial(t: Option<MoveTypeId>) -> Instr {
    Instr::Add {
        kind: AddKind::Partial,
        promote: vec![],
        continue_type: t,
        span: SP,
    }
}
fn verify(c: Cond) -> Instr {
    Instr::Verify(c, SP)
}
fn empty() -> Cond {
    Cond::Empty(Loc::Here)
}
fn enemy() -> Cond {
    Cond::Enemy(Loc::Here)
}
fn friend() -> Cond {
    Cond::Friend(Loc::Here)
}
fn not(c: Cond) -> Cond {
    Cond::Not(Box::new(c))
}
fn wh(c: Cond, body: Vec<Instr>) -> Instr {
    Instr::While(c, body, SP)
}
fn iff(c: Cond, then: Vec<Instr>, els: Vec<Instr>) -> Instr {
    Instr::If(c, then, els, SP)
}
fn capture() -> Instr {
    Instr::Capture(Loc::Here, SP)
}
fn cascade() -> Instr {
    Instr::Cascade(SP)
}
fn from(p: PosId) -> Instr {
    Instr::From(Loc::Pos(p), SP)
}
fn to(p: PosId) -> Instr {
    Instr::To(Loc::Pos(p), SP)
}
fn mv(from: PosId, to: PosId) -> Primitive {
    Primitive::Move {
        from,
        to,
        promote: None,
        copy: false,
    }
}
fn notations(t: &[TurnMove]) -> Vec<String> {
    t.iter().map(|t| t.notation.clone()).collect()
}

fn loss(players: &[PlayerId], test: EndTest) -> EndCondition {
    EndCondition {
        outcome: super::super::rules::Outcome::Loss,
        players: players.to_vec(),
        test,
        span: SP,
    }
}

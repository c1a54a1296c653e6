//! The ZRF front end (`engine/kinds/board/src/zrf/`, `docs/board-zrf.md`) against the five
//! real files of `../shared/corpus/board/`: every variant compiles, and concrete facts read
//! off the files (board sizes, links, symmetries, zones, setups, blocks, end conditions,
//! options, warnings) come out of the compiled [`Rules`]. Then the constructs the corpus
//! does not use, variant inheritance, and bad input: every error located, bounded, one line.

#![allow(clippy::unwrap_used)]

use proptest::prelude::*;
use tilesmith_engine::kind::board::rules::{
    AddKind, BoardShape, Cond, EndTest, GoTarget, Instr, Loc, NO_POS, Outcome, PassTurn, Place,
    Rules, Span,
};
use tilesmith_engine::kind::board::zrf::{self, MAX_ZRF_BYTES, ZrfProblem};

fn corpus(name: &str) -> String {
    std::fs::read_to_string(tilesmith_tests::corpus("board").join(name)).unwrap()
}

/// Compiles, failing the test with the problems if there are errors.
fn rules(text: &str, variant: Option<&str>) -> (Rules, Vec<ZrfProblem>) {
    match zrf::compile(text, variant) {
        Ok(r) => r,
        Err(p) => panic!("{variant:?} does not compile: {p:#?}"),
    }
}

/// The errors of a text that must not compile.
fn errors(text: &str) -> Vec<ZrfProblem> {
    match zrf::compile(text, None) {
        Ok(_) => panic!("compiled, but errors were expected"),
        Err(p) => p.into_iter().filter(|p| !p.warning).collect(),
    }
}

/// The 1-based line and column (characters) of the `n`-th (0-based) occurrence of `needle`.
fn place(text: &str, needle: &str, n: usize) -> Span {
    let at = text.match_indices(needle).nth(n).unwrap().0;
    let before = &text[..at];
    let line = before.matches('\n').count() as u32 + 1;
    let col = before.rsplit('\n').next().unwrap().chars().count() as u32 + 1;
    Span { line, col }
}

fn pos(b: &BoardShape, name: &str) -> u16 {
    b.positions.iter().position(|p| p.name == name).unwrap() as u16
}

fn dir(b: &BoardShape, name: &str) -> u8 {
    b.directions.iter().position(|d| d == name).unwrap() as u8
}

fn link(b: &BoardShape, from: &str, d: &str) -> u16 {
    b.links[pos(b, from) as usize * b.directions.len() + dir(b, d) as usize]
}

fn id<T: AsRef<str>>(names: &[T], name: &str) -> u8 {
    names.iter().position(|n| n.as_ref() == name).unwrap() as u8
}

/// Whether an instruction list contains (at any depth) an instruction matching `f`.
fn contains(block: &[Instr], f: &dyn Fn(&Instr) -> bool) -> bool {
    block.iter().any(|i| {
        f(i) || match i {
            Instr::If(_, a, b, _) => contains(a, f) || contains(b, f),
            Instr::While(_, a, _) => contains(a, f),
            _ => false,
        }
    })
}

/// The words of the file's `(kill-positions …)` list (the first one), read directly.
fn kill_list(text: &str) -> Vec<String> {
    let start = text.find("(kill-positions").unwrap() + "(kill-positions".len();
    let end = start + text[start..].find(')').unwrap();
    text[start..end]
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

// ---------------------------------------------------------------------------------------
// English checkers

#[test]
fn checkers_board_players_and_setup() {
    let text = corpus("english-checkers.zrf");
    assert_eq!(
        zrf::variants(&text).unwrap(),
        vec!["English Checkers", "Laska"]
    );
    let (r, warnings) = rules(&text, None);
    assert_eq!(r.title, "English Checkers");
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(r.players, vec!["Black", "White"]);
    // (turn-order Black White): Black moves first.
    assert_eq!(r.turn_order.len(), 2);
    assert_eq!(r.turn_order[0].player, 0);
    assert_eq!(r.turn_order[1].player, 1);
    let b = &r.board;
    assert_eq!((b.cols, b.rows), (8, 8));
    assert_eq!(b.positions.len(), 64);
    assert_eq!(b.directions, vec!["ne", "nw", "se", "sw"]);
    // a8 is the top-left cell, h1 the bottom-right.
    assert_eq!(b.positions[0].name, "a8");
    let a1 = &b.positions[pos(b, "a1") as usize];
    assert_eq!((a1.col, a1.row), (0, 7));
    // (ne 1 -1): one file right, one rank up the drawn board.
    assert_eq!(link(b, "c3", "ne"), pos(b, "d4"));
    assert_eq!(link(b, "c3", "sw"), pos(b, "b2"));
    assert_eq!(link(b, "a1", "nw"), NO_POS);
    assert_eq!(link(b, "h8", "ne"), NO_POS);
    // 24 men: 12 each, on the squares listed.
    assert_eq!(r.setup.len(), 24);
    let man = id(
        &r.pieces.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(),
        "Man",
    );
    for (player, count) in [(0u8, 12), (1u8, 12)] {
        assert_eq!(
            r.setup
                .iter()
                .filter(|e| e.player == player && e.piece == man)
                .count(),
            count
        );
    }
    assert!(
        r.setup
            .iter()
            .any(|e| e.player == 0 && e.place == Place::At(pos(b, "a1")))
    );
    assert!(
        r.setup
            .iter()
            .any(|e| e.player == 1 && e.place == Place::At(pos(b, "h6")))
    );
    // White's symmetry: nw -> se, se -> nw, ne -> sw, sw -> ne; Black's is the identity.
    let w = &b.symmetry[1];
    assert_eq!(w[dir(b, "nw") as usize], dir(b, "se"));
    assert_eq!(w[dir(b, "se") as usize], dir(b, "nw"));
    assert_eq!(w[dir(b, "ne") as usize], dir(b, "sw"));
    assert_eq!(w[dir(b, "sw") as usize], dir(b, "ne"));
    assert_eq!(b.symmetry[0], vec![0, 1, 2, 3]);
    // One zone "promotion", per player.
    assert_eq!(b.zones.len(), 1);
    let z = &b.zones[0];
    assert_eq!(z.name, "promotion");
    let names = |v: &Vec<u16>| {
        v.iter()
            .map(|&p| b.positions[p as usize].name.as_str())
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&z.positions[0]), vec!["b8", "d8", "f8", "h8"]);
    assert_eq!(names(&z.positions[1]), vec!["a1", "c1", "e1", "g1"]);
}

#[test]
fn checkers_blocks_priorities_and_ends() {
    let text = corpus("english-checkers.zrf");
    let (r, _) = rules(&text, Some("english checkers"));
    assert_eq!(r.move_types, vec!["jump-type", "normal-type"]);
    assert_eq!(r.move_priorities, vec![0, 1]);
    let man = &r.pieces[0];
    let king = &r.pieces[1];
    assert_eq!((man.name.as_str(), king.name.as_str()), ("Man", "King"));
    assert_eq!(man.moves.len(), 4);
    assert_eq!(king.moves.len(), 8);
    let types: Vec<Option<u8>> = man.moves.iter().map(|m| m.move_type).collect();
    assert_eq!(types, vec![Some(0), Some(0), Some(1), Some(1)]);
    // (checker-jump nw), expanded: nw (verify enemy?) capture nw (verify empty?)
    // (if (in-zone? promotion) (add King) else (add-partial jump-type)).
    let b = &r.board;
    let nw = dir(b, "nw");
    let jump = &man.moves[0];
    assert_eq!(jump.span, place(&text, "(checker-jump nw)", 0));
    let blk = &jump.block;
    assert_eq!(blk.len(), 6, "{blk:#?}");
    assert!(matches!(blk[0], Instr::Step(d, _) if d == nw));
    assert!(matches!(blk[1], Instr::Verify(Cond::Enemy(Loc::Here), _)));
    assert!(matches!(blk[2], Instr::Capture(Loc::Here, _)));
    assert!(matches!(blk[3], Instr::Step(d, _) if d == nw));
    assert!(matches!(blk[4], Instr::Verify(Cond::Empty(Loc::Here), _)));
    let Instr::If(Cond::InZone(0, Loc::Here), then, other, _) = &blk[5] else {
        panic!("{:?}", blk[5]);
    };
    assert!(
        matches!(&then[..], [Instr::Add { kind: AddKind::Add, promote, continue_type: None, .. }] if promote == &vec![1])
    );
    assert!(
        matches!(&other[..], [Instr::Add { kind: AddKind::Partial, promote, continue_type: Some(0), .. }] if promote.is_empty())
    );
    // The instructions point into the macro body (the `capture` of checker-jump).
    assert_eq!(blk[2].span_of(), place(&text, "capture", 0));
    // Three loss conditions for both players.
    assert_eq!(r.ends.len(), 3);
    assert!(
        r.ends
            .iter()
            .all(|e| e.outcome == Outcome::Loss && e.players == vec![1, 0])
    );
    assert_eq!(r.ends[0].test, EndTest::PiecesRemaining(0, None));
    assert_eq!(r.ends[1].test, EndTest::Stalemated);
    assert_eq!(r.ends[2].test, EndTest::Repetition);
    assert_eq!(r.options.pass_turn, PassTurn::Never);
    assert!(!r.options.pass_partial);
}

/// The place of an instruction (tests only).
trait SpanOf {
    fn span_of(&self) -> Span;
}

impl SpanOf for Instr {
    fn span_of(&self) -> Span {
        match self {
            Instr::Step(_, s)
            | Instr::Goto(_, s)
            | Instr::From(_, s)
            | Instr::To(_, s)
            | Instr::Go(_, s)
            | Instr::Mark(_, s)
            | Instr::Back(s)
            | Instr::Verify(_, s)
            | Instr::If(_, _, _, s)
            | Instr::While(_, _, s)
            | Instr::SetFlag(_, _, s)
            | Instr::SetPositionFlag(_, _, _, s)
            | Instr::Add { span: s, .. }
            | Instr::Cascade(s)
            | Instr::Capture(_, s)
            | Instr::Flip(_, s)
            | Instr::ChangeOwner(_, s)
            | Instr::ChangeType(_, _, s)
            | Instr::Create(_, _, _, s)
            | Instr::SetAttribute(_, _, _, s) => *s,
        }
    }
}

#[test]
fn laska_inherits_the_pieces_and_warns_about_its_extension() {
    let text = corpus("english-checkers.zrf");
    let (r, warnings) = rules(&text, Some("Laska"));
    assert_eq!(r.title, "Laska");
    assert_eq!((r.board.cols, r.board.rows), (7, 7));
    assert_eq!(r.board.positions.len(), 49);
    assert_eq!(r.setup.len(), 22);
    // Pieces, players, priorities and end conditions come from the game.
    assert_eq!(r.pieces.len(), 2);
    assert_eq!(r.pieces[0].moves.len(), 4);
    assert_eq!(r.players, vec!["Black", "White"]);
    assert_eq!(r.move_priorities, vec![0, 1]);
    assert_eq!(r.ends.len(), 3);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let w = &warnings[0];
    assert!(w.warning);
    assert_eq!(
        w.span,
        place(&text, "(option \"columns-checkers-extension\"", 0)
    );
    assert!(
        w.message.contains("columns-checkers-extension"),
        "{}",
        w.message
    );
    assert!(w.message.contains("cannot honour"), "{}", w.message);
    assert!(!w.message.contains('\n'));
}

// ---------------------------------------------------------------------------------------
// Chess

#[test]
fn chess_board_pieces_and_castling() {
    let text = corpus("chess.zrf");
    let (r, warnings) = rules(&text, None);
    assert_eq!(r.title, "Chess");
    let b = &r.board;
    assert_eq!(b.positions.len(), 64);
    let a8 = &b.positions[pos(b, "a8") as usize];
    assert_eq!((a8.col, a8.row), (0, 0));
    let e1 = &b.positions[pos(b, "e1") as usize];
    assert_eq!((e1.col, e1.row), (4, 7));
    assert_eq!(link(b, "e2", "n"), pos(b, "e3"));
    assert_eq!(link(b, "e2", "se"), pos(b, "f1"));
    // Black's symmetry turns n into s; White moves as written.
    assert_eq!(b.symmetry[1][dir(b, "n") as usize], dir(b, "s"));
    assert_eq!(b.symmetry[1][dir(b, "e") as usize], dir(b, "e"));
    assert_eq!(b.symmetry[0][dir(b, "n") as usize], dir(b, "n"));
    let names: Vec<&str> = r.pieces.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        names,
        vec!["Pawn", "Rook", "Knight", "Bishop", "Queen", "King"]
    );
    let pawn = &r.pieces[0];
    assert_eq!(pawn.moves.len(), 6);
    // En passant: mark/back, last-to? and last-from?, a capture.
    let ep = &pawn.moves[4].block;
    assert!(contains(ep, &|i| matches!(i, Instr::Mark(Loc::Here, _))));
    assert!(contains(ep, &|i| matches!(i, Instr::Back(_))));
    assert!(contains(ep, &|i| matches!(
        i,
        Instr::Verify(Cond::LastTo(Loc::Here), _)
    )));
    assert!(contains(ep, &|i| matches!(
        i,
        Instr::Verify(Cond::LastFrom(Loc::Here), _)
    )));
    // Promotion by (add Queen).
    let queen = id(&names, "Queen");
    assert!(contains(
        &pawn.moves[0].block,
        &|i| matches!(i, Instr::Add { promote, .. } if promote == &vec![queen])
    ));
    // The slide: (while empty? add $1).
    let rook = &r.pieces[1];
    assert_eq!(rook.moves.len(), 4);
    assert!(
        rook.moves[0]
            .block
            .iter()
            .any(|i| matches!(i, Instr::While(Cond::Empty(Loc::Here), body, _) if body.len() == 2))
    );
    // The King: 8 steps and two castlings, each with a cascade, `to` before it.
    let king = &r.pieces[5];
    assert_eq!(king.moves.len(), 10);
    for castle in &king.moves[8..] {
        let blk = &castle.block;
        let c = blk
            .iter()
            .position(|i| matches!(i, Instr::Cascade(_)))
            .unwrap();
        assert!(
            blk[..c]
                .iter()
                .any(|i| matches!(i, Instr::To(Loc::Here, _)))
        );
        assert!(matches!(
            blk.last(),
            Some(Instr::Add {
                kind: AddKind::Add,
                ..
            })
        ));
    }
    for step in &king.moves[..8] {
        assert!(!contains(&step.block, &|i| matches!(i, Instr::Cascade(_))));
    }
    assert_eq!(r.ends.len(), 3);
    assert_eq!(r.ends[0].test, EndTest::Checkmated(id(&names, "King")));
    assert_eq!(r.ends[0].outcome, Outcome::Loss);
    assert_eq!(
        (r.ends[1].outcome, &r.ends[1].test),
        (Outcome::Draw, &EndTest::Stalemated)
    );
    // "chess invariant" is warned about, at its line.
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(
        warnings[0].span,
        place(&text, "(option \"chess invariant\"", 0)
    );
    assert!(
        warnings[0].message.contains("castling"),
        "{}",
        warnings[0].message
    );
}

#[test]
fn chess_variants_inherit_and_replace() {
    let text = corpus("chess.zrf");
    let titles = zrf::variants(&text).unwrap();
    // The "-" variant is Zillions' menu separator, not a variant.
    assert_eq!(
        titles,
        vec![
            "Chess",
            "Charge of the Light Brigade",
            "Weak!",
            "Dunsany's Chess",
            "Horde Chess"
        ]
    );
    for t in &titles {
        let (r, _) = rules(&text, Some(t));
        assert_eq!(&r.title, t);
        assert_eq!(r.pieces.len(), 6, "{t}");
        assert_eq!(r.board.positions.len(), 64, "{t}");
        assert_eq!(r.ends.len(), 3, "{t}");
    }
    let (r, _) = rules(&text, Some("Charge of the Light Brigade"));
    // White: 8 pawns, 3 queens, the king; Black: 8 pawns, 7 knights, the king.
    assert_eq!(r.setup.iter().filter(|e| e.player == 0).count(), 12);
    assert_eq!(r.setup.iter().filter(|e| e.player == 1).count(), 16);
    let (r, _) = rules(&text, Some("Dunsany's Chess"));
    assert_eq!(r.setup.iter().filter(|e| e.player == 0).count(), 32);
    // Dunsany's board has no third-rank zone for White.
    let third = r
        .board
        .zones
        .iter()
        .find(|z| z.name == "third-rank")
        .unwrap();
    assert!(third.positions[0].is_empty());
    assert_eq!(third.positions[1].len(), 8);
    let e = zrf::compile(&text, Some("-")).unwrap_err();
    assert!(e[0].message.contains("no variant"), "{}", e[0].message);
    let e = zrf::compile(&text, Some("Chess960")).unwrap_err();
    assert!(e[0].message.contains("Horde Chess"), "{}", e[0].message);
}

// ---------------------------------------------------------------------------------------
// Halma, Chinese checkers, Lewthwaite

#[test]
fn halma_links_and_partial_option() {
    let text = corpus("halma.zrf");
    assert_eq!(zrf::variants(&text).unwrap().len(), 3);
    let (r, w) = rules(&text, None);
    assert!(w.is_empty(), "{w:?}");
    let b = &r.board;
    assert_eq!(b.positions.len(), 100);
    assert_eq!(b.directions, vec!["n", "s", "e", "w", "nx", "nb"]);
    // (links nx (a10 b10) (b10 a9) … (c8 d9)) and (links nb (j1 j2) …).
    assert_eq!(link(b, "a10", "nx"), pos(b, "b10"));
    assert_eq!(link(b, "b10", "nx"), pos(b, "a9"));
    assert_eq!(link(b, "c8", "nx"), pos(b, "d9"));
    assert_eq!(link(b, "d9", "nx"), NO_POS);
    assert_eq!(link(b, "j1", "nb"), pos(b, "j2"));
    assert_eq!(link(b, "h3", "nb"), pos(b, "i4"));
    assert_eq!(link(b, "a10", "nb"), NO_POS);
    // The grid directions stay: a10 is the top-left corner.
    assert_eq!(link(b, "a10", "s"), pos(b, "a9"));
    assert_eq!(link(b, "a10", "n"), NO_POS);
    assert_eq!(b.symmetry[1][dir(b, "nx") as usize], dir(b, "nb"));
    assert!(r.options.pass_partial);
    assert_eq!(r.move_types, vec!["normal-type", "continue-type"]);
    assert!(r.ends.is_empty());
    let (r, _) = rules(&text, Some("Halma (4 players)"));
    assert_eq!(r.players, vec!["Blue", "White", "Red", "Black"]);
    assert_eq!(r.board.directions.len(), 12);
    assert_eq!(r.setup.len(), 4 * 15);
    assert_eq!(r.pieces[0].moves.len(), 16);
    let (r, _) = rules(&text, Some("Halma 8x8"));
    assert_eq!(r.board.positions.len(), 64);
    // Players come from the game.
    assert_eq!(r.players, vec!["White", "Black"]);
}

#[test]
fn chinese_checkers_star_board() {
    let text = corpus("chinese-checkers.zrf");
    assert!(text.contains("\r\n"), "the corpus file has CRLF line ends");
    let titles = zrf::variants(&text).unwrap();
    assert_eq!(titles.len(), 3);
    // (default) makes the capturing variant the default.
    let (r, _) = rules(&text, None);
    assert_eq!(r.title, "Chinese Checkers Capturing");
    let (g, _) = rules(&text, Some("Chinese Checkers"));
    assert_eq!(g.players.len(), 6);
    // The grid is 13 x 13; kill-positions removes its listed names (no duplicates).
    let kills = kill_list(&text);
    let mut distinct = kills.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), kills.len());
    let b = &g.board;
    assert_eq!((b.cols, b.rows), (13, 13));
    assert_eq!(b.positions.len(), 13 * 13 - kills.len());
    // That is not the 121 holes of the usual star (a hexagon of 61 and six triangles of
    // 10): this file's star is a hexagon of side 4 (37 cells, the capturing variant's
    // board-zone) with six triangles of 6 (each player's 6 men).
    let board_zone = &r
        .board
        .zones
        .iter()
        .find(|z| z.name == "board-zone")
        .unwrap()
        .positions[0];
    let per_player = g.setup.iter().filter(|e| e.player == 0).count();
    assert_eq!(per_player, 6);
    assert_eq!(board_zone.len(), 37);
    assert_eq!(b.positions.len(), board_zone.len() + 6 * per_player);
    assert_ne!(b.positions.len(), 121);
    // Hex neighbours: each direction has its opposite, and the centre g7 has all six.
    let opposite = [("ne", "sw"), ("nw", "se"), ("e", "w")];
    for p in &b.positions {
        for (d, o) in opposite {
            let q = link(b, &p.name, d);
            if q != NO_POS {
                assert_eq!(link(b, &b.positions[q as usize].name, o), pos(b, &p.name));
            }
        }
    }
    for d in ["ne", "nw", "se", "sw", "w", "e"] {
        assert_ne!(link(b, "g7", d), NO_POS, "g7 {d}");
    }
    // A star point has two neighbours only: d13 (Blue's tip).
    let tip_links = ["ne", "nw", "se", "sw", "w", "e"]
        .iter()
        .filter(|d| link(b, "d13", d) != NO_POS)
        .count();
    assert_eq!(tip_links, 2);
    assert!(g.options.pass_partial);
    // The capturing variant: links add 7 directions; Red's symmetry swaps sb and sr.
    let rb = &r.board;
    assert_eq!(rb.directions.len(), 13);
    assert_eq!(link(rb, "h4", "sb"), pos(rb, "j1"));
    let red = id(&r.players, "Red") as usize;
    assert_eq!(rb.symmetry[red][dir(rb, "sb") as usize], dir(rb, "sr"));
    assert_eq!(
        r.pieces.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(),
        vec!["Man", "Dead"]
    );
    assert!(r.pieces[1].moves.is_empty());
    let (s, _) = rules(&text, Some("Super Chinese Checkers"));
    assert_eq!(s.pieces[0].moves.len(), 6 + 4 * 6);
}

/// `(x, y, w, h)` of a position's pixel rectangle.
fn rect(b: &BoardShape, name: &str) -> (i32, i32, i32, i32) {
    let p = &b.positions[pos(b, name) as usize];
    (p.x, p.y, p.w, p.h)
}

#[test]
fn pixel_rectangles_follow_start_rectangle_and_offsets() {
    // Chess: (start-rectangle 2 2 70 70), files (68 0), ranks "8/…/1" (0 68).
    let (c, _) = rules(&corpus("chess.zrf"), None);
    let b = &c.board;
    assert_eq!(rect(b, "a8"), (2, 2, 68, 68));
    // e1: file index 4, rank index 7 ("1" is the eighth name): 2 + 4·68, 2 + 7·68.
    assert_eq!(rect(b, "e1"), (274, 478, 68, 68));
    assert_eq!(rect(b, "h1"), (478, 478, 68, 68));
    assert_eq!(b.pixel_bounds(), (2, 2, 546, 546));

    // Chinese checkers: (start-rectangle 88 8 118 38), files (50 0), ranks "13/…/1" (-25 44):
    // x = 88 + 50·file − 25·rank index, y = 8 + 44·rank index, 30×30.
    let (g, _) = rules(&corpus("chinese-checkers.zrf"), Some("Chinese Checkers"));
    let b = &g.board;
    // The star's top tip d13 (3, 0), centre g7 (6, 6) and bottom tip j1 (9, 12) stand on
    // one vertical line, x = 238.
    assert_eq!(rect(b, "d13"), (238, 8, 30, 30));
    assert_eq!(rect(b, "g7"), (238, 272, 30, 30));
    assert_eq!(rect(b, "j1"), (238, 536, 30, 30));
    // e5 (4, 8): 88 + 200 − 200.
    assert_eq!(rect(b, "e5"), (88, 360, 30, 30));
    // Every hex link moves by the same pixel step: e (50, 0), ne (25, −44), nw (−25, −44)
    // and their opposites, so neighbours are drawn equally far apart.
    let steps = [
        ("e", 50, 0),
        ("w", -50, 0),
        ("ne", 25, -44),
        ("sw", -25, 44),
        ("nw", -25, -44),
        ("se", 25, 44),
    ];
    let mut checked = 0;
    for p in &b.positions {
        for (d, dx, dy) in steps {
            let q = link(b, &p.name, d);
            if q != NO_POS {
                let q = &b.positions[q as usize];
                assert_eq!((q.x - p.x, q.y - p.y), (dx, dy), "{} {d}", p.name);
                checked += 1;
            }
        }
    }
    assert!(checked > 300, "{checked}");
    // The star is symmetric about x = 238 (centre of the 30-pixel cells at 253): every rank's
    // positions mirror each other.
    for p in &b.positions {
        let mirror = 2 * 238 - p.x;
        assert!(
            b.positions.iter().any(|q| q.y == p.y && q.x == mirror),
            "{} has no mirror image",
            p.name
        );
    }
    // Rank 10 (index 3) runs a10…j10: a10 at 88 − 75, j10 at 88 + 450 − 75.
    assert_eq!(rect(b, "a10").0, 13);
    assert_eq!(rect(b, "j10").0, 463);
    assert_eq!(b.pixel_bounds(), (13, 8, 463 + 30, 536 + 30));

    // Without a start-rectangle: the first cell at (0, 0), as large as the largest offsets.
    let (t, _) = rules(&game_with_block("(n add)"), None);
    assert_eq!(rect(&t.board, "a2"), (0, 0, 1, 1));
    assert_eq!(rect(&t.board, "b1"), (1, 1, 1, 1));
}

#[test]
fn lewthwaite_push_blocks() {
    let text = corpus("lewthwaite.zrf");
    let (r, w) = rules(&text, None);
    assert!(w.is_empty(), "{w:?}");
    assert_eq!(r.board.positions.len(), 25);
    assert_eq!(r.setup.len(), 24);
    let (r, _) = rules(&text, Some("Lewthwaite's game (7x7)"));
    let b = &r.board;
    assert_eq!(b.positions.len(), 49);
    assert_eq!(r.setup.len(), 48);
    // The hole is d4, the only position without a piece.
    let d4 = pos(b, "d4");
    assert!(r.setup.iter().all(|e| e.place != Place::At(d4)));
    assert_eq!(r.flags, vec!["is-friend"]);
    let man = &r.pieces[0];
    assert_eq!(man.moves.len(), 4);
    // (push n): n (set-flag is-friend true) (while not-empty? (set-flag is-friend friend?)
    // cascade n) (verify (flag? is-friend)) add.
    let n = dir(b, "n");
    let blk = &man.moves[0].block;
    assert_eq!(blk.len(), 5, "{blk:#?}");
    assert!(matches!(blk[0], Instr::Step(d, _) if d == n));
    assert!(matches!(blk[1], Instr::SetFlag(0, Cond::True, _)));
    let Instr::While(Cond::Not(c), body, _) = &blk[2] else {
        panic!("{:?}", blk[2]);
    };
    assert_eq!(**c, Cond::Empty(Loc::Here));
    assert!(matches!(
        body[0],
        Instr::SetFlag(0, Cond::Friend(Loc::Here), _)
    ));
    assert!(matches!(body[1], Instr::Cascade(_)));
    assert!(matches!(body[2], Instr::Step(d, _) if d == n));
    assert!(matches!(blk[3], Instr::Verify(Cond::Flag(0), _)));
    assert!(matches!(
        blk[4],
        Instr::Add {
            kind: AddKind::Add,
            ..
        }
    ));
    assert_eq!(r.ends.len(), 1);
}

#[test]
fn every_corpus_variant_compiles() {
    for f in [
        "english-checkers.zrf",
        "chess.zrf",
        "halma.zrf",
        "chinese-checkers.zrf",
        "lewthwaite.zrf",
    ] {
        let text = corpus(f);
        for t in zrf::variants(&text).unwrap() {
            let (r, _) = rules(&text, Some(&t));
            assert!(!r.pieces.is_empty(), "{f} {t}");
            assert!(!r.setup.is_empty(), "{f} {t}");
            assert_eq!(
                r.board.links.len(),
                r.board.positions.len() * r.board.directions.len()
            );
            assert_eq!(r.board.symmetry.len(), r.players.len());
        }
    }
}

// ---------------------------------------------------------------------------------------
// Constructs the corpus does not use

const FEATURES: &str = r#"
(define walk $1 (while (on-board? $1) $1))
(game
  (title "Features")
  (players X O)
  (turn-order X (O drop-type) repeat X O)
  (option "pass turn" forced)
  (option "discard cascades" true)
  (option "recycle captures" false)
  (board
    (grid (start-rectangle 0 0 10 10)
      (dimensions ("a/b/c" (10 0)) ("3/2/1" (0 10)))
      (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0)))
    (zone (name top) (players X O) (positions a3 b3 c3)))
  (piece (name Stone)
    (attribute never-moved true)
    (drops
      (move-type drop-type)
      ((verify empty?) (if (not-attacked? n) add else (add Stone)))
      ((verify (and empty? (or (in-zone? top) (not (piece? Stone n)))))
       (set-position-flag seen true) (verify (position-flag? seen))
       (create O Stone n) (create Stone s) (flip e) (change-owner w) (change-type Stone)
       (set-attribute never-moved false) add-copy))
    (moves
      ((verify (attribute? never-moved)) mark (walk n) (verify marked?) back
       (go mark) (go last-to) (from a1) (to c3) (verify (last-from? b2)) c3 (capture s)
       (verify not-marked?) (add-copy-partial drop-type))))
  (board-setup (X (Stone off 5 a1)) (O (Stone off 3)))
  (win-condition (X) (absolute-config Stone (a3 b3 c3)))
  (loss-condition (X O) (and (pieces-remaining 0 Stone) (not stalemated)))
  (draw-condition (X O) (or repetition (checkmated Stone)))
)
"#;

#[test]
fn constructs_beyond_the_corpus() {
    let (r, w) = rules(FEATURES, None);
    assert!(w.is_empty(), "{w:?}");
    let b = &r.board;
    assert_eq!(r.move_types, vec!["drop-type"]);
    // X, (O drop-type), repeat, X, O: the cycle starts again at the third entry.
    assert_eq!(r.turn_order.len(), 4);
    assert_eq!(r.turn_order[1].move_type, Some(0));
    assert_eq!(r.repeat_from, 2);
    assert_eq!(r.options.pass_turn, PassTurn::Forced);
    assert!(r.options.discard_cascades);
    assert_eq!(r.attributes, vec![("never-moved".to_string(), true)]);
    assert_eq!(r.position_flags, vec!["seen"]);
    let stone = &r.pieces[0];
    assert_eq!(stone.drops.len(), 2);
    assert!(stone.drops.iter().all(|d| d.move_type == Some(0)));
    assert_eq!(stone.moves.len(), 1);
    assert_eq!(stone.moves[0].move_type, None);
    let d1 = &stone.drops[0].block;
    let n = dir(b, "n");
    assert!(matches!(&d1[1], Instr::If(Cond::Not(c), t, e, _)
        if **c == Cond::Attacked(Loc::Dir(n)) && t.len() == 1 && e.len() == 1));
    let d2 = &stone.drops[1].block;
    let Instr::Verify(Cond::And(parts), _) = &d2[0] else {
        panic!("{:?}", d2[0])
    };
    assert_eq!(parts[0], Cond::Empty(Loc::Here));
    assert!(
        matches!(&parts[1], Cond::Or(v) if v[0] == Cond::InZone(0, Loc::Here)
        && v[1] == Cond::Not(Box::new(Cond::Piece(0, Loc::Dir(n)))))
    );
    assert!(matches!(
        d2[1],
        Instr::SetPositionFlag(0, Cond::True, Loc::Here, _)
    ));
    assert!(matches!(
        d2[2],
        Instr::Verify(Cond::PositionFlag(0, Loc::Here), _)
    ));
    assert!(matches!(d2[3], Instr::Create(Some(1), 0, Loc::Dir(d), _) if d == n));
    assert!(matches!(d2[4], Instr::Create(None, 0, Loc::Dir(_), _)));
    assert!(matches!(d2[5], Instr::Flip(Loc::Dir(_), _)));
    assert!(matches!(d2[6], Instr::ChangeOwner(Loc::Dir(_), _)));
    assert!(matches!(d2[7], Instr::ChangeType(0, Loc::Here, _)));
    assert!(matches!(
        d2[8],
        Instr::SetAttribute(0, Cond::False, Loc::Here, _)
    ));
    assert!(matches!(
        d2[9],
        Instr::Add {
            kind: AddKind::Copy,
            ..
        }
    ));
    let m = &stone.moves[0].block;
    assert!(matches!(
        m[0],
        Instr::Verify(Cond::Attribute(0, Loc::Here), _)
    ));
    assert!(matches!(m[1], Instr::Mark(Loc::Here, _)));
    // (walk n) spliced: n (while (on-board? n) n).
    assert!(matches!(m[2], Instr::Step(d, _) if d == n));
    assert!(
        matches!(&m[3], Instr::While(Cond::OnBoard(Loc::Dir(d)), body, _) if *d == n && body.len() == 1)
    );
    assert!(matches!(m[4], Instr::Verify(Cond::Marked(Loc::Here), _)));
    assert!(matches!(m[5], Instr::Back(_)));
    assert!(matches!(m[6], Instr::Go(GoTarget::Mark, _)));
    assert!(matches!(m[7], Instr::Go(GoTarget::LastTo, _)));
    assert_eq!(m[8], Instr::From(Loc::Pos(pos(b, "a1")), m[8].span_of()));
    assert_eq!(m[9], Instr::To(Loc::Pos(pos(b, "c3")), m[9].span_of()));
    assert!(matches!(m[10], Instr::Verify(Cond::LastFrom(Loc::Pos(p)), _) if p == pos(b, "b2")));
    assert!(matches!(m[11], Instr::Goto(p, _) if p == pos(b, "c3")));
    assert!(matches!(m[12], Instr::Capture(Loc::Dir(_), _)));
    assert!(matches!(m[13], Instr::Verify(Cond::Not(_), _)));
    assert!(
        matches!(&m[14], Instr::Add { kind: AddKind::CopyPartial, continue_type: Some(0), promote, .. } if promote.is_empty())
    );
    // off N and a position.
    assert_eq!(
        r.setup
            .iter()
            .map(|e| (e.player, e.place))
            .collect::<Vec<_>>(),
        vec![
            (0, Place::Off(5)),
            (0, Place::At(pos(b, "a1"))),
            (1, Place::Off(3))
        ]
    );
    assert_eq!(r.ends.len(), 3);
    assert_eq!(r.ends[0].outcome, Outcome::Win);
    assert_eq!(r.ends[0].players, vec![0]);
    assert_eq!(
        r.ends[0].test,
        EndTest::AbsoluteConfig(vec![0], vec![pos(b, "a3"), pos(b, "b3"), pos(b, "c3")])
    );
    assert_eq!(
        r.ends[1].test,
        EndTest::And(vec![
            EndTest::PiecesRemaining(0, Some(0)),
            EndTest::Not(Box::new(EndTest::Stalemated))
        ])
    );
    assert_eq!(
        r.ends[2].test,
        EndTest::Or(vec![EndTest::Repetition, EndTest::Checkmated(0)])
    );
}

#[test]
fn a_variant_replaces_whole_sections() {
    let text = format!(
        "{FEATURES}\n(variant (title \"V\")\n  (players X O C)\n  (turn-order X O C)\n  \
         (board-setup (C (Stone b2)))\n  (option \"pass turn\" true)\n  (piece (name Rock) (moves ((verify empty?) add)))\n  \
         (loss-condition (X O C) stalemated))"
    );
    let (r, _) = rules(&text, Some("v"));
    assert_eq!(r.players, vec!["X", "O", "C"]);
    // Stone kept, Rock added after it.
    let names: Vec<&str> = r.pieces.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, vec!["Stone", "Rock"]);
    assert_eq!(r.setup.len(), 1);
    // One option replaced, the others kept.
    assert_eq!(r.options.pass_turn, PassTurn::Allowed);
    assert!(r.options.discard_cascades);
    // All three end conditions replaced by the variant's one.
    assert_eq!(r.ends.len(), 1);
    assert_eq!(r.ends[0].players, vec![0, 1, 2]);
    // The board is the game's; the zone now has three players.
    assert_eq!(r.board.zones[0].positions.len(), 3);
}

#[test]
fn count_condition_reads_as_zillions_writes_it() {
    // With a player list, and without one (all players), among the other end conditions; a
    // variant's count-condition replaces the game's end conditions as one group.
    let text = game_with_block("(n add)").replace(
        "(board-setup",
        "(win-condition (W) (pieces-remaining 0 P))\n(count-condition (B W) stalemated)\n\
         (count-condition (and stalemated (not repetition)))\n(board-setup",
    );
    let (r, w) = rules(&text, None);
    assert!(w.is_empty(), "{w:?}");
    let kinds: Vec<(Outcome, Vec<u8>)> = r
        .ends
        .iter()
        .map(|e| (e.outcome, e.players.clone()))
        .collect();
    assert_eq!(
        kinds,
        vec![
            (Outcome::Win, vec![0]),
            (Outcome::Count, vec![1, 0]),
            (Outcome::Count, vec![0, 1])
        ]
    );
    assert_eq!(r.ends[1].test, EndTest::Stalemated);
    assert_eq!(r.ends[1].span, place(&text, "(count-condition", 0));
    // A bad test inside is a located error, as for the other conditions.
    let text = game_with_block("(n add)").replace(
        "(board-setup",
        "(count-condition (W B) (captured P))\n(board-setup",
    );
    let e = errors(&text);
    assert_eq!(e.len(), 1, "{e:?}");
    assert_eq!(e[0].span, place(&text, "(captured", 0));
}

// ---------------------------------------------------------------------------------------
// Bad input

/// A small valid game to break: `{BLOCK}` is replaced by a move block.
fn game_with_block(block: &str) -> String {
    format!(
        "(define step ($1 (verify empty?) add))\n\
         (game (title \"G\") (players W B)\n\
         (board (grid (dimensions (\"a/b\" (1 0)) (\"2/1\" (0 1))) (directions (n 0 -1) (s 0 1))))\n\
         (piece (name P) (moves {block}))\n\
         (board-setup (W (P a1))))"
    )
}

#[test]
fn unbalanced_parenthesis_is_located() {
    let text = "(game (title \"G\")\n  (players W B)\n  (board (grid\n";
    let e = zrf::variants(text).unwrap_err();
    assert_eq!(e[0].span, Span { line: 3, col: 10 });
    let text = "(game (title \"G\"))\n)\n";
    let e = zrf::compile(text, None).unwrap_err();
    assert_eq!(e[0].span, Span { line: 2, col: 1 });
}

#[test]
fn unknown_direction_in_a_macro_body_is_located() {
    let text =
        "(define bad (\n  $1 zz (verify empty?) add))\n".to_string() + &game_with_block("(bad n)");
    let e = errors(&text);
    assert_eq!(e.len(), 1, "{e:?}");
    assert_eq!(e[0].span, Span { line: 2, col: 6 });
    let m = &e[0].message;
    assert!(m.contains("\"zz\""), "{m}");
    // The known directions and the call site are named.
    assert!(m.contains("n, s"), "{m}");
    let call = place(&text, "(bad n)", 0);
    assert!(m.contains(&format!("{}:{}", call.line, call.col)), "{m}");
    assert!(!m.contains('\n'));
    // An unknown direction given as the macro's argument is located at the call.
    let text = game_with_block("(step up)");
    let e = errors(&text);
    assert_eq!(e[0].span, place(&text, "up)", 0));
}

#[test]
fn recursive_define_is_bounded() {
    let text = "(define loop ( (loop $1) ))\n".to_string() + &game_with_block("(loop n)");
    let e = zrf::compile(&text, None).unwrap_err();
    assert!(
        e[0].message.contains("nested macro calls"),
        "{}",
        e[0].message
    );
    let text = "(define a (b $1))\n(define b (a $1))\n".to_string() + &game_with_block("(a n)");
    assert!(zrf::compile(&text, None).is_err());
}

#[test]
fn ten_megabytes_of_open_parentheses_are_bounded() {
    let text = "(".repeat(10 * 1024 * 1024);
    let e = zrf::compile(&text, None).unwrap_err();
    assert!(
        e[0].message.contains(&MAX_ZRF_BYTES.to_string()),
        "{}",
        e[0].message
    );
    let text = "(".repeat(MAX_ZRF_BYTES);
    let e = zrf::variants(&text).unwrap_err();
    assert_eq!(e[0].span.line, 1);
    assert!(e[0].message.contains("nested"), "{}", e[0].message);
}

#[test]
fn unknown_keywords_are_located_errors() {
    let text = game_with_block("(n (frobnicate 3) add)");
    let e = errors(&text);
    assert_eq!(e.len(), 1, "{e:?}");
    assert_eq!(e[0].span, place(&text, "(frobnicate", 0));
    assert!(
        e[0].message.contains("not supported by Tilesmith"),
        "{}",
        e[0].message
    );
    let text = game_with_block("(n (verify (neutral?)) add)");
    let e = errors(&text);
    assert_eq!(e[0].span, place(&text, "(neutral?", 0));
    let text = game_with_block("(n (verify sunny?) add)");
    let e = errors(&text);
    assert_eq!(e[0].span, place(&text, "sunny?", 0));
    assert!(
        e[0].message
            .contains("condition \"sunny?\" is not supported by Tilesmith"),
        "{}",
        e[0].message
    );
    // An unknown end test, game section and option that changes play.
    let text = game_with_block("(n add)").replace(
        "(board-setup",
        "(win-condition (W) (captured P))\n(maximize score)\n(option \"maximal captures\" true)\n(board-setup",
    );
    let e = errors(&text);
    assert_eq!(e.len(), 3, "{e:?}");
    assert_eq!(e[0].span, place(&text, "(captured", 0));
    assert_eq!(e[1].span, place(&text, "(maximize", 0));
    assert_eq!(e[2].span, place(&text, "(option", 0));
    assert!(
        e.iter()
            .all(|p| p.message.contains("not supported by Tilesmith"))
    );
}

#[test]
fn unknown_names_are_named_with_the_known_ones() {
    let text = game_with_block("(n (add Queen))");
    let e = errors(&text);
    assert_eq!(e[0].span, place(&text, "Queen", 0));
    assert!(
        e[0].message.contains("\"Queen\"") && e[0].message.contains("known: P"),
        "{}",
        e[0].message
    );
    let text = game_with_block("(n (verify (in-zone? goal)) add)");
    let e = errors(&text);
    assert_eq!(e[0].span, place(&text, "goal", 0));
    assert!(e[0].message.contains("zone"), "{}", e[0].message);
    let text = game_with_block("(n add)").replace("(W (P a1))", "(Red (P a1)) (W (P z9))");
    let e = errors(&text);
    assert_eq!(e.len(), 2, "{e:?}");
    assert!(
        e[0].message.contains("\"Red\"") && e[0].message.contains("W, B"),
        "{}",
        e[0].message
    );
    assert!(
        e[1].message.contains("\"z9\"") && e[1].message.contains("a2, b2, a1, b1"),
        "{}",
        e[1].message
    );
    let text = game_with_block("(move-type go-type) (n (add-partial jump-type))");
    let e = errors(&text);
    assert!(e[0].message.contains("go-type"), "{}", e[0].message);
    // A very long unknown name is shortened in the message.
    let long = "q".repeat(5000);
    let text = game_with_block(&format!("(n {long} add)"));
    let e = errors(&text);
    assert!(e[0].message.len() < 400, "{}", e[0].message.len());
}

#[test]
fn js_extension_options_warn_and_ui_options_are_silent() {
    let text = game_with_block("(n add)").replace(
        "(board-setup",
        "(option \"animate captures\" false) (option \"smart moves\" true) (option \"show hints\" false)\n\
         (option \"sliding-puzzle\" true) (option \"go-extension\" true)\n(music \"x.mid\") (board-setup",
    );
    let (_, w) = rules(&text, None);
    assert_eq!(w.len(), 2, "{w:?}");
    assert!(
        w.iter()
            .all(|p| p.warning && p.message.contains("cannot honour"))
    );
    assert_eq!(w[0].span, place(&text, "(option \"sliding-puzzle\"", 0));
}

// ---------------------------------------------------------------------------------------
// Mutated corpus files

/// Words a mutation may put in: keywords, names from the files, brackets, macro parameters.
const WORDS: &[&str] = &[
    "(",
    ")",
    "(",
    ")",
    "\"",
    ";",
    "$1",
    "$2",
    "$9",
    "add",
    "capture",
    "cascade",
    "(verify",
    "empty?",
    "(while",
    "(if",
    "else",
    "(define x ($1 (x $1)))",
    "(x n)",
    "n",
    "ne",
    "zz",
    "a1",
    "Man",
    "King",
    "(add-partial",
    "jump-type",
    "(piece",
    "(name",
    "(board",
    "(grid",
    "(dimensions",
    "(\"a/b\" (1 0))",
    "(directions",
    "(n 0 -1)",
    "(zone",
    "(players",
    "(symmetry",
    "(links",
    "(kill-positions",
    "(option",
    "\"pass turn\"",
    "forced",
    "(loss-condition",
    "(pieces-remaining",
    "(variant",
    "(title \"T\")",
    "(default)",
    "off",
    "99999999999",
    "-1",
    "repeat",
    "(turn-order",
    "(board-setup",
    "(create",
    "(flip",
];

const FILES: &[&str] = &[
    "english-checkers.zrf",
    "chess.zrf",
    "halma.zrf",
    "chinese-checkers.zrf",
    "lewthwaite.zrf",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// A corpus file with random cuts and insertions: `variants` and `compile` return (no
    /// panic, no hang); every problem is inside the text and one line; a failed compile
    /// reports at least one error.
    #[test]
    fn mutated_files_give_located_one_line_problems(
        file in 0..FILES.len(),
        edits in prop::collection::vec((0.0f64..1.0, 0usize..40, 0..WORDS.len()), 1..6),
    ) {
        let mut text = corpus(FILES[file]);
        for (at, cut, word) in edits {
            let mut i = (at * text.len() as f64) as usize;
            while !text.is_char_boundary(i) {
                i -= 1;
            }
            let mut j = (i + cut).min(text.len());
            while !text.is_char_boundary(j) {
                j -= 1;
            }
            text.replace_range(i..j, &format!(" {} ", WORDS[word]));
        }
        let lines = text.split('\n').count() as u32;
        let check = |ps: &[ZrfProblem]| {
            // Every problem is located; only the last may be the line that counts the rest.
            for (k, p) in ps.iter().enumerate() {
                if p.more > 0 {
                    assert_eq!(k + 1, ps.len(), "{p:?}");
                    assert_eq!(k, zrf::MAX_PROBLEMS, "{p:?}");
                    continue;
                }
                assert!(p.span.line >= 1 && p.span.line <= lines, "{p:?}");
                assert!(p.span.col >= 1, "{p:?}");
                assert!(!p.message.contains('\n') && !p.message.is_empty(), "{p:?}");
            }
        };
        match zrf::variants(&text) {
            Ok(titles) => {
                for t in titles.iter().map(Some).chain([None]) {
                    match zrf::compile(&text, t.map(String::as_str)) {
                        Ok((_, w)) => check(&w),
                        Err(e) => {
                            prop_assert!(e.iter().any(|p| !p.warning));
                            check(&e);
                        }
                    }
                }
            }
            Err(e) => {
                prop_assert!(!e.is_empty());
                check(&e);
                prop_assert!(zrf::compile(&text, None).is_err());
            }
        }
    }
}

/// Inputs near the limits compile or fail quickly: no step is quadratic in the file's size.
#[test]
fn large_inputs_stay_fast() {
    let started = std::time::Instant::now();
    // A zone naming one position 200 000 times.
    let zone = format!(
        "(zone (name z) (players W B) (positions {}))",
        "a1 ".repeat(200_000)
    );
    let text = game_with_block("(n add)").replace("(s 0 1))))", &format!("(s 0 1))) {zone})"));
    let (r, _) = rules(&text, None);
    assert_eq!(r.board.zones[0].positions[0].len(), 1);
    // A game and a variant of 60 000 options each, merged.
    let opts = "(option \"ko\" false) ".repeat(60_000);
    let text = game_with_block("(n add)").replace("(board-setup", &format!("{opts} (board-setup"))
        + &format!("\n(variant (title \"V\") {opts})");
    let (r, _) = rules(&text, Some("V"));
    assert_eq!(r.title, "V");
    // 400 000 top-level words.
    let text = "x ".repeat(400_000);
    // Every word is an error: 100 listed, the other 399 900 counted in one line.
    let e = zrf::compile(&text, None).unwrap_err();
    assert_eq!(e.len(), 101);
    assert_eq!(e[100].more, 399_900, "{:?}", e[100]);
    assert!(
        started.elapsed().as_secs() < 30,
        "took {:?}",
        started.elapsed()
    );
}

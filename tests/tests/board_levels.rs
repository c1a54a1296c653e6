//! The original ZRF levels in `levels/board/` (`docs/board-levels.md` describes each): every
//! one compiles without errors or warnings, and each plays what its header says.
//!
//! - `tic-tac-toe.zrf`: perft 1–9 and the complete games (total, by winner and by ply) equal
//!   `../shared/corpus/board/perft.json` ("tictactoe", "tictactoe_games").
//! - `reversi.zrf`: perft by Bik's convention equals perft.json "reversi" (depths 1–7 here,
//!   8 in an ignored test for `--release`), and spec Example 3 (a drop on c4 flipping d4 and
//!   d5) plays as the spec writes it.
//! - `fifteen.zrf`: perft from the start against an independent count, the 34-move solution
//!   of its header wins on its last move and not before, a wrong last move does not win.
//! - `rotate-three.zrf`: spec Example 5 (a1 → b1 → b2 → a1 by two cascades and an add) from
//!   the start position, written and executed as the spec says; 16 moves in every position;
//!   the 6-move solution wins.
//! - `spores.zrf`: a leap and a grow from a position set up by hand, their results worked out
//!   from the rules in the file's header and spec §3 (E1–E3), and perft 1–4 against an
//!   independent count.

#![allow(clippy::unwrap_used)]

use serde_json::Value;
use tilesmith_engine::kind::board::play::{self, Outcome, PerftEnd, Piece, Position, Primitive};
use tilesmith_engine::kind::board::rules::{AttrId, PieceId, PlayerId, PosId, Rules};
use tilesmith_engine::kind::board::zrf;
use tilesmith_tests::{corpus, workspace};

// ---------------------------------------------------------------------------------------
// Helpers

/// The text of `levels/board/<name>`.
fn level_text(name: &str) -> String {
    let path = workspace().join("levels").join("board").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Compiles `levels/board/<name>` (its default game); fails on any error or warning.
fn rules(name: &str) -> Rules {
    let (rules, warnings) = zrf::compile(&level_text(name), None)
        .unwrap_or_else(|problems| panic!("{name} does not compile: {problems:#?}"));
    assert!(
        warnings.is_empty(),
        "{name} compiles with warnings: {warnings:#?}"
    );
    rules
}

/// `perft.json` of the shared corpus.
fn perft_json() -> Value {
    let path = corpus("board").join("perft.json");
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

/// `perft.json[table][key]` as a number.
fn published(json: &Value, table: &str, key: &str) -> u64 {
    json[table][key]
        .as_u64()
        .unwrap_or_else(|| panic!("perft.json has no number at {table}.{key}"))
}

fn pos(rules: &Rules, name: &str) -> PosId {
    let i = rules
        .board
        .positions
        .iter()
        .position(|p| p.name == name)
        .unwrap_or_else(|| panic!("no position {name}"));
    PosId::try_from(i).unwrap()
}

fn piece_type(rules: &Rules, name: &str) -> PieceId {
    let i = rules
        .pieces
        .iter()
        .position(|p| p.name == name)
        .unwrap_or_else(|| panic!("no piece type {name}"));
    PieceId::try_from(i).unwrap()
}

fn player(rules: &Rules, name: &str) -> PlayerId {
    let i = rules
        .players
        .iter()
        .position(|p| p == name)
        .unwrap_or_else(|| panic!("no player {name}"));
    PlayerId::try_from(i).unwrap()
}

fn attr(rules: &Rules, name: &str) -> AttrId {
    let i = rules
        .attributes
        .iter()
        .position(|(a, _)| a == name)
        .unwrap_or_else(|| panic!("no attribute {name}"));
    AttrId::try_from(i).unwrap()
}

/// The piece on the square `name`.
fn at(rules: &Rules, position: &Position, name: &str) -> Option<Piece> {
    position.cells[usize::from(pos(rules, name))]
}

/// The piece type names and owners on the board, as `(square, player, type)`, sorted.
fn board_listing(rules: &Rules, position: &Position) -> Vec<(String, String, String)> {
    let mut v: Vec<_> = position
        .cells
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            c.map(|p| {
                (
                    rules.board.positions[i].name.clone(),
                    rules.players[usize::from(p.player)].clone(),
                    rules.pieces[usize::from(p.kind)].name.clone(),
                )
            })
        })
        .collect();
    v.sort();
    v
}

/// The legal turn written `word` in `position`; fails listing the legal ones.
fn find_turn(rules: &Rules, position: &Position, word: &str) -> play::TurnMove {
    let turns = play::turns(rules, position);
    turns
        .iter()
        .find(|t| t.notation == word)
        .cloned()
        .unwrap_or_else(|| {
            let legal: Vec<_> = turns.iter().map(|t| t.notation.as_str()).collect();
            panic!("{word} is not legal here; legal: {legal:?}")
        })
}

/// The one legal turn whose key primitive is a copy from `from` to `to` (whatever its
/// notation).
fn find_copy(rules: &Rules, position: &Position, from: &str, to: &str) -> play::TurnMove {
    let key = Primitive::Move {
        from: pos(rules, from),
        to: pos(rules, to),
        promote: None,
        copy: true,
    };
    let found: Vec<_> = play::turns(rules, position)
        .into_iter()
        .filter(|t| t.parts.len() == 1 && t.parts[0].primitives.first() == Some(&key))
        .collect();
    assert_eq!(found.len(), 1, "one copy {from} -> {to}: {found:?}");
    found.into_iter().next().unwrap()
}

/// Plays the turns written in `words` (space-separated) from `position`.
fn play_words(rules: &Rules, position: &mut Position, words: &str) {
    for w in words.split_whitespace() {
        let t = find_turn(rules, position, w);
        play::play_turn(rules, position, &t);
    }
}

/// An empty board for `rules` (reserves as set up), `mover` to move.
fn empty_board(rules: &Rules, mover: PlayerId) -> Position {
    let mut p = Position::initial(rules);
    p.cells.iter_mut().for_each(|c| *c = None);
    p.turn = rules
        .turn_order
        .iter()
        .position(|e| e.player == mover)
        .expect("the player has a turn");
    p.last = None;
    p.partial = None;
    assert_eq!(p.to_move(rules), mover);
    p
}

fn put(rules: &Rules, position: &mut Position, square: &str, owner: &str, kind: &str) {
    position.cells[usize::from(pos(rules, square))] = Some(Piece {
        player: player(rules, owner),
        kind: piece_type(rules, kind),
        attrs: 0,
    });
}

/// The number of pieces on the board.
fn on_board(position: &Position) -> usize {
    position.cells.iter().flatten().count()
}

// ---------------------------------------------------------------------------------------
// Every level compiles

#[test]
fn every_board_level_compiles_cleanly_and_names_its_origin() {
    let dir = workspace().join("levels").join("board");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".zrf"))
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "fifteen.zrf",
            "reversi.zrf",
            "rotate-three.zrf",
            "spores.zrf",
            "tic-tac-toe.zrf"
        ]
    );
    for n in &names {
        let text = level_text(n);
        assert!(
            text.contains("Tilesmith project, original") && text.contains("MIT OR Apache-2.0"),
            "{n}: the header must say who wrote it and its licence"
        );
        assert_eq!(
            zrf::variants(&text).unwrap().len(),
            1,
            "{n}: one game, no variants"
        );
        let r = rules(n);
        assert!(!r.title.is_empty());
    }
}

// ---------------------------------------------------------------------------------------
// Tic-tac-toe

#[test]
fn tic_tac_toe_perft_1_to_9_is_the_published_series() {
    let json = perft_json();
    let r = rules("tic-tac-toe.zrf");
    let start = Position::initial(&r);
    assert_eq!(start.to_move(&r), player(&r, "X"));
    assert_eq!(r.board.positions.len(), 9);
    for d in 1..=9u32 {
        assert_eq!(
            play::perft(&r, &start, d, PerftEnd::FullDepth),
            published(&json, "tictactoe", &d.to_string()),
            "tic-tac-toe perft({d})"
        );
    }
    // No game lasts ten plies: the board is full after nine.
    assert_eq!(play::perft(&r, &start, 10, PerftEnd::FullDepth), 0);
}

/// Complete games, counted by winner and by the ply they ended at.
#[derive(Default, Debug)]
struct Games {
    total: u64,
    x_wins: u64,
    o_wins: u64,
    draws: u64,
    ended_at_ply: [u64; 10],
    x_wins_at_ply: [u64; 10],
    o_wins_at_ply: [u64; 10],
}

/// Walks every game from `position` to its end with `turns`/`play_turn`/`outcome`.
/// The file has no `repetition` condition, so the history can stay empty.
fn count_games(r: &Rules, position: &Position, ply: usize, x: PlayerId, games: &mut Games) {
    if let Some(Outcome { winner, .. }) = play::outcome(r, position, &[]) {
        games.total += 1;
        games.ended_at_ply[ply] += 1;
        match winner {
            Some(w) if w == x => {
                games.x_wins += 1;
                games.x_wins_at_ply[ply] += 1;
            }
            Some(_) => {
                games.o_wins += 1;
                games.o_wins_at_ply[ply] += 1;
            }
            None => games.draws += 1,
        }
        return;
    }
    let turns = play::turns(r, position);
    assert!(
        !turns.is_empty(),
        "a position without a drop must have ended (ply {ply})"
    );
    for t in &turns {
        assert!(t.notation.starts_with('@'), "only drops: {}", t.notation);
        let mut next = position.clone();
        play::play_turn(r, &mut next, t);
        count_games(r, &next, ply + 1, x, games);
    }
}

#[test]
fn tic_tac_toe_has_255168_complete_games_with_the_published_results() {
    let json = perft_json();
    let g = &json["tictactoe_games"];
    let r = rules("tic-tac-toe.zrf");
    let mut games = Games::default();
    count_games(&r, &Position::initial(&r), 0, player(&r, "X"), &mut games);
    let n = |k: &str| g[k].as_u64().unwrap();
    assert_eq!(games.total, n("total"), "{games:?}");
    assert_eq!(games.x_wins, n("x_wins"), "{games:?}");
    assert_eq!(games.o_wins, n("o_wins"), "{games:?}");
    assert_eq!(games.draws, n("draws"), "{games:?}");
    for ply in 0..10 {
        let at = |table: &str| g[table][ply.to_string()].as_u64().unwrap_or(0);
        assert_eq!(
            games.ended_at_ply[ply],
            at("ended_at_ply"),
            "ended at ply {ply}"
        );
        assert_eq!(
            games.x_wins_at_ply[ply],
            at("x_wins_at_ply"),
            "X won at ply {ply}"
        );
        assert_eq!(
            games.o_wins_at_ply[ply],
            at("o_wins_at_ply"),
            "O won at ply {ply}"
        );
    }
}

#[test]
fn tic_tac_toe_win_and_full_board_draw_read_as_the_rules_say() {
    let r = rules("tic-tac-toe.zrf");
    let (x, o) = (player(&r, "X"), player(&r, "O"));
    // X: a1 b2 c3 (diagonal) on ply 5.
    let mut p = Position::initial(&r);
    play_words(&r, &mut p, "@a1 @a2 @b2 @a3");
    assert_eq!(play::outcome(&r, &p, &[]), None);
    play_words(&r, &mut p, "@c3");
    assert_eq!(play::outcome(&r, &p, &[]).map(|o| o.winner), Some(Some(x)));
    // O: the middle column on ply 6.
    let mut p = Position::initial(&r);
    play_words(&r, &mut p, "@a1 @b1 @c3 @b2 @a3 @b3");
    assert_eq!(play::outcome(&r, &p, &[]).map(|o| o.winner), Some(Some(o)));
    // A draw, the board full without a line (rank 3 on top):
    //   X O X
    //   X O O
    //   O X X
    let mut p = Position::initial(&r);
    play_words(&r, &mut p, "@a3 @b3 @c3 @b2 @a2 @c2 @b1 @a1 @c1");
    assert_eq!(play::turns(&r, &p).len(), 0, "a full board has no drop");
    assert_eq!(play::outcome(&r, &p, &[]).map(|o| o.winner), Some(None));
    // The ninth drop completing a line (a3 b2 c1) wins for X even though the board is then
    // full and O, to move, has no drop: the win is read, not the stalemate.
    let mut p = Position::initial(&r);
    play_words(&r, &mut p, "@a3 @b3 @c3 @a2 @b2 @c2 @b1 @a1");
    assert_eq!(play::outcome(&r, &p, &[]), None);
    play_words(&r, &mut p, "@c1");
    assert_eq!(
        board_listing(&r, &p)
            .iter()
            .filter(|(_, who, _)| who == "X")
            .count(),
        5
    );
    assert_eq!(play::outcome(&r, &p, &[]).map(|o| o.winner), Some(Some(x)));
}

// ---------------------------------------------------------------------------------------
// Reversi

fn reversi_perft_up_to(max: u32) {
    let json = perft_json();
    let r = rules("reversi.zrf");
    let start = Position::initial(&r);
    assert_eq!(start.to_move(&r), player(&r, "Black"));
    assert_eq!(on_board(&start), 4);
    for d in 1..=max {
        assert_eq!(
            play::perft(&r, &start, d, PerftEnd::EndIsLeaf),
            published(&json, "reversi", &d.to_string()),
            "Reversi perft({d}), Bik's convention"
        );
    }
}

/// Depths 1–7 take about 2 s in a debug build.
#[test]
fn reversi_perft_1_to_7_is_biks_series() {
    reversi_perft_up_to(7);
}

/// Depth 8 (390216 leaves): about 2 s in release, 15 s in a debug build; run with
/// `cargo test --release -p tilesmith-tests --test board_levels -- --ignored`.
#[test]
#[ignore = "slow in a debug build; run with --release -- --ignored"]
fn reversi_perft_1_to_8_is_biks_series() {
    reversi_perft_up_to(8);
}

#[test]
fn reversi_opening_drops_flip_the_closed_disc() {
    let r = rules("reversi.zrf");
    let start = Position::initial(&r);
    let black = player(&r, "Black");
    let mut words: Vec<String> = play::turns(&r, &start)
        .into_iter()
        .map(|t| t.notation)
        .collect();
    words.sort();
    // Black d5 e4, White d4 e5: Black closes d4 from c4 or d3, e5 from e6 or f5.
    assert_eq!(words, ["@c4", "@d3", "@e6", "@f5"]);
    let mut p = start.clone();
    play_words(&r, &mut p, "@c4");
    for sq in ["c4", "d4", "d5", "e4"] {
        assert_eq!(at(&r, &p, sq).map(|d| d.player), Some(black), "{sq}");
    }
    assert_eq!(
        at(&r, &p, "e5").map(|d| d.player),
        Some(player(&r, "White"))
    );
    assert_eq!(on_board(&p), 5);
}

/// Spec Example 3: Black d4 d5, White e4 e6, White to move; the drop on c4 is
/// `[DROP W @c4] [FLIP d4] [FLIP d5]` and leaves c4, d4, d5 White.
#[test]
fn reversi_plays_spec_example_3() {
    let r = rules("reversi.zrf");
    let white = player(&r, "White");
    let mut p = empty_board(&r, white);
    put(&r, &mut p, "d4", "Black", "Disc");
    put(&r, &mut p, "d5", "Black", "Disc");
    put(&r, &mut p, "e4", "White", "Disc");
    put(&r, &mut p, "e6", "White", "Disc");
    let t = find_turn(&r, &p, "@c4");
    assert_eq!(t.parts.len(), 1);
    let prims = &t.parts[0].primitives;
    assert_eq!(prims.len(), 3, "{prims:?}");
    match prims[0] {
        Primitive::Drop { at, piece } => {
            assert_eq!(at, pos(&r, "c4"));
            assert_eq!((piece.player, piece.kind), (white, piece_type(&r, "Disc")));
        }
        ref other => panic!("the key primitive is the drop, not {other:?}"),
    }
    let mut flips: Vec<PosId> = prims[1..]
        .iter()
        .map(|p| match p {
            Primitive::Flip(q) => *q,
            other => panic!("only flips after the drop, not {other:?}"),
        })
        .collect();
    flips.sort_unstable();
    let mut expected = vec![pos(&r, "d4"), pos(&r, "d5")];
    expected.sort_unstable();
    assert_eq!(flips, expected);
    play::play_turn(&r, &mut p, &t);
    for sq in ["c4", "d4", "d5", "e4", "e6"] {
        assert_eq!(at(&r, &p, sq).map(|d| d.player), Some(white), "{sq}");
    }
    assert_eq!(on_board(&p), 5);
    // A drop that closes no line is not a move: White cannot drop on a8 or c5 here.
    let mut p = empty_board(&r, white);
    put(&r, &mut p, "d4", "Black", "Disc");
    put(&r, &mut p, "d5", "Black", "Disc");
    put(&r, &mut p, "e4", "White", "Disc");
    put(&r, &mut p, "e6", "White", "Disc");
    let words: Vec<String> = play::turns(&r, &p)
        .into_iter()
        .map(|t| t.notation)
        .collect();
    assert!(!words.iter().any(|w| w == "@a8" || w == "@c5"), "{words:?}");
    // White's drops are c4 (closing d4 against e4 and d5 against e6) and c6 (closing d5
    // against e4 on the diagonal); nothing else closes a line.
    let mut sorted = words.clone();
    sorted.sort();
    assert_eq!(sorted, ["@c4", "@c6"]);
}

#[test]
fn reversi_a_player_without_a_drop_must_pass() {
    let r = rules("reversi.zrf");
    let (black, white) = (player(&r, "Black"), player(&r, "White"));
    // White a1, Black b1, c1 empty, and a White disc on h8: Black has no drop (its only
    // disc b1 is next to a1 on the edge), White drops on c1 flipping b1.
    let mut p = empty_board(&r, black);
    put(&r, &mut p, "a1", "White", "Disc");
    put(&r, &mut p, "b1", "Black", "Disc");
    put(&r, &mut p, "h8", "White", "Disc");
    let turns = play::turns(&r, &p);
    let words: Vec<&str> = turns.iter().map(|t| t.notation.as_str()).collect();
    assert_eq!(words, ["pass"]);
    assert_eq!(play::outcome(&r, &p, &[]), None, "White can still move");
    play::play_turn(&r, &mut p, &turns[0]);
    assert_eq!(p.to_move(&r), white);
    play_words(&r, &mut p, "@c1");
    assert_eq!(at(&r, &p, "b1").map(|d| d.player), Some(white));
    // Black has no disc left: Black has lost.
    assert_eq!(
        play::outcome(&r, &p, &[]).map(|o| o.winner),
        Some(Some(white))
    );
}

/// Fills every square of the Reversi board: ranks 1 to `white_ranks` White, the rest Black.
fn reversi_full_board(r: &Rules, to_move: PlayerId, white_ranks: u32) -> Position {
    let mut p = empty_board(r, to_move);
    for file in 'a'..='h' {
        for rank in 1..=8u32 {
            let owner = if rank <= white_ranks {
                "White"
            } else {
                "Black"
            };
            put(r, &mut p, &format!("{file}{rank}"), owner, "Disc");
        }
    }
    p
}

#[test]
fn reversi_finished_game_goes_to_the_player_with_more_discs() {
    let r = rules("reversi.zrf");
    let (black, white) = (player(&r, "Black"), player(&r, "White"));
    // A full board, 32 discs each: nobody can drop, equal counts are a draw.
    let mut p = reversi_full_board(&r, black, 4);
    assert!(
        play::turns(&r, &p).is_empty(),
        "a full board has no drop, no pass"
    );
    let o = play::outcome(&r, &p, &[]).expect("a full board ends the game");
    assert_eq!(o.winner, None, "32 against 32 is a draw: {}", o.reason);
    // One more White disc (33 against 31): White wins, whoever is to move.
    put(&r, &mut p, "a5", "White", "Disc");
    for mover in [black, white] {
        p.turn = usize::from(mover);
        assert_eq!(p.to_move(&r), mover);
        let o = play::outcome(&r, &p, &[]).expect("still ended");
        assert_eq!(
            o.winner,
            Some(white),
            "33 White against 31 Black: {}",
            o.reason
        );
    }
    // 24 against 40 the other way round: Black wins.
    let p = reversi_full_board(&r, white, 3);
    let o = play::outcome(&r, &p, &[]).expect("ended");
    assert_eq!(
        o.winner,
        Some(black),
        "24 White against 40 Black: {}",
        o.reason
    );
}

#[test]
fn reversi_game_ended_early_is_counted_not_drawn() {
    let r = rules("reversi.zrf");
    let (black, white) = (player(&r, "Black"), player(&r, "White"));
    // White a1 a2 h8, Black h1: every line from an empty square runs off the board before it
    // closes, so neither player can drop (and so neither may pass). 3 White against 1 Black.
    let mut p = empty_board(&r, black);
    for sq in ["a1", "a2", "h8"] {
        put(&r, &mut p, sq, "White", "Disc");
    }
    put(&r, &mut p, "h1", "Black", "Disc");
    assert!(play::turns(&r, &p).is_empty());
    let o = play::outcome(&r, &p, &[]).expect("nobody can drop: the game is over");
    assert_eq!(o.winner, Some(white), "{}", o.reason);
    // Equal counts (White a1 h8, Black h1 a8: four lone corners, still no drop for
    // either) are a draw.
    p.cells[usize::from(pos(&r, "a2"))] = None;
    put(&r, &mut p, "a8", "Black", "Disc");
    assert!(play::turns(&r, &p).is_empty());
    let o = play::outcome(&r, &p, &[]).expect("still over");
    assert_eq!(o.winner, None, "{}", o.reason);
    // A game where someone can still drop is not scored, however lopsided the count:
    // White d4 d5 d6, Black d3 (White drops on d2 to flip d3).
    let mut p = empty_board(&r, white);
    for sq in ["d4", "d5", "d6"] {
        put(&r, &mut p, sq, "White", "Disc");
    }
    put(&r, &mut p, "d3", "Black", "Disc");
    assert_eq!(play::outcome(&r, &p, &[]), None);
}

// ---------------------------------------------------------------------------------------
// Fifteen

/// The solution written in `fifteen.zrf`'s header (34 moves, found by an IDA* search with the
/// Manhattan distance, independent of the engine).
const FIFTEEN_SOLUTION: &str = "a3-a2 b3-a3 b4-b3 c4-b4 c3-c4 c2-c3 b2-c2 b3-b2 b4-b3 c4-b4 \
    d4-c4 d3-d4 d2-d3 d1-d2 c1-d1 b1-c1 b2-b1 b3-b2 a3-b3 a2-a3 b2-a2 c2-b2 d2-c2 d3-d2 \
    c3-d3 c4-c3 b4-c4 b3-b4 a3-b3 a2-a3 a1-a2 b1-a1 c1-b1 d1-c1";

#[test]
fn fifteen_moves_slide_a_tile_into_the_hole() {
    let r = rules("fifteen.zrf");
    assert_eq!(r.pieces.len(), 15);
    let start = Position::initial(&r);
    assert_eq!(on_board(&start), 15);
    assert!(at(&r, &start, "a2").is_none(), "the hole starts on a2");
    let mut words: Vec<String> = play::turns(&r, &start)
        .into_iter()
        .map(|t| t.notation)
        .collect();
    words.sort();
    assert_eq!(words, ["a1-a2", "a3-a2", "b2-a2"]);
    // perft against an independent count of hole walks (no solution within 8 moves).
    let expected = [3, 9, 29, 93, 301, 973, 3149, 10189];
    for (d, &n) in (1..).zip(expected.iter()) {
        assert_eq!(
            play::perft(&r, &start, d, PerftEnd::FullDepth),
            n,
            "perft({d})"
        );
    }
}

#[test]
fn fifteen_known_solution_wins_on_its_last_move_only() {
    let r = rules("fifteen.zrf");
    let solver = player(&r, "Solver");
    let words: Vec<&str> = FIFTEEN_SOLUTION.split_whitespace().collect();
    assert_eq!(words.len(), 34);
    let mut p = Position::initial(&r);
    for (i, w) in words.iter().enumerate() {
        assert_eq!(
            play::outcome(&r, &p, &[]),
            None,
            "solved before move {}",
            i + 1
        );
        play_words(&r, &mut p, w);
        assert_eq!(on_board(&p), 15);
    }
    assert_eq!(
        play::outcome(&r, &p, &[]).map(|o| o.winner),
        Some(Some(solver))
    );
    for (i, sq) in [
        "a4", "b4", "c4", "d4", "a3", "b3", "c3", "d3", "a2", "b2", "c2", "d2",
    ]
    .iter()
    .chain(["a1", "b1", "c1"].iter())
    .enumerate()
    {
        let t = at(&r, &p, sq).unwrap();
        assert_eq!(r.pieces[usize::from(t.kind)].name, format!("T{}", i + 1));
    }
    assert!(at(&r, &p, "d1").is_none());

    // A wrong last move (the tile on b1 instead of the one on d1) does not solve it.
    let mut p = Position::initial(&r);
    play_words(&r, &mut p, &words[..33].join(" "));
    play_words(&r, &mut p, "b1-c1");
    assert_eq!(play::outcome(&r, &p, &[]), None);
    assert!(!play::turns(&r, &p).is_empty());
}

// ---------------------------------------------------------------------------------------
// Rotate Three

#[test]
fn rotate_three_turn_is_spec_example_5() {
    let r = rules("rotate-three.zrf");
    let start = Position::initial(&r);
    let name_at = |p: &Position, sq: &str| {
        let t = at(&r, p, sq).unwrap();
        r.pieces[usize::from(t.kind)].name.clone()
    };
    assert_eq!(
        [
            name_at(&start, "a1"),
            name_at(&start, "b1"),
            name_at(&start, "b2")
        ],
        ["T1", "T2", "T3"]
    );
    let t = find_turn(&r, &start, "a1-b1");
    assert_eq!(t.parts.len(), 1);
    let (a1, b1, b2) = (pos(&r, "a1"), pos(&r, "b1"), pos(&r, "b2"));
    let mv = |from, to| Primitive::Move {
        from,
        to,
        promote: None,
        copy: false,
    };
    // Written list: [MOVE 1 a1→b1] [MOVE 2 b1→b2] [MOVE 3 b2→a1]; the key is 1 a1→b1.
    assert_eq!(t.parts[0].primitives, [mv(a1, b1), mv(b1, b2), mv(b2, a1)]);
    assert!(t.parts[0].primitives.iter().all(|p| p.level() == 1));
    assert_eq!(t.parts[0].partial, None);

    let mut p = start.clone();
    play::play_turn(&r, &mut p, &t);
    // Pick up 1, 2, 3; remove nothing; set down 1 on b1, 2 on b2, 3 on a1.
    assert_eq!(on_board(&p), 9, "a cascade rotation captures nothing");
    assert_eq!(
        [name_at(&p, "a1"), name_at(&p, "b1"), name_at(&p, "b2")],
        ["T3", "T1", "T2"]
    );
    for sq in ["a3", "b3", "c3", "a2", "c2", "c1"] {
        assert_eq!(
            at(&r, &p, sq),
            at(&r, &start, sq),
            "{sq} is not part of the turn"
        );
    }
}

#[test]
fn rotate_three_offers_sixteen_turns_and_its_solution_wins() {
    let r = rules("rotate-three.zrf");
    let solver = player(&r, "Solver");
    let start = Position::initial(&r);
    let turns = play::turns(&r, &start);
    // Four 2x2 blocks, each turned from any of its four corners.
    assert_eq!(turns.len(), 16);
    let mut words: Vec<&str> = turns.iter().map(|t| t.notation.as_str()).collect();
    words.sort_unstable();
    words.dedup();
    assert_eq!(words.len(), 16, "notations are unique");
    // The start needs six turns (breadth-first search, independent of the engine), so no
    // game ends within five: perft is 16^d.
    for d in 1..=4u32 {
        assert_eq!(
            play::perft(&r, &start, d, PerftEnd::FullDepth),
            16u64.pow(d),
            "perft({d})"
        );
    }
    let mut p = start.clone();
    let solution = ["a1-b1", "c3-b3", "a1-b1", "a3-a2", "c2-b2", "c2-c3"];
    for w in solution {
        assert_eq!(play::outcome(&r, &p, &[]), None);
        play_words(&r, &mut p, w);
    }
    assert_eq!(
        play::outcome(&r, &p, &[]).map(|o| o.winner),
        Some(Some(solver))
    );
}

// ---------------------------------------------------------------------------------------
// Spores

/// The hand-made position of the Spores tests, Black to move (`+` = guarded):
/// ```text
/// 7  W . . . . . .
/// 6  . . . . . . .
/// 5  . . . . . . .
/// 4  . . . W . W+ .
/// 3  . . B . . B+ .
/// 2  . . . . h w .     h = Black Husk, w = White Husk
/// 1  . . . . . . .
///    a b c d e f g
/// ```
fn spores_position(r: &Rules) -> Position {
    let guarded = 1u32 << attr(r, "guarded");
    let mut p = empty_board(r, player(r, "Black"));
    put(r, &mut p, "c3", "Black", "Spore");
    put(r, &mut p, "f3", "Black", "Spore");
    put(r, &mut p, "e2", "Black", "Husk");
    put(r, &mut p, "d4", "White", "Spore");
    put(r, &mut p, "f4", "White", "Spore");
    put(r, &mut p, "f2", "White", "Husk");
    put(r, &mut p, "a7", "White", "Spore");
    for sq in ["f3", "f4"] {
        p.cells[usize::from(pos(r, sq))].as_mut().unwrap().attrs |= guarded;
    }
    p
}

#[test]
fn spores_leap_creates_a_husk_guards_the_lander_and_infects_by_levels() {
    let r = rules("spores.zrf");
    let (black, white) = (player(&r, "Black"), player(&r, "White"));
    let (spore, husk) = (piece_type(&r, "Spore"), piece_type(&r, "Husk"));
    let guarded = 1u32 << attr(&r, "guarded");
    assert!(
        !r.attributes[usize::from(attr(&r, "guarded"))].1,
        "unguarded by default"
    );
    let before = spores_position(&r);

    // Leap c3 -> e3 (two east). Worked out from the rules and spec §3:
    // level 1: the Spore leaves c3 and lands on e3;
    // level 2: CREATE Black Husk @c3 (now empty), SET-ATTRIBUTE guarded @e3 (the Spore that
    //   has arrived, E3), CHANGE-OWNER d4 (unguarded White Spore), SET-ATTRIBUTE unguarded
    //   @f4 (guarded White Spore: stays White), CHANGE-TYPE e2 -> Spore (Black Husk);
    //   f2 (White Husk) and f3 (Black Spore) are left alone; a7 is not a neighbour.
    let t = find_turn(&r, &before, "c3-e3");
    assert_eq!(t.parts.len(), 1);
    let prims = &t.parts[0].primitives;
    assert_eq!(
        prims[0],
        Primitive::Move {
            from: pos(&r, "c3"),
            to: pos(&r, "e3"),
            promote: None,
            copy: false
        },
        "the key primitive is the leap"
    );
    assert!(
        prims.windows(2).all(|w| w[0].level() <= w[1].level()),
        "written order follows the levels (spec §3.1): {prims:?}"
    );
    let mut rest: Vec<Primitive> = prims[1..].to_vec();
    let mut expected = vec![
        Primitive::Create(
            pos(&r, "c3"),
            Piece {
                player: black,
                kind: husk,
                attrs: 0,
            },
        ),
        Primitive::SetAttribute(pos(&r, "e3"), attr(&r, "guarded"), true),
        Primitive::ChangeOwner(pos(&r, "d4"), black),
        Primitive::SetAttribute(pos(&r, "f4"), attr(&r, "guarded"), false),
        Primitive::ChangeType(pos(&r, "e2"), spore),
    ];
    let key = |p: &Primitive| format!("{p:?}");
    rest.sort_by_key(key);
    expected.sort_by_key(key);
    assert_eq!(rest, expected);

    let mut p = before.clone();
    play::play_turn(&r, &mut p, &t);
    let piece = |player, kind, attrs| {
        Some(Piece {
            player,
            kind,
            attrs,
        })
    };
    assert_eq!(
        at(&r, &p, "c3"),
        piece(black, husk, 0),
        "Husk left on the origin"
    );
    assert_eq!(
        at(&r, &p, "e3"),
        piece(black, spore, guarded),
        "lands guarded"
    );
    assert_eq!(at(&r, &p, "d4"), piece(black, spore, 0), "infected");
    assert_eq!(
        at(&r, &p, "f4"),
        piece(white, spore, 0),
        "guard lost, still White"
    );
    assert_eq!(at(&r, &p, "e2"), piece(black, spore, 0), "Husk revived");
    assert_eq!(
        at(&r, &p, "f2"),
        piece(white, husk, 0),
        "enemy Husk untouched"
    );
    assert_eq!(
        at(&r, &p, "f3"),
        piece(black, spore, guarded),
        "friend untouched"
    );
    assert_eq!(at(&r, &p, "a7"), piece(white, spore, 0), "not a neighbour");
    assert_eq!(on_board(&p), 8, "seven pieces, one moved, one Husk created");
    assert_eq!(p.to_move(&r), white);
    assert_eq!(play::outcome(&r, &p, &[]), None);
}

#[test]
fn spores_grow_copies_and_infects_the_new_neighbours() {
    let r = rules("spores.zrf");
    let (black, white) = (player(&r, "Black"), player(&r, "White"));
    let (spore, husk) = (piece_type(&r, "Spore"), piece_type(&r, "Husk"));
    let guarded = 1u32 << attr(&r, "guarded");
    let before = spores_position(&r);
    let piece = |player, kind, attrs| {
        Some(Piece {
            player,
            kind,
            attrs,
        })
    };

    // Grow f3 -> e3: the guarded f3 stays, the copy on e3 is unguarded; e3's neighbours:
    // d4 White unguarded -> Black, f4 White guarded -> unguarded, e2 Black Husk -> Spore,
    // f2 White Husk and f3 itself untouched.
    let t = find_copy(&r, &before, "f3", "e3");
    let mut p = before.clone();
    play::play_turn(&r, &mut p, &t);
    assert_eq!(
        at(&r, &p, "f3"),
        piece(black, spore, guarded),
        "the original stays"
    );
    assert_eq!(
        at(&r, &p, "e3"),
        piece(black, spore, 0),
        "the copy is unguarded"
    );
    assert_eq!(at(&r, &p, "d4"), piece(black, spore, 0));
    assert_eq!(at(&r, &p, "f4"), piece(white, spore, 0));
    assert_eq!(at(&r, &p, "e2"), piece(black, spore, 0));
    assert_eq!(at(&r, &p, "f2"), piece(white, husk, 0));
    assert_eq!(at(&r, &p, "c3"), piece(black, spore, 0));
    assert_eq!(on_board(&p), 8);

    // Infecting White's last Spores ends the game: White a7 alone, Black grows next to it.
    let mut p = empty_board(&r, black);
    put(&r, &mut p, "a5", "Black", "Spore");
    put(&r, &mut p, "a7", "White", "Spore");
    put(&r, &mut p, "g1", "White", "Husk");
    let t = find_copy(&r, &p, "a5", "a6");
    play::play_turn(&r, &mut p, &t);
    assert_eq!(at(&r, &p, "a7"), piece(black, spore, 0));
    assert_eq!(
        play::outcome(&r, &p, &[]).map(|o| o.winner),
        Some(Some(black)),
        "White has no Spore left"
    );
}

#[test]
fn spores_perft_1_to_4_matches_an_independent_count() {
    // Counted by a separate implementation of the rules in the file's header (a Python
    // script written for this level, not derived from the engine).
    let r = rules("spores.zrf");
    let start = Position::initial(&r);
    let mut listing = board_listing(&r, &start);
    listing.sort();
    let owned = |sq: &str, who: &str| (sq.to_string(), who.to_string(), "Spore".to_string());
    assert_eq!(
        listing,
        [
            owned("a1", "Black"),
            owned("a7", "White"),
            owned("g1", "White"),
            owned("g7", "Black")
        ]
    );
    for (d, n) in [(1, 16), (2, 256), (3, 6492), (4, 162_016)] {
        assert_eq!(
            play::perft(&r, &start, d, PerftEnd::FullDepth),
            n,
            "perft({d})"
        );
    }
}

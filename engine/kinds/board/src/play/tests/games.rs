//! Drops, end conditions, perft conventions.

use super::examples::example_9_rules;
use super::*;

/// Tic-tac-toe: drops on empty squares, a win for three in a row (absolute-config per line).
fn tictactoe() -> Rules {
    let mut r = rules(3, 3, &["X", "O"], vec![piece("man", vec![])]);
    r.pieces[0].drops = vec![block(vec![verify(empty()), add()])];
    let lines = [
        ["a1", "b1", "c1"],
        ["a2", "b2", "c2"],
        ["a3", "b3", "c3"],
        ["a1", "a2", "a3"],
        ["b1", "b2", "b3"],
        ["c1", "c2", "c3"],
        ["a1", "b2", "c3"],
        ["a3", "b2", "c1"],
    ];
    let test = EndTest::Or(
        lines
            .iter()
            .map(|l| EndTest::AbsoluteConfig(vec![0], l.iter().map(|s| at(&r, s)).collect()))
            .collect(),
    );
    r.ends.push(EndCondition {
        outcome: crate::rules::Outcome::Win,
        players: vec![0, 1],
        test,
        span: SP,
    });
    r.ends.push(EndCondition {
        outcome: crate::rules::Outcome::Draw,
        players: vec![0, 1],
        test: EndTest::Stalemated,
        span: SP,
    });
    r
}

#[test]
fn tictactoe_perft_matches_the_derived_counts_and_counts_every_game() {
    let r = tictactoe();
    let pos = Position::initial(&r);
    // perft.json "tictactoe": games end as soon as a line is made or the board is full.
    let expected = [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872];
    let deepest = if cfg!(debug_assertions) { 6 } else { 9 };
    for (d, &n) in expected.iter().enumerate().take(deepest) {
        assert_eq!(
            perft(&r, &pos, d as u32 + 1, PerftEnd::FullDepth),
            n,
            "depth {}",
            d + 1
        );
    }
    if !cfg!(debug_assertions) {
        // Every game is over by ply 9: counting ended games as leaves counts all games.
        assert_eq!(perft(&r, &pos, 9, PerftEnd::EndIsLeaf), 255168);
    }
    // Drops have no origin: the notation is the square.
    let t = turns(&r, &pos);
    assert_eq!(t.len(), 9);
    assert_eq!(t[0].notation, "@a3");
}

#[test]
fn a_line_wins_and_a_full_board_draws() {
    let r = tictactoe();
    let mut pos = Position::initial(&r);
    let mut history = Vec::new();
    for sq in ["a1", "a2", "b1", "b2"] {
        let t = turns(&r, &pos)
            .into_iter()
            .find(|t| t.notation == format!("@{sq}"))
            .unwrap();
        history.push(pos.clone());
        play_turn(&r, &mut pos, &t);
        assert_eq!(outcome(&r, &pos, &history), None);
    }
    let t = turns(&r, &pos)
        .into_iter()
        .find(|t| t.notation == "@c1")
        .unwrap();
    play_turn(&r, &mut pos, &t);
    let o = outcome(&r, &pos, &history).unwrap();
    assert_eq!(o.winner, Some(0));
    assert_eq!(o.decided_by, Some(crate::rules::Outcome::Win));
    // A full board without a line: O to move has no turn, stalemated draws.
    let mut full = empty_pos(&r);
    for (sq, p) in [
        ("a1", 0),
        ("b1", 1),
        ("c1", 0),
        ("a2", 0),
        ("b2", 1),
        ("c2", 1),
        ("a3", 1),
        ("b3", 0),
        ("c3", 0),
    ] {
        put(&r, &mut full, sq, p, "man");
    }
    full.turn = 1;
    let o = outcome(&r, &full, &[]).unwrap();
    assert_eq!(o.winner, None);
    assert!(o.reason.contains("O has no move"), "{}", o.reason);
}

#[test]
fn off_n_reserves_limit_drops_and_their_absence_means_unlimited() {
    let mut r = tictactoe();
    assert!(
        Position::initial(&r)
            .reserve
            .iter()
            .flatten()
            .all(|&n| n == u32::MAX)
    );
    r.setup = vec![SetupEntry {
        player: 0,
        piece: 0,
        place: Place::Off(1),
    }];
    let mut pos = Position::initial(&r);
    assert_eq!(pos.reserve, vec![vec![1], vec![0]]);
    let t = turns(&r, &pos);
    assert_eq!(t.len(), 9);
    play_turn(&r, &mut pos, &t[4]);
    assert_eq!(pos.reserve, vec![vec![0], vec![0]]);
    // O has nothing in reserve: no turn.
    assert!(turns(&r, &pos).is_empty());
}

#[test]
fn several_droppable_types_name_the_piece_and_promotion_choices_name_the_type() {
    let mut r = rules(
        3,
        3,
        &["A", "B"],
        vec![piece("Man", vec![]), piece("King", vec![])],
    );
    r.pieces[0].drops = vec![block(vec![verify(empty()), add()])];
    r.pieces[1].drops = vec![block(vec![
        verify(empty()),
        verify(Cond::InZone(0, Loc::Here)),
        add(),
    ])];
    let b2 = at(&r, "b2");
    r.board.zones = vec![Zone {
        name: "middle".into(),
        positions: vec![vec![b2], vec![b2]],
    }];
    let pos = Position::initial(&r);
    let names = notations(&turns(&r, &pos));
    assert_eq!(names.len(), 10);
    assert!(names.contains(&"@a1".to_string()));
    assert!(names.contains(&"Man@b2".to_string()));
    assert!(names.contains(&"King@b2".to_string()));
    assert!(!names.contains(&"@b2".to_string()));

    // `(add Queen Knight)`: one move per type, told apart by `=Type`.
    let mut r = rules(8, 8, &["White", "Black"], vec![]);
    r.pieces = vec![
        piece(
            "Pawn",
            vec![vec![
                st(N),
                verify(empty()),
                Instr::Add {
                    kind: AddKind::Add,
                    promote: vec![1, 2],
                    continue_type: None,
                    span: SP,
                },
            ]],
        ),
        piece("Queen", vec![]),
        piece("Knight", vec![]),
    ];
    let mut pos = empty_pos(&r);
    put(&r, &mut pos, "e7", 0, "Pawn");
    put(&r, &mut pos, "a2", 0, "Pawn");
    let names = notations(&turns(&r, &pos));
    assert_eq!(
        names,
        vec!["e7-e8=Queen", "e7-e8=Knight", "a2-a3=Queen", "a2-a3=Knight"]
    );
}

#[test]
fn a_block_that_loops_for_ever_stops_with_an_error() {
    for body in [vec![st(N), st(S)], vec![add()]] {
        let mut r = rules(3, 3, &["A", "B"], vec![]);
        let mut b = block(vec![wh(Cond::True, body)]);
        b.span = Span { line: 7, col: 3 };
        r.pieces = vec![PieceDef {
            name: "Man".into(),
            moves: vec![b],
            drops: vec![],
            span: SP,
        }];
        let mut pos = empty_pos(&r);
        put(&r, &mut pos, "b2", 0, "Man");
        let err = try_turns(&r, &pos).unwrap_err();
        assert_eq!(err.span, Span { line: 7, col: 3 });
        assert!(err.message.contains("steps"), "{}", err.message);
        assert!(turns(&r, &pos).is_empty());
        assert!(try_perft(&r, &pos, 2, PerftEnd::FullDepth).is_err());
    }
}

/// A king that steps one square in any direction, and a rook sliding four ways.
fn king_and_rook() -> Rules {
    let mut king = vec![];
    for d in [N, S, E, W, NE, NW, SE, SW] {
        king.push(vec![st(d), verify(not(friend())), add()]);
    }
    let slide = |d: DirId| {
        vec![
            st(d),
            wh(empty(), vec![add(), st(d)]),
            verify(not(friend())),
            add(),
        ]
    };
    let mut r = rules(
        8,
        8,
        &["White", "Black"],
        vec![
            piece("King", king),
            piece("Rook", vec![slide(N), slide(S), slide(E), slide(W)]),
        ],
    );
    r.ends.push(loss(&[0, 1], EndTest::Checkmated(0)));
    r.ends.push(EndCondition {
        outcome: crate::rules::Outcome::Draw,
        players: vec![0, 1],
        test: EndTest::Stalemated,
        span: SP,
    });
    r
}

#[test]
fn checkmate_loses_and_stalemate_draws() {
    let r = king_and_rook();
    // Black king a8, White king a6... rook on h8: mate.
    let mut pos = empty_pos(&r);
    put(&r, &mut pos, "a8", 1, "King");
    put(&r, &mut pos, "b6", 0, "King");
    put(&r, &mut pos, "h8", 0, "Rook");
    pos.turn = 1;
    assert!(turns(&r, &pos).is_empty());
    let o = outcome(&r, &pos, &[]).unwrap();
    assert_eq!(o.winner, Some(0));
    assert_eq!(o.decided_by, Some(crate::rules::Outcome::Loss));
    assert!(o.reason.contains("checkmated"), "{}", o.reason);
    // Rook on b7 instead, protected by the king: a8 is not attacked, every move is: stalemate.
    let mut pos = empty_pos(&r);
    put(&r, &mut pos, "a8", 1, "King");
    put(&r, &mut pos, "b6", 0, "King");
    put(&r, &mut pos, "b7", 0, "Rook");
    pos.turn = 1;
    let report = turn_report(&r, &pos).unwrap();
    assert!(report.legal.is_empty());
    // Kxb7 is generated but the rook is protected by the king on b6.
    assert!(report.rejected.iter().any(|(t, _)| t.notation == "a8xb7"));
    let o = outcome(&r, &pos, &[]).unwrap();
    assert_eq!(o.winner, None);
    assert_eq!(o.decided_by, Some(crate::rules::Outcome::Draw));
    assert!(o.reason.contains("Black has no move"), "{}", o.reason);
}

#[test]
fn the_third_occurrence_loses_for_the_player_who_repeated() {
    let mut r = king_and_rook();
    r.ends = vec![loss(&[0, 1], EndTest::Repetition)];
    let mut pos = empty_pos(&r);
    put(&r, &mut pos, "a1", 0, "King");
    put(&r, &mut pos, "h8", 1, "King");
    let mut history: Vec<Position> = Vec::new();
    let play = |pos: &mut Position, history: &mut Vec<Position>, n: &str| {
        let t = turns(&r, pos)
            .into_iter()
            .find(|t| t.notation == n)
            .unwrap();
        history.push(pos.clone());
        play_turn(&r, pos, &t);
        outcome(&r, pos, history)
    };
    for _ in 0..1 {
        assert_eq!(play(&mut pos, &mut history, "a1-a2"), None);
        assert_eq!(play(&mut pos, &mut history, "h8-h7"), None);
        assert_eq!(play(&mut pos, &mut history, "a2-a1"), None);
        assert_eq!(play(&mut pos, &mut history, "h7-h8"), None);
    }
    assert_eq!(play(&mut pos, &mut history, "a1-a2"), None);
    assert_eq!(play(&mut pos, &mut history, "h8-h7"), None);
    assert_eq!(play(&mut pos, &mut history, "a2-a1"), None);
    // The start position a third time, made by Black's move: Black loses.
    let o = play(&mut pos, &mut history, "h7-h8").unwrap();
    assert_eq!(o.winner, Some(0));
}

/// A checkers man with a jump of type 0 and a step of type 1.
fn mini_checkers(priorities: bool) -> Rules {
    let mut r = rules(8, 8, &["Black", "White"], vec![]);
    r.move_types = vec!["jump".into(), "step".into()];
    if priorities {
        r.move_priorities = vec![0, 1];
    }
    r.pieces = vec![piece(
        "Man",
        vec![
            vec![
                st(NE),
                verify(enemy()),
                capture(),
                st(NE),
                verify(empty()),
                add_partial(Some(0)),
            ],
            vec![st(NW), verify(empty()), add()],
        ],
    )];
    r.pieces[0].moves[0].move_type = Some(0);
    r.pieces[0].moves[1].move_type = Some(1);
    r
}

#[test]
fn move_priorities_make_capture_compulsory() {
    for priorities in [false, true] {
        let r = mini_checkers(priorities);
        let mut pos = empty_pos(&r);
        put(&r, &mut pos, "c3", 0, "Man");
        put(&r, &mut pos, "d4", 1, "Man");
        put(&r, &mut pos, "g1", 0, "Man");
        let report = turn_report(&r, &pos).unwrap();
        if priorities {
            assert_eq!(notations(&report.legal), vec!["c3xe5"]);
            let rejected: Vec<&str> = report
                .rejected
                .iter()
                .map(|(t, _)| t.notation.as_str())
                .collect();
            assert_eq!(rejected, vec!["c3-b4", "g1-f2"]);
            assert!(
                report
                    .rejected
                    .iter()
                    .all(|(_, why)| *why == Rejection::Priority(Some(0)))
            );
        } else {
            assert_eq!(notations(&report.legal), vec!["c3xe5", "c3-b4", "g1-f2"]);
        }
        assert_eq!(
            perft(&r, &pos, 1, PerftEnd::FullDepth),
            report.legal.len() as u64
        );
    }
}

/// A Halma-like jump over any piece, with `pass partial` on or off.
fn hopper(pass_partial: bool) -> Rules {
    let mut r = rules(8, 8, &["A", "B"], vec![]);
    r.move_types = vec!["jump".into()];
    r.options.pass_partial = pass_partial;
    let jump = |d| {
        vec![
            st(d),
            verify(not(empty())),
            st(d),
            verify(empty()),
            add_partial(Some(0)),
        ]
    };
    r.pieces = vec![
        piece("Man", vec![jump(N), jump(S), jump(E), jump(W)]),
        piece("Stone", vec![]),
    ];
    for m in &mut r.pieces[0].moves {
        m.move_type = Some(0);
    }
    r
}

#[test]
fn pass_partial_makes_every_prefix_a_turn_and_chains_never_repeat_a_board() {
    for pass_partial in [false, true] {
        let r = hopper(pass_partial);
        let mut pos = empty_pos(&r);
        put(&r, &mut pos, "a1", 0, "Man");
        put(&r, &mut pos, "a2", 1, "Stone");
        put(&r, &mut pos, "a4", 1, "Stone");
        // a1 jumps to a3, then to a5; jumping back down would return to a board already seen.
        let names = notations(&turns(&r, &pos));
        if pass_partial {
            assert_eq!(names, vec!["a1-a3", "a1-a3-a5"]);
        } else {
            assert_eq!(names, vec!["a1-a3-a5"]);
        }
    }
}

#[test]
fn pass_turn_forced_passes_only_without_a_move_and_not_when_nobody_can_move() {
    let mut r = mini_checkers(false);
    r.options.pass_turn = PassTurn::Forced;
    let mut pos = empty_pos(&r);
    put(&r, &mut pos, "a8", 0, "Man"); // Black's man cannot move (nw off the board)
    put(&r, &mut pos, "h1", 1, "Man"); // White's can
    let t = turns(&r, &pos);
    assert_eq!(notations(&t), vec!["pass"]);
    assert_eq!(perft(&r, &pos, 1, PerftEnd::FullDepth), 1);
    let mut after = pos.clone();
    play_turn(&r, &mut after, &t[0]);
    assert_eq!(after.to_move(&r), 1);
    assert_eq!(after.cells, pos.cells);
    // Nobody can move: no pass, the game is over (a draw without conditions).
    let mut stuck = empty_pos(&r);
    put(&r, &mut stuck, "a8", 0, "Man");
    put(&r, &mut stuck, "a1", 1, "Man");
    assert!(turns(&r, &stuck).is_empty());
    assert_eq!(outcome(&r, &stuck, &[]).unwrap().winner, None);
    assert_eq!(perft(&r, &stuck, 3, PerftEnd::EndIsLeaf), 1);
    assert_eq!(perft(&r, &stuck, 3, PerftEnd::FullDepth), 0);
    // `pass turn` true: a pass is offered next to the moves.
    r.options.pass_turn = PassTurn::Allowed;
    assert_eq!(notations(&turns(&r, &pos)), vec!["pass"]);
    pos.turn = 1;
    assert_eq!(notations(&turns(&r, &pos)), vec!["h1-g2", "pass"]);
}

#[test]
fn level_2_changes_flip_change_owner_create_and_set_attribute() {
    let mut r = rules(4, 4, &["A", "B", "C"], vec![]);
    r.attributes = vec![("moved".into(), false)];
    let (a2, b1, b2) = (at(&r, "a2"), at(&r, "b1"), at(&r, "b2"));
    r.pieces = vec![piece(
        "Man",
        vec![vec![
            Instr::Flip(Loc::Pos(b1), SP),
            Instr::ChangeOwner(Loc::Pos(b2), SP),
            Instr::Create(Some(2), 0, Loc::Here, SP),
            Instr::SetAttribute(0, Cond::True, Loc::Dir(N), SP),
            st(N),
            add(),
        ]],
    )];
    let mut pos = empty_pos(&r);
    put(&r, &mut pos, "a1", 0, "Man");
    put(&r, &mut pos, "b1", 1, "Man");
    put(&r, &mut pos, "b2", 2, "Man");
    let m = moves(&r, &pos).unwrap();
    // One move of the mover's (A) pieces only: a1 (b1 and b2 are B's and C's).
    assert_eq!(m.len(), 1);
    // Written order (§3.1): the movement, then create, flip, change-owner, set-attribute.
    assert_eq!(
        m[0].primitives
            .iter()
            .map(Primitive::level)
            .collect::<Vec<_>>(),
        vec![1, 2, 2, 2, 2]
    );
    assert!(matches!(m[0].primitives[1], Primitive::Create(..)));
    assert!(matches!(m[0].primitives[2], Primitive::Flip(..)));
    execute(&r, &mut pos, &m[0]);
    assert_eq!(
        cell(&r, &pos, "b1"),
        Some((2, "Man".into())),
        "flip: B -> C of three"
    );
    assert_eq!(
        cell(&r, &pos, "b2"),
        Some((0, "Man".into())),
        "change-owner to the mover"
    );
    assert_eq!(
        cell(&r, &pos, "a1"),
        Some((2, "Man".into())),
        "created for C"
    );
    assert_eq!(
        pos.cells[a2 as usize].unwrap().attrs,
        1,
        "the moved piece got the attribute"
    );
}

#[test]
fn a_generation_that_takes_too_long_over_all_its_blocks_stops_with_an_error() {
    // Each run of the drop block takes 90 000 steps (under the block limit) and ends; run at
    // each of 256 positions that is more than the whole generation may take.
    let mut r = rules(16, 16, &["A", "B"], vec![piece("Man", vec![])]);
    let mut b = vec![Instr::Goto(at(&r, "a1"), SP)];
    for _ in 0..44_990 {
        b.push(st(E));
        b.push(st(W));
    }
    let mut drops = block(b);
    drops.span = Span { line: 3, col: 9 };
    r.pieces[0].drops = vec![drops];
    let pos = Position::initial(&r);
    let err = try_turns(&r, &pos).unwrap_err();
    assert!(err.message.contains("in one position"), "{}", err.message);
    assert_eq!(err.span, Span { line: 3, col: 9 });
}

#[test]
fn turn_order_entries_restrict_the_move_type_and_the_cycle_repeats_from_its_mark() {
    let mut r = mini_checkers(false);
    // Black, White, Black (steps only); then again from White.
    r.turn_order = vec![
        TurnEntry {
            player: 0,
            move_type: None,
        },
        TurnEntry {
            player: 1,
            move_type: None,
        },
        TurnEntry {
            player: 0,
            move_type: Some(1),
        },
    ];
    r.repeat_from = 1;
    let mut pos = empty_pos(&r);
    put(&r, &mut pos, "c3", 0, "Man");
    put(&r, &mut pos, "d4", 1, "Man");
    assert_eq!(notations(&turns(&r, &pos)), vec!["c3xe5", "c3-b4"]);
    pos.turn = 2;
    assert_eq!(notations(&turns(&r, &pos)), vec!["c3-b4"]);
    let t = turns(&r, &pos);
    play_turn(&r, &mut pos, &t[0]);
    assert_eq!(pos.turn, 1);
    assert_eq!(pos.to_move(&r), 1);
    let t = turns(&r, &pos);
    play_turn(&r, &mut pos, &t[0]);
    assert_eq!(pos.turn, 2);
}

#[test]
fn keys_and_primitive_words() {
    let r = example_9_rules(false);
    let mut pos = empty_pos(&r);
    put(&r, &mut pos, "a1", 0, "X");
    put(&r, &mut pos, "c1", 0, "Y");
    let m = moves(&r, &pos).unwrap();
    assert_eq!(m[1].key(), Some(mv(at(&r, "a1"), at(&r, "b1"))));
    let words: Vec<String> = m[1]
        .primitives
        .iter()
        .map(|p| describe_primitive(&r, p))
        .collect();
    assert_eq!(words, vec!["a1-b1", "c1-e1"]);
    assert_eq!(
        describe_primitive(&r, &Primitive::Capture(at(&r, "d4"))),
        "xd4"
    );
    assert_eq!(
        describe_primitive(&r, &Primitive::Flip(at(&r, "d4"))),
        "~d4"
    );
}

#[test]
fn count_condition_gives_the_game_to_the_most_pieces() {
    let mut r = mini_checkers(false);
    r.ends = vec![EndCondition {
        outcome: crate::rules::Outcome::Count,
        players: vec![0, 1],
        test: EndTest::Stalemated,
        span: SP,
    }];
    let mut pos = empty_pos(&r);
    put(&r, &mut pos, "a8", 0, "Man"); // Black to move cannot move
    put(&r, &mut pos, "a1", 1, "Man");
    put(&r, &mut pos, "c1", 1, "Man");
    assert_eq!(outcome(&r, &pos, &[]).unwrap().winner, Some(1));
    put(&r, &mut pos, "b8", 0, "Man");
    assert_eq!(outcome(&r, &pos, &[]).unwrap().winner, None);
}

/// A one-player game on 3×3: a Man steps north onto an empty square. Win: the Man on a3;
/// loss: the Man on c3; `extra` adds more end conditions.
fn lone_runner(extra: Vec<EndCondition>) -> Rules {
    let mut r = rules(
        3,
        3,
        &["Solo"],
        vec![piece("Man", vec![vec![st(N), verify(empty()), add()]])],
    );
    r.ends = vec![
        EndCondition {
            outcome: crate::rules::Outcome::Win,
            players: vec![0],
            test: EndTest::AbsoluteConfig(vec![0], vec![at(&r, "a3")]),
            span: SP,
        },
        loss(&[0], EndTest::AbsoluteConfig(vec![0], vec![at(&r, "c3")])),
    ];
    r.ends.extend(extra);
    r
}

#[test]
fn a_lone_player_wins_only_by_a_win_condition() {
    use crate::rules::Outcome as Kind;
    let r = lone_runner(vec![]);
    let at_square = |sq: &str| {
        let mut pos = empty_pos(&r);
        put(&r, &mut pos, sq, 0, "Man");
        outcome(&r, &pos, &[])
    };
    // Still running: the Man on a1 can step.
    assert_eq!(at_square("a1"), None);
    let o = at_square("a3").unwrap();
    assert_eq!((o.winner, o.decided_by), (Some(0), Some(Kind::Win)));
    // The loss condition: nobody else to win, so no winner (not the lone player).
    let o = at_square("c3").unwrap();
    assert_eq!(
        (o.winner, o.decided_by),
        (None, Some(Kind::Loss)),
        "{}",
        o.reason
    );
    // b3: no condition holds and the Man cannot step off the board.
    let o = at_square("b3").unwrap();
    assert_eq!((o.winner, o.decided_by), (None, None), "{}", o.reason);
    assert!(o.reason.contains("Solo has no move"), "{}", o.reason);
    // A count condition has nobody to compare with: no winner either.
    let r = lone_runner(vec![EndCondition {
        outcome: Kind::Count,
        players: vec![0],
        test: EndTest::Stalemated,
        span: SP,
    }]);
    let mut pos = empty_pos(&r);
    put(&r, &mut pos, "b3", 0, "Man");
    let o = outcome(&r, &pos, &[]).unwrap();
    assert_eq!(
        (o.winner, o.decided_by),
        (None, Some(Kind::Count)),
        "{}",
        o.reason
    );
}

#[test]
fn a_generation_failure_is_the_error_of_try_outcome() {
    let mut r = rules(3, 3, &["A", "B"], vec![]);
    let mut b = block(vec![wh(Cond::True, vec![st(N), st(S)])]);
    b.span = Span { line: 4, col: 12 };
    r.pieces = vec![PieceDef {
        name: "Man".into(),
        moves: vec![b],
        drops: vec![],
        span: SP,
    }];
    let mut pos = empty_pos(&r);
    put(&r, &mut pos, "b2", 0, "Man");
    let err = try_outcome(&r, &pos, &[]).unwrap_err();
    assert_eq!(err.span, Span { line: 4, col: 12 });
    let engine = Engine::new(r.clone());
    assert_eq!(engine.try_outcome(&pos, &[]), Err(err.clone()));
    // The form without the error ends the game without a winner or a deciding condition.
    let o = outcome(&r, &pos, &[]).unwrap();
    assert_eq!((o.winner, o.decided_by), (None, None));
    assert_eq!(
        o.reason,
        format!("move generation failed: 4:12: {}", err.message)
    );
    // Nothing to generate for B's turn: no failure, B has no move.
    pos.turn = 1;
    assert!(try_outcome(&r, &pos, &[]).unwrap().is_some());
}

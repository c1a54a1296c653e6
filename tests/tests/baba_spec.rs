//! The conformance cases of spec baba §6 (C01–C41), one test each. Boards are the level
//! interior; the "Rules:" of a case hold as rules formed off the board
//! (`BabaGame::set_extra_rules`). Expected boards are the spec's; facings are compared where
//! the spec shows them.
//!
//! Cases that need a feature this engine does not implement (Tier 3 TURN, MIMIC,
//! WITHOUT) check that the word is refused by the level loader, so a designer
//! gets an error instead of a silently ignored rule.

// Helpers outside #[test] functions unwrap too (clippy.toml allows it only inside them); a
// panic there is a test failure like any other.
#![allow(clippy::unwrap_used)]

use tilesmith_engine::game::{Game, Status};
use tilesmith_engine::grid::{Dir, Pos};
use tilesmith_engine::kind::baba::{Kind, Prop, Word};
use tilesmith_tests::baba::{find, game, is, norm, play, show};

fn check(board: &str, rules: &[&str], inputs: &str, expect: &str, dirs: bool) {
    let mut g = game(board, rules);
    play(&mut g, inputs);
    assert_eq!(
        show(&g, dirs),
        norm(expect),
        "board {board:?}, rules {rules:?}, inputs {inputs:?}"
    );
}

/// The word is not known, so a level using its text tile is rejected with a located problem.
fn unsupported(word: &str) {
    assert_eq!(Word::from_name(word), None, "{word} is implemented now");
    let doc = serde_json::json!({"kind": "baba", "name": "x", "width": 1, "height": 1,
        "map": [[format!("text_{word}")]]});
    let problems = tilesmith_engine::kind::baba::BabaLevel::from_json(&doc).unwrap_err();
    assert_eq!(problems[0].path.to_string(), "$.map[0][0]");
    assert!(
        problems[0].message.contains(word),
        "{}",
        problems[0].message
    );
}

const YOU: &str = "baba is you";

#[test]
fn c01a_blocked_move_still_turns_the_mover() {
    check("Bv W .", &[YOU, "wall is stop"], "R", "B> W> .", true);
}

#[test]
fn c01b_boundary_blocks_and_turns() {
    check(". Bv", &[YOU], "R", ". B>", true);
}

#[test]
fn c01c_phantom_enters_the_boundary_and_is_destroyed_without_has() {
    check(
        ". Bv",
        &[YOU, "baba is phantom", "baba has keke"],
        "R",
        ". .",
        false,
    );
}

#[test]
fn phantom_passes_impassable_tiles_and_pushes_nothing() {
    check(
        "B R W .",
        &[YOU, "baba is phantom", "rock is push", "wall is stop"],
        "R R R",
        ". R W B",
        false,
    );
}

#[test]
fn c02a_implicit_text_is_push() {
    check("B> [ROCK] . .", &[YOU], "R", ". B> [ROCK]> .", true);
}

#[test]
fn c02b_text_that_cannot_move_is_impassable() {
    check(
        "B> [ROCK] W",
        &[YOU, "wall is stop"],
        "R",
        "B> [ROCK]> W>",
        true,
    );
}

#[test]
fn c03_push_chain() {
    check("B R R . .", &[YOU, "rock is push"], "R", ". B R R .", false);
}

#[test]
fn c04_pusher_that_cannot_move_is_impassable() {
    check(
        "Bv R W",
        &[YOU, "rock is push", "wall is stop"],
        "R",
        "B> R> W>",
        true,
    );
}

#[test]
fn c05_moving_stop_objects_do_not_pass_each_other_real_game() {
    // The spec's C05 expects `. B< B> .` (the two pass each other). The real game's movement
    // loop (docs/baba-semantics.md §5.1 5a) differs: each baba's way is blocked by the other,
    // a STOP mover that has not moved yet, so both wait; nobody can move, so the first (ID
    // order) turns around and moves left; the second, still facing left, then finds its way
    // free and follows.
    check(
        ". B> B< .",
        &["baba is move and stop"],
        ".",
        "B< B< . .",
        true,
    );
}

#[test]
fn c06_you_moves_before_move() {
    check(
        ".  .  .
         B> R  .
         .  K^ .",
        &[YOU, "keke is move", "rock is push"],
        "R",
        ". . .
         . B>+K^ R>
         . . .",
        true,
    );
}

#[test]
fn c07_multi_moves_are_single_steps_with_swap() {
    check(
        "B> . S .",
        &[YOU, "baba is move", "skull is swap"],
        "R",
        ". S B .",
        false,
    );
}

#[test]
fn c08a_pull() {
    check("R B . .", &[YOU, "rock is pull"], "R", ". R B .", false);
}

#[test]
fn c08b_puller_is_impassable() {
    check("B R .", &[YOU, "rock is pull"], "R", "B R .", false);
}

#[test]
fn c09_move_bounce() {
    check(
        ". R> W",
        &["rock is move", "wall is stop"],
        ".",
        "R< . W>",
        true,
    );
}

#[test]
fn c10_failed_move_destroys_weak_but_the_precheck_does_not() {
    check(
        "W R> W",
        &["rock is move and weak", "wall is stop"],
        ".",
        "W . W",
        false,
    );
}

#[test]
fn c11a_shift_after_you() {
    check("B T> . .", &[YOU, "belt is shift"], "R", ". T> B> .", true);
}

#[test]
fn c11b_stacked_shift_counts() {
    check(
        "B T> . . .",
        &[YOU, "belt is shift", "belt is shift"],
        "R",
        ". T> . B> .",
        true,
    );
}

#[test]
fn c12_tele() {
    check(
        "B P . . P",
        &[YOU, "portal is tele"],
        "R",
        ". P . . B+P",
        false,
    ); // the cell lists objects in ID order
}

#[test]
fn c12_variant_a_non_tele_portal_never_receives() {
    for seed in 0..20 {
        let mut g = tilesmith_engine::kind::baba::BabaGame::new(
            tilesmith_tests::baba::board(
                "B P . . P . P
                 X . . . X . .",
            ),
            seed,
        );
        g.set_extra_rules(tilesmith_tests::baba::rules(&[
            YOU,
            "portal near box is tele",
        ]));
        play(&mut g, "R");
        assert_eq!(find(&g, 'B')[0].pos, Pos::new(4, 0), "seed {seed}");
    }
}

#[test]
fn c13_swap_beats_push() {
    check(
        "B R .",
        &["baba is you and swap", "rock is push"],
        "R",
        "R B .",
        false,
    );
}

#[test]
fn c14_dirs_majority_and_clockwise_tie_break() {
    for (start, end) in [("R>", "Rv"), ("R^", "Rv"), ("Rv", "R^"), ("R<", "R^")] {
        check(start, &["rock is up", "rock is down"], ".", end, true);
    }
    // A single DIR wins outright; on turn 0 nothing is applied.
    let g = game("R>", &["rock is up"]);
    assert_eq!(g.objects()[0].dir, Dir::Right);
    check("R>", &["rock is up"], ".", "R^", true);
}

#[test]
fn c14_variant_turn_is_not_implemented() {
    unsupported("turn");
}

#[test]
fn c15_sink() {
    check("B A .", &[YOU, "water is sink"], "R", ". . .", false);
}

#[test]
fn c16_defeat() {
    check("B S", &[YOU, "skull is defeat"], "R", ". S", false);
    check("B .", &[YOU, "baba is defeat"], ".", ". .", false);
    check("B .", &[YOU, "baba is defeat"], "R", ". .", false);
}

#[test]
fn c17_hot_melt() {
    check(
        "B L",
        &["baba is you and melt", "lava is hot"],
        "R",
        ". L",
        false,
    );
    check("B L", &[YOU, "lava is hot"], "R", ". B+L", false);
}

#[test]
fn c18a_open_into_a_cell_with_stop_is_blocked() {
    let rules = &[
        "key is you",
        "key is open",
        "door is shut",
        "door and wall is stop",
    ];
    check("Yv D+W", rules, "R", "Y> D>+W>", true);
}

#[test]
fn c18b_open_entering_shut_destroys_both() {
    let rules = &[
        "key is you",
        "key is open",
        "door is shut",
        "door and wall is stop",
    ];
    check("Y> D", rules, "R", ". .", false);
}

#[test]
fn c19_open_beats_push_and_has_spawns_on_the_pre_move_cell() {
    check(
        "B D .",
        &[
            "baba is you and open",
            "door is shut and push",
            "baba has flag",
        ],
        "R",
        "F> . .",
        true,
    );
}

fn count_at(g: &tilesmith_engine::kind::baba::BabaGame, c: char, x: usize) -> usize {
    find(g, c)
        .iter()
        .filter(|o| o.pos == Pos::new(x, 0))
        .count()
}

#[test]
fn c20a_two_openers_into_six_shut() {
    let mut g = game("2Y 6D", &["key is you and open", "door is shut and stop"]);
    play(&mut g, "R");
    assert_eq!((count_at(&g, 'Y', 0), count_at(&g, 'D', 1)), (0, 4));
    assert_eq!(count_at(&g, 'Y', 1), 0);
}

#[test]
fn c20b_six_openers_into_two_shut() {
    let mut g = game("6Y 2D", &["key is you and open", "door is shut and stop"]);
    play(&mut g, "R");
    assert_eq!(count_at(&g, 'Y', 1), 4);
    assert_eq!(count_at(&g, 'D', 1), 0);
    assert_eq!(count_at(&g, 'Y', 0), 0);
}

#[test]
fn c20c_static_overlap() {
    let mut g = game("2Y+6D", &["key is open", "door is shut"]);
    play(&mut g, ".");
    assert_eq!((count_at(&g, 'Y', 0), count_at(&g, 'D', 0)), (1, 0));
    let mut g = game("6Y+2D", &["key is open", "door is shut"]);
    play(&mut g, ".");
    assert_eq!((count_at(&g, 'Y', 0), count_at(&g, 'D', 0)), (5, 0));
}

#[test]
fn c21_weak_pushed_line_the_farthest_breaks() {
    check(
        "B R R W",
        &[
            "baba is you and weak",
            "rock is push and weak",
            "wall is stop",
        ],
        "R",
        ". B R W",
        false,
    );
}

#[test]
fn c22a_weak_on_overlap() {
    check("B R", &["baba is you and weak"], "R", ". R", false);
}

#[test]
fn c22b_weak_on_failed_move() {
    check(
        "B W",
        &["baba is you and weak", "wall is stop"],
        "R",
        ". W",
        false,
    );
}

#[test]
fn c22c_still_restricts_without_failing() {
    check(
        "Bv W",
        &["baba is you and weak", "wall is stop", "baba is still"],
        "R",
        "B> W>",
        true,
    );
}

#[test]
fn c23a_win() {
    let mut g = game("B F", &[YOU, "flag is win"]);
    play(&mut g, "R");
    assert!(matches!(g.status(), Status::Won { .. }));
}

#[test]
fn c23b_bonus_is_destroyed_with_the_win_clear() {
    for input in [".", "R"] {
        let mut g = game("B .", &["baba is you and win and bonus"]);
        play(&mut g, input);
        assert!(matches!(g.status(), Status::Won { .. }), "{input}");
        assert!(find(&g, 'B').is_empty(), "{input}");
    }
}

#[test]
fn c24a_has_fires_on_destruction() {
    check(
        "B> R< .",
        &[YOU, "baba eat rock", "rock has key"],
        "R",
        ". B>+Y< .",
        true,
    );
}

#[test]
fn c24b_has_does_not_fire_on_vanishing() {
    check("Bv", &["baba is empty", "baba has keke"], ".", ".", false);
}

#[test]
fn c25_transformation() {
    check("B< .", &["baba is keke"], ".", "K< .", true);
    check("B .", &["baba is keke", "baba is baba"], ".", "B .", false);
    check("B .", &["baba is keke and rock"], ".", "K+R .", false);
    check("B .", &["baba is text"], ".", "[BABA] .", false);
}

#[test]
fn c25_transformed_objects_get_new_ids_and_transform_once_per_turn() {
    let mut g = game("B .", &["baba is keke", "keke is rock"]);
    let before = g.objects()[0].id;
    play(&mut g, ".");
    assert_eq!(show(&g, false), "K .");
    assert!(g.objects()[0].id > before);
    play(&mut g, ".");
    assert_eq!(show(&g, false), "R .");
}

#[test]
fn c26a_make() {
    check("B< B>+K", &["baba make keke"], ".", "B<+K< B>+K>", true);
}

#[test]
fn c26b_make_multiplicity() {
    check(
        "B< B>+K",
        &["baba make keke", "baba make keke"],
        ".",
        "B<+K<+K< B>+K>",
        true,
    );
}

#[test]
fn c26c_make_text_needs_a_cell_without_text() {
    check("B+[WALL]", &["baba make text"], ".", "B+[WALL]", false);
    check("B .", &["baba make text"], ".", "B+[BABA] .", false);
}

#[test]
fn c27_stack_cap_of_six() {
    let mut g = game("6R+K", &["keke is rock"]);
    play(&mut g, ".");
    assert_eq!(count_at(&g, 'R', 0), 6);
    assert_eq!(count_at(&g, 'K', 0), 0);
}

/// C27 across undo: the level's start may hold more than the cap (turn 0 is a refresh only,
/// §4.2), every turn's end holds at most six; undo restores the start exactly, eight rocks,
/// and the next turn caps them again (a turn that moves nothing there as well).
#[test]
fn c27_the_cap_applies_again_after_undoing_to_the_start() {
    let mut g = game("8R .", &[]);
    assert_eq!(count_at(&g, 'R', 0), 8);
    play(&mut g, ".");
    assert_eq!(count_at(&g, 'R', 0), 6);
    play(&mut g, "undo");
    assert_eq!(count_at(&g, 'R', 0), 8);
    play(&mut g, ". . undo undo");
    assert_eq!(count_at(&g, 'R', 0), 8);
    play(&mut g, ".");
    assert_eq!(count_at(&g, 'R', 0), 6);
    // Redo after undo: the turn's end, six.
    play(&mut g, "undo");
    g.redo();
    assert_eq!(count_at(&g, 'R', 0), 6);
    play(&mut g, ".");
    assert_eq!(count_at(&g, 'R', 0), 6);
}

#[test]
fn c28a_not_as_a_filter() {
    check(
        "B K . . B . .",
        &[YOU, "baba near keke is not you"],
        "R",
        "B K . . . B .",
        false,
    );
}

#[test]
fn c28b_and_expansion() {
    check("B . K .", &["baba and keke is you"], "R", ". B . K", false);
}

#[test]
fn c28c_a_is_not_a() {
    check("R . R+R B", &["rock is not rock"], ".", ". . . B", false);
}

#[test]
fn c29_not_adds_inverted_conditions() {
    check(
        "B>   .
         B>+G .",
        &[YOU, "baba on grass is not you"],
        "R",
        ". B>
         B>+G> .",
        true,
    );
}

fn winners(board: &str, rule: &str) -> Vec<usize> {
    let g = game(board, &[rule]);
    let mut xs: Vec<usize> = find(&g, 'B')
        .iter()
        .filter(|b| is(&g, b, Prop::Win))
        .map(|b| b.pos.x)
        .collect();
    xs.sort_unstable();
    xs
}

#[test]
fn c30_on_with_repeated_words_and_not() {
    let b = "B+F  B+F+F  B+F+K";
    assert_eq!(winners(b, "baba on flag and flag is win"), vec![1]);
    assert_eq!(winners(b, "baba on flag and keke is win"), vec![2]);
    assert_eq!(winners(b, "baba not on flag and keke is win"), vec![0, 1]);
}

#[test]
fn c31_lonely_excludes_the_subject_itself() {
    let b = "B+B  B  B+R";
    assert_eq!(winners(b, "lonely baba is win"), vec![1]);
    assert_eq!(winners(b, "not lonely baba is win"), vec![0, 0, 2]);
}

#[test]
fn c32a_near_includes_diagonals() {
    let g = game(
        "K . . K
         . B . .",
        &["keke near baba is win"],
    );
    let win: Vec<usize> = find(&g, 'K')
        .iter()
        .filter(|k| is(&g, k, Prop::Win))
        .map(|k| k.pos.x)
        .collect();
    assert_eq!(win, vec![0]);
}

#[test]
fn c32b_facing_noun_and_direction() {
    let b = "B> K .
             B> . K";
    let rows = |rule: &str| -> Vec<usize> {
        let g = game(b, &[rule]);
        find(&g, 'B')
            .iter()
            .filter(|x| is(&g, x, Prop::Win))
            .map(|x| x.pos.y)
            .collect()
    };
    assert_eq!(rows("baba facing keke is win"), vec![0]);
    assert_eq!(rows("baba facing right is win"), vec![0, 1]);
    assert_eq!(rows("baba facing not right is win"), Vec::<usize>::new());
}

fn rule_texts(board: &str) -> Vec<String> {
    let g = game(board, &[]);
    g.rules().iter().map(|r| r.text.to_string()).collect()
}

#[test]
fn c33a_a_phrase_cannot_be_followed_by_a_new_subject() {
    assert_eq!(
        rule_texts("[BABA] [ON] [FLAG] [AND] [KEKE] [NEAR] [ROCK] [IS] [WIN]"),
        vec!["keke near rock is win"]
    );
}

#[test]
fn c33b_and_inside_a_phrase_adds_an_argument() {
    assert_eq!(
        rule_texts("[BABA] [ON] [FLAG] [AND] [KEKE] [IS] [WIN]"),
        vec!["baba on flag and keke is win"]
    );
}

#[test]
fn c34_turn_and_me_need_tier3_turn() {
    unsupported("turn");
}

#[test]
fn c35_eat() {
    let r = [YOU, "baba eat wall", "wall is stop"];
    check("B> W .", &r, "R", ". B> .", true);
    let mut rf = r.to_vec();
    rf.push("baba is float");
    check("B> W .", &rf, "R", "B> W> .", true);
    let r = [YOU, "baba eat rock", "rock is push"];
    check("B> R .", &r, "R", ". B> .", true);
    let mut rf = r.to_vec();
    rf.push("baba is float");
    check("B> R .", &rf, "R", ". B> R>", true);
}

#[test]
fn c36_fall_treats_push_as_solid_and_does_not_push() {
    check(
        "R
         .
         .
         X",
        &["rock is fall", "box is push"],
        ".",
        ".
         .
         R
         X",
        false,
    );
}

#[test]
fn c37_more() {
    check(
        ". W .
         . B .
         . . .",
        &["baba is more", "wall is stop"],
        ".",
        ". W .
         B B B
         . B .",
        false,
    );
    let mut g = game(
        ". . .
         . 2B .
         . . .",
        &["baba is more"],
    );
    play(&mut g, ".");
    assert_eq!(find(&g, 'B').len(), 6);
}

#[test]
fn c38a_fear_moves_away() {
    check("S B^ .", &["baba fear skull"], ".", "S> . B>", true);
}

#[test]
fn c38b_fear_blocked_still_turns() {
    check(
        "S B^ W",
        &["baba fear skull", "wall is stop"],
        ".",
        "S> B> W>",
        true,
    );
}

#[test]
fn c38_fear_ties_take_the_first_enterable_of_front_right_left_back() {
    // Skulls left and right (a tie of 1): front (up) is free and holds no skull.
    check(
        ". .  .
         S B^ S",
        &["baba fear skull"],
        ".",
        ". B^ .
         S> . S>",
        true,
    );
}

#[test]
fn c39a_follow_at_an_exact_diagonal_faces_vertically() {
    check(
        "B< . .
         .  . .
         .  . K",
        &["baba follow keke"],
        ".",
        "Bv . .
         .  . .
         .  . K>",
        true,
    );
}

#[test]
fn c39b_follow_prefers_an_adjacent_target_front_left_right_back() {
    check(
        ". K  .
         . Bv K
         . .  .",
        &["baba follow keke"],
        ".",
        ". K> .
         . B> K>
         . .  .",
        true,
    );
}

#[test]
fn c40_mimic_is_not_implemented() {
    // MIMIC is Tier 3 and stays an error; the implicit LEVEL IS STOP it would copy is Tier 2
    // and holds (§3.4): the level is STOP with no rule on the board.
    unsupported("mimic");
    let g = game("K> B .", &["keke is you"]);
    assert_eq!(g.level_prop_count(Prop::Stop), 1);
}

#[test]
fn c41_without_is_not_implemented() {
    unsupported("without");
}

#[test]
fn text_kind_round_trip_in_boards() {
    let g = game("[IS]", &[]);
    assert_eq!(
        g.objects()[0].kind,
        Kind::Text(Word::from_name("is").unwrap())
    );
}

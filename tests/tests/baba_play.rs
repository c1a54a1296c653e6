//! Playing baba games: undo, restart and redo, status, step reports, drawing layers, and the
//! properties beyond the spec's §6 cases (FLOAT, SAFE, SLEEP, stacked MOVE, WRITE, EMPTY IS
//! PUSH, TELE determinism). Expectations come from spec baba §4–§5.

use tilesmith_engine::game::{Game, Status};
use tilesmith_engine::grid::{Dir, Pos};
use tilesmith_engine::input::Input;
use tilesmith_engine::kind::baba::{BabaGame, Kind};
use tilesmith_engine::observe::Phase;
use tilesmith_tests::baba::{board, find, game, norm, play, rules, show};

const YOU: &str = "baba is you";

#[test]
fn undo_restores_the_previous_turn_exactly_and_is_not_a_turn() {
    let mut g = game("B R . . W", &[YOU, "rock is push", "wall is stop"]);
    let h0 = g.state_hash();
    play(&mut g, "R");
    let h1 = g.state_hash();
    play(&mut g, "R R");
    assert_eq!(g.turn(), 3);
    play(&mut g, "undo undo");
    assert_eq!(g.turn(), 1);
    assert_eq!(g.state_hash(), h1);
    assert_eq!(g.redo_len(), 2);
    play(&mut g, "restart");
    assert_eq!(g.state_hash(), h0);
    assert_eq!(g.turn(), 0);
    assert!(g.redo());
    assert_eq!(g.state_hash(), h1);
    // A new turn after undo drops the redo list.
    play(&mut g, "L");
    assert_eq!(g.redo_len(), 0);
}

#[test]
fn undo_keeps_ids_so_a_replayed_turn_is_identical() {
    let mut g = game("B .", &["baba is keke", "keke is you"]);
    play(&mut g, ".");
    let after = g.objects();
    play(&mut g, "undo .");
    assert_eq!(g.objects(), after);
}

#[test]
fn status_won_lost_and_running() {
    let mut g = game("B . F", &[YOU, "flag is win"]);
    assert_eq!(g.status(), Status::Running);
    play(&mut g, "R");
    assert_eq!(g.status(), Status::Running);
    play(&mut g, "R");
    assert!(matches!(g.status(), Status::Won { .. }));
    // Once won, steps change nothing.
    let h = g.state_hash();
    play(&mut g, "L .");
    assert_eq!(g.state_hash(), h);
    // Undo leaves the won state.
    play(&mut g, "undo");
    assert_eq!(g.status(), Status::Running);

    let g = game("B", &[]);
    assert!(matches!(g.status(), Status::Lost { .. }), "nothing is YOU");
}

#[test]
fn a_lost_game_still_runs_turns_and_can_come_back() {
    // Nothing is YOU, but the MOVE rock pushes the YOU text into place.
    let mut g = BabaGame::new(
        board(
            "[BABA] [IS] .     [YOU] . .
             .      .    .      .    . .
             B      .    .      .    . .",
        ),
        0,
    );
    g.set_extra_rules(rules(&[]));
    assert!(matches!(g.status(), Status::Lost { .. }));
    play(&mut g, ".");
    assert!(matches!(g.status(), Status::Lost { .. }));
    assert_eq!(g.turn(), 1);
}

#[test]
fn float_separates_layers_for_overlap_but_not_for_collisions() {
    check_board(
        "B A .",
        &[YOU, "water is sink", "baba is float"],
        "R",
        ". B+A .",
    );
    let mut g = game("B F", &[YOU, "flag is win", "baba is float"]);
    play(&mut g, "R");
    assert_eq!(g.status(), Status::Running);
    check_board(
        "B W .",
        &[YOU, "wall is stop", "baba is float"],
        "R",
        "B W .",
    );
}

fn check_board(b: &str, r: &[&str], inputs: &str, expect: &str) {
    let mut g = game(b, r);
    play(&mut g, inputs);
    assert_eq!(show(&g, false), norm(expect), "{b} {r:?} {inputs}");
}

#[test]
fn safe_objects_survive_destruction() {
    check_board(
        "B S",
        &[YOU, "skull is defeat", "baba is safe"],
        "R",
        ". B+S",
    );
    check_board("B A", &[YOU, "water is sink", "water is safe"], "R", ". A");
}

#[test]
fn sleep_stops_you_and_move() {
    check_board("B . .", &[YOU, "baba is sleep"], "R", "B . .");
    check_board("R . .", &["rock is move", "rock is sleep"], ".", "R . .");
}

#[test]
fn stacked_move_takes_several_single_steps() {
    check_board(
        "R> . . .",
        &["rock is move", "rock is move"],
        ".",
        ". . R .",
    );
}

#[test]
fn write_puts_the_word_on_the_writer_once() {
    let mut g = game("B .", &["baba write win"]);
    play(&mut g, ". .");
    assert_eq!(show(&g, false), "B+[WIN] .");
}

#[test]
fn empty_is_push_pushes_through_empty_cells() {
    check_board(
        "B . R . X",
        &[YOU, "empty is push", "rock is push"],
        "R",
        ". B . R X",
    );
    // The emptiness in front of the rock cannot be displaced past the boundary.
    check_board(
        "B . R . .",
        &[YOU, "empty is push", "rock is push"],
        "R",
        "B . R . .",
    );
    check_board("B . .", &[YOU, "empty is push"], "R", "B . .");
    check_board("B . .", &[YOU, "empty is stop"], "R", "B . .");
}

#[test]
fn tele_is_deterministic_per_seed_and_replays_the_same() {
    let b = "B P . P . P . P";
    let run = |seed: u64| {
        let mut g = BabaGame::new(board(b), seed);
        g.set_extra_rules(rules(&[YOU, "portal is tele"]));
        play(&mut g, "R");
        find(&g, 'B')[0].pos
    };
    for seed in 0..10 {
        assert_eq!(run(seed), run(seed));
        assert_ne!(run(seed), Pos::new(1, 0));
    }
}

#[test]
fn step_reports_changed_cells_and_phases() {
    let mut g = game("B . R>", &[YOU, "rock is move"]);
    let r = g.step(Input::Move(Dir::Right));
    assert_eq!(r.step, 1);
    assert_eq!(
        r.changed,
        vec![Pos::new(0, 0), Pos::new(1, 0), Pos::new(2, 0)]
    );
    assert_eq!(r.phases[0].0, Phase::Main("movement"));
    let r = g.step(Input::Move(Dir::Up));
    assert!(r.changed.iter().all(|p| p.y == 0));
}

#[test]
fn layers_are_bottom_first_with_directions_for_objects() {
    let g = game("Bv+[IS]", &[]);
    let l = g.layers(Pos::new(0, 0));
    assert_eq!(l.len(), 2);
    assert_eq!(l[0].token, "baba");
    assert_eq!(l[0].dir, Some(Dir::Down));
    assert_eq!(l[1].token, "text_is");
    assert_eq!(l[1].dir, None);
    assert!(g.layers(Pos::new(5, 5)).is_empty());
    assert_eq!(g.kind().name(), "baba");
    assert_eq!(g.size(), (1, 1));
    assert!(matches!(g.objects()[1].kind, Kind::Text(_)));
}

#[test]
fn rules_formed_by_pushing_text_apply_in_the_same_turn() {
    // §4.2: a refresh follows each movement sub-step, so FLAG IS WIN completed by the YOU move
    // already counts at the win check of that turn.
    let mut g = BabaGame::new(
        board(
            ". [FLAG] .        .
             . [IS]   .        .
             . .      F+[WIN]  B",
        ),
        0,
    );
    g.set_extra_rules(rules(&[YOU]));
    assert!(g.rules().is_empty());
    play(&mut g, "L");
    assert_eq!(
        g.rules().iter().map(|r| &*r.text).collect::<Vec<_>>(),
        vec!["flag is win"]
    );
    assert!(matches!(g.status(), Status::Won { .. }));
}

#[test]
fn end_clears_like_win_and_done_vanishes() {
    let mut g = game("B F", &[YOU, "flag is end"]);
    play(&mut g, "R");
    assert!(matches!(g.status(), Status::Won { .. }));
    let mut g = game("B R R", &[YOU, "rock is done"]);
    play(&mut g, ".");
    assert_eq!(show(&g, false), "B . .");
}

#[test]
fn bonus_stays_when_the_level_is_not_won() {
    let mut g = game("B F", &[YOU, "flag is bonus"]);
    play(&mut g, "R");
    assert_eq!(g.status(), Status::Running);
    assert_eq!(show(&g, false), ". B+F");
}

#[test]
fn all_names_every_kind_that_has_existed_including_kinds_only_written() {
    // §5.13: A IS ALL keeps A and adds each missing ALL kind (KEKE, and ROCK from the text).
    check_board("B K [ROCK]", &["baba is all"], ".", "B+K+R K [ROCK]");
    // A IS NOT B keeps B out; A IS A blocks it.
    check_board(
        "B K [ROCK]",
        &["baba is all", "baba is not keke"],
        ".",
        "B+R K [ROCK]",
    );
    check_board("B K", &["baba is all", "baba is baba"], ".", "B K");
    // TEXT IS ALL: the text goes.
    check_board("[ROCK] K", &["text is all"], ".", "K+R K");
}

#[test]
fn make_all_stacks_and_has_all_spawns_every_kind() {
    check_board("B K", &["baba make all", "baba make all"], ".", "B+K+K K");
    check_board(
        "B S",
        &[YOU, "skull is defeat", "baba has all"],
        "R",
        ". S+B+S",
    );
}

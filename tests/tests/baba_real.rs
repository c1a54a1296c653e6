//! Where spec baba guessed (a (C) choice) and the real game behaves otherwise, the real game
//! wins (docs/baba-semantics.md). One regression level per settled choice; the expected
//! positions are worked out by hand.

#![allow(clippy::unwrap_used)] // helpers panic on purpose when a fixture is wrong

use serde_json::{Value, json};
use tilesmith_engine::game::{Game, Status};
use tilesmith_engine::kind::baba::{BabaGame, BabaLevel, Kind, Noun};
use tilesmith_engine::replay::play as replay_play;
use tilesmith_tests::baba::play;

fn start(level: Value) -> BabaGame {
    BabaGame::new(BabaLevel::from_json(&level).unwrap(), 0)
}

/// The cells of the entities named `noun`, in ID order.
fn cells(g: &BabaGame, noun: &str) -> Vec<(usize, usize)> {
    let n = Noun::from_name(noun).unwrap();
    g.objects()
        .iter()
        .filter(|o| o.kind == Kind::Entity(n))
        .map(|o| (o.pos.x, o.pos.y))
        .collect()
}

fn rule_texts(g: &BabaGame) -> Vec<String> {
    g.rules().iter().map(|r| r.text.to_string()).collect()
}

#[test]
fn a_rule_formed_by_the_you_move_acts_from_the_next_turn() {
    // Baba (4,1) moves left and pushes MOVE to (2,1), completing ROCK IS MOVE. The rules are
    // re-read only after the whole movement block, so the rock (0,0) does not move this turn;
    // it is MOVE from the next turn on (facing right: (0,0) → (1,0)).
    let mut g = start(json!({"kind":"baba","width":5,"height":3,"map":[
        ["rock",null,null,null,null],
        ["text_rock","text_is",null,"text_move","baba"],
        ["text_baba","text_is","text_you",null,null]]}));
    play(&mut g, "L");
    assert_eq!(cells(&g, "baba"), vec![(3, 1)]);
    assert_eq!(
        cells(&g, "rock"),
        vec![(0, 0)],
        "the rock must not move in the turn"
    );
    assert!(rule_texts(&g).contains(&"rock is move".to_string()));
    // Next turn (a wait): ROCK IS MOVE holds at the start, so the rock steps right.
    play(&mut g, ".");
    assert_eq!(cells(&g, "rock"), vec![(1, 0)]);
}

#[test]
fn a_sentence_failing_at_its_first_word_restarts_at_the_next_word() {
    // `ON BABA IS YOU`: the stray ON cannot start a sentence, so reading restarts at BABA.
    let mut g = start(json!({"kind":"baba","width":4,"height":2,"map":[
        ["baba",null,null,null],
        ["text_on","text_baba","text_is","text_you"]]}));
    assert_eq!(rule_texts(&g), vec!["baba is you"]);
    assert_eq!(g.status(), Status::Running);
    play(&mut g, "R");
    assert_eq!(cells(&g, "baba"), vec![(1, 0)]);
    // The same with a stray FACING and NEAR.
    for word in ["text_facing", "text_near"] {
        let g = start(json!({"kind":"baba","width":4,"height":2,"map":[
            ["baba",null,null,null],
            [word,"text_baba","text_is","text_you"]]}));
        assert_eq!(rule_texts(&g), vec!["baba is you"], "{word}");
    }
    // A preposition read inside an attempt still stops the word after it: `ROCK ON BABA AND
    // KEKE NEAR FLAG IS YOU` is only `keke near flag is you` (§3.3 (S)).
    let g = start(json!({"kind":"baba","width":10,"height":1,"map":[
        ["text_rock","text_on","text_baba","text_and","text_keke","text_near","text_flag",
         "text_is","text_you",null]]}));
    assert_eq!(rule_texts(&g), vec!["keke near flag is you"]);
}

/// BABA IS YOU read down column 1; baba (0,2) pushes YOU out of it, and the MOVE rock (4,2),
/// facing left, pushes YOU back a turn later.
fn lost_and_back() -> Value {
    json!({"kind":"baba","width":5,"height":4,"map":[
        [null,"text_baba",null,null,null],
        [null,"text_is",null,null,null],
        ["baba","text_you",null,null,{"token":"rock","values":{"direction":3}}],
        [null,null,"text_rock","text_is","text_move"]]})
}

#[test]
fn nothing_being_you_does_not_end_the_level() {
    let mut g = start(lost_and_back());
    // Turn 1: baba → (1,2) pushes YOU to (2,2) (rule broken); the rock moves to (3,2).
    play(&mut g, "R");
    assert!(matches!(g.status(), Status::Lost { .. }));
    assert_eq!(cells(&g, "baba"), vec![(1, 2)]);
    assert_eq!(cells(&g, "rock"), vec![(3, 2)]);
    // Turn 2 (a key press with nothing YOU): baba stays; the rock moves to (2,2) and pushes YOU
    // back to (1,2): BABA IS YOU forms again.
    play(&mut g, "R");
    assert_eq!(g.status(), Status::Running);
    assert_eq!(cells(&g, "baba"), vec![(1, 2)]);
    assert_eq!(cells(&g, "rock"), vec![(2, 2)]);
    assert!(rule_texts(&g).contains(&"baba is you".to_string()));
    assert_eq!(g.turn(), 2);
}

#[test]
fn replays_keep_playing_after_a_lost_turn_and_stop_at_a_win() {
    // The replay and CLI loop (`tilesmith run`) plays every input after a lost turn.
    let mut g = start(lost_and_back());
    let inputs =
        tilesmith_engine::parse_inputs(&tilesmith_engine::kind::baba::Baba, "R R R").unwrap();
    replay_play(&mut g, &inputs, 3);
    assert_eq!(g.turn(), 3);
    // Turn 3: baba → (2,2) onto the rock (not STOP); the rock steps left onto (1,2) and pushes
    // YOU to (0,2): broken again, so the summary says lost.
    assert_eq!(cells(&g, "baba"), vec![(2, 2)]);
    assert_eq!(cells(&g, "rock"), vec![(1, 2)]);
    assert_eq!(g.summary()["status"], "lost");
    // A win still ends the game: further inputs are not played.
    let mut g = start(json!({"kind":"baba","width":4,"height":3,"map":[
        ["baba","flag",null,null],
        ["text_baba","text_is","text_you",null],
        ["text_flag","text_is","text_win",null]]}));
    let inputs =
        tilesmith_engine::parse_inputs(&tilesmith_engine::kind::baba::Baba, "R R").unwrap();
    replay_play(&mut g, &inputs, 2);
    assert!(matches!(g.status(), Status::Won { .. }));
    assert_eq!(g.turn(), 1);
}

// Blocked STOP movers (issue 11; docs/baba-semantics.md §5.1 5a). In the real game's movement
// loop (`movecommand` in `Data/movement.lua`) a mover whose destination holds a STOP (or PUSH)
// object waits while the others move, and is tried again after a move; when nobody can move,
// a MOVE object turns around and tries the other way, and the others fail. So a STOP mover
// never enters another STOP mover's cell.

#[test]
fn blocked_stop_movers_turn_around_one_after_another() {
    // Rock 1 waits for rock 2, rock 2 for rock 3, rock 3 is blocked by the wall and turns
    // around, but rock 2 is in its way: nobody can move. Rock 1 turns around and moves left;
    // rock 2 then finds rock 3 still in its way, turns around and follows; rock 3 follows.
    let mut g = tilesmith_tests::baba::game(
        ". R> R> R> W",
        &["rock is move", "rock is stop", "wall is stop"],
    );
    tilesmith_tests::baba::play(&mut g, ".");
    assert_eq!(
        tilesmith_tests::baba::show(&g, true),
        tilesmith_tests::baba::norm("R< R< R< . W>")
    );
}

#[test]
fn blocked_stop_you_objects_do_not_move() {
    // Baba 1 waits for baba 2, which the wall stops; then baba 2 stops baba 1.
    let mut g =
        tilesmith_tests::baba::game(". B B W", &["baba is you", "baba is stop", "wall is stop"]);
    tilesmith_tests::baba::play(&mut g, "R");
    assert_eq!(
        tilesmith_tests::baba::show(&g, false),
        tilesmith_tests::baba::norm(". B B W")
    );
}

#[test]
fn a_line_of_stop_you_objects_moves_together() {
    // Each baba waits for the one in front, which moves: the line moves as one.
    let mut g = tilesmith_tests::baba::game(". B B B .", &["baba is you", "baba is stop"]);
    tilesmith_tests::baba::play(&mut g, "R");
    assert_eq!(
        tilesmith_tests::baba::show(&g, false),
        tilesmith_tests::baba::norm(". . B B B")
    );
}

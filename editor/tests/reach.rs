//! Headless window tests (egui_kittest) of the play pane's reachability marks (issue #29
//! "Editor": "while playing, the turn list is coloured by reachability"), on a level small
//! enough to work out by hand:
//!
//! ```text
//! y0  BABA IS YOU FLAG IS WIN ROCK IS PUSH WALL IS STOP   (behind the wall row: never reached)
//! y1  wall × 12
//! y2  baba .    rock flag wall
//! y3  .    .    .    .    wall
//! ```
//!
//! Baba wins by stepping onto the flag in the corner (x 3, y 2). From the start the shortest
//! win takes 5 moves (around the rock: down, right, right, right, up; or right first, then
//! down, right, right, up). After one step right, 4 (down, right, right, up). A second step
//! right pushes the rock onto the flag, in the corner: it cannot be pushed further right (the
//! wall) nor up (the wall row), and nothing pushes it left or down, so Baba never reaches the
//! flag: dead from step 2, and every step after it is dead too. Had the second step been down
//! instead (from x 1, y 3), 3 moves would win (right, right, up).

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use tilesmith_editor::app::TilesmithApp;
use tilesmith_editor::kinds::board::new_design;
use tilesmith_editor::play::reach::Mark;
use tilesmith_editor::state::{Action, EditorState, PlayAction};
use tilesmith_engine::kind::baba::BabaLevel;
use tilesmith_engine::{Dir, Input};

mod common;
use common::{harness, play_words, settle};

/// The level of the module's comment.
fn corner() -> BabaLevel {
    let text = r#"{
      "kind": "baba", "name": "Rock in the corner", "width": 12, "height": 4,
      "map": [
        ["text_baba", "text_is", "text_you", "text_flag", "text_is", "text_win",
         "text_rock", "text_is", "text_push", "text_wall", "text_is", "text_stop"],
        ["wall", "wall", "wall", "wall", "wall", "wall", "wall", "wall", "wall", "wall", "wall", "wall"],
        ["baba", null, "rock", "flag", "wall", null, null, null, null, null, null, null],
        [null, null, null, null, "wall", null, null, null, null, null, null, null]
      ]
    }"#;
    BabaLevel::from_json(&serde_json::from_str(text).unwrap()).unwrap()
}

fn click(h: &mut Harness<'static, TilesmithApp>, label: &str) {
    h.get_by_label(label).click_accesskit();
    settle(h);
}

fn step(h: &mut Harness<'static, TilesmithApp>, d: Dir) {
    h.state_mut()
        .state
        .apply(Action::Play(PlayAction::Step(Some(Input::Move(d)))));
    settle(h);
}

/// Runs frames until every state of the history is marked and the worker is idle, or 60 s
/// have passed (then the assertions below fail with what was marked).
fn wait_marked(h: &mut Harness<'static, TilesmithApp>) {
    let t0 = Instant::now();
    loop {
        let r = &h.state().ui.play_tools.reach;
        if !r.working() && r.marks().iter().all(Option::is_some) {
            break;
        }
        if t0.elapsed() > Duration::from_secs(60) {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
        h.step();
    }
    settle(h);
}

fn marks(h: &Harness<'static, TilesmithApp>) -> Vec<Option<Mark>> {
    h.state().ui.play_tools.reach.marks()
}

#[test]
fn the_turn_list_marks_each_step_winnable_or_dead_and_the_first_dead_step() {
    let mut h = harness(EditorState::new(corner()));
    click(&mut h, "Start playing");
    assert!(h.state().state.playing(), "{}", h.state().state.status);
    wait_marked(&mut h);
    assert_eq!(marks(&h), [Some(Mark::Win(5))]);
    h.get_by_label("Step 0: win in 5");
    step(&mut h, Dir::Right);
    step(&mut h, Dir::Right);
    step(&mut h, Dir::Down);
    wait_marked(&mut h);
    assert_eq!(
        marks(&h),
        [
            Some(Mark::Win(5)),
            Some(Mark::Win(4)),
            Some(Mark::Dead),
            Some(Mark::Dead)
        ]
    );
    // The turn list's rows carry their marks, the banner the first dead step.
    h.get_by_label("0: start   win in 5");
    h.get_by_label("1: right   win in 4");
    h.get_by_label("2: right   dead");
    h.get_by_label("3: down   dead");
    h.get_by_label("Step 3: dead");
    h.get_by_label("Dead from step 2 (R): step 1 could still win in 4");

    // Scrubbing back finds every mark in the cache: no search starts.
    h.state_mut()
        .state
        .apply(Action::Play(PlayAction::Scrub(1)));
    settle(&mut h);
    assert!(!h.state().ui.play_tools.reach.working());
    h.get_by_label("Step 1: win in 4");
    assert_eq!(marks(&h).len(), 4, "the redoable steps keep their marks");

    // Another second step (down, not into the corner): the history changes after step 1;
    // the new state is searched, the first two come from the cache.
    step(&mut h, Dir::Down);
    wait_marked(&mut h);
    assert_eq!(
        marks(&h),
        [Some(Mark::Win(5)), Some(Mark::Win(4)), Some(Mark::Win(3))]
    );
    assert!(h.query_by_label_contains("Dead from step").is_none());
    h.get_by_label("2: down   win in 3");
}

#[test]
fn a_two_player_game_gets_no_marks() {
    // The editor's new board design is tic-tac-toe: two players.
    let mut h = harness(EditorState::new(new_design()));
    click(&mut h, "Start playing");
    h.state_mut()
        .state
        .apply(Action::Play(PlayAction::Step(Some(Input::Choice(0)))));
    settle(&mut h);
    let r = &h.state().ui.play_tools.reach;
    assert!(!r.applies() && !r.working());
    assert!(h.query_by_label("Reachability").is_none());
    assert!(h.query_by_label_contains("win in").is_none());
}

#[test]
fn turning_the_marks_off_stops_the_worker_and_clears_the_marks() {
    let mut h = harness(EditorState::new(corner()));
    click(&mut h, "Start playing");
    wait_marked(&mut h);
    h.get_by_label("0: start   win in 5");
    click(&mut h, "Mark each step");
    assert!(!h.state().ui.play_tools.reach.settings.on);
    assert!(!h.state().ui.play_tools.reach.working());
    h.get_by_label("0: start");
    assert!(h.query_by_label_contains("win in").is_none());
}

#[test]
fn the_worker_marks_a_session_without_a_window_and_refuses_a_history_that_goes_another_way() {
    use tilesmith_editor::doc::play::PlaySession;
    use tilesmith_editor::play::reach::Reach;
    use tilesmith_engine::GameKind as _;
    use tilesmith_engine::kind::baba::Baba;

    let design = corner().to_json();
    let mut p = PlaySession::new(&Baba, design.clone(), 0).unwrap();
    p.step(Input::Move(Dir::Right));
    p.step(Input::Move(Dir::Right));
    assert_eq!(p.steps(), 2);
    let mut r = Reach::default();
    assert!(r.wait(&p, Duration::from_secs(60)));
    assert!(r.applies());
    assert_eq!(
        r.marks(),
        [Some(Mark::Win(5)), Some(Mark::Win(4)), Some(Mark::Dead)]
    );
    assert_eq!(r.note, None);

    // A session whose game did not start from its design (here: from the design with the
    // rock moved aside): the worker's replay of the design does not reach the session's
    // state, so nothing is marked, and the note says why.
    let mut other = design.clone();
    other["map"][2][2] = serde_json::Value::Null;
    other["map"][3][2] = "rock".into();
    let game = Baba.start(&other, 0).unwrap();
    let q = PlaySession::with_game(&Baba, game, design, 0);
    let mut r = Reach::default();
    assert!(r.wait(&q, Duration::from_secs(60)));
    assert_eq!(r.marks(), [None]);
    let note = r.note.clone().unwrap_or_default();
    assert!(note.contains("went another way at step 0"), "{note}");
}

#[test]
fn a_one_player_board_puzzle_is_marked_through_its_move_words() {
    // Fifteen, two slides from solved: the hole at b1, tiles 14 and 15 at c1 and d1. Sliding
    // 14 into the hole (c1-b1) leaves one slide (d1-c1); any other slide (b2-b1: tile 10
    // down) must be taken back first, so three: a slide changes the distance by one.
    let levels = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../levels");
    let mut s = EditorState::new(new_design());
    s.apply(Action::OpenPath(
        levels.join("board/fifteen-two-slides.json"),
    ));
    let mut h = harness(s);
    click(&mut h, "Start playing");
    play_words(&mut h, "c1-b1");
    wait_marked(&mut h);
    assert_eq!(marks(&h), [Some(Mark::Win(2)), Some(Mark::Win(1))]);
    h.get_by_label("Reachability");
    h.get_by_label("Step 1: win in 1");
    h.state_mut()
        .state
        .apply(Action::Play(PlayAction::Scrub(0)));
    settle(&mut h);
    play_words(&mut h, "b2-b1");
    wait_marked(&mut h);
    assert_eq!(marks(&h), [Some(Mark::Win(2)), Some(Mark::Win(3))]);
    h.get_by_label("Step 1: win in 3");
}

#[test]
fn stopping_play_cancels_the_search_under_way() {
    // A boulder level a breadth-first search does not finish in seconds (docs/solver.md):
    // with 10 s a state, the worker is still searching the start when play stops.
    let levels = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../levels");
    let mut s = EditorState::new(new_design());
    s.apply(Action::OpenPath(levels.join("boulder/welcome.json")));
    let mut h = harness(s);
    h.state_mut().ui.play_tools.reach.settings.seconds = 10.0;
    click(&mut h, "Start playing");
    assert!(h.state().ui.play_tools.reach.applies());
    assert!(h.state().ui.play_tools.reach.working());
    h.get_by_label("Step 0: not searched yet");
    click(&mut h, "Stop playing");
    assert!(!h.state().ui.play_tools.reach.working());
    assert!(!h.state().ui.play_tools.reach.applies());
}

//! Headless window tests (egui_kittest) of the pasta document: a program laid out by
//! dragging cards from the palette and along the line, flags placed with the brush, and a
//! MoveFlag and a Subroutine chosen by clicks on the line, a Reorder by dragging flags, with
//! undo.
//!
//! Expected results are worked out by hand from the rules (`../shared/specs/pasta-logic.md`
//! §6, §8, A6, A8, A9, as pinned in `docs/pasta-semantics.md`), not read back from the code.

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

use eframe::egui::{Event, Modifiers, PointerButton, Pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use serde_json::{Value, json};
use tilesmith_editor::app::TilesmithApp;
use tilesmith_editor::doc::map::MapLevel as _;
use tilesmith_editor::kinds::pasta::{Design, PastaDoc};
use tilesmith_editor::state::{Action, EditorState, PlayAction};
use tilesmith_engine::kind::pasta::{Card, State};

mod common;
use common::{harness, settle};

fn doc<'a>(h: &'a Harness<'static, TilesmithApp>) -> &'a PastaDoc {
    h.state()
        .state
        .doc_as::<PastaDoc>()
        .expect("a pasta document")
}

fn open(level: Value) -> Harness<'static, TilesmithApp> {
    let d = Design::from_json(&level).unwrap();
    harness(EditorState::new(d))
}

fn line(h: &Harness<'static, TilesmithApp>) -> Vec<&'static str> {
    doc(h).design().line().iter().map(|c| c.name()).collect()
}

fn center(h: &Harness<'static, TilesmithApp>, label: &str) -> Pos2 {
    h.get_by_label(label).rect().center()
}

fn click(h: &mut Harness<'static, TilesmithApp>, label: &str) {
    h.get_by_label(label).click();
    settle(h);
}

/// Presses at `from`, moves to `to` in steps and releases there.
fn drag(h: &mut Harness<'static, TilesmithApp>, from: Pos2, to: Pos2) {
    h.hover_at(from);
    h.step();
    h.drag_at(from);
    h.step();
    for k in 1..=6 {
        h.hover_at(from + (to - from) * (k as f32 / 6.0));
        h.step();
    }
    h.event(Event::PointerButton {
        pos: to,
        button: PointerButton::Primary,
        pressed: false,
        modifiers: Modifiers::NONE,
    });
    settle(h);
}

fn press(h: &mut Harness<'static, TilesmithApp>, at: Pos2, button: PointerButton) {
    h.hover_at(at);
    h.step();
    for pressed in [true, false] {
        h.event(Event::PointerButton {
            pos: at,
            button,
            pressed,
            modifiers: Modifiers::NONE,
        });
        h.step();
    }
    settle(h);
}

#[test]
fn a_program_is_laid_out_by_dragging_and_each_drag_undoes() {
    let mut h = open(json!({"kind": "pasta", "cards": ["Bug", "Debug"]}));
    // A palette card dropped on the left half of Bug goes in before it.
    let bug = h.get_by_label("card Bug").rect();
    let to = bug.left_center() + eframe::egui::vec2(bug.width() * 0.2, 0.0);
    let from = center(&h, "add AddFlag");
    drag(&mut h, from, to);
    assert_eq!(line(&h), ["AddFlag", "Bug", "Debug"]);
    // A card of the line dragged onto the left half of AddFlag goes first.
    let first = h.get_by_label("card AddFlag").rect();
    let to = first.left_center() + eframe::egui::vec2(first.width() * 0.2, 0.0);
    let from = center(&h, "card Debug");
    drag(&mut h, from, to);
    assert_eq!(line(&h), ["Debug", "AddFlag", "Bug"]);
    // A palette card dropped on a flag goes in before that flag's card too.
    click(&mut h, "card Bug");
    let to = center(&h, "flag 1 of Bug");
    let from = center(&h, "add Rotate");
    drag(&mut h, from, to);
    assert_eq!(line(&h), ["Debug", "AddFlag", "Rotate", "Bug"]);
    click(&mut h, "Undo");
    click(&mut h, "Undo");
    // A click on a palette card puts it at the end; a card in the line is greyed there.
    click(&mut h, "add Reverse");
    assert_eq!(line(&h), ["Debug", "AddFlag", "Bug", "Reverse"]);
    assert!(h.get_by_label("add Bug").accesskit_node().is_disabled());
    let names = doc(&h).map.history.done_names();
    assert_eq!(names, ["Add AddFlag", "Move Debug", "Add Reverse"]);
    click(&mut h, "Undo");
    click(&mut h, "Undo");
    assert_eq!(line(&h), ["AddFlag", "Bug", "Debug"]);
    click(&mut h, "Remove Bug from the program");
    assert_eq!(line(&h), ["AddFlag", "Debug"]);
    let saved = tilesmith_editor::doc::KindDoc::to_json(doc(&h));
    assert_eq!(saved["cards"], json!(["AddFlag", "Debug"]));
}

#[test]
fn flags_are_placed_with_the_brush_taken_off_and_reordered_in_their_queue() {
    let mut h =
        open(json!({"kind": "pasta", "cards": ["Bug", "Debug", "AddFlag", "MoveFlag", "Rotate"]}));
    click(&mut h, "card Bug");
    click(&mut h, "blue flag brush");
    click(&mut h, "card Bug");
    click(&mut h, "card Debug");
    assert_eq!(
        doc(&h).design().flags[0],
        [0, 1],
        "red then blue, head first"
    );
    assert_eq!(doc(&h).design().flags[1], [1]);
    // Right-click takes the tail flag off.
    let debug = center(&h, "card Debug");
    press(&mut h, debug, PointerButton::Secondary);
    assert!(doc(&h).design().flags[1].is_empty());
    // The blue flag dragged onto the head's place goes to the head.
    let from = center(&h, "flag 2 of Bug");
    let to = center(&h, "flag 1 of Bug");
    drag(&mut h, from, to);
    assert_eq!(doc(&h).design().flags[0], [1, 0]);
    // Saved as the level format says, head first; with flags the hands default to 0.
    let saved = tilesmith_editor::doc::KindDoc::to_json(doc(&h));
    assert_eq!(saved["flags"], json!([["blue", "red"], [], [], [], []]));
    // Every edit is one undo step: the reorder, the removal, then the three flags.
    for _ in 0..2 {
        click(&mut h, "Undo");
    }
    assert_eq!(doc(&h).design().flags[0], [0, 1]);
    assert_eq!(doc(&h).design().flags[1], [1]);
}

fn state(h: &Harness<'static, TilesmithApp>) -> State {
    *doc(h).play.as_ref().unwrap().state().unwrap()
}

fn start(h: &mut Harness<'static, TilesmithApp>) {
    h.state_mut().state.apply(Action::Play(PlayAction::Start));
    settle(h);
    assert!(h.state().state.playing());
}

fn queue(s: &State, card: Card) -> Vec<u8> {
    let i = s.index_of(card).unwrap() as usize;
    s.cards()[i].q.owners().collect()
}

#[test]
fn a_move_flag_is_chosen_by_clicks() {
    // Red's flag on MoveFlag {1} under the cursor: one flag of another card (A6, either
    // colour) to the tail of a card that is neither its source nor MoveFlag.
    let mut h = open(json!({
        "kind": "pasta",
        "cards": ["MoveFlag", "Bug", "Debug", "Rotate"],
        "flags": [["red"], ["blue"], ["red", "blue"], ["blue"]]
    }));
    start(&mut h);
    click(&mut h, "Run");
    click(&mut h, "flag 2 of Debug");
    click(&mut h, "card Rotate");
    let s = state(&h);
    // Debug's blue flag (place 2 as found) went to Rotate's tail.
    assert_eq!(queue(&s, Card::Debug), [0]);
    assert_eq!(queue(&s, Card::Rotate), [1, 1]);
    assert_eq!(queue(&s, Card::MoveFlag), [0]);
    // MoveFlag's only flag is done: the cursor goes on to Bug, where blue has the right.
    assert_eq!((s.at, s.to_move()), (1, Some(1)));
    let p = doc(&h).play.as_ref().unwrap();
    assert_eq!(p.session.words, ["do:Debug.2>Rotate"]);
    assert!(
        tilesmith_editor::kinds::pasta::play::describe(&p.log[0])
            .contains("Rotate flags [B]->[BB]")
    );
}

#[test]
fn a_subroutine_is_chosen_by_clicks_and_undone() {
    // Subroutine {1} at index 1: red visits Bug (distance 1), whose red flag gives red the
    // right (A9: a normal visit); Bug takes 1 from blue; the cursor returns to Subroutine,
    // which has no more flags, and moves on to Bug (index 2), red to decide again.
    let mut h = open(json!({
        "kind": "pasta",
        "cards": ["AddFlag", "Subroutine", "Bug", "Debug", "Rotate"],
        "flags": [[], ["red"], ["red"], ["blue"], []],
        "cursor": 1
    }));
    start(&mut h);
    click(&mut h, "Run");
    click(&mut h, "card Bug");
    let s = state(&h);
    assert_eq!((s.at, s.to_move(), s.ret.is_some()), (2, Some(0), true));
    click(&mut h, "Run");
    let s = state(&h);
    assert_eq!(s.life, [5, 4]);
    assert_eq!((s.at, s.to_move(), s.ret), (2, Some(0), None));
    assert_eq!(
        doc(&h).play.as_ref().unwrap().session.words,
        ["do:Bug", "do"]
    );
    // The pane's undo takes back Bug's decision: in the visit again, blue at 5.
    click(&mut h, "Undo decision");
    let s = state(&h);
    assert_eq!(s.life, [5, 5]);
    assert!(s.ret.is_some());
    // A word from the list plays too.
    click(&mut h, "play skip");
    let s = state(&h);
    assert_eq!((s.life, s.at, s.ret), ([5, 5], 2, None));
}

#[test]
fn a_level_without_a_grid_gets_no_grid_tools_and_refuses_cell_actions() {
    use tilesmith_editor::state::MapAction;
    let mut h =
        open(json!({"kind": "pasta", "cards": ["Bug", "Debug", "AddFlag", "MoveFlag", "Rotate"]}));
    for tool in ["Pencil", "Fill", "Select", "Fit", "grid"] {
        assert!(h.query_by_label(tool).is_none(), "{tool} is offered");
    }
    // The resize fields are not shown either (the shell's resize button is "Resize").
    assert!(h.query_by_label("Resize").is_none());
    let st = &mut h.state_mut().state;
    st.apply(Action::SelectAll);
    assert_eq!(st.selection, None);
    st.apply(MapAction::Paste);
    st.apply(MapAction::Resize {
        width: 3,
        height: 3,
        anchor: (0, 0),
    });
    assert!(
        st.doc.map().done_names().is_empty(),
        "no cell edit recorded"
    );
    // Undo still works through the shell's history.
    st.apply(tilesmith_editor::kinds::pasta::PastaAction::RemoveCard(0));
    assert_eq!(st.doc.map().done_names(), ["Remove Bug"]);
    st.apply(MapAction::Undo);
    settle(&mut h);
    assert_eq!(line(&h), ["Bug", "Debug", "AddFlag", "MoveFlag", "Rotate"]);
}

#[test]
fn a_reorder_and_an_increment_are_chosen_by_clicks() {
    // Reorder {1} on red's flag: one other card, its flags in a new order clicked head
    // first. Bug's queue blue, red, blue clicked 3, 1, 2 becomes blue, blue, red; the cursor
    // moves on to Bug, whose new head (blue) has the right.
    let mut h = open(json!({
        "kind": "pasta",
        "cards": ["Reorder", "Bug", "Debug"],
        "flags": [["red"], ["blue", "red", "blue"], []]
    }));
    start(&mut h);
    click(&mut h, "Run");
    click(&mut h, "card Bug");
    for place in [3, 1, 2] {
        click(&mut h, &format!("flag {place} of Bug"));
    }
    let s = state(&h);
    assert_eq!(queue(&s, Card::Bug), [1, 1, 0]);
    assert_eq!((s.at, s.to_move()), (1, Some(1)));
    // The replay records the engine's one word for this arrangement: the two blue flags are
    // alike, so 3,1,2 and 1,3,2 are one choice (docs/pasta-semantics.md, Reorder).
    assert_eq!(
        doc(&h).play.as_ref().unwrap().session.words,
        ["do:Bug=1,3,2"]
    );

    // Increment {1} on red's flag: Bug's damage (#1) raised to 2 by one Increment chip
    // (A1, A3); at Bug, blue runs it with the chip on: red loses 2.
    let mut h = open(json!({
        "kind": "pasta",
        "cards": ["Increment", "Bug", "Debug"],
        "flags": [["red"], ["blue"], ["red"]]
    }));
    start(&mut h);
    click(&mut h, "Run");
    click(&mut h, "Bug#1");
    let s = state(&h);
    assert_eq!(s.cards()[1].chips, [1, 0]);
    assert_eq!((s.at, s.to_move()), (1, Some(1)));
    click(&mut h, "Run");
    let s = state(&h);
    assert_eq!(s.life, [3, 5]);
    // Leaving Bug took its chip back to the supply (C6).
    assert_eq!(s.cards()[1].chips, [0, 0]);
}

#[test]
fn a_reorder_is_chosen_by_dragging_a_flag_and_undone() {
    // Reorder {1} on red's flag: one other card (A6). Bug's queue blue, red, red; its blue
    // head dragged onto the place of its tail flag goes to the tail, the others keep their
    // order: red, red, blue (old places 2, 3, 1). A drag does not end the choice (more drags
    // may follow); Done plays it as one decision: the cursor moves on to Bug, whose new head
    // (red) has the right (A8).
    let level = json!({
        "kind": "pasta",
        "cards": ["Reorder", "Bug", "Debug"],
        "flags": [["red"], ["blue", "red", "red"], []]
    });
    let mut h = open(level.clone());
    start(&mut h);
    click(&mut h, "Run");
    click(&mut h, "card Bug");
    let from = center(&h, "flag 1 of Bug");
    let to = center(&h, "flag 3 of Bug");
    drag(&mut h, from, to);
    let s = state(&h);
    assert_eq!(queue(&s, Card::Bug), [1, 0, 0], "not played before Done");
    assert_eq!(doc(&h).play.as_ref().unwrap().session.steps(), 0);
    click(&mut h, "Done");
    let s = state(&h);
    assert_eq!(queue(&s, Card::Bug), [0, 0, 1]);
    assert_eq!(queue(&s, Card::Reorder), [0]);
    assert_eq!((s.at, s.to_move()), (1, Some(0)));
    // The engine's word: the two red flags are alike, so 2,3,1 and 3,2,1 are one choice,
    // named by its first spelling (docs/pasta-semantics.md, Reorder).
    let p = doc(&h).play.as_ref().unwrap();
    assert_eq!(p.session.words, ["do:Bug=2,3,1"]);
    assert_eq!(p.session.steps(), 1, "one play step");
    click(&mut h, "Undo decision");
    let s = state(&h);
    assert_eq!(queue(&s, Card::Bug), [1, 0, 0]);
    assert_eq!((s.at, s.to_move()), (0, Some(0)));

    // Without clicking the card first, a drag chooses it too; a drag the other way (the
    // tail flag onto the head's place) gives red, blue, red (old places 3, 1, 2).
    let mut h = open(level);
    start(&mut h);
    click(&mut h, "Run");
    let from = center(&h, "flag 3 of Bug");
    let to = center(&h, "flag 1 of Bug");
    drag(&mut h, from, to);
    click(&mut h, "Done");
    let s = state(&h);
    assert_eq!(queue(&s, Card::Bug), [0, 1, 0]);
    assert_eq!((s.at, s.to_move()), (1, Some(0)));
}

/// An order no single drag makes: Bug's blue, blue, red, red made red, blue, red, blue by two
/// drags (a single move of one flag cannot put a red at the head and alternate the rest).
/// The queue is drawn in the order so far, so the second drag's places are the new ones.
#[test]
fn a_reorder_of_several_drags_is_played_by_done() {
    let level = json!({
        "kind": "pasta",
        "cards": ["Reorder", "Bug", "Debug"],
        "flags": [["red"], ["blue", "blue", "red", "red"], []]
    });
    let mut h = open(level);
    start(&mut h);
    click(&mut h, "Run");
    // red (old 3) to the head: drawn red, blue, blue, red.
    let (from, to) = (center(&h, "flag 3 of Bug"), center(&h, "flag 1 of Bug"));
    drag(&mut h, from, to);
    // the drawn tail red (old 4) onto drawn place 3: red, blue, red, blue.
    let (from, to) = (center(&h, "flag 4 of Bug"), center(&h, "flag 3 of Bug"));
    drag(&mut h, from, to);
    assert_eq!(
        queue(&state(&h), Card::Bug),
        [1, 1, 0, 0],
        "not played before Done"
    );
    click(&mut h, "Done");
    let s = state(&h);
    assert_eq!(queue(&s, Card::Bug), [0, 1, 0, 1]);
    assert_eq!(doc(&h).play.as_ref().unwrap().session.steps(), 1);
}

/// The shared computer player decides for a pasta side (issue #28: "the computer's move"):
/// with red played by the computer, red's decision at the Increment card (the program after
/// placement, red's flag first) is made on a worker without a click, is one of the legal
/// words listed before it, and is one undoable step; after the undo the computer pauses.
#[test]
fn the_computer_decides_for_red_and_undo_takes_it_back() {
    let level: Value = serde_json::from_str(
        &std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../levels/pasta/program-after-placement.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let mut h = open(level);
    click(&mut h, "Start playing");
    let legal: Vec<String> = {
        let p = h.state().state.doc.play().unwrap();
        assert_eq!(p.game.to_move(), Some(0), "red decides first");
        p.game.legal_inputs().into_iter().map(|c| c.word).collect()
    };
    click(&mut h, "red played by the computer");
    let t0 = std::time::Instant::now();
    while h.state().state.doc.play().unwrap().steps() == 0
        && t0.elapsed() < std::time::Duration::from_secs(20)
    {
        std::thread::sleep(std::time::Duration::from_millis(20));
        h.step();
    }
    settle(&mut h);
    let p = h.state().state.doc.play().unwrap();
    assert_eq!(p.steps(), 1, "one decision, by the computer");
    let input = p.inputs[0];
    // The log names red's decision.
    h.get_by_label_contains("1. red Increment");
    click(&mut h, "Undo decision");
    let p = h.state().state.doc.play().unwrap();
    assert_eq!(p.steps(), 0, "undone");
    // An input names a choice of the position it was made in: read it back there.
    let word = p.game.input_word(input).unwrap();
    assert!(legal.contains(&word), "{word} not in {legal:?}");
    h.get_by_label("Resume the computer players");
    std::thread::sleep(std::time::Duration::from_millis(300));
    settle(&mut h);
    assert_eq!(
        h.state().state.doc.play().unwrap().steps(),
        0,
        "paused after the undo"
    );
}

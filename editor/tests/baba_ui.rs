//! Headless window tests (egui_kittest) of the baba document: placing words from the palette,
//! the live rule list following the paint, typed sentences, the stack inspector, and a short
//! play with undo and restart. No GPU and no display are needed.

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

use eframe::egui::{Event, Key, Modifiers, PointerButton, Pos2, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use tilesmith_editor::app::TilesmithApp;
use tilesmith_editor::files::ScriptedDialogs;
use tilesmith_editor::kinds::baba::BabaDoc;
use tilesmith_editor::state::EditorState;
use tilesmith_engine::kind::baba::{BabaLevel, Kind, Tile};
use tilesmith_engine::{Dir, Input, Pos, Status};

mod common;
use common::{harness, settle};

fn tile(token: &str) -> Tile {
    Tile::new(Kind::from_token(token).unwrap())
}

/// A `w` × `h` baba level with the given tiles (token, x, y), bottom of each stack first.
fn level(w: usize, h: usize, tiles: &[(&str, usize, usize)]) -> EditorState {
    let mut l = BabaLevel::new("ui", w, h);
    for (t, x, y) in tiles {
        l.map.get_mut(Pos::new(*x, *y)).unwrap().push(tile(t));
    }
    EditorState::new(l)
}

fn doc<'a>(h: &'a Harness<'static, TilesmithApp>) -> &'a BabaDoc {
    h.state()
        .state
        .doc_as::<BabaDoc>()
        .expect("a baba document")
}

fn tokens(h: &Harness<'static, TilesmithApp>, x: usize, y: usize) -> Vec<String> {
    doc(h)
        .shown_map()
        .get(Pos::new(x, y))
        .unwrap()
        .iter()
        .map(|t| t.kind.token())
        .collect()
}

fn rule_texts(h: &Harness<'static, TilesmithApp>) -> Vec<String> {
    doc(h).rules().iter().map(|r| r.text.to_string()).collect()
}

/// The screen point at the centre of cell `(x, y)`.
fn at(h: &Harness<'static, TilesmithApp>, x: usize, y: usize) -> Pos2 {
    let app = h.state();
    let r = app.ui.canvas.rect();
    let v = app.state.view;
    r.min + vec2(v.pan[0], v.pan[1]) + vec2((x as f32 + 0.5) * v.zoom, (y as f32 + 0.5) * v.zoom)
}

fn click_cell(h: &mut Harness<'static, TilesmithApp>, button: PointerButton, x: usize, y: usize) {
    let p = at(h, x, y);
    h.event(Event::PointerMoved(p));
    for pressed in [true, false] {
        h.event(Event::PointerButton {
            pos: p,
            button,
            pressed,
            modifiers: Modifiers::NONE,
        });
        h.step();
    }
    settle(h);
}

fn click(h: &mut Harness<'static, TilesmithApp>, label: &str) {
    h.get_by_label(label).click();
    settle(h);
}

/// Chooses a palette entry by typing its name into the palette filter, then clicking it.
fn pick(h: &mut Harness<'static, TilesmithApp>, filter: &str, label: &str) {
    let f = h.get_by_label("palette filter");
    f.click();
    settle(h);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.get_by_label("palette filter").type_text(filter);
    settle(h);
    h.key_press(Key::Escape);
    settle(h);
    click(h, label);
}

#[test]
fn words_placed_from_the_palette_form_rules_in_the_live_list() {
    let mut h = harness(level(8, 5, &[]));
    click(&mut h, "Rules");
    h.get_by_label("No text forms a rule.");
    // BABA IS YOU, word by word, on row 1; the list follows each stroke.
    pick(&mut h, "text_baba", "BABA");
    click_cell(&mut h, PointerButton::Primary, 1, 1);
    pick(&mut h, "text_is", "IS");
    click_cell(&mut h, PointerButton::Primary, 2, 1);
    assert!(rule_texts(&h).is_empty(), "BABA IS is no sentence yet");
    assert!(
        doc(&h).is_unused(Pos::new(1, 1), 0),
        "lone words are dimmed"
    );
    pick(&mut h, "text_you", "YOU");
    click_cell(&mut h, PointerButton::Primary, 3, 1);
    assert_eq!(tokens(&h, 3, 1), ["text_you"]);
    assert_eq!(rule_texts(&h), ["baba is you"]);
    h.get_by_label("baba is you");
    assert!(!doc(&h).is_unused(Pos::new(1, 1), 0));
    // The same words read down a column form a second rule (IS shared at (2, 1)).
    pick(&mut h, "text_flag", "FLAG");
    click_cell(&mut h, PointerButton::Primary, 2, 0);
    pick(&mut h, "text_win", "WIN");
    click_cell(&mut h, PointerButton::Primary, 2, 2);
    // Board order: the vertical rule starts at (2, 0), before (1, 1) in row-major order.
    assert_eq!(rule_texts(&h), ["flag is win", "baba is you"]);
    h.get_by_label("flag is win");
    // Undo from the keyboard takes the last word away, and the rule with it.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    settle(&mut h);
    assert_eq!(rule_texts(&h), ["baba is you"]);
    assert!(h.query_by_label("flag is win").is_none());
}

#[test]
fn the_rule_list_follows_a_stroke_before_the_button_is_released() {
    let mut h = harness(level(8, 4, &[("text_rock", 1, 1), ("text_is", 2, 1)]));
    click(&mut h, "Rules");
    pick(&mut h, "text_push", "PUSH");
    // Press on (3, 1) and hold: the rule list already shows the rule the stroke would form.
    let p = at(&h, 3, 1);
    h.event(Event::PointerMoved(p));
    h.event(Event::PointerButton {
        pos: p,
        button: PointerButton::Primary,
        pressed: true,
        modifiers: Modifiers::NONE,
    });
    settle(&mut h);
    assert!(
        doc(&h).map.stroke.is_some(),
        "the stroke is still in progress"
    );
    assert!(doc(&h).level().map.get(Pos::new(3, 1)).unwrap().is_empty());
    assert_eq!(rule_texts(&h), ["rock is push"]);
    h.get_by_label("rock is push");
    // Dragging the stroke on to (3, 2) keeps it; releasing commits one edit.
    let q = at(&h, 3, 2);
    h.event(Event::PointerMoved(q));
    settle(&mut h);
    h.event(Event::PointerButton {
        pos: q,
        button: PointerButton::Primary,
        pressed: false,
        modifiers: Modifiers::NONE,
    });
    settle(&mut h);
    assert_eq!(tokens(&h, 3, 1), ["text_push"]);
    assert_eq!(tokens(&h, 3, 2), ["text_push"]);
    assert_eq!(rule_texts(&h), ["rock is push"]);
    assert_eq!(doc(&h).history().done_names(), ["Pencil"]);
}

#[test]
fn hovering_a_rule_highlights_its_tiles() {
    let mut h = harness(level(
        8,
        4,
        &[
            ("text_rock", 4, 0),
            ("text_is", 4, 1),
            ("text_push", 4, 2),
            ("text_keke", 0, 3),
        ],
    ));
    click(&mut h, "Rules");
    assert_eq!(rule_texts(&h), ["rock is push"]);
    assert!(doc(&h).hovered_tiles().is_empty());
    h.get_by_label("rock is push").hover();
    settle(&mut h);
    assert_eq!(doc(&h).hovered_rule, Some(0));
    assert_eq!(
        doc(&h).hovered_tiles(),
        [Pos::new(4, 0), Pos::new(4, 1), Pos::new(4, 2)]
    );
    // The lone KEKE forms no rule: it is reported as dimmed.
    assert!(doc(&h).is_unused(Pos::new(0, 3), 0));
    h.get_by_label("1 text tile(s) form no rule (dimmed)");
}

#[test]
fn a_typed_sentence_is_placed_at_the_selected_cell() {
    let mut h = harness(level(9, 6, &[("rock", 2, 4)]));
    // Select cell (1, 4) with the select tool, then type and place the sentence.
    h.key_press(Key::S);
    settle(&mut h);
    click_cell(&mut h, PointerButton::Primary, 1, 4);
    assert_eq!(h.state().state.inspect, Some(Pos::new(1, 4)));
    click(&mut h, "Rules");
    h.get_by_label("sentence").click();
    settle(&mut h);
    h.get_by_label("sentence").type_text("Keke is PUSH");
    settle(&mut h);
    click(&mut h, "Place at x 1, y 4");
    assert_eq!(tokens(&h, 1, 4), ["text_keke"]);
    // Added on top of the rock (the default stack mode).
    assert_eq!(tokens(&h, 2, 4), ["rock", "text_is"]);
    assert_eq!(tokens(&h, 3, 4), ["text_push"]);
    assert_eq!(rule_texts(&h), ["keke is push"]);
    assert_eq!(doc(&h).history().done_names(), ["Place \"keke is push\""]);
    // Vertically, from the same cell upwards is impossible (it would leave the map downward
    // from row 4 with three words): nothing changes and the status says why.
    click(&mut h, "vertical");
    click(&mut h, "Place at x 1, y 4");
    assert_eq!(doc(&h).history().len_done(), 1);
    assert!(
        h.state().state.status.contains("does not fit"),
        "{}",
        h.state().state.status
    );
    // From the top of column 6 it fits.
    h.key_press(Key::Escape);
    settle(&mut h);
    click(&mut h, "Cell & level");
    // The canvas changes size with the side panel's page; let the layout settle.
    h.run_steps(10);
    click_cell(&mut h, PointerButton::Primary, 6, 0);
    click(&mut h, "Rules");
    click(&mut h, "Place at x 6, y 0");
    assert_eq!(tokens(&h, 6, 0), ["text_keke"]);
    assert_eq!(tokens(&h, 6, 1), ["text_is"]);
    assert_eq!(tokens(&h, 6, 2), ["text_push"]);
    assert_eq!(rule_texts(&h), ["keke is push", "keke is push"]);
}

#[test]
fn stack_mode_facing_and_the_inspector() {
    let mut h = harness(level(6, 4, &[("flag", 2, 2)]));
    // Add on top (default): baba lands on the flag, facing up as chosen.
    click(&mut h, "^");
    click_cell(&mut h, PointerButton::Primary, 2, 2);
    assert_eq!(tokens(&h, 2, 2), ["flag", "baba"]);
    let top = *doc(&h)
        .level()
        .map
        .get(Pos::new(2, 2))
        .unwrap()
        .last()
        .unwrap();
    assert_eq!(top.dir, Dir::Up);
    // Inspect the cell: the stack is listed top first; move the baba down under the flag.
    click(&mut h, "Eyedropper");
    click_cell(&mut h, PointerButton::Primary, 2, 2);
    assert_eq!(h.state().state.inspect, Some(Pos::new(2, 2)));
    h.get_by_label("x 2, y 2: 2 object(s), top first");
    let downs = h.get_all_by_label("down").count();
    assert_eq!(downs, 2, "one per object");
    h.get_all_by_label("down").next().unwrap().click();
    settle(&mut h);
    assert_eq!(tokens(&h, 2, 2), ["baba", "flag"]);
    // Remove the (now top) flag.
    h.get_all_by_label("remove").next().unwrap().click();
    settle(&mut h);
    assert_eq!(tokens(&h, 2, 2), ["baba"]);
    // Replace mode: painting the flag again replaces the stack.
    h.key_press(Key::P);
    settle(&mut h);
    click(&mut h, "replace");
    pick(&mut h, "flag", "flag");
    click_cell(&mut h, PointerButton::Primary, 2, 2);
    assert_eq!(tokens(&h, 2, 2), ["flag"]);
    // The right button erases (the default right brush).
    click_cell(&mut h, PointerButton::Secondary, 2, 2);
    assert!(tokens(&h, 2, 2).is_empty());
    assert_eq!(
        doc(&h).history().done_names(),
        [
            "Pencil",
            "Reorder stack",
            "Remove object",
            "Pencil",
            "Pencil"
        ]
    );
}

#[test]
fn a_short_play_with_undo_restart_and_a_win() {
    // BABA IS YOU on row 0, FLAG IS WIN on row 1; baba at (0, 3), flag at (3, 3).
    let mut h = harness(level(
        6,
        4,
        &[
            ("text_baba", 0, 0),
            ("text_is", 1, 0),
            ("text_you", 2, 0),
            ("text_flag", 0, 1),
            ("text_is", 1, 1),
            ("text_win", 2, 1),
            ("baba", 0, 3),
            ("flag", 3, 3),
        ],
    ));
    click(&mut h, "Start playing");
    h.get_by_label("Play pane");
    h.get_by_label("Active rules in turn 0");
    h.key_press(Key::ArrowRight);
    settle(&mut h);
    assert_eq!(tokens(&h, 1, 3), ["baba"]);
    assert!(tokens(&h, 0, 3).is_empty());
    h.key_press(Key::ArrowRight);
    settle(&mut h);
    assert_eq!(tokens(&h, 2, 3), ["baba"]);
    // Z undoes one turn, as in the game.
    h.key_press(Key::Z);
    settle(&mut h);
    assert_eq!(tokens(&h, 1, 3), ["baba"]);
    assert_eq!(doc(&h).play.as_ref().unwrap().turn(), 1);
    // Space waits one turn.
    h.key_press(Key::Space);
    settle(&mut h);
    assert_eq!(doc(&h).play.as_ref().unwrap().turn(), 2);
    assert_eq!(tokens(&h, 1, 3), ["baba"]);
    // R restarts.
    h.key_press(Key::R);
    settle(&mut h);
    assert_eq!(doc(&h).play.as_ref().unwrap().turn(), 0);
    assert_eq!(tokens(&h, 0, 3), ["baba"]);
    // Three moves right with the pane's buttons reach the flag: won.
    for _ in 0..3 {
        click(&mut h, "Right");
    }
    let p = doc(&h).play.as_ref().unwrap();
    assert_eq!(p.game().status(), Status::won(1));
    // The play pane's banner and the one over the map.
    assert_eq!(h.query_all_by_label("Level won in 3 turns!").count(), 2);
    // Record the winning turns as a replay; the engine re-runs it to the same win.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("win.replay.json");
    h.state_mut().state.dialogs = Box::new(ScriptedDialogs {
        opens: vec![],
        saves: vec![file.clone()],
    });
    click(&mut h, "Record replay");
    let replay = tilesmith_engine::replay::Replay::load(&file).unwrap();
    assert_eq!(
        replay.inputs,
        [
            Input::Move(Dir::Right),
            Input::Move(Dir::Right),
            Input::Move(Dir::Right)
        ]
    );
    let outcome = replay.run().unwrap();
    assert!(outcome.matches, "the recorded hash and status hold");
    assert_eq!(outcome.game.status(), Status::won(1));
    // Stepping back through the turn list, then stopping: the design is untouched.
    // (The row goes on with its reachability mark, `win in 2`, once searched.)
    h.get_by_label_contains("1: right").click();
    settle(&mut h);
    assert_eq!(tokens(&h, 1, 3), ["baba"]);
    click(&mut h, "Stop playing");
    assert_eq!(tokens(&h, 0, 3), ["baba"]);
    assert!(!h.state().state.dirty());
}

/// `tilesmith_engine::Game::status` is a trait method.
use tilesmith_engine::Game as _;

#[test]
fn the_design_changing_on_disk_during_play_does_not_break_the_canvas() {
    // A 10×6 design on disk; while it is played, the file is replaced by a 4×3 level.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("shrinks.json");
    let big = BabaLevel::new("big", 10, 6);
    std::fs::write(&file, tilesmith_engine::json_text::layout(&big.to_json())).unwrap();
    let mut st = EditorState::new(BabaLevel::new("x", 1, 1));
    st.apply(tilesmith_editor::state::Action::OpenPath(file.clone()));
    let mut h = harness(st);
    click(&mut h, "Start playing");
    let small = BabaLevel::new("small", 4, 3);
    std::fs::write(&file, tilesmith_engine::json_text::layout(&small.to_json())).unwrap();
    h.state_mut()
        .state
        .apply(tilesmith_editor::state::Action::DiskChanged);
    settle(&mut h);
    // The design was reloaded (one undoable edit); the map still shows the 10×6 game.
    assert_eq!(doc(&h).level().width(), 4);
    assert_eq!(h.state().state.map_size(), (10, 6));
    assert_eq!(
        h.state().ui.canvas.content().map(|k| (k.3, k.4)),
        Some((10, 6))
    );
    click(&mut h, "Stop playing");
    assert_eq!(
        h.state().ui.canvas.content().map(|k| (k.3, k.4)),
        Some((4, 3))
    );
}

#[test]
fn opening_a_level_of_the_same_size_rebuilds_the_map_texture() {
    let levels = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../levels/baba");
    let mut st = EditorState::new(BabaLevel::new("x", 1, 1));
    st.apply(tilesmith_editor::state::Action::OpenPath(
        levels.join("first-words.json"),
    ));
    let mut h = harness(st);
    let before = h.state().ui.canvas.content().unwrap();
    // Lonely Flag is 9×6 too, and also unedited (history generation 0).
    h.state_mut()
        .state
        .apply(tilesmith_editor::state::Action::OpenPath(
            levels.join("lonely-flag.json"),
        ));
    settle(&mut h);
    let after = h.state().ui.canvas.content().unwrap();
    assert_eq!((before.3, before.4), (after.3, after.4));
    assert_ne!(
        before, after,
        "the texture must not keep the first level's colours"
    );
}

#[test]
fn a_new_baba_level_from_the_file_menu() {
    let mut h = harness(EditorState::new(
        tilesmith_engine::kind::boulder::BoulderLevel::new("b", 8, 6),
    ));
    assert!(h.state().state.doc_as::<BabaDoc>().is_none());
    click(&mut h, "File");
    h.get_by_label("New level of kind").hover();
    settle(&mut h);
    click(&mut h, "baba");
    let st = &h.state().state;
    assert_eq!(st.kind_name(), "baba");
    assert_eq!(st.map_size(), (24, 14));
    assert!(doc(&h).level().map.cells().iter().all(Vec::is_empty));
    // The baba palette replaced the boulder one.
    h.get_by_label("Text: operators (13)");
    h.get_by_label("add on top");
    assert!(h.query_by_label("Replace tokens").is_none());
}

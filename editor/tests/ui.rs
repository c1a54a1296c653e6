//! Headless UI tests with egui_kittest: click by label, drag on the canvas, keys.
//! No GPU and no display are needed (nothing is rendered to pixels).

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

use std::time::{Duration, Instant};

use eframe::egui::{Event, Key, Modifiers, PointerButton, Pos2, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use tilesmith_editor::app::TilesmithApp;
use tilesmith_editor::files::ScriptedDialogs;
use tilesmith_editor::state::EditorState;
use tilesmith_engine::Pos;
use tilesmith_engine::kind::boulder::{BoulderLevel, Cell, Token};

mod common;
use common::{harness, settle};
use tilesmith_editor::kinds::boulder::{BoulderAction, BoulderDoc};

/// The open boulder document.
fn bd(s: &EditorState) -> &BoulderDoc {
    s.doc_as::<BoulderDoc>()
        .expect("a boulder document is open")
}

fn level(w: usize, h: usize) -> EditorState {
    EditorState::new(BoulderLevel::new("ui", w, h))
}

/// The screen point at the centre of cell `(x, y)`.
fn at(h: &Harness<'static, TilesmithApp>, x: usize, y: usize) -> Pos2 {
    let app = h.state();
    let r = app.ui.canvas.rect();
    let v = app.state.view;
    r.min + vec2(v.pan[0], v.pan[1]) + vec2((x as f32 + 0.5) * v.zoom, (y as f32 + 0.5) * v.zoom)
}

fn drag(h: &mut Harness<'static, TilesmithApp>, button: PointerButton, cells: &[(usize, usize)]) {
    let first = at(h, cells[0].0, cells[0].1);
    h.event(Event::PointerMoved(first));
    h.event(Event::PointerButton {
        pos: first,
        button,
        pressed: true,
        modifiers: Modifiers::NONE,
    });
    h.step();
    for &(x, y) in &cells[1..] {
        let p = at(h, x, y);
        h.event(Event::PointerMoved(p));
        h.step();
    }
    let last = at(h, cells[cells.len() - 1].0, cells[cells.len() - 1].1);
    h.event(Event::PointerButton {
        pos: last,
        button,
        pressed: false,
        modifiers: Modifiers::NONE,
    });
    settle(h);
}

fn tok(h: &Harness<'static, TilesmithApp>, x: usize, y: usize) -> Token {
    bd(&h.state().state)
        .level()
        .map
        .get(Pos::new(x, y))
        .unwrap()
        .token
}

fn count(h: &Harness<'static, TilesmithApp>, t: Token) -> usize {
    bd(&h.state().state)
        .level()
        .map
        .cells()
        .iter()
        .filter(|c| c.token == t)
        .count()
}

#[test]
fn paint_with_each_tool() {
    let mut h = harness(level(12, 10));
    // Pencil (default tool, primary wall): drag along row 3.
    drag(&mut h, PointerButton::Primary, &[(2, 3), (3, 3), (4, 3)]);
    assert_eq!(count(&h, Token::Wall) - 40, 3, "12x10 border has 40 walls");
    assert_eq!(tok(&h, 3, 3), Token::Wall);
    // Right button paints the secondary token (path).
    drag(&mut h, PointerButton::Secondary, &[(6, 6)]);
    assert_eq!(tok(&h, 6, 6), Token::Path);
    // Rectangle.
    h.get_by_label("Rectangle").click();
    settle(&mut h);
    drag(&mut h, PointerButton::Primary, &[(2, 5), (4, 7)]);
    assert_eq!(tok(&h, 2, 5), Token::Wall);
    assert_eq!(tok(&h, 3, 6), Token::Wall);
    assert_eq!(tok(&h, 4, 7), Token::Wall);
    // Line.
    h.get_by_label("Line").click();
    settle(&mut h);
    drag(&mut h, PointerButton::Secondary, &[(7, 2), (9, 2)]);
    assert_eq!(tok(&h, 8, 2), Token::Path);
    assert_eq!(tok(&h, 9, 2), Token::Path);
    // Eyedropper: pick the exit as primary token.
    h.get_by_label("Eyedropper").click();
    settle(&mut h);
    drag(&mut h, PointerButton::Primary, &[(10, 8)]);
    assert_eq!(bd(&h.state().state).primary, Token::Exit);
    // Flood fill the big mud area with exit tokens.
    let mud = count(&h, Token::Mud);
    h.get_by_label("Fill").click();
    settle(&mut h);
    drag(&mut h, PointerButton::Primary, &[(8, 5)]);
    assert_eq!(count(&h, Token::Mud), 0, "all mud was one connected area");
    assert_eq!(count(&h, Token::Exit), mud + 1);
    assert_eq!(
        bd(&h.state().state).history().done_names(),
        vec!["Pencil", "Pencil", "Rectangle", "Line", "Fill"]
    );
}

#[test]
fn undo_and_redo_with_keys_and_buttons() {
    let mut h = harness(level(10, 8));
    drag(&mut h, PointerButton::Primary, &[(3, 3), (5, 3)]);
    assert_eq!(tok(&h, 4, 3), Token::Wall);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    settle(&mut h);
    assert_eq!(tok(&h, 4, 3), Token::Mud);
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    settle(&mut h);
    assert_eq!(tok(&h, 4, 3), Token::Wall);
    h.get_by_label("Undo").click();
    settle(&mut h);
    assert_eq!(tok(&h, 4, 3), Token::Mud);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Y);
    settle(&mut h);
    assert_eq!(tok(&h, 4, 3), Token::Wall);
    // The history list shows the edit; clicking "(opened)" goes back to the start.
    h.get_by_label("(opened)").click();
    settle(&mut h);
    assert_eq!(tok(&h, 4, 3), Token::Mud);
}

#[test]
fn resize_from_the_properties_panel() {
    let mut h = harness(level(10, 8));
    {
        let p = &mut h.state_mut().ui.panels;
        p.resize_w = 14;
        p.resize_h = 8;
    }
    // Anchor: keep the left side (first column of the 3x3 anchor grid, middle row).
    h.state_mut().ui.panels.anchor = (0, 1);
    h.get_by_label("Resize").click();
    settle(&mut h);
    let s = &h.state().state;
    assert_eq!((bd(s).level().width(), bd(s).level().height()), (14, 8));
    assert_eq!(tok(&h, 1, 1), Token::Me);
    assert_eq!(tok(&h, 13, 4), Token::Path);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    settle(&mut h);
    assert_eq!(bd(&h.state().state).level().width(), 10);
}

#[test]
fn copy_and_paste_a_selection_with_keys() {
    let mut h = harness(level(10, 8));
    h.key_press(Key::S); // select tool
    settle(&mut h);
    drag(&mut h, PointerButton::Primary, &[(1, 1), (2, 2)]);
    h.key_press_modifiers(Modifiers::COMMAND, Key::C);
    settle(&mut h);
    let p = at(&h, 6, 4);
    h.event(Event::PointerMoved(p));
    settle(&mut h);
    h.key_press_modifiers(Modifiers::COMMAND, Key::V);
    settle(&mut h);
    assert_eq!(tok(&h, 6, 4), Token::Me);
    assert_eq!(tok(&h, 7, 5), Token::Mud);
    assert_eq!(count(&h, Token::Me), 2);
    // Delete empties the pasted selection.
    h.key_press(Key::Delete);
    settle(&mut h);
    assert_eq!(tok(&h, 6, 4), Token::Path);
    assert_eq!(count(&h, Token::Me), 1);
}

#[test]
fn save_then_reopen_gives_the_same_level() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ui.json");
    let mut st = level(9, 7);
    st.dialogs = Box::new(ScriptedDialogs {
        opens: vec![file.clone()],
        saves: vec![file.clone()],
    });
    let mut h = harness(st);
    drag(&mut h, PointerButton::Primary, &[(2, 2), (2, 4)]);
    let painted = bd(&h.state().state).level().clone();
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    settle(&mut h);
    assert!(!h.state().state.dirty());
    assert_eq!(h.state().state.title(), "ui.json — Tilesmith");
    // Change it, then open the saved file through the File menu, discarding the change.
    drag(&mut h, PointerButton::Primary, &[(5, 5)]);
    h.get_by_label("File").click();
    settle(&mut h);
    h.get_by_label_contains("Open…").click();
    settle(&mut h);
    h.get_by_label("Discard").click();
    settle(&mut h);
    assert_eq!(*bd(&h.state().state).level(), painted);
    assert!(!h.state().state.dirty());
}

#[test]
fn reloads_after_an_external_change() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("watched.json");
    std::fs::write(&file, BoulderLevel::new("before", 8, 6).to_pretty_string()).unwrap();
    let mut st = level(3, 3);
    st.apply(tilesmith_editor::state::Action::OpenPath(file.clone()));
    let mut h = harness(st);
    h.state_mut().enable_watch();
    settle(&mut h);
    std::thread::sleep(Duration::from_millis(100));
    let mut after = BoulderLevel::new("after", 8, 6);
    *after.map.get_mut(Pos::new(4, 3)).unwrap() = Cell::new(Token::Gem);
    std::fs::write(&file, after.to_pretty_string()).unwrap();
    let start = Instant::now();
    while bd(&h.state().state).level().name != "after" && start.elapsed() < Duration::from_secs(10)
    {
        std::thread::sleep(Duration::from_millis(50));
        h.step();
    }
    assert_eq!(
        *bd(&h.state().state).level(),
        after,
        "the watcher reloaded the file"
    );
    assert!(!h.state().state.dirty());
    // With unsaved edits, a change asks which version to keep.
    drag(&mut h, PointerButton::Primary, &[(2, 2)]);
    let mut third = after.clone();
    third.name = "third".into();
    std::fs::write(&file, third.to_pretty_string()).unwrap();
    let start = Instant::now();
    while h.query_by_label("Keep mine").is_none() && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(50));
        h.step();
    }
    h.get_by_label("Load disk version").click();
    settle(&mut h);
    assert_eq!(*bd(&h.state().state).level(), third);
}

#[test]
fn play_step_step_back_and_reset() {
    let mut h = harness(level(10, 8));
    let design = bd(&h.state().state).level().clone();
    h.get_by_label("Start playing").click();
    // `run` also checks that every widget of the play pane has an accessible name.
    h.run();
    assert!(bd(&h.state().state).play.is_some());
    // An arrow key steps one tick with that input: the figure moves right.
    h.key_press(Key::ArrowRight);
    settle(&mut h);
    let shown = |h: &Harness<'static, TilesmithApp>, x, y| {
        bd(&h.state().state)
            .shown_cell_in(&h.state().state, Pos::new(x, y))
            .unwrap()
            .token
    };
    assert_eq!(shown(&h, 2, 1), Token::Me);
    // "Step" uses the input chosen in the pane: choose "↓" first.
    h.get_by_label("v").click();
    settle(&mut h);
    h.get_by_label("Step").click();
    settle(&mut h);
    assert_eq!(shown(&h, 2, 2), Token::Me);
    h.get_by_label("Step back").click();
    settle(&mut h);
    assert_eq!(shown(&h, 2, 1), Token::Me);
    assert_eq!(shown(&h, 2, 2), Token::Mud);
    h.get_by_label("Reset").click();
    settle(&mut h);
    assert_eq!(shown(&h, 1, 1), Token::Me);
    // Counters are shown.
    h.get_by_label_contains("collected");
    h.get_by_label("Stop playing").click();
    settle(&mut h);
    assert!(bd(&h.state().state).play.is_none());
    assert_eq!(*bd(&h.state().state).level(), design);
}

#[test]
fn unsaved_changes_block_closing_until_answered() {
    let mut h = harness(level(10, 8));
    drag(&mut h, PointerButton::Primary, &[(3, 3)]);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Q);
    settle(&mut h);
    h.get_by_label("Unsaved changes");
    assert!(!h.state().state.close_ok);
    h.get_by_label("Cancel").click();
    settle(&mut h);
    assert!(h.state().state.pending.is_none());
}

#[test]
fn inspector_direction_picker_and_use_as_design() {
    use tilesmith_editor::state::Action;
    use tilesmith_engine::Dir;
    use tilesmith_engine::kind::boulder::ValueKey;
    let mut st = level(10, 8);
    st.apply(Action::from(BoulderAction::SetCell {
        pos: Pos::new(3, 3),
        cell: Cell::new(Token::Xling),
    }));
    st.apply(Action::Inspect(Some(Pos::new(3, 3))));
    let mut h = harness(st);
    h.get_by_label("^").click();
    settle(&mut h);
    let c = *bd(&h.state().state)
        .level()
        .map
        .get(Pos::new(3, 3))
        .unwrap();
    assert_eq!(c.get(ValueKey::Direction), Dir::Up.value());
    assert_eq!(c.direction(), Some(Dir::Up));
    // Play one tick down, then copy the play state into the design.
    h.get_by_label("Start playing").click();
    settle(&mut h);
    h.key_press(Key::ArrowDown);
    settle(&mut h);
    h.get_by_label("Use this state as the design").click();
    settle(&mut h);
    h.get_by_label("Stop playing").click();
    settle(&mut h);
    assert_eq!(tok(&h, 1, 2), Token::Me);
    assert_eq!(tok(&h, 1, 1), Token::Path);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    settle(&mut h);
    assert_eq!(tok(&h, 1, 1), Token::Me);
}

#[test]
fn wheel_zooms_around_the_pointer_and_middle_drag_pans() {
    use eframe::egui::{MouseWheelSource, MouseWheelUnit, TouchPhase};
    let mut h = harness(level(30, 20));
    let z0 = h.state().state.view.zoom;
    let p = at(&h, 10, 7);
    h.event(Event::PointerMoved(p));
    h.step();
    h.event(Event::MouseWheel {
        unit: MouseWheelUnit::Point,
        delta: vec2(0.0, 120.0),
        phase: TouchPhase::Move,
        source: MouseWheelSource::Wheel,
        modifiers: Modifiers::NONE,
    });
    h.run_steps(20);
    let z1 = h.state().state.view.zoom;
    assert!(z1 > z0 * 1.2, "zoomed in: {z0} -> {z1}");
    // The cell under the pointer stays under it.
    let r = h.state().ui.canvas.rect();
    let v = h.state().state.view;
    assert_eq!(
        v.cell_at([p.x - r.min.x, p.y - r.min.y], 30, 20),
        Some(Pos::new(10, 7))
    );
    // Middle drag pans by the drag distance, and paints nothing.
    let pan0 = h.state().state.view.pan;
    h.event(Event::PointerButton {
        pos: p,
        button: PointerButton::Middle,
        pressed: true,
        modifiers: Modifiers::NONE,
    });
    h.step();
    for k in 1..=4 {
        h.event(Event::PointerMoved(
            p + vec2(10.0 * k as f32, 5.0 * k as f32),
        ));
        h.step();
    }
    h.event(Event::PointerButton {
        pos: p + vec2(40.0, 20.0),
        button: PointerButton::Middle,
        pressed: false,
        modifiers: Modifiers::NONE,
    });
    settle(&mut h);
    let pan1 = h.state().state.view.pan;
    assert!(
        (pan1[0] - pan0[0] - 40.0).abs() < 0.5,
        "{pan0:?} -> {pan1:?}"
    );
    assert!(
        (pan1[1] - pan0[1] - 20.0).abs() < 0.5,
        "{pan0:?} -> {pan1:?}"
    );
    assert_eq!(bd(&h.state().state).history().len_done(), 0);
    // The grid toggles with G.
    let g = h.state().state.settings.grid;
    h.key_press(Key::G);
    settle(&mut h);
    assert_eq!(h.state().state.settings.grid, !g);
}

#[test]
fn replace_all_from_the_dialog_with_the_chosen_pair() {
    use tilesmith_editor::state::Action;
    let mut h = harness(level(10, 8));
    // The palette's button opens the Replace dialog; its default pair: mud becomes path.
    // 8x6 inside minus me and exit = 46 mud cells.
    h.get_by_label("Replace tokens…").click();
    settle(&mut h);
    h.get_by_label("Replace all").click();
    settle(&mut h);
    assert_eq!(count(&h, Token::Mud), 0);
    assert_eq!(count(&h, Token::Path), 46);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    settle(&mut h);
    h.state_mut()
        .state
        .apply(Action::from(BoulderAction::SetReplace {
            from: Token::Wall,
            to: Token::Bricks,
        }));
    settle(&mut h);
    h.get_by_label("Replace all").click();
    settle(&mut h);
    assert_eq!(count(&h, Token::Wall), 0);
    assert_eq!(count(&h, Token::Bricks), 32);
    assert_eq!(count(&h, Token::Mud), 46);
}

#[test]
fn a_whole_stroke_within_one_frame_paints_from_the_press() {
    let mut h = harness(level(12, 6));
    let (a, b) = (at(&h, 2, 3), at(&h, 8, 3));
    // Press, move and release all arrive before the next frame.
    h.event(Event::PointerMoved(a));
    h.event(Event::PointerButton {
        pos: a,
        button: PointerButton::Primary,
        pressed: true,
        modifiers: Modifiers::NONE,
    });
    h.event(Event::PointerMoved(b));
    h.event(Event::PointerButton {
        pos: b,
        button: PointerButton::Primary,
        pressed: false,
        modifiers: Modifiers::NONE,
    });
    settle(&mut h);
    for x in 2..=8 {
        assert_eq!(tok(&h, x, 3), Token::Wall, "x = {x}");
    }
    assert_eq!(bd(&h.state().state).history().len_done(), 1);
}

#[test]
fn backspace_steps_back_while_playing_and_deletes_the_selection_otherwise() {
    let mut h = harness(level(10, 8));
    h.get_by_label("Start playing").click();
    settle(&mut h);
    let shown = |h: &Harness<'static, TilesmithApp>, x, y| {
        bd(&h.state().state)
            .shown_cell_in(&h.state().state, Pos::new(x, y))
            .unwrap()
            .token
    };
    h.key_press(Key::ArrowRight);
    settle(&mut h);
    h.key_press(Key::ArrowDown);
    settle(&mut h);
    assert_eq!(shown(&h, 2, 2), Token::Me);
    // Backspace undoes one tick (the docs and the tooltip promise it).
    h.key_press(Key::Backspace);
    settle(&mut h);
    assert_eq!(shown(&h, 2, 1), Token::Me);
    assert_eq!(shown(&h, 2, 2), Token::Mud);
    // Shift+arrow digs without moving (boulder's meta input, from the kind's key table).
    h.key_press_modifiers(Modifiers::SHIFT, Key::ArrowDown);
    settle(&mut h);
    assert_eq!(shown(&h, 2, 1), Token::Me);
    assert_eq!(shown(&h, 2, 2), Token::Path);
    h.get_by_label("Stop playing").click();
    settle(&mut h);
    // Not playing: Backspace empties the selection, one undo step.
    h.state_mut().state.selection = Some(tilesmith_editor::tools::CellRect::span(
        Pos::new(3, 3),
        Pos::new(4, 3),
    ));
    h.key_press(Key::Backspace);
    settle(&mut h);
    assert_eq!(tok(&h, 3, 3), Token::Path);
    assert_eq!(tok(&h, 4, 3), Token::Path);
    assert_eq!(bd(&h.state().state).history().done_names(), ["Delete"]);
}

//! Headless window tests of issue #14's play view and tools: the play frame and badge, the
//! selection hidden while playing, end banners, Esc (cancel a drag, then stop play), the
//! Replace dialog (Ctrl+H), the shortcut sheet (F1) and the status bar after a paste.

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

use eframe::egui::{Event, Key, Modifiers, PointerButton, Pos2, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use tilesmith_editor::app::TilesmithApp;
use tilesmith_editor::kinds::boulder::BoulderDoc;
use tilesmith_editor::state::EditorState;
use tilesmith_editor::tools::CellRect;
use tilesmith_editor::ui::canvas::PLAY_BADGE;
use tilesmith_editor::ui::commands::Command;
use tilesmith_engine::Pos;
use tilesmith_engine::kind::boulder::{BoulderLevel, Token};

mod common;
use common::{harness, settle};

fn bd(s: &EditorState) -> &BoulderDoc {
    s.doc_as::<BoulderDoc>()
        .expect("a boulder document is open")
}

/// A 10 × 8 boulder level: walls round, mud inside, me at (1, 1), the exit at (8, 6), no
/// gems needed.
fn level() -> EditorState {
    EditorState::new(BoulderLevel::new("view", 10, 8))
}

fn at(h: &Harness<'static, TilesmithApp>, x: usize, y: usize) -> Pos2 {
    let app = h.state();
    let r = app.ui.canvas.rect();
    let v = app.state.view;
    r.min + vec2(v.pan[0], v.pan[1]) + vec2((x as f32 + 0.5) * v.zoom, (y as f32 + 0.5) * v.zoom)
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
fn play_frame_and_badge_only_while_playing_and_the_selection_hidden() {
    let mut h = harness(level());
    let sel = CellRect::span(Pos::new(2, 2), Pos::new(4, 3));
    h.state_mut().state.selection = Some(sel);
    settle(&mut h);
    assert!(h.query_by_label(PLAY_BADGE).is_none());
    assert_eq!(h.state().ui.canvas.drawn_selection(), Some(sel));
    h.get_by_label("Start playing").click();
    settle(&mut h);
    h.get_by_label(PLAY_BADGE);
    // The design's selection stays (for after play) but is not drawn over the game.
    assert_eq!(h.state().state.selection, Some(sel));
    assert_eq!(h.state().ui.canvas.drawn_selection(), None);
    h.get_by_label("Stop playing").click();
    settle(&mut h);
    assert!(h.query_by_label(PLAY_BADGE).is_none());
    assert_eq!(h.state().ui.canvas.drawn_selection(), Some(sel));
}

#[test]
fn esc_stops_play_and_a_won_game_shows_a_banner() {
    let mut h = harness(level());
    h.key_press(Key::F5);
    settle(&mut h);
    assert!(h.state().state.playing());
    assert!(h.query_by_label_contains("Won").is_none());
    // Right 7 times and down 5 times: me digs through the mud onto the exit at (8, 6).
    for _ in 0..7 {
        h.key_press(Key::ArrowRight);
        settle(&mut h);
    }
    for _ in 0..5 {
        h.key_press(Key::ArrowDown);
        settle(&mut h);
    }
    // Reached in 12 ticks, well within the 3-point limit of 250 ticks.
    h.get_by_label("Won — 3 points");
    h.key_press(Key::Escape);
    settle(&mut h);
    assert!(!h.state().state.playing());
    assert!(h.query_by_label_contains("Won —").is_none());
}

#[test]
fn esc_cancels_a_rectangle_drag_without_an_edit() {
    let mut h = harness(level());
    let design = bd(&h.state().state).level().clone();
    h.key_press(Key::R);
    settle(&mut h);
    let (a, b) = (at(&h, 2, 2), at(&h, 5, 4));
    h.event(Event::PointerMoved(a));
    h.event(Event::PointerButton {
        pos: a,
        button: PointerButton::Primary,
        pressed: true,
        modifiers: Modifiers::NONE,
    });
    h.step();
    h.event(Event::PointerMoved(b));
    settle(&mut h);
    assert!(h.state().state.doc.map().stroke_last().is_some());
    h.key_press(Key::Escape);
    settle(&mut h);
    assert!(h.state().state.doc.map().stroke_last().is_none());
    h.event(Event::PointerButton {
        pos: b,
        button: PointerButton::Primary,
        pressed: false,
        modifiers: Modifiers::NONE,
    });
    settle(&mut h);
    assert_eq!(*bd(&h.state().state).level(), design);
    assert!(bd(&h.state().state).history().done_names().is_empty());
    // Esc with no drag and not playing keeps its old meaning: select none.
    h.state_mut().state.selection = Some(CellRect::span(Pos::new(1, 1), Pos::new(2, 2)));
    h.key_press(Key::Escape);
    settle(&mut h);
    assert_eq!(h.state().state.selection, None);
}

#[test]
fn ctrl_h_opens_the_replace_dialog_and_replaces_only_on_its_button() {
    let mut h = harness(level());
    assert!(h.query_by_label("Replace all").is_none());
    h.key_press_modifiers(Modifiers::COMMAND, Key::H);
    settle(&mut h);
    assert!(h.state().state.replace_open);
    // Nothing replaced yet: 8 × 6 inside minus me and the exit is 46 mud cells.
    assert_eq!(count(&h, Token::Mud), 46);
    // The default pair: mud becomes path.
    h.get_by_label("Replace all").click();
    settle(&mut h);
    assert_eq!(count(&h, Token::Mud), 0);
    assert_eq!(count(&h, Token::Path), 46);
    h.key_press(Key::Escape);
    settle(&mut h);
    assert!(!h.state().state.replace_open);
    assert!(h.query_by_label("Replace all").is_none());
}

#[test]
fn the_shortcut_sheet_lists_the_command_table() {
    let mut h = harness(level());
    h.key_press(Key::F1);
    settle(&mut h);
    assert!(h.state().state.shortcuts_open);
    // The sheet's order holds every command of the table exactly once.
    let mut sheet = Command::SHEET.to_vec();
    sheet.sort_by_key(|c| format!("{c:?}"));
    let mut all = Command::ALL.to_vec();
    all.sort_by_key(|c| format!("{c:?}"));
    assert_eq!(sheet, all);
    for c in Command::ALL {
        assert!(
            h.query_all_by_label(&c.shortcut_text()).next().is_some(),
            "{c:?}: {}",
            c.shortcut_text()
        );
        assert!(h.query_all_by_label(c.about()).next().is_some(), "{c:?}");
        assert!(h.query_all_by_label(c.label()).next().is_some(), "{c:?}");
    }
    // The play keys the shell adds, and the kind's own input table.
    assert!(h.query_all_by_label("Backspace").next().is_some());
    assert!(h.query_all_by_label("Shift+ArrowRight").next().is_some());
    h.key_press(Key::Escape);
    settle(&mut h);
    assert!(!h.state().state.shortcuts_open);
}

#[test]
fn the_status_bar_says_pasted_after_a_paste() {
    let mut h = harness(level());
    h.state_mut().state.selection = Some(CellRect::span(Pos::new(1, 1), Pos::new(2, 1)));
    h.key_press_modifiers(Modifiers::COMMAND, Key::C);
    settle(&mut h);
    h.get_by_label("copied 2×1 cells");
    h.state_mut().state.hover = None;
    h.state_mut().state.selection = Some(CellRect::span(Pos::new(4, 4), Pos::new(4, 4)));
    h.key_press_modifiers(Modifiers::COMMAND, Key::V);
    settle(&mut h);
    assert_eq!(h.state().state.status, "pasted 2×1 cells at x 4, y 4");
    assert!(h.query_by_label("copied 2×1 cells").is_none());
}

/// Issue #31 defect 13: in baba, a cell selected with Select (a one-cell selection is also the
/// inspected cell) is outlined in the design, not on the game while playing; a cell clicked
/// in play is outlined, and the design's is outlined again after play. What the canvas draws
/// is read back from it.
#[test]
fn the_designs_selected_cell_is_not_outlined_on_the_game() {
    use tilesmith_editor::state::Action;
    use tilesmith_editor::tools::Tool;
    let f =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../levels/baba/first-words.json");
    let mut st = EditorState::new(tilesmith_editor::kinds::registry().new_doc("baba").unwrap());
    st.apply(Action::OpenPath(f));
    st.apply(Action::SelectTool(Tool::Select));
    let mut h = harness(st);
    let cell = at(&h, 6, 4);
    h.event(Event::PointerMoved(cell));
    for pressed in [true, false] {
        h.event(Event::PointerButton {
            pos: cell,
            button: PointerButton::Primary,
            pressed,
            modifiers: Modifiers::NONE,
        });
        settle(&mut h);
    }
    assert_eq!(h.state().ui.canvas.drawn_inspect(), Some(Pos::new(6, 4)));
    h.get_by_label("Start playing").click();
    settle(&mut h);
    assert!(h.state().state.playing());
    assert_eq!(h.state().ui.canvas.drawn_selection(), None);
    assert_eq!(
        h.state().ui.canvas.drawn_inspect(),
        None,
        "outlined on the game"
    );
    h.get_by_label("Stop playing").click();
    settle(&mut h);
    assert_eq!(h.state().ui.canvas.drawn_inspect(), Some(Pos::new(6, 4)));
}

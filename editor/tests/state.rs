//! Editor logic tested directly on `EditorState` (no window).
//!
//! Every expected value is worked out by hand from the starting level: `BoulderLevel::new`
//! gives a `wall` border around `mud`, `me` at (1, 1) and `exit` at (w-2, h-2).

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

use std::path::PathBuf;

use tilesmith_editor::files::{Autosave, ScriptedDialogs};
use tilesmith_editor::kinds::boulder::edit::Props;
use tilesmith_editor::kinds::boulder::{BoulderAction, BoulderDoc};
use tilesmith_editor::state::{
    Action, Answer, EditorState, MapAction, Pending, PlayAction, problem_cell,
};
use tilesmith_editor::tools::{Button, CellRect, Tool};
use tilesmith_engine::kind::boulder::{BoulderLevel, Cell, Token, ValueKey};
use tilesmith_engine::{Dir, Input, JsonPath, Pos, Problem};

/// The open boulder document.
fn bd(s: &EditorState) -> &BoulderDoc {
    s.doc_as::<BoulderDoc>()
        .expect("a boulder document is open")
}

fn st(w: usize, h: usize) -> EditorState {
    EditorState::new(BoulderLevel::new("t", w, h))
}

fn tok(s: &EditorState, x: usize, y: usize) -> Token {
    bd(s).level().map.get(Pos::new(x, y)).unwrap().token
}

fn stroke(s: &mut EditorState, from: (usize, usize), path: &[(usize, usize)], button: Button) {
    s.apply(Action::Map(MapAction::CellPress {
        pos: Pos::new(from.0, from.1),
        button,
        alt: false,
    }));
    for &(x, y) in path {
        s.apply(Action::Map(MapAction::CellDrag(Pos::new(x, y))));
    }
    s.apply(Action::Map(MapAction::CellRelease));
}

fn count(s: &EditorState, t: Token) -> usize {
    bd(s)
        .level()
        .map
        .cells()
        .iter()
        .filter(|c| c.token == t)
        .count()
}

#[test]
fn pencil_stroke_is_one_undo_step_and_fills_gaps() {
    let mut s = st(10, 8);
    s.apply(Action::from(BoulderAction::SetPrimary(Token::Stone)));
    // A jump from (2,2) to (5,2) must paint (3,2) and (4,2) too.
    stroke(&mut s, (2, 2), &[(5, 2)], Button::Primary);
    for x in 2..=5 {
        assert_eq!(tok(&s, x, 2), Token::Stone);
    }
    assert_eq!(tok(&s, 6, 2), Token::Mud);
    assert_eq!(count(&s, Token::Stone), 4);
    assert_eq!(bd(&s).history().done_names(), vec!["Pencil"]);
    assert!(s.dirty());
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(count(&s, Token::Stone), 0);
    assert_eq!(tok(&s, 3, 2), Token::Mud);
    assert!(!s.dirty());
    s.apply(Action::Map(MapAction::Redo));
    assert_eq!(count(&s, Token::Stone), 4);
}

#[test]
fn right_button_paints_the_secondary_token_path_by_default() {
    let mut s = st(10, 8);
    assert_eq!(bd(&s).secondary, Token::Path);
    stroke(&mut s, (3, 3), &[(3, 4)], Button::Secondary);
    assert_eq!(tok(&s, 3, 3), Token::Path);
    assert_eq!(tok(&s, 3, 4), Token::Path);
    assert_eq!(count(&s, Token::Path), 2);
}

#[test]
fn preview_while_dragging_does_not_touch_the_level() {
    let mut s = st(10, 8);
    s.apply(Action::SelectTool(Tool::Rect));
    s.apply(Action::from(BoulderAction::SetPrimary(Token::Gem)));
    s.apply(Action::Map(MapAction::CellPress {
        pos: Pos::new(2, 2),
        button: Button::Primary,
        alt: false,
    }));
    s.apply(Action::Map(MapAction::CellDrag(Pos::new(4, 3))));
    assert_eq!(bd(&s).map.stroke.as_ref().unwrap().preview.len(), 6);
    assert_eq!(count(&s, Token::Gem), 0);
    s.apply(Action::Map(MapAction::CellRelease));
    assert_eq!(count(&s, Token::Gem), 6);
}

#[test]
fn rectangle_filled_and_outline() {
    let mut s = st(10, 8);
    s.apply(Action::SelectTool(Tool::Rect));
    s.apply(Action::from(BoulderAction::SetPrimary(Token::Gem)));
    stroke(&mut s, (2, 2), &[(3, 2), (4, 3)], Button::Primary);
    assert_eq!(count(&s, Token::Gem), 6); // 3 wide x 2 high
    assert_eq!(tok(&s, 4, 3), Token::Gem);
    assert_eq!(bd(&s).history().len_done(), 1);
    s.apply(Action::Map(MapAction::Undo));
    s.apply(Action::SetRectFilled(false));
    s.apply(Action::from(BoulderAction::SetPrimary(Token::Bricks)));
    stroke(&mut s, (2, 2), &[(5, 5)], Button::Primary);
    // Outline of a 4x4 square: 12 cells; the inner 2x2 stays mud.
    assert_eq!(count(&s, Token::Bricks), 12);
    assert_eq!(tok(&s, 3, 3), Token::Mud);
    assert_eq!(tok(&s, 4, 4), Token::Mud);
    assert_eq!(tok(&s, 5, 3), Token::Bricks);
}

#[test]
fn line_tool_draws_a_diagonal() {
    let mut s = st(10, 8);
    s.apply(Action::SelectTool(Tool::Line));
    s.apply(Action::from(BoulderAction::SetPrimary(Token::Sand)));
    stroke(&mut s, (2, 2), &[(3, 4), (5, 5)], Button::Primary);
    let sand: Vec<Pos> = bd(&s)
        .level()
        .map
        .iter()
        .filter(|(_, c)| c.token == Token::Sand)
        .map(|(p, _)| p)
        .collect();
    assert_eq!(
        sand,
        vec![
            Pos::new(2, 2),
            Pos::new(3, 3),
            Pos::new(4, 4),
            Pos::new(5, 5)
        ]
    );
}

#[test]
fn flood_fill_stops_at_other_tokens() {
    let mut s = st(10, 8);
    // A wall across column 5 splits the mud into a left and a right part.
    s.apply(Action::SelectTool(Tool::Line));
    s.apply(Action::from(BoulderAction::SetPrimary(Token::Wall)));
    stroke(&mut s, (5, 1), &[(5, 6)], Button::Primary);
    s.apply(Action::SelectTool(Tool::Fill));
    s.apply(Action::from(BoulderAction::SetPrimary(Token::Gem)));
    stroke(&mut s, (2, 3), &[], Button::Primary);
    // Left part: columns 1..=4, rows 1..=6 = 24 cells, minus `me` at (1,1).
    assert_eq!(count(&s, Token::Gem), 23);
    assert_eq!(tok(&s, 1, 1), Token::Me);
    assert_eq!(tok(&s, 6, 3), Token::Mud);
    assert_eq!(bd(&s).history().done_names(), vec!["Line", "Fill"]);
}

#[test]
fn eyedropper_tool_and_alt_click() {
    let mut s = st(10, 8);
    s.apply(Action::SelectTool(Tool::Eyedropper));
    s.apply(Action::Map(MapAction::CellPress {
        pos: Pos::new(8, 6),
        button: Button::Primary,
        alt: false,
    }));
    s.apply(Action::Map(MapAction::CellRelease));
    assert_eq!(bd(&s).primary, Token::Exit);
    s.apply(Action::SelectTool(Tool::Pencil));
    s.apply(Action::Map(MapAction::CellPress {
        pos: Pos::new(0, 0),
        button: Button::Secondary,
        alt: true,
    }));
    s.apply(Action::Map(MapAction::CellRelease));
    assert_eq!(bd(&s).secondary, Token::Wall);
    assert_eq!(bd(&s).history().len_done(), 0, "picking is not an edit");
    assert_eq!(s.inspect, Some(Pos::new(0, 0)));
}

#[test]
fn copy_and_paste_a_selection() {
    let mut s = st(10, 8);
    s.apply(Action::SelectTool(Tool::Select));
    stroke(&mut s, (1, 1), &[(2, 2)], Button::Primary);
    assert_eq!(
        s.selection,
        Some(CellRect {
            x0: 1,
            y0: 1,
            x1: 2,
            y1: 2
        })
    );
    s.apply(Action::Map(MapAction::Copy));
    s.apply(Action::Hover(Some(Pos::new(5, 3))));
    s.apply(Action::Map(MapAction::Paste));
    // The copied block is [me mud; mud mud]; pasted with its top-left at (5,3).
    assert_eq!(tok(&s, 5, 3), Token::Me);
    assert_eq!(tok(&s, 6, 3), Token::Mud);
    assert_eq!(tok(&s, 5, 4), Token::Mud);
    assert_eq!(count(&s, Token::Me), 2);
    assert_eq!(bd(&s).history().done_names(), vec!["Paste"]);
    assert_eq!(
        s.selection,
        Some(CellRect {
            x0: 5,
            y0: 3,
            x1: 6,
            y1: 4
        })
    );
    // Pasting over the right edge is clipped, not an error.
    s.apply(Action::Hover(Some(Pos::new(9, 7))));
    s.apply(Action::Map(MapAction::Paste));
    assert_eq!(tok(&s, 9, 7), Token::Me);
}

#[test]
fn cut_delete_and_move_a_selection() {
    let mut s = st(10, 8);
    s.apply(Action::SelectTool(Tool::Select));
    stroke(&mut s, (1, 1), &[], Button::Primary);
    // A 1x1 selection also shows the cell in the inspector.
    assert_eq!(s.inspect, Some(Pos::new(1, 1)));
    // Drag inside the selection: move `me` two cells right.
    stroke(&mut s, (1, 1), &[(2, 1), (3, 1)], Button::Primary);
    assert_eq!(tok(&s, 1, 1), Token::Path);
    assert_eq!(tok(&s, 3, 1), Token::Me);
    assert_eq!(tok(&s, 2, 1), Token::Mud);
    assert_eq!(bd(&s).history().done_names(), vec!["Move selection"]);
    assert_eq!(
        s.selection,
        Some(CellRect {
            x0: 3,
            y0: 1,
            x1: 3,
            y1: 1
        })
    );
    s.apply(Action::Map(MapAction::Cut));
    assert_eq!(tok(&s, 3, 1), Token::Path);
    assert_eq!(
        bd(&s).map.clipboard.as_ref().unwrap().cells()[0].token,
        Token::Me
    );
    s.apply(Action::SelectAll);
    s.apply(Action::Map(MapAction::DeleteSelection));
    assert_eq!(count(&s, Token::Path), 80);
    assert_eq!(bd(&s).history().len_done(), 3);
}

#[test]
fn replace_all_keeps_values_and_is_one_step() {
    let mut s = st(10, 8);
    s.apply(Action::from(BoulderAction::SetCell {
        pos: Pos::new(4, 4),
        cell: Cell::new(Token::Mud).with(ValueKey::A, 7),
    }));
    s.apply(Action::from(BoulderAction::ReplaceAll {
        from: Token::Mud,
        to: Token::Sand,
    }));
    // 8x6 inside minus me and exit.
    assert_eq!(count(&s, Token::Sand), 46);
    assert_eq!(count(&s, Token::Mud), 0);
    assert_eq!(
        bd(&s)
            .level()
            .map
            .get(Pos::new(4, 4))
            .unwrap()
            .get(ValueKey::A),
        7
    );
    assert_eq!(bd(&s).history().len_done(), 2);
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(count(&s, Token::Mud), 46);
}

#[test]
fn inspector_edits_merge_per_cell_and_undo() {
    let mut s = st(10, 8);
    let p = Pos::new(3, 3);
    let c = Cell::new(Token::Xling);
    s.apply(Action::from(BoulderAction::SetCell { pos: p, cell: c }));
    s.apply(Action::from(BoulderAction::SetCell {
        pos: p,
        cell: c.with(ValueKey::Direction, Dir::Up.value()),
    }));
    assert_eq!(
        bd(&s).history().len_done(),
        1,
        "consecutive edits of one cell merge"
    );
    assert_eq!(
        bd(&s).level().map.get(p).unwrap().direction(),
        Some(Dir::Up)
    );
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(*bd(&s).level().map.get(p).unwrap(), Cell::new(Token::Mud));
}

#[test]
fn properties_are_undoable_and_typing_merges() {
    let mut s = st(10, 8);
    let mut p = Props::of(bd(&s).level());
    for name in ["a", "ab", "abc"] {
        p.name = name.into();
        s.apply(Action::from(BoulderAction::SetProps {
            props: p.clone(),
            field: "name",
        }));
    }
    p.gems = [1, 2, 3];
    s.apply(Action::from(BoulderAction::SetProps {
        props: p.clone(),
        field: "gems",
    }));
    p.maxslime = Some(9);
    s.apply(Action::from(BoulderAction::SetProps {
        props: p.clone(),
        field: "maxslime",
    }));
    assert_eq!(bd(&s).level().name, "abc");
    assert_eq!(bd(&s).level().gems, [1, 2, 3]);
    assert_eq!(bd(&s).level().maxslime, Some(9));
    assert_eq!(
        bd(&s).history().done_names(),
        vec!["Set name", "Set gems", "Set maxslime"]
    );
    s.apply(Action::Map(MapAction::Undo));
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(bd(&s).level().gems, [0, 0, 0]);
    assert_eq!(bd(&s).level().name, "abc");
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(bd(&s).level().name, "t");
    s.apply(Action::Map(MapAction::HistoryGoTo(3)));
    assert_eq!(bd(&s).level().maxslime, Some(9));
}

#[test]
fn resize_around_the_centre_and_the_top_left() {
    let mut s = st(10, 8);
    s.apply(Action::Map(MapAction::Resize {
        width: 12,
        height: 10,
        anchor: (1, 1),
    }));
    assert_eq!((bd(&s).level().width(), bd(&s).level().height()), (12, 10));
    // Centre anchor: everything moves by (1, 1); the new ring is path.
    assert_eq!(tok(&s, 1, 1), Token::Wall);
    assert_eq!(tok(&s, 2, 2), Token::Me);
    assert_eq!(tok(&s, 9, 7), Token::Exit);
    assert_eq!(tok(&s, 0, 0), Token::Path);
    assert_eq!(tok(&s, 11, 9), Token::Path);
    assert_eq!(bd(&s).history().done_names(), vec!["Resize to 12×10"]);
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!((bd(&s).level().width(), bd(&s).level().height()), (10, 8));
    assert_eq!(tok(&s, 1, 1), Token::Me);
    // Shrink keeping the bottom-right: the exit at (8,6) lands at (3,2), `me` at (1,1) is
    // cropped, so the editor asks first; resized anyway.
    s.apply(Action::Map(MapAction::Resize {
        width: 5,
        height: 4,
        anchor: (2, 2),
    }));
    assert!(
        matches!(&s.pending, Some(Pending::ConfirmResize { lost, .. }) if lost == &["me at x 1, y 1"]),
        "{:?}",
        s.pending
    );
    s.apply(Action::Answer(Answer::ResizeAnyway));
    assert_eq!((bd(&s).level().width(), bd(&s).level().height()), (5, 4));
    assert_eq!(tok(&s, 3, 2), Token::Exit);
    assert_eq!(count(&s, Token::Me), 0);
    s.apply(Action::Map(MapAction::Redo)); // nothing to redo after a new edit
    assert_eq!(bd(&s).history().len_undone(), 0);
}

fn temp_level(dir: &std::path::Path, name: &str, level: &BoulderLevel) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, level.to_pretty_string()).unwrap();
    p
}

#[test]
fn save_then_reopen_gives_the_same_level() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("saved.json");
    let mut s = st(12, 9);
    s.dialogs = Box::new(ScriptedDialogs {
        opens: vec![],
        saves: vec![target.clone()],
    });
    s.apply(Action::from(BoulderAction::SetPrimary(Token::Gem)));
    stroke(&mut s, (3, 3), &[(6, 3)], Button::Primary);
    s.apply(Action::from(BoulderAction::SetCell {
        pos: Pos::new(2, 5),
        cell: Cell::new(Token::Xling).with(ValueKey::Direction, 4),
    }));
    assert!(s.title().starts_with("untitled*"));
    s.apply(Action::Save); // untitled: asks where
    assert!(!s.dirty());
    assert_eq!(s.path.as_deref(), Some(target.as_path()));
    assert_eq!(s.title(), "saved.json — Tilesmith");
    let mut t = st(3, 3);
    t.apply(Action::OpenPath(target.clone()));
    assert_eq!(bd(&t).level(), bd(&s).level());
    assert_eq!(
        bd(&t).level().map.get(Pos::new(2, 5)).unwrap().direction(),
        Some(Dir::Down)
    );
    assert_eq!(
        bd(&t).level().map.get(Pos::new(5, 3)).unwrap().token,
        Token::Gem
    );
    assert_eq!(s.settings.recent.len(), 1);
    // No temporary file is left next to the target.
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 1);
}

#[test]
fn a_bad_file_shows_a_message_and_keeps_the_document() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\"map\": [[\"lava\"]]").unwrap();
    let mut s = st(10, 8);
    s.apply(Action::OpenPath(bad));
    assert!(matches!(s.pending, Some(Pending::Message(_))));
    assert_eq!(bd(&s).level().width(), 10);
    s.apply(Action::Answer(Answer::Ok));
    assert!(s.pending.is_none());
}

#[test]
fn unsaved_changes_ask_before_new_open_and_quit() {
    let dir = tempfile::tempdir().unwrap();
    let other = temp_level(dir.path(), "other.json", &BoulderLevel::new("other", 6, 5));
    let mut s = st(10, 8);
    stroke(&mut s, (3, 3), &[], Button::Primary);
    s.apply(Action::OpenPath(other.clone()));
    assert!(matches!(s.pending, Some(Pending::Unsaved { .. })));
    s.apply(Action::Answer(Answer::Cancel));
    assert_eq!(bd(&s).level().width(), 10);
    s.apply(Action::Quit);
    assert!(!s.close_ok);
    s.apply(Action::Answer(Answer::Cancel));
    s.apply(Action::OpenPath(other));
    s.apply(Action::Answer(Answer::Discard));
    assert_eq!(bd(&s).level().name, "other");
    assert!(!s.dirty());
    s.apply(Action::Quit);
    assert!(s.close_ok);
}

#[test]
fn external_change_reloads_when_clean_and_asks_when_dirty() {
    let dir = tempfile::tempdir().unwrap();
    let f = temp_level(dir.path(), "w.json", &BoulderLevel::new("w", 8, 6));
    let mut s = st(3, 3);
    s.apply(Action::OpenPath(f.clone()));
    // Our own save is not an external change.
    s.apply(Action::Save);
    s.apply(Action::DiskChanged);
    assert!(s.pending.is_none());
    assert_eq!(bd(&s).history().len_done(), 0);
    // Another program writes a different level: clean editor reloads (undoably).
    let mut other = BoulderLevel::new("changed", 8, 6);
    *other.map.get_mut(Pos::new(3, 3)).unwrap() = Cell::new(Token::Gem);
    std::fs::write(&f, other.to_pretty_string()).unwrap();
    s.apply(Action::DiskChanged);
    assert_eq!(*bd(&s).level(), other);
    assert!(!s.dirty());
    assert_eq!(bd(&s).history().done_names(), vec!["Reload from disk"]);
    // Now with unsaved edits: it asks, and "keep mine" keeps them without writing.
    stroke(&mut s, (5, 2), &[], Button::Primary);
    let mine = bd(&s).level().clone();
    let mut third = other.clone();
    third.name = "third".into();
    std::fs::write(&f, third.to_pretty_string()).unwrap();
    s.apply(Action::DiskChanged);
    assert!(matches!(s.pending, Some(Pending::ExternalChange { .. })));
    s.apply(Action::Answer(Answer::KeepMine));
    assert_eq!(*bd(&s).level(), mine);
    assert!(s.dirty());
    assert_eq!(
        std::fs::read_to_string(&f).unwrap(),
        third.to_pretty_string(),
        "never silently overwritten"
    );
    // A further change, this time take the disk version.
    third.name = "fourth".into();
    std::fs::write(&f, third.to_pretty_string()).unwrap();
    s.apply(Action::DiskChanged);
    s.apply(Action::Answer(Answer::TakeDisk));
    assert_eq!(bd(&s).level().name, "fourth");
    assert!(!s.dirty());
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(
        *bd(&s).level(),
        mine,
        "loading the disk version is undoable"
    );
}

#[test]
fn autosave_copy_is_offered_back() {
    let dir = tempfile::tempdir().unwrap();
    let f = temp_level(dir.path(), "a.json", &BoulderLevel::new("a", 8, 6));
    let auto = Autosave {
        dir: dir.path().join("data"),
    };
    let mut s = st(3, 3);
    s.autosave = Some(auto.clone());
    s.apply(Action::OpenPath(f.clone()));
    s.apply(Action::from(BoulderAction::SetPrimary(Token::Stone)));
    stroke(&mut s, (2, 2), &[(4, 2)], Button::Primary);
    s.apply(Action::Autosave);
    let edited = bd(&s).level().clone();
    assert!(auto.path_for(Some(&f)).exists());
    // "Crash": a new editor opens the same file and is offered the copy.
    let mut t = st(3, 3);
    t.autosave = Some(auto.clone());
    t.apply(Action::OpenPath(f.clone()));
    assert!(matches!(t.pending, Some(Pending::RestoreAutosave(_))));
    t.apply(Action::Answer(Answer::Restore));
    assert_eq!(*bd(&t).level(), edited);
    assert!(t.dirty());
    // Saving removes the copy.
    t.apply(Action::Save);
    assert!(!auto.path_for(Some(&f)).exists());
}

/// Issue #31 defect 4: an autosave copy of changes that were then undone back to the saved
/// state is removed, so a crash afterwards offers nothing back (it offered the undone edit).
/// Driven by the autosave clock as the app drives it, with the worker writing the copy.
#[test]
fn reaching_the_saved_state_again_removes_the_autosave_copy() {
    let dir = tempfile::tempdir().unwrap();
    let f = temp_level(dir.path(), "a.json", &BoulderLevel::new("a", 8, 6));
    let auto = Autosave {
        dir: dir.path().join("data"),
    };
    let mut s = st(3, 3);
    s.autosave = Some(auto.clone());
    s.apply(Action::OpenPath(f.clone()));
    s.apply(Action::from(BoulderAction::SetPrimary(Token::Stone)));
    let t0 = std::time::Instant::now();
    stroke(&mut s, (2, 2), &[(4, 2)], Button::Primary);
    s.autosave_tick(t0);
    // Due 2 s after the change: the worker writes the copy.
    s.autosave_tick(t0 + std::time::Duration::from_secs(3));
    let waited = std::time::Instant::now();
    while s.autosave_busy() && waited.elapsed() < std::time::Duration::from_secs(5) {
        std::thread::sleep(std::time::Duration::from_millis(5));
        s.autosave_tick(t0 + std::time::Duration::from_secs(3));
    }
    assert!(auto.path_for(Some(&f)).exists(), "the copy was written");
    // Undo back to the file as saved: the copy goes at the next tick.
    s.apply(Action::Map(MapAction::Undo));
    assert!(!s.dirty());
    s.autosave_tick(t0 + std::time::Duration::from_secs(4));
    assert!(
        !auto.path_for(Some(&f)).exists(),
        "a copy of undone changes is left behind"
    );
    // A crash now: the file opens with no question.
    let mut t = st(3, 3);
    t.autosave = Some(auto.clone());
    t.apply(Action::OpenPath(f.clone()));
    assert!(t.pending.is_none(), "{:?}", t.pending);
    // Redo (changes again): a new copy is written as before.
    s.apply(Action::Map(MapAction::Redo));
    assert!(s.dirty());
    s.autosave_tick(t0 + std::time::Duration::from_secs(5));
    s.autosave_tick(t0 + std::time::Duration::from_secs(9));
    let waited = std::time::Instant::now();
    while s.autosave_busy() && waited.elapsed() < std::time::Duration::from_secs(5) {
        std::thread::sleep(std::time::Duration::from_millis(5));
        s.autosave_tick(t0 + std::time::Duration::from_secs(9));
    }
    assert!(
        auto.path_for(Some(&f)).exists(),
        "the redone change is copied again"
    );
}

#[test]
fn play_step_back_reset_and_stop_leave_the_design_alone() {
    let mut s = st(10, 8);
    let design = bd(&s).level().clone();
    s.apply(Action::Play(PlayAction::Start));
    // The figure at (1,1) moves right into mud, leaving path (spec boulder §4.4).
    s.apply(Action::Play(PlayAction::Step(Some(Input::Move(
        Dir::Right,
    )))));
    let p = bd(&s).play.as_ref().unwrap();
    assert_eq!(
        p.game()
            .board()
            .cell(p.game().board().idx(Pos::new(2, 1)))
            .token,
        Token::Me
    );
    assert_eq!(
        bd(&s).shown_cell_in(&s, Pos::new(1, 1)).unwrap().token,
        Token::Path
    );
    let changed = &p.session.report.as_ref().unwrap().changed;
    assert!(changed.contains(&Pos::new(1, 1)) && changed.contains(&Pos::new(2, 1)));
    // Meta-down digs the mud below without moving.
    s.apply(Action::Play(PlayAction::Choose(Input::Meta(Dir::Down))));
    s.apply(Action::Play(PlayAction::Step(None)));
    assert_eq!(
        bd(&s).shown_cell_in(&s, Pos::new(2, 2)).unwrap().token,
        Token::Path
    );
    assert_eq!(
        bd(&s).shown_cell_in(&s, Pos::new(2, 1)).unwrap().token,
        Token::Me
    );
    s.apply(Action::Play(PlayAction::Back));
    assert_eq!(
        bd(&s).shown_cell_in(&s, Pos::new(2, 2)).unwrap().token,
        Token::Mud
    );
    s.apply(Action::Play(PlayAction::Forward));
    assert_eq!(
        bd(&s).shown_cell_in(&s, Pos::new(2, 2)).unwrap().token,
        Token::Path
    );
    s.apply(Action::Play(PlayAction::Scrub(0)));
    assert_eq!(
        bd(&s).shown_cell_in(&s, Pos::new(1, 1)).unwrap().token,
        Token::Me
    );
    s.apply(Action::Play(PlayAction::Scrub(2)));
    assert_eq!(
        bd(&s).shown_cell_in(&s, Pos::new(2, 1)).unwrap().token,
        Token::Me
    );
    s.apply(Action::Play(PlayAction::Reset));
    assert_eq!(
        bd(&s).shown_cell_in(&s, Pos::new(1, 1)).unwrap().token,
        Token::Me
    );
    assert_eq!(bd(&s).play.as_ref().unwrap().session.history_len(), 0);
    s.apply(Action::Play(PlayAction::Stop));
    assert!(bd(&s).play.is_none());
    assert_eq!(*bd(&s).level(), design);
    assert_eq!(bd(&s).history().len_done(), 0);
}

#[test]
fn running_advances_at_five_ticks_per_second() {
    let mut s = st(10, 8);
    s.apply(Action::Play(PlayAction::Start));
    s.apply(Action::Play(PlayAction::Run(true)));
    // 0.5 s at speed 1 = 2.5 ticks -> 2 ticks, then 0.1 s more makes 3.
    s.apply(Action::Play(PlayAction::Advance {
        dt: 0.5,
        held: None,
    }));
    assert_eq!(bd(&s).play.as_ref().unwrap().game().tick_count(), 2);
    s.apply(Action::Play(PlayAction::Advance {
        dt: 0.1,
        held: None,
    }));
    assert_eq!(bd(&s).play.as_ref().unwrap().game().tick_count(), 3);
    s.apply(Action::Play(PlayAction::Speed(2.0)));
    s.apply(Action::Play(PlayAction::Advance {
        dt: 0.2,
        held: Some(Input::Move(Dir::Down)),
    }));
    assert_eq!(bd(&s).play.as_ref().unwrap().game().tick_count(), 5);
    // The held key moved the figure down twice.
    assert_eq!(
        bd(&s).shown_cell_in(&s, Pos::new(1, 3)).unwrap().token,
        Token::Me
    );
    s.apply(Action::Play(PlayAction::Run(false)));
    s.apply(Action::Play(PlayAction::Advance {
        dt: 1.0,
        held: None,
    }));
    assert_eq!(bd(&s).play.as_ref().unwrap().game().tick_count(), 5);
}

#[test]
fn use_play_state_as_design_is_one_undoable_edit() {
    let mut s = st(10, 8);
    let design = bd(&s).level().clone();
    s.apply(Action::Play(PlayAction::Start));
    s.apply(Action::Play(PlayAction::Step(Some(Input::Move(Dir::Down)))));
    s.apply(Action::Play(PlayAction::UseAsDesign));
    assert_eq!(tok(&s, 1, 2), Token::Me);
    assert_eq!(tok(&s, 1, 1), Token::Path);
    assert_eq!(bd(&s).history().len_done(), 1);
    // While playing, the map shows the game: the design's history waits for Stop.
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(tok(&s, 1, 2), Token::Me, "undo is refused while playing");
    assert!(s.status.contains("stop playing"), "{}", s.status);
    s.apply(Action::Play(PlayAction::Stop));
    s.apply(Action::Map(MapAction::Undo));
    assert_eq!(*bd(&s).level(), design);
}

#[test]
fn record_writes_a_replay() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.replay.json");
    let mut s = st(10, 8);
    s.dialogs = Box::new(ScriptedDialogs {
        opens: vec![],
        saves: vec![out.clone()],
    });
    s.apply(Action::Play(PlayAction::Start));
    for i in [Input::Move(Dir::Right), Input::Wait, Input::Meta(Dir::Down)] {
        s.apply(Action::Play(PlayAction::Step(Some(i))));
    }
    s.apply(Action::Play(PlayAction::Record));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(v["tilesmith"], "replay");
    assert_eq!(v["inputs"], "R . MD");
    assert_eq!(v["seed"], 0);
    // An untitled design is embedded.
    assert_eq!(v["level"]["width"], 10);
    assert_eq!(v["expect"]["status"], "running");
    assert_eq!(v["expect"]["hash"].as_str().unwrap().len(), 16);
    // The engine replays it to the same final state.
    let r = tilesmith_engine::replay::Replay::load(&out).unwrap();
    assert!(r.run().unwrap().matches);
}

#[test]
fn record_after_use_as_design_and_step_back_replays() {
    // The design becomes a saved play state (with its clock, tick 4); a session from it steps,
    // steps back and steps again: the replay holds only this session's inputs and matches.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.replay.json");
    let mut s = st(10, 8);
    s.apply(Action::Play(PlayAction::Start));
    for _ in 0..4 {
        s.apply(Action::Play(PlayAction::Step(Some(Input::Wait))));
    }
    s.apply(Action::Play(PlayAction::UseAsDesign));
    s.apply(Action::Play(PlayAction::Stop));
    assert_eq!(bd(&s).level().clock.map(|c| c.tick_count), Some(4));
    s.dialogs = Box::new(ScriptedDialogs {
        opens: vec![],
        saves: vec![out.clone()],
    });
    s.apply(Action::Play(PlayAction::Start));
    assert_eq!(
        tilesmith_engine::Game::steps(bd(&s).play.as_ref().unwrap().game()),
        0
    );
    s.apply(Action::Play(PlayAction::Step(Some(Input::Move(
        Dir::Right,
    )))));
    s.apply(Action::Play(PlayAction::Step(Some(Input::Move(Dir::Down)))));
    s.apply(Action::Play(PlayAction::Back));
    s.apply(Action::Play(PlayAction::Step(Some(Input::Wait))));
    s.apply(Action::Play(PlayAction::Record));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(v["inputs"], "R .");
    assert_eq!(v["level"]["state"]["tick_count"], 4);
    let r = tilesmith_engine::replay::Replay::load(&out).unwrap();
    assert_eq!(r.ticks, 2);
    assert!(r.run().unwrap().matches);
}

#[test]
fn record_refers_to_the_saved_level_file() {
    let dir = tempfile::tempdir().unwrap();
    let f = temp_level(dir.path(), "lvl.json", &BoulderLevel::new("l", 9, 7));
    let out = dir.path().join("replays").join("l.replay.json");
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    let mut s = st(3, 3);
    s.apply(Action::OpenPath(f));
    s.dialogs = Box::new(ScriptedDialogs {
        opens: vec![],
        saves: vec![out.clone()],
    });
    s.apply(Action::Play(PlayAction::Start));
    s.apply(Action::Play(PlayAction::Step(Some(Input::Move(Dir::Down)))));
    s.apply(Action::Play(PlayAction::Step(Some(Input::Move(
        Dir::Right,
    )))));
    s.apply(Action::Play(PlayAction::Record));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(v["level"], "../lvl.json");
    assert_eq!(v["inputs"], "D R");
    let r = tilesmith_engine::replay::Replay::load(&out).unwrap();
    assert!(r.run().unwrap().matches);
}

#[test]
fn problems_include_no_figure_and_locate_cells() {
    let mut s = st(10, 8);
    s.refresh();
    assert!(s.problems.is_empty(), "{:?}", s.problems);
    s.apply(Action::from(BoulderAction::SetCell {
        pos: Pos::new(1, 1),
        cell: Cell::new(Token::Mud),
    }));
    s.refresh();
    // The same problem `tilesmith check` reports: an error, located at $.map.
    assert!(
        s.problems
            .iter()
            .any(|p| p.is_error() && p.message.contains("no \"me\"")),
        "{:?}",
        s.problems
    );
    let p = Problem::warning(JsonPath::root().key("map").index(2).index(3), "x");
    assert_eq!(problem_cell(&p), Some(Pos::new(3, 2)));
    s.apply(Action::CanvasSize([200.0, 100.0]));
    s.apply(Action::Locate(Pos::new(3, 2)));
    assert_eq!(s.inspect, Some(Pos::new(3, 2)));
    // The located cell is in the middle of the canvas.
    let c = s.view.cell_at([100.0, 50.0], 10, 8);
    assert_eq!(c, Some(Pos::new(3, 2)));
}

#[test]
fn viewport_zoom_keeps_the_point_under_the_pointer() {
    let mut s = st(500, 500);
    s.apply(Action::CanvasSize([1000.0, 800.0]));
    s.apply(Action::Fit);
    // 500 cells in 792 points of height: 1.584 points per cell.
    assert!((s.view.zoom - 792.0 / 500.0).abs() < 1e-3);
    let before = s.view.cell_at([300.0, 200.0], 500, 500);
    s.apply(Action::ZoomAt {
        factor: 4.0,
        at: [300.0, 200.0],
    });
    assert_eq!(s.view.cell_at([300.0, 200.0], 500, 500), before);
    let (x0, y0, x1, y1) = s.view.visible(500, 500);
    // About 1000 / 6.336 = 158 columns and 800 / 6.336 = 127 rows are visible.
    assert!((157..=160).contains(&(x1 - x0)), "{x0}..{x1}");
    assert!((126..=129).contains(&(y1 - y0)), "{y0}..{y1}");
    s.apply(Action::Pan([-100000.0, 0.0]));
    let (x0, _, x1, _) = s.view.visible(500, 500);
    assert_eq!(x0, x1, "nothing visible when panned away");
}

#[test]
fn untitled_autosave_is_offered_at_start_up_as_a_new_document() {
    let dir = tempfile::tempdir().unwrap();
    let auto = Autosave {
        dir: dir.path().join("data"),
    };
    let mut s = st(10, 8);
    s.autosave = Some(auto.clone());
    stroke(&mut s, (4, 4), &[], Button::Primary);
    s.apply(Action::Autosave);
    let edited = bd(&s).level().clone();
    // Next start opens some file, and is offered the untitled copy.
    let f = temp_level(dir.path(), "b.json", &BoulderLevel::new("b", 8, 6));
    let mut t = st(3, 3);
    t.autosave = Some(auto);
    t.apply(Action::OpenPath(f));
    t.offer_untitled_autosave();
    assert!(matches!(t.pending, Some(Pending::RestoreAutosave(_))));
    t.apply(Action::Answer(Answer::Restore));
    assert_eq!(*bd(&t).level(), edited);
    assert_eq!(t.path, None);
    assert!(t.dirty());
}

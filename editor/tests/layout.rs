//! The layout of issue 14, in a headless 1280×800 window (egui_kittest): the view stays put
//! when the side panel's page or the problems list changes, panels hide and show by their
//! commands, the New level dialog makes the level it was asked for, and a resize that would
//! crop `me` asks first.

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

use eframe::egui::{Key, Modifiers, Rect};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use tilesmith_editor::app::TilesmithApp;
use tilesmith_editor::doc::registry::NewLevel;
use tilesmith_editor::kinds::baba::BabaDoc;
use tilesmith_editor::kinds::boulder::BoulderDoc;
use tilesmith_editor::state::{Action, EditorState, MapAction, Pending, SideTab};
use tilesmith_engine::Pos;
use tilesmith_engine::kind::baba::{BabaLevel, Kind, Tile};
use tilesmith_engine::kind::boulder::{BoulderLevel, Cell, Token};

mod common;
use common::{harness, settle};

fn level(w: usize, h: usize) -> EditorState {
    EditorState::new(BoulderLevel::new("layout", w, h))
}

fn tok(s: &EditorState, x: usize, y: usize) -> Token {
    let d = s.doc_as::<BoulderDoc>().unwrap();
    d.level().map.get(Pos::new(x, y)).unwrap().token
}

/// The canvas rectangle, the zoom and the pan: where every cell is on screen.
fn view(h: &Harness<'static, TilesmithApp>) -> (Rect, f32, [f32; 2]) {
    let app = h.state();
    (
        app.ui.canvas.rect(),
        app.state.view.zoom,
        app.state.view.pan,
    )
}

#[test]
fn switching_side_panel_pages_keeps_the_zoom_and_the_map_in_place() {
    let mut h = harness(level(40, 22));
    let fitted = view(&h);
    // The first frames fit the 40×22 map into the canvas.
    assert!(fitted.1 > 8.0, "fitted zoom {}", fitted.1);
    // Zoomed in and panned by hand, so that a switch that re-fits or resets the view shows.
    h.state_mut().state.apply(Action::ZoomIn);
    h.state_mut().state.apply(Action::Pan([37.0, -21.0]));
    settle(&mut h);
    let before = view(&h);
    assert!(
        before.1 > fitted.1,
        "zoomed in: {} > {}",
        before.1,
        fitted.1
    );
    assert_ne!(before.2, fitted.2, "panned");
    for (tab, page) in [("Rules", SideTab::Rules), ("Cell & level", SideTab::Main)] {
        h.get_by_label(tab).click();
        settle(&mut h);
        assert_eq!(h.state().state.side_tab, page);
        // Same canvas (the side panel kept its width), same zoom, same pan.
        assert_eq!(view(&h), before, "after the {tab} tab");
    }
    // Playing shows the play pane on the same page: still no move.
    h.get_by_label("Start playing").click();
    settle(&mut h);
    for tab in ["Rules", "Play pane"] {
        h.get_by_label(tab).click();
        settle(&mut h);
        assert_eq!(view(&h), before, "while playing, on the {tab} tab");
    }
}

#[test]
fn a_longer_problems_list_does_not_move_the_map() {
    // Six `me` fields too many: six errors, one line each, more than the list shows at once.
    let mut l = BoulderLevel::new("layout", 30, 20);
    let extra: Vec<Pos> = (0..6).map(|i| Pos::new(3 + 3 * i, 5)).collect();
    for p in &extra {
        *l.map.get_mut(*p).unwrap() = Cell::new(Token::Me);
    }
    let mut h = harness(EditorState::new(l));
    assert_eq!(h.state().state.problems.len(), 6);
    h.get_by_label("Problems (6)");
    let before = view(&h);
    // Paint them over with `path` (the right button's token): none left, "No problems.".
    for p in &extra {
        let st = &mut h.state_mut().state;
        st.apply(MapAction::CellPress {
            pos: *p,
            button: tilesmith_editor::tools::Button::Secondary,
            alt: false,
        });
        st.apply(MapAction::CellRelease);
        settle(&mut h);
        assert_eq!(view(&h), before, "after painting {p:?}");
    }
    assert!(h.state().state.problems.is_empty());
    h.get_by_label("No problems.");
    assert_eq!(view(&h), before);
}

#[test]
fn panels_hide_and_show_by_their_commands_without_moving_the_map() {
    let mut h = harness(level(30, 20));
    let (rect0, zoom0, pan0) = view(&h);
    assert!(h.query_by_label("Replace tokens…").is_some());
    // Ctrl+B hides the palette: the canvas grows to the left, the zoom stays.
    h.key_press_modifiers(Modifiers::COMMAND, Key::B);
    settle(&mut h);
    assert!(!h.state().state.settings.show_palette);
    assert!(h.query_by_label("Replace tokens…").is_none());
    let (rect1, zoom1, pan1) = view(&h);
    assert!(rect1.min.x < rect0.min.x - 100.0, "{rect0:?} -> {rect1:?}");
    assert_eq!((zoom1, pan1), (zoom0, pan0));
    // Ctrl+Alt+B hides the side panel (and not the palette again).
    h.key_press_modifiers(
        Modifiers {
            alt: true,
            ..Modifiers::COMMAND
        },
        Key::B,
    );
    settle(&mut h);
    let s = &h.state().state.settings;
    assert!(!s.show_side && !s.show_palette);
    assert!(h.query_by_label("Rules").is_none());
    assert!(view(&h).0.max.x > rect0.max.x + 150.0);
    // Ctrl+J hides the problems list; its count moves to the status bar.
    h.key_press_modifiers(Modifiers::COMMAND, Key::J);
    settle(&mut h);
    assert!(!h.state().state.settings.show_problems);
    h.get_by_label("Problems (0)").click();
    settle(&mut h);
    assert!(h.state().state.settings.show_problems);
    // The hidden palette's strip button brings it back; the View menu the side panel.
    h.get_by_label("»").click();
    settle(&mut h);
    assert!(h.state().state.settings.show_palette);
    h.get_by_label("View").click();
    settle(&mut h);
    h.get_by_label_contains("Side panel").click();
    settle(&mut h);
    assert!(h.state().state.settings.show_side);
    assert_eq!(view(&h), (rect0, zoom0, pan0));
}

#[test]
fn the_new_level_dialog_makes_the_chosen_kind_size_border_and_fill() {
    let mut h = harness(level(10, 8));
    h.key_press_modifiers(Modifiers::COMMAND, Key::N);
    settle(&mut h);
    assert!(h.state().state.new_dialog);
    h.get_by_label("New level");
    // It starts from the open kind's defaults: boulder, 40 × 22, wall border, path inside.
    assert_eq!(
        h.state().ui.new_form,
        Some(NewLevel {
            kind: "boulder",
            width: 40,
            height: 22,
            border: Some("wall".into()),
            fill: "path".into(),
        })
    );
    // Choose another size, border and fill, then Create.
    {
        let f = h.state_mut().ui.new_form.as_mut().unwrap();
        f.width = 12;
        f.height = 9;
        f.border = Some("stone".into());
        f.fill = "mud".into();
    }
    h.get_by_label("Create").click();
    settle(&mut h);
    let st = &h.state().state;
    assert!(!st.new_dialog);
    assert_eq!(st.kind_name(), "boulder");
    assert_eq!(st.map_size(), (12, 9));
    for y in 0..9 {
        for x in 0..12 {
            let want = match (x, y) {
                (1, 1) => Token::Me,
                (10, 7) => Token::Exit,
                _ if x == 0 || y == 0 || x == 11 || y == 8 => Token::Stone,
                _ => Token::Mud,
            };
            assert_eq!(tok(st, x, y), want, "cell {x}, {y}");
        }
    }
    assert!(
        st.problems.iter().all(|p| !p.is_error()),
        "{:?}",
        st.problems
    );

    // Another kind through the kind list: baba, 7 × 5, a rock border around empty cells.
    h.key_press_modifiers(Modifiers::COMMAND, Key::N);
    settle(&mut h);
    // The kind list shows the open kind.
    h.get(egui_kittest::kittest::by().value("boulder")).click();
    settle(&mut h);
    h.get_by_label("baba").click();
    settle(&mut h);
    assert_eq!(
        h.state().ui.new_form,
        Some(NewLevel {
            kind: "baba",
            width: 24,
            height: 14,
            border: None,
            fill: "empty".into(),
        })
    );
    {
        let f = h.state_mut().ui.new_form.as_mut().unwrap();
        f.width = 7;
        f.height = 5;
        f.border = Some("rock".into());
    }
    h.get_by_label("Create").click();
    settle(&mut h);
    let st = &h.state().state;
    assert_eq!((st.kind_name(), st.map_size()), ("baba", (7, 5)));
    let b = st.doc_as::<BabaDoc>().unwrap();
    let rock = vec![Tile::new(Kind::from_token("rock").unwrap())];
    for y in 0..5 {
        for x in 0..7 {
            let edge = x == 0 || y == 0 || x == 6 || y == 4;
            let want = if edge { rock.clone() } else { Vec::new() };
            assert_eq!(b.level().map.get(Pos::new(x, y)), Some(&want), "{x}, {y}");
        }
    }
    // Esc closes the dialog without a new level.
    h.key_press_modifiers(Modifiers::COMMAND, Key::N);
    settle(&mut h);
    h.key_press(Key::Escape);
    settle(&mut h);
    assert!(!h.state().state.new_dialog);
    assert_eq!(h.state().state.map_size(), (7, 5));
}

#[test]
fn a_shrink_that_would_crop_me_asks_and_cancel_keeps_it() {
    let mut h = harness(level(10, 8));
    // me at 1, 1 and the exit at 8, 6. 5 × 4 about the centre moves cells by (-2, -2): both
    // would be cropped.
    {
        let p = &mut h.state_mut().ui.panels;
        p.resize_w = 5;
        p.resize_h = 4;
    }
    h.get_by_label("Resize").click();
    settle(&mut h);
    match &h.state().state.pending {
        Some(Pending::ConfirmResize { lost, .. }) => {
            assert_eq!(lost, &["me at x 1, y 1", "exit at x 8, y 6"]);
        }
        other => panic!("expected the resize question, got {other:?}"),
    }
    h.get_by_label("Resize removes essential cells");
    h.get_by_label("Cancel").click();
    settle(&mut h);
    let st = &h.state().state;
    assert!(st.pending.is_none());
    assert_eq!(st.map_size(), (10, 8));
    assert_eq!(tok(st, 1, 1), Token::Me);
    assert!(st.doc.map().done_names().is_empty());
    // Asked again, "Resize anyway" resizes, as one undoable step.
    h.get_by_label("Resize").click();
    settle(&mut h);
    h.get_by_label("Resize anyway").click();
    settle(&mut h);
    assert_eq!(h.state().state.map_size(), (5, 4));
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    settle(&mut h);
    assert_eq!(h.state().state.map_size(), (10, 8));
    assert_eq!(tok(&h.state().state, 1, 1), Token::Me);
    // A shrink that keeps both (anchored at the bottom-right: cells move by (-1, -1)) does
    // not ask.
    {
        let p = &mut h.state_mut().ui.panels;
        p.resize_w = 9;
        p.resize_h = 7;
        p.anchor = (2, 2);
    }
    h.get_by_label("Resize").click();
    settle(&mut h);
    let st = &h.state().state;
    assert!(st.pending.is_none());
    assert_eq!(st.map_size(), (9, 7));
    assert_eq!((tok(st, 0, 0), tok(st, 7, 5)), (Token::Me, Token::Exit));
}

#[test]
fn a_baba_shrink_asks_before_it_crops_text_but_not_objects() {
    let mut l = BabaLevel::new("t", 6, 4);
    let put = |l: &mut BabaLevel, x, y, token: &str| {
        *l.map.get_mut(Pos::new(x, y)).unwrap() = vec![Tile::new(Kind::from_token(token).unwrap())];
    };
    put(&mut l, 0, 0, "text_baba");
    put(&mut l, 5, 3, "rock");
    let mut s = EditorState::new(l);
    // Cropping the right column and the bottom row removes only the rock: no question.
    s.apply(MapAction::Resize {
        width: 5,
        height: 3,
        anchor: (0, 0),
    });
    assert!(s.pending.is_none());
    assert_eq!(s.map_size(), (5, 3));
    // Cropping the left column would remove the BABA text: asked.
    s.apply(MapAction::Resize {
        width: 4,
        height: 3,
        anchor: (2, 0),
    });
    assert!(
        matches!(&s.pending, Some(Pending::ConfirmResize { lost, .. }) if lost == &["text_baba at x 0, y 0"]),
        "{:?}",
        s.pending
    );
    s.apply(Action::Answer(tilesmith_editor::state::Answer::Cancel));
    assert_eq!(s.map_size(), (5, 3));
}

#[test]
fn a_fitted_map_follows_a_window_resize_and_a_zoomed_one_stays() {
    use eframe::egui::vec2;
    let mut h = harness(level(40, 22));
    let z0 = h.state().state.view.zoom;
    h.set_size(vec2(1024.0, 640.0));
    settle(&mut h);
    let z1 = h.state().state.view.zoom;
    assert!(
        z1 < z0,
        "the fitted view follows the smaller window: {z0} -> {z1}"
    );
    // Zoomed in by hand, the view stays as it is when the window changes.
    h.key_press(Key::Plus);
    settle(&mut h);
    let (_, z2, pan2) = view(&h);
    h.set_size(vec2(1280.0, 800.0));
    settle(&mut h);
    let (_, z3, pan3) = view(&h);
    assert_eq!((z3, pan3), (z2, pan2));
}

#[test]
fn the_history_list_follows_the_current_entry() {
    let mut h = harness(level(30, 20));
    // 30 one-cell strokes: far more entries than the list shows (about ten rows).
    for i in 0..30 {
        let st = &mut h.state_mut().state;
        st.apply(MapAction::CellPress {
            pos: Pos::new(2 + i % 20, 3 + i / 20),
            button: tilesmith_editor::tools::Button::Secondary,
            alt: false,
        });
        st.apply(MapAction::CellRelease);
        settle(&mut h);
    }
    let names: Vec<String> = h
        .state()
        .state
        .doc
        .map()
        .done_names()
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(names.len(), 30);
    h.run_steps(10); // the scroll animation
    let top = h.get_by_label("History").rect().max.y;
    // The current entry is the last of the entries with its name; it is in the list's
    // visible part (at most 220 points under the heading), not 30 rows down.
    let entries = h.get_all_by_label(&names[29]).collect::<Vec<_>>();
    let current = entries.last().unwrap().rect();
    assert!(
        current.max.y <= top + 230.0,
        "the current entry is at {current:?}, the list starts at {top}"
    );
    // Going back to the start (as Undo all the way would) scrolls up to the first entry.
    h.state_mut().state.apply(MapAction::HistoryGoTo(0));
    settle(&mut h);
    h.run_steps(10);
    let first = h.get_by_label("(opened)").rect();
    assert!(first.min.y >= top - 1.0, "{first:?} vs {top}");
    assert!(h.state().state.doc.map().done_names().is_empty());
}

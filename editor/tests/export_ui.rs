//! The editor's exports through the window: File → Export PNG… and the play pane's
//! "Export GIF of this play…", with the file chosen through the dialog abstraction
//! (scripted: no real dialog opens) and the export run on a worker thread.

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

use egui_kittest::kittest::Queryable as _;
use tilesmith_editor::files::ScriptedDialogs;
use tilesmith_editor::state::{Action, EXPORT_SCALE, EditorState, PlayAction};
use tilesmith_engine::Pos;
use tilesmith_engine::kind::boulder::{BoulderLevel, Cell, Token};

mod common;
use common::{harness, settle, wait_export};

#[test]
fn file_menu_exports_the_design_as_png() {
    // A wall border, me at (1, 1), a gem at (2, 1), the exit at (2, 1)'s right.
    let mut level = BoulderLevel::new("export", 5, 3);
    *level.map.get_mut(Pos::new(2, 1)).unwrap() = Cell::new(Token::Gem);
    let mut st = EditorState::new(level);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("shot.png");
    st.dialogs = Box::new(ScriptedDialogs {
        opens: vec![],
        saves: vec![file.clone()],
    });
    let mut h = harness(st);
    h.get_by_label("File").click();
    settle(&mut h);
    h.get_by_label_contains("Export PNG…").click();
    settle(&mut h);
    // The dialog offers the scale (16 by default: 80 × 48 pixels), then asks where.
    h.get_by_label("80 × 48 pixels");
    h.get_by_label("Export…").click();
    let status = wait_export(&mut h);
    assert!(status.contains("shot.png"), "{status}");
    let p = tiny_skia::Pixmap::load_png(&file).unwrap();
    let s = EXPORT_SCALE;
    assert_eq!((p.width(), p.height()), (5 * s, 3 * s));
    // The gem's centre is its base colour (boulder look: (40, 220, 230)).
    let c = p.pixel(2 * s + s / 2, s + s / 2).unwrap();
    assert_eq!([c.red(), c.green(), c.blue()], [40, 220, 230]);
}

#[test]
fn play_pane_exports_the_play_as_gif() {
    // Me at (1, 1), mud to the right up to the exit at (4, 1).
    let level = BoulderLevel::new("export", 6, 3);
    let mut st = EditorState::new(level);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("play.gif");
    st.dialogs = Box::new(ScriptedDialogs {
        opens: vec![],
        saves: vec![file.clone()],
    });
    st.apply(Action::Play(PlayAction::Start));
    for _ in 0..2 {
        let right = tilesmith_engine::Input::Move(tilesmith_engine::Dir::Right);
        st.apply(Action::Play(PlayAction::Step(Some(right))));
    }
    let steps = st.doc.play().unwrap().inputs.len();
    assert!(steps >= 1);
    let mut h = harness(st);
    h.get_by_label("Export GIF of this play…").click();
    settle(&mut h);
    h.get_by_label("Export…").click();
    let status = wait_export(&mut h);
    // The start and one frame per step of the session.
    assert!(
        status.contains(&format!("({} frames)", steps + 1)),
        "{status}"
    );
    let d = gif::DecodeOptions::new()
        .read_info(std::fs::File::open(&file).unwrap())
        .unwrap();
    assert_eq!(d.width() as u32, 6 * EXPORT_SCALE);
}

/// Issue #31 defect 11: the export dialog offers the scale the CLI's `--scale` has, the image
/// size it gives, and remembers it between exports (in the settings file, so across runs too).
#[test]
fn the_export_dialog_offers_the_scale_and_remembers_it() {
    let level = BoulderLevel::new("export", 5, 3);
    let mut st = EditorState::new(level);
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.png"), dir.path().join("b.png"));
    st.dialogs = Box::new(ScriptedDialogs {
        opens: vec![],
        saves: vec![a.clone(), b.clone()],
    });
    let settings = dir.path().join("settings.json");
    st.settings_file = Some(settings.clone());
    let mut h = harness(st);
    h.key_press_modifiers(eframe::egui::Modifiers::COMMAND, eframe::egui::Key::E);
    settle(&mut h);
    h.get_by_label("80 × 48 pixels");
    // Typed into the field: 40 pixels per cell.
    // A click puts the number in text editing with its text selected; typing replaces it.
    let at = h.get_by_label("Export scale").rect().center();
    h.hover_at(at);
    h.step();
    for pressed in [true, false] {
        h.event(eframe::egui::Event::PointerButton {
            pos: at,
            button: eframe::egui::PointerButton::Primary,
            pressed,
            modifiers: eframe::egui::Modifiers::NONE,
        });
    }
    settle(&mut h);
    h.get_by_label("Export scale").type_text("40");
    h.key_press(eframe::egui::Key::Enter);
    settle(&mut h);
    h.get_by_label("200 × 120 pixels");
    h.get_by_label("Export…").click();
    wait_export(&mut h);
    let p = tiny_skia::Pixmap::load_png(&a).unwrap();
    assert_eq!((p.width(), p.height()), (200, 120));
    // The next export offers 40 again, and so does the next run of the editor.
    h.key_press_modifiers(eframe::egui::Modifiers::COMMAND, eframe::egui::Key::E);
    settle(&mut h);
    h.get_by_label("200 × 120 pixels");
    h.get_by_label("Export…").click();
    wait_export(&mut h);
    assert_eq!(tiny_skia::Pixmap::load_png(&b).unwrap().width(), 200);
    let saved = tilesmith_editor::files::Settings::load(&settings);
    assert_eq!(saved.export_scale, 40);
    assert_eq!(h.state().state.settings.export_scale, 40);
}

//! The built-in file chooser for the file dialogs beyond Open and Save As (docs/editor.md,
//! "Files"): with no native dialog available, adding levels to a campaign, recording a replay
//! and exporting a PNG open the `egui_file` chooser (titled for the purpose, starting in the
//! campaign's or the document's folder, listing only files of the purpose's type), the status
//! bar says why, and the chosen file is used as the native dialog's would be.

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

use std::path::{Path, PathBuf};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use tilesmith_editor::app::TilesmithApp;
use tilesmith_editor::campaign::CampaignAction;
use tilesmith_editor::files::{ChooserFor, NoNativeDialogs};
use tilesmith_editor::state::{Action, EditorState, PlayAction};
use tilesmith_engine::kind::boulder::BoulderLevel;
use tilesmith_engine::{Dir, Input};

mod campaign_fixture;
#[allow(dead_code)] // only `settle` is used: the harness below allows egui_file's glyphs
mod common;
use common::{settle, wait_export};

const WHY: &str = "no native file dialog (test)";

/// The editor window, allowing egui_file's missing glyphs and unnamed fields (as in
/// `chooser.rs`).
fn harness(state: EditorState) -> Harness<'static, TilesmithApp> {
    let mut h = Harness::builder()
        .with_size(eframe::egui::vec2(1280.0, 800.0))
        .allow_missing_glyphs()
        .with_accessibility_check(false)
        .build_ui_state(
            |ui, app: &mut TilesmithApp| app.frame(ui),
            TilesmithApp::new(state),
        );
    settle(&mut h);
    h
}

fn no_native() -> Box<NoNativeDialogs> {
    Box::new(NoNativeDialogs(WHY.into()))
}

fn says_why(st: &EditorState) {
    let want = format!("{WHY}: using the built-in file chooser");
    assert!(st.status.contains(&want), "{}", st.status);
}

/// A playable boulder level (me, mud, the exit) saved as `name` in `dir`, opened.
fn opened_level(dir: &Path, name: &str) -> EditorState {
    let file = dir.join(name);
    std::fs::write(&file, BoulderLevel::new("chosen", 6, 3).to_pretty_string()).unwrap();
    let mut st = EditorState::new(BoulderLevel::new("start", 5, 5));
    st.apply(Action::OpenPath(file.clone()));
    assert_eq!(st.path.as_deref(), Some(file.as_path()), "{}", st.status);
    st
}

#[test]
fn adding_levels_to_a_campaign_uses_the_chooser_in_the_campaigns_folder() {
    let f = campaign_fixture::fixture();
    let d = f.dir.path();
    std::fs::copy(d.join("a.json"), d.join("extra.json")).unwrap();
    std::fs::write(d.join("notes.txt"), "not a level").unwrap();
    let mut st = EditorState::new(
        tilesmith_editor::kinds::registry()
            .new_doc("boulder")
            .unwrap(),
    );
    st.apply(Action::OpenPath(f.campaign.clone()));
    assert!(st.showing_overview());
    st.dialogs = no_native();
    st.apply(Action::Campaign(CampaignAction::AddLevels));
    says_why(&st);
    let c = st.chooser.clone().unwrap();
    assert_eq!((c.purpose, c.dir.as_path()), (ChooserFor::AddLevels, d));
    let mut h = harness(st);
    h.get_by_label_contains("Add levels to the campaign");
    // Only level files (JSON) are listed.
    assert!(h.query_by_label("🗋 notes.txt").is_none());
    h.get_by_label("🗋 extra.json").click();
    settle(&mut h);
    h.get_by_label("Add").click();
    settle(&mut h);
    let st = &h.state().state;
    assert!(st.chooser.is_none());
    let c = st.campaign.as_ref().unwrap();
    let paths: Vec<&str> = c.campaign.entries.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(paths.last(), Some(&"extra.json"), "{paths:?}");
}

#[test]
fn recording_a_replay_uses_the_chooser_and_writes_the_replay() {
    let dir = tempfile::tempdir().unwrap();
    let mut st = opened_level(dir.path(), "walk.json");
    st.apply(Action::Play(PlayAction::Start));
    for _ in 0..2 {
        st.apply(Action::Play(PlayAction::Step(Some(Input::Move(
            Dir::Right,
        )))));
    }
    let steps = st.doc.play().unwrap().inputs.len();
    st.dialogs = no_native();
    st.apply(Action::Play(PlayAction::Record));
    says_why(&st);
    let c = st.chooser.clone().unwrap();
    assert_eq!(c.purpose, ChooserFor::SaveReplay);
    assert_eq!(
        (c.dir.as_path(), c.file_name.as_str()),
        (dir.path(), "walk.replay.json")
    );
    let mut h = harness(st);
    h.get_by_label_contains("Save the replay as");
    h.get_by_label("Save").click();
    settle(&mut h);
    let file = dir.path().join("walk.replay.json");
    let status = h.state().state.status.clone();
    assert_eq!(status, format!("recorded {}", file.display()));
    // The replay refers to the saved level and holds the steps played.
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(r["level"], "walk.json", "{r}");
    let played = tilesmith_engine::parse_inputs(
        &tilesmith_engine::kind::boulder::Boulder,
        r["inputs"].as_str().unwrap(),
    )
    .unwrap();
    assert_eq!(played.len(), steps, "{r}");
}

#[test]
fn export_png_uses_a_chooser_for_png_files() {
    let dir = tempfile::tempdir().unwrap();
    let mut st = opened_level(dir.path(), "shot.json");
    std::fs::write(dir.path().join("old.png"), b"not really").unwrap();
    st.dialogs = no_native();
    st.apply(Action::ExportPng);
    says_why(&st);
    let c = st.chooser.clone().unwrap();
    assert_eq!(
        (c.purpose, c.file_name.as_str()),
        (ChooserFor::ExportPng, "shot.png")
    );
    let mut h = harness(st);
    h.get_by_label_contains("Export the level as a PNG image");
    // PNG files are listed, the level (JSON) is not.
    h.get_by_label("🗋 old.png");
    assert!(h.query_by_label("🗋 shot.json").is_none());
    h.get_by_label("Save").click();
    let status = wait_export(&mut h);
    assert!(status.contains("shot.png"), "{status}");
    let png = std::fs::read(dir.path().join("shot.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
}

#[test]
fn a_name_typed_without_the_images_extension_gets_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut st = opened_level(dir.path(), "shot.json");
    st.dialogs = no_native();
    st.apply(Action::ExportPng);
    st.apply(Action::ChooserDone(vec![dir.path().join("picture")]));
    let req = st.export_request.as_ref().unwrap();
    assert_eq!(req.path, dir.path().join("picture.png"));
    let png = ChooserFor::ExportPng;
    assert_eq!(png.with_extension("a.PNG".into()), PathBuf::from("a.PNG"));
    assert_eq!(
        png.with_extension("a.jpg".into()),
        PathBuf::from("a.jpg.png")
    );
    assert_eq!(
        ChooserFor::ExportGif.with_extension("a".into()),
        PathBuf::from("a.gif")
    );
}

#[test]
fn new_campaign_falls_back_to_the_chooser_too() {
    let dir = tempfile::tempdir().unwrap();
    let mut st = opened_level(dir.path(), "lvl.json");
    st.dialogs = no_native();
    st.apply(Action::Campaign(CampaignAction::New));
    says_why(&st);
    assert_eq!(
        st.chooser.as_ref().unwrap().purpose,
        ChooserFor::NewCampaign
    );
    st.apply(Action::ChooserDone(vec![dir.path().join("tour.json")]));
    assert!(st.showing_overview(), "{}", st.status);
    assert!(dir.path().join("tour.json").is_file());
}

/// The unsaved-changes question of an untitled level, answered Save, opens the built-in
/// chooser (no native Save As); once it saved there, what asked goes on: Quit closes, Open
/// opens. Cancelling the chooser keeps the level and does nothing else.
#[test]
fn save_for_the_unsaved_question_goes_on_after_the_chooser_saved() {
    use tilesmith_editor::state::{Answer, MapAction, Pending};
    use tilesmith_editor::tools::Button;
    let dir = tempfile::tempdir().unwrap();
    let other = dir.path().join("other.json");
    std::fs::write(&other, BoulderLevel::new("other", 6, 3).to_pretty_string()).unwrap();
    let edited = || {
        let mut st = EditorState::new(BoulderLevel::new("untitled", 5, 5));
        st.dialogs = no_native();
        st.apply(Action::Map(MapAction::CellPress {
            pos: tilesmith_engine::Pos::new(2, 2),
            button: Button::Primary,
            alt: false,
        }));
        st.apply(Action::Map(MapAction::CellRelease));
        assert!(st.dirty() && st.path.is_none());
        st
    };
    // Quit → Save → chooser → saved → closes.
    let mut st = edited();
    st.apply(Action::Quit);
    assert!(matches!(st.pending, Some(Pending::Unsaved { .. })));
    st.apply(Action::Answer(Answer::Save));
    assert_eq!(
        st.chooser.as_ref().map(|c| c.purpose),
        Some(ChooserFor::SaveLevel)
    );
    assert!(!st.close_ok, "not before the level is saved");
    let saved = dir.path().join("saved.json");
    st.apply(Action::ChooserDone(vec![saved.clone()]));
    assert!(saved.is_file() && !st.dirty());
    assert!(st.close_ok, "saved, then quit: {}", st.status);
    // Open → Save → chooser → saved → the other level opens.
    let mut st = edited();
    st.apply(Action::OpenPath(other.clone()));
    st.apply(Action::Answer(Answer::Save));
    st.apply(Action::ChooserDone(vec![dir.path().join("saved2.json")]));
    assert_eq!(st.path.as_deref(), Some(other.as_path()), "{}", st.status);
    // Cancelled chooser: nothing saved, still the edited untitled level, no quit.
    let mut st = edited();
    st.apply(Action::Quit);
    st.apply(Action::Answer(Answer::Save));
    st.apply(Action::ChooserDone(Vec::new()));
    assert!(st.dirty() && st.path.is_none() && !st.close_ok);
}

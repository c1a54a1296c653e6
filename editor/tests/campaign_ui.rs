//! The campaign overview in a headless window (egui_kittest): cards with names, stars and
//! locks, a level that does not load shown on its card, reordering by dragging a card (one
//! undo step), setting a threshold and saving, and playing an open level to a win that
//! updates the stars and the progress file. The fixture is described in `campaign_fixture`.

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

mod campaign_fixture;
mod common;

use campaign_fixture::{Fixture, fixture, progress_points};
use eframe::egui::{Key, Modifiers, Pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use tilesmith_editor::app::TilesmithApp;
use tilesmith_editor::state::{Action, EditorState};

use common::{harness, settle};

fn open(f: &Fixture) -> Harness<'static, TilesmithApp> {
    let mut s = EditorState::new(
        tilesmith_editor::kinds::registry()
            .new_doc("boulder")
            .unwrap(),
    );
    s.apply(Action::OpenPath(f.campaign.clone()));
    harness(s)
}

fn order(h: &Harness<'static, TilesmithApp>) -> Vec<String> {
    let c = h.state().state.campaign.as_ref().unwrap();
    c.campaign.entries.iter().map(|e| e.path.clone()).collect()
}

fn click(h: &mut Harness<'static, TilesmithApp>, label: &str) {
    h.get_by_label(label).click();
    settle(h);
}

#[test]
fn cards_show_names_stars_locks_and_a_broken_level() {
    let f = fixture();
    let h = open(&f);
    for name in [
        "Card 1: Three Stars",
        "Card 2: Two Stars",
        "Card 3: broken",
        "Card 4: Last Door",
    ] {
        h.get_by_label(name);
    }
    h.get_by_label("Stars of level 1: 2 of 3 points");
    h.get_by_label("Stars of level 2: 0 of 3 points");
    h.get_by_label("Locked: needs 3 more points");
    // The broken level's first problem, with its file, line and column.
    h.get_by_label_contains("broken.json:3:11: invalid JSON");
    assert!(
        h.get_by_label("Play level 4")
            .accesskit_node()
            .is_disabled(),
        "locked"
    );
    assert!(
        h.get_by_label("Play level 3")
            .accesskit_node()
            .is_disabled(),
        "does not load"
    );
    assert!(
        !h.get_by_label("Play level 2")
            .accesskit_node()
            .is_disabled()
    );
    h.get_by_label("2 of 9 points");
}

#[test]
fn dragging_a_card_reorders_and_undo_restores() {
    let f = fixture();
    let mut h = open(&f);
    let from = h.get_by_label("Thumbnail of level 1").rect().center();
    let to = h.get_by_label("Thumbnail of level 3").rect().center();
    h.hover_at(from);
    h.step();
    h.drag_at(from);
    h.step();
    for k in 1..=6 {
        let t = k as f32 / 6.0;
        h.hover_at(from + (to - from) * t);
        h.step();
    }
    h.drop_at(to);
    settle(&mut h);
    assert_eq!(order(&h), ["b.json", "broken.json", "a.json", "last.json"]);
    assert_eq!(
        h.state().state.campaign.as_ref().unwrap().done_names(),
        vec!["Move level"],
        "one drag, one undo step"
    );
    h.get_by_label("Card 3: Three Stars");
    click(&mut h, "Undo");
    assert_eq!(order(&h), ["a.json", "b.json", "broken.json", "last.json"]);
    // The buttons do the same without a pointer.
    click(&mut h, "Move level 1 later");
    assert_eq!(order(&h), ["b.json", "a.json", "broken.json", "last.json"]);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    settle(&mut h);
    assert_eq!(order(&h), ["a.json", "b.json", "broken.json", "last.json"]);
}

#[test]
fn set_a_threshold_and_save() {
    let f = fixture();
    let mut h = open(&f);
    let field = h.get_by_label("Unlock points of level 4");
    // A click puts the number in text editing with its text selected; typing replaces it.
    let at = field.rect().center();
    pointer_click(&mut h, at, 1);
    h.get_by_label("Unlock points of level 4").type_text("4");
    settle(&mut h);
    h.key_press(Key::Enter);
    settle(&mut h);
    let c = h.state().state.campaign.as_ref().unwrap();
    assert_eq!(c.campaign.entries[3].unlock, 4);
    h.get_by_label("Locked: needs 2 more points");
    click(&mut h, "Save campaign");
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&f.campaign).unwrap()).unwrap();
    assert_eq!(saved["levels"][3]["unlock"], 4);
    assert_eq!(saved["author"], "kept");
}

#[test]
fn playing_an_open_level_to_a_win_updates_stars_and_progress() {
    let f = fixture();
    let mut h = open(&f);
    click(&mut h, "Play level 2");
    assert!(h.state().state.playing());
    // The level is shown with the way back.
    h.get_by_label("Back to campaign");
    // One step right enters the exit at tick 1: 2 points for ticks [9, 9, 0].
    h.key_press(Key::ArrowRight);
    settle(&mut h);
    assert!(h.state().state.showing_overview(), "back on the overview");
    h.get_by_label("Stars of level 2: 2 of 3 points");
    h.get_by_label("Locked: needs 1 more point");
    h.get_by_label("4 of 9 points");
    assert_eq!(progress_points(&f, "b.json"), Some(2));
}

#[test]
fn edit_opens_the_level_and_back_returns() {
    let f = fixture();
    // Frames of 1/60 s, as on a screen: the harness's default 0.25 s per frame puts the two
    // clicks further apart than a double-click.
    let mut s = EditorState::new(
        tilesmith_editor::kinds::registry()
            .new_doc("boulder")
            .unwrap(),
    );
    s.apply(Action::OpenPath(f.campaign.clone()));
    let mut h = Harness::builder()
        .with_size(eframe::egui::vec2(1280.0, 800.0))
        .with_step_dt(1.0 / 60.0)
        .build_ui_state(
            |ui, app: &mut TilesmithApp| app.frame(ui),
            TilesmithApp::new(s),
        );
    settle(&mut h);
    let thumb = h.get_by_label("Thumbnail of level 1").rect().center();
    pointer_click(&mut h, thumb, 2);
    assert!(!h.state().state.showing_overview());
    assert_eq!(
        h.state().state.path.as_deref(),
        Some(f.dir.path().join("a.json").as_path())
    );
    click(&mut h, "Back to campaign");
    assert!(h.state().state.showing_overview());
}

/// `n` clicks of the primary button at `at` (2: a double-click).
fn pointer_click(h: &mut Harness<'static, TilesmithApp>, at: Pos2, n: usize) {
    h.hover_at(at);
    h.step();
    for _ in 0..n {
        h.event(eframe::egui::Event::PointerButton {
            pos: at,
            button: eframe::egui::PointerButton::Primary,
            pressed: true,
            modifiers: Modifiers::NONE,
        });
        h.event(eframe::egui::Event::PointerButton {
            pos: at,
            button: eframe::egui::PointerButton::Primary,
            pressed: false,
            modifiers: Modifiers::NONE,
        });
    }
    h.step();
    settle(h);
}

#[test]
fn the_shipped_campaign_shows_every_level_with_its_thumbnail() {
    // levels/campaign.json: 17 levels of the four kinds, all loadable. Its progress file is
    // not touched (nothing is played). The window is tall enough for every card.
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../levels/campaign.json");
    let mut s = EditorState::new(
        tilesmith_editor::kinds::registry()
            .new_doc("boulder")
            .unwrap(),
    );
    s.apply(Action::OpenPath(file));
    let mut h = Harness::builder()
        .with_size(eframe::egui::vec2(1280.0, 2400.0))
        .build_ui_state(
            |ui, app: &mut TilesmithApp| app.frame(ui),
            TilesmithApp::new(s),
        );
    settle(&mut h);
    let c = h.state().state.campaign.as_ref().unwrap();
    let cards = c.cards();
    assert_eq!(cards.len(), 17);
    for k in &cards {
        assert!(
            k.info.unwrap().problem.is_none(),
            "{}: {:?}",
            k.entry.path,
            k.info
        );
        h.get_by_label(&format!("Thumbnail of level {}", k.index + 1));
    }
    let kinds: std::collections::BTreeSet<&str> =
        cards.iter().filter_map(|k| k.info.unwrap().kind).collect();
    assert_eq!(
        kinds.into_iter().collect::<Vec<_>>(),
        ["baba", "board", "boulder", "falling"]
    );
    h.get_by_label("Card 1: Welcome, Digger");
    assert!(
        h.query_by_label("Cannot be played: the level has errors")
            .is_none()
    );
}

#[test]
fn closing_an_edited_campaign_asks_about_the_campaign() {
    let f = fixture();
    let mut h = open(&f);
    click(&mut h, "Move level 1 later");
    click(&mut h, "Close campaign");
    h.get_by_label("The campaign has changes that are not saved.");
    click(&mut h, "Discard");
    assert!(h.state().state.campaign.is_none());
    // The file is as it was.
    let on_disk: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&f.campaign).unwrap()).unwrap();
    assert_eq!(on_disk["levels"][0]["path"], "a.json");
}

#[test]
fn a_board_campaign_game_has_the_other_side_played_by_the_computer() {
    // Tic-tac-toe (the editor's new board rules): X moves first, so the campaign player is X
    // and the computer plays O; the toggles cannot be changed during a campaign game.
    let f = fixture();
    let level = serde_json::json!({
        "kind": "board", "name": "Noughts",
        "rules": {"zrf": tilesmith_editor::kinds::board::NEW_RULES}
    });
    std::fs::write(f.dir.path().join("ttt.json"), level.to_string()).unwrap();
    let mut s = EditorState::new(
        tilesmith_editor::kinds::registry()
            .new_doc("boulder")
            .unwrap(),
    );
    s.apply(Action::OpenPath(f.campaign.clone()));
    s.apply(Action::Campaign(
        tilesmith_editor::campaign::CampaignAction::AddFiles(vec![f.dir.path().join("ttt.json")]),
    ));
    s.apply(Action::Campaign(
        tilesmith_editor::campaign::CampaignAction::Play(4),
    ));
    assert!(s.playing(), "{}", s.status);
    let mut h = harness(s);
    settle(&mut h);
    let o = h.get_by_label("O played by the computer");
    assert_eq!(
        o.accesskit_node().toggled(),
        Some(eframe::egui::accesskit::Toggled::True)
    );
    assert!(o.accesskit_node().is_disabled());
    let x = h.get_by_label("X played by the computer");
    assert_eq!(
        x.accesskit_node().toggled(),
        Some(eframe::egui::accesskit::Toggled::False)
    );
}

/// Issue #31 defect 6: a level played from the campaign fits the canvas it is shown in. The
/// overview hid the canvas, so the level was fitted to a canvas size never drawn (800 × 600)
/// and First Words opened at 88 px with its right-hand column cut off.
#[test]
fn a_level_opened_from_the_campaign_fits_the_canvas() {
    let dir = std::env::temp_dir().join(format!("tilesmith-campaign-fit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let level = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../levels/baba/first-words.json")
        .canonicalize()
        .unwrap();
    let campaign = dir.join("fit.json");
    // A campaign names its levels relative to its folder.
    let dir = dir.canonicalize().unwrap();
    let ups = "../".repeat(dir.components().count() - 1);
    let relative = format!("{ups}{}", level.strip_prefix("/").unwrap().display());
    std::fs::write(
        &campaign,
        serde_json::json!({"kind": "campaign", "title": "fit",
            "levels": [{"path": relative, "unlock": 0}]})
        .to_string(),
    )
    .unwrap();
    let mut s = EditorState::new(
        tilesmith_editor::kinds::registry()
            .new_doc("boulder")
            .unwrap(),
    );
    s.apply(Action::OpenPath(campaign));
    let mut h = harness(s);
    for label in ["Play level 1", "Back to campaign", "Edit level 1"] {
        if label == "Back to campaign" {
            // Then through the overview again, to the level's editing page.
            click(&mut h, label);
            continue;
        }
        click(&mut h, label);
        let st = &h.state().state;
        let (w, h_) = st.map_size();
        let v = st.view;
        let (right, bottom) = (v.pan[0] + w as f32 * v.zoom, v.pan[1] + h_ as f32 * v.zoom);
        assert!(
            v.pan[0] >= 0.0 && v.pan[1] >= 0.0 && right <= v.canvas[0] && bottom <= v.canvas[1],
            "{label}: the {w} × {h_} map at {} px runs out of the {:?} canvas (pan {:?})",
            v.zoom,
            v.canvas,
            v.pan
        );
    }
}

//! Nothing is cut off at the window sizes designers use (issue #31 defect 9): at 1280 × 800
//! and 1024 × 640, in the panels of every kind's pages that the trial found too narrow, no
//! widget (button, label, field, grid) runs past the right edge of its panel, and the play
//! badge covers nothing of the map. A widget that egui clips keeps its whole rectangle in
//! the accessibility tree, so a cut one is seen here.

#![allow(clippy::unwrap_used)] // test helpers panic on purpose when a fixture is wrong

use eframe::egui::{Rect, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use tilesmith_editor::app::TilesmithApp;
use tilesmith_editor::state::{Action, EditorState, PlayAction};

#[allow(dead_code)] // this file makes windows of its own sizes
mod common;
use common::settle;

fn open(file: &str, size: (f32, f32)) -> Harness<'static, TilesmithApp> {
    let f = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../levels")
        .join(file);
    let mut st = EditorState::new(
        tilesmith_editor::kinds::registry()
            .new_doc("boulder")
            .unwrap(),
    );
    st.apply(Action::OpenPath(f));
    assert!(st.pending.is_none(), "{:?}", st.pending);
    let mut h = Harness::builder()
        .with_size(vec2(size.0, size.1))
        .build_ui_state(
            |ui, app: &mut TilesmithApp| app.frame(ui),
            TilesmithApp::new(st),
        );
    settle(&mut h);
    h
}

/// The widgets that run past the right edge of the panel they are in: the palette (left of
/// the canvas, up to its hide button `«`) or the window.
fn cut(h: &Harness<'static, TilesmithApp>) -> Vec<String> {
    let screen = h.ctx.content_rect();
    let hide = h.query_by_label("«").map(|n| n.rect());
    let palette_right = hide.map(|r| r.max.x + 10.0);
    let top = hide.map_or(0.0, |r| r.min.y - 10.0);
    // The panels end above the problems list and the status bar, which span the window.
    // (The splitter above the problems list is the wide "Resize panel" handle.)
    let bottom = h
        .query_all_by(|n| n.label().is_some_and(|l| l == "Resize panel"))
        .map(|n| n.rect())
        .filter(|r| r.width() > r.height())
        .map(|r| r.min.y)
        .fold(screen.max.y, f32::min);
    let mut out = Vec::new();
    for n in h.query_all_by(|n| n.raw_bounds().is_some()) {
        let r: Rect = n.rect();
        let label = n.accesskit_node().label().unwrap_or_default();
        if label == "Resize panel" || r.width() <= 0.0 {
            continue;
        }
        let limit = match palette_right {
            Some(p) if r.min.x < p - 10.0 && r.min.y > top && r.min.y < bottom => p,
            _ => screen.max.x,
        };
        if r.max.x > limit + 0.5 {
            out.push(format!("{label:?} {r:?} past {limit}"));
        }
    }
    out
}

fn check(name: &str, h: &Harness<'static, TilesmithApp>) {
    let found = cut(h);
    assert!(found.is_empty(), "{name}: cut off:\n{}", found.join("\n"));
}

const SIZES: [(f32, f32); 2] = [(1280.0, 800.0), (1024.0, 640.0)];

#[test]
fn falling_block_kinds_and_tumo_states_fit() {
    for size in SIZES {
        let mut h = open("falling/puyo-tsu.json", size);
        check(&format!("puyo-tsu {size:?}"), &h);
        // The block names are whole in their fields.
        h.get_by_label("block 4 name");
        h = open("falling/tetris.json", size);
        h.get_by_label("Rules").click();
        settle(&mut h);
        check(&format!("tetris tumos {size:?}"), &h);
        // All four states of the I piece are there, none past the panel.
        for s in 0..4 {
            h.get_by_label(&format!("state {s} grid"));
        }
    }
}

#[test]
fn palettes_fit() {
    for size in SIZES {
        for level in ["boulder/welcome.json", "baba/first-words.json"] {
            let h = open(level, size);
            check(&format!("{level} {size:?}"), &h);
        }
    }
}

#[test]
fn the_board_play_pane_fits_and_the_badge_covers_nothing_of_the_map() {
    // From a folder with a long name: the status bar's message names the file in full.
    let dir = tempfile::tempdir().unwrap();
    let deep = dir
        .path()
        .join("a-folder-with-a-rather-long-name-as-designers-have".repeat(2));
    std::fs::create_dir_all(&deep).unwrap();
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../levels/board/reversi.zrf");
    std::fs::copy(src, deep.join("reversi.zrf")).unwrap();
    for size in SIZES {
        let mut h = open(deep.join("reversi.zrf").to_str().unwrap(), size);
        h.state_mut().state.apply(Action::Play(PlayAction::Start));
        settle(&mut h);
        check(&format!("reversi playing {size:?}"), &h);
        h.get_by_label("Export GIF of this play…");
        // The badge is in the tool bar, beside Stop playing, above the canvas.
        let badge = h.get_by_label("Playing — Esc to stop").rect();
        let stop = h.get_by_label("Stop playing").rect();
        assert!(
            badge.center().y < stop.max.y && badge.center().y > stop.min.y,
            "{badge:?}"
        );
        assert!(badge.max.y <= 70.0, "{badge:?} over the canvas");
    }
}

#[test]
fn the_pasta_palette_properties_and_play_pane_fit() {
    for size in SIZES {
        for level in ["pasta/program-after-placement.json", "pasta/full-game.json"] {
            let mut h = open(level, size);
            check(&format!("{level} {size:?}"), &h);
            h.get_by_label("add RemoveCommand");
            h.state_mut().state.apply(Action::Play(PlayAction::Start));
            settle(&mut h);
            check(&format!("{level} playing {size:?}"), &h);
            assert!(h.state().state.playing(), "{}", h.state().state.status);
            if level.contains("placement") {
                // Execution: red's right on Increment.
                h.get_by_label("Run");
                h.get_by_label("play skip");
            } else {
                // Placement: red places first.
                h.get_by_label("play @AddFlag");
            }
        }
    }
}

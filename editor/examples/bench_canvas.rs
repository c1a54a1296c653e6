//! Headless frame benchmark of the editor on a 500×500 level: runs the whole UI (layout and
//! tessellation, no GPU) for N frames while panning and zooming, and prints the mean frame time.
//!
//! `cargo run --release -p tilesmith --example bench_canvas -- 600` (a baba level of the same
//! size with `TILESMITH_BENCH_KIND=baba`).

use std::time::Instant;

use eframe::egui::{self, RawInput, Rect, pos2};
use tilesmith_editor::app::TilesmithApp;
use tilesmith_editor::kinds;
use tilesmith_editor::state::{Action, EditorState};

fn main() {
    let frames: u32 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(600);
    let ctx = egui::Context::default();
    let kind = std::env::var("TILESMITH_BENCH_KIND").unwrap_or_default();
    let kinds = kinds::registry();
    let entry = kinds.entry(&kind).unwrap_or(kinds.default_entry());
    let state = EditorState::new((entry.bench_doc)(500));
    let mut app = TilesmithApp::new(state);
    let input = || RawInput {
        screen_rect: Some(Rect::from_min_max(pos2(0.0, 0.0), pos2(1280.0, 800.0))),
        ..Default::default()
    };
    // Warm up (fonts, texture upload, fit).
    for _ in 0..5 {
        let mut o = ctx.run_ui(input(), |ui| app.frame(ui));
        o.textures_delta.clear();
    }
    app.state.apply(Action::Fit);
    let mut total = std::time::Duration::ZERO;
    let mut worst = std::time::Duration::ZERO;
    let mut visible_max = 0;
    for i in 0..frames {
        match i % 120 {
            0 => app.state.apply(Action::Fit),
            1..=39 => app.state.apply(Action::ZoomAt {
                factor: 1.08,
                at: [400.0, 300.0],
            }),
            40..=79 => app.state.apply(Action::Pan([-9.0, -5.0])),
            _ => app.state.apply(Action::ZoomAt {
                factor: 1.0 / 1.08,
                at: [300.0, 200.0],
            }),
        }
        let (x0, y0, x1, y1) = app.state.view.visible(500, 500);
        visible_max = visible_max.max((x1 - x0) * (y1 - y0));
        let t = Instant::now();
        let mut o = ctx.run_ui(input(), |ui| app.frame(ui));
        let prims = ctx.tessellate(std::mem::take(&mut o.shapes), o.pixels_per_point);
        std::hint::black_box(prims);
        o.textures_delta.clear();
        let dt = t.elapsed();
        total += dt;
        worst = worst.max(dt);
    }
    let mean = total.as_secs_f64() * 1000.0 / frames as f64;
    println!(
        "bench_canvas: {frames} frames, 500x500 {} level, 1280x800 window, pan+zoom: mean {mean:.2} ms/frame ({:.0} fps), worst {:.2} ms, up to {visible_max} cells visible",
        entry.name,
        1000.0 / mean,
        worst.as_secs_f64() * 1000.0
    );
}

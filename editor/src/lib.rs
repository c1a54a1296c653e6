//! The Tilesmith editor: an eframe/egui window to paint levels of every game kind, edit their
//! properties and rules, and play-test them step by step.
//!
//! Design decision: one game kind is one module under [`kinds`] (its document and its UI)
//! plus one line in the registry; the shell ([`state::EditorState`], [`ui`], [`app`]) holds a
//! `Box<dyn` [`doc::KindDoc`]`>` and never names a kind's types. The shell state makes no egui
//! call and changes only through [`state::Action`]s. The UI functions read the state and push
//! actions; [`app::TilesmithApp`] applies the queue after drawing. Edits are commands
//! ([`doc::history::Undoable`]) whose `apply_swap` serves both undo and redo, and the generic
//! map document ([`doc::map::MapDoc`]) writes undo, redo, copy, cut, paste, move, delete and
//! resize once for every kind; tools ([`tools`]) are state machines fed cell events that show
//! a preview and give one edit per stroke. Most tests therefore drive `EditorState::apply`
//! without a window.
//!
//! Coordinates: cells are [`tilesmith_engine::Pos`] with `x` = column from the left and `y` =
//! row from the top. Screen coordinates are egui points.

#![warn(missing_docs)]

pub mod app;
pub mod campaign;
pub mod doc;
pub mod error;
pub mod export;
pub mod files;
pub mod job;
pub mod kinds;
pub mod play;
pub mod state;
pub mod tools;
pub mod ui;

use std::path::PathBuf;
use std::process::ExitCode;

/// Opens the editor window on `file`, or on the default level when `None`, and runs it until
/// the window closes. Returns a failure code when no window can be opened.
///
/// With `bench_frames = Some(n)` (the `--bench-frames N` flag, or `TILESMITH_BENCH_FRAMES=N`),
/// it instead pans and zooms a generated 500×500 level for `n` frames without vsync, prints the
/// mean frame time and exits.
pub fn run(file: Option<PathBuf>, bench_frames: Option<u32>) -> ExitCode {
    let bench = bench_frames.or_else(|| {
        std::env::var("TILESMITH_BENCH_FRAMES")
            .ok()
            .and_then(|s| s.parse::<u32>().ok())
    });
    // The window's size and place and the egui memory (the panels' sizes, scroll positions)
    // are kept between runs by eframe, in the config folder beside settings.json.
    let persistence_path = files::project_dirs().map(|(config, _)| config.join("window.ron"));
    let options = eframe::NativeOptions {
        renderer: eframe::Renderer::Glow,
        persist_window: true,
        persistence_path,
        glow_options: eframe::egui_glow::GlowConfiguration {
            vsync: bench.is_none(),
            ..Default::default()
        },
        viewport: eframe::egui::ViewportBuilder::default()
            .with_inner_size([1280.0, 800.0])
            .with_min_inner_size([640.0, 400.0])
            .with_app_id("tilesmith")
            .with_title("Tilesmith"),
        ..Default::default()
    };
    let result = eframe::run_native(
        "Tilesmith",
        options,
        Box::new(move |_cc| {
            let mut app = app::TilesmithApp::new_native(file);
            if let Some(n) = bench {
                app.start_bench(n);
            }
            Ok(Box::new(app))
        }),
    );
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tilesmith: cannot open the editor window: {e}");
            ExitCode::FAILURE
        }
    }
}

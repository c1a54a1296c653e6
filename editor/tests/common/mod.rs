//! The kittest harness shared by the window tests: a 1280×800 editor window with the
//! accessibility check on, settled for a few frames after each interaction.

use eframe::egui::vec2;
use egui_kittest::Harness;
use tilesmith_editor::app::TilesmithApp;
use tilesmith_editor::state::{Action, EditorState, PlayAction};

/// A headless editor window showing `state`, after its first frames.
pub fn harness(state: EditorState) -> Harness<'static, TilesmithApp> {
    let mut h = Harness::builder()
        .with_size(vec2(1280.0, 800.0))
        .with_accessibility_check(true)
        .build_ui_state(
            |ui, app: &mut TilesmithApp| app.frame(ui),
            TilesmithApp::new(state),
        );
    settle(&mut h);
    h
}

/// Runs a few frames so that actions are applied and the result is drawn.
pub fn settle(h: &mut Harness<'static, TilesmithApp>) {
    h.run_steps(3);
}

/// Plays the input words of `line` (the play session's own words: `R`, `c1-b1`), one step
/// each, as the play pane's input does.
#[allow(dead_code)] // used by the play tests only
pub fn play_words(h: &mut Harness<'static, TilesmithApp>, line: &str) {
    for w in line.split_whitespace() {
        let input = h
            .state()
            .state
            .doc
            .play()
            .expect("a play session")
            .game
            .read_input(w)
            .expect("a word of the game");
        h.state_mut()
            .state
            .apply(Action::Play(PlayAction::Step(Some(input))));
        settle(h);
    }
}

/// Runs frames until the status bar reports the end of an export (at most 30 s); the status.
#[allow(dead_code)] // used by the export tests only
pub fn wait_export(h: &mut Harness<'static, TilesmithApp>) -> String {
    let start = std::time::Instant::now();
    loop {
        settle(h);
        let s = h.state().state.status.clone();
        if s.starts_with("exported") || s.starts_with("export failed") {
            return s;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(30),
            "export hangs: {s}"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

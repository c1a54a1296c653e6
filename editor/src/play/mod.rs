//! The play pane's shared tools, below every kind's own play pane: the computer player for a
//! game of two players or more ([`computer`]) and Solve for every kind ([`solver`],
//! [`solve_ui`]). They work through `dyn Game` and the engine's shared search
//! (`Game::searcher`), so a kind gets them without code of its own: the shell draws
//! [`play_tools_ui`] after [`crate::doc::ui::KindUi::play_ui`] in the side panel
//! (`ui/layout.rs`), and the state lives in [`crate::ui::UiState::play_tools`]. A kind's own
//! play pane draws its status banner and its list of legal words with [`pane`].

pub mod computer;
pub mod pane;
pub mod solve_ui;
pub mod solver;

use eframe::egui::Ui;

use crate::state::{Action, EditorState};

/// The state of the shared play tools: the computer player, the solver, and the play session
/// they belong to.
#[derive(Debug, Default)]
pub struct PlayTools {
    /// The computer player.
    pub computer: computer::Computer,
    /// Solve.
    pub solver: solver::Solver,
    /// The play session last drawn ([`crate::doc::play::PlaySession::id`]); another one
    /// resets the searches.
    session: Option<u64>,
}

impl PlayTools {
    /// Forgets the searches under way and their results (play stopped).
    pub fn idle(&mut self) {
        if self.session.take().is_some() {
            self.computer.reset();
            self.solver.reset();
        }
    }
}

/// The shared tools of the play pane: the computer player when the game has two players or
/// more, and Solve. Draws nothing when not playing.
pub fn play_tools_ui(ui: &mut Ui, st: &EditorState, t: &mut PlayTools, out: &mut Vec<Action>) {
    let Some(p) = st.doc.play() else {
        t.idle();
        return;
    };
    if t.session != Some(p.id()) {
        t.computer.reset();
        t.solver.reset();
        t.session = Some(p.id());
    }
    if p.game.players().len() >= 2 {
        ui.separator();
        computer::computer_ui(ui, p, &mut t.computer, out);
    }
    ui.separator();
    solve_ui::solve_ui(ui, p, &mut t.solver, out);
}

//! The play pane's shared tools, below every kind's own play pane: the computer player for a
//! game of two players or more ([`computer`]), Solve for every kind ([`solver`],
//! [`solve_ui`]) and the reachability of each step of a one-player game's history
//! ([`reach`], [`reach_ui`]). They work through `dyn Game` and the engine's shared search
//! (`Game::searcher`), so a kind gets them without code of its own: the shell draws
//! [`play_tools_ui`] after [`crate::doc::ui::KindUi::play_ui`] in the side panel
//! (`ui/layout.rs`), and the state lives in [`crate::ui::UiState::play_tools`]. A kind's own
//! play pane draws its status banner and its list of legal words with [`pane`], and colours
//! its turn list with [`reach_ui::row_mark`] (the shell calls [`prepare`] before the kind's
//! pane, so the marks are this frame's).

pub mod computer;
pub mod pane;
pub mod reach;
pub mod reach_ui;
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
    /// The reachability of each step of the history.
    pub reach: reach::Reach,
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
            self.reach.reset();
        }
    }
}

/// Before the kind's play pane is drawn: follows the play session (another one resets the
/// searches), takes in the reachability worker's marks (starting or cancelling it as the
/// history changes) and leaves them for the kind's turn list ([`reach_ui::publish`]).
pub fn prepare(ctx: &eframe::egui::Context, st: &EditorState, t: &mut PlayTools) {
    let Some(p) = st.doc.play() else {
        t.idle();
        return;
    };
    if t.session != Some(p.id()) {
        t.computer.reset();
        t.solver.reset();
        t.reach.reset();
        t.session = Some(p.id());
    }
    if t.reach.update(p, t.solver.solving()) {
        ctx.request_repaint();
    }
    reach_ui::publish(ctx, p, &t.reach);
}

/// The shared tools of the play pane: the computer player when the game has two players or
/// more, Solve, and the reachability of each step for a game of one player. Draws nothing
/// when not playing. [`prepare`] is called before, in the same frame.
pub fn play_tools_ui(ui: &mut Ui, st: &EditorState, t: &mut PlayTools, out: &mut Vec<Action>) {
    let Some(p) = st.doc.play() else {
        t.idle();
        return;
    };
    if t.session != Some(p.id()) {
        prepare(ui.ctx(), st, t);
    }
    if p.game.players().len() >= 2 {
        ui.separator();
        computer::computer_ui(ui, p, &mut t.computer, out);
    }
    // The marks first: they follow play as it goes, Solve waits for a click.
    reach_ui::reach_ui(ui, p, &mut t.reach, out);
    ui.separator();
    solve_ui::solve_ui(ui, p, st.path.as_deref(), &mut t.solver, out);
}

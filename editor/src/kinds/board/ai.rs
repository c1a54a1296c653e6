//! The computer opponent of the play pane (issue 13): each player is played by a human or by
//! the computer, which searches the position ([`search`], the engine's shared Monte Carlo
//! tree search over the game's [`searcher`](tilesmith_engine::Game::searcher)) within a
//! think-time budget on a worker thread, on a search-ready copy of the position, so the UI
//! thread never waits for it. A progress bar shows the budget used, the iterations and the
//! best turn so far; Cancel stops the search (nothing is played). When the search is done,
//! its turn is played as a click on the legal move would be (one step of the play history,
//! so undo takes it back). After an undo or a restart the computer pauses until told to
//! resume, so that undoing its move does not make it play again at once.

use std::time::Duration;

use eframe::egui::{self, RichText, Ui};
use tilesmith_engine::search::mcts::{Progress, SearchLimits, SearchResult, search};
use tilesmith_engine::{Game as _, Input};

use super::play::BoardPlay;
use crate::job::Job;
use crate::state::{Action, PlayAction};

/// A search running on a worker thread: its turn, or why it failed, reporting [`Progress`].
#[derive(Debug)]
struct Running {
    /// The search (dropping it stops the search; the thread ends on its own).
    job: Job<Result<SearchResult, String>, Progress>,
    /// The game's state hash when the search started (its turn is played only there).
    state: u64,
}

/// The computer opponent's settings and its running search.
#[derive(Debug)]
pub struct Computer {
    /// Per player (by id): played by the computer.
    pub players: Vec<bool>,
    /// The think-time budget per turn, in seconds (0.2 to 10).
    pub think: f32,
    /// An iteration budget as well (tests: a deterministic search), `None` for time only.
    pub iterations: Option<u64>,
    /// The search under way.
    job: Option<Running>,
    /// The ply count last seen (an undo or restart lowers it: the computer pauses).
    seen: u64,
    /// Automatic play is paused (after an undo or a restart).
    pub paused: bool,
    /// What the last search said (its turn, iterations and time), or why it failed.
    pub last: Option<String>,
    /// Searches started (each gets its own seed).
    searches: u64,
    /// The players were set by a campaign game (cleared when a game outside the campaign
    /// is played, so the editor's Play starts with every side the user's again).
    campaign: bool,
}

impl Default for Computer {
    fn default() -> Self {
        Computer {
            players: Vec::new(),
            think: 1.0,
            iterations: None,
            job: None,
            seen: 0,
            paused: false,
            last: None,
            searches: 0,
            campaign: false,
        }
    }
}

impl Computer {
    /// True while a search runs.
    pub fn thinking(&self) -> bool {
        self.job.is_some()
    }

    /// Starts a search of the position in play on a worker thread.
    pub fn start(&mut self, p: &BoardPlay) {
        let Some(root) = p.session.game.searcher() else {
            self.last = Some("this game offers no search".into());
            return;
        };
        self.searches += 1;
        let limits = SearchLimits {
            time: Some(Duration::from_secs_f32(self.think.clamp(0.2, 10.0))),
            iterations: self.iterations,
            seed: self.searches,
            ..SearchLimits::default()
        };
        let spawned = Job::spawn("board-search", move |w| {
            let mut report = |pr: &Progress| w.report(pr.clone());
            search(root.as_ref(), &limits, w.cancel_flag(), &mut report).map_err(|e| e.to_string())
        });
        match spawned {
            Ok(job) => {
                self.job = Some(Running {
                    job,
                    state: p.session.game.state_hash(),
                });
            }
            Err(e) => self.last = Some(format!("the search could not start: {e}")),
        }
    }

    /// Stops the search under way; nothing is played.
    pub fn cancel(&mut self) {
        if self.job.take().is_some() {
            self.last = Some("cancelled".into());
        }
    }

    /// The search's progress so far.
    fn progress(&self) -> Option<Progress> {
        self.job.as_ref()?.job.progress()
    }

    /// Takes a finished search's result: the turn to play (an index into the legal turns)
    /// when the game is still where the search started.
    pub fn poll(&mut self, p: &BoardPlay) -> Option<usize> {
        // A panicking search (a bug) fails with the panic's message.
        let done = self.job.as_ref()?.job.poll()?.and_then(|r| r);
        let state = self.job.take().map(|j| j.state);
        match done {
            Ok(r) => {
                self.last = Some(format!(
                    "played {} after {} iterations in {:.1} s",
                    r.notation.as_deref().unwrap_or("nothing"),
                    r.iterations,
                    r.elapsed.as_secs_f32()
                ));
                (state == Some(p.session.game.state_hash()))
                    .then_some(r.best)
                    .flatten()
                    .filter(|&i| i < p.turns().len())
            }
            Err(e) => {
                self.last = Some(format!("the search failed: {e}"));
                None
            }
        }
    }

    /// Per frame: pauses after an undo, starts a search when a computer player is to move.
    fn update(&mut self, p: &BoardPlay) {
        let steps = p.session.steps();
        if steps < self.seen {
            self.paused = true;
            self.job = None;
        }
        self.seen = steps;
        let g = p.game();
        if g.status().is_over() {
            self.job = None;
            return;
        }
        let to = g.position().to_move(g.rules()) as usize;
        if self.players.get(to).copied().unwrap_or(false)
            && !self.paused
            && self.job.is_none()
            && p.pick.keys.is_empty()
        {
            self.start(p);
        }
    }
}

/// The computer opponent's section of the play pane.
pub fn computer_ui(ui: &mut Ui, p: &BoardPlay, c: &mut Computer, out: &mut Vec<Action>) {
    let players = &p.board.rules.players;
    c.players.resize(players.len(), false);
    if let Some(me) = p.campaign_player {
        // A campaign game: the computer plays every other side, and never pauses.
        for (k, on) in c.players.iter_mut().enumerate() {
            *on = k != me;
        }
        c.paused = false;
        c.campaign = true;
    } else if std::mem::take(&mut c.campaign) {
        c.players.fill(false);
    }
    c.update(p);
    if let Some(i) = c.poll(p) {
        out.push(Action::from(PlayAction::Step(Some(Input::Choice(
            i as u32,
        )))));
    }
    ui.heading("Computer opponent");
    for (k, name) in players.iter().enumerate() {
        let mut on = c.players[k];
        let free = p.campaign_player.is_none();
        if ui
            .add_enabled(
                free,
                egui::Checkbox::new(&mut on, format!("{name} played by the computer")),
            )
            .changed()
        {
            c.players[k] = on;
            c.paused = false;
        }
    }
    ui.add(
        egui::Slider::new(&mut c.think, 0.2..=10.0)
            .logarithmic(true)
            .suffix(" s")
            .text("think time"),
    );
    let over = p.game().status().is_over();
    if c.thinking() {
        let pr = c.progress();
        let fraction = pr.as_ref().map_or(0.0, |x| x.fraction);
        let text = pr.as_ref().map_or("starting".to_string(), |x| {
            format!(
                "{} iterations, best {}",
                x.iterations,
                x.best_notation.as_deref().unwrap_or("none yet")
            )
        });
        ui.add(egui::ProgressBar::new(fraction).text(text));
        if ui.button("Cancel the search").clicked() {
            c.cancel();
            c.paused = true;
        }
        ui.ctx().request_repaint_after(Duration::from_millis(50));
    } else if ui
        .add_enabled(!over, egui::Button::new("Computer move now"))
        .on_hover_text("The computer plays the player to move's turn")
        .clicked()
    {
        c.start(p);
        ui.ctx().request_repaint();
    }
    if c.paused && !over && ui.button("Resume the computer players").clicked() {
        c.paused = false;
    }
    if let Some(l) = &c.last {
        ui.label(RichText::new(l).small().weak());
    }
}

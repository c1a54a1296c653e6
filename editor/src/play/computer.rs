//! The computer player of the play pane (issue 13, issue #28 "the computer for either
//! colour", shared by every kind of two players or more instead of a copy per kind): each
//! player is played by a human or by the computer, which searches the position (the engine's
//! shared Monte Carlo tree search, [`search`], over the game's
//! [`searcher`](tilesmith_engine::Game::searcher)) within a think-time budget on a worker
//! thread ([`Job`]), on a search-ready copy of the position, so the UI thread never waits
//! for it. A progress bar shows the budget used, the iterations and the best move so far;
//! Cancel stops the search (nothing is played). When the search is done, its move is played
//! as the move's input word read in the position (one step of the play history, so undo
//! takes it back, and replays and GIFs record it). After an undo or a restart the computer
//! pauses until told to resume, so that undoing its move does not make it play again at once.
//! In a campaign game ([`PlaySession::campaign_player`]) the computer plays every other side.

use std::time::Duration;

use eframe::egui::{self, RichText, Ui};
use tilesmith_engine::Input;
use tilesmith_engine::search::mcts::{Progress, SearchLimits, SearchResult, search};
use tilesmith_engine::search::playout::ai_limits;

use crate::doc::play::PlaySession;
use crate::job::Job;
use crate::state::{Action, PlayAction};

/// A search running on a worker thread: its move, or why it failed, reporting [`Progress`].
#[derive(Debug)]
struct Running {
    /// The search (dropping it stops the search; the thread ends on its own).
    job: Job<Result<SearchResult, String>, Progress>,
    /// The game's state hash when the search started (its move is played only there).
    state: u64,
}

/// The computer player's settings and its running search.
#[derive(Debug)]
pub struct Computer {
    /// Per player (by index into `Game::players`): played by the computer.
    pub players: Vec<bool>,
    /// The think-time budget per move, in seconds (0.2 to 10).
    pub think: f32,
    /// An iteration budget as well (tests: a deterministic search), `None` for time only.
    pub iterations: Option<u64>,
    /// The search under way.
    job: Option<Running>,
    /// The step count last seen (an undo or restart lowers it: the computer pauses).
    seen: u64,
    /// Automatic play is paused (after an undo or a restart).
    pub paused: bool,
    /// What the last search said (its move, iterations and time), or why it failed.
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

    /// Forgets the search and the pause (play stopped, or a new session started); the
    /// players and the think time are kept.
    pub fn reset(&mut self) {
        self.job = None;
        self.seen = 0;
        self.paused = false;
        self.last = None;
    }

    /// Starts a search of the position in play on a worker thread.
    pub fn start(&mut self, p: &PlaySession) {
        let Some(root) = p.game.searcher() else {
            self.last = Some("this game offers no search".into());
            return;
        };
        self.searches += 1;
        // The settings of `match ai:SECONDS` (measured in BENCHMARKS.md), one place for both.
        let limits = SearchLimits {
            iterations: self.iterations,
            ..ai_limits(
                Duration::from_secs_f32(self.think.clamp(0.2, 10.0)),
                self.searches,
            )
        };
        let spawned = Job::spawn("computer-player", move |w| {
            let mut report = |pr: &Progress| w.report(pr.clone());
            search(root.as_ref(), &limits, w.cancel_flag(), &mut report).map_err(|e| e.to_string())
        });
        match spawned {
            Ok(job) => {
                self.job = Some(Running {
                    job,
                    state: p.game.state_hash(),
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

    /// Takes a finished search's result: the input that plays its move (its word read in
    /// the position) when the game is still where the search started.
    pub fn poll(&mut self, p: &PlaySession) -> Option<Input> {
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
                if state != Some(p.game.state_hash()) {
                    return None;
                }
                let word = r.notation?;
                match p.game.read_input(&word) {
                    Ok(input) => Some(input),
                    Err(e) => {
                        self.last = Some(format!("the search's move {word} is not legal: {e}"));
                        None
                    }
                }
            }
            Err(e) => {
                self.last = Some(format!("the search failed: {e}"));
                None
            }
        }
    }

    /// Per frame: pauses after an undo, starts a search when a computer player is to move.
    fn update(&mut self, p: &PlaySession) {
        let steps = p.steps();
        if steps < self.seen {
            self.paused = true;
            self.job = None;
        }
        self.seen = steps;
        if p.game.status().is_over() {
            self.job = None;
            return;
        }
        let Some(to) = p.game.to_move() else { return };
        if self.players.get(to).copied().unwrap_or(false) && !self.paused && self.job.is_none() {
            self.start(p);
        }
    }

    /// The players as a campaign game sets them: the computer plays every side but the
    /// campaign player's, and never pauses; outside a campaign game the sides it set are
    /// given back to the user once.
    fn follow_campaign(&mut self, p: &PlaySession) {
        if let Some(me) = p.campaign_player {
            for (k, on) in self.players.iter_mut().enumerate() {
                *on = k != me;
            }
            self.paused = false;
            self.campaign = true;
        } else if std::mem::take(&mut self.campaign) {
            self.players.fill(false);
        }
    }
}

/// The computer player's section of the play pane, for a game of two players or more.
pub fn computer_ui(ui: &mut Ui, p: &PlaySession, c: &mut Computer, out: &mut Vec<Action>) {
    let players = p.game.players();
    c.players.resize(players.len(), false);
    c.follow_campaign(p);
    c.update(p);
    if let Some(input) = c.poll(p) {
        out.push(Action::from(PlayAction::Step(Some(input))));
        // The move is applied after this frame is drawn: draw the next one at once.
        ui.ctx().request_repaint();
    }
    ui.heading("Computer player");
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
    let over = p.game.status().is_over();
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
        .on_hover_text("The computer plays the move of the player to move")
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

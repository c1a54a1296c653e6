//! A play step computing on a worker thread (issue 15; [`crate::doc::step_job`]): what the
//! play pane shows of it, Cancel (the button and Esc), collecting its outcome each frame, and
//! the actions that wait until it is done.

use std::time::{Duration, Instant};

use super::{Action, EditorState, PlayAction, problem_cell};
use tilesmith_engine::Problem;

/// The step computing, as the play pane shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct StepBusy {
    /// The kind's word for a step (`tick`, `turn`, `frame`, `ply`).
    pub noun: &'static str,
    /// The number of the step being computed (1 for the first).
    pub step: u64,
    /// How long it has been computing.
    pub elapsed: Duration,
    /// Cancel was pressed; the step is stopping.
    pub cancelling: bool,
}

impl StepBusy {
    /// `computing tick 12… 2.4 s` (or `cancelling tick 12…`).
    pub fn text(&self) -> String {
        let what = if self.cancelling {
            "cancelling"
        } else {
            "computing"
        };
        format!(
            "{what} {} {}… {:.1} s",
            self.noun,
            self.step,
            self.elapsed.as_secs_f32()
        )
    }
}

impl EditorState {
    /// Play: starts the play session, or says why not and shows where.
    pub(super) fn play_start(&mut self) {
        self.doc.map_mut().stroke_cancel();
        self.check_now();
        let errors: Vec<Problem> = self
            .problems
            .iter()
            .filter(|p| p.is_error())
            .cloned()
            .collect();
        // A kind whose check reports what play shows (`KindDoc::play_shows_errors`: a falling
        // script that fails in its first frame) plays whatever its engine starts.
        let refused = match errors.first() {
            Some(_) if !self.doc.play_shows_errors() => Err(Vec::new()),
            _ => self.doc.start_play(0),
        };
        if let Err(p) = refused {
            let first = errors.first().or(p.first());
            // The engine would refuse it, or did: say why and show where.
            self.status = format!(
                "cannot play: {} ({} error(s); see the problems list)",
                first.map_or("the level has errors", |p| p.message.as_str()),
                errors.len().max(p.len())
            );
            if let Some(c) = first.and_then(problem_cell) {
                self.apply_action(Action::Locate(c));
            }
        }
    }

    /// Gives the play session (however it was started) the window's choice of
    /// [`EditorState::background_work`].
    pub(super) fn sync_background(&mut self) {
        let on = self.background_work;
        if let Some(p) = self.doc.play_mut() {
            p.background = on;
        }
    }

    /// The step computing on a worker thread, if any.
    pub fn step_busy(&self) -> Option<StepBusy> {
        let p = self.doc.play()?;
        let (step, started) = p.computing()?;
        Some(StepBusy {
            noun: self.doc.step_noun(),
            step,
            elapsed: Instant::now().saturating_duration_since(started),
            cancelling: p.cancelling(),
        })
    }

    /// Collects the step computing once it is done (each frame): the status bar says when
    /// it was cancelled or failed.
    pub fn poll_step(&mut self) {
        let Some(busy) = self.step_busy() else { return };
        if let Some(message) = self.doc.play_poll() {
            self.status = message;
        } else if self.step_busy().is_none() {
            self.status = format!(
                "{} {} computed in {:.1} s",
                busy.noun,
                busy.step,
                busy.elapsed.as_secs_f32()
            );
        }
        self.doc.refresh();
    }

    /// While a step computes, the game is on the worker: the actions that would read or
    /// change it wait (the status bar says so), Cancel stops the step, and stopping play
    /// drops it. View, file and other panels' actions go on.
    pub(super) fn step_refuses(&mut self, a: &Action) -> bool {
        let Some(busy) = self.step_busy() else {
            return false;
        };
        let refused = match a {
            Action::Play(PlayAction::CancelStep) => {
                if let Some(p) = self.doc.play_mut() {
                    p.cancel_step();
                }
                return true;
            }
            Action::Play(PlayAction::Stop | PlayAction::Speed(_) | PlayAction::Choose(_)) => false,
            // A frame's clock: nothing is owed while a step computes.
            Action::Play(PlayAction::Advance { .. }) => return true,
            Action::Play(_)
            | Action::Map(_)
            | Action::Kind(_)
            | Action::Campaign(_)
            | Action::ReplaceAll
            | Action::Inspect(_) => true,
            _ => false,
        };
        if refused {
            self.status = format!("{} (Esc cancels)", busy.text());
        }
        refused
    }
}

//! Observation of a tick: phases, rule firings and changed cells.
//!
//! The tick is generic over a [`TickObserver`] whose methods all default to doing nothing, so
//! plain play pays nothing for the debugger and the rule attribution (the idea of ripgrep's
//! `Sink`). [`Collector`] is the observer behind [`crate::game::StepReport`].

use serde::Serialize;

use crate::grid::Pos;

/// One phase of a step. Boulder runs `Reset`, then `Pre(i)` for each `pre` rule, then the main
/// rules as `Main("player")`, `Main("gravity")`, `Main("enemies")`, `Main("slime")`,
/// `Main("explosions")`, then `Post(i)` for each `post` rule (spec boulder §4.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Phase {
    /// Reset of the values (boulder §4.3).
    Reset,
    /// The `pre` rule with this 0-based index.
    Pre(usize),
    /// A main rule, by name.
    Main(&'static str),
    /// The `post` rule with this 0-based index.
    Post(usize),
}

impl Phase {
    /// The trace label: `reset`, `pre`, `main:gravity`, `post`.
    pub fn label(&self) -> String {
        match self {
            Phase::Reset => "reset".into(),
            Phase::Pre(_) => "pre".into(),
            Phase::Main(m) => format!("main:{m}"),
            Phase::Post(_) => "post".into(),
        }
    }

    /// The rule index for `Pre`/`Post`, `None` otherwise.
    pub fn rule_index(&self) -> Option<usize> {
        match self {
            Phase::Pre(i) | Phase::Post(i) => Some(*i),
            _ => None,
        }
    }
}

/// Receives the events of a tick. Every method has an empty default.
pub trait TickObserver {
    /// A phase starts.
    fn phase_begin(&mut self, _phase: Phase) {}
    /// A level rule matched a window whose position 0 is `at`.
    fn rule_fired(&mut self, _phase: Phase, _at: Pos) {}
    /// A phase ended; `changed` are the cells it changed, row-major (top row first).
    fn phase_end(&mut self, _phase: Phase, _changed: &[Pos]) {}
    /// Whether [`TickObserver::phase_end`] wants the changed cells; false skips collecting them.
    fn wants_changes(&self) -> bool {
        true
    }
}

/// The observer that ignores everything.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoObserver;
impl TickObserver for NoObserver {
    fn wants_changes(&self) -> bool {
        false
    }
}

/// An observer that keeps every event: the rule firings per phase and the cells each phase
/// changed.
#[derive(Debug, Default, Clone)]
pub struct Collector {
    /// `(phase, match positions)` for every rule phase that fired at least once.
    pub fired: Vec<(Phase, Vec<Pos>)>,
    /// `(phase, changed cells)` for every phase that changed something.
    pub changed: Vec<(Phase, Vec<Pos>)>,
}

impl TickObserver for Collector {
    fn rule_fired(&mut self, phase: Phase, at: Pos) {
        match self.fired.last_mut() {
            Some((p, v)) if *p == phase => v.push(at),
            _ => self.fired.push((phase, vec![at])),
        }
    }

    fn phase_end(&mut self, phase: Phase, changed: &[Pos]) {
        if !changed.is_empty() {
            self.changed.push((phase, changed.to_vec()));
        }
    }
}

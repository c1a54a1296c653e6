//! Boulder's play extras around the generic [`PlaySession`]: the rule editor's session
//! switches and the tick debugger.
//!
//! The generic session steps the game through `dyn Game` and keeps the inputs and the play
//! clock (5 ticks/s for boulder, from `GameKind::steps_per_second`). [`BoulderPlay`] adds what
//! only the boulder engine offers, reaching the concrete [`BoulderGame`] behind `dyn Game`:
//! the session also carries the rule editor's session switches (rules switched off,
//! breakpoints) and the tick debugger ([`TickDebug`]): a tick computed one phase at a time,
//! with a clone of the game taken at the tick's start so "previous phase" can restore it and
//! re-run up to the phase before. Every tick keeps its per-phase records (which fields each
//! phase changed, before and after) for the cell history.

use std::collections::BTreeSet;

use tilesmith_engine::kind::boulder::game::PhaseRecord;
use tilesmith_engine::kind::boulder::{BoulderGame, BoulderLevel, Cell, Global};
use tilesmith_engine::observe::{Collector, Phase};
use tilesmith_engine::{Game as _, Input, Pos, StepReport};

use super::rules::{RuleList, RuleRef};
use crate::doc::play::PlaySession;
use crate::doc::step_job::StepOutcome;

/// A tick being computed phase by phase in the tick debugger.
#[derive(Clone, Debug)]
pub struct TickDebug {
    /// The game as it was before the tick began (restored by "previous phase").
    start: Box<BoulderGame>,
    /// The tick's input.
    pub input: Input,
    /// Every phase of the tick, in order.
    pub phases: Vec<Phase>,
    /// How many phases have run (0 = none yet; `phases.len()` = all).
    pub done: usize,
    /// For each phase run, in order: the phase and the fields it changed (before, after).
    pub records: Vec<PhaseRecord>,
    collector: Collector,
}

impl TickDebug {
    /// The phase run last, with what it changed.
    pub fn last(&self) -> Option<&PhaseRecord> {
        self.done.checked_sub(1).and_then(|i| self.records.get(i))
    }

    /// How many windows the rule of `phase` matched in this tick so far (0 for other phases).
    pub fn matches(&self, phase: Phase) -> usize {
        self.collector
            .fired
            .iter()
            .filter(|(p, _)| *p == phase)
            .map(|(_, at)| at.len())
            .sum()
    }

    /// The number of the tick being computed in this session (1 for the first; a design saved
    /// from a play state counts from there again).
    pub fn tick(&self) -> u64 {
        self.start.steps() + 1
    }
}

/// The rules with a breakpoint that fired in a tick, which made Run stop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BreakHit {
    /// The tick (1 for the first).
    pub tick: u64,
    /// Each breakpoint rule that fired, with its name and match positions.
    pub rules: Vec<(RuleRef, Option<String>, Vec<Pos>)>,
}

/// A short label of a phase: `reset`, `pre 2 "fire spreads"`, `main: gravity`, `post 0`.
pub fn phase_label(level: &BoulderLevel, phase: Phase) -> String {
    let named = |key: &str, i: usize, r: Option<&tilesmith_engine::kind::boulder::Rule>| match r
        .and_then(|r| r.name.as_deref())
    {
        Some(n) => format!("{key} {i} \"{n}\""),
        None => format!("{key} {i}"),
    };
    match phase {
        Phase::Reset => "reset of values".into(),
        Phase::Pre(i) => named("pre", i, level.pre.get(i)),
        Phase::Main(m) => format!("main: {m}"),
        Phase::Post(i) => named("post", i, level.post.get(i)),
    }
}

/// The rule a phase runs, if it is a level-rule phase.
pub fn phase_rule(phase: Phase) -> Option<RuleRef> {
    match phase {
        Phase::Pre(i) => Some(RuleRef::new(RuleList::Pre, i)),
        Phase::Post(i) => Some(RuleRef::new(RuleList::Post, i)),
        _ => None,
    }
}

/// A cell as text: `stone (loose 1, pushable 1)`.
pub fn cell_text(c: &Cell) -> String {
    use tilesmith_engine::kind::boulder::ValueKey;
    let values: Vec<String> = ValueKey::ALL
        .iter()
        .filter(|k| c.get(**k) != 0)
        .map(|k| format!("{} {}", k.name(), c.get(*k)))
        .collect();
    if values.is_empty() {
        c.token.name().to_string()
    } else {
        format!("{} ({})", c.token.name(), values.join(", "))
    }
}

/// A boulder game being played: the generic session plus the tick debugger, the rule
/// switches and breakpoints, and the per-phase records of the last tick.
#[derive(Debug)]
pub struct BoulderPlay {
    /// The generic session (game, inputs, clock, last report).
    pub session: PlaySession,
    /// The fired-rules entry under the pointer, as an index into the last report's list.
    pub hovered_rule: Option<usize>,
    /// The last tick's per-phase records (phases that changed something), for the cell history.
    pub records: Vec<PhaseRecord>,
    /// The tick being computed phase by phase, if any.
    pub debug: Option<TickDebug>,
    /// Rules switched off in this session.
    pub disabled: BTreeSet<RuleRef>,
    /// Rules whose firing stops Run.
    pub breakpoints: BTreeSet<RuleRef>,
    /// The breakpoints that stopped the last tick, if any.
    pub break_hit: Option<BreakHit>,
}

/// The boulder game behind the session's `dyn Game`.
fn boulder(s: &PlaySession) -> &BoulderGame {
    s.game
        .as_any()
        .downcast_ref::<BoulderGame>()
        .expect("a boulder session runs a BoulderGame")
}

fn boulder_mut(s: &mut PlaySession) -> &mut BoulderGame {
    s.game
        .as_any_mut()
        .downcast_mut::<BoulderGame>()
        .expect("a boulder session runs a BoulderGame")
}

impl BoulderPlay {
    /// Starts a game of a copy of `level` with `seed`.
    pub fn new(level: BoulderLevel, seed: u64) -> Self {
        let design = level.to_json();
        let game = Box::new(BoulderGame::new(level, seed));
        let kind: &'static dyn tilesmith_engine::GameKind =
            &tilesmith_engine::kind::boulder::Boulder;
        Self {
            session: PlaySession::with_game(kind, game, design, seed),
            hovered_rule: None,
            records: Vec::new(),
            debug: None,
            disabled: BTreeSet::new(),
            breakpoints: BTreeSet::new(),
            break_hit: None,
        }
    }

    /// The running game.
    pub fn game(&self) -> &BoulderGame {
        boulder(&self.session)
    }

    fn game_mut(&mut self) -> &mut BoulderGame {
        boulder_mut(&mut self.session)
    }

    /// The last step's report.
    pub fn report(&self) -> Option<&StepReport> {
        self.session.report.as_ref()
    }

    /// Sets the rules switched off (applied to the game) and the breakpoints.
    pub fn set_rules(&mut self, disabled: &BTreeSet<RuleRef>, breakpoints: &BTreeSet<RuleRef>) {
        self.disabled = disabled.clone();
        self.breakpoints = breakpoints.clone();
        let d = self.disabled.clone();
        Self::apply_disabled(self.game_mut(), &d);
    }

    fn apply_disabled(game: &mut BoulderGame, disabled: &BTreeSet<RuleRef>) {
        let (pre, post) = (game.level().pre.len(), game.level().post.len());
        for (list, n) in [(RuleList::Pre, pre), (RuleList::Post, post)] {
            for i in 0..n {
                let r = RuleRef::new(list, i);
                game.set_rule_enabled(r.is_post(), i, !disabled.contains(&r));
            }
        }
    }

    /// Switches a rule on or off for the rest of the session.
    pub fn set_rule_on(&mut self, r: RuleRef, on: bool) {
        if on {
            self.disabled.remove(&r);
        } else {
            self.disabled.insert(r);
        }
        self.game_mut().set_rule_enabled(r.is_post(), r.index, on);
    }

    /// A number that changes whenever the board may have changed.
    pub fn version(&self) -> u64 {
        self.session.version()
    }

    /// Computes one tick with `input`. Does nothing once the game is over. While a tick is
    /// being debugged, finishes that tick instead. The game's undo and restart inputs go
    /// back.
    pub fn step(&mut self, input: Input) {
        if self.debug.is_some() {
            self.finish_tick();
            return;
        }
        if matches!(input, Input::Undo | Input::Restart) {
            self.forget_tick();
            self.session.step(input);
            return;
        }
        if !self.session.begin_step(input) {
            return;
        }
        let outcome =
            self.session.compute(
                move |g| match g.as_any_mut().downcast_mut::<BoulderGame>() {
                    Some(b) => b.step_detailed(input),
                    None => (g.step(input), Vec::new()),
                },
            );
        if let Some(o) = outcome {
            self.take_outcome(o);
        }
    }

    /// Collects the tick computing on a worker thread once it is done; the words for the
    /// status bar when it was not computed (see [`crate::doc::KindDoc::play_poll`]).
    pub fn poll(&mut self) -> Option<String> {
        let o = self.session.poll::<(StepReport, Vec<PhaseRecord>)>()?;
        self.take_outcome(o)
    }

    fn take_outcome(&mut self, o: StepOutcome<(StepReport, Vec<PhaseRecord>)>) -> Option<String> {
        match o {
            StepOutcome::Done((report, records)) => {
                self.records = records;
                self.ticked(report);
                None
            }
            StepOutcome::Cancelled => Some("cancelled".into()),
            StepOutcome::Failed(e) => Some(format!("failed: {e}")),
        }
    }

    /// After a tick: keep its report, check the breakpoints, stop at the end of the game.
    fn ticked(&mut self, report: StepReport) {
        let hits: Vec<(RuleRef, Option<String>, Vec<Pos>)> = report
            .fired
            .iter()
            .filter_map(|f| {
                let r = phase_rule(f.phase)?;
                self.breakpoints
                    .contains(&r)
                    .then(|| (r, f.name.clone(), f.at.clone()))
            })
            .collect();
        self.break_hit = (!hits.is_empty()).then_some(BreakHit {
            tick: report.step,
            rules: hits,
        });
        self.hovered_rule = None;
        self.session.end_step(report);
        if self.break_hit.is_some() {
            self.session.running = false;
        }
    }

    /// Drops what describes the last tick (after undo, redo, scrubbing).
    fn forget_tick(&mut self) {
        self.abort_tick();
        self.session.forget();
        self.records.clear();
        self.break_hit = None;
        self.hovered_rule = None;
    }

    /// Undoes one tick; false at tick 0. While a tick is being debugged, only drops that tick.
    pub fn back(&mut self) -> bool {
        self.session.running = false;
        if self.debug.is_some() {
            self.forget_tick();
            return true;
        }
        self.forget_tick();
        self.session.back()
    }

    /// Redoes one undone tick; false when there is none.
    pub fn forward(&mut self) -> bool {
        self.forget_tick();
        self.session.forward()
    }

    /// Goes back or forward in the history to tick `t` (clamped to what exists).
    pub fn scrub(&mut self, t: u64) {
        self.forget_tick();
        self.session.scrub(t);
    }

    /// Begins a tick with `input` in the tick debugger: no phase runs yet. False when the
    /// game is over or a tick is already being debugged.
    pub fn step_into(&mut self, input: Input) -> bool {
        if self.debug.is_some() || self.game().status().is_over() {
            return false;
        }
        self.session.running = false;
        let start = Box::new(self.game().clone());
        if !self.game_mut().begin_tick(input) {
            return false;
        }
        self.debug = Some(TickDebug {
            start,
            input,
            phases: self.game().phases(),
            done: 0,
            records: Vec::new(),
            collector: Collector::default(),
        });
        self.session.forget();
        self.records.clear();
        self.break_hit = None;
        self.hovered_rule = None;
        true
    }

    /// Runs the next phase of the debugged tick; false when none is left.
    pub fn next_phase(&mut self) -> bool {
        let game = boulder_mut(&mut self.session);
        let Some(d) = &mut self.debug else {
            return false;
        };
        let Some(phase) = game.run_next_phase(&mut d.collector) else {
            return false;
        };
        d.records.push((phase, game.last_phase_changes()));
        d.done += 1;
        self.session.touch();
        true
    }

    /// Goes to the state after `n` phases of the debugged tick (0 = none run): forward by
    /// running phases, backward by restoring the tick's start and re-running `n` phases.
    pub fn goto_phase(&mut self, n: usize) {
        let Some(d) = &mut self.debug else { return };
        let n = n.min(d.phases.len());
        if n < d.done {
            let mut game = (*d.start).clone();
            Self::apply_disabled(&mut game, &self.disabled);
            game.begin_tick(d.input);
            d.phases = game.phases();
            d.done = 0;
            d.records.clear();
            d.collector = Collector::default();
            *boulder_mut(&mut self.session) = game;
        }
        while self.debug.as_ref().is_some_and(|d| d.done < n) && self.next_phase() {}
        self.session.touch();
    }

    /// Goes back one phase of the debugged tick.
    pub fn prev_phase(&mut self) {
        if let Some(d) = &self.debug
            && d.done > 0
        {
            self.goto_phase(d.done - 1);
        }
    }

    /// Runs the debugged tick's remaining phases and ends it, like a whole tick: it is
    /// recorded for undo and replays, and reported (fired rules, changed cells, breakpoints).
    pub fn finish_tick(&mut self) {
        let Some(len) = self.debug.as_ref().map(|d| d.phases.len()) else {
            return;
        };
        self.goto_phase(len);
        let Some(mut d) = self.debug.take() else {
            return;
        };
        let changed = self
            .game_mut()
            .finish_tick(&mut d.collector)
            .unwrap_or_default();
        let n = d.start.steps() as usize;
        self.session.inputs.truncate(n);
        self.session.inputs.push(d.input);
        let report = self.game().report(changed, d.collector);
        self.records = d
            .records
            .into_iter()
            .filter(|(_, c)| !c.is_empty())
            .collect();
        self.ticked(report);
    }

    /// Drops the debugged tick: the game is back as it was before it began.
    pub fn abort_tick(&mut self) {
        if let Some(d) = self.debug.take() {
            let mut game = *d.start;
            Self::apply_disabled(&mut game, &self.disabled);
            *self.game_mut() = game;
            self.session.touch();
        }
    }

    /// The cells to outline: what the last debugged phase changed, else what the last tick
    /// changed.
    pub fn highlight(&self) -> Vec<Pos> {
        match &self.debug {
            Some(d) => d
                .last()
                .map(|(_, c)| c.iter().map(|(p, _, _)| *p).collect())
                .unwrap_or_default(),
            None => self
                .session
                .report
                .as_ref()
                .map(|r| r.changed.clone())
                .unwrap_or_default(),
        }
    }

    /// The cell history of `pos`: each phase of the last tick (or of the debugged tick so far)
    /// that changed it, with the field before and after.
    pub fn cell_history(&self, pos: Pos) -> Vec<(Phase, Cell, Cell)> {
        let records = match &self.debug {
            Some(d) => &d.records,
            None => &self.records,
        };
        records
            .iter()
            .filter_map(|(phase, changes)| {
                changes
                    .iter()
                    .find(|(p, _, _)| *p == pos)
                    .map(|(_, b, a)| (*phase, *b, *a))
            })
            .collect()
    }

    /// Gems collected so far (the `gems` global).
    pub fn gems(&self) -> u32 {
        self.game().globals()[Global::Gems as usize]
    }

    /// Ticks left before the 1-point limit runs out (0 when past it).
    pub fn time_left(&self) -> u32 {
        let t = self.game().globals()[Global::Ticks as usize];
        self.game().level().ticks[0].saturating_sub(t)
    }

    /// The status in a few words: `running`, `won (2 points)`, `lost: …`.
    pub fn status_text(&self) -> String {
        self.session.status_text()
    }

    /// Ticks per second at speed 1 (spec boulder §4.2, from the engine's kind).
    pub fn ticks_per_second(&self) -> f64 {
        self.session.kind.steps_per_second()
    }
}

//! The play session: a running game started from the design, separate from the edits.
//!
//! The session owns a [`BoulderGame`] built from a copy of the level; nothing here touches the
//! design. Ticks run at the kind's speed (5 ticks/s for boulder) times a speed factor; the
//! inputs are kept (one per tick) so a session can be recorded as a replay.
//!
//! The session also carries the rule editor's session switches (rules switched off,
//! breakpoints) and the tick debugger ([`TickDebug`]): a tick computed one phase at a time,
//! with a clone of the game taken at the tick's start so "previous phase" can restore it and
//! re-run up to the phase before. Every tick keeps its per-phase records (which fields each
//! phase changed, before and after) for the cell history.

use std::collections::BTreeSet;

use tilesmith_engine::kind::boulder::game::PhaseRecord;
use tilesmith_engine::kind::boulder::{BoulderGame, BoulderLevel, Cell, Global};
use tilesmith_engine::observe::{Collector, Phase};
use tilesmith_engine::replay::{Replay, ReplayLevel};
use tilesmith_engine::{Game as _, Input, Pos, Status, StepReport};

use crate::rules::{RuleList, RuleRef};

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

/// Boulder runs at 5 ticks per second (spec boulder §4.2).
pub const TICKS_PER_SECOND: f64 = 5.0;
/// The most ticks one frame may compute while running (so a slow frame cannot stall).
pub const MAX_TICKS_PER_FRAME: usize = 8;

/// A game being played in the play pane.
#[derive(Debug)]
pub struct PlaySession {
    /// The running game.
    pub game: BoulderGame,
    /// The RNG seed it started with.
    pub seed: u64,
    /// The input of every tick computed or undone-but-redoable, tick 1 first.
    pub inputs: Vec<Input>,
    /// What the last step changed (cleared by undo and scrubbing).
    pub report: Option<StepReport>,
    /// True while ticks run by themselves.
    pub running: bool,
    /// Speed factor (1 = the game's speed).
    pub speed: f32,
    /// The input used by "Step" and while running when no arrow key is held.
    pub chosen: Input,
    /// Fractional ticks owed while running.
    acc: f64,
    /// The fired-rules entry under the pointer, as an index into `report.fired`.
    pub hovered_rule: Option<usize>,
    /// Changes whenever the board may have changed (unique across sessions), for caches.
    version: u64,
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

fn next_version() -> u64 {
    static V: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    V.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl PlaySession {
    /// Starts a game of a copy of `level` with `seed`.
    pub fn new(level: BoulderLevel, seed: u64) -> Self {
        Self {
            game: BoulderGame::new(level, seed),
            seed,
            inputs: Vec::new(),
            report: None,
            running: false,
            speed: 1.0,
            chosen: Input::Wait,
            acc: 0.0,
            hovered_rule: None,
            version: next_version(),
            records: Vec::new(),
            debug: None,
            disabled: BTreeSet::new(),
            breakpoints: BTreeSet::new(),
            break_hit: None,
        }
    }

    /// Sets the rules switched off (applied to the game) and the breakpoints.
    pub fn set_rules(&mut self, disabled: &BTreeSet<RuleRef>, breakpoints: &BTreeSet<RuleRef>) {
        self.disabled = disabled.clone();
        self.breakpoints = breakpoints.clone();
        Self::apply_disabled(&mut self.game, &self.disabled);
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
        self.game.set_rule_enabled(r.is_post(), r.index, on);
    }

    /// A number that changes whenever the board may have changed.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Computes one tick with `input`. Does nothing once the game is over. While a tick is
    /// being debugged, finishes that tick instead.
    pub fn step(&mut self, input: Input) {
        if self.debug.is_some() {
            self.finish_tick();
            return;
        }
        if self.game.status().is_over() {
            self.running = false;
            return;
        }
        let n = self.game.steps() as usize;
        self.inputs.truncate(n);
        self.inputs.push(input);
        let (report, records) = self.game.step_detailed(input);
        self.records = records;
        self.ticked(report);
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
        if self.break_hit.is_some() {
            self.running = false;
        }
        self.report = Some(report);
        self.version = next_version();
        self.hovered_rule = None;
        if self.game.status().is_over() {
            self.running = false;
        }
    }

    /// Drops what describes the last tick (after undo, redo, scrubbing).
    fn forget_tick(&mut self) {
        self.abort_tick();
        self.report = None;
        self.records.clear();
        self.break_hit = None;
        self.hovered_rule = None;
        self.version = next_version();
    }

    /// Undoes one tick; false at tick 0. While a tick is being debugged, only drops that tick.
    pub fn back(&mut self) -> bool {
        if self.debug.is_some() {
            self.forget_tick();
            return true;
        }
        self.forget_tick();
        self.game.undo()
    }

    /// Redoes one undone tick; false when there is none.
    pub fn forward(&mut self) -> bool {
        self.forget_tick();
        self.game.redo()
    }

    /// Goes back or forward in the history to tick `t` (clamped to what exists).
    pub fn scrub(&mut self, t: u64) {
        self.forget_tick();
        while self.game.steps() > t && self.back() {}
        while self.game.steps() < t && self.forward() {}
    }

    /// Begins a tick with `input` in the tick debugger: no phase runs yet. False when the
    /// game is over or a tick is already being debugged.
    pub fn step_into(&mut self, input: Input) -> bool {
        if self.debug.is_some() || self.game.status().is_over() {
            return false;
        }
        self.running = false;
        let start = Box::new(self.game.clone());
        if !self.game.begin_tick(input) {
            return false;
        }
        self.debug = Some(TickDebug {
            start,
            input,
            phases: self.game.phases(),
            done: 0,
            records: Vec::new(),
            collector: Collector::default(),
        });
        self.report = None;
        self.records.clear();
        self.break_hit = None;
        self.hovered_rule = None;
        self.version = next_version();
        true
    }

    /// Runs the next phase of the debugged tick; false when none is left.
    pub fn next_phase(&mut self) -> bool {
        let Some(d) = &mut self.debug else {
            return false;
        };
        let Some(phase) = self.game.run_next_phase(&mut d.collector) else {
            return false;
        };
        d.records.push((phase, self.game.last_phase_changes()));
        d.done += 1;
        self.version = next_version();
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
            self.game = game;
        }
        while self.debug.as_ref().is_some_and(|d| d.done < n) && self.next_phase() {}
        self.version = next_version();
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
        let changed = self.game.finish_tick(&mut d.collector).unwrap_or_default();
        let n = d.start.steps() as usize;
        self.inputs.truncate(n);
        self.inputs.push(d.input);
        let report = self.game.report(changed, d.collector);
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
            self.game = *d.start;
            Self::apply_disabled(&mut self.game, &self.disabled);
            self.version = next_version();
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

    /// The number of ticks in the history (applied plus redoable).
    pub fn history_len(&self) -> u64 {
        self.game.steps() + self.game.redo_len() as u64
    }

    /// Advances time by `dt` seconds while running: computes the ticks due, each with `held`
    /// (the arrow held on the keyboard) or else the chosen input.
    pub fn advance(&mut self, dt: f64, held: Option<Input>) {
        if !self.running {
            self.acc = 0.0;
            return;
        }
        self.acc += dt.max(0.0) * TICKS_PER_SECOND * self.speed as f64;
        let mut n = 0;
        while self.acc >= 1.0 && n < MAX_TICKS_PER_FRAME && self.running {
            self.acc -= 1.0;
            self.step(held.unwrap_or(self.chosen));
            n += 1;
        }
        if n == MAX_TICKS_PER_FRAME {
            self.acc = 0.0;
        }
    }

    /// Gems collected so far (the `gems` global).
    pub fn gems(&self) -> u32 {
        self.game.globals()[Global::Gems as usize]
    }

    /// Ticks left before the 1-point limit runs out (0 when past it).
    pub fn time_left(&self) -> u32 {
        let t = self.game.globals()[Global::Ticks as usize];
        self.game.level().ticks[0].saturating_sub(t)
    }

    /// The status in a few words: `running`, `won (2 points)`, `lost: …`.
    pub fn status_text(&self) -> String {
        match self.game.status() {
            Status::Running => "running".into(),
            Status::Won { points } => format!("won ({points} point(s))"),
            Status::Lost { reason } => format!("lost: {reason}"),
        }
    }

    /// The session as a replay (see `tilesmith_engine::replay`): the level (`level_file` when
    /// given, else embedded), the seed, the inputs of the ticks played and the final state's
    /// hash and status.
    pub fn replay(&self, level_file: Option<&std::path::Path>) -> Replay {
        let n = self.game.steps() as usize;
        let level = match level_file {
            Some(f) => ReplayLevel::Path(f.to_path_buf()),
            None => ReplayLevel::Embedded(self.game.level().to_json()),
        };
        Replay {
            level,
            seed: self.seed,
            inputs: self.inputs.iter().take(n).copied().collect(),
            ticks: n as u64,
            hash: None,
            status: None,
            summary: None,
            source: None,
        }
        .recorded(&self.game)
    }
}

//! A running boulder game: the tick (spec boulder §4.2), its phases, and undo/redo of ticks.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng as _;
use serde_json::{Value, json};

use super::board::{Board, Saved, TOKEN_FIELD};
use super::level::{BoulderLevel, Cell, MAX_TICK_COUNT};
use super::rules::CompiledRule;
use super::token::{Global, Globals, Token, ValueKey};
use tilesmith_core::game::{Game, GameKind, Layer, RuleFiring, Status, StepReport};
use tilesmith_core::grid::Pos;
use tilesmith_core::history::{History, Patch, Trim};
use tilesmith_core::input::Input;
use tilesmith_core::observe::{Collector, NoObserver, Phase, TickObserver};

mod estimate;
mod search;
pub use estimate::{Bound, Safety};
pub use search::BoulderSearch;

/// One phase of a recorded tick: the phase and each field it changed as
/// `(position, before, after)`, row-major.
pub type PhaseRecord = (Phase, Vec<(Pos, Cell, Cell)>);

/// The main rules, in the order they run (§6 P3).
pub const MAIN_PHASES: [&str; 5] = ["player", "gravity", "enemies", "slime", "explosions"];

/// What undoing one tick needs: the other side of everything the tick changed.
#[derive(Clone, Debug)]
struct TickPatch {
    cells: Vec<Saved>,
    globals: Globals,
    rng: ChaCha8Rng,
    status: Status,
    tick: u64,
}

impl Patch for TickPatch {
    /// The bytes this patch holds: the record itself and 12 per changed field ([`Saved`]).
    /// (The few bytes of a lost game's reason are left out: undo and redo swap the status,
    /// and the count must not change when they do.)
    fn bytes(&self) -> usize {
        std::mem::size_of::<TickPatch>() + self.cells.capacity() * std::mem::size_of::<Saved>()
    }
}

/// How the history drops ticks: the oldest applied first, then the redoable ones, newest
/// first, down to none.
const TRIM: Trim = Trim {
    min_kept: 0,
    drop_redoable: true,
};

/// A tick being computed phase by phase.
#[derive(Clone, Debug)]
struct OpenTick {
    input: Input,
    globals: Globals,
    rng: ChaCha8Rng,
    status: Status,
    next_phase: usize,
}

/// A boulder game in play.
///
/// The map is a [`Board`]; the globals `gems`, `ticks`, `x`, `y`, `z` are kept apart. A tick is
/// the phases of [`BoulderGame::phases`]; [`BoulderGame::tick_with`] runs them all, and the
/// phase-by-phase API ([`BoulderGame::begin_tick`], [`BoulderGame::run_next_phase`],
/// [`BoulderGame::finish_tick`]) runs them one at a time for the debugger, with the same result.
#[derive(Clone, Debug)]
pub struct BoulderGame {
    pub(super) level: BoulderLevel,
    pre: Vec<CompiledRule>,
    post: Vec<CompiledRule>,
    disabled_pre: Vec<bool>,
    disabled_post: Vec<bool>,
    pub(super) board: Board,
    pub(super) globals: Globals,
    /// Ticks computed so far (the internal counter, which rules cannot change).
    tick: u64,
    /// The tick counter when the game began (a saved state's `tick_count`, else 0).
    start_tick: u64,
    pub(super) rng: ChaCha8Rng,
    status: Status,
    pub(super) entered_exit: bool,
    pub(super) explosions_at_start: Vec<usize>,
    /// The undo history: one patch per tick, its budget [`Game::set_history_budget`], its
    /// step limit [`BoulderGame::set_history_limit`].
    history: History<TickPatch>,
    /// The RNG as the game began, for a restart after ticks were dropped.
    start_rng: ChaCha8Rng,
    open: Option<OpenTick>,
    /// Abandons a tick between its phases ([`Game::set_cancel_flag`]).
    cancel: Option<Arc<AtomicBool>>,
}

impl BoulderGame {
    /// Starts a game of `level` with RNG seed `seed`. The globals start from the level's
    /// `"state"` when it has one, else at 0; a saved [`Clock`](super::level::Clock) sets the
    /// tick counter and the RNG (its saved generator replaces `seed`).
    pub fn new(level: BoulderLevel, seed: u64) -> Self {
        let board = Board::new(&level.map);
        let pre = level.pre.iter().map(CompiledRule::new).collect::<Vec<_>>();
        let post = level.post.iter().map(CompiledRule::new).collect::<Vec<_>>();
        let rng = match level.clock.and_then(|c| c.rng) {
            Some((s, word)) => {
                let mut r = ChaCha8Rng::from_seed(s);
                r.set_word_pos(word);
                r
            }
            None => ChaCha8Rng::seed_from_u64(seed),
        };
        Self {
            disabled_pre: vec![false; pre.len()],
            disabled_post: vec![false; post.len()],
            pre,
            post,
            board,
            globals: level.state.unwrap_or([0; 5]),
            tick: level.clock.map_or(0, |c| c.tick_count),
            start_tick: level.clock.map_or(0, |c| c.tick_count),
            start_rng: rng.clone(),
            rng,
            status: level.status.clone().unwrap_or(Status::Running),
            level,
            entered_exit: false,
            explosions_at_start: Vec::new(),
            history: History::new(tilesmith_core::game::DEFAULT_HISTORY_BYTES, TRIM),
            open: None,
            cancel: None,
        }
    }

    /// Back to the state the game began in, without undoing tick by tick: the map from the
    /// level, its globals, clock, RNG and status. The history is emptied (nothing to redo).
    /// Used by a restart after old ticks were dropped from the history.
    fn rebuild_start(&mut self) {
        self.board = Board::new(&self.level.map);
        self.globals = self.level.state.unwrap_or([0; 5]);
        self.tick = self.start_tick;
        self.rng = self.start_rng.clone();
        self.status = self.level.status.clone().unwrap_or(Status::Running);
        self.entered_exit = false;
        self.explosions_at_start.clear();
        self.open = None;
        self.history.clear();
    }

    /// Applies only the value reset of §4.3 to the live map, outside any tick and without
    /// recording undo: the state the first tick's rules see. Used by rule previews.
    pub fn reset_for_preview(&mut self) {
        self.reset_values();
        self.board.end_tick();
    }

    /// The level this game started from.
    pub fn level(&self) -> &BoulderLevel {
        &self.level
    }

    /// The live map.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The globals, indexed by [`Global`].
    pub fn globals(&self) -> Globals {
        self.globals
    }

    /// Ticks computed so far (the internal counter; the `ticks` global may differ when rules
    /// change it).
    pub fn tick_count(&self) -> u64 {
        self.tick
    }

    /// Switches a rule off (`on == false`) or on for this game only. `post` selects the list.
    /// Out-of-range indices are ignored.
    pub fn set_rule_enabled(&mut self, post: bool, index: usize, on: bool) {
        let list = if post {
            &mut self.disabled_post
        } else {
            &mut self.disabled_pre
        };
        if let Some(d) = list.get_mut(index) {
            *d = !on;
        }
    }

    /// The phases of one tick, in order: reset, each `pre` rule, the main rules, each `post`
    /// rule (§4.2).
    pub fn phases(&self) -> Vec<Phase> {
        let mut v = vec![Phase::Reset];
        v.extend((0..self.pre.len()).map(Phase::Pre));
        v.extend(MAIN_PHASES.iter().map(|m| Phase::Main(m)));
        v.extend((0..self.post.len()).map(Phase::Post));
        v
    }

    /// The points for the current gems and ticks: the largest k with `gems ≥ gems[k−1]` and
    /// `ticks ≤ ticks[k−1]`, or 0 (§5, §6 W4).
    pub fn points(&self) -> u32 {
        super::level::points_of(self.globals, self.level.gems, self.level.ticks)
    }

    /// Starts a tick with `input`. Returns false (and does nothing) when the game is over, a
    /// tick is already open, or the tick counter is at [`MAX_TICK_COUNT`] (the largest a saved
    /// state may hold, so that every state can be saved and loaded again).
    pub fn begin_tick(&mut self, input: Input) -> bool {
        // At the largest tick count a saved state may hold, the clock stops: one more tick
        // could not be saved and loaded again.
        if self.status.is_over() || self.open.is_some() || self.tick >= MAX_TICK_COUNT as u64 {
            return false;
        }
        self.open = Some(OpenTick {
            input,
            globals: self.globals,
            rng: self.rng.clone(),
            status: self.status.clone(),
            next_phase: 0,
        });
        self.board.begin_tick();
        self.tick += 1;
        self.entered_exit = false;
        self.explosions_at_start = self.board.find(Token::Explosion.bit());
        true
    }

    /// True when `phase` does something in a tick with `input`: always for reset and the main
    /// rules; for a rule, when it is switched on and its situation holds in the next tick (or,
    /// during an open tick, the current one).
    pub fn rule_active(&self, phase: Phase, input: Input) -> bool {
        let tick = if self.open.is_some() {
            self.tick
        } else {
            self.tick + 1
        };
        match phase {
            Phase::Pre(i) => {
                !self.disabled_pre.get(i).copied().unwrap_or(true)
                    && self.pre[i].active(input, tick)
            }
            Phase::Post(i) => {
                !self.disabled_post.get(i).copied().unwrap_or(true)
                    && self.post[i].active(input, tick)
            }
            _ => true,
        }
    }

    /// The phase [`BoulderGame::run_next_phase`] would run, if a tick is open and has one left.
    pub fn next_phase(&self) -> Option<Phase> {
        let open = self.open.as_ref()?;
        self.phases().get(open.next_phase).copied()
    }

    /// Runs the next phase of the open tick. Returns the phase run, or `None` when no tick is
    /// open or all its phases ran.
    pub fn run_next_phase<O: TickObserver>(&mut self, obs: &mut O) -> Option<Phase> {
        let phase = self.next_phase()?;
        let input = self.open.as_ref()?.input;
        self.board.begin_phase(obs.wants_changes());
        obs.phase_begin(phase);
        match phase {
            Phase::Reset => self.reset_values(),
            Phase::Pre(i) => {
                if !self.disabled_pre[i] && self.pre[i].active(input, self.tick) {
                    self.pre[i].apply(&mut self.board, &mut self.globals, phase, obs);
                }
            }
            Phase::Post(i) => {
                if !self.disabled_post[i] && self.post[i].active(input, self.tick) {
                    self.post[i].apply(&mut self.board, &mut self.globals, phase, obs);
                }
            }
            Phase::Main("player") => self.player(input),
            Phase::Main("gravity") => self.gravity(),
            Phase::Main("enemies") => self.enemies(),
            Phase::Main("slime") => self.slime(),
            Phase::Main(_) => self.explosions(),
        }
        if obs.wants_changes() {
            let changed: Vec<Pos> = self
                .last_phase_changes()
                .into_iter()
                .map(|(p, _, _)| p)
                .collect();
            obs.phase_end(phase, &changed);
        }
        if let Some(o) = self.open.as_mut() {
            o.next_phase += 1;
        }
        Some(phase)
    }

    /// The fields the last phase run changed: `(position, before, after)`, row-major. Valid
    /// after [`BoulderGame::run_next_phase`] with an observer that wants changes (see
    /// [`TickObserver::wants_changes`]; empty otherwise) until the next phase starts; the tick
    /// debugger uses it for the per-cell history of a tick.
    pub fn last_phase_changes(&self) -> Vec<(Pos, Cell, Cell)> {
        let mut saved = self.board.phase_changes().to_vec();
        // Stable: each field appears once, so the order within a position does not matter.
        saved.sort_by_key(|s| s.index);
        let mut v = Vec::new();
        for group in saved.chunk_by(|a, b| a.index == b.index) {
            let i = group[0].index as usize;
            let after = self.board.cell(i);
            let mut before = after;
            for s in group {
                if s.field == TOKEN_FIELD {
                    before.token = Token::from_index(s.old as usize);
                } else {
                    before.values[s.field as usize] = s.old;
                }
            }
            if before != after {
                v.push((self.board.pos(i), before, after));
            }
        }
        v
    }

    /// Computes one tick phase by phase and returns, for every phase that changed anything,
    /// the phase and its `(position, before, after)` fields. Same result as a whole tick.
    /// Returns an empty list when the game is over.
    pub fn tick_recorded(&mut self, input: Input) -> Vec<PhaseRecord> {
        self.step_detailed(input).1
    }

    /// [`Game::step`] plus the per-phase records of [`BoulderGame::tick_recorded`]: what the
    /// play pane's tick debugger shows after each step (fired rules, changed fields, and each
    /// field's history through the phases).
    pub fn step_detailed(&mut self, input: Input) -> (StepReport, Vec<PhaseRecord>) {
        let mut records = Vec::new();
        if matches!(input, Input::Undo | Input::Restart) || !self.begin_tick(input) {
            return (self.step(input), records);
        }
        let mut c = Collector::default();
        while !self.cancel_requested()
            && let Some(phase) = self.run_next_phase(&mut c)
        {
            let changes = self.last_phase_changes();
            if !changes.is_empty() {
                records.push((phase, changes));
            }
        }
        match self.finish_tick(&mut c) {
            Some(changed) => (self.report(changed, c), records),
            None => (self.unchanged_report(), Vec::new()),
        }
    }

    /// The step report of the tick just finished, from the `changed` fields returned by
    /// [`BoulderGame::finish_tick`] and the [`Collector`] that observed the tick's phases.
    pub fn report(&self, changed: Vec<Pos>, c: Collector) -> StepReport {
        let fired = c
            .fired
            .into_iter()
            .map(|(phase, at)| {
                let name = match phase {
                    Phase::Pre(i) => self.level.pre.get(i).and_then(|r| r.name.clone()),
                    Phase::Post(i) => self.level.post.get(i).and_then(|r| r.name.clone()),
                    _ => None,
                };
                RuleFiring { phase, name, at }
            })
            .collect();
        StepReport {
            step: self.tick - self.start_tick,
            changed,
            fired,
            phases: c.changed,
        }
    }

    /// True when the cancel flag ([`Game::set_cancel_flag`]) is set.
    fn cancel_requested(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// Abandons the open tick: the board's journal of the tick is played back (the same
    /// patch an undo applies), and the globals, RNG, status and tick counter are those the
    /// tick began with. The history is untouched (the tick was never recorded).
    fn abort_open_tick(&mut self) {
        let Some(open) = self.open.take() else { return };
        let mut patch = self.board.end_tick();
        self.board.swap_patch(&mut patch);
        self.globals = open.globals;
        self.rng = open.rng;
        self.status = open.status;
        self.tick -= 1;
        self.entered_exit = false;
    }

    /// The report of a step that changed nothing (a cancelled tick).
    fn unchanged_report(&self) -> StepReport {
        StepReport {
            step: self.tick - self.start_tick,
            ..StepReport::default()
        }
    }

    /// Runs the open tick's remaining phases, then ends it: `ticks` goes up by one (§6 T2), the
    /// status is decided (§6 W1–W4), and the tick is recorded for undo. Returns the changed
    /// cells, or `None` when no tick was open. The cancel flag is read before each phase
    /// and once all ran: when it is set, the tick is abandoned
    /// (its phases are rolled back: the game is as before the tick) and `None` returned.
    pub fn finish_tick<O: TickObserver>(&mut self, obs: &mut O) -> Option<Vec<Pos>> {
        self.finish_tick_listing(obs, true)
    }

    /// [`BoulderGame::finish_tick`]; the list of changed cells is built only when `list` is
    /// true (else it is empty): a tick nobody reports on does not sort its journal.
    fn finish_tick_listing<O: TickObserver>(
        &mut self,
        obs: &mut O,
        list: bool,
    ) -> Option<Vec<Pos>> {
        while !self.cancel_requested() && self.run_next_phase(obs).is_some() {}
        if self.cancel_requested() {
            self.abort_open_tick();
            return None;
        }
        let open = self.open.take()?;
        let t = &mut self.globals[Global::Ticks as usize];
        *t = t.saturating_add(1);
        self.status = if self.entered_exit {
            match self.points() {
                0 => Status::Lost {
                    reason: "the exit was reached after the time limit".into(),
                },
                points => Status::won(points),
            }
        } else if self.board.count(Token::Me) == 0 {
            Status::Lost {
                reason: "the figure was destroyed".into(),
            }
        } else if self.globals[Global::Ticks as usize] > self.level.ticks[0] {
            Status::Lost {
                reason: "the time ran out".into(),
            }
        } else {
            Status::Running
        };
        let cells = self.board.end_tick();
        let changed: Vec<Pos> = if list {
            let mut indices: Vec<u32> = cells.iter().map(|s| s.index).collect();
            indices.sort_unstable();
            indices.dedup();
            indices
                .into_iter()
                .map(|i| self.board.pos(i as usize))
                .collect()
        } else {
            Vec::new()
        };
        let patch = TickPatch {
            cells,
            globals: open.globals,
            rng: open.rng,
            status: open.status,
            tick: self.tick - 1,
        };
        self.history.record(patch);
        Some(changed)
    }

    /// Computes one whole tick with `input`, reporting to `obs`. Returns the changed cells, or
    /// `None` when the game is over (nothing happens then).
    pub fn tick_with<O: TickObserver>(&mut self, input: Input, obs: &mut O) -> Option<Vec<Pos>> {
        if !self.begin_tick(input) {
            return None;
        }
        self.finish_tick(obs)
    }

    /// Computes one tick without observing it (the fast path used by benchmarks).
    pub fn tick(&mut self, input: Input) {
        if self.begin_tick(input) {
            self.finish_tick_listing(&mut NoObserver, false);
        }
    }

    fn swap(&mut self, i: usize) {
        let Some(p) = self.history.get_mut(i) else {
            return;
        };
        self.board.swap_patch(&mut p.cells);
        std::mem::swap(&mut self.globals, &mut p.globals);
        std::mem::swap(&mut self.rng, &mut p.rng);
        std::mem::swap(&mut self.status, &mut p.status);
        std::mem::swap(&mut self.tick, &mut p.tick);
    }

    /// Keeps at most `limit` ticks of undo history, dropping the oldest first (default: no
    /// limit but the byte budget of [`Game::set_history_budget`]). 0 turns recording off;
    /// a restart still returns to the start.
    pub fn set_history_limit(&mut self, limit: usize) {
        self.history.set_limit(limit);
    }

    /// The number of map fields (positions) the undo history holds changes of, counted once
    /// per recorded tick; its memory is proportional to [`BoulderGame::history_entries`].
    pub fn history_cells(&self) -> usize {
        self.history
            .iter()
            .map(|p| {
                let mut at: Vec<u32> = p.cells.iter().map(|s| s.index).collect();
                at.sort_unstable();
                at.dedup();
                at.len()
            })
            .sum()
    }

    /// The number of journal entries in the undo history: one per changed token or value of
    /// each recorded tick (12 bytes each, [`Saved`]).
    pub fn history_entries(&self) -> usize {
        self.history.iter().map(|p| p.cells.len()).sum()
    }

    /// Bytes held by the undo history: per recorded tick a constant (globals, RNG, status,
    /// counter; 400 bytes or so) plus 12 bytes per changed field ([`Saved`]). Kept as a running sum, so this
    /// costs nothing.
    pub fn history_bytes(&self) -> usize {
        self.history.bytes()
    }

    /// The current state as a level: the live map with its values and the globals in `state`.
    pub fn to_boulder_level(&self) -> BoulderLevel {
        let mut l = self.level.clone();
        l.map = self.board.to_grid();
        l.state = Some(self.globals);
        l.status = self.status.is_over().then(|| self.status.clone());
        l.clock = Some(super::level::Clock {
            tick_count: self.tick,
            rng: Some((self.rng.get_seed(), self.rng.get_word_pos())),
        });
        l
    }
}

impl Game for BoulderGame {
    fn kind(&self) -> &'static dyn GameKind {
        &super::Boulder
    }

    fn size(&self) -> (usize, usize) {
        (self.board.width(), self.board.height())
    }

    fn step(&mut self, input: Input) -> StepReport {
        match input {
            Input::Undo => {
                self.undo();
                return StepReport {
                    step: self.tick - self.start_tick,
                    ..StepReport::default()
                };
            }
            Input::Restart => {
                if self.history.trimmed() > 0 {
                    self.rebuild_start();
                } else {
                    while self.undo() {}
                }
                return StepReport {
                    step: self.tick - self.start_tick,
                    ..StepReport::default()
                };
            }
            _ => {}
        }
        let mut c = Collector::default();
        match self.tick_with(input, &mut c) {
            Some(changed) => self.report(changed, c),
            None => self.unchanged_report(),
        }
    }

    fn step_quiet(&mut self, input: Input) {
        match input {
            // Undo and restart build no report worth skipping.
            Input::Undo | Input::Restart => {
                let _ = self.step(input);
            }
            // The tick without an observer and without the sorted list of changed cells.
            _ => self.tick(input),
        }
    }

    fn undo(&mut self) -> bool {
        if self.open.is_some() {
            return false;
        }
        let Some(k) = self.history.undo_index() else {
            return false;
        };
        self.swap(k);
        true
    }

    fn redo(&mut self) -> bool {
        if self.open.is_some() {
            return false;
        }
        let Some(k) = self.history.redo_index() else {
            return false;
        };
        self.swap(k);
        true
    }

    fn steps(&self) -> u64 {
        // Steps of this game, not the ticks a saved state had computed before it was loaded.
        self.tick - self.start_tick
    }

    fn redo_len(&self) -> usize {
        self.history.redo_len()
    }

    fn history_bytes(&self) -> usize {
        self.history.bytes()
    }

    fn set_history_budget(&mut self, bytes: usize) {
        self.history.set_budget(bytes);
    }

    /// Honoured: the flag is read before each phase of a tick (reset, each `pre` rule, each
    /// main rule, each `post` rule) and at its end; a set flag abandons the tick.
    fn set_cancel_flag(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.cancel = flag;
    }

    fn history_trimmed(&self) -> u64 {
        self.history.trimmed()
    }

    fn status(&self) -> Status {
        self.status.clone()
    }

    fn summary(&self) -> Value {
        let g = |x: Global| self.globals[x as usize];
        let points = match self.status {
            Status::Won { points, .. } => points,
            _ => 0,
        };
        json!({
            "kind": "boulder",
            "status": self.status.word(),
            "ticks": g(Global::Ticks),
            "gems": g(Global::Gems),
            "points": points,
            "x": g(Global::X),
            "y": g(Global::Y),
            "z": g(Global::Z),
        })
    }

    fn to_level(&self) -> Value {
        self.to_boulder_level().to_json()
    }

    fn layers(&self, pos: Pos) -> Vec<Layer> {
        if pos.x >= self.board.width() || pos.y >= self.board.height() {
            return Vec::new();
        }
        let i = self.board.idx(pos);
        let t = self.board.token(i);
        let dir = if t.is_enemy() {
            tilesmith_core::grid::Dir::from_value(self.board.val(i, ValueKey::Direction))
        } else {
            None
        };
        vec![Layer {
            token: t.name().into(),
            dir,
        }]
    }

    fn searcher(&self) -> Option<Box<dyn tilesmith_core::search_game::SearchGame>> {
        (self.open.is_none()).then(|| {
            Box::new(BoulderSearch::new(self)) as Box<dyn tilesmith_core::search_game::SearchGame>
        })
    }

    fn state_hash(&self) -> u64 {
        let mut h = tilesmith_core::hash::Fnv::new();
        h.write_u64(self.board.width() as u64);
        h.write_u64(self.board.height() as u64);
        for i in 0..self.board.len() {
            h.write_u64(self.board.token(i) as u64);
            for v in self.board.values(i) {
                h.write_u64(v as u64);
            }
        }
        for g in self.globals {
            h.write_u64(g as u64);
        }
        h.write(self.status.word().as_bytes());
        h.finish()
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
        self
    }
}

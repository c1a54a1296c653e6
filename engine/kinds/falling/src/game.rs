//! A running falling-block game: one step is one frame (issue 10 "A frame"; spec falling-blocks
//! §3–§6, §10). See `docs/falling-semantics.md` for every choice made here.
//!
//! A frame, in order:
//! 1. the input moves, turns or drops the active tumo;
//! 2. the tumo falls by `timing.gravity`, and once it rests it is placed after `timing.lock`
//!    frames (its blocks become field blocks);
//! 3. the rules: the in-motion countdowns tick; a pending clear counts down and is carried out
//!    when it reaches 0 (no rule runs during a clear); otherwise the built-in rules and then
//!    the script's `update()` make [`Requests`], which are carried out at once, or, when they
//!    delete a block and `timing.clear` > 0, held as a pending clear. In the frame of a
//!    placement the fall laws go first: if they move a placed block (the hanging half of a
//!    split Puyo pair), that fall is the frame's rules pass, and the clear rules see the block
//!    only once it has landed;
//! 4. chain, score, rows; the goal; game over; and the next tumo spawns once the field has
//!    settled and `timing.spawn` frames have passed since the placement.
//!
//! Undo keeps, per frame, the cells and in-motion counters that changed and the small scalar
//! state (the queue, the bag and a pending clear only when they changed), so its memory is
//! proportional to what changed.
//!
//! Here: the state, the views for the editor and the [`Game`] trait. Beside it: `frame.rs`
//! (one frame: steps 1, 2 and 4), `rules.rs` (step 3), `sequence.rs` (drawing and spawning
//! tumos), `geometry.rs` (where a tumo's blocks lie and fit), `undo.rs` (the per-frame patch
//! and the history) and `save.rs` (the game as a level).

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng as _;
use serde_json::{Value, json};

use super::field::{
    Applied, BlockId, ClearStats, EMPTY, Field, Requests, RuleContext, apply_requests,
    builtin_update, puyo_step_score,
};
use super::fpgdl::{FieldView, Script, ScriptError};
use super::level::{
    BUFFER_ROWS, FallingLevel, GameOver, Goal, MAX_GRID, Order, QUICK_TURN_FRAMES, QueuedTumo,
    Role, ScoreRule,
};
use super::shape::{Turn, TurnResult, try_turn};
use tilesmith_core::game::{Game, GameKind, Layer, Status, StepReport};
use tilesmith_core::grid::{Dir, Pos};
use tilesmith_core::history::{self, History, Trim};
use tilesmith_core::input::Input;
use tilesmith_core::problem::{JsonPath, Problem};

mod frame;
mod geometry;
mod hash;
mod motion;
mod rules;
mod save;
pub mod search;
mod sequence;
mod undo;

use undo::{Patch, TRIM};

/// The active tumo's place: which tumo, its rotation state and where its grid's top-left
/// cell is (x = column, y = row from the top; may be negative where the grid is empty).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Place {
    tumo: usize,
    state: usize,
    x: i32,
    y: i32,
}

/// The scalar state of a game (copied into the undo journal every frame).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Small {
    frames: u64,
    score: u64,
    rows: u64,
    chain: u32,
    max_chain: u32,
    gravity_timer: u32,
    lock_timer: u32,
    since_place: u32,
    soft_drop_timer: u32,
    top_row_frames: u32,
    last_failed_turn: Option<(Turn, u64)>,
    placed_since_clear: bool,
    quiet: bool,
    fixed_next: usize,
    rng_word: u128,
    active: Option<Place>,
    /// The active tumo came from the hold slot: `H` waits for the next placement.
    hold_used: bool,
}

/// A clear in progress: the frame's requests, sparse, and the frames left.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Pending {
    frames: u32,
    delete: Vec<usize>,
    down: Vec<(usize, u32)>,
}

/// The rest of the state, journaled only in frames that change it.
#[derive(Clone, Debug, PartialEq)]
struct Big {
    labels: Vec<BlockId>,
    queue: VecDeque<QueuedTumo>,
    bag: VecDeque<usize>,
    pending: Option<Pending>,
    /// The hold slot (a level with `hold`).
    hold: Option<QueuedTumo>,
    status: Status,
    script_error: Option<ScriptError>,
    /// The script's error when the start was probed for settling (`starts_settled`), which
    /// play meets again in the first frame ([`FallingGame::probe_error`]).
    probe_error: Option<ScriptError>,
}

/// One clear event: the blocks of one frame's deletions (spec A6), with its chain number.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClearEvent {
    /// The chain number of this clear: 1 for the first clear after a placement.
    pub chain: u32,
    /// The cells whose blocks vanished, `(x, y)`, row-major.
    pub cells: Vec<(usize, usize)>,
    /// The points this clear scored.
    pub points: u64,
    /// What vanished (erased, garbage, colours, groups, whole rows).
    pub stats: ClearStats,
}

/// What happened in the last frame, for the play pane and tests.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FrameReport {
    /// The frame number (1 for the first frame of a level).
    pub frame: u64,
    /// The turn tried this frame, with every kick offset tested (for the kick display).
    pub turn: Option<TurnResult>,
    /// True when the turn was a quick turn (two states at once after a failed turn).
    pub quick_turn: bool,
    /// True when a hard drop placed the tumo.
    pub hard_drop: bool,
    /// True when `H` put the active tumo into the hold slot this frame.
    pub hold: bool,
    /// The blocks the placed tumo left in the field, `(x, y, kind)`; empty when nothing was
    /// placed.
    pub placed: Vec<(usize, usize, BlockId)>,
    /// The cells that began to vanish this frame (a pending clear started).
    pub clear_started: Vec<(usize, usize)>,
    /// The clear carried out this frame.
    pub clear: Option<ClearEvent>,
    /// Field blocks that fell this frame, `((x, y) from, (x, y) to)`, bottom rows first.
    pub fell: Vec<((usize, usize), (usize, usize))>,
    /// The tumo that spawned at the end of the frame, if any.
    pub spawned: Option<usize>,
    /// The script error that stopped the game this frame.
    pub script_error: Option<ScriptError>,
}

/// The active tumo as seen from outside.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActiveView {
    /// Index into the level's `tumos`.
    pub tumo: usize,
    /// The tumo's name.
    pub name: String,
    /// Rotation state.
    pub state: usize,
    /// Field column of the grid's left column.
    pub x: i32,
    /// Field row of the grid's top row.
    pub y: i32,
    /// The kind of each label, label 1 first.
    pub labels: Vec<BlockId>,
    /// The field cells its blocks cover, `(x, y, kind)`, sorted by y then x.
    pub cells: Vec<(usize, usize, BlockId)>,
}

/// A clear in progress, for drawing the vanish.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingClear {
    /// The cells whose blocks are vanishing, `(x, y)`, row-major.
    pub cells: Vec<(usize, usize)>,
    /// Frames left until they vanish (1 = next frame).
    pub frames_left: u32,
    /// The level's `timing.clear`, the length of the whole vanish.
    pub frames_total: u32,
}

/// A falling-block game in play (kind `falling`).
#[derive(Debug)]
pub struct FallingGame {
    level: FallingLevel,
    roles: Vec<Role>,
    script: Option<Script>,
    field: Field,
    /// Per cell: frames its block stays in motion (0 = settled).
    moving: Vec<u32>,
    s: Small,
    b: Big,
    rng: ChaCha8Rng,
    /// The field and counters as of the end of the last frame (to find what a frame changed).
    prev_cells: Vec<BlockId>,
    prev_moving: Vec<u32>,
    /// The undo history: one patch per frame, its budget [`Game::set_history_budget`], its
    /// step limit [`FallingGame::set_history_limit`].
    history: History<Patch>,
    /// The seed the game started with, for a restart after frames were dropped.
    seed: u64,
    start_frames: u64,
    report: FrameReport,
    req: Requests,
    mask: Vec<bool>,
    /// Abandons a frame while it computes ([`Game::set_cancel_flag`]).
    cancel: Option<Arc<AtomicBool>>,
    /// Per tumo and rotation state, the grid cells of its blocks `(x, y)`: what
    /// [`FallingGame::fits`] tests, made once.
    shapes: Vec<Vec<Vec<(i32, i32)>>>,
}

/// Per tumo and rotation state, the grid cells of its blocks (`FallingGame::shapes`).
fn shapes_of(level: &FallingLevel) -> Vec<Vec<Vec<(i32, i32)>>> {
    level
        .tumos
        .iter()
        .map(|t| {
            t.states
                .iter()
                .map(|s| s.blocks().map(|(x, y, _)| (x as i32, y as i32)).collect())
                .collect()
        })
        .collect()
}

impl FallingGame {
    /// Starts a game of `level` with RNG seed `seed`. A level with a saved `state` continues
    /// from it (its RNG replaces `seed`); otherwise the first tumo spawns at once unless the
    /// level has an `active` tumo. A script that does not compile ends the game at once as
    /// lost, with [`FallingGame::script_error`] set.
    pub fn new(level: FallingLevel, seed: u64) -> Self {
        let saved = level.state.clone();
        let st = saved.clone().unwrap_or_default();
        let rng = match st.rng {
            Some((s, word)) => {
                let mut r = ChaCha8Rng::from_seed(s);
                r.set_word_pos(word);
                r
            }
            None => ChaCha8Rng::seed_from_u64(seed),
        };
        let field = level.field.clone();
        let n = field.cells.len();
        let mut moving = vec![0u32; n];
        for &(x, y, f) in &st.moving {
            if let Some(m) = moving.get_mut(y * field.width + x) {
                *m = f;
            }
        }
        let active = level.active.as_ref().map(|a| Place {
            tumo: a.tumo,
            state: a.state,
            x: a.x,
            y: a.y,
        });
        let labels = level
            .active
            .as_ref()
            .map(|a| a.labels.clone())
            .unwrap_or_default();
        let pending = st.pending.as_ref().map(|p| Pending {
            frames: p.frames,
            delete: p.delete.iter().map(|&(x, y)| y * field.width + x).collect(),
            down: p
                .down
                .iter()
                .map(|&(x, y, c)| (y * field.width + x, c))
                .collect(),
        });
        let mut g = Self {
            roles: level.roles(),
            script: None,
            s: Small {
                frames: st.frames,
                score: st.score,
                rows: st.rows,
                chain: st.chain,
                max_chain: st.max_chain,
                gravity_timer: st.gravity_timer,
                lock_timer: st.lock_timer,
                since_place: st.since_place,
                soft_drop_timer: st.soft_drop_timer,
                top_row_frames: st.top_row_frames,
                last_failed_turn: st.last_failed_turn,
                placed_since_clear: st.placed_since_clear,
                quiet: st.quiet,
                fixed_next: st.fixed_next,
                rng_word: rng.get_word_pos(),
                active,
                hold_used: st.hold_used,
            },
            b: Big {
                labels,
                queue: st.queue.iter().cloned().collect(),
                bag: st.bag.iter().copied().collect(),
                pending,
                hold: st.hold.clone(),
                status: st.status.clone(),
                script_error: None,
                probe_error: None,
            },
            rng,
            prev_cells: field.cells.clone(),
            prev_moving: moving.clone(),
            field,
            moving,
            history: History::new(tilesmith_core::game::DEFAULT_HISTORY_BYTES, TRIM),
            seed,
            start_frames: st.frames,
            report: FrameReport {
                frame: st.frames,
                ..FrameReport::default()
            },
            req: Requests::new(n),
            mask: vec![false; n],
            cancel: None,
            shapes: shapes_of(&level),
            level,
        };
        if let Some(src) = g.level.script.clone() {
            match Script::new(&src) {
                Ok(s) => g.script = Some(s),
                Err(e) => {
                    if !g.b.status.is_over() {
                        g.b.status = Status::Lost {
                            reason: format!("script error: {e}"),
                        };
                    }
                    g.b.script_error = Some(e);
                }
            }
        }
        if saved.is_none() && !g.b.status.is_over() {
            if g.s.active.is_some() {
                g.refill_queue();
            } else if g.starts_settled() {
                g.spawn_next();
            } else {
                // The rules have work to do first (a ready chain, a floating block): the first
                // tumo spawns once the field has settled, as every later one.
                g.s.quiet = false;
                g.s.since_place = g.level.timing.spawn;
                g.refill_queue();
            }
        }
        g.s.rng_word = g.rng.get_word_pos();
        g.prev_cells.clone_from(&g.field.cells);
        g.prev_moving.clone_from(&g.moving);
        g
    }

    /// The level this game started from (its saved state included, if any).
    pub fn level(&self) -> &FallingLevel {
        &self.level
    }

    /// The field now. Blocks in motion are already in their new cells; see
    /// [`FallingGame::moving`].
    pub fn field(&self) -> &Field {
        &self.field
    }

    /// Per cell (row-major), the frames its block stays in motion: 0 = settled. A block that
    /// fell n cells with `timing.fall` = f and `timing.land` = l starts at n·f + l and counts
    /// down by one a frame; it is drawn [`FallingGame::fall_offset`] cells above its cell (spec
    /// A2, A5). The last l frames are its grounding: it has landed but is still in motion.
    pub fn moving(&self) -> &[u32] {
        &self.moving
    }

    /// How far above its cell the block at `(x, y)` is drawn, in cells: (frames in motion −
    /// `timing.land`) / `timing.fall`, 0 when it has landed or `timing.fall` is 0.
    pub fn fall_offset(&self, x: usize, y: usize) -> f32 {
        let t = self.level.timing;
        if t.fall == 0 || x >= self.field.width || y >= self.field.height {
            return 0.0;
        }
        self.moving[y * self.field.width + x].saturating_sub(t.land) as f32 / t.fall as f32
    }

    /// The active tumo, if one is in play.
    pub fn active(&self) -> Option<ActiveView> {
        let p = self.s.active?;
        let t = self.level.tumos.get(p.tumo)?;
        let mut cells = self.cells_of(p, &self.b.labels);
        cells.sort_by_key(|&(x, y, _)| (y, x));
        Some(ActiveView {
            tumo: p.tumo,
            name: t.name.clone(),
            state: p.state,
            x: p.x,
            y: p.y,
            labels: self.b.labels.clone(),
            cells,
        })
    }

    /// The cells where the active tumo would land (the shadow, spec §3), `(x, y)` sorted by y
    /// then x; empty when no tumo is in play. Given whether or not the level shows a shadow.
    pub fn shadow(&self) -> Vec<(usize, usize)> {
        let Some(p) = self.s.active else {
            return Vec::new();
        };
        let landing = Place {
            y: p.y + self.drop_distance(p),
            ..p
        };
        let mut v: Vec<(usize, usize)> = self
            .cells_of(landing, &self.b.labels)
            .into_iter()
            .map(|(x, y, _)| (x, y))
            .collect();
        v.sort_by_key(|&(x, y)| (y, x));
        v
    }

    /// The shadow with each cell's block kind: the field cells where the active tumo's blocks
    /// would land, `(x, y, kind)` sorted by y then x (the kinds as in
    /// [`active`](Self::active)'s `cells`: `-1` cells the tumo's `block`, labelled cells their
    /// label's kind). Blocks that would land above the field are left out, so this may list
    /// more cells than the active tumo covers now (spec §3). Empty when no tumo is in play.
    pub fn shadow_blocks(&self) -> Vec<(usize, usize, BlockId)> {
        let Some(p) = self.s.active else {
            return Vec::new();
        };
        let landing = Place {
            y: p.y + self.drop_distance(p),
            ..p
        };
        let mut v = self.cells_of(landing, &self.b.labels);
        v.sort_by_key(|&(x, y, _)| (y, x));
        v
    }

    /// The next tumos (at most the level's `preview`), first next first, with the kinds their
    /// labels will have.
    pub fn next_tumos(&self) -> Vec<QueuedTumo> {
        self.b.queue.iter().cloned().collect()
    }

    /// The tumo in the hold slot, with the kinds of its labels; `None` when the slot is empty
    /// or the level has no `hold`.
    pub fn held(&self) -> Option<&QueuedTumo> {
        self.b.hold.as_ref()
    }

    /// True when `H` has been used since the last placement (the active tumo came from the
    /// hold), so that it does nothing until the tumo is placed.
    pub fn hold_used(&self) -> bool {
        self.s.hold_used
    }

    /// Frames played (a saved state's frames included).
    pub fn frames(&self) -> u64 {
        self.s.frames
    }

    /// Points.
    pub fn score(&self) -> u64 {
        self.s.score
    }

    /// Whole rows cleared.
    pub fn rows(&self) -> u64 {
        self.s.rows
    }

    /// The current or last chain's length (clears since the last placement).
    pub fn chain(&self) -> u32 {
        self.s.chain
    }

    /// The longest chain so far.
    pub fn max_chain(&self) -> u32 {
        self.s.max_chain
    }

    /// The clear in progress (`timing.clear` > 0), if any.
    pub fn pending_clear(&self) -> Option<PendingClear> {
        let p = self.b.pending.as_ref()?;
        Some(PendingClear {
            cells: p
                .delete
                .iter()
                .filter(|&&i| self.field.cells[i] != EMPTY && self.role_at(i) != Role::Iron)
                .map(|&i| (i % self.field.width, i / self.field.width))
                .collect(),
            frames_left: p.frames,
            frames_total: self.level.timing.clear,
        })
    }

    /// What happened in the last frame (empty after undo or redo, except its frame number).
    pub fn last_frame(&self) -> &FrameReport {
        &self.report
    }

    /// The script error that stopped the game, if any (the game is then lost with the reason
    /// `script error: <error>`).
    pub fn script_error(&self) -> Option<&ScriptError> {
        self.b.script_error.as_ref()
    }

    /// The script's error when the game probed its start for settling (its top level and
    /// `update()` run once on the starting field, no tumo active): the first frame will meet
    /// it too. `check` reports it without running the script a third time (issue #30).
    pub fn probe_error(&self) -> Option<&ScriptError> {
        self.b.probe_error.as_ref()
    }

    /// How many times the script's `update()` has run in this game, the start's probe
    /// included ([`Script::update_runs`]); 0 without a script.
    pub fn script_runs(&self) -> u64 {
        self.script.as_ref().map_or(0, Script::update_runs)
    }

    /// True when the field has settled: nothing in motion, no clear in progress, and the last
    /// rules pass deleted and moved nothing. The next tumo spawns only then.
    pub fn is_settled(&self) -> bool {
        self.b.pending.is_none() && self.s.quiet && self.moving.iter().all(|&m| m == 0)
    }

    /// Keeps at most `limit` frames of undo history, dropping the oldest first (default: no
    /// limit).
    pub fn set_history_limit(&mut self, limit: usize) {
        self.history.set_limit(limit);
    }

    /// Back to the state the game began in (a new game of the same level and seed, with
    /// this game's history settings): a restart after frames were dropped from the history.
    fn rebuild_start(&mut self) {
        let mut fresh = FallingGame::new(self.level.clone(), self.seed);
        fresh.history.set_limit(self.history.limit());
        fresh.history.set_budget(self.history.budget());
        fresh.set_cancel(self.cancel.take());
        *self = fresh;
    }

    /// The number of cell and counter changes stored in the undo history (its memory is
    /// proportional to this plus one small record per frame).
    pub fn history_cells(&self) -> usize {
        self.history
            .iter()
            .map(|p| p.cells.len() + p.moving.len())
            .sum()
    }

    /// Sets the cancel flag, the script's too.
    fn set_cancel(&mut self, flag: Option<Arc<AtomicBool>>) {
        if let Some(script) = self.script.as_mut() {
            script.set_cancel_flag(flag.clone());
        }
        self.cancel = flag;
    }

    /// True when the cancel flag is set.
    fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
    }
}

impl Game for FallingGame {
    fn kind(&self) -> &'static dyn GameKind {
        &super::Falling
    }

    fn size(&self) -> (usize, usize) {
        (self.field.width, self.field.height)
    }

    fn step(&mut self, input: Input) -> StepReport {
        match input {
            Input::Undo => {
                self.undo();
            }
            Input::Restart if self.history.trimmed() > 0 => self.rebuild_start(),
            Input::Restart => while self.undo() {},
            _ if !self.b.status.is_over() => {
                let changed = self.record_frame(input).unwrap_or_default();
                return StepReport {
                    step: self.steps(),
                    changed,
                    ..StepReport::default()
                };
            }
            _ => {}
        }
        StepReport {
            step: self.steps(),
            ..StepReport::default()
        }
    }

    fn undo(&mut self) -> bool {
        let Some(k) = self.history.undo_index() else {
            return false;
        };
        self.swap(k);
        true
    }

    fn redo(&mut self) -> bool {
        let Some(k) = self.history.redo_index() else {
            return false;
        };
        self.swap(k);
        true
    }

    fn steps(&self) -> u64 {
        self.s.frames - self.start_frames
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

    fn history_trimmed(&self) -> u64 {
        self.history.trimmed()
    }

    /// Honoured: the level's script stops within [`super::fpgdl::HOOK_INTERVAL`] Lua
    /// instructions of the flag being set, and the frame is rolled back.
    fn set_cancel_flag(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.set_cancel(flag);
    }

    fn status(&self) -> Status {
        self.b.status.clone()
    }

    /// The script error of [`Game::error`] at the level's `script`, at column 1 of the
    /// script's line when known: a line of the level's own source, kept by a document
    /// imported from the program and located at `$.script` in a JSON level.
    fn error_problem(&self) -> Option<Problem> {
        let e = self.b.script_error.as_ref()?;
        Some(Problem {
            line: e.line,
            column: Some(1),
            ..Problem::error(JsonPath::root().key("script"), format!("script error: {e}"))
        })
    }

    fn error(&self) -> Option<String> {
        self.b
            .script_error
            .as_ref()
            .map(|e| format!("script error: {e}"))
    }

    fn summary(&self) -> Value {
        let active = match self.active() {
            Some(a) => json!({
                "tumo": a.name,
                "state": a.state,
                "x": a.x,
                "y": a.y,
                "cells": a.cells.iter().map(|&(x, y, _)| json!([x, y])).collect::<Vec<_>>(),
            }),
            None => Value::Null,
        };
        let next: Vec<&str> = self
            .b
            .queue
            .iter()
            .filter_map(|q| self.level.tumos.get(q.tumo).map(|t| t.name.as_str()))
            .collect();
        json!({
            "kind": "falling",
            // A script error stops the game with no result: "error", not "lost".
            "status": self.outcome_word(),
            "frames": self.s.frames,
            "score": self.s.score,
            "rows": self.s.rows,
            "chain": self.s.chain,
            "max_chain": self.s.max_chain,
            "active": active,
            "next": next,
        })
    }

    fn to_level(&self) -> Value {
        self.to_falling_level().to_json()
    }

    fn layers(&self, pos: Pos) -> Vec<Layer> {
        let (w, h) = (self.field.width, self.field.height);
        if pos.x >= w || pos.y >= h {
            return Vec::new();
        }
        let mut v = Vec::new();
        let b = self.field.cells[pos.y * w + pos.x];
        if b != EMPTY {
            v.push(Layer {
                token: self.level.block_name(b).to_string(),
                dir: None,
            });
        }
        if let Some(a) = self.active()
            && let Some(&(_, _, k)) = a.cells.iter().find(|c| c.0 == pos.x && c.1 == pos.y)
        {
            v.push(Layer {
                token: self.level.block_name(k).to_string(),
                dir: None,
            });
        }
        v
    }

    fn state_hash(&self) -> u64 {
        self.hash_state()
    }

    /// The placement search (`search.rs`): one move is one placement of the active tumo.
    fn searcher(&self) -> Option<Box<dyn tilesmith_core::search_game::SearchGame>> {
        Some(Box::new(search::FallingSearch::new(self)))
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
        self
    }
}

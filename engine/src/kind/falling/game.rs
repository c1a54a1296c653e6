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

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng as _, SeedableRng as _};
use serde_json::{Value, json};

use super::field::{
    Applied, BlockId, ClearStats, EMPTY, Field, Requests, RuleContext, apply_requests,
    builtin_update, puyo_step_score,
};
use super::fpgdl::{FieldView, Script, ScriptError};
use super::level::{
    ActiveTumo, BUFFER_ROWS, FallingLevel, GameOver, Goal, MAX_GRID, Order, QUICK_TURN_FRAMES,
    QueuedTumo, Role, SavedPending, SavedState, ScoreRule,
};
use super::shape::{Turn, TurnResult, try_turn};
use crate::game::{Game, GameKind, Layer, Status, StepReport};
use crate::grid::{Dir, Pos};
use crate::history::{self, History, Trim};
use crate::input::Input;
use crate::problem::{JsonPath, Problem};

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
    status: Status,
    script_error: Option<ScriptError>,
}

/// What undoing (or redoing) one frame needs: the other side of everything it changed.
#[derive(Clone, Debug)]
struct Patch {
    cells: Vec<(u32, BlockId)>,
    moving: Vec<(u32, u32)>,
    small: Small,
    big: Option<Box<Big>>,
    /// What the patch held when recorded ([`Patch::bytes_now`]); undo and redo swap its
    /// contents, and the history's running sum takes back exactly what it added.
    bytes: usize,
}

impl Patch {
    /// The bytes the patch holds: the record, 8 per changed cell or counter, and the copy
    /// of the rest of the state in a frame that changed it (queue, bag, labels, a pending
    /// clear).
    fn bytes_now(&self) -> usize {
        let big = self.big.as_ref().map_or(0, |b| {
            std::mem::size_of::<Big>()
                + b.labels.capacity() * std::mem::size_of::<BlockId>()
                + b.queue.capacity() * std::mem::size_of::<QueuedTumo>()
                + b.queue
                    .iter()
                    .map(|q| q.labels.capacity() * std::mem::size_of::<BlockId>())
                    .sum::<usize>()
                + b.bag.capacity() * std::mem::size_of::<usize>()
                + b.pending
                    .as_ref()
                    .map_or(0, |p| p.delete.capacity() * 8 + p.down.capacity() * 16)
        });
        std::mem::size_of::<Patch>()
            + self.cells.capacity() * std::mem::size_of::<(u32, BlockId)>()
            + self.moving.capacity() * std::mem::size_of::<(u32, u32)>()
            + big
    }
}

impl history::Patch for Patch {
    /// [`Patch::bytes_now`] as recorded.
    fn bytes(&self) -> usize {
        self.bytes
    }
}

/// How the history drops frames: the oldest applied first, then the redoable ones, newest
/// first, down to none.
const TRIM: Trim = Trim {
    min_kept: 0,
    drop_redoable: true,
};

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
}

/// A uniform draw from `0..n` (n ≥ 1) by rejection, so every outcome is equally likely.
fn uniform(rng: &mut ChaCha8Rng, n: usize) -> usize {
    let n = n.clamp(1, u32::MAX as usize) as u32;
    let zone = (u32::MAX / n) * n;
    loop {
        let v = rng.next_u32();
        if v < zone {
            return (v % n) as usize;
        }
    }
}

/// What a script sees (spec §6.2): the field, with blocks in motion and the active tumo's
/// blocks as 100 + kind (A2).
struct View<'a> {
    field: &'a Field,
    moving: &'a [bool],
    active: &'a [(usize, usize, BlockId)],
}

impl FieldView for View<'_> {
    fn width(&self) -> i64 {
        self.field.width as i64
    }

    fn height(&self) -> i64 {
        self.field.height as i64
    }

    fn block(&self, x: i64, y: i64) -> i64 {
        if x < 0 || y < 0 || x as usize >= self.field.width || y as usize >= self.field.height {
            return 0;
        }
        let (ux, uy) = (x as usize, y as usize);
        if let Some(&(_, _, k)) = self.active.iter().find(|c| c.0 == ux && c.1 == uy) {
            return 100 + k as i64;
        }
        let i = uy * self.field.width + ux;
        match self.field.cells[i] {
            EMPTY => 0,
            k if self.moving[i] => 100 + k as i64,
            k => k as i64,
        }
    }

    fn combo(&self, x: i64, y: i64) -> i64 {
        self.field.combo(x, y, self.moving) as i64
    }

    fn all_down(&self) -> bool {
        self.moving.iter().any(|&m| m)
    }
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
            },
            b: Big {
                labels,
                queue: st.queue.iter().cloned().collect(),
                bag: st.bag.iter().copied().collect(),
                pending,
                status: st.status.clone(),
                script_error: None,
            },
            rng,
            prev_cells: field.cells.clone(),
            prev_moving: moving.clone(),
            field,
            moving,
            history: History::new(crate::game::DEFAULT_HISTORY_BYTES, TRIM),
            seed,
            start_frames: st.frames,
            report: FrameReport {
                frame: st.frames,
                ..FrameReport::default()
            },
            req: Requests::new(n),
            mask: vec![false; n],
            cancel: None,
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

    /// Whether a rules pass on the starting field (built-in rules and the script, which keeps
    /// no state between frames) would delete or move nothing. Touches neither the field nor
    /// the RNG.
    fn starts_settled(&mut self) -> bool {
        self.mask.fill(false);
        self.req.reset();
        let cx = RuleContext {
            roles: &self.roles,
            hidden_rows: self.level.hidden_rows,
            moving: &self.mask,
        };
        builtin_update(
            &self.field,
            &cx,
            &self.level.clear,
            &self.level.fall,
            &mut self.req,
        );
        if let Some(script) = self.script.as_mut() {
            let view = View {
                field: &self.field,
                moving: &self.mask,
                active: &[],
            };
            if script.update(&view, &mut self.req).is_err() {
                // The first frame meets the error again and ends the game.
                return false;
            }
        }
        let mut copy = self.field.clone();
        let applied = apply_requests(&mut copy, &self.roles, &self.req);
        applied.deleted.is_empty() && applied.moved.is_empty()
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

    /// The current state as a level: the field, the active tumo and a `state` member, so that
    /// the level continues this game exactly ([`FallingGame::new`] on it gives the same
    /// [`Game::state_hash`]).
    pub fn to_falling_level(&self) -> FallingLevel {
        let mut l = self.level.clone();
        l.field = self.field.clone();
        l.complete_legend();
        l.active = self.s.active.map(|p| ActiveTumo {
            tumo: p.tumo,
            state: p.state,
            x: p.x,
            y: p.y,
            labels: self.b.labels.clone(),
        });
        let w = self.field.width;
        let xy = |i: usize| (i % w, i / w);
        l.state = Some(SavedState {
            frames: self.s.frames,
            score: self.s.score,
            rows: self.s.rows,
            chain: self.s.chain,
            max_chain: self.s.max_chain,
            status: match &self.b.status {
                Status::Won { .. } => Status::won(1),
                s => s.clone(),
            },
            rng: Some((self.rng.get_seed(), self.rng.get_word_pos())),
            queue: self.b.queue.iter().cloned().collect(),
            bag: self.b.bag.iter().copied().collect(),
            fixed_next: self.s.fixed_next,
            gravity_timer: self.s.gravity_timer,
            lock_timer: self.s.lock_timer,
            since_place: self.s.since_place,
            soft_drop_timer: self.s.soft_drop_timer,
            top_row_frames: self.s.top_row_frames,
            last_failed_turn: self.s.last_failed_turn,
            placed_since_clear: self.s.placed_since_clear,
            quiet: self.s.quiet,
            moving: self
                .moving
                .iter()
                .enumerate()
                .filter(|(_, m)| **m > 0)
                .map(|(i, &m)| {
                    let (x, y) = xy(i);
                    (x, y, m)
                })
                .collect(),
            pending: self.b.pending.as_ref().map(|p| SavedPending {
                frames: p.frames,
                delete: p.delete.iter().map(|&i| xy(i)).collect(),
                down: p
                    .down
                    .iter()
                    .map(|&(i, c)| {
                        let (x, y) = xy(i);
                        (x, y, c)
                    })
                    .collect(),
            }),
        });
        l
    }

    // -----------------------------------------------------------------------------------------
    // Geometry.

    fn role_at(&self, i: usize) -> Role {
        self.level.role(self.field.cells[i])
    }

    /// The field cells the blocks of `p` cover, `(x, y, kind)`, in grid order. Cells outside
    /// the field are left out (a placed tumo always lies inside).
    fn cells_of(&self, p: Place, labels: &[BlockId]) -> Vec<(usize, usize, BlockId)> {
        let Some(t) = self.level.tumos.get(p.tumo) else {
            return Vec::new();
        };
        let Some(g) = t.states.get(p.state) else {
            return Vec::new();
        };
        g.blocks()
            .filter_map(|(bx, by, v)| {
                let x = p.x as i64 + bx as i64;
                let y = p.y as i64 + by as i64;
                if x < 0 || y < 0 || x >= self.field.width as i64 || y >= self.field.height as i64 {
                    return None;
                }
                let kind = if v < 0 {
                    t.block
                } else {
                    labels.get(v as usize - 1).copied().unwrap_or(t.block)
                };
                Some((x as usize, y as usize, kind))
            })
            .collect()
    }

    /// A cell that can hold a block of the active tumo: an empty field cell, or a cell of the
    /// buffer zone above the field (inside its columns, at most [`BUFFER_ROWS`] rows above
    /// row 0), which is always empty. Below the floor and beside the walls nothing fits.
    fn free(&self, x: i64, y: i64) -> bool {
        let buffer = BUFFER_ROWS as i64;
        if x < 0 || x as usize >= self.field.width || y < -buffer {
            return false;
        }
        y < 0
            || ((y as usize) < self.field.height
                && self.field.cells[y as usize * self.field.width + x as usize] == EMPTY)
    }

    /// Whether tumo place `p` fits: every block on a [free](Self::free) cell.
    fn fits(&self, p: Place) -> bool {
        let Some(g) = self
            .level
            .tumos
            .get(p.tumo)
            .and_then(|t| t.states.get(p.state))
        else {
            return false;
        };
        g.blocks()
            .all(|(bx, by, _)| self.free(p.x as i64 + bx as i64, p.y as i64 + by as i64))
    }

    /// How many cells `p` can fall before it rests.
    fn drop_distance(&self, p: Place) -> i32 {
        let mut d = 0;
        let most = (self.field.height + BUFFER_ROWS + MAX_GRID) as i32;
        while d <= most
            && self.fits(Place {
                y: p.y + d + 1,
                ..p
            })
        {
            d += 1;
        }
        d
    }

    // -----------------------------------------------------------------------------------------
    // The sequence.

    /// Draws one tumo from the sequence (spec A12: random is uniform), with its labels' kinds;
    /// `None` when a fixed sequence is used up or the sequence is empty.
    fn draw(&mut self) -> Option<QueuedTumo> {
        let seq = &self.level.sequence;
        if seq.tumos.is_empty() {
            return None;
        }
        let tumo = match seq.order {
            Order::Random => seq.tumos[uniform(&mut self.rng, seq.tumos.len())],
            Order::Bag => {
                if self.b.bag.is_empty() {
                    let mut bag = seq.tumos.clone();
                    for i in (1..bag.len()).rev() {
                        let j = uniform(&mut self.rng, i + 1);
                        bag.swap(i, j);
                    }
                    self.b.bag = bag.into();
                }
                self.b.bag.pop_front()?
            }
            Order::Fixed => {
                let t = *seq.tumos.get(self.s.fixed_next)?;
                self.s.fixed_next += 1;
                t
            }
        };
        let t = self.level.tumos.get(tumo)?;
        let n = t.label_count();
        let choices = t.labels.clone();
        let labels = (0..n)
            .map(|_| {
                if choices.is_empty() {
                    t.block
                } else {
                    choices[uniform(&mut self.rng, choices.len())]
                }
            })
            .collect();
        Some(QueuedTumo { tumo, labels })
    }

    fn refill_queue(&mut self) {
        while self.b.queue.len() < self.level.preview {
            match self.draw() {
                Some(q) => self.b.queue.push_back(q),
                None => break,
            }
        }
    }

    /// Spawns the next tumo, or decides the end of a used-up sequence.
    fn spawn_next(&mut self) {
        let next = match self.b.queue.pop_front() {
            Some(q) => Some(q),
            None => self.draw(),
        };
        self.refill_queue();
        let Some(q) = next else {
            // The sequence is used up and the field has settled (issue 10 `goal`).
            if self.level.goal.is_some() {
                self.b.status = if self.goal_met(true) {
                    Status::won(1)
                } else {
                    Status::Lost {
                        reason: "the sequence ended before the goal was reached".into(),
                    }
                };
            }
            return;
        };
        let Some((x, y)) = self.level.spawn_position(q.tumo) else {
            return;
        };
        let p = Place {
            tumo: q.tumo,
            state: 0,
            x,
            y,
        };
        if !self.fits(p) {
            // Spec §4.1 condition 1; a tumo cannot appear over blocks, so this ends the game
            // whatever `game_over` lists.
            self.b.status = Status::Lost {
                reason: "the next tumo cannot appear".into(),
            };
            return;
        }
        self.s.active = Some(p);
        self.b.labels = q.labels;
        self.s.gravity_timer = 0;
        self.s.lock_timer = 0;
        self.s.soft_drop_timer = u32::MAX;
        self.s.last_failed_turn = None;
        self.report.spawned = Some(q.tumo);
    }

    // -----------------------------------------------------------------------------------------
    // The frame.

    fn shift(&mut self, dx: i32) {
        if let Some(p) = self.s.active {
            let q = Place { x: p.x + dx, ..p };
            if self.fits(q) {
                self.s.active = Some(q);
            }
        }
    }

    fn turn(&mut self, turn: Turn) {
        let Some(p) = self.s.active else { return };
        let Some(t) = self.level.tumos.get(p.tumo) else {
            return;
        };
        let free = |x: i32, y: i32| self.free(x as i64, y as i64);
        let r = try_turn(&t.states, &t.kicks, p.state, (p.x, p.y), turn, &free);
        let frame = self.s.frames;
        let apply = |r: &TurnResult| {
            r.success.and_then(|i| r.trials.get(i)).map(|trial| Place {
                state: r.to_state,
                x: p.x + trial.offset.0,
                y: p.y + trial.offset.1,
                ..p
            })
        };
        if let Some(q) = apply(&r) {
            self.s.active = Some(q);
            self.s.last_failed_turn = None;
            self.report.turn = Some(r);
            return;
        }
        let quick = self.level.quick_turn
            && turn != Turn::Half
            && matches!(self.s.last_failed_turn,
                Some((last, at)) if last == turn && frame.saturating_sub(at) <= QUICK_TURN_FRAMES);
        if quick {
            let r2 = try_turn(&t.states, &t.kicks, p.state, (p.x, p.y), Turn::Half, &free);
            if let Some(q) = apply(&r2) {
                self.s.active = Some(q);
                self.s.last_failed_turn = None;
                self.report.turn = Some(r2);
                self.report.quick_turn = true;
                return;
            }
            self.report.turn = Some(r2);
        } else {
            self.report.turn = Some(r);
        }
        self.s.last_failed_turn = Some((turn, frame));
    }

    fn soft_drop(&mut self) {
        let Some(p) = self.s.active else { return };
        if self.s.soft_drop_timer < self.level.timing.soft_drop {
            return;
        }
        let q = Place { y: p.y + 1, ..p };
        if self.fits(q) {
            self.s.active = Some(q);
            self.s.soft_drop_timer = 0;
            self.s.gravity_timer = 0;
            self.s.lock_timer = 0;
        }
    }

    /// Places the active tumo: its blocks become field blocks (`-1` cells the tumo's `block`,
    /// labelled cells their drawn kinds). Blocks in the buffer zone above the field are
    /// discarded and the game goes on (Puyo Puyo Tsu deletes a puyo placed in the 14th row,
    /// NES Tetris drops blocks above the field); only when every block of the tumo is above
    /// the field is the game lost (the guideline's lock out). Spec §4.1.
    fn place(&mut self) {
        let Some(p) = self.s.active.take() else {
            return;
        };
        let labels = std::mem::take(&mut self.b.labels);
        let cells = self.cells_of(p, &labels);
        for &(x, y, k) in &cells {
            let i = y * self.field.width + x;
            self.field.cells[i] = k;
            self.moving[i] = 0;
        }
        self.s.since_place = 0;
        self.s.lock_timer = 0;
        self.s.gravity_timer = 0;
        self.s.placed_since_clear = true;
        self.s.last_failed_turn = None;
        let top = cells.iter().any(|&(_, y, _)| y == 0);
        let all_above = self
            .level
            .tumos
            .get(p.tumo)
            .and_then(|t| t.states.get(p.state))
            .is_some_and(|g| {
                let mut blocks = g.blocks().peekable();
                blocks.peek().is_some() && blocks.all(|(_, by, _)| p.y as i64 + (by as i64) < 0)
            });
        self.report.placed = cells;
        if all_above {
            // Lock out: the whole tumo locked above the field, whatever `game_over` lists.
            self.b.status = Status::Lost {
                reason: "a tumo was placed wholly above the field".into(),
            };
        } else if top && self.level.game_over.contains(&GameOver::TopRow) {
            self.b.status = Status::Lost {
                reason: "a block was placed in the top row".into(),
            };
        }
    }

    /// The active tumo falls by the timing and is placed once it has rested `timing.lock`
    /// frames.
    fn fall_and_lock(&mut self) {
        let Some(p) = self.s.active else { return };
        let timing = self.level.timing;
        let d = self.drop_distance(p);
        if d > 0 {
            let step = if timing.gravity == 0 {
                d
            } else {
                self.s.gravity_timer += 1;
                if self.s.gravity_timer >= timing.gravity {
                    1
                } else {
                    0
                }
            };
            if step > 0 {
                self.s.active = Some(Place { y: p.y + step, ..p });
                self.s.gravity_timer = 0;
                self.s.lock_timer = 0;
            }
        }
        let Some(p) = self.s.active else { return };
        if self.drop_distance(p) == 0 {
            self.s.gravity_timer = 0;
            if self.s.lock_timer >= timing.lock {
                self.place();
            } else {
                self.s.lock_timer += 1;
            }
        }
    }

    /// The rules of one frame (spec §5, §8, A5–A7).
    fn rules(&mut self) {
        for m in &mut self.moving {
            *m = m.saturating_sub(1);
        }
        if let Some(p) = self.b.pending.as_mut() {
            p.frames = p.frames.saturating_sub(1);
            if p.frames > 0 {
                self.s.quiet = false;
                return;
            }
            let p = self
                .b
                .pending
                .take()
                .expect("checked above: a pending clear");
            self.req.reset();
            for i in p.delete {
                self.req.delete[i] = true;
            }
            for (i, c) in p.down {
                self.req.down[i] = c;
            }
            self.carry_out();
            return;
        }
        if !self.report.placed.is_empty() {
            match self.fall_first() {
                Some(false) => {}
                Some(true) => return self.finish_rules(),
                None => return,
            }
        }
        for (m, &c) in self.mask.iter_mut().zip(&self.moving) {
            *m = c > 0;
        }
        self.req.reset();
        let cx = RuleContext {
            roles: &self.roles,
            hidden_rows: self.level.hidden_rows,
            moving: &self.mask,
        };
        builtin_update(
            &self.field,
            &cx,
            &self.level.clear,
            &self.level.fall,
            &mut self.req,
        );
        if !self.run_script() {
            return;
        }
        self.finish_rules();
    }

    /// The first rules pass after a placement: the fall laws run before any clear rule looks
    /// at the placed blocks, so the hanging half of a split Puyo pair falls (and lands, with
    /// the fall timing of A2/A5) before the groups are checked, as in real Puyo Puyo. The
    /// built-in fall laws run alone (no clear rule, so nothing is flagged); the script runs
    /// with the placed blocks still in motion (A2: `100 + kind`; `getAllBlockDownFlag` is
    /// true), so the paper's Puyo listing only asks for falls and its Tetris listing counts no
    /// row with a placed block as full.
    ///
    /// Leaves the requests in `self.req` and returns whether they change the field:
    /// `Some(true)`, they delete or move a block and are this frame's requests; `Some(false)`,
    /// they change nothing and the frame's ordinary rules pass follows; `None`, the script
    /// stopped the game.
    fn fall_first(&mut self) -> Option<bool> {
        for (m, &c) in self.mask.iter_mut().zip(&self.moving) {
            *m = c > 0;
        }
        self.req.reset();
        let cx = RuleContext {
            roles: &self.roles,
            hidden_rows: self.level.hidden_rows,
            moving: &self.mask,
        };
        builtin_update(&self.field, &cx, &[], &self.level.fall, &mut self.req);
        let w = self.field.width;
        for &(x, y, _) in &self.report.placed {
            if let Some(m) = self.mask.get_mut(y * w + x) {
                *m = true;
            }
        }
        if !self.run_script() {
            return None;
        }
        let mut copy = self.field.clone();
        let applied = apply_requests(&mut copy, &self.roles, &self.req);
        Some(!applied.deleted.is_empty() || !applied.moved.is_empty())
    }

    /// Runs the script's `update()` (if any) on the field with `self.mask` as the blocks in
    /// motion, adding to `self.req`. False when it failed: the game is then lost.
    fn run_script(&mut self) -> bool {
        let Some(script) = self.script.as_mut() else {
            return true;
        };
        let active: Vec<(usize, usize, BlockId)> = match self.s.active {
            Some(p) => {
                // `cells_of` borrows self; compute it before the script borrow.
                let labels = self.b.labels.clone();
                let tumos = &self.level.tumos;
                cells_of_free(tumos, &self.field, p, &labels)
            }
            None => Vec::new(),
        };
        let view = View {
            field: &self.field,
            moving: &self.mask,
            active: &active,
        };
        if let Err(e) = script.update(&view, &mut self.req) {
            self.b.status = Status::Lost {
                reason: format!("script error: {e}"),
            };
            self.report.script_error = Some(e.clone());
            self.b.script_error = Some(e);
            return false;
        }
        true
    }

    /// Carries out the frame's requests, or holds them as a clear in progress when they
    /// delete a block and `timing.clear` > 0.
    fn finish_rules(&mut self) {
        let deletes = (0..self.field.cells.len()).any(|i| {
            self.req.delete[i] && self.field.cells[i] != EMPTY && self.role_at(i) != Role::Iron
        });
        if deletes && self.level.timing.clear > 0 {
            let w = self.field.width;
            let p = Pending {
                frames: self.level.timing.clear,
                delete: (0..self.req.delete.len())
                    .filter(|&i| self.req.delete[i])
                    .collect(),
                down: (0..self.req.down.len())
                    .filter(|&i| self.req.down[i] > 0)
                    .map(|i| (i, self.req.down[i]))
                    .collect(),
            };
            self.report.clear_started = p
                .delete
                .iter()
                .filter(|&&i| self.field.cells[i] != EMPTY && self.role_at(i) != Role::Iron)
                .map(|&i| (i % w, i / w))
                .collect();
            self.b.pending = Some(p);
            self.s.quiet = false;
            return;
        }
        self.carry_out();
    }

    /// Carries out `self.req` (spec A6), then counts the chain and scores.
    fn carry_out(&mut self) {
        let applied: Applied = apply_requests(&mut self.field, &self.roles, &self.req);
        let w = self.field.width;
        let (fall, land) = (self.level.timing.fall, self.level.timing.land);
        for &i in &applied.deleted {
            if let Some(m) = self.moving.get_mut(i) {
                *m = 0;
            }
        }
        for &(from, to) in &applied.moved {
            if from >= self.moving.len() || to >= self.moving.len() {
                continue;
            }
            // The rest of an unfinished fall is carried; the grounding starts again.
            let carried = std::mem::take(&mut self.moving[from]).saturating_sub(land);
            let cells = (to / w).saturating_sub(from / w) as u32;
            self.moving[to] = carried
                .saturating_add(fall.saturating_mul(cells))
                .saturating_add(land);
            self.report
                .fell
                .push(((from % w, from / w), (to % w, to / w)));
        }
        self.s.quiet = applied.deleted.is_empty() && applied.moved.is_empty();
        if !applied.deleted.is_empty() {
            // A clear continues the chain when no tumo was placed since the last clear.
            self.s.chain = if self.s.placed_since_clear {
                1
            } else {
                self.s.chain.saturating_add(1)
            };
            self.s.placed_since_clear = false;
            self.s.max_chain = self.s.max_chain.max(self.s.chain);
            let points = match &self.level.score {
                Some(ScoreRule::Puyo(t)) => puyo_step_score(self.s.chain, &applied.stats, t),
                Some(ScoreRule::Rows(points)) => {
                    let i = applied.stats.rows.min(points.len().saturating_sub(1));
                    points.get(i).copied().unwrap_or(0)
                }
                None => 0,
            };
            self.s.score = self.s.score.saturating_add(points);
            self.s.rows = self.s.rows.saturating_add(applied.stats.rows as u64);
            self.report.clear = Some(ClearEvent {
                chain: self.s.chain,
                cells: applied.deleted.iter().map(|&i| (i % w, i / w)).collect(),
                points,
                stats: applied.stats.clone(),
            });
        }
        if let Some(p) = self.s.active {
            let overlap = self
                .cells_of(p, &self.b.labels)
                .iter()
                .any(|&(x, y, _)| self.field.cells[y * w + x] != EMPTY);
            if overlap {
                self.b.status = Status::Lost {
                    reason: "a field block fell into the active tumo".into(),
                };
            }
        }
    }

    /// Whether the goal is reached. `clear_all` counts only when `settled_check` (after a
    /// clear or at the end of the sequence), so an empty starting field does not win at once.
    fn goal_met(&self, settled_check: bool) -> bool {
        match self.level.goal {
            None => false,
            Some(Goal::ClearAll) => settled_check && self.field.cells.iter().all(|&c| c == EMPTY),
            Some(Goal::Chain { min }) => self.s.max_chain >= min,
            Some(Goal::Score { min }) => self.s.score >= min,
            Some(Goal::Rows { min }) => self.s.rows >= min as u64,
        }
    }

    /// Runs one frame with `input`.
    fn frame(&mut self, input: Input) {
        self.s.frames += 1;
        self.report = FrameReport {
            frame: self.s.frames,
            ..FrameReport::default()
        };
        if self.s.active.is_none() {
            self.s.since_place = self.s.since_place.saturating_add(1);
        }
        self.s.soft_drop_timer = self.s.soft_drop_timer.saturating_add(1);
        // 1. The input.
        let mut dropped = false;
        if self.s.active.is_some() {
            match input {
                Input::Move(Dir::Left) => self.shift(-1),
                Input::Move(Dir::Right) => self.shift(1),
                Input::Turn(t) => self.turn(t),
                Input::SoftDrop => self.soft_drop(),
                Input::HardDrop if self.level.hard_drop => {
                    if let Some(p) = self.s.active {
                        self.s.active = Some(Place {
                            y: p.y + self.drop_distance(p),
                            ..p
                        });
                    }
                    self.report.hard_drop = true;
                    self.place();
                    dropped = true;
                }
                _ => {}
            }
        }
        // 2. Gravity and lock.
        if !dropped {
            self.fall_and_lock();
        }
        if self.b.status.is_over() {
            return;
        }
        // 3. The rules.
        self.rules();
        if self.b.status.is_over() {
            return;
        }
        // 4. Goal, game over, spawn.
        if self.goal_met(self.report.clear.is_some()) {
            self.b.status = Status::won(1);
            return;
        }
        for g in &self.level.game_over {
            if let GameOver::TopRowTimeout { frames } = *g {
                let w = self.field.width;
                let occupied = (0..w).any(|x| self.field.cells[x] != EMPTY && self.moving[x] == 0);
                if occupied {
                    self.s.top_row_frames = self.s.top_row_frames.saturating_add(1);
                    if self.s.top_row_frames >= frames {
                        self.b.status = Status::Lost {
                            reason: format!("a block stayed in the top row for {frames} frames"),
                        };
                        return;
                    }
                } else {
                    self.s.top_row_frames = 0;
                }
            }
        }
        if self.s.active.is_none()
            && self.is_settled()
            && self.s.since_place >= self.level.timing.spawn
        {
            self.spawn_next();
        }
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

    /// Runs one frame and records it for undo; returns the changed cells, row-major. `None`
    /// when the cancel flag was set by the end of the frame (the script stops at once when
    /// it is set; the built-in rules of a frame are short): the frame is then rolled back,
    /// from `prev_cells`, `prev_moving` (the field as the last frame left it) and the
    /// counters kept here, so the game is exactly as before and the redo list untouched.
    fn record_frame(&mut self, input: Input) -> Option<Vec<Pos>> {
        let small = self.s;
        let big = self.b.clone();
        let before = self.active().map(|a| a.cells).unwrap_or_default();
        self.frame(input);
        if self.cancelled() {
            self.field.cells.copy_from_slice(&self.prev_cells);
            self.moving.copy_from_slice(&self.prev_moving);
            self.s = small;
            self.b = big;
            self.rng.set_word_pos(small.rng_word);
            self.report = FrameReport {
                frame: self.s.frames,
                ..FrameReport::default()
            };
            return None;
        }
        self.s.rng_word = self.rng.get_word_pos();
        let mut cells = Vec::new();
        let mut moving = Vec::new();
        let mut changed: Vec<Pos> = Vec::new();
        let w = self.field.width;
        if self.field.cells != self.prev_cells {
            for (i, (new, old)) in self
                .field
                .cells
                .iter()
                .zip(self.prev_cells.iter_mut())
                .enumerate()
            {
                if new != old {
                    cells.push((i as u32, *old));
                    *old = *new;
                    changed.push(Pos::new(i % w, i / w));
                }
            }
        }
        if self.moving != self.prev_moving {
            for (i, (new, old)) in self
                .moving
                .iter()
                .zip(self.prev_moving.iter_mut())
                .enumerate()
            {
                if new != old {
                    moving.push((i as u32, *old));
                    *old = *new;
                    changed.push(Pos::new(i % w, i / w));
                }
            }
        }
        let after = self.active().map(|a| a.cells).unwrap_or_default();
        if before != after {
            for &(x, y, _) in before.iter().chain(&after) {
                changed.push(Pos::new(x, y));
            }
        }
        changed.sort_by_key(|p| (p.y, p.x));
        changed.dedup();
        let big = (big != self.b).then(|| Box::new(big));
        let mut patch = Patch {
            cells,
            moving,
            small,
            big,
            bytes: 0,
        };
        patch.bytes = patch.bytes_now();
        self.history.record(patch);
        Some(changed)
    }

    /// Swaps the state with patch `i` (undo and redo are the same operation).
    fn swap(&mut self, i: usize) {
        let Some(p) = self.history.get_mut(i) else {
            return;
        };
        for (idx, v) in &mut p.cells {
            let i = *idx as usize;
            std::mem::swap(&mut self.field.cells[i], v);
            self.prev_cells[i] = self.field.cells[i];
        }
        for (idx, v) in &mut p.moving {
            let i = *idx as usize;
            std::mem::swap(&mut self.moving[i], v);
            self.prev_moving[i] = self.moving[i];
        }
        std::mem::swap(&mut self.s, &mut p.small);
        if let Some(b) = p.big.as_mut() {
            std::mem::swap(&mut self.b, b);
        }
        if self.rng.get_word_pos() != self.s.rng_word {
            self.rng.set_word_pos(self.s.rng_word);
        }
        self.report = FrameReport {
            frame: self.s.frames,
            ..FrameReport::default()
        };
    }
}

/// [`FallingGame::cells_of`] without borrowing the game.
fn cells_of_free(
    tumos: &[super::level::Tumo],
    field: &Field,
    p: Place,
    labels: &[BlockId],
) -> Vec<(usize, usize, BlockId)> {
    let Some(t) = tumos.get(p.tumo) else {
        return Vec::new();
    };
    let Some(g) = t.states.get(p.state) else {
        return Vec::new();
    };
    g.blocks()
        .filter_map(|(bx, by, v)| {
            let x = p.x as i64 + bx as i64;
            let y = p.y as i64 + by as i64;
            if x < 0 || y < 0 || x >= field.width as i64 || y >= field.height as i64 {
                return None;
            }
            let kind = if v < 0 {
                t.block
            } else {
                labels.get(v as usize - 1).copied().unwrap_or(t.block)
            };
            Some((x as usize, y as usize, kind))
        })
        .collect()
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
        let mut h = crate::hash::Fnv::new();
        h.write_u64(self.field.width as u64);
        h.write_u64(self.field.height as u64);
        h.write(&self.field.cells);
        for &m in &self.moving {
            h.write_u64(m as u64);
        }
        let s = &self.s;
        for v in [
            s.frames,
            s.score,
            s.rows,
            s.chain as u64,
            s.max_chain as u64,
            s.gravity_timer as u64,
            s.lock_timer as u64,
            s.since_place as u64,
            s.soft_drop_timer as u64,
            s.top_row_frames as u64,
            s.placed_since_clear as u64,
            s.quiet as u64,
            s.fixed_next as u64,
        ] {
            h.write_u64(v);
        }
        match s.last_failed_turn {
            Some((t, f)) => {
                h.write(Input::Turn(t).word().as_bytes());
                h.write_u64(f);
            }
            None => h.write(b"-"),
        }
        match s.active {
            Some(p) => {
                for v in [p.tumo as u64, p.state as u64, p.x as u64, p.y as u64] {
                    h.write_u64(v);
                }
                h.write(&self.b.labels);
            }
            None => h.write(b"none"),
        }
        h.write(&self.rng.get_seed());
        h.write(&self.rng.get_word_pos().to_le_bytes());
        h.write_u64(self.b.queue.len() as u64);
        for q in &self.b.queue {
            h.write_u64(q.tumo as u64);
            h.write(&q.labels);
        }
        h.write_u64(self.b.bag.len() as u64);
        for &t in &self.b.bag {
            h.write_u64(t as u64);
        }
        match &self.b.pending {
            Some(p) => {
                h.write_u64(p.frames as u64);
                for &i in &p.delete {
                    h.write_u64(i as u64);
                }
                h.write(b"/");
                for &(i, c) in &p.down {
                    h.write_u64(i as u64);
                    h.write_u64(c as u64);
                }
            }
            None => h.write(b"no pending"),
        }
        h.write(self.b.status.word().as_bytes());
        h.finish()
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
        self
    }
}

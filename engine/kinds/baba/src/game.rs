//! A running baba game: its state, undo/redo, and the [`Game`] trait (spec baba §2, §4).
//!
//! The state is the set of objects keyed by internal ID (ascending = processing order), the
//! next free ID and the turn counter. Every change to an object goes through
//! `BabaGame::set_obj`, which keeps the cell index, journals the object's previous value and
//! notes what the next refresh must re-read. Undo keeps, per turn, the journal's backward diff
//! (each changed object's value before the turn, IDs included), so undo and redo restore a turn
//! exactly (§2, (C)) with memory proportional to what changed. The turn itself is in `turn/`.
//!
//! Here: the state, the game and the [`Game`] trait. Beside it: `journal.rs` (every change
//! to an object), `refresh.rs` (what the rules give, and the status), `undo.rs` (the turn's
//! patch and the history) and `index.rs` (holders, text counts, cell sorting).

use std::collections::BTreeSet;

use rustc_hash::FxHashMap;

use serde::Serialize;
use serde_json::{Value, json};

use super::eval::{
    ById, Derived, Obj, ObjId, Refresh, World, active_rules, derive, implicit_rules,
};
use super::level::{BabaLevel, Tile};
use super::rules::{FormedRule, Rule, RuleCache, TextTile, unused_text};
use super::word::{Kind, Noun, Prop, Verb, Word};
use tilesmith_core::game::{Game, GameKind, Layer, Status, StepReport};
use tilesmith_core::grid::{Dir, Grid, Pos};
use tilesmith_core::history::{self, History, Trim};
use tilesmith_core::input::Input;

mod index;
mod journal;
mod refresh;
mod search;
mod undo;

pub(super) use index::sort_cells;
use index::{Holders, TextCount};
use refresh::Dirty;
pub use search::BabaSearch;
use search::ObjKeys;
use undo::{Patch, TRIM};

/// The most rules a [`Game::summary`] lists (the rest are counted).
pub const SUMMARY_RULES: usize = 256;

/// The saved part of a game: what undo restores.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct State {
    pub objs: ById<Obj>,
    pub next_id: ObjId,
    /// Tier 2 ALL: every object noun that has existed since the level start, as an entity or
    /// as noun text (§5.13).
    pub seen: std::collections::BTreeSet<super::word::Noun>,
    pub turn: u64,
    pub status: Status,
    /// Tier 2: the level's facing (§2 "The level": DOWN at the start [L522–L528]), which
    /// `LEVEL IS SHIFT` moves the objects in (level_thing.rs).
    pub level_dir: Dir,
}

/// One object as seen from outside: for the editor, tests and tools.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ObjectView {
    /// Internal ID (ascending = processing order; kept by moves, new on transformation).
    pub id: ObjId,
    /// Entity or text.
    pub kind: Kind,
    /// The cell.
    pub pos: Pos,
    /// The facing.
    pub dir: Dir,
}

/// The most journal entries the undo history keeps by default (about 5 million object
/// changes, [`ENTRY_BYTES`] each, 120 MB): each turn holds one entry per object it changed
/// (added, removed, moved or turned); older turns are dropped first, and `restart` still
/// returns to the level's start.
pub const HISTORY_OBJECTS: usize = 5_000_000;

/// The bytes of one journal entry of the undo history (an object ID and the object's value
/// on the other side of the turn): converts [`Game::set_history_budget`]'s bytes to entries.
pub const ENTRY_BYTES: usize = std::mem::size_of::<(ObjId, Option<Obj>)>();

/// The undo history always keeps at least this many turns.
pub const MIN_HISTORY_TURNS: usize = 64;

/// The most elementary operations one turn may take by default (issue 15; reliability.md,
/// "Step budgets"). Counted: each move check (one per object a move looks at, pushes
/// included, and one per occupant of the cell it would enter; one per waiting mover found
/// still waiting without a dry run), each change to
/// an object (move, turn, creation, removal), each object whose
/// properties a refresh reads again (each text tile when only the rule list is read again),
/// and each cell a falling object looks down. The most a turn of any Keke or shipped level
/// takes is 654 (`tests/tests/baba_budget.rs`); a turn
/// that would go over this budget is refused with [`Game::error`], the game left as before
/// it (docs/baba-semantics.md, "Operation budget"). Calibrated so that the costliest turn one
/// can build (80 × 80 cells of 8-high stacks that move, push and pull) is refused within
/// 1 s in a release build here (issue #30): the budget counts operations, never the clock,
/// so a replay plays the same on every machine.
pub const OPERATION_BUDGET: u64 = 5_000_000;

/// Why a turn in progress is abandoned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Halt {
    /// Over the operation budget.
    Budget,
    /// The cancel flag was set.
    Cancel,
}

/// A baba game in play (spec baba).
#[derive(Clone, Debug)]
pub struct BabaGame {
    pub(super) level: std::sync::Arc<BabaLevel>,
    pub(super) seed: u64,
    pub(super) st: State,
    pub(super) width: usize,
    pub(super) height: usize,
    /// Rules that hold as if formed by text outside the map.
    pub(super) extra: Vec<Rule>,
    /// The last refresh.
    pub(super) cur: Refresh,
    /// The objects of each cell, ascending ID (kept by [`BabaGame::set_obj`]); a cell that
    /// held objects may keep an empty list.
    pub(super) index: super::eval::CellIndex,
    /// The number of text objects in each cell.
    text_at: TextCount,
    /// What changed since the last refresh.
    dirty: Dirty,
    /// The holders of each property and verb at the last refresh.
    holders: Holders,
    /// True when a rule in force has a condition, so that moving or turning any object can
    /// change what the rules give (a refresh then re-reads everything).
    conditional: bool,
    /// What the rules give each kind (valid while no rule has a condition), filled on demand.
    by_kind: FxHashMap<Kind, Derived>,
    /// The rules each row and column of text formed at the last refresh (only the lines whose
    /// text changed are read again).
    rule_cache: RuleCache,
    /// True when no cell holds more than [`super::turn::STACK_CAP`] objects of one kind, so
    /// the cap need only look at the cells objects entered.
    pub(super) capped: bool,
    /// The journal of the turn: each object changed since it was cleared (each turn starts
    /// one), once, with its value before its first change, in the order of first changes.
    /// Restoring these values undoes the turn.
    pub(super) log: Vec<(ObjId, Option<Obj>)>,
    /// The same for the phase in progress ([`Self::begin_phase`]): each object changed since
    /// the phase began, once, with its value then.
    pub(super) phase_log: Vec<(ObjId, Option<Obj>)>,
    /// The objects entered in `log` (those changed since it was cleared), each with the phase
    /// epoch in which it was last entered in `phase_log`: an object is entered at its first
    /// change of the turn and of each phase, without looking through them.
    logged: ById<u32>,
    /// The epoch of `phase_log`, advanced by [`Self::begin_phase`].
    phase_epoch: u32,
    /// Counts the changes that can change the rules or the set of objects: an object added
    /// or removed, a text object moved. A step that leaves it unchanged moved only non-text
    /// objects, which changes no object's properties unless a rule has a condition (FALL
    /// uses this to skip refreshes, §5.13).
    pub(super) edits: u64,
    /// The undo history, its patches costed by [`Patch::cost`]; its budget is
    /// [`Game::set_history_budget`], by default [`HISTORY_OBJECTS`] entries.
    history: History<Patch>,
    /// The state at the level's start, for `restart` after turns were dropped.
    start: Option<Box<State>>,
    /// One bit per cell, all clear between uses: scratch for [`sort_cells`].
    pub(super) cell_marks: Vec<u64>,
    /// The ALL set ([`State::seen`]) before the turn in progress added a noun to it; `None`
    /// while the turn added none (so a turn need not copy the set to undo it).
    seen_before: Option<BTreeSet<Noun>>,
    /// Tier 2: the level was destroyed in this turn's step 13, so it cannot win in step 14.
    pub(super) level_destroyed: bool,
    /// Operations counted in the turn in progress ([`OPERATION_BUDGET`]).
    ops: std::cell::Cell<u64>,
    /// The operations of the last turn computed (or abandoned).
    last_ops: u64,
    /// The most operations a turn may take.
    op_budget: u64,
    /// Set by another thread to abandon the turn in progress ([`Game::set_cancel_flag`]).
    cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// Why the turn in progress is being abandoned, once it is.
    halt: std::cell::Cell<Option<Halt>>,
    /// The error of a turn that went over the budget ([`Game::error`]).
    error: Option<String>,
    /// In a searcher ([`BabaSearch`]) only: the objects' part of the state key, kept by
    /// [`BabaGame::set_obj`] as objects change (`None` in a game played: nothing reads it).
    obj_keys: Option<ObjKeys>,
    /// True (but during a turn whose report nobody reads): the turn lists the cells each
    /// phase changed ([`StepReport::phases`]).
    pub(super) list_cells: bool,
    /// In a searcher only: each turn keeps the refresh it started with in its undo patch
    /// ([`refresh::Kept`]), so that undo puts it back instead of reading the rules again.
    keep_refresh: bool,
    /// The turn in progress's [`refresh::Kept`] (off between turns).
    kept: refresh::Kept,
}

impl BabaGame {
    /// Starts a game of `level`. IDs are assigned row-major, then bottom to top in each stack
    /// (§2 (C)). The rules are read at once (turn 0: a refresh only, §4.2). [`Kind::Unknown`]
    /// entries (a level read in repair mode) are left out. The game shares `level` (given
    /// as a level or an `Arc` of one): many games started from one level, as replays, a
    /// solver or the editor's play-tests do, do not copy its map.
    pub fn new(level: impl Into<std::sync::Arc<BabaLevel>>, seed: u64) -> Self {
        let level = level.into();
        let mut objs = ById::default();
        let mut next_id: ObjId = 1;
        for (pos, stack) in level.map.iter() {
            // An entry the editor could not read (repair mode) is not part of the game.
            for t in stack.iter().filter(|t| !t.kind.is_unknown()) {
                objs.insert(next_id, Obj::new(t.kind, pos, t.dir));
                next_id += 1;
            }
        }
        let (width, height) = (level.width(), level.height());
        let mut g = Self {
            level,
            seed,
            st: State {
                objs,
                next_id,
                seen: std::collections::BTreeSet::new(),
                turn: 0,
                status: Status::Running,
                level_dir: Dir::Down,
            },
            width,
            height,
            extra: Vec::new(),
            cur: Refresh::default(),
            text_at: TextCount::default(),
            dirty: Dirty::default(),
            holders: Holders::new(),
            conditional: false,
            by_kind: FxHashMap::default(),
            rule_cache: RuleCache::default(),
            capped: false,
            log: Vec::new(),
            phase_log: Vec::new(),
            logged: ById::default(),
            phase_epoch: 1,
            edits: 0,
            index: super::eval::CellIndex::default(),
            history: History::new(HISTORY_OBJECTS * ENTRY_BYTES, TRIM),
            start: None,
            seen_before: None,
            cell_marks: Vec::new(),
            level_destroyed: false,
            ops: std::cell::Cell::new(0),
            last_ops: 0,
            op_budget: OPERATION_BUDGET,
            cancel: None,
            halt: std::cell::Cell::new(None),
            error: None,
            obj_keys: None,
            list_cells: true,
            keep_refresh: false,
            kept: refresh::Kept::Off,
        };
        let kinds: Vec<Kind> = g.st.objs.values().map(|o| o.kind).collect();
        for k in kinds {
            g.note_seen(k);
        }
        g.rebuild_index();
        g.refresh();
        if g.cur.over_budget {
            // The rules' conditions cannot be read within one turn's budget: the level
            // cannot be played (issue #30), and says why instead of taking minutes.
            g.error = Some(format!(
                "the rules' conditions (NEAR, ON, FACING, LONELY …) take more than the \
                 operation budget of {} operations to read over this level's objects; it \
                 cannot be played",
                g.op_budget
            ));
        }
        g.halt.set(None);
        g.ops.set(0);
        g.face_level();
        g.st.status = g.compute_status(false);
        g
    }

    /// Records the object noun of `kind` for ALL (an entity's noun, or a noun text's noun).
    fn note_seen(&mut self, kind: Kind) {
        let n = match kind {
            Kind::Entity(n) | Kind::Text(super::word::Word::Noun(n)) => n,
            Kind::Text(_) | Kind::Unknown(_) => return,
        };
        if n.is_object() && !self.st.seen.contains(&n) {
            // The turn's first new noun: the set before it goes into the turn's undo patch.
            if self.seen_before.is_none() {
                self.seen_before = Some(self.st.seen.clone());
            }
            self.st.seen.insert(n);
        }
    }

    /// Rebuilds the cell index from the objects, and has the next refresh re-read everything.
    fn rebuild_index(&mut self) {
        // The clock goes on from the old index's, so that no reader of stamps taken before the
        // rebuild sees a cell as unchanged.
        self.index = super::eval::cell_index_after(
            &self.st.objs,
            self.width,
            self.height,
            self.index.clock(),
        );
        self.text_at = TextCount::new(self.width, self.height);
        for o in self.st.objs.values().filter(|o| o.kind.is_text()) {
            self.text_at.add(o.pos());
        }
        self.dirty.any = true;
        self.dirty.text = true;
        self.dirty.full = true;
        self.capped = false;
        if self.obj_keys.is_some() {
            self.obj_keys = Some(ObjKeys::over(&self.st.objs));
        }
    }

    /// True when cell `pos` holds a text object.
    fn holds_text(&self, pos: Pos) -> bool {
        self.text_at.holds(pos)
    }

    /// Adds rules that hold as if formed by text outside the map (the spec's "Rules:" lines,
    /// and rule previews). Applies at once (a refresh) and at every later refresh.
    pub fn set_extra_rules(&mut self, rules: Vec<Rule>) {
        self.extra = rules;
        self.dirty.any = true;
        self.dirty.text = true;
        self.dirty.full = true;
        self.refresh();
        if self.st.turn == 0 {
            // At the level start the level faces DOWN, or what its rules say (level_thing.rs):
            // rules replaced at turn 0 must not leave the facing the old ones gave.
            self.st.level_dir = Dir::Down;
            self.face_level();
        }
        self.st.status = self.compute_status(false);
    }

    /// The level this game started from.
    pub fn level(&self) -> &BabaLevel {
        &self.level
    }

    /// Turns played since the level start (undo goes back, restart returns to 0).
    pub fn turn(&self) -> u64 {
        self.st.turn
    }

    /// Every object, ascending ID.
    pub fn objects(&self) -> Vec<ObjectView> {
        self.st
            .objs
            .iter()
            .map(|(&id, o)| ObjectView {
                id,
                kind: o.kind,
                pos: o.pos(),
                dir: o.dir,
            })
            .collect()
    }

    /// The objects in cell `pos`, ascending ID (bottom of the drawn stack first).
    pub fn objects_at(&self, pos: Pos) -> Vec<ObjectView> {
        self.index
            .get(&pos)
            .into_iter()
            .flatten()
            .filter_map(|&id| {
                self.st.objs.get(&id).map(|o| ObjectView {
                    id,
                    kind: o.kind,
                    pos,
                    dir: o.dir,
                })
            })
            .collect()
    }

    /// The count of property `p` on object `id` at the last refresh (0 when it does not have
    /// it, or when the object is unknown). Includes implicit TEXT IS PUSH.
    pub fn prop_count(&self, id: ObjId, p: Prop) -> u32 {
        self.cur.derived.get(&id).map_or(0, |d| d.get(p) as u32)
    }

    /// The rules the text on the map forms now (board order, implicit rules not included),
    /// each with the text tiles it uses.
    pub fn rules(&self) -> &[FormedRule] {
        &self.cur.formed
    }

    /// The text tiles that form no rule now (to dim them).
    pub fn unused_text(&self) -> Vec<TextTile> {
        // Only the text objects are looked at; their stack index comes from the cell index
        // (ascending ID), as in `to_baba_level`.
        let texts = super::eval::text_tiles(&self.st.objs, &self.index);
        unused_text(&texts, &self.cur.formed)
    }

    /// The current state as a level document (stacks in ascending ID).
    pub fn to_baba_level(&self) -> BabaLevel {
        let mut map: Grid<Vec<Tile>> = Grid::new(self.width, self.height, Vec::new());
        for o in self.st.objs.values() {
            if let Some(c) = map.get_mut(o.pos()) {
                c.push(Tile {
                    kind: o.kind,
                    dir: o.dir,
                });
            }
        }
        BabaLevel {
            name: self.level.name.clone(),
            map,
            extra: self.level.extra.clone(),
            unknown: Vec::new(),
        }
    }

    /// Counts `n` operations of the turn in progress against its budget, and checks the
    /// cancel flag. Returns true when the turn is being abandoned (over the budget or
    /// cancelled): the caller then stops what it does (a move check fails, a refresh is
    /// skipped), and the turn is undone when it returns.
    pub(super) fn charge(&self, n: u64) -> bool {
        let ops = self.ops.get().saturating_add(n);
        self.ops.set(ops);
        if self.halt.get().is_none() {
            if ops > self.op_budget {
                self.halt.set(Some(Halt::Budget));
            } else if self
                .cancel
                .as_ref()
                .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
            {
                self.halt.set(Some(Halt::Cancel));
            }
        }
        self.halt.get().is_some()
    }

    /// The operations the turn in progress may still take ([`OPERATION_BUDGET`] less those
    /// counted).
    pub(super) fn budget_left(&self) -> u64 {
        self.op_budget.saturating_sub(self.ops.get())
    }

    /// True while the turn in progress is being abandoned ([`BabaGame::charge`]).
    pub(super) fn halted(&self) -> bool {
        self.halt.get().is_some()
    }

    /// The elementary operations the last turn took (counted as [`OPERATION_BUDGET`]
    /// says; for an abandoned turn, those counted until it stopped).
    pub fn last_turn_operations(&self) -> u64 {
        self.last_ops
    }

    /// Sets the most operations one turn may take ([`OPERATION_BUDGET`] by default). For
    /// tests and tools.
    #[doc(hidden)]
    pub fn set_operation_budget(&mut self, ops: u64) {
        self.op_budget = ops;
    }

    /// Bytes the undo history holds now (its entries, [`ENTRY_BYTES`] each, and each turn's
    /// counters; allocator overhead not counted). The figure [`Game::history_bytes`] reports
    /// and [`Game::set_history_budget`] is compared with.
    pub fn undo_bytes(&self) -> usize {
        self.history.bytes()
    }
}

impl Game for BabaGame {
    fn kind(&self) -> &'static dyn GameKind {
        &super::Baba
    }

    fn size(&self) -> (usize, usize) {
        (self.width, self.height)
    }

    fn step(&mut self, input: Input) -> StepReport {
        let dir = match input {
            Input::Undo => {
                self.error = None;
                self.undo();
                return StepReport {
                    step: self.st.turn,
                    ..StepReport::default()
                };
            }
            Input::Restart => {
                self.error = None;
                while self.undo() {}
                if self.history.trimmed() > 0
                    && let Some(start) = self.start.clone()
                {
                    self.st = *start;
                    self.history.clear();
                    self.rebuild_index();
                    self.ops.set(0);
                    self.halt.set(None);
                    self.refresh();
                }
                return StepReport {
                    step: self.st.turn,
                    ..StepReport::default()
                };
            }
            Input::Move(d) => Some(d),
            _ => None,
        };
        if matches!(self.st.status, Status::Won { .. }) || self.error.is_some() {
            return StepReport {
                step: self.st.turn,
                ..StepReport::default()
            };
        }
        self.record_and_turn(dir)
    }

    fn undo(&mut self) -> bool {
        self.error = None;
        let Some(k) = self.history.undo_index() else {
            return false;
        };
        self.swap_patch(k);
        true
    }

    fn take_back(&mut self) -> bool {
        if !self.undo() {
            return false;
        }
        // Right after a turn its patch is the newest: the one undo just made redoable.
        self.history.pop_newest();
        true
    }

    fn redo(&mut self) -> bool {
        self.error = None;
        let Some(k) = self.history.redo_index() else {
            return false;
        };
        self.swap_patch(k);
        true
    }

    /// Lost is not final in baba (nothing is YOU, but MOVE and SHIFT objects still move and a
    /// YOU rule may form again); only a win, or a turn refused for going over the operation
    /// budget ([`Game::error`]), ends the game.
    fn takes_turns(&self) -> bool {
        !matches!(self.st.status, Status::Won { .. }) && self.error.is_none()
    }

    /// A turn whose computation went over the operation budget ([`OPERATION_BUDGET`]): it
    /// was refused and the game left as before it; the game takes no more turns until an
    /// undo, redo or restart (which clear the error).
    fn error(&self) -> Option<String> {
        self.error.clone()
    }

    /// Honoured by turns (checked wherever the operation budget is counted): a cancelled
    /// turn leaves the game exactly as before it, with no error. Undo, redo and restart
    /// only swap stored changes and are not cancelled.
    fn set_cancel_flag(&mut self, flag: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>) {
        self.cancel = flag;
    }

    fn steps(&self) -> u64 {
        self.history.trimmed() + self.history.applied() as u64
    }

    fn redo_len(&self) -> usize {
        self.history.redo_len()
    }

    /// [`BabaGame::undo_bytes`].
    fn history_bytes(&self) -> usize {
        self.undo_bytes()
    }

    /// The budget in bytes: the history keeps the newest turns whose journal entries
    /// ([`ENTRY_BYTES`] each) and counters fit, dropping the oldest at once when over it, but
    /// always at least [`MIN_HISTORY_TURNS`] turns (so 0 keeps those only).
    fn set_history_budget(&mut self, bytes: usize) {
        self.history.set_budget(bytes);
    }

    fn history_trimmed(&self) -> u64 {
        self.history.trimmed()
    }

    fn status(&self) -> Status {
        self.st.status.clone()
    }

    /// The `tilesmith run` line: status, turns and the rules formed, the first
    /// [`SUMMARY_RULES`] of them, then `"rules_more"`: how many more (issue #30's review: a map
    /// of 300 000 `TEXT IS MORE` sentences printed a 5 MB line).
    fn summary(&self) -> Value {
        let formed = &self.cur.formed;
        let rules: Vec<&str> = formed
            .iter()
            .take(SUMMARY_RULES)
            .map(|r| &*r.text)
            .collect();
        let mut v = json!({
            "kind": "baba",
            "status": self.st.status.word(),
            "turns": self.st.turn,
            "rules": rules,
        });
        if formed.len() > SUMMARY_RULES
            && let Some(o) = v.as_object_mut()
        {
            o.insert("rules_more".into(), json!(formed.len() - SUMMARY_RULES));
        }
        v
    }

    fn to_level(&self) -> Value {
        self.to_baba_level().to_json()
    }

    fn layers(&self, pos: Pos) -> Vec<Layer> {
        self.index
            .get(&pos)
            .into_iter()
            .flatten()
            .filter_map(|id| self.st.objs.get(id))
            .map(|o| Layer {
                token: o.kind.token(),
                dir: (!o.kind.is_text()).then_some(o.dir),
            })
            .collect()
    }

    fn searcher(&self) -> Option<Box<dyn tilesmith_core::search_game::SearchGame>> {
        Some(Box::new(BabaSearch::new(self)))
    }

    fn state_hash(&self) -> u64 {
        let mut h = tilesmith_core::hash::Fnv::new();
        h.write_u64(self.width as u64);
        h.write_u64(self.height as u64);
        for (&id, o) in &self.st.objs {
            h.write_u64(id);
            h.write(o.kind.token().as_bytes());
            h.write_u64(o.x as u64);
            h.write_u64(o.y as u64);
            h.write_u64(o.dir.value() as u64);
        }
        h.write_u64(self.st.next_id);
        h.write_u64(self.st.turn);
        h.write(self.st.status.word().as_bytes());
        if self.st.level_dir != Dir::Down {
            // Only a level that turned adds its facing, so the hashes of every game whose
            // level keeps its start facing are as before the level had one.
            h.write_u64(self.st.level_dir.value() as u64);
        }
        h.finish()
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
        self
    }
}

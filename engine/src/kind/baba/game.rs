//! A running baba game: its state, undo/redo, and the [`Game`] trait (spec baba §2, §4).
//!
//! The state is the set of objects keyed by internal ID (ascending = processing order), the
//! next free ID and the turn counter. Every change to an object goes through
//! `BabaGame::set_obj`, which keeps the cell index, journals the object's previous value and
//! notes what the next refresh must re-read. Undo keeps, per turn, the journal's backward diff
//! (each changed object's value before the turn, IDs included), so undo and redo restore a turn
//! exactly (§2, (C)) with memory proportional to what changed. The turn itself is in `turn.rs`.

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
use crate::game::{Game, GameKind, Layer, Status, StepReport};
use crate::grid::{Dir, Grid, Pos};
use crate::history::{self, History, Trim};
use crate::input::Input;

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
/// included, and one per waiting mover found still waiting without a dry run), each change to
/// an object (move, turn, creation, removal), each object whose
/// properties a refresh reads again (each text tile when only the rule list is read again),
/// and each cell a falling object looks down. The most a turn of any Keke or shipped level
/// takes is 444 (`tests/tests/baba_budget.rs`); a turn
/// that would go over this budget is refused with [`Game::error`], the game left as before
/// it (docs/baba-semantics.md, "Operation budget").
pub const OPERATION_BUDGET: u64 = 100_000_000;

/// Why a turn in progress is abandoned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Halt {
    /// Over the operation budget.
    Budget,
    /// The cancel flag was set.
    Cancel,
}

/// One turn's backward diff: what undo restores, and (swapped) what redo restores.
#[derive(Clone, Debug)]
struct Patch {
    /// Each object the turn changed, with its value on the other side of the turn (`None`:
    /// it did not exist there), in the order the turn first changed them (each object once,
    /// so the order does not matter).
    objs: Vec<(ObjId, Option<Obj>)>,
    next_id: ObjId,
    turn: u64,
    status: Status,
    /// The level's facing on the other side.
    level_dir: Dir,
    /// The ALL set on the other side, when the turn changed it.
    seen: Option<BTreeSet<Noun>>,
}

impl Patch {
    /// The bytes the patch holds (its entries, [`ENTRY_BYTES`] each, the turn's counters and
    /// the ALL set when kept; allocator overhead not counted): what it costs in the history
    /// budget.
    fn cost(&self) -> usize {
        std::mem::size_of::<Patch>()
            + self.objs.len() * ENTRY_BYTES
            + self
                .seen
                .as_ref()
                .map_or(0, |s| s.len() * std::mem::size_of::<Noun>())
    }
}

impl history::Patch for Patch {
    /// [`Patch::cost`].
    #[inline]
    fn bytes(&self) -> usize {
        self.cost()
    }
}

/// How the history drops turns: the oldest applied first while over the budget, never
/// below [`MIN_HISTORY_TURNS`] turns, and never a redoable one.
const TRIM: Trim = Trim {
    min_kept: MIN_HISTORY_TURNS,
    drop_redoable: false,
};

/// What changed since the last refresh.
#[derive(Clone, Debug, Default)]
struct Dirty {
    /// Any object changed.
    any: bool,
    /// The rules may read differently: text was added, removed or moved, or an object entered
    /// or left a cell holding text (the text's stack index changes).
    text: bool,
    /// Everything must be read again: the extra rules or the whole state were replaced, or a
    /// turn was abandoned (the objects' properties may not follow from the rules of the last
    /// refresh).
    full: bool,
    /// Objects added since the last refresh.
    added: Vec<ObjId>,
    /// Objects removed since the last refresh.
    removed: Vec<ObjId>,
}

/// The objects that have each property and each verb at the last refresh, ascending ID (from
/// [`Refresh::derived`]; an object removed since may still be listed). Lets a phase look only
/// at the objects it concerns, and skip itself when no rule gives its property.
#[derive(Clone, Debug, Default)]
struct Holders {
    props: Vec<Vec<ObjId>>,
    verbs: Vec<Vec<ObjId>>,
    /// Objects that `A IS NOT A` makes vanish.
    vanish: Vec<ObjId>,
}

impl Holders {
    fn new() -> Self {
        Self {
            props: vec![Vec::new(); Prop::COUNT],
            verbs: vec![Vec::new(); Verb::ALL.len()],
            vanish: Vec::new(),
        }
    }

    /// Calls `f` on every list `d` puts its object in.
    fn each_list(&mut self, d: &Derived, mut f: impl FnMut(&mut Vec<ObjId>)) {
        for k in Self::lists_of(d) {
            f(self.list_mut(k));
        }
    }

    /// The lists `d` puts its object in, as indices: property `p` is `p`, verb `v` is
    /// `Prop::COUNT + v`, the vanishing list is `Prop::COUNT + Verb::ALL.len()`.
    fn lists_of(d: &Derived) -> Vec<usize> {
        let mut out: Vec<usize> = Vec::new();
        for (p, &c) in d.props.iter().enumerate() {
            if c > 0 {
                out.push(p);
            }
        }
        for (v, _, _) in &d.others {
            let k = Prop::COUNT + *v as usize;
            if !out.contains(&k) {
                out.push(k);
            }
        }
        if d.vanish {
            out.push(Prop::COUNT + Verb::ALL.len());
        }
        out
    }

    /// The list of index `k` (see [`Holders::lists_of`]).
    fn list_mut(&mut self, k: usize) -> &mut Vec<ObjId> {
        if k < Prop::COUNT {
            &mut self.props[k]
        } else if k < Prop::COUNT + Verb::ALL.len() {
            &mut self.verbs[k - Prop::COUNT]
        } else {
            &mut self.vanish
        }
    }

    fn add(&mut self, id: ObjId, d: &Derived) {
        self.each_list(d, |l| {
            if let Err(k) = l.binary_search(&id) {
                l.insert(k, id);
            }
        });
    }

    fn remove(&mut self, id: ObjId, d: &Derived) {
        self.each_list(d, |l| {
            if let Ok(k) = l.binary_search(&id) {
                l.remove(k);
            }
        });
    }
}

/// The number of text objects in each cell, dense (row-major, x = column from the left,
/// y = row from the top): every move asks whether its cells hold text.
#[derive(Clone, Debug, Default)]
struct TextCount {
    width: usize,
    height: usize,
    counts: Vec<u32>,
    /// The text objects on the grid.
    total: u64,
}

impl TextCount {
    /// No text on a `width` × `height` grid.
    fn new(width: usize, height: usize) -> Self {
        Self {
            width,
            height,
            counts: vec![0; width * height],
            total: 0,
        }
    }

    fn slot(&mut self, p: Pos) -> Option<&mut u32> {
        if p.x < self.width && p.y < self.height {
            self.counts.get_mut(p.y * self.width + p.x)
        } else {
            None
        }
    }

    /// A text object entered cell `p`.
    fn add(&mut self, p: Pos) {
        if let Some(n) = self.slot(p) {
            *n += 1;
            self.total += 1;
        }
    }

    /// A text object left cell `p`.
    fn remove(&mut self, p: Pos) {
        if let Some(n) = self.slot(p)
            && *n > 0
        {
            *n -= 1;
            self.total -= 1;
        }
    }

    /// True when cell `p` holds a text object.
    #[inline]
    fn holds(&self, p: Pos) -> bool {
        self.total > 0
            && p.x < self.width
            && p.y < self.height
            && self
                .counts
                .get(p.y * self.width + p.x)
                .is_some_and(|&n| n > 0)
    }
}

/// Sorts cells row-major (by row from the top, then column from the left) and drops repeats,
/// with `marks` (one bit per cell of a `width`-wide map, all clear, and left clear) to find
/// them in order without sorting when the map is small next to the list.
pub(super) fn sort_cells(v: &mut Vec<Pos>, marks: &mut Vec<u64>, width: usize, height: usize) {
    if v.len() < 2 {
        return;
    }
    let cells = width * height;
    if cells <= 32 * v.len() && v.iter().all(|p| p.x < width && p.y < height) {
        // Mark each cell, then read the marks back in order (clearing them again).
        marks.resize(cells.div_ceil(64), 0);
        for p in v.iter() {
            let i = p.y * width + p.x;
            if let Some(w) = marks.get_mut(i / 64) {
                *w |= 1 << (i % 64);
            }
        }
        v.clear();
        for (k, w) in marks.iter_mut().enumerate() {
            while *w != 0 {
                let i = k * 64 + w.trailing_zeros() as usize;
                v.push(Pos::new(i % width, i / width));
                *w &= *w - 1;
            }
        }
        return;
    }
    // One integer key per cell sorts faster than the (row, column) pairs.
    let mut keys: Vec<u64> = v
        .iter()
        .map(|p| ((p.y as u64) << 32) | p.x as u64)
        .collect();
    keys.sort_unstable();
    keys.dedup();
    v.clear();
    v.extend(
        keys.iter()
            .map(|&k| Pos::new((k & 0xffff_ffff) as usize, (k >> 32) as usize)),
    );
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
        };
        let kinds: Vec<Kind> = g.st.objs.values().map(|o| o.kind).collect();
        for k in kinds {
            g.note_seen(k);
        }
        g.rebuild_index();
        g.refresh();
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
    }

    /// True when cell `pos` holds a text object.
    fn holds_text(&self, pos: Pos) -> bool {
        self.text_at.holds(pos)
    }

    /// Sets object `id` to `new` (`None`: removes it) and returns its previous value. Every
    /// change to an object goes through here: it keeps the cell index (ascending ID per cell),
    /// journals the previous value in `log`, and notes what the next refresh must re-read.
    #[inline(always)]
    pub(super) fn set_obj(&mut self, id: ObjId, new: Option<Obj>) -> Option<Obj> {
        let old = match new {
            Some(o) => self.st.objs.insert(id, o),
            None => self.st.objs.remove(&id),
        };
        if old == new {
            return old;
        }
        self.charge(1);
        self.journal(id, old);
        self.dirty.any = true;
        let (from, to) = (old.map(|o| o.pos()), new.map(|o| o.pos()));
        if from == to {
            // Turned only: the rules read it only through conditions (`conditional`).
            return old;
        }
        // A cell emptied keeps its (empty) list: objects go back and forth between the same
        // cells, and freeing and allocating the list on every move cost more than the move.
        if let Some(p) = from
            && let Some(cell) = self.index.get_mut(&p)
            && let Ok(k) = cell.binary_search(&id)
        {
            cell.remove(k);
        }
        if let Some(p) = to
            && let Some(cell) = self.index.get_mut(&p)
            && let Err(k) = cell.binary_search(&id)
        {
            cell.insert(k, id);
        }
        let is_text = old.or(new).is_some_and(|o| o.kind.is_text());
        if is_text {
            if let Some(p) = from {
                self.text_at.remove(p);
            }
            if let Some(p) = to {
                self.text_at.add(p);
            }
        }
        match (old, new) {
            (None, Some(_)) => {
                self.edits += 1;
                self.dirty.added.push(id);
            }
            (Some(_), None) => {
                self.edits += 1;
                self.dirty.removed.push(id);
            }
            _ if is_text => self.edits += 1,
            _ => {}
        }
        if is_text
            || from.is_some_and(|p| self.holds_text(p))
            || to.is_some_and(|p| self.holds_text(p))
        {
            self.dirty.text = true;
        }
        old
    }

    /// Adds an object (its ID must be new and larger than every other).
    pub(super) fn insert_obj(&mut self, id: ObjId, o: Obj) {
        self.note_seen(o.kind);
        self.set_obj(id, Some(o));
    }

    /// Removes an object; `None` when it does not exist.
    pub(super) fn remove_obj(&mut self, id: ObjId) -> Option<Obj> {
        if !self.st.objs.contains_key(&id) {
            return None;
        }
        self.set_obj(id, None)
    }

    /// Moves an object to `pos`.
    pub(super) fn move_obj(&mut self, id: ObjId, pos: Pos) {
        if let Some(&o) = self.st.objs.get(&id) {
            self.set_obj(id, Some(o.at(pos)));
        }
    }

    /// Turns an object to face `dir`.
    pub(super) fn turn_obj(&mut self, id: ObjId, dir: Dir) {
        // Every move turns its mover first, mostly to the facing it already has.
        if let Some(&o) = self.st.objs.get(&id)
            && o.dir != dir
        {
            self.set_obj(id, Some(Obj { dir, ..o }));
        }
    }

    /// Enters object `id`'s value `before` its change in the turn's and the phase's journals,
    /// unless it is already in them.
    fn journal(&mut self, id: ObjId, before: Option<Obj>) {
        let phase = self.phase_epoch;
        match self.logged.get_mut(&id) {
            Some(mark) => {
                if *mark != phase {
                    *mark = phase;
                    self.phase_log.push((id, before));
                }
            }
            None => {
                self.logged.insert(id, phase);
                self.log.push((id, before));
                self.phase_log.push((id, before));
            }
        }
    }

    /// Takes the turn's journal out (its objects count as not entered any more) and empties
    /// the phase's.
    pub(super) fn take_journal(&mut self) -> Vec<(ObjId, Option<Obj>)> {
        let log = std::mem::take(&mut self.log);
        for (id, _) in &log {
            self.logged.remove_keeping_page(id);
        }
        // The marks' pages stay for the next turn's objects, unless objects made since left
        // them far more than the objects need: then they go (every mark is gone by now).
        if self.logged.pages_held() > 2 * self.st.objs.pages_held() + 16 {
            self.logged = ById::default();
        }
        self.begin_phase();
        log
    }

    /// Empties the turn's journal (and the phase's).
    pub(super) fn clear_journal(&mut self) {
        let mut log = self.take_journal();
        // Keep the list's memory for the next turn.
        log.clear();
        self.log = log;
    }

    /// The pages the journal's marks hold (for tests of the memory bound).
    #[cfg(test)]
    pub(super) fn logged_pages(&self) -> usize {
        self.logged.pages_held()
    }

    /// Starts a phase: its journal `phase_log` is emptied.
    pub(super) fn begin_phase(&mut self) {
        self.phase_log.clear();
        // Marks of an earlier phase differ from the new epoch: an object's mark lives at most
        // one turn (`take_journal`), far fewer phases than the epoch wraps after.
        self.phase_epoch = self.phase_epoch.wrapping_add(1);
    }

    /// The objects the turn changed, with their values before it, in the order of their first
    /// change; objects changed back to that value are left out.
    pub(super) fn turn_changes(&self) -> Vec<(ObjId, Option<Obj>)> {
        let mut out = Vec::with_capacity(self.log.len());
        for &(id, before) in &self.log {
            if self.st.objs.get(&id) != before.as_ref() {
                out.push((id, before));
            }
        }
        out
    }

    /// Adds to `v` the cells whose contents differ from when the phase began (an object
    /// added, removed, moved or turned there), in no set order and possibly twice.
    pub(super) fn phase_cells(&self, v: &mut Vec<Pos>) {
        v.reserve(2 * self.phase_log.len());
        for (id, before) in &self.phase_log {
            let now = self.st.objs.get(id);
            if before.as_ref() != now {
                v.extend(before.map(|b| b.pos()));
                v.extend(now.map(Obj::pos));
            }
        }
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

    /// What the last refresh gave `id`; no property at all for an object it did not read.
    pub(super) fn props_of(&self, id: ObjId) -> &Derived {
        static NONE: Derived = Derived {
            props: [0; super::word::Prop::COUNT],
            others: Vec::new(),
            vanish: false,
            negs: Vec::new(),
        };
        self.cur.derived.get(&id).unwrap_or(&NONE)
    }

    pub(super) fn derived(&self, id: ObjId) -> Option<&Derived> {
        self.cur.derived.get(&id)
    }

    pub(super) fn has(&self, id: ObjId, p: Prop) -> bool {
        self.derived(id).is_some_and(|d| d.has(p))
    }

    pub(super) fn count(&self, id: ObjId, p: Prop) -> u16 {
        self.derived(id).map_or(0, |d| d.get(p))
    }

    /// What the EMPTY rules give the object-free cell `pos` (Tier 2).
    pub(super) fn empty_at(&self, pos: Pos) -> Derived {
        let world = World {
            objs: &self.st.objs,
            width: self.width,
            height: self.height,
        };
        super::eval::empty_derived(&world, &self.index, &self.cur.empty_rules, pos)
    }

    /// The objects that have property `p` at the last refresh and still exist, ascending ID.
    pub(super) fn with_prop(&self, p: Prop) -> Vec<ObjId> {
        self.existing(&self.holders.props[p as usize])
    }

    /// The objects of `ids` that still exist, in the order of `ids` (one allocation: these
    /// lists are read by every phase of every turn).
    fn existing(&self, ids: &[ObjId]) -> Vec<ObjId> {
        let mut v = Vec::with_capacity(ids.len());
        v.extend(
            ids.iter()
                .copied()
                .filter(|id| self.st.objs.contains_key(id)),
        );
        v
    }

    /// True when no object had property `p` at the last refresh.
    pub(super) fn nobody(&self, p: Prop) -> bool {
        self.holders.props[p as usize].is_empty()
    }

    /// The objects whose rules at the last refresh have verb `v` with a noun (IS noun, HAS,
    /// MAKE, EAT, FEAR, FOLLOW, WRITE) and that still exist, ascending ID.
    pub(super) fn with_verb(&self, v: Verb) -> Vec<ObjId> {
        self.existing(&self.holders.verbs[v as usize])
    }

    /// The objects that `A IS NOT A` makes vanish at the last refresh and that still exist.
    pub(super) fn vanishing(&self) -> Vec<ObjId> {
        self.existing(&self.holders.vanish)
    }

    /// Rebuilds rules and properties (§4.2 "refresh"). The result is what a full re-read of
    /// every object gives; only what changed since the last refresh is re-read: nothing when
    /// no object changed; while no rule has a condition or WORD (an object's properties then
    /// depend on its kind and the rule list alone), the added and removed objects when no text
    /// moved (or was added or removed, or had an object enter or leave its cell), and the rule
    /// list too when text moved but still forms the same rules in the same order; everything
    /// otherwise, and after the extra rules or the whole state were replaced or a turn was
    /// abandoned (`Dirty::full`).
    pub(super) fn refresh(&mut self) {
        if !self.dirty.any || self.halted() {
            return;
        }
        let dirty = std::mem::take(&mut self.dirty);
        if dirty.full || self.conditional {
            self.charge(self.st.objs.len() as u64);
            self.full_refresh();
            return;
        }
        if dirty.text {
            // Text moved. Without conditions (and WORD), what the rules give an object depends
            // on its kind and the rule list alone: when the text still forms the same rules in
            // the same order, every object read at the last refresh keeps its properties, and
            // only the rule list (its tiles) and the objects added or removed need reading.
            let texts = super::eval::text_tiles(&self.st.objs, &self.index);
            self.charge(texts.len() as u64);
            let formed = self.rule_cache.form(self.width, self.height, &texts);
            let same = formed
                .iter()
                .map(|f| &f.rule)
                .eq(self.cur.formed.iter().map(|f| &f.rule));
            if !same {
                self.charge(self.st.objs.len() as u64);
                self.full_refresh_formed(Some(formed));
                return;
            }
            self.cur.formed = formed;
        }
        self.charge((dirty.added.len() + dirty.removed.len()) as u64);
        if dirty.added.is_empty() && dirty.removed.is_empty() {
            return;
        }
        let world = World {
            objs: &self.st.objs,
            width: self.width,
            height: self.height,
        };
        let implicit = implicit_rules();
        let rules = active_rules(&self.cur.formed, &self.extra, &implicit);
        for id in dirty.removed.into_iter().chain(dirty.added) {
            match world.objs.get(&id) {
                Some(o) if !self.cur.derived.contains_key(&id) => {
                    let d = self
                        .by_kind
                        .entry(o.kind)
                        .or_insert_with(|| derive(&world, &self.index, id, o, &rules))
                        .clone();
                    self.holders.add(id, &d);
                    self.cur.derived.insert(id, d);
                }
                Some(_) => {}
                None => {
                    if let Some(d) = self.cur.derived.remove(&id) {
                        self.holders.remove(id, &d);
                    }
                }
            }
        }
    }

    /// Re-reads the rules from the text and every object's properties.
    fn full_refresh(&mut self) {
        self.full_refresh_formed(None);
    }

    /// [`Self::full_refresh`] with the rules of the text tiles already formed, if given.
    fn full_refresh_formed(&mut self, formed: Option<Vec<FormedRule>>) {
        let world = World {
            objs: &self.st.objs,
            width: self.width,
            height: self.height,
        };
        self.cur = super::eval::refresh_formed(
            &world,
            &self.index,
            &self.extra,
            &mut self.rule_cache,
            formed,
        );
        if self.cur.infinite {
            // §3.7 infinite-loop guard (Tier 2 WORD): every object vanishes, and the rules
            // are read again from what is left.
            let ids: Vec<ObjId> = self.st.objs.keys().copied().collect();
            for id in ids {
                self.remove_obj(id);
            }
            self.dirty = Dirty::default();
            self.full_refresh();
            return;
        }
        // A condition (on an object's rule, or a LEVEL rule's) reads positions, and a WORD
        // rule makes the entities that are WORD act as text wherever they stand (§5.13): with
        // either in force, any move can change what the rules give.
        self.conditional = self
            .cur
            .formed
            .iter()
            .map(|f| &f.rule)
            .chain(&self.extra)
            .any(|r| !r.conditions.is_empty() || r.complement == Word::Prop(Prop::Word));
        self.by_kind.clear();
        let mut holders = Holders::new();
        // Without conditions (or WORD) every object of a kind has the same properties, so
        // the lists of a kind are worked out once.
        let mut by_kind: FxHashMap<Kind, Vec<usize>> = FxHashMap::default();
        for (&id, o) in &self.st.objs {
            let lists = match by_kind.get(&o.kind) {
                Some(l) if !self.conditional => l,
                _ => {
                    let Some(d) = self.cur.derived.get(&id) else {
                        continue;
                    };
                    by_kind
                        .entry(o.kind)
                        .insert_entry(Holders::lists_of(d))
                        .into_mut()
                }
            };
            for &k in lists.iter() {
                holders.list_mut(k).push(id);
            }
        }
        self.holders = holders;
    }

    /// Won when a YOU object is WIN (or Tier 2 END) or overlaps such an object (same cell and
    /// float, §5.11, §5.13);
    /// lost when nothing is YOU; running otherwise. `allow_win` is false at turn 0.
    pub(super) fn compute_status(&self, allow_win: bool) -> Status {
        let mut any_you = self.level_is_you();
        let (mut empty_you, mut empty_win) = (false, false);
        if !self.cur.empty_rules.is_empty() {
            for (pos, _) in self.level.map.iter() {
                let d = self.empty_at(pos);
                empty_you |= d.has(Prop::You);
                empty_win |= d.has(Prop::Win);
                if d.has(Prop::You) {
                    any_you = true;
                    if allow_win && d.has(Prop::Win) {
                        return Status::won(1);
                    }
                }
            }
        }
        // Tier 2: the level itself (level_thing.rs).
        if allow_win && self.level_wins(empty_you, empty_win) {
            return Status::won(1);
        }
        // Read in place (this runs twice a turn): the holders of YOU that still exist.
        for &id in &self.holders.props[Prop::You as usize] {
            let Some(o) = self.st.objs.get(&id) else {
                continue;
            };
            any_you = true;
            if !allow_win {
                continue;
            }
            let fl = self.has(id, Prop::Float);
            let wins = self.index.get(&o.pos()).is_some_and(|ids| {
                ids.iter().any(|&wid| {
                    (self.has(wid, Prop::Win) || self.has(wid, Prop::End))
                        && self.has(wid, Prop::Float) == fl
                })
            });
            if wins {
                return Status::won(1);
            }
        }
        if any_you {
            Status::Running
        } else {
            Status::Lost {
                reason: "nothing is you".into(),
            }
        }
    }

    fn record_and_turn(&mut self, input: Option<Dir>) -> StepReport {
        if self.history.trimmed() == 0 && self.history.applied() == 0 && self.start.is_none() {
            self.start = Some(Box::new(self.st.clone()));
        }
        let (next_id, turn, status) = (self.st.next_id, self.st.turn, self.st.status.clone());
        let level_dir = self.st.level_dir;
        self.seen_before = None;
        self.clear_journal();
        self.ops.set(0);
        self.halt.set(None);
        let phases = self.run_turn(input);
        self.last_ops = self.ops.get();
        if let Some(halt) = self.halt.take() {
            // Abandoned: every change of the turn is undone from the journal, newest first,
            // and the rules are read again from the restored objects (what a full re-read
            // gives is what the incremental refreshes kept), so the state, its hash and the
            // history are those of before the turn.
            // Each object goes back to its value before the turn (the journal holds it once).
            let log = self.take_journal();
            for (id, before) in log.into_iter().rev() {
                self.set_obj(id, before);
            }
            self.clear_journal();
            self.st.next_id = next_id;
            self.st.turn = turn;
            self.st.status = status;
            self.st.level_dir = level_dir;
            if let Some(seen) = self.seen_before.take() {
                self.st.seen = seen;
            }
            self.level_destroyed = false;
            self.capped = false;
            self.dirty.any = true;
            self.dirty.text = true;
            self.dirty.full = true;
            self.ops.set(0);
            self.halt.set(None);
            self.refresh();
            self.halt.set(None);
            if halt == Halt::Budget {
                self.error = Some(format!(
                    "turn {} went over the operation budget of {} operations (moves, object \
                     changes, property re-reads); the game is left as it was before the turn",
                    turn + 1,
                    self.op_budget
                ));
            }
            return StepReport {
                step: self.st.turn,
                ..StepReport::default()
            };
        }
        let objs = self.turn_changes();
        let mut changed = Vec::with_capacity(2 * objs.len());
        for (id, before) in &objs {
            if let Some(b) = before {
                changed.push(b.pos());
            }
            if let Some(n) = self.st.objs.get(id) {
                changed.push(n.pos());
            }
        }
        sort_cells(&mut changed, &mut self.cell_marks, self.width, self.height);
        self.clear_journal();
        let patch = Patch {
            objs,
            next_id,
            turn,
            status,
            level_dir,
            seen: self.seen_before.take(),
        };
        // The redoable turns are dropped here; then the oldest turns while over the budget.
        self.history.record(patch);
        StepReport {
            step: self.st.turn,
            changed,
            fired: Vec::new(),
            phases,
        }
    }

    /// Applies history entry `k` (undo: the newest applied turn; redo: the oldest redoable
    /// one) and leaves its other side in its place.
    fn swap_patch(&mut self, k: usize) {
        let empty = Patch {
            objs: Vec::new(),
            next_id: 0,
            turn: 0,
            status: Status::Running,
            level_dir: Dir::Down,
            seen: None,
        };
        // The ALL set swapped in may differ in size from the one swapped out: the history
        // takes the patch's cost back here and counts it again when it is put back.
        let Some(mut p) = self.history.take(k, empty) else {
            return;
        };
        // Undo and redo are not turns: they start their own count, so the last turn's
        // operations (or a cancel of it) cannot stop the refresh below half-way.
        self.ops.set(0);
        self.halt.set(None);
        for (id, val) in &mut p.objs {
            *val = self.set_obj(*id, *val);
        }
        std::mem::swap(&mut self.st.next_id, &mut p.next_id);
        std::mem::swap(&mut self.st.turn, &mut p.turn);
        std::mem::swap(&mut self.st.status, &mut p.status);
        std::mem::swap(&mut self.st.level_dir, &mut p.level_dir);
        if let Some(seen) = &mut p.seen {
            std::mem::swap(&mut self.st.seen, seen);
        }
        self.history.put(k, p);
        self.clear_journal();
        // The turn-0 state may hold more than the cap; a turn's end never does.
        self.capped = false;
        self.refresh();
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

    fn summary(&self) -> Value {
        let rules: Vec<&str> = self.cur.formed.iter().map(|r| r.text.as_str()).collect();
        json!({
            "kind": "baba",
            "status": self.st.status.word(),
            "turns": self.st.turn,
            "rules": rules,
        })
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

    fn state_hash(&self) -> u64 {
        let mut h = crate::hash::Fnv::new();
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

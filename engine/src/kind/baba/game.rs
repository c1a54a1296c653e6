//! A running baba game: its state, undo/redo, and the [`Game`] trait (spec baba §2, §4).
//!
//! The state is the set of objects keyed by internal ID (ascending = processing order), the
//! next free ID and the turn counter. Undo keeps a full snapshot per turn, IDs included, so
//! undo and redo restore a turn exactly (§2, (C)). The turn itself is in `turn.rs`.

use std::collections::BTreeMap;

use rustc_hash::FxHashMap;

use serde::Serialize;
use serde_json::{Value, json};

use super::eval::{Derived, Obj, ObjId, Refresh, World, refresh};
use super::level::{BabaLevel, Tile};
use super::rules::{FormedRule, Rule, TextTile, unused_text};
use super::word::{Kind, Prop};
use crate::grid::{Dir, Grid, Pos};
use crate::kind::{Game, Input, Layer, Status, StepReport};

/// The saved part of a game: what undo restores.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct State {
    pub objs: BTreeMap<ObjId, Obj>,
    pub next_id: ObjId,
    /// Tier 2 ALL: every object noun that has existed since the level start, as an entity or
    /// as noun text (§5.13).
    pub seen: std::collections::BTreeSet<super::word::Noun>,
    pub turn: u64,
    pub status: Status,
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

/// The most object copies the undo history keeps (about 5 million objects' worth of memory);
/// older turns are dropped first, and `restart` still returns to the level's start.
pub const HISTORY_OBJECTS: usize = 5_000_000;

/// About the bytes one object copy takes in a kept state (the object and its share of the
/// map's nodes): converts [`Game::set_history_budget`]'s bytes to object copies.
pub const OBJECT_BYTES: usize = 48;

/// The undo history always keeps at least this many turns.
pub const MIN_HISTORY_TURNS: usize = 64;

/// A baba game in play (spec baba).
#[derive(Clone, Debug)]
pub struct BabaGame {
    pub(super) level: BabaLevel,
    pub(super) seed: u64,
    pub(super) st: State,
    pub(super) width: usize,
    pub(super) height: usize,
    /// Rules that hold as if formed by text outside the map.
    pub(super) extra: Vec<Rule>,
    /// The last refresh.
    pub(super) cur: Refresh,
    /// The objects of each cell, ascending ID (rebuilt after undo and redo).
    pub(super) index: FxHashMap<Pos, Vec<ObjId>>,
    /// The objects the last refresh read (a refresh of the same objects is skipped).
    refreshed: Option<BTreeMap<ObjId, Obj>>,
    /// Counts the changes that can change the rules or the set of objects: an object added
    /// or removed, a text object moved. A step that leaves it unchanged moved only non-text
    /// objects, which changes no object's properties unless a rule has a condition (FALL
    /// uses this to skip refreshes, §5.13).
    pub(super) edits: u64,
    history: Vec<State>,
    cursor: usize,
    /// Turns dropped from the front of `history` to bound its memory.
    dropped: usize,
    /// The state at the level's start, for `restart` after turns were dropped.
    start: Option<Box<State>>,
    /// Object copies the history may hold (see [`HISTORY_OBJECTS`]).
    history_budget: usize,
    /// Tier 2: the level was destroyed in this turn's step 13, so it cannot win in step 14.
    pub(super) level_destroyed: bool,
}

impl BabaGame {
    /// Sets how many object copies the undo history may hold (default [`HISTORY_OBJECTS`]);
    /// it always keeps at least [`MIN_HISTORY_TURNS`] turns.
    pub fn set_history_budget(&mut self, objects: usize) {
        self.history_budget = objects;
    }

    /// Starts a game of `level`. IDs are assigned row-major, then bottom to top in each stack
    /// (§2 (C)). The rules are read at once (turn 0: a refresh only, §4.2).
    pub fn new(level: BabaLevel, seed: u64) -> Self {
        let mut objs = BTreeMap::new();
        let mut next_id: ObjId = 1;
        for (pos, stack) in level.map.iter() {
            for t in stack {
                objs.insert(
                    next_id,
                    Obj {
                        kind: t.kind,
                        x: pos.x,
                        y: pos.y,
                        dir: t.dir,
                    },
                );
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
            },
            width,
            height,
            extra: Vec::new(),
            cur: Refresh::default(),
            refreshed: None,
            edits: 0,
            index: FxHashMap::default(),
            history: Vec::new(),
            cursor: 0,
            dropped: 0,
            start: None,
            history_budget: HISTORY_OBJECTS,
            level_destroyed: false,
        };
        let kinds: Vec<Kind> = g.st.objs.values().map(|o| o.kind).collect();
        for k in kinds {
            g.note_seen(k);
        }
        g.rebuild_index();
        g.refresh();
        g.st.status = g.compute_status(false);
        g
    }

    /// Records the object noun of `kind` for ALL (an entity's noun, or a noun text's noun).
    fn note_seen(&mut self, kind: Kind) {
        let n = match kind {
            Kind::Entity(n) | Kind::Text(super::word::Word::Noun(n)) => n,
            Kind::Text(_) => return,
        };
        if n.is_object() {
            self.st.seen.insert(n);
        }
    }

    fn rebuild_index(&mut self) {
        self.index = super::eval::cell_index(&self.st.objs);
    }

    /// Adds an object (its ID must be new and larger than every other).
    pub(super) fn insert_obj(&mut self, id: ObjId, o: Obj) {
        self.edits += 1;
        self.note_seen(o.kind);
        let cell = self.index.entry(o.pos()).or_default();
        cell.push(id);
        cell.sort_unstable();
        self.st.objs.insert(id, o);
    }

    /// Removes an object; `None` when it does not exist.
    pub(super) fn remove_obj(&mut self, id: ObjId) -> Option<Obj> {
        let o = self.st.objs.remove(&id)?;
        self.edits += 1;
        if let Some(cell) = self.index.get_mut(&o.pos()) {
            cell.retain(|&x| x != id);
            if cell.is_empty() {
                self.index.remove(&o.pos());
            }
        }
        Some(o)
    }

    /// Moves an object to `pos`.
    pub(super) fn move_obj(&mut self, id: ObjId, pos: Pos) {
        let Some(o) = self.st.objs.get_mut(&id) else {
            return;
        };
        let from = o.pos();
        if from == pos {
            return;
        }
        if o.kind.is_text() {
            self.edits += 1;
        }
        o.x = pos.x;
        o.y = pos.y;
        if let Some(cell) = self.index.get_mut(&from) {
            cell.retain(|&x| x != id);
            if cell.is_empty() {
                self.index.remove(&from);
            }
        }
        let cell = self.index.entry(pos).or_default();
        cell.push(id);
        cell.sort_unstable();
    }

    /// Adds rules that hold as if formed by text outside the map (the spec's "Rules:" lines,
    /// and rule previews). Applies at once (a refresh) and at every later refresh.
    pub fn set_extra_rules(&mut self, rules: Vec<Rule>) {
        self.extra = rules;
        self.refreshed = None;
        self.refresh();
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
        self.objects()
            .into_iter()
            .filter(|o| o.pos == pos)
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
        let mut texts: Vec<TextTile> = self
            .st
            .objs
            .iter()
            .filter_map(|(id, o)| match o.kind {
                Kind::Text(word) => {
                    let layer = self.index.get(&o.pos())?.iter().position(|x| x == id)?;
                    Some(TextTile {
                        pos: o.pos(),
                        layer,
                        word,
                    })
                }
                Kind::Entity(_) => None,
            })
            .collect();
        texts.sort_by_key(|t| (t.pos.y, t.pos.x, t.layer));
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
        }
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

    /// Rebuilds rules and properties (§4.2 "refresh").
    pub(super) fn refresh(&mut self) {
        if self.refreshed.as_ref() == Some(&self.st.objs) {
            return;
        }
        self.refreshed = Some(self.st.objs.clone());
        let world = World {
            objs: &self.st.objs,
            width: self.width,
            height: self.height,
        };
        self.cur = refresh(&world, &self.extra);
        if self.cur.infinite {
            // §3.7 infinite-loop guard (Tier 2 WORD): every object vanishes.
            let ids: Vec<ObjId> = self.st.objs.keys().copied().collect();
            for id in ids {
                self.remove_obj(id);
            }
            self.refresh();
        }
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
        for (&id, o) in &self.st.objs {
            if !self.has(id, Prop::You) {
                continue;
            }
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

    /// The cells whose contents differ between two object sets (an object added, removed,
    /// moved, turned or changed), row-major.
    pub(super) fn changed_cells(a: &BTreeMap<ObjId, Obj>, b: &BTreeMap<ObjId, Obj>) -> Vec<Pos> {
        if a == b {
            return Vec::new();
        }
        let mut v = Vec::new();
        for (id, o) in a {
            match b.get(id) {
                Some(n) if n == o => {}
                Some(n) => {
                    v.push(o.pos());
                    v.push(n.pos());
                }
                None => v.push(o.pos()),
            }
        }
        for (id, n) in b {
            if !a.contains_key(id) {
                v.push(n.pos());
            }
        }
        v.sort_by_key(|p| (p.y, p.x));
        v.dedup();
        v
    }

    fn record_and_turn(&mut self, input: Option<Dir>) -> StepReport {
        self.history.truncate(self.cursor);
        if self.dropped == 0 && self.cursor == 0 && self.start.is_none() {
            self.start = Some(Box::new(self.st.clone()));
        }
        self.history.push(self.st.clone());
        self.cursor += 1;
        // The history holds a whole state per turn: keep at most HISTORY_OBJECTS object copies
        // (and at least 64 turns), dropping the oldest turns first.
        let limit = (self.history_budget / self.st.objs.len().max(1)).max(MIN_HISTORY_TURNS);
        if self.history.len() > limit {
            let extra = self.history.len() - limit;
            self.history.drain(..extra);
            self.cursor -= extra;
            self.dropped += extra;
        }
        let before = self.st.objs.clone();
        let phases = self.run_turn(input);
        StepReport {
            step: self.st.turn,
            changed: Self::changed_cells(&before, &self.st.objs),
            fired: Vec::new(),
            phases,
        }
    }
}

impl Game for BabaGame {
    fn kind(&self) -> &'static str {
        "baba"
    }

    fn size(&self) -> (usize, usize) {
        (self.width, self.height)
    }

    fn step(&mut self, input: Input) -> StepReport {
        let dir = match input {
            Input::Undo => {
                self.undo();
                return StepReport {
                    step: self.st.turn,
                    ..StepReport::default()
                };
            }
            Input::Restart => {
                while self.undo() {}
                if self.dropped > 0
                    && let Some(start) = self.start.clone()
                {
                    self.st = *start;
                    self.history.clear();
                    self.cursor = 0;
                    self.dropped = 0;
                    self.rebuild_index();
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
        if matches!(self.st.status, Status::Won { .. }) {
            return StepReport {
                step: self.st.turn,
                ..StepReport::default()
            };
        }
        self.record_and_turn(dir)
    }

    fn undo(&mut self) -> bool {
        if self.cursor == 0 {
            return false;
        }
        self.cursor -= 1;
        if let Some(s) = self.history.get_mut(self.cursor) {
            std::mem::swap(&mut self.st, s);
        }
        self.rebuild_index();
        self.refresh();
        true
    }

    fn redo(&mut self) -> bool {
        if self.cursor >= self.history.len() {
            return false;
        }
        if let Some(s) = self.history.get_mut(self.cursor) {
            std::mem::swap(&mut self.st, s);
        }
        self.cursor += 1;
        self.rebuild_index();
        self.refresh();
        true
    }

    /// Lost is not final in baba (nothing is YOU, but MOVE and SHIFT objects still move and a
    /// YOU rule may form again); only a win ends the game.
    fn takes_turns(&self) -> bool {
        !matches!(self.st.status, Status::Won { .. })
    }

    fn steps(&self) -> u64 {
        (self.dropped + self.cursor) as u64
    }

    fn redo_len(&self) -> usize {
        self.history.len() - self.cursor
    }

    /// An estimate until the history is a journal: each kept state holds a copy of every
    /// object (about [`OBJECT_BYTES`] each in its map).
    fn history_bytes(&self) -> usize {
        self.history
            .iter()
            .map(|s| std::mem::size_of::<State>() + s.objs.len() * OBJECT_BYTES)
            .sum()
    }

    /// The byte budget as a number of object copies ([`OBJECT_BYTES`] each); at least
    /// [`MIN_HISTORY_TURNS`] turns are always kept.
    fn set_history_budget(&mut self, bytes: usize) {
        BabaGame::set_history_budget(self, bytes / OBJECT_BYTES);
    }

    fn history_trimmed(&self) -> u64 {
        self.dropped as u64
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
        self.st
            .objs
            .values()
            .filter(|o| o.pos() == pos)
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
        h.finish()
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
        self
    }
}

//! The phases of a turn after movement (§4.2): transform, follow and facing, tele, align,
//! make, fall, more, the win and bonus checks and the interactions.

use std::collections::BTreeMap;

use rustc_hash::FxHashSet as HashSet;

use crate::eval::{Obj, ObjId, dir_from_props};
use crate::game::BabaGame;
use crate::word::{Kind, Noun, Prop, Verb, Word};
use tilesmith_core::grid::{Dir, Pos};

use super::*;

impl BabaGame {
    /// 4 and 7: `A IS B` transformations and `A IS NOT A` vanishing (§5.4). Each object
    /// transforms at most once per turn.
    pub(super) fn transform(&mut self, transformed: &mut HashSet<ObjId>) {
        // Only the objects with `A IS NOT A` or an `IS noun` can change.
        let mut ids = self.with_verb(Verb::Is);
        ids.extend(self.vanishing());
        ids.sort_unstable();
        ids.dedup();
        for id in ids {
            if transformed.contains(&id) {
                continue;
            }
            // What the rules give it is read in place (a copy of it cost an allocation for
            // every object with an IS rule in every transformation pass).
            let (Some(o), Some(d)) = (self.obj(id).copied(), self.derived(id)) else {
                continue;
            };
            if d.vanish {
                self.remove_obj(id);
                continue;
            }
            // Most objects with an IS noun rule keep their kind (`A IS A`, or nothing turns
            // them): told without building the list of targets, which cost an allocation
            // for each of them in every transformation pass.
            let is_noun = |n: Option<Noun>| {
                d.others.iter().any(|(v, w, _)| {
                    *v == Verb::Is && matches!(w, Word::Noun(x) if n.is_none_or(|n| *x == n))
                })
            };
            if !is_noun(None) || is_noun(Some(o.kind.noun())) {
                continue;
            }
            let mut targets: Vec<Noun> = Vec::new();
            for (v, w, _) in &d.others {
                if let (Verb::Is, Word::Noun(n)) = (v, w)
                    && !targets.contains(n)
                {
                    targets.push(*n);
                }
            }
            if targets.is_empty() || targets.contains(&o.kind.noun()) {
                continue;
            }
            if targets.contains(&Noun::ALL) {
                let negs = d.negs.clone();
                // Tier 2 `A IS ALL`: A stays (unless it is text) and each ALL kind missing
                // from its cell appears there, except kinds excluded by `A IS NOT B`.
                let here: Vec<Kind> = self
                    .ids_at(o.pos())
                    .iter()
                    .filter_map(|x| self.obj(*x).map(|xo| xo.kind))
                    .collect();
                let missing: Vec<Noun> = self
                    .st
                    .seen
                    .iter()
                    .copied()
                    .filter(|n| {
                        !here.contains(&Kind::Entity(*n))
                            && !negs.contains(&(Verb::Is, Word::Noun(*n)))
                    })
                    .collect();
                for n in missing {
                    let new = self.spawn(Kind::Entity(n), o.pos(), o.dir);
                    transformed.insert(new);
                }
                targets.retain(|&n| n != Noun::ALL);
                if o.kind.is_text() {
                    self.remove_obj(id);
                    continue;
                }
                if targets.is_empty() {
                    continue;
                }
            }
            let kinds: Vec<Kind> = targets
                .iter()
                .filter_map(|&n| spawn_kind(o.kind, Word::Noun(n)))
                .collect();
            let vanishes = targets.contains(&Noun::EMPTY);
            if kinds.is_empty() && !vanishes {
                continue;
            }
            self.remove_obj(id);
            for k in kinds {
                let new = self.spawn(k, o.pos(), o.dir);
                transformed.insert(new);
            }
        }
    }

    /// 5 (Tier 2): FOLLOW, before DIRs (§5.13). An object that FOLLOWs B faces the first of
    /// front, left, right, back that holds a B; with no B adjacent, the nearest B (Manhattan
    /// distance, ties by ID; a B on its own cell is ignored), vertically at an exact diagonal.
    pub(super) fn follow(&mut self) {
        let ids = self.with_verb(Verb::Follow);
        for id in ids {
            let (Some(o), Some(d)) = (self.obj(id).copied(), self.derived(id)) else {
                continue;
            };
            let Some(target) = d.others.iter().find_map(|(v, w, _)| match (v, w) {
                (Verb::Follow, Word::Noun(n)) => Some(*n),
                _ => None,
            }) else {
                continue;
            };
            let is_b = |k: Kind| crate::eval::subject_covers(target, false, k);
            let holds_b = |p: Pos| {
                self.ids_at(p)
                    .iter()
                    .any(|&x| x != id && self.obj(x).is_some_and(|xo| is_b(xo.kind)))
            };
            let order = [
                o.dir,
                o.dir.turn_left(),
                o.dir.turn_right(),
                o.dir.reverse(),
            ];
            let adjacent = order.into_iter().find(|&dir| {
                o.pos()
                    .step(dir, self.width, self.height)
                    .is_some_and(holds_b)
            });
            let nd = adjacent.or_else(|| {
                let nearest = self
                    .st
                    .objs
                    .iter()
                    .filter(|(x, xo)| **x != id && xo.pos() != o.pos() && is_b(xo.kind))
                    .min_by_key(|(x, xo)| (xo.x.abs_diff(o.x) + xo.y.abs_diff(o.y), **x))
                    .map(|(_, xo)| *xo)?;
                let (dx, dy) = (nearest.x as i64 - o.x as i64, nearest.y as i64 - o.y as i64);
                Some(if dy.abs() >= dx.abs() {
                    if dy < 0 { Dir::Up } else { Dir::Down }
                } else if dx < 0 {
                    Dir::Left
                } else {
                    Dir::Right
                })
            });
            if let Some(nd) = nd {
                self.set_dir(id, nd);
            }
        }
    }

    /// 5: DIRs (not on turn 0, which never runs a turn).
    pub(super) fn apply_dirs(&mut self) {
        self.follow();
        // Tier 2: the level's DIRs (level_thing.rs).
        self.face_level();
        let dirs = [Prop::Up, Prop::Down, Prop::Left, Prop::Right];
        if dirs.iter().all(|&p| self.nobody(p)) {
            return;
        }
        let mut ids: Vec<ObjId> = dirs.into_iter().flat_map(|p| self.with_prop(p)).collect();
        ids.sort_unstable();
        ids.dedup();
        for id in ids {
            let (Some(o), Some(d)) = (self.obj(id), self.derived(id)) else {
                continue;
            };
            if let Some(nd) = dir_from_props(d, o.dir) {
                self.set_dir(id, nd);
            }
        }
    }

    /// 8: TELE (§5.10). Teleporters link within their kind; each object overlapping a TELE
    /// object of another kind goes to the cell of another TELE object of that kind, picked at
    /// random among those cells (row-major); the set of travellers is fixed first.
    pub(super) fn tele(&mut self) {
        if self.nobody(Prop::Tele) {
            return;
        }
        let mut pads: BTreeMap<Kind, Vec<Pos>> = BTreeMap::new();
        for (&id, o) in &self.st.objs {
            if self.has(id, Prop::Tele) {
                let v = pads.entry(o.kind).or_default();
                if !v.contains(&o.pos()) {
                    v.push(o.pos());
                }
            }
        }
        for v in pads.values_mut() {
            v.sort_unstable_by_key(|p| (p.y, p.x));
        }
        let mut travellers: Vec<(ObjId, Vec<Pos>)> = Vec::new();
        for (&id, o) in &self.st.objs {
            if self.has(id, Prop::Still) {
                continue;
            }
            let pad = self.ids_at(o.pos()).into_iter().find(|&p| {
                p != id
                    && self.has(p, Prop::Tele)
                    && self.same_float(p, id)
                    && self.obj(p).is_some_and(|po| {
                        po.kind != o.kind && pads.get(&po.kind).is_some_and(|v| v.len() >= 2)
                    })
            });
            if let Some(p) = pad.and_then(|p| self.obj(p)) {
                let others: Vec<Pos> = pads
                    .get(&p.kind)
                    .map(|v| v.iter().copied().filter(|&c| c != o.pos()).collect())
                    .unwrap_or_default();
                travellers.push((id, others));
            }
        }
        if travellers.is_empty() {
            return;
        }
        let seed = self.seed.wrapping_add(self.st.turn.wrapping_sub(1)) as u32;
        let mut rng = Rand32::new(seed);
        for (id, dests) in travellers {
            let i = rng.below(dests.len());
            if let Some(&p) = dests.get(i) {
                self.set_pos(id, p);
            }
        }
    }

    /// 9: objects on a SHIFTer face it; stacked SHIFTers align, the latest processed winning.
    pub(super) fn shift_align(&mut self) {
        if self.nobody(Prop::Shift) {
            return;
        }
        let ids: Vec<ObjId> = self.st.objs.keys().copied().collect();
        for id in ids {
            if let Some(d) = self
                .shifters_of(id)
                .last()
                .and_then(|&s| self.obj(s))
                .map(|s| s.dir)
            {
                self.set_dir(id, d);
            }
        }
    }

    /// 10: MAKE and WRITE (§5.6), judged on the state at the start of the step.
    pub(super) fn make(&mut self) {
        if self.with_verb(Verb::Make).is_empty() && self.with_verb(Verb::Write).is_empty() {
            return;
        }
        let start = self.st.objs.clone();
        let mut kinds_at: rustc_hash::FxHashMap<Pos, Vec<Kind>> = Default::default();
        for o in start.values() {
            kinds_at.entry(o.pos()).or_default().push(o.kind);
        }
        let ids: Vec<ObjId> = start.keys().copied().collect();
        for id in ids {
            let (Some(o), Some(d)) = (start.get(&id).copied(), self.derived(id).cloned()) else {
                continue;
            };
            for (v, w, count) in &d.others {
                let here = |f: &dyn Fn(&Kind) -> bool| {
                    kinds_at.get(&o.pos()).is_some_and(|v| v.iter().any(f))
                };
                match (v, w) {
                    (Verb::Make, Word::Noun(Noun::TEXT)) => {
                        if let Kind::Entity(n) = o.kind
                            && !here(&|k| k.is_text())
                        {
                            self.spawn(Kind::Text(Word::Noun(n)), o.pos(), o.dir);
                        }
                    }
                    (Verb::Make, Word::Noun(Noun::ALL)) => {
                        let all: Vec<Noun> = self.st.seen.iter().copied().collect();
                        for n in all {
                            if !here(&|k| *k == Kind::Entity(n)) {
                                for _ in 0..*count {
                                    self.spawn(Kind::Entity(n), o.pos(), o.dir);
                                }
                            }
                        }
                    }
                    (Verb::Make, Word::Noun(n))
                        if n.is_object() && !here(&|k| *k == Kind::Entity(*n)) =>
                    {
                        for _ in 0..*count {
                            self.spawn(Kind::Entity(*n), o.pos(), o.dir);
                        }
                    }
                    (Verb::Write, w) if !here(&|k| *k == Kind::Text(*w)) => {
                        self.spawn(Kind::Text(*w), o.pos(), o.dir);
                    }
                    _ => {}
                }
            }
        }
    }

    /// 11 (Tier 2): each FALL object in ascending ID falls until blocked; PUSH counts as
    /// solid and nothing is pushed; this repeats until no FALLer moves (§5.13 step 11,
    /// AABBCC), so a faller that landed on one that fell later falls again.
    ///
    /// While no rule has a condition (ON, NEAR, FACING, LONELY), falling changes no object's
    /// properties, so an object drops in one move to the last cell of its fall that it
    /// enters plainly (nothing there is opened, eaten or swapped), found by looking down the
    /// column; a step with a reaction is then made on its own, as below. The rules are
    /// re-read after a drop that moved text or added or removed an object (the real game's
    /// `fallblock` re-reads no rule while a unit falls; docs/baba-semantics.md §5.13 FALL).
    /// While a rule has a condition, the object falls cell by cell with a refresh after
    /// every step (conditions are re-evaluated after every FALL step [L4952]).
    pub(super) fn fall(&mut self) {
        let none = Pending::default();
        // Every pass but the last moves something one cell down at least, and a column
        // settles within its height of passes.
        for _ in 0..=self.height {
            let fallers = self.with_prop(Prop::Fall);
            let mut moved = false;
            for id in fallers {
                let mut guard = self.height + 1;
                while guard > 0 && self.st.objs.contains_key(&id) && self.has(id, Prop::Fall) {
                    guard -= 1;
                    let conditions = self.has_conditions();
                    let edits = self.edits;
                    if !conditions && let Some(t) = self.plain_drop(id) {
                        self.set_pos(id, t);
                    } else {
                        if self.plan(id, Dir::Down, Cause::Fall, &none).is_none() {
                            break;
                        }
                        if self.try_move(id, Dir::Down, Cause::Fall, &none) != Moved::Yes {
                            break;
                        }
                    }
                    moved = true;
                    if self.edits != edits || conditions {
                        self.refresh();
                    }
                }
            }
            if !moved {
                return;
            }
        }
    }

    /// The lowest cell that FALL object `id` reaches by plain steps down from its cell (each
    /// a move that [`Self::try_move`] would make with no reaction: nothing in the cell is
    /// opened, eaten, swapped or blocking), with the properties of the last refresh; `None`
    /// when not even the first step down is plain (blocked, restricted, PHANTOM, or a step
    /// with a reaction, which the caller makes with `try_move`).
    pub(super) fn plain_drop(&self, id: ObjId) -> Option<Pos> {
        let o = self.obj(id)?;
        if self.restricted(id, Dir::Down) || self.has(id, Prop::Phantom) {
            return None;
        }
        let swap = self.has(id, Prop::Swap);
        let mut at = o.pos();
        while let Some(t) = at.step(Dir::Down, self.width, self.height) {
            if self.charge(1) {
                return None;
            }
            let plain = self.ids_in(t).iter().all(|&x| {
                if x == id {
                    return true;
                }
                let same = self.same_float(id, x);
                let reacts = (self.open_shut(id, x) || self.eats(id, x)) && same;
                let solid = self.impassable(x) && !(self.has(x, Prop::Weak) && same);
                !swap && !reacts && !solid
            });
            if !plain {
                break;
            }
            at = t;
        }
        (at != o.pos()).then_some(at)
    }

    /// True when an active rule (formed or extra) has a condition, so that properties can
    /// change when objects move.
    pub(super) fn has_conditions(&self) -> bool {
        self.cur
            .formed
            .iter()
            .any(|f| !f.rule.conditions.is_empty())
            || self.extra.iter().any(|r| !r.conditions.is_empty())
    }

    /// 12 (Tier 2): MORE objects copy themselves into the 4 neighbours that hold no object of
    /// their kind and no STOP, PUSH or PULL object; MORE text also skips cells with text.
    pub(super) fn more(&mut self) {
        let growers = self.with_prop(Prop::More);
        for id in growers {
            let Some(o) = self.obj(id).copied() else {
                continue;
            };
            for d in [Dir::Up, Dir::Right, Dir::Down, Dir::Left] {
                let Some(t) = o.pos().step(d, self.width, self.height) else {
                    continue;
                };
                let blocked = self.ids_at(t).into_iter().any(|x| {
                    self.obj(x).is_some_and(|xo| {
                        xo.kind == o.kind || (o.kind.is_text() && xo.kind.is_text())
                    }) || self.impassable(x)
                });
                if !blocked {
                    self.spawn(o.kind, t, o.dir);
                }
            }
        }
    }

    /// Tier 2 (§5.13): on a win, BONUS objects that are YOU or overlap a YOU are destroyed;
    /// DONE objects vanish (no HAS).
    pub(super) fn bonus_and_done(&mut self, won: bool) {
        if won {
            for b in self.with_prop(Prop::Bonus) {
                if self.has(b, Prop::You)
                    || self.overlapping(b).iter().any(|&y| self.has(y, Prop::You))
                {
                    self.destroy(b);
                }
            }
        }
        for d in self.with_prop(Prop::Done) {
            self.remove_obj(d);
        }
    }

    /// The live objects overlapping `id`: same cell, same float, not itself.
    pub(super) fn overlapping(&self, id: ObjId) -> Vec<ObjId> {
        let Some(pos) = self.obj(id).map(Obj::pos) else {
            return Vec::new();
        };
        // No copy of the cell, and no list at all when nothing overlaps (most calls).
        let here = self.ids_in(pos);
        if here.len() < 2 {
            return Vec::new();
        }
        let fl = self.float(id);
        here.iter()
            .copied()
            .filter(|&x| x != id && self.float(x) == fl)
            .collect()
    }

    /// 13: SINK → WEAK → HOT/MELT → DEFEAT → OPEN/SHUT → EAT (§5.11), each on the state the
    /// previous one left, without a refresh between them.
    pub(super) fn interactions(&mut self) {
        // Tier 2: first the level's TELE and EAT (level_thing.rs), as the real game's
        // `levelblock` runs before its `block`.
        self.level_tele_and_eat();
        for s in self.with_prop(Prop::Sink) {
            let others = self.overlapping(s);
            if !others.is_empty() && self.st.objs.contains_key(&s) {
                self.destroy(s);
                for o in others {
                    self.destroy(o);
                }
            }
        }
        for w in self.with_prop(Prop::Weak) {
            if !self.overlapping(w).is_empty() {
                self.destroy(w);
            }
        }
        // MELT needs something HOT, YOU something DEFEAT, OPEN something SHUT (itself
        // included): without it the lists are not even made.
        let holders_if = |g: &Self, p: Prop, needed: Prop| {
            if g.nobody(needed) {
                Vec::new()
            } else {
                g.with_prop(p)
            }
        };
        for m in holders_if(self, Prop::Melt, Prop::Hot) {
            if self.has(m, Prop::Hot) || self.overlapping(m).iter().any(|&h| self.has(h, Prop::Hot))
            {
                self.destroy(m);
            }
        }
        for y in holders_if(self, Prop::You, Prop::Defeat) {
            if self.has(y, Prop::Defeat)
                || self
                    .overlapping(y)
                    .iter()
                    .any(|&h| self.has(h, Prop::Defeat))
            {
                self.destroy(y);
            }
        }
        for o in holders_if(self, Prop::Open, Prop::Shut) {
            if !self.st.objs.contains_key(&o) {
                continue;
            }
            let shuts: Vec<ObjId> = self
                .overlapping(o)
                .into_iter()
                .filter(|&s| self.has(s, Prop::Shut))
                .collect();
            if self.has(o, Prop::Shut) || !shuts.is_empty() {
                self.destroy(o);
                for s in shuts {
                    self.destroy(s);
                }
            }
        }
        let eaters = self.with_verb(Verb::Eat);
        for e in eaters {
            for f in self.overlapping(e) {
                if self.eats(e, f) {
                    self.destroy(f);
                }
            }
        }
        // Tier 2: then what the level's own properties destroy (level_thing.rs).
        self.level_interactions();
    }
}

/// What a complement makes from an object of kind `from` (HAS, MAKE, IS): an object noun
/// gives that entity, TEXT gives the text of the object's own noun; EMPTY, ALL, LEVEL and
/// property words give nothing here.
pub(super) fn spawn_kind(from: Kind, w: Word) -> Option<Kind> {
    match w {
        Word::Noun(Noun::TEXT) => match from {
            Kind::Entity(n) => Some(Kind::Text(Word::Noun(n))),
            Kind::Text(_) | Kind::Unknown(_) => None,
        },
        Word::Noun(n) if n.is_object() => Some(Kind::Entity(n)),
        _ => None,
    }
}

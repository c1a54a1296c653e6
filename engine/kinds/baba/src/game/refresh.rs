//! What the rules give a baba game's objects: the refresh after each change (§4.2), the
//! questions the turn asks of the last refresh, and the status the rules give.

use super::*;

/// What changed since the last refresh.
#[derive(Clone, Debug, Default)]
pub(super) struct Dirty {
    /// Any object changed.
    pub(super) any: bool,
    /// The rules may read differently: text was added, removed or moved, or an object entered
    /// or left a cell holding text (the text's stack index changes).
    pub(super) text: bool,
    /// Everything must be read again: the extra rules or the whole state were replaced, or a
    /// turn was abandoned (the objects' properties may not follow from the rules of the last
    /// refresh).
    pub(super) full: bool,
    /// Objects added since the last refresh.
    pub(super) added: Vec<ObjId>,
    /// Objects removed since the last refresh.
    pub(super) removed: Vec<ObjId>,
}

/// What a searcher's turn keeps of the refresh it started with, so that undoing the turn
/// puts it back instead of reading the rules again (`BabaGame::keep_refresh`; kept in the
/// turn's undo patch). The refresh at a turn's start is what a full re-read of the state
/// before the turn gives (`BabaGame::refresh`), so it is what a refresh after the undo would
/// give.
#[derive(Clone, Debug, Default)]
pub(super) enum Kept {
    /// Not kept (a game played, between turns, or given up).
    #[default]
    Off,
    /// Kept, and the turn has not changed the refresh.
    Clean,
    /// Only the rule list was replaced (the same rules, their tiles moved): the list before.
    Formed(Vec<FormedRule>),
    /// Everything was read again: the refresh before.
    Full(Box<KeptRefresh>),
}

/// The most objects a searcher's turn keeps a whole refresh for ([`Kept::Full`]): each patch
/// along a search's path holds one, outside the search's memory budget (which counts the
/// visited set), so with more objects (before or after the turn) the undo reads the rules
/// again instead. At about 200 bytes an object where object IDs are dense (its derived
/// properties, its table slot and its places in the holder lists; the table grows in pages
/// of 64 slots, so scattered IDs cost more), a path of 1 000 turns keeps about 100 MB; a
/// Keke level has at most 235 objects and its stored solutions at most 100 moves.
const MAX_KEPT_OBJECTS: usize = 512;

/// The parts of a game that a refresh gives, for [`Kept::Full`].
#[derive(Clone, Debug)]
pub(super) struct KeptRefresh {
    cur: Refresh,
    holders: Holders,
    conditional: bool,
    by_kind: FxHashMap<Kind, Derived>,
}

impl Kept {
    /// True while the refresh before the turn is still known (`Clean`, `Formed`, `Full`).
    pub(super) fn known(&self) -> bool {
        !matches!(self, Kept::Off)
    }
}

impl BabaGame {
    /// Undoes a turn's changes to the refresh with what its patch `kept`, and leaves there
    /// what it replaces (for redo). The objects are those of the other side of the turn
    /// already; the refresh then matches them, so nothing is left to re-read.
    pub(super) fn swap_kept(&mut self, kept: &mut Kept) {
        match kept {
            Kept::Off | Kept::Clean => {}
            Kept::Formed(f) => std::mem::swap(&mut self.cur.formed, f),
            Kept::Full(k) => {
                std::mem::swap(&mut self.cur, &mut k.cur);
                std::mem::swap(&mut self.holders, &mut k.holders);
                std::mem::swap(&mut self.conditional, &mut k.conditional);
                std::mem::swap(&mut self.by_kind, &mut k.by_kind);
            }
        }
        self.dirty = Dirty::default();
    }

    /// At a turn's start, right after its first refresh: a searcher's turn keeps that
    /// refresh from here on ([`Kept`]), when it matches the objects (nothing changed since).
    pub(crate) fn start_keeping_refresh(&mut self) {
        if self.keep_refresh && !self.dirty.any {
            self.kept = Kept::Clean;
        }
    }

    /// What the last refresh gave `id`; no property at all for an object it did not read.
    pub(crate) fn props_of(&self, id: ObjId) -> &Derived {
        static NONE: Derived = Derived {
            props: [0; crate::word::Prop::COUNT],
            others: Vec::new(),
            vanish: false,
            negs: Vec::new(),
        };
        self.cur.derived.get(&id).unwrap_or(&NONE)
    }

    pub(crate) fn derived(&self, id: ObjId) -> Option<&Derived> {
        self.cur.derived.get(&id)
    }

    pub(crate) fn has(&self, id: ObjId, p: Prop) -> bool {
        self.derived(id).is_some_and(|d| d.has(p))
    }

    pub(crate) fn count(&self, id: ObjId, p: Prop) -> u16 {
        self.derived(id).map_or(0, |d| d.get(p))
    }

    /// What the EMPTY rules give the object-free cell `pos` (Tier 2).
    pub(crate) fn empty_at(&self, pos: Pos) -> Derived {
        let world = World {
            objs: &self.st.objs,
            width: self.width,
            height: self.height,
            budget: None,
        };
        crate::eval::empty_derived(&world, &self.index, &self.cur.empty_rules, pos)
    }

    /// The objects that have property `p` at the last refresh and still exist, ascending ID.
    pub(crate) fn with_prop(&self, p: Prop) -> Vec<ObjId> {
        self.existing(&self.holders.props[p as usize])
    }

    /// The objects of `ids` that still exist, in the order of `ids` (one allocation: these
    /// lists are read by every phase of every turn). The holder lists of the last refresh
    /// hold only objects that existed then, so while no object was removed since, each of
    /// them still exists and the list is copied without a look-up per object.
    fn existing(&self, ids: &[ObjId]) -> Vec<ObjId> {
        if self.dirty.removed.is_empty() && !self.halted() {
            debug_assert!(
                ids.iter().all(|id| self.st.objs.contains_key(id)),
                "a holder list of the last refresh names an object that does not exist, \
                 though none was removed since"
            );
            return ids.to_vec();
        }
        let mut v = Vec::with_capacity(ids.len());
        v.extend(
            ids.iter()
                .copied()
                .filter(|id| self.st.objs.contains_key(id)),
        );
        v
    }

    /// True when no object had property `p` at the last refresh.
    pub(crate) fn nobody(&self, p: Prop) -> bool {
        self.holders.props[p as usize].is_empty()
    }

    /// The objects whose rules at the last refresh have verb `v` with a noun (IS noun, HAS,
    /// MAKE, EAT, FEAR, FOLLOW, WRITE) and that still exist, ascending ID.
    pub(crate) fn with_verb(&self, v: Verb) -> Vec<ObjId> {
        self.existing(&self.holders.verbs[v as usize])
    }

    /// The objects that `A IS NOT A` makes vanish at the last refresh and that still exist.
    pub(crate) fn vanishing(&self) -> Vec<ObjId> {
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
    pub(crate) fn refresh(&mut self) {
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
            let texts = crate::eval::text_tiles(&self.st.objs, &self.index);
            self.charge(texts.len() as u64);
            let formed = self.rule_cache.form(self.width, self.height, &texts);
            let same = formed
                .iter()
                .map(|f| &f.rule)
                .eq(self.cur.formed.iter().map(|f| &f.rule));
            if !same {
                self.charge(self.st.objs.len() as u64);
                self.full_refresh_formed(Some((texts, formed)));
                return;
            }
            let before = std::mem::replace(&mut self.cur.formed, formed);
            if matches!(self.kept, Kept::Clean) {
                self.kept = Kept::Formed(before);
            }
        }
        self.charge((dirty.added.len() + dirty.removed.len()) as u64);
        if dirty.added.is_empty() && dirty.removed.is_empty() {
            return;
        }
        // Changed in place below: the refresh before the turn is not kept then.
        if matches!(self.kept, Kept::Clean | Kept::Formed(_)) {
            self.kept = Kept::Off;
        }
        // Without conditions (else the refresh is a full one), so nothing to budget here.
        let world = World {
            objs: &self.st.objs,
            width: self.width,
            height: self.height,
            budget: None,
        };
        let implicit = implicit_rules();
        let rules = active_rules(&self.cur.formed, &self.extra, &implicit);
        // The removed objects leave the holder lists in one pass per list: one at a time, a
        // turn that removes most of a million objects (the stack cap on a level of 64-high
        // stacks) shifted the lists for each and took 47 s (issue #30).
        let mut gone = Vec::new();
        for id in dirty.removed.iter().chain(&dirty.added) {
            if !world.objs.contains_key(id)
                && let Some(d) = self.cur.derived.remove(id)
            {
                gone.push((*id, d));
            }
        }
        self.holders.remove_all(&gone);
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
                Some(_) | None => {}
            }
        }
    }

    /// Re-reads the rules from the text and every object's properties.
    fn full_refresh(&mut self) {
        self.full_refresh_formed(None);
    }

    /// [`Self::full_refresh`] with the text tiles and the rules they form already formed, if
    /// given.
    fn full_refresh_formed(&mut self, given: Option<(Vec<TextTile>, Vec<FormedRule>)>) {
        let left = self.budget_left();
        let budget = crate::eval::ConditionBudget::new(left);
        let world = World {
            objs: &self.st.objs,
            width: self.width,
            height: self.height,
            budget: Some(&budget),
        };
        let before = std::mem::replace(
            &mut self.cur,
            crate::eval::refresh_formed(
                &world,
                &self.index,
                &self.extra,
                &mut self.rule_cache,
                given,
            ),
        );
        // The refresh before the turn, while it is known (given up if this one stops early).
        let keep = match self.kept {
            // The copy kept is `before`, of the objects before the turn: count both sides.
            Kept::Clean | Kept::Formed(_)
                if self.st.objs.len().max(before.derived.len()) <= MAX_KEPT_OBJECTS =>
            {
                Some(std::mem::take(&mut self.kept))
            }
            // Too many objects to keep a copy of their properties in every patch along a
            // search's path: given up, the undo reads the rules again.
            Kept::Clean | Kept::Formed(_) => {
                self.kept = Kept::Off;
                None
            }
            Kept::Off | Kept::Full(_) => None,
        };
        // The conditions' operations count as the turn's (at the start, as the level's).
        self.charge(left - budget.left.get());
        if self.cur.over_budget {
            self.charge(1);
            return;
        }
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
        let conditional = self.conditional;
        self.conditional = self
            .cur
            .formed
            .iter()
            .map(|f| &f.rule)
            .chain(&self.extra)
            .any(|r| !r.conditions.is_empty() || r.complement == Word::Prop(Prop::Word));
        let by_kind_before = std::mem::take(&mut self.by_kind);
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
        let holders = std::mem::replace(&mut self.holders, holders);
        if let Some(kept) = keep {
            let mut cur = before;
            if let Kept::Formed(f) = kept {
                cur.formed = f;
            }
            self.kept = Kept::Full(Box::new(KeptRefresh {
                cur,
                holders,
                conditional,
                by_kind: by_kind_before,
            }));
        }
    }

    /// Won when a YOU object is WIN (or Tier 2 END) or overlaps such an object (same cell and
    /// float, §5.11, §5.13);
    /// lost when nothing is YOU; running otherwise. `allow_win` is false at turn 0.
    pub(crate) fn compute_status(&self, allow_win: bool) -> Status {
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
}

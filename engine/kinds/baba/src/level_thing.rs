//! The level as a thing (Tier 2, spec baba §2 "The level", §5.13 LEVEL): the rules whose
//! subject is LEVEL give the level properties (refreshed with every other rule, in
//! [`super::eval::Refresh::level`]), and the level overlaps every object in it that has the
//! same float state [L518–L520]. What the level's properties do follows the guide's table
//! [L6022–L6126] and the real game's `levelblock` (the order below is this engine's, the same
//! as the objects' step 13, §4.2):
//!
//! * **destroying the level** destroys every object in it [L6020] (without HAS; a SAFE level
//!   is not destroyed [L5342]);
//! * SINK or WEAK level: destroyed when any object overlaps it; a SAFE SINK level destroys the
//!   objects instead;
//! * HOT level: MELT objects overlapping it are destroyed; MELT level: destroyed when it is HOT
//!   or a HOT object overlaps it;
//! * DEFEAT level: YOU objects overlapping it are destroyed, and a YOU level is destroyed;
//!   YOU level: destroyed when a DEFEAT object overlaps it;
//! * OPEN (SHUT) level: destroyed when it is SHUT (OPEN) too or a SHUT (OPEN) object overlaps
//!   it; a SAFE one destroys those objects instead;
//! * BONUS level: destroyed when it is YOU or a YOU object overlaps it;
//! * DONE level: every object vanishes [L6128] (the real game's `levelblock` removes them all);
//! * WIN (or END) level: cleared when it is YOU or a YOU object (or a YOU empty cell) overlaps
//!   it; YOU level: cleared when it is WIN or a WIN (END) object overlaps it; a YOU level also
//!   keeps the game from being lost (something is YOU);
//! * STOP (the implicit LEVEL IS STOP [L483]), PUSH, PULL, MOVE, FALL, SWAP, MORE, WORD and
//!   SLEEP have no effect inside the level [L6022–L6126] (PUSH, PULL, MOVE, YOU and FALL move
//!   the level on its parent map: meta behaviour, not modelled); the colours, BEST and HIDE are
//!   cosmetic ([`BabaGame::level_tint`]).
//!
//! The level also has a **facing** ([`BabaGame::level_dir`], DOWN at the start [L522–L528]):
//! `LEVEL IS UP/DOWN/LEFT/RIGHT` turn it at the level start (the real game's `startblock`), in
//! step 5 with the objects' DIRs and at the end of every turn (its `domaprotation`, run after
//! the rules are read), and a YOU level turns to the input before the YOU moves (its
//! `movecommand`, unless the level is STILL or LOCKED that way).
//!
//! * **SHIFT level** [L6084–L6086]: in step 2e, after the SHIFTers' moves, every object with the
//!   level's float state turns to the level's facing and, unless STILL, LOCKED that way or
//!   SLEEP, makes one SHIFT move that way, however many LEVEL IS SHIFT rules hold (the
//!   real game's `movecommand`, its SHIFT take (take 8), where a local `levelshift` marks it);
//! * **TELE level** [L6082]: at the start of step 13, unless the level is STILL or LOCKED
//!   towards its facing, every object with the level's float state goes to a random cell of
//!   the level, once per LEVEL IS TELE rule up to three times (its `levelblock`); STILL and
//!   the cell's contents do not stop it, and its facing is kept;
//! * **LEVEL EAT B** [L2053–L2065]: at the start of step 13, every B that is not SAFE is
//!   destroyed (with HAS), floating or not (its `levelblock`, `eat`);
//! * **A EAT LEVEL** [L1381–L1387]: at the start of step 13, before LEVEL EAT B, the level is
//!   destroyed when an object exists whose rules make it EAT LEVEL, whatever the floats
//!   (its `levelblock`; a SAFE level is spared);
//! * `LEVEL EAT LEVEL` [L2071–L2085]: the real game's `levelblock` destroys the level for it
//!   only when a level icon exists, so without level icons (this engine has none) it does
//!   nothing; `LEVEL HAS/MAKE/FEAR/FOLLOW/WRITE B`,
//!   `A FEAR LEVEL` and `A FOLLOW LEVEL` act only on level icons [L1465–L1471, L1531–L1533,
//!   L1981–L2051, L2123–L2157], so they do nothing either.

use super::eval::{
    ObjId, World, active_rules, implicit_rules, level_condition_holds, subject_covers,
};
use super::game::BabaGame;
use super::turn::{Cause, Rand32};
use super::word::{Noun, Prop, Verb, Word};
use tilesmith_core::grid::{Dir, Pos};

impl BabaGame {
    /// The count of property `p` on the level itself at the last refresh (Tier 2 LEVEL rules;
    /// STOP is 1 through the implicit LEVEL IS STOP unless a rule negates it).
    pub fn level_prop_count(&self, p: Prop) -> u32 {
        self.cur.level.get(p) as u32
    }

    /// The colour word that applies to object `id` for drawing (Tier 2 cosmetic colours,
    /// [`Prop::COLOURS`]): the one applied most times; among equal counts the first in
    /// [`Prop::COLOURS`] order. `None` without one; [`Prop::rgb`] gives its colour.
    pub fn tint(&self, id: ObjId) -> Option<Prop> {
        let d = self.cur.derived.get(&id)?;
        colour_of(|p| d.get(p))
    }

    /// Every object a colour word applies to, as `(cell, stack index, colour)`: the cell with
    /// x = column from the left and y = row from the top, the stack index counted from the
    /// bottom (0) among the cell's objects in ascending internal ID, as in
    /// [`BabaGame::to_baba_level`]; the colour as [`BabaGame::tint`] chooses it. Sorted by
    /// row, column and stack index; empty when no colour word applies (spec §5.13, Tier 2
    /// cosmetic colours). For the editor, which draws each such object in its colour.
    pub fn tinted(&self) -> Vec<(tilesmith_core::grid::Pos, usize, Prop)> {
        let mut out = Vec::new();
        for (&id, d) in &self.cur.derived {
            let Some(c) = colour_of(|p| d.get(p)) else {
                continue;
            };
            let Some(o) = self.st.objs.get(&id) else {
                continue;
            };
            let pos = o.pos();
            let layer = self
                .index
                .get(&pos)
                .and_then(|ids| ids.iter().position(|&i| i == id));
            if let Some(layer) = layer {
                out.push((pos, layer, c));
            }
        }
        out.sort_by_key(|&(p, l, _)| (p.y, p.x, l));
        out
    }

    /// The colour word that applies to the level (its background, [L6022–L6126]); as
    /// [`BabaGame::tint`].
    pub fn level_tint(&self) -> Option<Prop> {
        colour_of(|p| self.cur.level.get(p))
    }

    fn level_has(&self, p: Prop) -> bool {
        self.cur.level.has(p)
    }

    /// The objects overlapping the level: every object with the level's float state.
    fn level_overlapping(&self) -> Vec<ObjId> {
        let fl = self.level_has(Prop::Float);
        self.st
            .objs
            .keys()
            .copied()
            .filter(|&id| self.has(id, Prop::Float) == fl)
            .collect()
    }

    /// Destroys the level: every object goes, without HAS. Returns false for a SAFE level.
    fn destroy_level(&mut self) -> bool {
        if self.level_has(Prop::Safe) {
            return false;
        }
        let ids: Vec<ObjId> = self.st.objs.keys().copied().collect();
        for id in ids {
            self.remove_obj(id);
        }
        self.level_destroyed = true;
        true
    }

    /// Step 13, after the objects' overlap destruction: what the level's properties destroy
    /// (module docs). Uses the properties of the refresh before step 13, like the objects.
    pub(super) fn level_interactions(&mut self) {
        self.level_destroyed = false;
        // Every use of `over` below is behind one of these properties of the level; without
        // them (nearly every level) the objects are not listed at all.
        let reads_over = [
            Prop::Sink,
            Prop::Weak,
            Prop::Hot,
            Prop::Melt,
            Prop::Defeat,
            Prop::You,
            Prop::Open,
            Prop::Shut,
            Prop::Bonus,
        ];
        let over = if reads_over.iter().any(|&p| self.level_has(p)) {
            self.level_overlapping()
        } else {
            Vec::new()
        };
        let any = |g: &Self, p: Prop| {
            over.iter()
                .any(|&o| g.st.objs.contains_key(&o) && g.has(o, p))
        };
        let safe = self.level_has(Prop::Safe);
        if self.level_has(Prop::Sink) && !over.is_empty() {
            if !safe {
                self.destroy_level();
                return;
            }
            for &o in &over {
                self.destroy(o);
            }
        }
        if self.level_has(Prop::Weak) && !over.is_empty() && self.destroy_level() {
            return;
        }
        if self.level_has(Prop::Hot) {
            for &o in &over {
                if self.st.objs.contains_key(&o) && self.has(o, Prop::Melt) {
                    self.destroy(o);
                }
            }
        }
        if self.level_has(Prop::Melt)
            && (self.level_has(Prop::Hot) || any(self, Prop::Hot))
            && self.destroy_level()
        {
            return;
        }
        if self.level_has(Prop::Defeat) {
            for &o in &over {
                if self.st.objs.contains_key(&o) && self.has(o, Prop::You) {
                    self.destroy(o);
                }
            }
        }
        if self.level_has(Prop::You)
            && (self.level_has(Prop::Defeat) || any(self, Prop::Defeat))
            && self.destroy_level()
        {
            return;
        }
        for (a, b) in [(Prop::Open, Prop::Shut), (Prop::Shut, Prop::Open)] {
            if self.level_has(a) && (self.level_has(b) || any(self, b)) {
                if self.destroy_level() {
                    return;
                }
                for &o in &over {
                    if self.st.objs.contains_key(&o) && self.has(o, b) {
                        self.destroy(o);
                    }
                }
            }
        }
        if self.level_has(Prop::Bonus)
            && (self.level_has(Prop::You) || any(self, Prop::You))
            && self.destroy_level()
        {
            return;
        }
        if self.level_has(Prop::Done) {
            let ids: Vec<ObjId> = self.st.objs.keys().copied().collect();
            for id in ids {
                self.remove_obj(id);
            }
        }
    }

    /// The level's facing (Tier 2, §2 "The level"): DOWN at the start [L522–L528], turned by
    /// `LEVEL IS UP/DOWN/LEFT/RIGHT` and by the input while the level is YOU (module docs);
    /// `LEVEL IS SHIFT` moves the objects this way. Undo and restart restore it.
    pub fn level_dir(&self) -> Dir {
        self.st.level_dir
    }

    /// Turns the level to the DIR of its last `LEVEL IS UP/DOWN/LEFT/RIGHT` rule in rule order
    /// whose conditions hold and that no `LEVEL IS NOT` rule cancels (the refresh's level
    /// properties), if any: the real game's `domaprotation`, which walks the level's rules in
    /// order and lets each DIR rule set the facing, so the last one stands [L6092–L6094]. The
    /// answer does not depend on the facing before, so applying it twice changes nothing.
    pub(super) fn face_level(&mut self) {
        if ![Prop::Up, Prop::Down, Prop::Left, Prop::Right]
            .iter()
            .any(|&p| self.cur.level.has(p))
        {
            return;
        }
        let implicit = implicit_rules();
        let world = World {
            objs: &self.st.objs,
            width: self.width,
            height: self.height,
            budget: None,
        };
        // The last such rule in rule order: found from the end.
        let last = active_rules(&self.cur.formed, &self.extra, &implicit)
            .into_iter()
            .rev()
            .filter(|r| {
                r.subject == Noun::LEVEL && !r.subject_negated && r.verb == Verb::Is && !r.negated
            })
            .filter_map(|r| match r.complement {
                Word::Prop(p) => p.dir().filter(|_| self.cur.level.has(p)).map(|d| (r, d)),
                _ => None,
            })
            .find(|(r, _)| {
                r.conditions
                    .iter()
                    .all(|c| level_condition_holds(&world, &self.index, c))
            })
            .map(|(_, d)| d);
        if let Some(d) = last {
            self.st.level_dir = d;
        }
    }

    /// True when the level may not move (so not turn, nor TELE) towards `d`: STILL, or LOCKED
    /// that way (the real game's `isstill_or_locked` for the level).
    fn level_restricted(&self, d: Dir) -> bool {
        self.level_has(Prop::Still) || self.level_has(Prop::locked(d))
    }

    /// Step 2a, before the YOU moves: a YOU level turns to the input `d` unless it is
    /// restricted that way (the real game's `movecommand`, `levelmove`; the move itself is on
    /// the parent map, not modelled).
    pub(super) fn level_turn_to_input(&mut self, d: Dir) {
        if self.level_has(Prop::You) && !self.level_restricted(d) {
            self.st.level_dir = d;
        }
    }

    /// Step 2e, after the SHIFTers (module docs, [L6084–L6086]): each object with the level's
    /// float state, ascending ID, turns to the level's facing and, unless STILL, LOCKED that
    /// way or SLEEP, makes one SHIFT move that way; the moves are resolved together as one
    /// round of the movement block. One move however many LEVEL IS SHIFT rules hold.
    pub(super) fn level_shift_phase(&mut self) {
        if !self.level_has(Prop::Shift) {
            return;
        }
        let d = self.st.level_dir;
        let over = self.level_overlapping();
        let mut movers = Vec::new();
        for id in over {
            self.turn_obj(id, d);
            if !self.restricted(id, d) && !self.has(id, Prop::Sleep) {
                movers.push(id);
            }
        }
        self.move_round(&movers, |_, _| Some(d), Cause::Shift, None);
    }

    /// The start of step 13 (module docs): the level's TELE, then A EAT LEVEL and LEVEL EAT B,
    /// with the properties of the refresh before step 13.
    pub(super) fn level_tele_and_eat(&mut self) {
        self.level_tele();
        self.level_eat();
    }

    /// TELE level [L6082]: unless the level is STILL or LOCKED towards its facing, once per
    /// LEVEL IS TELE rule (at most 3), each object in ascending ID draws a column then a row
    /// (the turn's seeded generator, [`Rand32`], seed + turn − 1 as for TELE objects, so
    /// replays and undo give the same cells) and, when it has the level's float state, goes
    /// there. Objects without it draw too (the real game draws for every unit).
    fn level_tele(&mut self) {
        let passes = self.cur.level.get(Prop::Tele).min(3);
        if passes == 0 || self.level_restricted(self.st.level_dir) {
            return;
        }
        let seed = self.seed.wrapping_add(self.st.turn.wrapping_sub(1)) as u32;
        // A stream of its own, apart from the TELE objects' in step 8 of the same turn.
        let mut rng = Rand32::new(seed ^ LEVEL_TELE_STREAM);
        let fl = self.level_has(Prop::Float);
        for _ in 0..passes {
            let ids: Vec<ObjId> = self.st.objs.keys().copied().collect();
            for id in ids {
                let x = rng.below(self.width);
                let y = rng.below(self.height);
                if self.st.objs.contains_key(&id) && self.has(id, Prop::Float) == fl {
                    self.move_obj(id, Pos::new(x, y));
                }
            }
        }
    }

    /// LEVEL EAT B [L2053–L2065]: every object that B names (TEXT: every text, ALL: every
    /// entity) and that is not SAFE is destroyed, with HAS, whatever its float state; the
    /// objects are listed before any is destroyed, so what HAS spawns stays.
    fn level_eat(&mut self) {
        if self.level_eaten() && self.destroy_level() {
            return;
        }
        let food: Vec<Noun> = self
            .cur
            .level
            .others
            .iter()
            .filter_map(|(v, w, _)| match (v, w) {
                (Verb::Eat, Word::Noun(n)) => Some(*n),
                _ => None,
            })
            .collect();
        if food.is_empty() {
            return;
        }
        let eaten: Vec<ObjId> = self
            .st
            .objs
            .iter()
            .filter(|(_, o)| food.iter().any(|&n| subject_covers(n, false, o.kind)))
            .map(|(&id, _)| id)
            .collect();
        for id in eaten {
            self.destroy(id);
        }
    }

    /// `A EAT LEVEL` [L1381–L1387]: true when an object exists whose rules (conditions
    /// included) make it EAT LEVEL, whatever its float state and the level's: the real game's
    /// `levelblock` destroys the level then (unless it is SAFE) as soon as it finds one such
    /// object (`findall` on the rule's subject, with the rule's conditions).
    fn level_eaten(&self) -> bool {
        self.with_verb(Verb::Eat).into_iter().any(|id| {
            self.derived(id).is_some_and(|d| {
                d.others
                    .iter()
                    .any(|&(v, w, _)| v == Verb::Eat && w == Word::Noun(Noun::LEVEL))
            })
        })
    }

    /// True when the level is YOU (it counts as something being YOU).
    pub(super) fn level_is_you(&self) -> bool {
        self.level_has(Prop::You)
    }

    /// Step 14 for the level: a WIN (or END) level that is YOU or is overlapped by a YOU object
    /// (or a YOU empty cell, `empty_you`), or a YOU level overlapped by a WIN (END) object.
    /// Never after the level was destroyed this turn.
    pub(super) fn level_wins(&self, empty_you: bool, empty_win: bool) -> bool {
        if self.level_destroyed {
            return false;
        }
        let you = self.level_has(Prop::You);
        let win = self.level_has(Prop::Win) || self.level_has(Prop::End);
        if !you && !win {
            return false;
        }
        let over = self.level_overlapping();
        let any = |p: Prop| over.iter().any(|&o| self.has(o, p));
        (win && (you || any(Prop::You) || empty_you))
            || (you && (any(Prop::Win) || any(Prop::End) || empty_win))
    }
}

/// Mixed into the turn's seed for the TELE level's random cells (ASCII "LEVT").
const LEVEL_TELE_STREAM: u32 = 0x4C45_5654;

/// The colour with the highest count (ties: the first in [`Prop::COLOURS`]).
fn colour_of(count: impl Fn(Prop) -> u16) -> Option<Prop> {
    let mut best: Option<(Prop, u16)> = None;
    for &p in Prop::COLOURS {
        let n = count(p);
        if n > 0 && best.is_none_or(|(_, b)| n > b) {
            best = Some((p, n));
        }
    }
    best.map(|b| b.0)
}

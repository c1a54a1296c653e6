//! Move resolution (§5.1): planning a move by a dry run of its destination, and carrying it
//! out (pushes, pulls, swaps, bounces); the set of objects still to move.

use crate::eval::{Obj, ObjId};
use crate::game::BabaGame;
use crate::word::{Prop, Verb};
use tilesmith_core::grid::{Dir, Pos};

use super::*;

/// What a dry-run of a move found in the destination (§5.1 step 5): the target cell and the
/// objects the move acts on, each with its part, in the order found. One list rather than one
/// per part: most dry runs find nothing to act on, and the plan is built, moved and dropped for
/// every mover of every pass.
#[derive(Default, Debug)]
pub(super) struct Plan {
    target: Option<Pos>,
    acts: Vec<(Act, ObjId)>,
}

/// The part an object plays in a planned move (§5.1 step 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Act {
    /// Destroyed with the mover by OPEN/SHUT (7.1).
    Open,
    /// Eaten by the mover (7.2).
    Eaten,
    /// Pushed ahead (7.3).
    Pushed,
    /// A WEAK object that could not be pushed: destroyed (7.3).
    PushFail,
    /// Swaps places with the mover (7.5).
    Swap,
    /// In the target cell, recorded for a SWAP mover (7.5).
    Occupant,
}

impl Plan {
    /// The objects playing `act`, in the order found.
    pub(super) fn each(&self, act: Act) -> impl Iterator<Item = ObjId> + '_ {
        self.acts
            .iter()
            .filter(move |(a, _)| *a == act)
            .map(|&(_, o)| o)
    }
}

impl BabaGame {
    /// Dry-run of a move of `id` one cell in `d` (§5.1 steps 3–6). `None` = the move fails.
    /// An object restricted in `d` cannot move, so when pushed or pulled it stays and acts
    /// as STOP [L5372]; [`Self::try_move`] reports the mover's own restriction first.
    pub(super) fn plan(&self, id: ObjId, d: Dir, cause: Cause, pending: &Pending) -> Option<Plan> {
        if self.charge(1) {
            return None;
        }
        let m = self.obj(id)?;
        // The mover's and each occupant's properties are read once: this runs for every
        // mover of every pass of the move loop.
        let mp = self.props_of(id);
        if mp.has(Prop::Still) || mp.has(Prop::locked(d)) {
            return None;
        }
        if mp.has(Prop::Phantom) && cause != Cause::Fall {
            // Tier 2 (§5.1 step 4): no collision, no push, no move-time destruction; at the
            // edge the object enters the boundary (no target).
            return Some(Plan {
                target: m.pos().step(d, self.width, self.height),
                ..Plan::default()
            });
        }
        let t = m.pos().step(d, self.width, self.height)?;
        let mut plan = Plan {
            target: Some(t),
            ..Plan::default()
        };
        let occupants = self.ids_in(t);
        // Each occupant looked at is an operation too: a cell of a dozen stacked objects
        // costs a dozen (issue #30: charging one per plan let a turn of 280 × 280 cells of
        // 12-high PULL stacks run 16 s within the budget).
        if self.charge(occupants.len() as u64) {
            return None;
        }
        if occupants.is_empty() && !self.cur.empty_rules.is_empty() && cause != Cause::Fall {
            // Tier 2: an object-free cell whose EMPTY is PUSH pushes on; STOP/PULL block.
            let e = self.empty_at(t);
            if e.has(Prop::Push) {
                plan.acts = self
                    .plan_empty_push(t, d, pending)?
                    .into_iter()
                    .map(|o| (Act::Pushed, o))
                    .collect();
            } else if e.has(Prop::Stop) || e.has(Prop::Pull) {
                return None;
            }
            return Some(plan);
        }
        // Only a SWAP mover needs every occupant (§5.1 7.5); recording them for every dry
        // run allocated on each blocked move.
        let swapper = mp.has(Prop::Swap);
        let m_float = mp.has(Prop::Float);
        let eater = mp.others.iter().any(|(v, _, _)| *v == Verb::Eat);
        for &o in occupants {
            if o == id {
                continue;
            }
            if swapper {
                plan.acts.push((Act::Occupant, o));
            }
            let op = self.props_of(o);
            let imp = op.has(Prop::Stop) || op.has(Prop::Push) || op.has(Prop::Pull);
            if imp && pending.passes(&o) {
                continue;
            }
            let same_float = op.has(Prop::Float) == m_float;
            let open_shut = (mp.has(Prop::Open) && op.has(Prop::Shut))
                || (mp.has(Prop::Shut) && op.has(Prop::Open));
            if open_shut && same_float && !(mp.has(Prop::Safe) && op.has(Prop::Safe)) {
                plan.acts.push((Act::Open, o));
                continue;
            }
            if eater && self.eats(id, o) && same_float && !op.has(Prop::Safe) {
                plan.acts.push((Act::Eaten, o));
                continue;
            }
            if cause != Cause::Fall
                && (swapper || (op.has(Prop::Swap) && !self.restricted(o, d.reverse())))
            {
                plan.acts.push((Act::Swap, o));
                continue;
            }
            if !imp {
                continue;
            }
            if op.has(Prop::Push) && cause != Cause::Fall {
                if self.plan(o, d, Cause::Push, pending).is_some() {
                    plan.acts.push((Act::Pushed, o));
                    continue;
                }
                if op.has(Prop::Weak) && same_float {
                    plan.acts.push((Act::PushFail, o));
                    continue;
                }
                return None;
            }
            if op.has(Prop::Weak) && same_float {
                continue;
            }
            return None;
        }
        Some(plan)
    }

    /// Pushing the EMPTY of the object-free cell `from` one cell in `d` (Tier 2, the peer's
    /// EMPTY IS PUSH): the objects of the next cell are pushed, a next empty PUSH cell pushes
    /// on, and the boundary blocks. Returns the objects to push, or `None` when blocked.
    pub(super) fn plan_empty_push(
        &self,
        from: Pos,
        d: Dir,
        pending: &Pending,
    ) -> Option<Vec<ObjId>> {
        let t = from.step(d, self.width, self.height)?;
        let occupants = self.ids_at(t);
        if occupants.is_empty() {
            let e = self.empty_at(t);
            if e.has(Prop::Push) {
                return self.plan_empty_push(t, d, pending);
            }
            if e.has(Prop::Stop) || e.has(Prop::Pull) {
                return None;
            }
            return Some(Vec::new());
        }
        let mut pushed = Vec::new();
        for o in occupants {
            if !self.impassable(o) || pending.passes(&o) {
                continue;
            }
            if self.has(o, Prop::Push) && self.plan(o, d, Cause::Push, pending).is_some() {
                pushed.push(o);
                continue;
            }
            return None;
        }
        Some(pushed)
    }

    /// Moves `id` one cell in `d` with all reactions (§5.1).
    pub(crate) fn try_move(&mut self, id: ObjId, d: Dir, cause: Cause, pending: &Pending) -> Moved {
        self.try_move_planned(id, d, cause, pending, None)
    }

    /// [`Self::try_move`] with the dry run already done: `planned` is `Some(plan(id, d,
    /// cause, pending))` computed on the current state (nothing changed since), or `None` to
    /// compute it here. The move loop plans each mover before deciding whether it waits, and
    /// planning again for the move itself doubled the cost of a crowded round.
    pub(super) fn try_move_planned(
        &mut self,
        id: ObjId,
        d: Dir,
        cause: Cause,
        pending: &Pending,
        planned: Option<Option<Plan>>,
    ) -> Moved {
        let Some(origin) = self.obj(id).map(Obj::pos) else {
            return Moved::Failed;
        };
        if cause != Cause::Fall {
            self.set_dir(id, d);
        }
        if self.restricted(id, d) {
            return Moved::Restricted;
        }
        let planned = match planned {
            Some(p) => p,
            None => self.plan(id, d, cause, pending),
        };
        let Some(plan) = planned else {
            if self.has(id, Prop::Weak) {
                self.destroy(id);
                return Moved::Destroyed;
            }
            return Moved::Failed;
        };
        let Some(t) = plan.target else {
            // A PHANTOM mover entered the boundary: it is destroyed there without HAS (§4.2
            // step 3); this engine removes it at once, so it cannot come back this turn.
            self.remove_obj(id);
            return Moved::Destroyed;
        };
        // 7.1 OPEN/SHUT, before the position change.
        for o in plan.each(Act::Open) {
            if !self.st.objs.contains_key(&o) {
                continue;
            }
            self.destroy(o);
            if self.destroy(id) {
                return Moved::Destroyed;
            }
        }
        // 7.2 EAT.
        for o in plan.each(Act::Eaten) {
            self.destroy(o);
        }
        // 7.3 pushes, then the WEAK ones that could not move.
        for o in plan.each(Act::Pushed) {
            if self.st.objs.contains_key(&o) {
                self.try_move(o, d, Cause::Push, pending);
            }
        }
        for o in plan.each(Act::PushFail) {
            self.destroy(o);
        }
        if !self.st.objs.contains_key(&id) {
            return Moved::Destroyed;
        }
        // 7.4 the move.
        self.set_pos(id, t);
        // 7.5 SWAP.
        if self.has(id, Prop::Swap) {
            for o in plan.each(Act::Occupant) {
                if self.obj(o).is_some_and(|x| x.pos() == t) {
                    self.set_pos(o, origin);
                }
            }
        } else {
            for o in plan.each(Act::Swap) {
                if self.obj(o).is_some_and(|x| x.pos() == t) {
                    self.set_pos(o, origin);
                }
            }
        }
        // 7.6 PULL: pullers behind the origin follow if they can.
        if cause != Cause::Fall
            && !self.nobody(Prop::Pull)
            && let Some(behind) = origin.step(d.reverse(), self.width, self.height)
        {
            for o in self.ids_at(behind) {
                if o != id
                    && self.has(o, Prop::Pull)
                    && self.plan(o, d, Cause::Pull, pending).is_some()
                {
                    self.try_move(o, d, Cause::Pull, pending);
                }
            }
        }
        Moved::Yes
    }
}

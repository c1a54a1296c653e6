//! The movement phase (§4.2): YOU, MOVE, FEAR and SHIFT movers in rounds of passes, waiting
//! movers remembered by the cells their way reads.

use crate::eval::{Obj, ObjId};
use crate::game::BabaGame;
use crate::word::{Kind, Noun, Prop, Verb, Word};
use tilesmith_core::grid::{Dir, Pos};

use super::*;

/// True in the engine's tests that check the move loop against planning every waiting mover
/// again ([`Wait`]); false otherwise.
#[inline]
pub(super) fn wait_memo_off() -> bool {
    #[cfg(test)]
    return super::tests::NO_WAIT_MEMO.with(std::cell::Cell::get);
    #[cfg(not(test))]
    false
}

/// The most cells a [`Wait`] watches: the mover's own, the cell ahead and those behind a run
/// of PUSH objects it would push. A mover with a longer way is planned again every pass.
pub(super) const WAY_CELLS: usize = 4;

/// Why a mover waited in a pass of the move loop ([`BabaGame::move_round`]): the cell index's
/// clock when it was planned, and the cells it read (row-major indices, `n` of them): its own
/// and those of its way, the cells a dry run from there reads ([`BabaGame::wait_of`]). While
/// those cells are unchanged (and it has not bounced since, which only its own planning or
/// the move loop's turn-around does), planning it again would wait again.
#[derive(Clone, Copy, Debug)]
pub(super) struct Wait {
    at: u64,
    cells: [u32; WAY_CELLS],
    n: u32,
}

/// What the rules of a move round make of a waiting mover's way ([`BabaGame::wait_of`]):
/// whether anything is PUSH (a push goes on through the next cell), and whether EMPTY has
/// rules (an object-free cell on the way may act).
#[derive(Clone, Copy, Debug)]
pub(super) struct Way {
    push: bool,
    empty_rules: bool,
}

impl BabaGame {
    /// Moves every mover once in the direction `dir_of` gives (one sub-step of the movement
    /// block, or one round of it), as the real game's movement loop does (§5.1 5a,
    /// docs/baba-semantics.md): in ascending ID, a mover whose way is blocked only by movers
    /// that have not moved yet waits, and the waiting movers are tried again after the others
    /// moved or failed. When a pass settles nobody, the first waiting mover that may still
    /// bounce (`reversed` given: MOVE, §5.10) turns around and is tried again; when none may,
    /// the waiting movers fail. With `reversed`, a mover blocked by anything else turns around
    /// at once, once per turn (§5.10).
    pub(crate) fn move_round(
        &mut self,
        movers: &[ObjId],
        dir_of: impl Fn(&Self, ObjId) -> Option<Dir>,
        cause: Cause,
        mut reversed: Option<&mut Pending>,
    ) {
        // Movers not settled yet: the PUSH ones are passable and not pushed (the spec's
        // pending mover, which the peer engine's batch resolution agrees with); the others
        // that block (STOP, PULL) make a mover wait. A mover leaves both sets when it settles
        // (moves, fails or drops out); while it is planned it is still in them, which changes
        // nothing: a dry run never meets its own mover (pushes, pulls and EMPTY pushes look
        // ahead of it), so only the size comparison below counts it out. A lone mover needs
        // no sets at all (nothing else can be pending).
        let crowded = movers.len() >= 2;
        let crowd = |g: &Self, push: bool| -> Pending {
            if !crowded {
                return Pending::default();
            }
            movers
                .iter()
                .copied()
                .filter(|&o| !push || g.has(o, Prop::Push))
                .collect()
        };
        let mut unsettled = crowd(self, false);
        let mut passable = crowd(self, true);
        // Each waiting mover with why it waited ([`Wait`]): in the next pass it is planned
        // again only when its own cell or its way changed ([`Self::waits_still`]), or when
        // its way could not be watched (`None`: planned again every pass). A cell changes when
        // an object enters or leaves it, or when a mover there settles (leaves the pending
        // sets), which `settled` marks; dry runs read nothing else that can change within a
        // round (properties are fixed until the next refresh).
        let mut waiting: Vec<(ObjId, Option<Wait>)> = movers.iter().map(|&m| (m, None)).collect();
        // Sized for everyone waiting at once; a lone mover never waits.
        let mut still = Vec::with_capacity(if crowded { waiting.len() } else { 0 });
        let settled = |g: &mut Self, m: ObjId, unsettled: &mut Pending, passable: &mut Pending| {
            unsettled.remove(&m);
            passable.remove(&m);
            if let Some(p) = g.obj(m).map(Obj::pos) {
                g.index.touch(&p);
            }
        };
        // The mover turned around after a pass in which nobody settled.
        let mut turned: Option<ObjId> = None;
        // Properties and rules are fixed within the round (until the next refresh).
        let way = Way {
            push: !self.nobody(Prop::Push),
            empty_rules: !self.cur.empty_rules.is_empty(),
        };
        while !waiting.is_empty() && !self.halted() {
            still.clear();
            let mut progress = false;
            let mut skipped = 0;
            for &(m, why) in &waiting {
                // Nothing `m` read changed since it waited (only `turned` may have bounced
                // since): it waits again, for one operation, as a dry run of the mover alone
                // would count (charged after the pass: a crowded round's passes still cost at
                // least one operation per waiting mover).
                if let Some(w) = why
                    && turned != Some(m)
                    && self.waits_still(&w)
                {
                    skipped += 1;
                    still.push((m, why));
                    continue;
                }
                let Some(mut d) = dir_of(self, m).filter(|_| self.st.objs.contains_key(&m)) else {
                    settled(self, m, &mut unsettled, &mut passable);
                    progress = true;
                    continue;
                };
                // The mover's own restrictions, read once: STILL or LOCKED in a direction.
                let locked = {
                    let p = self.props_of(m);
                    let still = p.has(Prop::Still);
                    Dir::ALL.map(|x| still || p.has(Prop::locked(x)))
                };
                // `Dir::ALL` is in discriminant order, 1 to 4.
                let restricted = |d: Dir| locked.get(d as usize - 1).copied().unwrap_or(true);
                // The dry run with every unsettled mover passable, for the direction `d`
                // (kept while `d` stands: nothing changes between the checks below).
                let mut if_settled: Option<bool> = None;
                // That dry run when it passed through no pending mover: `passable` is part of
                // `unsettled`, so the dry run with `passable` would repeat it.
                let mut same: Option<Option<Plan>> = None;
                if let Some(rev) = reversed.as_deref_mut()
                    && !rev.contains(&m)
                    && !restricted(d)
                {
                    let passed = unsettled.passed.get();
                    let plan = self.plan(m, d, cause, &unsettled);
                    if plan.is_none() {
                        d = d.reverse();
                        rev.insert(m);
                        self.set_dir(m, d);
                    } else {
                        if_settled = Some(true);
                        if unsettled.passed.get() == passed {
                            same = Some(plan);
                        }
                    }
                }
                if restricted(d) {
                    settled(self, m, &mut unsettled, &mut passable);
                    self.try_move(m, d, cause, &passable);
                    progress = true;
                    continue;
                }
                let plan = match same {
                    Some(plan) => plan,
                    None => self.plan(m, d, cause, &passable),
                };
                // `passable` is part of `unsettled`: when they hold the same movers other than
                // `m`, the second dry run would repeat the first.
                let waits = plan.is_none()
                    && crowded
                    && unsettled.len().saturating_sub(1)
                        != passable.len() - usize::from(passable.contains(&m))
                    && *if_settled
                        .get_or_insert_with(|| self.plan(m, d, cause, &unsettled).is_some());
                if waits {
                    still.push((m, self.wait_of(m, d, way)));
                    continue;
                }
                settled(self, m, &mut unsettled, &mut passable);
                self.try_move_planned(m, d, cause, &passable, Some(plan));
                progress = true;
            }
            if self.charge(skipped) {
                return;
            }
            if !progress {
                // Nobody settled: the first waiting mover that may still bounce turns around
                // (its direction changes, so it is planned again; the others wait again).
                let turn = reversed.as_deref_mut().and_then(|rev| {
                    let m = still.iter().map(|w| w.0).find(|m| !rev.contains(m))?;
                    rev.insert(m);
                    Some(m)
                });
                match turn.and_then(|m| dir_of(self, m).map(|d| (m, d))) {
                    Some((m, d)) => {
                        self.set_dir(m, d.reverse());
                        turned = Some(m);
                    }
                    None => {
                        for &(m, _) in &still {
                            if let Some(d) = dir_of(self, m) {
                                self.try_move(m, d, cause, &passable);
                            }
                        }
                        return;
                    }
                }
            } else {
                turned = None;
            }
            std::mem::swap(&mut waiting, &mut still);
        }
    }

    /// Why mover `m`, going in direction `d`, waits ([`Wait`]): its own cell and the cells of
    /// its way, the cell ahead and the next one for as long as a cell holds a PUSH object
    /// (its push goes on); at the map's edge the way ends. `None` when its way cannot be
    /// watched: it is longer than [`WAY_CELLS`] cells with the mover's own, or has an
    /// object-free cell while EMPTY has rules (what EMPTY is there can depend on conditions
    /// read elsewhere), or the mover is gone; such a mover is planned again every pass.
    #[inline]
    pub(super) fn wait_of(&self, m: ObjId, d: Dir, way: Way) -> Option<Wait> {
        if wait_memo_off() {
            return None;
        }
        let mut at = self.obj(m)?.pos();
        let mut w = Wait {
            at: self.index.clock(),
            cells: [0; WAY_CELLS],
            n: 0,
        };
        let cell = |w: &mut Wait, p: Pos| -> Option<()> {
            *w.cells.get_mut(w.n as usize)? = u32::try_from(self.index.slot(&p)?).ok()?;
            w.n += 1;
            Some(())
        };
        cell(&mut w, at)?;
        while let Some(next) = at.step(d, self.width, self.height) {
            cell(&mut w, next)?;
            let ids = self.ids_in(next);
            if ids.is_empty() && way.empty_rules {
                return None;
            }
            if !(way.push && ids.iter().any(|&o| self.has(o, Prop::Push))) {
                break;
            }
            at = next;
        }
        Some(w)
    }

    /// True when a mover that waited for the reason `w` would wait again: neither its own
    /// cell nor a cell of its way changed since. Its own cell changes when it moves or is
    /// destroyed; its facing changes only with a move, when it is planned, or when it is the
    /// mover turned around after a pass without progress (the caller's exception), since a
    /// pending mover is passed through or blocks but is never pushed. A cell of the way that
    /// changed may change the way's reach, but it fails the check first; a mover that settles
    /// marks its cell as changed, since leaving the pending sets changes what a dry run
    /// through it finds.
    #[inline]
    pub(super) fn waits_still(&self, w: &Wait) -> bool {
        let unchanged = !w
            .cells
            .iter()
            .take(w.n as usize)
            .any(|&c| self.index.changed_since(c as usize, w.at));
        #[cfg(test)]
        if unchanged {
            tests::WAIT_MEMO_HITS.with(|c| c.set(c.get() + 1));
        }
        unchanged
    }

    /// 2b: MOVE objects take as many steps as their MOVE count, in rounds; each bounces once
    /// per turn when its move would fail (§5.10).
    pub(super) fn move_phase(&mut self) {
        // Sized up front: a filtered `collect` starts small and grew these twice a turn.
        let holders = self.with_prop(Prop::Move);
        let mut counts: Vec<(ObjId, u16)> = Vec::with_capacity(holders.len());
        counts.extend(
            holders
                .iter()
                .map(|&id| (id, self.count(id, Prop::Move)))
                .filter(|&(id, k)| k > 0 && !self.has(id, Prop::Sleep)),
        );
        let rounds = counts.iter().map(|c| c.1).max().unwrap_or(0);
        let mut reversed = Pending::default();
        let mut movers: Vec<ObjId> = Vec::with_capacity(counts.len());
        for round in 1..=rounds {
            // A round costs its movers even before anyone moves: once the turn is being
            // abandoned the rest are not set up (issue #30: 300 rows of ROCK IS MOVE gave
            // 350 000 rocks 2 400 rounds, set up for 12 s after the budget ran out).
            if self.charge(0) {
                return;
            }
            movers.clear();
            movers.extend(counts.iter().filter(|c| c.1 >= round).map(|c| c.0));
            self.move_round(
                &movers,
                |g, m| g.obj(m).map(|o| o.dir),
                Cause::Move,
                Some(&mut reversed),
            );
        }
    }

    /// 2d (Tier 2): FEAR (§5.13). For each object in ascending ID that fears something, the fear
    /// amount of each adjacent cell is the sum of the multiplicities of the feared nouns present;
    /// the move amount is the largest. With one largest cell the object moves away from the
    /// first of left, front, right, back that holds a feared object; with several, it moves to
    /// the first of front, right, left, back that it can enter (and that holds nothing feared
    /// when the amount is 1). The steps are taken one after another.
    pub(super) fn fear_phase(&mut self) {
        // Only the objects that fear something act.
        let ids = self.with_verb(Verb::Fear);
        let none = Pending::default();
        for id in ids {
            let (Some(o), Some(d)) = (self.obj(id).copied(), self.derived(id).cloned()) else {
                continue;
            };
            if self.has(id, Prop::Sleep) {
                continue;
            }
            let feared: Vec<(Noun, u32)> = d
                .others
                .iter()
                .filter_map(|(v, w, c)| match (v, w) {
                    (Verb::Fear, Word::Noun(n)) => Some((*n, *c)),
                    _ => None,
                })
                .collect();
            if feared.is_empty() {
                continue;
            }
            let amount = |dir: Dir| -> u32 {
                let Some(p) = o.pos().step(dir, self.width, self.height) else {
                    return 0;
                };
                let kinds: Vec<Kind> = self
                    .ids_at(p)
                    .iter()
                    .filter(|&&x| x != id)
                    .filter_map(|x| self.obj(*x).map(|xo| xo.kind))
                    .collect();
                feared
                    .iter()
                    .filter(|(n, _)| {
                        kinds
                            .iter()
                            .any(|&k| crate::eval::subject_covers(*n, false, k))
                    })
                    .map(|(_, c)| *c)
                    .sum()
            };
            let amounts: Vec<(Dir, u32)> = Dir::ALL.iter().map(|&dir| (dir, amount(dir))).collect();
            let max = amounts.iter().map(|a| a.1).max().unwrap_or(0);
            if max == 0 {
                continue;
            }
            let f = o.dir;
            let tied = amounts.iter().filter(|a| a.1 == max).count();
            let go = if tied == 1 {
                [f.turn_left(), f, f.turn_right(), f.reverse()]
                    .into_iter()
                    .find(|&dir| amount(dir) > 0)
                    .map(Dir::reverse)
            } else {
                [f, f.turn_right(), f.turn_left(), f.reverse()]
                    .into_iter()
                    .find(|&dir| {
                        self.plan(id, dir, Cause::Fear, &none).is_some()
                            && (max > 1 || amount(dir) == 0)
                    })
            };
            if let Some(dir) = go {
                for _ in 0..max {
                    if self.try_move(id, dir, Cause::Fear, &none) != Moved::Yes {
                        break;
                    }
                }
            }
        }
    }

    /// The SHIFTers (same float, not itself) in `id`'s cell, ascending ID.
    pub(super) fn shifters_of(&self, id: ObjId) -> Vec<ObjId> {
        let Some(pos) = self.obj(id).map(Obj::pos) else {
            return Vec::new();
        };
        self.ids_at(pos)
            .into_iter()
            .filter(|&s| s != id && self.has(s, Prop::Shift) && self.same_float(s, id))
            .collect()
    }

    /// 2e: objects on SHIFTers face the first SHIFTer's direction and move the sum of their
    /// SHIFT counts, in rounds (§5.10). Directions are taken at the start of the step.
    pub(super) fn shift_phase(&mut self) {
        if self.nobody(Prop::Shift) {
            return;
        }
        let mut plans: Vec<(ObjId, Dir, u16)> = Vec::new();
        for &id in self.st.objs.keys() {
            let s = self.shifters_of(id);
            if let Some(first) = s.first().and_then(|f| self.obj(*f)) {
                let steps: u16 = s.iter().map(|&x| self.count(x, Prop::Shift)).sum();
                plans.push((id, first.dir, steps));
            }
        }
        for &(id, d, _) in &plans {
            self.set_dir(id, d);
        }
        let rounds = plans.iter().map(|p| p.2).max().unwrap_or(0);
        for round in 1..=rounds {
            let movers: Vec<(ObjId, Dir)> = plans
                .iter()
                .filter(|p| p.2 >= round)
                .map(|p| (p.0, p.1))
                .collect();
            let ids: Vec<ObjId> = movers.iter().map(|m| m.0).collect();
            self.move_round(
                &ids,
                |_, id| movers.iter().find(|m| m.0 == id).map(|m| m.1),
                Cause::Shift,
                None,
            );
        }
    }
}

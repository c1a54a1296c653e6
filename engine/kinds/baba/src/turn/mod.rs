//! One turn (spec baba §4.2) and move resolution (§5.1).
//!
//! Phases reported in [`tilesmith_core::game::StepReport::phases`]: `Main("movement")` (YOU,
//! MOVE, SHIFT), `Main("transform")` (both passes), `Main("facing")` (DIRs), `Main("tele")`,
//! `Main("align")` (SHIFT facing), `Main("make")` (MAKE, WRITE), `Main("fall")`,
//! `Main("more")`, `Main("interactions")` (SINK, WEAK, HOT/MELT, DEFEAT, OPEN/SHUT, EAT).

use rustc_hash::FxHashSet as HashSet;

use super::eval::{Obj, ObjId};
use super::game::BabaGame;
use super::word::{Kind, Noun, Prop, Verb, Word};
use tilesmith_core::game::Status;
use tilesmith_core::grid::{Dir, Pos};
use tilesmith_core::observe::Phase;

mod movement;
mod phases;
mod resolve;

use phases::*;
use resolve::*;

/// The most objects of one kind in one cell after a step (Tier 2, §2).
pub const STACK_CAP: usize = 6;

/// Why an object moves (§5.1): decides the facing change and some exceptions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Cause {
    You,
    Move,
    Shift,
    Fear,
    Push,
    Pull,
    Fall,
}

/// The movers of a round of the move loop that have not settled yet, by ID: a dense bit set
/// from the first ID added on (bit `id − base`), as the dry runs ask about each occupant they
/// meet. Its size follows the span of the movers' IDs, not how many IDs were ever handed out.
#[derive(Clone, Debug, Default)]
pub(super) struct Pending {
    bits: Vec<u64>,
    /// The ID of bit 0 (a multiple of 64).
    base: ObjId,
    len: usize,
    /// How often a dry run passed through a mover of the set ([`Self::passes`]).
    passed: std::cell::Cell<u64>,
}

impl Pending {
    /// The word and bit of `id`; `None` below the set's base.
    fn slot(&self, id: ObjId) -> Option<(usize, u64)> {
        let i = id.checked_sub(self.base)?;
        Some(((i / 64) as usize, 1 << (i % 64)))
    }

    /// True when mover `id` is in the set.
    #[inline]
    pub(super) fn contains(&self, id: &ObjId) -> bool {
        self.slot(*id)
            .is_some_and(|(w, b)| self.bits.get(w).is_some_and(|x| x & b != 0))
    }

    /// True when a dry run passes through occupant `id` because it is a pending mover (and
    /// counts it): a dry run that never did gives the same with any part of the set.
    #[inline]
    fn passes(&self, id: &ObjId) -> bool {
        let yes = self.contains(id);
        if yes {
            self.passed.set(self.passed.get() + 1);
        }
        yes
    }

    /// Adds mover `id`.
    fn insert(&mut self, id: ObjId) {
        if self.bits.is_empty() {
            self.base = id - id % 64;
        } else if id < self.base {
            // Grow downwards by whole words, keeping bit `id − base`.
            let shift = ((self.base - id).div_ceil(64)) as usize;
            self.bits.splice(0..0, std::iter::repeat_n(0, shift));
            self.base -= shift as ObjId * 64;
        }
        let Some((w, b)) = self.slot(id) else {
            return;
        };
        if w >= self.bits.len() {
            self.bits.resize(w + 1, 0);
        }
        if let Some(x) = self.bits.get_mut(w)
            && *x & b == 0
        {
            *x |= b;
            self.len += 1;
        }
    }

    /// Removes mover `id`.
    fn remove(&mut self, id: &ObjId) {
        let Some((w, b)) = self.slot(*id) else {
            return;
        };
        if let Some(x) = self.bits.get_mut(w)
            && *x & b != 0
        {
            *x &= !b;
            self.len -= 1;
        }
    }

    /// The number of movers in the set.
    fn len(&self) -> usize {
        self.len
    }
}

impl FromIterator<ObjId> for Pending {
    fn from_iter<I: IntoIterator<Item = ObjId>>(iter: I) -> Self {
        let mut p = Self::default();
        for id in iter {
            p.insert(id);
        }
        p
    }
}

/// The outcome of [`BabaGame::try_move`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Moved {
    Yes,
    Failed,
    Restricted,
    Destroyed,
}

/// The peer engine's PCG-style 32-bit generator (corpus README "TELE randomness"), seeded per
/// turn with `seed + turn − 1`, so replays are deterministic (§2 (C)).
pub(super) struct Rand32 {
    state: u32,
}

const RM: u32 = 747_796_405;
const RI: u32 = 2_891_336_453;
const RR: u32 = 277_803_737;

fn rand_out(s: u32) -> u32 {
    let t = ((s >> ((s >> 28) + 4)) ^ s).wrapping_mul(RR);
    (t >> 22) ^ t
}

impl Rand32 {
    /// A generator seeded with `seed`.
    pub(super) fn new(seed: u32) -> Self {
        Self {
            state: rand_out((seed ^ RI).wrapping_mul(RM)),
        }
    }

    fn draw(&mut self) -> u32 {
        self.state = self.state.wrapping_mul(RM).wrapping_add(RI);
        rand_out(self.state)
    }

    /// An index in `0..n` (0 when `n <= 1`).
    pub(super) fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        let n32 = u32::try_from(n).unwrap_or(u32::MAX);
        let mut m = self.draw() as u64 * n32 as u64;
        if (m as u32) < n32 {
            let threshold = n32.wrapping_neg() % n32;
            while (m as u32) < threshold {
                m = self.draw() as u64 * n32 as u64;
            }
        }
        (m >> 32) as usize
    }
}

impl BabaGame {
    fn obj(&self, id: ObjId) -> Option<&Obj> {
        self.st.objs.get(&id)
    }

    fn float(&self, id: ObjId) -> bool {
        self.has(id, Prop::Float)
    }

    fn same_float(&self, a: ObjId, b: ObjId) -> bool {
        self.float(a) == self.float(b)
    }

    fn impassable(&self, id: ObjId) -> bool {
        self.has(id, Prop::Stop) || self.has(id, Prop::Push) || self.has(id, Prop::Pull)
    }

    fn ids_at(&self, pos: Pos) -> Vec<ObjId> {
        self.index.get(&pos).cloned().unwrap_or_default()
    }

    /// The objects in cell `pos`, ascending ID, without a copy.
    fn ids_in(&self, pos: Pos) -> &[ObjId] {
        self.index.get(&pos).map_or(&[], Vec::as_slice)
    }

    /// True when `eater`'s noun EATs `food`'s noun (Tier 2).
    fn eats(&self, eater: ObjId, food: ObjId) -> bool {
        let (Some(d), Some(f)) = (self.derived(eater), self.obj(food)) else {
            return false;
        };
        d.others.iter().any(|(v, w, _)| {
            *v == Verb::Eat
                && match *w {
                    Word::Noun(n) => super::eval::subject_covers(n, false, f.kind),
                    _ => false,
                }
        })
    }

    fn open_shut(&self, a: ObjId, b: ObjId) -> bool {
        (self.has(a, Prop::Open) && self.has(b, Prop::Shut))
            || (self.has(a, Prop::Shut) && self.has(b, Prop::Open))
    }

    /// True when `id` may not change position in `d`: STILL, or (Tier 2) LOCKED in `d`
    /// (§5.1 step 2, §5.13).
    pub(super) fn restricted(&self, id: ObjId, d: Dir) -> bool {
        self.has(id, Prop::Still) || self.has(id, Prop::locked(d))
    }

    /// Destroys `id` unless it is SAFE (§5.13), spawning its HAS complements on its cell with
    /// its facing (§5.5). Returns true when it was destroyed.
    pub(super) fn destroy(&mut self, id: ObjId) -> bool {
        if self.has(id, Prop::Safe) {
            return false;
        }
        let Some(o) = self.remove_obj(id) else {
            return false;
        };
        let has: Vec<Word> = self
            .derived(id)
            .map(|d| {
                let mut v: Vec<Word> = Vec::new();
                for (verb, w, _) in &d.others {
                    if *verb == Verb::Has && !v.contains(w) {
                        v.push(*w);
                    }
                }
                v
            })
            .unwrap_or_default();
        for w in has {
            if w == Word::Noun(Noun::ALL) {
                let all: Vec<Noun> = self.st.seen.iter().copied().collect();
                for n in all {
                    self.spawn(Kind::Entity(n), o.pos(), o.dir);
                }
            } else if let Some(kind) = spawn_kind(o.kind, w) {
                self.spawn(kind, o.pos(), o.dir);
            }
        }
        true
    }

    /// Creates an object with a fresh ID.
    pub(super) fn spawn(&mut self, kind: Kind, pos: Pos, dir: Dir) -> ObjId {
        let id = self.st.next_id;
        self.st.next_id += 1;
        self.insert_obj(id, Obj::new(kind, pos, dir));
        id
    }

    fn set_pos(&mut self, id: ObjId, pos: Pos) {
        self.move_obj(id, pos);
    }

    fn set_dir(&mut self, id: ObjId, d: Dir) {
        self.turn_obj(id, d);
    }

    /// Runs `f` as one phase and records the cells it changed (under `name`: a phase run
    /// several times adds to its entry; [`Self::run_turn`] sorts the entries at the end).
    fn phase(
        &mut self,
        name: &'static str,
        out: &mut Vec<(Phase, Vec<Pos>)>,
        f: impl FnOnce(&mut Self),
    ) {
        if self.halted() {
            return;
        }
        self.begin_phase();
        f(self);
        self.cap_stacks();
        // A search reads no report: the cells are not listed then.
        if self.phase_log.is_empty() || !self.list_cells {
            return;
        }
        let k = match out.iter().position(|(p, _)| *p == Phase::Main(name)) {
            Some(k) => k,
            None => {
                out.push((Phase::Main(name), Vec::new()));
                out.len() - 1
            }
        };
        if let Some((_, v)) = out.get_mut(k) {
            let len = v.len();
            self.phase_cells(v);
            if v.len() == len && len == 0 {
                // Changed back within the phase: no entry, as for a phase that changed nothing.
                out.remove(k);
            }
        }
    }

    /// One turn with `input` (`None` = wait), every step of §4.2. Returns the changed cells
    /// per phase.
    pub(super) fn run_turn(&mut self, input: Option<Dir>) -> Vec<(Phase, Vec<Pos>)> {
        let mut out = Vec::new();
        self.st.turn += 1;
        // 1. start
        self.refresh();
        self.start_keeping_refresh();
        let mut transformed: HashSet<ObjId> = HashSet::default();
        // 2a YOU (Tier 2: a YOU level first turns to the input, level_thing.rs)
        if let Some(d) = input {
            self.level_turn_to_input(d);
            self.phase("movement", &mut out, |g| {
                let mut movers = g.with_prop(Prop::You);
                movers.retain(|&id| !g.has(id, Prop::Sleep));
                g.move_round(&movers, |_, _| Some(d), Cause::You, None);
            });
        }
        // The whole movement block reads the rules of the start of the turn: as in the real
        // game, rules are re-read only after all movement (YOU, MOVE, FEAR, SHIFT), so a rule
        // that a move completes acts from the refresh after the block on (docs/baba-semantics.md,
        // §4.2 refresh).
        // 2b MOVE
        self.phase("movement", &mut out, |g| g.move_phase());
        // 2d FEAR (Tier 2)
        self.phase("movement", &mut out, |g| g.fear_phase());
        // 2e SHIFT
        self.phase("movement", &mut out, |g| g.shift_phase());
        // 2e, Tier 2: LEVEL IS SHIFT, after the SHIFTers (level_thing.rs)
        self.phase("movement", &mut out, |g| g.level_shift_phase());
        self.refresh();
        // 3. boundary cleanup: positions never leave the map in this engine (no PHANTOM).
        // 4. transformation pass 1
        self.phase("transform", &mut out, |g| g.transform(&mut transformed));
        self.refresh();
        // 5. DIRs
        self.phase("facing", &mut out, |g| g.apply_dirs());
        // 7. transformation pass 2
        self.refresh();
        self.phase("transform", &mut out, |g| g.transform(&mut transformed));
        self.refresh();
        // 8. TELE
        self.phase("tele", &mut out, |g| g.tele());
        self.refresh();
        // 9. SHIFT facing
        self.phase("align", &mut out, |g| g.shift_align());
        self.refresh();
        // 10. MAKE (and WRITE)
        self.phase("make", &mut out, |g| g.make());
        self.refresh();
        // 11. FALL
        self.phase("fall", &mut out, |g| g.fall());
        self.refresh();
        // 12. MORE
        self.phase("more", &mut out, |g| g.more());
        self.refresh();
        // 13. overlap destruction
        self.phase("interactions", &mut out, |g| g.interactions());
        // 14. win check, with the properties of the refresh before step 13; BONUS objects that
        // are YOU or overlap a YOU go at the same time (Tier 2), then DONE objects vanish.
        let won = matches!(self.compute_status(true), Status::Won { .. });
        self.phase("win", &mut out, |g| g.bonus_and_done(won));
        // 15. end (Tier 2: the level faces its DIR, as the real game's `domaprotation` after
        // every rule read)
        self.refresh();
        self.face_level();
        self.st.status = if won {
            Status::won(1)
        } else {
            self.compute_status(false)
        };
        for (_, cells) in &mut out {
            super::game::sort_cells(cells, &mut self.cell_marks, self.width, self.height);
        }
        out
    }

    /// Tier 2 stack cap (§2, §4.2 (C)): at most [`STACK_CAP`] objects of one kind per cell;
    /// the higher IDs vanish (no HAS). Once every cell is within the cap, only the cells that
    /// objects entered in the phase in progress (`phase_log`) can exceed it.
    fn cap_stacks(&mut self) {
        if self.capped && self.phase_log.is_empty() {
            return;
        }
        let mut gone = Vec::new();
        if self.capped {
            // Most phases leave every cell they touched with at most STACK_CAP objects of
            // any kind: nothing to collect or sort then.
            let crowded = |(id, _): &(ObjId, Option<Obj>)| {
                self.st
                    .objs
                    .get(id)
                    .is_some_and(|o| self.ids_in(o.pos()).len() > STACK_CAP)
            };
            let log = &self.phase_log;
            if !log.iter().any(crowded) {
                return;
            }
            let mut cells: Vec<Pos> = log
                .iter()
                .filter(|e| crowded(e))
                .filter_map(|(id, _)| self.st.objs.get(id).map(Obj::pos))
                .collect();
            cells.sort_unstable_by_key(|p| (p.y, p.x));
            cells.dedup();
            for p in cells {
                let ids = self.ids_in(p);
                if ids.len() <= STACK_CAP {
                    continue;
                }
                let mut seen: Vec<(Kind, usize)> = Vec::new();
                for &id in ids {
                    let Some(k) = self.obj(id).map(|o| o.kind) else {
                        continue;
                    };
                    let n = match seen.iter_mut().find(|e| e.0 == k) {
                        Some(e) => {
                            e.1 += 1;
                            e.1
                        }
                        None => {
                            seen.push((k, 1));
                            1
                        }
                    };
                    if n > STACK_CAP {
                        gone.push(id);
                    }
                }
            }
            gone.sort_unstable();
        } else {
            let mut seen: rustc_hash::FxHashMap<(Pos, Kind), usize> = Default::default();
            for (&id, o) in &self.st.objs {
                let n = seen.entry((o.pos(), o.kind)).or_insert(0);
                *n += 1;
                if *n > STACK_CAP {
                    gone.push(id);
                }
            }
            self.capped = true;
        }
        for id in gone {
            self.remove_obj(id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Rand32;
    use crate::{BabaGame, BabaLevel};
    use rand_chacha::ChaCha8Rng;
    use rand_core::{Rng as _, SeedableRng as _};
    use serde_json::{Value, json};
    use tilesmith_core::game::Game as _;
    use tilesmith_core::grid::Dir;
    use tilesmith_core::input::Input;

    thread_local! {
        /// Plan every waiting mover again in each pass (the move loop before [`super::Wait`]),
        /// as the reference the memo is checked against.
        pub(super) static NO_WAIT_MEMO: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
        /// How often a waiting mover was found still waiting without a dry run.
        pub(super) static WAIT_MEMO_HITS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    }

    /// A random crowded board: six rules from the top three rows (ROCK IS MOVE always, so
    /// that rounds are crowded), movers, pushers, pullers and walls below, random facings.
    fn crowded_board(rng: &mut ChaCha8Rng) -> Value {
        const W: usize = 9;
        const H: usize = 10;
        let pick = |rng: &mut ChaCha8Rng, from: &[&'static str]| {
            from[rng.next_u32() as usize % from.len()]
        };
        let mut map = vec![vec![Value::Null; W]; H];
        let props = [
            "move", "stop", "push", "pull", "you", "move", "stop", "weak", "swap", "shift", "float",
        ];
        let nouns = ["rock", "keke", "baba", "wall"];
        for k in 0..6 {
            let (y, x) = (k / 2, (k % 2) * 4);
            let (noun, prop) = if k == 0 {
                ("rock", "move")
            } else {
                (pick(rng, &nouns), pick(rng, &props))
            };
            for (i, w) in [noun, "is", prop].into_iter().enumerate() {
                map[y][x + i] = json!(format!("text_{w}"));
            }
        }
        for row in map.iter_mut().skip(3) {
            for cell in row.iter_mut() {
                if rng.next_u32() % 100 < 45 {
                    let noun = pick(rng, &["rock", "rock", "keke", "baba", "wall"]);
                    let dir = 1 + rng.next_u32() % 4;
                    *cell = json!({"token": noun, "values": {"direction": dir}});
                }
            }
        }
        json!({"kind": "baba", "width": W, "height": H, "map": map})
    }

    #[test]
    fn a_waiting_mover_skipped_for_an_unchanged_way_moves_as_if_planned_again() {
        // The move loop skips the dry runs of a waiting mover whose way did not change
        // (`waits_still`). On random crowded boards, every turn must end in the same state
        // as with every waiting mover planned again. (It fails without the mover's own cell
        // among the watched ones, without the settle mark, without the turned mover's
        // exception, or with the way cut at the cell ahead.)
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        WAIT_MEMO_HITS.with(|c| c.set(0));
        let inputs = [
            Input::Move(Dir::Left),
            Input::Move(Dir::Right),
            Input::Move(Dir::Up),
            Input::Move(Dir::Down),
            Input::Wait,
        ];
        for n in 0..300 {
            let doc = crowded_board(&mut rng);
            let level = BabaLevel::from_json(&doc).expect("a valid board");
            let mut memo = BabaGame::new(level.clone(), 0);
            let mut plain = BabaGame::new(level, 0);
            for turn in 1..=12 {
                let input = inputs[rng.next_u32() as usize % inputs.len()];
                memo.step(input);
                NO_WAIT_MEMO.with(|c| c.set(true));
                plain.step(input);
                NO_WAIT_MEMO.with(|c| c.set(false));
                assert_eq!(
                    memo.state_hash(),
                    plain.state_hash(),
                    "board {n}, turn {turn} ({input:?}) differs: {doc}"
                );
            }
        }
        // The boards must exercise the skip, or the comparison shows nothing.
        let hits = WAIT_MEMO_HITS.with(std::cell::Cell::get);
        assert!(hits > 1000, "only {hits} waiting movers were skipped");
    }

    #[test]
    fn a_pending_set_holds_what_was_added_in_any_order_and_spans_only_its_ids() {
        let mut p = super::Pending::default();
        for id in [1_000_070, 1_000_003, 999_900, 1_000_070] {
            p.insert(id);
        }
        assert_eq!(p.len(), 3);
        assert!(p.contains(&999_900) && p.contains(&1_000_003) && p.contains(&1_000_070));
        assert!(!p.contains(&1_000_004) && !p.contains(&5) && !p.contains(&2_000_000));
        p.remove(&1_000_003);
        p.remove(&1_000_003);
        p.remove(&7);
        assert_eq!(p.len(), 2);
        assert!(!p.contains(&1_000_003) && p.contains(&999_900));
        // Bits from 999 872 (999 900 rounded down to a word) to 1 000 070: 4 words, not the
        // 15 626 that bits from ID 0 would take.
        assert_eq!(p.bits.len(), 4);
    }

    #[test]
    fn peer_rng_examples() {
        // corpus README: with seed 0, picking from 2 pads gives 0, from 5 gives 2.
        assert_eq!(Rand32::new(0).below(2), 0);
        assert_eq!(Rand32::new(0).below(5), 2);
    }
}

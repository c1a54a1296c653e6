//! The choices of a decision, in one canonical order: `skip` first, then the command's
//! choices (placement: the cards a flag may go on). Entry `n` of this order is played by
//! `Input::Choice(n)`; MoveFlag's and Reorder's lists (up to millions of entries) are
//! counted, ranked and unranked without being built (MoveFlag by closed forms, `moves.rs`;
//! Reorder by its mixed-radix form), so entry `n` and a word of a huge list cost a few
//! thousand steps; the other cards' lists are short and walked. `words.rs` writes and reads
//! the words.

use super::card::Card;
use super::state::{State, Track};

/// No pinned flag in an [`Arrange`] entry.
pub const NO_PIN: u8 = u8::MAX;

pub use super::moves::Moves;

/// Reorder's new arrangements, `(card, owners bit per new place, new place of the flag the
/// rules follow there or NO_PIN)`, cards in line order. Unused entries are `(0, 0, 0)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Arrange {
    /// Cards used.
    pub n: u8,
    /// The cards' new arrangements.
    pub cards: [(u8, u32, u8); 3],
}

/// One choice at a decision (card indices are places in the line).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Choice {
    /// Placement: a flag on this card (`@Card`).
    Place(u8),
    /// Do not execute (`skip`).
    Skip,
    /// Execute a command with nothing to choose (`do`).
    Do,
    /// AddFlag, FastPass: these cards (`do:A+B`).
    Cards(u16),
    /// RemoveCommand, SwapCommand, Subroutine: this card (`do:A`).
    Target(u8),
    /// Increment, Decrement: parameter `k` (0-based) of this card (`do:A#k+1`).
    Param(u8, u8),
    /// RemoveFlag: these places (bit `i` for place `i`, 0-based) of this card.
    Remove(u8, u32),
    /// MoveFlag's parts.
    Move(Moves),
    /// Reorder's arrangements.
    Reorder(Arrange),
}

/// `C(n, k)` for `n ≤ 20`.
pub fn binom(n: u32, k: u32) -> u64 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    (0..k).fold(1u64, |acc, i| acc * (n - i) as u64 / (i + 1) as u64)
}

/// Calls `f` with each `m`-subset of `items` in lexicographic order until it returns false;
/// false when stopped.
fn combos(items: &[u8], m: usize, f: &mut dyn FnMut(&[u8]) -> bool) -> bool {
    fn go(
        items: &[u8],
        m: usize,
        from: usize,
        cur: &mut [u8; 32],
        k: usize,
        f: &mut dyn FnMut(&[u8]) -> bool,
    ) -> bool {
        if k == m {
            return f(&cur[..m]);
        }
        for i in from..items.len() {
            if items.len() - i < m - k {
                break;
            }
            cur[k] = items[i];
            if !go(items, m, i + 1, cur, k + 1, f) {
                return false;
            }
        }
        true
    }
    if m > 32 || m > items.len() {
        return true;
    }
    let mut cur = [0u8; 32];
    go(items, m, 0, &mut cur, 0, f)
}

/// The owners' bits of the `r`-th arrangement (colex order) of `blue` blue flags among `len`.
fn unrank_colour(len: u8, blue: u8, mut r: u64) -> u32 {
    let mut bits = 0u32;
    let mut top = len as u32;
    for i in (1..=blue as u32).rev() {
        let mut c = top;
        while c > 0 && binom(c - 1, i) > r {
            c -= 1;
        }
        let pos = c.saturating_sub(1);
        r -= binom(pos, i);
        bits |= 1 << pos;
        top = pos;
    }
    bits
}

/// The colex rank of an arrangement's blue places.
fn rank_colour(bits: u32) -> u64 {
    let mut r = 0;
    let mut i = 0;
    for pos in 0..32u32 {
        if bits & (1 << pos) != 0 {
            i += 1;
            r += binom(pos, i);
        }
    }
    r
}

impl State {
    /// The other cards than the one under the cursor, in line order.
    fn others(&self) -> ([u8; 16], usize) {
        let mut v = [0u8; 16];
        let mut k = 0;
        for i in (0..self.n).filter(|&i| i != self.at) {
            v[k] = i;
            k += 1;
        }
        (v, k)
    }

    /// The player whose right it is, and the card, during execution.
    fn executing(&self) -> Option<(u8, Card)> {
        if self.placing() || self.gap {
            return None;
        }
        let Track::Active(i) = self.track else {
            return None;
        };
        let s = self.slots[self.at as usize];
        (i < s.q.len).then(|| (s.q.get(i), s.card))
    }

    /// Reorder's number of cards, when it has choices: `min({1}, other cards)`.
    fn reorder_m(&self) -> Option<usize> {
        match self.executing() {
            Some((_, Card::Reorder)) => {
                let m = (self.slots[self.at as usize].param(0).max(0) as usize)
                    .min(self.n as usize - 1);
                (m > 0).then_some(m)
            }
            _ => None,
        }
    }

    /// MoveFlag's space, when the decision is MoveFlag's with parts to choose.
    fn move_space(&self) -> Option<super::moves::MoveSpace> {
        match self.executing() {
            Some((_, Card::MoveFlag)) => super::moves::MoveSpace::new(
                self,
                self.slots[self.at as usize].param(0).max(0) as usize,
            ),
            _ => None,
        }
    }

    /// A card's number of arrangements for Reorder, and its pin factor (the count of its
    /// followed flag's colour, 1 when none is followed).
    fn radix(&self, c: u8) -> (u64, u64) {
        let q = self.slots[c as usize].q;
        let pf = self.pinned(c).map_or(1, |t| q.count(q.get(t)) as u64);
        (binom(q.len as u32, q.count(1) as u32) * pf, pf)
    }

    /// Calls `f` with each legal choice in canonical order until it returns false.
    pub fn each_choice(&self, f: &mut dyn FnMut(Choice) -> bool) {
        if self.end != super::state::End::Running {
            return;
        }
        if self.placing() {
            for i in 0..self.n {
                if !self.slots[i as usize].q.has(self.placer) && !f(Choice::Place(i)) {
                    return;
                }
            }
            return;
        }
        let Some((p, card)) = self.executing() else {
            return;
        };
        if !f(Choice::Skip) {
            return;
        }
        let slot = self.slots[self.at as usize];
        let (others, no) = self.others();
        let others = &others[..no];
        let k = |j: usize| slot.param(j).max(0) as usize;
        let cards = |m: usize, f: &mut dyn FnMut(Choice) -> bool| {
            if m == 0 {
                f(Choice::Do);
            } else {
                combos(others, m, &mut |c| {
                    f(Choice::Cards(c.iter().fold(0, |a, &i| a | 1 << i)))
                });
            }
        };
        let reserve = self.reserve[p as usize] as usize;
        match card {
            Card::AddFlag => cards(k(0).min(no).min(reserve), f),
            Card::FastPass => cards(k(1).min(no).min(reserve), f),
            Card::MoveFlag => self.each_move(k(0), others, f),
            Card::RemoveFlag => self.each_remove(k(0), others, f),
            Card::Reorder => self.each_reorder(f),
            Card::RemoveCommand => {
                for t in 0..self.n {
                    if !f(Choice::Target(t)) {
                        return;
                    }
                }
            }
            Card::SwapCommand if no == 0 => {
                f(Choice::Do);
            }
            Card::SwapCommand => {
                for &t in others {
                    if !f(Choice::Target(t)) {
                        return;
                    }
                }
            }
            Card::Subroutine => {
                let reach = self.subroutine_targets(k(0));
                if reach == 0 {
                    f(Choice::Do);
                }
                for t in (0..self.n).filter(|t| reach & (1 << t) != 0) {
                    if !f(Choice::Target(t)) {
                        return;
                    }
                }
            }
            Card::Increment | Card::Decrement => {
                for &t in others {
                    for j in 0..self.slots[t as usize].card.params().len() {
                        if !f(Choice::Param(t, j as u8)) {
                            return;
                        }
                    }
                }
            }
            _ => {
                f(Choice::Do);
            }
        }
    }

    /// The cards a Subroutine of range `k` may visit (A9: within `k` cards either way,
    /// wrapping, not itself), as a mask.
    pub fn subroutine_targets(&self, k: usize) -> u16 {
        let n = self.n as usize;
        let at = self.at as usize;
        let mut mask = 0u16;
        for d in 1..=k.min(n) {
            mask |= 1 << ((at + d) % n);
            mask |= 1 << ((at + n * d - d) % n);
        }
        mask & !(1 << at)
    }

    fn each_move(&self, k: usize, others: &[u8], f: &mut dyn FnMut(Choice) -> bool) {
        let mut flags = [(0u8, 0u8); 20];
        let mut nf = 0;
        for &c in others {
            for i in 0..self.slots[c as usize].q.len {
                flags[nf] = (c, i);
                nf += 1;
            }
        }
        let m = k.min(nf).min(3);
        if m == 0 || self.n < 3 {
            f(Choice::Do);
            return;
        }
        let mut parts = Moves::default();
        self.moves_from(&flags[..nf], 0, m, 0, &mut parts, f);
    }

    fn moves_from(
        &self,
        flags: &[(u8, u8)],
        used: u32,
        m: usize,
        min_dest: u8,
        parts: &mut Moves,
        f: &mut dyn FnMut(Choice) -> bool,
    ) -> bool {
        if parts.n as usize == m {
            return f(Choice::Move(*parts));
        }
        for d in (min_dest..self.n).filter(|&d| d != self.at) {
            for (fi, &(src, pl)) in flags.iter().enumerate() {
                if used & (1 << fi) != 0 || src == d {
                    continue;
                }
                parts.parts[parts.n as usize] = (src, pl, d);
                parts.n += 1;
                let go = self.moves_from(flags, used | 1 << fi, m, d, parts, f);
                parts.n -= 1;
                parts.parts[parts.n as usize] = (0, 0, 0);
                if !go {
                    return false;
                }
            }
        }
        true
    }

    fn each_remove(&self, k: usize, others: &[u8], f: &mut dyn FnMut(Choice) -> bool) {
        let with = |&c: &u8| self.slots[c as usize].q.len > 0;
        if k == 0 || !others.iter().any(with) {
            f(Choice::Do);
            return;
        }
        const PLACES: [u8; 32] = {
            let mut p = [0u8; 32];
            let mut i = 0;
            while i < 32 {
                p[i] = i as u8;
                i += 1;
            }
            p
        };
        for &c in others.iter().filter(|c| with(c)) {
            let len = self.slots[c as usize].q.len;
            let places = &PLACES[..len as usize];
            let m = k.min(len as usize);
            // Place sets with the same outcome (the same colours left in the same places, the
            // same reserves, and the followed flag of A8 where it was) are one choice, the
            // first in order naming it, as Reorder's arrangements are.
            let mut seen: Vec<State> = Vec::new();
            if !combos(places, m, &mut |s| {
                let mask = s.iter().fold(0, |a, &i| a | 1 << i);
                if let Some(after) = self.after_remove(c, mask) {
                    if seen.contains(&after) {
                        return true;
                    }
                    seen.push(after);
                }
                f(Choice::Remove(c, mask))
            }) {
                return;
            }
        }
    }

    /// RemoveFlag: the state once the flags at the places of `mask` (bit `i` for place `i`)
    /// leave card `c`; `None` when `mask` names a place the card does not have.
    fn after_remove(&self, c: u8, mask: u32) -> Option<State> {
        let q = self.slots.get(c as usize)?.q;
        if q.len < 32 && mask >> q.len != 0 {
            return None;
        }
        let mut t = *self;
        for i in (0..q.len).rev().filter(|&i| mask & (1 << i) != 0) {
            t.remove_flag(c, i);
        }
        Some(t)
    }

    /// Calls `f` with Reorder's card sets (lexicographic) and their numbers of choices.
    fn reorder_sets(&self, m: usize, f: &mut dyn FnMut(&[u8], u64) -> bool) {
        let (others, no) = self.others();
        combos(&others[..no], m, &mut |set| {
            let size = set.iter().map(|&c| self.radix(c).0).product();
            f(set, size)
        });
    }

    /// The arrangement number `v` of Reorder's card set `set`.
    fn decode_reorder(&self, set: &[u8], mut v: u64) -> Arrange {
        let mut a = Arrange {
            n: set.len() as u8,
            ..Arrange::default()
        };
        for (j, &c) in set.iter().enumerate().rev() {
            let (r, pf) = self.radix(c);
            let x = v % r;
            v /= r;
            let q = self.slots[c as usize].q;
            let bits = unrank_colour(q.len, q.count(1), x / pf);
            let pin = match self.pinned(c) {
                Some(t) => {
                    let col = q.get(t) as u32;
                    let nth = (x % pf) as usize;
                    (0..q.len)
                        .filter(|&i| (bits >> i) & 1 == col)
                        .nth(nth)
                        .unwrap_or(NO_PIN)
                }
                None => NO_PIN,
            };
            a.cards[j] = (c, bits, pin);
        }
        a
    }

    fn each_reorder(&self, f: &mut dyn FnMut(Choice) -> bool) {
        let Some(m) = self.reorder_m() else {
            f(Choice::Do);
            return;
        };
        self.reorder_sets(m, &mut |set, size| {
            (0..size).all(|v| f(Choice::Reorder(self.decode_reorder(set, v))))
        });
    }

    /// The number of legal choices (0 when the game is over).
    pub fn choice_count(&self) -> u64 {
        if let Some(m) = self.reorder_m() {
            let mut total = 1;
            self.reorder_sets(m, &mut |_, size| {
                total += size;
                true
            });
            return total;
        }
        if let Some(sp) = self.move_space() {
            return 1 + sp.count(sp.m, 0, 0);
        }
        let mut n = 0;
        self.each_choice(&mut |_| {
            n += 1;
            true
        });
        n
    }

    /// Choice number `n` of the canonical order.
    pub fn nth_choice(&self, n: u64) -> Option<Choice> {
        if let Some(m) = self.reorder_m()
            && n > 0
        {
            let mut left = n - 1;
            let mut found = None;
            self.reorder_sets(m, &mut |set, size| {
                if left < size {
                    found = Some(Choice::Reorder(self.decode_reorder(set, left)));
                    return false;
                }
                left -= size;
                true
            });
            return found;
        }
        if let Some(sp) = self.move_space()
            && n > 0
        {
            return sp.nth(n - 1).map(Choice::Move);
        }
        let mut i = 0;
        let mut found = None;
        self.each_choice(&mut |c| {
            if i == n {
                found = Some(c);
                return false;
            }
            i += 1;
            true
        });
        found
    }

    /// The number of a legal choice in the canonical order; `None` when not legal.
    pub fn rank_choice(&self, choice: Choice) -> Option<u64> {
        if let (Some(m), Choice::Reorder(a)) = (self.reorder_m(), choice) {
            return self.rank_reorder(m, a);
        }
        if let (Some(sp), Choice::Move(mv)) = (self.move_space(), choice) {
            return sp.rank(mv).map(|i| i + 1);
        }
        // A RemoveFlag word naming other places with the same outcome is that choice
        // (`each_remove`).
        let same = |c: Choice| match (c, choice) {
            (Choice::Remove(a, m), Choice::Remove(b, n)) if a == b && m != n => {
                m.count_ones() == n.count_ones()
                    && self.after_remove(a, n).is_some()
                    && self.after_remove(a, m) == self.after_remove(a, n)
            }
            _ => c == choice,
        };
        let mut i = 0;
        let mut found = None;
        self.each_choice(&mut |c| {
            if same(c) {
                found = Some(i);
                return false;
            }
            i += 1;
            true
        });
        found
    }

    fn rank_reorder(&self, m: usize, a: Arrange) -> Option<u64> {
        let set: Vec<u8> = a.cards[..a.n as usize].iter().map(|c| c.0).collect();
        let mut v = 0u64;
        for &(c, bits, pin) in &a.cards[..a.n as usize] {
            let q = self.slots.get(c as usize)?.q;
            if c >= self.n || bits >> q.len != 0 || bits.count_ones() as u8 != q.count(1) {
                return None;
            }
            let (r, pf) = self.radix(c);
            let j = match self.pinned(c) {
                Some(t) => {
                    let col = q.get(t) as u32;
                    if pin >= q.len || (bits >> pin) & 1 != col {
                        return None;
                    }
                    (0..pin).filter(|&i| (bits >> i) & 1 == col).count() as u64
                }
                None if pin == NO_PIN => 0,
                None => return None,
            };
            v = v * r + rank_colour(bits) * pf + j;
        }
        let mut offset = 1u64;
        let mut found = None;
        self.reorder_sets(m, &mut |s, size| {
            if s == set.as_slice() {
                found = Some(offset + v);
                return false;
            }
            offset += size;
            true
        });
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials() {
        assert_eq!(
            (binom(5, 2), binom(20, 10), binom(3, 4), binom(0, 0)),
            (10, 184_756, 0, 1)
        );
    }

    /// Colex ranks are a bijection onto `0..C(len, blue)`, in the order of the places.
    #[test]
    fn colour_ranks_round_trip() {
        for len in 0..=8u8 {
            for blue in 0..=len {
                let total = binom(len as u32, blue as u32);
                let mut seen = std::collections::HashSet::new();
                for r in 0..total {
                    let bits = unrank_colour(len, blue, r);
                    assert_eq!(bits.count_ones() as u8, blue);
                    assert_eq!(bits >> len, 0);
                    assert_eq!(rank_colour(bits), r);
                    assert!(seen.insert(bits));
                }
            }
        }
        assert_eq!(unrank_colour(4, 2, 0), 0b0011);
        assert_eq!(unrank_colour(4, 2, 5), 0b1100);
    }

    #[test]
    fn combinations_in_lexicographic_order() {
        let mut all = Vec::new();
        combos(&[1, 3, 5, 7], 2, &mut |c| {
            all.push(c.to_vec());
            true
        });
        assert_eq!(all, [[1, 3], [1, 5], [1, 7], [3, 5], [3, 7], [5, 7]]);
    }

    /// Subroutine's range wraps and never holds Subroutine itself (A9).
    #[test]
    fn subroutine_range() {
        let mut s = State::new(&[
            Card::Subroutine,
            Card::Bug,
            Card::Debug,
            Card::Rotate,
            Card::AddFlag,
        ]);
        assert_eq!(s.subroutine_targets(1), 0b10010);
        assert_eq!(s.subroutine_targets(2), 0b11110);
        assert_eq!(s.subroutine_targets(0), 0);
        s.n = 2;
        assert_eq!(s.subroutine_targets(3), 0b10);
    }
}

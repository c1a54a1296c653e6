//! MoveFlag's choices counted, ranked and unranked without walking them: the walk of
//! `choice.rs` (destinations in line order, then the flags as found, each part's
//! destination at or after the one before) has up to millions of leaves for {1} = 3; here
//! the number of completions of a prefix has a closed form for one or two parts left, so
//! entry `n` is found in a few thousand steps.

use super::state::State;

/// MoveFlag's parts, `(source card, place as found, destination)`, in canonical order:
/// destinations in line order, parts with the same destination in the order written (that
/// order sets their order at the tail). Unused parts are `(0, 0, 0)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Moves {
    /// Parts used.
    pub n: u8,
    /// The parts.
    pub parts: [(u8, u8, u8); 3],
}

/// The flags MoveFlag may move (on other cards than the one under the cursor), as found.
pub struct MoveSpace {
    at: u8,
    n: u8,
    /// `(card, place)` of each flag, cards in line order.
    flags: [(u8, u8); 20],
    nf: usize,
    /// Parts to choose.
    pub m: usize,
}

impl MoveSpace {
    /// The space of MoveFlag {1} = `k` at the current decision; `None` when `do` is the
    /// only command choice (no flag to move, or no card to move one to).
    pub fn new(s: &State, k: usize) -> Option<MoveSpace> {
        let mut sp = MoveSpace {
            at: s.at,
            n: s.n,
            flags: [(0, 0); 20],
            nf: 0,
            m: 0,
        };
        for c in (0..s.n).filter(|&c| c != s.at) {
            for i in 0..s.slots[c as usize].q.len {
                if sp.nf < 20 {
                    sp.flags[sp.nf] = (c, i);
                    sp.nf += 1;
                }
            }
        }
        sp.m = k.min(sp.nf).min(3);
        (sp.m > 0 && s.n >= 3).then_some(sp)
    }

    fn dests(&self, from: u8) -> impl Iterator<Item = u8> + '_ {
        (from..self.n).filter(move |&d| d != self.at)
    }

    /// Unused flags on card `d`.
    fn on(&self, used: u32, d: u8) -> u64 {
        (0..self.nf)
            .filter(|&i| used & (1 << i) == 0 && self.flags[i].0 == d)
            .count() as u64
    }

    /// The number of ways to choose `r` more parts, destinations from `p` on, with the
    /// flags of `used` taken.
    pub fn count(&self, r: usize, used: u32, p: u8) -> u64 {
        let fu = (self.nf as u32 - used.count_ones()) as u64;
        match r {
            0 => 1,
            1 => self.dests(p).map(|d| fu - self.on(used, d)).sum(),
            2 => self
                .dests(p)
                .map(|d1| {
                    // After (d1, f): Σ_{d2 ≥ d1} (fu − 1 − on'(d2)) = S − N + [src f ≥ d1].
                    // Signed: S − N alone may be negative.
                    let fu = fu as i64;
                    let s: i64 = self.dests(d1).map(|d2| fu - self.on(used, d2) as i64).sum();
                    let nd = self.dests(d1).count() as i64;
                    let g = (0..self.nf)
                        .filter(|&i| used & (1 << i) == 0 && self.flags[i].0 >= d1)
                        .count() as i64;
                    let c = self.on(used, d1) as i64;
                    (fu - c) * (s - nd) + g - c
                })
                .sum::<i64>()
                .max(0) as u64,
            _ => {
                let mut total = 0;
                for d in self.dests(p) {
                    for i in 0..self.nf {
                        if used & (1 << i) == 0 && self.flags[i].0 != d {
                            total += self.count(r - 1, used | 1 << i, d);
                        }
                    }
                }
                total
            }
        }
    }

    /// Choice `idx` (0-based among MoveFlag's command choices) of the walk's order.
    pub fn nth(&self, mut idx: u64) -> Option<Moves> {
        let mut mv = Moves::default();
        let (mut used, mut p) = (0u32, 0u8);
        for t in 0..self.m {
            let r = self.m - t - 1;
            let mut found = false;
            'pick: for d in self.dests(p) {
                for i in 0..self.nf {
                    if used & (1 << i) != 0 || self.flags[i].0 == d {
                        continue;
                    }
                    let c = self.count(r, used | 1 << i, d);
                    if idx < c {
                        mv.parts[t] = (self.flags[i].0, self.flags[i].1, d);
                        used |= 1 << i;
                        p = d;
                        found = true;
                        break 'pick;
                    }
                    idx -= c;
                }
            }
            if !found {
                return None;
            }
        }
        mv.n = self.m as u8;
        Some(mv)
    }

    /// The index of `mv` among MoveFlag's command choices; `None` when it is not one.
    pub fn rank(&self, mv: Moves) -> Option<u64> {
        if mv.n as usize != self.m {
            return None;
        }
        let (mut used, mut p, mut idx) = (0u32, 0u8, 0u64);
        for t in 0..self.m {
            let (src, pl, dest) = mv.parts[t];
            let r = self.m - t - 1;
            let fi = (0..self.nf).find(|&i| self.flags[i] == (src, pl))?;
            if used & (1 << fi) != 0 || dest == src || dest == self.at || dest < p || dest >= self.n
            {
                return None;
            }
            for d in self.dests(p) {
                for i in 0..self.nf {
                    if d == dest && i == fi {
                        break;
                    }
                    if used & (1 << i) == 0 && self.flags[i].0 != d {
                        idx += self.count(r, used | 1 << i, d);
                    }
                }
                if d == dest {
                    break;
                }
            }
            used |= 1 << fi;
            p = dest;
        }
        Some(idx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::Card;
    use crate::choice::Choice;
    use crate::state::Track;

    /// The closed-form count, unranking and ranking agree with the walk of `choice.rs` for
    /// {1} = 1, 2, 3 over a line with flags on several cards (the walk is the reference).
    #[test]
    fn counting_agrees_with_the_walk() {
        let cards = [
            Card::Bug,
            Card::MoveFlag,
            Card::Debug,
            Card::Rotate,
            Card::AddFlag,
        ];
        let mut s = State::new(&cards);
        for (c, owners) in [
            (0u8, &[0u8, 1, 1][..]),
            (1, &[0]),
            (2, &[1]),
            (3, &[0, 0]),
            (4, &[]),
        ] {
            for &o in owners {
                s.push_tail(c, o);
            }
        }
        s.at = 1;
        s.track = Track::Active(0);
        for chips in 0..=2i8 {
            s.slots[1].chips[0] = chips;
            let mut walked = Vec::new();
            s.each_choice(&mut |c| {
                walked.push(c);
                true
            });
            let k = (1 + chips) as usize;
            let sp = MoveSpace::new(&s, k).unwrap();
            assert_eq!(1 + sp.count(sp.m, 0, 0), walked.len() as u64, "k = {k}");
            for (i, c) in walked.iter().enumerate().skip(1) {
                let Choice::Move(mv) = *c else {
                    panic!("{c:?}")
                };
                assert_eq!(sp.nth(i as u64 - 1), Some(mv));
                assert_eq!(sp.rank(mv), Some(i as u64 - 1));
            }
            assert_eq!(sp.nth(walked.len() as u64 - 1), None);
        }
    }
}

//! Reach tables: for each player, piece type, move block and start position, a superset of
//! the positions a move of that block could capture on (the destinations of its movements
//! and the positions of its `capture`s). Found by running the block abstractly on sets of
//! positions, ignoring every condition (so every branch and every number of `while` rounds
//! is taken). The attack probe (`attacked?`, the legality filter) runs only the blocks whose
//! reach holds the target; the result is the same as running them all, only faster.

use super::super::rules::{GoTarget, Instr, Loc, NO_POS, PlayerId, PosId};
use super::ctx::Ctx;

/// The largest table built, in bits (players x types x blocks x positions x positions).
const MAX_BITS: usize = 1 << 28;
/// Passes over one block before giving up on a fixed point (then: reaches everything).
const MAX_PASSES: usize = 8;

/// Reach tables of one ruleset.
#[derive(Clone)]
pub(crate) struct Reach {
    words: usize,
    npos: usize,
    /// Per (player, piece type): the first block's index in `blocks`.
    first: Vec<usize>,
    /// Per block slot (first[..] + block): `npos` bitsets of `words` words, one per start.
    blocks: Vec<Vec<u64>>,
    /// Per (player, piece type): `npos` bitsets, the union over the type's blocks.
    union: Vec<Vec<u64>>,
    /// Per player: `npos` bitsets, one per target, of the starts from which some piece type
    /// of the player may capture on it (the union's transpose over the types).
    starts: Vec<Vec<u64>>,
}

/// Per player, `npos` bitsets of `words` words, one per target: the starts `s` whose row in
/// `union` (per (player, piece type), `npos` rows of `words` words) holds the target for some
/// piece type of the player.
fn transpose(
    union: &[Vec<u64>],
    nk: usize,
    nplayers: usize,
    npos: usize,
    words: usize,
) -> Vec<Vec<u64>> {
    let mut starts = vec![vec![0u64; npos * words]; nplayers];
    for (i, u) in union.iter().enumerate() {
        let Some(from) = starts.get_mut(i / nk.max(1)) else {
            continue;
        };
        for s in 0..npos {
            for t in 0..npos {
                if Reach::bit(u, s, words, t as PosId) {
                    from[t * words + s / 64] |= 1 << (s % 64);
                }
            }
        }
    }
    starts
}

/// The start positions an attack probe looks at, in board order: every position, or the
/// set bits of a [`Reach`] row.
pub(crate) enum Starts<'a> {
    /// Positions `0..n`.
    All(std::ops::Range<usize>),
    /// The set bits of `words` (position `64 * i + b` for bit `b` of word `i`).
    Bits {
        words: &'a [u64],
        i: usize,
        cur: u64,
    },
}

impl Iterator for Starts<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        match self {
            Starts::All(r) => r.next(),
            Starts::Bits { words, i, cur } => loop {
                if *cur != 0 {
                    let b = cur.trailing_zeros() as usize;
                    *cur &= *cur - 1;
                    return Some((*i - 1) * 64 + b);
                }
                let w = words.get(*i)?;
                *cur = *w;
                *i += 1;
            },
        }
    }
}

impl Reach {
    pub fn build(ctx: &Ctx) -> Option<Reach> {
        let rules = ctx.rules;
        let npos = ctx.npos;
        let words = npos.div_ceil(64).max(1);
        let nblocks: usize = rules.pieces.iter().map(|p| p.moves.len()).sum();
        if ctx.nplayers * nblocks * npos * words * 64 > MAX_BITS {
            return None;
        }
        let nk = rules.pieces.len();
        let mut first = Vec::with_capacity(ctx.nplayers * nk);
        let mut blocks = Vec::new();
        let mut union = Vec::with_capacity(ctx.nplayers * nk);
        for p in 0..ctx.nplayers {
            for def in &rules.pieces {
                first.push(blocks.len());
                let mut u = vec![0u64; npos * words];
                for md in &def.moves {
                    let mut table = vec![0u64; npos * words];
                    for s in 0..npos {
                        let mut a = Abstract::new(ctx, p as PlayerId, s as PosId, words);
                        let r = a.run(&md.block);
                        let row = &mut table[s * words..(s + 1) * words];
                        row.copy_from_slice(&r);
                        for (w, x) in u[s * words..(s + 1) * words].iter_mut().zip(&r) {
                            *w |= x;
                        }
                    }
                    blocks.push(table);
                }
                union.push(u);
            }
        }
        let starts = transpose(&union, nk, ctx.nplayers, npos, words);
        Some(Reach {
            words,
            npos,
            first,
            blocks,
            union,
            starts,
        })
    }

    #[inline]
    fn bit(set: &[u64], start: usize, words: usize, target: PosId) -> bool {
        let t = target as usize;
        set.get(start * words + t / 64)
            .is_some_and(|w| w & (1 << (t % 64)) != 0)
    }

    /// The starts of `player`'s pieces that [`Reach::piece_may`] may allow for `target`, in
    /// board order: those from which some piece type may capture on it, or `0..n` when the
    /// table has no row for them.
    pub fn starts(&self, player: PlayerId, target: PosId, n: usize) -> Starts<'_> {
        let t = target as usize;
        match self.starts.get(player as usize) {
            Some(rows) if t < self.npos => Starts::Bits {
                words: &rows[t * self.words..(t + 1) * self.words],
                i: 0,
                cur: 0,
            },
            _ => Starts::All(0..n),
        }
    }

    /// Whether any move block of a `kind` of `player` on `start` may capture on `target`.
    #[inline]
    pub fn piece_may(
        &self,
        nk: usize,
        player: PlayerId,
        kind: u8,
        start: PosId,
        target: PosId,
    ) -> bool {
        let i = player as usize * nk + kind as usize;
        (start as usize) < self.npos
            && self
                .union
                .get(i)
                .is_none_or(|u| Self::bit(u, start as usize, self.words, target))
    }

    /// Whether the move block `block` of a `kind` of `player` on `start` may capture on
    /// `target`.
    #[inline]
    pub fn block_may(
        &self,
        nk: usize,
        player: PlayerId,
        kind: u8,
        block: usize,
        start: PosId,
        target: PosId,
    ) -> bool {
        let i = player as usize * nk + kind as usize;
        let Some(&f) = self.first.get(i) else {
            return true;
        };
        self.blocks
            .get(f + block)
            .is_none_or(|b| Self::bit(b, start as usize, self.words, target))
    }
}

/// The abstract run of one block from one start: sets of positions.
struct Abstract<'c, 'r> {
    ctx: &'c Ctx<'r>,
    player: PlayerId,
    start: PosId,
    words: usize,
    /// Positions `from` may hold (the start, and every value given).
    from: Vec<u64>,
    /// Positions `to` may hold.
    to: Vec<u64>,
    /// Positions the mark may hold.
    mark: Vec<u64>,
    /// Positions a capture may happen on.
    hits: Vec<u64>,
    /// Set when something could go anywhere (`go last-from`…).
    all: bool,
    changed: bool,
}

impl<'c, 'r> Abstract<'c, 'r> {
    fn new(ctx: &'c Ctx<'r>, player: PlayerId, start: PosId, words: usize) -> Self {
        let mut s = Abstract {
            ctx,
            player,
            start,
            words,
            from: vec![0; words],
            to: vec![0; words],
            mark: vec![0; words],
            hits: vec![0; words],
            all: false,
            changed: false,
        };
        set(&mut s.from, start);
        set(&mut s.mark, start);
        s
    }

    fn run(&mut self, block: &[Instr]) -> Vec<u64> {
        for _ in 0..MAX_PASSES {
            self.changed = false;
            let mut cur = vec![0; self.words];
            set(&mut cur, self.start);
            self.block(block, &mut cur);
            if self.all {
                break;
            }
            if !self.changed {
                return self.hits.clone();
            }
        }
        let mut everything = vec![0; self.words];
        for p in 0..self.ctx.npos {
            set(&mut everything, p as PosId);
        }
        everything
    }

    fn step(&self, s: &[u64], d: u8) -> Vec<u64> {
        let mut out = vec![0; self.words];
        for p in members(s) {
            let q = self.ctx.step(self.player, p, d);
            if q != NO_POS {
                set(&mut out, q);
            }
        }
        out
    }

    fn at(&self, cur: &[u64], loc: Loc) -> Vec<u64> {
        match loc {
            Loc::Here => cur.to_vec(),
            Loc::Dir(d) => self.step(cur, d),
            Loc::Pos(p) => {
                let mut v = vec![0; self.words];
                if (p as usize) < self.ctx.npos {
                    set(&mut v, p);
                }
                v
            }
        }
    }

    fn grow(changed: &mut bool, into: &mut [u64], from: &[u64]) {
        for (a, b) in into.iter_mut().zip(from) {
            if *b & !*a != 0 {
                *a |= b;
                *changed = true;
            }
        }
    }

    fn block(&mut self, block: &[Instr], cur: &mut Vec<u64>) {
        for ins in block {
            self.instr(ins, cur);
        }
    }

    fn instr(&mut self, ins: &Instr, cur: &mut Vec<u64>) {
        match ins {
            Instr::Step(d, _) => *cur = self.step(cur, *d),
            Instr::Goto(p, _) => *cur = self.at(cur, Loc::Pos(*p)),
            Instr::From(loc, _) => {
                let v = self.at(cur, *loc);
                Self::grow(&mut self.changed, &mut self.from, &v);
            }
            Instr::To(loc, _) => {
                let v = self.at(cur, *loc);
                Self::grow(&mut self.changed, &mut self.to, &v);
            }
            Instr::Mark(loc, _) => {
                let v = self.at(cur, *loc);
                Self::grow(&mut self.changed, &mut self.mark, &v);
            }
            Instr::Back(_) => *cur = self.mark.clone(),
            Instr::Go(t, _) => match t {
                GoTarget::From => *cur = self.from.clone(),
                GoTarget::To => {
                    let mut v = cur.clone();
                    Self::grow(&mut false, &mut v, &self.to);
                    *cur = v;
                }
                GoTarget::Mark => *cur = self.mark.clone(),
                GoTarget::LastFrom | GoTarget::LastTo => self.all = true,
            },
            Instr::If(_, a, b, _) => {
                let mut ca = cur.clone();
                self.block(a, &mut ca);
                self.block(b, cur);
                Self::grow(&mut false, cur, &ca);
            }
            Instr::While(_, body, _) => loop {
                let mut c = cur.clone();
                self.block(body, &mut c);
                let mut grew = false;
                Self::grow(&mut grew, cur, &c);
                if !grew {
                    break;
                }
            },
            Instr::Add { .. } => {
                let c = cur.clone();
                Self::grow(&mut self.changed, &mut self.hits, &c);
                let t = self.to.clone();
                Self::grow(&mut self.changed, &mut self.hits, &t);
            }
            Instr::Cascade(_) => {
                let c = cur.clone();
                Self::grow(&mut self.changed, &mut self.hits, &c);
                let t = self.to.clone();
                Self::grow(&mut self.changed, &mut self.hits, &t);
                Self::grow(&mut self.changed, &mut self.from, &c);
            }
            Instr::Capture(loc, _) => {
                let v = self.at(cur, *loc);
                Self::grow(&mut self.changed, &mut self.hits, &v);
            }
            Instr::Verify(..)
            | Instr::SetFlag(..)
            | Instr::SetPositionFlag(..)
            | Instr::Flip(..)
            | Instr::ChangeOwner(..)
            | Instr::ChangeType(..)
            | Instr::Create(..)
            | Instr::SetAttribute(..) => {}
        }
    }
}

#[inline]
fn set(s: &mut [u64], p: PosId) {
    if let Some(w) = s.get_mut(p as usize / 64) {
        *w |= 1 << (p as usize % 64);
    }
}

fn members(s: &[u64]) -> impl Iterator<Item = PosId> + '_ {
    s.iter().enumerate().flat_map(|(i, &w)| {
        (0..64)
            .filter(move |b| w & (1 << b) != 0)
            .map(move |b| (i * 64 + b) as PosId)
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::super::super::rules::PosId;
    use super::super::Engine;

    /// One player, two piece types, 70 positions (two words a row): type 0 on 1 may capture
    /// on 65 and 3, type 1 on 64 may capture on 65. The starts of 65 are 1 and 64, in order;
    /// of 3, only 1; of 1 (nothing captures there), none: the table is transposed, not copied.
    #[test]
    fn the_starts_table_is_the_union_transposed() {
        let (npos, words) = (70, 2);
        let mut u0 = vec![0u64; npos * words];
        let mut u1 = vec![0u64; npos * words];
        u0[words + 1] |= 1 << (65 - 64);
        u0[words] |= 1 << 3;
        u1[64 * words + 1] |= 1 << (65 - 64);
        let t = super::transpose(&[u0, u1], 2, 1, npos, words);
        let starts = |target: usize| -> Vec<usize> {
            super::Starts::Bits {
                words: &t[0][target * words..(target + 1) * words],
                i: 0,
                cur: 0,
            }
            .collect()
        };
        assert_eq!(starts(65), vec![1, 64]);
        assert_eq!(starts(3), vec![1]);
        assert!(starts(1).is_empty());
    }

    /// The starts an attack probe looks at are exactly the starts `piece_may` allows for some
    /// piece type: the transposed table on the corpus's chess (pawns capture forward only, so
    /// a table not transposed differs) and on rotate-three's moves.
    #[test]
    fn the_starts_of_a_target_are_those_some_piece_type_may_capture_from() {
        let chess = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../../shared/corpus/board/chess.zrf"
        );
        let chess = std::fs::read_to_string(chess)
            .unwrap_or_else(|e| panic!("{chess}: {e} (clone shared/ beside the project)"));
        for text in [
            chess.as_str(),
            include_str!("../../../../../levels/board/rotate-three.zrf"),
        ] {
            let (rules, _) = crate::zrf::compile(text, None).unwrap();
            let e = Engine::new(rules);
            let ctx = e.ctx();
            let reach = ctx.reach().unwrap();
            let nk = ctx.rules.pieces.len();
            let mut nonempty = 0;
            for p in 0..ctx.nplayers {
                for t in 0..ctx.npos {
                    let got: Vec<usize> = reach.starts(p as u8, t as PosId, ctx.npos).collect();
                    let want: Vec<usize> = (0..ctx.npos)
                        .filter(|&s| {
                            (0..nk).any(|k| {
                                reach.piece_may(nk, p as u8, k as u8, s as PosId, t as PosId)
                            })
                        })
                        .collect();
                    assert_eq!(got, want, "player {p}, target {t}");
                    nonempty += usize::from(!got.is_empty());
                }
            }
            assert!(
                nonempty > 0,
                "no target is reachable: the check shows nothing"
            );
        }
    }
}

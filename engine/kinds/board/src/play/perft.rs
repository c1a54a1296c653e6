//! perft (move-path enumeration) and random playouts.

use rand_chacha::ChaCha8Rng;

use super::ctx::Ctx;
use super::end::{Changed, CountSink, evaluate, evaluate_changed};
use super::turns::{Chain, Expander, TurnSink, pass_offered, passed};
use super::{GenError, Outcome, PerftEnd, Position};

/// Collects the positions after each legal turn, with its priority rank, reusing storage.
#[derive(Default)]
pub(crate) struct ChildSink {
    pub kids: Vec<Position>,
    pub ranks: Vec<usize>,
    /// `changed[i]`: the squares the turn to `kids[i]` wrote (any when the rules have no
    /// line conditions, [`super::end::LineIndex::used`]).
    pub changed: Vec<Changed>,
    pub n: usize,
    /// Work out `changed`.
    track: bool,
}

impl ChildSink {
    fn reset(&mut self) {
        self.n = 0;
        self.ranks.clear();
        self.changed.clear();
    }

    fn push(&mut self, after: &Position, rank: usize, changed: Changed) {
        if self.n < self.kids.len() {
            self.kids[self.n].clone_from(after);
        } else {
            self.kids.push(after.clone());
        }
        self.noted(rank, changed);
    }

    /// The child just put in slot `n` came with `rank` and wrote `changed`.
    fn noted(&mut self, rank: usize, changed: Changed) {
        self.ranks.push(rank);
        self.changed.push(changed);
        self.n += 1;
    }

    /// The squares the turn of `chain` writes, when tracked.
    fn written(&self, chain: &Chain) -> Changed {
        if !self.track {
            return Changed::any();
        }
        let mut c = Changed::none();
        for k in 0..chain.len() {
            c.add(chain.part(k).1);
        }
        c
    }

    /// Keeps only the children of the best rank (`move-priorities`), preserving order.
    fn keep_best(&mut self) {
        let Some(best) = self.ranks.iter().copied().min() else {
            return;
        };
        if self.ranks.iter().all(|&r| r == best) {
            return;
        }
        let mut w = 0;
        for i in 0..self.n {
            if self.ranks[i] == best {
                self.kids.swap(w, i);
                self.changed.swap(w, i);
                w += 1;
            }
        }
        self.n = w;
        self.ranks.clear();
        self.ranks.resize(w, best);
        self.changed.truncate(w);
    }
}

impl TurnSink for ChildSink {
    fn needs_position(&self) -> bool {
        true
    }
    fn turn(&mut self, chain: &Chain, rank: usize, after: Option<&Position>) {
        if let Some(after) = after {
            let changed = self.written(chain);
            self.push(after, rank, changed);
        }
    }
    /// Keeps `after` by swapping it with the spent child in its slot: no copy.
    fn turn_owned(&mut self, chain: &Chain, rank: usize, after: &mut Position) {
        if self.n < self.kids.len() {
            std::mem::swap(&mut self.kids[self.n], after);
        } else {
            self.kids.push(std::mem::take(after));
        }
        let changed = self.written(chain);
        self.noted(rank, changed);
    }
}

/// Expands the children of `pos` into `sink`: legal turns of the best priority, then a pass
/// when offered.
pub(crate) fn children(
    ctx: &Ctx,
    ex: &mut Expander,
    pos: &Position,
    sink: &mut ChildSink,
) -> Result<(), GenError> {
    children_from(ctx, ex, pos, sink, false)
}

/// [`children`]; when `generated`, over the first parts `ex` already holds for `pos`
/// ([`Expander::expand_generated`]).
pub(crate) fn children_from(
    ctx: &Ctx,
    ex: &mut Expander,
    pos: &Position,
    sink: &mut ChildSink,
    generated: bool,
) -> Result<(), GenError> {
    sink.reset();
    sink.track = ctx.lines.used();
    if generated {
        ex.expand_generated(ctx, pos, sink)?;
    } else {
        ex.expand(ctx, pos, sink)?;
    }
    sink.keep_best();
    if pass_offered(ctx, ex, pos, sink.n)? {
        let p = passed(ctx, pos);
        let rank = sink.ranks.first().copied().unwrap_or(0);
        sink.push(&p, rank, Changed::none());
    }
    Ok(())
}

pub(crate) struct Perft<'c, 'r> {
    ctx: &'c Ctx<'r>,
    end: PerftEnd,
    ex: Expander,
    levels: Vec<ChildSink>,
    count: CountSink,
}

impl<'c, 'r> Perft<'c, 'r> {
    pub fn new(ctx: &'c Ctx<'r>, end: PerftEnd) -> Self {
        Perft {
            ctx,
            end,
            ex: Expander::default(),
            levels: Vec::new(),
            count: CountSink::default(),
        }
    }

    fn leaf(&self) -> u64 {
        match self.end {
            PerftEnd::FullDepth => 0,
            PerftEnd::EndIsLeaf => 1,
        }
    }

    /// perft of `pos` to `depth`; `changed`: the squares the turn to `pos` wrote, from a
    /// position no end condition held in (any for the root).
    pub fn run(
        &mut self,
        pos: &Position,
        depth: u32,
        ply: usize,
        changed: &Changed,
    ) -> Result<u64, GenError> {
        if depth == 0 {
            return Ok(1);
        }
        let ctx = self.ctx;
        if depth == 1 {
            // Bulk count: the turns themselves are the leaves.
            self.count.reset();
            let mut count = std::mem::take(&mut self.count);
            let r = self.ex.expand(ctx, pos, &mut count);
            let legal = count.best();
            self.count = count;
            r?;
            let total = legal + u64::from(pass_offered(ctx, &mut self.ex, pos, legal as usize)?);
            let has_turn = Some(total > 0);
            if evaluate_changed(ctx, &mut self.ex, pos, has_turn, None, false, changed)?.is_some() {
                return Ok(self.leaf());
            }
            return Ok(total);
        }
        while self.levels.len() <= ply {
            self.levels.push(ChildSink::default());
        }
        let mut level = std::mem::take(&mut self.levels[ply]);
        let r = self.expand_and_recurse(pos, depth, ply, &mut level, changed);
        self.levels[ply] = level;
        r
    }

    fn expand_and_recurse(
        &mut self,
        pos: &Position,
        depth: u32,
        ply: usize,
        level: &mut ChildSink,
        changed: &Changed,
    ) -> Result<u64, GenError> {
        let ctx = self.ctx;
        children(ctx, &mut self.ex, pos, level)?;
        let has_turn = Some(level.n > 0);
        if evaluate_changed(ctx, &mut self.ex, pos, has_turn, None, false, changed)?.is_some() {
            return Ok(self.leaf());
        }
        // No end condition holds here: each child's evaluation tests only the lines
        // through the squares its turn wrote.
        let mut total = 0;
        for i in 0..level.n {
            total += self.run(&level.kids[i], depth - 1, ply + 1, &level.changed[i])?;
        }
        Ok(total)
    }
}

/// A hash of what `repetition` compares: the board, the reserves and whose turn it is.
pub(crate) fn placement_hash(pos: &Position) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    pos.cells.hash(&mut h);
    pos.reserve.hash(&mut h);
    pos.turn.hash(&mut h);
    h.finish()
}

/// How a random playout ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Playout {
    /// The outcome, or `None` when the ply limit came first.
    pub outcome: Option<Outcome>,
    /// Turns played.
    pub plies: u32,
}

pub(crate) fn playout(
    ctx: &Ctx,
    start: &Position,
    rng: &mut ChaCha8Rng,
    max_plies: u32,
) -> Result<Playout, GenError> {
    let mut ex = Expander::default();
    let mut sink = ChildSink::default();
    let mut pos = start.clone();
    let mut seen: Vec<u64> = vec![placement_hash(&pos)];
    let mut plies = 0;
    loop {
        children(ctx, &mut ex, &pos, &mut sink)?;
        let h = *seen.last().unwrap_or(&0);
        let repeated_by = if plies > 0 && seen.iter().filter(|&&x| x == h).count() >= 3 {
            Some(last_mover(ctx, &pos))
        } else {
            None
        };
        if let Some(outcome) = evaluate(ctx, &mut ex, &pos, Some(sink.n > 0), repeated_by)? {
            return Ok(Playout {
                outcome: Some(outcome),
                plies,
            });
        }
        if plies >= max_plies || sink.n == 0 {
            return Ok(Playout {
                outcome: None,
                plies,
            });
        }
        let i = tilesmith_core::random::uniform(rng, sink.n);
        std::mem::swap(&mut pos, &mut sink.kids[i]);
        seen.push(placement_hash(&pos));
        plies += 1;
    }
}

/// The player who played the turn that led to `pos`: the previous entry of the turn order.
pub(crate) fn last_mover(ctx: &Ctx, pos: &Position) -> u8 {
    let order = &ctx.rules.turn_order;
    if order.is_empty() {
        ((pos.turn + ctx.nplayers - 1) % ctx.nplayers) as u8
    } else {
        order[(pos.turn + order.len() - 1) % order.len()].player
    }
}

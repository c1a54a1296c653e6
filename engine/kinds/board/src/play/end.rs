//! End conditions: `win-condition`, `loss-condition` and `draw-condition` with their tests
//! (`pieces-remaining`, `stalemated`, `repetition`, `checkmated`, `absolute-config`, and
//! `and`/`or`/`not`), evaluated after every turn for every listed player.

use super::super::rules::{EndTest, Outcome as Kind, PieceId, PlayerId, PosId};
use super::ctx::Ctx;
use super::movegen::attacked_by_others;
use super::turns::{Expander, TurnSink, mover, pass_offered};
use super::{GenError, Outcome, Position};

/// Counts legal turns by priority rank, executing only what it must.
#[derive(Default)]
pub(crate) struct CountSink {
    pub by_rank: Vec<u64>,
}

impl CountSink {
    pub fn reset(&mut self) {
        self.by_rank.iter_mut().for_each(|c| *c = 0);
    }

    /// The number of turns of the best rank that has any (`move-priorities`).
    pub fn best(&self) -> u64 {
        self.by_rank.iter().copied().find(|&c| c > 0).unwrap_or(0)
    }
}

impl TurnSink for CountSink {
    fn needs_position(&self) -> bool {
        false
    }
    fn turn(&mut self, _chain: &super::turns::Chain, rank: usize, _after: Option<&Position>) {
        if self.by_rank.len() <= rank {
            self.by_rank.resize(rank + 1, 0);
        }
        self.by_rank[rank] += 1;
    }
}

/// Whether the player to move has a turn (a legal turn, or a pass).
pub(crate) fn has_turn(ctx: &Ctx, ex: &mut Expander, pos: &Position) -> Result<bool, GenError> {
    let mut count = CountSink::default();
    let n = ex.expand(ctx, pos, &mut count)?;
    Ok(n > 0 || pass_offered(ctx, ex, pos, 0)?)
}

/// Evaluates the end conditions in `pos`. `has_turn` is whether the player to move has a
/// turn, when already known. `repeated_by` is the player who made the last turn when the
/// position has now occurred three times (the `repetition` test holds for them).
///
/// Order: win conditions first, then loss, then count, then draw; within each, file order,
/// then the order the condition lists its players. When none holds and the player to move has no
/// turn, the game ends in a draw.
pub(crate) fn evaluate(
    ctx: &Ctx,
    ex: &mut Expander,
    pos: &Position,
    has_turn: Option<bool>,
    repeated_by: Option<PlayerId>,
) -> Result<Option<Outcome>, GenError> {
    evaluate_in(ctx, ex, pos, has_turn, repeated_by, true, None)
}

/// [`evaluate`] (without the outcome's reason when not `reasons`: search reads only the
/// winner and the kind of condition) of a position reached by one turn
/// from a position where no end condition held (the evaluation gave `None`), the turn
/// writing only the squares of `changed` (its primitives' squares, [`Changed`]).
/// The same result as the full evaluation, testing fewer lines: an end condition that is
/// an `absolute-config`, or an `or` of them, held for none of its players before the turn
/// (every condition is tested for every player when none holds), so every one of its
/// configurations was false then; one through no written square reads the same cells
/// now, so it is false still, and only the configurations through a written square are
/// tested ([`LineIndex`]). Other conditions are tested in full.
pub(crate) fn evaluate_changed(
    ctx: &Ctx,
    ex: &mut Expander,
    pos: &Position,
    has_turn: Option<bool>,
    repeated_by: Option<PlayerId>,
    reasons: bool,
    changed: &Changed,
) -> Result<Option<Outcome>, GenError> {
    let changed = changed.squares();
    evaluate_in(ctx, ex, pos, has_turn, repeated_by, reasons, changed)
}

/// The squares one turn wrote (at most [`Changed::MAX`]; more, or unknown, is "any").
#[derive(Clone, Copy, Debug)]
pub(crate) struct Changed {
    squares: [PosId; Changed::MAX],
    /// How many of `squares` hold; [`Changed::ANY`] when not known.
    n: u8,
}

impl Default for Changed {
    fn default() -> Self {
        Changed::any()
    }
}

impl Changed {
    const MAX: usize = 6;
    const ANY: u8 = u8::MAX;

    /// Not known: the evaluation tests every line.
    pub fn any() -> Changed {
        Changed {
            squares: [0; Changed::MAX],
            n: Changed::ANY,
        }
    }

    /// Nothing written (a pass).
    pub fn none() -> Changed {
        Changed {
            squares: [0; Changed::MAX],
            n: 0,
        }
    }

    /// The squares the primitives write (every part of a turn, in turn); "any" past
    /// [`Changed::MAX`].
    pub fn add(&mut self, prims: &[super::Primitive]) {
        let mut put = |at: PosId| {
            if self.n == Changed::ANY || self.squares[..self.n as usize].contains(&at) {
                return;
            }
            if self.n as usize >= Changed::MAX {
                self.n = Changed::ANY;
                return;
            }
            self.squares[self.n as usize] = at;
            self.n += 1;
        };
        for p in prims {
            super::turns::written_each(p, &mut put);
        }
    }

    fn squares(&self) -> Option<&[PosId]> {
        (self.n != Changed::ANY).then(|| &self.squares[..self.n as usize])
    }
}

/// For each end condition that is an `absolute-config` or an `or` of at most 64 of them
/// (the usual line test): per square, the bit set of its configurations (by index in the
/// `or`) through the square. `None` for every other condition, and for the conditions past
/// [`LineIndex::MAX_WORDS`] squares' worth in all (those keep the full test): a file of
/// 50 000 one-square conditions on 4 096 squares would otherwise take 1.6 GB (a review).
#[derive(Clone, Debug, Default)]
pub(crate) struct LineIndex {
    by_end: Vec<Option<Vec<u64>>>,
}

impl LineIndex {
    /// The most words (one per square per indexed condition) the index holds: 2 MB.
    pub const MAX_WORDS: usize = 1 << 18;

    pub fn build(rules: &super::super::rules::Rules, npos: usize) -> LineIndex {
        let indexed = (Self::MAX_WORDS / npos.max(1)).min(rules.ends.len());
        let by_end = rules
            .ends
            .iter()
            .enumerate()
            .map(|(k, end)| {
                if k >= indexed {
                    return None;
                }
                let lines: Vec<&[PosId]> = match &end.test {
                    EndTest::AbsoluteConfig(_, places) => vec![places.as_slice()],
                    EndTest::Or(v) if v.len() <= 64 => v
                        .iter()
                        .map(|t| match t {
                            EndTest::AbsoluteConfig(_, places) => Some(places.as_slice()),
                            _ => None,
                        })
                        .collect::<Option<Vec<_>>>()?,
                    _ => return None,
                };
                let mut masks = vec![0u64; npos];
                for (i, places) in lines.iter().enumerate() {
                    for &at in *places {
                        if let Some(m) = masks.get_mut(at as usize) {
                            *m |= 1 << i;
                        }
                    }
                }
                Some(masks)
            })
            .collect();
        LineIndex { by_end }
    }

    /// Whether some end condition is indexed (else nobody needs the written squares).
    pub fn used(&self) -> bool {
        self.by_end.iter().any(Option::is_some)
    }
}

/// Whether the configurations of `t` (an indexed end test) in the bit set `lines` hold
/// for `p`.
fn lines_hold(pos: &Position, t: &EndTest, mut lines: u64, p: PlayerId) -> bool {
    match t {
        EndTest::AbsoluteConfig(kinds, places) => lines & 1 != 0 && config(pos, kinds, places, p),
        EndTest::Or(v) => {
            while lines != 0 {
                let i = lines.trailing_zeros() as usize;
                lines &= lines - 1;
                if let Some(EndTest::AbsoluteConfig(kinds, places)) = v.get(i)
                    && config(pos, kinds, places, p)
                {
                    return true;
                }
            }
            false
        }
        _ => false,
    }
}

fn evaluate_in(
    ctx: &Ctx,
    ex: &mut Expander,
    pos: &Position,
    mut has_turn: Option<bool>,
    repeated_by: Option<PlayerId>,
    reasons: bool,
    changed: Option<&[PosId]>,
) -> Result<Option<Outcome>, GenError> {
    let to_move = mover(ctx, pos);
    let rules = ctx.rules;
    for kind in [Kind::Win, Kind::Loss, Kind::Count, Kind::Draw] {
        for (ei, end) in rules.ends.iter().enumerate() {
            if end.outcome != kind {
                continue;
            }
            // The lines through the written squares, when only they can have changed.
            let lines = match (changed, ctx.lines.by_end.get(ei)) {
                (Some(ch), Some(Some(masks))) => Some(ch.iter().fold(0u64, |m, &at| {
                    m | masks.get(at as usize).copied().unwrap_or(0)
                })),
                _ => None,
            };
            for &p in &end.players {
                let held = match lines {
                    Some(l) => lines_hold(pos, &end.test, l, p),
                    None => Eval {
                        ctx,
                        ex,
                        pos,
                        to_move,
                        has_turn: &mut has_turn,
                        repeated_by,
                    }
                    .test(&end.test, p)?,
                };
                if held {
                    let winner = match kind {
                        Kind::Win => Some(p),
                        Kind::Draw => None,
                        Kind::Loss => loss_winner(ctx, pos, p, to_move),
                        Kind::Count => most_pieces(ctx, pos),
                    };
                    let what = match kind {
                        Kind::Win => "win",
                        Kind::Loss => "loss",
                        Kind::Draw => "draw",
                        Kind::Count => "count",
                    };
                    let reason = if reasons {
                        format!("{} ({what}-condition)", reason(ctx, &end.test, p))
                    } else {
                        String::new()
                    };
                    return Ok(Some(Outcome {
                        winner,
                        decided_by: Some(kind),
                        reason,
                    }));
                }
            }
        }
    }
    let can_move = match has_turn {
        Some(v) => v,
        None => self::has_turn(ctx, ex, pos)?,
    };
    if !can_move {
        let reason = if reasons {
            format!(
                "{} has no move and no condition decides",
                player_name(ctx, to_move)
            )
        } else {
            String::new()
        };
        return Ok(Some(Outcome {
            winner: None,
            decided_by: None,
            reason,
        }));
    }
    Ok(None)
}

/// Who wins when `loser` loses: with two players the other one; with more, the player who
/// played the last turn (the previous entry of the turn order), or the player to move when
/// that is the loser; with one player, nobody (the lone player has lost).
fn loss_winner(ctx: &Ctx, pos: &Position, loser: PlayerId, to_move: PlayerId) -> Option<PlayerId> {
    if ctx.nplayers < 2 {
        return None;
    }
    if ctx.nplayers == 2 {
        return Some(1 - loser.min(1));
    }
    let order = &ctx.rules.turn_order;
    let prev = if order.is_empty() {
        ((pos.turn + ctx.nplayers - 1) % ctx.nplayers) as PlayerId
    } else {
        order[(pos.turn + order.len() - 1) % order.len()].player
    };
    Some(if prev != loser {
        prev
    } else if to_move != loser {
        to_move
    } else {
        ((loser as usize + 1) % ctx.nplayers) as PlayerId
    })
}

/// The player with strictly the most pieces on the board, or `None` for a tie, and in a
/// one-player game (whose player has nobody to have more pieces than).
fn most_pieces(ctx: &Ctx, pos: &Position) -> Option<PlayerId> {
    if ctx.nplayers < 2 {
        return None;
    }
    let mut count = vec![0usize; ctx.nplayers];
    for p in pos.cells.iter().flatten() {
        if let Some(c) = count.get_mut(p.player as usize) {
            *c += 1;
        }
    }
    let best = count.iter().copied().max()?;
    let mut at_best = count.iter().enumerate().filter(|(_, c)| **c == best);
    match (at_best.next(), at_best.next()) {
        (Some((p, _)), None) => Some(p as PlayerId),
        _ => None,
    }
}

fn player_name(ctx: &Ctx, p: PlayerId) -> String {
    ctx.rules
        .players
        .get(p as usize)
        .cloned()
        .unwrap_or_else(|| format!("player {p}"))
}

fn reason(ctx: &Ctx, t: &EndTest, p: PlayerId) -> String {
    let who = player_name(ctx, p);
    let piece = |k: PieceId| {
        ctx.rules
            .pieces
            .get(k as usize)
            .map_or_else(|| format!("piece {k}"), |d| d.name.clone())
    };
    match t {
        EndTest::PiecesRemaining(n, None) => format!("{who} has {n} pieces left"),
        EndTest::PiecesRemaining(n, Some(k)) => format!("{who} has {n} {} left", piece(*k)),
        EndTest::Stalemated => format!("{who} has no move"),
        EndTest::Repetition => format!("{who} repeated the position a third time"),
        EndTest::Checkmated(k) => format!("{who}'s {} is checkmated", piece(*k)),
        EndTest::AbsoluteConfig(..) => format!("{who} has the configuration"),
        EndTest::And(_) | EndTest::Or(_) | EndTest::Not(_) => {
            format!("{who} meets a combined condition")
        }
    }
}

struct Eval<'a, 'c, 'r> {
    ctx: &'c Ctx<'r>,
    ex: &'a mut Expander,
    pos: &'a Position,
    to_move: PlayerId,
    has_turn: &'a mut Option<bool>,
    repeated_by: Option<PlayerId>,
}

impl Eval<'_, '_, '_> {
    fn has_turn(&mut self) -> Result<bool, GenError> {
        if let Some(v) = *self.has_turn {
            return Ok(v);
        }
        let v = has_turn(self.ctx, self.ex, self.pos)?;
        *self.has_turn = Some(v);
        Ok(v)
    }

    /// A test inside `and`/`or`: an `absolute-config` (a list of them is the usual line
    /// test) without the call.
    #[inline(always)]
    fn test_in(&mut self, t: &EndTest, p: PlayerId) -> Result<bool, GenError> {
        match t {
            EndTest::AbsoluteConfig(kinds, places) => Ok(config(self.pos, kinds, places, p)),
            t => self.test(t, p),
        }
    }

    fn test(&mut self, t: &EndTest, p: PlayerId) -> Result<bool, GenError> {
        Ok(match t {
            EndTest::PiecesRemaining(n, kind) => {
                let count = self
                    .pos
                    .cells
                    .iter()
                    .flatten()
                    .filter(|q| q.player == p && kind.is_none_or(|k| q.kind == k))
                    .count();
                count as u64 == u64::from(*n)
            }
            EndTest::Stalemated => p == self.to_move && !self.has_turn()?,
            EndTest::Repetition => self.repeated_by == Some(p),
            EndTest::Checkmated(k) => {
                if p != self.to_move || self.has_turn()? {
                    false
                } else {
                    let royal: Vec<PosId> = self
                        .pos
                        .cells
                        .iter()
                        .enumerate()
                        .filter(|(_, c)| c.is_some_and(|q| q.player == p && q.kind == *k))
                        .map(|(i, _)| i as PosId)
                        .collect();
                    let mut attacked = false;
                    for at in royal {
                        if attacked_by_others(self.ctx, self.pos, p, at, &mut self.ex.probe, 0)? {
                            attacked = true;
                            break;
                        }
                    }
                    attacked
                }
            }
            EndTest::AbsoluteConfig(kinds, places) => config(self.pos, kinds, places, p),
            EndTest::And(v) => {
                for t in v {
                    if !self.test_in(t, p)? {
                        return Ok(false);
                    }
                }
                true
            }
            EndTest::Or(v) => {
                for t in v {
                    if self.test_in(t, p)? {
                        return Ok(true);
                    }
                }
                false
            }
            EndTest::Not(t) => !self.test(t, p)?,
        })
    }
}

/// `absolute-config`: every one of `places` holds a piece of `p` of one of `kinds`.
#[inline(always)]
fn config(pos: &Position, kinds: &[PieceId], places: &[PosId], p: PlayerId) -> bool {
    places.iter().all(|&at| {
        pos.cells
            .get(at as usize)
            .copied()
            .flatten()
            .is_some_and(|q| q.player == p && kinds.contains(&q.kind))
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::super::Engine;
    use super::super::perft::{ChildSink, children};
    use super::super::turns::Expander;
    use super::{Changed, evaluate, evaluate_changed};
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::SeedableRng;

    /// The evaluation that tests only the lines through the written squares gives the
    /// full evaluation's outcome (winner, kind and reason) on every child of every
    /// running position of seeded random games of every shipped and corpus ZRF and of two
    /// made for it (tic-tac-toe's eight lines, written by drops; `testdata/effects.zrf`'s
    /// sixteen, written by `create`, `flip`, `change-owner`, `change-type` and `capture`
    /// too; `testdata/chain.zrf`'s, by `change-owner` inside a chain; the other files fall
    /// back to the full test: fifteen's and rotate-three's `and`s are not indexed). A
    /// written set that left out all but drops and moves fails here. Evaluating as if nothing
    /// had been written finds no win where a line was completed: the test would see a
    /// wrong set of squares.
    #[test]
    fn the_lines_through_the_written_squares_decide_as_every_line() {
        let (mut compared, mut decided, mut blind_missed) = (0, 0, 0);
        for (file, rules) in super::super::tests::shipped_and_corpus_rules() {
            let e = Engine::new(rules);
            let ctx = e.ctx();
            let mut rng = ChaCha8Rng::seed_from_u64(29);
            let (mut ex, mut sink, mut next) = (
                Expander::default(),
                ChildSink::default(),
                ChildSink::default(),
            );
            for _game in 0..20 {
                let mut pos = e.initial();
                for _ply in 0..60 {
                    children(&ctx, &mut ex, &pos, &mut sink).unwrap();
                    let here = evaluate(&ctx, &mut ex, &pos, Some(sink.n > 0), None).unwrap();
                    if here.is_some() || sink.n == 0 {
                        break;
                    }
                    for i in 0..sink.n {
                        let kid = &sink.kids[i];
                        children(&ctx, &mut ex, kid, &mut next).unwrap();
                        let t = Some(next.n > 0);
                        let full = evaluate(&ctx, &mut ex, kid, t, None).unwrap();
                        let changed = &sink.changed[i];
                        let part =
                            evaluate_changed(&ctx, &mut ex, kid, t, None, true, changed).unwrap();
                        assert_eq!(part, full, "{file}: {kid:?}");
                        let blind =
                            evaluate_changed(&ctx, &mut ex, kid, t, None, true, &Changed::none())
                                .unwrap();
                        compared += 1;
                        decided += usize::from(full.is_some());
                        blind_missed += usize::from(blind != full);
                    }
                    let i = tilesmith_core::random::uniform(&mut rng, sink.n);
                    std::mem::swap(&mut pos, &mut sink.kids[i]);
                }
            }
        }
        assert!(compared > 10_000, "only {compared} positions compared");
        assert!(decided > 100, "only {decided} decided positions");
        assert!(
            blind_missed > 20,
            "only {blind_missed} wins a blind test misses"
        );
    }

    /// Tic-tac-toe's win condition is indexed: the centre lies on four of its eight lines,
    /// a corner on three, an edge on two.
    #[test]
    fn tic_tac_toe_lines_are_indexed_by_square() {
        let (_, rules) = super::super::tests::shipped_and_corpus_rules()
            .into_iter()
            .find(|(file, _)| file.ends_with("/tic-tac-toe.zrf"))
            .unwrap();
        let e = Engine::new(rules);
        let ctx = e.ctx();
        let masks = ctx.lines.by_end[0].as_ref().unwrap();
        let mut lines: Vec<u32> = masks.iter().map(|m| m.count_ones()).collect();
        lines.sort_unstable();
        assert_eq!(lines, [2, 2, 2, 2, 3, 3, 3, 3, 4]);
        assert!(ctx.lines.by_end[1].is_none(), "stalemated has no lines");
    }
}

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
    evaluate_in(ctx, ex, pos, has_turn, repeated_by, true)
}

/// [`evaluate`] without the outcome's reason (left empty): for search, which reads only
/// the winner and the kind of condition, and ends a playout on each.
pub(crate) fn evaluate_quiet(
    ctx: &Ctx,
    ex: &mut Expander,
    pos: &Position,
    has_turn: Option<bool>,
    repeated_by: Option<PlayerId>,
) -> Result<Option<Outcome>, GenError> {
    evaluate_in(ctx, ex, pos, has_turn, repeated_by, false)
}

fn evaluate_in(
    ctx: &Ctx,
    ex: &mut Expander,
    pos: &Position,
    mut has_turn: Option<bool>,
    repeated_by: Option<PlayerId>,
    reasons: bool,
) -> Result<Option<Outcome>, GenError> {
    let to_move = mover(ctx, pos);
    let rules = ctx.rules;
    for kind in [Kind::Win, Kind::Loss, Kind::Count, Kind::Draw] {
        for end in rules.ends.iter().filter(|e| e.outcome == kind) {
            for &p in &end.players {
                let mut ev = Eval {
                    ctx,
                    ex,
                    pos,
                    to_move,
                    has_turn: &mut has_turn,
                    repeated_by,
                };
                if ev.test(&end.test, p)? {
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

//! A uniformly random legal turn without building every child (issue #29, "Search speed of
//! the board kind"): a random playout needs one turn a ply, not the position after each.
//!
//! Where every turn of a position is one move (no move begins a chain of partial moves,
//! spec P2) the legal turns are the generated moves that pass the legality filter (P5),
//! kept to the best `move-priorities` rank that has any, and a pass when offered. Then:
//!
//! - whether the player to move has a turn (what the end conditions need) is known from the
//!   moves themselves when the player has no royal piece type (every move is legal), and
//!   otherwise from the first legal move in generation order;
//! - the turn is drawn uniformly: without royal types, an index into the moves of the best
//!   rank (a pass last), the same index and the same draw as a choice from the whole list of
//!   [`super::searcher::BoardSearch`]'s children; with royal types, by rejection: draw among
//!   the moves of the best rank not yet known illegal, test the one drawn (execute it, probe
//!   the royal pieces), drop it and draw again when illegal, then go on to the next rank when
//!   a rank has none left. Each legal move of the rank is then equally likely (a draw that
//!   lands on an illegal move is thrown away, and the rest stay equally likely), and the
//!   rank is the best with a legal move, as [`super::perft::children`] keeps it.
//!
//! A position with a chain, a partial turn in progress, or (for a player with royal types)
//! the option `pass turn` allowed beside other turns (the pass's chance needs the number of
//! legal moves) is left to the full expansion.

use rand_chacha::ChaCha8Rng;
use tilesmith_core::random::uniform;

use super::super::rules::PassTurn;
use super::ctx::Ctx;
use super::exec::execute;
use super::turns::{Expander, mover, next_turn, pass_offered, rank, royal_attacked};
use super::{GenError, Position};

/// Legality of a move not tested yet.
const UNKNOWN: u8 = 0;
/// The move passes the legality filter.
const LEGAL: u8 = 1;
/// The move leaves a royal piece attacked.
const ILLEGAL: u8 = 2;

/// The moves of one position, their ranks and what is known of their legality; the
/// position after the move tested last. Buffers are reused from position to position.
#[derive(Default)]
pub(crate) struct Picker {
    ranks: Vec<usize>,
    state: Vec<u8>,
    cand: Vec<u32>,
    /// The player to move has royal piece types (legality must be tested).
    royal: bool,
    /// A pass is offered.
    pass: bool,
    /// The best rank among the moves (without royal types: the rank of the legal turns).
    best: usize,
    /// The position after the move `after_of` (turn passed on), or after a pass.
    after: Position,
    after_of: Option<usize>,
    /// The last [`Picker::prepare`] returned `None` after generating the first parts of its
    /// position into the expander (a move begins a chain): the full expansion may start
    /// from them ([`Expander::expand_generated`]).
    generated: bool,
    /// The move the last [`Picker::pick`] played (its index among the moves), `None` for a
    /// pass.
    pub played: Option<usize>,
}

impl Picker {
    /// Generates the moves of `pos` into `ex` and works out whether the player to move has a
    /// turn (a legal turn or a pass). `None` when `pos` needs the full expansion (see the
    /// module documentation); nothing is prepared then, and when a move begins a chain the
    /// first parts are left in `ex` for it ([`Picker::generated`]).
    ///
    /// # Errors
    /// As the move generation.
    pub fn prepare(
        &mut self,
        ctx: &Ctx,
        ex: &mut Expander,
        pos: &Position,
    ) -> Result<Option<bool>, GenError> {
        self.after_of = None;
        self.generated = false;
        if pos.partial.is_some() {
            return Ok(None);
        }
        let who = mover(ctx, pos);
        self.royal = ctx.royal.get(who as usize).is_some_and(|r| !r.is_empty());
        if self.royal && ctx.rules.options.pass_turn == PassTurn::Allowed {
            return Ok(None);
        }
        let buf = ex.first_parts(ctx, pos)?;
        if buf.heads.iter().any(|h| h.partial.is_some()) {
            self.generated = true;
            return Ok(None);
        }
        self.ranks.clear();
        self.ranks
            .extend(buf.heads.iter().map(|h| rank(ctx, h.move_type)));
        let n = self.ranks.len();
        self.state.clear();
        self.state.resize(n, UNKNOWN);
        self.best = self.ranks.iter().copied().min().unwrap_or(0);
        let legal = if self.royal {
            let mut any = false;
            for i in 0..n {
                if self.test(ctx, ex, pos, i)? {
                    any = true;
                    break;
                }
            }
            usize::from(any)
        } else {
            self.ranks.iter().filter(|&&r| r == self.best).count()
        };
        // With no legal move this may overwrite the moves in `ex`: none of them is played.
        self.pass = pass_offered(ctx, ex, pos, legal)?;
        Ok(Some(legal > 0 || self.pass))
    }

    /// Whether the last [`Picker::prepare`] left the first parts of its position in the
    /// expander when it returned `None`.
    pub fn generated(&self) -> bool {
        self.generated
    }

    /// Executes move `i` of the last [`Picker::prepare`] on a copy of `pos`, records whether
    /// it is legal and, when it is, passes the turn on in the copy.
    fn test(
        &mut self,
        ctx: &Ctx,
        ex: &mut Expander,
        pos: &Position,
        i: usize,
    ) -> Result<bool, GenError> {
        self.after.clone_from(pos);
        let Some(h) = ex.first().and_then(|b| b.heads.get(i).map(|h| (b, *h))) else {
            return Ok(false);
        };
        let (buf, head) = h;
        let drop_kind = head.origin.drop.then_some(head.origin.piece);
        execute(
            &mut self.after,
            buf.prims_of(&head),
            ctx.nplayers,
            drop_kind,
        );
        self.after.partial = None;
        let legal = !self.royal
            || royal_attacked(ctx, &self.after, mover(ctx, pos), &mut ex.probe)?.is_none();
        self.after.turn = next_turn(ctx, pos.turn);
        self.state[i] = if legal { LEGAL } else { ILLEGAL };
        self.after_of = Some(i);
        Ok(legal)
    }

    /// Draws a legal turn of `pos` uniformly (see the module documentation) after
    /// [`Picker::prepare`] gave `Some(true)` for it, and plays it on `pos` (in place when
    /// no legality test made the position after it already; else that position is swapped
    /// in and the old one's storage kept for the next test). False when there is no turn
    /// (`pos` is then unchanged).
    ///
    /// # Errors
    /// As the move generation (the legality probe).
    pub fn pick(
        &mut self,
        ctx: &Ctx,
        ex: &mut Expander,
        pos: &mut Position,
        rng: &mut ChaCha8Rng,
    ) -> Result<bool, GenError> {
        let n = self.ranks.len();
        if !self.royal {
            let best = self.best;
            self.cand.clear();
            self.cand
                .extend((0..n).filter(|&i| self.ranks[i] == best).map(|i| i as u32));
            let total = self.cand.len() + usize::from(self.pass);
            if total == 0 {
                return Ok(false);
            }
            let k = uniform(rng, total);
            self.played = self.cand.get(k).map(|&i| i as usize);
            match self.played {
                Some(i) => play_in_place(ctx, ex, pos, i),
                None => pass_in_place(ctx, pos),
            }
            return Ok(true);
        }
        let mut floor: Option<usize> = None;
        loop {
            let r = (0..n)
                .filter(|&i| self.state[i] != ILLEGAL && floor.is_none_or(|f| self.ranks[i] > f))
                .map(|i| self.ranks[i])
                .min();
            let Some(r) = r else { break };
            self.cand.clear();
            self.cand.extend(
                (0..n)
                    .filter(|&i| self.ranks[i] == r && self.state[i] != ILLEGAL)
                    .map(|i| i as u32),
            );
            while !self.cand.is_empty() {
                let k = uniform(rng, self.cand.len());
                let i = self.cand[k] as usize;
                let legal = if self.after_of == Some(i) && self.state[i] == LEGAL {
                    true
                } else {
                    self.test(ctx, ex, pos, i)?
                };
                if legal {
                    std::mem::swap(&mut self.after, pos);
                    self.after_of = None;
                    self.played = Some(i);
                    return Ok(true);
                }
                self.cand.swap_remove(k);
            }
            floor = Some(r);
        }
        if self.pass {
            // The pass is the only turn: the one draw a list of one takes.
            uniform(rng, 1);
            pass_in_place(ctx, pos);
            self.played = None;
            return Ok(true);
        }
        Ok(false)
    }
}

/// Plays move `i` of the moves in `ex` on `pos` and passes the turn on.
fn play_in_place(ctx: &Ctx, ex: &Expander, pos: &mut Position, i: usize) {
    let Some((buf, head)) = ex.first().and_then(|b| b.heads.get(i).map(|h| (b, *h))) else {
        return;
    };
    let drop_kind = head.origin.drop.then_some(head.origin.piece);
    execute(pos, buf.prims_of(&head), ctx.nplayers, drop_kind);
    pos.partial = None;
    pos.turn = next_turn(ctx, pos.turn);
}

/// Plays a pass on `pos`: the turn passes on, no last move.
fn pass_in_place(ctx: &Ctx, pos: &mut Position) {
    pos.turn = next_turn(ctx, pos.turn);
    pos.partial = None;
    pos.last = None;
}

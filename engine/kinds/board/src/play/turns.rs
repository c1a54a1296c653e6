//! Whole turns: a move, or a chain of partial moves by the same piece (spec P2, M9), checked
//! by the legality filter (P5, M8), then `move-priorities` and the `pass turn` option.
//!
//! The [`Expander`] walks the chains depth first and hands each complete, legal turn to a
//! [`TurnSink`]; perft counts them, [`super::turns`] builds [`TurnMove`]s with notation.

use super::super::rules::{MoveTypeId, NO_POS, PassTurn, PlayerId, PosId};
use super::ctx::Ctx;
use super::exec::execute;
use super::movegen::{Head, MoveBuf, Scratch, Who, attacked_by_others, generate};
use super::{GenError, MAX_CHAIN, MAX_TURNS, Move, Position, Primitive, TurnMove};

/// A chain of parts being handed to a sink: `bufs[k].heads[path[k]]` is part `k`; `poss[k]`
/// is the position after part `k` (when it was executed); `before` is the position the turn
/// started from.
pub(crate) struct Chain<'a> {
    pub before: &'a Position,
    pub bufs: &'a [MoveBuf],
    pub poss: &'a [Position],
    pub path: &'a [u32],
}

impl Chain<'_> {
    pub fn len(&self) -> usize {
        self.path.len()
    }

    pub fn part(&self, k: usize) -> (&Head, &[Primitive]) {
        let buf = &self.bufs[k];
        let h = &buf.heads[self.path[k] as usize];
        (h, buf.prims_of(h))
    }

    /// The position before part `k`.
    pub fn before_part(&self, k: usize) -> &Position {
        if k == 0 {
            self.before
        } else {
            &self.poss[k - 1]
        }
    }
}

/// Receives the turns of an expansion.
pub(crate) trait TurnSink {
    /// Whether the position after each turn is wanted. When not, and the turn is a single
    /// non-partial move with no legality filter, it is reported without being executed.
    fn needs_position(&self) -> bool;
    /// A complete legal turn, with the priority rank of its first part; `after` is the
    /// position after it (turn passed on) when it was executed.
    fn turn(&mut self, chain: &Chain, rank: usize, after: Option<&Position>);
    /// [`TurnSink::turn`] with the position after the turn handed over: the sink may keep
    /// it and leave other storage in `after` (which the expander no longer reads; the child
    /// list swaps it with a spent child instead of copying it).
    fn turn_owned(&mut self, chain: &Chain, rank: usize, after: &mut Position) {
        self.turn(chain, rank, Some(after));
    }
    /// A complete turn removed by the legality filter: it leaves the mover's royal piece on
    /// `at` attacked.
    fn illegal(&mut self, _chain: &Chain, _at: PosId) {}
}

/// The priority rank of a move type: its index in `move-priorities`; types not listed (and
/// moves without a type) rank after every listed type.
pub(crate) fn rank(ctx: &Ctx, t: Option<MoveTypeId>) -> usize {
    let pr = &ctx.rules.move_priorities;
    pr.iter().position(|&x| Some(x) == t).unwrap_or(pr.len())
}

/// The player whose turn it is.
pub(crate) fn mover(ctx: &Ctx, pos: &Position) -> PlayerId {
    match ctx.rules.turn_order.get(pos.turn) {
        Some(e) => e.player,
        None => (pos.turn % ctx.nplayers) as PlayerId,
    }
}

/// The turn index after `turn` (cycling, with `repeat_from`).
pub(crate) fn next_turn(ctx: &Ctx, turn: usize) -> usize {
    let n = ctx.rules.turn_order.len();
    if n == 0 {
        (turn + 1) % ctx.nplayers
    } else if turn + 1 >= n {
        ctx.rules.repeat_from.min(n - 1)
    } else {
        turn + 1
    }
}

/// Depth-first expansion of turns, with buffers reused between calls.
#[derive(Default)]
pub(crate) struct Expander {
    bufs: Vec<MoveBuf>,
    poss: Vec<Position>,
    path: Vec<u32>,
    pub scratch: Scratch,
    pub probe: Scratch,
    count: usize,
    rank0: usize,
    /// `bufs[0]` holds what the last [`Expander::first_parts`] generated (nothing has
    /// written it since): [`Expander::expand_generated`] may walk it as it is.
    first_kept: bool,
    /// The squares of the mover's royal pieces in the position being expanded (empty for a
    /// mover without royal types): a turn's legality test looks for them there and on the
    /// squares the turn writes, not over the whole board.
    start_royal: Vec<PosId>,
    /// The squares the legality test looks at for one turn (reused).
    royal_cand: Vec<PosId>,
}

impl Expander {
    /// Expands every turn of the player to move in `pos` (continuing a partial turn when
    /// `pos.partial` is set) into `sink`. Returns the number of turns reported (legal ones).
    pub fn expand<S: TurnSink>(
        &mut self,
        ctx: &Ctx,
        pos: &Position,
        sink: &mut S,
    ) -> Result<usize, GenError> {
        self.first_parts(ctx, pos)?;
        self.expand_generated(ctx, pos, sink)
    }

    /// [`Expander::expand`] over the first parts the last [`Expander::first_parts`]
    /// generated, which must have been for `pos` (the random playout's
    /// [`super::pick::Picker`] generates them before it finds a chain and hands over),
    /// without generating them again; generated again when something has written them
    /// since (the pass test's look at the other players' moves).
    ///
    /// # Errors
    /// As [`Expander::expand`].
    pub fn expand_generated<S: TurnSink>(
        &mut self,
        ctx: &Ctx,
        pos: &Position,
        sink: &mut S,
    ) -> Result<usize, GenError> {
        if !self.first_kept {
            // Something wrote the first buffer since: generate again rather than walk it.
            self.first_parts(ctx, pos)?;
        }
        let mover = mover(ctx, pos);
        self.start_royal.clear();
        if let Some(royal) = ctx.royal.get(mover as usize)
            && !royal.is_empty()
        {
            for (at, cell) in pos.cells.iter().enumerate() {
                if let Some(p) = cell
                    && p.player == mover
                    && royal.contains(&p.kind)
                {
                    self.start_royal.push(at as PosId);
                }
            }
        }
        self.count = 0;
        self.path.clear();
        self.walk(ctx, pos, 0, mover, sink)?;
        Ok(self.count)
    }

    /// Walks the parts in `bufs[d]`. Returns whether some part was played out (executed
    /// without repeating a board of this turn).
    fn walk<S: TurnSink>(
        &mut self,
        ctx: &Ctx,
        start: &Position,
        d: usize,
        mover: PlayerId,
        sink: &mut S,
    ) -> Result<bool, GenError> {
        if d >= MAX_CHAIN {
            return Err(GenError {
                span: Default::default(),
                message: format!("a chain of partial moves is longer than {MAX_CHAIN} parts"),
            });
        }
        while self.poss.len() <= d {
            self.poss.push(start.clone());
        }
        let mut advanced = false;
        let n = self.bufs[d].heads.len();
        for i in 0..n {
            self.path.truncate(d);
            self.path.push(i as u32);
            let head = self.bufs[d].heads[i];
            if d == 0 {
                self.rank0 = rank(ctx, head.move_type);
            }
            let rank = self.rank0;
            if head.partial.is_none()
                && !sink.needs_position()
                && ctx.royal[mover as usize].is_empty()
            {
                self.report(sink, start, rank, None, d)?;
                advanced = true;
                continue;
            }
            // Play the part on a copy of the position before it.
            {
                let (done, rest) = self.poss.split_at_mut(d);
                let child = &mut rest[0];
                child.clone_from(if d == 0 { start } else { &done[d - 1] });
                let buf = &self.bufs[d];
                let drop_kind = head.origin.drop.then_some(head.origin.piece);
                execute(child, buf.prims_of(&head), ctx.nplayers, drop_kind);
                child.partial = None;
            }
            if head.partial.is_some() && self.repeats(start, d) {
                continue;
            }
            advanced = true;
            match head.partial {
                None => self.complete(ctx, sink, start, d, mover, rank, true)?,
                Some(t) => {
                    let at = match self.bufs[d].prims_of(&head).get(head.add_at as usize) {
                        Some(Primitive::Move { to, .. }) => *to,
                        Some(Primitive::Drop { at, .. }) => *at,
                        _ => NO_POS,
                    };
                    if ctx.rules.options.pass_partial {
                        // Every prefix of the chain is a turn too.
                        self.complete(ctx, sink, start, d, mover, rank, false)?;
                    }
                    while self.bufs.len() <= d + 1 {
                        self.bufs.push(MoveBuf::default());
                    }
                    let (lo, hi) = self.bufs.split_at_mut(d + 1);
                    let _ = lo;
                    let child = &self.poss[d];
                    generate(
                        ctx,
                        child,
                        mover,
                        Who::Piece(at, t),
                        &mut self.scratch,
                        &mut hi[0],
                    )?;
                    let more = if hi[0].heads.is_empty() {
                        false
                    } else {
                        self.poss[d].partial = Some((at, t));
                        let more = self.walk(ctx, start, d + 1, mover, sink)?;
                        self.poss[d].partial = None;
                        self.path.truncate(d + 1);
                        more
                    };
                    if !more && !ctx.rules.options.pass_partial {
                        // No continuation: the chain ends here (compulsory otherwise, M9).
                        self.complete(ctx, sink, start, d, mover, rank, true)?;
                    }
                }
            }
        }
        self.path.truncate(d);
        Ok(advanced)
    }

    /// True when the board after part `d` equals the board before the turn or after an
    /// earlier part: a chain may not return to a board it has been through (M9).
    fn repeats(&self, start: &Position, d: usize) -> bool {
        let cells = &self.poss[d].cells;
        *cells == start.cells || self.poss[..d].iter().any(|p| p.cells == *cells)
    }

    /// The chain ending with part `d` is a whole turn: apply the legality filter and report.
    /// `last`: nothing reads the position after part `d` again (the walk copies the next
    /// part's start over it), so the sink may take it ([`TurnSink::turn_owned`]).
    #[allow(clippy::too_many_arguments)]
    fn complete<S: TurnSink>(
        &mut self,
        ctx: &Ctx,
        sink: &mut S,
        start: &Position,
        d: usize,
        mover: PlayerId,
        rank: usize,
        last: bool,
    ) -> Result<(), GenError> {
        // The royal pieces after the turn stand where they stood before it or on a square
        // one of its parts wrote: only those squares are looked at.
        let mut cand = std::mem::take(&mut self.royal_cand);
        cand.clear();
        if ctx.royal.get(mover as usize).is_some_and(|r| !r.is_empty()) {
            cand.extend_from_slice(&self.start_royal);
            let chain = Chain {
                before: start,
                bufs: &self.bufs,
                poss: &self.poss,
                path: &self.path[..=d],
            };
            for k in 0..chain.len() {
                chain.part(k).1.iter().for_each(|p| written(p, &mut cand));
            }
            cand.sort_unstable();
            cand.dedup();
        }
        let attacked = royal_attacked_on(
            ctx,
            &self.poss[d],
            mover,
            cand.iter().copied(),
            &mut self.probe,
        );
        self.royal_cand = cand;
        if let Some(at) = attacked? {
            let chain = Chain {
                before: start,
                bufs: &self.bufs,
                poss: &self.poss,
                path: &self.path[..=d],
            };
            sink.illegal(&chain, at);
            return Ok(());
        }
        let saved = (self.poss[d].turn, self.poss[d].partial);
        self.poss[d].turn = next_turn(ctx, start.turn);
        self.poss[d].partial = None;
        // `report` needs the position by reference while `self` is borrowed: swap it out.
        let mut after = std::mem::take(&mut self.poss[d]);
        if last {
            // The sink may keep it; whatever storage comes back is the next part's.
            let r = self.report_owned(sink, start, rank, &mut after, d);
            self.poss[d] = after;
            return r;
        }
        let r = self.report(sink, start, rank, Some(&after), d);
        self.poss[d] = after;
        self.poss[d].turn = saved.0;
        self.poss[d].partial = saved.1;
        r
    }

    fn report<S: TurnSink>(
        &mut self,
        sink: &mut S,
        start: &Position,
        rank: usize,
        after: Option<&Position>,
        d: usize,
    ) -> Result<(), GenError> {
        self.counted()?;
        sink.turn(&self.chain(start, d), rank, after);
        Ok(())
    }

    /// The turn whose parts are `path[..=d]`, played from `start`.
    fn chain<'a>(&'a self, start: &'a Position, d: usize) -> Chain<'a> {
        Chain {
            before: start,
            bufs: &self.bufs,
            poss: &self.poss,
            path: &self.path[..=d],
        }
    }

    /// [`Expander::report`] handing the position after the turn over
    /// ([`TurnSink::turn_owned`]).
    fn report_owned<S: TurnSink>(
        &mut self,
        sink: &mut S,
        start: &Position,
        rank: usize,
        after: &mut Position,
        d: usize,
    ) -> Result<(), GenError> {
        self.counted()?;
        sink.turn_owned(&self.chain(start, d), rank, after);
        Ok(())
    }

    /// One more turn reported; an error past [`MAX_TURNS`].
    fn counted(&mut self) -> Result<(), GenError> {
        self.count += 1;
        if self.count > MAX_TURNS {
            return Err(GenError {
                span: Default::default(),
                message: format!("more than {MAX_TURNS} turns in one position"),
            });
        }
        Ok(())
    }

    /// Generates the first parts of the turns of the player to move in `pos` (what
    /// [`Expander::expand`] starts from, before chains, legality and priorities) and returns
    /// them; [`Expander::first`] reads them again until the next generation.
    pub fn first_parts(&mut self, ctx: &Ctx, pos: &Position) -> Result<&MoveBuf, GenError> {
        let who = match pos.partial {
            Some((at, t)) => Who::Piece(at, t),
            None => Who::All(ctx.rules.turn_order.get(pos.turn).and_then(|e| e.move_type)),
        };
        if self.bufs.is_empty() {
            self.bufs.push(MoveBuf::default());
        }
        generate(
            ctx,
            pos,
            mover(ctx, pos),
            who,
            &mut self.scratch,
            &mut self.bufs[0],
        )?;
        self.first_kept = true;
        Ok(&self.bufs[0])
    }

    /// The moves of the last [`Expander::first_parts`] (or the first parts of the last
    /// expansion).
    pub fn first(&self) -> Option<&MoveBuf> {
        self.bufs.first()
    }

    /// Whether some player other than `mover` has a move in `pos` (as if they were to move;
    /// first parts, before legality): decides whether a pass is offered.
    pub fn others_can_move(
        &mut self,
        ctx: &Ctx,
        pos: &Position,
        mover: PlayerId,
    ) -> Result<bool, GenError> {
        if self.bufs.is_empty() {
            self.bufs.push(MoveBuf::default());
        }
        self.first_kept = false;
        for q in 0..ctx.rules.players.len() {
            let q = q as PlayerId;
            if q == mover {
                continue;
            }
            let mut free = Position {
                partial: None,
                ..pos.clone()
            };
            if let Some(i) = ctx.rules.turn_order.iter().position(|e| e.player == q) {
                free.turn = i;
            }
            generate(
                ctx,
                &free,
                q,
                Who::All(None),
                &mut self.scratch,
                &mut self.bufs[0],
            )?;
            if !self.bufs[0].heads.is_empty() {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

/// The legality filter (spec P5, M8): the position of the first of `mover`'s royal pieces
/// (types named by their `(checkmated Type)`) that another player attacks in `after`, in
/// board order; `None` when there is none (always for a player without royal types).
pub(crate) fn royal_attacked(
    ctx: &Ctx,
    after: &Position,
    mover: PlayerId,
    probe: &mut Scratch,
) -> Result<Option<PosId>, GenError> {
    royal_attacked_on(ctx, after, mover, 0..after.cells.len() as PosId, probe)
}

/// [`royal_attacked`] looking for the royal pieces only on `squares` (in board order, each
/// once), which must hold every square of `after` with one of them.
fn royal_attacked_on(
    ctx: &Ctx,
    after: &Position,
    mover: PlayerId,
    squares: impl IntoIterator<Item = PosId>,
    probe: &mut Scratch,
) -> Result<Option<PosId>, GenError> {
    let Some(royal) = ctx.royal.get(mover as usize) else {
        return Ok(None);
    };
    if royal.is_empty() {
        return Ok(None);
    }
    for at in squares {
        if let Some(Some(p)) = after.cells.get(at as usize)
            && p.player == mover
            && royal.contains(&p.kind)
            && attacked_by_others(ctx, after, mover, at, probe, 0)?
        {
            return Ok(Some(at));
        }
    }
    Ok(None)
}

/// The squares a primitive writes (its piece, owner, type or attributes may differ after it).
fn written(p: &Primitive, out: &mut Vec<PosId>) {
    written_each(p, |at| out.push(at));
}

/// [`written`], each square handed to `put`.
#[inline]
pub(crate) fn written_each(p: &Primitive, mut put: impl FnMut(PosId)) {
    match *p {
        Primitive::Move { from, to, .. } => {
            put(from);
            put(to);
        }
        Primitive::Drop { at, .. }
        | Primitive::ChangeType(at, _)
        | Primitive::Create(at, _)
        | Primitive::Flip(at)
        | Primitive::ChangeOwner(at, _)
        | Primitive::SetAttribute(at, _, _)
        | Primitive::Capture(at) => put(at),
    }
}

/// Whether a pass turn is offered, given how many legal turns the mover has.
pub(crate) fn pass_offered(
    ctx: &Ctx,
    ex: &mut Expander,
    pos: &Position,
    legal: usize,
) -> Result<bool, GenError> {
    if pos.partial.is_some() {
        return Ok(false);
    }
    let wanted = match ctx.rules.options.pass_turn {
        PassTurn::Never => false,
        PassTurn::Allowed => true,
        PassTurn::Forced => legal == 0,
    };
    if !wanted {
        return Ok(false);
    }
    // When nobody can move, passing would go on for ever: the game is over instead.
    Ok(legal > 0 || ex.others_can_move(ctx, pos, mover(ctx, pos))?)
}

/// The position after a pass.
pub(crate) fn passed(ctx: &Ctx, pos: &Position) -> Position {
    let mut p = pos.clone();
    p.turn = next_turn(ctx, pos.turn);
    p.partial = None;
    p.last = None;
    p
}

// ---------------------------------------------------------------------------------------
// Building TurnMoves with notation.

/// Why a generated turn is not offered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rejection {
    /// It leaves the mover's royal piece (a type named by `(checkmated Type)`) on this
    /// position attacked (spec P5, M8).
    LeavesRoyalAttacked(PosId),
    /// `move-priorities`: a move type of higher priority has a legal turn (the move type of
    /// the turns kept is given).
    Priority(Option<MoveTypeId>),
}

/// Every turn the generator produced in a position, split into the turns offered and those
/// removed (for the move-generation debugger).
#[derive(Clone, Debug, Default)]
pub struct TurnReport {
    /// The legal turns, in generation order, with unique notations (a `pass` last when
    /// offered).
    pub legal: Vec<TurnMove>,
    /// The turns removed, with the reason; notations are unique among these.
    pub rejected: Vec<(TurnMove, Rejection)>,
}

struct Built {
    parts: Vec<Move>,
    /// Per part: whether it removes a piece (capture by moving, or `capture`).
    captures: Vec<bool>,
    rank: usize,
}

#[derive(Default)]
struct Collect {
    legal: Vec<Built>,
    illegal: Vec<(Built, PosId)>,
}

impl Collect {
    fn build(chain: &Chain, rank: usize) -> Built {
        let mut parts = Vec::with_capacity(chain.len());
        let mut captures = Vec::with_capacity(chain.len());
        for k in 0..chain.len() {
            let (h, prims) = chain.part(k);
            captures.push(removes_piece(chain.before_part(k), prims));
            parts.push(Move {
                primitives: prims.to_vec(),
                move_type: h.move_type,
                partial: h.partial,
                origin: h.origin,
            });
        }
        Built {
            parts,
            captures,
            rank,
        }
    }
}

impl TurnSink for Collect {
    fn needs_position(&self) -> bool {
        false
    }
    fn turn(&mut self, chain: &Chain, rank: usize, _after: Option<&Position>) {
        self.legal.push(Collect::build(chain, rank));
    }
    fn illegal(&mut self, chain: &Chain, at: PosId) {
        self.illegal.push((Collect::build(chain, 0), at));
    }
}

/// Whether executing `prims` on `before` removes a piece: a movement or drop onto an
/// occupied square that no movement of this move leaves, or a `capture` of an occupied
/// square.
fn removes_piece(before: &Position, prims: &[Primitive]) -> bool {
    let occupied = |p: PosId| before.cells.get(p as usize).is_some_and(Option::is_some);
    let vacated = |p: PosId| {
        prims
            .iter()
            .any(|q| matches!(*q, Primitive::Move { from, copy: false, .. } if from == p))
    };
    prims.iter().any(|p| match *p {
        Primitive::Move { from, to, .. } => {
            occupied(from) && to != from && occupied(to) && !vacated(to)
        }
        Primitive::Drop { at, .. } => occupied(at),
        Primitive::Capture(at) => occupied(at),
        _ => false,
    })
}

/// Builds the turn report of `pos`.
pub(crate) fn report(ctx: &Ctx, pos: &Position) -> Result<TurnReport, GenError> {
    let mut ex = Expander::default();
    let mut sink = Collect::default();
    ex.expand(ctx, pos, &mut sink)?;
    let best = sink.legal.iter().map(|b| b.rank).min();
    let (mut keep, mut dropped) = (Vec::new(), Vec::new());
    for b in sink.legal {
        if Some(b.rank) == best {
            keep.push(b);
        } else {
            dropped.push(b);
        }
    }
    let kept_type = keep
        .first()
        .and_then(|b| b.parts.first())
        .and_then(|m| m.move_type);
    let pass = pass_offered(ctx, &mut ex, pos, keep.len())?;
    let mut legal = notate(ctx, keep);
    if pass {
        legal.push(TurnMove {
            parts: Vec::new(),
            notation: "pass".to_string(),
        });
    }
    let mut rejected_built: Vec<(Built, Rejection)> = sink
        .illegal
        .into_iter()
        .map(|(b, at)| (b, Rejection::LeavesRoyalAttacked(at)))
        .collect();
    rejected_built.extend(
        dropped
            .into_iter()
            .map(|b| (b, Rejection::Priority(kept_type))),
    );
    let (built, reasons): (Vec<Built>, Vec<Rejection>) = rejected_built.into_iter().unzip();
    let rejected = notate(ctx, built).into_iter().zip(reasons).collect();
    Ok(TurnReport { legal, rejected })
}

/// Gives each turn a notation unique among `turns` (see [`super::turns`]).
fn notate(ctx: &Ctx, turns: Vec<Built>) -> Vec<TurnMove> {
    let mut names: Vec<String> = turns.iter().map(|b| describe(ctx, b, 0)).collect();
    for level in 1..=2u8 {
        let dup = duplicates(&names);
        if !dup.iter().any(|&d| d) {
            break;
        }
        for (i, b) in turns.iter().enumerate() {
            if dup[i] {
                names[i] = describe(ctx, b, level);
            }
        }
    }
    let dup = duplicates(&names);
    if dup.iter().any(|&d| d) {
        // Identical in every primitive: the key's notation, numbered in generation order.
        let mut seen: rustc_hash::FxHashMap<String, usize> = Default::default();
        for (i, name) in names.iter_mut().enumerate() {
            if dup[i] {
                let k = seen.entry(name.clone()).or_insert(0);
                *k += 1;
                *name = format!("{}#{k}", describe(ctx, &turns[i], 0));
            }
        }
    }
    turns
        .into_iter()
        .zip(names)
        .map(|(b, notation)| TurnMove {
            parts: b.parts,
            notation,
        })
        .collect()
}

fn duplicates(names: &[String]) -> Vec<bool> {
    let mut count: rustc_hash::FxHashMap<&str, usize> = Default::default();
    for n in names {
        *count.entry(n.as_str()).or_insert(0) += 1;
    }
    names.iter().map(|n| count[n.as_str()] > 1).collect()
}

/// The notation of a turn at a level of detail: 0 the key primitives (`c3-d4`, `c3xe5xc7`,
/// `@d3`); 1 also the dropped piece's type and the key's promotion (`Man@d3`,
/// `e7-e8=Queen`); 2 also every primitive in brackets.
fn describe(ctx: &Ctx, b: &Built, level: u8) -> String {
    let name = |p: PosId| position_name(ctx, p);
    let mut s = String::new();
    let mut prev: Option<PosId> = None;
    for (k, part) in b.parts.iter().enumerate() {
        let Some(key) = part.primitives.iter().find(|p| p.level() == 1) else {
            continue;
        };
        let sep = if b.captures[k] { 'x' } else { '-' };
        match *key {
            Primitive::Move {
                from, to, promote, ..
            } => {
                if prev == Some(from) {
                    s.push(sep);
                } else {
                    if k > 0 {
                        s.push(',');
                    }
                    s.push_str(&name(from));
                    s.push(sep);
                }
                s.push_str(&name(to));
                if level >= 1
                    && let Some(t) = promote
                {
                    s.push('=');
                    s.push_str(&piece_name(ctx, t));
                }
                prev = Some(to);
            }
            Primitive::Drop { at, piece } => {
                if k > 0 {
                    s.push(',');
                }
                if level >= 1 {
                    s.push_str(&piece_name(ctx, piece.kind));
                }
                s.push('@');
                s.push_str(&name(at));
                prev = Some(at);
            }
            _ => {}
        }
    }
    if level >= 2 {
        s.push('[');
        for (k, part) in b.parts.iter().enumerate() {
            if k > 0 {
                s.push(';');
            }
            for (i, p) in part.primitives.iter().enumerate() {
                if i > 0 {
                    s.push(',');
                }
                s.push_str(&primitive_text(ctx, p));
            }
        }
        s.push(']');
    }
    s
}
use super::text::piece_name;
pub(crate) use super::text::{position_name, primitive_text};

//! The move generator: interprets move and drop blocks on a position as it stands (spec G3),
//! emitting one move per add-family command (G2) with its primitives in written order (§3.1,
//! M1), and resetting pending state at the points of the reset table (§5).
//!
//! Moves go into a [`MoveBuf`] (one list of primitives, one of heads): no allocation once the
//! buffers have grown. In probe mode it answers "would some move capture on this square?"
//! (`attacked?`, the legality filter). Blocks run in flat form ([`super::code`], `flat.rs`).

use super::super::rules::{
    AddKind, Cond, DirId, GoTarget, Instr, Loc, MoveDef, MoveTypeId, NO_POS, PieceId, PlayerId,
    PosId, Span,
};
use std::sync::atomic::Ordering;

mod flat;

use super::ctx::Ctx;
use super::reach::Starts;
use super::stop::budget_error;
use super::{
    GenError, MAX_BLOCK_STEPS, MAX_GEN_STEPS, MAX_PRIMITIVES, Origin, Piece, Position, Primitive,
};

/// The head of one generated move in a [`MoveBuf`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Head {
    /// Range of its primitives in [`MoveBuf::prims`].
    pub start: u32,
    pub end: u32,
    /// Index (in its primitives) of the movement written by the add itself: the last level-1
    /// primitive.
    pub add_at: u32,
    pub move_type: Option<MoveTypeId>,
    pub partial: Option<Option<MoveTypeId>>,
    pub origin: Origin,
}

/// Generated moves: heads and their primitives, in generation order.
#[derive(Clone, Debug, Default)]
pub(crate) struct MoveBuf {
    pub prims: Vec<Primitive>,
    pub heads: Vec<Head>,
}

impl MoveBuf {
    pub fn clear(&mut self) {
        self.prims.clear();
        self.heads.clear();
    }

    pub fn prims_of(&self, h: &Head) -> &[Primitive] {
        &self.prims[h.start as usize..h.end as usize]
    }
}

/// Which pieces generate.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Who {
    /// Every piece of the mover on the board, and the drops in reserve; only blocks of the
    /// given move type when one is given.
    All(Option<MoveTypeId>),
    /// Only the piece on this position, only blocks of the type when given (the
    /// continuation of a partial move, spec P2); no drops.
    Piece(PosId, Option<MoveTypeId>),
}

/// Reusable per-block working state.
#[derive(Default)]
pub(crate) struct Scratch {
    /// Steps left for the whole generation ([`MAX_GEN_STEPS`] at its start).
    gen_steps: u64,
    cascades: Vec<Primitive>,
    changes: Vec<Primitive>,
    captures: Vec<Primitive>,
    flags: Vec<bool>,
    pflags: Vec<(u8, PosId, bool)>,
    /// Run blocks as written, not in flat form ([`super::code`]; the tests' reference).
    pub tree: bool,
}

/// Why a block stopped early.
pub(crate) enum Stop {
    /// The block fails here (a `verify` failed, a step left the board…): moves already
    /// emitted stay.
    Fail,
    /// The step budget ran out.
    Budget,
    /// Too many primitives in one generation.
    TooMany,
    /// Too many steps in one generation, over all its blocks.
    GenSteps,
    /// Probe mode: a move capturing on the target was found.
    Found,
    /// The cancel flag of [`Ctx::cancel`] was set.
    Cancelled,
}

enum Sink<'a> {
    Collect(&'a mut MoveBuf),
    Probe(PosId),
}

/// Generates the moves of `mover` in `pos` into `out` (cleared first).
pub(crate) fn generate(
    ctx: &Ctx,
    pos: &Position,
    mover: PlayerId,
    who: Who,
    scratch: &mut Scratch,
    out: &mut MoveBuf,
) -> Result<(), GenError> {
    out.clear();
    let mut sink = Sink::Collect(out);
    match run_all(ctx, pos, mover, who, scratch, &mut sink, 0) {
        Ok(()) | Err((Stop::Fail | Stop::Found, _)) => Ok(()),
        Err((stop, span)) => Err(budget_error(stop, span)),
    }
}

/// Whether some move of `attacker` (generated as if they were to move, first parts only,
/// without legality or priorities) would capture on `target`: by moving onto it or by
/// `capture`.
pub(crate) fn attacks(
    ctx: &Ctx,
    pos: &Position,
    attacker: PlayerId,
    target: PosId,
    scratch: &mut Scratch,
    depth: u8,
) -> Result<bool, GenError> {
    let mut sink = Sink::Probe(target);
    match run_all(
        ctx,
        pos,
        attacker,
        Who::All(None),
        scratch,
        &mut sink,
        depth,
    ) {
        Ok(()) | Err((Stop::Fail, _)) => Ok(false),
        Err((Stop::Found, _)) => Ok(true),
        Err((stop, span)) => Err(budget_error(stop, span)),
    }
}

/// Whether any player other than `player` attacks `target`.
pub(crate) fn attacked_by_others(
    ctx: &Ctx,
    pos: &Position,
    player: PlayerId,
    target: PosId,
    scratch: &mut Scratch,
    depth: u8,
) -> Result<bool, GenError> {
    for q in 0..ctx.rules.players.len() {
        let q = q as PlayerId;
        if q != player && attacks(ctx, pos, q, target, scratch, depth)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Whether `player` may drop a `kind` now.
pub(crate) fn can_drop(pos: &Position, player: PlayerId, kind: PieceId) -> bool {
    pos.reserve
        .get(player as usize)
        .and_then(|r| r.get(kind as usize))
        .is_some_and(|&n| n > 0)
}

fn run_all(
    ctx: &Ctx,
    pos: &Position,
    mover: PlayerId,
    who: Who,
    scratch: &mut Scratch,
    sink: &mut Sink,
    depth: u8,
) -> Result<(), (Stop, Span)> {
    let rules = ctx.rules;
    scratch.gen_steps = MAX_GEN_STEPS;
    let type_ok = |md: &MoveDef, t: Option<MoveTypeId>| t.is_none() || md.move_type == t;
    match who {
        Who::Piece(at, t) => {
            if let Some(Some(piece)) = pos.cells.get(at as usize)
                && piece.player == mover
                && let Some(def) = rules.pieces.get(piece.kind as usize)
            {
                for (bi, md) in def.moves.iter().enumerate() {
                    if type_ok(md, t) {
                        run_one(
                            ctx, pos, mover, *piece, at, false, bi, md, scratch, sink, depth,
                        )?;
                    }
                }
            }
        }
        Who::All(t) => {
            // A probe runs only the blocks that may capture on its target.
            let filter = match sink {
                Sink::Probe(target) => ctx.reach().map(|r| (r, *target)),
                Sink::Collect(_) => None,
            };
            let nk = rules.pieces.len();
            // (Drop-only games, tic-tac-toe's, skip the walk over the board.)
            let walk = rules.pieces.iter().any(|d| !d.moves.is_empty());
            let n = if walk { pos.cells.len() } else { 0 };
            // A probe looks only at the starts some piece could capture on its target from.
            let starts = match filter {
                Some((reach, target)) if walk => reach.starts(mover, target, n),
                _ => Starts::All(0..n),
            };
            for at in starts {
                let Some(Some(piece)) = pos.cells.get(at) else {
                    continue;
                };
                if piece.player != mover {
                    continue;
                }
                let at = at as PosId;
                if let Some((reach, target)) = filter
                    && !reach.piece_may(nk, mover, piece.kind, at, target)
                {
                    continue;
                }
                let Some(def) = rules.pieces.get(piece.kind as usize) else {
                    continue;
                };
                for (bi, md) in def.moves.iter().enumerate() {
                    if let Some((reach, target)) = filter
                        && !reach.block_may(nk, mover, piece.kind, bi, at, target)
                    {
                        continue;
                    }
                    if type_ok(md, t) && !fails_at_once(pos, md, at, scratch)? {
                        run_one(
                            ctx, pos, mover, *piece, at, false, bi, md, scratch, sink, depth,
                        )?;
                    }
                }
            }
            for (kind, def) in rules.pieces.iter().enumerate() {
                if def.drops.is_empty() || !can_drop(pos, mover, kind as PieceId) {
                    continue;
                }
                let piece = Piece {
                    player: mover,
                    kind: kind as PieceId,
                    attrs: ctx.default_attrs,
                };
                for (bi, md) in def.drops.iter().enumerate() {
                    if !type_ok(md, t) {
                        continue;
                    }
                    for at in 0..ctx.npos {
                        let at = at as PosId;
                        if fails_at_once(pos, md, at, scratch)? {
                            continue;
                        }
                        run_one(
                            ctx, pos, mover, piece, at, true, bi, md, scratch, sink, depth,
                        )?;
                    }
                }
            }
        }
    }
    Ok(())
}

/// Whether `md` starts with `(verify empty?)` and `start` is occupied: the block fails at
/// its first step, so it is not set up at all (drop blocks try every position, and half are
/// taken); its one step still counts against [`MAX_GEN_STEPS`].
#[inline(always)]
fn fails_at_once(
    pos: &Position,
    md: &MoveDef,
    start: PosId,
    scratch: &mut Scratch,
) -> Result<bool, (Stop, Span)> {
    if let Some(Instr::Verify(Cond::Empty(Loc::Here), _)) = md.block.first()
        && pos.cells.get(start as usize).copied().flatten().is_some()
    {
        scratch.gen_steps = scratch.gen_steps.saturating_sub(1);
        if scratch.gen_steps == 0 {
            return Err((Stop::GenSteps, md.span));
        }
        return Ok(true);
    }
    Ok(false)
}

#[allow(clippy::too_many_arguments)]
fn run_one(
    ctx: &Ctx,
    pos: &Position,
    mover: PlayerId,
    piece: Piece,
    start: PosId,
    drop: bool,
    block: usize,
    md: &MoveDef,
    scratch: &mut Scratch,
    sink: &mut Sink,
    depth: u8,
) -> Result<(), (Stop, Span)> {
    // Spec §5, R4: mark, flags and (unless discarded after each add) cascades start afresh.
    scratch.cascades.clear();
    scratch.changes.clear();
    scratch.captures.clear();
    scratch.flags.clear();
    scratch.flags.resize(ctx.rules.flags.len(), false);
    scratch.pflags.clear();
    let code = (!scratch.tree).then(|| ctx.programs().get(piece.kind, drop, block));
    let mut run = Run {
        ctx,
        links: ctx.t.links_of(mover),
        nd: ctx.nd,
        pos,
        mover,
        piece,
        start,
        drop,
        cur: start,
        from: None,
        to: None,
        mark: start,
        budget: MAX_BLOCK_STEPS,
        move_type: md.move_type,
        origin: Origin {
            piece: piece.kind,
            drop,
            block,
        },
        depth,
        s: scratch,
        sink,
    };
    let r = match code.flatten() {
        Some(c) => run.code(c),
        None => run.block(&md.block),
    };
    let used = u64::from(MAX_BLOCK_STEPS - run.budget);
    match r {
        Ok(()) | Err(Stop::Fail) => {
            scratch.gen_steps = scratch.gen_steps.saturating_sub(used);
            if scratch.gen_steps == 0 {
                Err((Stop::GenSteps, md.span))
            } else if ctx.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                Err((Stop::Cancelled, md.span))
            } else {
                Ok(())
            }
        }
        Err(stop) => Err((stop, md.span)),
    }
}

struct Run<'c, 'r, 's, 'k, 'b> {
    ctx: &'c Ctx<'r>,
    /// The mover's step table ([`Tables::links_of`]) and the number of directions.
    links: &'c [PosId],
    nd: usize,
    pos: &'c Position,
    mover: PlayerId,
    /// The moving piece (for a drop block: the piece to drop).
    piece: Piece,
    start: PosId,
    drop: bool,
    cur: PosId,
    /// `None`: the default (the block's start square; off the board for a drop), M5.
    from: Option<PosId>,
    /// `None`: the default (the current position when the movement is written), M5.
    to: Option<PosId>,
    mark: PosId,
    budget: u32,
    move_type: Option<MoveTypeId>,
    origin: Origin,
    depth: u8,
    s: &'s mut Scratch,
    sink: &'k mut Sink<'b>,
}

impl Run<'_, '_, '_, '_, '_> {
    fn block(&mut self, block: &[Instr]) -> Result<(), Stop> {
        for ins in block {
            self.instr(ins)?;
        }
        Ok(())
    }

    #[inline(always)]
    fn tick(&mut self) -> Result<(), Stop> {
        if self.budget == 0 {
            return Err(Stop::Budget);
        }
        self.budget -= 1;
        Ok(())
    }

    /// One step from `p` in the block direction `d` as the mover reads it, or [`NO_POS`]
    /// (as [`Tables::step`]).
    #[inline(always)]
    fn step(&self, p: PosId, d: DirId) -> PosId {
        if d as usize >= self.nd {
            return NO_POS;
        }
        self.links
            .get(p as usize * self.nd + d as usize)
            .copied()
            .unwrap_or(NO_POS)
    }

    #[inline(always)]
    fn resolve(&self, loc: Loc) -> PosId {
        match loc {
            Loc::Here => self.cur,
            Loc::Dir(d) => self.step(self.cur, d),
            Loc::Pos(p) => {
                if (p as usize) < self.ctx.npos {
                    p
                } else {
                    NO_POS
                }
            }
        }
    }

    /// Resolves a location an instruction acts on; off the board fails the block.
    fn place(&self, loc: Loc) -> Result<PosId, Stop> {
        match self.resolve(loc) {
            NO_POS => Err(Stop::Fail),
            p => Ok(p),
        }
    }

    #[inline(always)]
    fn cell(&self, p: PosId) -> Option<Piece> {
        self.pos.cells.get(p as usize).copied().flatten()
    }

    fn instr(&mut self, ins: &Instr) -> Result<(), Stop> {
        self.tick()?;
        match ins {
            Instr::Step(d, _) => {
                let p = self.step(self.cur, *d);
                if p == NO_POS {
                    return Err(Stop::Fail);
                }
                self.cur = p;
            }
            Instr::Goto(p, _) => self.cur = self.place(Loc::Pos(*p))?,
            Instr::From(loc, _) => self.from = Some(self.place(*loc)?),
            Instr::To(loc, _) => self.to = Some(self.place(*loc)?),
            Instr::Go(target, _) => {
                let p = match target {
                    GoTarget::From => match self.from {
                        Some(p) => p,
                        None if self.drop => NO_POS,
                        None => self.start,
                    },
                    GoTarget::To => self.to.unwrap_or(self.cur),
                    GoTarget::Mark => self.mark,
                    GoTarget::LastFrom => self.pos.last.map_or(NO_POS, |l| l.0),
                    GoTarget::LastTo => self.pos.last.map_or(NO_POS, |l| l.1),
                };
                if p == NO_POS || p as usize >= self.ctx.npos {
                    return Err(Stop::Fail);
                }
                self.cur = p;
            }
            Instr::Mark(loc, _) => self.mark = self.place(*loc)?,
            Instr::Back(_) => self.cur = self.mark,
            Instr::Verify(c, _) => {
                if !self.cond(c)? {
                    return Err(Stop::Fail);
                }
            }
            Instr::If(c, then, els, _) => {
                if self.cond(c)? {
                    self.block(then)?;
                } else {
                    self.block(els)?;
                }
            }
            Instr::While(c, body, _) => {
                while self.cond(c)? {
                    self.tick()?;
                    self.block(body)?;
                }
            }
            Instr::SetFlag(f, c, _) => {
                let v = self.cond(c)?;
                if let Some(slot) = self.s.flags.get_mut(*f as usize) {
                    *slot = v;
                }
            }
            _ => self.effect(ins)?,
        }
        Ok(())
    }

    /// The instructions that write (moves, primitives, position flags): kept out of
    /// [`Run::instr`], whose frame every instruction pays for.
    #[inline(never)]
    fn effect(&mut self, ins: &Instr) -> Result<(), Stop> {
        match ins {
            Instr::SetPositionFlag(f, c, loc, _) => {
                let v = self.cond(c)?;
                let p = self.place(*loc)?;
                match self.s.pflags.iter_mut().find(|e| e.0 == *f && e.1 == p) {
                    Some(e) => e.2 = v,
                    None => self.s.pflags.push((*f, p, v)),
                }
            }
            Instr::Add {
                kind,
                promote,
                continue_type,
                ..
            } => self.add(*kind, promote, *continue_type)?,
            Instr::Cascade(_) => {
                let m = self.movement(None, false);
                self.s.cascades.push(m);
                // The piece standing on the cascade square moves next (corpus note 1).
                self.from = Some(self.cur);
                self.to = None;
            }
            Instr::Capture(loc, _) => {
                let p = self.place(*loc)?;
                self.s.captures.push(Primitive::Capture(p));
            }
            Instr::Flip(loc, _) => {
                let p = self.place(*loc)?;
                self.s.changes.push(Primitive::Flip(p));
            }
            Instr::ChangeOwner(loc, _) => {
                let p = self.place(*loc)?;
                self.s.changes.push(Primitive::ChangeOwner(p, self.mover));
            }
            Instr::ChangeType(k, loc, _) => {
                let p = self.place(*loc)?;
                self.s.changes.push(Primitive::ChangeType(p, *k));
            }
            Instr::Create(owner, k, loc, _) => {
                let p = self.place(*loc)?;
                let piece = Piece {
                    player: owner.unwrap_or(self.mover),
                    kind: *k,
                    attrs: self.ctx.default_attrs,
                };
                self.s.changes.push(Primitive::Create(p, piece));
            }
            Instr::SetAttribute(a, c, loc, _) => {
                let v = self.cond(c)?;
                let p = self.place(*loc)?;
                self.s.changes.push(Primitive::SetAttribute(p, *a, v));
            }
            // The others are worked out by `instr`.
            _ => {}
        }
        Ok(())
    }

    /// The movement written now: from `from` (default: the start square; a drop when off the
    /// board) to `to` (default: the current position).
    fn movement(&self, promote: Option<PieceId>, copy: bool) -> Primitive {
        let to = self.to.unwrap_or(self.cur);
        let from = match self.from {
            Some(p) => Some(p),
            None if self.drop => None,
            None => Some(self.start),
        };
        match from {
            Some(from) => Primitive::Move {
                from,
                to,
                promote,
                copy,
            },
            None => Primitive::Drop {
                at: to,
                piece: Piece {
                    kind: promote.unwrap_or(self.piece.kind),
                    ..self.piece
                },
            },
        }
    }

    fn add(
        &mut self,
        kind: AddKind,
        promote: &[PieceId],
        continue_type: Option<MoveTypeId>,
    ) -> Result<(), Stop> {
        let copy = matches!(kind, AddKind::Copy | AddKind::CopyPartial);
        let partial =
            matches!(kind, AddKind::Partial | AddKind::CopyPartial).then_some(continue_type);
        // §3.1: level-2 primitives by kind (change-type, create, flip, change-owner,
        // set-attribute), each kind in the order written.
        if self.s.changes.len() > 1 && !self.s.changes.is_sorted_by_key(change_rank) {
            self.s.changes.sort_by_key(change_rank);
        }
        let n = promote.len().max(1);
        for i in 0..n {
            let m = self.movement(promote.get(i).copied(), copy);
            match self.sink {
                Sink::Probe(target) => {
                    let t = *target;
                    let hits = |p: &Primitive| match p {
                        Primitive::Move { to, .. } => *to == t,
                        Primitive::Drop { at, .. } => *at == t,
                        Primitive::Capture(at) => *at == t,
                        _ => false,
                    };
                    if hits(&m)
                        || self.s.cascades.iter().any(hits)
                        || self.s.captures.iter().any(hits)
                    {
                        return Err(Stop::Found);
                    }
                }
                Sink::Collect(buf) => {
                    let start = buf.prims.len();
                    if start > MAX_PRIMITIVES {
                        return Err(Stop::TooMany);
                    }
                    // (Empty lists are the usual case: no call to copy nothing.)
                    if !self.s.cascades.is_empty() {
                        buf.prims.extend_from_slice(&self.s.cascades);
                    }
                    let add_at = (buf.prims.len() - start) as u32;
                    buf.prims.push(m);
                    if !self.s.changes.is_empty() {
                        buf.prims.extend_from_slice(&self.s.changes);
                    }
                    if !self.s.captures.is_empty() {
                        buf.prims.extend_from_slice(&self.s.captures);
                    }
                    let cost = (buf.prims.len() - start) as u32;
                    self.budget = self.budget.saturating_sub(cost);
                    buf.heads.push(Head {
                        start: start as u32,
                        end: buf.prims.len() as u32,
                        add_at,
                        move_type: self.move_type,
                        partial,
                        origin: self.origin,
                    });
                }
            }
        }
        // §5: after each add-family command.
        self.s.changes.clear();
        self.s.captures.clear();
        if self.ctx.rules.options.discard_cascades {
            self.s.cascades.clear();
        }
        self.from = None;
        self.to = None;
        Ok(())
    }

    /// A condition. The leaves are worked out here, inlined into the instruction that
    /// tests them; `and`, `or`, `not` and `attacked?` in [`Run::cond_nested`]: an
    /// interpreter's time goes to calls and dispatch, so the common path makes no call.
    #[inline(always)]
    fn cond(&mut self, c: &Cond) -> Result<bool, Stop> {
        match (self.leaf(c), c) {
            (Some(v), _) => Ok(v),
            // An `and` of leaves (a `while`'s usual test) without a call either.
            (None, Cond::And(v)) => {
                for c in v {
                    let r = match self.leaf(c) {
                        Some(r) => r,
                        None => self.cond_nested(c)?,
                    };
                    if !r {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            (None, _) => self.cond_nested(c),
        }
    }

    #[inline(never)]
    fn cond_nested(&mut self, c: &Cond) -> Result<bool, Stop> {
        Ok(match c {
            Cond::And(v) => {
                for c in v {
                    if !self.cond(c)? {
                        return Ok(false);
                    }
                }
                true
            }
            Cond::Or(v) => {
                for c in v {
                    if self.cond(c)? {
                        return Ok(true);
                    }
                }
                false
            }
            Cond::Not(c) => !self.cond(c)?,
            Cond::Attacked(loc) => self.attacked(*loc)?,
            c => self.leaf(c).unwrap_or(false),
        })
    }

    /// A condition that tests the position or the run's state directly; `None` for `and`,
    /// `or`, `not` and `attacked?`.
    #[inline(always)]
    fn leaf(&self, c: &Cond) -> Option<bool> {
        Some(match c {
            Cond::True => true,
            Cond::False => false,
            Cond::And(_) | Cond::Or(_) | Cond::Not(_) | Cond::Attacked(_) => return None,
            Cond::Empty(loc) => {
                let p = self.resolve(*loc);
                p != NO_POS && self.cell(p).is_none()
            }
            Cond::Friend(loc) => self
                .cell(self.resolve(*loc))
                .is_some_and(|q| q.player == self.mover),
            Cond::Enemy(loc) => self
                .cell(self.resolve(*loc))
                .is_some_and(|q| q.player != self.mover),
            Cond::Piece(k, loc) => self.cell(self.resolve(*loc)).is_some_and(|q| q.kind == *k),
            Cond::InZone(z, loc) => {
                let p = self.resolve(*loc);
                p != NO_POS && self.ctx.in_zone(*z, self.mover, p)
            }
            Cond::OnBoard(loc) => self.resolve(*loc) != NO_POS,
            Cond::Flag(f) => self.s.flags.get(*f as usize).copied().unwrap_or(false),
            Cond::PositionFlag(f, loc) => {
                let p = self.resolve(*loc);
                self.s
                    .pflags
                    .iter()
                    .find(|e| e.0 == *f && e.1 == p)
                    .is_some_and(|e| e.2)
            }
            Cond::Attribute(a, loc) => self
                .cell(self.resolve(*loc))
                .is_some_and(|q| *a < 32 && q.attrs & (1 << a) != 0),
            Cond::LastFrom(loc) => {
                let p = self.resolve(*loc);
                p != NO_POS && self.pos.last.is_some_and(|l| l.0 == p)
            }
            Cond::LastTo(loc) => {
                let p = self.resolve(*loc);
                p != NO_POS && self.pos.last.is_some_and(|l| l.1 == p)
            }
            Cond::Marked(loc) => {
                let p = self.resolve(*loc);
                p != NO_POS && p == self.mark
            }
        })
    }

    /// `attacked?`: kept out of [`Run::cond`], whose frame every condition pays for.
    #[cold]
    #[inline(never)]
    fn attacked(&self, loc: Loc) -> Result<bool, Stop> {
        let p = self.resolve(loc);
        // Inside a probe, `attacked?` reads false: no unbounded recursion.
        if p == NO_POS || self.depth > 0 {
            return Ok(false);
        }
        let mut scratch = Scratch::default();
        match attacked_by_others(
            self.ctx,
            self.pos,
            self.mover,
            p,
            &mut scratch,
            self.depth + 1,
        ) {
            Ok(v) => Ok(v),
            Err(_) => Err(Stop::Budget),
        }
    }
}

fn change_rank(p: &Primitive) -> u8 {
    match p {
        Primitive::ChangeType(..) => 0,
        Primitive::Create(..) => 1,
        Primitive::Flip(..) => 2,
        Primitive::ChangeOwner(..) => 3,
        Primitive::SetAttribute(..) => 4,
        _ => 5,
    }
}

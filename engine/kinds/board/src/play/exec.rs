//! Executing a move (spec §3): level 1, every movement at once (pick up all moving pieces,
//! remove the pieces on the destinations, set the moving pieces down: §3.3, M3); then level 2
//! (piece changes) in written order; then level 3 (`capture`s). A primitive whose square is
//! empty when its level runs does nothing (M7).

use super::super::rules::{NO_POS, PieceId, PlayerId, PosId};
use super::{Piece, Position, Primitive};

/// Executes the primitives of one move by `mover` on `pos`. `drop_kind` is the piece type
/// whose drop block wrote the move (its reserve pays for each drop). Sets `pos.last` to the
/// key primitive (K1); does not touch the turn.
pub(crate) fn execute(
    pos: &mut Position,
    prims: &[Primitive],
    nplayers: usize,
    drop_kind: Option<PieceId>,
) {
    let movements = prims.iter().filter(|p| p.level() == 1).count();
    if movements == 1 {
        single_movement(pos, prims, drop_kind);
    } else if movements > 1 {
        let picked = pick_up(pos, prims, movements);
        remove_on_destinations(pos, prims, &picked);
        set_down(pos, prims, &picked, drop_kind);
    }
    level2(pos, prims, nplayers);
    level3(pos, prims);
    set_last(pos, prims);
}

/// Level 1 of a move with one movement or drop: pick up, clear the destination, set down
/// (the same result as the three steps of §3.3, without collecting the pieces).
pub(crate) fn single_movement(pos: &mut Position, prims: &[Primitive], drop_kind: Option<PieceId>) {
    for p in prims {
        match *p {
            Primitive::Move {
                from,
                to,
                promote,
                copy,
            } => {
                let piece = if copy {
                    get(pos, from)
                } else {
                    take(pos, from)
                };
                if let Some(piece) = piece {
                    set(pos, to, Some(promoted(piece, promote)));
                }
            }
            Primitive::Drop { at, piece } => drop_piece(pos, at, piece, drop_kind),
            _ => {}
        }
    }
}

/// §3.3 step 1: picks up every moving piece (a copy leaves the original), in written order
/// of the movements; `None` for a movement from an empty square.
pub(crate) fn pick_up(
    pos: &mut Position,
    prims: &[Primitive],
    movements: usize,
) -> Vec<Option<Piece>> {
    let mut picked: Vec<Option<Piece>> = Vec::with_capacity(movements);
    for p in prims {
        if let Primitive::Move { from, copy, .. } = *p {
            picked.push(if copy {
                get(pos, from)
            } else {
                take(pos, from)
            });
        }
    }
    picked
}

/// §3.3 step 2: removes what stands on the destinations (capture by moving); a movement
/// from an empty square moves nothing and captures nothing (M7).
pub(crate) fn remove_on_destinations(
    pos: &mut Position,
    prims: &[Primitive],
    picked: &[Option<Piece>],
) {
    let mut i = 0;
    for p in prims {
        match *p {
            Primitive::Move { to, .. } => {
                if matches!(picked.get(i), Some(Some(_))) {
                    set(pos, to, None);
                }
                i += 1;
            }
            Primitive::Drop { at, .. } => set(pos, at, None),
            _ => {}
        }
    }
}

/// §3.3 step 3: sets the picked-up pieces down (promoted when the movement says so) and
/// drops the dropped ones.
pub(crate) fn set_down(
    pos: &mut Position,
    prims: &[Primitive],
    picked: &[Option<Piece>],
    drop_kind: Option<PieceId>,
) {
    let mut i = 0;
    for p in prims {
        match *p {
            Primitive::Move { to, promote, .. } => {
                if let Some(Some(piece)) = picked.get(i) {
                    set(pos, to, Some(promoted(*piece, promote)));
                }
                i += 1;
            }
            Primitive::Drop { at, piece } => drop_piece(pos, at, piece, drop_kind),
            _ => {}
        }
    }
}

/// Level 2: the piece changes, in written order (E2 leaves the order free; this is
/// deterministic).
pub(crate) fn level2(pos: &mut Position, prims: &[Primitive], nplayers: usize) {
    for p in prims {
        match *p {
            Primitive::ChangeType(at, kind) => {
                if let Some(Some(piece)) = pos.cells.get_mut(at as usize) {
                    piece.kind = kind;
                }
            }
            Primitive::Create(at, piece) => set(pos, at, Some(piece)),
            Primitive::Flip(at) => {
                if let Some(Some(piece)) = pos.cells.get_mut(at as usize) {
                    piece.player = flipped(piece.player, nplayers);
                }
            }
            Primitive::ChangeOwner(at, player) => {
                if let Some(Some(piece)) = pos.cells.get_mut(at as usize) {
                    piece.player = player;
                }
            }
            Primitive::SetAttribute(at, attr, value) => {
                if let Some(Some(piece)) = pos.cells.get_mut(at as usize)
                    && attr < 32
                {
                    if value {
                        piece.attrs |= 1 << attr;
                    } else {
                        piece.attrs &= !(1 << attr);
                    }
                }
            }
            _ => {}
        }
    }
}

/// Level 3: the `capture`s.
pub(crate) fn level3(pos: &mut Position, prims: &[Primitive]) {
    for p in prims {
        if let Primitive::Capture(at) = *p {
            set(pos, at, None);
        }
    }
}

/// Records the key primitive (K1) as the last move.
pub(crate) fn set_last(pos: &mut Position, prims: &[Primitive]) {
    pos.last = prims.iter().find_map(|p| match *p {
        Primitive::Move { from, to, .. } => Some((from, to)),
        Primitive::Drop { at, .. } => Some((NO_POS, at)),
        _ => None,
    });
}

/// The owner a `flip` gives: the other player of two; with more, the next in player order.
pub(crate) fn flipped(player: PlayerId, nplayers: usize) -> PlayerId {
    if nplayers <= 1 {
        player
    } else {
        ((player as usize + 1) % nplayers) as PlayerId
    }
}

fn promoted(piece: Piece, promote: Option<PieceId>) -> Piece {
    match promote {
        Some(kind) => Piece { kind, ..piece },
        None => piece,
    }
}

fn drop_piece(pos: &mut Position, at: PosId, piece: Piece, drop_kind: Option<PieceId>) {
    set(pos, at, Some(piece));
    let kind = drop_kind.unwrap_or(piece.kind);
    if let Some(n) = pos
        .reserve
        .get_mut(piece.player as usize)
        .and_then(|r| r.get_mut(kind as usize))
        && *n != u32::MAX
    {
        *n = n.saturating_sub(1);
    }
}

#[inline]
fn get(pos: &Position, at: PosId) -> Option<Piece> {
    pos.cells.get(at as usize).copied().flatten()
}

#[inline]
fn take(pos: &mut Position, at: PosId) -> Option<Piece> {
    pos.cells.get_mut(at as usize).and_then(Option::take)
}

#[inline]
fn set(pos: &mut Position, at: PosId, piece: Option<Piece>) {
    if let Some(c) = pos.cells.get_mut(at as usize) {
        *c = piece;
    }
}

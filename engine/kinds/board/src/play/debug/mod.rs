//! The move-generation debugger (issue 13): what the generator produced for one square, block
//! by block, with each move's primitives in written order, their execution levels and the
//! key primitive (spec G2, §3.1, K1), and why a move is not offered (the legality filter P5,
//! `move-priorities`); and a move's execution stepped level by level, a cascade's level 1 as
//! its three steps (§3.3).
//!
//! Everything here is plain data for a UI to show: names are resolved to text, positions are
//! [`PosId`]s into [`super::super::rules::BoardShape::positions`], and the boards of the
//! stages are whole [`Position`]s.

use super::super::rules::{MoveTypeId, NO_POS, PlayerId, PosId, Rules, Span};
use super::ctx::Ctx;
use super::exec;
use super::movegen::{MoveBuf, Scratch, Who, generate};
use super::turns::{self, Rejection, TurnReport, mover, position_name, primitive_text};
use super::{Engine, GenError, Move, Origin, Position, Primitive, TurnMove};

mod stages;

use stages::continues_at;
pub use stages::{Stage, StageStep, continuation, execution_stages, turn_stages};

/// What the generator produced for one square (or for the drops), for the player whose
/// piece it is.
#[derive(Clone, Debug, PartialEq)]
pub struct SquareReport {
    /// The player whose moves are listed: the owner of the piece on the square; for drops,
    /// the player to move.
    pub player: PlayerId,
    /// True when [`SquareReport::player`] is not the player to move: the moves are generated
    /// and judged as if it were their turn (their first entry in the turn order).
    pub as_if_to_move: bool,
    /// One entry per move or drop block that could run, in the order the piece type defines
    /// them (drops: piece types in order, then their drop blocks), including blocks that
    /// generated nothing.
    pub blocks: Vec<BlockMoves>,
    /// Why nothing is listed, when nothing can be (a partial turn in progress with another
    /// piece, an empty square with no drop onto it…).
    pub note: Option<String>,
}

/// The moves one move block (one move definition, spec P1) generated.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockMoves {
    /// The piece type, whether a drop block, and the block's index.
    pub origin: Origin,
    /// The piece type's name.
    pub piece: String,
    /// The block's move type (`(move-type …)` before it), if any.
    pub move_type: Option<MoveTypeId>,
    /// That move type's name.
    pub move_type_name: Option<String>,
    /// Where the block was written in the ZRF text (line and column).
    pub span: Span,
    /// Set when the block did not run, and why (the turn allows another move type only).
    pub skipped: Option<String>,
    /// The moves it generated, in generation order (G2: one per add-family command).
    pub moves: Vec<DebugMove>,
}

/// One generated move, with what became of it.
#[derive(Clone, Debug, PartialEq)]
pub struct DebugMove {
    /// The move itself (for [`super::execute`], [`execution_stages`], [`continuation`]).
    pub mv: Move,
    /// Its primitives in written order, described.
    pub primitives: Vec<DebugPrimitive>,
    /// The index in `primitives` of the key primitive (K1: the first movement or drop).
    pub key_index: Option<usize>,
    /// For a partial move (`add-partial`, spec P2): the position the same piece continues
    /// from.
    pub continues_at: Option<PosId>,
    /// Offered, or why not.
    pub verdict: Verdict,
}

/// One primitive of a [`DebugMove`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DebugPrimitive {
    /// The primitive.
    pub primitive: Primitive,
    /// In words ([`super::describe_primitive`]): `c3-e5`, `xd4`, `~d4`, `Disc@c4`.
    pub text: String,
    /// Its execution level (§3.1): 1 movement, 2 piece changes, 3 captures.
    pub level: u8,
    /// True for the key primitive (K1).
    pub key: bool,
}

/// What became of a generated move: whether a legal turn starts with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Offered: the legal turns that start with it, by notation (one, or several for a
    /// partial move that continues in several ways).
    Legal {
        /// The turns' notations, unique in the position.
        notations: Vec<String>,
    },
    /// Removed by `move-priorities`: a move type ranked higher has a legal turn.
    LowerPriority {
        /// The turns that start with it, by notation.
        notations: Vec<String>,
        /// The move type of the turns offered instead.
        kept: Option<MoveTypeId>,
        /// In words: "a jump-type move is available and ranks higher (move-priorities)".
        reason: String,
    },
    /// Removed by the legality filter (spec P5): every turn that starts with it leaves a
    /// royal piece of the mover (`(checkmated Type)`) attacked.
    Illegal {
        /// The turns that start with it, by notation.
        notations: Vec<String>,
        /// Where the attacked royal piece stands after the turn (the first such turn).
        royal_at: PosId,
        /// In words: "leaves White's King on e1 attacked".
        reason: String,
    },
    /// No whole turn starts with it: a chain of partial moves that can only return the
    /// board to one it has already been through this turn (M9).
    NoTurn {
        /// In words.
        reason: String,
    },
}

impl Verdict {
    /// Whether the move is offered.
    pub fn is_legal(&self) -> bool {
        matches!(self, Verdict::Legal { .. })
    }

    /// Why the move is not offered; `None` when it is.
    pub fn reason(&self) -> Option<&str> {
        match self {
            Verdict::Legal { .. } => None,
            Verdict::LowerPriority { reason, .. }
            | Verdict::Illegal { reason, .. }
            | Verdict::NoTurn { reason } => Some(reason),
        }
    }

    /// The notations of the turns that start with the move (none for [`Verdict::NoTurn`]).
    pub fn notations(&self) -> &[String] {
        match self {
            Verdict::Legal { notations }
            | Verdict::LowerPriority { notations, .. }
            | Verdict::Illegal { notations, .. } => notations,
            Verdict::NoTurn { .. } => &[],
        }
    }
}

/// Every move the generator produces for the piece on `square`, or for the drops, grouped by
/// move block, each with the verdict of the legality filter and `move-priorities`.
///
/// * `square: Some(p)` with a piece on `p`: that piece's move blocks (the moves it generates
///   as its owner; when the owner is not to move, as if it were their turn).
/// * `square: Some(p)` on an empty position: the drops of the player to move whose key
///   primitive drops onto `p`.
/// * `square: None`: every drop of the player to move.
///
/// During a partial turn (`pos.partial`), only the continuing piece has moves (of the move
/// type the partial move allows); see [`continuation`].
///
/// # Errors
/// As [`super::try_turns`].
pub fn square_report(
    engine: &Engine,
    pos: &Position,
    square: Option<PosId>,
) -> Result<SquareReport, GenError> {
    let ctx = engine.ctx();
    let rules = ctx.rules;
    let piece = square.and_then(|s| pos.cells.get(s as usize).copied().flatten());
    let to_move = mover(&ctx, pos);
    let player = piece.map_or(to_move, |p| p.player);
    let mut report = SquareReport {
        player,
        as_if_to_move: player != to_move,
        blocks: Vec::new(),
        note: None,
    };
    // The position the moves are generated in: the player's turn.
    let mut judged = pos.clone();
    if player != to_move {
        judged.partial = None;
        match rules.turn_order.iter().position(|e| e.player == player) {
            Some(i) => judged.turn = i,
            None if rules.turn_order.is_empty() => judged.turn = player as usize,
            None => {
                report.note = Some(format!(
                    "{} has no turn in the turn order",
                    player_name(&ctx, player)
                ));
                return Ok(report);
            }
        }
    }
    let allowed = match judged.partial {
        Some((_, t)) => t,
        None => rules.turn_order.get(judged.turn).and_then(|e| e.move_type),
    };
    // Generate.
    let drops = piece.is_none();
    if let Some((at, _)) = judged.partial
        && square != Some(at)
    {
        report.note = Some(format!(
            "a partial turn is in progress: only the piece on {} moves",
            position_name(&ctx, at)
        ));
        return Ok(report);
    }
    let moves = generated_moves(&ctx, &judged, player, square, piece, allowed, drops)?;
    // Judge them.
    let turn_report = turns::report(&ctx, &judged)?;
    let verdicts: Vec<Verdict> = moves
        .iter()
        .map(|m| verdict(&ctx, &judged, &turn_report, m))
        .collect();
    // The blocks that could run, in definition order.
    let type_name =
        |t: Option<MoveTypeId>| t.and_then(|t| rules.move_types.get(t as usize).cloned());
    let origins = block_origins(rules, &judged, piece, player);
    for (origin, span, move_type) in origins {
        let skipped = match allowed {
            Some(t) if move_type != Some(t) => Some(format!(
                "not run: this turn allows only {} moves",
                type_name(Some(t)).unwrap_or_default()
            )),
            _ => None,
        };
        let list = moves
            .iter()
            .zip(&verdicts)
            .filter(|(m, _)| m.origin == origin)
            .map(|(m, v)| debug_move(&ctx, m, v.clone()))
            .collect();
        report.blocks.push(BlockMoves {
            origin,
            piece: rules
                .pieces
                .get(origin.piece as usize)
                .map(|d| d.name.clone())
                .unwrap_or_default(),
            move_type,
            move_type_name: type_name(move_type),
            span,
            skipped,
            moves: list,
        });
    }
    if report.blocks.is_empty() && report.note.is_none() {
        report.note = Some(if drops {
            format!("{} has nothing to drop", player_name(&ctx, player))
        } else {
            "the piece has no move blocks".to_string()
        });
    }
    Ok(report)
}

/// The moves generated in `judged` for `player`: the piece on `square` (of the move type
/// `allowed` if any) or, on an empty or no square, the drops (onto `square` when given).
fn generated_moves(
    ctx: &Ctx,
    judged: &Position,
    player: PlayerId,
    square: Option<PosId>,
    piece: Option<super::Piece>,
    allowed: Option<MoveTypeId>,
    drops: bool,
) -> Result<Vec<Move>, GenError> {
    let mut buf = MoveBuf::default();
    let mut scratch = Scratch::default();
    match (square, piece) {
        (Some(at), Some(_)) => {
            generate(
                ctx,
                judged,
                player,
                Who::Piece(at, allowed),
                &mut scratch,
                &mut buf,
            )?;
        }
        _ => {
            generate(
                ctx,
                judged,
                player,
                Who::All(allowed),
                &mut scratch,
                &mut buf,
            )?;
        }
    }
    let mut moves: Vec<Move> = buf
        .heads
        .iter()
        .filter(|h| h.origin.drop == drops)
        .map(|h| Move {
            primitives: buf.prims_of(h).to_vec(),
            move_type: h.move_type,
            partial: h.partial,
            origin: h.origin,
        })
        .collect();
    if let (Some(at), None) = (square, piece) {
        moves.retain(|m| matches!(m.key(), Some(Primitive::Drop { at: a, .. }) if a == at));
    }
    Ok(moves)
}

/// The blocks that could run, in definition order: the piece's move blocks, or the drop
/// blocks of the piece types `player` has in reserve (none during a partial turn).
fn block_origins(
    rules: &Rules,
    judged: &Position,
    piece: Option<super::Piece>,
    player: PlayerId,
) -> Vec<(Origin, Span, Option<MoveTypeId>)> {
    let mut origins: Vec<(Origin, Span, Option<MoveTypeId>)> = Vec::new();
    if let Some(p) = piece {
        if let Some(def) = rules.pieces.get(p.kind as usize) {
            for (bi, md) in def.moves.iter().enumerate() {
                let origin = Origin {
                    piece: p.kind,
                    drop: false,
                    block: bi,
                };
                origins.push((origin, md.span, md.move_type));
            }
        }
    } else if judged.partial.is_none() {
        for (k, def) in rules.pieces.iter().enumerate() {
            let in_reserve = judged
                .reserve
                .get(player as usize)
                .and_then(|r| r.get(k))
                .is_some_and(|&n| n > 0);
            if !in_reserve {
                continue;
            }
            for (bi, md) in def.drops.iter().enumerate() {
                let origin = Origin {
                    piece: k as u8,
                    drop: true,
                    block: bi,
                };
                origins.push((origin, md.span, md.move_type));
            }
        }
    }
    origins
}

fn player_name(ctx: &Ctx, p: PlayerId) -> String {
    ctx.rules
        .players
        .get(p as usize)
        .cloned()
        .unwrap_or_else(|| format!("player {p}"))
}

fn piece_name(ctx: &Ctx, k: u8) -> String {
    ctx.rules
        .pieces
        .get(k as usize)
        .map_or_else(|| format!("piece {k}"), |d| d.name.clone())
}

fn debug_move(ctx: &Ctx, m: &Move, verdict: Verdict) -> DebugMove {
    let key_index = m.primitives.iter().position(|p| p.level() == 1);
    let primitives = m
        .primitives
        .iter()
        .enumerate()
        .map(|(i, p)| DebugPrimitive {
            primitive: *p,
            text: primitive_text(ctx, p),
            level: p.level(),
            key: Some(i) == key_index,
        })
        .collect();
    DebugMove {
        mv: m.clone(),
        primitives,
        key_index,
        continues_at: m.partial.and_then(|_| continues_at(m)),
        verdict,
    }
}

/// The verdict on `m`, from the turns of `report` that start with it.
fn verdict(ctx: &Ctx, judged: &Position, report: &TurnReport, m: &Move) -> Verdict {
    let starts = |t: &TurnMove| t.parts.first() == Some(m);
    let legal: Vec<String> = report
        .legal
        .iter()
        .filter(|t| starts(t))
        .map(|t| t.notation.clone())
        .collect();
    if !legal.is_empty() {
        return Verdict::Legal { notations: legal };
    }
    let mut priority = Vec::new();
    let mut kept_type = None;
    let mut illegal = Vec::new();
    let mut royal: Option<(PosId, &TurnMove)> = None;
    for (t, why) in report.rejected.iter().filter(|(t, _)| starts(t)) {
        match why {
            Rejection::Priority(kept) => {
                priority.push(t.notation.clone());
                kept_type = *kept;
            }
            Rejection::LeavesRoyalAttacked(at) => {
                illegal.push(t.notation.clone());
                royal.get_or_insert((*at, t));
            }
        }
    }
    if !priority.is_empty() {
        let reason = match kept_type.and_then(|k| ctx.rules.move_types.get(k as usize)) {
            Some(name) => {
                format!("a {name} move is available and ranks higher (move-priorities)")
            }
            None => "a move of a higher-ranked type is available (move-priorities)".to_string(),
        };
        return Verdict::LowerPriority {
            notations: priority,
            kept: kept_type,
            reason,
        };
    }
    if let Some((at, turn)) = royal {
        // Name the attacked piece as it stands after the turn.
        let mut after = judged.clone();
        for part in &turn.parts {
            super::execute(ctx.rules, &mut after, part);
        }
        let what = match after.cells.get(at as usize).copied().flatten() {
            Some(p) => format!(
                "{}'s {}",
                player_name(ctx, p.player),
                piece_name(ctx, p.kind)
            ),
            None => "a royal piece".to_string(),
        };
        return Verdict::Illegal {
            notations: illegal,
            royal_at: at,
            reason: format!(
                "leaves {what} on {} attacked (legality filter, P5)",
                position_name(ctx, at)
            ),
        };
    }
    Verdict::NoTurn {
        reason: "no whole turn starts with it: its chain of partial moves can only return the \
                 board to one it has been through this turn (M9)"
            .to_string(),
    }
}

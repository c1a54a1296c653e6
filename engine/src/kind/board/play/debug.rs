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

/// Which part of a move's execution a [`Stage`] shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StageStep {
    /// Level 1 of a move with one movement or drop.
    Movement,
    /// Level 1 of a move with several movements (a cascade), §3.3 step 1: every moving
    /// piece is picked up.
    PickUp,
    /// §3.3 step 2: the pieces on the destinations are removed (capture by moving).
    Remove,
    /// §3.3 step 3: the moving pieces are set down.
    SetDown,
    /// Level 2: `change-type`, `create`, `flip`, `change-owner`, `set-attribute`.
    Changes,
    /// Level 3: `capture`.
    Captures,
}

/// One step of a move's execution, with the position after it.
#[derive(Clone, Debug, PartialEq)]
pub struct Stage {
    /// The part of the turn (0 for a single move; the index in [`TurnMove::parts`]).
    pub part: usize,
    /// The execution level (1, 2, 3).
    pub level: u8,
    /// Which step.
    pub step: StageStep,
    /// A title for the step: "level 1: movement", "level 1: pick up", "level 1: remove",
    /// "level 1: set down", "level 2: piece changes", "level 3: captures".
    pub title: String,
    /// The indices (in the part's [`Move::primitives`]) of the primitives this step runs.
    pub primitives: Vec<usize>,
    /// The positions the step acts on: origins picked up, pieces removed, destinations set
    /// down, the squares of the changes and captures.
    pub touched: Vec<PosId>,
    /// The position after the step (the turn does not pass).
    pub position: Position,
    /// What happened, one line each, in words ("d4: the Man is removed (capture by moving)",
    /// "~d4: d4 is empty after level 1, nothing happens (M7)").
    pub notes: Vec<String>,
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

/// The position in which the continuation of a partial move is generated: `mv` executed on
/// `pos`, with the same piece to continue from [`DebugMove::continues_at`] (spec P2, M9), so
/// that [`square_report`] on that square lists the next part's moves, and
/// [`Engine::turn_report`] the rest of the turn. `None` when `mv` is not partial.
///
/// The chain's earlier boards are not remembered: a continuation that returns to the board
/// before the first part is listed (the whole turn would not offer it).
pub fn continuation(engine: &Engine, pos: &Position, mv: &Move) -> Option<Position> {
    let t = mv.partial?;
    let at = continues_at(mv)?;
    let mut p = pos.clone();
    super::execute(engine.rules(), &mut p, mv);
    p.partial = Some((at, t));
    Some(p)
}

/// The execution of one move on `pos`, step by step (spec §3): level 1 (one stage for a
/// single movement or drop; for several movements, a cascade, its three steps of §3.3: pick
/// up, remove, set down), then level 2 and level 3 when the move has primitives of that
/// level. The last stage's position is the one [`super::execute`] gives (except
/// [`Position::last`], which the stages set with level 1 as [`super::execute_level`] does).
pub fn execution_stages(engine: &Engine, pos: &Position, mv: &Move) -> Vec<Stage> {
    let ctx = engine.ctx();
    let mut out = Vec::new();
    stages_of(&ctx, pos, mv, 0, &mut out);
    out
}

/// [`execution_stages`] of every part of a turn in order, each part starting from the
/// position the previous one left ([`Stage::part`] says which). A pass has no stages.
pub fn turn_stages(engine: &Engine, pos: &Position, turn: &TurnMove) -> Vec<Stage> {
    let ctx = engine.ctx();
    let mut out = Vec::new();
    let mut at = pos.clone();
    for (k, mv) in turn.parts.iter().enumerate() {
        stages_of(&ctx, &at, mv, k, &mut out);
        if let Some(last) = out.last() {
            at = last.position.clone();
        }
    }
    out
}

// ---------------------------------------------------------------------------------------

/// Where the piece of a partial move continues: the destination of the movement the add
/// wrote, the last level-1 primitive.
fn continues_at(mv: &Move) -> Option<PosId> {
    mv.primitives
        .iter()
        .rev()
        .find_map(|p| match *p {
            Primitive::Move { to, .. } => Some(to),
            Primitive::Drop { at, .. } => Some(at),
            _ => None,
        })
        .filter(|&p| p != NO_POS)
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

/// Appends the stages of `mv` (part `part` of a turn) executed on `pos`.
fn stages_of(ctx: &Ctx, pos: &Position, mv: &Move, part: usize, out: &mut Vec<Stage>) {
    let prims = &mv.primitives;
    let drop_kind = mv.origin.drop.then_some(mv.origin.piece);
    let mut cur = pos.clone();

    // Level 1.
    let movers = of_level(prims, 1);
    if movers.len() == 1 {
        single_movement_stage(ctx, prims, drop_kind, movers, &mut cur, part, out);
    } else if movers.len() > 1 {
        // §3.3: pick up, remove, set down.
        movement_stages(ctx, prims, drop_kind, movers, &mut cur, part, out);
    }

    // Level 2.
    let changes = of_level(prims, 2);
    if !changes.is_empty() {
        changes_stage(ctx, prims, changes, &mut cur, part, out);
    }

    // Level 3.
    let captures = of_level(prims, 3);
    if !captures.is_empty() {
        captures_stage(ctx, prims, captures, &mut cur, part, out);
    }
}

/// The primitives of `prims` at execution level `l`, by index.
fn of_level(prims: &[Primitive], l: u8) -> Vec<usize> {
    prims
        .iter()
        .enumerate()
        .filter(|(_, p)| p.level() == l)
        .map(|(i, _)| i)
        .collect()
}

/// "Player's piece-type", for a stage's notes.
fn who(ctx: &Ctx, piece: super::Piece) -> String {
    format!(
        "{}'s {}",
        player_name(ctx, piece.player),
        piece_name(ctx, piece.kind)
    )
}

/// The piece on `at` in `p`, if any.
fn cell(p: &Position, at: PosId) -> Option<super::Piece> {
    p.cells.get(at as usize).copied().flatten()
}

/// A stage of part `part`; its level follows from its step.
fn stage(
    part: usize,
    step: StageStep,
    title: &str,
    primitives: Vec<usize>,
    touched: Vec<PosId>,
    position: &Position,
    notes: Vec<String>,
) -> Stage {
    Stage {
        part,
        level: match step {
            StageStep::Changes => 2,
            StageStep::Captures => 3,
            _ => 1,
        },
        step,
        title: title.to_string(),
        primitives,
        touched,
        position: position.clone(),
        notes,
    }
}

/// Level 1 with one movement primitive: one stage.
fn single_movement_stage(
    ctx: &Ctx,
    prims: &[Primitive],
    drop_kind: Option<u8>,
    movers: Vec<usize>,
    cur: &mut Position,
    part: usize,
    out: &mut Vec<Stage>,
) {
    let before = cur.clone();
    exec::single_movement(cur, prims, drop_kind);
    exec::set_last(cur, prims);
    let mut notes = Vec::new();
    let mut touched = Vec::new();
    match prims[movers[0]] {
        Primitive::Move {
            from,
            to,
            promote,
            copy,
        } => {
            touched.extend([from, to]);
            match cell(&before, from) {
                None => notes.push(format!(
                    "{}: empty, nothing moves (M7)",
                    position_name(ctx, from)
                )),
                Some(p) => {
                    let verb = if copy { "is copied" } else { "moves" };
                    notes.push(format!(
                        "{} {verb} {}-{}",
                        who(ctx, p),
                        position_name(ctx, from),
                        position_name(ctx, to)
                    ));
                    if let Some(q) = cell(&before, to)
                        && to != from
                    {
                        notes.push(format!(
                            "{}: {} is removed (capture by moving)",
                            position_name(ctx, to),
                            who(ctx, q)
                        ));
                    }
                    if let Some(k) = promote {
                        notes.push(format!("it becomes a {}", piece_name(ctx, k)));
                    }
                }
            }
        }
        Primitive::Drop { at, piece } => {
            touched.push(at);
            notes.push(format!(
                "{} is dropped on {}",
                who(ctx, piece),
                position_name(ctx, at)
            ));
            if let Some(q) = cell(&before, at) {
                notes.push(format!(
                    "{}: {} is removed",
                    position_name(ctx, at),
                    who(ctx, q)
                ));
            }
        }
        _ => {}
    }
    out.push(stage(
        part,
        StageStep::Movement,
        "level 1: movement",
        movers,
        touched,
        cur,
        notes,
    ));
}

/// Level 1 with several movement primitives (§3.3): pick up, remove, set down.
fn movement_stages(
    ctx: &Ctx,
    prims: &[Primitive],
    drop_kind: Option<u8>,
    movers: Vec<usize>,
    cur: &mut Position,
    part: usize,
    out: &mut Vec<Stage>,
) {
    let picked = exec::pick_up(cur, prims, movers.len());
    let moves: Vec<(usize, PosId, PosId)> = movers
        .iter()
        .filter_map(|&i| match prims[i] {
            Primitive::Move { from, to, .. } => Some((i, from, to)),
            _ => None,
        })
        .collect();
    let mut notes = Vec::new();
    for (k, &(_, from, _)) in moves.iter().enumerate() {
        match picked.get(k).copied().flatten() {
            Some(p) => notes.push(format!(
                "{} is picked up from {}",
                who(ctx, p),
                position_name(ctx, from)
            )),
            None => notes.push(format!(
                "{}: empty, nothing to pick up (M7)",
                position_name(ctx, from)
            )),
        }
    }
    out.push(stage(
        part,
        StageStep::PickUp,
        "level 1: pick up",
        moves.iter().map(|m| m.0).collect(),
        moves.iter().map(|m| m.1).collect(),
        cur,
        notes,
    ));
    let lifted = cur.clone();
    exec::remove_on_destinations(cur, prims, &picked);
    let mut notes = Vec::new();
    let mut touched = Vec::new();
    for p in prims {
        let at = match *p {
            Primitive::Move { to, .. } => to,
            Primitive::Drop { at, .. } => at,
            _ => continue,
        };
        if let Some(q) = cell(&lifted, at)
            && cell(cur, at).is_none()
            && !touched.contains(&at)
        {
            touched.push(at);
            notes.push(format!(
                "{}: {} is removed (capture by moving)",
                position_name(ctx, at),
                who(ctx, q)
            ));
        }
    }
    if notes.is_empty() {
        notes.push("nothing stands on the destinations: nothing is removed".to_string());
    }
    out.push(stage(
        part,
        StageStep::Remove,
        "level 1: remove",
        movers.clone(),
        touched,
        cur,
        notes,
    ));
    exec::set_down(cur, prims, &picked, drop_kind);
    exec::set_last(cur, prims);
    let mut notes = Vec::new();
    let mut touched = Vec::new();
    let mut k = 0;
    for p in prims {
        match *p {
            Primitive::Move { to, promote, .. } => {
                if let Some(Some(piece)) = picked.get(k) {
                    touched.push(to);
                    notes.push(format!(
                        "{} is set down on {}",
                        who(ctx, *piece),
                        position_name(ctx, to)
                    ));
                    if let Some(t) = promote {
                        notes.push(format!("it becomes a {}", piece_name(ctx, t)));
                    }
                }
                k += 1;
            }
            Primitive::Drop { at, piece } => {
                touched.push(at);
                notes.push(format!(
                    "{} is dropped on {}",
                    who(ctx, piece),
                    position_name(ctx, at)
                ));
            }
            _ => {}
        }
    }
    out.push(stage(
        part,
        StageStep::SetDown,
        "level 1: set down",
        movers,
        touched,
        cur,
        notes,
    ));
}

/// Level 2: the piece changes.
fn changes_stage(
    ctx: &Ctx,
    prims: &[Primitive],
    changes: Vec<usize>,
    cur: &mut Position,
    part: usize,
    out: &mut Vec<Stage>,
) {
    let nplayers = ctx.nplayers;
    let mut notes = Vec::new();
    let mut touched = Vec::new();
    for &i in &changes {
        let p = prims[i];
        let at = match p {
            Primitive::ChangeType(at, _)
            | Primitive::Create(at, _)
            | Primitive::Flip(at)
            | Primitive::ChangeOwner(at, _)
            | Primitive::SetAttribute(at, _, _) => at,
            _ => continue,
        };
        if !touched.contains(&at) {
            touched.push(at);
        }
        let text = primitive_text(ctx, &p);
        let empty = cell(cur, at).is_none();
        if empty && !matches!(p, Primitive::Create(..)) {
            notes.push(format!(
                "{text}: {} is empty after level 1, nothing happens (M7)",
                position_name(ctx, at)
            ));
        } else {
            notes.push(text);
        }
    }
    exec::level2(cur, prims, nplayers);
    out.push(stage(
        part,
        StageStep::Changes,
        "level 2: piece changes",
        changes,
        touched,
        cur,
        notes,
    ));
}

/// Level 3: the captures.
fn captures_stage(
    ctx: &Ctx,
    prims: &[Primitive],
    captures: Vec<usize>,
    cur: &mut Position,
    part: usize,
    out: &mut Vec<Stage>,
) {
    let mut notes = Vec::new();
    let mut touched = Vec::new();
    for &i in &captures {
        let Primitive::Capture(at) = prims[i] else {
            continue;
        };
        if !touched.contains(&at) {
            touched.push(at);
        }
        match cell(cur, at) {
            Some(q) => notes.push(format!(
                "{}: {} is captured",
                position_name(ctx, at),
                who(ctx, q)
            )),
            None => notes.push(format!(
                "x{}: {} is empty, nothing happens (M7)",
                position_name(ctx, at),
                position_name(ctx, at)
            )),
        }
    }
    exec::level3(cur, prims);
    out.push(stage(
        part,
        StageStep::Captures,
        "level 3: captures",
        captures,
        touched,
        cur,
        notes,
    ));
}

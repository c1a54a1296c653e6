//! A move's execution stepped level by level for the debugger, a cascade's level 1 as its
//! three steps (§3.3): each stage with its primitives, the positions it touched, the board
//! after it and what happened in words.

use super::*;

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
    crate::play::execute(engine.rules(), &mut p, mv);
    p.partial = Some((at, t));
    Some(p)
}

/// The execution of one move on `pos`, step by step (spec §3): level 1 (one stage for a
/// single movement or drop; for several movements, a cascade, its three steps of §3.3: pick
/// up, remove, set down), then level 2 and level 3 when the move has primitives of that
/// level. The last stage's position is the one [`super::super::execute`] gives (except
/// [`Position::last`], which the stages set with level 1 as [`super::super::execute_level`] does).
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
pub(super) fn continues_at(mv: &Move) -> Option<PosId> {
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

/// Appends the stages of `mv` (part `part` of a turn) executed on `pos`.
pub(super) fn stages_of(ctx: &Ctx, pos: &Position, mv: &Move, part: usize, out: &mut Vec<Stage>) {
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
pub(super) fn of_level(prims: &[Primitive], l: u8) -> Vec<usize> {
    prims
        .iter()
        .enumerate()
        .filter(|(_, p)| p.level() == l)
        .map(|(i, _)| i)
        .collect()
}

/// "Player's piece-type", for a stage's notes.
pub(super) fn who(ctx: &Ctx, piece: crate::play::Piece) -> String {
    format!(
        "{}'s {}",
        player_name(ctx, piece.player),
        piece_name(ctx, piece.kind)
    )
}

/// The piece on `at` in `p`, if any.
pub(super) fn cell(p: &Position, at: PosId) -> Option<crate::play::Piece> {
    p.cells.get(at as usize).copied().flatten()
}

/// A stage of part `part`; its level follows from its step.
pub(super) fn stage(
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
pub(super) fn single_movement_stage(
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
pub(super) fn movement_stages(
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
pub(super) fn changes_stage(
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
pub(super) fn captures_stage(
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

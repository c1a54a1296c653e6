//! Playing compiled rules: positions, move generation (spec move-primitives §2, §5, §6),
//! execution in three levels (§3), turns made of partial moves, the legality filter, end
//! conditions, move notation and perft.
//!
//! The generator interprets the blocks of [`Rules`] on a [`Position`] as it stands (G3): each
//! add-family command emits one [`Move`] whose [`Primitive`]s are in written order (M1: the
//! movements of cascades first, then the movement of the add). [`turns`] groups moves into
//! whole turns (a jump chain of partial moves is one turn), filtered for legality and
//! `move-priorities`, each with a notation that is unique in its position.

use super::rules::{MoveTypeId, PieceId, Place, PlayerId, PosId, Rules, Span};

mod code;
mod ctx;
pub mod debug;
mod end;
mod exec;
mod movegen;
mod perft;
mod pick;
mod reach;
pub mod searcher;
mod stop;
#[cfg(test)]
mod tests;
mod text;
mod turns;

pub use perft::Playout;
pub use turns::{Rejection, TurnReport};

use ctx::{Ctx, Tables};

/// The most instructions one run of a move block may execute (each `while` round counts
/// too, and so does every primitive it writes): a block that loops for ever stops with a
/// [`GenError`] instead of hanging.
pub const MAX_BLOCK_STEPS: u32 = 100_000;
/// The most steps one generation (one position, one player, every block) may take.
pub const MAX_GEN_STEPS: u64 = 20_000_000;
/// The message of the [`GenError`] of a move generation stopped by a cancel flag
/// ([`tilesmith_core::game::Game::set_cancel_flag`]).
pub const CANCELLED: &str = "move generation was cancelled";
/// The most primitives one generation (one position, one player) may write.
pub const MAX_PRIMITIVES: usize = 1_000_000;
/// The most parts a chain of partial moves may have.
pub const MAX_CHAIN: usize = 256;
/// The most turns one position may have.
pub const MAX_TURNS: usize = 100_000;

/// Move generation stopped: a block ran past [`MAX_BLOCK_STEPS`], or a position has more
/// moves, parts or turns than the limits allow. The game cannot go on from this position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenError {
    /// The move block (where it was written) that ran away; the default span when the
    /// limit is not one block's.
    pub span: Span,
    /// What happened, one line.
    pub message: String,
}

/// `LINE:COL: message`, or the message alone when the span is the default (line 0).
impl std::fmt::Display for GenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.span.line == 0 {
            return f.write_str(&self.message);
        }
        write!(f, "{}:{}: {}", self.span.line, self.span.col, self.message)
    }
}

impl std::error::Error for GenError {}

/// A piece on the board or in a reserve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its owner.
    pub player: PlayerId,
    /// Its type.
    pub kind: PieceId,
    /// Attribute values, bit `a` for [`super::rules::AttrId`] `a`.
    pub attrs: u32,
}

/// A game position: the board, the reserves, whose turn it is, the last move, and a partial
/// turn in progress.
#[derive(Debug, Default, PartialEq, Eq, Hash)]
pub struct Position {
    /// `cells[pos]`: the piece on each position of [`super::rules::BoardShape::positions`].
    pub cells: Vec<Option<Piece>>,
    /// `reserve[player][piece]`: pieces off the board (`off N` in the setup), for drops.
    /// `u32::MAX` is an unlimited supply: a setup without any `off` lets every player drop
    /// every piece type without limit.
    pub reserve: Vec<Vec<u32>>,
    /// Index into [`Rules::turn_order`] of the turn being played.
    pub turn: usize,
    /// The key origin and destination of the last move (for `last-from?`/`last-to?`); the
    /// origin of a drop is [`super::rules::NO_POS`]. `None` at the start and after a pass.
    pub last: Option<(PosId, PosId)>,
    /// While a turn of partial moves goes on: the position of the piece that continues and
    /// the move type it is restricted to (spec P2, M9).
    pub partial: Option<(PosId, Option<MoveTypeId>)>,
}

impl Position {
    /// The set-up position of `rules`, first player to move. Set-up pieces on a position
    /// out of range are ignored; a later entry for the same position replaces an earlier.
    pub fn initial(rules: &Rules) -> Position {
        let npos = rules.board.positions.len();
        let default_attrs = super::rules::default_attrs(rules);
        let mut cells = vec![None; npos];
        let counted = Tables::setup_counts_reserves(&rules.setup);
        let fill = if counted { 0 } else { u32::MAX };
        let mut reserve = vec![vec![fill; rules.pieces.len()]; rules.players.len()];
        for e in &rules.setup {
            let piece = Piece {
                player: e.player,
                kind: e.piece,
                attrs: default_attrs,
            };
            match e.place {
                Place::At(p) => {
                    if let Some(c) = cells.get_mut(p as usize) {
                        *c = Some(piece);
                    }
                }
                Place::Off(n) => {
                    if let Some(r) = reserve
                        .get_mut(e.player as usize)
                        .and_then(|r| r.get_mut(e.piece as usize))
                    {
                        // Several `off` entries add up to at most what a level may hold.
                        *r = r.saturating_add(n).min(super::rules::MAX_RESERVE);
                    }
                }
            }
        }
        Position {
            cells,
            reserve,
            turn: 0,
            last: None,
            partial: None,
        }
    }

    /// The player whose turn it is: the player of `rules.turn_order[turn]` (the players in
    /// order when the rules have no turn order).
    pub fn to_move(&self, rules: &Rules) -> PlayerId {
        match rules.turn_order.get(self.turn) {
            Some(e) => e.player,
            None => (self.turn % rules.players.len().max(1)) as PlayerId,
        }
    }
}

impl Clone for Position {
    fn clone(&self) -> Self {
        Position {
            cells: self.cells.clone(),
            reserve: self.reserve.clone(),
            turn: self.turn,
            last: self.last,
            partial: self.partial,
        }
    }

    /// Field by field, reusing the allocations (the generator copies positions a lot).
    fn clone_from(&mut self, source: &Self) {
        self.cells.clone_from(&source.cells);
        self.reserve.clone_from(&source.reserve);
        self.turn = source.turn;
        self.last = source.last;
        self.partial = source.partial;
    }
}

/// One primitive of a move (spec §3.1), with the level it executes in ([`Primitive::level`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Primitive {
    /// A movement by `add`/`add-copy`/`add-partial`/`add-copy-partial`/`cascade`: the piece on
    /// `from` goes to `to` (a copy when `copy`), becoming `promote` when given. Level 1.
    Move {
        /// Origin.
        from: PosId,
        /// Destination.
        to: PosId,
        /// The type it becomes (promotion by `(add Type)`).
        promote: Option<PieceId>,
        /// True for `add-copy`/`add-copy-partial`: the original stays.
        copy: bool,
    },
    /// A drop of a new piece on `at`. Level 1.
    Drop {
        /// Where.
        at: PosId,
        /// The piece.
        piece: Piece,
    },
    /// `change-type`. Level 2.
    ChangeType(PosId, PieceId),
    /// `create`. Level 2.
    Create(PosId, Piece),
    /// `flip`: the piece changes to the next player... in a two-player game, the other one.
    /// Level 2.
    Flip(PosId),
    /// `change-owner`: the piece becomes the mover's. Level 2.
    ChangeOwner(PosId, PlayerId),
    /// `set-attribute`. Level 2.
    SetAttribute(PosId, super::rules::AttrId, bool),
    /// `capture`. Level 3.
    Capture(PosId),
}

impl Primitive {
    /// The execution level (spec §3.1): 1 movement, 2 piece changes, 3 captures.
    pub fn level(&self) -> u8 {
        match self {
            Primitive::Move { .. } | Primitive::Drop { .. } => 1,
            Primitive::Capture(_) => 3,
            _ => 2,
        }
    }
}

/// Where a generated move came from: the piece type, whether a move or a drop block, and the
/// block's index in [`super::rules::PieceDef::moves`] or `drops`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Origin {
    /// The piece type whose block generated it.
    pub piece: PieceId,
    /// True for a drop block.
    pub drop: bool,
    /// The block's index.
    pub block: usize,
}

/// One generated move: the primitives of one add-family command, in written order; the
/// first movement is the key primitive (spec K1).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The primitives in written order.
    pub primitives: Vec<Primitive>,
    /// The move type of its block.
    pub move_type: Option<MoveTypeId>,
    /// `Some(t)` for a partial move: the turn may continue with the same piece, with moves of
    /// type `t` (or any type when `t` is `None`).
    pub partial: Option<Option<MoveTypeId>>,
    /// The block that generated it.
    pub origin: Origin,
}

impl Move {
    /// The key primitive (spec K1): the first movement or drop, which a click is matched
    /// against (K2). Every generated move has one.
    pub fn key(&self) -> Option<Primitive> {
        self.primitives.iter().copied().find(|p| p.level() == 1)
    }
}

/// One primitive in words, positions and pieces named as the rules name them: `a1-b1` (a
/// movement; `a1+b1` for a copy; `=Queen` appended for a promotion), `Man@d3` (drop),
/// `d4=King` (change-type), `+Man@c3` (create), `~d4` (flip), `d4:White` (change-owner),
/// `d4.attr=1` (set-attribute), `xd4` (capture).
pub fn describe_primitive(rules: &Rules, p: &Primitive) -> String {
    let t = Tables::new(rules);
    turns::primitive_text(
        &Ctx {
            rules,
            t: &t,
            cancel: None,
        },
        p,
    )
}

/// One whole turn: the moves played in it (one, or a chain of partial moves; none for a
/// pass) and its notation (`c3-d4`, `c3xe5xc7`, `e1-g1`, `@d3`, `pass`), unique in its
/// position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TurnMove {
    /// The moves, in order.
    pub parts: Vec<Move>,
    /// The notation.
    pub notation: String,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The winner; `None` when nobody wins: a draw in a game of several players, a loss in
    /// a one-player game (where only a `win-condition` names the lone player).
    pub winner: Option<PlayerId>,
    /// The kind of end condition that decided ([`super::rules::Outcome`]: win, loss, count
    /// or draw condition); `None` when no condition held and the player to move has no turn
    /// (a draw, or a loss in a one-player game).
    pub decided_by: Option<super::rules::Outcome>,
    /// Why, in a few words ("Black's King is checkmated (loss-condition)").
    pub reason: String,
}

/// Rules ready to play: the [`Rules`] with tables derived from them once (per-player
/// direction links, zones, and the reach tables that let the attack probe skip most
/// blocks). Everything the free functions of this module do, an engine does without
/// deriving the tables again: keep one per game for search and playouts.
#[derive(Clone, Debug)]
pub struct Engine {
    rules: Rules,
    tables: Tables,
}

impl Engine {
    /// Prepares `rules`.
    pub fn new(rules: Rules) -> Engine {
        let tables = Tables::new(&rules);
        Engine { rules, tables }
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The rules, giving the engine up.
    pub fn into_rules(self) -> Rules {
        self.rules
    }

    fn ctx(&self) -> Ctx<'_> {
        Ctx {
            rules: &self.rules,
            t: &self.tables,
            cancel: None,
        }
    }

    /// [`Engine::try_outcome`] and then [`Engine::turns`] when the game goes on, stopping
    /// with the error [`CANCELLED`] once `cancel` is set (checked after each move block
    /// run): a board game's ply honours
    /// [`tilesmith_core::game::Game::set_cancel_flag`] through it.
    ///
    /// # Errors
    /// As [`Engine::try_outcome`] and [`Engine::turns`], or [`CANCELLED`].
    pub(crate) fn settle_with(
        &self,
        pos: &Position,
        history: &[Position],
        cancel: Option<&std::sync::atomic::AtomicBool>,
    ) -> Result<(Option<Outcome>, Vec<TurnMove>), GenError> {
        let ctx = Ctx {
            cancel,
            ..self.ctx()
        };
        match outcome_in(&ctx, pos, history)? {
            Some(o) => Ok((Some(o), Vec::new())),
            None => Ok((None, turns::report(&ctx, pos)?.legal)),
        }
    }

    /// The set-up position ([`Position::initial`]).
    pub fn initial(&self) -> Position {
        Position::initial(&self.rules)
    }

    /// As [`try_turns`].
    ///
    /// # Errors
    /// As [`try_turns`].
    pub fn turns(&self, pos: &Position) -> Result<Vec<TurnMove>, GenError> {
        Ok(turns::report(&self.ctx(), pos)?.legal)
    }

    /// As [`turn_report`].
    ///
    /// # Errors
    /// As [`try_turns`].
    pub fn turn_report(&self, pos: &Position) -> Result<TurnReport, GenError> {
        turns::report(&self.ctx(), pos)
    }

    /// As [`moves`].
    ///
    /// # Errors
    /// As [`try_turns`].
    pub fn moves(&self, pos: &Position) -> Result<Vec<Move>, GenError> {
        moves_in(&self.ctx(), pos)
    }

    /// The positions after each legal turn, in the order of [`Engine::turns`] (a pass last),
    /// without building notations: for search.
    ///
    /// # Errors
    /// As [`try_turns`].
    pub fn successors(&self, pos: &Position) -> Result<Vec<Position>, GenError> {
        let ctx = self.ctx();
        let mut ex = turns::Expander::default();
        let mut sink = perft::ChildSink::default();
        perft::children(&ctx, &mut ex, pos, &mut sink)?;
        sink.kids.truncate(sink.n);
        Ok(sink.kids)
    }

    /// As [`play_turn`].
    pub fn play_turn(&self, pos: &mut Position, turn: &TurnMove) {
        for mv in &turn.parts {
            execute(&self.rules, pos, mv);
        }
        if turn.parts.is_empty() {
            pos.last = None;
        }
        pos.partial = None;
        pos.turn = turns::next_turn(&self.ctx(), pos.turn);
    }

    /// As [`outcome`].
    pub fn outcome(&self, pos: &Position, history: &[Position]) -> Option<Outcome> {
        outcome_or_failure(&self.ctx(), pos, history)
    }

    /// As [`try_outcome`].
    ///
    /// # Errors
    /// As [`try_turns`].
    pub fn try_outcome(
        &self,
        pos: &Position,
        history: &[Position],
    ) -> Result<Option<Outcome>, GenError> {
        outcome_in(&self.ctx(), pos, history)
    }

    /// As [`try_perft`].
    ///
    /// # Errors
    /// As [`try_turns`], for any position reached.
    pub fn perft(&self, pos: &Position, depth: u32, end: PerftEnd) -> Result<u64, GenError> {
        perft::Perft::new(&self.ctx(), end).run(pos, depth, 0, &end::Changed::any())
    }

    /// As [`random_playout`].
    ///
    /// # Errors
    /// As [`try_turns`].
    pub fn random_playout(
        &self,
        pos: &Position,
        rng: &mut rand_chacha::ChaCha8Rng,
        max_plies: u32,
    ) -> Result<Playout, GenError> {
        perft::playout(&self.ctx(), pos, rng, max_plies)
    }
}

/// Every legal whole turn in `pos`, in generation order, with unique notations. Empty when
/// the player to move has no move (and may not pass), or when generation failed (see
/// [`try_turns`]).
///
/// A turn is one move, or a chain of partial moves (spec P2, M9): after a move written by
/// `add-partial`/`add-copy-partial`, the piece on the move's destination continues with
/// moves of the partial's move type only (any type when it names none), and must continue
/// while it can, unless the option `pass partial` is on (then every prefix of a chain is a
/// turn too). A chain never returns the board to one it has been through in the same turn.
/// With `(checkmated Type)` among the end conditions, no turn may end with one of the
/// mover's pieces of that type attacked (P5). With `move-priorities`, only turns whose first
/// move has the best-ranked type that has any legal turn are kept; types not listed rank
/// last. A turn-order entry with a move type allows only first moves of that type. With
/// `pass turn` a `pass` is offered (always, or only when no other turn exists for
/// `forced`), unless no player has any move at all.
///
/// Notation: each part by its key primitive (K1): `c3-d4`; later parts of a chain add
/// `-square` or `xsquare` (`x` when the part removes a piece: `c3xe5xc7`); a part that does
/// not start where the previous one ended starts anew after a comma; a drop is `@d3`.
/// Where that is not unique, the colliding turns also name the dropped piece type and the
/// key's promotion (`Man@d3`, `e7-e8=Queen`); then list every primitive in brackets; turns
/// identical in every primitive get the key's notation numbered in generation order
/// (`e1-g1#1`, `e1-g1#2`).
///
/// Each call derives the rules' tables again; keep an [`Engine`] to play many turns.
pub fn turns(rules: &Rules, pos: &Position) -> Vec<TurnMove> {
    try_turns(rules, pos).unwrap_or_default()
}

/// [`turns`], with the generation error when a block ran away or a limit was passed.
///
/// # Errors
/// [`GenError`] when a move block runs more than [`MAX_BLOCK_STEPS`] steps, or the
/// position takes more than [`MAX_GEN_STEPS`] or has more primitives ([`MAX_PRIMITIVES`]),
/// chain parts ([`MAX_CHAIN`]) or turns ([`MAX_TURNS`]) than the limits.
pub fn try_turns(rules: &Rules, pos: &Position) -> Result<Vec<TurnMove>, GenError> {
    Ok(turn_report(rules, pos)?.legal)
}

/// The legal turns of `pos` as [`turns`] gives them, and the turns the legality filter or
/// `move-priorities` removed, with the reason (for the move-generation debugger).
///
/// # Errors
/// As [`try_turns`].
pub fn turn_report(rules: &Rules, pos: &Position) -> Result<TurnReport, GenError> {
    let t = Tables::new(rules);
    turns::report(
        &Ctx {
            rules,
            t: &t,
            cancel: None,
        },
        pos,
    )
}

/// Every move generated for the player to move in `pos`, before the legality filter and
/// `move-priorities`: one per add-family command (G2), in generation order (pieces in board
/// position order, each piece's move blocks in order; then each drop block at every
/// position). During a partial turn, only the continuing piece's moves of the allowed type.
///
/// # Errors
/// As [`try_turns`].
pub fn moves(rules: &Rules, pos: &Position) -> Result<Vec<Move>, GenError> {
    let t = Tables::new(rules);
    moves_in(
        &Ctx {
            rules,
            t: &t,
            cancel: None,
        },
        pos,
    )
}

fn moves_in(ctx: &Ctx, pos: &Position) -> Result<Vec<Move>, GenError> {
    let mover = turns::mover(ctx, pos);
    let who = match pos.partial {
        Some((at, t)) => movegen::Who::Piece(at, t),
        None => movegen::Who::All(ctx.rules.turn_order.get(pos.turn).and_then(|e| e.move_type)),
    };
    let mut buf = movegen::MoveBuf::default();
    movegen::generate(
        ctx,
        pos,
        mover,
        who,
        &mut movegen::Scratch::default(),
        &mut buf,
    )?;
    Ok(buf
        .heads
        .iter()
        .map(|h| Move {
            primitives: buf.prims_of(h).to_vec(),
            move_type: h.move_type,
            partial: h.partial,
            origin: h.origin,
        })
        .collect())
}

/// Executes one move on `pos` (spec §3: level 1 movements at once, level 2 changes, level 3
/// captures) and records its key primitive as the last move; the turn does not pass.
pub fn execute(rules: &Rules, pos: &mut Position, mv: &Move) {
    let drop_kind = mv.origin.drop.then_some(mv.origin.piece);
    exec::execute(pos, &mv.primitives, rules.players.len(), drop_kind);
}

/// Executes only the primitives of one level (1, 2 or 3) of `mv` on `pos`, for stepping a
/// move level by level; `pos.last` is set when level 1 runs. Levels run in order 1, 2, 3
/// give the same position as [`execute`].
pub fn execute_level(rules: &Rules, pos: &mut Position, mv: &Move, level: u8) {
    let last = pos.last;
    let prims: Vec<Primitive> = mv
        .primitives
        .iter()
        .filter(|p| p.level() == level)
        .copied()
        .collect();
    let drop_kind = mv.origin.drop.then_some(mv.origin.piece);
    exec::execute(pos, &prims, rules.players.len(), drop_kind);
    if level != 1 {
        pos.last = last;
    }
}

/// Plays a whole turn (as returned by [`turns`]) on `pos`: executes each part (§3) and passes
/// the turn on (a pass only passes it on). Does not check that the turn is legal.
pub fn play_turn(rules: &Rules, pos: &mut Position, turn: &TurnMove) {
    for mv in &turn.parts {
        execute(rules, pos, mv);
    }
    if turn.parts.is_empty() {
        pos.last = None;
    }
    pos.partial = None;
    let n = rules.turn_order.len();
    pos.turn = if n == 0 {
        (pos.turn + 1) % rules.players.len().max(1)
    } else if pos.turn + 1 >= n {
        rules.repeat_from.min(n - 1)
    } else {
        pos.turn + 1
    };
}

/// Whether the game has ended in `pos`, given the positions before it (`history`, oldest
/// first, for `repetition`); [`try_outcome`] without its error: a generation error ends
/// the game as a draw (no winner, [`Outcome::decided_by`] `None`) whose reason is
/// `move generation failed: ` and the error. Use [`try_outcome`] to tell a failure apart.
pub fn outcome(rules: &Rules, pos: &Position, history: &[Position]) -> Option<Outcome> {
    let t = Tables::new(rules);
    outcome_or_failure(
        &Ctx {
            rules,
            t: &t,
            cancel: None,
        },
        pos,
        history,
    )
}

/// Whether the game has ended in `pos`, given the positions before it (`history`, oldest
/// first, for `repetition`).
///
/// Every end condition is checked for every player it lists, in this order: win
/// conditions, then loss, then count (the player with the most pieces on the board wins, a
/// tie draws), then draw, each in file order; the first that holds decides
/// ([`Outcome::decided_by`]). `stalemated` and `checkmated` hold only for the player to
/// move (`stalemated`: no turn, a pass counting as a turn; `checkmated T`: a piece of type
/// T of theirs is attacked and they have no turn; a player without such a piece is not
/// checkmated). `repetition` holds for the player who made the last turn when the board,
/// reserves and player to move have now occurred three times. `pieces-remaining` counts
/// pieces on the board. A loss gives the win to the other player of two; with more
/// players, to the player who played last (or, when that is the loser, the player to
/// move). When no condition holds and the player to move has no turn, the game ends
/// without a winner (`decided_by` `None`).
///
/// In a one-player game only a `win-condition` names a winner: a loss, a count or a draw
/// condition, or no turn left, ends it with no winner (the lone player has lost).
///
/// # Errors
/// As [`try_turns`]: the end conditions that need the player's turns (`stalemated`,
/// `checkmated`, no turn left) could not generate them.
pub fn try_outcome(
    rules: &Rules,
    pos: &Position,
    history: &[Position],
) -> Result<Option<Outcome>, GenError> {
    let t = Tables::new(rules);
    outcome_in(
        &Ctx {
            rules,
            t: &t,
            cancel: None,
        },
        pos,
        history,
    )
}

fn outcome_in(
    ctx: &Ctx,
    pos: &Position,
    history: &[Position],
) -> Result<Option<Outcome>, GenError> {
    let same =
        |h: &&Position| h.cells == pos.cells && h.reserve == pos.reserve && h.turn == pos.turn;
    let repeated_by = (history.iter().filter(same).count() >= 2)
        .then(|| history.last().map(|h| turns::mover(ctx, h)))
        .flatten();
    let mut ex = turns::Expander::default();
    end::evaluate(ctx, &mut ex, pos, None, repeated_by)
}

fn outcome_or_failure(ctx: &Ctx, pos: &Position, history: &[Position]) -> Option<Outcome> {
    outcome_in(ctx, pos, history).unwrap_or_else(|e| {
        Some(Outcome {
            winner: None,
            decided_by: None,
            reason: format!("move generation failed: {e}"),
        })
    })
}

/// How [`perft`] counts games that end before the depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PerftEnd {
    /// Only sequences of exactly `depth` turns count (chess, checkers, tic-tac-toe).
    #[default]
    FullDepth,
    /// A game that ended earlier counts as one leaf (the published Reversi convention).
    EndIsLeaf,
}

/// The number of turn sequences of length `depth` from `pos` (a whole jump chain is one
/// turn; a pass is a turn), by the convention `end`. A position where the game has ended
/// (by [`outcome`]'s rules, without `repetition`, which perft ignores) has no children. 0 when
/// generation fails (see [`try_perft`]).
pub fn perft(rules: &Rules, pos: &Position, depth: u32, end: PerftEnd) -> u64 {
    try_perft(rules, pos, depth, end).unwrap_or(0)
}

/// [`perft`], with the generation error.
///
/// # Errors
/// As [`try_turns`], for any position reached.
pub fn try_perft(
    rules: &Rules,
    pos: &Position,
    depth: u32,
    end: PerftEnd,
) -> Result<u64, GenError> {
    let t = Tables::new(rules);
    perft::Perft::new(
        &Ctx {
            rules,
            t: &t,
            cancel: None,
        },
        end,
    )
    .run(pos, depth, 0, &end::Changed::any())
}

/// Plays uniformly random legal turns from `pos` (choices from `rng`) until the game ends or
/// `max_plies` turns have been played. `repetition` counts positions of this playout only.
///
/// # Errors
/// As [`try_turns`].
pub fn random_playout(
    rules: &Rules,
    pos: &Position,
    rng: &mut rand_chacha::ChaCha8Rng,
    max_plies: u32,
) -> Result<Playout, GenError> {
    let t = Tables::new(rules);
    perft::playout(
        &Ctx {
            rules,
            t: &t,
            cancel: None,
        },
        pos,
        rng,
        max_plies,
    )
}

//! Playing compiled rules: positions, move generation (spec move-primitives §2, §5, §6),
//! execution in three levels (§3), turns made of partial moves, the legality filter, end
//! conditions, move notation and perft.
//!
//! The generator interprets the blocks of [`Rules`] on a [`Position`] as it stands (G3): each
//! add-family command emits one [`Move`] whose [`Primitive`]s are in written order (M1: the
//! movements of cascades first, then the movement of the add). [`turns`] groups moves into
//! whole turns (a jump chain of partial moves is one turn), filtered for legality and
//! `move-priorities`, each with a notation that is unique in its position.

use super::rules::{MoveTypeId, PieceId, PlayerId, PosId, Rules};

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
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// `cells[pos]`: the piece on each position of [`super::rules::BoardShape::positions`].
    pub cells: Vec<Option<Piece>>,
    /// `reserve[player][piece]`: pieces off the board (`off N` in the setup), for drops.
    pub reserve: Vec<Vec<u32>>,
    /// Index into [`Rules::turn_order`] of the turn being played.
    pub turn: usize,
    /// The key origin and destination of the last move (for `last-from?`/`last-to?`).
    pub last: Option<(PosId, PosId)>,
    /// While a turn of partial moves goes on: the position of the piece that continues and
    /// the move type it is restricted to (spec P2, M9).
    pub partial: Option<(PosId, Option<MoveTypeId>)>,
}

impl Position {
    /// The set-up position of `rules`, first player to move.
    pub fn initial(rules: &Rules) -> Position {
        let _ = rules;
        todo!("board core")
    }

    /// The player whose turn it is.
    pub fn to_move(&self, rules: &Rules) -> PlayerId {
        let _ = rules;
        todo!("board core")
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

/// How the outcome of a game reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<PlayerId>,
    /// Why, in a few lower-case words ("black has no pieces left").
    pub reason: String,
}

/// Every legal whole turn in `pos`, in generation order, with unique notations. Empty when
/// the player to move has no move (and may not pass).
pub fn turns(rules: &Rules, pos: &Position) -> Vec<TurnMove> {
    let _ = (rules, pos);
    todo!("board core")
}

/// Plays a whole turn (as returned by [`turns`]) on `pos`: executes each part (§3) and passes
/// the turn on.
pub fn play_turn(rules: &Rules, pos: &mut Position, turn: &TurnMove) {
    let _ = (rules, pos, turn);
    todo!("board core")
}

/// Whether the game has ended in `pos`, given the positions before it (`history`, oldest
/// first, for `repetition`).
pub fn outcome(rules: &Rules, pos: &Position, history: &[Position]) -> Option<Outcome> {
    let _ = (rules, pos, history);
    todo!("board core")
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
/// turn; a pass is a turn), by the convention `end`.
pub fn perft(rules: &Rules, pos: &Position, depth: u32, end: PerftEnd) -> u64 {
    let _ = (rules, pos, depth, end);
    todo!("board core")
}

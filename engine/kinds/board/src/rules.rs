//! The compiled rules of one ZRF game variant: the board, the pieces with their move and drop
//! blocks, the setup, the end conditions and the options (spec move-primitives §1–§6).
//!
//! This is the contract between the ZRF front end ([`super::zrf`], which reads a file into
//! [`Rules`]) and the move generator ([`super::play`], which interprets the blocks). Names are
//! resolved to small integer ids; every item keeps the [`Span`] of the text it came from, so
//! the debugger and the messages can point at it.
//!
//! Coordinates: a position's `col`/`row` are its cell on the drawn board, `col` from the left
//! and `row` from the **top** (ZRF's `dimensions` list ranks top first: `"8/7/…/1"`).

/// An index into [`BoardShape::positions`].
pub type PosId = u16;
/// An index into [`BoardShape::directions`].
pub type DirId = u8;
/// An index into [`Rules::pieces`] (a piece **type**: Man, King, Pawn…).
pub type PieceId = u8;
/// An index into [`Rules::players`].
pub type PlayerId = u8;
/// An index into [`Rules::move_types`].
pub type MoveTypeId = u8;
/// An index into [`BoardShape::zones`].
pub type ZoneId = u8;
/// An index into [`Rules::flags`] (per-block flags) or [`Rules::position_flags`].
pub type FlagId = u8;
/// An index into [`Rules::attributes`].
pub type AttrId = u8;

/// The largest number a `reserve` count may be (a level's `reserve`, a drop's count, a
/// compiled `(off n …)`). Here, below the level format, the compiler and the move generator
/// that all bound counts by it.
pub const MAX_RESERVE: u32 = 1_000_000;

/// The attribute bits of a new piece: bit `a` set for each attribute whose default is true.
pub fn default_attrs(rules: &Rules) -> u32 {
    rules
        .attributes
        .iter()
        .enumerate()
        .take(32)
        .filter(|(_, (_, on))| *on)
        .fold(0, |bits, (a, _)| bits | (1 << a))
}

/// Where in a ZRF file something was written: 1-based line and column (columns count
/// characters, not bytes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters.
    pub col: u32,
}

/// One game variant of a ZRF file, compiled.
#[derive(Clone, Debug, Default)]
pub struct Rules {
    /// The variant's `(title …)`.
    pub title: String,
    /// `(players …)`, in order; a [`PlayerId`] indexes this.
    pub players: Vec<String>,
    /// `(turn-order …)`: who moves in which turn, cycling. Without a `turn-order`, the players
    /// in order.
    pub turn_order: Vec<TurnEntry>,
    /// Index into `turn_order` where the cycle starts again after the end (`repeat`; 0 when
    /// the file has none).
    pub repeat_from: usize,
    /// The board.
    pub board: BoardShape,
    /// The piece types, in file order.
    pub pieces: Vec<PieceDef>,
    /// The move-type names (`jump-type`, `normal-type`, …), in order of first appearance.
    pub move_types: Vec<String>,
    /// `(move-priorities …)`, highest first: only moves of the first type that has any legal
    /// move are offered. Empty when the file has none.
    pub move_priorities: Vec<MoveTypeId>,
    /// Block flag names (`set-flag`/`flag?`), reset at the start of each block (spec R4).
    pub flags: Vec<String>,
    /// Position flag names (`set-position-flag`/`position-flag?`), per block (spec R4).
    pub position_flags: Vec<String>,
    /// Piece attribute names with their default values, from the pieces' `(attribute …)`.
    pub attributes: Vec<(String, bool)>,
    /// `(board-setup …)`.
    pub setup: Vec<SetupEntry>,
    /// Win, loss and draw conditions, in file order.
    pub ends: Vec<EndCondition>,
    /// The options that change play.
    pub options: Options,
}

/// One entry of `(turn-order …)`: a player, optionally restricted to one move type
/// (`(White normal-type)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnEntry {
    /// Who moves.
    pub player: PlayerId,
    /// Only moves of this type, when given.
    pub move_type: Option<MoveTypeId>,
}

/// Options of `(option "…" …)` that change play. UI-only options are ignored by the front end;
/// options standing for behaviour Tilesmith cannot honour are warned about there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// `"pass turn"`: whether a player may pass (`true`), must pass when without moves
    /// (`forced`), or never (`false`, the default).
    pub pass_turn: PassTurn,
    /// `"pass partial"`: a player may stop a chain of partial moves (spec P2, M9).
    pub pass_partial: bool,
    /// `"discard cascades"` (spec §5): pending cascades are reset after each add-family
    /// command instead of at the start of the block.
    pub discard_cascades: bool,
}

/// The `"pass turn"` option.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PassTurn {
    /// No passing (the default).
    #[default]
    Never,
    /// A player may always pass.
    Allowed,
    /// A player passes exactly when they have no move (`forced`).
    Forced,
}

/// The board: positions, directions between them, zones, and each player's symmetry.
#[derive(Clone, Debug, Default)]
pub struct BoardShape {
    /// Columns and rows of the drawn board (the grid's `dimensions`; for a board made of
    /// several grids, the bounding box).
    pub cols: u16,
    /// Rows of the drawn board; see [`BoardShape::cols`].
    pub rows: u16,
    /// Every position on the board, in the grid's order (ranks top first, files left first),
    /// `kill-positions` removed.
    pub positions: Vec<PositionDef>,
    /// Direction names, in order of definition (grid `directions` first, then any new
    /// names in `links`).
    pub directions: Vec<String>,
    /// `links[pos * directions.len() + dir]`: the position reached from `pos` in direction
    /// `dir`, or [`NO_POS`] (off the board). Built from grid directions, then `links`
    /// (which replace), with killed positions unlinked.
    pub links: Vec<PosId>,
    /// `symmetry[player][dir]`: the direction a player actually moves when a block names
    /// `dir` (identity without a `(symmetry …)`).
    pub symmetry: Vec<Vec<DirId>>,
    /// `(zone …)` definitions; several with one name (one per player) are one zone.
    pub zones: Vec<Zone>,
}

impl BoardShape {
    /// The pixel rectangle that holds every position's rectangle ([`PositionDef::x`] …), as
    /// `(left, top, right, bottom)`; all zero for a board without positions. For fitting the
    /// drawn board to a view.
    pub fn pixel_bounds(&self) -> (i32, i32, i32, i32) {
        let mut it = self.positions.iter();
        let Some(first) = it.next() else {
            return (0, 0, 0, 0);
        };
        let right = |p: &PositionDef| p.x.saturating_add(p.w);
        let bottom = |p: &PositionDef| p.y.saturating_add(p.h);
        it.fold(
            (first.x, first.y, right(first), bottom(first)),
            |(l, t, r, b), p| (l.min(p.x), t.min(p.y), r.max(right(p)), b.max(bottom(p))),
        )
    }
}

/// "No position": off the board in [`BoardShape::links`].
pub const NO_POS: PosId = PosId::MAX;

/// One position of the board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PositionDef {
    /// Its name (`a1`).
    pub name: String,
    /// Column on the drawn board, from the left.
    pub col: u16,
    /// Row on the drawn board, from the top.
    pub row: u16,
    /// Left edge of the position's rectangle in the ZRF's pixel space (x from the left):
    /// the grid's `start-rectangle` moved by each dimension's pixel offset times the
    /// position's index in that dimension. On hex-like boards (Chinese checkers' ranks
    /// offset `(-25 44)`) this places each position where Zillions draws it, which
    /// `col`/`row` cannot. Without a `start-rectangle`, the first cell is at (0, 0).
    pub x: i32,
    /// Top edge of the rectangle in pixels (y from the **top**); see [`PositionDef::x`].
    pub y: i32,
    /// Width of the rectangle in pixels: the `start-rectangle`'s (right − left); without
    /// one, the largest horizontal offset of the dimensions (at least 1).
    pub w: i32,
    /// Height of the rectangle in pixels: the `start-rectangle`'s (bottom − top); without
    /// one, the largest vertical offset of the dimensions (at least 1).
    pub h: i32,
}

/// A zone: per player, the positions in it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Zone {
    /// Its name.
    pub name: String,
    /// `positions[player]`: the positions of the zone for that player (empty for a player
    /// the zone does not name).
    pub positions: Vec<Vec<PosId>>,
}

/// A piece type.
#[derive(Clone, Debug, Default)]
pub struct PieceDef {
    /// `(name …)`.
    pub name: String,
    /// `(moves …)`: move blocks, in order (spec P1: each is independent).
    pub moves: Vec<MoveDef>,
    /// `(drops …)`: drop blocks, in order.
    pub drops: Vec<MoveDef>,
    /// Where `(piece …)` was written.
    pub span: Span,
}

/// One move-generation block (spec §1) with the move type in force where it was written.
#[derive(Clone, Debug, Default)]
pub struct MoveDef {
    /// The `(move-type …)` preceding it in its `moves`/`drops`, if any.
    pub move_type: Option<MoveTypeId>,
    /// The block's instructions, macros expanded.
    pub block: Vec<Instr>,
    /// Where the block was written (after macro expansion: where the macro was called).
    pub span: Span,
}

/// A position argument of an instruction or condition: the current position (no argument),
/// a direction from it, or a named position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Loc {
    /// The current position.
    #[default]
    Here,
    /// One step from the current position in a direction (after the player's symmetry).
    Dir(DirId),
    /// A named position.
    Pos(PosId),
}

/// Which add-family command (spec §3.1 kinds 1–4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddKind {
    /// `add`: the piece moves from `from` to the current position.
    Add,
    /// `add-copy`: a copy is set down, the original stays.
    Copy,
    /// `add-partial`: as `add`, and the same piece may continue this turn (spec P2).
    Partial,
    /// `add-copy-partial`.
    CopyPartial,
}

/// One instruction of a move block.
#[derive(Clone, Debug, PartialEq)]
pub enum Instr {
    /// A direction name: step that way (after symmetry); the block fails off the board.
    Step(DirId, Span),
    /// A position name as an instruction: go there.
    Goto(PosId, Span),
    /// `from` (no argument: the current position) or `(from pos)`: set the from position.
    From(Loc, Span),
    /// `to` or `(to pos)`: set the to position.
    To(Loc, Span),
    /// `(go from)`, `(go to)`, `(go mark)`, `(go last-from)`, `(go last-to)`.
    Go(GoTarget, Span),
    /// `mark` / `(mark pos)`: remember a position.
    Mark(Loc, Span),
    /// `back`: return to the marked position.
    Back(Span),
    /// `(verify c)`: the block fails unless `c`.
    Verify(Cond, Span),
    /// `(if c then… else …)`.
    If(Cond, Vec<Instr>, Vec<Instr>, Span),
    /// `(while c body…)`.
    While(Cond, Vec<Instr>, Span),
    /// `(set-flag f c)`.
    SetFlag(FlagId, Cond, Span),
    /// `(set-position-flag f c [pos])`.
    SetPositionFlag(FlagId, Cond, Loc, Span),
    /// An add-family command: `add`, `(add Type…)` (promotion), `(add-partial move-type)`.
    Add {
        /// Which command.
        kind: AddKind,
        /// The type the piece becomes (promotion); several mean a choice, one move each.
        promote: Vec<PieceId>,
        /// For a partial move: the move type the continuation is restricted to.
        continue_type: Option<MoveTypeId>,
        /// Where written.
        span: Span,
    },
    /// `cascade` (spec §3.3).
    Cascade(Span),
    /// `capture` / `(capture pos-or-dir)` (level 3).
    Capture(Loc, Span),
    /// `flip` / `(flip loc)` (level 2).
    Flip(Loc, Span),
    /// `change-owner` / `(change-owner loc)` (level 2): the piece becomes the mover's.
    ChangeOwner(Loc, Span),
    /// `(change-type Type [loc])` (level 2).
    ChangeType(PieceId, Loc, Span),
    /// `(create Type [loc])` or `(create Player Type [loc])` (level 2); the owner defaults to
    /// the mover.
    Create(Option<PlayerId>, PieceId, Loc, Span),
    /// `(set-attribute a c [loc])` (level 2).
    SetAttribute(AttrId, Cond, Loc, Span),
}

/// Targets of `(go …)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoTarget {
    /// The from position.
    From,
    /// The to position.
    To,
    /// The marked position.
    Mark,
    /// The last move's key origin.
    LastFrom,
    /// The last move's key destination.
    LastTo,
}

/// A condition of `verify`, `if`, `while`, flag values and end conditions.
#[derive(Clone, Debug, PartialEq)]
pub enum Cond {
    /// `true`.
    True,
    /// `false`.
    False,
    /// `(and …)`.
    And(Vec<Cond>),
    /// `(or …)`.
    Or(Vec<Cond>),
    /// `(not c)`.
    Not(Box<Cond>),
    /// `empty?` / `(empty? loc)`. `not-empty?` compiles to `Not(Empty)`.
    Empty(Loc),
    /// `friend?`: a piece of the mover. `not-friend?` = `Not(Friend)`.
    Friend(Loc),
    /// `enemy?`: a piece of another player. `not-enemy?` = `Not(Enemy)`.
    Enemy(Loc),
    /// `(piece? Type [loc])`.
    Piece(PieceId, Loc),
    /// `(in-zone? z [loc])`: in the zone for the mover.
    InZone(ZoneId, Loc),
    /// `(on-board? dir)` / `(on-board? pos)`.
    OnBoard(Loc),
    /// `(flag? f)`.
    Flag(FlagId),
    /// `(position-flag? f [loc])`.
    PositionFlag(FlagId, Loc),
    /// `(attribute? a [loc])`.
    Attribute(AttrId, Loc),
    /// `last-from?` / `(last-from? loc)`: the last move's key origin.
    LastFrom(Loc),
    /// `last-to?` / `(last-to? loc)`: the last move's key destination.
    LastTo(Loc),
    /// `attacked?` / `(attacked? loc)`: an enemy move would capture there.
    /// `not-attacked?` = `Not(Attacked)`.
    Attacked(Loc),
    /// `marked?` / `(marked? loc)`.
    Marked(Loc),
}

/// One `(board-setup …)` entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SetupEntry {
    /// The owner.
    pub player: PlayerId,
    /// The piece type.
    pub piece: PieceId,
    /// Where.
    pub place: Place,
}

/// Where a set-up piece starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// On a position.
    At(PosId),
    /// `off N`: N pieces in the player's reserve, for drops.
    Off(u32),
}

/// Whose outcome an end condition decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// `win-condition`.
    Win,
    /// `loss-condition`.
    Loss,
    /// `draw-condition`.
    Draw,
    /// `count-condition` (Zillions): when the test holds, the player with the most pieces on
    /// the board wins; a tie for the most is a draw (Reversi's disc count).
    Count,
}

/// One `(win-condition …)`, `(loss-condition …)` or `(draw-condition …)`.
#[derive(Clone, Debug, PartialEq)]
pub struct EndCondition {
    /// What it decides.
    pub outcome: Outcome,
    /// The players it applies to.
    pub players: Vec<PlayerId>,
    /// The test.
    pub test: EndTest,
    /// Where written.
    pub span: Span,
}

/// The test of an end condition, evaluated for one player.
#[derive(Clone, Debug, PartialEq)]
pub enum EndTest {
    /// `(pieces-remaining n [Type])`: the player has exactly `n` pieces (of the type) on the
    /// board.
    PiecesRemaining(u32, Option<PieceId>),
    /// `stalemated`: the player is to move and has no legal move.
    Stalemated,
    /// `repetition`: the position has occurred three times.
    Repetition,
    /// `(checkmated Type)`: the player's piece of that type is attacked and they have no
    /// legal move; also makes every move that leaves it attacked illegal (spec P5).
    Checkmated(PieceId),
    /// `(absolute-config Type… (pos…))`: every listed position holds a piece of the player
    /// of one of the listed types.
    AbsoluteConfig(Vec<PieceId>, Vec<PosId>),
    /// `(and …)`.
    And(Vec<EndTest>),
    /// `(or …)`.
    Or(Vec<EndTest>),
    /// `(not …)`.
    Not(Box<EndTest>),
}

//! Tumo rotation shapes and rotation with kicks (spec falling-blocks §3.2, §7, §10 A1), and
//! the shape tools of the editor: auto-rotate about a pivot, mirror, swap rotation.
//!
//! A tumo has 1 to 8 rotation states, each a square [`ShapeGrid`] (rows top first). A turn
//! goes to another state and tries the kick offsets of that pair of states in order
//! ([`Kicks`]); the first offset where the new state fits wins, and if none fits nothing
//! changes. Offsets are `[dx, dy]` with x to the right and y **down**.

use std::collections::BTreeMap;

/// One rotation state: a `side` × `side` grid, row-major, rows top first. A cell is `0`
/// (empty), `-1` (a block of the tumo's own kind) or `n > 0` (labelled block `n`, which keeps
/// its identity, and so its kind, across states; spec A1).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ShapeGrid {
    /// Cells per row and rows (1 to [`super::level::MAX_GRID`]).
    pub side: usize,
    /// Row-major cells, index `y * side + x`.
    pub cells: Vec<i8>,
}

/// The kick tests of a tumo: `None` tries only `[0, 0]` for every turn; a table maps a pair
/// of states `(from, to)` to the ordered offsets to test, and a pair missing from it tries only
/// `[0, 0]`. Offsets are `(dx, dy)`, y down.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Kicks {
    /// `"none"`: only `[0, 0]`.
    #[default]
    None,
    /// `{"i>j": [[dx, dy], …], …}`.
    Table(BTreeMap<(usize, usize), Vec<(i32, i32)>>),
}

/// Which way a turn goes, re-exported from the inputs.
pub use crate::input::Turn;

/// One kick test of a turn, for the kick lab.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KickTrial {
    /// The offset tested, `(dx, dy)`, y down.
    pub offset: (i32, i32),
    /// The field cells the new state would cover at that offset.
    pub cells: Vec<(i32, i32)>,
    /// Whether they are all free.
    pub fits: bool,
}

/// The outcome of [`try_turn`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnResult {
    /// The state turned to (whether or not it fitted).
    pub to_state: usize,
    /// Every offset tried, in order, up to and including the first that fits.
    pub trials: Vec<KickTrial>,
    /// Index into `trials` of the offset that fitted; `None` when the turn failed.
    pub success: Option<usize>,
}

impl ShapeGrid {
    /// An empty grid of `side` × `side`.
    pub fn new(side: usize) -> Self {
        Self {
            side,
            cells: vec![0; side * side],
        }
    }

    /// The filled cells as `(x, y, value)`, row-major.
    pub fn blocks(&self) -> impl Iterator<Item = (usize, usize, i8)> + '_ {
        self.cells
            .iter()
            .enumerate()
            .filter(|(_, v)| **v != 0)
            .map(|(i, v)| (i % self.side, i / self.side, *v))
    }
}

impl Kicks {
    /// The offsets a turn from state `from` to state `to` tests, in order.
    pub fn tests(&self, from: usize, to: usize) -> Vec<(i32, i32)> {
        let _ = (from, to);
        todo!("shape helper")
    }
}

/// The state a turn reaches from `state` among `states` rotation states.
pub fn target_state(states: usize, state: usize, turn: Turn) -> usize {
    let _ = (states, state, turn);
    todo!("shape helper")
}

/// Tries a turn of a tumo in state `state` whose grid's top-left cell is at `(x, y)`: tests
/// the kick offsets in order and reports every trial. `free(x, y)` says whether a field cell
/// can hold a block (false outside the walls and floor).
pub fn try_turn(
    states: &[ShapeGrid],
    kicks: &Kicks,
    state: usize,
    (x, y): (i32, i32),
    turn: Turn,
    free: &dyn Fn(i32, i32) -> bool,
) -> TurnResult {
    let _ = (states, kicks, state, x, y, turn, free);
    todo!("shape helper")
}

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

/// One row of [`Kicks::from_rows`]: `(from, to, offsets)`, offsets `(dx, dy)` with y down.
pub type KickRow<'a> = (usize, usize, &'a [(i32, i32)]);

impl Kicks {
    /// The offsets a turn from state `from` to state `to` tests, in order: the table's list
    /// for `(from, to)`, or `[(0, 0)]` when there is no table ([`Kicks::None`]) or the table
    /// has no entry for the pair (level format: "without an entry for a pair, only `[0, 0]`
    /// is tried"). A pair whose list is present but empty tests nothing, so that turn always
    /// fails: a way to forbid one turn (e.g. `"0>2": []` forbids 180° from state 0).
    pub fn tests(&self, from: usize, to: usize) -> Vec<(i32, i32)> {
        match self {
            Kicks::None => vec![(0, 0)],
            Kicks::Table(t) => t.get(&(from, to)).cloned().unwrap_or_else(|| vec![(0, 0)]),
        }
    }

    /// A table from `(from, to, offsets)` rows, offsets `(dx, dy)` with y down. A later row
    /// for the same pair replaces an earlier one.
    pub fn from_rows(rows: &[KickRow<'_>]) -> Kicks {
        Kicks::Table(
            rows.iter()
                .map(|(from, to, offsets)| ((*from, *to), offsets.to_vec()))
                .collect(),
        )
    }

    /// This table with the entries of `other` added; an entry of `other` replaces this
    /// table's entry for the same pair. [`Kicks::None`] counts as an empty table, and the
    /// union of two `None`s is `None`. Used to put a 180° table (e.g. [`kicks_180_jlstz`])
    /// beside a 90° one (e.g. [`srs_jlstz`]).
    pub fn merged(&self, other: &Kicks) -> Kicks {
        match (self, other) {
            (Kicks::None, Kicks::None) => Kicks::None,
            _ => {
                let mut t = self.entries();
                t.extend(other.entries());
                Kicks::Table(t)
            }
        }
    }

    /// The table's entries (empty for [`Kicks::None`]).
    fn entries(&self) -> BTreeMap<(usize, usize), Vec<(i32, i32)>> {
        match self {
            Kicks::None => BTreeMap::new(),
            Kicks::Table(t) => t.clone(),
        }
    }
}

/// The state a turn reaches from `state` among `states` rotation states (spec §3.2, §7):
/// [`Turn::Cw`] goes to `state + 1`, [`Turn::Ccw`] to `state − 1`, [`Turn::Half`] to
/// `state + 2`, all modulo `states`. With one state every turn stays; with two, `Cw` and
/// `Ccw` both toggle and `Half` stays. A `state` out of range is first taken modulo `states`;
/// with `states == 0` (no grid at all) the state is returned unchanged.
pub fn target_state(states: usize, state: usize, turn: Turn) -> usize {
    if states == 0 {
        return state;
    }
    let step = match turn {
        Turn::Cw => 1,
        Turn::Ccw => states - 1,
        Turn::Half => 2 % states,
    };
    (state % states + step) % states
}

/// The field cells a grid covers with its top-left cell at `(x, y)`, row-major (so sorted
/// by y, then x). Coordinates that would overflow `i32` saturate, which lands them outside
/// any field.
pub fn grid_cells(grid: &ShapeGrid, (x, y): (i32, i32)) -> Vec<(i32, i32)> {
    grid.blocks()
        .map(|(gx, gy, _)| {
            let gx = i32::try_from(gx).unwrap_or(i32::MAX);
            let gy = i32::try_from(gy).unwrap_or(i32::MAX);
            (x.saturating_add(gx), y.saturating_add(gy))
        })
        .collect()
}

/// Tries a turn of a tumo in state `state` whose grid's top-left cell is at `(x, y)`: tests
/// the kick offsets in order and reports every trial. `free(x, y)` says whether a field cell
/// can hold a block (false outside the walls and floor).
///
/// The target state is [`target_state`]; the offsets are `kicks.tests(state, to)`. For each
/// offset `(dx, dy)` (y down) the new state's blocks are placed with the grid's top-left
/// cell at `(x + dx, y + dy)`; the first offset where every block's cell is `free` wins and
/// the trials stop there. When none fits, [`TurnResult::success`] is `None` and the caller
/// leaves the tumo as it was (state and position). A `state` outside `states` (or no states
/// at all) gives a failed turn with no trials rather than a panic. Spec §3.2, §7; level
/// format `kicks`.
pub fn try_turn(
    states: &[ShapeGrid],
    kicks: &Kicks,
    state: usize,
    (x, y): (i32, i32),
    turn: Turn,
    free: &dyn Fn(i32, i32) -> bool,
) -> TurnResult {
    let to_state = target_state(states.len(), state, turn);
    let mut result = TurnResult {
        to_state,
        trials: Vec::new(),
        success: None,
    };
    let (Some(_), Some(grid)) = (states.get(state), states.get(to_state)) else {
        return result;
    };
    for (dx, dy) in kicks.tests(state, to_state) {
        let cells = grid_cells(grid, (x.saturating_add(dx), y.saturating_add(dy)));
        let fits = cells.iter().all(|&(cx, cy)| free(cx, cy));
        result.trials.push(KickTrial {
            offset: (dx, dy),
            cells,
            fits,
        });
        if fits {
            result.success = Some(result.trials.len() - 1);
            break;
        }
    }
    result
}

// ---------------------------------------------------------------------------------------------
// Editor shape tools.

/// Why a shape tool could not make its grids. Coordinates are grid cells: x the column from
/// the left, y the row from the top.
#[derive(Clone, Debug, PartialEq)]
pub enum ShapeError {
    /// A pivot coordinate is not a whole number (a cell centre) or a whole number and a
    /// half (a cell edge), or is not finite.
    PivotOffGrid {
        /// The pivot given, `[x, y]`.
        pivot: [f64; 2],
    },
    /// A quarter turn about a pivot with one whole and one half coordinate (the middle of a
    /// cell's edge) would put cells between cells. Use a cell centre or a cell corner.
    PivotOnEdge {
        /// The pivot given, `[x, y]`.
        pivot: [f64; 2],
    },
    /// The filled cell `(x, y)` would move to `to`, outside the `side` × `side` grid.
    OffGrid {
        /// The cell's column.
        x: usize,
        /// The cell's row (from the top).
        y: usize,
        /// Where it would go, `(x, y)`.
        to: (i64, i64),
        /// The grid's side.
        side: usize,
    },
    /// [`auto_rotate`] makes 2 or 4 states; another count was asked for.
    StateCount(usize),
}

impl std::fmt::Display for ShapeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ShapeError::PivotOffGrid { pivot } => write!(
                f,
                "the pivot [{}, {}] is neither a cell centre (whole numbers) nor between cells \
                 (halves)",
                pivot[0], pivot[1]
            ),
            ShapeError::PivotOnEdge { pivot } => write!(
                f,
                "the pivot [{}, {}] is the middle of a cell edge: a quarter turn about it puts \
                 cells between cells; put it on a cell centre or a cell corner",
                pivot[0], pivot[1]
            ),
            ShapeError::OffGrid { x, y, to, side } => write!(
                f,
                "cell ({x}, {y}) would move to ({}, {}), outside the {side}×{side} grid",
                to.0, to.1
            ),
            ShapeError::StateCount(n) => {
                write!(f, "auto-rotate makes 2 or 4 states, not {n}")
            }
        }
    }
}

impl std::error::Error for ShapeError {}

/// Largest pivot coordinate the tools accept in absolute value; farther pivots can only
/// throw every cell off the grid, and the bound keeps the arithmetic exact.
const PIVOT_LIMIT: f64 = 1.0e6;

/// The pivot in doubled coordinates (cell `(i, j)` at `(2i, 2j)`), checked to be a whole
/// number or a half on each axis.
fn doubled_pivot(pivot: [f64; 2]) -> Result<(i64, i64), ShapeError> {
    let d = |v: f64| -> Option<i64> {
        let twice = v * 2.0;
        (v.is_finite() && v.abs() <= PIVOT_LIMIT && twice.fract() == 0.0)
            // Exact: |twice| ≤ 2e6 and whole.
            .then_some(twice as i64)
    };
    match (d(pivot[0]), d(pivot[1])) {
        (Some(px), Some(py)) => Ok((px, py)),
        _ => Err(ShapeError::PivotOffGrid { pivot }),
    }
}

/// Turns every filled cell of `grid` by `quarter_turns_cw` × 90° **clockwise on screen**
/// (x right, y down) about `pivot`, into a grid of the same side. Values, labels included,
/// move with their cells (spec A1: a label keeps its identity).
///
/// `pivot` is `[x, y]` in grid coordinates where cell `(i, j)` has its centre at `[i, j]`:
/// whole numbers are a cell centre (Puyo's axis block, the JLSTZ centre `[1, 1]`), halves a
/// cell corner (Panic Bomber, the SRS I and O centres `[1.5, 1.5]` and `[0.5, 0.5]`).
/// A clockwise quarter turn maps the offset `(dx, dy)` from the pivot to `(−dy, dx)`.
/// Turns are taken modulo 4.
///
/// # Errors
/// [`ShapeError::PivotOffGrid`] when a coordinate is not whole or half (or not finite);
/// [`ShapeError::PivotOnEdge`] for a quarter turn (odd count) about a pivot with one whole
/// and one half coordinate; [`ShapeError::OffGrid`] naming the first filled cell, in
/// reading order, that would leave the grid.
pub fn rotate_about(
    grid: &ShapeGrid,
    pivot: [f64; 2],
    quarter_turns_cw: u8,
) -> Result<ShapeGrid, ShapeError> {
    let (px, py) = doubled_pivot(pivot)?;
    let turns = quarter_turns_cw % 4;
    if turns % 2 == 1 && (px + py) % 2 != 0 {
        return Err(ShapeError::PivotOnEdge { pivot });
    }
    let side = grid.side;
    let mut out = ShapeGrid::new(side);
    for (x, y, v) in grid.blocks() {
        // Doubled offsets from the pivot.
        let (mut dx, mut dy) = (2 * x as i64 - px, 2 * y as i64 - py);
        for _ in 0..turns {
            (dx, dy) = (-dy, dx);
        }
        let (tx2, ty2) = (px + dx, py + dy);
        // Even by the parity check above (a half turn keeps parity; a quarter turn needs
        // px + py even), so the target is a cell centre.
        let to = (tx2.div_euclid(2), ty2.div_euclid(2));
        let inside = |c: i64| usize::try_from(c).is_ok_and(|c| c < side);
        if !(inside(to.0) && inside(to.1)) {
            return Err(ShapeError::OffGrid { x, y, to, side });
        }
        // In range by the check above.
        let (tx, ty) = (to.0 as usize, to.1 as usize);
        out.cells[ty * side + tx] = v;
    }
    Ok(out)
}

/// Auto-rotate (the editor's tool): the rotation states made from `first` by turning it
/// about `pivot` (see [`rotate_about`]), **first included**, in the order of [`Turn::Cw`]:
///
/// - `states == 4`: `first` turned 0°, 90°, 180° and 270° clockwise (Puyo pairs, SRS
///   tetrominoes);
/// - `states == 2`: `first` and `first` turned 90° clockwise: the classic 2-state Tetris
///   piece (spec §3.2, Fig. 3: the Z that toggles between flat and upright; `CW` and `CCW`
///   both toggle).
///
/// # Errors
/// [`ShapeError::StateCount`] for any other count; the errors of [`rotate_about`].
pub fn auto_rotate(
    first: &ShapeGrid,
    pivot: [f64; 2],
    states: usize,
) -> Result<Vec<ShapeGrid>, ShapeError> {
    if states != 2 && states != 4 {
        return Err(ShapeError::StateCount(states));
    }
    (0..states)
        .map(|k| rotate_about(first, pivot, k as u8))
        .collect()
}

/// `grid` mirrored left to right: cell `(x, y)` goes to `(side − 1 − x, y)`, values kept.
/// Cells beyond `side × side` (a malformed grid) are dropped.
pub fn mirror(grid: &ShapeGrid) -> ShapeGrid {
    let side = grid.side;
    let mut out = ShapeGrid::new(side);
    for (x, y, v) in grid.blocks() {
        if y < side {
            out.cells[y * side + (side - 1 - x)] = v;
        }
    }
    out
}

/// The pivot of the mirrored grid of side `side`: `[side − 1 − x, y]`.
pub fn mirror_pivot(pivot: [f64; 2], side: usize) -> [f64; 2] {
    [side as f64 - 1.0 - pivot[0], pivot[1]]
}

/// The state of the mirrored tumo that mirrors state `i` of `states`: `(states − i) mod
/// states` (a mirror turns clockwise into counter-clockwise, so the cycle runs backwards:
/// for 4 states 0↔0, 1↔3, 2↔2; for 2 states each state is its own). States beyond the count
/// map to themselves.
pub fn mirror_state(i: usize, states: usize) -> usize {
    if i < states { (states - i) % states } else { i }
}

/// The rotation states of the mirrored tumo (the editor's **mirror**: S from Z, J from L):
/// state [`mirror_state`]`(i)` is [`mirror`]`(states[i])`, so that `CW` still turns the new
/// tumo clockwise on screen. For swap-rotation tumos (not a geometric turn) this reverses
/// the label cycle.
pub fn mirror_states(states: &[ShapeGrid]) -> Vec<ShapeGrid> {
    let n = states.len();
    (0..n)
        .map(|j| mirror(&states[mirror_state(j, n)]))
        .collect()
}

/// The kick table of the mirrored tumo ([`mirror_states`]): the list of `i>j` becomes the
/// list of `m(i)>m(j)`, `m` = [`mirror_state`], with every `dx` negated (`dy` kept).
///
/// The SRS JLSTZ table is its own mirror (that is why J, L, S, Z and T can share it:
/// mirrored J is L, mirrored S is Z). The SRS I table is **not** its own mirror (the
/// guideline I kicks are left-right asymmetric), and neither is the NullpoMino 180° table,
/// which tries right before left.
pub fn mirror_kicks(kicks: &Kicks, states: usize) -> Kicks {
    match kicks {
        Kicks::None => Kicks::None,
        Kicks::Table(t) => Kicks::Table(
            t.iter()
                .map(|(&(i, j), list)| {
                    (
                        (mirror_state(i, states), mirror_state(j, states)),
                        list.iter()
                            .map(|&(dx, dy)| (dx.saturating_neg(), dy))
                            .collect(),
                    )
                })
                .collect(),
        ),
    }
}

/// Swap rotation (Columns, spec §3.2 and A1): the labels trade places instead of turning.
/// With the labelled cells (`n > 0`) of `first` at positions `p₁ … p_k` in reading order
/// holding labels `L₁ … L_k`, state `s` (0 ≤ s < k) holds at `p_i` the label
/// `L_((i − s) mod k)`: each forward turn moves every label to the next position and the last
/// to the first. `[[1],[2],[3]]` gives `[[1],[2],[3]]`, `[[3],[1],[2]]`, `[[2],[3],[1]]`.
/// `-1` cells stay where they are. Returns `k` states (`first` alone when `k ≤ 1`); more
/// than [`super::level::MAX_STATES`] is more than a level accepts, which the caller checks.
pub fn swap_rotation(first: &ShapeGrid) -> Vec<ShapeGrid> {
    let positions: Vec<usize> = first
        .cells
        .iter()
        .enumerate()
        .filter(|(_, v)| **v > 0)
        .map(|(i, _)| i)
        .collect();
    let k = positions.len();
    if k <= 1 {
        return vec![first.clone()];
    }
    let labels: Vec<i8> = positions.iter().map(|&p| first.cells[p]).collect();
    (0..k)
        .map(|s| {
            let mut g = first.clone();
            for (i, &p) in positions.iter().enumerate() {
                g.cells[p] = labels[(i + k - s) % k];
            }
            g
        })
        .collect()
}

/// "Mirror for the reverse direction": for every entry `i>j` whose reverse `j>i` is
/// missing, adds `j>i` with every offset negated (undoing a kick by the opposite kick).
/// Existing entries are kept as they are. [`Kicks::None`] stays `None`.
pub fn reverse_kicks(kicks: &Kicks) -> Kicks {
    match kicks {
        Kicks::None => Kicks::None,
        Kicks::Table(t) => {
            let mut out = t.clone();
            for (&(i, j), list) in t {
                out.entry((j, i)).or_insert_with(|| {
                    list.iter()
                        .map(|&(dx, dy)| (dx.saturating_neg(), dy.saturating_neg()))
                        .collect()
                });
            }
            Kicks::Table(out)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Presets: the SRS tables in this engine's convention.
//
// Convention: y down; the offsets move the grid's top-left cell; the tetrominoes sit in the
// guideline boxes (JLSTZ 3×3 turning about the centre cell [1, 1], I 4×4 and O 2×2 turning
// about the box centre), states 0 = spawn, 1 = right (after CW), 2 = reverse, 3 = left. The
// tables are the published SRS tables (tetris.wiki "SRS") with dy negated; the test
// `tests/tests/falling_srs.rs` derives them from the corpus and checks they are equal.

/// The SRS kick table of J, L, S, T and Z (all 8 pairs `0>1`, `1>0`, `1>2`, `2>1`, `2>3`,
/// `3>2`, `3>0`, `0>3`), y down, for their 3×3 guideline states ([`tetromino_states`]).
pub fn srs_jlstz() -> Kicks {
    // Per state "offset" lists; kick i>j = a[i] − a[j]. Right (1) and left (3) differ.
    const A: [(i32, i32); 5] = [(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)];
    const L: [(i32, i32); 5] = [(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)];
    let neg = |v: &[(i32, i32); 5]| v.map(|(x, y)| (-x, -y));
    Kicks::from_rows(&[
        (0, 1, &neg(&A)),
        (1, 0, &A),
        (1, 2, &A),
        (2, 1, &neg(&A)),
        (2, 3, &neg(&L)),
        (3, 2, &L),
        (3, 0, &L),
        (0, 3, &neg(&L)),
    ])
}

/// The SRS kick table of I (all 8 cw/ccw pairs), y down, for its 4×4 guideline states
/// turning about the box centre `[1.5, 1.5]` (first test of every pair `[0, 0]`).
pub fn srs_i() -> Kicks {
    Kicks::from_rows(&[
        (0, 1, &[(0, 0), (-2, 0), (1, 0), (-2, 1), (1, -2)]),
        (1, 0, &[(0, 0), (2, 0), (-1, 0), (2, -1), (-1, 2)]),
        (1, 2, &[(0, 0), (-1, 0), (2, 0), (-1, -2), (2, 1)]),
        (2, 1, &[(0, 0), (1, 0), (-2, 0), (1, 2), (-2, -1)]),
        (2, 3, &[(0, 0), (2, 0), (-1, 0), (2, -1), (-1, 2)]),
        (3, 2, &[(0, 0), (-2, 0), (1, 0), (-2, 1), (1, -2)]),
        (3, 0, &[(0, 0), (1, 0), (-2, 0), (1, 2), (-2, -1)]),
        (0, 3, &[(0, 0), (-1, 0), (2, 0), (-1, -2), (2, 1)]),
    ])
}

/// The SRS kick table of O (all 8 cw/ccw pairs, each only `[0, 0]`): its four states are
/// the same 2×2 square, so a turn never moves it.
pub fn srs_o() -> Kicks {
    const Z: [(i32, i32); 1] = [(0, 0)];
    Kicks::from_rows(&[
        (0, 1, &Z),
        (1, 0, &Z),
        (1, 2, &Z),
        (2, 1, &Z),
        (2, 3, &Z),
        (3, 2, &Z),
        (3, 0, &Z),
        (0, 3, &Z),
    ])
}

/// A 180° table for J, L, S, T and Z (pairs `0>2`, `2>0`, `1>3`, `3>1`, 12 tests each), y
/// down, in the 3×3 guideline boxes: NullpoMino's (`kicks/nullpomino180.properties` of
/// solution-finder, as in the corpus). Not part of the guideline. Combine with
/// [`srs_jlstz`] by [`Kicks::merged`].
pub fn kicks_180_jlstz() -> Kicks {
    Kicks::from_rows(&[
        (
            0,
            2,
            &[
                (0, 0),
                (1, 0),
                (2, 0),
                (1, 1),
                (2, 1),
                (-1, 0),
                (-2, 0),
                (-1, 1),
                (-2, 1),
                (0, -1),
                (3, 0),
                (-3, 0),
            ],
        ),
        (
            1,
            3,
            &[
                (0, 0),
                (0, 1),
                (0, 2),
                (-1, 1),
                (-1, 2),
                (0, -1),
                (0, -2),
                (-1, -1),
                (-1, -2),
                (1, 0),
                (0, 3),
                (0, -3),
            ],
        ),
        (
            2,
            0,
            &[
                (0, 0),
                (-1, 0),
                (-2, 0),
                (-1, -1),
                (-2, -1),
                (1, 0),
                (2, 0),
                (1, -1),
                (2, -1),
                (0, 1),
                (-3, 0),
                (3, 0),
            ],
        ),
        (
            3,
            1,
            &[
                (0, 0),
                (0, 1),
                (0, 2),
                (1, 1),
                (1, 2),
                (0, -1),
                (0, -2),
                (1, -1),
                (1, -2),
                (-1, 0),
                (0, 3),
                (0, -3),
            ],
        ),
    ])
}

/// NullpoMino's 180° table for I (pairs `0>2`, `2>0`, `1>3`, `3>1`, 6 tests each), y down,
/// for the 4×4 guideline states turning about `[1.5, 1.5]` (the corpus's reference-cell
/// correction taken out, so the first test is `[0, 0]`). Combine with [`srs_i`] by
/// [`Kicks::merged`].
pub fn kicks_180_i() -> Kicks {
    Kicks::from_rows(&[
        (0, 2, &[(0, 0), (-1, 0), (-2, 0), (1, 0), (2, 0), (0, 1)]),
        (1, 3, &[(0, 0), (0, 1), (0, 2), (0, -1), (0, -2), (-1, 0)]),
        (2, 0, &[(0, 0), (1, 0), (2, 0), (-1, 0), (-2, 0), (0, -1)]),
        (3, 1, &[(0, 0), (0, 1), (0, 2), (0, -1), (0, -2), (1, 0)]),
    ])
}

/// A grid from row strings, top first: `.` empty, `#` a `-1` block, a digit `1`–`9` that
/// label. Rows shorter than the side are padded with empty cells; characters beyond the
/// side are ignored.
fn grid_from_rows(rows: &[&str]) -> ShapeGrid {
    let side = rows.len();
    let mut g = ShapeGrid::new(side);
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.chars().take(side).enumerate() {
            g.cells[y * side + x] = match c {
                '#' => -1,
                d @ '1'..='9' => (d as u8 - b'0') as i8,
                _ => 0,
            };
        }
    }
    g
}

/// The four guideline rotation states (0 spawn, 1 right, 2 reverse, 3 left; `-1` cells) of
/// the tetromino `piece` (`I`, `O`, `T`, `S`, `Z`, `J`, `L`), made by [`auto_rotate`] from
/// the spawn state about [`tetromino_pivot`]. Boxes: I 4×4 (spawn in row 1), O 2×2, the
/// others 3×3 (spawn in rows 0–1). They go with [`srs_jlstz`], [`srs_i`] and [`srs_o`].
/// `None` for any other character.
pub fn tetromino_states(piece: char) -> Option<Vec<ShapeGrid>> {
    let spawn: &[&str] = match piece {
        'I' => &["....", "####", "....", "...."],
        'O' => &["##", "##"],
        'T' => &[".#.", "###", "..."],
        'S' => &[".##", "##.", "..."],
        'Z' => &["##.", ".##", "..."],
        'J' => &["#..", "###", "..."],
        'L' => &["..#", "###", "..."],
        _ => return None,
    };
    auto_rotate(&grid_from_rows(spawn), tetromino_pivot(piece)?, 4).ok()
}

/// The pivot of [`tetromino_states`]: `[1, 1]` (the centre cell) for J, L, S, T, Z,
/// `[1.5, 1.5]` for I and `[0.5, 0.5]` for O (box centres, between cells). `None` for any
/// other character.
pub fn tetromino_pivot(piece: char) -> Option<[f64; 2]> {
    match piece {
        'I' => Some([1.5, 1.5]),
        'O' => Some([0.5, 0.5]),
        'T' | 'S' | 'Z' | 'J' | 'L' => Some([1.0, 1.0]),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A grid from row strings (see `grid_from_rows`).
    fn g(rows: &[&str]) -> ShapeGrid {
        grid_from_rows(rows)
    }

    #[test]
    fn tests_default_to_zero_offset_when_no_table_or_no_pair() {
        assert_eq!(Kicks::None.tests(0, 1), vec![(0, 0)]);
        let k = Kicks::from_rows(&[(0, 1, &[(0, 0), (-1, 0)]), (2, 0, &[])]);
        assert_eq!(k.tests(0, 1), vec![(0, 0), (-1, 0)]);
        assert_eq!(
            k.tests(1, 0),
            vec![(0, 0)],
            "a missing pair tries only [0, 0]"
        );
        assert!(k.tests(2, 0).is_empty(), "an empty list tests nothing");
    }

    #[test]
    fn target_state_steps_by_turn_modulo_the_count() {
        assert_eq!(target_state(4, 0, Turn::Cw), 1);
        assert_eq!(target_state(4, 3, Turn::Cw), 0);
        assert_eq!(target_state(4, 0, Turn::Ccw), 3);
        assert_eq!(target_state(4, 2, Turn::Ccw), 1);
        assert_eq!(target_state(4, 1, Turn::Half), 3);
        assert_eq!(target_state(4, 3, Turn::Half), 1);
        for t in [Turn::Cw, Turn::Ccw, Turn::Half] {
            assert_eq!(target_state(1, 0, t), 0, "one state: every turn stays");
        }
        assert_eq!(target_state(2, 0, Turn::Cw), 1);
        assert_eq!(target_state(2, 0, Turn::Ccw), 1);
        assert_eq!(target_state(2, 1, Turn::Half), 1);
        assert_eq!(target_state(3, 2, Turn::Half), 1);
        assert_eq!(target_state(3, 0, Turn::Ccw), 2);
        assert_eq!(target_state(0, 5, Turn::Cw), 5);
    }

    /// A field from rows, top first: `.` free, anything else blocked, outside blocked.
    fn field(rows: &'static [&'static str]) -> impl Fn(i32, i32) -> bool {
        move |x, y| {
            usize::try_from(y)
                .ok()
                .and_then(|y| rows.get(y))
                .and_then(|r| usize::try_from(x).ok().and_then(|x| r.as_bytes().get(x)))
                .is_some_and(|c| *c == b'.')
        }
    }

    #[test]
    fn try_turn_stops_at_the_first_offset_that_fits() {
        // A vertical domino in a 2×2 box turns into a horizontal one.
        let states = vec![g(&["#.", "#."]), g(&["##", ".."])];
        let kicks = Kicks::from_rows(&[(0, 1, &[(0, 0), (-1, 0), (0, 1), (-1, 1)])]);
        // Grid at (2, 0) in a 4-wide field: the horizontal state at offset (0,0) covers
        // (2,0),(3,0): (3,0) is blocked; at (-1,0) it covers (1,0),(2,0): (1,0) is blocked;
        // at (0,1) it covers (2,1),(3,1): free. The fourth offset is never tried.
        let free = field(&["##.#", "....", "...."]);
        let r = try_turn(&states, &kicks, 0, (2, 0), Turn::Cw, &free);
        assert_eq!(r.to_state, 1);
        assert_eq!(r.success, Some(2));
        let offs: Vec<_> = r.trials.iter().map(|t| t.offset).collect();
        assert_eq!(
            offs,
            vec![(0, 0), (-1, 0), (0, 1)],
            "stops at the first fit"
        );
        assert_eq!(r.trials[0].cells, vec![(2, 0), (3, 0)]);
        assert_eq!(r.trials[1].cells, vec![(1, 0), (2, 0)]);
        assert_eq!(r.trials[2].cells, vec![(2, 1), (3, 1)]);
        assert_eq!(
            r.trials.iter().map(|t| t.fits).collect::<Vec<_>>(),
            vec![false, false, true]
        );
    }

    #[test]
    fn try_turn_fails_after_every_offset_and_guards_bad_states() {
        let states = vec![g(&["#.", "#."]), g(&["##", ".."])];
        let kicks = Kicks::from_rows(&[(0, 1, &[(0, 0), (5, 5)])]);
        let nothing_free = |_: i32, _: i32| false;
        let r = try_turn(&states, &kicks, 0, (0, 0), Turn::Cw, &nothing_free);
        assert_eq!(r.success, None);
        assert_eq!(r.trials.len(), 2);
        assert!(r.trials.iter().all(|t| !t.fits));
        // Out-of-range state, no states, huge offsets: no panic.
        let r = try_turn(&states, &kicks, 7, (0, 0), Turn::Cw, &|_, _| true);
        assert!(r.trials.is_empty() && r.success.is_none());
        let r = try_turn(&[], &kicks, 0, (0, 0), Turn::Cw, &|_, _| true);
        assert!(r.trials.is_empty() && r.success.is_none());
        let far = Kicks::from_rows(&[(0, 1, &[(i32::MAX, i32::MIN)])]);
        let r = try_turn(&states, &far, 0, (i32::MAX, 0), Turn::Cw, &|x, _| x < 100);
        assert_eq!(r.success, None);
    }

    #[test]
    fn rotate_about_a_cell_centre_is_the_puyo_pair() {
        // Spec §8.1: block 2 is the axis, block 1 goes up → right → down → left.
        let r0 = g(&[".1.", ".2.", "..."]);
        let expect = [
            g(&["...", ".21", "..."]),
            g(&["...", ".2.", ".1."]),
            g(&["...", "12.", "..."]),
        ];
        for (k, e) in expect.iter().enumerate() {
            assert_eq!(&rotate_about(&r0, [1.0, 1.0], k as u8 + 1).unwrap(), e);
        }
        assert_eq!(rotate_about(&r0, [1.0, 1.0], 4).unwrap(), r0);
    }

    #[test]
    fn rotate_about_a_cell_corner_is_the_panic_bomber_pair() {
        // Spec §3.2 illustration: A B / . .  →  . A / . B  →  . . / B A  →  B . / A .
        let r0 = g(&["12", ".."]);
        let got = auto_rotate(&r0, [0.5, 0.5], 4).unwrap();
        assert_eq!(
            got,
            vec![
                r0.clone(),
                g(&[".1", ".2"]),
                g(&["..", "21"]),
                g(&["2.", "1."])
            ]
        );
    }

    #[test]
    fn auto_rotate_makes_the_papers_tetris_t() {
        // Spec §8.2: the T in a 4×4 box turning about the cell at column 1, row 2.
        let r0 = g(&["....", ".#..", "###.", "...."]);
        let got = auto_rotate(&r0, [1.0, 2.0], 4).unwrap();
        assert_eq!(got[1], g(&["....", ".#..", ".##.", ".#.."]));
        assert_eq!(got[2], g(&["....", "....", "###.", ".#.."]));
        assert_eq!(got[3], g(&["....", ".#..", "##..", ".#.."]));
    }

    #[test]
    fn auto_rotate_two_states_is_the_classic_z() {
        // Spec §3.2: the 2-state Z is r0 and r1 of the 4-state one.
        let r0 = g(&["##.", ".##", "..."]);
        let got = auto_rotate(&r0, [1.0, 1.0], 2).unwrap();
        assert_eq!(got, vec![r0.clone(), g(&["..#", ".##", ".#."])]);
        assert_eq!(
            auto_rotate(&r0, [1.0, 1.0], 3),
            Err(ShapeError::StateCount(3))
        );
    }

    #[test]
    fn rotate_about_refuses_bad_pivots_and_cells_leaving_the_grid() {
        let t = g(&[".#.", "###", "..."]);
        for p in [
            [0.25, 1.0],
            [1.0, f64::NAN],
            [f64::INFINITY, 0.0],
            [1e9, 1.0],
        ] {
            assert!(matches!(
                rotate_about(&t, p, 1),
                Err(ShapeError::PivotOffGrid { .. })
            ));
        }
        assert!(matches!(
            rotate_about(&t, [1.0, 0.5], 1),
            Err(ShapeError::PivotOnEdge { .. })
        ));
        assert!(matches!(
            rotate_about(&t, [1.0, 0.5], 3),
            Err(ShapeError::PivotOnEdge { .. })
        ));
        // A half turn about a corner: (0,0) → (1,1), (0,1) → (1,0), (1,1) → (0,0).
        assert_eq!(
            rotate_about(&g(&["#..", "##.", "..."]), [0.5, 0.5], 2).unwrap(),
            g(&["##.", ".#.", "..."])
        );
        // A half turn about an edge midpoint stays on cells: (1,0) → (1,1).
        assert_eq!(
            rotate_about(&g(&[".#.", "...", "..."]), [1.0, 0.5], 2).unwrap(),
            g(&["...", ".#.", "..."])
        );
        // About the top-left cell, the T's cell (1,0) goes to (0,1) but (0,1) to (−1,0).
        let e = rotate_about(&t, [0.0, 0.0], 1).unwrap_err();
        assert_eq!(
            e,
            ShapeError::OffGrid {
                x: 0,
                y: 1,
                to: (-1, 0),
                side: 3
            }
        );
        assert!(e.to_string().contains("cell (0, 1)"));
    }

    #[test]
    fn mirror_makes_s_from_z_and_j_from_l() {
        let z = tetromino_states('Z').unwrap();
        let s = tetromino_states('S').unwrap();
        let l = tetromino_states('L').unwrap();
        let j = tetromino_states('J').unwrap();
        assert_eq!(mirror(&z[0]), s[0]);
        assert_eq!(
            mirror(&z[1]),
            s[3],
            "a mirrored clockwise turn is counter-clockwise"
        );
        assert_eq!(mirror_states(&z), s);
        assert_eq!(mirror_states(&s), z);
        assert_eq!(mirror_states(&l), j);
        assert_eq!(mirror_states(&j), l);
        assert_eq!(mirror(&mirror(&z[1])), z[1]);
        assert_eq!(mirror_pivot([1.0, 1.0], 3), [1.0, 1.0]);
        assert_eq!(mirror_pivot([0.0, 2.0], 4), [3.0, 2.0]);
        assert_eq!(mirror_pivot([1.5, 0.5], 4), [1.5, 0.5]);
        assert_eq!(mirror_state(1, 4), 3);
        assert_eq!(mirror_state(2, 4), 2);
        assert_eq!(mirror_state(1, 2), 1);
    }

    #[test]
    fn mirroring_the_srs_jlstz_table_gives_it_back_but_not_i_or_180() {
        assert_eq!(mirror_kicks(&srs_jlstz(), 4), srs_jlstz());
        assert_ne!(mirror_kicks(&srs_i(), 4), srs_i());
        assert_ne!(mirror_kicks(&kicks_180_jlstz(), 4), kicks_180_jlstz());
        assert_eq!(mirror_kicks(&srs_o(), 4), srs_o());
        // The mapping itself: 0>1 (dx negated) becomes 0>3.
        let k = Kicks::from_rows(&[(0, 1, &[(0, 0), (-1, 2)]), (3, 2, &[(4, 5)])]);
        assert_eq!(
            mirror_kicks(&k, 4),
            Kicks::from_rows(&[(0, 3, &[(0, 0), (1, 2)]), (1, 2, &[(-4, 5)])])
        );
        assert_eq!(mirror_kicks(&Kicks::None, 4), Kicks::None);
    }

    #[test]
    fn swap_rotation_is_the_columns_cycle() {
        // The example, as a column of a 3×3 grid.
        let first = g(&[".1.", ".2.", ".3."]);
        assert_eq!(
            swap_rotation(&first),
            vec![
                first.clone(),
                g(&[".3.", ".1.", ".2."]),
                g(&[".2.", ".3.", ".1."])
            ]
        );
        // Labels in reading order, whatever their values; -1 cells stay.
        let mixed = g(&["5#", "2."]);
        assert_eq!(swap_rotation(&mixed), vec![mixed.clone(), g(&["2#", "5."])]);
        let one = g(&["1#", ".."]);
        assert_eq!(swap_rotation(&one), vec![one.clone()]);
    }

    #[test]
    fn reverse_kicks_fills_only_missing_reverse_pairs() {
        let k = Kicks::from_rows(&[
            (0, 1, &[(0, 0), (-1, 2)]),
            (1, 2, &[(1, 1)]),
            (2, 1, &[(7, 7)]),
        ]);
        assert_eq!(
            reverse_kicks(&k),
            Kicks::from_rows(&[
                (0, 1, &[(0, 0), (-1, 2)]),
                (1, 0, &[(0, 0), (1, -2)]),
                (1, 2, &[(1, 1)]),
                (2, 1, &[(7, 7)]),
            ])
        );
        assert_eq!(reverse_kicks(&Kicks::None), Kicks::None);
        // The SRS tables are already complete, and each reverse list is the negation.
        assert_eq!(reverse_kicks(&srs_jlstz()), srs_jlstz());
        let half = Kicks::from_rows(&[
            (0, 1, &srs_jlstz().tests(0, 1)),
            (1, 2, &srs_jlstz().tests(1, 2)),
            (2, 3, &srs_jlstz().tests(2, 3)),
            (3, 0, &srs_jlstz().tests(3, 0)),
        ]);
        assert_eq!(reverse_kicks(&half), srs_jlstz());
    }

    #[test]
    fn presets_cover_every_quarter_turn_and_start_at_zero() {
        let quarter = [
            (0, 1),
            (1, 0),
            (1, 2),
            (2, 1),
            (2, 3),
            (3, 2),
            (3, 0),
            (0, 3),
        ];
        for k in [srs_jlstz(), srs_i(), srs_o()] {
            let Kicks::Table(t) = &k else {
                panic!("a preset is a table")
            };
            assert_eq!(t.len(), 8);
            for (i, j) in quarter {
                assert_eq!(k.tests(i, j)[0], (0, 0), "{i}>{j}");
            }
        }
        let both = srs_jlstz().merged(&kicks_180_jlstz());
        assert_eq!(both.tests(0, 1), srs_jlstz().tests(0, 1));
        assert_eq!(both.tests(0, 2).len(), 12);
        assert_eq!(Kicks::None.merged(&Kicks::None), Kicks::None);
    }

    #[test]
    fn tetromino_z_is_the_spec_illustration() {
        // Spec §3.2, "Tetris Z piece, 4-state version".
        let z = tetromino_states('Z').unwrap();
        assert_eq!(
            z,
            vec![
                g(&["##.", ".##", "..."]),
                g(&["..#", ".##", ".#."]),
                g(&["...", "##.", ".##"]),
                g(&[".#.", "##.", "#.."]),
            ]
        );
        let i = tetromino_states('I').unwrap();
        assert_eq!(i[1], g(&["..#.", "..#.", "..#.", "..#."]));
        assert_eq!(i[3], g(&[".#..", ".#..", ".#..", ".#.."]));
        let o = tetromino_states('O').unwrap();
        assert!(o.iter().all(|s| *s == o[0]));
        assert!(tetromino_states('X').is_none());
    }
}

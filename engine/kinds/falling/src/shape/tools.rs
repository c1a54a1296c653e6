//! The shape tools of the editor: auto-rotate about a pivot, mirror, swap rotation, reverse
//! kicks.

use super::*;

/// Largest pivot coordinate the tools accept in absolute value; farther pivots can only
/// throw every cell off the grid, and the bound keeps the arithmetic exact.
pub(super) const PIVOT_LIMIT: f64 = 1.0e6;

/// The pivot in doubled coordinates (cell `(i, j)` at `(2i, 2j)`), checked to be a whole
/// number or a half on each axis.
pub(super) fn doubled_pivot(pivot: [f64; 2]) -> Result<(i64, i64), ShapeError> {
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
/// than [`crate::level::MAX_STATES`] is more than a level accepts, which the caller checks.
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

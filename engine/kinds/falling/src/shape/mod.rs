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
pub use tilesmith_core::input::Turn;

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

mod presets;
mod tools;

pub use presets::*;
pub use tools::*;

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

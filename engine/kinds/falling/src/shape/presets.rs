//! Presets: the SRS tables in this engine's convention.
//!
//! Convention: y down; the offsets move the grid's top-left cell; the tetrominoes sit in the
//! guideline boxes (JLSTZ 3×3 turning about the centre cell [1, 1], I 4×4 and O 2×2 turning
//! about the box centre), states 0 = spawn, 1 = right (after CW), 2 = reverse, 3 = left. The
//! tables are the published SRS tables (tetris.wiki "SRS") with dy negated; the test
//! `tests/tests/falling_srs.rs` derives them from the corpus and checks they are equal.

use super::*;

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
pub(super) fn grid_from_rows(rows: &[&str]) -> ShapeGrid {
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

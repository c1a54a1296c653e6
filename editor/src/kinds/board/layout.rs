//! Where each position of a board is drawn: a grid of display cells (the editor's map), built
//! from the positions' pixel rectangles in the ZRF (`start-rectangle` moved by each
//! dimension's offset, `rules::PositionDef::x` …).
//!
//! A square board (chess, checkers, Halma) is one display cell per square, with a margin
//! column on the left for the rank numbers and a margin row at the bottom for the file
//! letters. A hex-like board (Chinese checkers: ranks offset by half a position, `(-25 44)`)
//! puts its positions on a finer lattice, chosen so that display cells are nearly square and
//! the positions keep Zillions' arrangement: each position is drawn as a disc centred on its
//! cell, and the cells around it that hold no position are "holes". Positions removed by
//! `kill-positions` are holes too. When the pixel rectangles give no usable lattice (too
//! large, two positions in one cell), positions are placed at their `col`/`row`.
//!
//! Coordinates: display cells are [`Pos`] with `x` = column from the left and `y` = row from
//! the top, like the positions' pixels.

use tilesmith_engine::Pos;
use tilesmith_engine::kind::board::rules::{BoardShape, PosId};

/// The largest side of the display grid built from pixel rectangles (beyond it the
/// positions' `col`/`row` are used).
pub const MAX_DISPLAY_SIDE: usize = 160;

/// Where a board's positions are drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// Columns of the display grid (margins included).
    pub width: usize,
    /// Rows of the display grid (margins included).
    pub height: usize,
    /// `cell[pos]`: the display cell of each position.
    pub cell: Vec<Pos>,
    /// `at[y * width + x]`: the position drawn in each display cell.
    at: Vec<Option<PosId>>,
    /// True when every position is one square of a square lattice (drawn as squares); false
    /// for a hex-like board (drawn as discs).
    pub squares: bool,
    /// True when the squares are drawn light and dark (square boards of 6 × 6 and more).
    pub checkered: bool,
    /// `dark[pos]`: the position's square is a dark one (lattice column + row odd).
    pub dark: Vec<bool>,
    /// The diameter of a position's disc in cells (for a hex-like board).
    pub disc: f32,
    /// File labels, drawn in the margin row below the board: `(display column, text)`.
    pub files: Vec<(usize, String)>,
    /// Rank labels, drawn in the margin column left of the board: `(display row, text)`.
    pub ranks: Vec<(usize, String)>,
}

/// Positions on a lattice before margins: their cells, the lattice size, the drawing.
struct Lattice {
    cells: Vec<(usize, usize)>,
    squares: bool,
    disc: f32,
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The positions on the lattice of their pixel rectangles, or `None` when that lattice is too
/// large or puts two positions in one cell.
fn pixel_lattice(shape: &BoardShape) -> Option<Lattice> {
    let ps = &shape.positions;
    let xmin = ps.iter().map(|p| p.x).min()?;
    let ymin = ps.iter().map(|p| p.y).min()?;
    let step = |d: fn(&tilesmith_engine::kind::board::rules::PositionDef) -> (i32, i32), min| {
        let g = ps
            .iter()
            .fold(0u64, |g, p| gcd(g, (i64::from(d(p).0) - min) as u64));
        if g == 0 {
            // One line of positions: the rectangle's size is the step.
            ps.iter().map(|p| d(p).1.max(1) as u64).max().unwrap_or(1)
        } else {
            g
        }
    };
    let gx = step(|p| (p.x, p.w), i64::from(xmin)) as f64;
    let gy = step(|p| (p.y, p.h), i64::from(ymin)) as f64;
    // Split each lattice step into mx (my) display cells so that cells are nearly square.
    let (mut best, mut mx, mut my) = (f64::MAX, 1u32, 1u32);
    for a in 1..=3u32 {
        for b in 1..=3u32 {
            let cost =
                ((gx / f64::from(a)) / (gy / f64::from(b))).ln().abs() + 0.01 * f64::from(a * b);
            if cost < best {
                (best, mx, my) = (cost, a, b);
            }
        }
    }
    let mut cells = Vec::with_capacity(ps.len());
    for p in ps {
        let cx = ((f64::from(p.x) - f64::from(xmin)) / gx).round() as usize * mx as usize;
        let cy = ((f64::from(p.y) - f64::from(ymin)) / gy).round() as usize * my as usize;
        if cx >= MAX_DISPLAY_SIDE || cy >= MAX_DISPLAY_SIDE {
            return None;
        }
        cells.push((cx, cy));
    }
    let mut seen = std::collections::HashSet::new();
    if !cells.iter().all(|c| seen.insert(*c)) {
        return None;
    }
    let near_square = 4.0 * gx >= 3.0 * gy && 4.0 * gy >= 3.0 * gx;
    let squares = mx == 1 && my == 1 && near_square;
    let n = ps.len() as f64;
    let w = ps.iter().map(|p| f64::from(p.w.max(1))).sum::<f64>() / n;
    let h = ps.iter().map(|p| f64::from(p.h.max(1))).sum::<f64>() / n;
    let disc = ((w / gx * f64::from(mx)).min(h / gy * f64::from(my))) as f32;
    Some(Lattice {
        cells,
        squares,
        disc: disc.clamp(0.7, 1.8),
    })
}

/// The positions at their `col`/`row`.
fn grid_lattice(shape: &BoardShape) -> Lattice {
    Lattice {
        cells: shape
            .positions
            .iter()
            .map(|p| (usize::from(p.col), usize::from(p.row)))
            .collect(),
        squares: true,
        disc: 0.9,
    }
}

/// The letters a position name starts with and the digits it ends with (`a10` → `a`, `10`).
fn name_parts(name: &str) -> (&str, &str) {
    let letters = name
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(name.len());
    let digits = name
        .rfind(|c: char| !c.is_ascii_digit())
        .map_or(0, |i| i + 1);
    (&name[..letters], &name[digits.max(letters)..])
}

/// Labels of the lines of a square board: for each column (`by_col`) or row, the part of the
/// names of its positions they all share, when they share one.
fn labels(shape: &BoardShape, cells: &[(usize, usize)], by_col: bool) -> Vec<(usize, String)> {
    let mut found: std::collections::BTreeMap<usize, Option<String>> = Default::default();
    for (p, &(x, y)) in shape.positions.iter().zip(cells) {
        let (letters, digits) = name_parts(&p.name);
        let (line, part) = if by_col { (x, letters) } else { (y, digits) };
        let e = found.entry(line).or_insert_with(|| Some(part.to_string()));
        if e.as_deref() != Some(part) || part.is_empty() {
            *e = None;
        }
    }
    let out: Vec<(usize, String)> = found
        .into_iter()
        .filter_map(|(line, l)| l.map(|l| (line, l)))
        .collect();
    // Labels only when every line has its own.
    let lines = cells
        .iter()
        .map(|c| if by_col { c.0 } else { c.1 })
        .collect::<std::collections::HashSet<_>>()
        .len();
    if out.len() == lines { out } else { Vec::new() }
}

impl Layout {
    /// The layout of `shape`.
    pub fn new(shape: &BoardShape) -> Layout {
        if shape.positions.is_empty() {
            return Layout {
                width: 1,
                height: 1,
                cell: Vec::new(),
                at: vec![None],
                squares: true,
                checkered: false,
                dark: Vec::new(),
                disc: 0.9,
                files: Vec::new(),
                ranks: Vec::new(),
            };
        }
        let lat = pixel_lattice(shape).unwrap_or_else(|| grid_lattice(shape));
        let (mut files, ranks) = if lat.squares {
            (
                labels(shape, &lat.cells, true),
                labels(shape, &lat.cells, false),
            )
        } else {
            (Vec::new(), Vec::new())
        };
        // Square boards: a column for the ranks, a row for the files. Hex-like boards: a
        // cell all round, as their discs reach past their cells.
        let pad = usize::from(!lat.squares);
        let left = usize::from(!ranks.is_empty()).max(pad);
        let bottom = usize::from(!files.is_empty()).max(pad);
        let w = lat.cells.iter().map(|c| c.0).max().unwrap_or(0) + 1;
        let h = lat.cells.iter().map(|c| c.1).max().unwrap_or(0) + 1;
        let (width, height) = (w + left + pad, h + bottom + pad);
        let mut at = vec![None; width * height];
        let cell: Vec<Pos> = lat
            .cells
            .iter()
            .map(|&(x, y)| Pos::new(x + left, y + pad))
            .collect();
        for (i, c) in cell.iter().enumerate() {
            at[c.y * width + c.x] = Some(i as PosId);
        }
        for f in &mut files {
            f.0 += left;
        }
        let dark = lat.cells.iter().map(|&(x, y)| (x + y) % 2 == 1).collect();
        Layout {
            width,
            height,
            cell,
            at,
            squares: lat.squares,
            checkered: lat.squares && w >= 6 && h >= 6,
            dark,
            disc: lat.disc,
            files,
            ranks,
        }
    }

    /// The position drawn in display cell `p`, if any.
    pub fn at(&self, p: Pos) -> Option<PosId> {
        if p.x >= self.width {
            return None;
        }
        self.at.get(p.y * self.width + p.x).copied().flatten()
    }

    /// The position a click on display cell `p` means: the one drawn there, else (on a
    /// hex-like board, whose discs reach past their cell) the nearest one drawn in a
    /// neighbouring cell.
    pub fn snap(&self, p: Pos) -> Option<PosId> {
        if let Some(i) = self.at(p) {
            return Some(i);
        }
        if self.squares {
            return None;
        }
        let mut best: Option<(usize, PosId)> = None;
        for dy in -1i64..=1 {
            for dx in -1i64..=1 {
                let (x, y) = (p.x as i64 + dx, p.y as i64 + dy);
                if x < 0 || y < 0 {
                    continue;
                }
                if let Some(i) = self.at(Pos::new(x as usize, y as usize)) {
                    let d = (dx * dx + dy * dy) as usize;
                    if best.is_none_or(|(bd, _)| d < bd) {
                        best = Some((d, i));
                    }
                }
            }
        }
        best.map(|(_, i)| i)
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.cell.len()
    }

    /// True for a board without positions.
    pub fn is_empty(&self) -> bool {
        self.cell.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tilesmith_engine::kind::board::rules::PositionDef;

    fn shape(ps: &[(&str, i32, i32, i32, i32)]) -> BoardShape {
        BoardShape {
            positions: ps
                .iter()
                .map(|&(name, x, y, w, h)| PositionDef {
                    name: name.into(),
                    x,
                    y,
                    w,
                    h,
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        }
    }

    #[test]
    fn a_square_board_is_one_cell_per_square_with_coordinate_margins() {
        // A 2 × 2 board, 50-pixel squares: a2 b2 on top, a1 b1 below.
        let s = shape(&[
            ("a2", 2, 2, 50, 50),
            ("b2", 52, 2, 50, 50),
            ("a1", 2, 52, 50, 50),
            ("b1", 52, 52, 50, 50),
        ]);
        let l = Layout::new(&s);
        assert!(l.squares);
        assert_eq!((l.width, l.height), (3, 3), "a rank column and a file row");
        assert_eq!(l.cell[0], Pos::new(1, 0));
        assert_eq!(l.cell[3], Pos::new(2, 1));
        assert_eq!(l.at(Pos::new(2, 1)), Some(3));
        assert_eq!(l.at(Pos::new(0, 0)), None, "the margin holds no position");
        assert_eq!(l.files, [(1, "a".to_string()), (2, "b".to_string())]);
        assert_eq!(l.ranks, [(0, "2".to_string()), (1, "1".to_string())]);
        // a1 is dark as on a chess board (lattice column 0 + row 1 is odd).
        assert!(l.dark[2] && !l.dark[0]);
    }

    #[test]
    fn a_hex_board_keeps_the_half_offset_of_its_ranks() {
        // Two ranks of Chinese checkers: files 50 apart, the lower rank 25 to the left and 44
        // down (pixel rectangles 30 wide). Display cells 25 × 22: files two cells apart, ranks
        // two rows apart, the lower rank one cell to the left.
        let s = shape(&[
            ("e13", 113, 8, 30, 30),
            ("f13", 163, 8, 30, 30),
            ("e12", 88, 52, 30, 30),
        ]);
        let l = Layout::new(&s);
        assert!(!l.squares);
        // A cell of margin all round (the discs reach past their cells).
        assert_eq!(l.cell, [Pos::new(2, 1), Pos::new(4, 1), Pos::new(1, 3)]);
        assert_eq!((l.width, l.height), (6, 5));
        assert!(l.files.is_empty() && l.ranks.is_empty());
        // A click next to a disc finds it; a click far from any does not.
        assert_eq!(l.snap(Pos::new(2, 2)), Some(0));
        assert_eq!(
            l.snap(Pos::new(1, 2)),
            Some(2),
            "straight down beats diagonal"
        );
        assert_eq!(l.snap(Pos::new(5, 4)), None);
        assert!(
            (l.disc - 1.2).abs() < 1e-3,
            "30 px of a 25 px cell: {}",
            l.disc
        );
    }

    #[test]
    fn killed_positions_are_holes() {
        let s = shape(&[("a2", 0, 0, 10, 10), ("b1", 10, 10, 10, 10)]);
        let l = Layout::new(&s);
        assert!(l.squares);
        assert_eq!(l.at(Pos::new(2, 0)), None);
        assert_eq!(l.snap(Pos::new(2, 0)), None, "square boards do not snap");
    }
}

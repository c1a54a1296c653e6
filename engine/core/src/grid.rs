//! Grid geometry shared by every game kind.
//!
//! Coordinates: `x` is the column counted from the left, `y` is the row counted from the top,
//! both starting at 0. A [`Grid`] stores cells row-major, exactly like the level files' `map`
//! (`map[y][x]`).

use serde::{Deserialize, Serialize};

/// A cell position: `x` = column from the left, `y` = row from the top (both 0-based).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default,
)]
pub struct Pos {
    /// Column, counted from the left edge, 0-based.
    pub x: usize,
    /// Row, counted from the top edge, 0-based.
    pub y: usize,
}

impl Pos {
    /// Makes a position from a column `x` and a row `y`.
    pub const fn new(x: usize, y: usize) -> Self {
        Self { x, y }
    }

    /// The neighbouring position one step in `dir`, or `None` when it would leave a map of
    /// `width` × `height` cells.
    pub fn step(self, dir: Dir, width: usize, height: usize) -> Option<Pos> {
        let (dx, dy) = dir.delta();
        let x = self.x as isize + dx;
        let y = self.y as isize + dy;
        if x < 0 || y < 0 || x as usize >= width || y as usize >= height {
            None
        } else {
            Some(Pos::new(x as usize, y as usize))
        }
    }
}

/// One of the four orthogonal directions.
///
/// The discriminants are the `direction` values of the boulder spec (§4.3, §6 V3):
/// 1 = right = east, 2 = up = north, 3 = left = west, 4 = down = south.
/// "Up" decreases `y`; "right" increases `x`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[repr(u8)]
pub enum Dir {
    /// x + 1 (east, `direction` 1).
    Right = 1,
    /// y − 1 (north, `direction` 2).
    Up = 2,
    /// x − 1 (west, `direction` 3).
    Left = 3,
    /// y + 1 (south, `direction` 4).
    Down = 4,
}

impl Dir {
    /// All four directions in `direction`-value order: right, up, left, down.
    pub const ALL: [Dir; 4] = [Dir::Right, Dir::Up, Dir::Left, Dir::Down];

    /// `(dx, dy)` of one step: right is `(1, 0)`, up is `(0, -1)`.
    pub const fn delta(self) -> (isize, isize) {
        match self {
            Dir::Right => (1, 0),
            Dir::Up => (0, -1),
            Dir::Left => (-1, 0),
            Dir::Down => (0, 1),
        }
    }

    /// The `direction` value 1–4 (spec boulder §4.3).
    pub const fn value(self) -> u32 {
        self as u32
    }

    /// The direction for a `direction` value 1–4, `None` for anything else.
    pub const fn from_value(v: u32) -> Option<Dir> {
        match v {
            1 => Some(Dir::Right),
            2 => Some(Dir::Up),
            3 => Some(Dir::Left),
            4 => Some(Dir::Down),
            _ => None,
        }
    }

    /// The opposite direction.
    pub const fn reverse(self) -> Dir {
        match self {
            Dir::Right => Dir::Left,
            Dir::Up => Dir::Down,
            Dir::Left => Dir::Right,
            Dir::Down => Dir::Up,
        }
    }

    /// A quarter turn to the left (counter-clockwise as seen on screen): right → up → left → down.
    pub const fn turn_left(self) -> Dir {
        match self {
            Dir::Right => Dir::Up,
            Dir::Up => Dir::Left,
            Dir::Left => Dir::Down,
            Dir::Down => Dir::Right,
        }
    }

    /// A quarter turn to the right (clockwise as seen on screen): right → down → left → up.
    pub const fn turn_right(self) -> Dir {
        self.turn_left().reverse()
    }

    /// True for left and right.
    pub const fn is_horizontal(self) -> bool {
        matches!(self, Dir::Left | Dir::Right)
    }

    /// The compass name used by rule `direction` fields: `east`, `north`, `west`, `south`.
    pub const fn compass(self) -> &'static str {
        match self {
            Dir::Right => "east",
            Dir::Up => "north",
            Dir::Left => "west",
            Dir::Down => "south",
        }
    }

    /// The input name used by situations and the CLI: `right`, `up`, `left`, `down`.
    pub const fn name(self) -> &'static str {
        match self {
            Dir::Right => "right",
            Dir::Up => "up",
            Dir::Left => "left",
            Dir::Down => "down",
        }
    }
}

/// A rectangular, row-major grid of `width` × `height` cells (`cells[y * width + x]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid<T> {
    width: usize,
    height: usize,
    cells: Vec<T>,
}

impl<T: Clone> Grid<T> {
    /// A grid of `width` × `height` copies of `fill`.
    pub fn new(width: usize, height: usize, fill: T) -> Self {
        Self {
            width,
            height,
            cells: vec![fill; width * height],
        }
    }
}

impl<T> Grid<T> {
    /// Builds a grid from row-major cells. Returns `None` when `cells.len() != width * height`.
    pub fn from_vec(width: usize, height: usize, cells: Vec<T>) -> Option<Self> {
        (width.checked_mul(height) == Some(cells.len())).then_some(Self {
            width,
            height,
            cells,
        })
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// True when `pos` lies inside the grid.
    pub fn contains(&self, pos: Pos) -> bool {
        pos.x < self.width && pos.y < self.height
    }

    /// The row-major index of `pos` (no bounds check beyond debug builds).
    pub fn index(&self, pos: Pos) -> usize {
        debug_assert!(self.contains(pos));
        pos.y * self.width + pos.x
    }

    /// The position of row-major index `i`.
    pub fn pos(&self, i: usize) -> Pos {
        Pos::new(i % self.width, i / self.width)
    }

    /// The cell at `pos`, or `None` outside the grid.
    pub fn get(&self, pos: Pos) -> Option<&T> {
        self.contains(pos)
            .then(|| &self.cells[pos.y * self.width + pos.x])
    }

    /// The cell at `pos` mutably, or `None` outside the grid.
    pub fn get_mut(&mut self, pos: Pos) -> Option<&mut T> {
        if self.contains(pos) {
            let w = self.width;
            Some(&mut self.cells[pos.y * w + pos.x])
        } else {
            None
        }
    }

    /// All cells, row-major.
    pub fn cells(&self) -> &[T] {
        &self.cells
    }

    /// All cells mutably, row-major.
    pub fn cells_mut(&mut self) -> &mut [T] {
        &mut self.cells
    }

    /// Row `y` as a slice (left to right).
    pub fn row(&self, y: usize) -> &[T] {
        &self.cells[y * self.width..(y + 1) * self.width]
    }

    /// Iterates over `(pos, cell)` row-major.
    pub fn iter(&self) -> impl Iterator<Item = (Pos, &T)> {
        let w = self.width.max(1);
        self.cells
            .iter()
            .enumerate()
            .map(move |(i, c)| (Pos::new(i % w, i / w), c))
    }

    /// Consumes the grid, giving its row-major cells.
    pub fn into_vec(self) -> Vec<T> {
        self.cells
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns_follow_screen_orientation() {
        assert_eq!(Dir::Right.turn_left(), Dir::Up);
        assert_eq!(Dir::Up.turn_left(), Dir::Left);
        assert_eq!(Dir::Right.turn_right(), Dir::Down);
        assert_eq!(Dir::Down.turn_right(), Dir::Left);
        for d in Dir::ALL {
            assert_eq!(d.turn_left().turn_right(), d);
            assert_eq!(Dir::from_value(d.value()), Some(d));
        }
    }

    #[test]
    fn steps_stay_inside() {
        assert_eq!(Pos::new(0, 0).step(Dir::Up, 3, 3), None);
        assert_eq!(Pos::new(0, 0).step(Dir::Left, 3, 3), None);
        assert_eq!(Pos::new(2, 2).step(Dir::Right, 3, 3), None);
        assert_eq!(Pos::new(1, 1).step(Dir::Down, 3, 3), Some(Pos::new(1, 2)));
    }
}

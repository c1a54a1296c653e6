//! A falling-block game's geometry: where the active tumo's blocks lie, which cells are
//! free, whether a place fits and how far a tumo can drop.

use super::*;

impl FallingGame {
    pub(super) fn role_at(&self, i: usize) -> Role {
        self.level.role(self.field.cells[i])
    }

    /// The field cells the blocks of `p` cover, `(x, y, kind)`, in grid order. Cells outside
    /// the field are left out (a placed tumo always lies inside).
    pub(super) fn cells_of(&self, p: Place, labels: &[BlockId]) -> Vec<(usize, usize, BlockId)> {
        let Some(t) = self.level.tumos.get(p.tumo) else {
            return Vec::new();
        };
        let Some(g) = t.states.get(p.state) else {
            return Vec::new();
        };
        g.blocks()
            .filter_map(|(bx, by, v)| {
                let x = p.x as i64 + bx as i64;
                let y = p.y as i64 + by as i64;
                if x < 0 || y < 0 || x >= self.field.width as i64 || y >= self.field.height as i64 {
                    return None;
                }
                let kind = if v < 0 {
                    t.block
                } else {
                    labels.get(v as usize - 1).copied().unwrap_or(t.block)
                };
                Some((x as usize, y as usize, kind))
            })
            .collect()
    }

    /// A cell that can hold a block of the active tumo: an empty field cell, or a cell of the
    /// buffer zone above the field (inside its columns, at most [`BUFFER_ROWS`] rows above
    /// row 0), which is always empty. Below the floor and beside the walls nothing fits.
    pub(super) fn free(&self, x: i64, y: i64) -> bool {
        let buffer = BUFFER_ROWS as i64;
        if x < 0 || x as usize >= self.field.width || y < -buffer {
            return false;
        }
        y < 0
            || ((y as usize) < self.field.height
                && self.field.cells[y as usize * self.field.width + x as usize] == EMPTY)
    }

    /// Whether tumo place `p` fits: every block on a [free](Self::free) cell.
    pub(super) fn fits(&self, p: Place) -> bool {
        let Some(g) = self.shapes.get(p.tumo).and_then(|t| t.get(p.state)) else {
            return false;
        };
        g.iter()
            .all(|&(bx, by)| self.free(i64::from(p.x + bx), i64::from(p.y + by)))
    }

    /// Whether `p` can fall one cell (it does not rest on anything).
    pub(super) fn can_fall(&self, p: Place) -> bool {
        self.fits(Place { y: p.y + 1, ..p })
    }

    /// How many cells `p` can fall before it rests.
    pub(super) fn drop_distance(&self, p: Place) -> i32 {
        let mut d = 0;
        let most = (self.field.height + BUFFER_ROWS + MAX_GRID) as i32;
        while d <= most
            && self.fits(Place {
                y: p.y + d + 1,
                ..p
            })
        {
            d += 1;
        }
        d
    }
}

/// [`FallingGame::cells_of`] without borrowing the game.
pub(super) fn cells_of_free(
    tumos: &[crate::level::Tumo],
    field: &Field,
    p: Place,
    labels: &[BlockId],
) -> Vec<(usize, usize, BlockId)> {
    let Some(t) = tumos.get(p.tumo) else {
        return Vec::new();
    };
    let Some(g) = t.states.get(p.state) else {
        return Vec::new();
    };
    g.blocks()
        .filter_map(|(bx, by, v)| {
            let x = p.x as i64 + bx as i64;
            let y = p.y as i64 + by as i64;
            if x < 0 || y < 0 || x >= field.width as i64 || y >= field.height as i64 {
                return None;
            }
            let kind = if v < 0 {
                t.block
            } else {
                labels.get(v as usize - 1).copied().unwrap_or(t.block)
            };
            Some((x as usize, y as usize, kind))
        })
        .collect()
}

//! The live boulder map: tokens and values stored column-wise (one array per value), with
//! per-row and per-column token summaries and a journal of what each tick changed.
//!
//! Layout: `tokens[i]` and `vals[k][i]` for row-major index `i = y * width + x`. The summaries
//! (`row_mask`, `col_mask`, counts) let rule matching skip lines that lack a needed token. The
//! journal keeps the old contents of every field the first time it changes in a tick, which is
//! both the undo patch (memory grows with the cells changed, not the map size) and the
//! "changed cells" of the step report.

use super::level::Cell;
use super::token::{TOKEN_COUNT, Token, TokenSet, VALUE_COUNT, ValueKey, Values};
use crate::grid::{Grid, Pos};

/// The old contents of one field, as recorded by the journal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Saved {
    /// Row-major index of the field.
    pub index: u32,
    /// The field's contents.
    pub cell: Cell,
}

/// The live map of a boulder game.
#[derive(Clone, Debug)]
pub struct Board {
    width: usize,
    height: usize,
    tokens: Vec<Token>,
    vals: Vec<Vec<u32>>,
    row_counts: Vec<[u32; TOKEN_COUNT]>,
    col_counts: Vec<[u32; TOKEN_COUNT]>,
    row_mask: Vec<TokenSet>,
    col_mask: Vec<TokenSet>,
    counts: [u32; TOKEN_COUNT],
    // Journal of the current tick.
    tick_stamp: Vec<u32>,
    tick_epoch: u32,
    journal: Vec<Saved>,
    // Fields changed in the current phase, with their contents when the phase began.
    phase_stamp: Vec<u32>,
    phase_epoch: u32,
    phase_changed: Vec<Saved>,
}

impl Board {
    /// A board holding `map`.
    pub fn new(map: &Grid<Cell>) -> Self {
        let (w, h) = (map.width(), map.height());
        let n = w * h;
        let mut b = Board {
            width: w,
            height: h,
            tokens: map.cells().iter().map(|c| c.token).collect(),
            vals: (0..VALUE_COUNT)
                .map(|k| map.cells().iter().map(|c| c.values[k]).collect())
                .collect(),
            row_counts: vec![[0; TOKEN_COUNT]; h],
            col_counts: vec![[0; TOKEN_COUNT]; w],
            row_mask: vec![0; h],
            col_mask: vec![0; w],
            counts: [0; TOKEN_COUNT],
            tick_stamp: vec![0; n],
            tick_epoch: 1,
            journal: Vec::new(),
            phase_stamp: vec![0; n],
            phase_epoch: 1,
            phase_changed: Vec::new(),
        };
        for i in 0..n {
            let t = b.tokens[i] as usize;
            b.row_counts[i / w][t] += 1;
            b.col_counts[i % w][t] += 1;
            b.counts[t] += 1;
        }
        for y in 0..h {
            b.row_mask[y] = mask_of(&b.row_counts[y]);
        }
        for x in 0..w {
            b.col_mask[x] = mask_of(&b.col_counts[x]);
        }
        b
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Number of fields.
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    /// True for a map without fields (never for a loaded level).
    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// Row-major index of `pos`.
    pub fn idx(&self, pos: Pos) -> usize {
        pos.y * self.width + pos.x
    }

    /// Position of row-major index `i`.
    pub fn pos(&self, i: usize) -> Pos {
        Pos::new(i % self.width, i / self.width)
    }

    /// The token at index `i`.
    #[inline]
    pub fn token(&self, i: usize) -> Token {
        self.tokens[i]
    }

    /// All tokens, row-major.
    pub fn tokens(&self) -> &[Token] {
        &self.tokens
    }

    /// Value `k` at index `i`.
    #[inline]
    pub fn val(&self, i: usize, k: ValueKey) -> u32 {
        self.vals[k as usize][i]
    }

    /// The whole array of value `k`, row-major.
    #[inline]
    pub fn val_array(&self, k: ValueKey) -> &[u32] {
        &self.vals[k as usize]
    }

    /// The field at index `i` as a [`Cell`].
    pub fn cell(&self, i: usize) -> Cell {
        let mut values = [0u32; VALUE_COUNT];
        for (k, v) in values.iter_mut().enumerate() {
            *v = self.vals[k][i];
        }
        Cell {
            token: self.tokens[i],
            values,
        }
    }

    /// The set of tokens present in row `y`.
    #[inline]
    pub fn row_mask(&self, y: usize) -> TokenSet {
        self.row_mask[y]
    }

    /// The set of tokens present in column `x`.
    #[inline]
    pub fn col_mask(&self, x: usize) -> TokenSet {
        self.col_mask[x]
    }

    /// The set of tokens present anywhere.
    pub fn mask(&self) -> TokenSet {
        mask_of(&self.counts)
    }

    /// How many fields hold `t`.
    pub fn count(&self, t: Token) -> u32 {
        self.counts[t as usize]
    }

    /// Indices of every field holding a token of `set`, row-major, skipping rows without one.
    pub fn find(&self, set: TokenSet) -> Vec<usize> {
        let mut out = Vec::new();
        for y in 0..self.height {
            if self.row_mask[y] & set == 0 {
                continue;
            }
            let base = y * self.width;
            for (x, t) in self.tokens[base..base + self.width].iter().enumerate() {
                if t.bit() & set != 0 {
                    out.push(base + x);
                }
            }
        }
        out
    }

    /// The map as a grid of cells.
    pub fn to_grid(&self) -> Grid<Cell> {
        Grid::from_vec(
            self.width,
            self.height,
            (0..self.len()).map(|i| self.cell(i)).collect(),
        )
        .expect("board size is consistent")
    }

    #[inline]
    fn touch(&mut self, i: usize) {
        if self.tick_stamp[i] != self.tick_epoch {
            self.tick_stamp[i] = self.tick_epoch;
            let cell = self.cell(i);
            self.journal.push(Saved {
                index: i as u32,
                cell,
            });
        }
        if self.phase_stamp[i] != self.phase_epoch {
            self.phase_stamp[i] = self.phase_epoch;
            let cell = self.cell(i);
            self.phase_changed.push(Saved {
                index: i as u32,
                cell,
            });
        }
    }

    fn raw_set_token(&mut self, i: usize, t: Token) {
        let old = self.tokens[i];
        if old == t {
            return;
        }
        let (x, y) = (i % self.width, i / self.width);
        for (counts, mask) in [
            (&mut self.row_counts[y], &mut self.row_mask[y]),
            (&mut self.col_counts[x], &mut self.col_mask[x]),
        ] {
            counts[old as usize] -= 1;
            if counts[old as usize] == 0 {
                *mask &= !old.bit();
            }
            counts[t as usize] += 1;
            *mask |= t.bit();
        }
        self.counts[old as usize] -= 1;
        self.counts[t as usize] += 1;
        self.tokens[i] = t;
    }

    /// Writes token `t` at index `i`, journaling the old contents.
    #[inline]
    pub fn set_token(&mut self, i: usize, t: Token) {
        if self.tokens[i] != t {
            self.touch(i);
            self.raw_set_token(i, t);
        }
    }

    /// Writes value `k` = `v` at index `i`, journaling the old contents.
    #[inline]
    pub fn set_val(&mut self, i: usize, k: ValueKey, v: u32) {
        if self.vals[k as usize][i] != v {
            self.touch(i);
            self.vals[k as usize][i] = v;
        }
    }

    /// Writes a whole field, journaling the old contents.
    pub fn set_cell(&mut self, i: usize, c: Cell) {
        self.set_token(i, c.token);
        for (k, &v) in ValueKey::ALL.iter().zip(c.values.iter()) {
            self.set_val(i, *k, v);
        }
    }

    /// Starts the journal of a new tick.
    pub fn begin_tick(&mut self) {
        self.journal.clear();
        self.tick_epoch = self.tick_epoch.wrapping_add(1);
        if self.tick_epoch == 0 {
            self.tick_stamp.iter_mut().for_each(|s| *s = 0);
            self.tick_epoch = 1;
        }
    }

    /// Ends the tick's journal: the old contents of every field that differs now, in the order
    /// first changed (fields changed and changed back are left out).
    pub fn end_tick(&mut self) -> Vec<Saved> {
        let mut j = std::mem::take(&mut self.journal);
        j.retain(|s| self.cell(s.index as usize) != s.cell);
        j
    }

    /// Starts a phase: the fields changed from now on are collected for [`Board::phase_changes`].
    pub fn begin_phase(&mut self) {
        self.phase_changed.clear();
        self.phase_epoch = self.phase_epoch.wrapping_add(1);
        if self.phase_epoch == 0 {
            self.phase_stamp.iter_mut().for_each(|s| *s = 0);
            self.phase_epoch = 1;
        }
    }

    /// The fields written since [`Board::begin_phase`], in the order first written, with their
    /// contents when the phase began (a field written back to its old contents is included).
    pub fn phase_changes(&self) -> &[Saved] {
        &self.phase_changed
    }

    /// Swaps the saved contents with the board's, without journaling: applying a patch turns
    /// it into the patch that reverses it (used for undo and redo).
    pub fn swap_patch(&mut self, patch: &mut [Saved]) {
        for s in patch.iter_mut() {
            let i = s.index as usize;
            let now = self.cell(i);
            self.raw_set_token(i, s.cell.token);
            for k in 0..VALUE_COUNT {
                self.vals[k][i] = s.cell.values[k];
            }
            s.cell = now;
        }
    }

    /// The values of index `i`.
    pub fn values(&self, i: usize) -> Values {
        self.cell(i).values
    }
}

fn mask_of(counts: &[u32; TOKEN_COUNT]) -> TokenSet {
    counts
        .iter()
        .enumerate()
        .filter(|(_, c)| **c > 0)
        .fold(0, |m, (t, _)| m | (1 << t))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries_follow_writes_and_patches_swap_back() {
        let mut g = Grid::new(3, 2, Cell::new(Token::Mud));
        *g.get_mut(Pos::new(2, 1)).unwrap() = Cell::new(Token::Stone);
        let mut b = Board::new(&g);
        assert_eq!(b.row_mask(1), Token::Mud.bit() | Token::Stone.bit());
        assert_eq!(b.row_mask(0), Token::Mud.bit());
        b.begin_tick();
        b.set_token(0, Token::Gem);
        b.set_val(0, ValueKey::A, 4);
        b.set_token(5, Token::Mud);
        b.set_token(1, Token::Gem);
        b.set_token(1, Token::Mud);
        assert_eq!(b.col_mask(2), Token::Mud.bit());
        assert_eq!(b.row_mask(0), Token::Mud.bit() | Token::Gem.bit());
        let mut patch = b.end_tick();
        assert_eq!(
            patch.iter().map(|s| s.index).collect::<Vec<_>>(),
            vec![0, 5],
            "the field changed back is left out"
        );
        b.swap_patch(&mut patch);
        assert_eq!(b.to_grid(), g);
        assert_eq!(b.row_mask(1), Token::Mud.bit() | Token::Stone.bit());
        b.swap_patch(&mut patch);
        assert_eq!(b.token(0), Token::Gem);
        assert_eq!(b.val(0, ValueKey::A), 4);
        assert_eq!(b.count(Token::Stone), 0);
    }
}

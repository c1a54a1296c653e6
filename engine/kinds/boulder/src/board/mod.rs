//! The live boulder map: tokens and values stored column-wise (one array per value), with
//! per-row and per-column summaries and a journal of what each tick changed.
//!
//! Layout: `tokens[i]` and `vals[k][i]` for row-major index `i = y * width + x` (x = column
//! from the left, y = row from the top). The summaries let rule matching skip lines: per row
//! and per column, the set of tokens present and the set of values that are non-zero on at
//! least one field (`docs/boulder-semantics.md`, "Speed").
//!
//! The journal keeps `(field index, which field, old contents)` the first time a field changes
//! in a tick ([`Saved`], 12 bytes): at the end of the tick the entries whose field still
//! differs are both the undo patch (memory grows with the fields changed, not the map size)
//! and the "changed cells" of the step report. Per-phase change lists are kept only while a
//! phase is observed ([`Board::begin_phase`] with `track`).
//!
//! The value reset of spec §4.3 ([`Board::reset_values`]) rewrites only the fields that can
//! differ from its result: those whose token or reset values were written after the last
//! reset (a full pass after a new board or an undo/redo).
//!
//! Beside the value arrays each field has a 16-bit summary ([`Board::flags`]): which of its
//! values are non-zero, and whether `loose`, `slippery` and `pushable` are exactly 1. The main
//! rules scan and test these flags instead of two or more 4-byte arrays, a write of 0 over a 0
//! reads no value array, and the reset passes over a field whose flags already show its reset
//! result. They are derived data: every write of a value keeps them in step.

use super::level::Cell;
use super::token::{TOKEN_COUNT, Token, TokenSet, VALUE_COUNT, ValueKey, Values};
use tilesmith_core::grid::{Grid, Pos};

mod writes;

/// The [`Saved::field`] number of the token; values use their [`ValueKey`] discriminant
/// (0 = `moved` … 11 = `d`).
pub const TOKEN_FIELD: u8 = VALUE_COUNT as u8;

/// A set of values as a bit mask (bit `k as u16` for [`ValueKey`] `k`).
pub type ValueSet = u16;

/// The values the reset of §4.3 writes: `moved`, `falling`, `loose`, `slippery`, `pushable`,
/// `bam`, `bamrich`.
const RESET_VALUES: ValueSet = (1 << ValueKey::Moved as u16)
    | (1 << ValueKey::Falling as u16)
    | (1 << ValueKey::Loose as u16)
    | (1 << ValueKey::Slippery as u16)
    | (1 << ValueKey::Pushable as u16)
    | (1 << ValueKey::Bam as u16)
    | (1 << ValueKey::Bamrich as u16);
/// Field bits whose writes after the reset make a field need the next reset.
const DIRTYING: u16 = RESET_VALUES | (1 << TOKEN_FIELD);
/// Flag in the per-field tick bits: the field is in this tick's list for the next reset.
const LISTED: u16 = 1 << 15;

/// How many values have flags: `moved` … `direction`, the values the main rules use (`a`–`d`
/// have none; their arrays are always read).
const FLAGGED: usize = ValueKey::Direction as usize + 1;
/// How many values have an "exactly 1" flag: the seven reset values `moved` … `bamrich`.
const ONE_FLAGGED: usize = ValueKey::Bamrich as usize + 1;

/// Bit of [`Board::flags`] set when value `k` is non-zero (bits 0–7, for `moved` …
/// `direction`; 0 for `a`–`d`, which have no flag).
#[inline]
pub const fn nonzero_flag(k: ValueKey) -> u16 {
    if (k as usize) < FLAGGED {
        1 << k as u16
    } else {
        0
    }
}

/// Bit of [`Board::flags`] set when value `k` is exactly 1 (bits 8–14, for the seven reset
/// values `moved` … `bamrich`; 0 for the others).
#[inline]
pub const fn one_flag(k: ValueKey) -> u16 {
    if (k as usize) < ONE_FLAGGED {
        1 << (8 + k as u16)
    } else {
        0
    }
}

/// The flags a field's reset values have after the reset of §4.3, for a field holding `t`
/// (compared under [`RESET_FLAGS`]): `loose` 1 on stone and gem, `slippery` 1 on stone, gem
/// and bricks, `pushable` 1 on stone, the rest 0.
#[inline]
const fn reset_flags(t: Token) -> u16 {
    const fn set(k: ValueKey) -> u16 {
        nonzero_flag(k) | one_flag(k)
    }
    match t {
        Token::Stone => set(ValueKey::Loose) | set(ValueKey::Slippery) | set(ValueKey::Pushable),
        Token::Gem => set(ValueKey::Loose) | set(ValueKey::Slippery),
        Token::Bricks => set(ValueKey::Slippery),
        _ => 0,
    }
}

/// The flags that decide whether a field already holds its reset result: the non-zero and
/// "exactly 1" bits of the seven reset values.
const RESET_FLAGS: u16 = RESET_VALUES | (RESET_VALUES << 8);

/// The old contents of one field of one map position, as recorded by the journal (12 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Saved {
    /// Row-major index of the map position.
    pub index: u32,
    /// Which field: a [`ValueKey`] discriminant (0–11), or [`TOKEN_FIELD`] for the token.
    pub field: u8,
    /// The old contents: the value, or the token's discriminant.
    pub old: u32,
}

/// The journal's mark of one field: the tick it was last marked in (the high 16 bits, compared
/// with the board's 16-bit epoch) and its bits then (the low 16 bits).
#[derive(Clone, Copy, Debug, Default)]
struct TickMark(u32);

impl TickMark {
    #[inline]
    fn stamp(self) -> u32 {
        self.0 >> 16
    }

    #[inline]
    fn bits(self) -> u16 {
        self.0 as u16
    }

    #[inline]
    fn new(stamp: u32, bits: u16) -> Self {
        TickMark(stamp << 16 | bits as u32)
    }
}

/// Per-line bookkeeping for the summaries of one row or column.
#[derive(Clone, Debug)]
struct LineSums {
    tokens: Vec<[u32; TOKEN_COUNT]>,
    token_mask: Vec<TokenSet>,
    nonzero: Vec<[u32; VALUE_COUNT]>,
    value_mask: Vec<ValueSet>,
}

impl LineSums {
    fn new(lines: usize) -> Self {
        Self {
            tokens: vec![[0; TOKEN_COUNT]; lines],
            token_mask: vec![0; lines],
            nonzero: vec![[0; VALUE_COUNT]; lines],
            value_mask: vec![0; lines],
        }
    }

    #[inline]
    fn move_token(&mut self, l: usize, old: Token, new: Token) {
        let c = &mut self.tokens[l];
        c[old as usize] -= 1;
        if c[old as usize] == 0 {
            self.token_mask[l] &= !old.bit();
        }
        c[new as usize] += 1;
        self.token_mask[l] |= new.bit();
    }

    /// Value `k` turned non-zero (`up`) or zero on a field of line `l`.
    #[inline]
    fn flip_value(&mut self, l: usize, k: usize, up: bool) {
        let c = &mut self.nonzero[l][k];
        if up {
            *c += 1;
            self.value_mask[l] |= 1 << k;
        } else {
            *c -= 1;
            if *c == 0 {
                self.value_mask[l] &= !(1 << k);
            }
        }
    }

    fn bytes(&self) -> usize {
        self.tokens.len() * (4 * TOKEN_COUNT + 4 + 4 * VALUE_COUNT + 2)
    }
}

/// The live map of a boulder game.
#[derive(Debug)]
pub struct Board {
    width: usize,
    height: usize,
    tokens: Vec<Token>,
    vals: Vec<Vec<u32>>,
    // Per field: the non-zero and "exactly 1" bits of the main rules' values (module docs).
    flags: Vec<u16>,
    rows: LineSums,
    cols: LineSums,
    counts: [u32; TOKEN_COUNT],
    nonzero: [u32; VALUE_COUNT],
    // Journal of the current tick: `tick[i] = (stamp, bits)`, where `bits` says which fields of
    // `i` are journaled (bit `field`) and whether `i` is listed for the next reset (`LISTED`),
    // valid when `stamp == tick_epoch` (16 bits). One 4-byte word per field, so a write
    // touches one cache line of marks.
    tick: Vec<TickMark>,
    tick_epoch: u32,
    journal: Vec<Saved>,
    // Fields whose token or reset values were written after the last reset (each listed once,
    // flagged `LISTED` in the tick marks): what the next reset must visit.
    dirty: Vec<u32>,
    all_dirty: bool,
    in_reset: bool,
    // Fields changed in the current phase, with their contents when the phase began; kept
    // only while `phase_on` (the arrays are allocated on first use).
    phase_on: bool,
    phase_stamp: Vec<u32>,
    phase_bits: Vec<u16>,
    phase_epoch: u32,
    phase_changed: Vec<Saved>,
}

impl Clone for Board {
    /// A copy of the board. The journal and reset-list buffers are empty in the copy (a copy
    /// is made between ticks) but keep their capacity, so a copy's first tick does not grow
    /// them again.
    fn clone(&self) -> Self {
        let mut journal = Vec::with_capacity(self.journal.capacity());
        journal.extend_from_slice(&self.journal);
        let mut dirty = Vec::with_capacity(self.dirty.capacity());
        dirty.extend_from_slice(&self.dirty);
        Board {
            width: self.width,
            height: self.height,
            tokens: self.tokens.clone(),
            vals: self.vals.clone(),
            flags: self.flags.clone(),
            rows: self.rows.clone(),
            cols: self.cols.clone(),
            counts: self.counts,
            nonzero: self.nonzero,
            tick: self.tick.clone(),
            tick_epoch: self.tick_epoch,
            journal,
            dirty,
            all_dirty: self.all_dirty,
            in_reset: self.in_reset,
            phase_on: self.phase_on,
            phase_stamp: self.phase_stamp.clone(),
            phase_bits: self.phase_bits.clone(),
            phase_epoch: self.phase_epoch,
            phase_changed: self.phase_changed.clone(),
        }
    }
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
            rows: LineSums::new(h),
            cols: LineSums::new(w),
            counts: [0; TOKEN_COUNT],
            nonzero: [0; VALUE_COUNT],
            flags: vec![0; n],
            tick: vec![TickMark::default(); n],
            tick_epoch: 1,
            journal: Vec::new(),
            dirty: Vec::new(),
            all_dirty: true,
            in_reset: false,
            phase_on: false,
            phase_stamp: Vec::new(),
            phase_bits: Vec::new(),
            phase_epoch: 1,
            phase_changed: Vec::new(),
        };
        for i in 0..n {
            let t = b.tokens[i] as usize;
            let (x, y) = (i % w, i / w);
            b.rows.tokens[y][t] += 1;
            b.cols.tokens[x][t] += 1;
            b.counts[t] += 1;
            for (k, &key) in ValueKey::ALL.iter().enumerate() {
                let v = b.vals[k][i];
                if v == 1 {
                    b.flags[i] |= one_flag(key);
                }
                if v != 0 {
                    b.flags[i] |= nonzero_flag(key);
                    b.rows.flip_value(y, k, true);
                    b.cols.flip_value(x, k, true);
                    b.nonzero[k] += 1;
                }
            }
        }
        for y in 0..h {
            b.rows.token_mask[y] = mask_of(&b.rows.tokens[y]);
        }
        for x in 0..w {
            b.cols.token_mask[x] = mask_of(&b.cols.tokens[x]);
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

    /// Column and row of row-major index `i`, by 32-bit division (a map has fewer than 2^32
    /// fields; the 64-bit division is several times slower and runs on every write).
    #[inline]
    fn xy(&self, i: usize) -> (usize, usize) {
        let (i, w) = (i as u32, self.width as u32);
        ((i % w) as usize, (i / w) as usize)
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
        if (k as usize) < FLAGGED && self.flags[i] & nonzero_flag(k) == 0 {
            0
        } else {
            self.vals[k as usize][i]
        }
    }

    /// The flags of index `i`: bit [`nonzero_flag`]`(k)` when value `k` (`moved` …
    /// `direction`) is non-zero, and bit [`one_flag`]`(k)` when value `k` (`moved` …
    /// `bamrich`) is exactly 1.
    #[inline]
    pub fn flags(&self, i: usize) -> u16 {
        self.flags[i]
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

    /// Field `field` ([`Saved::field`] numbering) at index `i`, as stored in the journal.
    #[inline]
    pub fn field(&self, i: usize, field: u8) -> u32 {
        if field == TOKEN_FIELD {
            self.tokens[i] as u32
        } else {
            self.vals[field as usize][i]
        }
    }

    /// The flags ([`Board::flags`]) of indices `start .. start + len`, e.g. one row.
    #[inline]
    pub fn flags_run(&self, start: usize, len: usize) -> &[u16] {
        &self.flags[start..start + len]
    }

    /// True when field `field` ([`Saved::field`] numbering) of index `i` holds `v`. Decided by
    /// the flags alone when they tell (`v` 0 or 1 of a flagged value), else by the arrays.
    #[inline]
    fn holds(&self, i: usize, field: u8, v: u32) -> bool {
        let k = field as usize;
        if field != TOKEN_FIELD && k < FLAGGED {
            let key = ValueKey::ALL[k];
            let f = self.flags[i];
            if v == 0 {
                return f & nonzero_flag(key) == 0;
            }
            if f & nonzero_flag(key) == 0 {
                return false;
            }
            if v == 1 && k < ONE_FLAGGED {
                return f & one_flag(key) != 0;
            }
        }
        self.field(i, field) == v
    }

    /// The set of tokens present in row `y`.
    #[inline]
    pub fn row_mask(&self, y: usize) -> TokenSet {
        self.rows.token_mask[y]
    }

    /// The set of tokens present in column `x`.
    #[inline]
    pub fn col_mask(&self, x: usize) -> TokenSet {
        self.cols.token_mask[x]
    }

    /// The set of values that are non-zero on at least one field of row `y`.
    #[inline]
    pub fn row_values(&self, y: usize) -> ValueSet {
        self.rows.value_mask[y]
    }

    /// The set of values that are non-zero on at least one field of column `x`.
    #[inline]
    pub fn col_values(&self, x: usize) -> ValueSet {
        self.cols.value_mask[x]
    }

    /// The set of tokens present anywhere.
    pub fn mask(&self) -> TokenSet {
        mask_of(&self.counts)
    }

    /// The set of values non-zero on at least one field anywhere.
    pub fn values_mask(&self) -> ValueSet {
        self.nonzero
            .iter()
            .enumerate()
            .filter(|(_, c)| **c > 0)
            .fold(0, |m, (k, _)| m | (1 << k))
    }

    /// How many fields hold `t`.
    pub fn count(&self, t: Token) -> u32 {
        self.counts[t as usize]
    }

    /// Indices of every field holding a token of `set`, row-major, skipping rows without one.
    pub fn find(&self, set: TokenSet) -> Vec<usize> {
        let mut out = Vec::new();
        for y in 0..self.height {
            if self.rows.token_mask[y] & set == 0 {
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

    /// Indices of every field where value `k` is non-zero, row-major, skipping rows without
    /// one.
    pub fn find_nonzero(&self, k: ValueKey) -> Vec<usize> {
        let mut out = Vec::new();
        let bit = 1 << k as u16;
        let arr = &self.vals[k as usize];
        for y in 0..self.height {
            if self.rows.value_mask[y] & bit == 0 {
                continue;
            }
            let base = y * self.width;
            for (x, v) in arr[base..base + self.width].iter().enumerate() {
                if *v != 0 {
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
}

impl Board {
    /// The values of index `i`.
    pub fn values(&self, i: usize) -> Values {
        self.cell(i).values
    }

    /// Bytes of the map state: one token byte and twelve 4-byte values per field.
    pub fn state_bytes(&self) -> usize {
        self.len() * (std::mem::size_of::<Token>() + 4 * VALUE_COUNT)
    }

    /// Bytes of the board's working memory beyond the state: the summaries, the journal's
    /// stamps and buffer, the reset lists and (when a phase was observed) the phase lists.
    pub fn scratch_bytes(&self) -> usize {
        let saved = std::mem::size_of::<Saved>();
        self.rows.bytes()
            + self.cols.bytes()
            + self.flags.capacity() * 2
            + self.tick.capacity() * std::mem::size_of::<TickMark>()
            + self.journal.capacity() * saved
            + self.dirty.capacity() * 4
            + self.phase_stamp.capacity() * 4
            + self.phase_bits.capacity() * 2
            + self.phase_changed.capacity() * saved
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

    /// The flags of index `i` computed from the value arrays (the definition of
    /// [`Board::flags`]).
    fn flags_from_arrays(b: &Board, i: usize) -> u16 {
        let mut f = 0;
        for (k, &key) in ValueKey::ALL.iter().enumerate() {
            let v = b.vals[k][i];
            if v != 0 {
                f |= nonzero_flag(key);
            }
            if v == 1 {
                f |= one_flag(key);
            }
        }
        f
    }

    fn assert_flags(b: &Board, what: &str) {
        for i in 0..b.len() {
            assert_eq!(b.flags(i), flags_from_arrays(b, i), "{what}: flags of {i}");
            for (k, &key) in ValueKey::ALL.iter().enumerate() {
                assert_eq!(b.val(i, key), b.vals[k][i], "{what}: value {k} of {i}");
                for v in [0, 1, 2, b.vals[k][i]] {
                    assert_eq!(
                        b.holds(i, k as u8, v),
                        b.vals[k][i] == v,
                        "{what}: holds({i}, {k}, {v})"
                    );
                }
            }
        }
    }

    /// Seeded random writes of tokens and values (0, 1, 2 and large) through ticks, resets,
    /// undo and redo: the flags always agree with the value arrays, `val` with the arrays, and
    /// the journal's patch restores the state before the tick.
    #[test]
    fn flags_follow_every_write_reset_and_patch() {
        let mut g = Grid::new(5, 4, Cell::new(Token::Mud));
        *g.get_mut(Pos::new(1, 1)).unwrap() = Cell::new(Token::Stone).with(ValueKey::Loose, 7);
        let mut b = Board::new(&g);
        assert_flags(&b, "new");
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for tick in 0..200 {
            let before = b.to_grid();
            b.begin_tick();
            b.reset_values();
            for _ in 0..next() % 12 {
                let i = (next() % b.len() as u64) as usize;
                if next() % 4 == 0 {
                    b.set_token(i, Token::ALL[(next() % Token::ALL.len() as u64) as usize]);
                } else {
                    let k = ValueKey::ALL[(next() % VALUE_COUNT as u64) as usize];
                    let v = [0, 1, 2, 1 << 31][(next() % 4) as usize];
                    b.set_val(i, k, v);
                }
            }
            assert_flags(&b, &format!("tick {tick}"));
            let mut patch = b.end_tick();
            let after = b.to_grid();
            if tick % 3 == 0 {
                b.swap_patch(&mut patch);
                assert_eq!(b.to_grid(), before, "undo of tick {tick}");
                assert_flags(&b, &format!("undo of tick {tick}"));
                b.swap_patch(&mut patch);
                assert_eq!(b.to_grid(), after, "redo of tick {tick}");
                assert_flags(&b, &format!("redo of tick {tick}"));
            }
        }
    }

    /// The journal's 16-bit tick stamp wraps after 65 535 ticks: a field written in the tick
    /// just after the wrap is still journaled (and undone) exactly once.
    #[test]
    fn the_journal_survives_the_stamp_wrapping() {
        let g = Grid::new(2, 1, Cell::new(Token::Mud));
        let mut b = Board::new(&g);
        for _ in 0..(u16::MAX as u32 + 3) {
            b.begin_tick();
            b.set_val(0, ValueKey::A, 5);
            b.set_val(0, ValueKey::A, 6);
            let mut patch = b.end_tick();
            assert_eq!(patch.len(), 1, "one entry per field and tick");
            assert_eq!(patch[0].old, 0);
            b.swap_patch(&mut patch);
            assert_eq!(b.val(0, ValueKey::A), 0);
        }
    }

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
        assert_eq!(b.row_values(0), 1 << ValueKey::A as u16);
        assert_eq!(b.col_values(0), 1 << ValueKey::A as u16);
        assert_eq!(b.row_values(1), 0);
        let mut patch = b.end_tick();
        assert_eq!(
            patch.iter().map(|s| (s.index, s.field)).collect::<Vec<_>>(),
            vec![(0, TOKEN_FIELD), (0, ValueKey::A as u8), (5, TOKEN_FIELD)],
            "the field changed back is left out"
        );
        assert!(std::mem::size_of::<Saved>() <= 16);
        b.swap_patch(&mut patch);
        assert_eq!(b.to_grid(), g);
        assert_eq!(b.row_mask(1), Token::Mud.bit() | Token::Stone.bit());
        assert_eq!(b.row_values(0), 0, "the value summary follows the patch");
        b.swap_patch(&mut patch);
        assert_eq!(b.token(0), Token::Gem);
        assert_eq!(b.val(0, ValueKey::A), 4);
        assert_eq!(b.count(Token::Stone), 0);
    }
}

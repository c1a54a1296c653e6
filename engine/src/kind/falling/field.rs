//! The field of a falling-block game and the rules that act on it each frame: clear rules,
//! fall laws and scoring (spec falling-blocks §3.1, §4, §6.3, §10 A2–A8, A16, A17).
//!
//! A frame's rules, built-in or FPGDL (`update()` in Lua), only make [`Requests`]: which
//! blocks to delete and how far each block is asked to fall. [`apply_requests`] then carries
//! them out in the order of spec A6: deletions first, then falls, bottom rows first, each
//! block falling up to its requested number of cells and stopping early on a block or the
//! floor. The built-in rules ([`builtin_update`]) make exactly the requests the paper's two
//! listings make, so a level with built-in rules and the same level with the listing as its
//! script give the same field frame by frame.
//!
//! Coordinates: `x` is the column from the left, `y` the row from the **top** (spec A4).
//! Cells are stored row-major, index `y * width + x`.

use super::level::{ClearRule, FallLaw, PuyoScore, Role};

/// A block kind's id: 1 for the first kind of the level's `blocks`, as `createBlockPattern`
/// numbers them; 0 is an empty cell. At most 99 kinds (spec A2: 100 and above mean "falling").
pub type BlockId = u8;

/// The empty cell.
pub const EMPTY: BlockId = 0;

/// The field: `width` × `height` cells, each [`EMPTY`] or a [`BlockId`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Field {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Row-major cells, index `y * width + x`, row 0 at the top.
    pub cells: Vec<BlockId>,
}

/// What the rules of one frame ask for, as FPGDL's Set functions do (spec §6.3): per cell,
/// row-major, whether its block is to vanish (`setBlockDeleteFlag`) and how many cells it is
/// asked to fall (`setBlockDownCellNum`; "set, not add": the last request of the frame wins,
/// spec A5). Requests on empty cells are ignored when applied.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Requests {
    /// Per cell: flagged to vanish this frame.
    pub delete: Vec<bool>,
    /// Per cell: the requested fall in cells (0 = stay).
    pub down: Vec<u32>,
}

/// The per-cell context the rules read besides the field.
#[derive(Clone, Copy, Debug)]
pub struct RuleContext<'a> {
    /// The role of each block kind, index `id − 1`.
    pub roles: &'a [Role],
    /// The number of top rows whose blocks never take part in a clear (Puyo's row 13).
    pub hidden_rows: usize,
    /// Per cell, row-major: true while the block there is still in motion (it fell and its
    /// fall animation has not finished; spec A2 "100 + kind").
    pub moving: &'a [bool],
}

/// What one frame's deletions removed, for scoring and for chains.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClearStats {
    /// `normal` blocks removed.
    pub erased: usize,
    /// `garbage` blocks removed.
    pub garbage: usize,
    /// Distinct kinds among the removed `normal` blocks.
    pub colors: usize,
    /// Sizes of the groups removed: same-kind `normal` blocks connected through the four
    /// neighbours, among the removed ones.
    pub groups: Vec<usize>,
    /// Rows removed whole (every cell of the row flagged).
    pub rows: usize,
}

/// What [`apply_requests`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Applied {
    /// The cells whose block was removed, row-major order.
    pub deleted: Vec<usize>,
    /// The blocks that fell, as `(from, to)` cell indices, bottom rows first.
    pub moved: Vec<(usize, usize)>,
    /// Counts of what was removed.
    pub stats: ClearStats,
}

impl Field {
    /// An empty field of `width` × `height` cells.
    pub fn new(width: usize, height: usize) -> Self {
        Self {
            width,
            height,
            cells: vec![EMPTY; width * height],
        }
    }

    /// The block at `(x, y)`; [`EMPTY`] outside the field (spec A3).
    pub fn get(&self, x: i64, y: i64) -> BlockId {
        if x < 0 || y < 0 || x as usize >= self.width || y as usize >= self.height {
            EMPTY
        } else {
            self.cells[y as usize * self.width + x as usize]
        }
    }

    /// Sets the block at `(x, y)`; nothing outside the field.
    pub fn set(&mut self, x: i64, y: i64, block: BlockId) {
        if x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height {
            self.cells[y as usize * self.width + x as usize] = block;
        }
    }

    /// The size of the group of same-kind blocks connected to `(x, y)` through the four
    /// neighbours, counting `(x, y)` itself; blocks in motion take no part, and an empty or
    /// moving cell or a cell outside the field gives 0 (`getComboBlockNum`, spec A8).
    pub fn combo(&self, x: i64, y: i64, moving: &[bool]) -> usize {
        let _ = (x, y, moving);
        todo!("field helper")
    }
}

impl Requests {
    /// No requests for a field of `cells` cells.
    pub fn new(cells: usize) -> Self {
        Self {
            delete: vec![false; cells],
            down: vec![0; cells],
        }
    }

    /// Forgets every request, keeping the size.
    pub fn reset(&mut self) {
        self.delete.fill(false);
        self.down.fill(0);
    }
}

/// The built-in rules of one frame: adds to `req` the delete flags of every clear rule
/// (OR-ed, spec A17) and then sets the fall requests of each fall law in order (a later law's
/// request wins). Makes the same requests as the paper's listings: `connected` flags only
/// when no block is moving (Puyo listing), `rows` counts settled blocks only (Tetris listing).
pub fn builtin_update(
    field: &Field,
    cx: &RuleContext<'_>,
    clear: &[ClearRule],
    fall: &[FallLaw],
    req: &mut Requests,
) {
    let _ = (field, cx, clear, fall, req);
    todo!("field helper")
}

/// Carries out one frame's requests (spec A6): removes every flagged block except `iron`,
/// then lets each block with a fall request fall, bottom rows first, up to its requested
/// number of cells, stopping on a block or the floor.
pub fn apply_requests(field: &mut Field, roles: &[Role], req: &Requests) -> Applied {
    let _ = (field, roles, req);
    todo!("field helper")
}

/// The points of one clear step under the Puyo Puyo Tsu formula; `chain` is 1 for the first.
pub fn puyo_step_score(chain: u32, stats: &ClearStats, table: &PuyoScore) -> u64 {
    let _ = (chain, stats, table);
    todo!("field helper")
}

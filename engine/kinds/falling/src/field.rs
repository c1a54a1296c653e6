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
//! For speed, [`ComboTable`] computes every cell's group size once per frame (a Lua
//! `getComboBlockNum` can read it for every cell), [`RuleScratch`] keeps the buffers of
//! [`builtin_update_with`] and [`apply_requests_into`] from frame to frame, and [`settle`]
//! resolves a field with instant timing (a whole Puyo chain) without allocating per frame.
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
    /// neighbours, among the removed ones, in the row-major order of each group's first cell.
    pub groups: Vec<usize>,
    /// Rows removed whole: every cell of the row held a block that was removed (a flagged
    /// row whose `iron` stayed does not count).
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

/// No group: the marker [`ComboTable`] keeps for cells outside every group.
const NO_GROUP: u32 = u32::MAX;

/// The block at cell `i` is in motion; cells past the end of `moving` are at rest, so an
/// empty slice means "nothing moves".
fn moving_at(moving: &[bool], i: usize) -> bool {
    moving.get(i).copied().unwrap_or(false)
}

/// The role of block kind `id`; an id without a kind (0, or past `roles`) acts as `normal`.
fn role_of(roles: &[Role], id: BlockId) -> Role {
    usize::from(id)
        .checked_sub(1)
        .and_then(|k| roles.get(k))
        .copied()
        .unwrap_or_default()
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
        self.index(x, y).map_or(EMPTY, |i| self.cells[i])
    }

    /// Sets the block at `(x, y)`; nothing outside the field.
    pub fn set(&mut self, x: i64, y: i64, block: BlockId) {
        if let Some(i) = self.index(x, y) {
            self.cells[i] = block;
        }
    }

    /// The row-major index of `(x, y)`, or `None` outside the field.
    pub fn index(&self, x: i64, y: i64) -> Option<usize> {
        let x = usize::try_from(x).ok()?;
        let y = usize::try_from(y).ok()?;
        (x < self.width && y < self.height).then(|| y * self.width + x)
    }

    /// The size of the group of same-kind blocks connected to `(x, y)` through the four
    /// neighbours, counting `(x, y)` itself; blocks in motion take no part, and an empty or
    /// moving cell or a cell outside the field gives 0 (`getComboBlockNum`, spec A8).
    /// `moving` is per cell, row-major; cells past its end are at rest.
    ///
    /// Every kind forms groups here, whatever its role. This walks one group and allocates
    /// a visited map; to ask for many cells in a frame, build a [`ComboTable`] once instead.
    pub fn combo(&self, x: i64, y: i64, moving: &[bool]) -> usize {
        let Some(start) = self.index(x, y) else {
            return 0;
        };
        let kind = self.cells[start];
        if kind == EMPTY || moving_at(moving, start) {
            return 0;
        }
        let mut seen = vec![false; self.cells.len()];
        let mut stack = vec![start];
        seen[start] = true;
        let mut size = 0;
        while let Some(i) = stack.pop() {
            size += 1;
            for j in self.neighbours(i) {
                if !seen[j] && self.cells[j] == kind && !moving_at(moving, j) {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        size
    }

    /// The up to four orthogonal neighbours of cell `i` inside the field.
    fn neighbours(&self, i: usize) -> impl Iterator<Item = usize> {
        self.neighbours_at(i, i % self.width).map(|(j, _)| j)
    }

    /// The neighbours of cell `i`, whose column `x` the caller knows (no division), each as
    /// `(cell, column)`.
    fn neighbours_at(&self, i: usize, x: usize) -> impl Iterator<Item = (usize, usize)> {
        let w = self.width;
        [
            (x > 0).then(|| (i - 1, x - 1)),
            (x + 1 < w).then(|| (i + 1, x + 1)),
            (i >= w).then(|| (i - w, x)),
            (i + w < self.cells.len()).then(|| (i + w, x)),
        ]
        .into_iter()
        .flatten()
    }
}

/// The size of every cell's group for a whole frame: the same numbers as [`Field::combo`]
/// (spec A8) for all cells at once, in time proportional to the field. Meant to be built once
/// per frame and read many times, e.g. by a Lua `update()` that calls `getComboBlockNum` for
/// every cell (the field does not change while `update()` runs: its Set calls only make
/// requests). Rebuilding with [`ComboTable::compute`] reuses the buffers.
#[derive(Clone, Debug, Default)]
pub struct ComboTable {
    /// Columns of the field it was built for.
    width: usize,
    /// Rows of the field it was built for.
    height: usize,
    /// Per cell, row-major: the index of its group in `sizes`, or [`NO_GROUP`].
    group: Vec<u32>,
    /// Per group: its number of blocks.
    sizes: Vec<u32>,
    /// Flood-fill stack of `(cell, column)`, kept to avoid allocating.
    stack: Vec<(usize, usize)>,
}

impl ComboTable {
    /// The groups of `field` as `getComboBlockNum` sees them (spec A8): every kind forms
    /// groups; blocks in motion (`moving`, per cell, row-major; past its end: at rest) none.
    pub fn new(field: &Field, moving: &[bool]) -> Self {
        let mut t = Self::default();
        t.compute(field, moving);
        t
    }

    /// The groups as the built-in `connected` clear rule sees them: like [`ComboTable::new`],
    /// but `garbage` and `iron` blocks and the top `cx.hidden_rows` rows form no group (they
    /// read 0). A host whose `getComboBlockNum` uses this table makes the Puyo listing flag
    /// exactly what `connected` flags, apart from garbage next to a group, which the listing
    /// cannot express.
    pub fn for_rules(field: &Field, cx: &RuleContext<'_>) -> Self {
        let mut t = Self::default();
        t.compute_for_rules(field, cx);
        t
    }

    /// Rebuilds the table of [`ComboTable::new`] for `field`, reusing the buffers.
    pub fn compute(&mut self, field: &Field, moving: &[bool]) {
        self.label(field, |i, _| !moving_at(moving, i));
    }

    /// Rebuilds the table of [`ComboTable::for_rules`] for `field`, reusing the buffers.
    pub fn compute_for_rules(&mut self, field: &Field, cx: &RuleContext<'_>) {
        let first = cx.hidden_rows.saturating_mul(field.width);
        self.label(field, |i, id| {
            i >= first && !moving_at(cx.moving, i) && role_of(cx.roles, id) == Role::Normal
        });
    }

    /// Labels the 4-connected same-kind groups of the non-empty cells `eligible` accepts
    /// (called with the cell index and its block).
    fn label(&mut self, field: &Field, eligible: impl Fn(usize, BlockId) -> bool) {
        self.width = field.width;
        self.height = field.height;
        self.group.clear();
        self.group.resize(field.cells.len(), NO_GROUP);
        self.sizes.clear();
        let ok = |i: usize| field.cells[i] != EMPTY && eligible(i, field.cells[i]);
        let w = field.width;
        for start in 0..field.cells.len() {
            if self.group[start] != NO_GROUP || !ok(start) {
                continue;
            }
            let g = u32::try_from(self.sizes.len()).expect("fewer groups than cells (≤ 65,536)");
            let kind = field.cells[start];
            let mut size = 0u32;
            self.group[start] = g;
            self.stack.push((start, start % w));
            while let Some((i, x)) = self.stack.pop() {
                size += 1;
                for (j, jx) in field.neighbours_at(i, x) {
                    if self.group[j] == NO_GROUP && field.cells[j] == kind && ok(j) {
                        self.group[j] = g;
                        self.stack.push((j, jx));
                    }
                }
            }
            self.sizes.push(size);
        }
    }

    /// The group size at `(x, y)`; 0 for a cell in no group or outside the field (spec A3).
    pub fn get(&self, x: i64, y: i64) -> usize {
        let (Ok(x), Ok(y)) = (usize::try_from(x), usize::try_from(y)) else {
            return 0;
        };
        if x >= self.width || y >= self.height {
            return 0;
        }
        self.at(y * self.width + x)
    }

    /// The group size of cell `i` (row-major index); 0 for a cell in no group or past the end.
    pub fn at(&self, i: usize) -> usize {
        match self.group.get(i) {
            Some(&g) if g != NO_GROUP => self.sizes[g as usize] as usize,
            _ => 0,
        }
    }

    /// The sizes of the groups, in the row-major order of each group's first cell.
    pub fn group_sizes(&self) -> &[u32] {
        &self.sizes
    }
}

/// Every cell's group size at once (row-major, 0 for an empty or moving cell): the values
/// [`Field::combo`] gives for each cell, computed in one pass (spec A8).
pub fn groups(field: &Field, moving: &[bool]) -> Vec<u32> {
    let t = ComboTable::new(field, moving);
    (0..field.cells.len())
        .map(|i| u32::try_from(t.at(i)).expect("a group has at most 65,536 cells"))
        .collect()
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

    /// Makes room for `cells` cells: a request set of another size is cleared and resized.
    fn fit(&mut self, cells: usize) {
        if self.delete.len() != cells || self.down.len() != cells {
            self.delete.clear();
            self.delete.resize(cells, false);
            self.down.clear();
            self.down.resize(cells, 0);
        }
    }
}

/// Buffers that [`builtin_update_with`] and [`apply_requests_into`] reuse from frame to
/// frame, so a game (or [`settle`]) allocates nothing per frame once they have grown.
#[derive(Clone, Debug, Default)]
pub struct RuleScratch {
    /// Groups of the `connected` rule, then of the removed blocks.
    combo: ComboTable,
    /// Per cell: flagged by the `connected` rule being evaluated.
    flags: Vec<bool>,
    /// Per cell (or per corner), a number: square runs, free drops.
    a: Vec<u32>,
    /// Per corner: prefix sums for `squares`.
    b: Vec<u32>,
    /// Per cell: the block removed there this frame, or [`EMPTY`].
    removed: Vec<BlockId>,
}

/// The built-in rules of one frame: adds to `req` the delete flags of every clear rule
/// (OR-ed, spec A17) and then sets the fall requests of each fall law in order (a later law's
/// request wins). Makes the same requests as the paper's listings: `connected` flags only
/// when no block is moving (Puyo listing), `rows` counts settled blocks only (Tetris listing).
///
/// `req` is resized to the field first if its size differs (and then starts empty). See
/// [`builtin_update_with`] for the rules in detail; this allocates its buffers each call.
pub fn builtin_update(
    field: &Field,
    cx: &RuleContext<'_>,
    clear: &[ClearRule],
    fall: &[FallLaw],
    req: &mut Requests,
) {
    builtin_update_with(field, cx, clear, fall, req, &mut RuleScratch::default());
}

/// [`builtin_update`] with reusable buffers. The rules, per spec item:
///
/// * Taking part in a clear: a block that is not moving (`cx.moving`), not in the top
///   `cx.hidden_rows` rows, and — for `connected`, `squares` and `lines` — of role `normal`.
/// * `connected {min}` (Puyo listing, A8): when no block of the field is moving
///   (`getAllBlockDownFlag() == false`, A7), every block whose group ([`ComboTable::for_rules`])
///   has at least `min` blocks; then every `garbage` block outside the hidden rows, not moving,
///   next (4 neighbours) to a block this rule flagged.
/// * `rows` (Tetris listing, A9): every cell of a row outside the hidden rows holding `width`
///   blocks, none moving.
/// * `squares {size}`: every block of every `size` × `size` square of one kind (overlapping
///   squares included), at once: no sweep line.
/// * `lines {min, diagonal}`: every block of a straight run of at least `min` blocks of one
///   kind, across, down, and on both diagonals when `diagonal`.
/// * `gravity`: a request of `height` cells for every cell (Puyo listing).
/// * `rows` (fall): from the bottom row up, `downnum` = the number of rows below whose every
///   cell is flagged to vanish; each row not flagged whole gets `downnum` for every cell, a
///   row flagged whole gets no request (Tetris listing).
/// * `joined` (§3.1 law 3, A16): each maximal horizontal run of adjacent blocks that stay this
///   frame (not flagged, or iron), all moving or all at rest, gets for every block the
///   smallest free drop over the run (0 when any block of it cannot fall). A block's free drop
///   counts the cells right below it that are empty or about to vanish, down to the first
///   block that stays or the floor.
pub fn builtin_update_with(
    field: &Field,
    cx: &RuleContext<'_>,
    clear: &[ClearRule],
    fall: &[FallLaw],
    req: &mut Requests,
    scratch: &mut RuleScratch,
) {
    let n = field.cells.len();
    req.fit(n);
    if n == 0 {
        return;
    }
    for rule in clear {
        match *rule {
            ClearRule::Connected { min } => flag_connected(field, cx, min, req, scratch),
            ClearRule::Rows => flag_rows(field, cx, req),
            ClearRule::Squares { size } => flag_squares(field, cx, size, req, scratch),
            ClearRule::Lines { min, diagonal } => flag_lines(field, cx, min, diagonal, req),
        }
    }
    for law in fall {
        match law {
            FallLaw::Gravity => {
                let h = u32::try_from(field.height).unwrap_or(u32::MAX);
                req.down.fill(h);
            }
            FallLaw::Rows => fall_rows(field, req),
            FallLaw::Joined => fall_joined(field, cx, req, scratch),
        }
    }
}

/// Whether cell `i` may take part in a shape rule (`squares`, `lines`): a `normal` block, at
/// rest, below the hidden rows.
fn shape_ok(field: &Field, cx: &RuleContext<'_>, i: usize) -> bool {
    let id = field.cells[i];
    id != EMPTY
        && i >= cx.hidden_rows.saturating_mul(field.width)
        && !moving_at(cx.moving, i)
        && role_of(cx.roles, id) == Role::Normal
}

/// `connected {min}`: see [`builtin_update_with`].
fn flag_connected(
    field: &Field,
    cx: &RuleContext<'_>,
    min: usize,
    req: &mut Requests,
    s: &mut RuleScratch,
) {
    let any_moving =
        (0..field.cells.len()).any(|i| field.cells[i] != EMPTY && moving_at(cx.moving, i));
    if any_moving {
        return;
    }
    s.combo.compute_for_rules(field, cx);
    s.flags.clear();
    s.flags.resize(field.cells.len(), false);
    let min = min.max(1);
    for i in 0..field.cells.len() {
        if s.combo.at(i) >= min {
            s.flags[i] = true;
            req.delete[i] = true;
        }
    }
    let first = cx.hidden_rows.saturating_mul(field.width);
    for i in first..field.cells.len() {
        let id = field.cells[i];
        if id != EMPTY
            && role_of(cx.roles, id) == Role::Garbage
            && !moving_at(cx.moving, i)
            && field.neighbours(i).any(|j| s.flags[j])
        {
            req.delete[i] = true;
        }
    }
}

/// `rows`: see [`builtin_update_with`].
fn flag_rows(field: &Field, cx: &RuleContext<'_>, req: &mut Requests) {
    let w = field.width;
    for y in cx.hidden_rows.min(field.height)..field.height {
        let row = y * w..(y + 1) * w;
        let full = row
            .clone()
            .all(|i| field.cells[i] != EMPTY && !moving_at(cx.moving, i));
        if full {
            req.delete[row].fill(true);
        }
    }
}

/// `squares {size}`: see [`builtin_update_with`]. Runs in time proportional to the field
/// whatever `size`: `a` holds, per cell, the side of the largest one-kind square whose
/// bottom-right corner it is; `b` the 2-D prefix sums of the corners of squares of side
/// `size`, so a cell is covered when a corner lies in the `size` × `size` box below and right
/// of it.
fn flag_squares(
    field: &Field,
    cx: &RuleContext<'_>,
    size: usize,
    req: &mut Requests,
    s: &mut RuleScratch,
) {
    let (w, h) = (field.width, field.height);
    if size == 0 || size > w || size > h {
        return;
    }
    s.a.clear();
    s.a.resize(w * h, 0);
    for y in 0..h {
        for x in 0..w {
            let i = y * w + x;
            if !shape_ok(field, cx, i) {
                continue;
            }
            let id = field.cells[i];
            let same = |j: usize| field.cells[j] == id && s.a[j] > 0;
            s.a[i] = if x > 0 && y > 0 && same(i - 1) && same(i - w) && same(i - w - 1) {
                1 + s.a[i - 1].min(s.a[i - w]).min(s.a[i - w - 1])
            } else {
                1
            };
        }
    }
    // b[(y + 1) * (w + 1) + (x + 1)] = corners in columns 0..=x, rows 0..=y.
    let stride = w + 1;
    s.b.clear();
    s.b.resize(stride * (h + 1), 0);
    let side = u32::try_from(size).unwrap_or(u32::MAX);
    for y in 0..h {
        let mut row = 0;
        for x in 0..w {
            row += u32::from(s.a[y * w + x] >= side);
            s.b[(y + 1) * stride + x + 1] = s.b[y * stride + x + 1] + row;
        }
    }
    for y in 0..h {
        for x in 0..w {
            // Corners in columns x..=x1, rows y..=y1.
            let (x1, y1) = ((x + size - 1).min(w - 1), (y + size - 1).min(h - 1));
            let count = s.b[(y1 + 1) * stride + x1 + 1] + s.b[y * stride + x]
                - s.b[y * stride + x1 + 1]
                - s.b[(y1 + 1) * stride + x];
            if count > 0 {
                req.delete[y * w + x] = true;
            }
        }
    }
}

/// `lines {min, diagonal}`: see [`builtin_update_with`].
fn flag_lines(field: &Field, cx: &RuleContext<'_>, min: usize, diagonal: bool, req: &mut Requests) {
    let (w, h) = (field.width as i64, field.height as i64);
    let min = min.max(1);
    let dirs: &[(i64, i64)] = if diagonal {
        &[(1, 0), (0, 1), (1, 1), (1, -1)]
    } else {
        &[(1, 0), (0, 1)]
    };
    let ok = |x: i64, y: i64| field.index(x, y).filter(|&i| shape_ok(field, cx, i));
    for &(dx, dy) in dirs {
        for y in 0..h {
            for x in 0..w {
                let Some(i) = ok(x, y) else { continue };
                let id = field.cells[i];
                // Start only at the first block of a run.
                if ok(x - dx, y - dy).is_some_and(|j| field.cells[j] == id) {
                    continue;
                }
                let mut len = 1;
                while ok(x + dx * len, y + dy * len).is_some_and(|j| field.cells[j] == id) {
                    len += 1;
                }
                if len as usize >= min {
                    for k in 0..len {
                        if let Some(j) = field.index(x + dx * k, y + dy * k) {
                            req.delete[j] = true;
                        }
                    }
                }
            }
        }
    }
}

/// Fall law `rows`: see [`builtin_update_with`].
fn fall_rows(field: &Field, req: &mut Requests) {
    let w = field.width;
    let mut downnum = 0u32;
    for y in (0..field.height).rev() {
        let row = y * w..(y + 1) * w;
        if w > 0 && req.delete[row.clone()].iter().all(|&d| d) {
            downnum += 1;
        } else {
            req.down[row].fill(downnum);
        }
    }
}

/// Fall law `joined`: see [`builtin_update_with`].
fn fall_joined(field: &Field, cx: &RuleContext<'_>, req: &mut Requests, s: &mut RuleScratch) {
    let (w, h) = (field.width, field.height);
    let stays = |i: usize| {
        field.cells[i] != EMPTY
            && (!req.delete[i] || role_of(cx.roles, field.cells[i]) == Role::Iron)
    };
    // a[i] = free cells right below cell i.
    s.a.clear();
    s.a.resize(w * h, 0);
    for x in 0..w {
        for y in (0..h.saturating_sub(1)).rev() {
            let below = (y + 1) * w + x;
            s.a[y * w + x] = if stays(below) { 0 } else { s.a[below] + 1 };
        }
    }
    for y in 0..h {
        let mut x = 0;
        while x < w {
            let i = y * w + x;
            if !stays(i) {
                x += 1;
                continue;
            }
            let motion = moving_at(cx.moving, i);
            let start = x;
            let mut drop = u32::MAX;
            while x < w && stays(y * w + x) && moving_at(cx.moving, y * w + x) == motion {
                drop = drop.min(s.a[y * w + x]);
                x += 1;
            }
            req.down[y * w + start..y * w + x].fill(drop);
        }
    }
}

/// Carries out one frame's requests (spec A6): removes every flagged block except `iron`,
/// then lets each block with a fall request fall, bottom rows first, up to its requested
/// number of cells, stopping on a block or the floor.
///
/// Requests on empty cells are ignored; a request set shorter than the field counts as no
/// request for the cells past its end. The [`ClearStats`] are taken over the removed blocks
/// before anything falls. Allocates its result; see [`apply_requests_into`] to reuse buffers.
pub fn apply_requests(field: &mut Field, roles: &[Role], req: &Requests) -> Applied {
    let mut out = Applied::default();
    apply_requests_into(field, roles, req, &mut RuleScratch::default(), &mut out);
    out
}

/// [`apply_requests`] into `out` (cleared first) with reusable buffers.
///
/// * Removal: every non-empty flagged cell whose block is not `iron` becomes empty;
///   `out.deleted` lists those cells in row-major order.
/// * Stats (before falls): `erased` = removed `normal` blocks, `garbage` = removed `garbage`
///   blocks, `colors` = distinct kinds among the removed normal blocks, `groups` = sizes of
///   the 4-connected same-kind components among the removed normal blocks (row-major order
///   of their first cell), `rows` = rows whose every cell had a block that was removed.
/// * Falls: rows from the bottom up, each row left to right; a block with request `n > 0`
///   moves down one cell at a time while the cell below is empty, at most `n` times.
///   `out.moved` lists `(from, to)` in that order, so replaying the list in order moves each
///   block into an empty cell.
pub fn apply_requests_into(
    field: &mut Field,
    roles: &[Role],
    req: &Requests,
    scratch: &mut RuleScratch,
    out: &mut Applied,
) {
    out.deleted.clear();
    out.moved.clear();
    out.stats.erased = 0;
    out.stats.garbage = 0;
    out.stats.colors = 0;
    out.stats.groups.clear();
    out.stats.rows = 0;
    let (w, h) = (field.width, field.height);
    let n = field.cells.len();

    let removed = &mut scratch.removed;
    removed.clear();
    removed.resize(n, EMPTY);
    let mut colors = [false; 256];
    for (i, (&id, slot)) in field.cells.iter().zip(removed.iter_mut()).enumerate() {
        if id == EMPTY || !req.delete.get(i).copied().unwrap_or(false) {
            continue;
        }
        match role_of(roles, id) {
            Role::Iron => continue,
            Role::Garbage => out.stats.garbage += 1,
            Role::Normal => {
                out.stats.erased += 1;
                colors[usize::from(id)] = true;
            }
        }
        *slot = id;
        out.deleted.push(i);
    }
    if !out.deleted.is_empty() {
        out.stats.colors = colors.iter().filter(|&&c| c).count();
        out.stats.rows = (0..h)
            .filter(|y| removed[y * w..(y + 1) * w].iter().all(|&b| b != EMPTY))
            .count();
        let removed = &scratch.removed;
        scratch.combo.label(field, |i, id| {
            removed[i] != EMPTY && role_of(roles, id) == Role::Normal
        });
        out.stats
            .groups
            .extend(scratch.combo.group_sizes().iter().map(|&g| g as usize));
        for &i in &out.deleted {
            field.cells[i] = EMPTY;
        }
    }

    for y in (0..h).rev() {
        for x in 0..w {
            let i = y * w + x;
            let want = req.down.get(i).copied().unwrap_or(0);
            if field.cells[i] == EMPTY || want == 0 {
                continue;
            }
            let mut to = y;
            let mut left = want;
            while left > 0 && to + 1 < h && field.cells[(to + 1) * w + x] == EMPTY {
                to += 1;
                left -= 1;
            }
            if to != y {
                let j = to * w + x;
                field.cells[j] = field.cells[i];
                field.cells[i] = EMPTY;
                out.moved.push((i, j));
            }
        }
    }
}

/// A value of `table` at `index`, the last entry repeating beyond the end; 0 for an empty table.
fn table_at(table: &[u64], index: usize) -> u64 {
    table.get(index).or(table.last()).copied().unwrap_or(0)
}

/// The points of one clear step under the Puyo Puyo Tsu formula; `chain` is 1 for the first.
///
/// `10 × erased × clamp(chain_bonus[chain] + Σ group_bonus[size] + color_bonus[colors], 1, 999)`
/// over the groups of `stats`, each table indexed with its last entry repeating beyond its end
/// (so the Tsu group table's 11th entry serves every group of 11 or more:
/// `../shared/corpus/falling/puyo_scoring.json` `score.coef_formula`). Garbage scores
/// nothing. Saturates instead of overflowing on huge tables.
pub fn puyo_step_score(chain: u32, stats: &ClearStats, table: &PuyoScore) -> u64 {
    10u64
        .saturating_mul(stats.erased as u64)
        .saturating_mul(puyo_coef(chain, stats, table))
}

/// The clamped multiplier of [`puyo_step_score`]: `clamp(chain_bonus[chain] + Σ
/// group_bonus[size] + color_bonus[colors], 1, 999)` (puyoai's `coef`).
pub fn puyo_coef(chain: u32, stats: &ClearStats, table: &PuyoScore) -> u64 {
    let chain = usize::try_from(chain).unwrap_or(usize::MAX);
    let groups = stats.groups.iter().fold(0u64, |sum, &g| {
        sum.saturating_add(table_at(&table.group_bonus, g))
    });
    table_at(&table.chain_bonus, chain)
        .saturating_add(groups)
        .saturating_add(table_at(&table.color_bonus, stats.colors))
        .clamp(1, 999)
}

/// The points for clearing `rows` rows at once under a `rows` score rule: `points[rows]`, the
/// last entry repeating beyond the end; 0 with no points.
pub fn rows_score(rows: usize, points: &[u64]) -> u64 {
    table_at(points, rows)
}

/// Resolves `field` under the built-in rules with instant timing (no block ever in motion):
/// runs [`builtin_update_with`] and [`apply_requests_into`] frame after frame until a frame
/// removes and moves nothing, and returns one [`ClearStats`] per frame that removed blocks
/// (per chain link, for `connected` + `gravity`). `roles` is per block kind (id − 1).
///
/// Always ends: each frame that goes on removes a block or moves one down. Allocates only its
/// buffers, once.
pub fn settle(
    field: &mut Field,
    roles: &[Role],
    hidden_rows: usize,
    clear: &[ClearRule],
    fall: &[FallLaw],
) -> Vec<ClearStats> {
    let cx = RuleContext {
        roles,
        hidden_rows,
        moving: &[],
    };
    let mut req = Requests::new(field.cells.len());
    let mut scratch = RuleScratch::default();
    let mut applied = Applied::default();
    let mut steps = Vec::new();
    loop {
        req.reset();
        builtin_update_with(field, &cx, clear, fall, &mut req, &mut scratch);
        apply_requests_into(field, roles, &req, &mut scratch, &mut applied);
        if applied.deleted.is_empty() && applied.moved.is_empty() {
            return steps;
        }
        if !applied.deleted.is_empty() {
            steps.push(applied.stats.clone());
        }
    }
}

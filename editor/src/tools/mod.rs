//! Painting tools as state machines fed cell events.
//!
//! A mouse press on a cell starts a [`Stroke`]; each move to another cell updates it; the
//! release finishes it. While it runs, [`Stroke::preview`] lists the cells to draw over the map;
//! [`Stroke::finish`] gives the changed cells (the caller makes them one undo step) and, for
//! the selection tool, the new selection. Cells are [`Pos`] (x = column, y = row).
//!
//! The tools work on any map of [`MapCell`]s; each kind implements [`MapCell`] for its cell
//! type in its own module (boulder: one token with values; baba: a stack of objects).

use std::collections::HashSet;

use tilesmith_engine::{Grid, Pos};

/// What a map cell must offer the tools: an empty value (what Delete and Cut leave), painting
/// with a brush, and the "same area" test of flood fill.
pub trait MapCell: Clone + PartialEq + std::fmt::Debug {
    /// What a mouse button paints with.
    type Brush: Clone + std::fmt::Debug;
    /// The empty cell (boulder: `path`; baba: no object).
    fn empty() -> Self;
    /// This cell after painting it with `brush`.
    fn painted(&self, brush: &Self::Brush) -> Self;
    /// True when flood fill spreads from `self` into `other`.
    fn same_area(&self, other: &Self) -> bool;
}

/// A canvas tool.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tool {
    /// Paints cells under the pointer (boulder: the token; baba: the tile, on top of or
    /// instead of the stack).
    Pencil,
    /// Paints a rectangle, filled or outlined.
    Rect,
    /// Paints a straight line.
    Line,
    /// Fills the 4-connected area of equal tokens (baba: of identical stacks).
    Fill,
    /// Picks a cell's token (baba: its top object and facing) as the left or right brush.
    Eyedropper,
    /// Selects a rectangle; dragging inside the selection moves its contents.
    Select,
}

impl Tool {
    /// Every tool, in toolbar order.
    pub const ALL: [Tool; 6] = [
        Tool::Pencil,
        Tool::Rect,
        Tool::Line,
        Tool::Fill,
        Tool::Eyedropper,
        Tool::Select,
    ];

    /// The tool's name as shown on its button.
    pub const fn name(self) -> &'static str {
        match self {
            Tool::Pencil => "Pencil",
            Tool::Rect => "Rectangle",
            Tool::Line => "Line",
            Tool::Fill => "Fill",
            Tool::Eyedropper => "Eyedropper",
            Tool::Select => "Select",
        }
    }

    /// The key that selects the tool (a letter, no modifier).
    pub fn key(self) -> char {
        match self {
            Tool::Pencil => 'P',
            Tool::Rect => 'R',
            Tool::Line => 'L',
            Tool::Fill => 'F',
            Tool::Eyedropper => 'I',
            Tool::Select => 'S',
        }
    }

    /// The tooltip, naming the shortcut.
    pub fn tooltip(self) -> String {
        let what = match self {
            Tool::Pencil => {
                "left button paints the primary token or tile, right button the secondary"
            }
            Tool::Rect => "drag a rectangle (filled or outline, see the option)",
            Tool::Line => "drag a straight line",
            Tool::Fill => {
                "fill the connected area of the same cell (a token, or a whole stack where cells hold stacks)"
            }
            Tool::Eyedropper => {
                "left click picks the primary token (of a stack, its top object), right click the secondary (Alt+click works with any tool)"
            }
            Tool::Select => {
                "drag to select; drag inside the selection to move it; Ctrl+C/X/V, Delete"
            }
        };
        format!("{} ({}): {what}", self.name(), self.key())
    }
}

/// Which mouse button drives a stroke.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Button {
    /// The left button: the primary token.
    Primary,
    /// The right button: the secondary token.
    Secondary,
}

/// A rectangle of cells, corners included: columns `x0..=x1`, rows `y0..=y1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CellRect {
    /// Leftmost column.
    pub x0: usize,
    /// Top row.
    pub y0: usize,
    /// Rightmost column (inclusive).
    pub x1: usize,
    /// Bottom row (inclusive).
    pub y1: usize,
}

impl CellRect {
    /// The rectangle spanned by two corner cells, in any order.
    pub fn span(a: Pos, b: Pos) -> Self {
        Self {
            x0: a.x.min(b.x),
            y0: a.y.min(b.y),
            x1: a.x.max(b.x),
            y1: a.y.max(b.y),
        }
    }

    /// Width in cells.
    pub fn width(&self) -> usize {
        self.x1 - self.x0 + 1
    }

    /// Height in cells.
    pub fn height(&self) -> usize {
        self.y1 - self.y0 + 1
    }

    /// True when `p` is inside.
    pub fn contains(&self, p: Pos) -> bool {
        (self.x0..=self.x1).contains(&p.x) && (self.y0..=self.y1).contains(&p.y)
    }

    /// Every cell, row by row.
    pub fn cells(&self) -> impl Iterator<Item = Pos> + '_ {
        (self.y0..=self.y1).flat_map(move |y| (self.x0..=self.x1).map(move |x| Pos::new(x, y)))
    }

    /// This rectangle clipped to a `w` × `h` map; `None` when nothing is left.
    pub fn clip(&self, w: usize, h: usize) -> Option<Self> {
        if self.x0 >= w || self.y0 >= h {
            return None;
        }
        Some(Self {
            x1: self.x1.min(w - 1),
            y1: self.y1.min(h - 1),
            ..*self
        })
    }
}

/// The cells of a straight line from `a` to `b`, both included (Bresenham).
pub fn line_cells(a: Pos, b: Pos) -> Vec<Pos> {
    let (mut x, mut y) = (a.x as i64, a.y as i64);
    let (x1, y1) = (b.x as i64, b.y as i64);
    let dx = (x1 - x).abs();
    let dy = -(y1 - y).abs();
    let sx = if x < x1 { 1 } else { -1 };
    let sy = if y < y1 { 1 } else { -1 };
    let mut err = dx + dy;
    let mut out = Vec::new();
    loop {
        out.push(Pos::new(x as usize, y as usize));
        if x == x1 && y == y1 {
            break;
        }
        let e2 = 2 * err;
        if e2 >= dy {
            err += dy;
            x += sx;
        }
        if e2 <= dx {
            err += dx;
            y += sy;
        }
    }
    out
}

/// The 4-connected area of cells in the same area as `start` ([`MapCell::same_area`]: the same
/// token, or the same stack), start first.
pub fn flood_area<C: MapCell>(map: &Grid<C>, start: Pos) -> Vec<Pos> {
    let Some(first) = map.get(start) else {
        return Vec::new();
    };
    let (w, h) = (map.width(), map.height());
    let mut seen = vec![false; w * h];
    let mut out = Vec::new();
    let mut stack = vec![start];
    seen[map.index(start)] = true;
    while let Some(p) = stack.pop() {
        out.push(p);
        for d in tilesmith_engine::Dir::ALL {
            if let Some(q) = p.step(d, w, h) {
                let i = map.index(q);
                if !seen[i] && first.same_area(&map.cells()[i]) {
                    seen[i] = true;
                    stack.push(q);
                }
            }
        }
    }
    out
}

/// What a stroke is doing.
#[derive(Clone, Debug)]
enum Mode<C> {
    /// Pencil: the cells painted so far.
    Paint(HashSet<Pos>),
    /// Rectangle (filled or not) or line from `start` to `last`.
    Shape,
    /// Flood fill (the area is fixed at the press).
    Fill,
    /// A new selection from `start` to `last`.
    Select,
    /// Moving the contents of `from` by `last - start`.
    Move { from: CellRect, content: Grid<C> },
}

/// A drag in progress, from press to release.
#[derive(Clone, Debug)]
pub struct Stroke<C: MapCell> {
    /// The tool that started it.
    pub tool: Tool,
    /// What it paints.
    pub brush: C::Brush,
    /// The cell pressed.
    pub start: Pos,
    /// The cell under the pointer now.
    pub last: Pos,
    /// Rectangles are filled (true) or outlines.
    pub filled: bool,
    mode: Mode<C>,
    /// The cells to draw over the map, with their would-be contents.
    pub preview: Vec<(Pos, C)>,
}

/// What a finished stroke gives.
#[derive(Debug)]
pub struct Outcome<C> {
    /// The name of the edit ("Pencil", "Move selection", …).
    pub name: &'static str,
    /// The cells to change (possibly equal to the map's: the caller drops those).
    pub cells: Vec<(Pos, C)>,
    /// The new selection, when the stroke changes it (`Some(None)` clears it).
    pub selection: Option<Option<CellRect>>,
}

impl<C: MapCell> Stroke<C> {
    /// Starts a stroke of `tool` at `pos` painting with `brush`. `selection` is the current selection
    /// (a select press inside it starts a move). Returns `None` for the eyedropper (it acts at
    /// once) and for positions outside the map.
    pub fn begin(
        tool: Tool,
        brush: C::Brush,
        pos: Pos,
        filled: bool,
        map: &Grid<C>,
        selection: Option<CellRect>,
    ) -> Option<Stroke<C>> {
        if !map.contains(pos) {
            return None;
        }
        let mode = match tool {
            Tool::Pencil => Mode::Paint(HashSet::new()),
            Tool::Rect | Tool::Line => Mode::Shape,
            Tool::Fill => Mode::Fill,
            Tool::Eyedropper => return None,
            Tool::Select => match selection {
                Some(sel) if sel.contains(pos) => Mode::Move {
                    from: sel,
                    content: copy_rect(map, sel),
                },
                _ => Mode::Select,
            },
        };
        let mut s = Stroke {
            tool,
            brush,
            start: pos,
            last: pos,
            filled,
            mode,
            preview: Vec::new(),
        };
        if let Mode::Fill = s.mode {
            s.preview = flood_area(map, pos)
                .into_iter()
                .filter_map(|p| Some((p, map.get(p)?.painted(&s.brush))))
                .collect();
        } else {
            s.update(pos, map);
        }
        Some(s)
    }

    /// The pointer moved onto `pos` (clamped into the map).
    pub fn moved(&mut self, pos: Pos, map: &Grid<C>) {
        let pos = Pos::new(
            pos.x.min(map.width().saturating_sub(1)),
            pos.y.min(map.height().saturating_sub(1)),
        );
        if pos != self.last {
            self.update(pos, map);
        }
    }

    fn update(&mut self, pos: Pos, map: &Grid<C>) {
        let from = self.last;
        self.last = pos;
        let brush = &self.brush;
        let paint = |p: Pos| Some((p, map.get(p)?.painted(brush)));
        match &mut self.mode {
            Mode::Paint(done) => {
                for p in line_cells(from, pos) {
                    if done.insert(p)
                        && let Some(c) = paint(p)
                    {
                        self.preview.push(c);
                    }
                }
            }
            Mode::Shape => {
                self.preview = if self.tool == Tool::Line {
                    line_cells(self.start, pos)
                } else {
                    let r = CellRect::span(self.start, pos);
                    r.cells()
                        .filter(|p| {
                            self.filled || p.x == r.x0 || p.x == r.x1 || p.y == r.y0 || p.y == r.y1
                        })
                        .collect()
                }
                .into_iter()
                .filter_map(paint)
                .collect();
            }
            Mode::Fill | Mode::Select => {}
            Mode::Move { from, content } => {
                let (dx, dy) = (
                    pos.x as i64 - self.start.x as i64,
                    pos.y as i64 - self.start.y as i64,
                );
                self.preview = move_cells(map, *from, content, dx, dy).0;
            }
        }
    }

    /// The selection rectangle being dragged (select tool), or the moved selection.
    pub fn selection_preview(&self, map: &Grid<C>) -> Option<CellRect> {
        match &self.mode {
            Mode::Select => Some(CellRect::span(self.start, self.last)),
            Mode::Move { from, content } => {
                let (dx, dy) = (
                    self.last.x as i64 - self.start.x as i64,
                    self.last.y as i64 - self.start.y as i64,
                );
                move_cells(map, *from, content, dx, dy).1
            }
            _ => None,
        }
    }

    /// Ends the stroke: the cells to change (named after the tool) and any new selection.
    pub fn finish(self, map: &Grid<C>) -> Outcome<C> {
        let selection = self.selection_preview(map);
        match self.mode {
            Mode::Select => Outcome {
                name: "Select",
                cells: Vec::new(),
                selection: Some(selection),
            },
            Mode::Move { .. } => Outcome {
                name: "Move selection",
                cells: self.preview,
                selection: Some(selection),
            },
            _ => Outcome {
                name: self.tool.name(),
                cells: self.preview,
                selection: None,
            },
        }
    }
}

/// Copies the cells of `r` (clipped to the map) into a new grid.
pub fn copy_rect<C: MapCell>(map: &Grid<C>, r: CellRect) -> Grid<C> {
    let Some(r) = r.clip(map.width(), map.height()) else {
        return Grid::new(1, 1, C::empty());
    };
    let cells: Vec<C> = r
        .cells()
        .map(|p| map.get(p).cloned().unwrap_or_else(C::empty))
        .collect();
    Grid::from_vec(r.width(), r.height(), cells).unwrap_or_else(|| Grid::new(1, 1, C::empty()))
}

/// The new cells when `content` (from `from`) moves by `(dx, dy)`: the old place becomes
/// empty, the new place gets the content (clipped to the map). Also the moved rectangle.
pub fn move_cells<C: MapCell>(
    map: &Grid<C>,
    from: CellRect,
    content: &Grid<C>,
    dx: i64,
    dy: i64,
) -> (Vec<(Pos, C)>, Option<CellRect>) {
    let mut out: Vec<(Pos, C)> = from.cells().map(|p| (p, C::empty())).collect();
    let pasted = paste_cells(map, content, from.x0 as i64 + dx, from.y0 as i64 + dy);
    let rect = rect_of(&pasted);
    let set: HashSet<Pos> = pasted.iter().map(|(p, _)| *p).collect();
    out.retain(|(p, _)| !set.contains(p));
    out.extend(pasted);
    (out, rect)
}

/// The cells `content` covers when its top-left cell is put at column `x`, row `y` (which may
/// be negative), clipped to the map.
pub fn paste_cells<C: MapCell>(map: &Grid<C>, content: &Grid<C>, x: i64, y: i64) -> Vec<(Pos, C)> {
    let (w, h) = (map.width() as i64, map.height() as i64);
    content
        .iter()
        .filter_map(|(p, c)| {
            let (px, py) = (x + p.x as i64, y + p.y as i64);
            (px >= 0 && py >= 0 && px < w && py < h)
                .then(|| (Pos::new(px as usize, py as usize), c.clone()))
        })
        .collect()
}

/// The bounding rectangle of some cells.
pub fn rect_of<C>(cells: &[(Pos, C)]) -> Option<CellRect> {
    let first = cells.first()?.0;
    Some(
        cells
            .iter()
            .fold(CellRect::span(first, first), |r, (p, _)| CellRect {
                x0: r.x0.min(p.x),
                y0: r.y0.min(p.y),
                x1: r.x1.max(p.x),
                y1: r.y1.max(p.y),
            }),
    )
}

/// How far (columns, rows) a cell moves when a map of `old` (width, height) cells is resized
/// to `new` with `anchor` (0–2, 0–2): by the size change times 0, ½ or 1 (rounded toward
/// zero), so (0, 0) keeps the top-left in place, (1, 1) the centre, (2, 2) the bottom-right.
pub fn resize_offset(old: (usize, usize), new: (usize, usize), anchor: (u8, u8)) -> (i64, i64) {
    let off = |new: usize, old: usize, a: u8| (new as i64 - old as i64) * a.min(2) as i64 / 2;
    (off(new.0, old.0, anchor.0), off(new.1, old.1, anchor.1))
}

/// `map` resized to `w` × `h` (each at least 1): `anchor` (0–2, 0–2) says which part stays in
/// place ((0, 0) the top-left, (1, 1) the centre, (2, 2) the bottom-right); new cells are
/// empty.
pub fn resized<C: MapCell>(map: &Grid<C>, w: usize, h: usize, anchor: (u8, u8)) -> Grid<C> {
    let (w, h) = (w.max(1), h.max(1));
    let (dx, dy) = resize_offset((map.width(), map.height()), (w, h), anchor);
    let mut out = Grid::new(w, h, C::empty());
    for (p, c) in map.iter() {
        let (x, y) = (p.x as i64 + dx, p.y as i64 + dy);
        if x >= 0
            && y >= 0
            && let Some(m) = out.get_mut(Pos::new(x as usize, y as usize))
        {
            *m = c.clone();
        }
    }
    out
}

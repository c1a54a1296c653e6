//! The generic map document: a level whose map is a [`Grid`] of cells, with its undo history,
//! the stroke in progress and the clipboard. Undo, redo, copy, cut, paste, move, delete and
//! resize are written once here, for every kind whose level has a map ([`MapLevel`]).
//!
//! Edits are [`DocEdit`]s: the map-wide ones (cells, the whole map, the whole level) are the
//! same for every kind; a kind adds its own edits (boulder's properties and rules, baba's name)
//! as the `K` parameter. Cells are [`Pos`] with `x` = column from the left and `y` = row from
//! the top.

use serde_json::Value;
use tilesmith_engine::{Grid, Pos, Problem};

use super::history::{History, Undoable, absorb_cells, changed_cells, swap_cells};
use crate::tools::{Button, CellRect, MapCell, Stroke, Tool, copy_rect, paste_cells, rect_of};

/// A check of the design to run on a worker thread: gives `GameKind::check` of the document
/// (made by `KindDoc::check_job`; here, below the document seam, so the map's own
/// [`MapDoc::check_job`] needs nothing from above).
pub type CheckJob = Box<dyn FnOnce() -> Vec<Problem> + Send>;

/// The most cells Copy also puts on the system clipboard as JSON (larger selections stay in
/// the editor's own clipboard).
pub const MAX_CLIPBOARD_TEXT_CELLS: usize = 100_000;

/// The longest system-clipboard text Paste reads as cells (64 MiB).
pub const MAX_CLIPBOARD_TEXT_BYTES: usize = 64 << 20;

/// A level with a map of cells, as the generic map document needs it.
pub trait MapLevel: Clone + PartialEq + std::fmt::Debug {
    /// One map cell (boulder: a token with values; baba: a stack of objects).
    type Cell: MapCell;
    /// The map, row-major (`map[y][x]`).
    fn map(&self) -> &Grid<Self::Cell>;
    /// The map, to change.
    fn map_mut(&mut self) -> &mut Grid<Self::Cell>;
    /// The largest side and the most cells a map of this kind may have.
    fn limits() -> (usize, usize);
    /// Why the map cannot be resized, for a kind whose map size is not the designer's to
    /// change (board: it comes from the rules); `None` (the default) for a resizable map.
    fn fixed_size() -> Option<&'static str> {
        None
    }
    /// A cell in the level file's JSON form (for the system clipboard).
    fn cell_to_json(cell: &Self::Cell) -> Value;
    /// A cell from the level file's JSON form; `None` when it is not one.
    fn cell_from_json(v: &Value) -> Option<Self::Cell>;
    /// The level from a level document of its kind.
    ///
    /// # Errors
    /// Every error-severity problem, with its JSON path.
    fn from_json(doc: &Value) -> Result<Self, Vec<Problem>>;
    /// The level as a level document (what Save writes).
    fn to_json(&self) -> Value;
}

/// One undoable change to a map document: the map-wide edits every kind has, or a kind's own
/// edit `K` (which swaps with the same level type).
#[derive(Clone, Debug)]
pub enum DocEdit<L: MapLevel, K> {
    /// Some cells: each `(pos, cell)` is swapped with the map's cell at `pos` (each position
    /// at most once). Positions outside the map are skipped.
    Cells {
        /// The name shown in the history list.
        name: String,
        /// The cells to swap in.
        cells: Vec<(Pos, L::Cell)>,
    },
    /// The whole map (a resize).
    Map {
        /// The name shown in the history list.
        name: String,
        /// The map to swap in.
        map: Grid<L::Cell>,
    },
    /// The whole level (use a play state as the design, reload from disk).
    Level {
        /// The name shown in the history list.
        name: String,
        /// The level to swap in.
        level: Box<L>,
    },
    /// An edit only this kind has (properties, rules, name).
    Kind(K),
}

impl<L: MapLevel, K: Undoable<Target = L>> Undoable for DocEdit<L, K> {
    type Target = L;

    fn name(&self) -> &str {
        match self {
            DocEdit::Cells { name, .. }
            | DocEdit::Map { name, .. }
            | DocEdit::Level { name, .. } => name,
            DocEdit::Kind(k) => k.name(),
        }
    }

    fn apply_swap(&mut self, level: &mut L) {
        match self {
            DocEdit::Cells { cells, .. } => swap_cells(level.map_mut(), cells),
            DocEdit::Map { map, .. } => std::mem::swap(level.map_mut(), map),
            DocEdit::Level { level: l, .. } => std::mem::swap(level, l.as_mut()),
            DocEdit::Kind(k) => k.apply_swap(level),
        }
    }

    fn absorb(&mut self, newer: Self) -> Result<(), Self> {
        match (self, newer) {
            (DocEdit::Cells { cells: old, .. }, DocEdit::Cells { cells: new, .. }) => {
                absorb_cells(old, new);
                Ok(())
            }
            (DocEdit::Kind(old), DocEdit::Kind(new)) => old.absorb(new).map_err(DocEdit::Kind),
            (_, e) => Err(e),
        }
    }

    /// The edit and the cells it holds (a cell counted by its size; a stack of baba
    /// objects by its inline part), a whole map or a whole level's map.
    fn bytes(&self) -> usize {
        std::mem::size_of::<Self>()
            + match self {
                DocEdit::Cells { cells, .. } => {
                    cells.capacity() * std::mem::size_of::<(Pos, L::Cell)>()
                }
                DocEdit::Map { map, .. } => std::mem::size_of_val(map.cells()),
                DocEdit::Level { level, .. } => {
                    std::mem::size_of::<L>() + std::mem::size_of_val(level.map().cells())
                }
                DocEdit::Kind(k) => k.bytes(),
            }
    }
}

impl<L: MapLevel, K> DocEdit<L, K> {
    /// A cells edit from the wanted new cells, keeping only those that differ from `level`
    /// (and are inside it). `None` when nothing would change.
    pub fn cells(name: &str, level: &L, new: Vec<(Pos, L::Cell)>) -> Option<Self> {
        changed_cells(level.map(), new).map(|cells| DocEdit::Cells {
            name: name.into(),
            cells,
        })
    }
}

/// The map operations the shell runs on any kind's document, written once by [`MapDoc`].
/// Rectangles and positions are in cells (x = column, y = row).
pub trait MapOps {
    /// `(width, height)` of the design's map.
    fn size(&self) -> (usize, usize);
    /// The largest side and the most cells a map of this kind may have.
    fn limits(&self) -> (usize, usize);
    /// Why the map cannot be resized (then the resize fields are not shown and
    /// [`MapOps::resize`] refuses); `None` for a resizable map.
    fn fixed_size(&self) -> Option<&'static str>;
    /// Undoes the last edit (ending any stroke); false when there is none.
    fn undo(&mut self) -> bool;
    /// Redoes the last undone edit; false when there is none.
    fn redo(&mut self) -> bool;
    /// Undoes or redoes until `n` edits are applied.
    fn history_go_to(&mut self, n: usize);
    /// Names of the applied edits, oldest first.
    fn done_names(&self) -> Vec<&str>;
    /// Names of the undone edits, the next to redo first.
    fn undone_names(&self) -> Vec<&str>;
    /// How many of the oldest edits were dropped from the history to keep within its
    /// memory budget ([`crate::doc::history::History::set_budget`]).
    fn history_trimmed(&self) -> usize;
    /// A number that changes whenever the document may have changed.
    fn generation(&self) -> u64;
    /// True when there are unsaved changes.
    fn dirty(&self) -> bool;
    /// Records the current position as saved.
    fn mark_saved(&mut self);
    /// Marks the document as never saved in its current state.
    fn mark_unsaved(&mut self);
    /// Ends merging of the top history entry.
    fn seal(&mut self);
    /// Copies the cells of `r` to the clipboard.
    fn copy(&mut self, r: CellRect);
    /// Empties the cells of `r` as one edit named `name` (Delete, Cut); false when nothing
    /// changed.
    fn clear(&mut self, r: CellRect, name: &str) -> bool;
    /// Pastes the clipboard with its top-left cell at `at` as one edit; the pasted rectangle
    /// (clipped to the map), or `Err` when the clipboard is empty.
    ///
    /// # Errors
    /// A message when there is nothing to paste.
    fn paste(&mut self, at: Pos) -> Result<Option<CellRect>, String>;
    /// The clipboard as the level file's JSON cell array (rows of cells, top row first).
    fn clipboard_text(&self) -> Option<String>;
    /// Takes a JSON cell array (as [`MapOps::clipboard_text`] writes it) as the clipboard;
    /// false (clipboard unchanged) when the text is not one for this kind.
    fn clipboard_from_text(&mut self, text: &str) -> bool;
    /// Resizes the map to `w` × `h` as one edit; `anchor` (0–2, 0–2) says which side stays.
    ///
    /// # Errors
    /// A message when the size is over the kind's limits. `Ok(false)`: the size is unchanged.
    fn resize(&mut self, w: usize, h: usize, anchor: (u8, u8)) -> Result<bool, String>;
    /// Moves the stroke in progress to `pos`.
    fn stroke_drag(&mut self, pos: Pos);
    /// Finishes the stroke in progress as one edit; the selection it gives: `None` unchanged
    /// (or no stroke), `Some(None)` cleared.
    fn stroke_finish(&mut self) -> Option<Option<CellRect>>;
    /// Drops the stroke in progress.
    fn stroke_cancel(&mut self);
    /// The cell the stroke in progress last reached.
    fn stroke_last(&self) -> Option<Pos>;
    /// The selection rectangle being dragged or moved, if any.
    fn stroke_selection(&self) -> Option<CellRect>;
    /// The stroke's start, last cell and preview length (for caches that follow a stroke).
    fn stroke_key(&self) -> Option<(Pos, Pos, usize)>;
}

/// A document whose level `L` has a map: the level, its history, the stroke and the clipboard.
#[derive(Debug)]
pub struct MapDoc<L: MapLevel, K> {
    /// The level being edited (the design).
    pub level: L,
    /// Its undo history.
    pub history: History<DocEdit<L, K>>,
    /// The drag in progress.
    pub stroke: Option<Stroke<L::Cell>>,
    /// The editor's clipboard (cells copied from a selection).
    pub clipboard: Option<Grid<L::Cell>>,
}

impl<L: MapLevel, K: Undoable<Target = L>> MapDoc<L, K> {
    /// A document editing `level`, with an empty history.
    pub fn new(level: L) -> Self {
        Self {
            level,
            history: History::default(),
            stroke: None,
            clipboard: None,
        }
    }

    /// Applies and records `e`; `merge` as in [`History::push`].
    pub fn push(&mut self, e: DocEdit<L, K>, merge: Option<&str>) {
        self.history.push(&mut self.level, e, merge);
    }

    /// Records the cells of `new` that differ as one edit named `name`; false when none did.
    pub fn push_cells(
        &mut self,
        name: &str,
        new: Vec<(Pos, L::Cell)>,
        merge: Option<&str>,
    ) -> bool {
        match DocEdit::cells(name, &self.level, new) {
            Some(e) => {
                self.push(e, merge);
                true
            }
            None => false,
        }
    }

    /// Replaces the whole level as one edit named `name`.
    pub fn push_level(&mut self, name: &str, level: L) {
        self.push(
            DocEdit::Level {
                name: name.into(),
                level: Box::new(level),
            },
            None,
        );
    }

    /// Starts a stroke of `tool` with `brush` at `pos` (a new history entry).
    pub fn begin_stroke(
        &mut self,
        tool: Tool,
        brush: <L::Cell as MapCell>::Brush,
        pos: Pos,
        filled: bool,
        selection: Option<CellRect>,
    ) {
        self.history.seal();
        self.stroke = Stroke::begin(tool, brush, pos, filled, self.level.map(), selection);
    }

    /// The design as a level document.
    pub fn to_json(&self) -> Value {
        self.level.to_json()
    }

    /// Replaces the design by the level document `doc` as one edit named `name`.
    ///
    /// # Errors
    /// The document's problems when it is not a level of this kind.
    pub fn load(&mut self, name: &str, doc: &Value) -> Result<(), Vec<Problem>> {
        let level = L::from_json(doc)?;
        self.push_level(name, level);
        Ok(())
    }

    /// True when the design equals the level document `doc`.
    pub fn is_level(&self, doc: &Value) -> bool {
        L::from_json(doc).is_ok_and(|l| l == self.level)
    }

    /// A check of a copy of the design for a worker thread (see `KindDoc::check_job`).
    pub fn check_job(&self, kind: &'static dyn tilesmith_engine::GameKind) -> CheckJob
    where
        L: Send + 'static,
    {
        let level = self.level.clone();
        Box::new(move || kind.check(&level.to_json()))
    }

    /// The cell at `pos` of the design, if inside.
    pub fn cell(&self, pos: Pos) -> Option<&L::Cell> {
        self.level.map().get(pos)
    }
}

/// Which mouse button's brush: a pair of brushes indexed by button.
pub fn by_button<T: Copy>(pair: (T, T), b: Button) -> T {
    match b {
        Button::Primary => pair.0,
        Button::Secondary => pair.1,
    }
}

impl<L: MapLevel, K: Undoable<Target = L>> MapOps for MapDoc<L, K> {
    fn size(&self) -> (usize, usize) {
        (self.level.map().width(), self.level.map().height())
    }

    fn limits(&self) -> (usize, usize) {
        L::limits()
    }

    fn fixed_size(&self) -> Option<&'static str> {
        L::fixed_size()
    }

    fn undo(&mut self) -> bool {
        self.stroke = None;
        self.history.undo(&mut self.level)
    }

    fn redo(&mut self) -> bool {
        self.stroke = None;
        self.history.redo(&mut self.level)
    }

    fn history_go_to(&mut self, n: usize) {
        self.stroke = None;
        self.history.go_to(&mut self.level, n);
    }

    fn done_names(&self) -> Vec<&str> {
        self.history.done_names()
    }

    fn undone_names(&self) -> Vec<&str> {
        self.history.undone_names()
    }

    fn history_trimmed(&self) -> usize {
        self.history.trimmed()
    }

    fn generation(&self) -> u64 {
        self.history.generation()
    }

    fn dirty(&self) -> bool {
        self.history.dirty()
    }

    fn mark_saved(&mut self) {
        self.history.mark_saved();
    }

    fn mark_unsaved(&mut self) {
        self.history.mark_unsaved();
    }

    fn seal(&mut self) {
        self.history.seal();
    }

    fn copy(&mut self, r: CellRect) {
        self.clipboard = Some(copy_rect(self.level.map(), r));
    }

    fn clear(&mut self, r: CellRect, name: &str) -> bool {
        let new = r.cells().map(|p| (p, L::Cell::empty())).collect();
        self.push_cells(name, new, None)
    }

    fn paste(&mut self, at: Pos) -> Result<Option<CellRect>, String> {
        let Some(clip) = &self.clipboard else {
            return Err("the clipboard is empty".into());
        };
        let cells = paste_cells(self.level.map(), clip, at.x as i64, at.y as i64);
        let rect = rect_of(&cells);
        self.push_cells("Paste", cells, None);
        Ok(rect)
    }

    fn clipboard_text(&self) -> Option<String> {
        let clip = self.clipboard.as_ref()?;
        if clip.width() * clip.height() > MAX_CLIPBOARD_TEXT_CELLS {
            return None;
        }
        let rows: Vec<Value> = (0..clip.height())
            .map(|y| {
                Value::Array(
                    (0..clip.width())
                        .filter_map(|x| clip.get(Pos::new(x, y)).map(L::cell_to_json))
                        .collect(),
                )
            })
            .collect();
        Some(tilesmith_engine::json_text::layout(&Value::Array(rows)))
    }

    fn clipboard_from_text(&mut self, text: &str) -> bool {
        // Bounded: at most what Copy writes, and only text that looks like rows of cells.
        let (max_side, max_cells) = L::limits();
        if text.len() > MAX_CLIPBOARD_TEXT_BYTES || !text.trim_start().starts_with('[') {
            return false;
        }
        let Ok(Value::Array(rows)) = serde_json::from_str::<Value>(text) else {
            return false;
        };
        let h = rows.len();
        let w = match rows.first() {
            Some(Value::Array(r)) => r.len(),
            _ => return false,
        };
        if w == 0 || h == 0 || w > max_side || h > max_side || w * h > max_cells {
            return false;
        }
        let mut cells = Vec::with_capacity(w * h);
        for row in &rows {
            let Value::Array(r) = row else { return false };
            if r.len() != w {
                return false;
            }
            for v in r {
                match L::cell_from_json(v) {
                    Some(c) => cells.push(c),
                    None => return false,
                }
            }
        }
        match Grid::from_vec(w, h, cells) {
            Some(g) => {
                self.clipboard = Some(g);
                true
            }
            None => false,
        }
    }

    fn resize(&mut self, width: usize, height: usize, anchor: (u8, u8)) -> Result<bool, String> {
        if let Some(why) = L::fixed_size() {
            return Err(why.into());
        }
        let (max_side, max_cells) = L::limits();
        let (w, h) = (width.clamp(1, max_side), height.clamp(1, max_side));
        if w * h > max_cells {
            return Err(format!("{w}×{h} is too large (at most {max_cells} cells)"));
        }
        if (w, h) == self.size() {
            return Ok(false);
        }
        self.stroke = None;
        let map = crate::tools::resized(self.level.map(), w, h, anchor);
        self.push(
            DocEdit::Map {
                name: format!("Resize to {w}×{h}"),
                map,
            },
            None,
        );
        Ok(true)
    }

    fn stroke_drag(&mut self, pos: Pos) {
        if let Some(s) = &mut self.stroke {
            s.moved(pos, self.level.map());
        }
    }

    fn stroke_finish(&mut self) -> Option<Option<CellRect>> {
        let s = self.stroke.take()?;
        let out = s.finish(self.level.map());
        self.push_cells(out.name, out.cells, None);
        out.selection
    }

    fn stroke_cancel(&mut self) {
        self.stroke = None;
    }

    fn stroke_last(&self) -> Option<Pos> {
        self.stroke.as_ref().map(|s| s.last)
    }

    fn stroke_selection(&self) -> Option<CellRect> {
        self.stroke
            .as_ref()
            .and_then(|s| s.selection_preview(self.level.map()))
    }

    fn stroke_key(&self) -> Option<(Pos, Pos, usize)> {
        self.stroke
            .as_ref()
            .filter(|s| !s.preview.is_empty())
            .map(|s| (s.start, s.last, s.preview.len()))
    }
}

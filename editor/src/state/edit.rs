//! Edits as commands, and the undo history.
//!
//! An [`Edit`] stores the *other side* of a change: [`Edit::apply_swap`] exchanges its stored
//! cells or fields with the level, so the same call undoes and redoes it. The [`History`] keeps
//! applied edits (each holding the values from before) and undone ones (each holding the values
//! from after). Each edit gets a unique id; the document is dirty when the id on top of the undo
//! stack differs from the one recorded at the last save.

use tilesmith_engine::kind::baba::{BabaLevel, Tile};
use tilesmith_engine::kind::boulder::{BoulderLevel, Cell, Rule};
use tilesmith_engine::{Grid, Pos};

/// An edit the [`History`] can keep: it swaps its stored side with the document, and may
/// absorb a newer edit of the same interaction (typing in one field, one cell's inspector).
pub trait Undoable: Sized {
    /// The document the edit changes.
    type Target;
    /// The name shown in the history list.
    fn name(&self) -> &str;
    /// Exchanges the stored side with `target`. Calling it twice restores both.
    fn apply_swap(&mut self, target: &mut Self::Target);
    /// Merges `newer` (already applied after `self`) into this entry, keeping the earliest old
    /// values; gives `newer` back when the two cannot merge.
    fn absorb(&mut self, newer: Self) -> Result<(), Self>;
}

/// Adds the cells of `new` whose position `old` lacks (the entry keeps the earliest values).
fn absorb_cells<C>(old: &mut Vec<(Pos, C)>, new: Vec<(Pos, C)>) {
    let seen: std::collections::HashSet<Pos> = old.iter().map(|(p, _)| *p).collect();
    old.extend(new.into_iter().filter(|(p, _)| !seen.contains(p)));
}

/// The changes of `new` that differ from `map` (and lie inside it); `None` when none do.
fn changed_cells<C: PartialEq>(map: &Grid<C>, new: Vec<(Pos, C)>) -> Option<Vec<(Pos, C)>> {
    let cells: Vec<(Pos, C)> = new
        .into_iter()
        .filter(|(p, c)| map.get(*p).is_some_and(|old| old != c))
        .collect();
    (!cells.is_empty()).then_some(cells)
}

fn swap_cells<C>(map: &mut Grid<C>, cells: &mut [(Pos, C)]) {
    for (p, c) in cells.iter_mut() {
        if let Some(m) = map.get_mut(*p) {
            std::mem::swap(m, c);
        }
    }
}

/// The level properties edited in the properties panel (everything but the map and the rules).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Props {
    /// Display name.
    pub name: String,
    /// Gems needed for 1, 2 and 3 points.
    pub gems: [u32; 3],
    /// Tick limits for 1, 2 and 3 points.
    pub ticks: [u32; 3],
    /// Optional slime limit.
    pub maxslime: Option<u32>,
}

impl Props {
    /// The properties of `level`.
    pub fn of(level: &BoulderLevel) -> Self {
        Self {
            name: level.name.clone(),
            gems: level.gems,
            ticks: level.ticks,
            maxslime: level.maxslime,
        }
    }

    fn swap_with(&mut self, level: &mut BoulderLevel) {
        std::mem::swap(&mut self.name, &mut level.name);
        std::mem::swap(&mut self.gems, &mut level.gems);
        std::mem::swap(&mut self.ticks, &mut level.ticks);
        std::mem::swap(&mut self.maxslime, &mut level.maxslime);
    }
}

/// One undoable change to a level.
#[derive(Clone, Debug)]
pub enum Edit {
    /// Some cells: each `(pos, cell)` is swapped with the map's cell at `pos` (each position at
    /// most once). Positions outside the map are skipped.
    Cells {
        /// The name shown in the history list.
        name: String,
        /// The cells to swap in.
        cells: Vec<(Pos, Cell)>,
    },
    /// The whole map (a resize).
    Map {
        /// The name shown in the history list.
        name: String,
        /// The map to swap in.
        map: Grid<Cell>,
    },
    /// The properties.
    Props {
        /// The name shown in the history list.
        name: String,
        /// The properties to swap in.
        props: Props,
    },
    /// Both rule lists (every change made in the rule editor): swapped with the level's
    /// `pre` and `post`.
    Rules {
        /// The name shown in the history list ("Add rule", "Rule direction", …).
        name: String,
        /// The `pre` list to swap in.
        pre: Vec<Rule>,
        /// The `post` list to swap in.
        post: Vec<Rule>,
    },
    /// The whole level (use a play state as the design, reload from disk).
    Level {
        /// The name shown in the history list.
        name: String,
        /// The level to swap in.
        level: Box<BoulderLevel>,
    },
}

impl Undoable for Edit {
    type Target = BoulderLevel;

    fn name(&self) -> &str {
        match self {
            Edit::Cells { name, .. }
            | Edit::Map { name, .. }
            | Edit::Props { name, .. }
            | Edit::Rules { name, .. }
            | Edit::Level { name, .. } => name,
        }
    }

    fn apply_swap(&mut self, level: &mut BoulderLevel) {
        match self {
            Edit::Cells { cells, .. } => swap_cells(&mut level.map, cells),
            Edit::Map { map, .. } => std::mem::swap(&mut level.map, map),
            Edit::Props { props, .. } => props.swap_with(level),
            Edit::Rules { pre, post, .. } => {
                std::mem::swap(&mut level.pre, pre);
                std::mem::swap(&mut level.post, post);
            }
            Edit::Level { level: l, .. } => std::mem::swap(level, l.as_mut()),
        }
    }

    fn absorb(&mut self, newer: Self) -> Result<(), Self> {
        match (self, newer) {
            (Edit::Cells { cells: old, .. }, Edit::Cells { cells: new, .. }) => {
                absorb_cells(old, new);
                Ok(())
            }
            (Edit::Props { .. }, Edit::Props { .. }) | (Edit::Rules { .. }, Edit::Rules { .. }) => {
                Ok(())
            }
            (_, e) => Err(e),
        }
    }
}

impl Edit {
    /// A cells edit from the wanted new cells, keeping only those that differ from `level`
    /// (and are inside it). `None` when nothing would change.
    pub fn cells(name: &str, level: &BoulderLevel, new: Vec<(Pos, Cell)>) -> Option<Edit> {
        changed_cells(&level.map, new).map(|cells| Edit::Cells {
            name: name.into(),
            cells,
        })
    }
}

/// One undoable change to a baba level.
#[derive(Clone, Debug)]
pub enum BabaEdit {
    /// Some cells' stacks: each `(pos, stack)` is swapped with the map's stack at `pos` (each
    /// position at most once). Positions outside the map are skipped.
    Cells {
        /// The name shown in the history list.
        name: String,
        /// The stacks to swap in (bottom first).
        cells: Vec<(Pos, Vec<Tile>)>,
    },
    /// The whole map (a resize).
    Map {
        /// The name shown in the history list.
        name: String,
        /// The map to swap in.
        map: Grid<Vec<Tile>>,
    },
    /// The level's display name.
    Name {
        /// The name shown in the history list.
        name: String,
        /// The level name to swap in.
        value: String,
    },
    /// The whole level (use a play state as the design, reload from disk).
    Level {
        /// The name shown in the history list.
        name: String,
        /// The level to swap in.
        level: Box<BabaLevel>,
    },
}

impl Undoable for BabaEdit {
    type Target = BabaLevel;

    fn name(&self) -> &str {
        match self {
            BabaEdit::Cells { name, .. }
            | BabaEdit::Map { name, .. }
            | BabaEdit::Name { name, .. }
            | BabaEdit::Level { name, .. } => name,
        }
    }

    fn apply_swap(&mut self, level: &mut BabaLevel) {
        match self {
            BabaEdit::Cells { cells, .. } => swap_cells(&mut level.map, cells),
            BabaEdit::Map { map, .. } => std::mem::swap(&mut level.map, map),
            BabaEdit::Name { value, .. } => std::mem::swap(&mut level.name, value),
            BabaEdit::Level { level: l, .. } => std::mem::swap(level, l.as_mut()),
        }
    }

    fn absorb(&mut self, newer: Self) -> Result<(), Self> {
        match (self, newer) {
            (BabaEdit::Cells { cells: old, .. }, BabaEdit::Cells { cells: new, .. }) => {
                absorb_cells(old, new);
                Ok(())
            }
            (BabaEdit::Name { .. }, BabaEdit::Name { .. }) => Ok(()),
            (_, e) => Err(e),
        }
    }
}

impl BabaEdit {
    /// A cells edit from the wanted new stacks, keeping only those that differ from `level`
    /// (and are inside it). `None` when nothing would change.
    pub fn cells(name: &str, level: &BabaLevel, new: Vec<(Pos, Vec<Tile>)>) -> Option<BabaEdit> {
        changed_cells(&level.map, new).map(|cells| BabaEdit::Cells {
            name: name.into(),
            cells,
        })
    }
}

/// The undo history of one document, of boulder [`Edit`]s or [`BabaEdit`]s.
#[derive(Debug)]
pub struct History<E = Edit> {
    /// Applied edits, oldest first, each with its id; each holds the values from before.
    done: Vec<(u64, E)>,
    /// Undone edits, the next to redo last; each holds the values from after.
    undone: Vec<(u64, E)>,
    next_id: u64,
    /// The id on top of `done` at the last save (0 = the empty history).
    saved: u64,
    /// The merge key of the top edit while it may still absorb further edits.
    merge: Option<String>,
    /// Counts every change (push, undo, redo), for caches.
    changes: u64,
}

impl<E> Default for History<E> {
    fn default() -> Self {
        Self {
            done: Vec::new(),
            undone: Vec::new(),
            next_id: 0,
            saved: 0,
            merge: None,
            changes: 0,
        }
    }
}

impl<E: Undoable> History<E> {
    /// Applies `edit` to `level` and records it; clears the redo list. With a `merge` key equal
    /// to the one of the previous edit (and no undo, save or other edit in between), the two
    /// become one history entry keeping the earliest old values.
    pub fn push(&mut self, level: &mut E::Target, mut edit: E, merge: Option<&str>) {
        edit.apply_swap(level);
        self.changes += 1;
        self.undone.clear();
        let top_id = self.top_id();
        if let (Some(key), Some(open)) = (merge, self.merge.as_deref())
            && key == open
            && top_id != self.saved
            && let Some((_, top)) = self.done.last_mut()
        {
            if let Err(e) = top.absorb(edit) {
                self.next_id += 1;
                self.done.push((self.next_id, e));
            }
            return;
        }
        self.next_id += 1;
        self.done.push((self.next_id, edit));
        self.merge = merge.map(str::to_string);
    }

    /// Undoes the last edit; false when there is none.
    pub fn undo(&mut self, level: &mut E::Target) -> bool {
        self.merge = None;
        match self.done.pop() {
            Some((id, mut e)) => {
                e.apply_swap(level);
                self.changes += 1;
                self.undone.push((id, e));
                true
            }
            None => false,
        }
    }

    /// Redoes the last undone edit; false when there is none.
    pub fn redo(&mut self, level: &mut E::Target) -> bool {
        self.merge = None;
        match self.undone.pop() {
            Some((id, mut e)) => {
                e.apply_swap(level);
                self.changes += 1;
                self.done.push((id, e));
                true
            }
            None => false,
        }
    }

    /// Undoes or redoes until exactly `n` edits are applied (clamped to what exists).
    pub fn go_to(&mut self, level: &mut E::Target, n: usize) {
        while self.done.len() > n && self.undo(level) {}
        while self.done.len() < n && self.redo(level) {}
    }

    /// Names of the applied edits, oldest first.
    pub fn done_names(&self) -> Vec<&str> {
        self.done.iter().map(|(_, e)| e.name()).collect()
    }

    /// Names of the undone edits, the next to redo first.
    pub fn undone_names(&self) -> Vec<&str> {
        self.undone.iter().rev().map(|(_, e)| e.name()).collect()
    }

    /// Number of applied edits.
    pub fn len_done(&self) -> usize {
        self.done.len()
    }

    /// Number of edits that can be redone.
    pub fn len_undone(&self) -> usize {
        self.undone.len()
    }

    fn top_id(&self) -> u64 {
        self.done.last().map_or(0, |(id, _)| *id)
    }

    /// Records the current position as saved.
    pub fn mark_saved(&mut self) {
        self.saved = self.top_id();
        self.merge = None;
    }

    /// Marks the document as never saved in its current state (e.g. a restored autosave).
    pub fn mark_unsaved(&mut self) {
        self.saved = u64::MAX;
    }

    /// True when the position differs from the one at the last save.
    pub fn dirty(&self) -> bool {
        self.top_id() != self.saved
    }

    /// A number that changes whenever the level content may have changed (for caches).
    pub fn generation(&self) -> u64 {
        self.changes
    }

    /// Ends merging, so the next edit starts a new entry (called at the end of an interaction).
    pub fn seal(&mut self) {
        self.merge = None;
    }
}

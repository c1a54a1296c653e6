//! The undo history: edits as commands.
//!
//! An edit stores the *other side* of a change: [`Undoable::apply_swap`] exchanges its stored
//! cells or fields with the document, so the same call undoes and redoes it. The [`History`]
//! keeps applied edits (each holding the values from before) and undone ones (each holding the
//! values from after). Each edit gets a unique id; the document is dirty when the id on top of
//! the undo stack differs from the one recorded at the last save.

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
    /// About the bytes the edit holds, for the history's budget ([`History::set_budget`]):
    /// by default its own size; an edit that holds cells, a map or a level counts them.
    fn bytes(&self) -> usize {
        std::mem::size_of::<Self>()
    }
}

/// An edit that swaps a whole value in and out: a kind whose design changes as one piece
/// (board: name, variant, rules text and pieces; pasta: the program and its members) records
/// the new design, and undo swaps the old one back. Merging keeps the oldest value, so undo
/// goes back past a whole run of typing (the history merges only pushes with one `merge` key).
#[derive(Clone, Debug)]
pub struct SwapEdit<T> {
    /// The name shown in the history list.
    pub name: String,
    /// The value to swap in.
    pub value: Box<T>,
}

impl<T> SwapEdit<T> {
    /// The edit named `name` that puts `value` in.
    pub fn new(name: &str, value: T) -> Self {
        Self {
            name: name.into(),
            value: Box::new(value),
        }
    }
}

impl<T> Undoable for SwapEdit<T> {
    type Target = T;

    fn name(&self) -> &str {
        &self.name
    }

    fn apply_swap(&mut self, target: &mut T) {
        std::mem::swap(target, self.value.as_mut());
    }

    fn absorb(&mut self, _newer: Self) -> Result<(), Self> {
        Ok(())
    }

    fn bytes(&self) -> usize {
        std::mem::size_of::<Self>() + std::mem::size_of::<T>()
    }
}

/// The default budget of a document's undo history in bytes (256 MiB): the oldest edits
/// are dropped first when the edits kept would hold more (the newest is always kept).
pub const DEFAULT_EDIT_HISTORY_BYTES: usize = 256 << 20;

/// One kept edit: its id, the bytes it held when recorded, and the edit.
#[derive(Debug)]
struct Entry<E> {
    id: u64,
    /// [`Undoable::bytes`] when recorded (or last merged); undo and redo swap the edit's
    /// contents, and the running sum takes back exactly what it added.
    bytes: usize,
    edit: E,
}

/// Adds the cells of `new` whose position `old` lacks (the entry keeps the earliest values).
pub(crate) fn absorb_cells<C>(old: &mut Vec<(Pos, C)>, new: Vec<(Pos, C)>) {
    let seen: std::collections::HashSet<Pos> = old.iter().map(|(p, _)| *p).collect();
    old.extend(new.into_iter().filter(|(p, _)| !seen.contains(p)));
}

/// The changes of `new` that differ from `map` (and lie inside it); `None` when none do.
pub(crate) fn changed_cells<C: PartialEq>(
    map: &Grid<C>,
    new: Vec<(Pos, C)>,
) -> Option<Vec<(Pos, C)>> {
    let cells: Vec<(Pos, C)> = new
        .into_iter()
        .filter(|(p, c)| map.get(*p).is_some_and(|old| old != c))
        .collect();
    (!cells.is_empty()).then_some(cells)
}

pub(crate) fn swap_cells<C>(map: &mut Grid<C>, cells: &mut [(Pos, C)]) {
    for (p, c) in cells.iter_mut() {
        if let Some(m) = map.get_mut(*p) {
            std::mem::swap(m, c);
        }
    }
}

/// The undo history of one document, generic over its edit type.
#[derive(Debug)]
pub struct History<E> {
    /// Applied edits, oldest first; each holds the values from before.
    done: std::collections::VecDeque<Entry<E>>,
    /// Undone edits, the next to redo last; each holds the values from after.
    undone: Vec<Entry<E>>,
    /// The bytes `done` and `undone` hold (the sum of their entries' `bytes`).
    bytes: usize,
    /// The most bytes the kept edits may hold.
    budget: usize,
    /// Applied edits dropped from the front of `done` to keep within the budget.
    trimmed: usize,
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
            done: std::collections::VecDeque::new(),
            undone: Vec::new(),
            bytes: 0,
            budget: DEFAULT_EDIT_HISTORY_BYTES,
            trimmed: 0,
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
        for e in self.undone.drain(..) {
            self.bytes -= e.bytes;
        }
        let top_id = self.top_id();
        if let (Some(key), Some(open)) = (merge, self.merge.as_deref())
            && key == open
            && top_id != self.saved
            && let Some(top) = self.done.back_mut()
        {
            match top.edit.absorb(edit) {
                Ok(()) => {
                    let now = top.edit.bytes();
                    self.bytes = self.bytes - top.bytes + now;
                    top.bytes = now;
                }
                Err(e) => self.record(e),
            }
            self.trim();
            return;
        }
        self.record(edit);
        self.merge = merge.map(str::to_string);
        self.trim();
    }

    /// Counts an entry again after it swapped sides (a resize holds the smaller map one way
    /// and the larger the other).
    fn recount(&mut self, e: &mut Entry<E>) {
        let now = e.edit.bytes();
        self.bytes = self.bytes - e.bytes + now;
        e.bytes = now;
    }

    /// Adds an applied edit on top with a new id.
    fn record(&mut self, edit: E) {
        self.next_id += 1;
        let bytes = edit.bytes();
        self.bytes += bytes;
        self.done.push_back(Entry {
            id: self.next_id,
            bytes,
            edit,
        });
    }

    /// Drops the oldest applied edits while the kept ones hold more than the budget; the
    /// newest applied edit is always kept.
    fn trim(&mut self) {
        while self.bytes > self.budget && self.done.len() > 1 {
            if let Some(e) = self.done.pop_front() {
                self.bytes -= e.bytes;
                self.trimmed += 1;
            }
        }
    }

    /// Sets the most bytes the kept edits may hold (default
    /// [`DEFAULT_EDIT_HISTORY_BYTES`]), dropping the oldest applied edits now if needed.
    pub fn set_budget(&mut self, bytes: usize) {
        self.budget = bytes;
        self.trim();
    }

    /// The bytes the kept edits hold, as [`Undoable::bytes`] counts them.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// How many of the oldest edits were dropped to keep within the budget (they can no
    /// longer be undone).
    pub fn trimmed(&self) -> usize {
        self.trimmed
    }

    /// Undoes the last edit; false when there is none.
    pub fn undo(&mut self, level: &mut E::Target) -> bool {
        self.merge = None;
        match self.done.pop_back() {
            Some(mut e) => {
                e.edit.apply_swap(level);
                self.recount(&mut e);
                self.changes += 1;
                self.undone.push(e);
                true
            }
            None => false,
        }
    }

    /// Redoes the last undone edit; false when there is none.
    pub fn redo(&mut self, level: &mut E::Target) -> bool {
        self.merge = None;
        match self.undone.pop() {
            Some(mut e) => {
                e.edit.apply_swap(level);
                self.recount(&mut e);
                self.changes += 1;
                self.done.push_back(e);
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
        self.done.iter().map(|e| e.edit.name()).collect()
    }

    /// Names of the undone edits, the next to redo first.
    pub fn undone_names(&self) -> Vec<&str> {
        self.undone.iter().rev().map(|e| e.edit.name()).collect()
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
        self.done.back().map_or(0, |e| e.id)
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

    /// Drops the oldest applied edits beyond the newest `keep`, to bound the history's memory.
    pub fn keep_newest(&mut self, keep: usize) {
        let extra = self.done.len().saturating_sub(keep);
        for e in self.done.drain(..extra) {
            self.bytes -= e.bytes;
            self.trimmed += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An edit that sets a list of numbers (holding the other side, `len` numbers).
    #[derive(Debug)]
    struct Set(Vec<u32>);

    impl Undoable for Set {
        type Target = Vec<u32>;
        fn name(&self) -> &str {
            "set"
        }
        fn apply_swap(&mut self, target: &mut Vec<u32>) {
            std::mem::swap(&mut self.0, target);
        }
        fn absorb(&mut self, newer: Self) -> Result<(), Self> {
            Err(newer)
        }
        fn bytes(&self) -> usize {
            self.0.capacity() * 4
        }
    }

    #[test]
    fn the_oldest_edits_go_first_when_the_history_is_over_its_budget() {
        let mut h = History::default();
        // Each edit holds 1 000 numbers (4 000 bytes); room for 5.
        h.set_budget(20_000);
        let mut doc = vec![0u32; 1000];
        for i in 1..=12 {
            h.push(&mut doc, Set(vec![i; 1000]), None);
            assert!(h.bytes() <= 20_000, "{} bytes after edit {i}", h.bytes());
        }
        assert_eq!(h.len_done(), 5);
        assert_eq!(h.trimmed(), 7);
        // The kept edits undo to the state after edit 7, the oldest reachable.
        while h.undo(&mut doc) {}
        assert_eq!(doc[0], 7);
        h.go_to(&mut doc, 5);
        assert_eq!(doc[0], 12);
        // An edit holds the side it swaps back: growing the list to 10 000 numbers holds the
        // old 1 000; undone, it holds the 10 000, which count until a new edit drops them.
        h.push(&mut doc, Set(vec![99; 10_000]), None);
        assert_eq!((h.len_done(), h.trimmed()), (5, 8));
        assert!(h.undo(&mut doc));
        assert_eq!(doc.len(), 1000);
        assert!(h.bytes() >= 40_000);
        assert!(h.redo(&mut doc));
        assert!(h.bytes() <= 20_000);
        // An edit larger than the budget is still kept (the newest always is): shrinking
        // the list holds the 10 000 numbers.
        h.push(&mut doc, Set(vec![5; 10]), None);
        assert_eq!(h.len_done(), 1);
        assert!(h.undo(&mut doc));
        assert_eq!(doc.len(), 10_000);
    }
}

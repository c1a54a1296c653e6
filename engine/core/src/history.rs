//! The undo history every kind keeps: a queue of patches (one per step, each the other side
//! of what the step changed) with a cursor between the applied steps and the redoable ones,
//! a running byte total, a byte budget ([`crate::game::Game::set_history_budget`]), an
//! optional limit on the number of steps, and the count of applied steps dropped from the
//! front.
//!
//! A kind owns what a patch holds and how it is applied; this module owns which patches are
//! kept. When the history is over its budget (or its step limit), the oldest applied steps
//! are dropped first; then, when the [`Trim`] allows it, the redoable steps, newest first.
//! The budget never trims below [`Trim::min_kept`] steps.

use std::collections::VecDeque;

/// One step's patch: what undoing it needs, and (swapped) what redoing it needs.
pub trait Patch {
    /// The bytes this patch holds, as counted against the budget. The history adds this when
    /// the patch is pushed and takes it back when the patch is dropped, so it must give the
    /// same figure both times (a kind whose patch changes size while swapped stores the
    /// figure it was recorded with, or re-counts it through [`History::take`] and
    /// [`History::put`]).
    fn bytes(&self) -> usize;
}

/// How a [`History`] is trimmed when over its budget or step limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trim {
    /// The fewest steps the byte budget trims to. The step limit is not held to it, but
    /// redoable steps that may not be dropped stay even over the step limit.
    pub min_kept: usize,
    /// Whether redoable steps may be dropped (newest first) once no applied step is left to
    /// drop; when not, trimming stops there.
    pub drop_redoable: bool,
}

/// The undo history of a game: patches `P`, oldest first, and a cursor (the number of
/// applied steps still held; the patches at and after it are redoable).
#[derive(Clone, Debug)]
pub struct History<P> {
    patches: VecDeque<P>,
    cursor: usize,
    /// The sum of [`Patch::bytes`] of `patches`, as pushed.
    bytes: usize,
    /// The most bytes `patches` may hold.
    budget: usize,
    /// The most steps `patches` may hold.
    limit: usize,
    trim: Trim,
    /// Applied steps dropped from the front (or never recorded).
    trimmed: u64,
}

impl<P: Patch> History<P> {
    /// An empty history of at most `budget` bytes and no step limit, trimmed as `trim` says.
    pub fn new(budget: usize, trim: Trim) -> Self {
        Self {
            patches: VecDeque::new(),
            cursor: 0,
            bytes: 0,
            budget,
            limit: usize::MAX,
            trim,
            trimmed: 0,
        }
    }

    /// Empties the history (nothing to undo or redo, nothing trimmed); the budget, limit and
    /// trim rule stay.
    pub fn clear(&mut self) {
        self.patches.clear();
        self.bytes = 0;
        self.cursor = 0;
        self.trimmed = 0;
    }

    /// Records the patch of a step just taken: the redoable steps are dropped, the patch is
    /// appended and the cursor moves past it. Nothing is trimmed ([`History::trim`]).
    #[inline]
    pub fn push(&mut self, patch: P) {
        while self.patches.len() > self.cursor {
            if let Some(p) = self.patches.pop_back() {
                self.bytes -= p.bytes();
            }
        }
        self.bytes += patch.bytes();
        self.patches.push_back(patch);
        self.cursor += 1;
    }

    /// [`History::push`], then [`History::trim`].
    #[inline]
    pub fn record(&mut self, patch: P) {
        self.push(patch);
        self.trim();
    }

    /// Drops steps until the history holds at most its budget (down to [`Trim::min_kept`]
    /// steps) and its step limit: the oldest applied steps first, then, when the [`Trim`]
    /// allows it, the redoable ones, newest first.
    pub fn trim(&mut self) {
        while (self.bytes > self.budget && self.patches.len() > self.trim.min_kept)
            || self.patches.len() > self.limit
        {
            let dropped = if self.cursor > 0 {
                self.cursor -= 1;
                self.trimmed += 1;
                self.patches.pop_front()
            } else if self.trim.drop_redoable {
                self.patches.pop_back()
            } else {
                None
            };
            match dropped {
                Some(p) => self.bytes -= p.bytes(),
                None => break,
            }
        }
    }

    /// Sets the byte budget and trims to it.
    pub fn set_budget(&mut self, bytes: usize) {
        self.budget = bytes;
        self.trim();
    }

    /// Sets the most steps kept (`usize::MAX`: no limit; 0 keeps none) and trims to it.
    pub fn set_limit(&mut self, steps: usize) {
        self.limit = steps;
        self.trim();
    }

    /// The byte budget ([`History::set_budget`]).
    pub fn budget(&self) -> usize {
        self.budget
    }

    /// The step limit ([`History::set_limit`]).
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Moves the cursor back over the newest applied step and gives its index, the patch
    /// undo applies; `None` when no applied step is held.
    #[inline]
    pub fn undo_index(&mut self) -> Option<usize> {
        self.cursor = self.cursor.checked_sub(1)?;
        Some(self.cursor)
    }

    /// Moves the cursor forward over the oldest redoable step and gives its index, the patch
    /// redo applies; `None` when nothing is redoable.
    #[inline]
    pub fn redo_index(&mut self) -> Option<usize> {
        if self.cursor >= self.patches.len() {
            return None;
        }
        self.cursor += 1;
        Some(self.cursor - 1)
    }

    /// Takes back the newest step (the cursor at the end): removes its patch and gives it.
    /// `None` when the history is empty. For a kind that redoes by playing the step again,
    /// so holds no redoable patches.
    pub fn pop_newest(&mut self) -> Option<P> {
        let p = self.patches.pop_back()?;
        self.bytes -= p.bytes();
        self.cursor = self.cursor.min(self.patches.len());
        Some(p)
    }

    /// The patch at index `k` (0 the oldest held).
    pub fn get_mut(&mut self, k: usize) -> Option<&mut P> {
        self.patches.get_mut(k)
    }

    /// Takes the patch at index `k` out to apply it, leaving `placeholder` in its place and
    /// its bytes out of the total until [`History::put`] puts it (or its other side) back.
    pub fn take(&mut self, k: usize, placeholder: P) -> Option<P> {
        let p = std::mem::replace(self.patches.get_mut(k)?, placeholder);
        self.bytes -= p.bytes();
        Some(p)
    }

    /// Puts a patch taken by [`History::take`] back at index `k`, counting its bytes as they
    /// are now (applying it may have changed them).
    pub fn put(&mut self, k: usize, patch: P) {
        self.bytes += patch.bytes();
        if let Some(slot) = self.patches.get_mut(k) {
            *slot = patch;
        }
    }

    /// The patches held, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &P> {
        self.patches.iter()
    }

    /// The newest patch held (the last step, when nothing is redoable).
    pub fn newest(&self) -> Option<&P> {
        self.patches.back()
    }

    /// The number of steps held, applied and redoable.
    pub fn len(&self) -> usize {
        self.patches.len()
    }

    /// True when no step is held.
    pub fn is_empty(&self) -> bool {
        self.patches.is_empty()
    }

    /// The number of applied steps held (the cursor).
    pub fn applied(&self) -> usize {
        self.cursor
    }

    /// The number of redoable steps held.
    pub fn redo_len(&self) -> usize {
        self.patches.len() - self.cursor
    }

    /// Bytes held now (the running sum of [`Patch::bytes`]).
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// Applied steps dropped from the front since the start (or the last
    /// [`History::clear`]).
    pub fn trimmed(&self) -> u64 {
        self.trimmed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A patch of a fixed size.
    struct P(usize);

    impl Patch for P {
        fn bytes(&self) -> usize {
            self.0
        }
    }

    const DROP: Trim = Trim {
        min_kept: 0,
        drop_redoable: true,
    };

    #[test]
    fn oldest_applied_dropped_first_then_redoable_newest_first() {
        let mut h = History::new(100, DROP);
        for _ in 0..5 {
            h.record(P(10));
        }
        assert_eq!((h.len(), h.bytes()), (5, 50));
        assert_eq!(h.undo_index(), Some(4));
        assert_eq!(h.undo_index(), Some(3));
        h.set_budget(30);
        assert_eq!((h.len(), h.applied(), h.trimmed()), (3, 1, 2));
        h.set_budget(10);
        assert_eq!((h.len(), h.applied(), h.redo_len()), (1, 0, 1));
        assert_eq!(h.bytes(), 10);
    }

    #[test]
    fn min_kept_and_no_redoable_drop() {
        let keep = Trim {
            min_kept: 2,
            drop_redoable: false,
        };
        let mut h = History::new(0, keep);
        for _ in 0..4 {
            h.record(P(10));
        }
        assert_eq!((h.len(), h.trimmed()), (2, 2));
        h.undo_index();
        h.undo_index();
        h.set_budget(0);
        assert_eq!((h.len(), h.redo_len()), (2, 2));
        h.set_limit(1);
        assert_eq!((h.len(), h.redo_len()), (2, 2));
    }

    #[test]
    fn push_drops_redoable_and_take_put_recounts() {
        let mut h = History::new(usize::MAX, DROP);
        h.record(P(1));
        h.record(P(2));
        assert_eq!(h.undo_index(), Some(1));
        h.record(P(3));
        assert_eq!((h.len(), h.bytes()), (2, 4));
        let p = h.take(1, P(0));
        assert_eq!(h.bytes(), 1);
        h.put(1, P(p.map_or(0, |p| p.0) + 5));
        assert_eq!(h.bytes(), 9);
        assert_eq!(h.pop_newest().map(|p| p.0), Some(8));
        assert_eq!((h.len(), h.applied(), h.bytes()), (1, 1, 1));
    }
}

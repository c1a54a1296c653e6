//! A falling-block game's undo history: per frame, the cells and in-motion counters that
//! changed and the small scalar state (the rest only when it changed), recorded after each
//! frame and swapped in by undo and redo.

use super::*;

/// What undoing (or redoing) one frame needs: the other side of everything it changed.
#[derive(Clone, Debug)]
pub(super) struct Patch {
    pub(super) cells: Vec<(u32, BlockId)>,
    pub(super) moving: Vec<(u32, u32)>,
    pub(super) small: Small,
    pub(super) big: Option<Box<Big>>,
    /// What the patch held when recorded ([`Patch::bytes_now`]); undo and redo swap its
    /// contents, and the history's running sum takes back exactly what it added.
    pub(super) bytes: usize,
}

impl Patch {
    /// The bytes the patch holds: the record, 8 per changed cell or counter, and the copy
    /// of the rest of the state in a frame that changed it (queue, bag, labels, a pending
    /// clear).
    fn bytes_now(&self) -> usize {
        let big = self.big.as_ref().map_or(0, |b| {
            std::mem::size_of::<Big>()
                + b.labels.capacity() * std::mem::size_of::<BlockId>()
                + b.queue.capacity() * std::mem::size_of::<QueuedTumo>()
                + b.queue
                    .iter()
                    .map(|q| q.labels.capacity() * std::mem::size_of::<BlockId>())
                    .sum::<usize>()
                + b.bag.capacity() * std::mem::size_of::<usize>()
                + b.pending
                    .as_ref()
                    .map_or(0, |p| p.delete.capacity() * 8 + p.down.capacity() * 16)
        });
        std::mem::size_of::<Patch>()
            + self.cells.capacity() * std::mem::size_of::<(u32, BlockId)>()
            + self.moving.capacity() * std::mem::size_of::<(u32, u32)>()
            + big
    }
}

impl history::Patch for Patch {
    /// [`Patch::bytes_now`] as recorded.
    fn bytes(&self) -> usize {
        self.bytes
    }
}

/// How the history drops frames: the oldest applied first, then the redoable ones, newest
/// first, down to none.
pub(super) const TRIM: Trim = Trim {
    min_kept: 0,
    drop_redoable: true,
};

impl FallingGame {
    /// Runs one frame and records it for undo; returns the changed cells, row-major. `None`
    /// when the cancel flag was set by the end of the frame (the script stops at once when
    /// it is set; the built-in rules of a frame are short): the frame is then rolled back,
    /// from `prev_cells`, `prev_moving` (the field as the last frame left it) and the
    /// counters kept here, so the game is exactly as before and the redo list untouched.
    pub(super) fn record_frame(&mut self, input: Input) -> Option<Vec<Pos>> {
        self.record_frame_with(input, true)
    }

    /// [`FallingGame::record_frame`]; without `tumo_cells` the active tumo's cells are left
    /// out of the changed cells (the search reads no change list and skips building them).
    pub(super) fn record_frame_with(&mut self, input: Input, tumo_cells: bool) -> Option<Vec<Pos>> {
        let small = self.s;
        let big = self.b.clone();
        let tumo = |g: &Self| {
            if tumo_cells {
                g.active().map(|a| a.cells).unwrap_or_default()
            } else {
                Vec::new()
            }
        };
        let before = tumo(self);
        self.frame(input);
        if self.cancelled() {
            self.field.cells.copy_from_slice(&self.prev_cells);
            self.moving.copy_from_slice(&self.prev_moving);
            self.s = small;
            self.b = big;
            self.rng.set_word_pos(small.rng_word);
            self.report = FrameReport {
                frame: self.s.frames,
                ..FrameReport::default()
            };
            return None;
        }
        self.s.rng_word = self.rng.get_word_pos();
        let mut cells = Vec::new();
        let mut moving = Vec::new();
        let mut changed: Vec<Pos> = Vec::new();
        let w = self.field.width;
        if self.field.cells != self.prev_cells {
            for (i, (new, old)) in self
                .field
                .cells
                .iter()
                .zip(self.prev_cells.iter_mut())
                .enumerate()
            {
                if new != old {
                    cells.push((i as u32, *old));
                    *old = *new;
                    changed.push(Pos::new(i % w, i / w));
                }
            }
        }
        if self.moving != self.prev_moving {
            for (i, (new, old)) in self
                .moving
                .iter()
                .zip(self.prev_moving.iter_mut())
                .enumerate()
            {
                if new != old {
                    moving.push((i as u32, *old));
                    *old = *new;
                    changed.push(Pos::new(i % w, i / w));
                }
            }
        }
        let after = tumo(self);
        if before != after {
            for &(x, y, _) in before.iter().chain(&after) {
                changed.push(Pos::new(x, y));
            }
        }
        changed.sort_by_key(|p| (p.y, p.x));
        changed.dedup();
        let big = (big != self.b).then(|| Box::new(big));
        let mut patch = Patch {
            cells,
            moving,
            small,
            big,
            bytes: 0,
        };
        patch.bytes = patch.bytes_now();
        self.history.record(patch);
        Some(changed)
    }

    /// Swaps the state with patch `i` (undo and redo are the same operation).
    pub(super) fn swap(&mut self, i: usize) {
        let Some(p) = self.history.get_mut(i) else {
            return;
        };
        for (idx, v) in &mut p.cells {
            let i = *idx as usize;
            std::mem::swap(&mut self.field.cells[i], v);
            self.prev_cells[i] = self.field.cells[i];
        }
        for (idx, v) in &mut p.moving {
            let i = *idx as usize;
            std::mem::swap(&mut self.moving[i], v);
            self.prev_moving[i] = self.moving[i];
        }
        std::mem::swap(&mut self.s, &mut p.small);
        if let Some(b) = p.big.as_mut() {
            std::mem::swap(&mut self.b, b);
        }
        if self.rng.get_word_pos() != self.s.rng_word {
            self.rng.set_word_pos(self.s.rng_word);
        }
        self.report = FrameReport {
            frame: self.s.frames,
            ..FrameReport::default()
        };
    }
}

//! Writing the board: every write noted in the tick's journal and kept in step with the
//! summaries and flags; the value reset (§4.3); ticks and observed phases; swapping an undo
//! patch in.

use super::*;

impl Board {
    /// Records that field `f` of index `i`, holding `old`, is about to change.
    #[inline]
    fn note(&mut self, i: usize, f: u8, old: u32) {
        let bit = 1u16 << f;
        let mark = self.tick[i];
        let bits = if mark.stamp() == self.tick_epoch {
            mark.bits()
        } else {
            0
        };
        if bits & bit == 0 {
            self.journal.push(Saved {
                index: i as u32,
                field: f,
                old,
            });
        }
        let listed = !self.in_reset && bit & DIRTYING != 0 && bits & LISTED == 0;
        if listed {
            self.dirty.push(i as u32);
        }
        self.tick[i] = TickMark::new(
            self.tick_epoch,
            bits | bit | if listed { LISTED } else { 0 },
        );
        if self.phase_on {
            if self.phase_stamp[i] != self.phase_epoch {
                self.phase_stamp[i] = self.phase_epoch;
                self.phase_bits[i] = 0;
            }
            if self.phase_bits[i] & bit == 0 {
                self.phase_bits[i] |= bit;
                self.phase_changed.push(Saved {
                    index: i as u32,
                    field: f,
                    old,
                });
            }
        }
    }

    fn raw_set_token(&mut self, i: usize, t: Token) {
        let old = self.tokens[i];
        if old == t {
            return;
        }
        let (x, y) = self.xy(i);
        self.rows.move_token(y, old, t);
        self.cols.move_token(x, old, t);
        self.counts[old as usize] -= 1;
        self.counts[t as usize] += 1;
        self.tokens[i] = t;
    }

    fn raw_set_val(&mut self, i: usize, k: usize, v: u32) {
        let old = self.vals[k][i];
        if k < FLAGGED {
            let key = ValueKey::ALL[k];
            let f = &mut self.flags[i];
            *f &= !(nonzero_flag(key) | one_flag(key));
            if v != 0 {
                *f |= nonzero_flag(key);
            }
            if v == 1 {
                *f |= one_flag(key);
            }
        }
        if (old == 0) != (v == 0) {
            let (x, y) = self.xy(i);
            let up = v != 0;
            self.rows.flip_value(y, k, up);
            self.cols.flip_value(x, k, up);
            if up {
                self.nonzero[k] += 1;
            } else {
                self.nonzero[k] -= 1;
            }
        }
        self.vals[k][i] = v;
    }

    /// Writes token `t` at index `i`, journaling the old token.
    #[inline]
    pub fn set_token(&mut self, i: usize, t: Token) {
        let old = self.tokens[i];
        if old != t {
            self.note(i, TOKEN_FIELD, old as u32);
            self.raw_set_token(i, t);
        }
    }

    /// Writes value `k` = `v` at index `i`, journaling the old value.
    #[inline]
    pub fn set_val(&mut self, i: usize, k: ValueKey, v: u32) {
        let old = self.val(i, k);
        if old != v {
            self.note(i, k as u8, old);
            self.raw_set_val(i, k as usize, v);
        }
    }

    /// Writes a whole field, journaling the old contents.
    pub fn set_cell(&mut self, i: usize, c: Cell) {
        self.set_token(i, c.token);
        for (k, &v) in ValueKey::ALL.iter().zip(c.values.iter()) {
            self.set_val(i, *k, v);
        }
    }

    /// The reset of spec §4.3 at index `i`: `moved`, `falling`, `bam`, `bamrich` become 0;
    /// `loose` is 1 exactly on stone and gem, `slippery` on stone, gem and bricks, `pushable`
    /// on stone.
    fn reset_field(&mut self, i: usize) {
        let t = self.tokens[i];
        if self.flags[i] & RESET_FLAGS == reset_flags(t) {
            return;
        }
        for k in [
            ValueKey::Moved,
            ValueKey::Falling,
            ValueKey::Bam,
            ValueKey::Bamrich,
        ] {
            self.set_val(i, k, 0);
        }
        let loose = matches!(t, Token::Stone | Token::Gem) as u32;
        let slippery = matches!(t, Token::Stone | Token::Gem | Token::Bricks) as u32;
        let pushable = (t == Token::Stone) as u32;
        self.set_val(i, ValueKey::Loose, loose);
        self.set_val(i, ValueKey::Slippery, slippery);
        self.set_val(i, ValueKey::Pushable, pushable);
    }

    /// The value reset at the start of a tick (spec §4.2, §4.3), journaled. Every field ends
    /// as if reset, but only the fields whose token or reset values were written since the
    /// last reset are visited: a field not written since then still holds the reset's result.
    /// A new board, or one an undo or redo patched, is visited whole.
    pub fn reset_values(&mut self) {
        self.in_reset = true;
        let list = std::mem::take(&mut self.dirty);
        for &i in &list {
            let m = &mut self.tick[i as usize];
            *m = TickMark::new(m.stamp(), m.bits() & !LISTED);
        }
        if self.all_dirty {
            for i in 0..self.len() {
                self.reset_field(i);
            }
            self.all_dirty = false;
        } else {
            for &i in &list {
                self.reset_field(i as usize);
            }
        }
        self.dirty = list;
        self.dirty.clear();
        self.in_reset = false;
    }

    /// Starts the journal of a new tick.
    pub fn begin_tick(&mut self) {
        self.journal.clear();
        // The epoch is 16 bits (it shares a word with the bits): when it wraps, every mark is
        // cleared, once in 65 535 ticks.
        self.tick_epoch += 1;
        if self.tick_epoch > u16::MAX as u32 {
            self.tick.iter_mut().for_each(|m| *m = TickMark::default());
            self.tick_epoch = 1;
        }
    }

    /// Ends the tick's journal: the old contents of every field that differs now, in the order
    /// first changed (fields changed and changed back are left out). The result is allocated
    /// to its exact length; the journal's buffer is kept for the next tick.
    pub fn end_tick(&mut self) -> Vec<Saved> {
        // The next tick's journal starts with room for as many entries as this tick wrote (not
        // the largest capacity ever reached: the first tick after a load resets every field).
        let used = self.journal.len();
        let mut journal = std::mem::replace(&mut self.journal, Vec::with_capacity(used));
        journal.retain(|s| !self.holds(s.index as usize, s.field, s.old));
        // Shrinking gives the unused tail back without copying the entries (a large block is
        // shrunk in place).
        journal.shrink_to_fit();
        journal
    }

    /// Starts a phase. With `track`, the fields changed from now on are collected for
    /// [`Board::phase_changes`]; without, nothing is collected (the phase is not observed).
    pub fn begin_phase(&mut self, track: bool) {
        self.phase_changed.clear();
        self.phase_on = track;
        if !track {
            return;
        }
        if self.phase_stamp.len() != self.len() {
            self.phase_stamp = vec![0; self.len()];
            self.phase_bits = vec![0; self.len()];
        }
        self.phase_epoch = self.phase_epoch.wrapping_add(1);
        if self.phase_epoch == 0 {
            self.phase_stamp.iter_mut().for_each(|s| *s = 0);
            self.phase_epoch = 1;
        }
    }

    /// The fields written since [`Board::begin_phase`] with `track`, in the order first
    /// written, with their contents when the phase began (a field written back to its old
    /// contents is included). Empty when the phase is not tracked.
    pub fn phase_changes(&self) -> &[Saved] {
        &self.phase_changed
    }

    /// Swaps the saved contents with the board's, without journaling: applying a patch turns
    /// it into the patch that reverses it (used for undo and redo). A patch names each field
    /// at most once, so the order does not matter. The next reset visits the whole map.
    pub fn swap_patch(&mut self, patch: &mut [Saved]) {
        for s in patch.iter_mut() {
            let i = s.index as usize;
            let now = self.field(i, s.field);
            if s.field == TOKEN_FIELD {
                self.raw_set_token(i, Token::from_index(s.old as usize));
            } else {
                self.raw_set_val(i, s.field as usize, s.old);
            }
            s.old = now;
        }
        self.all_dirty = true;
    }
}

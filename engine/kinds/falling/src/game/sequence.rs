//! The tumo sequence of a falling-block game (spec §5): drawing the next tumo (fixed order,
//! uniform or bag), keeping the queue filled, and spawning.

use super::*;

use tilesmith_core::random::uniform;

impl FallingGame {
    /// Draws one tumo from the sequence (spec A12: random is uniform), with its labels' kinds;
    /// `None` when a fixed sequence is used up or the sequence is empty.
    pub(super) fn draw(&mut self) -> Option<QueuedTumo> {
        let seq = &self.level.sequence;
        if seq.tumos.is_empty() {
            return None;
        }
        let tumo = match seq.order {
            Order::Random => seq.tumos[uniform(&mut self.rng, seq.tumos.len())],
            Order::Bag => {
                if self.b.bag.is_empty() {
                    let mut bag = seq.tumos.clone();
                    for i in (1..bag.len()).rev() {
                        let j = uniform(&mut self.rng, i + 1);
                        bag.swap(i, j);
                    }
                    self.b.bag = bag.into();
                }
                self.b.bag.pop_front()?
            }
            Order::Fixed => {
                let t = *seq.tumos.get(self.s.fixed_next)?;
                self.s.fixed_next += 1;
                t
            }
        };
        let t = self.level.tumos.get(tumo)?;
        let n = t.label_count();
        let choices = t.labels.clone();
        let labels = (0..n)
            .map(|_| {
                if choices.is_empty() {
                    t.block
                } else {
                    choices[uniform(&mut self.rng, choices.len())]
                }
            })
            .collect();
        Some(QueuedTumo { tumo, labels })
    }

    pub(super) fn refill_queue(&mut self) {
        while self.b.queue.len() < self.level.preview {
            match self.draw() {
                Some(q) => self.b.queue.push_back(q),
                None => break,
            }
        }
    }

    /// Spawns the next tumo, or decides the end of a used-up sequence.
    pub(super) fn spawn_next(&mut self) {
        let next = match self.b.queue.pop_front() {
            Some(q) => Some(q),
            None => self.draw(),
        };
        self.refill_queue();
        let Some(q) = next else {
            // The sequence is used up and the field has settled (issue 10 `goal`).
            if self.level.goal.is_some() {
                self.b.status = if self.goal_met(true) {
                    Status::won(1)
                } else {
                    Status::Lost {
                        reason: "the sequence ended before the goal was reached".into(),
                    }
                };
            }
            return;
        };
        self.spawn_tumo(q);
    }

    /// The hold (`H`, a level with `hold`; `docs/falling-semantics.md`, "Hold"): the active
    /// tumo goes into the hold slot with its labels' kinds, and the held tumo (or, when the
    /// slot is empty, the next tumo of the sequence) spawns at its spawn position in state 0,
    /// as a new tumo does. Once per placement; nothing when the level has no hold, no tumo
    /// is in play, the hold was used since the last placement, or the slot is empty and the
    /// sequence is used up. Returns true when the hold happened.
    pub(super) fn hold(&mut self) -> bool {
        if !self.level.hold || self.s.hold_used {
            return false;
        }
        let Some(p) = self.s.active else {
            return false;
        };
        let next = match self.b.hold.take() {
            Some(h) => h,
            None => match self.b.queue.pop_front().or_else(|| self.draw()) {
                Some(q) => {
                    self.refill_queue();
                    q
                }
                None => return false,
            },
        };
        let labels = std::mem::take(&mut self.b.labels);
        self.b.hold = Some(QueuedTumo {
            tumo: p.tumo,
            labels,
        });
        self.s.active = None;
        self.spawn_tumo(next);
        self.s.hold_used = true;
        self.report.hold = true;
        true
    }

    /// Spawns `q` at its spawn position in state 0 (spec A15), or ends the game when it
    /// cannot appear (spec §4.1 condition 1).
    fn spawn_tumo(&mut self, q: QueuedTumo) {
        let Some((x, y)) = self.level.spawn_position(q.tumo) else {
            return;
        };
        let p = Place {
            tumo: q.tumo,
            state: 0,
            x,
            y,
        };
        if !self.fits(p) {
            // Spec §4.1 condition 1; a tumo cannot appear over blocks, so this ends the game
            // whatever `game_over` lists.
            self.b.status = Status::Lost {
                reason: "the next tumo cannot appear".into(),
            };
            return;
        }
        self.s.active = Some(p);
        self.b.labels = q.labels;
        self.s.gravity_timer = 0;
        self.s.lock_timer = 0;
        self.s.soft_drop_timer = u32::MAX;
        self.s.last_failed_turn = None;
        self.s.hold_used = false;
        self.report.spawned = Some(q.tumo);
    }
}

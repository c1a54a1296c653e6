//! A falling-block game's current state as a level: the field, the active tumo and a `state`
//! member, so that the level continues the game exactly.

use super::*;
use crate::level::{ActiveTumo, SavedPending, SavedState};

impl FallingGame {
    /// The current state as a level: the field, the active tumo and a `state` member, so that
    /// the level continues this game exactly ([`FallingGame::new`] on it gives the same
    /// [`Game::state_hash`]).
    pub fn to_falling_level(&self) -> FallingLevel {
        let mut l = self.level.clone();
        l.field = self.field.clone();
        l.complete_legend();
        l.active = self.s.active.map(|p| ActiveTumo {
            tumo: p.tumo,
            state: p.state,
            x: p.x,
            y: p.y,
            labels: self.b.labels.clone(),
        });
        let w = self.field.width;
        let xy = |i: usize| (i % w, i / w);
        l.state = Some(SavedState {
            frames: self.s.frames,
            score: self.s.score,
            rows: self.s.rows,
            chain: self.s.chain,
            max_chain: self.s.max_chain,
            status: match &self.b.status {
                Status::Won { .. } => Status::won(1),
                s => s.clone(),
            },
            rng: Some((self.rng.get_seed(), self.rng.get_word_pos())),
            queue: self.b.queue.iter().cloned().collect(),
            bag: self.b.bag.iter().copied().collect(),
            fixed_next: self.s.fixed_next,
            gravity_timer: self.s.gravity_timer,
            lock_timer: self.s.lock_timer,
            since_place: self.s.since_place,
            soft_drop_timer: self.s.soft_drop_timer,
            top_row_frames: self.s.top_row_frames,
            last_failed_turn: self.s.last_failed_turn,
            placed_since_clear: self.s.placed_since_clear,
            hold: self.b.hold.clone(),
            hold_used: self.s.hold_used,
            quiet: self.s.quiet,
            moving: self
                .moving
                .iter()
                .enumerate()
                .filter(|(_, m)| **m > 0)
                .map(|(i, &m)| {
                    let (x, y) = xy(i);
                    (x, y, m)
                })
                .collect(),
            pending: self.b.pending.as_ref().map(|p| SavedPending {
                frames: p.frames,
                delete: p.delete.iter().map(|&i| xy(i)).collect(),
                down: p
                    .down
                    .iter()
                    .map(|&(i, c)| {
                        let (x, y) = xy(i);
                        (x, y, c)
                    })
                    .collect(),
            }),
        });
        l
    }
}

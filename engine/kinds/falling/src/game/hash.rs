//! A falling-block game's state hash ([`Game::state_hash`]) and the search's state key
//! ([`FallingGame::search_key`]).

use super::*;

impl FallingGame {
    /// [`Game::state_hash`]: everything that decides what happens next, the frame count
    /// included.
    pub(super) fn hash_state(&self) -> u64 {
        let mut h = tilesmith_core::hash::Fnv::new();
        h.write_u64(self.field.width as u64);
        h.write_u64(self.field.height as u64);
        h.write(&self.field.cells);
        for &m in &self.moving {
            h.write_u64(m as u64);
        }
        let s = &self.s;
        for v in [
            s.frames,
            s.score,
            s.rows,
            s.chain as u64,
            s.max_chain as u64,
            s.gravity_timer as u64,
            s.lock_timer as u64,
            s.since_place as u64,
            s.soft_drop_timer as u64,
            s.top_row_frames as u64,
            s.placed_since_clear as u64,
            s.quiet as u64,
            s.fixed_next as u64,
        ] {
            h.write_u64(v);
        }
        match s.last_failed_turn {
            Some((t, f)) => {
                h.write(Input::Turn(t).word().as_bytes());
                h.write_u64(f);
            }
            None => h.write(b"-"),
        }
        match s.active {
            Some(p) => {
                for v in [p.tumo as u64, p.state as u64, p.x as u64, p.y as u64] {
                    h.write_u64(v);
                }
                h.write(&self.b.labels);
            }
            None => h.write(b"none"),
        }
        h.write(&self.rng.get_seed());
        h.write(&self.rng.get_word_pos().to_le_bytes());
        h.write_u64(self.b.queue.len() as u64);
        for q in &self.b.queue {
            h.write_u64(q.tumo as u64);
            h.write(&q.labels);
        }
        h.write_u64(self.b.bag.len() as u64);
        for &t in &self.b.bag {
            h.write_u64(t as u64);
        }
        match &self.b.pending {
            Some(p) => {
                h.write_u64(p.frames as u64);
                for &i in &p.delete {
                    h.write_u64(i as u64);
                }
                h.write(b"/");
                for &(i, c) in &p.down {
                    h.write_u64(i as u64);
                    h.write_u64(c as u64);
                }
            }
            None => h.write(b"no pending"),
        }
        if self.level.hold {
            // Only a level with hold adds its slot, so the hashes of every other game are
            // as before hold existed (recorded replays keep their hashes).
            h.write_u64(s.hold_used as u64);
            match &self.b.hold {
                Some(q) => {
                    h.write_u64(q.tumo as u64);
                    h.write(&q.labels);
                }
                None => h.write(b"no hold"),
            }
        }
        h.write(self.b.status.word().as_bytes());
        h.finish()
    }

    /// The search's state key (`tilesmith_core::search_game::SearchGame::key`, 128 bits):
    /// the field, the blocks in motion, a clear in progress, the active tumo (place, state,
    /// labels) and its counters, the queue, the bag and the position in a fixed sequence, the
    /// RNG's position, the hold slot, the status, and the counter the level's goal reads
    /// (rows, the longest chain or the score). Left out: the frame count and the score or
    /// counters no goal reads, so the same position reached in more frames or with more
    /// points is one state (`docs/solver.md`, "Falling").
    pub(super) fn search_key(&self) -> u128 {
        use std::hash::Hasher as _;
        let mut h = tilesmith_core::hash::KeyHasher::new();
        h.write(&self.field.cells);
        if self.moving.iter().any(|&m| m > 0) {
            for &m in &self.moving {
                h.write_u32(m);
            }
        }
        let s = &self.s;
        match s.active {
            Some(p) => {
                for v in [p.tumo as u64, p.state as u64, p.x as u64, p.y as u64] {
                    h.write_u64(v);
                }
                h.write(&self.b.labels);
            }
            None => {
                // While no tumo is in play a clear can continue the chain: the chain counters
                // matter. Once a tumo is in play, its placement comes before any clear and
                // restarts the chain, so they do not.
                h.write_u64(u64::MAX);
                h.write_u32(s.since_place);
                h.write_u32(s.chain);
                h.write_u32(u32::from(s.placed_since_clear));
            }
        }
        for v in [
            s.gravity_timer,
            s.lock_timer,
            s.soft_drop_timer,
            s.top_row_frames,
            u32::from(s.quiet) | u32::from(s.hold_used) << 1,
        ] {
            h.write_u32(v);
        }
        if let Some((t, at)) = s.last_failed_turn {
            h.write(Input::Turn(t).word().as_bytes());
            h.write_u64(s.frames.saturating_sub(at));
        }
        match self.level.goal {
            Some(Goal::Rows { .. }) => h.write_u64(s.rows),
            Some(Goal::Chain { .. }) => h.write_u32(s.max_chain),
            Some(Goal::Score { .. }) => h.write_u64(s.score),
            Some(Goal::ClearAll) | None => {}
        }
        h.write_usize(s.fixed_next);
        h.write_u128(self.rng.get_word_pos());
        h.write_usize(self.b.queue.len());
        for q in &self.b.queue {
            h.write_usize(q.tumo);
            h.write(&q.labels);
        }
        h.write_usize(self.b.bag.len());
        for &t in &self.b.bag {
            h.write_usize(t);
        }
        match &self.b.hold {
            Some(q) => {
                h.write_usize(q.tumo);
                h.write(&q.labels);
            }
            None => h.write_usize(usize::MAX),
        }
        if let Some(p) = &self.b.pending {
            h.write_u32(p.frames);
            for &i in &p.delete {
                h.write_usize(i);
            }
            for &(i, c) in &p.down {
                h.write_usize(i);
                h.write_u32(c);
            }
        }
        h.write(self.b.status.word().as_bytes());
        h.finish128()
    }
}

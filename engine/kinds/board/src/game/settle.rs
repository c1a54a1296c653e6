//! Settling a board game's position: its status and legal turns (move generation, the long
//! part of a ply), with the repetition history the outcome is given.

use super::*;

impl BoardGame {
    /// Works out the status and the legal turns of the current position.
    /// Decides the status of the current position and lists its legal turns (move
    /// generation, the long part of a ply).
    pub(super) fn settle(&mut self) {
        self.settle_or_cancel(None);
    }

    /// [`BoardGame::settle`], abandoned when `cancel` is set during move generation: false
    /// then, and `legal`, `status` and `gen_error` are left as they were.
    pub(super) fn settle_or_cancel(&mut self, cancel: Option<&AtomicBool>) -> bool {
        let rules = Arc::clone(&self.level.rules);
        let history = self.history();
        let (outcome, turns) = match self.engine.settle_with(&self.pos, &history, cancel) {
            Ok(r) => r,
            Err(_) if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) => return false,
            Err(e) => {
                self.legal.clear();
                self.status = Status::Lost {
                    reason: format!("{GEN_FAILED}{e}"),
                };
                self.gen_error = Some(e);
                return true;
            }
        };
        self.legal.clear();
        self.gen_error = None;
        self.status = match outcome {
            // One player: only a win condition wins; any other end (a loss, count or draw
            // condition, no move left) loses.
            Some(o) if rules.players.len() <= 1 => {
                if o.decided_by == Some(EndKind::Win) {
                    Status::Won {
                        points: 1,
                        winner: rules.players.first().cloned(),
                    }
                } else {
                    Status::Lost { reason: o.reason }
                }
            }
            Some(o) => match o.winner {
                Some(w) => Status::Won {
                    points: 1,
                    winner: rules.players.get(w as usize).cloned(),
                },
                None => Status::Draw { reason: o.reason },
            },
            None if !turns.is_empty() => {
                self.legal = turns;
                Status::Running
            }
            // `outcome` ends a game whose player to move has no turn, so this is not
            // reached by the rules; it is kept so that a game never runs without moves.
            None => Status::Draw {
                reason: format!(
                    "{} has no legal move",
                    self.to_move_name().unwrap_or_default()
                ),
            },
        };
        true
    }

    /// The key of the current position for `repetition`: the pieces, the reserves and the
    /// turn; `None` when the rules do not test repetition.
    pub(super) fn repetition_key(&self) -> Option<u64> {
        if !self.repetition {
            return None;
        }
        let mut h = FxHasher::default();
        self.pos.cells.hash(&mut h);
        self.pos.reserve.hash(&mut h);
        self.pos.turn.hash(&mut h);
        Some(h.finish())
    }

    /// The position before the last turn, rebuilt from its undo record.
    pub(super) fn previous(&self) -> Option<Position> {
        let d = self.done.newest()?;
        let mut prev = self.pos.clone();
        for (i, piece) in &d.cells {
            if let Some(c) = prev.cells.get_mut(*i as usize) {
                *c = *piece;
            }
        }
        if let Some(r) = &d.reserve {
            prev.reserve = r.clone();
        }
        prev.turn = d.turn_index;
        prev.last = d.last;
        prev.partial = d.partial;
        Some(prev)
    }

    /// The history [`play::outcome`] is given: it counts the earlier occurrences of the
    /// position (same pieces, reserves and turn) and takes the player who made the last turn
    /// from the last entry. The game keeps counts, not positions, so copies of the current
    /// position stand for its earlier occurrences, followed by the position before the last
    /// turn. Empty when the rules do not test `repetition`.
    pub(super) fn history(&self) -> Vec<Position> {
        let Some(key) = self.repetition_key() else {
            return Vec::new();
        };
        let earlier = self.seen.get(&key).map_or(0, |n| n.saturating_sub(1)) as usize;
        let Some(prev) = self.previous() else {
            return Vec::new();
        };
        let same = |h: &Position| {
            h.cells == self.pos.cells && h.reserve == self.pos.reserve && h.turn == self.pos.turn
        };
        let copies = earlier.saturating_sub(usize::from(same(&prev))).min(8);
        let mut v = vec![self.pos.clone(); copies];
        v.push(prev);
        v
    }
}

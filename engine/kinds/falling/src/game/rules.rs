//! The rules pass of a falling-block game's frame: the built-in rules, the script's
//! `update()` and what it sees (spec §6.2), carrying out their requests or holding them as a
//! pending clear, and the goal.

use super::geometry::cells_of_free;
use super::*;

/// What a script sees (spec §6.2): the field, with blocks in motion and the active tumo's
/// blocks as 100 + kind (A2).
pub(super) struct View<'a> {
    pub(super) field: &'a Field,
    pub(super) moving: &'a [bool],
    pub(super) active: &'a [(usize, usize, BlockId)],
}

impl FieldView for View<'_> {
    fn width(&self) -> i64 {
        self.field.width as i64
    }

    fn height(&self) -> i64 {
        self.field.height as i64
    }

    fn block(&self, x: i64, y: i64) -> i64 {
        if x < 0 || y < 0 || x as usize >= self.field.width || y as usize >= self.field.height {
            return 0;
        }
        let (ux, uy) = (x as usize, y as usize);
        if let Some(&(_, _, k)) = self.active.iter().find(|c| c.0 == ux && c.1 == uy) {
            return 100 + k as i64;
        }
        let i = uy * self.field.width + ux;
        match self.field.cells[i] {
            EMPTY => 0,
            k if self.moving[i] => 100 + k as i64,
            k => k as i64,
        }
    }

    fn combo(&self, x: i64, y: i64) -> i64 {
        self.field.combo(x, y, self.moving) as i64
    }

    fn all_down(&self) -> bool {
        self.moving.iter().any(|&m| m)
    }
}

impl FallingGame {
    /// Whether a rules pass on the starting field (built-in rules and the script, which keeps
    /// no state between frames) would delete or move nothing. Touches neither the field nor
    /// the RNG.
    pub(super) fn starts_settled(&mut self) -> bool {
        self.mask.fill(false);
        self.req.reset();
        let cx = RuleContext {
            roles: &self.roles,
            hidden_rows: self.level.hidden_rows,
            moving: &self.mask,
        };
        builtin_update(
            &self.field,
            &cx,
            &self.level.clear,
            &self.level.fall,
            &mut self.req,
        );
        if let Some(script) = self.script.as_mut() {
            let view = View {
                field: &self.field,
                moving: &self.mask,
                active: &[],
            };
            if let Err(e) = script.update(&view, &mut self.req) {
                // The first frame meets the error again and ends the game; `check` reads it
                // here rather than run the script once more (`FallingGame::probe_error`).
                self.b.probe_error = Some(e);
                return false;
            }
        }
        let mut copy = self.field.clone();
        let applied = apply_requests(&mut copy, &self.roles, &self.req);
        applied.deleted.is_empty() && applied.moved.is_empty()
    }

    /// The rules of one frame (spec §5, §8, A5–A7).
    pub(super) fn rules(&mut self) {
        for m in &mut self.moving {
            *m = m.saturating_sub(1);
        }
        if let Some(p) = self.b.pending.as_mut() {
            p.frames = p.frames.saturating_sub(1);
            if p.frames > 0 {
                self.s.quiet = false;
                return;
            }
            let p = self
                .b
                .pending
                .take()
                .expect("checked above: a pending clear");
            self.req.reset();
            for i in p.delete {
                self.req.delete[i] = true;
            }
            for (i, c) in p.down {
                self.req.down[i] = c;
            }
            self.carry_out();
            return;
        }
        if !self.report.placed.is_empty() {
            match self.fall_first() {
                Some(false) => {}
                Some(true) => return self.finish_rules(),
                None => return,
            }
        }
        for (m, &c) in self.mask.iter_mut().zip(&self.moving) {
            *m = c > 0;
        }
        self.req.reset();
        let cx = RuleContext {
            roles: &self.roles,
            hidden_rows: self.level.hidden_rows,
            moving: &self.mask,
        };
        builtin_update(
            &self.field,
            &cx,
            &self.level.clear,
            &self.level.fall,
            &mut self.req,
        );
        if !self.run_script() {
            return;
        }
        self.finish_rules();
    }

    /// The first rules pass after a placement: the fall laws run before any clear rule looks
    /// at the placed blocks, so the hanging half of a split Puyo pair falls (and lands, with
    /// the fall timing of A2/A5) before the groups are checked, as in real Puyo Puyo. The
    /// built-in fall laws run alone (no clear rule, so nothing is flagged); the script runs
    /// with the placed blocks still in motion (A2: `100 + kind`; `getAllBlockDownFlag` is
    /// true), so the paper's Puyo listing only asks for falls and its Tetris listing counts no
    /// row with a placed block as full.
    ///
    /// Leaves the requests in `self.req` and returns whether they change the field:
    /// `Some(true)`, they delete or move a block and are this frame's requests; `Some(false)`,
    /// they change nothing and the frame's ordinary rules pass follows; `None`, the script
    /// stopped the game.
    pub(super) fn fall_first(&mut self) -> Option<bool> {
        for (m, &c) in self.mask.iter_mut().zip(&self.moving) {
            *m = c > 0;
        }
        self.req.reset();
        let cx = RuleContext {
            roles: &self.roles,
            hidden_rows: self.level.hidden_rows,
            moving: &self.mask,
        };
        builtin_update(&self.field, &cx, &[], &self.level.fall, &mut self.req);
        let w = self.field.width;
        for &(x, y, _) in &self.report.placed {
            if let Some(m) = self.mask.get_mut(y * w + x) {
                *m = true;
            }
        }
        if !self.run_script() {
            return None;
        }
        let mut copy = self.field.clone();
        let applied = apply_requests(&mut copy, &self.roles, &self.req);
        Some(!applied.deleted.is_empty() || !applied.moved.is_empty())
    }

    /// Runs the script's `update()` (if any) on the field with `self.mask` as the blocks in
    /// motion, adding to `self.req`. False when it failed: the game is then lost.
    pub(super) fn run_script(&mut self) -> bool {
        let Some(script) = self.script.as_mut() else {
            return true;
        };
        let active: Vec<(usize, usize, BlockId)> = match self.s.active {
            Some(p) => {
                // `cells_of` borrows self; compute it before the script borrow.
                let labels = self.b.labels.clone();
                let tumos = &self.level.tumos;
                cells_of_free(tumos, &self.field, p, &labels)
            }
            None => Vec::new(),
        };
        let view = View {
            field: &self.field,
            moving: &self.mask,
            active: &active,
        };
        // The first frame of a game whose start probe failed sees what the probe saw (the
        // starting field, nothing in motion, no tumo: the probe's failure kept it from
        // spawning) and the script keeps no state between frames, so it would fail the same
        // way: the probe's error stands for it rather than a second run of up to the script's
        // time limit (issue #30: `run` on such a script within 2 s).
        let first = self.s.frames == self.start_frames + 1 && active.is_empty();
        let result = match self.b.probe_error.as_ref() {
            Some(e) if first => Err(e.clone()),
            _ => script.update(&view, &mut self.req),
        };
        if let Err(e) = result {
            self.b.status = Status::Lost {
                reason: format!("script error: {e}"),
            };
            self.report.script_error = Some(e.clone());
            self.b.script_error = Some(e);
            return false;
        }
        true
    }

    /// Carries out the frame's requests, or holds them as a clear in progress when they
    /// delete a block and `timing.clear` > 0.
    pub(super) fn finish_rules(&mut self) {
        let deletes = (0..self.field.cells.len()).any(|i| {
            self.req.delete[i] && self.field.cells[i] != EMPTY && self.role_at(i) != Role::Iron
        });
        if deletes && self.level.timing.clear > 0 {
            let w = self.field.width;
            let p = Pending {
                frames: self.level.timing.clear,
                delete: (0..self.req.delete.len())
                    .filter(|&i| self.req.delete[i])
                    .collect(),
                down: (0..self.req.down.len())
                    .filter(|&i| self.req.down[i] > 0)
                    .map(|i| (i, self.req.down[i]))
                    .collect(),
            };
            self.report.clear_started = p
                .delete
                .iter()
                .filter(|&&i| self.field.cells[i] != EMPTY && self.role_at(i) != Role::Iron)
                .map(|&i| (i % w, i / w))
                .collect();
            self.b.pending = Some(p);
            self.s.quiet = false;
            return;
        }
        self.carry_out();
    }

    /// Carries out `self.req` (spec A6), then counts the chain and scores.
    pub(super) fn carry_out(&mut self) {
        let applied: Applied = apply_requests(&mut self.field, &self.roles, &self.req);
        let w = self.field.width;
        let (fall, land) = (self.level.timing.fall, self.level.timing.land);
        for &i in &applied.deleted {
            if let Some(m) = self.moving.get_mut(i) {
                *m = 0;
            }
        }
        for &(from, to) in &applied.moved {
            if from >= self.moving.len() || to >= self.moving.len() {
                continue;
            }
            // The rest of an unfinished fall is carried; the grounding starts again.
            let carried = std::mem::take(&mut self.moving[from]).saturating_sub(land);
            let cells = (to / w).saturating_sub(from / w) as u32;
            self.moving[to] = carried
                .saturating_add(fall.saturating_mul(cells))
                .saturating_add(land);
            self.report
                .fell
                .push(((from % w, from / w), (to % w, to / w)));
        }
        self.s.quiet = applied.deleted.is_empty() && applied.moved.is_empty();
        if !applied.deleted.is_empty() {
            // A clear continues the chain when no tumo was placed since the last clear.
            self.s.chain = if self.s.placed_since_clear {
                1
            } else {
                self.s.chain.saturating_add(1)
            };
            self.s.placed_since_clear = false;
            self.s.max_chain = self.s.max_chain.max(self.s.chain);
            let points = match &self.level.score {
                Some(ScoreRule::Puyo(t)) => puyo_step_score(self.s.chain, &applied.stats, t),
                Some(ScoreRule::Rows(points)) => {
                    let i = applied.stats.rows.min(points.len().saturating_sub(1));
                    points.get(i).copied().unwrap_or(0)
                }
                None => 0,
            };
            self.s.score = self.s.score.saturating_add(points);
            self.s.rows = self.s.rows.saturating_add(applied.stats.rows as u64);
            self.report.clear = Some(ClearEvent {
                chain: self.s.chain,
                cells: applied.deleted.iter().map(|&i| (i % w, i / w)).collect(),
                points,
                stats: applied.stats.clone(),
            });
        }
        if let Some(p) = self.s.active {
            let overlap = self
                .cells_of(p, &self.b.labels)
                .iter()
                .any(|&(x, y, _)| self.field.cells[y * w + x] != EMPTY);
            if overlap {
                self.b.status = Status::Lost {
                    reason: "a field block fell into the active tumo".into(),
                };
            }
        }
    }

    /// Whether the goal is reached. `clear_all` counts only when `settled_check` (after a
    /// clear or at the end of the sequence), so an empty starting field does not win at once.
    pub(super) fn goal_met(&self, settled_check: bool) -> bool {
        match self.level.goal {
            None => false,
            Some(Goal::ClearAll) => settled_check && self.field.cells.iter().all(|&c| c == EMPTY),
            Some(Goal::Chain { min }) => self.s.max_chain >= min,
            Some(Goal::Score { min }) => self.s.score >= min,
            Some(Goal::Rows { min }) => self.s.rows >= min as u64,
        }
    }
}

//! One frame of a falling-block game (the order in `game.rs`): the input's moves and turns,
//! gravity, placement and the fall laws.

use super::*;

impl FallingGame {
    /// Step 1 of a frame for the active tumo: the input's move, turn or soft drop; true for a
    /// hard drop (on a level that has it), which has moved the tumo down to where it lands
    /// and which the caller places. Shared by [`FallingGame::frame`] and the search's motion
    /// model (`motion.rs`), so that both move a tumo alike.
    pub(super) fn move_input(&mut self, input: Input) -> bool {
        match input {
            Input::Move(Dir::Left) => self.shift(-1),
            Input::Move(Dir::Right) => self.shift(1),
            Input::Turn(t) => self.turn(t),
            Input::SoftDrop => self.soft_drop(),
            Input::HardDrop if self.level.hard_drop => {
                if let Some(p) = self.s.active {
                    self.s.active = Some(Place {
                        y: p.y + self.drop_distance(p),
                        ..p
                    });
                }
                return true;
            }
            _ => {}
        }
        false
    }

    /// Runs one frame with `input`.
    pub(super) fn frame(&mut self, input: Input) {
        self.s.frames += 1;
        self.report = FrameReport {
            frame: self.s.frames,
            ..FrameReport::default()
        };
        if self.s.active.is_none() {
            self.s.since_place = self.s.since_place.saturating_add(1);
        }
        self.s.soft_drop_timer = self.s.soft_drop_timer.saturating_add(1);
        // 1. The input.
        let mut dropped = false;
        if self.s.active.is_some() {
            match input {
                // The tumo from the hold spawns as a new tumo does, at the end of a frame's
                // input: gravity waits for the next frame.
                Input::Hold => dropped = self.hold(),
                _ => {
                    if self.move_input(input) {
                        self.report.hard_drop = true;
                        self.place();
                        dropped = true;
                    }
                }
            }
        }
        // 2. Gravity and lock.
        if !dropped && self.fall_step() {
            self.place();
        }
        if self.b.status.is_over() {
            return;
        }
        // 3. The rules.
        self.rules();
        if self.b.status.is_over() {
            return;
        }
        // 4. Goal, game over, spawn.
        if self.goal_met(self.report.clear.is_some()) {
            self.b.status = Status::won(1);
            return;
        }
        for g in &self.level.game_over {
            if let GameOver::TopRowTimeout { frames } = *g {
                let w = self.field.width;
                let occupied = (0..w).any(|x| self.field.cells[x] != EMPTY && self.moving[x] == 0);
                if occupied {
                    self.s.top_row_frames = self.s.top_row_frames.saturating_add(1);
                    if self.s.top_row_frames >= frames {
                        self.b.status = Status::Lost {
                            reason: format!("a block stayed in the top row for {frames} frames"),
                        };
                        return;
                    }
                } else {
                    self.s.top_row_frames = 0;
                }
            }
        }
        if self.s.active.is_none()
            && self.is_settled()
            && self.s.since_place >= self.level.timing.spawn
        {
            self.spawn_next();
        }
    }

    pub(super) fn shift(&mut self, dx: i32) {
        if let Some(p) = self.s.active {
            let q = Place { x: p.x + dx, ..p };
            if self.fits(q) {
                self.s.active = Some(q);
            }
        }
    }

    pub(super) fn turn(&mut self, turn: Turn) {
        let Some(p) = self.s.active else { return };
        let Some(t) = self.level.tumos.get(p.tumo) else {
            return;
        };
        let free = |x: i32, y: i32| self.free(x as i64, y as i64);
        let r = try_turn(&t.states, &t.kicks, p.state, (p.x, p.y), turn, &free);
        let frame = self.s.frames;
        let apply = |r: &TurnResult| {
            r.success.and_then(|i| r.trials.get(i)).map(|trial| Place {
                state: r.to_state,
                x: p.x + trial.offset.0,
                y: p.y + trial.offset.1,
                ..p
            })
        };
        if let Some(q) = apply(&r) {
            self.s.active = Some(q);
            self.s.last_failed_turn = None;
            self.report.turn = Some(r);
            return;
        }
        let quick = self.level.quick_turn
            && turn != Turn::Half
            && matches!(self.s.last_failed_turn,
                Some((last, at)) if last == turn && frame.saturating_sub(at) <= QUICK_TURN_FRAMES);
        if quick {
            let r2 = try_turn(&t.states, &t.kicks, p.state, (p.x, p.y), Turn::Half, &free);
            if let Some(q) = apply(&r2) {
                self.s.active = Some(q);
                self.s.last_failed_turn = None;
                self.report.turn = Some(r2);
                self.report.quick_turn = true;
                return;
            }
            self.report.turn = Some(r2);
        } else {
            self.report.turn = Some(r);
        }
        self.s.last_failed_turn = Some((turn, frame));
    }

    pub(super) fn soft_drop(&mut self) {
        let Some(p) = self.s.active else { return };
        if self.s.soft_drop_timer < self.level.timing.soft_drop {
            return;
        }
        let q = Place { y: p.y + 1, ..p };
        if self.fits(q) {
            self.s.active = Some(q);
            self.s.soft_drop_timer = 0;
            self.s.gravity_timer = 0;
            self.s.lock_timer = 0;
        }
    }

    /// Places the active tumo: its blocks become field blocks (`-1` cells the tumo's `block`,
    /// labelled cells their drawn kinds). Blocks in the buffer zone above the field are
    /// discarded and the game goes on (Puyo Puyo Tsu deletes a puyo placed in the 14th row,
    /// NES Tetris drops blocks above the field); only when every block of the tumo is above
    /// the field is the game lost (the guideline's lock out). Spec §4.1.
    pub(super) fn place(&mut self) {
        let Some(p) = self.s.active.take() else {
            return;
        };
        let labels = std::mem::take(&mut self.b.labels);
        let cells = self.cells_of(p, &labels);
        for &(x, y, k) in &cells {
            let i = y * self.field.width + x;
            self.field.cells[i] = k;
            self.moving[i] = 0;
        }
        self.s.since_place = 0;
        self.s.lock_timer = 0;
        self.s.gravity_timer = 0;
        self.s.placed_since_clear = true;
        self.s.last_failed_turn = None;
        let top = cells.iter().any(|&(_, y, _)| y == 0);
        let all_above = self
            .level
            .tumos
            .get(p.tumo)
            .and_then(|t| t.states.get(p.state))
            .is_some_and(|g| {
                let mut blocks = g.blocks().peekable();
                blocks.peek().is_some() && blocks.all(|(_, by, _)| p.y as i64 + (by as i64) < 0)
            });
        self.report.placed = cells;
        if all_above {
            // Lock out: the whole tumo locked above the field, whatever `game_over` lists.
            self.b.status = Status::Lost {
                reason: "a tumo was placed wholly above the field".into(),
            };
        } else if top && self.level.game_over.contains(&GameOver::TopRow) {
            self.b.status = Status::Lost {
                reason: "a block was placed in the top row".into(),
            };
        }
    }

    /// The active tumo falls by the timing; true when it has rested `timing.lock` frames and
    /// is to be placed now (where it is). Changes only the small state, so the placement
    /// search (`motion.rs`) runs it on its own.
    pub(super) fn fall_step(&mut self) -> bool {
        let Some(p) = self.s.active else {
            return false;
        };
        let timing = self.level.timing;
        // Whether it can fall is one test; how far only matters for 20G (gravity 0).
        let d = if timing.gravity == 0 {
            self.drop_distance(p)
        } else {
            i32::from(self.can_fall(p))
        };
        if d > 0 {
            let step = if timing.gravity == 0 {
                d
            } else {
                self.s.gravity_timer += 1;
                if self.s.gravity_timer >= timing.gravity {
                    1
                } else {
                    0
                }
            };
            if step > 0 {
                self.s.active = Some(Place { y: p.y + step, ..p });
                self.s.gravity_timer = 0;
                self.s.lock_timer = 0;
            }
        }
        let Some(p) = self.s.active else {
            return false;
        };
        if !self.can_fall(p) {
            self.s.gravity_timer = 0;
            if self.s.lock_timer >= timing.lock {
                return true;
            }
            self.s.lock_timer += 1;
        }
        false
    }
}

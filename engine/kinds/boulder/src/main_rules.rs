//! The main rules of the boulder kind (spec boulder §4.4), in the order of §6 P3: player,
//! gravity, enemies, slime, explosions. Each choice the spec leaves open is recorded in
//! `docs/boulder-semantics.md` with the spec item it settles.

use rand_core::Rng as _;

use super::board::nonzero_flag;
use super::game::BoulderGame;
use super::token::{Global, Token, ValueKey};
use tilesmith_core::grid::Dir;
use tilesmith_core::input::Input;

/// Values that describe the object rather than the field, and so travel with a moving object
/// (§6 V1). `a`–`d` stay with the field; `moved` is set on both fields.
const OBJECT_VALUES: [ValueKey; 7] = [
    ValueKey::Falling,
    ValueKey::Loose,
    ValueKey::Slippery,
    ValueKey::Pushable,
    ValueKey::Bam,
    ValueKey::Bamrich,
    ValueKey::Direction,
];

/// Probability of a slime trial, in percent (§4.4).
const SLIME_PERCENT: u64 = 3;

impl BoulderGame {
    fn neighbour(&self, i: usize, d: Dir) -> Option<usize> {
        self.board
            .pos(i)
            .step(d, self.board.width(), self.board.height())
            .map(|p| self.board.idx(p))
    }

    /// A field a loose object may fall or slide into: `path` not vacated this tick (§6 G2).
    #[inline]
    fn free(&self, i: usize) -> bool {
        self.board.token(i) == Token::Path
            && self.board.flags(i) & nonzero_flag(ValueKey::Moved) == 0
    }

    /// Moves the object at `from` to `to`: the token and the object values go, `from` becomes
    /// `path`, and both fields get `moved` (§4.4 examples, §6 V1).
    pub(super) fn move_object(&mut self, from: usize, to: usize) {
        let b = &mut self.board;
        b.set_token(to, b.token(from));
        // A value that is 0 on both fields stays so: skip it without touching its array.
        let either = b.flags(from) | b.flags(to);
        for k in OBJECT_VALUES {
            if either & nonzero_flag(k) == 0 {
                continue;
            }
            b.set_val(to, k, b.val(from, k));
            b.set_val(from, k, 0);
        }
        b.set_token(from, Token::Path);
        b.set_val(from, ValueKey::Moved, 1);
        b.set_val(to, ValueKey::Moved, 1);
    }

    /// Replaces the object at `i` by `t`, dropping the old object's values (not `a`–`d`).
    fn replace_object(&mut self, i: usize, t: Token) {
        self.board.set_token(i, t);
        for k in OBJECT_VALUES {
            self.board.set_val(i, k, 0);
        }
    }

    fn collect_gem(&mut self) {
        let g = &mut self.globals[Global::Gems as usize];
        *g = g.saturating_add(1);
    }

    /// True when the exit is open: `gems` ≥ `gems[0]` (§6 W1).
    pub fn exit_open(&self) -> bool {
        self.globals[Global::Gems as usize] >= self.level.gems[0]
    }

    /// Player movement, digging, pushing and meta-digging (§4.4 "Player movement", §6 P1–P6).
    pub(super) fn player(&mut self, input: Input) {
        let (dir, meta) = match input {
            Input::Move(d) => (d, false),
            Input::Meta(d) => (d, true),
            _ => return,
        };
        for i in self.board.find(Token::Me.bit()) {
            if self.board.token(i) != Token::Me || self.board.val(i, ValueKey::Moved) > 0 {
                continue;
            }
            let Some(t) = self.neighbour(i, dir) else {
                continue;
            };
            let target = self.board.token(t);
            let falling = self.board.val(t, ValueKey::Falling) > 0;
            if meta {
                match target {
                    Token::Mud => self.replace_object(t, Token::Path),
                    Token::Gem if !falling => {
                        self.replace_object(t, Token::Path);
                        self.collect_gem();
                    }
                    _ => {}
                }
                continue;
            }
            match target {
                Token::Path | Token::Mud => self.move_object(i, t),
                Token::Gem if !falling => {
                    self.collect_gem();
                    self.move_object(i, t);
                }
                Token::Exit if self.exit_open() => {
                    self.move_object(i, t);
                    self.entered_exit = true;
                }
                _ if dir.is_horizontal()
                    && self.board.val(t, ValueKey::Pushable) > 0
                    && self.board.val(t, ValueKey::Moved) == 0 =>
                {
                    if let Some(beyond) = self.neighbour(t, dir)
                        && self.board.token(beyond) == Token::Path
                    {
                        self.move_object(t, beyond);
                        self.move_object(i, t);
                    }
                }
                _ => {}
            }
        }
    }

    /// Marks the figure or enemy at `i` as crushed: `bamrich` for `me`, swapling and xling,
    /// `bam` for blockling (§4.4, §6 G5). Other tokens are not crushed (§6 G6).
    fn crush(&mut self, i: usize) {
        match self.board.token(i) {
            Token::Me | Token::Swapling | Token::Xling => {
                self.board.set_val(i, ValueKey::Bamrich, 1)
            }
            Token::Blockling => self.board.set_val(i, ValueKey::Bam, 1),
            _ => {}
        }
    }

    /// Gravity: every `loose` object not yet moved falls one field, or slides off a `slippery`
    /// one (right before left). Rows from the bottom up, left to right (§4.4, §6 G1–G4).
    pub(super) fn gravity(&mut self) {
        let (w, h) = (self.board.width(), self.board.height());
        let loose = 1 << ValueKey::Loose as u16;
        for y in (0..h.saturating_sub(1)).rev() {
            // A row without a loose object has nothing to fall (moves go down, not up); nothing
            // falls or slides from row y unless row y + 1 has a `path` to go to (§6 G2).
            if self.board.row_values(y) & loose == 0
                || self.board.row_mask(y + 1) & Token::Path.bit() == 0
            {
                continue;
            }
            let loose_not_moved = nonzero_flag(ValueKey::Loose);
            let test = loose_not_moved | nonzero_flag(ValueKey::Moved);
            // The row is read 64 fields at a time into a bit mask of the loose objects not yet
            // moved (a branch-free scan); a move writes only its own field of row y (and
            // rows below), so the mask stays true while its fields are handled left to right.
            for x0 in (0..w).step_by(64) {
                let mut todo = self
                    .board
                    .flags_run(y * w + x0, 64.min(w - x0))
                    .iter()
                    .enumerate()
                    .fold(0u64, |m, (j, f)| {
                        m | (u64::from(f & test == loose_not_moved) << j)
                    });
                while todo != 0 {
                    let x = x0 + todo.trailing_zeros() as usize;
                    todo &= todo - 1;
                    self.fall(x, y);
                }
            }
        }
    }

    /// Gravity for the loose, not yet moved object at (`x`, `y`), `y` above the bottom row:
    /// fall into a free field below, else slide off a slippery one (right before left).
    #[inline]
    fn fall(&mut self, x: usize, y: usize) {
        let (w, h) = (self.board.width(), self.board.height());
        let i = y * w + x;
        let below = i + w;
        let to = if self.free(below) {
            below
        } else if self.board.flags(below) & nonzero_flag(ValueKey::Slippery) != 0 {
            if x + 1 < w && self.free(i + 1) && self.free(below + 1) {
                below + 1
            } else if x > 0 && self.free(i - 1) && self.free(below - 1) {
                below - 1
            } else {
                return;
            }
        } else {
            return;
        };
        self.move_object(i, to);
        self.board.set_val(to, ValueKey::Falling, 1);
        if to + w < w * h {
            self.crush(to + w);
        }
    }

    /// Enemy movement: swapling back and forth, xling by the right hand, blockling by the left
    /// hand; an enemy whose next field holds `me` is marked to explode (§4.4, §6 N1–N5).
    pub(super) fn enemies(&mut self) {
        let set = Token::Swapling.bit() | Token::Xling.bit() | Token::Blockling.bit();
        for i in self.board.find(set) {
            let t = self.board.token(i);
            let b = &self.board;
            let stop = nonzero_flag(ValueKey::Moved)
                | nonzero_flag(ValueKey::Bam)
                | nonzero_flag(ValueKey::Bamrich);
            if !t.is_enemy() || b.flags(i) & stop != 0 {
                continue;
            }
            let Some(d) = Dir::from_value(b.val(i, ValueKey::Direction)) else {
                continue;
            };
            // The neighbours of `i` by index arithmetic, from its column and row found once.
            let (w, h) = (b.width(), b.height());
            let (x, y) = (i % w, i / w);
            let next = |c: Dir| match c {
                Dir::Right => (x + 1 < w).then(|| i + 1),
                Dir::Up => (y > 0).then(|| i - w),
                Dir::Left => (x > 0).then(|| i - 1),
                Dir::Down => (y + 1 < h).then(|| i + w),
            };
            let options: &[Dir] = match t {
                Token::Swapling => &[d, d.reverse()],
                Token::Xling => &[d.turn_right(), d, d.turn_left(), d.reverse()],
                _ => &[d.turn_left(), d, d.turn_right(), d.reverse()],
            };
            if t == Token::Swapling {
                let ahead = next(d).map(|j| self.board.token(j));
                if !matches!(ahead, Some(Token::Path | Token::Me)) {
                    self.board
                        .set_val(i, ValueKey::Direction, d.reverse().value());
                }
            }
            for &c in options {
                let Some(j) = next(c) else {
                    continue;
                };
                match self.board.token(j) {
                    Token::Me => {
                        self.crush(i);
                        break;
                    }
                    Token::Path => {
                        self.board.set_val(i, ValueKey::Direction, c.value());
                        self.move_object(i, j);
                        break;
                    }
                    _ => {}
                }
            }
        }
    }

    /// Slime: a 3 % trial per (slime field, neighbour) pair with the seeded RNG; then all slime
    /// becomes stone when there is more than `maxslime`, else every enclosed region becomes gem
    /// (§4.4, §6 S1–S6).
    pub(super) fn slime(&mut self) {
        let slimes = self.board.find(Token::Slime.bit());
        if slimes.is_empty() {
            return;
        }
        for &s in &slimes {
            for d in Dir::ALL {
                let Some(n) = self.neighbour(s, d) else {
                    continue;
                };
                let hit = (self.rng.next_u32() as u64 * 100) >> 32 < SLIME_PERCENT;
                if !hit {
                    continue;
                }
                match self.board.token(n) {
                    Token::Path | Token::Mud => self.replace_object(n, Token::Slime),
                    Token::Swapling | Token::Xling | Token::Blockling => self.crush(n),
                    _ => {}
                }
            }
        }
        let all = self.board.find(Token::Slime.bit());
        if let Some(max) = self.level.maxslime
            && all.len() as u64 > max as u64
        {
            for i in all {
                self.replace_object(i, Token::Stone);
            }
            return;
        }
        let open = Token::Path.bit()
            | Token::Mud.bit()
            | Token::Swapling.bit()
            | Token::Xling.bit()
            | Token::Blockling.bit();
        let mut seen = std::collections::HashSet::new();
        for &start in &all {
            if !seen.insert(start) {
                continue;
            }
            let mut region = vec![start];
            let mut enclosed = true;
            let mut k = 0;
            while k < region.len() {
                let c = region[k];
                k += 1;
                for d in Dir::ALL {
                    let Some(n) = self.neighbour(c, d) else {
                        continue;
                    };
                    let t = self.board.token(n);
                    if t == Token::Slime {
                        if seen.insert(n) {
                            region.push(n);
                        }
                    } else if t.bit() & open != 0 {
                        enclosed = false;
                    }
                }
            }
            if enclosed {
                for i in region {
                    self.replace_object(i, Token::Gem);
                }
            }
        }
    }

    /// Explosions: last tick's `explosion` fields become `path`; then every `bam` field makes a
    /// 3×3 of `explosion` and every `bamrich` field a 3×3 of `gem`, sparing `wall` and `exit`
    /// and clipped to the map. Gems win where areas overlap (§4.4, §6 E1–E4, V2).
    pub(super) fn explosions(&mut self) {
        for i in std::mem::take(&mut self.explosions_at_start) {
            if self.board.token(i) == Token::Explosion {
                self.board.set_token(i, Token::Path);
            }
        }
        // Rows where neither value is non-zero anywhere are skipped (the row summaries).
        let rich_centres = self.board.find_nonzero(ValueKey::Bamrich);
        let rich = self.board.val_array(ValueKey::Bamrich);
        let plain_centres: Vec<usize> = self
            .board
            .find_nonzero(ValueKey::Bam)
            .into_iter()
            .filter(|&i| rich[i] == 0)
            .collect();
        let (w, h) = (self.board.width() as isize, self.board.height() as isize);
        for (centres, t) in [
            (plain_centres, Token::Explosion),
            (rich_centres, Token::Gem),
        ] {
            for c in centres {
                let (cx, cy) = ((c as isize) % w, (c as isize) / w);
                for y in (cy - 1).max(0)..=(cy + 1).min(h - 1) {
                    for x in (cx - 1).max(0)..=(cx + 1).min(w - 1) {
                        let j = (y * w + x) as usize;
                        if !matches!(self.board.token(j), Token::Wall | Token::Exit) {
                            self.replace_object(j, t);
                        }
                    }
                }
            }
        }
    }

    /// The reset of values at the start of a tick (§4.2, §4.3): `moved`, `falling`, `bam` and
    /// `bamrich` become 0; `loose` is 1 exactly on stone and gem, `slippery` on stone, gem and
    /// bricks, `pushable` on stone. Only the fields written since the last reset are visited
    /// ([`super::Board::reset_values`]).
    pub(super) fn reset_values(&mut self) {
        self.board.reset_values();
    }
}

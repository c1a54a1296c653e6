//! The rules of play (spec §5–§8 with the suggested readings A1–A17 and the pins):
//! placing a flag, executing or skipping a command, the cursor's walk with Subroutine
//! visits and gaps, and the end checks. `docs/pasta-semantics.md` gives each choice with the
//! spec item it settles.

use super::card::Card;
use super::choice::{Arrange, Choice, Moves};
use super::state::{End, MAX_LIFE, Reason, Ret, State, Track};

impl State {
    /// Starts the execution phase (spec §6.1) at the card under the cursor, after checking
    /// W1/W2 (a position may already be lost), and runs to the first decision.
    pub fn begin_execution(&mut self) {
        self.gap = false;
        self.placer = 0;
        self.check_end();
        self.settle();
    }

    /// W1/W2 after an executed command (A13): both players losing at once is a draw.
    pub fn check_end(&mut self) {
        let lost = |p: usize| self.life[p] <= 0 || self.flags_on_cards(p as u8) == 0;
        let why = |p: usize| {
            if self.life[p] <= 0 {
                Reason::Life
            } else {
                Reason::NoFlags
            }
        };
        self.end = match (lost(0), lost(1)) {
            (true, true) => End::Draw(Reason::BothLost),
            (true, false) => End::Won(1, why(0)),
            (false, true) => End::Won(0, why(1)),
            (false, false) => return,
        };
    }

    /// Moves the cursor on until a flag gives its owner the right (X1–X4, A8–A10), or the
    /// game ends by A17. On entry the track is `Next(p)`: the flag at `p` is the next.
    pub fn settle(&mut self) {
        loop {
            if self.end != End::Running {
                return;
            }
            if !self.gap
                && let Track::Next(p) = self.track
                && p < self.slots[self.at as usize].q.len
            {
                self.track = Track::Active(p);
                return;
            }
            // The card is done: the cursor leaves it (C6: its chips go back).
            if !self.gap {
                self.slots[self.at as usize].chips = [0, 0];
            }
            if let Some(r) = self.ret.take() {
                self.at = r.card;
                self.gap = r.gap;
                self.track = done(r.track);
                continue;
            }
            self.lap += 1;
            if self.lap >= self.n as i8 || self.n == 0 {
                self.end = End::Draw(Reason::Lap);
                return;
            }
            let n = self.n;
            self.at = match (self.gap, self.backward) {
                (true, false) => self.at % n,
                (_, true) => (self.at + n - 1) % n,
                (false, false) => (self.at + 1) % n,
            };
            self.gap = false;
            self.track = Track::Next(0);
        }
    }

    /// Plays a choice legal at the current decision, then runs to the next decision.
    pub fn play(&mut self, c: Choice) {
        if self.placing() {
            if let Choice::Place(i) = c {
                self.place(i);
            }
            return;
        }
        if c != Choice::Skip {
            self.lap = -1;
            self.execute(c);
            self.check_end();
        }
        self.track = done(self.track);
        self.settle();
    }

    /// Placement (spec §5): the placer's flag at the tail of card `i`; the players
    /// alternate, an empty hand passed over; when both hands are empty, execution starts.
    fn place(&mut self, i: u8) {
        let p = self.placer;
        self.push_tail(i, p);
        self.hand[p as usize] -= 1;
        let o = 1 - p;
        if self.hand[o as usize] > 0 {
            self.placer = o;
        }
        if !self.placing() {
            self.begin_execution();
        }
    }

    /// Executes the command of the card under the cursor for the owner of the flag whose
    /// right it is, with the choices `c` (spec §8, A1–A15).
    fn execute(&mut self, c: Choice) {
        let at = self.at;
        let slot = self.slots[at as usize];
        let Track::Active(flag) = self.track else {
            return;
        };
        let p = slot.q.get(flag);
        let o = 1 - p;
        let (v0, v1) = (slot.param(0), slot.param(1));
        match (slot.card, c) {
            (Card::AddFlag, Choice::Cards(mask)) => self.add_flags(mask, p, false),
            (Card::FastPass, c) => {
                self.life[p as usize] -= v0;
                if let Choice::Cards(mask) = c {
                    self.add_flags(mask, p, true);
                }
            }
            (Card::MoveFlag, Choice::Move(m)) => self.move_flags(m),
            (Card::RemoveFlag, Choice::Remove(card, mask)) => {
                for i in (0..32u8).rev().filter(|i| mask & (1 << i) != 0) {
                    self.remove_flag(card, i);
                }
            }
            (Card::Reorder, Choice::Reorder(a)) => self.reorder(a),
            (Card::Rotate, _) => {
                for i in (0..self.n).filter(|&i| i != at) {
                    self.rotate(i);
                }
            }
            (Card::Bug, _) => self.life[o as usize] -= v0,
            (Card::ForkBomb, _) => {
                self.life[o as usize] -= v0;
                self.remove_flag(at, flag);
            }
            (Card::Debug, _) => {
                self.remove_flag(at, flag);
                self.life[p as usize] = (self.life[p as usize] + v0).min(MAX_LIFE);
            }
            (Card::TradeOff, _) => {
                self.life[p as usize] -= v0;
                self.life[o as usize] -= v1;
            }
            (Card::RemoveCommand, Choice::Target(t)) => {
                self.remove_flag(at, flag);
                self.remove_card(t);
            }
            (Card::Reverse, _) => {
                self.life[p as usize] -= v0;
                self.backward = !self.backward;
            }
            (Card::SwapCommand, Choice::Target(t)) => self.swap_cards(at, t),
            (Card::Subroutine, Choice::Target(t)) => {
                self.ret = Some(Ret {
                    card: at,
                    gap: false,
                    track: self.track,
                });
                self.at = t;
                self.track = Track::Next(0);
            }
            (Card::Increment, Choice::Param(t, k)) => {
                for _ in 0..v0 {
                    self.increment(t, k as usize);
                }
            }
            (Card::Decrement, Choice::Param(t, k)) => {
                for _ in 0..v0 {
                    self.decrement(t, k as usize);
                }
            }
            _ => {}
        }
    }

    /// AddFlag (tail) or FastPass (head): a flag of `p` from the reserve on each card of
    /// `mask`, while the reserve lasts (A5).
    fn add_flags(&mut self, mask: u16, p: u8, head: bool) {
        for i in (0..self.n).filter(|i| mask & (1 << i) != 0) {
            if self.reserve[p as usize] == 0 {
                return;
            }
            self.reserve[p as usize] -= 1;
            if head {
                self.push_head(i, p);
            } else {
                self.push_tail(i, p);
            }
        }
    }

    /// MoveFlag: each part's flag (named by its place as the command found it) to the tail
    /// of its destination, in order (A6).
    fn move_flags(&mut self, m: Moves) {
        let parts = &m.parts[..m.n as usize];
        for (k, &(src, place, dest)) in parts.iter().enumerate() {
            let before = parts[..k]
                .iter()
                .filter(|&&(s, pl, _)| s == src && pl < place)
                .count() as u8;
            let owner = self.take(src, place - before);
            self.push_tail(dest, owner);
        }
    }

    /// Reorder: each named card's owners set to the new arrangement (A6, A8).
    fn reorder(&mut self, a: Arrange) {
        for &(card, bits, pin) in &a.cards[..a.n as usize] {
            self.arrange(card, bits, pin);
        }
    }

    /// One Increment unit on parameter `k` of card `t` (A3, C5): remove a Decrement chip,
    /// else place an Increment chip from the supply, else it is lost.
    fn increment(&mut self, t: u8, k: usize) {
        let has_chip = self.slots[t as usize].chips[k] < 0;
        if has_chip || self.supply(0) > 0 {
            self.slots[t as usize].chips[k] += 1;
        }
    }

    /// One Decrement unit (A3, A4, C3, C5): remove an Increment chip, else (the value above
    /// 0) place a Decrement chip from the supply, else it is lost.
    fn decrement(&mut self, t: u8, k: usize) {
        let s = self.slots[t as usize];
        if s.chips[k] > 0 || (s.param(k) > 0 && self.supply(1) > 0) {
            self.slots[t as usize].chips[k] -= 1;
        }
    }
}

/// The track once the flag whose right it was has been handled: the next flag is the one
/// behind it (A8).
fn done(t: Track) -> Track {
    match t {
        Track::Active(i) => Track::Next(i + 1),
        next => next,
    }
}

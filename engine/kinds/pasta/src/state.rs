//! The state of a Pasta Logic game as one small `Copy` value: the cards in line order with
//! their flag queues and chips, the lives, hands and reserves, the cursor (with the flag
//! whose right it is and the Subroutine to return to) and the end. The queue operations here
//! keep the flags the rules follow (the flag whose right it is, the Subroutine's activating
//! flag) where they are as the queues change (spec A8).

use super::card::Card;

/// The most cards in a line (spec §2: 16 command cards).
pub const MAX_CARDS: usize = 16;
/// Flags of each colour in the box (spec §2; A5).
pub const FLAGS_PER_PLAYER: u8 = 10;
/// The highest life: the life die's face (A14's alternative reading, as the designer's
/// version caps it; `docs/pasta-semantics.md`).
pub const MAX_LIFE: i8 = 6;
/// Increment chips, and Decrement chips, in the supply (spec §2).
pub const CHIPS_PER_KIND: i8 = 2;

/// A card's flag queue, head first: bit `i` of `bits` is the owner of the flag at place `i`
/// (0 red, 1 blue); bits from `len` on are 0. At most 20 flags (2 × 10).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Queue {
    /// Owners, bit `i` for place `i` (head 0).
    pub bits: u32,
    /// Number of flags.
    pub len: u8,
}

impl Queue {
    /// The owner of the flag at place `i` (0-based).
    #[inline]
    pub fn get(self, i: u8) -> u8 {
        ((self.bits >> i) & 1) as u8
    }

    /// Flags of player `p`.
    #[inline]
    pub fn count(self, p: u8) -> u8 {
        let blue = self.bits.count_ones() as u8;
        if p == 1 { blue } else { self.len - blue }
    }

    /// True when player `p` has a flag here.
    pub fn has(self, p: u8) -> bool {
        self.count(p) > 0
    }

    fn push_tail(&mut self, p: u8) {
        self.bits |= (p as u32) << self.len;
        self.len += 1;
    }

    fn push_head(&mut self, p: u8) {
        self.bits = (self.bits << 1) | p as u32;
        self.len += 1;
    }

    fn remove(&mut self, i: u8) -> u8 {
        let p = self.get(i);
        let low = self.bits & ((1u32 << i) - 1);
        let high = self.bits >> (i + 1);
        self.bits = low | (high << i);
        self.len -= 1;
        p
    }

    fn rotate(&mut self) {
        if self.len >= 2 {
            let t = self.get(self.len - 1);
            self.bits &= !(1u32 << (self.len - 1));
            self.bits = (self.bits << 1) | t as u32;
        }
    }

    /// The owners as a list, head first.
    pub fn owners(self) -> impl Iterator<Item = u8> {
        (0..self.len).map(move |i| self.get(i))
    }
}

/// A card in the line: the card, its flag queue and its chips per parameter (net: +1, +2
/// Increment chips; −1, −2 Decrement chips).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Slot {
    /// The card.
    pub card: Card,
    /// Its flags, head first.
    pub q: Queue,
    /// Net chips on each parameter, in printed order.
    pub chips: [i8; 2],
}

impl Slot {
    const EMPTY: Slot = Slot {
        card: Card::AddFlag,
        q: Queue { bits: 0, len: 0 },
        chips: [0, 0],
    };

    /// The effective value of parameter `k` (printed + chips, A1); 0 for a parameter the
    /// card does not have.
    #[inline]
    pub fn param(&self, k: usize) -> i8 {
        self.card
            .params()
            .get(k)
            .map_or(0, |v| v + self.chips.get(k).copied().unwrap_or(0))
    }
}

/// A flag the rules follow on one card (A8): the flag whose right it is, or, once that flag
/// is gone, the place of the flag that comes next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Track {
    /// The flag at this place holds (or held) the right and is still on the card.
    Active(u8),
    /// The flag that gets the right next is at this place (the queue's length: none).
    Next(u8),
}

impl Track {
    /// The place of the flag followed, if it is on the card (`len` flags).
    pub fn pinned(self, len: u8) -> Option<u8> {
        match self {
            Track::Active(i) => Some(i),
            Track::Next(p) if p < len => Some(p),
            Track::Next(_) => None,
        }
    }

    fn push_head(self) -> Track {
        match self {
            Track::Active(i) => Track::Active(i + 1),
            Track::Next(p) => Track::Next(p + 1),
        }
    }

    fn remove(self, j: u8) -> Track {
        match self {
            Track::Active(i) if j < i => Track::Active(i - 1),
            Track::Active(i) if j == i => Track::Next(i),
            Track::Next(p) if j < p => Track::Next(p - 1),
            t => t,
        }
    }

    fn rotate(self, len: u8) -> Track {
        if len < 2 {
            return self;
        }
        match self {
            Track::Active(i) => Track::Active(if i + 1 == len { 0 } else { i + 1 }),
            Track::Next(p) if p + 1 < len => Track::Next(p + 1),
            Track::Next(p) if p + 1 == len => Track::Next(0),
            t => t,
        }
    }

    fn moved_to(self, len: u8, pin: u8) -> Track {
        match self {
            Track::Active(_) => Track::Active(pin),
            Track::Next(p) if p < len => Track::Next(pin),
            t => t,
        }
    }
}

/// Where the cursor returns after a Subroutine's visit (A9): the Subroutine card's index (or
/// the gap it left, A10) and its activating flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ret {
    /// The Subroutine card's index, or the gap's when it was removed.
    pub card: u8,
    /// True when the Subroutine card was removed while the cursor was away (A10).
    pub gap: bool,
    /// Subroutine's activating flag (A8).
    pub track: Track,
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Reason {
    /// Both players met W1 or W2 at once (A13).
    BothLost,
    /// A lap without an executed command (A17).
    Lap,
    /// A decision occurred a second time.
    Repetition,
    /// The loser's life is 0 or less (W1).
    Life,
    /// The loser has no flags on cards (W2).
    NoFlags,
}

impl Reason {
    /// The word of `tilesmith run`'s `reason`.
    pub fn word(self) -> &'static str {
        match self {
            Reason::BothLost => "both lost",
            Reason::Lap => "lap",
            Reason::Repetition => "repetition",
            Reason::Life => "life",
            Reason::NoFlags => "no flags",
        }
    }
}

/// Whether the game goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum End {
    /// Not over.
    Running,
    /// Won by player 0 (red) or 1 (blue).
    Won(u8, Reason),
    /// A draw.
    Draw(Reason),
}

/// The whole state of a game (about 150 bytes, `Copy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// The cards in line order; only the first `n` are in play.
    pub slots: [Slot; MAX_CARDS],
    /// Cards in play.
    pub n: u8,
    /// Lives, red then blue (may go below 0 at the end).
    pub life: [i8; 2],
    /// Flags still to place.
    pub hand: [u8; 2],
    /// Flags in the box (A5).
    pub reserve: [u8; 2],
    /// Who places next (placement phase).
    pub placer: u8,
    /// The index of the card under the cursor (during a Subroutine's visit, the visited
    /// card); a gap's index when `gap`.
    pub at: u8,
    /// The cursor stands in the gap of a removed card (A10).
    pub gap: bool,
    /// The flag whose right it is on the card under the cursor (A8).
    pub track: Track,
    /// The cursor moves backward (after an odd number of Reverses).
    pub backward: bool,
    /// The Subroutine to return to, during a Subroutine's visit (A9).
    pub ret: Option<Ret>,
    /// Card visits ended with no command executed (A17); −1 while the current visit has
    /// executed one.
    pub lap: i8,
    /// Whether the game is over.
    pub end: End,
}

impl State {
    /// A state with `cards` in line order and nothing else set (lives 5, no flags).
    pub fn new(cards: &[Card]) -> State {
        let mut slots = [Slot::EMPTY; MAX_CARDS];
        for (s, c) in slots.iter_mut().zip(cards) {
            s.card = *c;
        }
        State {
            slots,
            n: cards.len().min(MAX_CARDS) as u8,
            life: [5, 5],
            hand: [0, 0],
            reserve: [FLAGS_PER_PLAYER; 2],
            placer: 0,
            at: 0,
            gap: false,
            track: Track::Next(0),
            backward: false,
            ret: None,
            lap: 0,
            end: End::Running,
        }
    }

    /// The cards in play.
    #[inline]
    pub fn cards(&self) -> &[Slot] {
        &self.slots[..self.n as usize]
    }

    /// The index of `card` in the line.
    pub fn index_of(&self, card: Card) -> Option<u8> {
        self.cards()
            .iter()
            .position(|s| s.card == card)
            .map(|i| i as u8)
    }

    /// True while a hand is not empty (placement phase, spec §5).
    #[inline]
    pub fn placing(&self) -> bool {
        self.hand[0] + self.hand[1] > 0
    }

    /// Player `p`'s flags on cards (W2 counts these, A7).
    pub fn flags_on_cards(&self, p: u8) -> u8 {
        self.cards().iter().map(|s| s.q.count(p)).sum()
    }

    /// Increment chips (0) or Decrement chips (1) left in the supply.
    pub fn supply(&self, kind: usize) -> i8 {
        let used: i8 = self
            .cards()
            .iter()
            .flat_map(|s| s.chips)
            .map(|c| if kind == 0 { c.max(0) } else { (-c).max(0) })
            .sum();
        CHIPS_PER_KIND - used
    }

    /// The player whose decision is next; `None` when the game is over.
    pub fn to_move(&self) -> Option<u8> {
        if self.end != End::Running {
            return None;
        }
        if self.placing() {
            return Some(self.placer);
        }
        match self.track {
            Track::Active(i) if !self.gap => Some(self.slots[self.at as usize].q.get(i)),
            _ => None,
        }
    }

    /// The tracks following a flag on card `c`: the cursor's and the return point's.
    fn tracks_on(&mut self, c: u8, mut f: impl FnMut(&mut Track)) {
        if !self.gap && self.at == c {
            f(&mut self.track);
        }
        if let Some(r) = &mut self.ret
            && !r.gap
            && r.card == c
        {
            f(&mut r.track);
        }
    }

    /// The place of the flag the rules follow on card `c`, if any (for Reorder, A8).
    pub fn pinned(&self, c: u8) -> Option<u8> {
        let len = self.slots[c as usize].q.len;
        if !self.gap && self.at == c {
            return self.track.pinned(len);
        }
        match self.ret {
            Some(r) if !r.gap && r.card == c => r.track.pinned(len),
            _ => None,
        }
    }

    /// Adds a flag of `p` at the tail of card `c`.
    pub fn push_tail(&mut self, c: u8, p: u8) {
        self.slots[c as usize].q.push_tail(p);
    }

    /// Adds a flag of `p` at the head of card `c`.
    pub fn push_head(&mut self, c: u8, p: u8) {
        self.slots[c as usize].q.push_head(p);
        self.tracks_on(c, |t| *t = t.push_head());
    }

    /// Takes the flag at place `i` off card `c` (to be put elsewhere) and gives its owner.
    pub fn take(&mut self, c: u8, i: u8) -> u8 {
        let p = self.slots[c as usize].q.remove(i);
        self.tracks_on(c, |t| *t = t.remove(i));
        p
    }

    /// Removes the flag at place `i` of card `c` to its owner's reserve (A5).
    pub fn remove_flag(&mut self, c: u8, i: u8) {
        let p = self.take(c, i);
        self.reserve[p as usize] += 1;
    }

    /// Moves card `c`'s tail flag to its head (Rotate).
    pub fn rotate(&mut self, c: u8) {
        let len = self.slots[c as usize].q.len;
        self.slots[c as usize].q.rotate();
        self.tracks_on(c, |t| *t = t.rotate(len));
    }

    /// Sets card `c`'s owners to `bits` (Reorder), the followed flag now at `pin`.
    pub fn arrange(&mut self, c: u8, bits: u32, pin: u8) {
        let len = self.slots[c as usize].q.len;
        self.slots[c as usize].q.bits = bits;
        self.tracks_on(c, |t| *t = t.moved_to(len, pin));
    }

    /// Removes card `r` from the game with its flags (to the reserves) and chips (to the
    /// supply); the line closes up and a cursor on it stands in its gap (A10).
    pub fn remove_card(&mut self, r: u8) {
        let q = self.slots[r as usize].q;
        for p in 0..2 {
            self.reserve[p as usize] += q.count(p);
        }
        let n = self.n as usize;
        self.slots.copy_within(r as usize + 1..n, r as usize);
        self.slots[n - 1] = Slot::EMPTY;
        self.n -= 1;
        if !self.gap {
            if self.at == r {
                self.gap = true;
            } else if self.at > r {
                self.at -= 1;
            }
        } else if self.at > r {
            self.at -= 1;
        }
        if let Some(ret) = &mut self.ret {
            if !ret.gap && ret.card == r {
                ret.gap = true;
            } else if ret.card > r {
                ret.card -= 1;
            }
        }
    }

    /// Swaps cards `a` and `b`; the cursor and the return point travel with their cards
    /// (A11).
    pub fn swap_cards(&mut self, a: u8, b: u8) {
        self.slots.swap(a as usize, b as usize);
        let map = |i: u8| {
            if i == a {
                b
            } else if i == b {
                a
            } else {
                i
            }
        };
        if !self.gap {
            self.at = map(self.at);
        }
        if let Some(r) = &mut self.ret
            && !r.gap
        {
            r.card = map(r.card);
        }
    }

    /// The decision's identity for the repetition rule: cards with flags and chips, lives,
    /// hands, reserves, the card under the cursor, the direction, the Subroutine being run
    /// and the flag whose right it is (not the A17 count), as a 128-bit hash.
    pub fn decision_key(&self) -> u128 {
        let mut h = Mix::new();
        for s in self.cards() {
            h.word(
                s.card as u64
                    | (s.q.len as u64) << 4
                    | (s.q.bits as u64) << 9
                    | ((s.chips[0] as u8) as u64) << 32
                    | ((s.chips[1] as u8) as u64) << 40,
            );
        }
        let track = |t: Track| match t {
            Track::Active(i) => i as u64,
            Track::Next(p) => 0x100 | p as u64,
        };
        h.word(
            self.n as u64
                | (self.life[0] as u8 as u64) << 8
                | (self.life[1] as u8 as u64) << 16
                | (self.hand[0] as u64) << 24
                | (self.hand[1] as u64) << 32
                | (self.reserve[0] as u64) << 40
                | (self.reserve[1] as u64) << 48
                | (self.placer as u64) << 56,
        );
        h.word(
            self.at as u64
                | (self.gap as u64) << 8
                | (self.backward as u64) << 9
                | track(self.track) << 16,
        );
        h.word(match self.ret {
            None => u64::MAX,
            Some(r) => r.card as u64 | (r.gap as u64) << 8 | track(r.track) << 16,
        });
        h.finish()
    }
}

/// A 128-bit mixing hash over 64-bit words (an FNV-1a-128 step with a fold of the high
/// half), deterministic across runs and machines, for decision keys.
struct Mix(u128);

impl Mix {
    const PRIME: u128 = 0x0000_0000_0100_0000_0000_0000_0000_013B;

    fn new() -> Mix {
        Mix(0x6c62_272e_07bb_0142_62b8_2175_6295_c58d)
    }

    fn word(&mut self, w: u64) {
        self.0 = (self.0 ^ w as u128).wrapping_mul(Self::PRIME);
        self.0 ^= self.0 >> 67;
    }

    fn finish(&self) -> u128 {
        let mut h = self.0.wrapping_mul(Self::PRIME);
        h ^= h >> 64;
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn queue(owners: &[u8]) -> Queue {
        let mut q = Queue::default();
        for &p in owners {
            q.push_tail(p);
        }
        q
    }

    #[test]
    fn queue_operations_keep_head_first_order() {
        let mut q = queue(&[0, 1, 1]);
        assert_eq!(q.owners().collect::<Vec<_>>(), [0, 1, 1]);
        assert_eq!((q.count(0), q.count(1)), (1, 2));
        q.push_head(1);
        assert_eq!(q.owners().collect::<Vec<_>>(), [1, 0, 1, 1]);
        assert_eq!(q.remove(1), 0);
        assert_eq!(q.owners().collect::<Vec<_>>(), [1, 1, 1]);
        let mut r = queue(&[0, 0, 1]);
        r.rotate();
        assert_eq!(r.owners().collect::<Vec<_>>(), [1, 0, 0]);
        assert_eq!(r.bits >> r.len, 0, "no bits past the length");
    }

    /// A8: the followed flag by identity through head additions, removals and a rotation.
    #[test]
    fn tracks_follow_the_flag() {
        assert_eq!(Track::Active(1).push_head(), Track::Active(2));
        assert_eq!(Track::Active(1).remove(0), Track::Active(0));
        assert_eq!(Track::Active(1).remove(1), Track::Next(1));
        assert_eq!(Track::Active(1).remove(2), Track::Active(1));
        assert_eq!(Track::Next(1).remove(1), Track::Next(1));
        assert_eq!(Track::Active(2).rotate(3), Track::Active(0));
        assert_eq!(Track::Active(0).rotate(3), Track::Active(1));
        assert_eq!(Track::Next(3).rotate(3), Track::Next(3));
        assert_eq!(Track::Next(3).pinned(3), None);
    }

    /// A10: removing the card under the cursor leaves the cursor in its gap; removing one
    /// before it moves the cursor's index down; the return point likewise.
    #[test]
    fn removing_cards_moves_the_cursor_and_return_point() {
        let mut s = State::new(&[Card::Bug, Card::Subroutine, Card::Debug, Card::Rotate]);
        s.at = 3;
        s.ret = Some(Ret {
            card: 1,
            gap: false,
            track: Track::Active(0),
        });
        s.remove_card(0);
        assert_eq!((s.at, s.gap, s.ret.map(|r| r.card)), (2, false, Some(0)));
        s.remove_card(0);
        assert_eq!(s.ret.map(|r| (r.card, r.gap)), Some((0, true)));
        s.remove_card(1);
        assert_eq!((s.at, s.gap, s.n), (1, true, 1));
    }

    #[test]
    fn decision_keys_differ_by_the_flag_whose_right_it_is() {
        let mut s = State::new(&[Card::Bug, Card::Debug]);
        s.push_tail(0, 0);
        s.push_tail(0, 0);
        s.track = Track::Active(0);
        let a = s.decision_key();
        s.track = Track::Active(1);
        assert_ne!(a, s.decision_key());
        s.lap = 1;
        let b = s.decision_key();
        s.lap = 0;
        assert_eq!(b, s.decision_key(), "the A17 count is not part of it");
    }
}

//! The visited set of a breadth-first search: a set of 128-bit state keys in one flat table,
//! open addressing with linear probing (issue #29, BENCHMARKS.md "Breadth-first search,
//! baba": the inserts into a table of millions of keys are cache misses).
//!
//! A state key is a hash already ([`StateKey`]), so its low 64 bits place it in the table
//! as they are, and the slot holds the key itself: a look-up reads one slot (16 bytes, four
//! to a cache line) and usually its neighbours on the same line, where a general hash set
//! reads a control byte and then, on a tag match, the key elsewhere: two misses instead of
//! one on a table far larger than the caches. The key 0 marks an empty slot; the state whose
//! key is 0 is kept apart in a flag. The table doubles when it is three quarters full.

use tilesmith_core::search_game::StateKey;

/// The empty table's slots on the first insert.
const FIRST_SLOTS: usize = 1024;

/// A set of state keys; see the module documentation.
#[derive(Clone, Debug, Default)]
pub(crate) struct KeySet {
    /// Power-of-two many slots (or none before the first insert); 0 is empty.
    slots: Vec<StateKey>,
    /// Keys held, the key 0 included.
    len: usize,
    /// The key 0 is in the set.
    zero: bool,
}

impl KeySet {
    /// Bytes of one slot.
    pub(crate) const SLOT_BYTES: usize = std::mem::size_of::<StateKey>();

    /// The number of keys held.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The keys it holds before its table grows.
    pub(crate) fn capacity(&self) -> usize {
        self.slots.len() / 4 * 3
    }

    /// The bytes its table takes.
    pub(crate) fn bytes(&self) -> usize {
        self.slots.len() * Self::SLOT_BYTES
    }

    /// The most bytes its tables take during the next insert of a new key: when the table
    /// is full it doubles, and both are held while the keys move.
    pub(crate) fn bytes_after_insert(&self) -> usize {
        if self.len >= self.capacity() {
            self.bytes() + (self.slots.len() * 2).max(FIRST_SLOTS) * Self::SLOT_BYTES
        } else {
            self.bytes()
        }
    }

    /// Adds `key`; true when it was not in the set.
    pub(crate) fn insert(&mut self, key: StateKey) -> bool {
        if key == 0 {
            let new = !self.zero;
            self.zero = true;
            self.len += usize::from(new);
            return new;
        }
        if self.len >= self.capacity() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = (key as usize) & mask;
        loop {
            let slot = &mut self.slots[i];
            if *slot == key {
                return false;
            }
            if *slot == 0 {
                *slot = key;
                self.len += 1;
                return true;
            }
            i = (i + 1) & mask;
        }
    }

    /// True when `key` is in the set.
    #[cfg(test)]
    pub(crate) fn contains(&self, key: StateKey) -> bool {
        if key == 0 {
            return self.zero;
        }
        if self.slots.is_empty() {
            return false;
        }
        let mask = self.slots.len() - 1;
        let mut i = (key as usize) & mask;
        loop {
            match self.slots[i] {
                0 => return false,
                k if k == key => return true,
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// Doubles the table and places every key again.
    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(FIRST_SLOTS);
        let old = std::mem::replace(&mut self.slots, vec![0; size]);
        let mask = size - 1;
        for key in old.into_iter().filter(|&k| k != 0) {
            let mut i = (key as usize) & mask;
            while self.slots[i] != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = key;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys that share their low bits (so they fall on one slot and its neighbours, and on
    /// one slot again after each growth) are told apart by their high bits; the key 0 counts
    /// once; every key inserted is found after the table grew several times, and no key
    /// that was not inserted is.
    #[test]
    fn keys_on_the_same_slot_stay_apart_through_growth() {
        let mut s = KeySet::default();
        assert!(!s.contains(0) && !s.contains(5));
        // 3000 keys whose low 64 bits are 7: one chain of collisions.
        for hi in 1..=3000u128 {
            assert!(s.insert((hi << 64) | 7), "new key {hi}");
        }
        assert!(s.insert(0));
        assert!(!s.insert(0));
        // Spread keys too, past several doublings.
        for k in 1..=5000u128 {
            assert!(s.insert(k * 0x9e37_79b9_7f4a_7c15));
        }
        assert_eq!(s.len(), 3000 + 1 + 5000);
        assert!(s.len() <= s.capacity());
        assert_eq!(s.bytes(), s.capacity() / 3 * 4 * KeySet::SLOT_BYTES);
        for hi in 1..=3000u128 {
            assert!(!s.insert((hi << 64) | 7), "old key {hi}");
            assert!(s.contains((hi << 64) | 7));
        }
        for k in 1..=5000u128 {
            assert!(s.contains(k * 0x9e37_79b9_7f4a_7c15));
        }
        assert!(s.contains(0));
        assert!(!s.contains((3001 << 64) | 7));
        assert!(!s.contains(7));
        assert_eq!(s.len(), 8001);
    }

    /// The bytes during an insert: the first insert makes the first table; a full table
    /// doubles, the old one held until the keys have moved.
    #[test]
    fn growth_is_announced_before_it_happens() {
        let mut s = KeySet::default();
        assert_eq!(s.bytes(), 0);
        assert_eq!(s.bytes_after_insert(), FIRST_SLOTS * 16);
        s.insert(1);
        assert_eq!(s.bytes(), FIRST_SLOTS * 16);
        for k in 2..=(FIRST_SLOTS / 4 * 3) as u128 {
            s.insert(k);
        }
        assert_eq!(s.len(), s.capacity());
        assert_eq!(s.bytes_after_insert(), 3 * FIRST_SLOTS * 16);
        s.insert(u128::MAX);
        assert_eq!(s.bytes(), 2 * FIRST_SLOTS * 16);
    }
}

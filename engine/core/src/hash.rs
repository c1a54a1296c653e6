//! A tiny, stable 64-bit FNV-1a hash for state fingerprints (replay files compare these).
//! `std`'s hashers are not stable across releases, so they cannot be stored in files.

/// FNV-1a, 64 bit.
#[derive(Debug, Clone, Copy)]
pub struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Self::new()
    }
}

impl Fnv {
    /// A fresh hasher.
    pub const fn new() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }

    /// Feeds bytes.
    pub fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= *b as u64;
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    /// Feeds a number as 8 little-endian bytes.
    pub fn write_u64(&mut self, v: u64) {
        self.write(&v.to_le_bytes());
    }

    /// The hash so far.
    pub fn finish(&self) -> u64 {
        self.0
    }
}

/// A 128-bit hasher for search state keys ([`crate::search_game::StateKey`]): two 64-bit
/// lanes over the same words, each a different multiply-and-mix, finished with the
/// SplitMix64 finaliser; [`KeyHasher::finish128`] gives both. Fast (a few multiplies per
/// word) and not cryptographic: two states get one key only if both lanes collide. Use it
/// with `#[derive(Hash)]` data (`value.hash(&mut h)`) or by writing words. Not stable
/// across releases of `std`'s `Hash` implementations, so never stored in files.
#[derive(Debug, Clone, Copy)]
pub struct KeyHasher {
    a: u64,
    b: u64,
}

impl Default for KeyHasher {
    fn default() -> Self {
        Self::new()
    }
}

impl KeyHasher {
    /// A fresh hasher.
    pub const fn new() -> Self {
        Self {
            a: 0x243f_6a88_85a3_08d3,
            b: 0x1319_8a2e_0370_7344,
        }
    }

    /// The 128-bit key of what was written.
    pub fn finish128(&self) -> u128 {
        (u128::from(mix(self.a)) << 64) | u128::from(mix(self.b ^ 0x9e37_79b9_7f4a_7c15))
    }
}

/// The SplitMix64 finaliser.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl std::hash::Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.write_u64(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            // The length in the top byte, so that trailing zero bytes count.
            self.write_u64(u64::from_le_bytes(w) ^ ((rest.len() as u64) << 59));
        }
    }

    #[inline]
    fn write_u64(&mut self, v: u64) {
        self.a = (self.a.rotate_left(5) ^ v).wrapping_mul(0x517c_c1b7_2722_0a95);
        let b = (self.b ^ v).wrapping_mul(0x9fb2_1c65_1e98_df25);
        self.b = b ^ (b >> 29);
    }

    #[inline]
    fn write_u8(&mut self, v: u8) {
        self.write_u64(u64::from(v));
    }

    #[inline]
    fn write_u16(&mut self, v: u16) {
        self.write_u64(u64::from(v));
    }

    #[inline]
    fn write_u32(&mut self, v: u32) {
        self.write_u64(u64::from(v));
    }

    #[inline]
    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64);
    }

    fn finish(&self) -> u64 {
        mix(self.a)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn key_hasher_tells_near_states_apart() {
        use std::hash::Hash as _;
        // Every board of 9 cells with values 0..3 (19 683 of them) gets its own key.
        let mut keys = std::collections::HashSet::new();
        for n in 0..19_683u32 {
            let mut cells = [0u8; 9];
            let mut m = n;
            for c in &mut cells {
                *c = (m % 3) as u8;
                m /= 3;
            }
            let mut h = super::KeyHasher::new();
            cells.hash(&mut h);
            keys.insert(h.finish128());
        }
        assert_eq!(keys.len(), 19_683);
    }

    #[test]
    fn matches_published_vectors() {
        let mut h = super::Fnv::new();
        assert_eq!(h.finish(), 0xcbf29ce484222325);
        h.write(b"a");
        assert_eq!(h.finish(), 0xaf63dc4c8601ec8c);
    }
}

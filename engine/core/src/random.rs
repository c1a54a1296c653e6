//! Uniform draws from the seeded generator every kind and the search share (`ChaCha8Rng`):
//! one implementation, so that the same seed draws the same numbers wherever they are drawn.

use rand_chacha::ChaCha8Rng;
use rand_core::Rng as _;

/// A uniform index in `0..n` (`n` at least 1; 0 is read as 1) by rejection, without modulo
/// bias: a 32-bit draw outside the largest multiple of `n` is drawn again.
pub fn uniform(rng: &mut ChaCha8Rng, n: usize) -> usize {
    let n = n.clamp(1, u32::MAX as usize) as u32;
    let zone = (u32::MAX / n) * n;
    loop {
        let v = rng.next_u32();
        if v < zone {
            return (v % n) as usize;
        }
    }
}

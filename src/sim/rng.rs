//! The simulation's one PRNG: ChaCha8 seeded from the scenario's seed, stored inside the world so
//! that cloning a world (a history frame) clones its random future too.

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A seeded ChaCha8 stream. Equality and hashing use the seed and the stream position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimRng(ChaCha8Rng);

impl std::hash::Hash for SimRng {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.get_seed().hash(state);
        self.0.get_word_pos().hash(state);
    }
}

impl SimRng {
    pub fn new(seed: u64) -> Self {
        SimRng(ChaCha8Rng::seed_from_u64(seed))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A uniform integer in `lo..=hi` (unbiased, by rejection).
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        if hi <= lo {
            return lo;
        }
        let Some(span) = (hi - lo).checked_add(1) else {
            return self.next_u64();
        };
        let zone = u64::MAX - (u64::MAX % span);
        loop {
            let v = self.next_u64();
            if v < zone {
                return lo + v % span;
            }
        }
    }

    /// True with probability `num/den`.
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        den > 0 && self.range(0, den - 1) < num
    }

    /// A random version-4 UUID string (Curator's protection prefix).
    pub fn uuid(&mut self) -> String {
        let (a, b) = (self.next_u64(), self.next_u64());
        let b = (b & 0x3fff_ffff_ffff_ffff) | 0x8000_0000_0000_0000;
        let a = (a & 0xffff_ffff_ffff_0fff) | 0x4000;
        format!(
            "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
            a >> 32,
            (a >> 16) & 0xffff,
            a & 0xffff,
            b >> 48,
            b & 0xffff_ffff_ffff
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn golden_first_outputs_are_pinned() {
        let mut r = SimRng::new(42);
        let first: Vec<u64> = (0..3).map(|_| r.next_u64()).collect();
        // If these change, every shared link and recorded trace changes: do not update lightly.
        assert_eq!(first, GOLDEN);
    }

    const GOLDEN: [u64; 3] = [
        12578764544318200737,
        17529487244874322312,
        7886285670807131020,
    ];

    #[test]
    fn range_stays_in_bounds_and_uuid_is_v4() {
        let mut r = SimRng::new(7);
        for _ in 0..1000 {
            let v = r.range(3, 5);
            assert!((3..=5).contains(&v));
        }
        assert!(r.range(0, u64::MAX) > 0 || true);
        let u = r.uuid();
        assert_eq!(u.len(), 36);
        assert_eq!(&u[14..15], "4");
    }
}

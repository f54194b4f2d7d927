//! A fast, stable 64-bit hasher for fingerprints of whole states: eight bytes at a time.

use std::hash::Hasher;

/// The fingerprint's hasher: eight bytes at a time, multiply and rotate, mixed once more at the
/// end (hashing the worlds was a fifth of the search's time byte by byte).
#[derive(Default)]
pub struct Words(u64);

impl Words {
    fn mix(&mut self, w: u64) {
        self.0 = (self.0 ^ w)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(29);
    }
}

impl Hasher for Words {
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            self.mix(u64::from_le_bytes(w.try_into().unwrap_or_default()));
        }
        let rest = words.remainder();
        if rest.is_empty() {
            return;
        }
        let mut last = [0u8; 8];
        last[..rest.len()].copy_from_slice(rest);
        self.mix(u64::from_le_bytes(last) ^ ((rest.len() as u64) << 61));
    }
    fn finish(&self) -> u64 {
        let mut h = self.0 ^ (self.0 >> 33);
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^ (h >> 33)
    }
}

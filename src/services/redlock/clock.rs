//! A server's own clock: the world's time plus an offset, running at its own rate, and
//! stepped by a clock jump (an NTP step, an operator's `date -s`). Redis measures every TTL on
//! it, so a jump forward expires that server's keys early.

use serde::{Deserialize, Serialize};

use crate::services::api::Tick;

/// Parts per million: a rate of 0 keeps time with the world, 1,000 gains 1 ms a second.
const MILLION: i128 = 1_000_000;

/// One server's clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Clock {
    /// Milliseconds ahead of the world's time (behind if negative).
    pub offset: i64,
    /// How much faster than the world it runs, in parts per million (slower if negative).
    pub rate_ppm: i32,
}

impl Clock {
    /// What this clock reads at world time `now` (never before 0).
    pub fn local(&self, now: Tick) -> Tick {
        let t = i128::from(now);
        let read = t + i128::from(self.offset) + t * i128::from(self.rate_ppm) / MILLION;
        read.clamp(0, i128::from(u64::MAX >> 1)) as Tick
    }

    /// The first world time at or after `now` when this clock reads at least `local`.
    pub fn world(&self, local: Tick, now: Tick) -> Tick {
        if self.local(now) >= local {
            return now;
        }
        let speed = MILLION + i128::from(self.rate_ppm);
        let guess = (i128::from(local) - i128::from(self.offset)) * MILLION / speed.max(1);
        let mut t = (guess.max(i128::from(now)) as Tick).saturating_sub(1);
        while self.local(t) < local {
            t += 1;
        }
        t.max(now)
    }

    /// The clock is stepped by `by` ms (back if negative).
    pub fn jump(&mut self, by: i64) {
        self.offset = self.offset.saturating_add(by);
    }

    /// "+2000 ms" / "−500 ms, +100 ppm": how far it is from the world's time now, or `None`
    /// when it keeps time.
    pub fn note(&self, now: Tick) -> Option<String> {
        let ahead = self.local(now) as i64 - now as i64;
        let rate = (self.rate_ppm != 0).then(|| format!(", {:+} ppm", self.rate_ppm));
        (ahead != 0 || rate.is_some()).then(|| {
            let sign = if ahead < 0 { "−" } else { "+" };
            format!(
                "{sign}{} ms{}",
                ahead.unsigned_abs(),
                rate.unwrap_or_default()
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_offset_clock_reads_ahead_and_converts_back() {
        let c = Clock {
            offset: 2000,
            rate_ppm: 0,
        };
        assert_eq!(c.local(100), 2100);
        assert_eq!(c.world(2500, 0), 500);
        assert_eq!(c.world(50, 10), 10, "already past: now");
    }

    #[test]
    fn a_fast_clock_gains_and_its_inverse_is_the_first_tick_that_reaches() {
        let c = Clock {
            offset: 0,
            rate_ppm: 100_000,
        };
        assert_eq!(c.local(1000), 1100);
        for l in [1, 99, 1100, 1101, 55_555] {
            let t = c.world(l, 0);
            assert!(
                c.local(t) >= l && (t == 0 || c.local(t - 1) < l),
                "{l} → {t}"
            );
        }
    }

    #[test]
    fn a_jump_back_below_zero_reads_zero_and_notes_say_how_far() {
        let mut c = Clock::default();
        assert_eq!(c.note(5), None);
        c.jump(-100);
        assert_eq!(c.local(30), 0);
        assert_eq!(c.note(500).as_deref(), Some("−100 ms"));
        c.jump(2100);
        assert_eq!(c.note(0).as_deref(), Some("+2000 ms"));
    }
}

//! Playback commands: step (past heartbeats unless they are shown), back, seek, inject a
//! fault, play; each sets how long the stage's transition takes, and history computed past its
//! end re-plans the rows and key frames.

use leptos::prelude::*;

use super::state::{App, AHEAD, QUIET, SKIP_LIMIT, SPEEDS};
use crate::sim::moments;
use crate::sim::Command;
use crate::view::plan::Plan;

impl App {
    /// Re-plans rows and key frames after the history changed.
    pub(super) fn replan(&self) {
        let kinds = self.kinds_now();
        let (plan, found) = self
            .sim
            .with_untracked(|s| (Plan::new(s), moments::find(s, &kinds)));
        self.plan.set(plan);
        self.moments.set(found);
        self.requestion();
    }

    /// How long a transition over `ticks` of simulated time takes at the chosen speed.
    pub(super) fn pace(&self, ticks: u64) -> f64 {
        let speed = SPEEDS[self.speed.get_untracked().min(SPEEDS.len() - 1)].1 as f64 / 100.0;
        (320.0 + 110.0 * ticks.min(8) as f64) / speed
    }

    /// One step forward — past heartbeats unless they are shown — animated over the simulated
    /// time it covers. False at the end.
    pub fn step(&self) -> bool {
        if self.waiting_for_answer() {
            self.playing.set(false);
            self.nudge.update(|n| *n += 1);
            return false;
        }
        if self.cmp.with_untracked(|c| c.is_some()) {
            // Compare columns jump (each draws a still); playback waits a beat per step.
            let speed = SPEEDS[self.speed.get_untracked().min(SPEEDS.len() - 1)].1 as f64 / 100.0;
            self.anim_ms.set_value(300.0 / speed);
            let pings = self.show_pings.get_untracked();
            let moved = self
                .cmp
                .try_update(|c| c.as_mut().is_some_and(|c| c.step_skipping(pings)))
                .unwrap_or(false);
            if !moved {
                self.playing.set(false);
            }
            return moved;
        }
        let pings = self.show_pings.get_untracked();
        let mut grew = false;
        let mut before = 0;
        let moved = self
            .sim
            .try_update(|s| {
                before = s.world().now;
                for _ in 0..SKIP_LIMIT {
                    if s.cursor() == s.len() {
                        grew |= s.compute_ahead(500, QUIET) > 0;
                    }
                    if !s.step() {
                        return false;
                    }
                    if pings || !s.current().is_some_and(|r| r.heartbeat) {
                        return true;
                    }
                }
                true
            })
            .unwrap_or(false);
        let after = self.sim.with_untracked(|s| s.world().now);
        self.anim_ms
            .set_value(self.pace(after.saturating_sub(before)));
        if grew {
            self.replan();
        }
        if !moved {
            self.playing.set(false);
            self.report_limit();
        }
        moved
    }

    /// Says once why the history stopped growing, if it hit a limit.
    fn report_limit(&self) {
        if let Some(l) = self.sim.with_untracked(|s| s.limit()) {
            let msg = l.message();
            if !self.errors.with_untracked(|e| e.contains(&msg)) {
                self.error(msg);
            }
        }
    }

    /// One step back (past heartbeats unless they are shown).
    pub fn back(&self) {
        if self.cmp.with_untracked(|c| c.is_some()) {
            return self.compare_back();
        }
        let pings = self.show_pings.get_untracked();
        self.anim_ms.set_value(220.0);
        self.sim.update(|s| {
            let records = s.records();
            let mut n = s.cursor().saturating_sub(1);
            while n > 0 && !pings && records[n as usize - 1].heartbeat {
                n -= 1;
            }
            s.seek(n);
        });
        self.sync_url();
    }

    /// Jumps to step `n` (no animation).
    pub fn seek(&self, n: u64) {
        self.anim_ms.set_value(0.0);
        self.sim.update(|s| s.seek_computing(n));
        self.sync_url();
    }

    /// To the end of the computed history.
    pub fn to_end(&self) {
        let len = self.sim.with_untracked(|s| s.len());
        self.seek(len);
    }

    /// Applies a command now; in the past this forks the history, which is then computed
    /// ahead again.
    pub fn inject(&self, c: Command) {
        self.anim_ms.set_value(self.pace(1));
        self.sim.update(|s| {
            s.inject(c);
            s.compute_ahead(AHEAD, QUIET);
        });
        self.replan();
        self.sync_url();
    }

    pub fn toggle_play(&self) {
        self.playing.update(|p| *p = !*p);
        if !self.playing.get_untracked() {
            self.sync_url();
        }
    }
}

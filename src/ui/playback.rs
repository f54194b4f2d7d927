//! Playback commands: step (past heartbeats unless they are shown), back, seek, inject a
//! fault, play; each sets how long the stage's transition takes, and history computed past its
//! end re-plans the rows and key frames.

use leptos::prelude::*;

use super::fill::at_once;
use super::state::{App, AHEAD, QUIET, SKIP_LIMIT, SPEEDS};
use crate::sim::Command;
use crate::view::tracker::Tracker;

impl App {
    /// Re-plans rows and key frames after the history changed.
    /// Only the steps that changed are looked at (see `view::tracker`).
    pub(super) fn replan(&self) {
        let kinds = self.kinds_now();
        let (plan, found) = self.sim.with_untracked(|s| {
            self.tracker.update_value(|t| match t {
                Some(t) if t.follows(s, &kinds) => t.update(s),
                _ => *t = Some(Tracker::new(s, &kinds)),
            });
            self.tracker
                .with_value(|t| t.as_ref().map(|t| (t.plan(s), t.moments())))
                .unwrap_or_default()
        });
        self.plan.set(plan);
        self.moments.set(self.with_stops(found));
        self.requestion();
    }

    /// Computes up to `steps` more steps at the end of the history, the tracker observing
    /// each as it is computed.
    fn grow(&self, s: &mut crate::sim::Simulation, steps: u64) -> u64 {
        self.tracker
            .try_update_value(|t| match t {
                Some(t) => s.compute_ahead_with(steps, QUIET, |w, r| t.observe(w, r)),
                None => s.compute_ahead(steps, QUIET),
            })
            .unwrap_or(0)
    }

    /// How long a transition over `ticks` of simulated time takes at the chosen speed.
    pub(super) fn pace(&self, ticks: u64) -> f64 {
        let speed = SPEEDS[self.speed.get_untracked().min(SPEEDS.len() - 1)].1 as f64 / 100.0;
        (320.0 + 110.0 * ticks.min(8) as f64) / speed
    }

    /// One step forward — past heartbeats unless they are shown — animated over the simulated
    /// time it covers. False at the end.
    pub fn step(&self) -> bool {
        self.interrupt();
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
                // Past heartbeats, but computing at most one stretch in one press (a big run's
                // quiet stretch would freeze the page): then it stops on a heartbeat.
                let mut computed = 0;
                let once = at_once(s.scenario().clients);
                for i in 0..SKIP_LIMIT {
                    if s.cursor() == s.len() {
                        if computed >= once && i > 0 {
                            return true;
                        }
                        let n = self.grow(s, once);
                        computed += n;
                        grew |= n > 0;
                    }
                    if !s.step() {
                        return false;
                    }
                    if pings || !s.current().is_some_and(|r| r.heartbeat) {
                        return true;
                    }
                    // A key frame (a lesson's stop may fall on a heartbeat) is never skipped.
                    let here = s.cursor();
                    if self
                        .moments
                        .with_untracked(|m| m.iter().any(|x| x.step == here))
                    {
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
        // Keep computing ahead of the reader in the background.
        if grew
            || self
                .sim
                .with_untracked(|s| s.len() < s.cursor() + AHEAD / 2)
        {
            self.fill(None);
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
        self.interrupt();
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
    /// Jumps to step `n` (no animation); past the computed history, the rest is computed in
    /// slices and the stage follows when it is there.
    pub fn seek(&self, n: u64) {
        self.anim_ms.set_value(0.0);
        self.interrupt();
        let len = self.sim.with_untracked(|s| s.len());
        self.sim.update(|s| s.seek(n.min(len)));
        if n > len {
            return self.fill(Some(n));
        }
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
        self.interrupt();
        self.sim.update(|s| {
            s.inject(c);
            // The tracker goes back before the fork first, then observes the new stretch.
            let once = at_once(s.scenario().clients);
            self.tracker.update_value(|t| match t {
                Some(t) => {
                    t.update(s);
                    s.compute_ahead_with(once, QUIET, |w, r| t.observe(w, r));
                }
                None => {
                    s.compute_ahead(once, QUIET);
                }
            });
        });
        self.replan();
        self.sync_url();
        self.fill(None);
    }

    /// Play or pause; Play at the end of a link's range starts it again.
    pub fn toggle_play(&self) {
        if !self.playing.get_untracked() {
            let (step, len, finished) = self.frame.with_untracked(|f| (f.step, f.len, f.finished));
            let from = self.player.with_untracked(|p| {
                (p.0.end.is_some() && p.0.at_end(step, len, finished)).then(|| p.0.first(len))
            });
            if let Some(s) = from {
                self.seek(s);
            }
        }
        self.playing.update(|p| *p = !*p);
        if !self.playing.get_untracked() {
            self.sync_url();
        }
    }
}

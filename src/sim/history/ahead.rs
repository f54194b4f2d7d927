//! Computing a history ahead of its cursor (without moving the cursor) and replaying what
//! was computed (for the folds over a run: key frames and the stage's row plan).

use super::{Simulation, StepRecord, World};

impl Simulation {
    /// Computes history ahead of the cursor (the cursor stays): up to `steps` more, stopping
    /// early once the run is finished or has done nothing but heartbeats for `quiet` steps
    /// while no client waits for the lock undecided (a waiting client's run goes on until the
    /// stuck monitor's quiet limit has passed). Returns how many were added.
    pub fn compute_ahead(&mut self, steps: u64, quiet: u64) -> u64 {
        self.compute_ahead_with(steps, quiet, |_, _| {})
    }

    /// [`compute_ahead`](Self::compute_ahead), calling `f` with the world after each new step
    /// and its record.
    pub fn compute_ahead_with(
        &mut self,
        steps: u64,
        quiet: u64,
        mut f: impl FnMut(&World, &StepRecord),
    ) -> u64 {
        let (cursor, before) = (self.cursor, self.len());
        let here = self.world.clone();
        match self.frontier.take() {
            Some(end) if cursor != before => (self.world, self.cursor) = (end, before),
            _ => self.seek(before),
        }
        // Only whether the trailing heartbeats reach `quiet` matters: counting them all made
        // every press past the end of a wedged run slower than the one before.
        let mut calm = self
            .records
            .iter()
            .rev()
            .take(quiet as usize)
            .take_while(|r| r.heartbeat)
            .count() as u64;
        while self.len() < before + steps && (calm < quiet || self.undecided()) && self.step() {
            if let Some(r) = self.records.last() {
                f(&self.world, r);
            }
            calm = if self.records.last().is_some_and(|r| r.heartbeat) {
                calm + 1
            } else {
                0
            };
        }
        // Back to the cursor without replaying to it; the end's world is kept for next time.
        if self.cursor != cursor {
            let end = std::mem::replace(&mut self.world, here);
            self.cursor = cursor;
            self.frontier = (cursor != self.len()).then_some(end);
        }
        self.len() - before
    }

    /// Some client still waits for the lock and the stuck monitor has not yet said whether it
    /// ever will get it.
    fn undecided(&self) -> bool {
        let w = self.world();
        w.monitors.stuck.is_none()
            && !w.timeless
            && w.clients.iter().any(|c| {
                c.proc == crate::sim::client::Proc::Running
                    && c.app.state == crate::sim::app::AppState::Acquiring
            })
    }

    /// Runs the recorded history again from its start, calling `f` with the world after each
    /// step and that step's record (what key frames and the stage's row plan are computed from).
    pub fn replay(&self, f: impl FnMut(&World, &StepRecord)) {
        self.replay_from(0, f);
    }

    /// Replays the steps after `from` up to the end of the computed history, calling `f` with
    /// the world after each and its record. It starts at the last snapshot at or before
    /// `from`, so replaying the steps a history just gained costs those steps (and at most
    /// one snapshot interval), not the whole run.
    pub fn replay_from(&self, from: u64, mut f: impl FnMut(&World, &StepRecord)) {
        if from >= self.len() {
            return;
        }
        let i = self
            .keyframes
            .partition_point(|(k, _)| *k <= from)
            .saturating_sub(1);
        let (k, w) = &self.keyframes[i];
        let mut world = w.clone();
        for n in *k + 1..=self.len() {
            let record = match self.run.forced_at(n).cloned() {
                Some(action) => Some(world.apply(action)),
                None => world.step(),
            };
            match record {
                Some(r) if n > from => f(&world, &r),
                Some(_) => {}
                None => return,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::sim::{presets, Simulation};

    #[test]
    fn computing_ahead_from_the_past_keeps_the_cursor_and_gives_the_same_history() {
        for id in ["herd", "gc-pause", "queue"] {
            let sc = presets::find(id).unwrap().scenario();
            let mut straight = Simulation::new(sc.clone());
            straight.run_steps(450);
            let mut ahead = Simulation::new(sc);
            ahead.run_steps(150);
            ahead.seek(60);
            let here = ahead.current().cloned();
            // Three stretches: the second and third start from the kept end, not a snapshot.
            for _ in 0..3 {
                ahead.compute_ahead(100, 10_000);
                assert_eq!(
                    (ahead.cursor(), ahead.current().cloned()),
                    (60, here.clone())
                );
            }
            assert_eq!(ahead.len(), straight.len(), "{id}");
            straight.seek(ahead.len());
            assert_eq!(ahead.trace_hash(), straight.trace_hash(), "{id}");
            // Stepping on from the cursor replays what was computed.
            ahead.seek(ahead.len());
            ahead.run_steps(20);
            straight.run_steps(20);
            assert_eq!(ahead.trace_hash(), straight.trace_hash(), "{id} after");
        }
    }
}

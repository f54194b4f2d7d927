//! The history of a run: step forward, step back, seek to any step, and fork a new future by
//! injecting a command in the past. Memory stays bounded: a world snapshot every
//! [`KEYFRAME_EVERY`] steps (fewer in a long run of a big world, see [`KEYFRAME_BUDGET`]) plus
//! the step records; any other frame is rebuilt by replaying from the nearest snapshot (the run
//! is deterministic, so replay gives the same frame).

use serde::{Deserialize, Serialize};

use super::scenario::{Command, Scenario};
use super::step::StepRecord;
use super::world::{Action, World};

mod ahead;

pub const KEYFRAME_EVERY: u64 = 512;
/// The snapshots kept weigh at most this much, a snapshot weighing its clients plus its
/// messages in flight (a world's size grows with both): past it every other snapshot is dropped
/// and the spacing doubles. A thousand-client run keeps about 25 snapshots, not 488; a run of
/// ten clients never reaches it.
pub const KEYFRAME_BUDGET: usize = 40_000;
/// The most steps a history keeps: a long autoplay stops here instead of growing without end
/// (about 330 B a step plus the snapshots: a 1000-client run of this length holds about 300 MB).
pub const MAX_HISTORY: u64 = 250_000;
/// A world with more messages in flight than this stops: with a latency far beyond every
/// timeout the network only fills up, and every keyframe would copy it.
pub const MAX_IN_FLIGHT: usize = 20_000;

/// Why a history stopped growing before its run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    Steps,
    InFlight,
}

impl Limit {
    pub fn message(self) -> String {
        match self {
            Limit::Steps => format!(
                "the run reached {MAX_HISTORY} steps, the most Lockstep keeps; it stops here"
            ),
            Limit::InFlight => format!(
                "more than {MAX_IN_FLIGHT} messages are in flight (the latency is far beyond \
                 every timeout); the run stops here"
            ),
        }
    }
}

/// A run: its scenario plus the actions forced at given steps (user commands, or a path found
/// by the exhaustive search). Replaying it always gives the same history.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Run {
    pub scenario: Scenario,
    /// (step number, 1-based; action applied at that step instead of the scheduler's choice),
    /// sorted by step.
    pub forced: Vec<(u64, Action)>,
}

impl Run {
    /// Checks the scenario and every forced action (client indexes, times); the message says
    /// which one is wrong.
    pub fn validate(&self) -> Result<(), String> {
        self.scenario.validate()?;
        let most = super::scenario::MAX_FAULTS;
        if self.forced.len() > most {
            let n = self.forced.len();
            return Err(format!(
                "run field `forced`: {n} forced actions, more than {most}"
            ));
        }
        let n = self.scenario.clients as usize;
        for (step, a) in &self.forced {
            let client = match a {
                Action::Timer(c, _) => Some(*c),
                Action::Command(cmd) => {
                    if let Some(why) = cmd.nodes_bad(n) {
                        return Err(format!("forced action at step {step}: {why}"));
                    }
                    if !cmd.ticks_ok() {
                        return Err(format!(
                            "forced action at step {step}: a duration beyond {} ticks",
                            super::scenario::MAX_TICKS
                        ));
                    }
                    cmd.client()
                }
                Action::Scripted(i) if *i >= self.scenario.faults.len() => {
                    return Err(format!(
                        "forced action at step {step}: scripted command {i} does not exist"
                    ))
                }
                _ => None,
            };
            if client.is_some_and(|c| c >= n) || *step == 0 || *step > 10_000_000 {
                return Err(format!(
                    "forced action at step {step}: names a client or step that does not exist"
                ));
            }
        }
        Ok(())
    }

    /// The action forced at step `n`, if any.
    pub fn forced_at(&self, n: u64) -> Option<&Action> {
        self.forced
            .binary_search_by_key(&n, |(k, _)| *k)
            .ok()
            .map(|i| &self.forced[i].1)
    }

    /// Forces `action` at step `n` and forgets everything forced later (a fork).
    pub fn fork_at(&mut self, n: u64, action: Action) {
        self.forced.retain(|(k, _)| *k < n);
        self.forced.push((n, action));
    }

    /// Sorts and de-duplicates steps (the last action given for a step wins).
    pub fn normalise(&mut self) {
        // Stable, so of two actions forced at one step the later one wins below.
        crate::sort::by_key(&mut self.forced, |(k, _)| *k);
        let mut out: Vec<(u64, Action)> = Vec::with_capacity(self.forced.len());
        for (k, a) in self.forced.drain(..) {
            match out.last_mut() {
                Some(last) if last.0 == k => last.1 = a,
                _ => out.push((k, a)),
            }
        }
        self.forced = out;
    }
}

#[derive(Clone, Debug)]
pub struct Simulation {
    run: Run,
    records: Vec<StepRecord>,
    /// Snapshots by step, ascending (step 0 always present).
    keyframes: Vec<(u64, World)>,
    /// Steps between snapshots: [`KEYFRAME_EVERY`], doubled each time the budget is reached.
    keyframe_every: u64,
    world: World,
    cursor: u64,
    /// The world at the end of the history while the cursor is elsewhere (left there by
    /// computing ahead, so the next stretch starts from it rather than from a snapshot).
    frontier: Option<World>,
    finished_at: Option<u64>,
    limit: Option<Limit>,
}

impl Simulation {
    pub fn new(scenario: Scenario) -> Simulation {
        Self::from_run(Run {
            scenario,
            forced: Vec::new(),
        })
    }

    pub fn from_run(mut run: Run) -> Simulation {
        run.normalise();
        let mut world = World::new(&run.scenario);
        world.timeless = run.scenario.timeless;
        let keyframes = vec![(0, world.clone())];
        Simulation {
            run,
            records: Vec::new(),
            keyframes,
            keyframe_every: KEYFRAME_EVERY,
            world,
            cursor: 0,
            frontier: None,
            finished_at: None,
            limit: None,
        }
    }

    pub fn run(&self) -> &Run {
        &self.run
    }
    pub fn scenario(&self) -> &Scenario {
        &self.run.scenario
    }
    pub fn world(&self) -> &World {
        &self.world
    }
    pub fn cursor(&self) -> u64 {
        self.cursor
    }
    /// Steps computed so far (the cursor can be anywhere in 0..=len).
    pub fn len(&self) -> u64 {
        self.records.len() as u64
    }
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }
    pub fn records(&self) -> &[StepRecord] {
        &self.records
    }
    /// The record of the step that led to the current frame.
    pub fn current(&self) -> Option<&StepRecord> {
        self.cursor
            .checked_sub(1)
            .and_then(|i| self.records.get(i as usize))
    }
    /// True when the run has nothing left to do at the end of its history.
    pub fn finished(&self) -> bool {
        self.finished_at == Some(self.cursor) && self.cursor == self.len()
    }

    /// True when the history reaches the run's end (wherever the cursor is).
    pub fn complete(&self) -> bool {
        self.finished_at == Some(self.len())
    }

    /// Why the history stopped before the run ended, if it did.
    pub fn limit(&self) -> Option<Limit> {
        self.limit
    }

    /// One step forward (replaying history if the cursor is in the past). False at the end,
    /// and at a [`Limit`].
    pub fn step(&mut self) -> bool {
        let n = self.cursor + 1;
        let limit = if n > MAX_HISTORY {
            Some(Limit::Steps)
        } else if self.world.net.in_flight_len() > MAX_IN_FLIGHT {
            Some(Limit::InFlight)
        } else {
            None
        };
        if limit.is_some() {
            self.limit = limit;
            self.finished_at = Some(self.cursor);
            return false;
        }
        let record = match self.run.forced_at(n).cloned() {
            Some(action) => Some(self.world.apply(action)),
            None => self.world.step(),
        };
        let Some(record) = record else {
            self.finished_at = Some(self.cursor);
            return false;
        };
        self.cursor = n;
        if n > self.len() {
            self.records.push(record);
            self.frontier = None;
        }
        if n % self.keyframe_every == 0 && self.keyframes.last().is_some_and(|(k, _)| *k < n) {
            self.keyframes.push((n, self.world.clone()));
            self.thin_keyframes();
        }
        true
    }

    /// Drops every other snapshot (step 0 stays) and doubles the spacing while the snapshots
    /// weigh more than [`KEYFRAME_BUDGET`].
    fn thin_keyframes(&mut self) {
        let weight = |w: &World| w.clients.len() + w.net.in_flight_len();
        while self.keyframes.len() > 2
            && self.keyframes.iter().map(|(_, w)| weight(w)).sum::<usize>() > KEYFRAME_BUDGET
        {
            self.keyframe_every *= 2;
            let every = self.keyframe_every;
            self.keyframes.retain(|(k, _)| k % every == 0);
        }
    }

    /// Runs until `steps` more steps were taken or nothing is left; returns how many ran.
    pub fn run_steps(&mut self, steps: u64) -> u64 {
        (0..steps).take_while(|_| self.step()).count() as u64
    }

    /// Moves the cursor to step `n` (clamped to what has been computed).
    pub fn seek(&mut self, n: u64) {
        let n = n.min(self.len());
        if n == self.cursor {
            return;
        }
        if n < self.cursor || n - self.cursor > self.keyframe_every {
            let i = self
                .keyframes
                .partition_point(|(k, _)| *k <= n)
                .saturating_sub(1);
            let (k, w) = &self.keyframes[i];
            self.world = w.clone();
            self.cursor = *k;
        }
        while self.cursor < n && self.step() {}
    }

    /// Seeks to `n`, computing history up to it if it does not exist yet.
    pub fn seek_computing(&mut self, n: u64) {
        self.seek_computing_with(n, |_, _| {});
    }

    /// [`seek_computing`](Self::seek_computing), calling `f` with the world after each new
    /// step and its record (the app's tracker observes them as they are computed).
    pub fn seek_computing_with(&mut self, n: u64, mut f: impl FnMut(&World, &StepRecord)) {
        self.seek(n.min(self.len()));
        while self.cursor() < n {
            let new = self.cursor == self.len();
            if !self.step() {
                break;
            }
            if let Some(r) = self.records.last().filter(|_| new) {
                f(&self.world, r);
            }
        }
    }

    pub fn back(&mut self) {
        self.seek(self.cursor.saturating_sub(1));
    }

    /// Applies a command as the next step. In the past, this forks: the old future is dropped.
    pub fn inject(&mut self, command: Command) {
        self.inject_action(Action::Command(command));
    }

    pub fn inject_action(&mut self, action: Action) {
        let at = self.cursor + 1;
        self.records.truncate(self.cursor as usize);
        self.frontier = None;
        let keep = self.keyframes.partition_point(|(k, _)| *k <= self.cursor);
        self.keyframes.truncate(keep.max(1));
        self.run.fork_at(at, action);
        self.finished_at = None;
        self.step();
    }

    /// A stable hash of the whole computed history (FNV-1a over its JSON).
    pub fn trace_hash(&self) -> u64 {
        let json = serde_json::to_string(&self.records).unwrap_or_default();
        json.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        })
    }

    /// The world before the first step.
    pub fn initial(&self) -> &World {
        &self.keyframes[0].1
    }

    /// Approximate memory held by snapshots (number of keyframes).
    pub fn keyframe_count(&self) -> usize {
        self.keyframes.len()
    }
}

//! Compare mode's model: the same scenario (clients, timings, faults, seed) run against several
//! recipes — and so several lock services — side by side, stepping in lockstep by logical time.
//! A step moves the shared clock to the next moment anything happens in any column and runs
//! every column up to it; back returns every column to the previous such moment.

use crate::recipes::RecipeKind;
use crate::sim::progress::silent_holder_limit;
use crate::sim::scenario::MAX_TICKS;
use crate::sim::types::Tick;
use crate::sim::{Command, Lang, Scenario, Simulation};

use super::frame::{build, Frame};
use super::plan::Plan;
use super::tracker::Tracker;

pub use super::url::MAX_COLUMNS;

pub struct Compare {
    pub sims: Vec<Simulation>,
    /// The shared logical clock.
    pub time: Tick,
    /// Each column's row plan, made once its history is computed ahead, from a tracker that
    /// observes each step as it is computed (no replay of the whole history).
    plans: Vec<Plan>,
    trackers: Vec<Tracker>,
    /// Columns whose history has nothing more to compute.
    done: Vec<bool>,
}

/// How far each column computes ahead at least, and how close to that end it may step before
/// the next stretch is computed (and its rows planned again).
const AHEAD: u64 = 2000;
const QUIET: u64 = 200;
const MARGIN: u64 = 50;

/// Steps a column computes at once: fewer with more clients (a step's cost grows with them),
/// so a step of compare mode never freezes the page.
fn stretch(s: &Simulation) -> u64 {
    (30_000 / u64::from(s.scenario().clients.max(1))).clamp(MARGIN * 2, AHEAD)
}
/// At most this many heartbeat-only moments are skipped by one step.
const SKIP_LIMIT: usize = 10_000;

/// The column's scenario: the base scenario with its recipe swapped.
pub fn column_scenario(base: &Scenario, recipe: RecipeKind) -> Scenario {
    Scenario {
        recipe,
        ..base.clone()
    }
}

/// The scenario every column shares. A pause that outlasts the base's own session or lease is
/// about that expiry, so it is stretched to outlast every column's by the same margin (a
/// 40-tick pause beyond a 12-tick ZooKeeper session would end well inside a 2 s Redis TTL, and
/// the learner would conclude that only ZooKeeper is unsafe). A shorter pause stays as it is.
pub fn shared_scenario(base: &Scenario, recipes: &[RecipeKind]) -> Scenario {
    let limit = |r: RecipeKind| silent_holder_limit(&column_scenario(base, r));
    let Some(own) = silent_holder_limit(base) else {
        return base.clone();
    };
    let longest = recipes
        .iter()
        .filter_map(|r| limit(*r))
        .fold(own, Tick::max);
    let mut sc = base.clone();
    let mut stretched = false;
    for f in &mut sc.faults {
        if let Command::Pause { ticks, .. } = &mut f.command {
            if *ticks > own && longest > own {
                *ticks = longest.saturating_add(*ticks - own).min(MAX_TICKS);
                stretched = true;
            }
        }
    }
    if stretched {
        // Waiters that poll do so about twenty times per lease, as lock clients do (a 10 ms
        // poll against a 2 s lease would fill the columns with hundreds of identical retries).
        sc.poll = sc.poll.max(longest / 20);
    }
    sc
}

impl Compare {
    pub fn new(base: &Scenario, recipes: &[RecipeKind]) -> Compare {
        let recipes = &recipes[..recipes.len().min(MAX_COLUMNS)];
        let base = shared_scenario(base, recipes);
        let mut sims: Vec<Simulation> = recipes
            .iter()
            .map(|r| Simulation::new(column_scenario(&base, *r)))
            .collect();
        let mut trackers: Vec<Tracker> = sims.iter().map(|s| Tracker::new(s, &[])).collect();
        for (s, t) in sims.iter_mut().zip(&mut trackers) {
            s.compute_ahead_with(stretch(s), QUIET, |w, r| t.observe(w, r));
        }
        let plans = sims.iter().zip(&trackers).map(|(s, t)| t.plan(s)).collect();
        let done = vec![false; sims.len()];
        Compare {
            sims,
            time: 0,
            plans,
            trackers,
            done,
        }
    }

    /// Computes the next stretch of each column that is about to reach the end of its history.
    fn ahead(&mut self) {
        for (i, s) in self.sims.iter_mut().enumerate() {
            if self.done[i] || s.cursor() + MARGIN < s.len() {
                continue;
            }
            let t = &mut self.trackers[i];
            if s.compute_ahead_with(stretch(s), QUIET, |w, r| t.observe(w, r)) > 0 {
                self.plans[i] = t.plan(s);
            } else {
                self.done[i] = true;
            }
        }
    }

    /// When the next thing happens in any column.
    fn next_time(&self) -> Option<Tick> {
        self.sims
            .iter()
            .filter_map(|s| s.world().next_action().map(|(t, _)| t.max(s.world().now)))
            .min()
    }

    /// Steps to the next moment at which something other than a heartbeat happens in some
    /// column (as Step skips pings on the main stage), or to the very next moment with
    /// `pings`. False when every column is finished.
    pub fn step_skipping(&mut self, pings: bool) -> bool {
        for _ in 0..SKIP_LIMIT {
            let before: Vec<u64> = self.sims.iter().map(Simulation::cursor).collect();
            if !self.step() {
                return false;
            }
            let news = self.sims.iter().zip(&before).any(|(s, b)| {
                s.records()[*b as usize..s.cursor() as usize]
                    .iter()
                    .any(|r| pings || !r.heartbeat)
            });
            if news {
                break;
            }
        }
        true
    }

    /// Runs every column through everything that happens at the next moment. False when every
    /// column is finished.
    pub fn step(&mut self) -> bool {
        self.ahead();
        let Some(t) = self.next_time() else {
            return false;
        };
        for s in &mut self.sims {
            while s
                .world()
                .next_action()
                .is_some_and(|(at, _)| at.max(s.world().now) <= t)
            {
                if !s.step() {
                    break;
                }
            }
        }
        self.time = t;
        true
    }

    /// Returns every column to the previous moment at which something happened.
    pub fn back(&mut self) {
        let before = self
            .sims
            .iter()
            .flat_map(|s| s.records()[..s.cursor() as usize].iter().map(|r| r.time))
            .filter(|t| *t < self.time)
            .max();
        let target = before.unwrap_or(0);
        for s in &mut self.sims {
            let n = s.records()[..s.cursor() as usize]
                .iter()
                .take_while(|r| r.time <= target)
                .count();
            s.seek(n as u64);
        }
        self.time = if before.is_some() { target } else { 0 };
    }

    /// The same command, now, in every column (a client the column lacks is ignored).
    pub fn inject(&mut self, c: &Command) {
        for (i, s) in self.sims.iter_mut().enumerate() {
            s.inject(c.clone());
            let t = &mut self.trackers[i];
            t.update(s);
            s.compute_ahead_with(stretch(s), QUIET, |w, r| t.observe(w, r));
            self.plans[i] = t.plan(s);
            self.done[i] = false;
        }
    }

    pub fn frames(&self, lang: Lang) -> Vec<Frame> {
        self.sims
            .iter()
            .zip(&self.plans)
            .map(|(s, p)| Frame {
                // One clock for every column: each stage shows the shared time, not the time
                // of its own last step.
                time: self.time,
                ..build(s, p, lang)
            })
            .collect()
    }

    pub fn recipes(&self) -> Vec<RecipeKind> {
        self.sims.iter().map(|s| s.scenario().recipe).collect()
    }
}

#[cfg(all(test, feature = "services"))]
mod tests {
    use super::*;
    use crate::sim::presets;

    #[test]
    fn columns_step_in_lockstep_and_show_where_each_design_breaks() {
        let base = presets::find("redis-lease-pause").unwrap().scenario();
        let recipes = [
            RecipeKind::Curator,
            RecipeKind::RedisLease,
            RecipeKind::EtcdMutex,
            RecipeKind::SqlRowLock,
        ];
        let mut cmp = Compare::new(&Scenario { lease: 50, ..base }, &recipes);
        let mut last = 0;
        while cmp.step() {
            assert!(cmp.time >= last);
            last = cmp.time;
            for s in &cmp.sims {
                assert!(
                    s.world().now <= cmp.time,
                    "a column ran ahead of the shared clock"
                );
            }
        }
        let m: Vec<_> = cmp
            .sims
            .iter()
            .map(|s| s.world().monitors.clone())
            .collect();
        assert!(
            m[0].belief.is_some() && m[0].lost_update.is_none(),
            "ZooKeeper: fenced by czxid"
        );
        assert!(
            m[1].lost_update.is_some(),
            "Redis: no token, an update is lost"
        );
        assert!(
            m[3].belief.is_none(),
            "FOR UPDATE: the row stays locked through the pause"
        );
        let end = cmp.time;
        cmp.back();
        assert!(cmp.time < end);
        let f = cmp.frames(Lang::Zh);
        assert!(
            f.iter().all(|f| f.time == cmp.time),
            "one clock on every stage"
        );
        assert_eq!(f.len(), 4);
        assert_eq!(f[1].service, crate::services::ServiceKind::Redis);
    }

    #[test]
    fn a_pause_beyond_the_session_outlasts_every_columns_lease() {
        let base = presets::find("gc-pause").unwrap().scenario();
        let recipes = [
            RecipeKind::Curator,
            RecipeKind::RedisLease,
            RecipeKind::EtcdMutex,
            RecipeKind::SqlRowLock,
        ];
        let pause = |sc: &Scenario| {
            sc.faults.iter().find_map(|f| match f.command {
                Command::Pause { ticks, .. } => Some(ticks),
                _ => None,
            })
        };
        let shared = shared_scenario(&base, &recipes);
        let etcd = silent_holder_limit(&column_scenario(&base, RecipeKind::EtcdMutex)).unwrap();
        assert!(pause(&shared).unwrap() > etcd, "{shared:?}");
        let short = Scenario {
            faults: vec![],
            ..base.clone()
        };
        assert_eq!(
            shared_scenario(&short, &recipes),
            short,
            "no pause: unchanged"
        );
        let mut cmp = Compare::new(&base, &recipes);
        let mut steps = 0;
        while cmp.step_skipping(false) {
            steps += 1;
            assert!(steps < 5000, "stepping ends");
        }
        let believers: Vec<bool> = cmp
            .sims
            .iter()
            .map(|s| s.world().monitors.belief.is_some())
            .collect();
        assert_eq!(
            believers,
            [true, true, true, false],
            "every lease runs out; FOR UPDATE holds"
        );
        assert!(
            steps < 250,
            "heartbeats skipped, polls at a lease's pace: {steps} steps"
        );
    }
}

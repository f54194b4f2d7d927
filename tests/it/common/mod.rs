//! Shared by the swarm tests: the stuck monitor judged by what happened before and after it
//! spoke. Its claim is "no progress for N ticks": the claim is false if a client it named had
//! moved (app state, acquisitions, phase other than trying again) within those N ticks, and
//! the verdict is false if a client it named gets the lock (or finishes) in the four times the
//! run's length that the run is continued after it spoke — unless the verdict said only the
//! network could change it (reconnect churn: a session it loses, a try it lets through); those
//! are counted. It missed one if a client waits unnamed through four times the run's length
//! more.

#![allow(dead_code)]

pub mod stage;
pub mod zk;

use lockstep::recipes::Phase;
use lockstep::sim::app::AppState;
use lockstep::sim::client::Proc;
use lockstep::sim::{Scenario, Simulation};

/// The seeds a swarm runs: `SWARM_SEEDS` of them (else `default`) from `SWARM_FROM` (else 0);
/// `SWARM_SEEDS=10000` for the long run, `SWARM_FROM=3412 SWARM_SEEDS=1` for one seed.
pub fn seeds(default: u64) -> std::ops::Range<u64> {
    let var = |k: &str, d: u64| {
        std::env::var(k)
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(d)
    };
    let from = var("SWARM_FROM", 0);
    from..from + var("SWARM_SEEDS", default)
}

/// The stuck monitor's record in one run.
#[derive(Debug, Default)]
pub struct StuckJudgement {
    /// What was wrong, if anything (a false claim, a false verdict or a miss).
    pub mistake: Option<String>,
    /// The monitor spoke (its verdict was followed to the end of the continued run).
    pub spoke: bool,
    /// It spoke "only the flaky network can change it" (reconnect churn).
    pub churn: bool,
    /// It spoke so, and a client it named then moved on.
    pub freed_by_network: bool,
}

/// Verdicts spoken and confirmed over a swarm, with the mistakes found.
#[derive(Default)]
pub struct StuckTally {
    pub spoken: usize,
    pub confirmed: usize,
    /// Verdicts "only the flaky network can change it" (reconnect churn).
    pub churn: usize,
    /// Those after which a named client moved on.
    pub freed: usize,
    pub mistakes: Vec<String>,
}

impl StuckTally {
    pub fn add(&mut self, seed: u64, j: StuckJudgement) {
        self.spoken += usize::from(j.spoke);
        self.confirmed += usize::from(j.spoke && j.mistake.is_none() && !j.freed_by_network);
        self.freed += usize::from(j.freed_by_network);
        self.churn += usize::from(j.churn);
        if let Some(e) = j.mistake {
            self.mistakes
                .push(format!("seed={seed} stuck monitor: {e}"));
        }
    }
}

type Pose = (AppState, u64, Phase);

/// Where a client is; a try that fails and is tried again (asking, listing, creating, backing
/// off) is not a move.
fn pose(sim: &Simulation, c: usize) -> Pose {
    let c = &sim.world().clients[c];
    let phase = match c.recipe.phase() {
        Phase::Requesting | Phase::Backoff | Phase::Creating | Phase::Listing => Phase::Requesting,
        p => p,
    };
    (c.app.state, c.app.acquisitions, phase)
}

/// Runs `sc` for `steps` (while a client waits, on to six times as many) and judges the
/// stuck monitor: a verdict must be true when spoken and stay true afterwards; no client may
/// wait unnamed from twice `steps` to six times `steps`.
pub fn judge_stuck(sc: Scenario, steps: u64) -> StuckJudgement {
    let mut sim = Simulation::new(sc);
    let n = sim.world().clients.len();
    let mut last: Vec<(Pose, u64)> = (0..n).map(|c| (pose(&sim, c), 0)).collect();
    let mut before: Option<Vec<(usize, u64)>> = None;
    while sim.len() < 6 * steps && sim.step() {
        let now = sim.world().now;
        for (c, l) in last.iter_mut().enumerate() {
            let p = pose(&sim, c);
            if p != l.0 {
                *l = (p, now);
            }
        }
        if sim.world().monitors.stuck.is_some() {
            return judge_verdict(sim, &last, steps);
        }
        if sim.len() >= steps && waiting(&sim).is_empty() {
            return StuckJudgement::default();
        }
        if sim.len() == 2 * steps {
            before = Some(waiting(&sim));
        }
    }
    missed(&sim, before.unwrap_or_else(|| waiting(&sim)), 4 * steps)
}

/// The monitor just spoke: no client it named moved within the quiet ticks before (unless
/// nothing at all can happen any more), and none gets the lock or finishes in `4 * steps`
/// more.
fn judge_verdict(mut sim: Simulation, last: &[(Pose, u64)], steps: u64) -> StuckJudgement {
    let w = sim.world();
    let (k, now, limit) = (sim.len(), w.now, w.monitors.quiet_limit);
    let mut out = StuckJudgement {
        spoke: true,
        ..StuckJudgement::default()
    };
    let churn = w.monitors.churn;
    out.churn = churn;
    let recent = |c: &&usize| !w.monitors.dead_end && now - last[**c].1 < limit;
    if let Some(c) = w.monitors.now.stuck.iter().find(recent) {
        let at = last[*c].1;
        out.mistake = Some(format!(
            "step={k}: C{} named stuck, but it moved at t={at}",
            c + 1
        ));
        return out;
    }
    let named: Vec<(usize, u64)> = w
        .monitors
        .now
        .stuck
        .iter()
        .map(|c| (*c, w.clients[*c].app.acquisitions))
        .collect();
    while sim.len() < k + 4 * steps && sim.step() {
        let w = sim.world();
        let moved = named.iter().find(|(c, n)| {
            let c = &w.clients[*c];
            c.app.acquisitions > *n || c.app.state == AppState::Done
        });
        if moved.is_some() && churn {
            out.freed_by_network = true;
            return out;
        }
        if let Some((c, _)) = moved {
            out.mistake = Some(format!(
                "step={k} (t={now}): C{} named stuck, but it got the lock or finished at step {} (t={})",
                c + 1,
                sim.len(),
                w.now
            ));
            return out;
        }
    }
    out
}

/// The monitor never spoke: no client that waited at twice the run's length may still wait.
fn missed(sim: &Simulation, before: Vec<(usize, u64)>, more: u64) -> StuckJudgement {
    let now = waiting(sim);
    let still: Vec<String> = before
        .iter()
        .filter(|b| now.contains(b))
        .map(|(c, _)| format!("C{}", c + 1))
        .collect();
    let mistake = (!still.is_empty()).then(|| {
        format!(
            "{} waited {more} more steps, never named stuck",
            still.join(", ")
        )
    });
    StuckJudgement {
        mistake,
        ..StuckJudgement::default()
    }
}

/// The clients waiting for the lock, with how often each has had it.
fn waiting(sim: &Simulation) -> Vec<(usize, u64)> {
    let w = sim.world();
    w.clients
        .iter()
        .filter(|c| c.proc == Proc::Running && c.app.state == AppState::Acquiring)
        .map(|c| (c.id, c.app.acquisitions))
        .collect()
}

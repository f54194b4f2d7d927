//! Shared by the swarm tests: the stuck monitor judged by what happened before and after it
//! spoke. Its claim is "no progress for N ticks": the claim is false if a client it named had
//! moved (app state, acquisitions, phase other than trying again) within those N ticks; it missed one if a client waits
//! unnamed through four times the run's length more. A named client that moves on much later
//! (a session lost to reconnect churn on a slow network frees it) is counted, not a failure.

use lockstep::recipes::Phase;
use lockstep::sim::app::AppState;
use lockstep::sim::client::Proc;
use lockstep::sim::{Scenario, Simulation};

/// The stuck monitor's record in one run.
#[derive(Default)]
pub struct StuckJudgement {
    /// What was wrong, if anything (a false claim or a miss).
    pub mistake: Option<String>,
    /// The monitor spoke and a client it named got the lock or finished later.
    pub moved_later: bool,
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

pub fn judge_stuck(sc: Scenario, steps: u64) -> StuckJudgement {
    let mut sim = Simulation::new(sc);
    let n = sim.world().clients.len();
    let mut last: Vec<(Pose, u64)> = (0..n).map(|c| (pose(&sim, c), 0)).collect();
    let mut named: Option<Vec<(usize, u64)>> = None;
    let mut out = StuckJudgement::default();
    while sim.len() < 2 * steps && sim.step() {
        let now = sim.world().now;
        for (c, l) in last.iter_mut().enumerate() {
            let p = pose(&sim, c);
            if p != l.0 {
                *l = (p, now);
            }
        }
        let w = sim.world();
        if let (None, Some(k)) = (&named, w.monitors.stuck) {
            // A dead end (nothing can happen any more) is certain at once; the clock's claim
            // needs the quiet ticks.
            let limit = w.monitors.quiet_limit;
            let recent = |c: &&usize| !w.monitors.dead_end && now - last[**c].1 < limit;
            let fresh = w.monitors.now.stuck.iter().find(recent);
            if let Some(c) = fresh {
                out.mistake = Some(format!(
                    "step={k}: C{} named stuck, but it moved at t={}",
                    c + 1,
                    last[*c].1
                ));
                return out;
            }
            let who = w.monitors.now.stuck.iter();
            named = Some(who.map(|c| (*c, w.clients[*c].app.acquisitions)).collect());
        }
        if named.is_none() && sim.len() >= steps && waiting(&sim).is_empty() {
            return out;
        }
    }
    let w = sim.world();
    if let Some(who) = named {
        out.moved_later = who.iter().any(|(c, n)| {
            let c = &w.clients[*c];
            c.app.acquisitions > *n || c.app.state == AppState::Done
        });
        return out;
    }
    let before = waiting(&sim);
    sim.run_steps(4 * steps);
    let still: Vec<String> = before
        .iter()
        .filter(|b| waiting(&sim).contains(b))
        .map(|(c, _)| format!("C{}", c + 1))
        .collect();
    if !still.is_empty() && sim.world().monitors.stuck.is_none() {
        out.mistake = Some(format!(
            "{} waited {} more steps, never named stuck",
            still.join(", "),
            4 * steps
        ));
    }
    out
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

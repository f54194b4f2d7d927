//! Live safety checks on every frame, each remembering the step where it first failed:
//! - ownership: more than one client holds the lock *and* still owns its lock node
//!   (mutual exclusion as the lock service sees it);
//! - belief: more than one client believes it holds the lock (what a GC pause or a partition
//!   past the session timeout causes, even with a correct recipe);
//! - resource: an accepted write lost an update (or handed out a duplicate ID);
//! - stuck: a client waits and nothing has moved for longer than every timer of the run
//!   added up (see [`super::progress`]): "no progress for N ticks".

use serde::{Deserialize, Serialize};

use super::app::AppState;
use super::client::{Client, Proc};
use super::types::{ClientId, Node, Tick};
use super::world::World;
use crate::recipes::HoldMode;

/// What the monitors see in one frame.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Verdict {
    pub believers: Vec<ClientId>,
    pub owners: Vec<ClientId>,
    pub stuck: Vec<ClientId>,
}

/// First failures, by step index.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Monitors {
    pub belief: Option<u64>,
    pub ownership: Option<u64>,
    pub lost_update: Option<u64>,
    pub stuck: Option<u64>,
    pub now: Verdict,
    /// The progress fingerprint, the tick it last changed, and how long it may stay unchanged
    /// now (`quiet_base`, plus `quiet_lease` while an entry can expire).
    pub progress: u64,
    pub quiet_since: Tick,
    pub quiet_limit: Tick,
    pub quiet_base: Tick,
    pub quiet_lease: Tick,
    /// Whether an entry could expire when the fingerprint was last taken.
    pub leases: bool,
    /// The stuck verdict came from a dead end (nothing can ever happen again), not the clock.
    pub dead_end: bool,
}

impl Monitors {
    /// No failure yet, with the stuck monitor's quiet limits for this scenario.
    pub fn for_scenario(sc: &super::scenario::Scenario) -> Monitors {
        let (quiet_base, quiet_lease) = super::progress::quiet_limit(sc);
        Monitors {
            quiet_base,
            quiet_lease,
            ..Monitors::default()
        }
    }

    pub fn any_safety_failure(&self) -> bool {
        self.ownership.is_some() || self.lost_update.is_some()
    }
}

/// More holders than the lock allows: one if anyone holds exclusively, `max_leases` for a
/// Curator semaphore, any number of readers.
fn too_many(w: &World, holders: &[ClientId]) -> bool {
    let recipe = |c: &ClientId| &w.clients[*c].recipe;
    let exclusive = holders
        .iter()
        .any(|c| recipe(c).hold_mode() == HoldMode::Exclusive);
    let leases = holders
        .iter()
        .any(|c| matches!(recipe(c), crate::recipes::Recipe::Curator(_)));
    let limit = if exclusive {
        1
    } else if leases {
        w.max_leases as usize
    } else {
        usize::MAX
    };
    holders.len() > limit
}

/// Whether the service itself says the client holds the lock (owns its node through its
/// current session, has its token in a live key, …).
fn owns_node(w: &World, c: &Client) -> bool {
    w.service.holds(w.now, &c.claim())
}

/// The clients that wait for the lock while nothing has moved for longer than the quiet
/// limit; none while a scripted command is still to come, a process is paused or the service
/// stalled (each of those ends and may free them); at once when nothing at all can happen
/// any more. Otherwise the claim is "no progress for N ticks",
/// not "never": on a network slow enough to make sessions reconnect over and over, one may
/// still be lost much later and free a waiter. The exhaustive search has no clock: it finds
/// states where no choice is left instead (see `explore`).
fn stuck(w: &mut World, heartbeat: bool) -> Vec<ClientId> {
    // A heartbeat changes nothing the fingerprint sees (and most steps of a big run are one).
    let (print, leases) = if heartbeat {
        (w.monitors.progress, w.monitors.leases)
    } else {
        super::progress::fingerprint(w)
    };
    let pending = w.next_script < w.script.len()
        || w.now < w.stall_until
        || w.clients
            .iter()
            .any(|c| matches!(c.proc, Proc::Paused { until } if w.now < until));
    let m = &mut w.monitors;
    if m.stuck.is_none() {
        m.quiet_limit = m.quiet_base + if leases { m.quiet_lease } else { 0 };
    }
    m.leases = leases;
    if print != m.progress || pending {
        m.progress = print;
        m.quiet_since = w.now;
    }
    let quiet = w.now.saturating_sub(m.quiet_since) >= m.quiet_limit;
    if w.timeless {
        return Vec::new();
    }
    // A dead end is certain even while a pause lasts: the paused process has nothing to do.
    let end = dead_end(w);
    if !end && (pending || !quiet) {
        return Vec::new();
    }
    if w.monitors.stuck.is_none() {
        w.monitors.dead_end = end;
    }
    w.clients
        .iter()
        .filter(|c| c.proc == Proc::Running && c.app.state == AppState::Acquiring)
        .map(|c| c.id)
        .collect()
}

/// Nothing can ever happen again: no message that can be delivered, no timer, no scripted
/// command (a lock service without heartbeats, its waiters queued behind a holder that is
/// gone). Asked only while someone waits.
fn dead_end(w: &World) -> bool {
    let waits = |c: &Client| c.proc == Proc::Running && c.app.state == AppState::Acquiring;
    // Cheap first: a message on its way to the service or a running client (a big run always
    // has pings in flight) means something will happen.
    let live = |e: &super::network::Envelope| match e.to {
        Node::Client(c) => w.clients.get(c).is_some_and(|c| c.proc == Proc::Running),
        _ => true,
    };
    let moving = w.net.in_flight().any(|e| !e.lost && live(e));
    !moving && w.clients.iter().any(waits) && w.enabled().is_empty()
}

/// Evaluates the frame and records first failures at `step`.
pub fn check(w: &mut World, step: u64, heartbeat: bool) {
    let believers: Vec<ClientId> = w
        .clients
        .iter()
        .filter(|c| c.alive() && c.recipe.holding())
        .map(|c| c.id)
        .collect();
    let owners: Vec<ClientId> = believers
        .iter()
        .copied()
        .filter(|c| owns_node(w, &w.clients[*c]))
        .collect();
    let stuck = stuck(w, heartbeat);
    let lost = w.resource.first_lost_update().is_some();
    let (belief_bad, owner_bad) = (too_many(w, &believers), too_many(w, &owners));
    let m = &mut w.monitors;
    m.belief = m.belief.or(belief_bad.then_some(step));
    m.ownership = m.ownership.or(owner_bad.then_some(step));
    m.lost_update = m.lost_update.or(lost.then_some(step));
    m.stuck = m.stuck.or((!stuck.is_empty()).then_some(step));
    m.now = Verdict {
        believers,
        owners,
        stuck,
    };
}

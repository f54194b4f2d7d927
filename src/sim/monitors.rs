//! Live safety checks on every frame, each remembering the step where it first failed:
//! - ownership: more than one client holds the lock *and* still owns its lock node
//!   (mutual exclusion as the lock service sees it);
//! - belief: more than one client believes it holds the lock (what a GC pause or a partition
//!   past the session timeout causes, even with a correct recipe): its recipe says it holds,
//!   or its application works under the lock (reads, works, writes) whatever the recipe says;
//! - resource: an accepted write lost an update (or handed out a duplicate ID);
//! - stuck: a client waits and nothing has moved for longer than every timer of the run
//!   added up (see [`super::progress`]), counted from the end of the last pause, scripted
//!   command or lease that could free it: "no progress for N ticks".

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
    /// The step at which the lock service broke its own protocol's promise, and which
    /// (Zab: two leaders in one epoch, a committed transaction lost, diverging servers).
    pub protocol: Option<(u64, String)>,
    pub now: Verdict,
    /// The progress fingerprint, the tick it last changed, and how long it may stay unchanged
    /// now (`quiet_base`, plus `quiet_lease` while an entry can expire).
    pub progress: u64,
    pub quiet_since: Tick,
    pub quiet_limit: Tick,
    pub quiet_base: Tick,
    pub quiet_lease: Tick,
    /// When the last entry that could expire ran out, as of the fingerprint last taken
    /// (`None`: none could).
    pub expiry: Option<Tick>,
    /// When the entries' leases run out as of the last change of the fingerprint, pause,
    /// stall or scripted command (a failover may extend every lease): the quiet ticks count
    /// from there (a waiter is not stuck while a lease blocking it can still run out). A lease
    /// its live holder renews since (etcd's keep-alive) does not move it.
    pub lease_end: Tick,
    /// The stuck verdict came from a dead end (nothing can ever happen again), not the clock.
    pub dead_end: bool,
    /// The last tick a live client that waits, or owns entries through its session, could not
    /// reach the service (that session could expire, that client's next try get through).
    pub churned: Option<Tick>,
    /// The stuck verdict came while such clients kept losing their connections within the
    /// quiet ticks: the waiters are stuck unless the network loses a session or lets a try
    /// through (on a network slow enough to make sessions reconnect over and over, either may
    /// happen much later, or never).
    pub churn: bool,
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
/// stalled (each of those ends and may free them), and the quiet ticks count from the end of
/// the last of those and of the leases that block (a lease may still run out); at once when
/// nothing at all can happen any more. A verdict spoken while the network kept cutting off a
/// waiter or a session that owns entries says so ([`Monitors::churn`]): only the network (a
/// lost session, a try that gets through) can free them then.
/// The exhaustive search has no clock: it finds states where no choice is left instead (see
/// `explore`).
fn stuck(w: &mut World, heartbeat: bool) -> Vec<ClientId> {
    if w.timeless {
        return Vec::new();
    }
    let (pending, quiet) = quiet_clock(w, heartbeat);
    // A dead end is certain even while a pause lasts: the paused process has nothing to do.
    let end = dead_end(w);
    if !end && (pending || !quiet) {
        return Vec::new();
    }
    let m = &mut w.monitors;
    if m.stuck.is_none() {
        m.dead_end = end;
        m.churn = !end && m.churned.is_some_and(|t| t >= m.quiet_since);
    }
    w.clients
        .iter()
        .filter(|c| c.proc == Proc::Running && c.app.state == AppState::Acquiring)
        .map(|c| c.id)
        .collect()
}

/// Moves the stuck monitor's clock on by one frame: whether something outside the clients'
/// own doing is still to come (a scripted command, a pause, a stall), and whether nothing has
/// moved for the quiet limit.
fn quiet_clock(w: &mut World, heartbeat: bool) -> (bool, bool) {
    // A heartbeat changes nothing the fingerprint sees (and most steps of a big run are one).
    let (print, expiry) = if heartbeat {
        (w.monitors.progress, w.monitors.expiry)
    } else {
        super::progress::fingerprint(w)
    };
    // A paused server (a Redis primary in a GC pause) answers when it wakes, as a paused
    // client acts: nothing waits for ever while one is still to end.
    let pending = w.next_script < w.script.len()
        || w.now < w.stall_until
        || w.server_paused.iter().any(|until| w.now < *until)
        || w.clients
            .iter()
            .any(|c| matches!(c.proc, Proc::Paused { until } if w.now < until));
    let (cut, outside) = (churn_now(w), outside_until(w));
    let m = &mut w.monitors;
    if m.stuck.is_none() {
        m.quiet_limit = m.quiet_base + if expiry.is_some() { m.quiet_lease } else { 0 };
    }
    m.expiry = expiry;
    if print != m.progress || pending || outside >= w.now {
        m.lease_end = expiry.unwrap_or(0);
    }
    if print != m.progress || pending {
        m.progress = print;
        m.quiet_since = w.now;
    }
    // Quiet ticks count from the end of the last pause, stall or scripted command and from the
    // end of the leases: a client paused through them has not had its chance yet (a pause
    // that ends with no step in between was not quiet time), nor one whose poll comes after
    // the lease blocking it runs out.
    m.quiet_since = m.quiet_since.max(outside).max(m.lease_end);
    if cut {
        m.churned = Some(w.now);
    }
    (
        pending,
        w.now.saturating_sub(m.quiet_since) >= m.quiet_limit,
    )
}

/// A live client that waits, or owns entries through a session (ZooKeeper's ephemerals),
/// cannot reach the service now: its session may expire and free them, or its next try may get
/// through (on a network slow enough to make sessions reconnect over and over, either may
/// happen much later, or never).
fn churn_now(w: &World) -> bool {
    use crate::services::ConnState;
    w.clients.iter().any(|c| {
        let cut = !matches!(c.lib.conn_state(), ConnState::Connected | ConnState::Closed);
        let owns = || {
            c.lib
                .session()
                .is_some_and(|s| w.service.session_entries(s) > 0)
        };
        c.proc == Proc::Running && cut && (c.app.state == AppState::Acquiring || owns())
    })
}

/// When the last thing outside the clients' own doing ends or ended: a pause (while its
/// process is still marked paused), the service's stall, the latest scripted command run.
fn outside_until(w: &World) -> Tick {
    let paused = w.clients.iter().filter_map(|c| match c.proc {
        Proc::Paused { until } => Some(until),
        _ => None,
    });
    let script = w.next_script.checked_sub(1).map(|i| w.script[i].at);
    let servers = w.server_paused.iter().copied();
    paused
        .chain(script)
        .chain(servers)
        .fold(w.stall_until, Tick::max)
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
        .filter(|c| c.alive() && (c.recipe.holding() || c.app.under_lock()))
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
    if w.monitors.protocol.is_none() {
        let broken = w.service.invariant();
        w.monitors.protocol = broken.map(|v| (step, v));
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recipes::{naive::Naive, Phase, Recipe, RecipeKind};
    use crate::sim::Scenario;

    /// A recipe that lost track of its hold (the naive lock before issue 25's fix) must not
    /// hide a second holder: the application working under the lock believes it holds it.
    #[test]
    fn an_application_working_under_the_lock_is_a_believer_whatever_its_recipe_says() {
        let sc = Scenario {
            recipe: RecipeKind::Naive,
            clients: 2,
            ..Scenario::default()
        };
        let mut w = World::new(&sc);
        w.clients[0].app.state = AppState::Working { until: 10 };
        let naive = |phase: Phase| {
            let mut n = Naive::default();
            n.phase = phase;
            Recipe::Naive(n)
        };
        w.clients[0].recipe = naive(Phase::Watching("/lock".into()));
        w.clients[1].recipe = naive(Phase::Holding);
        check(&mut w, 7, false);
        assert_eq!(w.monitors.now.believers, [0, 1]);
        assert_eq!(w.monitors.belief, Some(7));
    }
}

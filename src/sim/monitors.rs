//! Live safety checks on every frame, each remembering the step where it first failed:
//! - ownership: more than one client holds the lock *and* still owns its lock node
//!   (mutual exclusion as the lock service sees it);
//! - belief: more than one client believes it holds the lock (what a GC pause or a partition
//!   past the session timeout causes, even with a correct recipe);
//! - resource: an accepted write lost an update (or handed out a duplicate ID);
//! - stuck: a client waits with nothing left that could wake it.

use serde::{Deserialize, Serialize};

use super::app::AppState;
use super::client::{Client, Proc};
use super::types::{ClientId, Node};
use super::world::World;
use crate::recipes::{HoldMode, Phase};
use crate::services::{Blocker, ConnState, Owner};

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
}

impl Monitors {
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

/// Evaluates the frame and records first failures at `step`.
pub fn check(w: &mut World, step: u64) {
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
    let stuck: Vec<ClientId> = w
        .clients
        .iter()
        .filter(|c| is_stuck(w, c))
        .map(|c| c.id)
        .collect();
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

/// A waiting client is stuck when what blocks it can never go away in a way it would notice:
/// a watched node whose owner will neither release it nor lose its session, a watch that is
/// gone, or a lock entry without expiry whose owner is gone.
pub fn is_stuck(w: &World, c: &Client) -> bool {
    // A scripted fault still to come (a heal, an expiry) may yet free it.
    if c.proc != Proc::Running
        || c.app.state != AppState::Acquiring
        || c.app.acquire_deadline.is_some()
        || w.next_script < w.script.len()
    {
        return false;
    }
    let path = match c.recipe.phase() {
        Phase::Watching(p) | Phase::Waiting(p) => Some(p),
        _ => None,
    };
    match w.service.blocker(w.now, &c.claim(), path.as_deref()) {
        Blocker::Unknown => false,
        Blocker::Permanent(owner) => {
            hopeless(w, c, &owner) && !w.clients.iter().any(|o| o.recipe.repairs())
        }
        Blocker::Nothing => waiting_quietly(w, c),
        Blocker::Ephemeral { owner, conn } => {
            waiting_quietly(w, c) && !owner_may_act(w, &owner, conn, path.as_deref())
        }
    }
}

/// Connected, with nothing pending and nothing but heartbeats in flight (nothing that could
/// still change its mind).
fn waiting_quietly(w: &World, c: &Client) -> bool {
    c.lib.conn_state() == ConnState::Connected
        && c.lib.unanswered() == 0
        && !w.net.busy_with_work(Node::Client(c.id))
        // A cut client has not heard what it missed yet: it will time out, reconnect and
        // learn it (ZooKeeper re-sends missed watch events for SetWatches).
        && !w.net.partitioned.contains(&c.id)
}

/// The owner of an entry that goes with its session may still release it or lose it: it is
/// unknown or gone (its session will end), no longer in that session, claims the entry, is
/// still finding out what it created, or is not connected.
fn owner_may_act(w: &World, owner: &Owner, conn: Option<usize>, path: Option<&str>) -> bool {
    let Some(o) = conn.and_then(|k| w.clients.get(k)) else {
        return true;
    };
    !o.alive()
        || !owner.matches(&o.claim())
        || o.recipe.my_node() == path
        || (o.app.state == AppState::Acquiring && o.recipe.my_node().is_none())
        // Still listing or creating (not waiting itself): it may get the lock and release it.
        || (o.app.state == AppState::Acquiring
            && !matches!(o.recipe.phase(), Phase::Watching(_) | Phase::Waiting(_)))
        || o.lib.conn_state() != ConnState::Connected
}

/// An entry that never expires blocks forever when its owner is unknown or dead, or is this
/// very client, which no longer knows it holds it (its acquire reply was lost).
fn hopeless(w: &World, c: &Client, owner: &Owner) -> bool {
    match w.clients.iter().find(|o| owner.matches(&o.claim())) {
        None => true,
        Some(o) if !o.alive() => true,
        Some(o) if o.id == c.id => o.lib.unanswered() == 0 && !w.net.busy(Node::Client(c.id)),
        Some(_) => false,
    }
}

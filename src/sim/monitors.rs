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
use super::zkclient::Conn;
use crate::engine::{NodeKind, WatchTable};
use crate::recipes::{HoldMode, Phase};

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
    let exclusive = holders.iter().any(|c| recipe(c).hold_mode() == HoldMode::Exclusive);
    let leases = holders.iter().any(|c| matches!(recipe(c), crate::recipes::Recipe::Curator(_)));
    let limit = if exclusive { 1 } else if leases { w.max_leases as usize } else { usize::MAX };
    holders.len() > limit
}

/// Whether the client still owns its lock node through its current session.
fn owns_node(w: &World, c: &Client) -> bool {
    let Some(server) = w.server() else { return w.svc_says_holder(c.id) };
    let (Some(node), Some(session)) = (c.recipe.my_node(), c.zk.session) else { return false };
    server.tree().get(node).is_some_and(|n| n.kind == NodeKind::Ephemeral(session))
}

/// Evaluates the frame and records first failures at `step`.
pub fn check(w: &mut World, step: u64) {
    let believers: Vec<ClientId> = w.clients.iter().filter(|c| c.alive() && c.recipe.holding()).map(|c| c.id).collect();
    let owners: Vec<ClientId> = believers.iter().copied().filter(|c| owns_node(w, &w.clients[*c])).collect();
    let stuck: Vec<ClientId> = w.clients.iter().filter(|c| is_stuck(w, c)).map(|c| c.id).collect();
    let lost = w.resource.first_lost_update().is_some();
    let (belief_bad, owner_bad) = (too_many(w, &believers), too_many(w, &owners));
    let m = &mut w.monitors;
    m.belief = m.belief.or(belief_bad.then_some(step));
    m.ownership = m.ownership.or(owner_bad.then_some(step));
    m.lost_update = m.lost_update.or(lost.then_some(step));
    m.stuck = m.stuck.or((!stuck.is_empty()).then_some(step));
    m.now = Verdict { believers, owners, stuck };
}

/// A waiting client is stuck when nothing in flight concerns it and the node it waits for can
/// never be deleted in a way it would notice.
pub fn is_stuck(w: &World, c: &Client) -> bool {
    if c.proc != Proc::Running || c.app.state != AppState::Acquiring || c.app.acquire_deadline.is_some() {
        return false;
    }
    if w.server().is_none() {
        return w.svc_stuck(c.id);
    }
    let path = match c.recipe.phase() {
        Phase::Watching(p) | Phase::Waiting(p) => p,
        _ => return false,
    };
    if c.zk.conn != Conn::Connected || c.zk.outstanding() > 0 || w.net.busy(Node::Client(c.id)) {
        return false;
    }
    !could_wake(w, c, &path)
}

fn could_wake(w: &World, c: &Client, path: &str) -> bool {
    let (Some(session), Some(server)) = (c.zk.session, w.server()) else { return true };
    let Some(node) = server.tree().get(path) else { return false };
    if !server.watches().contains(WatchTable::Data, path, session) {
        return false;
    }
    match node.kind {
        NodeKind::Ephemeral(owner) if owner == session => false,
        NodeKind::Ephemeral(owner) => match w.session_owner.get(&owner).map(|o| &w.clients[*o]) {
            None => true,
            Some(o) if !o.alive() => true,
            // The owner claims the node, or is still finding out what it created.
            Some(o) => {
                o.zk.session != Some(owner)
                    || o.recipe.my_node() == Some(path)
                    || (o.app.state == AppState::Acquiring && o.recipe.my_node().is_none())
                    || o.zk.conn != Conn::Connected
            }
        },
        _ => true,
    }
}

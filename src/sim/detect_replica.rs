//! The Redis replication moment: a holder's key on the primary with no copy on the replica yet,
//! and whether the copy can still arrive (a cut link or a partition loses it).

use super::moments::{moment, Finder, Kind};
use super::world::World;
use super::StepRecord;
use crate::services::{Entry, Role};
use crate::sim::types::Node;

impl Finder {
    /// An owned key on the primary with no copy on the replica yet.
    pub(super) fn replica_behind(&mut self, w: &World, r: &StepRecord, entries: &[Entry]) {
        if let Some(rep) = w.service.replica().filter(|x| x.behind > 0) {
            let copied = |name: &str| entries.iter().any(|e| e.replica() && e.name() == name);
            let missing = entries
                .iter()
                .find(|e| !e.replica() && e.owner().is_some() && !copied(&e.name()));
            let holder = missing
                .and_then(|e| e.owner())
                .and_then(|o| w.clients.iter().find(|c| o.matches(&c.claim())))
                .map(|c| c.id);
            if holder.is_some() && self.wants(Kind::ReplicaBehind) {
                let mut m = moment(r.index, Kind::ReplicaBehind, holder);
                m.n = rep.lag as i64;
                m.m = i64::from(rep.cut || replication_cut(w));
                self.push(m);
            }
        }
    }
}

/// Whether the network cuts a Redis primary off from its replica (a partition, not the
/// service's own replication link: `ReplicaState::cut`).
fn replication_cut(w: &World) -> bool {
    let servers = w.service.servers();
    let of = |role: Role| {
        servers
            .iter()
            .filter(move |s| s.role == role)
            .map(|s| Node::Server(s.id))
    };
    of(Role::Primary).any(|p| of(Role::Replica).any(|r| w.net.cuts(p, r)))
}

//! Redis as the simulator runs it: two servers, a primary and (with a replica lag) its replica,
//! each a node of the world's network. The primary answers a write first and propagates it
//! after: the write waits in its replication buffer for the lag, then leaves as a [`Peer`]
//! message that travels like any other (delayed, lost in a partition). A crash loses the buffer;
//! the replica applies only what arrives, in order (a gap breaks the link, as a broken TCP
//! stream would, until the replica reconnects — not modelled: Redis waits `repl-timeout`, 60 s,
//! longer than the runs). A failover crashes the primary and promotes the replica; clients
//! then talk to it, and it drops whatever its old primary's stream still brings.

use serde::{Deserialize, Serialize};

use super::replication::{is_data, resp_len};
use super::Redis;
use crate::services::api::{Role, ServerId, ServerInfo};

/// What the Redis servers say to one another.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Peer {
    /// Part of the primary's replication stream: commands as the replica applies them, the
    /// first at stream offset `offset`.
    Stream { offset: u64, cmds: Vec<Vec<String>> },
    /// A full resynchronisation: the primary's whole keyspace and the stream offset it is at.
    FullSync {
        offset: u64,
        keys: crate::sorted::SortedMap<String, super::db::Entry>,
    },
}

impl Peer {
    /// "SET lock t1 PX 30000" (the data commands; SELECT and MULTI/EXEC are left out).
    pub fn label(&self) -> String {
        let cmds = match self {
            Peer::Stream { cmds, .. } => cmds,
            Peer::FullSync { keys, .. } => return format!("FULLRESYNC ({} keys)", keys.len()),
        };
        let data: Vec<String> = cmds
            .iter()
            .filter(|c| is_data(c))
            .map(|c| super::service::label(c))
            .collect();
        match data.as_slice() {
            [] => "replication stream".into(),
            [one] => format!("⇢ {one}"),
            [first, rest @ ..] => format!("⇢ {first} (+{})", rest.len()),
        }
    }
}

/// What became of a stream chunk that arrived.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrival {
    Applied,
    /// An earlier chunk never arrived: the link is broken.
    Gap,
    /// The server is no replica (any more): a promoted one closed its old primary's link.
    NotReplica,
}

/// The two servers' state that only the simulator's Redis has.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pair {
    /// The server clients talk to.
    pub primary: ServerId,
    /// Servers that are down.
    pub down: [bool; 2],
    /// Stream chunks in the primary's replication buffer: (when they leave, offset, commands).
    pub outgoing: Vec<(u64, u64, Vec<Vec<String>>)>,
    /// Data writes sent to the replica that have not been applied there.
    pub behind: usize,
    /// What each server's disk kept when it crashed.
    pub disks: [Option<super::crash::Disk>; 2],
    /// Full resyncs to send at once.
    pub sync: Vec<(ServerId, ServerId, Peer)>,
    /// Per server, paused until then: the primary's expiry and replication buffer wait.
    pub paused: [u64; 2],
}

impl Redis {
    /// The simulator's Redis: the replication stream travels as messages.
    pub fn networked(replica_lag: Option<u64>) -> Redis {
        Redis {
            pair: Some(Pair::default()),
            ..Redis::new(replica_lag)
        }
    }

    /// The replica's server id while it exists (the other one).
    fn replica_id(&self) -> Option<ServerId> {
        let p = self.pair.as_ref()?;
        self.replica.as_ref().map(|_| 1 - p.primary.min(1))
    }

    /// A chunk of the stream into the replication buffer, to leave after the lag (see
    /// [`Redis::replicate`]).
    pub(super) fn stream_out(&mut self, now: u64, offset: u64, cmds: Vec<Vec<String>>) {
        let lag = self.replica.as_ref().map_or(0, |r| r.lag);
        if let Some(p) = self.pair.as_mut() {
            p.behind += cmds.iter().filter(|c| is_data(c)).count();
            p.outgoing.push((now.saturating_add(lag), offset, cmds));
        }
    }

    /// Takes the chunks due to leave: (from, to, message).
    pub fn take_stream(&mut self, now: u64) -> Vec<(ServerId, ServerId, Peer)> {
        let (Some(to), Some(p)) = (self.replica_id(), self.pair.as_mut()) else {
            return Vec::new();
        };
        let from = p.primary;
        let due = p.outgoing.iter().take_while(|(t, ..)| *t <= now).count();
        let stream = p.outgoing.drain(..due);
        let stream = stream.map(|(_, offset, cmds)| (from, to, Peer::Stream { offset, cmds }));
        let mut out = std::mem::take(&mut p.sync);
        out.extend(stream);
        out
    }

    /// The primary's timers wait while it is paused.
    pub fn primary_paused_until(&self) -> u64 {
        self.pair
            .as_ref()
            .map_or(0, |p| p.paused[usize::from(p.primary.min(1))])
    }

    /// When the next buffered chunk leaves.
    pub fn stream_due(&self) -> Option<u64> {
        self.pair.as_ref()?.outgoing.first().map(|(t, ..)| *t)
    }

    /// Writes still in the primary's replication buffer.
    pub fn buffered(&self) -> usize {
        self.pair.as_ref().map_or(0, |p| {
            let data = |c: &Vec<String>| is_data(c);
            p.outgoing
                .iter()
                .map(|(_, _, c)| c.iter().filter(|c| data(c)).count())
                .sum()
        })
    }

    /// A chunk arrives at server `to`: applied if `to` is the replica and the chunk continues
    /// what it has; a gap (an earlier chunk was lost) breaks the link.
    pub fn stream_in(&mut self, to: ServerId, m: &Peer) -> Arrival {
        let (offset, cmds) = match m {
            Peer::Stream { offset, cmds } => (offset, cmds),
            Peer::FullSync { offset, keys } => {
                let ok = self.replica_id() == Some(to) && self.full_sync_in(*offset, keys);
                return if ok {
                    Arrival::Applied
                } else {
                    Arrival::NotReplica
                };
            }
        };
        let data = cmds.iter().filter(|c| is_data(c)).count();
        if self.replica_id() != Some(to) {
            return Arrival::NotReplica;
        }
        let Some(r) = self.replica.as_mut().filter(|r| !r.link_cut) else {
            return Arrival::Gap;
        };
        if r.offset != *offset {
            r.link_cut = true;
            return Arrival::Gap;
        }
        for w in cmds {
            if w.first().is_some_and(|c| c == "REPLCONF") {
                r.acked = r.offset;
            }
            super::replication::apply(&mut r.db, w);
            r.offset += resp_len(w);
        }
        if let Some(p) = self.pair.as_mut() {
            p.behind = p.behind.saturating_sub(data);
        }
        Arrival::Applied
    }

    /// A chunk was lost on the way: the replica's stream has a gap, the link is broken.
    pub fn stream_lost(&mut self) {
        if let Some(r) = self.replica.as_mut() {
            r.link_cut = true;
        }
    }

    /// The primary crashes and the replica is promoted: the old primary is down, the new one
    /// has what had arrived. Without a replica the one server restarts empty.
    pub fn fail_over_pair(&mut self) -> bool {
        let Some(p) = self.pair.clone() else {
            return false;
        };
        let Some(next) = self.replica_id() else {
            return false;
        };
        let old = usize::from(p.primary.min(1));
        let keys = std::mem::take(&mut self.db.keys);
        self.promote();
        self.replica = None;
        let mut pair = Pair {
            primary: next,
            ..Pair::default()
        };
        pair.down[old] = true;
        pair.disks[old] = Some(super::crash::Disk { keys });
        self.pair = Some(pair);
        true
    }

    /// The servers and their roles.
    pub fn server_list(&self) -> Vec<ServerInfo> {
        let p = self.pair.clone().unwrap_or_default();
        let count = if self.replica.is_some() || p.down.iter().any(|d| *d) {
            2
        } else {
            1
        };
        (0..count as ServerId)
            .map(|id| {
                let role = if p.down[usize::from(id)] {
                    Role::Down
                } else if id == p.primary {
                    Role::Primary
                } else {
                    Role::Replica
                };
                ServerInfo {
                    id,
                    name: format!("redis-{}", id + 1),
                    role: if count == 1 { Role::Single } else { role },
                    note: None,
                    clock_ahead: 0,
                }
            })
            .collect()
    }

    /// The primary's server id (0 outside the simulator).
    pub fn primary_id(&self) -> ServerId {
        self.pair.as_ref().map_or(0, |p| p.primary)
    }

    /// The replica's rows come from this server id.
    pub fn replica_server(&self) -> Option<ServerId> {
        self.replica_id()
    }

    /// Writes sent to the replica and not applied (in flight, or lost with a broken link).
    pub fn pair_behind(&self) -> Option<usize> {
        self.pair.as_ref().map(|p| p.behind)
    }
}

//! The commands a scenario times and a user injects: client faults (crash, close, pause,
//! partition, a lost reply), service faults (failover, a server's crash and restart, a split
//! of any set of nodes), latency, and the application's acquire, release and cancel.

use serde::{Deserialize, Serialize};

use super::scenario::MAX_TICKS;
use super::types::{ClientId, Tick};
use crate::services::ServerId;

/// A fault or user command, applicable at any step to any client. Read from JSON by
/// `command_de.rs` and written by `command_ser.rs`, which a new variant must join.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    /// The process dies; its session expires after the timeout.
    Crash {
        client: ClientId,
    },
    /// The process closes its session gracefully and stops.
    Close {
        client: ClientId,
    },
    /// The server expires the client's session now.
    Expire {
        client: ClientId,
    },
    /// Cut the link between the client and the lock service.
    Partition {
        client: ClientId,
    },
    Heal {
        client: ClientId,
    },
    /// A stop-the-world pause (GC, VM migration) of `ticks`.
    Pause {
        client: ClientId,
        ticks: Tick,
    },
    /// The next reply from the lock service to this client is lost with its connection.
    DropReply {
        client: ClientId,
    },
    /// Network latency bounds from now on.
    Latency {
        min: Tick,
        max: Tick,
    },
    /// The lock service fails over: Redis promotes its replica (or restarts empty), etcd and
    /// ZooKeeper elect a new leader, a database switches to its standby.
    Failover,
    /// One server of the lock service crashes: its memory is gone, messages to it are lost
    /// until it restarts.
    CrashServer {
        server: ServerId,
    },
    /// One server stops for `ticks` (a long GC pause, a stopped VM): it handles nothing, and
    /// messages to it wait until it runs again.
    PauseServer {
        server: ServerId,
        ticks: Tick,
    },
    /// A crashed server starts again, from its disk (`keep_disk`) or empty.
    RestartServer {
        server: ServerId,
        keep_disk: bool,
    },
    /// Server `server`'s clock is stepped by `by` ms, forward or (negative) back: an NTP step,
    /// an operator's `date -s`. Redis measures TTLs on it.
    ClockJump {
        server: ServerId,
        by: i64,
    },
    /// A partition that splits any set of nodes from the rest: these clients and servers on
    /// one side, every other client and server on the other (the resource reaches both).
    /// A new split replaces the one before.
    Split {
        clients: Vec<ClientId>,
        servers: Vec<ServerId>,
    },
    /// The split heals.
    HealSplit,
    /// Ask the application to acquire now / release now.
    Acquire {
        client: ClientId,
    },
    Release {
        client: ClientId,
    },
    /// Ask a waiting application to stop waiting (kazoo's `cancel()`).
    Cancel {
        client: ClientId,
    },
    /// Ask a holder to extend its lock by its TTL (node-redlock's `lock.extend(ttl)`).
    Extend {
        client: ClientId,
    },
    /// An observer reads the lock node from its server, after `sync` if asked.
    Read {
        client: ClientId,
        sync: bool,
    },
    /// The links between server `server` and the other servers stop carrying messages for
    /// `ticks` (a congested or stalled quorum connection): what is sent waits, in order, and
    /// arrives when they carry again. Its clients still reach it.
    PauseLinks {
        server: ServerId,
        ticks: Tick,
    },
}

impl Command {
    /// Durations and latencies within [`MAX_TICKS`].
    pub fn ticks_ok(&self) -> bool {
        match self {
            Command::Pause { ticks, .. }
            | Command::PauseServer { ticks, .. }
            | Command::PauseLinks { ticks, .. } => *ticks <= MAX_TICKS,
            Command::Latency { min, max } => *min <= MAX_TICKS && *max <= MAX_TICKS,
            Command::ClockJump { by, .. } => by.unsigned_abs() <= MAX_TICKS,
            _ => true,
        }
    }

    /// What is wrong with the servers or clients a server command names (`n` clients).
    pub fn nodes_bad(&self, n: usize) -> Option<String> {
        let server_ok = |s: &ServerId| usize::from(*s) < crate::services::MAX_SERVERS;
        match self {
            Command::CrashServer { server }
            | Command::RestartServer { server, .. }
            | Command::PauseServer { server, .. }
            | Command::PauseLinks { server, .. }
            | Command::ClockJump { server, .. }
                if !server_ok(server) =>
            {
                Some(format!(
                    "server {server}: a service has at most {} servers",
                    crate::services::MAX_SERVERS
                ))
            }
            Command::Split { clients, servers } => {
                if let Some(c) = clients.iter().find(|c| **c >= n) {
                    return Some(format!(
                        "split names client index {c} but there are {n} clients"
                    ));
                }
                servers.iter().find(|s| !server_ok(s)).map(|s| {
                    format!(
                        "split names server {s}: a service has at most {} servers",
                        crate::services::MAX_SERVERS
                    )
                })
            }
            _ => None,
        }
    }

    pub fn client(&self) -> Option<ClientId> {
        match self {
            Command::Crash { client }
            | Command::Close { client }
            | Command::Expire { client }
            | Command::Partition { client }
            | Command::Heal { client }
            | Command::Pause { client, .. }
            | Command::DropReply { client }
            | Command::Acquire { client }
            | Command::Release { client }
            | Command::Cancel { client }
            | Command::Extend { client }
            | Command::Read { client, .. } => Some(*client),
            Command::Latency { .. }
            | Command::Failover
            | Command::CrashServer { .. }
            | Command::PauseServer { .. }
            | Command::PauseLinks { .. }
            | Command::RestartServer { .. }
            | Command::ClockJump { .. }
            | Command::Split { .. }
            | Command::HealSplit => None,
        }
    }
}

/// A command the scenario applies at a given tick.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TimedCommand {
    pub at: Tick,
    pub command: Command,
}

//! Redlock's servers: N independent Redis 7 masters (3, 5 or 7), with no replication between
//! them, each a node of the world's network with its own clock (an offset and a rate, and
//! jumps). A client's library talks to every master at once on its own connection to each;
//! each request names its master. Nothing coordinates the masters: whatever one of them
//! forgets (a restart without persistence, a key expired early by its clock) the others cannot
//! tell it.

mod client;
mod clock;
mod master;
mod service;
mod wire;

use serde::{Deserialize, Serialize};

pub use client::{lib, Lib};
pub use clock::Clock;
pub use master::Master;

use crate::services::api::{ServerId, ServiceConfig, Tick};
use crate::services::redis::{KeyRow, Reply};

pub type Server = Redlock;
pub type Entry = KeyRow;
pub type Call = Up;

/// How the view presents Redlock: each master's keys with their PTTL on its own clock, and no
/// links between the masters (they never talk to each other).
pub const LOOK: super::look::Look = super::look::Look {
    product: "Redlock · Redis 7",
    peers: false,
    library_wait: client::REDIAL_MAX,
    ..super::redis::LOOK
};

/// The masters.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Redlock {
    pub masters: Vec<Master>,
    /// An operator keeps a crashed master down until the longest TTL has passed.
    pub delayed_restart: bool,
    /// The longest TTL the application uses.
    pub max_ttl: Tick,
    /// The world time last seen (for clock notes and deadlines).
    pub now: Tick,
}

/// A command for one master; no words: the library opens a new connection to it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Up {
    pub to: ServerId,
    pub cmd: Vec<String>,
}

impl Up {
    /// A connection attempt (a TCP connect), not a command.
    pub fn connect(to: ServerId) -> Up {
        Up {
            to,
            cmd: Vec::new(),
        }
    }

    pub fn is_connect(&self) -> bool {
        self.cmd.is_empty()
    }
}

/// What comes back from one master's address.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Down {
    /// The master's reply to the oldest command on the connection.
    Reply { from: ServerId, reply: Reply },
    /// A connection attempt succeeded.
    Connected { from: ServerId },
    /// The master is down: its host resets the connection (a command on it is not answered)
    /// or refuses a new one (`ECONNREFUSED`).
    Refused { from: ServerId },
    /// The master crashed: its host closes the connection.
    Reset { from: ServerId },
}

impl Down {
    pub fn from(&self) -> ServerId {
        match self {
            Down::Reply { from, .. }
            | Down::Connected { from }
            | Down::Refused { from }
            | Down::Reset { from } => *from,
        }
    }
}

/// What the library hands node-redlock: one master's reply, or the error the library
/// rejects a command with.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Answer {
    pub from: ServerId,
    pub reply: Reply,
}

/// The masters a scenario asks for, each with its clock.
pub fn service(cfg: &ServiceConfig) -> Redlock {
    let n = cfg
        .masters
        .unwrap_or(super::REDLOCK_MASTERS)
        .clamp(1, super::MAX_SERVERS as u8);
    let clock = |i: usize| {
        let (offset, rate_ppm) = cfg.clocks.get(i).copied().unwrap_or_default();
        Clock { offset, rate_ppm }
    };
    Redlock {
        masters: (0..usize::from(n)).map(|i| Master::new(clock(i))).collect(),
        delayed_restart: cfg.delayed_restart,
        max_ttl: cfg.max_ttl,
        now: 0,
    }
}

//! Shared simulation vocabulary: ticks, client ids, network endpoints and message payloads.

use serde::{Deserialize, Serialize};

pub use crate::services::zookeeper::wire::request_path;
use crate::services::{Down, Up, Wire};

/// Logical time. The simulated lock services count it as milliseconds.
pub type Tick = u64;

/// Index of a client in the world (C1 is index 0).
pub type ClientId = usize;

/// A network endpoint: a client process, the lock service, or the protected resource.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Node {
    Client(ClientId),
    Service,
    Resource,
}

/// Client → protected resource.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ResUp {
    /// A read also shows the token, so a fencing resource learns of newer holders early.
    Read { token: i64 },
    Write {
        value: u64,
        read_version: u64,
        token: i64,
    },
}

/// Protected resource → client.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ResDown {
    ReadOk {
        value: u64,
        version: u64,
    },
    WriteOk {
        value: u64,
    },
    /// Fencing: the token is lower than the highest the resource has seen.
    WriteRejected {
        token: i64,
        highest: i64,
    },
}

/// Everything that travels on the simulated network.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Payload {
    /// Client → lock service.
    Up(Up),
    /// Lock service → client.
    Down(Down),
    /// The client's operating system closed its connection to the service (FIN).
    Hangup,
    ResUp(ResUp),
    ResDown(ResDown),
}

impl Payload {
    /// A short label for message arrows ("create2 /locks/lock-", "NodeDeleted", "read").
    pub fn label(&self) -> String {
        match self {
            Payload::Up(m) => m.label(),
            Payload::Down(m) => m.label(),
            Payload::Hangup => "FIN (connection closed)".into(),
            Payload::ResUp(ResUp::Read { .. }) => "read".into(),
            Payload::ResUp(ResUp::Write { value, token, .. }) => {
                format!("write {value} (token {token})")
            }
            Payload::ResDown(ResDown::ReadOk { value, .. }) => format!("value {value}"),
            Payload::ResDown(ResDown::WriteOk { .. }) => "write ok".into(),
            Payload::ResDown(ResDown::WriteRejected { .. }) => "write rejected".into(),
        }
    }

    /// The message in full, field by field.
    pub fn wire(&self) -> Wire {
        let w = Wire::default();
        match self {
            Payload::Up(m) => m.wire(),
            Payload::Down(m) => m.wire(),
            Payload::Hangup => w.with("op", "FIN"),
            Payload::ResUp(ResUp::Read { token }) => {
                w.with("op", "read").with("token", token.to_string())
            }
            Payload::ResUp(ResUp::Write {
                value,
                read_version,
                token,
            }) => w
                .with("op", "write")
                .with("value", value.to_string())
                .with("readVersion", read_version.to_string())
                .with("token", token.to_string()),
            Payload::ResDown(ResDown::ReadOk { value, version }) => w
                .with("result", "ok")
                .with("value", value.to_string())
                .with("version", version.to_string()),
            Payload::ResDown(ResDown::WriteOk { value }) => {
                w.with("result", "ok").with("value", value.to_string())
            }
            Payload::ResDown(ResDown::WriteRejected { token, highest }) => w
                .with("result", "rejected")
                .with("token", token.to_string())
                .with("highest", highest.to_string()),
        }
    }

    /// Traffic that goes on forever in the background (pings, keep-alives) or ends a
    /// connection: the world counts as quiet with only these in flight.
    pub fn background(&self) -> bool {
        match self {
            Payload::Up(m) => m.is_heartbeat(),
            Payload::Down(m) => m.is_heartbeat(),
            Payload::Hangup => true,
            _ => false,
        }
    }
}

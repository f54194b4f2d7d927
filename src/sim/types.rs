//! Shared simulation vocabulary: ticks, client ids, network endpoints and message payloads.

use serde::{Deserialize, Serialize};

pub use crate::services::zookeeper::wire::request_path;
use crate::services::{Down, Peer, ServerId, Up, Wire};

/// Logical time. The simulated lock services count it as milliseconds.
pub type Tick = u64;

/// Index of a client in the world (C1 is index 0).
pub type ClientId = usize;

/// A network endpoint: a client process, one of the lock service's servers, or the protected
/// resource.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(from = "NodeRepr", into = "NodeRepr")]
pub enum Node {
    Client(ClientId),
    Server(ServerId),
    Resource,
}

/// How a node is written in records: server 0 as `"Service"`, the way every record named the
/// one server before services had several, so a single-server run records as it always did.
#[derive(Serialize, Deserialize)]
#[serde(rename = "Node")]
enum NodeRepr {
    Client(ClientId),
    Service,
    Server(ServerId),
    Resource,
}

impl From<NodeRepr> for Node {
    fn from(r: NodeRepr) -> Node {
        match r {
            NodeRepr::Client(c) => Node::Client(c),
            NodeRepr::Service => Node::Server(0),
            NodeRepr::Server(s) => Node::Server(s),
            NodeRepr::Resource => Node::Resource,
        }
    }
}

impl From<Node> for NodeRepr {
    fn from(n: Node) -> NodeRepr {
        match n {
            Node::Client(c) => NodeRepr::Client(c),
            Node::Server(0) => NodeRepr::Service,
            Node::Server(s) => NodeRepr::Server(s),
            Node::Resource => NodeRepr::Resource,
        }
    }
}

impl Node {
    /// The lock service's first (or only) server.
    pub const SERVICE: Node = Node::Server(0);

    /// Whether this is one of the lock service's servers.
    pub fn is_server(self) -> bool {
        matches!(self, Node::Server(_))
    }
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
    /// Server → server (the Redis replication stream).
    Peer(Peer),
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
            Payload::Peer(m) => m.label(),
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
            Payload::Peer(m) => m.wire(),
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
            Payload::Peer(p) => p.is_heartbeat(),
            _ => false,
        }
    }
}

//! Shared simulation vocabulary: ticks, client ids, network endpoints and message payloads.

use serde::{Deserialize, Serialize};

use crate::engine::{ClientWatches, Output, Request, SessionId, Zxid};
use crate::recipes::wire::{SvcAns, SvcReq};

/// Logical time. The simulated ZooKeeper server counts it as milliseconds.
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

/// Client → ZooKeeper.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ZkUp {
    Connect { timeout_ms: u64 },
    Reconnect { session: SessionId, last_zxid: Zxid, watches: ClientWatches },
    Request { xid: i32, request: Request },
    Ping,
    Close,
}

/// ZooKeeper → client (server outputs, plus the connection being closed under it).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ZkDown {
    Output(Output),
    /// The server closed the connection (the session ended while the client was away).
    ConnectionClosed,
    /// The connection broke in transit (a reply was lost with it).
    ConnectionLost,
    /// The reply to a graceful close.
    Closed,
}

/// Client → protected resource.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ResUp {
    /// A read also shows the token, so a fencing resource learns of newer holders early.
    Read { token: i64 },
    Write { value: u64, read_version: u64, token: i64 },
}

/// Protected resource → client.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ResDown {
    ReadOk { value: u64, version: u64 },
    WriteOk { value: u64 },
    /// Fencing: the token is lower than the highest the resource has seen.
    WriteRejected { token: i64, highest: i64 },
}

/// Client → a lock service other than ZooKeeper.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SvcUp {
    Req(SvcReq),
    /// The client's operating system closed the connection (its process crashed or exited).
    Hangup,
}

/// Everything that travels on the simulated network.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Payload {
    ZkUp(ZkUp),
    ZkDown(ZkDown),
    ResUp(ResUp),
    ResDown(ResDown),
    SvcUp(SvcUp),
    SvcDown(SvcAns),
}

impl Payload {
    /// A short label for message arrows ("create2 /locks/lock-", "NodeDeleted", "read").
    pub fn label(&self) -> String {
        match self {
            Payload::ZkUp(ZkUp::Connect { .. }) => "connect".into(),
            Payload::ZkUp(ZkUp::Reconnect { .. }) => "reconnect".into(),
            Payload::ZkUp(ZkUp::Request { request, .. }) => format!("{} {}", request.opcode_name(), request_path(request)),
            Payload::ZkUp(ZkUp::Ping) => "ping".into(),
            Payload::ZkUp(ZkUp::Close) => "close".into(),
            Payload::ZkDown(ZkDown::Output(o)) => output_label(o),
            Payload::ZkDown(ZkDown::ConnectionClosed) => "connection closed".into(),
            Payload::ZkDown(ZkDown::ConnectionLost) => "connection lost".into(),
            Payload::ZkDown(ZkDown::Closed) => "closed".into(),
            Payload::ResUp(ResUp::Read { .. }) => "read".into(),
            Payload::ResUp(ResUp::Write { value, token, .. }) => format!("write {value} (token {token})"),
            Payload::ResDown(ResDown::ReadOk { value, .. }) => format!("value {value}"),
            Payload::ResDown(ResDown::WriteOk { .. }) => "write ok".into(),
            Payload::ResDown(ResDown::WriteRejected { .. }) => "write rejected".into(),
            Payload::SvcUp(SvcUp::Req(r)) => r.label(),
            Payload::SvcUp(SvcUp::Hangup) => "FIN (connection closed)".into(),
            Payload::SvcDown(a) => a.label(),
        }
    }
}

/// The path a request is about ("" for multi).
pub fn request_path(r: &Request) -> &str {
    match r {
        Request::Create { path, .. }
        | Request::Delete { path, .. }
        | Request::Exists { path, .. }
        | Request::GetData { path, .. }
        | Request::SetData { path, .. }
        | Request::GetChildren { path, .. }
        | Request::Sync { path }
        | Request::Check { path, .. } => path,
        Request::Multi(_) => "",
    }
}

fn output_label(o: &Output) -> String {
    match o {
        Output::Connected { .. } => "connected".into(),
        Output::ConnectRejected { .. } => "session expired".into(),
        Output::Reply { result: Ok(_), .. } => "ok".into(),
        Output::Reply { result: Err(e), .. } => e.kazoo_name().trim_end_matches("Error").to_string(),
        Output::Notify { event, .. } => format!("{} {}", event.kind.name(), event.path),
        Output::Pong { .. } => "pong".into(),
        Output::SessionEnded { .. } => "session ended".into(),
        Output::ContainerReaped { .. } => "container reaped".into(),
    }
}

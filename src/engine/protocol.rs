//! What goes into and comes out of the server: requests, responses, inputs and outputs.

use serde::{Deserialize, Serialize};

use super::types::{CreateMode, ErrorCode, SessionId, Stat, WatchedEvent, Zxid};

/// Node data: `None` is Java `null` (dataLength 0, getData returns null).
pub type Data = Option<Vec<u8>>;

/// A client request (the opcodes a lock needs; create is `create2`, getChildren is
/// `getChildren2`, so both return a Stat).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Request {
    Create {
        path: String,
        data: Data,
        mode: CreateMode,
    },
    Delete {
        path: String,
        version: i32,
    },
    Exists {
        path: String,
        watch: bool,
    },
    GetData {
        path: String,
        watch: bool,
    },
    SetData {
        path: String,
        data: Data,
        version: i32,
    },
    GetChildren {
        path: String,
        watch: bool,
    },
    Sync {
        path: String,
    },
    Check {
        path: String,
        version: i32,
    },
    Multi(Vec<MultiOp>),
}

impl Request {
    /// Whether the request is a write (goes through a transaction and consumes a zxid).
    pub fn is_write(&self) -> bool {
        matches!(
            self,
            Request::Create { .. }
                | Request::Delete { .. }
                | Request::SetData { .. }
                | Request::Check { .. }
                | Request::Multi(_)
        )
    }

    /// The ZooKeeper opcode name, for logs and message labels.
    pub fn opcode_name(&self) -> &'static str {
        match self {
            Request::Create { .. } => "create2",
            Request::Delete { .. } => "delete",
            Request::Exists { .. } => "exists",
            Request::GetData { .. } => "getData",
            Request::SetData { .. } => "setData",
            Request::GetChildren { .. } => "getChildren2",
            Request::Sync { .. } => "sync",
            Request::Check { .. } => "check",
            Request::Multi(_) => "multi",
        }
    }
}

/// One operation inside a multi (create is a plain `create`: its result carries no Stat).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MultiOp {
    Create {
        path: String,
        data: Data,
        mode: CreateMode,
    },
    Delete {
        path: String,
        version: i32,
    },
    SetData {
        path: String,
        data: Data,
        version: i32,
    },
    Check {
        path: String,
        version: i32,
    },
}

/// A successful single-op response.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Response {
    Create {
        path: String,
        stat: Stat,
    },
    Delete,
    /// `None`: the node does not exist (NoNode on the wire, not an error for the client).
    Exists {
        stat: Option<Stat>,
    },
    GetData {
        data: Data,
        stat: Stat,
    },
    SetData {
        stat: Stat,
    },
    GetChildren {
        children: Vec<String>,
        stat: Stat,
    },
    Sync {
        path: String,
    },
    Check,
    /// Always a "successful" reply header; failed sub-ops are `MultiResult::Error`.
    Multi(Vec<MultiResult>),
}

/// One multi sub-result.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MultiResult {
    Create { path: String },
    Delete,
    SetData { stat: Stat },
    Check,
    Error(ErrorCode),
}

impl Response {
    /// For a multi: the first real error, which a client library throws.
    pub fn multi_error(&self) -> Option<ErrorCode> {
        let Response::Multi(results) = self else {
            return None;
        };
        results.iter().find_map(|r| match r {
            MultiResult::Error(e) if *e != ErrorCode::RolledBack => Some(*e),
            _ => None,
        })
    }
}

/// The client's watch tables, sent on reconnect (`SetWatches`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ClientWatches {
    pub data: Vec<String>,
    pub exist: Vec<String>,
    pub child: Vec<String>,
}

/// Everything that can happen to the server.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Input {
    /// A new client connects and asks for a session with this timeout.
    Connect {
        timeout_ms: u64,
    },
    /// A client reconnects to its existing session and re-sends its watches.
    Reconnect {
        session: SessionId,
        last_zxid: Zxid,
        watches: ClientWatches,
    },
    /// The server notices the connection is gone (its watches go with it; the session stays).
    Disconnect {
        session: SessionId,
    },
    /// Graceful close (`closeSession` from the client).
    Close {
        session: SessionId,
    },
    /// Expire the session now, as its timer would.
    Expire {
        session: SessionId,
    },
    Ping {
        session: SessionId,
    },
    Request {
        session: SessionId,
        xid: i32,
        request: Request,
    },
    /// Only the clock moves (expire due sessions, reap containers).
    Tick,
}

/// Everything the server sends or does that someone can observe.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Output {
    /// Connect reply. For a new session `zxid` is its createSession transaction.
    Connected {
        session: SessionId,
        timeout_ms: u64,
        zxid: Zxid,
        new_session: bool,
    },
    /// Reconnect refused: the session no longer exists (the client learns `Expired`).
    ConnectRejected {
        session: SessionId,
    },
    /// A reply; `zxid` is the reply header's zxid.
    Reply {
        session: SessionId,
        xid: i32,
        zxid: Zxid,
        result: Result<Response, ErrorCode>,
    },
    /// A watch notification.
    Notify {
        session: SessionId,
        event: WatchedEvent,
    },
    Pong {
        session: SessionId,
        zxid: Zxid,
    },
    /// The closeSession transaction ran (close or expiry) and deleted these ephemerals.
    SessionEnded {
        session: SessionId,
        zxid: Zxid,
        expired: bool,
        deleted: Vec<String>,
    },
    /// The container manager deleted an empty container.
    ContainerReaped {
        path: String,
        zxid: Zxid,
    },
}

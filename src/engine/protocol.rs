//! What goes into and comes out of the server: requests, responses, inputs and outputs.

use serde::{Deserialize, Serialize};

use super::types::{CreateMode, ErrorCode, SessionId, Stat, WatchedEvent, Zxid};

/// Node data: `None` is Java `null` (dataLength 0, getData returns null).
pub type Data = Option<Vec<u8>>;

/// A client request (the operations a lock needs; the [`Opcode`] it travels with is the
/// client's choice, see [`Request::opcode`]).
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
    /// `checkWatches` (opcode 17): is there a watch of this type on the path (3.8.0: any
    /// session's)? Leaves it in place.
    CheckWatches {
        path: String,
        kind: WatcherType,
    },
    /// `removeWatches` (opcode 18): removes this session's watches of this type on the path.
    RemoveWatches {
        path: String,
        kind: WatcherType,
    },
}

/// The watcher type of `checkWatches` / `removeWatches` (wire values 1, 2, 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum WatcherType {
    Children,
    Data,
    Any,
}

impl WatcherType {
    pub fn name(self) -> &'static str {
        match self {
            WatcherType::Children => "children",
            WatcherType::Data => "data",
            WatcherType::Any => "any",
        }
    }
}

/// A request's wire opcode. The server answers `create` and `create2` alike except that only
/// `create2` returns the Stat (likewise `getChildren` / `getChildren2`); a container is created
/// with `createContainer`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Opcode {
    Create,
    Delete,
    Exists,
    GetData,
    SetData,
    GetChildren,
    Sync,
    GetChildren2,
    Check,
    Multi,
    Create2,
    CheckWatches,
    RemoveWatches,
    CreateContainer,
}

impl Opcode {
    /// The name ZooKeeper's `ZooDefs.OpCode` gives it.
    pub fn name(self) -> &'static str {
        match self {
            Opcode::Create => "create",
            Opcode::Delete => "delete",
            Opcode::Exists => "exists",
            Opcode::GetData => "getData",
            Opcode::SetData => "setData",
            Opcode::GetChildren => "getChildren",
            Opcode::Sync => "sync",
            Opcode::GetChildren2 => "getChildren2",
            Opcode::Check => "check",
            Opcode::Multi => "multi",
            Opcode::Create2 => "create2",
            Opcode::CheckWatches => "checkWatches",
            Opcode::RemoveWatches => "removeWatches",
            Opcode::CreateContainer => "createContainer",
        }
    }

    /// Whether the reply carries the Stat (`create2`, `createContainer`, `getChildren2`).
    pub fn with_stat(self) -> bool {
        !matches!(self, Opcode::Create | Opcode::GetChildren)
    }
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

    /// The opcode a client sends this request with by default: `create2` and `getChildren2`
    /// (the forms that return a Stat), `createContainer` for a container.
    pub fn opcode(&self) -> Opcode {
        match self {
            Request::Create {
                mode: CreateMode::Container,
                ..
            } => Opcode::CreateContainer,
            Request::Create { .. } => Opcode::Create2,
            Request::Delete { .. } => Opcode::Delete,
            Request::Exists { .. } => Opcode::Exists,
            Request::GetData { .. } => Opcode::GetData,
            Request::SetData { .. } => Opcode::SetData,
            Request::GetChildren { .. } => Opcode::GetChildren2,
            Request::Sync { .. } => Opcode::Sync,
            Request::Check { .. } => Opcode::Check,
            Request::Multi(_) => Opcode::Multi,
            Request::CheckWatches { .. } => Opcode::CheckWatches,
            Request::RemoveWatches { .. } => Opcode::RemoveWatches,
        }
    }

    /// The default opcode's name, for logs and message labels.
    pub fn opcode_name(&self) -> &'static str {
        self.opcode().name()
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
    /// `checkWatches` / `removeWatches` found what they looked for.
    Watches,
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

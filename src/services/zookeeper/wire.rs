//! What travels between a ZooKeeper client library and the server, what the library hands its
//! recipe, and the short labels the stage and the sequence diagram show.

use serde::{Deserialize, Serialize};

use crate::engine::{
    ClientWatches, ErrorCode, Opcode, Output, Request, Response, SessionId, WatchedEvent, Zxid,
};

/// Client → ZooKeeper.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Up {
    Connect {
        timeout_ms: u64,
    },
    Reconnect {
        session: SessionId,
        last_zxid: Zxid,
        watches: ClientWatches,
    },
    Request {
        xid: i32,
        request: Request,
        /// The opcode the client sent it with (`create` or `create2`, …).
        op: Opcode,
    },
    Ping,
    Close,
}

/// ZooKeeper → client (server outputs, plus the connection being closed under it).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Down {
    Output(Output),
    /// The reply to a request sent with this opcode.
    Reply(Opcode, Output),
    /// The server closed the connection (the session ended while the client was away).
    ConnectionClosed,
    /// The connection broke in transit (a reply was lost with it).
    ConnectionLost,
    /// The reply to a graceful close.
    Closed,
}

/// What a recipe asks the ZooKeeper library for: a request, sent with this opcode.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Call {
    pub request: Request,
    pub op: Opcode,
}

impl From<Request> for Call {
    /// The request with the opcode a client uses by default (`create2`, `getChildren2`, …).
    fn from(request: Request) -> Call {
        Call {
            op: request.opcode(),
            request,
        }
    }
}

/// What the library hands the recipe: a reply matched to its request, or a watch event.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Answer {
    Reply {
        request: Request,
        result: Result<Response, ErrorCode>,
    },
    Event(WatchedEvent),
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
        | Request::Check { path, .. }
        | Request::CheckWatches { path, .. }
        | Request::RemoveWatches { path, .. } => path,
        Request::Multi(_) => "",
    }
}

impl Up {
    /// A short label for message arrows ("create2 /locks/lock-").
    pub fn label(&self) -> String {
        match self {
            Up::Connect { .. } => "connect".into(),
            Up::Reconnect { .. } => "reconnect".into(),
            Up::Request { request, op, .. } => format!("{} {}", op.name(), request_path(request)),
            Up::Ping => "ping".into(),
            Up::Close => "close".into(),
        }
    }

    pub fn is_request(&self) -> bool {
        matches!(self, Up::Request { .. })
    }

    pub fn is_heartbeat(&self) -> bool {
        matches!(self, Up::Ping)
    }
}

impl Down {
    pub fn label(&self) -> String {
        match self {
            Down::Output(o) | Down::Reply(_, o) => output_label(o),
            // Not ZooKeeper messages: the TCP connection ends (the server closes it, or it
            // breaks with a lost reply).
            Down::ConnectionClosed => "FIN".into(),
            Down::ConnectionLost => "RST".into(),
            Down::Closed => "closeSession".into(),
        }
    }

    /// A watch notification (not the answer to a request).
    pub fn is_event(&self) -> bool {
        matches!(
            self,
            Down::Output(Output::Notify { .. }) | Down::Reply(_, Output::Notify { .. })
        )
    }

    /// The answer to a request (what a "lost reply" fault loses).
    pub fn is_reply(&self) -> bool {
        matches!(self, Down::Output(Output::Reply { .. }) | Down::Reply(..))
    }

    pub fn is_heartbeat(&self) -> bool {
        matches!(self, Down::Output(Output::Pong { .. }))
    }

    /// A reply lost in transit takes its TCP connection with it.
    pub fn lost_with_connection() -> Option<Down> {
        Some(Down::ConnectionLost)
    }
}

fn output_label(o: &Output) -> String {
    match o {
        Output::Connected { .. } => "connected".into(),
        Output::ConnectRejected { .. } => "session expired".into(),
        Output::Reply { result: Ok(_), .. } => "ok".into(),
        Output::Reply { result: Err(e), .. } => {
            e.kazoo_name().trim_end_matches("Error").to_string()
        }
        Output::Notify { event, .. } => format!("{} {}", event.kind.name(), event.path),
        Output::Pong { .. } => "pong".into(),
        Output::SessionEnded { .. } => "session ended".into(),
        Output::ContainerReaped { .. } => "container reaped".into(),
    }
}

//! ZooKeeper messages in full, field by field, as a learner inspects them and `lockstep run
//! --json` prints them: the opcode, the path, the create mode, the data, the watch flag, the
//! version, the result or error code, and what a reply carries.

use super::wire::{Down, Up};
use crate::engine::{CreateMode, ErrorCode, Output, Request, Response};
use crate::services::Wire;

fn mode(m: CreateMode) -> &'static str {
    match m {
        CreateMode::Persistent => "PERSISTENT",
        CreateMode::Ephemeral => "EPHEMERAL",
        CreateMode::PersistentSequential => "PERSISTENT_SEQUENTIAL",
        CreateMode::EphemeralSequential => "EPHEMERAL_SEQUENTIAL",
        CreateMode::Container => "CONTAINER",
        _ => "TTL",
    }
}

fn data(d: &Option<Vec<u8>>) -> String {
    match d {
        None => "null".into(),
        Some(b) => format!("\"{}\"", String::from_utf8_lossy(b)),
    }
}

/// A request's fields.
fn request(w: Wire, r: &Request) -> Wire {
    match r {
        Request::Create {
            path,
            data: d,
            mode: m,
        } => w
            .with("path", path)
            .with("mode", mode(*m))
            .with("data", data(d)),
        Request::Delete { path, version } | Request::Check { path, version } => {
            w.with("path", path).with("version", version.to_string())
        }
        Request::Exists { path, watch }
        | Request::GetData { path, watch }
        | Request::GetChildren { path, watch } => {
            w.with("path", path).with("watch", watch.to_string())
        }
        Request::SetData {
            path,
            data: d,
            version,
        } => w
            .with("path", path)
            .with("data", data(d))
            .with("version", version.to_string()),
        Request::Sync { path } => w.with("path", path),
        Request::CheckWatches { path, kind } | Request::RemoveWatches { path, kind } => {
            w.with("path", path).with("type", kind.name())
        }
        Request::Multi(ops) => w.with("ops", ops.len().to_string()),
    }
}

pub fn up(m: &Up) -> Wire {
    let w = Wire::default();
    match m {
        Up::Request {
            xid,
            request: r,
            op,
        } => request(w.with("op", op.name()).with("xid", xid.to_string()), r),
        Up::Connect { timeout_ms } => w
            .with("op", "connect")
            .with("timeout", format!("{timeout_ms} ms")),
        Up::Reconnect {
            session,
            last_zxid,
            watches,
        } => {
            let n = watches.data.len() + watches.exist.len() + watches.child.len();
            w.with("op", "connect")
                .with("session", session.to_string())
                .with("lastZxidSeen", last_zxid.to_string())
                .with("setWatches", n.to_string())
        }
        Up::Ping => w.with("op", "ping"),
        Up::Close => w.with("op", "closeSession"),
    }
}

fn result(w: Wire, r: &Result<Response, ErrorCode>) -> Wire {
    let r = match r {
        Err(e) => {
            return w
                .with("result", e.kazoo_name().trim_end_matches("Error"))
                .with("code", e.code().to_string())
        }
        // exists on a missing node: the header says NoNode; the client sees a null Stat.
        Ok(Response::Exists { stat: None }) => {
            return w.with("result", "NoNode").with("code", "-101")
        }
        Ok(r) => r,
    };
    let w = w.with("result", "ok");
    match r {
        Response::Create { path, stat } => w
            .with("created", path)
            .with("czxid", stat.czxid.to_string()),
        Response::GetChildren { children, .. } => {
            let n = super::narrate::LISTED_CHILDREN;
            match children.get(..n) {
                Some(first) if children.len() > n => w.with(
                    "children",
                    format!("{}, … ({} more)", first.join(", "), children.len() - n),
                ),
                _ => w.with("children", children.join(", ")),
            }
        }
        Response::Exists { stat: Some(s) } | Response::SetData { stat: s } => w
            .with("version", s.version.to_string())
            .with("czxid", s.czxid.to_string()),
        Response::GetData { data: d, stat } => w
            .with("data", data(d))
            .with("version", stat.version.to_string()),
        _ => w,
    }
}

pub fn down(m: &Down) -> Wire {
    let w = Wire::default();
    match m {
        Down::Reply(
            op,
            Output::Reply {
                xid,
                zxid,
                result: r,
                ..
            },
        ) => result(
            w.with("op", op.name())
                .with("xid", xid.to_string())
                .with("zxid", zxid.to_string()),
            r,
        ),
        Down::Reply(_, o) | Down::Output(o) => output(w, o),
        Down::ConnectionClosed => w
            .with("op", "FIN")
            .with("tcp", "the server closes the connection"),
        Down::ConnectionLost => w.with("op", "RST").with("tcp", "the connection breaks"),
        Down::Closed => w.with("op", "closeSession").with("result", "ok"),
    }
}

fn output(w: Wire, o: &Output) -> Wire {
    match o {
        Output::Connected {
            session,
            timeout_ms,
            new_session,
            ..
        } => w
            .with("op", "connected")
            .with("session", session.to_string())
            .with("timeout", format!("{timeout_ms} ms"))
            .with("new", new_session.to_string()),
        Output::ConnectRejected { session } => w
            .with("op", "connect")
            .with("session", session.to_string())
            .with("result", "SessionExpired"),
        Output::Reply {
            xid,
            zxid,
            result: r,
            ..
        } => result(
            w.with("xid", xid.to_string())
                .with("zxid", zxid.to_string()),
            r,
        ),
        Output::Notify { event, .. } => w
            .with("op", "notification")
            .with("type", event.kind.name())
            .with("path", &event.path),
        Output::Pong { zxid, .. } => w.with("op", "pong").with("zxid", zxid.to_string()),
        Output::SessionEnded { .. } | Output::ContainerReaped { .. } => {
            w.with("op", "session ended")
        }
    }
}

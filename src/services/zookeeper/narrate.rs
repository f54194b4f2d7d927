//! What the ZooKeeper server did, and what its client heard, in one sentence each.

use super::wire::{Down, Up};
use crate::engine::{ErrorCode, Output, Request, Response, SessionId};
use crate::narrate::{Detail, Key, Narration};
use crate::services::api::ConnId;

fn error(e: &ErrorCode) -> Detail {
    Detail::Error(e.kazoo_name().trim_end_matches("Error").to_string())
}

/// The most children a step's record names: a history keeps every step, and a thousand
/// waiters listing a thousand children each would keep a million names.
pub const LISTED_CHILDREN: usize = 32;

/// A getChildren answer in a record: every name, or the first [`LISTED_CHILDREN`] and a count.
fn children_detail(children: &[String]) -> Detail {
    match children.get(..LISTED_CHILDREN) {
        Some(first) if children.len() > LISTED_CHILDREN => {
            Detail::ChildrenCut(first.to_vec(), children.len() - LISTED_CHILDREN)
        }
        _ => Detail::Children(children.to_vec()),
    }
}

/// What the server did with a request, in a few words.
pub fn result_detail(request: &Request, result: &Result<Response, ErrorCode>, zxid: i64) -> Detail {
    match (request, result) {
        (_, Err(e)) => error(e),
        (_, Ok(Response::Create { path, .. })) => Detail::Created {
            path: path.clone(),
            zxid,
        },
        (_, Ok(Response::Delete)) => Detail::Deleted { zxid },
        (Request::Exists { watch, .. }, Ok(Response::Exists { stat })) => Detail::Exists {
            found: stat.is_some(),
            watch: *watch,
        },
        (Request::GetData { watch, .. }, Ok(Response::GetData { .. })) => {
            Detail::Data { watch: *watch }
        }
        (_, Ok(Response::GetChildren { children, .. })) => children_detail(children),
        (_, Ok(Response::Sync { .. })) => Detail::Synced,
        (_, Ok(_)) => Detail::Ok,
    }
}

/// Narration of a message from connection `c` (bound to `session`) arriving at the server.
pub fn at_service(c: ConnId, session: Option<SessionId>, m: &Up, outputs: &[Output]) -> Narration {
    let reply = outputs.iter().find_map(|o| match o {
        Output::Reply { zxid, result, .. } => Some((*zxid, result.clone())),
        _ => None,
    });
    match m {
        Up::Request { request, .. } => {
            let (zxid, result) = reply.unwrap_or((0, Err(ErrorCode::SessionExpired)));
            Narration::new(Key::RequestArrives, Some(c))
                .a(m.label())
                .b(result_detail(request, &result, zxid))
        }
        Up::Connect { .. } => match outputs.iter().find_map(|o| match o {
            Output::Connected {
                session,
                timeout_ms,
                ..
            } => Some((*session, *timeout_ms)),
            _ => None,
        }) {
            Some((s, t)) => Narration::new(Key::ConnectArrives, Some(c))
                .a(s.to_string())
                .n(t as i64),
            None => Narration::new(Key::ServiceTick, None),
        },
        Up::Reconnect { session, .. } => {
            let alive = outputs
                .iter()
                .any(|o| matches!(o, Output::Connected { .. }));
            let d = if alive {
                Detail::StillAlive
            } else {
                Detail::SessionGone
            };
            Narration::new(Key::ReconnectArrives, Some(c))
                .a(session.to_string())
                .b(d)
        }
        Up::Ping => Narration::new(Key::PingArrives, Some(c)).a(session_name(session)),
        Up::Close => Narration::new(Key::CloseArrives, Some(c))
            .a(session_name(session))
            .b(Detail::Nodes(ended_nodes(outputs))),
    }
}

fn session_name(s: Option<SessionId>) -> String {
    s.map(|s| s.to_string()).unwrap_or_default()
}

fn ended_nodes(outputs: &[Output]) -> Vec<String> {
    outputs
        .iter()
        .flat_map(|o| match o {
            Output::SessionEnded { deleted, .. } => deleted.clone(),
            _ => Vec::new(),
        })
        .collect()
}

/// Narration of a message from the server arriving at client `c`.
pub fn at_client(c: ConnId, m: &Down) -> Narration {
    match m {
        Down::Reply(op, Output::Reply { zxid, result, .. }) => {
            reply(c, op.name().into(), *zxid, result)
        }
        Down::Output(Output::Reply { zxid, result, .. }) => {
            reply(c, reply_subject(result), *zxid, result)
        }
        Down::Reply(_, o) => at_client(c, &Down::Output(o.clone())),
        Down::Output(Output::Notify { event, .. }) => Narration::new(Key::EventArrives, Some(c))
            .a(format!("{} {}", event.kind.name(), event.path)),
        Down::Output(Output::Connected {
            new_session: false, ..
        }) => Narration::new(Key::SessionNews, Some(c)).a("SyncConnected"),
        Down::Output(Output::Connected { session, .. }) => {
            Narration::new(Key::SessionNews, Some(c)).a(format!("SyncConnected {session}"))
        }
        Down::Output(Output::ConnectRejected { .. }) => {
            Narration::new(Key::SessionNews, Some(c)).a("Expired")
        }
        Down::Output(_) => Narration::new(Key::PongArrives, Some(c)),
        Down::ConnectionClosed | Down::ConnectionLost => {
            Narration::new(Key::SessionNews, Some(c)).a("Disconnected")
        }
        Down::Closed => Narration::new(Key::SessionNews, Some(c)).a("Closed"),
    }
}

/// The answer to a request (named by its opcode) reaches the client.
fn reply(c: ConnId, subject: String, zxid: i64, result: &Result<Response, ErrorCode>) -> Narration {
    let d = match result {
        Err(e) => error(e),
        Ok(Response::Create { path, .. }) => Detail::Created {
            path: path.clone(),
            zxid,
        },
        Ok(Response::GetChildren { children, .. }) => children_detail(children),
        Ok(Response::Exists { stat }) => Detail::Exists {
            found: stat.is_some(),
            watch: false,
        },
        Ok(_) => Detail::Ok,
    };
    Narration::new(Key::ReplyArrives, Some(c)).a(subject).b(d)
}

fn reply_subject(result: &Result<Response, ErrorCode>) -> String {
    match result {
        Ok(Response::Create { .. }) => "create2",
        Ok(Response::Delete) => "delete",
        Ok(Response::Exists { .. }) => "exists",
        Ok(Response::GetData { .. }) => "getData",
        Ok(Response::GetChildren { .. }) => "getChildren2",
        Ok(_) => "request",
        Err(_) => "its request",
    }
    .into()
}

/// Narration of sessions the server expired on its own clock (`owner`: whose session).
pub fn expiry(outputs: &[Output], owner: impl Fn(SessionId) -> Option<ConnId>) -> Narration {
    for o in outputs {
        if let Output::SessionEnded {
            session,
            zxid,
            deleted,
            ..
        } = o
        {
            let c = owner(*session);
            return Narration::new(Key::SessionExpires, c)
                .a(session.to_string())
                .n(*zxid)
                .b(Detail::Nodes(deleted.clone()));
        }
    }
    Narration::new(Key::ServiceTick, None)
}

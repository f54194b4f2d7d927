//! ZooKeeper as a lock service: the engine's standalone server behind the common interface.
//! The adapter binds each connection to the session its handshake gave it (so requests,
//! replies, watch events and session ends reach the right client), narrates what the server
//! did, and shows the znode tree as typed rows. The client library is [`client::ZkClient`].

pub mod client;
mod fields;
mod narrate;
mod owners;
pub mod rows;
pub mod wire;

pub use client::ZkClient as Lib;
pub use rows::Znode as Entry;
pub use wire::{Answer, Call, Down, Up};

/// How the view presents ZooKeeper.
pub const LOOK: super::look::Look = super::look::Look {
    product: "ZooKeeper 3.8",
    contents: None,
    entry: ["node", "节点"],
    ttl: |_| None,
    end_session: Some("act.expire"),
    lane: "ZK",
    lean: true,
};

pub fn service(cfg: &ServiceConfig) -> Server {
    Server::new(cfg)
}

pub fn lib(cfg: &ServiceConfig) -> Lib {
    let mut lib = Lib::new(cfg.session_timeout);
    lib.lost_after_timeout = cfg.lost_after_timeout;
    lib
}

use crate::engine::{
    CreateMode, Input, NodeKind, Opcode, Output, Request, ServerConfig, SessionId, WatchTable,
};
use crate::narrate::{Key, Narration};
use crate::services::api::{
    Claim, ConnId, Failover, LockService, Outbox, ServiceConfig, Tick, Watch,
};
use owners::SessionOwners;

/// The ZooKeeper service: the server and which connection each session was given to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Server {
    pub server: crate::engine::Server,
    owners: SessionOwners,
    /// The session each connection's handshake bound it to.
    bound: Vec<Option<SessionId>>,
}

type Out = Outbox<Down>;

/// Only the server is hashed (the exhaustive search's fingerprint): which connection holds which
/// session follows from the clients' own libraries.
impl std::hash::Hash for Server {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.server.hash(h);
    }
}

impl Server {
    pub fn new(cfg: &ServiceConfig) -> Server {
        let mut server = crate::engine::Server::new(ServerConfig {
            tick_time_ms: cfg.tick_time,
            container_check_ms: None,
        });
        if let Some(dir) = &cfg.lock_dir {
            precreate(&mut server, dir);
        }
        Server {
            server,
            owners: SessionOwners::default(),
            bound: Vec::new(),
        }
    }

    /// The connection a session belongs to.
    pub fn owner_of(&self, s: SessionId) -> Option<ConnId> {
        self.owners.get(s)
    }

    fn session_of(&self, conn: ConnId) -> Option<SessionId> {
        self.bound.get(conn).copied().flatten()
    }

    fn bind(&mut self, conn: ConnId, s: SessionId) {
        if conn >= self.bound.len() {
            self.bound.resize(conn + 1, None);
        }
        self.bound[conn] = Some(s);
        self.owners.insert(s, conn);
    }

    /// Sends the server's outputs where they belong.
    /// Sends the server's outputs where they belong; a reply goes out tagged with the opcode
    /// of the request it answers (`op`).
    fn route(
        &mut self,
        sender: Option<ConnId>,
        op: Option<Opcode>,
        outputs: Vec<Output>,
        out: &mut Out,
    ) {
        for o in outputs {
            let (to, msg) = match &o {
                Output::Connected { session, .. } => {
                    let Some(c) = sender else { continue };
                    self.bind(c, *session);
                    (c, Down::Output(o))
                }
                Output::ConnectRejected { .. } => (sender.unwrap_or(0), Down::Output(o)),
                Output::Reply { session, .. }
                | Output::Notify { session, .. }
                | Output::Pong { session, .. } => {
                    let Some(c) = self.owners.get(*session) else {
                        continue;
                    };
                    if let Output::Notify { event, .. } = &o {
                        out.fired
                            .push((c, event.kind.name().to_string(), event.path.clone()));
                    }
                    match (&o, op) {
                        (Output::Reply { .. }, Some(op)) => (c, Down::Reply(op, o)),
                        _ => (c, Down::Output(o)),
                    }
                }
                Output::SessionEnded {
                    session,
                    expired,
                    deleted,
                    ..
                } => {
                    out.deleted.extend(deleted.iter().cloned());
                    let Some(c) = self.owners.get(*session) else {
                        continue;
                    };
                    (
                        c,
                        if *expired {
                            Down::ConnectionClosed
                        } else {
                            Down::Closed
                        },
                    )
                }
                Output::ContainerReaped { .. } => continue,
            };
            out.send(to, msg);
        }
    }
}

/// An operator created the lock directory before the run (one admin session: connect, create
/// it and its ancestors, close).
fn precreate(server: &mut crate::engine::Server, dir: &str) {
    let out = server.handle(0, Input::Connect { timeout_ms: 0 });
    let Some(Output::Connected { session, .. }) = out.into_iter().next() else {
        return;
    };
    let ends = dir
        .match_indices('/')
        .map(|(i, _)| i)
        .skip(1)
        .chain([dir.len()]);
    for (xid, end) in (1..).zip(ends) {
        let request = Request::Create {
            path: dir[..end].into(),
            data: Some(Vec::new()),
            mode: CreateMode::Persistent,
        };
        server.handle(
            0,
            Input::Request {
                session,
                xid,
                request,
            },
        );
    }
    server.handle(0, Input::Close { session });
}

impl LockService for Server {
    type Peer = crate::services::NoPeer;
    type Up = Up;
    type Down = Down;
    type Entry = Entry;

    fn receive(&mut self, now: Tick, conn: ConnId, m: Up, out: &mut Out) -> Narration {
        let session = self.session_of(conn);
        let live = session.is_some_and(|s| self.server.sessions().is_live(s));
        let input = match &m {
            Up::Connect { timeout_ms } => Input::Connect {
                timeout_ms: *timeout_ms,
            },
            Up::Reconnect {
                session,
                last_zxid,
                watches,
            } => Input::Reconnect {
                session: *session,
                last_zxid: *last_zxid,
                watches: watches.clone(),
            },
            _ if !live => return Narration::new(Key::ClosedConnection, Some(conn)).a(m.label()),
            Up::Request { xid, request, .. } => Input::Request {
                session: session.unwrap_or(SessionId(0)),
                xid: *xid,
                request: request.clone(),
            },
            Up::Ping => Input::Ping {
                session: session.unwrap_or(SessionId(0)),
            },
            Up::Close => Input::Close {
                session: session.unwrap_or(SessionId(0)),
            },
        };
        let outputs = self.server.handle(now, input);
        for o in &outputs {
            if let Output::Reply {
                result: Ok(crate::engine::Response::Create { path, .. }),
                ..
            } = o
            {
                out.created.push(path.clone());
            }
        }
        if let Up::Request {
            request: Request::Delete { path, .. },
            ..
        } = &m
        {
            if outputs
                .iter()
                .any(|o| matches!(o, Output::Reply { result: Ok(_), .. }))
            {
                out.deleted.push(path.clone());
            }
        }
        let n = narrate::at_service(conn, session, &m, &outputs);
        let op = match &m {
            Up::Request { op, .. } => Some(*op),
            _ => None,
        };
        self.route(Some(conn), op, outputs, out);
        n
    }

    /// The server drops the connection's watches; the session lives on until it times out.
    fn hangup(&mut self, now: Tick, conn: ConnId, _: &mut Out) -> Narration {
        if let Some(session) = self.session_of(conn) {
            self.server.handle(now, Input::Disconnect { session });
        }
        Narration::new(Key::SvcHangup, Some(conn))
    }

    fn next_deadline(&self) -> Option<Tick> {
        self.server.next_deadline()
    }

    /// The server's clock: expire due sessions.
    fn tick(&mut self, now: Tick, out: &mut Out) -> Narration {
        let outputs = self.server.handle(now, Input::Tick);
        let n = narrate::expiry(&outputs, |s| self.owners.get(s));
        self.route(None, None, outputs, out);
        n
    }

    fn expire(&mut self, now: Tick, claim: &Claim<'_>, out: &mut Out) -> Option<Narration> {
        let session = SessionId(claim.session?);
        let outputs = self.server.handle(now, Input::Expire { session });
        self.route(None, None, outputs, out);
        Some(Narration::new(Key::CmdExpire, Some(claim.conn)))
    }

    /// A ZooKeeper election is short next to the session timeout (a tick time here).
    fn failover(&mut self, _: Tick, _: &mut Out) -> Failover {
        Failover {
            key: Key::FailoverZk,
            stall: self.server.config().tick_time_ms,
        }
    }

    /// The client still owns its lock node through its current session.
    fn holds(&self, _: Tick, claim: &Claim<'_>) -> bool {
        let (Some(node), Some(session)) = (claim.node, claim.session) else {
            return false;
        };
        self.server
            .tree()
            .get(node)
            .is_some_and(|n| n.kind == NodeKind::Ephemeral(SessionId(session)))
    }

    fn session_entries(&self, session: u64) -> usize {
        self.server.tree().ephemeral_count(SessionId(session))
    }

    fn expires_in(&self, now: Tick, claim: &Claim<'_>) -> Option<i64> {
        let s = self.server.sessions().get(SessionId(claim.session?))?;
        Some(s.expires_at as i64 - now as i64)
    }

    fn watches(&self) -> Vec<Watch> {
        let tree = self.server.tree();
        self.server
            .watches()
            .all()
            .into_iter()
            .filter_map(|(table, path, s)| {
                let conn = self.owners.get(s)?;
                let on_missing = table == WatchTable::Data && tree.get(&path).is_none();
                Some(Watch {
                    conn,
                    path,
                    child: table == WatchTable::Child,
                    on_missing,
                })
            })
            .collect()
    }

    fn stamp(&self) -> Option<(&'static str, i64)> {
        Some(("zxid", self.server.last_zxid()))
    }

    /// The facts of [`LockService::progress`]'s default (each znode's path and owner, each
    /// watch as the stage shows it), straight from the tree and the watch tables: no rows,
    /// sorting or copies at every step of a thousand-client run.
    fn progress(&self, _: Tick, mut h: &mut dyn std::hash::Hasher) -> Option<Tick> {
        use std::hash::Hash;
        let tree = self.server.tree();
        for (path, node) in tree.iter() {
            if path == "/" || path == "/zookeeper" || path.starts_with("/zookeeper/") {
                continue;
            }
            let owner = match node.kind {
                NodeKind::Ephemeral(s) => Some(crate::services::api::Owner::Session(s.0)),
                _ => None,
            };
            // As a row: id, owner, never expiring, no row lock.
            (path, owner, false, None::<(ConnId, Vec<ConnId>)>).hash(&mut h);
        }
        for (table, path, s) in self.server.watches().iter() {
            let Some(conn) = self.owners.get(s) else {
                continue;
            };
            let on_missing = table == WatchTable::Data && tree.get(path).is_none();
            (conn, path, table == WatchTable::Child, on_missing).hash(&mut h);
        }
        None
    }

    fn up_label(m: &Up) -> String {
        m.label()
    }
    fn is_request(m: &Up) -> bool {
        m.is_request()
    }
    fn up_is_heartbeat(m: &Up) -> bool {
        m.is_heartbeat()
    }
    fn down_label(m: &Down) -> String {
        m.label()
    }
    fn is_event(m: &Down) -> bool {
        m.is_event()
    }
    fn is_reply(m: &Down) -> bool {
        m.is_reply()
    }
    fn down_is_heartbeat(m: &Down) -> bool {
        m.is_heartbeat()
    }
    fn lost_with_connection() -> Option<Down> {
        Down::lost_with_connection()
    }
    fn heard(c: ConnId, m: &Down) -> Narration {
        narrate::at_client(c, m)
    }
    fn up_wire(m: &Up) -> crate::services::Wire {
        fields::up(m)
    }
    fn down_wire(m: &Down) -> crate::services::Wire {
        fields::down(m)
    }

    /// The user's znodes (not `/zookeeper`), parents before children, siblings in sequence
    /// order.
    fn entries(&self, _: Tick) -> Vec<Entry> {
        rows::tree(&self.server)
    }
}

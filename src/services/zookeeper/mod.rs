//! ZooKeeper as a lock service: the engine's standalone server behind the common interface.
//! The adapter binds each connection to the session its handshake gave it (so requests,
//! replies, watch events and session ends reach the right client), narrates what the server
//! did, and shows the znode tree as typed rows. The client library is [`client::ZkClient`].

pub mod client;
#[cfg(feature = "services")]
pub mod ensemble;
mod fields;
mod narrate;
#[cfg(not(feature = "services"))]
mod no_ensemble;
mod owners;
pub mod rows;
mod service;
pub mod wire;

// The lean bundle has no ensemble: a run with several servers hands over to the full one.
#[cfg(not(feature = "services"))]
use no_ensemble as ensemble;

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
    znodes: true,
    peers: true,
    library_wait: 0,
};

pub fn service(cfg: &ServiceConfig) -> Server {
    Server::new(cfg)
}

pub fn lib(cfg: &ServiceConfig) -> Lib {
    let mut lib = Lib::new(cfg.session_timeout);
    lib.lost_after_timeout = cfg.lost_after_timeout;
    lib.backoff_after_pass = cfg.backoff_after_pass;
    lib.drops_watches = cfg.kazoo;
    // A ZooKeeper tick is 2000 ms in the recordings' configuration.
    lib.tick_ms = 2000 / cfg.tick_time.max(1);
    lib
}

use crate::engine::{CreateMode, Input, Opcode, Output, Request, ServerConfig, SessionId};
use crate::services::api::{ConnId, Outbox, ServiceConfig};
use owners::SessionOwners;

/// The ZooKeeper service: the server and which connection each session was given to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Server {
    pub server: crate::engine::Server,
    owners: SessionOwners,
    /// The session each connection's handshake bound it to.
    bound: Vec<Option<SessionId>>,
    /// An ensemble of several servers, when the run has one (the standalone server above is
    /// then unused; the lean bundle has none).
    pub ensemble: Option<Box<ensemble::Ensemble>>,
}

type Out = Outbox<Down, ensemble::zab::Zab>;

/// The server or the ensemble is hashed (the exhaustive search's fingerprint); which
/// connection holds which session follows from the clients' own libraries, and an ensemble
/// never touches the standalone server.
impl std::hash::Hash for Server {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        match &self.ensemble {
            Some(e) => e.hash(h),
            None => self.server.hash(h),
        }
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
            ensemble: ensemble::Ensemble::from_config(cfg),
        }
    }

    /// The connection a session belongs to.
    pub fn owner_of(&self, s: SessionId) -> Option<ConnId> {
        match &self.ensemble {
            Some(e) => e.owner(s),
            None => self.owners.get(s),
        }
    }

    pub(crate) fn session_of(&self, conn: ConnId) -> Option<SessionId> {
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
    pub(crate) fn route(
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

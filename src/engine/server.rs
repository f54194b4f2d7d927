//! The server state machine: `Server::handle(now, input)` is the one place state changes.
//! Time first (due sessions expire, containers are reaped), then the input; outputs come back in
//! the order a real server would send them (a write's notifications before its reply).

use serde::{Deserialize, Serialize};

use super::apply::Applier;
use super::prep::{Pending, Txn};
use super::protocol::{ClientWatches, Input, Output, Request, Response};
use super::session::SessionTracker;
use super::tree::DataTree;
use super::types::{ErrorCode, EventType, SessionId, Time, WatchedEvent, Zxid};
use super::watch::{WatchTable, Watches};

/// Server settings (`zoo.cfg` and system properties that matter here).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ServerConfig {
    /// tickTime in logical ms: sessions are clamped to 2–20 ticks and expire on tick boundaries.
    pub tick_time_ms: u64,
    /// Container reaping period; `None` (the default here) never reaps.
    pub container_check_ms: Option<u64>,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            tick_time_ms: 2000,
            container_check_ms: None,
        }
    }
}

/// A standalone ZooKeeper 3.8 server.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Server {
    pub(super) tree: DataTree,
    pub(super) sessions: SessionTracker,
    pub(super) watches: Watches,
    /// The last zxid handed out, and the last one applied (they differ only after a request
    /// failed before its transaction was built).
    pub(super) zxid_counter: Zxid,
    pub(super) last_zxid: Zxid,
    pub(super) now: Time,
    /// Whether this server expires sessions on its own (standalone). A server of an ensemble
    /// does not: its leader proposes a closeSession transaction instead.
    pub(super) expiring: bool,
    next_reap_at: Option<Time>,
    config: ServerConfig,
}

impl Default for Server {
    fn default() -> Self {
        Self::new(ServerConfig::default())
    }
}

impl Server {
    pub fn new(config: ServerConfig) -> Self {
        Server {
            tree: DataTree::new(),
            sessions: SessionTracker::new(config.tick_time_ms),
            watches: Watches::default(),
            zxid_counter: 0,
            last_zxid: 0,
            now: 0,
            expiring: true,
            next_reap_at: config.container_check_ms,
            config,
        }
    }

    pub fn tree(&self) -> &DataTree {
        &self.tree
    }
    pub fn sessions(&self) -> &SessionTracker {
        &self.sessions
    }
    pub fn watches(&self) -> &Watches {
        &self.watches
    }
    pub fn last_zxid(&self) -> Zxid {
        self.last_zxid
    }
    pub fn now(&self) -> Time {
        self.now
    }
    pub fn config(&self) -> ServerConfig {
        self.config
    }
    /// Bookkeeping entries looked at so far (sessions checked for expiry, watches searched when
    /// a session went): what tests bound by the number of inputs.
    pub fn work(&self) -> u64 {
        self.sessions.work() + self.watches.work()
    }

    /// Test/benchmark hook: force a parent's hidden create counter (to reach overflow).
    pub fn force_create_counter(&mut self, path: &str, counter: i32) {
        self.tree.force_create_counter(path, counter);
    }

    /// The next time at which the server will act on its own (expiry or reaping).
    pub fn next_deadline(&self) -> Option<Time> {
        let sessions = self.sessions.next_deadline().filter(|_| self.expiring);
        match (sessions, self.next_reap_at) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The only entry point that changes state.
    pub fn handle(&mut self, now: Time, input: Input) -> Vec<Output> {
        let mut out = Vec::new();
        self.advance(now, &mut out);
        match input {
            Input::Connect { timeout_ms } => self.connect(timeout_ms, &mut out),
            Input::Reconnect {
                session,
                last_zxid,
                watches,
            } => self.reconnect(session, last_zxid, watches, &mut out),
            Input::Disconnect { session } => self.watches.remove_session(session),
            Input::Close { session } => self.end_session(session, false, &mut out),
            Input::Expire { session } => self.end_session(session, true, &mut out),
            Input::Ping { session } => self.ping(session, &mut out),
            Input::Request {
                session,
                xid,
                request,
            } => self.request(session, xid, request, &mut out),
            Input::Tick => {}
        }
        out
    }

    fn next_zxid(&mut self) -> Zxid {
        self.zxid_counter += 1;
        self.last_zxid = self.zxid_counter;
        self.last_zxid
    }

    fn advance(&mut self, now: Time, out: &mut Vec<Output>) {
        self.now = self.now.max(now);
        if self.expiring {
            for session in self.sessions.due(self.now) {
                self.end_session(session, true, out);
            }
        }
        while let Some(at) = self.next_reap_at.filter(|at| *at <= self.now) {
            self.reap_containers(out);
            self.next_reap_at = self.config.container_check_ms.map(|p| at + p.max(1));
        }
    }

    fn connect(&mut self, timeout_ms: u64, out: &mut Vec<Output>) {
        let session = self.sessions.create(timeout_ms, self.now);
        let zxid = self.next_zxid();
        out.push(Output::Connected {
            session: session.id,
            timeout_ms: session.timeout_ms,
            zxid,
            new_session: true,
        });
    }

    /// Reconnect within the timeout re-registers the client's watches (`DataTree.setWatches`),
    /// firing at once those whose node changed after `last_zxid`.
    fn reconnect(
        &mut self,
        session: SessionId,
        last_zxid: Zxid,
        watches: ClientWatches,
        out: &mut Vec<Output>,
    ) {
        if !self.sessions.touch(session, self.now) {
            out.push(Output::ConnectRejected { session });
            return;
        }
        self.watches.remove_session(session);
        let timeout_ms = self.sessions.get(session).map_or(0, |s| s.timeout_ms);
        out.push(Output::Connected {
            session,
            timeout_ms,
            zxid: self.last_zxid,
            new_session: false,
        });
        for path in watches.data {
            let fired = match self.tree.get(&path) {
                None => Some(EventType::NodeDeleted),
                Some(n) if n.mzxid > last_zxid => Some(EventType::NodeDataChanged),
                Some(_) => None,
            };
            self.rewatch(session, WatchTable::Data, path, fired, out);
        }
        for path in watches.exist {
            let fired = self.tree.get(&path).map(|_| EventType::NodeCreated);
            self.rewatch(session, WatchTable::Data, path, fired, out);
        }
        for path in watches.child {
            let fired = match self.tree.get(&path) {
                None => Some(EventType::NodeDeleted),
                Some(n) if n.pzxid > last_zxid => Some(EventType::NodeChildrenChanged),
                Some(_) => None,
            };
            self.rewatch(session, WatchTable::Child, path, fired, out);
        }
    }

    fn rewatch(
        &mut self,
        session: SessionId,
        table: WatchTable,
        path: String,
        fired: Option<EventType>,
        out: &mut Vec<Output>,
    ) {
        match fired {
            Some(kind) => out.push(Output::Notify {
                session,
                event: WatchedEvent { kind, path },
            }),
            None => self.watches.add(table, &path, session),
        }
    }

    fn ping(&mut self, session: SessionId, out: &mut Vec<Output>) {
        if self.sessions.touch(session, self.now) {
            out.push(Output::Pong {
                session,
                zxid: self.last_zxid,
            });
        }
    }

    /// close and expiry: one closeSession txn deletes every ephemeral in Java hash-set order.
    /// An expired session's connection is already gone, so it hears nothing; a closing one
    /// still receives the notifications its own close causes.
    fn end_session(&mut self, session: SessionId, expired: bool, out: &mut Vec<Output>) {
        if !self.sessions.is_live(session) {
            return;
        }
        let zxid = self.next_zxid();
        self.close_session_at(session, zxid, expired, out);
    }

    /// The closeSession transaction at `zxid`: every ephemeral of the session goes, in Java
    /// hash-set order, and the session with them.
    pub(super) fn close_session_at(
        &mut self,
        session: SessionId,
        zxid: Zxid,
        expired: bool,
        out: &mut Vec<Output>,
    ) {
        self.sessions.set_closing(session);
        if expired {
            self.watches.remove_session(session);
        }
        let paths = self.tree.ephemerals_in_close_order(session);
        let mut applier = Applier {
            tree: &mut self.tree,
            watches: &mut self.watches,
            zxid,
            now: self.now,
            out,
        };
        for p in &paths {
            applier.delete(p);
        }
        self.tree.forget_session(session);
        self.sessions.remove(session);
        self.watches.remove_session(session);
        out.push(Output::SessionEnded {
            session,
            zxid,
            expired,
            deleted: paths,
        });
    }

    fn reap_containers(&mut self, out: &mut Vec<Output>) {
        for path in self.tree.reapable_containers() {
            let zxid = self.next_zxid();
            let mut applier = Applier {
                tree: &mut self.tree,
                watches: &mut self.watches,
                zxid,
                now: self.now,
                out,
            };
            applier.delete(&path);
            out.push(Output::ContainerReaped { path, zxid });
        }
    }

    fn request(&mut self, session: SessionId, xid: i32, request: Request, out: &mut Vec<Output>) {
        if !self.sessions.touch(session, self.now) {
            let zxid = self.last_zxid;
            out.push(Output::Reply {
                session,
                xid,
                zxid,
                result: Err(ErrorCode::SessionExpired),
            });
            return;
        }
        let (zxid, result) = if request.is_write() {
            self.write(session, &request, out)
        } else {
            (self.last_zxid, self.read(session, request))
        };
        out.push(Output::Reply {
            session,
            xid,
            zxid,
            result,
        });
    }

    /// Every write takes a zxid before validation, so failed writes consume one too.
    ///
    /// An empty path reaches the server as a null string (kazoo, and so the recordings, send ""
    /// as null): create and delete then fail with MarshallingError in their own transaction; a
    /// multi fails while being read, after taking a zxid but before any transaction is applied.
    fn write(
        &mut self,
        session: SessionId,
        request: &Request,
        out: &mut Vec<Output>,
    ) -> (Zxid, Result<Response, ErrorCode>) {
        if let Request::Multi(ops) = request {
            if ops.iter().any(|op| multi_op_path(op).is_empty()) {
                self.zxid_counter += 1;
                return (self.last_zxid, Err(ErrorCode::Marshalling));
            }
        }
        let zxid = self.next_zxid();
        if matches!(request, Request::Create { path, .. } | Request::Delete { path, .. } if path.is_empty())
        {
            return (zxid, Err(ErrorCode::Marshalling));
        }
        let txn = prepare(&self.tree, session, request);
        let mut applier = Applier {
            tree: &mut self.tree,
            watches: &mut self.watches,
            zxid,
            now: self.now,
            out,
        };
        (zxid, applier.apply(txn))
    }
}

fn multi_op_path(op: &super::protocol::MultiOp) -> &str {
    use super::protocol::MultiOp;
    match op {
        MultiOp::Create { path, .. }
        | MultiOp::Delete { path, .. }
        | MultiOp::SetData { path, .. }
        | MultiOp::Check { path, .. } => path,
    }
}

pub(super) fn prepare(tree: &DataTree, session: SessionId, request: &Request) -> Txn {
    let mut p = Pending::new(tree, session);
    let result = match request {
        Request::Create { path, data, mode } => p.create(path, data.clone(), *mode),
        Request::Delete { path, version } => p.delete(path, *version),
        Request::SetData {
            path,
            data,
            version,
        } => p.set_data(path, data.clone(), *version),
        Request::Check { path, version } => p.check(path, *version),
        Request::Multi(ops) => Ok(p.multi(ops)),
        _ => Err(ErrorCode::BadArguments),
    };
    result.unwrap_or_else(Txn::Error)
}

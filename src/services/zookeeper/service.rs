//! The ZooKeeper service behind the common interface: the standalone server, or the ensemble
//! when the run has one (every call goes to it then).

use super::ensemble::zab::Zab;
use super::{fields, narrate, rows, Down, Entry, Server, Up};
use crate::engine::{Input, NodeKind, Output, Request, SessionId, WatchTable};
use crate::narrate::{Key, Narration};
use crate::services::api::{
    Claim, ConnId, Failover, LockService, Outbox, ServerId, ServerInfo, Tick, Watch,
};

type Out = Outbox<Down, Zab>;

impl LockService for Server {
    type Peer = Zab;
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
        if let Some(e) = &mut self.ensemble {
            let at = e.serving(conn);
            return e.hangup_at(at, conn);
        }
        if let Some(session) = self.session_of(conn) {
            self.server.handle(now, Input::Disconnect { session });
        }
        Narration::new(Key::SvcHangup, Some(conn))
    }

    fn next_deadline(&self) -> Option<Tick> {
        if let Some(e) = &self.ensemble {
            return e.next_deadline();
        }
        self.server.next_deadline()
    }

    /// In an ensemble, a server that is down refuses connections (its host is up).
    fn refusal(&self, _: ServerId) -> Option<Down> {
        self.ensemble.as_ref().map(|_| Down::ConnectionLost)
    }

    fn timeless_deadline(&self) -> Option<Tick> {
        self.ensemble.as_ref()?.timeless_deadline()
    }

    /// The server's clock: expire due sessions.
    fn tick(&mut self, now: Tick, out: &mut Out) -> Narration {
        if let Some(e) = &mut self.ensemble {
            return e.tick(now, out);
        }
        let outputs = self.server.handle(now, Input::Tick);
        let n = narrate::expiry(&outputs, |s| self.owners.get(s));
        self.route(None, None, outputs, out);
        n
    }

    fn expire(&mut self, now: Tick, claim: &Claim<'_>, out: &mut Out) -> Option<Narration> {
        let session = SessionId(claim.session?);
        if let Some(e) = &mut self.ensemble {
            return e.expire_now(now, session, claim.conn, out);
        }
        let outputs = self.server.handle(now, Input::Expire { session });
        self.route(None, None, outputs, out);
        Some(Narration::new(Key::CmdExpire, Some(claim.conn)))
    }

    /// A ZooKeeper election is short next to the session timeout (a tick time here).
    fn failover(&mut self, now: Tick, out: &mut Out) -> Failover {
        if let Some(e) = &mut self.ensemble {
            if let Some(l) = e.leader() {
                e.crash(now, l, out);
            }
            return Failover {
                key: Key::FailoverZab,
                stall: 0,
            };
        }
        Failover {
            key: Key::FailoverZk,
            stall: self.server.config().tick_time_ms,
        }
    }

    /// The client still owns its lock node through its current session.
    fn holds(&self, _: Tick, claim: &Claim<'_>) -> bool {
        if let Some(e) = &self.ensemble {
            return e.holds(claim);
        }
        let (Some(node), Some(session)) = (claim.node, claim.session) else {
            return false;
        };
        self.server
            .tree()
            .get(node)
            .is_some_and(|n| n.kind == NodeKind::Ephemeral(SessionId(session)))
    }

    fn session_entries(&self, session: u64) -> usize {
        if let Some(e) = &self.ensemble {
            return e.session_entries(session);
        }
        self.server.tree().ephemeral_count(SessionId(session))
    }

    fn expires_in(&self, now: Tick, claim: &Claim<'_>) -> Option<i64> {
        if let Some(e) = &self.ensemble {
            return e.expires_in(now, claim);
        }
        let s = self.server.sessions().get(SessionId(claim.session?))?;
        Some(s.expires_at as i64 - now as i64)
    }

    fn watches(&self) -> Vec<Watch> {
        if let Some(e) = &self.ensemble {
            return e.watches();
        }
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
        if let Some(e) = &self.ensemble {
            return Some(("zxid", e.stamp()));
        }
        Some(("zxid", self.server.last_zxid()))
    }

    /// The facts of [`LockService::progress`]'s default (each znode's path and owner, each
    /// watch as the stage shows it), straight from the tree and the watch tables: no rows,
    /// sorting or copies at every step of a thousand-client run.
    fn progress(&self, now: Tick, mut h: &mut dyn std::hash::Hasher) -> Option<Tick> {
        use std::hash::Hash;
        if let Some(e) = &self.ensemble {
            return progress_of(e, now, h);
        }
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

    fn receive_at(
        &mut self,
        now: Tick,
        at: ServerId,
        conn: ConnId,
        m: Up,
        out: &mut Out,
    ) -> Narration {
        match &mut self.ensemble {
            Some(e) => e.client(now, at, conn, m, out),
            None => self.receive(now, conn, m, out),
        }
    }

    fn hangup_at(&mut self, now: Tick, at: ServerId, conn: ConnId, out: &mut Out) -> Narration {
        match &mut self.ensemble {
            Some(e) => e.hangup_at(at, conn),
            None => self.hangup(now, conn, out),
        }
    }

    fn invariant(&self) -> Option<String> {
        self.ensemble.as_ref()?.invariant().map(str::to_string)
    }

    fn servers(&self) -> Vec<ServerInfo> {
        self.servers_of()
    }

    fn serving(&self, conn: ConnId) -> ServerId {
        self.ensemble.as_ref().map_or(0, |e| e.serving(conn))
    }

    fn peer(
        &mut self,
        now: Tick,
        from: ServerId,
        to: ServerId,
        msg: Zab,
        out: &mut Out,
    ) -> Narration {
        match &mut self.ensemble {
            Some(e) => e.on_peer(now, from, to, msg, out),
            None => Narration::new(Key::ServiceTick, None),
        }
    }

    /// The servers of an ensemble sit on one fast local network: a message between two of
    /// them takes one tick, whatever the clients' latency (a write through a follower makes
    /// four such hops; at the clients' latency a connect would outlast its own read timeout).
    fn peer_delay(&self, _: ServerId, _: ServerId) -> Option<Tick> {
        self.ensemble.as_ref().map(|_| 1)
    }

    fn peer_lost(&mut self, _: Tick, from: ServerId, to: ServerId, _: &Zab) {
        if let Some(e) = &mut self.ensemble {
            e.lost(from, to);
        }
    }

    fn crash_server(&mut self, now: Tick, s: ServerId, out: &mut Out) -> Option<Narration> {
        self.ensemble.as_mut()?.crash(now, s, out)
    }

    fn pause_server(&mut self, s: ServerId, until: Tick) {
        if let Some(e) = &mut self.ensemble {
            e.pause(s, until);
        }
    }

    fn restart_server(
        &mut self,
        now: Tick,
        s: ServerId,
        keep_disk: bool,
        out: &mut Out,
    ) -> Option<Narration> {
        self.ensemble.as_mut()?.restart(now, s, keep_disk, out)
    }

    fn peer_label(m: &Zab) -> String {
        m.label()
    }

    fn peer_is_heartbeat(m: &Zab) -> bool {
        m.is_heartbeat()
    }

    fn peer_wire(m: &Zab) -> crate::services::Wire {
        m.wire()
    }
    fn up_label(m: &Up) -> String {
        m.label()
    }
    fn is_request(m: &Up) -> bool {
        m.is_request()
    }
    fn is_handshake(m: &Up) -> bool {
        matches!(m, Up::Connect { .. } | Up::Reconnect { .. })
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
        if let Some(e) = &self.ensemble {
            return e.entries();
        }
        rows::tree(&self.server)
    }
}

/// The ensemble's part in the stuck monitor's fingerprint: the authoritative rows and the
/// watches, hashed as [`LockService::progress`]'s default does.
fn progress_of(
    e: &super::ensemble::Ensemble,
    _now: Tick,
    mut h: &mut dyn std::hash::Hasher,
) -> Option<Tick> {
    use crate::services::api::Row;
    use std::hash::Hash;
    for r in e.entries() {
        (r.id(), r.owner(), false, None::<(ConnId, Vec<ConnId>)>).hash(&mut h);
    }
    for w in e.watches() {
        (w.conn, w.path, w.child, w.on_missing).hash(&mut h);
    }
    for s in e.servers() {
        (s.id, s.role).hash(&mut h);
    }
    None
}

impl Server {
    fn servers_of(&self) -> Vec<ServerInfo> {
        match &self.ensemble {
            Some(e) => e.servers(),
            None => vec![ServerInfo::single()],
        }
    }
}

//! A client's messages at the server it is connected to: a new session and a close are
//! transactions the leader proposes; a write or `sync` is forwarded to the leader and the
//! session's later requests wait for it; a read is answered from this server's own tree; a
//! reconnect is refused by a server behind the client and otherwise revalidated by the leader.

use super::member::Queued;
use super::zab::{Ask, Origin, Zab};
use super::{Attach, Ensemble, Out};
use crate::engine::{ClientWatches, Input, Output, SessionId, Zxid};
use crate::narrate::{Detail, Key, Narration};
use crate::services::api::{ConnId, ServerId, Tick};
use crate::services::zookeeper::{Down, Up};

impl Ensemble {
    /// A message from connection `conn` reaches server `s`.
    pub fn client(
        &mut self,
        now: Tick,
        s: ServerId,
        conn: ConnId,
        m: Up,
        out: &mut Out,
    ) -> Narration {
        let label = m.label();
        self.wake(now, s, out);
        if !self.members[usize::from(s)].serving() {
            // Only its own socket closes: the client may be attached elsewhere by now.
            if self.open_at(s, conn).is_some() {
                self.conns.remove(&conn);
            }
            out.send_from(s, conn, Down::ConnectionLost);
            return Narration::new(Key::ZabNotServing, Some(conn))
                .a(self.name(s))
                .b(Detail::Text(label));
        }
        let origin = |xid, op| Origin {
            server: s,
            conn,
            xid,
            op,
        };
        match m {
            Up::Connect { timeout_ms } => {
                let session = self.m(s).new_session_id();
                let timeout_ms = self.m(s).db.sessions().negotiate(timeout_ms);
                self.attach(conn, s, None);
                let ask = Ask::Open {
                    session,
                    timeout_ms,
                };
                self.ask(now, s, origin(0, None), ask, out);
                Narration::new(Key::ConnectArrives, Some(conn))
                    .a(format!("0x{:x}", session.0))
                    .n(timeout_ms as i64)
            }
            Up::Reconnect {
                session,
                last_zxid,
                watches,
            } => self.reconnect(now, s, conn, session, last_zxid, watches, out),
            Up::Request { xid, request, op } => {
                let Some(session) = self.session_at(s, conn) else {
                    out.send_from(s, conn, Down::ConnectionLost);
                    return Narration::new(Key::ClosedConnection, Some(conn)).a(label);
                };
                let forwarded =
                    request.is_write() || matches!(request, crate::engine::Request::Sync { .. });
                let waiting = self
                    .m(s)
                    .queues
                    .get(&session)
                    .is_some_and(|q| !q.is_empty());
                if !forwarded && !waiting {
                    self.read_now(now, s, conn, session, xid, request, op, out);
                    return Narration::new(Key::RequestArrives, Some(conn)).a(label).b(
                        Detail::Words([
                            format!("answered by {}", self.name(s)),
                            format!("由 {} 应答", self.name(s)),
                        ]),
                    );
                }
                self.m(s).touched.insert(session);
                let q = Queued {
                    conn,
                    xid,
                    request: Some((request.clone(), op)),
                    forwarded,
                };
                self.m(s).queues.entry(session).or_default().push_back(q);
                if forwarded {
                    let ask = Ask::Request { session, request };
                    self.ask(now, s, origin(xid, Some(op)), ask, out);
                }
                Narration::new(Key::ZabForward, Some(conn))
                    .a(self.name(s))
                    .b(Detail::Text(label))
            }
            Up::Ping => {
                let Some(session) = self.session_at(s, conn) else {
                    return Narration::new(Key::ClosedConnection, Some(conn)).a(label);
                };
                self.m(s).touched.insert(session);
                if let Some(q) = self.m(s).queues.get_mut(&session).filter(|q| !q.is_empty()) {
                    // It waits behind the session's forwarded requests, as every packet does in
                    // the server's pipeline: a stuck `sync` holds the pings too, and the
                    // client's read timeout drops the connection (F22).
                    q.push_back(Queued {
                        conn,
                        xid: -2,
                        request: None,
                        forwarded: false,
                    });
                } else {
                    self.pong(now, s, conn, session, out);
                }
                Narration::new(Key::PingArrives, Some(conn)).a(format!("0x{:x}", session.0))
            }
            Up::Close => {
                let Some(session) = self.session_at(s, conn) else {
                    return Narration::new(Key::ClosedConnection, Some(conn)).a(label);
                };
                self.ask(now, s, origin(0, None), Ask::Close { session }, out);
                Narration::new(Key::ZabForward, Some(conn))
                    .a(self.name(s))
                    .b(Detail::Text("closeSession".into()))
            }
        }
    }

    /// Server `s` answers a session's ping.
    pub(super) fn pong(
        &mut self,
        now: Tick,
        s: ServerId,
        conn: ConnId,
        session: SessionId,
        out: &mut Out,
    ) {
        for o in self.m(s).db.handle(now, Input::Ping { session }) {
            out.send_from(s, conn, Down::Output(o));
        }
    }

    /// The session connection `conn` has on server `s`, if it is attached there.
    fn session_at(&self, s: ServerId, conn: ConnId) -> Option<SessionId> {
        self.open_at(s, conn).flatten()
    }

    /// Whether connection `conn` has an open socket on server `s`, and its session there
    /// (`Some(None)`: its handshake is still under way).
    pub(super) fn open_at(&self, s: ServerId, conn: ConnId) -> Option<Option<SessionId>> {
        let a = self.conns.get(&conn).filter(|a| a.server == s)?;
        Some(a.session)
    }

    #[allow(clippy::too_many_arguments)]
    fn reconnect(
        &mut self,
        now: Tick,
        s: ServerId,
        conn: ConnId,
        session: SessionId,
        last_zxid: Zxid,
        watches: ClientWatches,
        out: &mut Out,
    ) -> Narration {
        let mine = self.members[usize::from(s)].db.last_zxid();
        if last_zxid > mine {
            out.send_from(s, conn, Down::ConnectionLost);
            return Narration::new(Key::ZabRefused, Some(conn))
                .a(self.name(s))
                .b(Detail::Text(format!("0x{last_zxid:x} > 0x{mine:x}")));
        }
        self.conns.insert(
            conn,
            Attach {
                server: s,
                session: None,
            },
        );
        let leader = self.members[usize::from(s)].leader();
        if leader == Some(s) {
            let valid = self.m(s).db.touch_session(session, now);
            return self.validated(now, s, conn, session, valid, last_zxid, watches, out);
        }
        if let Some(l) = leader {
            let msg = Zab::Revalidate {
                conn,
                session,
                last_zxid,
                watches,
            };
            Self::peer(out, s, l, msg);
        }
        Narration::new(Key::ZabRevalidate, Some(conn)).a(self.name(s))
    }

    /// The leader said whether a reconnecting session lives: the server re-registers its
    /// watches and answers, or tells the client its session expired.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn validated(
        &mut self,
        now: Tick,
        s: ServerId,
        conn: ConnId,
        session: SessionId,
        valid: bool,
        last_zxid: Zxid,
        watches: ClientWatches,
        out: &mut Out,
    ) -> Narration {
        let narration =
            Narration::new(Key::ReconnectArrives, Some(conn)).a(format!("0x{:x}", session.0));
        // The socket this handshake came on is gone (the client moved on and resumed
        // elsewhere): the answer finds no connection, and the session stays where it is.
        if self.open_at(s, conn) != Some(None) {
            return Narration::new(Key::ZabReceives, None)
                .a(self.name(s))
                .b(Detail::Words([
                    "REVALIDATE for a connection that is gone".into(),
                    "针对已断开连接的 REVALIDATE".into(),
                ]));
        }
        if !valid {
            self.conns.remove(&conn);
            let rejected = Output::ConnectRejected { session };
            out.send_from(s, conn, Down::Output(rejected));
            return narration.b(Detail::SessionGone);
        }
        self.attach(conn, s, Some(session));
        self.m(s).touched.insert(session);
        let input = Input::Reconnect {
            session,
            last_zxid,
            watches,
        };
        for o in self.m(s).db.handle(now, input) {
            if let Output::Notify { event, .. } = &o {
                out.fired
                    .push((conn, event.kind.name().to_string(), event.path.clone()));
            }
            out.send_from(s, conn, Down::Output(o));
        }
        narration.b(Detail::Words([
            format!("resumed on {}", self.name(s)),
            format!("在 {} 上恢复", self.name(s)),
        ]))
    }

    /// The client's process is gone (FIN): the server drops its watches; the session lives on
    /// until the leader expires it.
    pub fn hangup_at(&mut self, s: ServerId, conn: ConnId) -> Narration {
        if let Some(Attach {
            server,
            session: Some(session),
        }) = self.conns.get(&conn).copied().filter(|a| a.server == s)
        {
            self.m(server).db.handle(0, Input::Disconnect { session });
            self.m(server).queues.remove(&session);
            self.conns.remove(&conn);
        }
        Narration::new(Key::SvcHangup, Some(conn))
    }
}

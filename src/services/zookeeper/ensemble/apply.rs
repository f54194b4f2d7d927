//! Every server applies committed transactions in zxid order to its own tree: its own clients'
//! watches fire, and the server the client is connected to answers it. The monitor's records
//! (the one committed sequence every server must apply a prefix of) are kept here.

use super::zab::{Origin, Proposal};
use super::{Ensemble, Out};
use crate::engine::replica::LogTxn;
use crate::engine::{Input, Output, Zxid};
use crate::services::api::{on_server, ServerId, Tick};
use crate::services::zookeeper::Down;

impl Ensemble {
    /// Server `s` applies every logged proposal up to `upto`.
    pub(super) fn apply_through(&mut self, s: ServerId, now: Tick, upto: Zxid, out: &mut Out) {
        while let Some(p) = self.m(s).log.front().filter(|p| p.zxid <= upto).cloned() {
            self.m(s).log.pop_front();
            self.apply_one(s, now, p, out);
        }
    }

    fn apply_one(&mut self, s: ServerId, now: Tick, p: Proposal, out: &mut Out) {
        let (result, outputs) = self.m(s).db.apply_logged(now, p.zxid, &p.txn);
        self.record(s, &p);
        self.m(s).remember(p.clone());
        if let (LogTxn::Write { txn, .. }, Some(Ok(_))) = (&p.txn, &result) {
            created(txn, |path| out.created.push(on_server(s, path)));
        }
        self.route(s, outputs, out);
        let Some(origin) = p.origin.filter(|o| o.server == s) else {
            return;
        };
        let session = p.txn.session();
        // The socket the request came on may be closed by now (this server lost its leader
        // and closed its clients' connections before it applied what it had logged): the
        // answer then finds no connection, so a new session stays unattached and a write
        // unanswered (ZooKeeper answers on the request's own `ServerCnxn`, closed by then).
        let open = self.open_at(s, origin.conn);
        match (&p.txn, result) {
            (LogTxn::CreateSession { .. }, _) if open != Some(None) => {}
            (LogTxn::Write { .. }, Some(_)) if open != Some(Some(session)) => {
                self.next_in_queue(now, s, session, out);
            }
            (LogTxn::CreateSession { timeout_ms, .. }, _) => {
                self.attach(origin.conn, s, Some(session));
                let connected = Output::Connected {
                    session,
                    timeout_ms: *timeout_ms,
                    zxid: p.zxid,
                    new_session: true,
                };
                out.send_from(s, origin.conn, Down::Output(connected));
            }
            (LogTxn::Write { .. }, Some(result)) => {
                let reply = Output::Reply {
                    session,
                    xid: origin.xid,
                    zxid: p.zxid,
                    result,
                };
                let op = origin.op.unwrap_or(crate::engine::Opcode::Create);
                out.send_from(s, origin.conn, Down::Reply(op, reply));
                self.next_in_queue(now, s, session, out);
            }
            _ => {}
        }
    }

    /// This server's outputs of a transaction go to its own clients.
    fn route(&mut self, s: ServerId, outputs: Vec<Output>, out: &mut Out) {
        for o in outputs {
            match &o {
                Output::Notify { session, event } => {
                    let Some(c) = self.conn_at(s, *session) else {
                        continue;
                    };
                    out.fired
                        .push((c, event.kind.name().to_string(), event.path.clone()));
                    out.send_from(s, c, Down::Output(o));
                }
                Output::SessionEnded {
                    session,
                    expired,
                    deleted,
                    ..
                } => {
                    out.deleted.extend(deleted.iter().map(|p| on_server(s, p)));
                    let Some(c) = self.conn_at(s, *session) else {
                        continue;
                    };
                    let d = if *expired {
                        Down::ConnectionClosed
                    } else {
                        Down::Closed
                    };
                    self.conns.remove(&c);
                    out.send_from(s, c, d);
                }
                _ => {}
            }
        }
    }

    /// A forwarded request of this server's client is done (applied, or a `sync` answered):
    /// answer a `sync`, then every read that waited behind it.
    pub(super) fn answer_forwarded(
        &mut self,
        now: Tick,
        s: ServerId,
        origin: Origin,
        out: &mut Out,
    ) {
        let session = self.conns.get(&origin.conn).and_then(|a| a.session);
        let Some(session) = session else { return };
        let head = self
            .m(s)
            .queues
            .get(&session)
            .and_then(|q| q.front().cloned());
        if let Some(q) = head.filter(|q| q.forwarded && q.xid == origin.xid) {
            if let Some((request, op)) = q.request {
                self.read_now(now, s, q.conn, session, q.xid, request, op, out);
            }
        }
        self.next_in_queue(now, s, session, out);
    }

    /// Pops the finished forwarded request at the head of a session's queue and answers the
    /// reads behind it, up to the next forwarded one.
    fn next_in_queue(
        &mut self,
        now: Tick,
        s: ServerId,
        session: crate::engine::SessionId,
        out: &mut Out,
    ) {
        let Some(q) = self.m(s).queues.get_mut(&session) else {
            return;
        };
        if q.front().is_some_and(|h| h.forwarded) {
            q.pop_front();
        }
        while let Some(r) = self.m(s).queues.get_mut(&session).and_then(|q| {
            q.front().filter(|h| !h.forwarded)?;
            q.pop_front()
        }) {
            match r.request {
                Some((request, op)) => {
                    self.read_now(now, s, r.conn, session, r.xid, request, op, out)
                }
                None => self.pong(now, s, r.conn, session, out),
            }
        }
        if self.m(s).queues.get(&session).is_some_and(|q| q.is_empty()) {
            self.m(s).queues.remove(&session);
        }
    }

    /// Server `s` answers a read (or a finished `sync`) from its own tree.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn read_now(
        &mut self,
        now: Tick,
        s: ServerId,
        conn: usize,
        session: crate::engine::SessionId,
        xid: i32,
        request: crate::engine::Request,
        op: crate::engine::Opcode,
        out: &mut Out,
    ) {
        self.m(s).touched.insert(session);
        let input = Input::Request {
            session,
            xid,
            request,
        };
        for o in self.m(s).db.handle(now, input) {
            if matches!(o, Output::Reply { .. }) {
                out.send_from(s, conn, Down::Reply(op, o));
            }
        }
    }

    /// The monitor: the n-th transaction any server applies is the same everywhere.
    fn record(&mut self, s: ServerId, p: &Proposal) {
        let i = self.members[usize::from(s)].count;
        let h = txn_hash(&p.txn);
        match i.checked_sub(self.committed_base) {
            None => {}
            Some(j) if j == self.committed.len() => self.committed.push_back((p.zxid, h)),
            Some(j) if self.committed.get(j) == Some(&(p.zxid, h)) => {}
            Some(j) => {
                let z = self.committed.get(j).map_or(0, |c| c.0);
                let msg = format!(
                    "zk-{} applied 0x{:x} as its transaction #{}, where another server applied 0x{:x}",
                    s + 1,
                    p.zxid,
                    i + 1,
                    z
                );
                self.violate(msg);
            }
        }
    }

    /// Forgets the start of the committed sequence that every running server has applied.
    pub(super) fn prune_committed(&mut self) {
        let low = self
            .members
            .iter()
            .filter(|m| m.is_up())
            .map(|m| m.count)
            .min();
        let Some(low) = low else { return };
        while self.committed_base < low && self.committed.pop_front().is_some() {
            self.committed_base += 1;
        }
    }

    pub(super) fn violate(&mut self, msg: String) {
        self.violation.get_or_insert(msg);
    }

    /// "zk-1" for server 0 (ZooKeeper's myid is 1-based).
    pub fn name(&self, s: ServerId) -> String {
        format!("zk-{}", s + 1)
    }
}

fn txn_hash(t: &LogTxn) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = crate::engine::types::Fnv::new();
    t.hash(&mut h);
    h.finish()
}

/// The paths a successful write created.
fn created(txn: &crate::engine::Txn, mut f: impl FnMut(&str)) {
    use crate::engine::Txn;
    match txn {
        Txn::Create { path, .. } => f(path),
        Txn::Multi(ts) => ts.iter().for_each(|t| {
            if let Txn::Create { path, .. } = t {
                f(path)
            }
        }),
        _ => {}
    }
}

//! What one server of a replicated ensemble asks of the engine: its leader validates a write
//! into a transaction against its own view, and every server applies committed transactions
//! at the leader's zxid to its own tree, firing its own clients' watches. Sessions come and
//! go as transactions too (createSession, closeSession), and only the leader decides expiry.

use serde::{Deserialize, Serialize};

use super::apply::Applier;
use super::prep::Txn;
use super::protocol::{Output, Request, Response};
use super::server::{prepare, Server};
use super::types::{ErrorCode, SessionId, Time, Zxid};

/// One transaction of the replicated log (a `TxnHeader` type and its body).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum LogTxn {
    /// A new session, with the id its server gave it and the negotiated timeout.
    CreateSession { session: SessionId, timeout_ms: u64 },
    /// The session ends (a close, or the leader expired it) and its ephemerals go with it.
    CloseSession { session: SessionId, expired: bool },
    /// A client's write, validated by the leader (an error is a transaction too).
    Write { session: SessionId, txn: Txn },
}

impl LogTxn {
    pub fn session(&self) -> SessionId {
        match self {
            LogTxn::CreateSession { session, .. }
            | LogTxn::CloseSession { session, .. }
            | LogTxn::Write { session, .. } => *session,
        }
    }
}

impl Server {
    /// A server of an ensemble: sessions never expire here on their own.
    pub fn replicated(mut self) -> Server {
        self.expiring = false;
        self
    }

    /// The leader turns a write into a transaction against its own view (which must already
    /// hold every earlier proposal): the standalone server's checks, in its order.
    pub fn validate(&self, session: SessionId, request: &Request) -> Txn {
        let empty = match request {
            Request::Create { path, .. } | Request::Delete { path, .. } => path.is_empty(),
            Request::Multi(ops) => ops.iter().any(|op| multi_path(op).is_empty()),
            _ => false,
        };
        if empty {
            return Txn::Error(ErrorCode::Marshalling);
        }
        prepare(&self.tree, session, request)
    }

    /// Applies a committed transaction at `zxid`. The outputs are this server's own: the
    /// notifications its watches fire and, for a closeSession, the session's end. The result
    /// is a write's answer, for the server its client is connected to.
    pub fn apply_logged(
        &mut self,
        now: Time,
        zxid: Zxid,
        t: &LogTxn,
    ) -> (Option<Result<Response, ErrorCode>>, Vec<Output>) {
        self.now = self.now.max(now);
        self.zxid_counter = self.zxid_counter.max(zxid);
        self.last_zxid = zxid;
        let mut out = Vec::new();
        let result = match t {
            LogTxn::CreateSession {
                session,
                timeout_ms,
            } => {
                self.sessions.adopt(*session, *timeout_ms, self.now);
                None
            }
            LogTxn::CloseSession { session, expired } => {
                if self.sessions.get(*session).is_some() {
                    self.close_session_at(*session, zxid, *expired, &mut out);
                }
                None
            }
            LogTxn::Write { txn, .. } => {
                let mut applier = Applier {
                    tree: &mut self.tree,
                    watches: &mut self.watches,
                    zxid,
                    now: self.now,
                    out: &mut out,
                };
                Some(applier.apply(txn.clone()))
            }
        };
        (result, out)
    }

    /// A restarted server's watches are gone with its memory (its clients register them again).
    pub fn forget_watches(&mut self) {
        self.watches = Default::default();
    }

    /// The leader marks a session whose closeSession it has proposed (it is not expired twice).
    pub fn mark_closing(&mut self, session: SessionId) {
        self.sessions.set_closing(session);
    }

    /// Touches a session on the leader's behalf (a follower's ping report, a revalidation);
    /// false if the session is gone or closing.
    pub fn touch_session(&mut self, session: SessionId, now: Time) -> bool {
        self.sessions.touch(session, now)
    }

    /// A new leader tracks every session afresh: each deadline restarts at now + its timeout.
    pub fn restart_deadlines(&mut self, now: Time) {
        let ids: Vec<SessionId> = self.sessions.iter().map(|s| s.id).collect();
        for id in ids {
            self.sessions.touch(id, now);
        }
    }

    /// The live sessions whose deadline has passed (the leader proposes their close).
    pub fn due_sessions(&self, now: Time) -> Vec<SessionId> {
        self.sessions.due(now)
    }
}

fn multi_path(op: &super::protocol::MultiOp) -> &str {
    use super::protocol::MultiOp;
    match op {
        MultiOp::Create { path, .. }
        | MultiOp::Delete { path, .. }
        | MultiOp::SetData { path, .. }
        | MultiOp::Check { path, .. } => path,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{CreateMode, Input, ServerConfig};

    fn create(path: &str) -> Request {
        Request::Create {
            path: path.into(),
            data: Some(Vec::new()),
            mode: CreateMode::EphemeralSequential,
        }
    }

    #[test]
    fn a_follower_applies_the_leaders_transactions_and_ends_sessions_at_one_zxid() {
        let mut leader = Server::new(ServerConfig::default()).replicated();
        let mut follower = leader.clone();
        let s = SessionId(2 << 56);
        let open = LogTxn::CreateSession {
            session: s,
            timeout_ms: 6000,
        };
        for db in [&mut leader, &mut follower] {
            db.apply_logged(0, 1, &open);
        }
        let txn = leader.validate(s, &create("/lock-"));
        let w = LogTxn::Write { session: s, txn };
        let (a, _) = leader.apply_logged(1, 2, &w);
        let (b, _) = follower.apply_logged(1, 2, &w);
        assert_eq!(a, b);
        assert!(follower.tree().get("/lock-0000000000").is_some());
        // Neither server expires the session on its own, however late it is.
        follower.handle(1_000_000, Input::Tick);
        assert!(follower.sessions().is_live(s));
        let close = LogTxn::CloseSession {
            session: s,
            expired: true,
        };
        let (_, out) = follower.apply_logged(1_000_000, 3, &close);
        assert!(follower.tree().get("/lock-0000000000").is_none());
        assert!(matches!(
            out.last(),
            Some(Output::SessionEnded { zxid: 3, .. })
        ));
        assert_eq!(follower.last_zxid(), 3);
    }
}

//! Redis as a lock service: commands in, RESP replies out, key expiry and replication on the
//! server's clock, failover by promoting the replica (or a restart without persistence), the
//! lock holder as Redis sees it (its token in a live key), and the keys as typed rows.

use super::{Redis, Reply};
use crate::narrate::{Detail, Key, Narration};
use crate::services::api::{
    self, Claim, ClientLib, ConnId, ConnState, Failover, LibCtx, LibTimer, Lifetime, LockService,
    Outbox, Owner, Row, ServiceConfig, Tick, Watch,
};
use crate::services::reqlib::{ReqLib, Waits};

/// A command, as its words.
pub type Up = Vec<String>;
pub type Down = Reply;
pub type Call = Up;
pub type Answer = Reply;
pub type Server = Redis;

type Out = Outbox<Reply>;
type LibOut = api::LibOut<Up, Answer>;

pub fn service(cfg: &ServiceConfig) -> Redis {
    Redis::new(cfg.replica_lag)
}

pub fn lib(cfg: &ServiceConfig) -> Lib {
    Lib::new(cfg.read_timeout())
}

impl Waits for Vec<String> {
    fn waits(&self) -> bool {
        false
    }
}

/// A command as arrows and narration show it (a script's body is `<script>`).
pub fn label(args: &Up) -> String {
    args.iter()
        .map(|a| if a.contains('\n') { "<script>" } else { a })
        .collect::<Vec<_>>()
        .join(" ")
}

/// One key, in Redis's words.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct KeyRow {
    pub key: String,
    pub value: String,
    /// Milliseconds left (`PTTL`); `None`: no expiry (`TTL` -1).
    pub pttl: Option<u64>,
    /// The replica's copy.
    pub replica: bool,
}

impl Row for KeyRow {
    fn no_expiry(&self) -> Option<[&'static str; 2]> {
        Some(["no TTL (-1)", "无过期 (-1)"])
    }
    fn id(&self) -> String {
        if self.replica {
            format!("replica:{}", self.key)
        } else {
            self.key.clone()
        }
    }
    fn name(&self) -> String {
        self.key.clone()
    }
    fn depth(&self) -> usize {
        usize::from(self.replica)
    }
    fn owner(&self) -> Option<Owner> {
        Some(Owner::Token(self.value.clone()))
    }
    fn lifetime(&self) -> Lifetime {
        match self.pttl {
            Some(ms) => Lifetime::Expiring(Some(ms as i64)),
            None => Lifetime::Persistent,
        }
    }
    fn stamp(&self) -> Option<(&'static str, i64)> {
        None
    }
    fn fields(&self) -> Vec<(&'static str, String)> {
        let ttl = self.pttl.map_or("-1".to_string(), |ms| ms.to_string());
        vec![
            ("value", self.value.clone()),
            (if self.pttl.is_some() { "PTTL" } else { "TTL" }, ttl),
        ]
    }
    fn replica(&self) -> bool {
        self.replica
    }
}

pub type Entry = KeyRow;

impl Redis {
    /// Every key id, the replica's prefixed (`replica:lock`).
    fn keys_now(&self) -> Vec<String> {
        let replica = self
            .replica
            .iter()
            .flat_map(|r| r.db.keys.keys().map(|k| format!("replica:{k}")));
        self.db.keys.keys().cloned().chain(replica).collect()
    }

    /// Records the keys that appeared and went since `before`.
    fn diff(&self, before: Vec<String>, out: &mut Out) -> Vec<String> {
        let after = self.keys_now();
        out.created
            .extend(after.iter().filter(|k| !before.contains(k)).cloned());
        let gone: Vec<String> = before.into_iter().filter(|k| !after.contains(k)).collect();
        out.deleted.extend(gone.iter().cloned());
        gone
    }

    /// The live key holding this token.
    fn held_by(&self, now: Tick, token: &str) -> Option<&super::db::Entry> {
        self.db
            .keys
            .iter()
            .find(|(k, e)| e.str() == Some(token) && !self.db.expired(now, k))
            .map(|(_, e)| e)
    }

    fn rows(&self, now: Tick, db: &super::db::Db, replica: bool) -> Vec<KeyRow> {
        let live = db.keys.iter().filter(|(k, _)| !db.expired(now, k));
        live.map(|(k, e)| KeyRow {
            key: k.clone(),
            value: e.display(),
            pttl: e.expire_at.map(|t| t.saturating_sub(now)),
            replica,
        })
        .collect()
    }
}

impl LockService for Redis {
    type Up = Up;
    type Down = Reply;
    type Entry = KeyRow;

    fn receive(&mut self, now: Tick, conn: ConnId, args: Up, out: &mut Out) -> Narration {
        let before = self.keys_now();
        let reply = self.command(now, conn as u32, &args);
        self.diff(before, out);
        out.send(conn, reply);
        api::answered(conn, label(&args), out, Reply::render)
    }

    fn hangup(&mut self, _: Tick, conn: ConnId, out: &mut Out) -> Narration {
        let before = self.keys_now();
        self.close(conn as u32);
        self.diff(before, out);
        Narration::new(Key::SvcHangup, Some(conn)).a("")
    }

    fn next_deadline(&self) -> Option<Tick> {
        Redis::next_deadline(self)
    }

    fn tick(&mut self, now: Tick, out: &mut Out) -> Narration {
        let before = self.keys_now();
        Redis::tick(self, now);
        let gone = self.diff(before, out);
        if gone.is_empty() {
            return Narration::new(Key::ServiceTick, None);
        }
        Narration::new(Key::SvcExpiry, None).b(Detail::Nodes(gone))
    }

    /// Redis has no sessions to end.
    fn expire(&mut self, _: Tick, _: &Claim<'_>, _: &mut Out) -> Option<Narration> {
        None
    }

    fn failover(&mut self, _: Tick, _: &mut Out) -> Failover {
        if self.replica.is_some() {
            self.promote();
            return Failover {
                key: Key::FailoverRedis,
                stall: 0,
            };
        }
        *self = Redis::new(None);
        Failover {
            key: Key::FailoverRedisRestart,
            stall: 0,
        }
    }

    fn holds(&self, now: Tick, claim: &Claim<'_>) -> bool {
        claim.token.is_some_and(|t| self.held_by(now, t).is_some())
    }

    fn expires_in(&self, now: Tick, claim: &Claim<'_>) -> Option<i64> {
        let e = self.held_by(now, claim.token?)?;
        e.expire_at.map(|t| t as i64 - now as i64)
    }

    fn watches(&self) -> Vec<Watch> {
        Vec::new()
    }

    fn replica(&self) -> Option<crate::services::ReplicaState> {
        // Writes not yet applied (SELECT, MULTI/EXEC and GETACK are not writes).
        let behind = |r: &super::Replica| {
            r.stream
                .iter()
                .filter(|(_, w)| super::replication::is_data(w))
                .count()
        };
        self.replica
            .as_ref()
            .map(|r| crate::services::ReplicaState {
                lag: r.lag,
                behind: behind(r),
                cut: r.link_cut,
            })
    }

    fn entries(&self, now: Tick) -> Vec<KeyRow> {
        let mut rows = self.rows(now, &self.db, false);
        if let Some(rep) = &self.replica {
            rows.extend(self.rows(now, &rep.db, true));
        }
        rows
    }

    fn stamp(&self) -> Option<(&'static str, i64)> {
        None
    }

    fn up_label(m: &Up) -> String {
        label(m)
    }
    fn down_label(m: &Reply) -> String {
        m.render()
    }
    fn up_wire(m: &Up) -> crate::services::Wire {
        let (op, args) = label(m)
            .split_once(' ')
            .map_or((label(m), String::new()), |(a, b)| {
                (a.to_string(), b.to_string())
            });
        crate::services::Wire::default()
            .with("op", op)
            .with("args", args)
    }
    fn down_wire(m: &Reply) -> crate::services::Wire {
        crate::services::Wire::default().with("reply", m.render())
    }
}

/// The Redis client library: one connection, read timeout and resend.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Lib(pub ReqLib<Up>);

impl Lib {
    pub fn new(read_timeout: Tick) -> Lib {
        Lib(ReqLib::new(read_timeout))
    }
}

impl ClientLib for Lib {
    type Call = Up;
    type Answer = Reply;
    type Up = Up;
    type Down = Reply;

    fn start(&mut self, _: Tick) -> Vec<LibOut> {
        Vec::new()
    }
    fn call(&mut self, now: Tick, call: Up) -> Vec<LibOut> {
        vec![LibOut::Send(self.0.sent(now, call))]
    }
    fn receive(&mut self, _: Tick, msg: Reply) -> Vec<LibOut> {
        self.0.answered();
        vec![LibOut::Answer(msg)]
    }
    fn next_timer(&self, _: LibCtx) -> Option<(Tick, LibTimer)> {
        self.0.resend_at().map(|t| (t, LibTimer::Resend))
    }
    fn fire(&mut self, now: Tick, _: LibTimer) -> Vec<LibOut> {
        self.0.resend(now).map(LibOut::Send).into_iter().collect()
    }
    fn close(&mut self, _: Tick, _: &Claim<'_>) -> Vec<LibOut> {
        vec![LibOut::Hangup]
    }
    fn crash(&mut self) -> Vec<LibOut> {
        vec![LibOut::Hangup]
    }
    fn connection(&self) -> u32 {
        self.0.attempt
    }
    fn quiet(&self) -> bool {
        true
    }
    fn unanswered(&self) -> usize {
        self.0.unanswered.len()
    }
    fn session(&self) -> Option<u64> {
        None
    }
    fn conn_state(&self) -> ConnState {
        ConnState::Connected
    }
    fn session_timeout(&self) -> Tick {
        0
    }
}

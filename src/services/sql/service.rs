//! A SQL database as a lock service: statements in, command tags or SQLSTATEs out (waiters
//! answered when a row lock frees), rollback when a connection closes, failover to a standby,
//! the holder as the database sees it (its owner in a live row, or its transaction's row lock),
//! and the lock table as typed rows.

use super::{Answer, Sql, Stmt};
use crate::narrate::{Key, Narration};
use crate::services::api::{
    self, Claim, ClientLib, ConnId, ConnState, Failover, LibCtx, LibTimer, Lifetime, LockService,
    Outbox, Owner, Row, ServiceConfig, Tick, Watch,
};
use crate::services::reqlib::{ReqLib, Waits};

pub type Up = Stmt;
pub type Down = Answer;
pub type Call = Stmt;
pub type Server = Sql;

type Out = Outbox<Answer>;
type LibOut = api::LibOut<Up, Answer>;

/// The owner of a row an operator created before the run (the row `FOR UPDATE` locks): it is
/// nobody's lock.
pub const OPERATOR: &str = "operator";

/// The connection the operator used to create it.
const OPERATOR_CONN: u32 = u32::MAX;

pub fn service(cfg: &ServiceConfig) -> Sql {
    Sql::new(cfg)
}

pub fn lib(cfg: &ServiceConfig) -> Lib {
    Lib::new(cfg.read_timeout())
}

impl Waits for Stmt {
    fn waits(&self) -> bool {
        matches!(self, Stmt::SelectForUpdate { nowait: false, .. })
    }
}

/// One row of the lock table, in the database's words.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LockRow {
    pub name: String,
    pub owner: String,
    pub fence: i64,
    /// Milliseconds until `expires_at` (negative: expired); `None`: no expiry column value.
    pub expires_in: Option<i64>,
    /// The connection whose transaction holds the row lock.
    pub locked_by: Option<ConnId>,
    /// Connections whose statements wait for that row lock, in arrival order.
    pub waiting: Vec<ConnId>,
}

impl Row for LockRow {
    fn id(&self) -> String {
        self.name.clone()
    }
    fn name(&self) -> String {
        format!("locks.{}", self.name)
    }
    fn owner(&self) -> Option<Owner> {
        match self.locked_by {
            Some(c) => Some(Owner::Conn(c)),
            None => (self.owner != OPERATOR).then(|| Owner::Token(self.owner.clone())),
        }
    }
    fn lifetime(&self) -> Lifetime {
        match self.expires_in {
            Some(ms) => Lifetime::Expiring(Some(ms)),
            None => Lifetime::Persistent,
        }
    }
    fn stamp(&self) -> Option<(&'static str, i64)> {
        Some(("fence", self.fence))
    }
    fn fields(&self) -> Vec<(&'static str, String)> {
        let mut f = vec![
            ("owner", self.owner.clone()),
            ("fence", self.fence.to_string()),
        ];
        f.push((
            "expires_at",
            self.expires_in
                .map_or("NULL".into(), |ms| format!("now() + {ms} ms")),
        ));
        f
    }
    fn row_lock(&self) -> Option<(ConnId, Vec<ConnId>)> {
        self.locked_by.map(|c| (c, self.waiting.clone()))
    }
}

pub type Entry = LockRow;

impl Sql {
    /// The database an operator prepared: with the lock row `FOR UPDATE` needs, if asked.
    pub fn new(cfg: &ServiceConfig) -> Sql {
        let mut sql = Sql::default();
        if let Some(row) = &cfg.lock_row {
            sql.execute(
                0,
                OPERATOR_CONN,
                Stmt::Insert {
                    name: row.clone(),
                    owner: OPERATOR.into(),
                    ttl: None,
                },
            );
        }
        sql
    }

    fn names(&self) -> Vec<String> {
        self.rows.keys().cloned().collect()
    }

    /// Records the rows that appeared and went since `before`.
    fn diff(&self, before: Vec<String>, out: &mut Out) {
        out.created
            .extend(self.rows.keys().filter(|k| !before.contains(k)).cloned());
        out.deleted
            .extend(before.into_iter().filter(|k| !self.rows.contains_key(k)));
    }

    fn answers(out: &mut Out, answers: Vec<(u32, Answer)>) {
        for (k, a) in answers {
            out.send(k as ConnId, a);
        }
    }

    /// The live row this claim owns: its owner value, or its transaction's row lock.
    fn held_row(&self, now: Tick, claim: &Claim<'_>) -> Option<&super::Row> {
        match claim.token {
            Some(t) => self
                .rows
                .values()
                .find(|r| r.owner == t && r.expires_at.is_none_or(|e| e >= now)),
            None => self
                .row_locks
                .iter()
                .find(|(_, c)| **c as ConnId == claim.conn)
                .and_then(|(n, _)| self.rows.get(n)),
        }
    }
}

impl LockService for Sql {
    type Peer = crate::services::NoPeer;
    type Up = Stmt;
    type Down = Answer;
    type Entry = LockRow;

    fn receive(&mut self, now: Tick, conn: ConnId, stmt: Stmt, out: &mut Out) -> Narration {
        let before = self.names();
        let label = stmt.text();
        let answers = self.execute(now, conn as u32, stmt);
        self.diff(before, out);
        Sql::answers(out, answers);
        api::answered(conn, label, out, Answer::render)
    }

    /// The server sees the connection close: it rolls back the open transaction.
    fn hangup(&mut self, now: Tick, conn: ConnId, out: &mut Out) -> Narration {
        let before = self.names();
        let unblocked = self.disconnect(now, conn as u32);
        self.diff(before, out);
        Sql::answers(out, unblocked);
        Narration::new(Key::SvcRollback, Some(conn))
    }

    fn next_deadline(&self) -> Option<Tick> {
        None
    }

    fn tick(&mut self, _: Tick, _: &mut Out) -> Narration {
        Narration::new(Key::ServiceTick, None)
    }

    /// A database session has no timeout to run out.
    fn expire(&mut self, _: Tick, _: &Claim<'_>, _: &mut Out) -> Option<Narration> {
        None
    }

    fn failover(&mut self, _: Tick, out: &mut Out) -> Failover {
        let answers = Sql::failover(self);
        Sql::answers(out, answers);
        Failover {
            key: Key::FailoverSql,
            stall: 0,
        }
    }

    fn holds(&self, now: Tick, claim: &Claim<'_>) -> bool {
        match claim.token {
            Some(_) => self.held_row(now, claim).is_some(),
            None => self.row_locks.values().any(|c| *c as ConnId == claim.conn),
        }
    }

    fn expires_in(&self, now: Tick, claim: &Claim<'_>) -> Option<i64> {
        self.held_row(now, claim)?
            .expires_at
            .map(|t| t as i64 - now as i64)
    }

    fn watches(&self) -> Vec<Watch> {
        Vec::new()
    }

    fn entries(&self, now: Tick) -> Vec<LockRow> {
        let row = |r: &super::Row| LockRow {
            name: r.name.clone(),
            owner: r.owner.clone(),
            fence: r.fence,
            expires_in: r.expires_at.map(|t| t as i64 - now as i64),
            locked_by: self.row_locks.get(&r.name).map(|c| *c as ConnId),
            waiting: self
                .waiting
                .iter()
                .filter(|(_, s)| s.row() == r.name)
                .map(|(c, _)| *c as ConnId)
                .collect(),
        };
        self.rows.values().map(row).collect()
    }

    fn stamp(&self) -> Option<(&'static str, i64)> {
        None
    }

    fn up_label(m: &Stmt) -> String {
        m.text()
    }
    fn down_label(m: &Answer) -> String {
        m.render()
    }
    fn up_wire(m: &Stmt) -> crate::services::Wire {
        crate::services::Wire::default()
            .with("op", "query")
            .with("sql", m.text())
    }
    fn down_wire(m: &Answer) -> crate::services::Wire {
        let w = crate::services::Wire::default();
        match m {
            Answer::Ok { tag, rows } => w.with("tag", tag).with("rows", rows.len().to_string()),
            Answer::Error { sqlstate, message } => {
                w.with("sqlstate", sqlstate).with("message", message)
            }
        }
    }
}

/// The SQL client library: one connection, read timeout and resend (a blocking `FOR UPDATE`
/// legitimately waits and is never resent).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Lib(pub ReqLib<Stmt>);

impl Lib {
    pub fn new(read_timeout: Tick) -> Lib {
        Lib(ReqLib::new(read_timeout))
    }
}

impl ClientLib for Lib {
    type Call = Stmt;
    type Answer = Answer;
    type Up = Stmt;
    type Down = Answer;

    fn start(&mut self, _: Tick) -> Vec<LibOut> {
        Vec::new()
    }
    fn call(&mut self, now: Tick, call: Stmt) -> Vec<LibOut> {
        vec![LibOut::Send(self.0.sent(now, call))]
    }
    fn receive(&mut self, _: Tick, msg: Answer) -> Vec<LibOut> {
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

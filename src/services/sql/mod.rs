//! A PostgreSQL 15 lock-table model: one table with a primary key on the lock name, explicit
//! and implicit (autocommit) transactions, row locks from INSERT/UPDATE/DELETE/`FOR UPDATE`
//! held until COMMIT/ROLLBACK or disconnect, waiters queued on a locked row, and 25P02 after an
//! error inside a transaction. `now()` is the server's clock.

pub mod replay;
pub mod service;
#[cfg(test)]
mod tests;
pub mod types;

use crate::sorted::SortedMap;

use serde::{Deserialize, Serialize};

pub use service::{lib, service, Call, Down, Entry, Lib, LockRow, Server, Up, OPERATOR};
pub use types::{Answer, Row, Stmt};

/// How the view presents the PostgreSQL lock table: rows with an expiry column.
pub const LOOK: super::look::Look = super::look::Look {
    product: "PostgreSQL 15",
    contents: Some(["lock table", "锁表"]),
    entry: ["row", "行"],
    ttl: |_| None,
    end_session: None,
    lane: "SQL",
    lean: false,
    znodes: false,
    peers: false,
    library_wait: 0,
};

/// An open explicit transaction.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Txn {
    /// Rows as they were before this transaction first changed them (`None`: it inserted them).
    pub undo: Vec<(String, Option<Row>)>,
    /// Row names this transaction has locked.
    pub locks: Vec<String>,
    pub failed: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Sql {
    pub rows: SortedMap<String, Row>,
    /// Which connection holds each row lock.
    pub row_locks: SortedMap<String, u32>,
    pub txns: SortedMap<u32, Txn>,
    /// Statements waiting for a row lock, in arrival order.
    pub waiting: Vec<(u32, Stmt)>,
    /// The `fence` sequence's last value (nextval is never rolled back).
    pub fence_seq: i64,
}

const DUPLICATE: &str = "duplicate key value violates unique constraint \"locks_pkey\"";
const ABORTED: &str =
    "current transaction is aborted, commands ignored until end of transaction block";

impl Sql {
    /// One statement; the answers include waiters that this statement unblocked.
    pub fn execute(&mut self, now: u64, conn: u32, stmt: Stmt) -> Vec<(u32, Answer)> {
        let mut out = Vec::new();
        match self.run(now, conn, &stmt) {
            Some(a) => out.push((conn, a)),
            None => self.waiting.push((conn, stmt)),
        }
        self.wake(now, &mut out);
        out
    }

    /// The connection closed (or the server ended the session): roll back, release its locks.
    pub fn disconnect(&mut self, now: u64, conn: u32) -> Vec<(u32, Answer)> {
        self.waiting.retain(|(c, _)| *c != conn);
        self.end(conn, false);
        let mut out = Vec::new();
        self.wake(now, &mut out);
        out
    }

    /// The server fails over to a standby: every session ends at once (committed rows survive;
    /// open transactions roll back, row locks vanish) and every waiting statement gets the
    /// error a terminated connection gives.
    pub fn failover(&mut self) -> Vec<(u32, Answer)> {
        let waiting = std::mem::take(&mut self.waiting);
        let conns: Vec<u32> = self.txns.keys().copied().collect();
        for c in conns {
            self.end(c, false);
        }
        let msg = "terminating connection due to administrator command";
        waiting
            .into_iter()
            .map(|(c, _)| (c, Answer::error("57P01", msg)))
            .collect()
    }

    fn wake(&mut self, now: u64, out: &mut Vec<(u32, Answer)>) {
        let mut i = 0;
        while i < self.waiting.len() {
            let (c, s) = self.waiting[i].clone();
            if let Some(a) = self.run(now, c, &s) {
                self.waiting.remove(i);
                out.push((c, a));
                i = 0;
            } else {
                i += 1;
            }
        }
    }

    /// `None`: the statement must wait for another transaction's row lock.
    fn run(&mut self, now: u64, conn: u32, stmt: &Stmt) -> Option<Answer> {
        let in_txn = self.txns.contains_key(&conn);
        if self.txns.get(&conn).is_some_and(|t| t.failed)
            && !matches!(stmt, Stmt::Commit | Stmt::Rollback)
        {
            return Some(Answer::error("25P02", ABORTED));
        }
        let answer = match stmt {
            Stmt::Begin => {
                self.txns.entry(conn).or_default();
                Answer::ok("BEGIN")
            }
            Stmt::Commit => {
                let failed = self.end(conn, true);
                Answer::ok(if failed { "ROLLBACK" } else { "COMMIT" })
            }
            Stmt::Rollback => {
                self.end(conn, false);
                Answer::ok("ROLLBACK")
            }
            _ => {
                let name = stmt_row(stmt);
                let blocker = self.row_locks.get(name).copied().filter(|c| *c != conn);
                // A duplicate INSERT waits only for a row an open transaction changed; a row that
                // is merely locked FOR UPDATE is a committed duplicate at once.
                let changed = blocker.is_some_and(|c| {
                    self.txns
                        .get(&c)
                        .is_some_and(|t| t.undo.iter().any(|(n, _)| n == name))
                });
                if blocker.is_some() && !(matches!(stmt, Stmt::Insert { .. }) && !changed) {
                    return match stmt {
                        Stmt::SelectForUpdate { nowait: true, .. } => Some(self.fail(
                            conn,
                            "55P03",
                            "could not obtain lock on row in relation \"locks\"",
                        )),
                        Stmt::Select { .. } => Some(self.select(conn, name)),
                        _ => None,
                    };
                }
                self.write(now, conn, stmt)
            }
        };
        if !in_txn && !matches!(stmt, Stmt::Begin) {
            self.end(conn, true);
        }
        Some(answer)
    }

    /// What `conn` sees: its own changes, or else the last committed version of the row.
    fn committed(&self, conn: u32, name: &str) -> Option<Row> {
        let holder = self
            .row_locks
            .get(name)
            .filter(|c| **c != conn)
            .and_then(|c| self.txns.get(c));
        match holder.and_then(|t| t.undo.iter().find(|(n, _)| n == name)) {
            Some((_, before)) => before.clone(),
            None => self.rows.get(name).cloned(),
        }
    }

    fn select(&self, conn: u32, name: &str) -> Answer {
        let rows: Vec<Row> = self.committed(conn, name).into_iter().collect();
        Answer::Ok {
            tag: format!("SELECT {}", rows.len()),
            rows,
        }
    }

    fn write(&mut self, now: u64, conn: u32, stmt: &Stmt) -> Answer {
        match stmt {
            Stmt::Insert { name, owner, ttl } => {
                self.fence_seq += 1;
                if self.rows.contains_key(name) {
                    return self.fail(conn, "23505", DUPLICATE);
                }
                let row = Row {
                    name: name.clone(),
                    owner: owner.clone(),
                    fence: self.fence_seq,
                    expires_at: ttl.map(|t| now + t),
                };
                self.change(conn, name, Some(row.clone()));
                Answer::Ok {
                    tag: "INSERT 0 1".into(),
                    rows: vec![row],
                }
            }
            Stmt::Delete { name, owner, fence } => {
                let hit = self.rows.get(name).is_some_and(|r| {
                    owner.as_ref().is_none_or(|o| *o == r.owner)
                        && fence.is_none_or(|f| f == r.fence)
                });
                if hit {
                    self.change(conn, name, None);
                }
                Answer::ok(if hit { "DELETE 1" } else { "DELETE 0" })
            }
            Stmt::TakeOver { name, owner, ttl } => {
                let Some(row) = self
                    .rows
                    .get(name)
                    .filter(|r| r.expires_at.is_some_and(|t| t < now))
                    .cloned()
                else {
                    return Answer::ok("UPDATE 0");
                };
                self.fence_seq += 1;
                let new = Row {
                    owner: owner.clone(),
                    fence: self.fence_seq,
                    expires_at: Some(now + ttl),
                    ..row
                };
                self.change(conn, name, Some(new.clone()));
                Answer::Ok {
                    tag: "UPDATE 1".into(),
                    rows: vec![new],
                }
            }
            Stmt::SelectForUpdate { name, .. } => {
                let a = self.select(conn, name);
                if self.rows.contains_key(name) {
                    self.lock(conn, name);
                }
                a
            }
            _ => self.select(conn, stmt_row(stmt)),
        }
    }

    /// Changes a row inside the connection's transaction (locking it, remembering the undo).
    fn change(&mut self, conn: u32, name: &str, new: Option<Row>) {
        let before = self.rows.get(name).cloned();
        let t = self.txns.entry(conn).or_default();
        if !t.undo.iter().any(|(n, _)| n == name) {
            t.undo.push((name.into(), before));
        }
        match new {
            Some(r) => self.rows.insert(name.into(), r),
            None => self.rows.remove(name),
        };
        self.lock(conn, name);
    }

    fn lock(&mut self, conn: u32, name: &str) {
        self.row_locks.insert(name.into(), conn);
        let t = self.txns.entry(conn).or_default();
        if !t.locks.iter().any(|n| n == name) {
            t.locks.push(name.into());
        }
    }

    /// An error: inside an explicit transaction it poisons the rest (25P02).
    fn fail(&mut self, conn: u32, sqlstate: &str, msg: &str) -> Answer {
        if let Some(t) = self.txns.get_mut(&conn) {
            t.failed = true;
        }
        Answer::error(sqlstate, msg)
    }

    /// Ends the connection's transaction: commit (unless it failed) or roll back. Returns
    /// whether it had failed.
    fn end(&mut self, conn: u32, commit: bool) -> bool {
        let Some(t) = self.txns.remove(&conn) else {
            return false;
        };
        if !commit || t.failed {
            for (name, before) in t.undo.into_iter().rev() {
                match before {
                    Some(r) => self.rows.insert(name, r),
                    None => self.rows.remove(&name),
                };
            }
        }
        for n in t.locks {
            self.row_locks.remove(&n);
        }
        t.failed
    }
}

fn stmt_row(s: &Stmt) -> &str {
    s.row()
}

//! The SQL statements the lock recipes send (PostgreSQL 15 dialect) and the server's answers,
//! with PostgreSQL's command tags, SQLSTATEs and messages.

use serde::{Deserialize, Serialize};

/// A row of `locks(name PRIMARY KEY, owner, fence, expires_at)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Row {
    pub name: String,
    pub owner: String,
    pub fence: i64,
    /// Absolute server time (ms); `None` for the plain lock table without expiry.
    pub expires_at: Option<u64>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Stmt {
    Begin,
    Commit,
    Rollback,
    /// `INSERT INTO locks VALUES (name, owner, nextval('fence'), now() + ttl)`.
    Insert {
        name: String,
        owner: String,
        ttl: Option<u64>,
    },
    /// `DELETE FROM locks WHERE name = $1 [AND owner = $2] [AND fence = $3]`.
    Delete {
        name: String,
        owner: Option<String>,
        fence: Option<i64>,
    },
    /// `UPDATE locks SET owner = $2, fence = nextval('fence'), expires_at = now() + ttl
    ///  WHERE name = $1 AND expires_at < now() RETURNING fence` (take over an expired lock).
    TakeOver {
        name: String,
        owner: String,
        ttl: u64,
    },
    /// `SELECT * FROM locks WHERE name = $1 FOR UPDATE [NOWAIT]`.
    SelectForUpdate {
        name: String,
        nowait: bool,
    },
    /// `SELECT * FROM locks WHERE name = $1`.
    Select {
        name: String,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Answer {
    /// A command tag (`INSERT 0 1`, `DELETE 0`, `SELECT 1`, `BEGIN`, …) and returned rows.
    Ok {
        tag: String,
        rows: Vec<Row>,
    },
    Error {
        sqlstate: String,
        message: String,
    },
}

impl Stmt {
    /// SQL text for arrows and narration.
    pub fn text(&self) -> String {
        match self {
            Stmt::Begin => "BEGIN".into(),
            Stmt::Commit => "COMMIT".into(),
            Stmt::Rollback => "ROLLBACK".into(),
            Stmt::Insert {
                name, ttl: None, ..
            } => format!("INSERT {name}"),
            Stmt::Insert {
                name, ttl: Some(t), ..
            } => format!("INSERT {name} (ttl {t})"),
            Stmt::Delete {
                name, owner: None, ..
            } => format!("DELETE {name}"),
            Stmt::Delete { name, .. } => format!("DELETE {name} WHERE owner"),
            Stmt::TakeOver { name, .. } => format!("UPDATE {name} WHERE expired"),
            Stmt::SelectForUpdate {
                name,
                nowait: false,
            } => format!("SELECT {name} FOR UPDATE"),
            Stmt::SelectForUpdate { name, nowait: true } => {
                format!("SELECT {name} FOR UPDATE NOWAIT")
            }
            Stmt::Select { name } => format!("SELECT {name}"),
        }
    }
}

impl Stmt {
    /// The row a statement is about ("" for BEGIN, COMMIT, ROLLBACK).
    pub fn row(&self) -> &str {
        match self {
            Stmt::Insert { name, .. }
            | Stmt::Delete { name, .. }
            | Stmt::TakeOver { name, .. }
            | Stmt::SelectForUpdate { name, .. }
            | Stmt::Select { name } => name,
            _ => "",
        }
    }
}

impl Answer {
    pub fn ok(tag: &str) -> Answer {
        Answer::Ok {
            tag: tag.into(),
            rows: Vec::new(),
        }
    }

    pub fn error(sqlstate: &str, message: &str) -> Answer {
        Answer::Error {
            sqlstate: sqlstate.into(),
            message: message.into(),
        }
    }

    /// The number at the end of the command tag (`INSERT 0 1` → 1).
    pub fn count(&self) -> i64 {
        match self {
            Answer::Ok { tag, .. } => tag
                .rsplit(' ')
                .next()
                .and_then(|n| n.parse().ok())
                .unwrap_or(0),
            Answer::Error { .. } => 0,
        }
    }

    pub fn render(&self) -> String {
        match self {
            Answer::Ok { tag, .. } => tag.clone(),
            Answer::Error { sqlstate, .. } => format!("ERROR {sqlstate}"),
        }
    }
}

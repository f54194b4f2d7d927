//! etcd v3 request and response shapes (the subset lock recipes use) and their one-line
//! rendering, shared by goldens and narration.

use serde::{Deserialize, Serialize};

/// A key-value with its MVCC fields.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Kv {
    pub key: String,
    pub value: String,
    pub create_revision: i64,
    pub mod_revision: i64,
    pub version: i64,
    pub lease: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Target {
    Key,
    Create,
    Mod,
    Version,
    Value,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RangeReq {
    pub key: String,
    pub prefix: bool,
    /// Sort target and order.
    pub sort: Option<(Target, Order)>,
    pub limit: i64,
    pub max_create_revision: i64,
    pub count_only: bool,
}

/// Sort order; `None` with a non-key target sorts ascending, but only after `limit` has
/// already cut the key-ordered range (etcd 3.4's apply.go).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Order {
    None,
    Ascend,
    Descend,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CmpOp {
    Equal,
    NotEqual,
    Greater,
    Less,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Compare {
    pub key: String,
    pub target: Target,
    pub op: CmpOp,
    /// An integer for CREATE/MOD/VERSION, text for VALUE.
    pub value: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Op {
    Put {
        key: String,
        value: String,
        lease: i64,
    },
    Range(RangeReq),
    Delete {
        key: String,
        prefix: bool,
    },
    Txn {
        compares: Vec<Compare>,
        success: Vec<Op>,
        failure: Vec<Op>,
    },
}

/// A request on a client's connection.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Req {
    Kv(Op),
    LeaseGrant {
        ttl: i64,
    },
    LeaseKeepAlive {
        id: i64,
    },
    LeaseTimeToLive {
        id: i64,
    },
    LeaseRevoke {
        id: i64,
    },
    /// Watch `key` (or the prefix) from `start_revision` (0 = from now on).
    Watch {
        watch_id: i64,
        key: String,
        prefix: bool,
        start_revision: i64,
    },
    CancelWatch {
        watch_id: i64,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OpResp {
    Put,
    Range {
        kvs: Vec<Kv>,
        count: i64,
        more: bool,
    },
    Delete {
        deleted: i64,
    },
    Txn {
        succeeded: bool,
        responses: Vec<OpResp>,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Resp {
    /// A KV answer with the header revision.
    Kv {
        revision: i64,
        resp: OpResp,
    },
    Granted {
        id: i64,
        ttl: i64,
    },
    /// Keep-alive answer: the granted TTL, 0 when the lease is unknown.
    KeepAlive {
        id: i64,
        ttl: i64,
    },
    TimeToLive {
        id: i64,
        ttl: i64,
        granted: i64,
    },
    Revoked {
        revision: i64,
    },
    WatchCreated {
        watch_id: i64,
    },
    WatchCanceled {
        watch_id: i64,
    },
    Error {
        code: u32,
        message: String,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EventKind {
    Put,
    Delete,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Event {
    pub kind: EventKind,
    pub kv: Kv,
}

/// Events of one revision for one watcher, pushed to its connection.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct WatchMsg {
    pub conn: u32,
    pub watch_id: i64,
    pub events: Vec<Event>,
}

impl Kv {
    pub fn render(&self) -> String {
        let lease = if self.lease != 0 {
            format!(" lease={}", self.lease)
        } else {
            String::new()
        };
        format!(
            "{}={} c={} m={} v={}{lease}",
            self.key, self.value, self.create_revision, self.mod_revision, self.version
        )
    }
}

impl OpResp {
    pub fn render(&self) -> String {
        match self {
            OpResp::Put => "put".into(),
            OpResp::Range { kvs, count, more } => {
                let kvs: Vec<String> = kvs.iter().map(Kv::render).collect();
                format!(
                    "count={count} kvs=[{}]{}",
                    kvs.join(", "),
                    if *more { " more" } else { "" }
                )
            }
            OpResp::Delete { deleted } => format!("deleted={deleted}"),
            OpResp::Txn {
                succeeded,
                responses,
            } => {
                let r: Vec<String> = responses.iter().map(OpResp::render).collect();
                format!(
                    "{} [{}]",
                    if *succeeded { "succeeded" } else { "failed" },
                    r.join("; ")
                )
            }
        }
    }
}

impl Resp {
    pub fn render(&self) -> String {
        match self {
            Resp::Kv { revision, resp } => format!("rev={revision} {}", resp.render()),
            Resp::Granted { id, ttl } => format!("{id} ttl={ttl}"),
            Resp::KeepAlive { ttl, .. } => format!("ttl={ttl}"),
            Resp::TimeToLive { ttl: -1, .. } => "ttl=-1".into(),
            Resp::TimeToLive { ttl, granted, .. } => format!("ttl={ttl} granted={granted}"),
            Resp::Revoked { revision } => format!("rev={revision}"),
            Resp::WatchCreated { .. } => "created".into(),
            Resp::WatchCanceled { .. } => "canceled".into(),
            Resp::Error { code, message } => format!("error code={code} {message}"),
        }
    }
}

impl Event {
    pub fn render(&self) -> String {
        match self.kind {
            EventKind::Put => format!("PUT {}", self.kv.render()),
            EventKind::Delete => format!("DELETE {} m={}", self.kv.key, self.kv.mod_revision),
        }
    }
}

//! What recipes for the other lock services send and receive: Redis commands, etcd requests
//! and SQL statements, and the servers' answers (including etcd watch events).

use serde::{Deserialize, Serialize};

use crate::services::etcd::types::{Req, Resp, WatchMsg};
use crate::services::redis::Reply;
use crate::services::sql::{Answer, Stmt};

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SvcReq {
    Redis(Vec<String>),
    Etcd(Req),
    Sql(Stmt),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SvcAns {
    Redis(Reply),
    Etcd(Resp),
    Watch(WatchMsg),
    Sql(Answer),
}

impl SvcReq {
    /// A short label for arrows and narration.
    pub fn label(&self) -> String {
        match self {
            SvcReq::Redis(args) => args.iter().map(|a| if a.contains('\n') { "<script>" } else { a }).collect::<Vec<_>>().join(" "),
            SvcReq::Etcd(r) => etcd_label(r),
            SvcReq::Sql(s) => s.text(),
        }
    }
}

fn etcd_label(r: &Req) -> String {
    use crate::services::etcd::types::Op;
    match r {
        Req::Kv(Op::Txn { .. }) => "txn".into(),
        Req::Kv(Op::Put { key, .. }) => format!("put {key}"),
        Req::Kv(Op::Range(q)) => format!("range {}", q.key),
        Req::Kv(Op::Delete { key, .. }) => format!("delete {key}"),
        Req::LeaseGrant { ttl } => format!("lease grant {ttl}s"),
        Req::LeaseKeepAlive { .. } => "keep-alive".into(),
        Req::LeaseTimeToLive { .. } => "lease ttl".into(),
        Req::LeaseRevoke { .. } => "lease revoke".into(),
        Req::Watch { key, start_revision, .. } => format!("watch {key} from {start_revision}"),
        Req::CancelWatch { .. } => "cancel watch".into(),
    }
}

impl SvcAns {
    pub fn label(&self) -> String {
        match self {
            SvcAns::Redis(r) => r.render(),
            SvcAns::Etcd(r) => etcd_answer(r),
            SvcAns::Watch(m) => m.events.iter().map(|e| e.render()).collect::<Vec<_>>().join("; "),
            SvcAns::Sql(a) => a.render(),
        }
    }
}

fn etcd_answer(r: &Resp) -> String {
    use crate::services::etcd::types::OpResp;
    let first = |resp: &OpResp| match resp {
        OpResp::Range { kvs, .. } => kvs.first().map_or("none".to_string(), |kv| format!("{} (create_revision {})", kv.key, kv.create_revision)),
        other => other.render(),
    };
    match r {
        Resp::Kv { revision, resp: OpResp::Txn { succeeded, responses } } => {
            let owner = responses.last().map(first).unwrap_or_default();
            format!("rev {revision}: {}, first {owner}", if *succeeded { "put" } else { "exists" })
        }
        Resp::Kv { revision, resp } => format!("rev {revision}: {}", first(resp)),
        Resp::Granted { id, ttl } => format!("lease {id:x}, TTL {ttl}s"),
        other => other.render(),
    }
}

impl super::Recipe {
    /// Recipes for the lock services beside ZooKeeper.
    pub(super) fn other(cfg: &super::RecipeConfig) -> super::Recipe {
        use super::{etcd, redis, sql, Recipe, RecipeKind};
        match cfg.kind {
            RecipeKind::RedisSetnx | RecipeKind::RedisLease => {
                let atomic = cfg.kind == RecipeKind::RedisLease;
                Recipe::Redis(redis::Redis::new(atomic, cfg.ttl_repair, cfg.lease, cfg.poll, cfg.uuid_seed))
            }
            RecipeKind::EtcdMutex => Recipe::Etcd(etcd::Mutex::new(cfg.lease)),
            RecipeKind::SqlInsert => Recipe::SqlInsert(sql::Insert::new(None, cfg.poll, cfg.uuid_seed)),
            RecipeKind::SqlLease => Recipe::SqlInsert(sql::Insert::new(Some(cfg.lease), cfg.poll, cfg.uuid_seed)),
            _ => Recipe::SqlRowLock(sql::RowLock::default()),
        }
    }

    pub fn service(&self) -> super::ServiceKind {
        use super::{Recipe, ServiceKind};
        match self {
            Recipe::Redis(_) => ServiceKind::Redis,
            Recipe::Etcd(_) => ServiceKind::Etcd,
            Recipe::SqlInsert(_) | Recipe::SqlRowLock(_) => ServiceKind::Sql,
            _ => ServiceKind::ZooKeeper,
        }
    }

    /// The etcd session's lease, if any.
    pub fn etcd_lease(&self) -> Option<i64> {
        match self {
            super::Recipe::Etcd(m) => m.lease,
            _ => None,
        }
    }

    /// The token or owner string this client puts in the lock entry (Redis, SQL).
    pub fn lock_id(&self) -> Option<String> {
        use super::Recipe;
        match self {
            Recipe::Redis(r) if !r.token.is_empty() => Some(r.token.clone()),
            Recipe::SqlInsert(s) => Some(s.owner.clone()),
            _ => None,
        }
    }

}

/// Random-looking lock tokens, unique per client and attempt (a real client would use 128
/// random bits; the simulation derives them from the client's seed so runs replay exactly).
pub fn token(seed: u64, n: u32) -> String {
    format!("{:08x}-{n}", (seed >> 32) as u32 ^ seed as u32)
}

//! The view model's rows for the lock services beside ZooKeeper: Redis keys (and the replica's
//! copy), etcd keys with their revisions and leases, SQL lock rows with their row locks.

use super::frame::{WatchEdge, ZnodeRow};
use crate::sim::world::Service;
use crate::sim::World;

fn base(path: String, name: String, depth: usize, created: &[String]) -> ZnodeRow {
    ZnodeRow {
        fresh: created.contains(&path),
        path,
        name,
        depth,
        ephemeral: false,
        sequential: false,
        container: false,
        owner: None,
        czxid: 0,
        mzxid: 0,
        pzxid: 0,
        version: 0,
        cversion: 0,
        num_children: 0,
        detail: String::new(),
    }
}

/// The client whose recipe put this token or owner string in the lock entry.
fn owner_of(w: &World, id: &str) -> Option<usize> {
    w.clients.iter().find(|c| c.recipe.lock_id().as_deref() == Some(id)).map(|c| c.id)
}

pub fn rows(w: &World, created: &[String]) -> Vec<ZnodeRow> {
    match &w.service {
        Service::Redis(r) => {
            let mut rows = redis_rows(w, &r.db, "", created);
            if let Some(rep) = &r.replica {
                rows.extend(redis_rows(w, &rep.db, "replica:", created));
            }
            rows
        }
        Service::Etcd(e) => e.store.kvs.values().map(|kv| {
            let mut row = base(kv.key.clone(), kv.key.clone(), 0, created);
            row.ephemeral = kv.lease != 0;
            row.owner = w.clients.iter().find(|c| kv.lease != 0 && c.recipe.etcd_lease() == Some(kv.lease)).map(|c| c.id);
            (row.czxid, row.mzxid, row.version) = (kv.create_revision, kv.mod_revision, kv.version as i32);
            let lease = e.leases.get(&kv.lease).map(|l| format!(", lease {:x} expires in {} ms", kv.lease, l.expires_at.saturating_sub(w.now))).unwrap_or_default();
            row.detail = format!("create_revision {}, mod_revision {}, version {}{lease}", kv.create_revision, kv.mod_revision, kv.version);
            row
        }).collect(),
        Service::Sql(s) => s.rows.values().map(|r| {
            let mut row = base(r.name.clone(), format!("locks.{}", r.name), 0, created);
            row.owner = owner_of(w, &r.owner);
            row.ephemeral = r.expires_at.is_some();
            row.czxid = r.fence;
            let expiry = r.expires_at.map(|t| format!(", expires_at {t} (in {} ms)", t as i64 - w.now as i64)).unwrap_or_else(|| ", no expiry".into());
            let locked = s.row_locks.get(&r.name).map(|c| format!(", row-locked by C{}", *c as usize + 1)).unwrap_or_default();
            row.detail = format!("owner {}, fence {}{expiry}{locked}", r.owner, r.fence);
            if let Some(c) = s.row_locks.get(&r.name).filter(|c| (**c as usize) < w.clients.len()) {
                row.owner = Some(*c as usize);
            }
            row
        }).collect(),
        Service::ZooKeeper(_) => Vec::new(),
    }
}

fn redis_rows(w: &World, db: &crate::services::redis::db::Db, prefix: &str, created: &[String]) -> Vec<ZnodeRow> {
    db.keys
        .iter()
        .filter(|(k, _)| !db.expired(w.now, k))
        .map(|(k, e)| {
            let depth = usize::from(!prefix.is_empty());
            let mut row = base(format!("{prefix}{k}"), if prefix.is_empty() { k.clone() } else { format!("replica · {k}") }, depth, created);
            row.owner = owner_of(w, &e.value);
            row.ephemeral = e.expire_at.is_some();
            let ttl = e.expire_at.map(|t| format!("PTTL {}", t.saturating_sub(w.now))).unwrap_or_else(|| "TTL -1 (never expires)".into());
            row.detail = format!("{ttl}, value {}", e.value);
            row
        })
        .collect()
}

/// etcd watches (each waiter watches its predecessor's key).
pub fn watches(w: &World) -> Vec<WatchEdge> {
    match &w.service {
        Service::Etcd(e) => e.watchers.iter().filter(|x| (x.conn as usize) < w.clients.len()).map(|x| WatchEdge { client: x.conn as usize, path: x.key.clone(), child: false }).collect(),
        _ => Vec::new(),
    }
}

/// Ticks until the client's lease runs out at the service (etcd lease; Redis key TTL or SQL
/// expiry while it holds).
pub fn expiry(w: &World, c: &crate::sim::client::Client) -> Option<i64> {
    use crate::sim::world::Service;
    let left = |t: u64| t as i64 - w.now as i64;
    match &w.service {
        Service::Etcd(e) => c.recipe.etcd_lease().and_then(|l| e.leases.get(&l)).map(|l| left(l.expires_at)),
        Service::Redis(r) if w.svc_says_holder(c.id) => r.db.keys.get(crate::recipes::redis::KEY).and_then(|k| k.expire_at).map(left),
        Service::Sql(s) if w.svc_says_holder(c.id) => s.rows.get(crate::recipes::sql::ROW).and_then(|r| r.expires_at).map(left),
        _ => None,
    }
}

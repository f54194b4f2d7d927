//! etcd as a lock service: v3 requests in, responses and watch events out, the lessor's
//! expiry on the server's clock, a leader change as a stall plus lease re-arm, the holder as
//! etcd sees it (the lowest create revision under the lock prefix), and keys as typed rows.
//! Its client library is in `client.rs`.

use super::client::Lib;
use super::types::{EventKind, OpResp, Req, Resp, WatchMsg};
use super::{Etcd, ELECTION_TIMEOUT_MS};
use crate::narrate::{Detail, Key, Narration};
use crate::services::api::{
    self, Claim, ConnId, Failover, Lifetime, LockService, Outbox, Owner, Row, ServiceConfig, Tick,
    Watch,
};
use crate::services::reqlib::Waits;

pub type Up = Req;
pub type Server = Etcd;

/// etcd → client: the answer to a request, or events pushed on a watch stream.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Down {
    Resp(Resp),
    Watch(WatchMsg),
}

pub type Answer = Down;

/// What a recipe asks the etcd library for: a request, or keeping its session's lease alive
/// every so many ticks (`None`: stop).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Call {
    Req(Req),
    KeepAlive(Option<(i64, Tick)>),
}

type Out = Outbox<Down>;

pub fn service(_: &ServiceConfig) -> Etcd {
    Etcd::new()
}

pub fn lib(cfg: &ServiceConfig) -> Lib {
    Lib::new(cfg.read_timeout())
}

impl Waits for Req {
    fn waits(&self) -> bool {
        matches!(self, Req::LeaseKeepAlive { .. })
    }
}

/// One key, in etcd's words.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct KeyRow {
    pub key: String,
    pub create_revision: i64,
    pub mod_revision: i64,
    pub version: i64,
    /// 0: no lease.
    pub lease: i64,
    /// Milliseconds until the lease expires.
    pub lease_left: Option<u64>,
}

impl Row for KeyRow {
    fn id(&self) -> String {
        self.key.clone()
    }
    fn name(&self) -> String {
        self.key.clone()
    }
    fn owner(&self) -> Option<Owner> {
        (self.lease != 0).then_some(Owner::Lease(self.lease))
    }
    fn lifetime(&self) -> Lifetime {
        if self.lease == 0 {
            Lifetime::Persistent
        } else {
            Lifetime::Expiring(self.lease_left.map(|ms| ms as i64))
        }
    }
    fn stamp(&self) -> Option<(&'static str, i64)> {
        Some(("create_revision", self.create_revision))
    }
    fn fields(&self) -> Vec<(&'static str, String)> {
        let mut f = vec![
            ("create_revision", self.create_revision.to_string()),
            ("mod_revision", self.mod_revision.to_string()),
            ("version", self.version.to_string()),
        ];
        if self.lease != 0 {
            f.push(("lease", format!("{:x}", self.lease)));
            f.extend(self.lease_left.map(|ms| ("expires in", format!("{ms} ms"))));
        }
        f
    }
}

pub type Entry = KeyRow;

/// A request as arrows and narration show it.
pub fn label(r: &Req) -> String {
    use super::types::Op;
    match r {
        Req::Kv(Op::Txn { .. }) => "txn".into(),
        Req::Kv(Op::Put { key, .. }) => format!("put {key}"),
        Req::Kv(Op::Range(q)) => format!("range {}", q.key),
        Req::Kv(Op::Delete { key, .. }) => format!("delete {key}"),
        Req::LeaseGrant { ttl } => format!("lease grant {ttl}s"),
        Req::LeaseKeepAlive { .. } => "keep-alive".into(),
        Req::LeaseTimeToLive { .. } => "lease ttl".into(),
        Req::LeaseRevoke { .. } => "lease revoke".into(),
        Req::Watch {
            key,
            start_revision,
            ..
        } => format!("watch {key} from {start_revision}"),
        Req::CancelWatch { .. } => "cancel watch".into(),
    }
}

impl Down {
    pub fn label(&self) -> String {
        match self {
            Down::Resp(r) => answer_label(r),
            Down::Watch(m) => m
                .events
                .iter()
                .map(|e| e.render())
                .collect::<Vec<_>>()
                .join("; "),
        }
    }
}

fn answer_label(r: &Resp) -> String {
    let first = |resp: &OpResp| match resp {
        OpResp::Range { kvs, .. } => kvs.first().map_or("kvs=[]".to_string(), |kv| {
            format!("kvs[0]={} create_revision={}", kv.key, kv.create_revision)
        }),
        other => other.render(),
    };
    match r {
        Resp::Kv {
            revision,
            resp: OpResp::Txn {
                succeeded,
                responses,
            },
        } => {
            let owner = responses.last().map(first).unwrap_or_default();
            format!("rev {revision}: succeeded={succeeded}, {owner}")
        }
        Resp::Kv { revision, resp } => format!("rev {revision}: {}", first(resp)),
        Resp::Granted { id, ttl } => format!("lease {id:x}, TTL {ttl}s"),
        other => other.render(),
    }
}

impl Etcd {
    /// Keys deleted in revisions after `rev` (from the revision's events, newest first).
    fn deleted_since(&self, rev: i64) -> Vec<String> {
        let new = self
            .store
            .history
            .iter()
            .rev()
            .take_while(|(r, _)| *r > rev);
        new.filter(|(_, ev)| ev.kind == EventKind::Delete)
            .map(|(_, ev)| ev.kv.key.clone())
            .collect()
    }

    /// Keys created in revisions after `rev`.
    fn created_since(&self, rev: i64) -> Vec<String> {
        let new = self
            .store
            .history
            .iter()
            .rev()
            .take_while(|(r, _)| *r > rev);
        new.filter(|(_, ev)| ev.kind == EventKind::Put && ev.kv.version == 1)
            .map(|(_, ev)| ev.kv.key.clone())
            .collect()
    }

    fn push_watch(out: &mut Out, msgs: Vec<WatchMsg>) {
        for m in msgs {
            out.send(m.conn as ConnId, Down::Watch(m));
        }
    }
}

impl LockService for Etcd {
    type Peer = crate::services::NoPeer;
    type Up = Req;
    type Down = Down;
    type Entry = KeyRow;

    fn receive(&mut self, now: Tick, conn: ConnId, req: Req, out: &mut Out) -> Narration {
        let before = self.store.revision;
        let (resp, msgs) = self.request(now, conn as u32, &req);
        out.created.extend(self.created_since(before));
        out.deleted.extend(self.deleted_since(before));
        out.send(conn, Down::Resp(resp));
        Etcd::push_watch(out, msgs);
        api::answered(conn, label(&req), out, Down::label)
    }

    fn hangup(&mut self, _: Tick, conn: ConnId, out: &mut Out) -> Narration {
        let before = self.store.revision;
        self.close(conn as u32);
        out.deleted.extend(self.deleted_since(before));
        Narration::new(Key::SvcHangup, Some(conn)).a("")
    }

    fn next_deadline(&self) -> Option<Tick> {
        Etcd::next_deadline(self)
    }

    fn tick(&mut self, now: Tick, out: &mut Out) -> Narration {
        let before = self.store.revision;
        let msgs = Etcd::tick(self, now);
        Etcd::push_watch(out, msgs);
        let gone = self.deleted_since(before);
        out.deleted.extend(gone.iter().cloned());
        if gone.is_empty() {
            return Narration::new(Key::ServiceTick, None);
        }
        Narration::new(Key::SvcExpiry, None).b(Detail::Nodes(gone))
    }

    /// `etcdctl lease revoke`: the lease and every key on it go at once.
    fn expire(&mut self, now: Tick, claim: &Claim<'_>, out: &mut Out) -> Option<Narration> {
        let id = claim.lease?;
        let (_, msgs) = self.request(now, u32::MAX, &Req::LeaseRevoke { id });
        Etcd::push_watch(out, msgs);
        Some(Narration::new(Key::CmdExpire, Some(claim.conn)))
    }

    fn failover(&mut self, now: Tick, _: &mut Out) -> Failover {
        self.elect(now);
        Failover {
            key: Key::FailoverEtcd,
            stall: ELECTION_TIMEOUT_MS,
        }
    }

    /// The owner is the key with the lowest create revision under the claim's prefix.
    fn holds(&self, _: Tick, claim: &Claim<'_>) -> bool {
        let Some(node) = claim.node else { return false };
        let prefix = &node[..node.rfind('/').map_or(0, |i| i + 1)];
        let first = self
            .store
            .kvs
            .values()
            .filter(|kv| kv.key.starts_with(prefix))
            .min_by_key(|kv| kv.create_revision);
        first.is_some_and(|kv| kv.key == node)
    }

    fn expires_in(&self, now: Tick, claim: &Claim<'_>) -> Option<i64> {
        self.leases
            .get(&claim.lease?)
            .map(|l| l.expires_at as i64 - now as i64)
    }

    fn watches(&self) -> Vec<Watch> {
        self.watchers
            .iter()
            .map(|x| Watch {
                conn: x.conn as ConnId,
                path: x.key.clone(),
                child: false,
                on_missing: false,
            })
            .collect()
    }

    fn entries(&self, now: Tick) -> Vec<KeyRow> {
        let row = |kv: &super::types::Kv| KeyRow {
            key: kv.key.clone(),
            create_revision: kv.create_revision,
            mod_revision: kv.mod_revision,
            version: kv.version,
            lease: kv.lease,
            lease_left: self
                .leases
                .get(&kv.lease)
                .map(|l| l.expires_at.saturating_sub(now)),
        };
        self.store.kvs.values().map(row).collect()
    }

    fn stamp(&self) -> Option<(&'static str, i64)> {
        Some(("revision", self.store.revision))
    }

    fn up_label(m: &Req) -> String {
        label(m)
    }
    fn up_is_heartbeat(m: &Req) -> bool {
        matches!(m, Req::LeaseKeepAlive { .. })
    }
    fn down_label(m: &Down) -> String {
        m.label()
    }
    fn is_event(m: &Down) -> bool {
        matches!(m, Down::Watch(_))
    }
    fn down_is_heartbeat(m: &Down) -> bool {
        matches!(m, Down::Resp(Resp::KeepAlive { .. }))
    }
}

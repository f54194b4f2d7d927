//! Redis's keys as the stage draws them: one row per key per server (another server's copy
//! carries its server in its id), and which keys a command created or removed.

use super::servers::Peer;
use super::Redis;
use crate::services::api::{Lifetime, Outbox, Owner, Row, Tick};

type Out = Outbox<super::Reply, Peer>;

/// One key, in Redis's words.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct KeyRow {
    pub key: String,
    pub value: String,
    /// Milliseconds left (`PTTL`); `None`: no expiry (`TTL` -1).
    pub pttl: Option<u64>,
    /// The replica's copy.
    pub replica: bool,
    /// The server holding this copy.
    pub server: crate::services::ServerId,
}

impl Row for KeyRow {
    fn no_expiry(&self) -> Option<[&'static str; 2]> {
        Some(["no TTL (-1)", "无过期 (-1)"])
    }
    fn id(&self) -> String {
        crate::services::on_server(self.server, &self.key)
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
    fn server(&self) -> crate::services::ServerId {
        self.server
    }
}

pub type Entry = KeyRow;

impl Redis {
    /// Every key id, on its server (`lock`, `@1:lock`).
    pub(super) fn keys_now(&self) -> Vec<String> {
        let on = crate::services::on_server;
        let (p, r) = (self.primary_id(), self.replica_server().unwrap_or(1));
        let replica = self
            .replica
            .iter()
            .flat_map(|x| x.db.keys.keys().map(move |k| on(r, k)));
        self.db
            .keys
            .keys()
            .map(|k| on(p, k))
            .chain(replica)
            .collect()
    }

    /// Records the keys that appeared and went since `before`.
    pub(super) fn diff(&self, before: Vec<String>, out: &mut Out) -> Vec<String> {
        let after = self.keys_now();
        out.created
            .extend(after.iter().filter(|k| !before.contains(k)).cloned());
        let gone: Vec<String> = before.into_iter().filter(|k| !after.contains(k)).collect();
        out.deleted.extend(gone.iter().cloned());
        gone
    }

    pub(super) fn rows(&self, now: Tick, db: &super::db::Db, replica: bool) -> Vec<KeyRow> {
        let server = match replica {
            true => self.replica_server().unwrap_or(1),
            false => self.primary_id(),
        };
        let live = db.keys.iter().filter(|(k, _)| !db.expired(now, k));
        live.map(|(k, e)| KeyRow {
            key: k.clone(),
            value: e.display(),
            pttl: e.expire_at.map(|t| t.saturating_sub(now)),
            replica,
            server,
        })
        .collect()
    }
}

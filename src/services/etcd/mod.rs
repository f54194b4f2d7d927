//! An etcd 3.4 server model (one member): the MVCC store, leases with TTLs that only
//! keep-alives extend (expiry checked every 500 ms, keys deleted in one revision), and
//! watches that replay history from a start revision and then stream live events.

pub mod client;
pub mod replay;
pub mod service;
pub mod store;
pub mod types;

use crate::sorted::SortedMap;

use serde::{Deserialize, Serialize};

pub use client::Lib;
pub use service::{lib, service, Answer, Call, Down, Entry, KeyRow, Server, Up};

/// How the view presents etcd: keys on leases whose TTL is whole seconds; a session is a
/// lease that can be revoked.
pub const LOOK: super::look::Look = super::look::Look {
    product: "etcd 3.4",
    contents: None,
    entry: ["key", "键"],
    ttl: |ms| Some(format!("TTL {}s", (ms + 999) / 1000)),
    end_session: Some("act.revoke"),
    lane: "etcd",
    lean: false,
    znodes: false,
    peers: false,
    library_wait: 0,
};
use store::Store;
use types::{Event, Op, Req, Resp, WatchMsg};

/// Smallest TTL a grant gets: ceil(1.5 × election timeout of 1 s).
pub const MIN_TTL_S: i64 = 2;
/// The lessor looks for expired leases this often.
pub const EXPIRY_CHECK_MS: u64 = 500;
/// Default election timeout: a new leader re-arms every lease to TTL plus this.
pub const ELECTION_TIMEOUT_MS: u64 = 1000;
/// Lease IDs come from a member-based generator; any large positive numbers will do.
const FIRST_LEASE_ID: i64 = 0x694d_7a3c_1b2e_0001;

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Lease {
    pub ttl: i64,
    pub expires_at: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Watcher {
    pub conn: u32,
    pub watch_id: i64,
    pub key: String,
    pub prefix: bool,
    /// Live events below this revision are not sent (a watch from a future revision).
    pub from: i64,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Etcd {
    pub store: Store,
    pub leases: SortedMap<i64, Lease>,
    pub watchers: Vec<Watcher>,
    pub next_lease: i64,
}

fn err(code: u32, message: &str) -> Resp {
    Resp::Error {
        code,
        message: format!("etcdserver: {message}"),
    }
}

impl Etcd {
    pub fn new() -> Etcd {
        Etcd {
            next_lease: FIRST_LEASE_ID,
            ..Etcd::default()
        }
    }

    /// One request from connection `conn`; also returns the watch messages it caused.
    pub fn request(&mut self, now: u64, conn: u32, req: &Req) -> (Resp, Vec<WatchMsg>) {
        match req {
            Req::Kv(op) => self.kv(op),
            Req::LeaseGrant { ttl } => (self.grant(now, *ttl), Vec::new()),
            // An expired lease awaiting the lessor's revoke cannot be renewed: "not found".
            Req::LeaseKeepAlive { id } => {
                let ttl = self
                    .leases
                    .get_mut(id)
                    .filter(|l| l.expires_at > now)
                    .map(|l| {
                        l.expires_at = now + l.ttl as u64 * 1000;
                        l.ttl
                    });
                (
                    Resp::KeepAlive {
                        id: *id,
                        ttl: ttl.unwrap_or(0),
                    },
                    Vec::new(),
                )
            }
            Req::LeaseTimeToLive { id } => (self.time_to_live(now, *id), Vec::new()),
            Req::LeaseRevoke { id } if !self.leases.contains_key(id) => {
                (err(5, "requested lease not found"), Vec::new())
            }
            Req::LeaseRevoke { id } => {
                let msgs = self.revoke(*id);
                (
                    Resp::Revoked {
                        revision: self.store.revision,
                    },
                    msgs,
                )
            }
            Req::Watch {
                watch_id,
                key,
                prefix,
                start_revision,
            } => self.watch(conn, *watch_id, key, *prefix, *start_revision),
            Req::CancelWatch { watch_id } => {
                self.watchers
                    .retain(|w| !(w.conn == conn && w.watch_id == *watch_id));
                (
                    Resp::WatchCanceled {
                        watch_id: *watch_id,
                    },
                    Vec::new(),
                )
            }
        }
    }

    fn kv(&mut self, op: &Op) -> (Resp, Vec<WatchMsg>) {
        if let Some(e) = self.invalid(op) {
            return (e, Vec::new());
        }
        let mut events = Vec::new();
        let resp = self.store.apply(op, self.store.revision + 1, &mut events);
        let events = self.store.commit(events);
        (
            Resp::Kv {
                revision: self.store.revision,
                resp,
            },
            self.notify(&events),
        )
    }

    /// Request checks made before anything runs: empty keys, duplicate txn keys, unknown leases.
    fn invalid(&self, op: &Op) -> Option<Resp> {
        match op {
            Op::Put { key, .. } | Op::Delete { key, .. } if key.is_empty() => {
                Some(err(3, "key is not provided"))
            }
            Op::Range(r) if r.key.is_empty() => Some(err(3, "key is not provided")),
            Op::Put { lease, .. } if *lease != 0 && !self.leases.contains_key(lease) => {
                Some(err(5, "requested lease not found"))
            }
            Op::Txn {
                compares,
                success,
                failure,
            } => {
                if store::duplicate_keys(success) || store::duplicate_keys(failure) {
                    return Some(err(3, "duplicate key given in txn request"));
                }
                // Leases are checked in the branch that will run (as the apply does).
                let runs = if compares.iter().all(|c| self.store.compare(c)) {
                    success
                } else {
                    failure
                };
                runs.iter().find_map(|o| self.invalid(o))
            }
            _ => None,
        }
    }

    fn grant(&mut self, now: u64, ttl: i64) -> Resp {
        if ttl > 9_000_000_000 {
            return err(11, "too large lease TTL");
        }
        let ttl = ttl.max(MIN_TTL_S);
        let id = self.next_lease;
        self.next_lease += 1;
        self.leases.insert(
            id,
            Lease {
                ttl,
                expires_at: now + ttl as u64 * 1000,
            },
        );
        Resp::Granted { id, ttl }
    }

    fn time_to_live(&self, now: u64, id: i64) -> Resp {
        match self.leases.get(&id) {
            None => Resp::TimeToLive {
                id,
                ttl: -1,
                granted: 0,
            },
            Some(l) => {
                let ms = l.expires_at.saturating_sub(now) as i64;
                Resp::TimeToLive {
                    id,
                    ttl: ms / 1000,
                    granted: l.ttl,
                }
            }
        }
    }

    /// Revokes a lease: all its keys go in one revision.
    fn revoke(&mut self, id: i64) -> Vec<WatchMsg> {
        self.leases.remove(&id);
        let doomed: Vec<Op> = self
            .store
            .kvs
            .values()
            .filter(|kv| kv.lease == id)
            .map(|kv| Op::Delete {
                key: kv.key.clone(),
                prefix: false,
            })
            .collect();
        let mut events = Vec::new();
        let rev = self.store.revision + 1;
        for op in &doomed {
            self.store.apply(op, rev, &mut events);
        }
        let events = self.store.commit(events);
        self.notify(&events)
    }

    fn watch(
        &mut self,
        conn: u32,
        watch_id: i64,
        key: &str,
        prefix: bool,
        start: i64,
    ) -> (Resp, Vec<WatchMsg>) {
        let w = Watcher {
            conn,
            watch_id,
            key: key.into(),
            prefix,
            from: start,
        };
        let mut msgs = Vec::new();
        if start > 0 {
            let past: Vec<(i64, Event)> = self
                .store
                .history
                .iter()
                .filter(|(r, e)| *r >= start && w.matches(e))
                .cloned()
                .collect();
            msgs = group(conn, watch_id, past);
        }
        self.watchers.push(w);
        (Resp::WatchCreated { watch_id }, msgs)
    }

    /// Live events of one revision, one message per interested watcher.
    fn notify(&self, events: &[Event]) -> Vec<WatchMsg> {
        self.watchers
            .iter()
            .filter_map(|w| {
                let mine: Vec<Event> = events
                    .iter()
                    .filter(|e| w.matches(e) && e.kv.mod_revision >= w.from)
                    .cloned()
                    .collect();
                (!mine.is_empty()).then(|| WatchMsg {
                    conn: w.conn,
                    watch_id: w.watch_id,
                    events: mine,
                })
            })
            .collect()
    }

    /// The connection closed: its watches end (its leases live on until they expire).
    pub fn close(&mut self, conn: u32) {
        self.watchers.retain(|w| w.conn != conn);
    }

    /// The lessor's check: revokes every lease that has expired by `now`.
    pub fn tick(&mut self, now: u64) -> Vec<WatchMsg> {
        let due: Vec<i64> = self
            .leases
            .iter()
            .filter(|(_, l)| l.expires_at <= now)
            .map(|(id, _)| *id)
            .collect();
        due.into_iter().flat_map(|id| self.revoke(id)).collect()
    }

    /// The next lessor check that will find an expired lease.
    pub fn next_deadline(&self) -> Option<u64> {
        let first = self.leases.values().map(|l| l.expires_at).min()?;
        Some(first.div_ceil(EXPIRY_CHECK_MS) * EXPIRY_CHECK_MS)
    }

    /// A leader change: the new leader re-arms every lease to its TTL plus the election timeout.
    pub fn elect(&mut self, now: u64) {
        for l in self.leases.values_mut() {
            l.expires_at = now + l.ttl as u64 * 1000 + ELECTION_TIMEOUT_MS;
        }
    }
}

impl Watcher {
    fn matches(&self, e: &Event) -> bool {
        store::in_range(&e.kv.key, &self.key, self.prefix)
    }
}

/// History replayed from a start revision arrives as one batch (as etcd's watch sync sends it).
fn group(conn: u32, watch_id: i64, events: Vec<(i64, Event)>) -> Vec<WatchMsg> {
    if events.is_empty() {
        return Vec::new();
    }
    vec![WatchMsg {
        conn,
        watch_id,
        events: events.into_iter().map(|(_, e)| e).collect(),
    }]
}

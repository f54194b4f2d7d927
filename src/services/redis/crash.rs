//! A Redis server of the simulator's pair crashes and restarts. A crash loses the server's
//! memory (its keys, connections and replication buffer); a restart brings back what its disk
//! had at the crash (an AOF with `appendfsync always`) or nothing. A restarted replica asks
//! its primary for a full resynchronisation, which arrives as one message with the whole
//! keyspace (`FULLRESYNC`).

use crate::sorted::SortedMap;

use super::db::{Db, Entry};
use super::servers::{Pair, Peer};
use super::{Redis, Replica};
use crate::services::api::ServerId;

/// What a crashed server's disk kept.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Disk {
    pub keys: SortedMap<String, Entry>,
}

impl Redis {
    fn pair_mut(&mut self) -> Option<&mut Pair> {
        self.pair.as_mut()
    }

    /// Whether server `s` exists and is up.
    fn is_up(&self, s: ServerId) -> bool {
        let exists = usize::from(s) < self.server_list().len();
        exists && self.pair.as_ref().is_some_and(|p| !p.down[usize::from(s)])
    }

    /// Server `s` crashes; false if it is not a running server.
    pub fn crash(&mut self, s: ServerId) -> bool {
        if !self.is_up(s) {
            return false;
        }
        let primary = self.primary_id() == s;
        let keys = if primary {
            let keys = std::mem::take(&mut self.db.keys);
            self.db = Db::default();
            self.conns.clear();
            keys
        } else {
            let r = self.replica.get_or_insert_with(Replica::default);
            r.link_cut = true;
            std::mem::take(&mut r.db.keys)
        };
        let Some(p) = self.pair_mut() else {
            return false;
        };
        p.down[usize::from(s)] = true;
        p.disks[usize::from(s)] = Some(Disk { keys });
        if primary {
            p.outgoing.clear();
        }
        true
    }

    /// Server `s` starts again from its disk or empty; a replica then asks for a full resync.
    /// False if it was not down.
    pub fn restart(&mut self, s: ServerId, keep_disk: bool) -> bool {
        let Some(p) = self.pair_mut() else {
            return false;
        };
        if !p.down.get(usize::from(s)).copied().unwrap_or(false) {
            return false;
        }
        p.down[usize::from(s)] = false;
        let disk = p.disks[usize::from(s)].take().filter(|_| keep_disk);
        let keys = disk.map(|d| d.keys).unwrap_or_default();
        if self.primary_id() == s {
            self.db.keys = keys;
            return true;
        }
        let lag = self.replica.as_ref().map_or(0, |r| r.lag);
        self.replica = Some(Replica {
            db: Db {
                keys,
                replica: true,
                ..Db::default()
            },
            lag,
            link_cut: true,
            ..Replica::default()
        });
        self.full_sync_to(s);
        true
    }

    /// The primary snapshots its keyspace for replica `to` (it leaves at once).
    fn full_sync_to(&mut self, to: ServerId) {
        let from = self.primary_id();
        if !self.is_up(from) {
            return;
        }
        let snapshot = Peer::FullSync {
            offset: self.offset,
            keys: self.db.keys.clone(),
        };
        if let Some(p) = self.pair_mut() {
            p.outgoing.clear();
            p.behind = 0;
            p.sync.push((from, to, snapshot));
        }
    }

    /// A full resync arrives at the replica: it takes the snapshot and follows the stream
    /// from the snapshot's offset on.
    pub fn full_sync_in(&mut self, offset: u64, keys: &SortedMap<String, Entry>) -> bool {
        let Some(r) = self.replica.as_mut() else {
            return false;
        };
        r.db.keys = keys.clone();
        r.offset = offset;
        r.link_cut = false;
        true
    }
}

//! A Redis keyspace of strings with millisecond expiry: lazy reclaim on access (primary), hiding
//! without deleting (replica), and the per-key modification counters WATCH compares.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// One key's value and its absolute expiry time (server clock, ms).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Entry {
    pub value: String,
    pub expire_at: Option<u64>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Db {
    pub keys: BTreeMap<String, Entry>,
    /// Writes per key (any write touches WATCH, even of the same value).
    pub writes: BTreeMap<String, u64>,
    /// Deletions by expiry per key.
    pub expirations: BTreeMap<String, u64>,
    /// A replica never deletes expired keys itself; it only hides them.
    pub replica: bool,
    /// Writes to replicate, already rewritten to absolute times (`PXAT`, `PEXPIREAT`).
    pub outbox: Vec<Vec<String>>,
}

impl Db {
    pub fn expired(&self, now: u64, key: &str) -> bool {
        self.keys.get(key).is_some_and(|e| e.expire_at.is_some_and(|t| t <= now))
    }

    /// The live entry, reclaiming it first if it has expired (primary only).
    pub fn live(&mut self, now: u64, key: &str) -> Option<&Entry> {
        if self.expired(now, key) {
            if self.replica {
                return None;
            }
            self.expire(key);
        }
        self.keys.get(key)
    }

    /// Deletes an expired key and propagates the DEL, as `deleteExpiredKeyAndPropagate` does.
    pub fn expire(&mut self, key: &str) {
        if self.keys.remove(key).is_some() {
            *self.expirations.entry(key.to_string()).or_default() += 1;
            self.outbox.push(vec!["DEL".into(), key.into()]);
        }
    }

    pub fn touch(&mut self, key: &str) {
        *self.writes.entry(key.to_string()).or_default() += 1;
    }

    /// Writes a value; `expire_at` None clears any TTL. Propagates as SET … PXAT.
    pub fn set(&mut self, key: &str, value: &str, expire_at: Option<u64>) {
        self.keys.insert(key.into(), Entry { value: value.into(), expire_at });
        self.touch(key);
        let mut cmd = vec!["SET".to_string(), key.into(), value.into()];
        if let Some(t) = expire_at {
            cmd.extend(["PXAT".to_string(), t.to_string()]);
        }
        self.outbox.push(cmd);
    }

    pub fn del(&mut self, now: u64, key: &str) -> bool {
        if self.live(now, key).is_none() {
            return false;
        }
        self.keys.remove(key);
        self.touch(key);
        self.outbox.push(vec!["DEL".into(), key.into()]);
        true
    }

    /// Sets or clears the expiry of an existing key (propagated as PEXPIREAT / PERSIST).
    pub fn set_expiry(&mut self, key: &str, at: Option<u64>) {
        if let Some(e) = self.keys.get_mut(key) {
            e.expire_at = at;
            self.touch(key);
            let cmd = match at {
                Some(t) => vec!["PEXPIREAT".into(), key.into(), t.to_string()],
                None => vec!["PERSIST".into(), key.into()],
            };
            self.outbox.push(cmd);
        }
    }

    /// The earliest expiry time of any key (for active expiry).
    pub fn next_expiry(&self) -> Option<u64> {
        self.keys.values().filter_map(|e| e.expire_at).min()
    }

    /// Active expiry: reclaims every key that has expired by `now` (primary only).
    pub fn active_expire(&mut self, now: u64) {
        if self.replica {
            return;
        }
        let due: Vec<String> = self.keys.iter().filter(|(_, e)| e.expire_at.is_some_and(|t| t <= now)).map(|(k, _)| k.clone()).collect();
        for k in due {
            self.expire(&k);
        }
    }

    /// Applies a replicated write (absolute times) on a replica.
    pub fn apply_replicated(&mut self, cmd: &[String]) {
        let key = cmd.get(1).cloned().unwrap_or_default();
        let at = |i: usize| cmd.get(i).and_then(|s| s.parse::<u64>().ok());
        match cmd.first().map(String::as_str) {
            Some("SET") => {
                self.keys.insert(key.clone(), Entry { value: cmd.get(2).cloned().unwrap_or_default(), expire_at: at(4) });
            }
            Some("DEL") => {
                self.keys.remove(&key);
            }
            Some("PEXPIREAT") => {
                if let Some(e) = self.keys.get_mut(&key) {
                    e.expire_at = at(2);
                }
            }
            Some("PERSIST") => {
                if let Some(e) = self.keys.get_mut(&key) {
                    e.expire_at = None;
                }
            }
            _ => return,
        }
        self.touch(&key);
    }
}

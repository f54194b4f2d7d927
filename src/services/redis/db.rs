//! A Redis keyspace of strings and lists with millisecond expiry: lazy reclaim on access
//! (primary), hiding without deleting (replica), the per-key modification counters WATCH
//! compares, the server's script cache and its active-expiry switch.

use crate::sorted::SortedMap;
use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use super::reply::Reply;

/// A key's value: a string or a list.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Value {
    Str(String),
    List(VecDeque<String>),
}

/// One key's value and its absolute expiry time (server clock, ms).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Entry {
    pub value: Value,
    pub expire_at: Option<u64>,
}

impl Entry {
    /// The string value (`None` for a list).
    pub fn str(&self) -> Option<&str> {
        match &self.value {
            Value::Str(s) => Some(s),
            Value::List(_) => None,
        }
    }

    /// `string` or `list`, as TYPE answers.
    pub fn kind(&self) -> &'static str {
        match self.value {
            Value::Str(_) => "string",
            Value::List(_) => "list",
        }
    }

    /// The value in one line: a string as it is, a list as `[a, b]`.
    pub fn display(&self) -> String {
        match &self.value {
            Value::Str(s) => s.clone(),
            Value::List(l) => format!("[{}]", l.iter().cloned().collect::<Vec<_>>().join(", ")),
        }
    }
}

/// `WRONGTYPE Operation against a key holding the wrong kind of value`.
pub fn wrongtype() -> Reply {
    Reply::Error("WRONGTYPE Operation against a key holding the wrong kind of value".into())
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Db {
    pub keys: SortedMap<String, Entry>,
    /// Writes per key (any write touches WATCH, even of the same value).
    pub writes: SortedMap<String, u64>,
    /// Deletions by expiry per key.
    pub expirations: SortedMap<String, u64>,
    /// A replica never deletes expired keys itself; it only hides them.
    pub replica: bool,
    /// Commands to replicate, as Redis 7.0 propagates them (relative times rewritten to
    /// absolute ones: `SET … PXAT`, `PEXPIREAT`; BLPOP as LPOP; lazily expired keys as DEL).
    pub outbox: Vec<Vec<String>>,
    /// This server's script cache, SHA1 (lowercase hex) → text: SCRIPT LOAD and EVAL fill it,
    /// SCRIPT FLUSH empties it, and it is not replicated.
    pub scripts: SortedMap<String, String>,
    /// `DEBUG SET-ACTIVE-EXPIRE 0`: a key past its TTL stays until a command touches it.
    pub lazy_only: bool,
}

impl Db {
    pub fn expired(&self, now: u64, key: &str) -> bool {
        self.keys
            .get(key)
            .is_some_and(|e| e.expire_at.is_some_and(|t| t <= now))
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

    /// The live entry's string; `Err(WRONGTYPE)` for a list.
    pub fn live_str(&mut self, now: u64, key: &str) -> Result<Option<String>, Reply> {
        match self.live(now, key) {
            None => Ok(None),
            Some(e) => e.str().map(|s| Some(s.to_string())).ok_or_else(wrongtype),
        }
    }

    /// Deletes an expired key and propagates the DEL, as `deleteExpiredKeyAndPropagate` does.
    pub fn expire(&mut self, key: &str) {
        if self.keys.remove(key).is_some() {
            *self.expirations.entry(key.to_string()).or_default() += 1;
            self.propagate(&["DEL", key]);
        }
    }

    pub fn touch(&mut self, key: &str) {
        *self.writes.entry(key.to_string()).or_default() += 1;
    }

    /// Queues a command for the replicas.
    pub fn propagate<S: AsRef<str>>(&mut self, cmd: &[S]) {
        self.outbox
            .push(cmd.iter().map(|s| s.as_ref().to_string()).collect());
    }

    /// Writes a string; `expire_at` None clears any TTL. The caller propagates.
    pub fn set(&mut self, key: &str, value: &str, expire_at: Option<u64>) {
        self.put(key, Value::Str(value.into()), expire_at);
    }

    pub fn put(&mut self, key: &str, value: Value, expire_at: Option<u64>) {
        self.keys.insert(key.into(), Entry { value, expire_at });
        self.touch(key);
    }

    /// Deletes a live key (the caller propagates).
    pub fn del(&mut self, now: u64, key: &str) -> bool {
        if self.live(now, key).is_none() {
            return false;
        }
        self.keys.remove(key);
        self.touch(key);
        true
    }

    /// Sets or clears the expiry of an existing key (the caller propagates).
    pub fn set_expiry(&mut self, key: &str, at: Option<u64>) {
        if let Some(e) = self.keys.get_mut(key) {
            e.expire_at = at;
            self.touch(key);
        }
    }

    /// The earliest expiry time of any key (for active expiry; none while it is switched off).
    pub fn next_expiry(&self) -> Option<u64> {
        if self.lazy_only {
            return None;
        }
        self.keys.values().filter_map(|e| e.expire_at).min()
    }

    /// Active expiry: reclaims every key that has expired by `now` (primary, switch on).
    pub fn active_expire(&mut self, now: u64) {
        if self.replica || self.lazy_only {
            return;
        }
        let due: Vec<String> = self
            .keys
            .iter()
            .filter(|(_, e)| e.expire_at.is_some_and(|t| t <= now))
            .map(|(k, _)| k.clone())
            .collect();
        for k in due {
            self.expire(&k);
        }
    }
}

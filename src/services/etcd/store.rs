//! The MVCC key space: one store-wide revision, create/mod revisions and versions, range reads
//! with etcd's sort/limit/filter rules, transactions, and the event history watches replay.

use crate::sorted::SortedMap;

use serde::{Deserialize, Serialize};

use super::types::{CmpOp, Compare, Event, EventKind, Kv, Op, OpResp, Order, RangeReq, Target};

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Store {
    pub revision: i64,
    pub kvs: SortedMap<String, Kv>,
    /// Every event, in revision order (no compaction).
    pub history: Vec<(i64, Event)>,
}

impl Default for Store {
    fn default() -> Self {
        Store {
            revision: 1,
            kvs: SortedMap::new(),
            history: Vec::new(),
        }
    }
}

/// `[key, prefix end)`: the key with its last byte incremented.
pub fn prefix_end(key: &str) -> String {
    let mut b = key.as_bytes().to_vec();
    while let Some(last) = b.pop() {
        if last < 0xff {
            b.push(last + 1);
            return String::from_utf8_lossy(&b).into_owned();
        }
    }
    "\0".into()
}

pub fn in_range(k: &str, key: &str, prefix: bool) -> bool {
    if prefix {
        k >= key && k < prefix_end(key).as_str()
    } else {
        k == key
    }
}

fn sort_key(kv: &Kv, t: Target) -> (i64, String) {
    match t {
        Target::Key => (0, kv.key.clone()),
        Target::Create => (kv.create_revision, String::new()),
        Target::Mod => (kv.mod_revision, String::new()),
        Target::Version => (kv.version, String::new()),
        Target::Value => (0, kv.value.clone()),
    }
}

impl Store {
    pub fn range(&self, r: &RangeReq) -> OpResp {
        let mut kvs: Vec<Kv> = self
            .kvs
            .values()
            .filter(|kv| in_range(&kv.key, &r.key, r.prefix))
            .cloned()
            .collect();
        let count = kvs.len() as i64;
        if r.count_only {
            return OpResp::Range {
                kvs: Vec::new(),
                count,
                more: false,
            };
        }
        let order = r.sort.map(|(_, o)| o).unwrap_or(Order::None);
        // Without an explicit order or a filter, the store applies the limit in key order first.
        if order == Order::None
            && r.max_create_revision == 0
            && r.limit > 0
            && kvs.len() as i64 > r.limit
        {
            kvs.truncate(r.limit as usize);
            let mut resp = self.sorted(kvs, r);
            if let OpResp::Range { count: c, more, .. } = &mut resp {
                (*c, *more) = (count, true);
            }
            return resp;
        }
        if r.max_create_revision > 0 {
            kvs.retain(|kv| kv.create_revision <= r.max_create_revision);
        }
        let mut resp = self.sorted(kvs, r);
        if let OpResp::Range { count: c, .. } = &mut resp {
            *c = count;
        }
        resp
    }

    /// Sorts (stably, ties keep key order as Go's insertion sort does on short slices) and
    /// applies the limit.
    fn sorted(&self, mut kvs: Vec<Kv>, r: &RangeReq) -> OpResp {
        if let Some((t, order)) = r.sort {
            if order == Order::Descend {
                crate::sort::by(&mut kvs, |a, b| sort_key(b, t).cmp(&sort_key(a, t)));
            } else {
                crate::sort::by_key(&mut kvs, |kv| sort_key(kv, t));
            }
        }
        let count = kvs.len() as i64;
        let more = r.limit > 0 && kvs.len() as i64 > r.limit;
        if more {
            kvs.truncate(r.limit as usize);
        }
        OpResp::Range { kvs, count, more }
    }

    pub fn compare(&self, c: &Compare) -> bool {
        let kv = self.kvs.get(&c.key);
        let ord = match c.target {
            Target::Value => match kv {
                None => return false,
                Some(kv) => kv.value.as_str().cmp(c.value.as_str()),
            },
            t => {
                let have = kv.map(|kv| sort_key(kv, t).0).unwrap_or(0);
                have.cmp(&c.value.parse::<i64>().unwrap_or(0))
            }
        };
        match c.op {
            CmpOp::Equal => ord.is_eq(),
            CmpOp::NotEqual => ord.is_ne(),
            CmpOp::Greater => ord.is_gt(),
            CmpOp::Less => ord.is_lt(),
        }
    }

    /// Runs one op; writes use `rev` (the revision this request will take if it changes
    /// anything) and push their events.
    pub fn apply(&mut self, op: &Op, rev: i64, events: &mut Vec<Event>) -> OpResp {
        match op {
            Op::Put { key, value, lease } => {
                let old = self.kvs.get(key);
                let (create, version) = old
                    .map(|o| (o.create_revision, o.version + 1))
                    .unwrap_or((rev, 1));
                let kv = Kv {
                    key: key.clone(),
                    value: value.clone(),
                    create_revision: create,
                    mod_revision: rev,
                    version,
                    lease: *lease,
                };
                events.push(Event {
                    kind: EventKind::Put,
                    kv: kv.clone(),
                });
                self.kvs.insert(key.clone(), kv);
                OpResp::Put
            }
            Op::Range(r) => self.range(r),
            Op::Delete { key, prefix } => {
                let doomed: Vec<String> = self
                    .kvs
                    .keys()
                    .filter(|k| in_range(k, key, *prefix))
                    .cloned()
                    .collect();
                for k in &doomed {
                    if let Some(mut kv) = self.kvs.remove(k) {
                        kv.mod_revision = rev;
                        events.push(Event {
                            kind: EventKind::Delete,
                            kv,
                        });
                    }
                }
                OpResp::Delete {
                    deleted: doomed.len() as i64,
                }
            }
            Op::Txn {
                compares,
                success,
                failure,
            } => {
                let ok = compares.iter().all(|c| self.compare(c));
                let branch = if ok { success } else { failure };
                let responses = branch.iter().map(|o| self.apply(o, rev, events)).collect();
                OpResp::Txn {
                    succeeded: ok,
                    responses,
                }
            }
        }
    }

    /// Commits the events of one request: the revision advances once if anything changed.
    pub fn commit(&mut self, events: Vec<Event>) -> Vec<Event> {
        if !events.is_empty() {
            self.revision += 1;
            self.history
                .extend(events.iter().map(|e| (self.revision, e.clone())));
        }
        events
    }
}

/// Puts of one key twice, or a put inside a deleted range, in one txn branch (etcd's
/// `checkIntervals`: "duplicate key given in txn request").
pub fn duplicate_keys(ops: &[Op]) -> bool {
    let mut puts: Vec<&str> = Vec::new();
    let mut dels: Vec<(&str, bool)> = Vec::new();
    for op in ops {
        match op {
            Op::Put { key, .. } if puts.contains(&key.as_str()) => return true,
            Op::Put { key, .. } => puts.push(key),
            Op::Delete { key, prefix } => dels.push((key, *prefix)),
            Op::Txn {
                success, failure, ..
            } if duplicate_keys(success) || duplicate_keys(failure) => return true,
            _ => {}
        }
    }
    puts.iter()
        .any(|p| dels.iter().any(|(k, pre)| in_range(p, k, *pre)))
}

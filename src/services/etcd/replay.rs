//! Replays a recorded etcd script (tests/services/etcd/*.etcd) through the model and renders
//! each line as the recorder renders the real server's JSON answers. Lease IDs are named
//! (`L1`, and `$L1` for the lowercase hex form used in mutex keys) so runs compare exactly.

use crate::sorted::SortedMap;

use super::types::{CmpOp, Compare, Op, Order, RangeReq, Req, Target};
use super::Etcd;

struct Replay {
    etcd: Etcd,
    now: u64,
    leases: Vec<(String, i64)>,
    /// Watch messages received but not yet printed, per watch name.
    inbox: SortedMap<String, Vec<String>>,
    watch_ids: SortedMap<String, i64>,
}

/// Runs a script; the output has one line per input line.
pub fn run(text: &str) -> Vec<String> {
    let mut r = Replay {
        etcd: Etcd::new(),
        now: 1_000_000,
        leases: Vec::new(),
        inbox: SortedMap::new(),
        watch_ids: SortedMap::new(),
    };
    text.lines().map(|l| r.line(l)).collect()
}

impl Replay {
    fn line(&mut self, raw: &str) -> String {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            return raw.to_string();
        }
        if let Some(ms) = line.strip_prefix("sleep ") {
            self.advance(ms.trim().parse().unwrap_or(0));
            return line.to_string();
        }
        // Every request takes a moment on a real network: the server's clock moves 1 ms.
        self.advance(1);
        let words: Vec<String> = line
            .split_whitespace()
            .skip(1)
            .map(|w| {
                if w == "\"\"" {
                    String::new()
                } else {
                    self.subst(w)
                }
            })
            .collect();
        let out = self.exec(&words);
        format!("{line} -> {}", self.names(&out))
    }

    /// Moves the clock, running every lessor check on the way.
    fn advance(&mut self, ms: u64) {
        let end = self.now + ms;
        while let Some(t) = self.etcd.next_deadline().filter(|t| *t <= end) {
            self.now = t.max(self.now);
            let msgs = self.etcd.tick(self.now);
            self.deliver(msgs);
        }
        self.now = end;
    }

    fn exec(&mut self, w: &[String]) -> String {
        let arg = |i: usize| w.get(i).cloned().unwrap_or_default();
        let req = match w.first().map(String::as_str) {
            Some("grant") => {
                let (resp, _) = self.etcd.request(
                    self.now,
                    0,
                    &Req::LeaseGrant {
                        ttl: arg(2).parse().unwrap_or(0),
                    },
                );
                if let super::types::Resp::Granted { id, .. } = resp {
                    self.leases.push((arg(1), id));
                }
                return resp.render();
            }
            Some("keepalive") => Req::LeaseKeepAlive {
                id: self.lease(&arg(1)),
            },
            Some("ttl") => Req::LeaseTimeToLive {
                id: self.lease(&arg(1)),
            },
            Some("revoke") => Req::LeaseRevoke {
                id: self.lease(&arg(1)),
            },
            Some("watch") => {
                let id = self.watch_ids.len() as i64;
                self.watch_ids.insert(arg(1), id);
                let from = w
                    .iter()
                    .find_map(|x| x.strip_prefix("from="))
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(0);
                Req::Watch {
                    watch_id: id,
                    key: arg(2),
                    prefix: w.iter().any(|x| x == "prefix"),
                    start_revision: from,
                }
            }
            Some("events") => return self.inbox.remove(&arg(1)).unwrap_or_default().join(" "),
            _ => Req::Kv(self.op(w)),
        };
        let (resp, msgs) = self.etcd.request(self.now, 0, &req);
        self.deliver(msgs);
        resp.render()
    }

    fn deliver(&mut self, msgs: Vec<super::types::WatchMsg>) {
        for m in msgs {
            let Some(name) = self
                .watch_ids
                .iter()
                .find(|(_, id)| **id == m.watch_id)
                .map(|(n, _)| n.clone())
            else {
                continue;
            };
            let text: Vec<String> = m.events.iter().map(|e| e.render()).collect();
            self.inbox
                .entry(name)
                .or_default()
                .push(format!("[{}]", text.join("; ")));
        }
    }

    fn lease(&self, name: &str) -> i64 {
        self.leases
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, id)| *id)
            .unwrap_or(0)
    }

    fn op(&self, w: &[String]) -> Op {
        let key = w.get(1).cloned().unwrap_or_default();
        let flag = |f: &str| w.iter().skip(2).any(|x| x == f);
        let opt = |f: &str| {
            w.iter()
                .skip(2)
                .find_map(|x| x.strip_prefix(f))
                .map(str::to_string)
        };
        match w.first().map(String::as_str) {
            Some("put") => {
                let lease = opt("lease=").map(|l| self.lease(&l)).unwrap_or(0);
                Op::Put {
                    key,
                    value: w.get(2).cloned().unwrap_or_default(),
                    lease,
                }
            }
            Some("del") => Op::Delete {
                key,
                prefix: flag("prefix"),
            },
            Some("txn") => self.txn(&w[1..]),
            _ => {
                let target = opt("sort=").map(|t| match t.as_str() {
                    "create" => Target::Create,
                    "mod" => Target::Mod,
                    "version" => Target::Version,
                    "value" => Target::Value,
                    _ => Target::Key,
                });
                let num = |f: &str| opt(f).and_then(|v| v.parse().ok()).unwrap_or(0);
                let order = if flag("desc") {
                    Order::Descend
                } else if flag("asc") {
                    Order::Ascend
                } else {
                    Order::None
                };
                let sort = target.map(|t| (t, order));
                Op::Range(RangeReq {
                    key,
                    prefix: flag("prefix"),
                    sort,
                    limit: num("limit="),
                    max_create_revision: num("maxcreate="),
                    count_only: flag("count"),
                })
            }
        }
    }

    /// `txn <cmp>... then <op> [; <op>]... [else <op> [; <op>]...]`
    fn txn(&self, w: &[String]) -> Op {
        let then = w.iter().position(|x| x == "then").unwrap_or(w.len());
        let els = w.iter().position(|x| x == "else").unwrap_or(w.len());
        let compares = w[..then].iter().filter_map(|c| compare(c)).collect();
        let ops = |s: &[String]| -> Vec<Op> {
            s.split(|x| x == ";")
                .filter(|o| !o.is_empty())
                .map(|o| self.op(o))
                .collect()
        };
        Op::Txn {
            compares,
            success: ops(w.get(then + 1..els).unwrap_or(&[])),
            failure: ops(w.get(els + 1..).unwrap_or(&[])),
        }
    }

    fn subst(&self, w: &str) -> String {
        let mut s = w.to_string();
        for (name, id) in &self.leases {
            s = s.replace(&format!("${name}"), &format!("{id:x}"));
        }
        s
    }

    fn names(&self, s: &str) -> String {
        let mut s = s.to_string();
        for (name, id) in &self.leases {
            s = s
                .replace(&id.to_string(), name)
                .replace(&format!("{id:x}"), &format!("${name}"));
        }
        s
    }
}

/// `create(k)=0`, `mod(k)>3`, `version(k)!=1`, `value(k)=x`.
fn compare(c: &str) -> Option<Compare> {
    let (target, rest) = c.split_once('(')?;
    let (key, rest) = rest.split_once(')')?;
    let (op, value) = if let Some(v) = rest.strip_prefix("!=") {
        (CmpOp::NotEqual, v)
    } else {
        let op = match rest.chars().next()? {
            '=' => CmpOp::Equal,
            '>' => CmpOp::Greater,
            '<' => CmpOp::Less,
            _ => return None,
        };
        (op, &rest[1..])
    };
    let target = match target {
        "create" => Target::Create,
        "mod" => Target::Mod,
        "version" => Target::Version,
        _ => Target::Value,
    };
    Some(Compare {
        key: key.into(),
        target,
        op,
        value: value.into(),
    })
}

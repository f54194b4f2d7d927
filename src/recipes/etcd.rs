//! etcd's `concurrency.Mutex` as shipped in etcd 3.4.23, on top of a `concurrency.Session`.
//!
//! 1. Session: `LeaseGrant(ttl)`, then keep-alives every ttl/3 (done by the client library).
//! 2. `myKey = lock/<lease id in hex>`; one txn: if `CREATE(myKey) == 0` then put myKey with the
//!    lease and read the owner (prefix, sort by create revision ascending, limit 1), else read
//!    myKey and the owner. `myRev` = the txn's revision, or myKey's create revision.
//! 3. The owner's create revision is myRev → locked. Otherwise wait for deletes: read the key
//!    with the highest create revision below myRev; none → locked; else watch it from the
//!    range's revision until a DELETE event, and read again.
//! 4. Unlock: delete myKey (no compare).
//! The token is myRev, the key's create revision: it grows with every new holder, so it works
//! as a fencing token. Faithful to 3.4.23, a waiter whose lease expired while waiting is
//! still told "locked" when its predecessors are gone (3.5 re-checks its key; 3.4 does not).

use super::{Answer, Belief, Believes, Call, Phase, RecipeIn, RecipeOut, SessionEvent};
use crate::services::etcd::types::{
    CmpOp, Compare, Kv, Op, OpResp, Order, RangeReq, Req, Resp, Target,
};
use crate::services::etcd::{Call as EtcdCall, Down};

pub const PREFIX: &str = "lock/";

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Step {
    None,
    Grant,
    Txn,
    Predecessor,
    Watch,
    Unlock,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Mutex {
    pub phase: Phase,
    pub my_node: Option<String>,
    ttl_s: i64,
    pub lease: Option<i64>,
    /// myKey and the lease it was put with (kept after the session is lost, as 3.4 keeps it).
    key: Option<(String, i64)>,
    my_rev: i64,
    step: Step,
    watch_id: i64,
}

fn send(r: Req) -> RecipeOut {
    RecipeOut::Send(Call::Etcd(EtcdCall::Req(r)))
}

/// Asks the library to keep the session's lease alive every so many ticks (`None`: stop).
fn keepalive(k: Option<(i64, u64)>) -> RecipeOut {
    RecipeOut::Send(Call::Etcd(EtcdCall::KeepAlive(k)))
}

impl Believes for Mutex {
    fn node(&self) -> Option<&str> {
        self.my_node.as_deref()
    }
    fn belief(&self) -> Belief<'_> {
        Belief {
            node: self.node(),
            token: None,
            lease: self.lease,
        }
    }
}

fn owner_query() -> Op {
    Op::Range(RangeReq {
        key: PREFIX.into(),
        prefix: true,
        sort: Some((Target::Create, Order::Ascend)),
        limit: 1,
        ..RangeReq::default()
    })
}

impl Mutex {
    pub fn new(ttl_ms: u64) -> Self {
        let ttl_s = ttl_ms.div_ceil(1000) as i64;
        Mutex {
            phase: Phase::Idle,
            my_node: None,
            ttl_s,
            lease: None,
            key: None,
            my_rev: 0,
            step: Step::None,
            watch_id: 0,
        }
    }

    fn my_key(&self) -> String {
        self.key.as_ref().map_or_else(
            || format!("{PREFIX}{:x}", self.lease.unwrap_or(0)),
            |k| k.0.clone(),
        )
    }

    fn go(&mut self, step: Step, phase: Phase, out: RecipeOut) -> Vec<RecipeOut> {
        self.step = step;
        self.phase = phase;
        vec![out]
    }

    fn txn(&mut self) -> Vec<RecipeOut> {
        let (key, lease) = self
            .key
            .clone()
            .unwrap_or_else(|| (self.my_key(), self.lease.unwrap_or(0)));
        self.key = Some((key.clone(), lease));
        let compares = vec![Compare {
            key: key.clone(),
            target: Target::Create,
            op: CmpOp::Equal,
            value: "0".into(),
        }];
        let put = Op::Put {
            key: key.clone(),
            value: String::new(),
            lease,
        };
        let get = Op::Range(RangeReq {
            key: key.clone(),
            ..RangeReq::default()
        });
        let txn = Op::Txn {
            compares,
            success: vec![put, owner_query()],
            failure: vec![get, owner_query()],
        };
        self.my_node = Some(key);
        self.go(Step::Txn, Phase::Creating, send(Req::Kv(txn)))
    }

    fn predecessor(&mut self) -> Vec<RecipeOut> {
        let q = RangeReq {
            key: PREFIX.into(),
            prefix: true,
            sort: Some((Target::Create, Order::Descend)),
            limit: 1,
            max_create_revision: self.my_rev - 1,
            count_only: false,
        };
        self.go(
            Step::Predecessor,
            Phase::Listing,
            send(Req::Kv(Op::Range(q))),
        )
    }

    fn hold(&mut self) -> Vec<RecipeOut> {
        self.step = Step::None;
        self.phase = Phase::Holding;
        vec![RecipeOut::Acquired { token: self.my_rev }]
    }

    pub fn handle(&mut self, input: RecipeIn) -> Vec<RecipeOut> {
        match input {
            RecipeIn::Acquire if self.phase == Phase::Idle => match self.lease {
                Some(_) => self.txn(),
                None => self.go(
                    Step::Grant,
                    Phase::Creating,
                    send(Req::LeaseGrant { ttl: self.ttl_s }),
                ),
            },
            // Locking again with the same session: the txn's else branch finds myKey, whose
            // create revision is the owner's, so Lock returns at once (re-entrant per session).
            RecipeIn::Acquire if self.phase == Phase::Holding => {
                let mut out = self.txn();
                self.phase = Phase::Holding;
                out.truncate(1);
                out
            }
            RecipeIn::Release if self.phase == Phase::Holding => self.go(
                Step::Unlock,
                Phase::Releasing,
                send(Req::Kv(Op::Delete {
                    key: self.my_key(),
                    prefix: false,
                })),
            ),
            // A second Unlock (3.4.23 reset myKey to "\x00"): it deletes nothing and succeeds.
            RecipeIn::Release if self.phase == Phase::Idle => {
                self.step = Step::Unlock;
                vec![send(Req::Kv(Op::Delete {
                    key: "\0".into(),
                    prefix: false,
                }))]
            }
            // The keep-alive found the lease gone: the session is over.
            RecipeIn::Session(SessionEvent::Expired) => self.session_lost(),
            RecipeIn::Answer(Answer::Etcd(Down::Resp(r))) => self.reply(r),
            RecipeIn::Answer(Answer::Etcd(Down::Watch(m)))
                if self.step == Step::Watch && m.watch_id == self.watch_id =>
            {
                let deleted = m
                    .events
                    .iter()
                    .any(|e| e.kind == crate::services::etcd::types::EventKind::Delete);
                if !deleted {
                    return Vec::new();
                }
                let cancel = send(Req::CancelWatch {
                    watch_id: self.watch_id,
                });
                let mut out = vec![cancel];
                out.extend(self.predecessor());
                out
            }
            _ => Vec::new(),
        }
    }

    fn session_lost(&mut self) -> Vec<RecipeOut> {
        self.lease = None;
        if self.phase == Phase::Holding {
            self.phase = Phase::Idle;
            self.my_node = None;
            self.step = Step::None;
            return vec![keepalive(None), RecipeOut::Lost];
        }
        vec![keepalive(None)]
    }

    fn reply(&mut self, r: Resp) -> Vec<RecipeOut> {
        match (self.step, r) {
            (Step::Grant, Resp::Granted { id, ttl }) => {
                self.lease = Some(id);
                self.key = None;
                let every = (ttl as u64 * 1000 / 3).max(1);
                let mut out = vec![keepalive(Some((id, every)))];
                out.extend(self.txn());
                out
            }
            (
                Step::Txn,
                Resp::Kv {
                    resp: OpResp::Txn { .. },
                    ..
                },
            ) if self.phase == Phase::Holding => self.hold(),
            (
                Step::Txn,
                Resp::Kv {
                    revision,
                    resp:
                        OpResp::Txn {
                            succeeded,
                            responses,
                        },
                },
            ) => {
                let first = |i: usize| match responses.get(i) {
                    Some(OpResp::Range { kvs, .. }) => kvs.first().cloned(),
                    _ => None,
                };
                self.my_rev = if succeeded {
                    revision
                } else {
                    first(0).map(|kv| kv.create_revision).unwrap_or(revision)
                };
                match first(1) {
                    Some(Kv {
                        create_revision, ..
                    }) if create_revision != self.my_rev => self.predecessor(),
                    _ => self.hold(),
                }
            }
            (
                Step::Predecessor,
                Resp::Kv {
                    revision,
                    resp: OpResp::Range { kvs, .. },
                },
            ) => match kvs.first() {
                None => self.hold(),
                Some(kv) => {
                    self.watch_id += 1;
                    let w = Req::Watch {
                        watch_id: self.watch_id,
                        key: kv.key.clone(),
                        prefix: false,
                        start_revision: revision,
                    };
                    self.go(Step::Watch, Phase::Watching(kv.key.clone()), send(w))
                }
            },
            (Step::Unlock, Resp::Kv { .. }) => {
                self.step = Step::None;
                self.key = None;
                if self.phase == Phase::Idle {
                    return vec![RecipeOut::Released];
                }
                super::released(&mut self.phase, &mut self.my_node)
            }
            // Locking again on a dead session: Lock returns the error; the held key stays as is.
            (Step::Txn, Resp::Error { .. }) if self.phase == Phase::Holding => {
                self.step = Step::None;
                Vec::new()
            }
            // A lost lease mid-acquire (unknown lease on put): start a new session.
            (Step::Txn, Resp::Error { .. }) => {
                (self.lease, self.key) = (None, None);
                self.go(
                    Step::Grant,
                    Phase::Creating,
                    send(Req::LeaseGrant { ttl: self.ttl_s }),
                )
            }
            _ => Vec::new(),
        }
    }
}

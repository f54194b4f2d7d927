//! Redis lease locks, as circulated in practice.
//!
//! 1. `SetnxExpire` (the legacy two-command lock): `SETNX lock token`; on `:1` send
//!    `EXPIRE lock s` and hold. On `:0` optionally repair a lock left without TTL (`TTL lock`
//!    → `-1` → `EXPIRE lock s`), then poll again after a delay. Release with WATCH/MULTI:
//!    `WATCH lock`, `GET lock`; if it is still our token `MULTI`, `DEL lock`, `EXEC`
//!    (`*-1` means the key was touched: check again), else `UNWATCH`.
//!    A crash between SETNX and EXPIRE leaves a key without TTL: without the repair, nobody
//!    ever gets the lock again.
//! 2. `SetPx` (the documented single-instance lock): `SET lock token NX PX ttl`; `$-1` → poll
//!    again; release with the compare-and-delete script.
//!
//! Neither gives a fencing token, and neither tells the holder when its TTL ran out: a pause
//! longer than the TTL makes two holders.

use super::{
    token, Answer, Belief, Believes, Call, Failure, Phase, RecipeConfig, RecipeIn, RecipeKind,
    RecipeOut,
};
use crate::services::redis::script::COMPARE_AND_DELETE;
use crate::services::redis::Reply;

/// The one lock key.
pub const KEY: &str = "lock";

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Step {
    None,
    SetNx,
    Expire,
    CheckTtl,
    Repair,
    Watch,
    Get,
    Multi,
    Del,
    Exec,
    Unwatch,
    Cad,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Redis {
    pub phase: Phase,
    pub my_node: Option<String>,
    /// `SET NX PX` + compare-and-delete (else the SETNX + EXPIRE recipe).
    atomic: bool,
    repair: bool,
    ttl_ms: u64,
    poll: u64,
    seed: u64,
    attempts: u32,
    pub token: String,
    step: Step,
}

fn cmd(words: &[&str]) -> RecipeOut {
    RecipeOut::Send(Call::Redis(words.iter().map(|w| w.to_string()).collect()))
}

impl Believes for Redis {
    fn node(&self) -> Option<&str> {
        self.my_node.as_deref()
    }
    fn fences(&self) -> bool {
        false
    }
    fn belief(&self) -> Belief<'_> {
        Belief {
            node: self.node(),
            token: (!self.token.is_empty()).then_some(self.token.as_str()),
            lease: None,
        }
    }
}

impl Redis {
    pub fn from_config(cfg: &RecipeConfig) -> Self {
        Redis::new(
            cfg.kind == RecipeKind::RedisLease,
            cfg.ttl_repair,
            cfg.lease,
            cfg.poll,
            cfg.uuid_seed,
        )
    }

    pub fn new(atomic: bool, repair: bool, ttl_ms: u64, poll: u64, seed: u64) -> Self {
        Redis {
            phase: Phase::Idle,
            my_node: None,
            atomic,
            repair,
            ttl_ms,
            poll,
            seed,
            attempts: 0,
            token: String::new(),
            step: Step::None,
        }
    }

    fn ttl_s(&self) -> String {
        self.ttl_ms.div_ceil(1000).max(1).to_string()
    }

    fn send(&mut self, step: Step, out: RecipeOut) -> Vec<RecipeOut> {
        self.step = step;
        vec![out]
    }

    fn try_acquire(&mut self) -> Vec<RecipeOut> {
        self.phase = Phase::Requesting;
        let (t, px) = (self.token.clone(), self.ttl_ms.to_string());
        if self.atomic {
            self.send(Step::SetNx, cmd(&["SET", KEY, &t, "NX", "PX", &px]))
        } else {
            self.send(Step::SetNx, cmd(&["SETNX", KEY, &t]))
        }
    }

    fn retry(&mut self) -> Vec<RecipeOut> {
        self.step = Step::None;
        self.phase = Phase::Backoff;
        vec![RecipeOut::RetryAfter(self.poll)]
    }

    fn hold(&mut self) -> Vec<RecipeOut> {
        self.step = Step::None;
        self.phase = Phase::Holding;
        self.my_node = Some(KEY.into());
        vec![RecipeOut::Acquired { token: 0 }]
    }

    fn done(&mut self) -> Vec<RecipeOut> {
        self.step = Step::None;
        super::released(&mut self.phase, &mut self.my_node)
    }

    pub fn handle(&mut self, input: RecipeIn) -> Vec<RecipeOut> {
        match input {
            RecipeIn::Acquire if self.phase == Phase::Idle => {
                self.attempts += 1;
                self.token = token(self.seed, self.attempts);
                self.try_acquire()
            }
            RecipeIn::Retry if self.phase == Phase::Backoff => self.try_acquire(),
            RecipeIn::Timeout
                if matches!(self.phase, Phase::Backoff | Phase::Requesting)
                    && self.step != Step::Expire =>
            {
                self.step = Step::None;
                self.phase = Phase::Idle;
                vec![RecipeOut::CancelRetry, RecipeOut::Failed(Failure::Timeout)]
            }
            RecipeIn::Release if self.phase == Phase::Holding => {
                self.phase = Phase::Releasing;
                if self.atomic {
                    let t = self.token.clone();
                    return self.send(Step::Cad, cmd(&["EVAL", COMPARE_AND_DELETE, "1", KEY, &t]));
                }
                self.send(Step::Watch, cmd(&["WATCH", KEY]))
            }
            RecipeIn::Answer(Answer::Redis(r)) => self.reply(r),
            _ => Vec::new(),
        }
    }

    fn reply(&mut self, r: Reply) -> Vec<RecipeOut> {
        let ttl = self.ttl_s();
        match (self.step, r) {
            (Step::SetNx, Reply::Int(1)) => self.send(Step::Expire, cmd(&["EXPIRE", KEY, &ttl])),
            (Step::SetNx, Reply::Status(_)) | (Step::Expire, _) => self.hold(),
            (Step::SetNx, _) if self.repair && !self.atomic => {
                self.send(Step::CheckTtl, cmd(&["TTL", KEY]))
            }
            (Step::SetNx, _) | (Step::Repair, _) => self.retry(),
            (Step::CheckTtl, Reply::Int(-1)) => {
                self.send(Step::Repair, cmd(&["EXPIRE", KEY, &ttl]))
            }
            (Step::CheckTtl, _) => self.retry(),
            (Step::Watch, _) => self.send(Step::Get, cmd(&["GET", KEY])),
            (Step::Get, Reply::Bulk(Some(v))) if v == self.token => {
                self.send(Step::Multi, cmd(&["MULTI"]))
            }
            (Step::Get, _) => self.send(Step::Unwatch, cmd(&["UNWATCH"])),
            (Step::Multi, _) => self.send(Step::Del, cmd(&["DEL", KEY])),
            (Step::Del, _) => self.send(Step::Exec, cmd(&["EXEC"])),
            // Aborted: something touched the key (or it expired); look again.
            (Step::Exec, Reply::Array(None)) => self.send(Step::Watch, cmd(&["WATCH", KEY])),
            (Step::Exec | Step::Unwatch | Step::Cad, _) => self.done(),
            (Step::None, _) => Vec::new(),
        }
    }
}

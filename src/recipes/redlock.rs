//! node-redlock 4.2.0 (npm `redlock`, its `latest` release), as its `redlock.js` does it:
//!
//! - `lock(resource, ttl)`: a random value (16 random bytes in hex); each attempt notes its
//!   start, sends the lock script to **every** master at once (`EVALSHA <sha1> 1 <key> <value>
//!   <ttl>`, and `EVAL <script> …` on a master that answers `NOSCRIPT`), and waits for every
//!   master's answer (an error counts as an answer and not as a vote). A vote is an answer
//!   equal to the number of keys. With `drift = round(0.01 × ttl) + 2` the lock's expiration
//!   is `start + ttl − drift`; it is granted if ⌊N/2⌋+1 masters voted and the expiration is
//!   still ahead. Otherwise the unlock script goes to every master, and once all have answered
//!   the next attempt starts after `200 + ⌊(r·2 − 1)·100⌋` ms (100 to 299), or, after
//!   `retryCount + 1` attempts (11 by default), the lock is refused.
//! - `unlock(lock)`: the unlock script to every master; resolved on a majority of `1`s, and
//!   rejected otherwise (the application is done with it either way).
//! - `lock.extend(ttl)`: refused at once if the expiration has passed; otherwise the same
//!   attempts with the extend script and the same value (a failed one unlocks everywhere, then
//!   retries); a success moves the expiration to `start + ttl − drift`. A refused extension
//!   tells the application its lock is gone.
//!
//! There is no request timeout: a master that never answers holds the attempt for ever. The
//! value is random, not ordered: nothing a resource could use as a fencing token.

use super::{Answer, Belief, Believes, Call, Failure, Phase, RecipeConfig, RecipeIn, RecipeOut};
use crate::services::redis::script::{sha1_hex, REDLOCK_EXTEND, REDLOCK_LOCK, REDLOCK_UNLOCK};
use crate::services::redis::Reply;
use crate::services::redlock::{Answer as Heard, Up};
use crate::services::{ServerId, Tick, MAX_SERVERS};

/// The one resource (key) locked.
pub const KEY: &str = "lock";

/// node-redlock's defaults.
pub const RETRY_DELAY: u64 = super::REDLOCK_RETRY_DELAY;
pub const RETRY_JITTER: u64 = super::REDLOCK_RETRY_JITTER;

/// What the current round of requests to every master is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Op {
    None,
    Lock,
    Extend,
    /// Clearing a failed attempt off every master before the next.
    Unwind,
    Release,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Redlock {
    pub phase: Phase,
    pub my_node: Option<String>,
    /// The lock's random value.
    pub token: String,
    /// The client's clock (set before each input).
    pub now: Tick,
    pub masters: u8,
    pub ttl: Tick,
    pub retry_count: u32,
    seed: u64,
    values: u32,
    op: Op,
    pub attempts: u32,
    start: Tick,
    waiting: u8,
    pub votes: u8,
    /// The script each master was last sent by SHA1 (it answers `NOSCRIPT` if not cached).
    by_sha: [Option<&'static str>; MAX_SERVERS],
    /// The granted lock's expiration on the client's clock.
    pub expiration: Tick,
    /// The attempts are extensions of a held lock.
    extending: bool,
    /// Its lock was lost (an extension failed): `lock.unlock()` still sends the unlock script
    /// to every master.
    lost: bool,
}

impl Believes for Redlock {
    fn node(&self) -> Option<&str> {
        self.my_node.as_deref()
    }
    fn fences(&self) -> bool {
        false
    }
    fn tally(&self) -> Option<super::Tally> {
        Some(self.votes_now())
    }
    fn at(&mut self, now: Tick) {
        self.now = now;
    }
    fn belief(&self) -> Belief<'_> {
        Belief {
            node: self.node(),
            token: (!self.token.is_empty()).then_some(self.token.as_str()),
            lease: None,
        }
    }
}

/// 16 bytes in hex, from the client's seed and its lock count (`crypto.randomBytes(16)`).
fn value(seed: u64, n: u32) -> String {
    let mut x = seed ^ (u64::from(n) << 32) ^ 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    format!("{:016x}{:016x}", next(), next())
}

/// `Math.round(driftFactor × ttl) + 2` with node-redlock's default drift factor 0.01.
pub fn drift(ttl: Tick) -> Tick {
    (ttl + 50) / 100 + 2
}

impl Redlock {
    pub fn new(cfg: &RecipeConfig, masters: u8) -> Redlock {
        Redlock {
            phase: Phase::Idle,
            my_node: None,
            token: String::new(),
            now: 0,
            masters,
            ttl: cfg.lease,
            retry_count: cfg.retry_count,
            seed: cfg.uuid_seed,
            values: 0,
            op: Op::None,
            attempts: 0,
            start: 0,
            waiting: 0,
            votes: 0,
            by_sha: [None; MAX_SERVERS],
            expiration: 0,
            extending: false,
            lost: false,
        }
    }

    /// The attempt's votes as the stage shows them.
    pub fn votes_now(&self) -> super::Tally {
        super::Tally {
            votes: self.votes,
            masters: self.masters,
            waiting: self.waiting,
            unwinding: self.op == Op::Unwind,
        }
    }

    /// A majority of the masters.
    pub fn quorum(&self) -> u8 {
        self.masters / 2 + 1
    }

    /// The script's arguments after its SHA1 or text.
    fn args(&self, script: &str) -> Vec<String> {
        let mut a = vec!["1".to_string(), KEY.to_string(), self.token.clone()];
        if script != REDLOCK_UNLOCK {
            a.push(self.ttl.to_string());
        }
        a
    }

    /// `script` by SHA1 to every master, for `op`.
    fn to_all(&mut self, op: Op, script: &'static str) -> Vec<RecipeOut> {
        self.op = op;
        self.waiting = self.masters;
        if matches!(op, Op::Lock | Op::Extend) {
            self.votes = 0;
        }
        let sha = sha1_hex(script);
        (0..self.masters)
            .map(|s| {
                self.by_sha[usize::from(s)] = Some(script);
                let mut cmd = vec!["EVALSHA".to_string(), sha.clone()];
                cmd.extend(self.args(script));
                send(s, cmd)
            })
            .collect()
    }

    fn attempt(&mut self) -> Vec<RecipeOut> {
        self.attempts += 1;
        self.start = self.now;
        if self.extending {
            return self.to_all(Op::Extend, REDLOCK_EXTEND);
        }
        self.phase = Phase::Requesting;
        self.to_all(Op::Lock, REDLOCK_LOCK)
    }

    /// `lock.extend(ttl)` on a held lock.
    fn extend(&mut self) -> Vec<RecipeOut> {
        if self.expiration < self.now {
            // "Cannot extend lock … because the lock has already expired."
            return self.lost();
        }
        self.extending = true;
        self.attempts = 0;
        self.attempt()
    }

    /// A lost lock's object, which node-redlock still lets the application unlock.
    fn unlockable(&self) -> bool {
        self.lost && self.phase == Phase::Idle && self.op == Op::None
    }

    /// The application learns its lock is gone.
    fn lost(&mut self) -> Vec<RecipeOut> {
        self.extending = false;
        self.lost = true;
        self.phase = Phase::Idle;
        self.my_node = None;
        vec![RecipeOut::Lost]
    }

    pub fn handle(&mut self, input: RecipeIn) -> Vec<RecipeOut> {
        match input {
            RecipeIn::Acquire if self.phase == Phase::Idle => {
                self.values += 1;
                self.lost = false;
                self.token = value(self.seed, self.values);
                self.attempts = 0;
                self.attempt()
            }
            RecipeIn::Retry if self.phase == Phase::Backoff => self.attempt(),
            RecipeIn::Retry if self.extending && self.op == Op::None => self.attempt(),
            RecipeIn::Extend if self.phase == Phase::Holding && self.op == Op::None => {
                self.extend()
            }
            RecipeIn::Release if self.phase == Phase::Holding || self.unlockable() => {
                self.lost = false;
                self.phase = Phase::Releasing;
                self.expiration = 0;
                self.to_all(Op::Release, REDLOCK_UNLOCK)
            }
            RecipeIn::Answer(Answer::Redlock(d)) => self.answer(d),
            _ => Vec::new(),
        }
    }

    fn answer(&mut self, d: Heard) -> Vec<RecipeOut> {
        let s = usize::from(d.from);
        let noscript = matches!(&d.reply, Reply::Error(e) if e.starts_with("NOSCRIPT"));
        if let (true, Some(script)) = (noscript, self.by_sha.get_mut(s).and_then(Option::take)) {
            // The library loads the script by sending its text.
            let mut cmd = vec!["EVAL".to_string(), script.to_string()];
            cmd.extend(self.args(script));
            return vec![send(d.from, cmd)];
        }
        if self.op == Op::None || self.waiting == 0 {
            return Vec::new();
        }
        if let Some(x) = self.by_sha.get_mut(s) {
            *x = None;
        }
        if matches!(self.op, Op::Lock | Op::Extend) {
            self.votes += u8::from(d.reply == Reply::Int(1));
        }
        self.waiting -= 1;
        match self.waiting {
            0 => self.all_answered(),
            _ => Vec::new(),
        }
    }

    /// A new expiration from this attempt's start: still ahead? (It stays the lock's
    /// expiration either way, as node-redlock's new `Lock` object's.)
    fn granted_in_time(&mut self) -> bool {
        self.expiration = (self.start + self.ttl).saturating_sub(drift(self.ttl));
        self.expiration > self.now
    }

    fn all_answered(&mut self) -> Vec<RecipeOut> {
        match std::mem::replace(&mut self.op, Op::None) {
            Op::Lock => {
                if self.votes >= self.quorum() && self.granted_in_time() {
                    self.phase = Phase::Holding;
                    self.my_node = Some(KEY.into());
                    return vec![RecipeOut::Acquired { token: 0 }];
                }
                self.expiration = 0;
                self.to_all(Op::Unwind, REDLOCK_UNLOCK)
            }
            Op::Extend if self.votes >= self.quorum() && self.granted_in_time() => {
                self.extending = false;
                Vec::new()
            }
            Op::Extend => self.to_all(Op::Unwind, REDLOCK_UNLOCK),
            Op::Unwind if self.extending && self.attempts > self.retry_count => self.lost(),
            Op::Unwind if self.attempts <= self.retry_count => {
                if !self.extending {
                    self.phase = Phase::Backoff;
                }
                vec![RecipeOut::RetryBetween(
                    RETRY_DELAY - RETRY_JITTER,
                    RETRY_DELAY + RETRY_JITTER - 1,
                )]
            }
            Op::Unwind => {
                self.phase = Phase::Idle;
                vec![RecipeOut::Failed(Failure::Timeout)]
            }
            Op::Release => super::released(&mut self.phase, &mut self.my_node),
            Op::None => Vec::new(),
        }
    }
}

fn send(to: ServerId, cmd: Vec<String>) -> RecipeOut {
    RecipeOut::Send(Call::Redlock(Up { to, cmd }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recipes::RecipeKind;

    fn answer(from: ServerId, r: Reply) -> RecipeIn {
        RecipeIn::Answer(Answer::Redlock(Heard { from, reply: r }))
    }

    fn sent(out: &[RecipeOut]) -> Vec<(ServerId, String)> {
        out.iter()
            .filter_map(|o| match o {
                RecipeOut::Send(Call::Redlock(u)) => Some((u.to, u.cmd[0].clone())),
                _ => None,
            })
            .collect()
    }

    fn client() -> Redlock {
        let mut cfg = RecipeConfig::new(RecipeKind::Redlock);
        cfg.lease = 10_000;
        Redlock::new(&cfg, 5)
    }

    #[test]
    fn an_attempt_asks_every_master_and_a_majority_of_votes_in_time_grants() {
        let mut r = client();
        let out = r.handle(RecipeIn::Acquire);
        assert_eq!(sent(&out).len(), 5);
        assert_eq!(r.token.len(), 32);
        r.now = 3;
        for s in 0..2 {
            assert!(r.handle(answer(s, Reply::Int(0))).is_empty());
        }
        for s in 2..4 {
            assert!(r.handle(answer(s, Reply::Int(1))).is_empty());
        }
        let out = r.handle(answer(4, Reply::Int(1)));
        assert_eq!(out, [RecipeOut::Acquired { token: 0 }]);
        assert_eq!(r.expiration, 10_000 - 102);
    }

    #[test]
    fn noscript_is_answered_by_eval_on_that_master_only() {
        let mut r = client();
        r.handle(RecipeIn::Acquire);
        let e = Reply::Error("NOSCRIPT No matching script. Please use EVAL.".into());
        let out = r.handle(answer(2, e));
        assert_eq!(sent(&out), [(2, "EVAL".to_string())]);
        assert_eq!(r.waiting, 5, "the EVAL's answer is the one that counts");
    }

    #[test]
    fn too_few_votes_unwind_everywhere_then_retry_and_give_up_after_eleven_attempts() {
        let mut r = client();
        r.handle(RecipeIn::Acquire);
        for attempt in 1..=11 {
            let mut out = Vec::new();
            for s in 0..5 {
                out = r.handle(answer(s, Reply::Int(i64::from(s < 2))));
            }
            assert_eq!(sent(&out).len(), 5, "unlock everywhere");
            for s in 0..5 {
                out = r.handle(answer(s, Reply::Int(0)));
            }
            if attempt < 11 {
                assert_eq!(out, [RecipeOut::RetryBetween(100, 299)]);
                r.handle(RecipeIn::Retry);
            } else {
                assert_eq!(out, [RecipeOut::Failed(Failure::Timeout)]);
            }
        }
    }

    #[test]
    fn a_majority_that_arrives_after_the_expiration_is_refused() {
        let mut r = client();
        r.handle(RecipeIn::Acquire);
        r.now = 9_898;
        let mut out = Vec::new();
        for s in 0..5 {
            out = r.handle(answer(s, Reply::Int(1)));
        }
        assert_eq!(sent(&out).len(), 5, "refused: unlock everywhere");
        assert_eq!(drift(150), 4);
        assert_eq!(drift(10_000), 102);
    }
}

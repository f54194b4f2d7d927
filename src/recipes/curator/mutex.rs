//! Curator 5.4's InterProcessMutex (also the two sides of InterProcessReadWriteLock), request
//! for request as the real library sends them (reference §9, §12; the traces recorded from the
//! real library are in `tests/recipes/traces`):
//!
//! 1. Acquire: `create2` EPHEMERAL_SEQUENTIAL `<dir>/_c_<uuid>-lock-`, data = the client's
//!    address. NoNode: walk the path from the top (`exists` each ancestor, `createContainer`
//!    the missing ones), then `create2` again.
//! 2. `getChildren2(dir)` — never a watch — sorted by what follows the last `lock-`.
//! 3. Fewer than `max_leases` nodes before ours (1 for a mutex): held.
//! 4. Otherwise `getData(immediate predecessor, watch=true)`: NoNode → 2; else wait. Any event
//!    (a node event, or a session event such as Disconnected) wakes the waiter → 2.
//! 5. Our node missing from the listing ("Sequential path not found", e.g. after the session
//!    expired): delete it (NoNode is fine), sleep one back-off, and start over with a new UUID.
//! 6. A request that fails with ConnectionLoss or SessionExpired is retried after a back-off
//!    (`ExponentialBackoffRetry`, 3 retries); a retried create (also one that failed while
//!    walking the parents) first lists the directory and adopts the child that carries our
//!    `_c_<uuid>-` prefix (protection), unless the session changed meanwhile: then that node
//!    is deleted and a new one created under the same name, and the current session counts
//!    as the create's from then on.
//! 7. `acquire(timeout)`: when the deadline passes while waiting, one more round
//!    (`getChildren2` + `getData(watch)`; a lock granted now is still taken), then delete our
//!    node and fail. The watch stays on the server.
//! 8. Reentrant: acquiring while holding only counts, and only the last release acts: it sends
//!    `checkWatches(path, any)` for every watcher that never fired (say, one set in a session
//!    that expired), then `delete(our node, -1)`. Releasing without holding fails with
//!    IllegalMonitorStateException("You do not own the lock").
//! 9. A holder whose session expired keeps believing it holds the lock (CURATOR-206).
//!
//! The read/write lock uses `__READ__` / `__WRIT__` markers in one directory: a writer needs to
//! be first; a reader waits only for the lowest write node before it. The fencing token is the
//! node's sequence number, which grows with every grant.

use super::framework::{address, uuid, Mkdirs, Watchers};
use crate::engine::{ErrorCode, Request, Response};
use crate::recipes::Call;
use crate::recipes::{
    create_seq, sequence_token, Failure, Phase, RecipeConfig, RecipeIn, RecipeOut, SessionEvent,
    ZkIn,
};
use crate::services::zookeeper::Call as ZkCall;

/// Which lock this driver implements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Flavor {
    Mutex,
    Read,
    Write,
}

impl Flavor {
    pub(super) fn marker(self) -> &'static str {
        match self {
            Flavor::Mutex => "lock-",
            Flavor::Read => "__READ__",
            Flavor::Write => "__WRIT__",
        }
    }
}

/// What a back-off is waiting to do.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum Retry {
    /// Send the request again.
    Resend,
    /// A retried create: look for the protected node first.
    Find,
    /// A missing node: a whole new attempt.
    Attempt,
}

/// The request in flight (one at a time: Curator's acquire and release are synchronous).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum Op {
    None,
    Create,
    Mkdirs(Mkdirs),
    /// A retried create looks for its protected node first.
    Find,
    List,
    Watch(String),
    /// Our node was not in the listing: delete it before trying again.
    DeleteMissing,
    /// Out of time (or cancelled): delete our node and fail.
    GiveUp(Failure),
    /// Removing the watchers that never fired, then the delete.
    Check,
    Release,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Curator {
    pub phase: Phase,
    pub my_node: Option<String>,
    pub count: u32,
    pub max_leases: u32,
    pub flavor: Flavor,
    pub(super) dir: String,
    pub(super) data: Vec<u8>,
    pub(super) uuid_seed: u64,
    pub(super) uuid_n: u64,
    pub(super) uuid: String,
    pub(super) op: Op,
    /// The request in flight, for a retry.
    pub(super) last: Option<ZkCall>,
    /// Retries of the current operation, and of the whole attempt (a missing node).
    pub(super) retries: u32,
    pub(super) attempts: u32,
    /// What to do when the back-off ends.
    pub(super) after_sleep: Option<Retry>,
    pub(super) watchers: Watchers,
    pub(super) out_of_time: Option<Failure>,
    /// `checkWatches` still to send before the release's delete.
    pub(super) checks: Vec<Request>,
    /// The session changed while a create was in flight (protection must not adopt).
    pub(super) new_session: bool,
    /// Its node was found again by its protection prefix, not learnt from a create's reply.
    pub adopted: bool,
    /// Replies to background deletes still to come (they are ignored).
    pub(super) background: u32,
}

impl Curator {
    pub fn new(cfg: &RecipeConfig, flavor: Flavor, dir: &str) -> Self {
        Curator {
            phase: Phase::Idle,
            my_node: None,
            count: 0,
            max_leases: 1,
            flavor,
            dir: dir.to_string(),
            data: address(cfg.client),
            uuid_seed: cfg.uuid_seed,
            uuid_n: 0,
            uuid: String::new(),
            op: Op::None,
            last: None,
            retries: 0,
            attempts: 0,
            after_sleep: None,
            watchers: Watchers::default(),
            out_of_time: None,
            checks: Vec::new(),
            new_session: false,
            adopted: false,
            background: 0,
        }
    }

    pub fn mutex(cfg: &RecipeConfig) -> Self {
        Curator::new(cfg, Flavor::Mutex, cfg.lock_dir())
    }

    pub fn rwlock(cfg: &RecipeConfig) -> Self {
        Curator::new(
            cfg,
            if cfg.writer {
                Flavor::Write
            } else {
                Flavor::Read
            },
            cfg.lock_dir(),
        )
    }

    /// The lock directory.
    pub fn dir(&self) -> &str {
        &self.dir
    }

    /// Whether the last acquire is still running (not held, not idle).
    pub fn acquiring(&self) -> bool {
        !matches!(self.phase, Phase::Idle | Phase::Holding | Phase::Releasing)
    }

    pub(super) fn prefix(&self) -> String {
        format!("_c_{}-", self.uuid)
    }

    pub(super) fn send(&mut self, op: Op, r: Request) -> Vec<RecipeOut> {
        self.send_as(op, r.into())
    }

    pub(super) fn send_as(&mut self, op: Op, call: ZkCall) -> Vec<RecipeOut> {
        self.op = op;
        self.retries = 0;
        self.last = Some(call.clone());
        vec![RecipeOut::Send(Call::ZooKeeper(call))]
    }

    /// A new attempt with a fresh protection UUID.
    pub(super) fn attempt(&mut self) -> Vec<RecipeOut> {
        self.uuid_n += 1;
        self.uuid = uuid(self.uuid_seed, self.uuid_n);
        self.my_node = None;
        self.new_session = false;
        self.create()
    }

    pub(super) fn create(&mut self) -> Vec<RecipeOut> {
        self.phase = Phase::Creating;
        let path = format!("{}/{}{}", self.dir, self.prefix(), self.flavor.marker());
        self.send(Op::Create, create_seq(path, &self.data))
    }

    pub(super) fn list(&mut self) -> Vec<RecipeOut> {
        self.phase = Phase::Listing;
        let r = Request::GetChildren {
            path: self.dir.clone(),
            watch: false,
        };
        self.send(Op::List, r)
    }

    pub(super) fn delete_mine(&mut self, op: Op) -> Vec<RecipeOut> {
        let path = self.my_node.clone().unwrap_or_default();
        self.send(op, Request::Delete { path, version: -1 })
    }

    pub fn handle(&mut self, input: RecipeIn) -> Vec<RecipeOut> {
        match ZkIn::from(input) {
            ZkIn::Acquire => self.acquire(),
            ZkIn::Release => self.release(),
            ZkIn::Reply { request, result } => self.reply(request, result),
            ZkIn::Event(e) => {
                self.watchers.fired(&e.path);
                self.wake()
            }
            ZkIn::Session(e) => {
                let creating = matches!(self.op, Op::Create | Op::Mkdirs(_) | Op::Find);
                self.new_session |= e == SessionEvent::NewSession && creating;
                self.wake()
            }
            ZkIn::Timeout => self.give_up(Failure::Timeout),
            ZkIn::Cancel => self.give_up(Failure::Cancelled),
            ZkIn::Retry if self.after_sleep.is_some() => self.redo(),
            ZkIn::Retry | ZkIn::Foreign => Vec::new(),
        }
    }

    /// The waiter's watcher fired (or a session event reached it): look again.
    fn wake(&mut self) -> Vec<RecipeOut> {
        match self.phase {
            Phase::Watching(_) if self.after_sleep.is_none() => self.list(),
            _ => Vec::new(),
        }
    }

    fn acquire(&mut self) -> Vec<RecipeOut> {
        match self.phase {
            Phase::Holding => {
                self.count += 1;
                vec![RecipeOut::Acquired {
                    token: self.token(),
                }]
            }
            Phase::Idle => {
                self.out_of_time = None;
                self.attempts = 0;
                self.attempt()
            }
            _ => Vec::new(),
        }
    }

    pub(super) fn token(&self) -> i64 {
        self.my_node.as_deref().map_or(0, sequence_token)
    }

    /// The deadline passed (or the acquire was cancelled): while waiting, one more round
    /// (a timeout) or straight to deleting our node (a cancel).
    fn give_up(&mut self, why: Failure) -> Vec<RecipeOut> {
        if !self.acquiring() {
            return Vec::new();
        }
        self.out_of_time = Some(why.clone());
        match (&self.phase, why) {
            (Phase::Watching(_), Failure::Cancelled) if self.my_node.is_some() => {
                self.delete_mine(Op::GiveUp(Failure::Cancelled))
            }
            (Phase::Watching(_), _) if self.after_sleep.is_none() => self.list(),
            _ => Vec::new(),
        }
    }

    fn release(&mut self) -> Vec<RecipeOut> {
        if self.phase != Phase::Holding {
            return vec![RecipeOut::Failed(Failure::NotOwner)];
        }
        self.count -= 1;
        if self.count > 0 {
            return vec![RecipeOut::Released];
        }
        self.phase = Phase::Releasing;
        self.checks = self.watchers.remove_all();
        self.next_release_step()
    }

    pub(super) fn next_release_step(&mut self) -> Vec<RecipeOut> {
        if self.checks.is_empty() {
            return self.delete_mine(Op::Release);
        }
        let r = self.checks.remove(0);
        self.send(Op::Check, r)
    }

    fn reply(&mut self, request: Request, result: Result<Response, ErrorCode>) -> Vec<RecipeOut> {
        if self.background > 0 {
            self.background -= 1;
            return Vec::new();
        }
        if let Err(ErrorCode::ConnectionLoss | ErrorCode::SessionExpired) = result {
            return self.retry_later();
        }
        match std::mem::replace(&mut self.op, Op::None) {
            Op::Create => self.created(result),
            Op::Mkdirs(walk) => self.walked(walk, &request, &result),
            Op::Find => self.found(result),
            Op::List => self.listed(result),
            Op::Watch(path) => self.watched(path, result),
            Op::DeleteMissing => self.start_over(),
            Op::GiveUp(why) => self.done(Some(why)),
            Op::Check => self.next_release_step(),
            Op::Release => self.done(None),
            Op::None => Vec::new(),
        }
    }

    /// The acquire failed or the release finished.
    pub(super) fn done(&mut self, failed: Option<Failure>) -> Vec<RecipeOut> {
        self.phase = Phase::Idle;
        self.my_node = None;
        self.count = 0;
        self.op = Op::None;
        self.after_sleep = None;
        self.out_of_time = None;
        vec![match failed {
            Some(why) => RecipeOut::Failed(why),
            None => RecipeOut::Released,
        }]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recipes::RecipeKind;

    fn cfg() -> RecipeConfig {
        RecipeConfig {
            uuid_seed: 5,
            ..RecipeConfig::new(RecipeKind::Curator)
        }
    }

    #[test]
    fn protected_names_address_data_and_reentrancy() {
        let mut c = Curator::mutex(&cfg());
        let out = c.handle(RecipeIn::Acquire);
        let RecipeOut::Send(Call::ZooKeeper(call)) = &out[0] else {
            panic!()
        };
        let Request::Create { path, data, .. } = &call.request else {
            panic!()
        };
        assert!(
            path.starts_with("/locks/_c_") && path.ends_with("-lock-"),
            "{path}"
        );
        assert_eq!(path.len(), "/locks/".len() + 40 + "lock-".len());
        assert_eq!(data.as_deref(), Some(&b"10.0.0.1"[..]));
        assert_eq!(call.op.name(), "create2");
        assert_eq!(
            c.handle(RecipeIn::Release),
            vec![RecipeOut::Failed(Failure::NotOwner)]
        );
        c.phase = Phase::Holding;
        c.count = 1;
        c.my_node = Some("/locks/_c_x-lock-0000000004".into());
        assert_eq!(
            c.handle(RecipeIn::Acquire),
            vec![RecipeOut::Acquired { token: 4 }]
        );
        assert_eq!(c.count, 2);
        assert_eq!(c.handle(RecipeIn::Release), vec![RecipeOut::Released]);
        let out = c.handle(RecipeIn::Release);
        assert!(
            matches!(&out[0], RecipeOut::Send(Call::ZooKeeper(c)) if matches!(c.request, Request::Delete { .. }))
        );
    }
}

//! Curator 5.4's InterProcessSemaphoreV2 (and InterProcessSemaphoreMutex, the same with one
//! lease), with its own layout under the lock path `<path>` (traces in `tests/recipes/traces`):
//!
//! 1. Acquire a lease: take the internal mutex, an InterProcessMutex on `<path>/locks`.
//! 2. `create2` EPHEMERAL_SEQUENTIAL `<path>/leases/_c_<uuid>-lease-`, one protected name per
//!    attempt. NoNode: walk the path from the top (parents as containers), then `create2` again
//!    under the same name. A create that fails with ConnectionLoss is retried after a back-off:
//!    first `getChildren(<path>/leases)` for a child with our `_c_<uuid>-` prefix (adopted,
//!    unless the session changed meanwhile: then it is deleted and the create sent again).
//! 3. `getChildren2(<path>/leases, watch=true)`: our node missing ("Sequential path not found",
//!    e.g. after the session expired) → delete it (NoNode is fine), step 4 without a lease,
//!    then a back-off and a whole new attempt from step 1 (3 retries); at most `max_leases`
//!    children → got it; otherwise wait for the child watch (NodeChildrenChanged, or any
//!    session event) and list again. Only the client holding the internal mutex waits here.
//! 4. Either way, `removeWatchers()` sends `checkWatches(<path>/leases, any)` — which leaves
//!    the watch on the server, so the holder later hears NodeChildrenChanged it ignores — then
//!    the internal mutex is released (`delete` of its lock node).
//! 5. Returning a lease is one `delete` of the lease node.
//! 6. Out of time while waiting: one more listing (a lease free now is still taken), else the
//!    lease node is deleted, then step 4. A cancel deletes it at once.
//!
//! The internal mutex is never checked again once taken: a client whose session expires while
//! it holds it (between its grant and the lease create, or while waiting in step 3) goes on in
//! its new session, and the next client takes the mutex beside it. Both then create leases; with
//! one lease left and neither holding one, both wait for ever (recorded from the real Curator:
//! `curator_semaphore_mutex_lost_internal_mutex`).
//!
//! The fencing token is the lease node's sequence number.

use super::framework::{address, uuid, Mkdirs, Watchers, MAX_RETRIES};
use super::mutex::{Curator, Flavor};
use crate::engine::{ErrorCode, Request};
use crate::recipes::{
    create_seq, sequence_token, zk, Failure, Phase, RecipeConfig, RecipeIn, RecipeOut,
    SessionEvent, ZkIn,
};

/// Where an acquire or a release is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum Stage {
    Idle,
    /// The internal mutex is being taken (its requests and replies are its own).
    Mutex,
    Create,
    Mkdirs(Mkdirs),
    /// A retried create looks for its protected node first.
    Find,
    Leases,
    /// Waiting for the leases directory's child watch.
    Waiting,
    /// Our lease node vanished: deleting it before trying again.
    Missing,
    /// Removing the watchers, before the internal mutex goes.
    Check(Vec<Request>),
    /// The internal mutex is being released.
    Unlock,
    GiveUp,
    Return,
}

/// What a back-off is waiting to do.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum Redo {
    Resend,
    /// A retried create: look for the protected node first.
    Find,
    /// The lease vanished: a whole new attempt.
    Attempt,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Semaphore {
    pub phase: Phase,
    pub my_node: Option<String>,
    pub max_leases: u32,
    pub(super) mutex: Curator,
    pub(super) stage: Stage,
    pub(super) leases: String,
    pub(super) data: Vec<u8>,
    pub(super) uuid_seed: u64,
    pub(super) uuid_n: u64,
    /// This attempt's protected name, `<path>/leases/_c_<uuid>-lease-`.
    pub(super) lease_path: String,
    pub(super) watchers: Watchers,
    /// The acquire ran out of time (or was cancelled): what it fails with.
    pub(super) failing: Option<Failure>,
    pub(super) last: Option<Request>,
    pub(super) retries: u32,
    /// Whole attempts after a vanished lease.
    pub(super) attempts: u32,
    pub(super) missing: bool,
    pub(super) after_sleep: Option<Redo>,
    /// The session changed while the create was being retried (protection must not adopt).
    pub(super) new_session: bool,
    /// Replies to background deletes still to come (ignored).
    pub(super) background: u32,
}

impl Semaphore {
    pub fn new(cfg: &RecipeConfig) -> Self {
        let path = cfg.lock_dir();
        let seed = cfg.uuid_seed.rotate_left(29) ^ 0x5e4a;
        let inner = RecipeConfig {
            uuid_seed: seed,
            ..cfg.clone()
        };
        Semaphore {
            phase: Phase::Idle,
            my_node: None,
            max_leases: cfg.max_leases.max(1),
            mutex: Curator::new(&inner, Flavor::Mutex, &format!("{path}/locks")),
            stage: Stage::Idle,
            leases: format!("{path}/leases"),
            data: address(cfg.client),
            uuid_seed: cfg.uuid_seed,
            uuid_n: 0,
            lease_path: String::new(),
            watchers: Watchers::default(),
            failing: None,
            last: None,
            retries: 0,
            attempts: 0,
            missing: false,
            after_sleep: None,
            new_session: false,
            background: 0,
        }
    }

    /// The internal mutex's lock node, while it has one.
    pub fn mutex_node(&self) -> Option<&str> {
        self.mutex.my_node.as_deref()
    }

    pub(super) fn send(&mut self, stage: Stage, r: Request) -> Vec<RecipeOut> {
        self.stage = stage;
        self.retries = 0;
        self.last = Some(r.clone());
        vec![zk(r)]
    }

    pub fn handle(&mut self, input: RecipeIn) -> Vec<RecipeOut> {
        if matches!(self.stage, Stage::Mutex | Stage::Unlock)
            && !matches!(input, RecipeIn::Timeout | RecipeIn::Cancel)
        {
            let out = self.mutex.handle(input);
            return self.from_mutex(out);
        }
        match ZkIn::from(input) {
            ZkIn::Acquire if self.stage == Stage::Idle && self.my_node.is_none() => {
                self.failing = None;
                self.attempts = 0;
                self.phase = Phase::Creating;
                self.take_mutex()
            }
            ZkIn::Release if self.phase == Phase::Holding && self.stage == Stage::Idle => {
                self.phase = Phase::Releasing;
                let path = self.my_node.clone().unwrap_or_default();
                self.send(Stage::Return, Request::Delete { path, version: -1 })
            }
            ZkIn::Release => vec![RecipeOut::Failed(Failure::NotOwner)],
            ZkIn::Reply { request, result } => self.reply(request, result),
            ZkIn::Event(e) if e.path == self.leases => {
                self.watchers.fired(&e.path);
                self.wake()
            }
            // The internal mutex's own watcher (it wakes only the mutex).
            ZkIn::Event(e) => {
                let out = self.mutex.handle(RecipeIn::event(e));
                self.from_mutex(out)
            }
            ZkIn::Session(e) => {
                let creating = matches!(self.stage, Stage::Create | Stage::Mkdirs(_) | Stage::Find);
                self.new_session |= e == SessionEvent::NewSession && creating;
                self.wake()
            }
            ZkIn::Timeout => self.give_up(Failure::Timeout),
            ZkIn::Cancel => self.give_up(Failure::Cancelled),
            ZkIn::Retry if self.after_sleep.is_some() => self.redo(),
            _ => Vec::new(),
        }
    }

    pub(super) fn take_mutex(&mut self) -> Vec<RecipeOut> {
        self.stage = Stage::Mutex;
        let out = self.mutex.handle(RecipeIn::Acquire);
        self.from_mutex(out)
    }

    /// The internal mutex's outputs: its requests go out; its grant starts the lease, its
    /// release ends the acquire.
    fn from_mutex(&mut self, out: Vec<RecipeOut>) -> Vec<RecipeOut> {
        let mut v = Vec::new();
        for o in out {
            match o {
                RecipeOut::Acquired { .. } if self.stage == Stage::Mutex => {
                    v.extend(self.new_lease())
                }
                RecipeOut::Released if self.stage == Stage::Unlock => v.extend(self.finished()),
                RecipeOut::Failed(why) if self.stage == Stage::Mutex => {
                    self.stage = Stage::Idle;
                    self.phase = Phase::Idle;
                    v.push(RecipeOut::Failed(why));
                }
                RecipeOut::Failed(_) if self.stage == Stage::Unlock => v.extend(self.finished()),
                other => v.push(other),
            }
        }
        v
    }

    /// A new attempt's lease: a fresh protected name.
    fn new_lease(&mut self) -> Vec<RecipeOut> {
        self.uuid_n += 1;
        let id = uuid(self.uuid_seed, self.uuid_n);
        self.lease_path = format!("{}/_c_{id}-lease-", self.leases);
        self.new_session = false;
        self.create()
    }

    /// `create2` under this attempt's protected name.
    pub(super) fn create(&mut self) -> Vec<RecipeOut> {
        let path = self.lease_path.clone();
        self.send(Stage::Create, create_seq(path, &self.data))
    }

    pub(super) fn list(&mut self) -> Vec<RecipeOut> {
        let r = Request::GetChildren {
            path: self.leases.clone(),
            watch: true,
        };
        self.send(Stage::Leases, r)
    }

    fn wake(&mut self) -> Vec<RecipeOut> {
        match self.stage {
            Stage::Waiting if self.after_sleep.is_none() => self.list(),
            _ => Vec::new(),
        }
    }

    fn give_up(&mut self, why: Failure) -> Vec<RecipeOut> {
        match self.stage {
            Stage::Mutex => {
                let out = self.mutex.handle(if why == Failure::Cancelled {
                    RecipeIn::Cancel
                } else {
                    RecipeIn::Timeout
                });
                self.from_mutex(out)
            }
            Stage::Waiting if why == Failure::Cancelled => {
                self.failing = Some(why);
                self.delete_lease(Stage::GiveUp)
            }
            Stage::Waiting => {
                self.failing = Some(why);
                self.list()
            }
            Stage::Create | Stage::Mkdirs(_) | Stage::Find | Stage::Leases => {
                self.failing = Some(why);
                Vec::new()
            }
            _ => Vec::new(),
        }
    }

    pub(super) fn delete_lease(&mut self, stage: Stage) -> Vec<RecipeOut> {
        let path = self.my_node.take().unwrap_or_default();
        self.send(stage, Request::Delete { path, version: -1 })
    }

    /// Whether it got a lease or not: remove the watchers, then release the internal mutex.
    pub(super) fn unlock(&mut self) -> Vec<RecipeOut> {
        let checks = self.watchers.remove_all();
        self.check(checks)
    }

    pub(super) fn check(&mut self, mut rest: Vec<Request>) -> Vec<RecipeOut> {
        if rest.is_empty() {
            self.stage = Stage::Unlock;
            let out = self.mutex.handle(RecipeIn::Release);
            return self.from_mutex(out);
        }
        let r = rest.remove(0);
        self.send(Stage::Check(rest), r)
    }

    /// The internal mutex is released: the acquire ends, with a lease or without, or (the
    /// lease vanished) tries again after a back-off.
    fn finished(&mut self) -> Vec<RecipeOut> {
        self.stage = Stage::Idle;
        if std::mem::take(&mut self.missing) && self.failing.is_none() {
            self.attempts += 1;
            if self.attempts <= MAX_RETRIES {
                self.phase = Phase::Creating;
                self.after_sleep = Some(Redo::Attempt);
                return vec![RecipeOut::Backoff {
                    retry: self.attempts - 1,
                }];
            }
        }
        match (self.my_node.as_deref(), self.failing.take()) {
            (Some(node), None) => {
                self.phase = Phase::Holding;
                vec![RecipeOut::Acquired {
                    token: sequence_token(node),
                }]
            }
            (_, why) => {
                self.phase = Phase::Idle;
                self.my_node = None;
                vec![RecipeOut::Failed(
                    why.unwrap_or(Failure::Error(ErrorCode::NoNode)),
                )]
            }
        }
    }
}

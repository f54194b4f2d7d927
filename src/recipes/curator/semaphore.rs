//! Curator 5.4's InterProcessSemaphoreV2 (and InterProcessSemaphoreMutex, the same with one
//! lease), with its own layout under the lock path `<path>`:
//!
//! 1. Acquire a lease: take the internal mutex, an InterProcessMutex on `<path>/locks`.
//! 2. `create2` EPHEMERAL_SEQUENTIAL `<path>/leases/_c_<uuid>-lease-` (parents as containers).
//! 3. `getChildren2(<path>/leases, watch=true)`: at most `max_leases` children → got it;
//!    otherwise wait for the child watch (NodeChildrenChanged) and list again. Only the client
//!    holding the internal mutex waits on the leases directory.
//! 4. Either way, `removeWatchers()` sends `checkWatches(<path>/leases, any)` — which leaves
//!    the watch on the server, so the holder later hears NodeChildrenChanged it ignores — then
//!    the internal mutex is released (`delete` of its lock node).
//! 5. Returning a lease is one `delete` of the lease node.
//! 6. Out of time while waiting: the lease node is deleted, then steps 4 and 5.
//!
//! The fencing token is the lease node's sequence number.

use super::framework::{address, uuid, Mkdirs, Walk, Watchers, MAX_RETRIES};
use super::mutex::{Curator, Flavor};
use crate::engine::{ErrorCode, Request, Response};
use crate::recipes::{
    create_seq, sequence_token, zk, Failure, Phase, RecipeConfig, RecipeIn, RecipeOut, ZkIn,
};

/// Where an acquire or a release is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Stage {
    Idle,
    /// The internal mutex is being taken (its requests and replies are its own).
    Mutex,
    Create,
    Mkdirs(Mkdirs),
    Leases,
    /// Waiting for the leases directory's child watch.
    Waiting,
    /// Removing the watchers, before the internal mutex goes.
    Check(Vec<Request>),
    /// The internal mutex is being released.
    Unlock,
    GiveUp,
    Return,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Semaphore {
    pub phase: Phase,
    pub my_node: Option<String>,
    pub max_leases: u32,
    mutex: Curator,
    stage: Stage,
    leases: String,
    data: Vec<u8>,
    uuid_seed: u64,
    uuid_n: u64,
    watchers: Watchers,
    /// The acquire ran out of time (or was cancelled): what it fails with.
    failing: Option<Failure>,
    last: Option<Request>,
    retries: u32,
    sleeping: bool,
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
            watchers: Watchers::default(),
            failing: None,
            last: None,
            retries: 0,
            sleeping: false,
        }
    }

    /// The internal mutex's lock node, while it has one.
    pub fn mutex_node(&self) -> Option<&str> {
        self.mutex.my_node.as_deref()
    }

    fn send(&mut self, stage: Stage, r: Request) -> Vec<RecipeOut> {
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
                self.phase = Phase::Creating;
                self.stage = Stage::Mutex;
                let out = self.mutex.handle(RecipeIn::Acquire);
                self.from_mutex(out)
            }
            ZkIn::Release if self.phase == Phase::Holding && self.stage == Stage::Idle => {
                self.phase = Phase::Releasing;
                let path = self.my_node.clone().unwrap_or_default();
                self.send(Stage::Return, Request::Delete { path, version: -1 })
            }
            ZkIn::Release => vec![RecipeOut::Failed(Failure::NotOwner)],
            ZkIn::Reply { request, result } => self.reply(request, result),
            ZkIn::Event(e) => {
                self.watchers.fired(&e.path);
                self.wake()
            }
            ZkIn::Session(_) => self.wake(),
            ZkIn::Timeout => self.give_up(Failure::Timeout),
            ZkIn::Cancel => self.give_up(Failure::Cancelled),
            ZkIn::Retry if self.sleeping => {
                self.sleeping = false;
                self.last.clone().map(|r| vec![zk(r)]).unwrap_or_default()
            }
            _ => Vec::new(),
        }
    }

    /// The internal mutex's outputs: its requests go out; its grant starts the lease, its
    /// release ends the acquire.
    fn from_mutex(&mut self, out: Vec<RecipeOut>) -> Vec<RecipeOut> {
        let mut v = Vec::new();
        for o in out {
            match o {
                RecipeOut::Acquired { .. } if self.stage == Stage::Mutex => v.extend(self.create()),
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

    fn create(&mut self) -> Vec<RecipeOut> {
        self.uuid_n += 1;
        let path = format!(
            "{}/_c_{}-lease-",
            self.leases,
            uuid(self.uuid_seed, self.uuid_n)
        );
        self.send(Stage::Create, create_seq(path, &self.data))
    }

    fn list(&mut self) -> Vec<RecipeOut> {
        let r = Request::GetChildren {
            path: self.leases.clone(),
            watch: true,
        };
        self.send(Stage::Leases, r)
    }

    fn wake(&mut self) -> Vec<RecipeOut> {
        match self.stage {
            Stage::Waiting if !self.sleeping => self.list(),
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
            Stage::Waiting => {
                self.failing = Some(why);
                let path = self.my_node.take().unwrap_or_default();
                self.send(Stage::GiveUp, Request::Delete { path, version: -1 })
            }
            Stage::Create | Stage::Mkdirs(_) | Stage::Leases => {
                self.failing = Some(why);
                Vec::new()
            }
            _ => Vec::new(),
        }
    }

    fn reply(&mut self, request: Request, result: Result<Response, ErrorCode>) -> Vec<RecipeOut> {
        if let Err(ErrorCode::ConnectionLoss | ErrorCode::SessionExpired) = result {
            if !matches!(self.stage, Stage::Check(_)) {
                self.retries += 1;
                if self.retries <= MAX_RETRIES {
                    self.sleeping = true;
                    return vec![RecipeOut::Backoff {
                        retry: self.retries - 1,
                    }];
                }
            }
        }
        match std::mem::replace(&mut self.stage, Stage::Idle) {
            Stage::Create => match result {
                Ok(Response::Create { path, .. }) => {
                    self.my_node = Some(path);
                    self.list()
                }
                Err(ErrorCode::NoNode) => {
                    let (walk, first) = Mkdirs::start(&self.leases);
                    self.send(Stage::Mkdirs(walk), first)
                }
                _ => self.unlock(),
            },
            Stage::Mkdirs(mut walk) => {
                let found = matches!(
                    result,
                    Ok(Response::Exists { stat: Some(_) })
                        | Ok(Response::Create { .. })
                        | Err(ErrorCode::NodeExists)
                );
                match walk.step(&request, found) {
                    Walk::Send(r) => self.send(Stage::Mkdirs(walk), r),
                    Walk::Done => self.create(),
                }
            }
            Stage::Leases => self.listed(result),
            Stage::GiveUp => self.unlock(),
            Stage::Check(rest) => self.check(rest),
            Stage::Return => {
                self.phase = Phase::Idle;
                self.my_node = None;
                vec![RecipeOut::Released]
            }
            other => {
                self.stage = other;
                Vec::new()
            }
        }
    }

    fn listed(&mut self, result: Result<Response, ErrorCode>) -> Vec<RecipeOut> {
        let Ok(Response::GetChildren { children, .. }) = result else {
            return self.unlock();
        };
        self.watchers.commit(&self.leases.clone());
        if let Some(why) = self.failing.clone() {
            self.failing = Some(why);
            let path = self.my_node.take().unwrap_or_default();
            return self.send(Stage::GiveUp, Request::Delete { path, version: -1 });
        }
        if children.len() <= self.max_leases as usize {
            return self.unlock();
        }
        self.stage = Stage::Waiting;
        self.phase = Phase::Watching(self.leases.clone());
        Vec::new()
    }

    /// Whether it got a lease or not: remove the watchers, then release the internal mutex.
    fn unlock(&mut self) -> Vec<RecipeOut> {
        let checks = self.watchers.remove_all();
        self.check(checks)
    }

    fn check(&mut self, mut rest: Vec<Request>) -> Vec<RecipeOut> {
        if rest.is_empty() {
            self.stage = Stage::Unlock;
            let out = self.mutex.handle(RecipeIn::Release);
            return self.from_mutex(out);
        }
        let r = rest.remove(0);
        self.send(Stage::Check(rest), r)
    }

    /// The internal mutex is released: the acquire ends, with a lease or without.
    fn finished(&mut self) -> Vec<RecipeOut> {
        self.stage = Stage::Idle;
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

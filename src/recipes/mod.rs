//! Client-side lock recipes as sans-IO state machines.
//!
//! A recipe never does IO: it takes one [`RecipeIn`] (the application's wish, a reply, a watch
//! event, a session event, a timeout) and answers with [`RecipeOut`]s (requests to send, "you
//! hold the lock", "released", failures). Its [`Phase`] is what the UI shows and narrates. The
//! lock decisions themselves are pure functions in [`decide`], table-tested like Curator's
//! `getsTheLock`. Recipes are an enum, not trait objects, so worlds stay `Clone + Eq + Hash`.

mod belief;
pub mod broken;
pub mod curator;
pub mod decide;
pub(crate) use decide::Woken;
pub mod kazoo;
mod kind;
pub mod naive;
pub mod sequential;

#[cfg(feature = "services")]
pub mod etcd;
#[cfg(feature = "services")]
pub mod observer;
pub mod program;
#[cfg(feature = "services")]
pub mod redis;
#[cfg(feature = "services")]
pub mod redlock;
#[cfg(feature = "services")]
pub mod sql;

use serde::{Deserialize, Serialize};

pub use crate::narrate::Phase;
pub use crate::services::{Answer, Call, ServiceKind, SessionEvent};
pub(crate) use belief::Believes;
pub use belief::{Belief, Tally};
pub use kind::{
    RecipeConfig, RecipeKind, REDLOCK_RETRY_COUNT, REDLOCK_RETRY_DELAY, REDLOCK_RETRY_JITTER,
};

use crate::engine::{ErrorCode, Request, Response, WatchedEvent};
use crate::services::zookeeper;

/// The lock directory every sequential recipe uses, and the naive recipes' single lock node.
pub const LOCK_DIR: &str = "/locks";
pub const LOCK_NODE: &str = "/lock";
/// The lock table's row the SQL recipes insert or lock.
pub const SQL_ROW: &str = "lock";

/// Inputs to a recipe.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecipeIn {
    Acquire,
    Release,
    /// An answer or a pushed event from the lock service, through the client library.
    Answer(Answer),
    Session(SessionEvent),
    /// The acquire deadline passed (recipes that support timeouts).
    Timeout,
    /// The application stops waiting (kazoo's `cancel()`; elsewhere, an interrupt).
    Cancel,
    /// The poll delay asked for with [`RecipeOut::RetryAfter`] is over.
    Retry,
    /// The application extends the lock it holds (node-redlock's `lock.extend(ttl)`).
    Extend,
    /// The application reads the lock node, after `sync` if asked (observers only).
    Read {
        sync: bool,
    },
}

/// Why an acquire or release did not succeed.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Failure {
    Timeout,
    /// The waiting acquire was cancelled.
    Cancelled,
    /// Curator's IllegalMonitorStateException("You do not own the lock").
    NotOwner,
    Error(ErrorCode),
}

/// Outputs of a recipe.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecipeOut {
    /// A request for the client library (and so, usually, the service).
    Send(Call),
    /// The application now holds the lock; `token` is a fencing token (a ZooKeeper lock
    /// node's czxid, an etcd create revision, a SQL fence; 0 where the service gives none).
    Acquired {
        token: i64,
    },
    Released,
    Failed(Failure),
    /// The recipe learned it no longer holds the lock (its session expired).
    Lost,
    /// Poll again after about this many ticks (the client adds jitter).
    RetryAfter(u64),
    /// Try again after a delay drawn uniformly from this range, in ticks (node-redlock's
    /// `retryDelay ± retryJitter`).
    RetryBetween(u64, u64),
    /// Sleep before the `retry`-th retry (0-based), as Curator's `ExponentialBackoffRetry`
    /// does: the client's base sleep times a random 1..2^(retry+1).
    Backoff {
        retry: u32,
    },
    CancelRetry,
    /// An observer's read is done (what it saw is in its phase).
    Read,
}

/// A ZooKeeper recipe's view of its inputs (the library matched each reply to its request).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ZkIn {
    Acquire,
    Release,
    Reply {
        request: Request,
        result: Result<Response, ErrorCode>,
    },
    Event(WatchedEvent),
    Session(SessionEvent),
    Timeout,
    Cancel,
    Retry,
    /// Something only another service's library would hand over.
    Foreign,
}

impl From<RecipeIn> for ZkIn {
    fn from(i: RecipeIn) -> ZkIn {
        #[allow(unreachable_patterns)]
        match i {
            RecipeIn::Acquire => ZkIn::Acquire,
            RecipeIn::Release => ZkIn::Release,
            RecipeIn::Answer(Answer::ZooKeeper(zookeeper::Answer::Reply { request, result })) => {
                ZkIn::Reply { request, result }
            }
            RecipeIn::Answer(Answer::ZooKeeper(zookeeper::Answer::Event(e))) => ZkIn::Event(e),
            RecipeIn::Session(e) => ZkIn::Session(e),
            RecipeIn::Timeout => ZkIn::Timeout,
            RecipeIn::Cancel => ZkIn::Cancel,
            RecipeIn::Retry => ZkIn::Retry,
            _ => ZkIn::Foreign,
        }
    }
}

impl RecipeIn {
    /// A ZooKeeper reply, as the library hands it over.
    pub fn reply(request: Request, result: Result<Response, ErrorCode>) -> RecipeIn {
        RecipeIn::Answer(Answer::ZooKeeper(zookeeper::Answer::Reply {
            request,
            result,
        }))
    }

    /// A ZooKeeper watch event.
    pub fn event(e: WatchedEvent) -> RecipeIn {
        RecipeIn::Answer(Answer::ZooKeeper(zookeeper::Answer::Event(e)))
    }
}

/// A ZooKeeper request for the library.
pub(crate) fn zk(r: Request) -> RecipeOut {
    RecipeOut::Send(Call::ZooKeeper(r.into()))
}

/// How a lock is held: exclusively, or shared with other holders (read locks, semaphores).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum HoldMode {
    Exclusive,
    Shared,
}

/// The recipes, one variant each, with delegating methods. A group's `cfg` is written here
/// once, and [`Recipe::new`] maps the scenario's kinds to constructors.
macro_rules! recipes {
    ($( #[$attr:meta] { $( $v:ident($t:ty) for $($kind:ident)|+ => $new:expr ),* $(,)? } )*) => {
        /// A recipe instance. An enum, not trait objects, so worlds stay `Clone + Eq + Hash`.
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub enum Recipe { $( $( #[$attr] $v($t), )* )* }

        impl Recipe {
            /// The scenario's recipe for one client (a kind this build lacks is no lock at all;
            /// the lean page hands such scenarios to the full bundle before it gets here).
            pub fn new(cfg: &RecipeConfig) -> Recipe {
                #[allow(unreachable_patterns)]
                match cfg.kind {
                    $( $( #[$attr] $(RecipeKind::$kind)|+ => Recipe::$v(($new)(cfg)), )* )*
                    _ => Recipe::None(NoLock::default()),
                }
            }

            pub fn handle(&mut self, input: RecipeIn) -> Vec<RecipeOut> {
                match self { $( $( #[$attr] Recipe::$v(r) => r.handle(input), )* )* }
            }

            pub fn phase(&self) -> Phase {
                self.phase_ref().clone()
            }

            /// The phase a caption names: a Redlock client that unlocks every master after too
            /// few votes still counts as asking for the lock, but what it does now is release
            /// (its lane reads "too few; unlocking").
            pub fn shown_phase(&self) -> Phase {
                match (self.phase_ref(), self.tally()) {
                    (Phase::Requesting, Some(t)) if t.unwinding => Phase::Releasing,
                    (p, _) => p.clone(),
                }
            }

            /// The phase, not copied (monitors ask every client at every step).
            pub fn phase_ref(&self) -> &Phase {
                match self { $( $( #[$attr] Recipe::$v(r) => &r.phase, )* )* }
            }

            /// The lock node this client believes is its own.
            pub fn my_node(&self) -> Option<&str> {
                match self { $( $( #[$attr] Recipe::$v(r) => r.my_node.as_deref(), )* )* }
            }

            /// What the recipe believes it has put in the service.
            pub fn belief(&self) -> Belief<'_> {
                match self { $( $( #[$attr] Recipe::$v(r) => r.belief(), )* )* }
            }

            /// A Redlock attempt's votes so far (`None` for every other recipe).
            pub fn tally(&self) -> Option<Tally> {
                match self { $( $( #[$attr] Recipe::$v(r) => r.tally(), )* )* }
            }

            /// Why a learner's recipe stopped with an error (a wrong type, a missing name, a
            /// loop that sends nothing); `None` for every built-in recipe.
            pub fn error(&self) -> Option<&str> {
                match self { $( $( #[$attr] Recipe::$v(r) => r.error(), )* )* }
            }

            /// Whether its holder gets a fencing token (see [`RecipeKind::gives_token`]).
            pub fn gives_token(&self) -> bool {
                match self { $( $( #[$attr] Recipe::$v(r) => r.fences(), )* )* }
            }

            /// The client's clock, before each input (a recipe that measures time reads it).
            pub fn at(&mut self, now: crate::services::Tick) {
                match self { $( $( #[$attr] Recipe::$v(r) => r.at(now), )* )* }
            }

        }
    };
}

recipes! {
    #[cfg(all())] {
    None(NoLock) for None => |_| NoLock::default(),
    Naive(naive::Naive) for Naive => |_| naive::Naive::default(),
    Sequential(sequential::Sequential) for Sequential => |c: &RecipeConfig| sequential::Sequential::new(c.lock_dir()),
    Curator(curator::Curator) for Curator => curator::Curator::mutex,
    Rwlock(curator::Curator) for Rwlock => curator::Curator::rwlock,
    Semaphore(curator::Semaphore) for CuratorSemaphore => curator::Semaphore::new,
    Kazoo(kazoo::KazooLock) for Kazoo => kazoo::KazooLock::new,
    NoRecheck(broken::NoRecheck) for NoRecheck => |c: &RecipeConfig| broken::NoRecheck::new(c.lock_dir()),
    LostWakeup(broken::LostWakeup) for LostWakeup => |_| broken::LostWakeup::default(),
    }
    #[cfg(feature = "services")] {
    Observer(observer::Observer) for Observer => |_| observer::Observer::default(),
    Redis(redis::Redis) for RedisSetnx | RedisLease => redis::Redis::from_config,
    Etcd(etcd::Mutex) for EtcdMutex => |c: &RecipeConfig| etcd::Mutex::new(c.lease),
    SqlInsert(sql::Insert) for SqlInsert | SqlLease => sql::Insert::from_config,
    SqlRowLock(sql::RowLock) for SqlRowLock => |_| sql::RowLock::default(),
    Redlock(redlock::Redlock) for Redlock => |c: &RecipeConfig| redlock::Redlock::new(c, c.masters),
    Program(program::Program) for Program | RedisProgram => program::Program::from_config,
    }
}

/// What is wrong with a recipe text for this kind of recipe (`None`: it runs).
/// (Only the studio page's bundle carries the language: see `program::Source::new`.)
pub fn program_check(text: &str, kind: RecipeKind) -> Option<String> {
    if !crate::STUDIO {
        return None; // the other pages hand a recipe over to the studio page, which checks it
    }
    match program::Source::new(text) {
        Err(e) => Some(e.to_string()),
        Ok(s) if s.redis() != (kind == RecipeKind::RedisProgram) => Some(format!(
            "the recipe says `service {}` but the scenario's recipe is `{}`",
            if s.redis() { "redis" } else { "zookeeper" },
            kind.name()
        )),
        Ok(_) => None,
    }
}

impl Recipe {
    /// The node a Curator lock found again by its protection prefix after a lost create reply.
    pub fn found_by_prefix(&self) -> Option<&str> {
        match self {
            Recipe::Curator(r) | Recipe::Rwlock(r) if r.adopted => r.my_node.as_deref(),
            _ => None,
        }
    }

    pub fn holding(&self) -> bool {
        *self.phase_ref() == Phase::Holding
    }

    pub fn hold_mode(&self) -> HoldMode {
        match self {
            Recipe::Rwlock(r) if r.flavor == curator::Flavor::Read => HoldMode::Shared,
            Recipe::Semaphore(s) if s.max_leases > 1 => HoldMode::Shared,
            _ => HoldMode::Exclusive,
        }
    }

    /// How many may hold at once (a semaphore's leases; 1 for a mutex, any number of readers).
    pub fn max_holders(&self) -> Option<usize> {
        match (self, self.hold_mode()) {
            (Recipe::Semaphore(s), _) => Some(s.max_leases as usize),
            (_, HoldMode::Shared) => None,
            _ => Some(1),
        }
    }

    /// Reentrancy count (Curator only; 1 while held otherwise).
    pub fn hold_count(&self) -> u32 {
        match self {
            Recipe::Curator(c) | Recipe::Rwlock(c) => c.count,
            _ => u32::from(self.holding()),
        }
    }
}

/// No lock at all (the "ten machines without a lock" baseline): acquiring always succeeds.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct NoLock {
    pub phase: Phase,
    pub my_node: Option<String>,
}

impl NoLock {
    pub fn handle(&mut self, input: RecipeIn) -> Vec<RecipeOut> {
        match input {
            RecipeIn::Acquire => {
                self.phase = Phase::Holding;
                vec![RecipeOut::Acquired { token: 0 }]
            }
            RecipeIn::Release => {
                self.phase = Phase::Idle;
                vec![RecipeOut::Released]
            }
            _ => Vec::new(),
        }
    }
}

/// A create of the single lock node succeeded: we hold it, with its czxid as the token.
pub(crate) fn granted_by_create(
    result: &Result<Response, ErrorCode>,
    phase: &mut Phase,
    my_node: &mut Option<String>,
) -> Vec<RecipeOut> {
    let (path, token) = czxid_of(result).unwrap_or_default();
    *my_node = Some(path);
    *phase = Phase::Holding;
    vec![RecipeOut::Acquired { token }]
}

/// The release finished (or the node was already gone): back to idle.
pub(crate) fn released(phase: &mut Phase, my_node: &mut Option<String>) -> Vec<RecipeOut> {
    *phase = Phase::Idle;
    *my_node = None;
    vec![RecipeOut::Released]
}

/// Session events for the hand-written recipes: expiry while holding means the lock is lost;
/// expiry while acquiring means starting over once the library has a new session. `Some` holds
/// the outputs; `None` means "start over now".
pub(crate) fn on_session(
    e: SessionEvent,
    phase: &mut Phase,
    my_node: &mut Option<String>,
    restart: &mut bool,
) -> Option<Vec<RecipeOut>> {
    match e {
        SessionEvent::Expired if *phase == Phase::Holding => {
            *phase = Phase::Idle;
            *my_node = None;
            Some(vec![RecipeOut::Lost])
        }
        SessionEvent::Expired if !matches!(phase, Phase::Idle | Phase::Releasing) => {
            *my_node = None;
            *restart = true;
            Some(Vec::new())
        }
        SessionEvent::NewSession if std::mem::take(restart) => None,
        _ => Some(Vec::new()),
    }
}

/// Builds a create request for an ephemeral-sequential node.
pub(crate) fn create_seq(path: String, data: &[u8]) -> Request {
    Request::Create {
        path,
        data: Some(data.to_vec()),
        mode: crate::engine::CreateMode::EphemeralSequential,
    }
}

/// Random-looking lock tokens, unique per client and attempt (a real client would use 128
/// random bits; the simulation derives them from the client's seed so runs replay exactly).
pub fn token(seed: u64, n: u32) -> String {
    format!("{:08x}-{n}", (seed >> 32) as u32 ^ seed as u32)
}

/// The sequence number at the end of a lock node's name (a fencing token: it grows with every
/// grant in the directory); 0 if there is none.
pub fn sequence_token(node: &str) -> i64 {
    let tail = &node[node.len().saturating_sub(10)..];
    if tail.len() == 10 && tail.bytes().all(|b| b.is_ascii_digit()) {
        tail.parse().unwrap_or(0)
    } else {
        0
    }
}

/// The czxid from a create reply, used as the fencing token.
pub(crate) fn czxid_of(result: &Result<Response, ErrorCode>) -> Option<(String, i64)> {
    match result {
        Ok(Response::Create { path, stat }) => Some((path.clone(), stat.czxid)),
        _ => None,
    }
}

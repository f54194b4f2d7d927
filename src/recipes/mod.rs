//! Client-side lock recipes as sans-IO state machines.
//!
//! A recipe never does IO: it takes one [`RecipeIn`] (the application's wish, a reply, a watch
//! event, a session event, a timeout) and answers with [`RecipeOut`]s (requests to send, "you
//! hold the lock", "released", failures). Its [`Phase`] is what the UI shows and narrates. The
//! lock decisions themselves are pure functions in [`decide`], table-tested like Curator's
//! `getsTheLock`. Recipes are an enum, not trait objects, so worlds stay `Clone + Eq + Hash`.

pub mod broken;
pub mod curator;
pub mod decide;
#[cfg(feature = "services")]
pub mod etcd;
mod kind;
pub mod naive;
#[cfg(feature = "services")]
pub mod redis;
pub mod rwlock;
pub mod sequential;
#[cfg(feature = "services")]
pub mod sql;
#[cfg(feature = "services")]
pub mod wire;
#[cfg(not(feature = "services"))]
#[path = "wire_stub.rs"]
pub mod wire;

use serde::{Deserialize, Serialize};

pub use kind::{RecipeConfig, RecipeKind, ServiceKind};

use crate::engine::{ErrorCode, Request, Response, WatchedEvent};

/// The lock directory every sequential recipe uses, and the naive recipes' single lock node.
pub const LOCK_DIR: &str = "/locks";
pub const LOCK_NODE: &str = "/lock";

/// What the client library tells a recipe about its session.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SessionEvent {
    /// The connection broke (read timeout, lost reply): the session may still be alive.
    Disconnected,
    /// Reconnected to the same session in time: ephemerals and watches survived.
    Reconnected,
    /// The server said the session is gone: its ephemerals were deleted.
    Expired,
    /// The library opened a fresh session after an expiry.
    NewSession,
}

/// Inputs to a recipe.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecipeIn {
    Acquire,
    Release,
    Reply { request: Request, result: Result<Response, ErrorCode> },
    Event(WatchedEvent),
    Session(SessionEvent),
    /// The acquire deadline passed (recipes that support timeouts).
    Timeout,
    /// An answer (or a watch event) from a lock service other than ZooKeeper.
    Svc(wire::SvcAns),
    /// The poll delay asked for with [`RecipeOut::RetryAfter`] is over.
    Retry,
}

/// Why an acquire or release did not succeed.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Failure {
    Timeout,
    /// Curator's IllegalMonitorStateException("You do not own the lock").
    NotOwner,
    Error(ErrorCode),
}

/// Outputs of a recipe.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecipeOut {
    Send(Request),
    /// The application now holds the lock; `token` is the lock node's czxid (a fencing token).
    Acquired { token: i64 },
    Released,
    Failed(Failure),
    /// The recipe learned it no longer holds the lock (its session expired).
    Lost,
    /// A request to a lock service other than ZooKeeper.
    Svc(wire::SvcReq),
    /// Poll again after about this many ticks (the client adds jitter).
    RetryAfter(u64),
    CancelRetry,
    /// Keep this etcd lease alive every so many ticks (`None`: stop).
    KeepAlive(Option<(i64, u64)>),
}

/// The named phase the UI shows.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Phase {
    Idle,
    Creating,
    /// Sending an acquire command (Redis, SQL).
    Requesting,
    Listing,
    /// Waiting for a watch on this path to fire.
    Watching(String),
    Holding,
    Releasing,
    /// Waiting for a deletion that can no longer be announced (the `lost_wakeup` bug), or
    /// for a row lock (SQL `FOR UPDATE`).
    Waiting(String),
    /// Busy: polling again after a delay (Redis and SQL locks).
    Backoff,
}

/// How a lock is held: exclusively, or shared with other holders (read locks, semaphores).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum HoldMode {
    Exclusive,
    Shared,
}

/// A recipe instance.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Recipe {
    None(NoLock),
    Naive(naive::Naive),
    Sequential(sequential::Sequential),
    Curator(curator::Curator),
    Rwlock(curator::Curator),
    NoRecheck(broken::NoRecheck),
    LostWakeup(broken::LostWakeup),
    #[cfg(feature = "services")]
    Redis(redis::Redis),
    #[cfg(feature = "services")]
    Etcd(etcd::Mutex),
    #[cfg(feature = "services")]
    SqlInsert(sql::Insert),
    #[cfg(feature = "services")]
    SqlRowLock(sql::RowLock),
}

macro_rules! each {
    ($self:expr, $r:ident => $body:expr) => {
        match $self {
            Recipe::None($r) => $body,
            Recipe::Naive($r) => $body,
            Recipe::Sequential($r) => $body,
            Recipe::Curator($r) => $body,
            Recipe::Rwlock($r) => $body,
            Recipe::NoRecheck($r) => $body,
            Recipe::LostWakeup($r) => $body,
            #[cfg(feature = "services")]
            Recipe::Redis($r) => $body,
            #[cfg(feature = "services")]
            Recipe::Etcd($r) => $body,
            #[cfg(feature = "services")]
            Recipe::SqlInsert($r) => $body,
            #[cfg(feature = "services")]
            Recipe::SqlRowLock($r) => $body,
        }
    };
}

impl Recipe {
    pub fn new(cfg: &RecipeConfig) -> Recipe {
        match cfg.kind {
            RecipeKind::None => Recipe::None(NoLock::default()),
            RecipeKind::Naive => Recipe::Naive(naive::Naive::default()),
            RecipeKind::Sequential => Recipe::Sequential(sequential::Sequential::default()),
            RecipeKind::Curator => Recipe::Curator(curator::Curator::new(cfg.max_leases.max(1), cfg.uuid_seed)),
            RecipeKind::Rwlock => Recipe::Rwlock(rwlock::RwLock::new(cfg.writer, cfg.uuid_seed)),
            RecipeKind::NoRecheck => Recipe::NoRecheck(broken::NoRecheck::default()),
            RecipeKind::LostWakeup => Recipe::LostWakeup(broken::LostWakeup::default()),
            _ => Recipe::other(cfg),
        }
    }

    pub fn handle(&mut self, input: RecipeIn) -> Vec<RecipeOut> {
        each!(self, r => r.handle(input))
    }

    pub fn phase(&self) -> Phase {
        each!(self, r => r.phase.clone())
    }

    /// The lock node this client believes is its own.
    pub fn my_node(&self) -> Option<&str> {
        each!(self, r => r.my_node.as_deref())
    }

    pub fn holding(&self) -> bool {
        self.phase() == Phase::Holding
    }

    pub fn hold_mode(&self) -> HoldMode {
        match self {
            Recipe::Rwlock(r) if r.flavor == curator::Flavor::Read => HoldMode::Shared,
            Recipe::Curator(c) if c.max_leases > 1 => HoldMode::Shared,
            _ => HoldMode::Exclusive,
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

/// Without the other lock services every recipe talks to ZooKeeper.
#[cfg(not(feature = "services"))]
impl Recipe {
    fn other(_: &RecipeConfig) -> Recipe {
        Recipe::None(NoLock::default())
    }
    pub fn service(&self) -> ServiceKind {
        ServiceKind::ZooKeeper
    }
    pub fn etcd_lease(&self) -> Option<i64> {
        None
    }
    pub fn lock_id(&self) -> Option<String> {
        None
    }
}

/// No lock at all (the "ten machines without a lock" baseline): acquiring always succeeds.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct NoLock {
    pub phase: Phase,
    pub my_node: Option<String>,
}

impl Default for Phase {
    fn default() -> Self {
        Phase::Idle
    }
}

impl NoLock {
    fn handle(&mut self, input: RecipeIn) -> Vec<RecipeOut> {
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
pub(crate) fn granted_by_create(result: &Result<Response, ErrorCode>, phase: &mut Phase, my_node: &mut Option<String>) -> Vec<RecipeOut> {
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
pub(crate) fn on_session(e: SessionEvent, phase: &mut Phase, my_node: &mut Option<String>, restart: &mut bool) -> Option<Vec<RecipeOut>> {
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
    Request::Create { path, data: Some(data.to_vec()), mode: crate::engine::CreateMode::EphemeralSequential }
}

/// The czxid from a create reply, used as the fencing token.
pub(crate) fn czxid_of(result: &Result<Response, ErrorCode>) -> Option<(String, i64)> {
    match result {
        Ok(Response::Create { path, stat }) => Some((path.clone(), stat.czxid)),
        _ => None,
    }
}

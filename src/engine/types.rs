//! The engine's vocabulary: ids, zxids, create modes, the Stat, error codes and watch events.

use serde::{Deserialize, Serialize};

/// A ZooKeeper transaction id. Standalone servers run in epoch 0, so values stay small.
pub type Zxid = i64;

/// Logical time in milliseconds. The engine never reads a clock; callers pass `now`.
pub type Time = u64;

/// A 64-bit session id, as the server hands it out (top byte = server id 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct SessionId(pub u64);

impl SessionId {
    /// The first id a standalone server (server id 1) started at logical time 0 hands out.
    pub const FIRST: SessionId = SessionId(1 << 56);
}

impl std::fmt::Display for SessionId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "0x{:x}", self.0)
    }
}

/// How many bookkeeping entries the server has looked at (sessions checked for expiry or for
/// the next deadline, watches searched when a session goes), so tests can bound the server's
/// work by its input without a clock. Not part of the state: any two compare equal and hash
/// alike, and a clone starts from the same count.
#[derive(Debug, Default)]
pub struct Work(std::sync::atomic::AtomicU64);

impl Work {
    pub fn add(&self, n: usize) {
        self.0
            .fetch_add(n as u64, std::sync::atomic::Ordering::Relaxed);
    }
    pub fn get(&self) -> u64 {
        self.0.load(std::sync::atomic::Ordering::Relaxed)
    }
}

impl Clone for Work {
    fn clone(&self) -> Self {
        Work(self.get().into())
    }
}

impl PartialEq for Work {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for Work {}

impl std::hash::Hash for Work {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

/// A map keyed by session id. A server hands out consecutive ids with its own id in the top
/// byte (`SessionTrackerImpl`), so a list per top byte, indexed from the bank's first id,
/// serves; it iterates in id order like an ordered map. An ensemble's servers each have their
/// own bank.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SessionMap<V> {
    banks: crate::sorted::SortedMap<u8, Vec<Option<V>>>,
    len: usize,
}

impl<V> Default for SessionMap<V> {
    fn default() -> Self {
        SessionMap {
            banks: Default::default(),
            len: 0,
        }
    }
}

impl<V> SessionMap<V> {
    /// The bank (top byte, never 0) and the index in it.
    fn slot(id: SessionId) -> Option<(u8, usize)> {
        let bank = (id.0 >> 56) as u8;
        let index = usize::try_from(id.0 & ((1 << 56) - 1)).ok()?;
        (bank != 0).then_some((bank, index))
    }
    pub fn get(&self, id: &SessionId) -> Option<&V> {
        let (b, i) = Self::slot(*id)?;
        self.banks.get(&b)?.get(i)?.as_ref()
    }
    pub fn get_mut(&mut self, id: &SessionId) -> Option<&mut V> {
        let (b, i) = Self::slot(*id)?;
        self.banks.get_mut(&b)?.get_mut(i)?.as_mut()
    }
    /// Inserts; ids far beyond any the server handed out are ignored.
    pub fn insert(&mut self, id: SessionId, v: V) {
        let Some((b, i)) = Self::slot(id) else {
            return;
        };
        let slots = self.banks.entry(b).or_default();
        if i > slots.len() + (1 << 20) {
            return;
        }
        if slots.len() <= i {
            slots.resize_with(i + 1, || None);
        }
        self.len += usize::from(slots[i].is_none());
        slots[i] = Some(v);
    }
    pub fn remove(&mut self, id: &SessionId) -> Option<V> {
        let (b, i) = Self::slot(*id)?;
        let v = self.banks.get_mut(&b)?.get_mut(i)?.take();
        self.len -= usize::from(v.is_some());
        v
    }
    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.banks.values().flat_map(|s| s.iter().flatten())
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// The create modes of `CreateMode.java` (TTL modes exist only to be refused).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CreateMode {
    Persistent,
    Ephemeral,
    PersistentSequential,
    EphemeralSequential,
    Container,
    PersistentWithTtl,
    PersistentSequentialWithTtl,
}

impl CreateMode {
    pub fn is_sequential(self) -> bool {
        matches!(
            self,
            CreateMode::PersistentSequential
                | CreateMode::EphemeralSequential
                | CreateMode::PersistentSequentialWithTtl
        )
    }
    pub fn is_ephemeral(self) -> bool {
        matches!(
            self,
            CreateMode::Ephemeral | CreateMode::EphemeralSequential
        )
    }
    pub fn is_ttl(self) -> bool {
        matches!(
            self,
            CreateMode::PersistentWithTtl | CreateMode::PersistentSequentialWithTtl
        )
    }
}

/// What the hidden 64-bit `ephemeralOwner` field encodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum NodeKind {
    Persistent,
    Ephemeral(SessionId),
    Container,
}

impl NodeKind {
    /// The owner clients see: only real ephemerals expose a session id.
    pub fn visible_owner(self) -> u64 {
        match self {
            NodeKind::Ephemeral(s) => s.0,
            _ => 0,
        }
    }
}

/// The client-visible Stat (ctime/mtime are logical milliseconds).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Stat {
    pub czxid: Zxid,
    pub mzxid: Zxid,
    pub ctime: Time,
    pub mtime: Time,
    pub version: i32,
    pub cversion: i32,
    pub aversion: i32,
    pub ephemeral_owner: u64,
    pub data_length: i32,
    pub num_children: i32,
    pub pzxid: Zxid,
}

/// `KeeperException.Code`: the error codes the engine can produce.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ErrorCode {
    /// Multi only: this op was fine but the multi failed (`ErrorResult(0)`).
    RolledBack,
    RuntimeInconsistency,
    ConnectionLoss,
    /// The server failed while handling the request (`MarshallingError`): a null path.
    Marshalling,
    Unimplemented,
    BadArguments,
    NoNode,
    /// The node's ACL forbids the write (only `/zookeeper/config`, which is read-only).
    NoAuth,
    BadVersion,
    NoChildrenForEphemerals,
    NodeExists,
    NotEmpty,
    SessionExpired,
    NoWatcher,
}

impl ErrorCode {
    pub fn code(self) -> i32 {
        match self {
            ErrorCode::RolledBack => 0,
            ErrorCode::RuntimeInconsistency => -2,
            ErrorCode::ConnectionLoss => -4,
            ErrorCode::Marshalling => -5,
            ErrorCode::Unimplemented => -6,
            ErrorCode::BadArguments => -8,
            ErrorCode::NoNode => -101,
            ErrorCode::NoAuth => -102,
            ErrorCode::BadVersion => -103,
            ErrorCode::NoChildrenForEphemerals => -108,
            ErrorCode::NodeExists => -110,
            ErrorCode::NotEmpty => -111,
            ErrorCode::SessionExpired => -112,
            ErrorCode::NoWatcher => -121,
        }
    }

    /// The exception class name a kazoo client reports.
    pub fn kazoo_name(self) -> &'static str {
        match self {
            ErrorCode::RolledBack => "RolledBackError",
            ErrorCode::RuntimeInconsistency => "RuntimeInconsistency",
            ErrorCode::ConnectionLoss => "ConnectionLoss",
            ErrorCode::Marshalling => "MarshallingError",
            ErrorCode::Unimplemented => "UnimplementedError",
            ErrorCode::BadArguments => "BadArgumentsError",
            ErrorCode::NoNode => "NoNodeError",
            ErrorCode::NoAuth => "NoAuthError",
            ErrorCode::BadVersion => "BadVersionError",
            ErrorCode::NoChildrenForEphemerals => "NoChildrenForEphemeralsError",
            ErrorCode::NodeExists => "NodeExistsError",
            ErrorCode::NotEmpty => "NotEmptyError",
            ErrorCode::SessionExpired => "SessionExpiredError",
            ErrorCode::NoWatcher => "NoWatcherError",
        }
    }
}

/// Watch event types (`Watcher.Event.EventType`) carried by server notifications, and `None`,
/// which no server sends: a client library's own event to its watchers (kazoo calls every
/// watcher with one when its connection is lost, and forgets them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum EventType {
    NodeCreated,
    NodeDeleted,
    NodeDataChanged,
    NodeChildrenChanged,
    None,
}

impl EventType {
    /// The Java enum name (`NodeDeleted`), as watchers print it.
    pub fn name(self) -> &'static str {
        match self {
            EventType::NodeCreated => "NodeCreated",
            EventType::NodeDeleted => "NodeDeleted",
            EventType::NodeDataChanged => "NodeDataChanged",
            EventType::NodeChildrenChanged => "NodeChildrenChanged",
            EventType::None => "None",
        }
    }

    pub fn wire_name(self) -> &'static str {
        match self {
            EventType::NodeCreated => "NODE_CREATED",
            EventType::NodeDeleted => "NODE_DELETED",
            EventType::NodeDataChanged => "NODE_DATA_CHANGED",
            EventType::NodeChildrenChanged => "NODE_CHILDREN_CHANGED",
            EventType::None => "NONE",
        }
    }
}

/// One server notification: type and path (state is always SyncConnected).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct WatchedEvent {
    pub kind: EventType,
    pub path: String,
}

/// FNV-1a, 64 bits: a stable hasher (the standard one is seeded per process).
pub struct Fnv(pub u64);

impl Fnv {
    pub fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

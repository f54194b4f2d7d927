//! Which recipe a client runs, which lock service it needs, and its settings.

use serde::{Deserialize, Serialize};

use crate::services::ServiceKind;

/// Which recipe a client runs (the scenario's choice).
/// node-redlock's default `retryCount`: attempts after the first.
pub const REDLOCK_RETRY_COUNT: u32 = 10;
/// node-redlock's `retryDelay` and `retryJitter` (ms): a retry waits delay ± jitter.
pub const REDLOCK_RETRY_DELAY: u64 = 200;
pub const REDLOCK_RETRY_JITTER: u64 = 100;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecipeKind {
    None,
    Naive,
    Sequential,
    Curator,
    Rwlock,
    CuratorSemaphore,
    Kazoo,
    NoRecheck,
    LostWakeup,
    RedisSetnx,
    RedisLease,
    EtcdMutex,
    SqlInsert,
    SqlLease,
    SqlRowLock,
    Redlock,
    /// Takes no lock: reads the lock node on command (a scenario's `observers`).
    Observer,
    /// A recipe written in the recipe language (the scenario's `program`), on ZooKeeper.
    Program,
    /// A recipe written in the recipe language, on Redis.
    RedisProgram,
}

impl RecipeKind {
    pub const ALL: [RecipeKind; 16] = [
        RecipeKind::Naive,
        RecipeKind::Sequential,
        RecipeKind::Curator,
        RecipeKind::Rwlock,
        RecipeKind::CuratorSemaphore,
        RecipeKind::Kazoo,
        RecipeKind::NoRecheck,
        RecipeKind::LostWakeup,
        RecipeKind::RedisSetnx,
        RecipeKind::RedisLease,
        RecipeKind::EtcdMutex,
        RecipeKind::SqlInsert,
        RecipeKind::SqlLease,
        RecipeKind::SqlRowLock,
        RecipeKind::Redlock,
        RecipeKind::None,
    ];

    pub fn service(self) -> ServiceKind {
        match self {
            RecipeKind::RedisSetnx | RecipeKind::RedisLease | RecipeKind::RedisProgram => {
                ServiceKind::Redis
            }
            RecipeKind::EtcdMutex => ServiceKind::Etcd,
            RecipeKind::Redlock => ServiceKind::Redlock,
            RecipeKind::SqlInsert | RecipeKind::SqlLease | RecipeKind::SqlRowLock => {
                ServiceKind::Sql
            }
            _ => ServiceKind::ZooKeeper,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            RecipeKind::None => "none",
            RecipeKind::Naive => "naive",
            RecipeKind::Sequential => "sequential",
            RecipeKind::Curator => "curator",
            RecipeKind::Rwlock => "rwlock",
            RecipeKind::CuratorSemaphore => "curator_semaphore",
            RecipeKind::Kazoo => "kazoo",
            RecipeKind::NoRecheck => "no_recheck",
            RecipeKind::LostWakeup => "lost_wakeup",
            RecipeKind::RedisSetnx => "redis_setnx",
            RecipeKind::RedisLease => "redis_lease",
            RecipeKind::EtcdMutex => "etcd_mutex",
            RecipeKind::SqlInsert => "sql_insert",
            RecipeKind::SqlLease => "sql_lease",
            RecipeKind::SqlRowLock => "sql_row_lock",
            RecipeKind::Redlock => "redlock",
            RecipeKind::Observer => "observer",
            RecipeKind::Program => "program",
            RecipeKind::RedisProgram => "redis_program",
        }
    }

    /// Whether a holder gets a fencing token that grows with every grant: a ZooKeeper lock
    /// node's czxid, an etcd key's create revision, the lock row's fence column.
    pub fn gives_token(self) -> bool {
        !matches!(
            self,
            RecipeKind::None
                | RecipeKind::Observer
                | RecipeKind::RedisSetnx
                | RecipeKind::RedisLease
                | RecipeKind::Redlock
                | RecipeKind::SqlInsert
                | RecipeKind::SqlRowLock
        )
    }

    /// Whether the recipe runs on Curator's framework (its connection manager declares a
    /// session lost after a session timeout without a connection).
    pub fn curator_framework(self) -> bool {
        matches!(
            self,
            RecipeKind::Curator | RecipeKind::Rwlock | RecipeKind::CuratorSemaphore
        )
    }

    /// The row an operator creates before the run for this recipe (`FOR UPDATE` locks it).
    pub fn operator_row(self) -> Option<&'static str> {
        (self == RecipeKind::SqlRowLock).then_some(super::SQL_ROW)
    }

    pub fn parse(s: &str) -> Option<RecipeKind> {
        RecipeKind::ALL
            .into_iter()
            .chain([RecipeKind::Program, RecipeKind::RedisProgram])
            .find(|k| k.name() == s)
    }

    /// A recipe written in the recipe language (the scenario carries its text).
    pub fn is_program(self) -> bool {
        matches!(self, RecipeKind::Program | RecipeKind::RedisProgram)
    }
}

/// Per-client recipe settings.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RecipeConfig {
    pub kind: RecipeKind,
    /// For `rwlock`: this client takes the write lock (else the read lock).
    pub writer: bool,
    /// For `curator_semaphore`: leases (1 = InterProcessSemaphoreMutex).
    pub max_leases: u32,
    /// Seed for this client's protection UUIDs and lock tokens.
    pub uuid_seed: u64,
    /// Lease length for Redis TTLs, etcd leases and SQL expiry columns (ticks = ms).
    pub lease: u64,
    /// Poll delay of the Redis and SQL recipes.
    pub poll: u64,
    /// `redis_setnx`: repair a lock key left without TTL.
    pub ttl_repair: bool,
    /// The client's index (its address derives from it).
    pub client: usize,
    /// The lock's path (ZooKeeper recipes); `None`: the recipe's default.
    pub lock_path: Option<String>,
    /// kazoo's `Lock(path, identifier)`: the node data; `None` as `Lock(path)` (empty data).
    pub identifier: Option<String>,
    /// Redlock: how many masters the client knows.
    pub masters: u8,
    /// Redlock: node-redlock's `retryCount`.
    pub retry_count: u32,
    /// A recipe written in the recipe language (`program` and `redis_program`): its text.
    #[serde(skip)]
    pub program: Option<std::sync::Arc<str>>,
}

impl RecipeConfig {
    /// A recipe's settings with everything else at its default.
    pub fn new(kind: RecipeKind) -> RecipeConfig {
        RecipeConfig {
            kind,
            writer: true,
            max_leases: 1,
            uuid_seed: 0,
            lease: 2000,
            poll: 10,
            ttl_repair: true,
            client: 0,
            lock_path: None,
            identifier: None,
            masters: crate::services::REDLOCK_MASTERS,
            retry_count: REDLOCK_RETRY_COUNT,
            program: None,
        }
    }

    /// The lock directory of the sequential recipes (default `/locks`).
    pub fn lock_dir(&self) -> &str {
        self.lock_path.as_deref().unwrap_or(super::LOCK_DIR)
    }
}

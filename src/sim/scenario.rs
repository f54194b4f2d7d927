//! A scenario: recipe, client count, timings, seed and a timed fault script. Serialisable to
//! JSON and to a compact URL-safe string; parse errors are precise messages, never panics.

use serde::{Deserialize, Serialize};

use super::types::{ClientId, Tick};
use crate::recipes::RecipeKind;

pub use super::command::{Command, TimedCommand};

/// What a kazoo client passes as `Lock(path, identifier)`'s identifier, which becomes its lock
/// node's data.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KazooIdentifier {
    /// `Lock(path)`, kazoo's default: empty node data.
    #[default]
    None,
    /// `Lock(path, "C1")`: the client's label.
    Label,
}

/// What the protected resource stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResourceKind {
    Counter,
    IdGenerator,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Scenario {
    pub name: String,
    pub recipe: RecipeKind,
    pub clients: u32,
    pub seed: u64,
    /// The server's tickTime in ticks (sessions are clamped to 2–20 of these).
    pub tick_time: Tick,
    pub session_timeout: Tick,
    pub latency_min: Tick,
    pub latency_max: Tick,
    pub hold_min: Tick,
    pub hold_max: Tick,
    pub think_min: Tick,
    pub think_max: Tick,
    /// Clients start at a random tick in 0..=start_spread.
    pub start_spread: Tick,
    pub rounds: u32,
    pub fencing: bool,
    pub resource: ResourceKind,
    /// `rwlock`: which clients take the read lock (the others write).
    pub readers: Vec<ClientId>,
    /// ZooKeeper: these clients take no lock; they read the lock node when a `read` command
    /// asks (a dashboard, a health check).
    pub observers: Vec<ClientId>,
    /// Reentrant depth for `curator`.
    pub nesting: u32,
    pub max_leases: u32,
    pub acquire_timeout: Option<Tick>,
    /// Per-client acquire timeouts overriding `acquire_timeout` (client, ticks).
    pub timeouts: Vec<(ClientId, Tick)>,
    pub faults: Vec<TimedCommand>,
    /// Exhaustive-search model: no pings or timeouts; every pending event is a choice.
    pub timeless: bool,
    /// Whether `/locks` exists before the run (created by an operator).
    pub lock_dir_exists: bool,
    /// Whether holders read and write the protected resource (the exhaustive search turns it
    /// off: mutual exclusion is judged by node ownership, and fewer messages mean fewer states).
    pub resource_io: bool,
    /// Lease length in ticks (ms): Redis TTL, etcd lease TTL (whole seconds, at least 2),
    /// SQL expiry column.
    pub lease: Tick,
    /// Poll delay of the Redis and SQL recipes (each retry waits lease/2..=lease of this).
    pub poll: Tick,
    /// `redis_setnx`: waiters repair a lock key left without TTL (`TTL` = -1 → `EXPIRE`).
    pub ttl_repair: bool,
    /// Redis: an asynchronously replicated replica that receives writes this many ticks later.
    pub replica_lag: Option<Tick>,
    /// The lock's path for the ZooKeeper recipes that take one (Curator, kazoo, the
    /// sequential recipe); `None`: the recipe's default (`/locks`).
    pub lock_path: Option<String>,
    /// Curator's and kazoo's retry back-off base (`ExponentialBackoffRetry`'s
    /// `baseSleepTimeMs`): the n-th retry sleeps this times 1..2^(n+1).
    pub retry_sleep: Tick,
    /// kazoo's lock identifier (node data); default: none, as `Lock(path)`.
    pub kazoo_identifier: KazooIdentifier,
    /// ZooKeeper: an ensemble of this many servers (3 or 5 usually; `None`: standalone).
    pub ensemble: Option<u8>,
    /// Redlock: this many independent masters (3, 5 or 7; `None`: five).
    pub masters: Option<u8>,
    /// Redlock: each master's clock by index, as (ms ahead of the world's time, rate in parts
    /// per million); missing ones keep the world's time.
    pub clocks: Vec<(i64, i32)>,
    /// Redlock: the operator keeps a crashed master down until the longest TTL (`lease`) has
    /// passed, so a restart cannot forget a lock that is still valid.
    pub delayed_restart: bool,
    /// Redlock: the clients' ioredis `enableOfflineQueue` (its default, true: a command for a
    /// master that is not connected waits for it; false: the command fails at once).
    pub enable_offline_queue: bool,
    /// Redlock: node-redlock's `retryCount` (default 10: up to 11 attempts).
    pub retry_count: u32,
    /// The recipe's text, for `program` and `redis_program` (the recipe language).
    pub program: Option<String>,
}

impl Default for Scenario {
    fn default() -> Self {
        Scenario {
            name: "custom".into(),
            recipe: RecipeKind::Sequential,
            clients: 3,
            seed: 1,
            tick_time: 2,
            session_timeout: 12,
            latency_min: 1,
            latency_max: 2,
            hold_min: 3,
            hold_max: 6,
            think_min: 2,
            think_max: 6,
            start_spread: 2,
            rounds: 1,
            fencing: false,
            resource: ResourceKind::Counter,
            readers: Vec::new(),
            observers: Vec::new(),
            nesting: 1,
            max_leases: 1,
            acquire_timeout: None,
            timeouts: Vec::new(),
            faults: Vec::new(),
            timeless: false,
            lock_dir_exists: true,
            resource_io: true,
            lease: 2000,
            poll: 10,
            ttl_repair: true,
            replica_lag: None,
            lock_path: None,
            retry_sleep: 2,
            kazoo_identifier: KazooIdentifier::None,
            ensemble: None,
            masters: None,
            clocks: Vec::new(),
            delayed_restart: false,
            enable_offline_queue: true,
            retry_count: crate::recipes::REDLOCK_RETRY_COUNT,
            program: None,
        }
    }
}

/// Largest client count a scenario may ask for.
pub const MAX_CLIENTS: u32 = 1000;
/// The most timed commands (`faults`) a scenario may hold; a run holds as many forced actions.
pub const MAX_FAULTS: usize = 10_000;
/// The largest scenario or run JSON read (a `--scenario` file, an imported run): 4 MiB,
/// checked before parsing.
pub const MAX_SCENARIO_BYTES: usize = 4 << 20;
/// Largest time or duration a scenario or command may name (keeps tick arithmetic far from
/// overflow).
pub const MAX_TICKS: Tick = 1_000_000;

impl Scenario {
    /// What is wrong with the scenario's recipe text, if its recipe is one: missing, not
    /// compiling (line and column), or on another service than the recipe kind says.
    pub fn program_error(&self) -> Option<String> {
        if !self.recipe.is_program() {
            return None;
        }
        let Some(text) = &self.program else {
            return Some("the recipe `program` needs its text".into());
        };
        if !crate::FULL {
            return None; // the lean page hands it over unread
        }
        crate::recipes::program_check(text, self.recipe)
    }

    /// Whether only the full bundle runs it: a lock service other than ZooKeeper, a ZooKeeper
    /// ensemble, or observers (the lean first page carries none, and hands such runs over).
    /// Whether only the studio page runs it: a learner's recipe (the language lives there).
    pub fn needs_studio(&self) -> bool {
        self.recipe.is_program()
    }

    pub fn needs_full(&self) -> bool {
        !self.recipe.service().look().lean
            || self.ensemble.is_some()
            || !self.observers.is_empty()
            || self.recipe.is_program()
    }

    /// Checks ranges; the message names the field.
    pub fn validate(&self) -> Result<(), String> {
        let bad = |f: &str, why: &str| Err(format!("scenario field `{f}`: {why}"));
        if self.faults.len() > MAX_FAULTS {
            let n = self.faults.len();
            return bad(
                "faults",
                &format!("{n} timed commands, more than {MAX_FAULTS}"),
            );
        }
        let lists = [
            self.readers.len(),
            self.observers.len(),
            self.timeouts.len(),
        ];
        if lists.into_iter().max().unwrap_or(0) > MAX_CLIENTS as usize {
            return bad(
                "readers/observers/timeouts",
                &format!("more than {MAX_CLIENTS} entries"),
            );
        }
        if self.clients == 0 || self.clients > MAX_CLIENTS {
            return bad("clients", &format!("must be 1..={MAX_CLIENTS}"));
        }
        if self.tick_time == 0 || self.tick_time > 1000 {
            return bad("tick_time", "must be 1..=1000");
        }
        if self.session_timeout == 0 || self.session_timeout > 100_000 {
            return bad("session_timeout", "must be 1..=100000");
        }
        for (f, lo, hi) in [
            ("latency", self.latency_min, self.latency_max),
            ("hold", self.hold_min, self.hold_max),
            ("think", self.think_min, self.think_max),
        ] {
            if lo > hi || hi > 100_000 {
                return bad(&format!("{f}_min/{f}_max"), "min must be <= max <= 100000");
            }
        }
        if self.latency_min == 0 {
            return bad("latency_min", "must be at least 1 tick");
        }
        if self.rounds > 10_000
            || self.nesting == 0
            || self.nesting > 100
            || self.max_leases == 0
            || self.max_leases > 1000
        {
            return bad("rounds/nesting/max_leases", "out of range");
        }
        if self.lease == 0
            || self.lease > MAX_TICKS
            || self.poll == 0
            || self.poll > 100_000
            || self.replica_lag.is_some_and(|l| l > MAX_TICKS)
            || self.ensemble.is_some_and(|n| !(3..=7).contains(&n))
        {
            return bad(
                "lease/poll/replica_lag/ensemble",
                "lease 1..=1000000, poll 1..=100000, replica_lag at most 1000000, ensemble 3..=7 servers",
            );
        }
        if self.masters.is_some_and(|n| !(1..=7).contains(&n)) {
            return bad("masters", "Redlock runs on 1..=7 masters");
        }
        if self.retry_count > 1000 {
            return bad("retry_count", "at most 1000");
        }
        if let Some(why) = self.program_error() {
            return bad("program", &why);
        }
        if self.clocks.len() > 7 {
            return bad("clocks", "at most one clock per master (7)");
        }
        if self
            .clocks
            .iter()
            .any(|(o, r)| o.unsigned_abs() > MAX_TICKS || r.unsigned_abs() > 500_000)
        {
            return bad(
                "clocks",
                &format!("an offset beyond ±{MAX_TICKS} ms or a rate beyond ±500000 ppm"),
            );
        }
        if self.start_spread > MAX_TICKS
            || self.acquire_timeout.is_some_and(|t| t > MAX_TICKS)
            || self.timeouts.iter().any(|(_, t)| *t > MAX_TICKS)
        {
            return bad(
                "start_spread/acquire_timeout/timeouts",
                &format!("must be at most {MAX_TICKS} ticks"),
            );
        }
        if let Some(f) = self
            .faults
            .iter()
            .find(|f| f.at > MAX_TICKS || !f.command.ticks_ok())
        {
            return bad(
                "faults",
                &format!(
                    "a fault at tick {} has a time or duration beyond {MAX_TICKS} ticks",
                    f.at
                ),
            );
        }
        if self.retry_sleep == 0 || self.retry_sleep > 100_000 {
            return bad("retry_sleep", "must be 1..=100000");
        }
        if let Some(p) = &self.lock_path {
            let nested = p.len() > 1 && p.len() <= 200 && p.matches('/').count() <= 8;
            if !nested
                || crate::engine::path::validate(p).is_err()
                || crate::engine::path::is_special(p)
                || p.starts_with("/zookeeper/")
            {
                return bad("lock_path", "must be a valid ZooKeeper path below / (at most 8 levels, 200 characters), not /zookeeper");
            }
        }
        let n = self.clients as usize;
        if let Some(why) = self.faults.iter().find_map(|f| f.command.nodes_bad(n)) {
            return bad("faults", &why);
        }
        if let Some(f) = self
            .faults
            .iter()
            .find(|f| f.command.client().is_some_and(|c| c >= n))
        {
            return bad(
                "faults",
                &format!(
                    "client index {} but there are {n} clients",
                    f.command.client().unwrap_or(0)
                ),
            );
        }
        if self
            .readers
            .iter()
            .chain(&self.observers)
            .chain(self.timeouts.iter().map(|(c, _)| c))
            .any(|c| *c >= n)
        {
            return bad("readers/observers/timeouts", "client index out of range");
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_through_json_and_compact_form() {
        let mut s = Scenario::default();
        s.faults.push(TimedCommand {
            at: 9,
            command: Command::Pause {
                client: 1,
                ticks: 30,
            },
        });
        assert_eq!(Scenario::from_json(&s.to_json()).unwrap(), s);
        let c = s.to_compact();
        assert!(c
            .chars()
            .all(|ch| ch.is_ascii_alphanumeric() || ch == '-' || ch == '_'));
        assert_eq!(Scenario::from_compact(&c).unwrap(), s);
    }

    #[test]
    fn errors_are_precise() {
        assert!(Scenario::from_json(r#"{"clients": 0}"#)
            .unwrap_err()
            .contains("`clients`"));
        assert!(Scenario::from_json(r#"{"recipe": "zk"}"#)
            .unwrap_err()
            .contains("recipe"));
        assert!(Scenario::from_json(r#"{"bogus": 1}"#)
            .unwrap_err()
            .contains("bogus"));
        let bad_fault =
            r#"{"clients": 2, "faults": [{"at": 3, "command": {"crash": {"client": 5}}}]}"#;
        assert!(Scenario::from_json(bad_fault)
            .unwrap_err()
            .contains("client index 5"));
        assert!(Scenario::from_compact("%%%")
            .unwrap_err()
            .contains("base64"));
        assert!(Scenario::from_compact("").is_err());
        assert!(Scenario::from_json("{\"name\": \"锁锁\", \"seed\": \"x\"}")
            .unwrap_err()
            .contains("`seed`"));
        assert!(Scenario::from_json("\u{e9}{").is_err());
    }
}

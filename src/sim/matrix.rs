//! The requirements matrix, computed from runs rather than typed in: each recipe runs the same
//! probe scenarios (no fault, holder crash, long pause, partition, lost reply, failover, the
//! granting server's crash right after the grant, the holder's server cut off, a majority of
//! its servers' clocks jumping or restarting empty, a nested acquire, ten clients) and each
//! cell reports what its monitors and metrics saw.

use serde::{Deserialize, Serialize};

use super::narrate::Key;
use super::scenario::{Command, Scenario, TimedCommand};
use super::Simulation;
use crate::recipes::RecipeKind;

/// The recipes the matrix compares (the broken teaching recipes and "no lock" are left out).
pub const RECIPES: [RecipeKind; 12] = [
    RecipeKind::Naive,
    RecipeKind::Sequential,
    RecipeKind::Curator,
    RecipeKind::Kazoo,
    RecipeKind::RedisSetnx,
    RecipeKind::RedisLease,
    RecipeKind::EtcdMutex,
    RecipeKind::SqlInsert,
    RecipeKind::SqlLease,
    RecipeKind::SqlRowLock,
    RecipeKind::Redlock,
    RecipeKind::None,
];

/// The fault probes, each a column of the matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Probe {
    NoFault,
    Crash,
    Pause,
    Partition,
    LostReply,
    Failover,
    /// The server that granted the lock dies the tick after the grant: a ZooKeeper ensemble's
    /// leader (three servers), a Redis primary whose replica is promoted (asynchronous
    /// replication), etcd's or the database's failover.
    LeaderCrash,
    /// The server C1 holds the lock through is cut off from the others (and from the other
    /// clients; C1 stays with the majority): a ZooKeeper ensemble's follower, a Redis primary
    /// whose replica the other side promotes, or the one server of the rest.
    Minority,
    /// The clocks of a majority of the servers holding C1's lock jump forward by the lease
    /// the tick after the grant (an NTP step). Only servers with clocks of their own are
    /// modelled (Redlock's masters); elsewhere the cell says so.
    ClockJump,
    /// A majority of the servers holding C1's lock crash the tick after the grant and start
    /// again 5 ticks later (inside C1's hold) without persistence: Redis's default (no AOF), Redlock's masters.
    /// ZooKeeper, etcd and PostgreSQL log every acknowledged write before answering, so a
    /// restart without it is not theirs to suffer.
    RestartEmpty,
}

pub const PROBES: [Probe; 10] = [
    Probe::NoFault,
    Probe::Crash,
    Probe::Pause,
    Probe::Partition,
    Probe::LostReply,
    Probe::Failover,
    Probe::LeaderCrash,
    Probe::Minority,
    Probe::ClockJump,
    Probe::RestartEmpty,
];

/// What one probe run showed.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    /// Never two believers; everyone got the lock.
    Safe,
    /// Two clients believed they held the lock, but fencing rejected every stale write.
    Fenced,
    /// Two believers and an update was lost even with fencing on.
    Unsafe,
    /// Safe, but a client waits forever (the stuck monitor) or never gets the lock.
    Stuck,
    /// Not a fault this service can suffer: its servers log every acknowledged write before
    /// answering, so there is nothing for a restart to forget.
    NotApplicable,
    /// A fault the service could suffer but Lockstep does not model for it (a single Redis
    /// server's clock): the cell claims nothing.
    NotModelled,
}

/// How a recipe's waiters wait.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Waits {
    /// Retry timers: ask again after a delay.
    Polls,
    /// A watch, or a request the service answers once the lock is free.
    Blocks,
    /// Nobody ever waits: there is no lock.
    Never,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Row {
    pub recipe: RecipeKind,
    pub outcomes: Vec<(Probe, Outcome, u64)>,
    /// Ticks from the holder's crash until another client held the lock (None: never).
    pub crash_handover: Option<u64>,
    /// Whether a holder's nested acquire is granted (`None`: no lock to re-enter, nobody ever
    /// waits).
    pub reentrant: Option<bool>,
    /// How waiters wait, as the ten-client run shows it.
    pub waits: Waits,
    pub fencing_token: bool,
    /// Requests and messages per acquisition with ten clients and no faults, in tenths
    /// (integers keep float formatting out of the wasm bundle); heartbeats (pings,
    /// keep-alives and their answers) are not counted, so a herd's notifications show.
    pub requests_x10: u64,
    pub messages_x10: u64,
}

/// The tick after C1 first holds the lock in the probe's run without its fault (8 if it never
/// does).
fn first_hold(recipe: RecipeKind, p: Probe) -> u64 {
    let mut sim = Simulation::new(Scenario {
        faults: Vec::new(),
        ..probe_at(recipe, p, 0)
    });
    while sim.step() && sim.cursor() < 500 {
        if sim.world().clients[0].recipe.holding() {
            return sim.world().now + 1;
        }
    }
    8
}

/// The probe scenario: C1 holds first and the fault hits it the tick after it got the lock
/// (a lost reply hits its first request); every pause or cut lasts longer than any lease or
/// session in the defaults (3000 ticks vs 2000 and 12).
pub fn probe(recipe: RecipeKind, p: Probe) -> Scenario {
    probe_at(recipe, p, first_hold(recipe, p))
}

/// The holder's server (the first) cut off from the other servers and clients for 3000 ticks;
/// Redis's Sentinels on the other side promote the replica.
fn minority(redis: bool, t: u64) -> Vec<TimedCommand> {
    let at = |at, command| TimedCommand { at, command };
    let split = Command::Split {
        clients: vec![],
        servers: vec![0],
    };
    let mut v = vec![at(t, split), at(t + 3000, Command::HealSplit)];
    if redis {
        v.insert(1, at(t + 1, Command::Failover));
    }
    v
}

fn probe_at(recipe: RecipeKind, p: Probe, t: u64) -> Scenario {
    let at = |at, command| TimedCommand { at, command };
    let redis = matches!(recipe, RecipeKind::RedisSetnx | RecipeKind::RedisLease);
    let faults = match p {
        Probe::NoFault => Vec::new(),
        Probe::Crash => vec![at(t, Command::Crash { client: 0 })],
        Probe::Pause => vec![at(
            t,
            Command::Pause {
                client: 0,
                ticks: 3000,
            },
        )],
        Probe::Partition => vec![
            at(t, Command::Partition { client: 0 }),
            at(t + 3000, Command::Heal { client: 0 }),
        ],
        Probe::LostReply => vec![at(1, Command::DropReply { client: 0 })],
        Probe::Failover => vec![at(3, Command::Failover)],
        Probe::LeaderCrash => vec![at(t, Command::Failover)],
        Probe::Minority => minority(redis, t),
        Probe::ClockJump => majority(recipe)
            .map(|s| {
                let by = Scenario::default().lease as i64;
                at(t, Command::ClockJump { server: s, by })
            })
            .collect(),
        Probe::RestartEmpty => majority(recipe)
            .flat_map(|server| {
                let back = Command::RestartServer {
                    server,
                    keep_disk: false,
                };
                [at(t, Command::CrashServer { server }), at(t + 5, back)]
            })
            .collect(),
    };
    let zk = recipe.service() == crate::services::ServiceKind::ZooKeeper;
    let ensemble = (zk && matches!(p, Probe::LeaderCrash | Probe::Minority)).then_some(3);
    // node-redlock's waiters retry every 100-300 ms: C1 holds long enough for a waiter's retry
    // to land inside its hold, and waiters keep trying (`retryCount: -1` in practice) rather
    // than give up before a crashed holder's TTL runs out.
    let redlock = recipe == RecipeKind::Redlock;
    let hold = if redlock { 500 } else { 20 };
    Scenario {
        retry_count: if redlock { 1000 } else { 10 },
        ensemble,
        recipe,
        clients: 3,
        latency_min: 1,
        latency_max: 1,
        start_spread: 0,
        hold_min: hold,
        hold_max: hold,
        fencing: true,
        replica_lag: redis.then_some(5),
        faults,
        ..Scenario::default()
    }
}

/// The servers a majority probe strikes: the first ⌊N/2⌋+1 of Redlock's masters, the one
/// primary of Redis.
fn majority(recipe: RecipeKind) -> std::ops::Range<crate::services::ServerId> {
    match recipe {
        RecipeKind::Redlock => 0..(crate::services::REDLOCK_MASTERS / 2 + 1),
        _ => 0..1,
    }
}

/// Why a probe is not run for this recipe: its service cannot suffer the fault, or Lockstep
/// does not model it there; `None`: it is run.
pub fn unrun(recipe: RecipeKind, p: Probe) -> Option<Outcome> {
    let redis = matches!(recipe, RecipeKind::RedisSetnx | RecipeKind::RedisLease);
    match p {
        Probe::ClockJump if recipe != RecipeKind::Redlock => Some(Outcome::NotModelled),
        Probe::RestartEmpty if !redis && recipe != RecipeKind::Redlock => {
            Some(Outcome::NotApplicable)
        }
        _ => None,
    }
}

/// Whether the probe's fault is one this recipe's service suffers in Lockstep.
pub fn modelled(recipe: RecipeKind, p: Probe) -> bool {
    unrun(recipe, p).is_none()
}

const STEPS: u64 = 6000;

fn run(sc: Scenario) -> Simulation {
    let mut sim = Simulation::new(sc);
    sim.run_steps(STEPS);
    sim
}

fn outcome(sim: &Simulation) -> (Outcome, u64) {
    let m = &sim.world().monitors;
    let everyone = sim
        .world()
        .clients
        .iter()
        .filter(|c| c.alive())
        .all(|c| c.app.acquisitions > 0);
    match (m.belief, m.lost_update, m.stuck) {
        (Some(_), Some(s), _) => (Outcome::Unsafe, s),
        (Some(s), None, _) => (Outcome::Fenced, s),
        (None, _, Some(s)) => (Outcome::Stuck, s),
        (None, _, None) if !everyone => (Outcome::Stuck, sim.cursor()),
        _ => (Outcome::Safe, 0),
    }
}

fn crash_handover(sim: &Simulation) -> Option<u64> {
    let crash = sim
        .records()
        .iter()
        .find(|r| matches!(r.narration.key, Key::CmdCrash | Key::SvcCrash))?;
    let next = sim.records().iter().find(|r| {
        r.index > crash.index
            && r.narration.client != Some(0)
            && r.narration.phase == Some(crate::recipes::Phase::Holding)
    })?;
    Some(next.time - crash.time)
}

/// How the run's waiters waited: retry timers, watches or blocked requests, or not at all.
fn waits(sim: &Simulation) -> Waits {
    use crate::recipes::Phase;
    let recs = sim.records();
    if recs.iter().any(|r| r.narration.key == Key::TimerRetry) {
        Waits::Polls
    } else if recs.iter().any(|r| {
        matches!(
            r.narration.phase,
            Some(Phase::Watching(_) | Phase::Waiting(_))
        )
    }) {
        Waits::Blocks
    } else {
        Waits::Never
    }
}

pub fn row(recipe: RecipeKind) -> Row {
    let mut outcomes = Vec::new();
    let mut crash = None;
    for p in PROBES {
        if let Some(o) = unrun(recipe, p) {
            outcomes.push((p, o, 0));
            continue;
        }
        let sim = run(probe(recipe, p));
        let (o, step) = outcome(&sim);
        if p == Probe::Crash {
            crash = crash_handover(&sim);
        }
        outcomes.push((p, o, step));
    }
    let nested = run(Scenario {
        clients: 1,
        nesting: 2,
        ..probe(recipe, Probe::NoFault)
    });
    let ten = run(Scenario {
        clients: 10,
        ..probe(recipe, Probe::NoFault)
    });
    let w = ten.world();
    let acquisitions = w
        .clients
        .iter()
        .map(|c| c.app.acquisitions)
        .sum::<u64>()
        .max(1);
    let tokens: Vec<i64> = w.resource.writes.iter().map(|x| x.token).collect();
    let waits = waits(&ten);
    Row {
        recipe,
        outcomes,
        crash_handover: crash,
        reentrant: (waits != Waits::Never).then(|| nested.world().clients[0].app.nested_grants > 0),
        waits,
        fencing_token: tokens.len() > 1 && tokens.windows(2).all(|p| p[1] > p[0]),
        requests_x10: w.metrics.requests * 10 / acquisitions,
        messages_x10: (w.metrics.messages - w.metrics.heartbeats) * 10 / acquisitions,
    }
}

pub fn matrix() -> Vec<Row> {
    RECIPES.iter().map(|r| row(*r)).collect()
}

impl Outcome {
    pub fn name(&self) -> &'static str {
        match self {
            Outcome::Safe => "safe",
            Outcome::Fenced => "fenced",
            Outcome::Unsafe => "UNSAFE",
            Outcome::Stuck => "stuck",
            Outcome::NotApplicable => "n/a",
            Outcome::NotModelled => "not modelled",
        }
    }
}

impl Probe {
    pub fn name(self) -> &'static str {
        match self {
            Probe::NoFault => "no fault",
            Probe::Crash => "crash",
            Probe::Pause => "pause",
            Probe::Partition => "partition",
            Probe::LostReply => "lost reply",
            Probe::Failover => "failover",
            Probe::LeaderCrash => "leader crash",
            Probe::Minority => "minority cut",
            Probe::ClockJump => "clock jump",
            Probe::RestartEmpty => "restart empty",
        }
    }
}

pub use super::matrix_render::{render, tenths};

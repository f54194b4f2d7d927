//! Key frames: the moments a lesson is about, found by predicates over the step records and
//! the world after each step (never a hard-coded step index), each with a one-line caption in
//! English and Chinese and the name of the evidence the stage draws for it. A preset lists the
//! kinds its lesson is about; any other run gets [`DEFAULT`].

use super::narrate::Key;
use super::world::World;
use super::StepRecord;

/// What a key frame shows (its name in a lesson file: `snake_case`).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A fault strikes (crash, pause, cut, close, lost reply, cancel, failover).
    Fault,
    /// Every waiter has its watch set.
    Waiting,
    /// One change fires several watches at once.
    Herd,
    /// One change fires exactly one watch.
    Handoff,
    /// The service ends a session, a lease or a TTL on its own.
    Expiry,
    /// More clients believe they hold the lock than it allows.
    TwoHolders,
    /// An accepted write lost another's update (or an ID was issued twice).
    LostUpdate,
    /// The resource rejects a write with an old fencing token.
    Fenced,
    /// A waiter is stuck: nothing left can wake it.
    Stuck,
    /// A watch waits on a node that does not exist.
    MissingWatch,
    /// One client owns two lock nodes.
    Orphan,
    /// A client that lost its create reply finds its protected node again.
    Adopted,
    /// A holder acquires again and only counts.
    Reentrant,
    /// Several readers hold a read lock at once.
    SharedReaders,
    /// Several holders share a semaphore's leases.
    Leases,
    /// A lock entry without any expiry while its owner is gone.
    NoExpiry,
    /// A client waits for a row another transaction has locked.
    RowWaiters,
    /// Clients work on the resource with no lock at all.
    Unlocked,
    /// A waiter moves its watch to another node after its watch fired.
    Rewatch,
    /// The lock's key is on the primary but not yet on the replica.
    ReplicaBehind,
    /// A waiter gives a key left without expiry an expiry.
    Repaired,
    /// A row lock passes to a waiting transaction.
    RowHandover,
    /// A client library declares its session lost.
    SessionLost,
    /// A majority of an ensemble elected a new leader, which has every committed lock node.
    Elected,
    /// An ensemble server cut off from the majority has no leader and stops serving, while
    /// the majority goes on.
    Minority,
    /// A holder resumes its session on another server of the ensemble: it still holds the lock.
    Resumed,
    /// Redlock: one client holds the lock with a majority of the masters; another fell short
    /// and deletes its keys.
    Quorum,
    /// An observer's read was answered by a server that has not applied what the leader
    /// committed: it saw the lock free while it is held (or held after its release).
    StaleRead,
    /// An observer's read saw what the leader has (after `sync`, or once its server caught up).
    FreshRead,
    /// Every client has finished its rounds: what the lock bought, and what it cost.
    AllDone,
    /// A lesson's author stops here; the caption is the author's (never found in a run).
    Stop,
}

/// What any run without a preset's own list shows.
pub const DEFAULT: &[Kind] = &[
    Kind::Fault,
    Kind::Herd,
    Kind::Expiry,
    Kind::TwoHolders,
    Kind::LostUpdate,
    Kind::Fenced,
    Kind::Stuck,
];

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Moment {
    /// The frame after this step shows it.
    pub step: u64,
    pub kind: Kind,
    /// The client it is about, and others involved.
    pub client: Option<usize>,
    pub others: Vec<usize>,
    /// A number the caption needs (notifications, a token, an ID).
    pub n: i64,
    pub m: i64,
    /// A path or key, or the fault's own narration.
    pub text: [String; 2],
    /// For a fault: which one.
    pub fault: Option<Key>,
    /// For Redlock's votes: how many masters still have the holder's key, when that is no
    /// longer a majority (masters that crashed forgot it, or it ran out on them).
    pub fewer: Option<i64>,
    /// How many clients the run has (a caption says "5 of the 9 others").
    pub clients: usize,
}

impl Kind {
    /// The name of what the stage draws for it (`data-evidence`).
    pub fn evidence(self, fault: Option<Key>) -> &'static str {
        match self {
            Kind::Fault => match fault {
                Some(Key::CmdCrash | Key::SvcCrash) => "client-crashed",
                Some(Key::CmdPause) => "client-paused",
                Some(Key::CmdPartition) => "wire-cut",
                Some(Key::CmdClose) => "client-closed",
                Some(Key::CmdDropReply) => "reply-lost",
                Some(Key::CmdCancel) => "watches",
                Some(Key::CmdExpire) => "expired",
                Some(Key::FailoverRedis | Key::FailoverRedisRestart) => "failover",
                Some(Key::FailoverEtcd | Key::FailoverSql | Key::FailoverZk) => "failover",
                Some(Key::FailoverZab) => "server-down",
                Some(Key::CmdSplit) => "link-cut",
                Some(Key::ServerCrash) => "server-down",
                Some(Key::CmdPauseServer) => "server-paused",
                Some(Key::CmdPauseLinks) => "links-paused",
                Some(Key::ClockJumpForward | Key::ClockJumpBack) => "clock-jump",
                _ => "fault",
            },
            Kind::Waiting => "watches",
            Kind::Herd | Kind::Handoff => "firing",
            Kind::Expiry => "expired",
            Kind::TwoHolders => "two-holders",
            Kind::LostUpdate => "ledger-lost",
            Kind::Fenced => "ledger-rejected",
            Kind::Stuck => "stuck",
            Kind::MissingWatch => "watch-missing",
            Kind::Orphan => "orphan",
            Kind::Adopted => "adopted",
            Kind::Reentrant => "reentrant",
            Kind::SharedReaders => "read-write",
            Kind::Leases => "leases",
            Kind::NoExpiry => "ttl-none",
            Kind::RowWaiters => "row-waiters",
            Kind::Unlocked => "unlocked",
            Kind::Rewatch => "watches",
            Kind::ReplicaBehind => "replica",
            Kind::Elected => "leader",
            Kind::Minority => "electing",
            Kind::Resumed => "session-ring",
            Kind::Repaired => "ttl",
            Kind::RowHandover => "row-lock",
            Kind::SessionLost => "wire-cut",
            Kind::AllDone => "all-done",
            Kind::Stop => "stop",
            Kind::Quorum => "votes",
            Kind::StaleRead => "stale-read",
            Kind::FreshRead => "fresh-read",
        }
    }
}

impl Moment {
    /// The name of what the stage draws for it.
    pub fn evidence(&self) -> &'static str {
        self.kind.evidence(self.fault)
    }
}

/// The commands and service events a learner should see as faults.
pub(super) fn is_fault(key: Key) -> bool {
    matches!(
        key,
        Key::CmdCrash
            | Key::SvcCrash
            | Key::CmdPause
            | Key::CmdPartition
            | Key::CmdClose
            | Key::CmdDropReply
            | Key::CmdCancel
            | Key::CmdExpire
            | Key::FailoverRedis
            | Key::FailoverRedisRestart
            | Key::FailoverEtcd
            | Key::FailoverSql
            | Key::FailoverZk
            | Key::FailoverZab
            | Key::CmdSplit
            | Key::ServerCrash
            | Key::CmdPauseServer
            | Key::CmdPauseLinks
            | Key::ClockJumpForward
            | Key::ClockJumpBack
    )
}

/// Finds the moments of these kinds in a run, in step order (the first of each kind; every
/// fault).
#[derive(Clone, Debug)]
pub struct Finder {
    kinds: Vec<Kind>,
    found: Vec<Moment>,
    pub(super) clients: usize,
    pub(super) dropped: Option<usize>,
    /// The resource hands out IDs (a lost update is a duplicate ID).
    pub(super) ids: bool,
    /// What the detectors remember between steps (watched paths, keys without expiry, row
    /// lock holders).
    pub(super) memory: super::detect::Memory,
}

impl Finder {
    pub fn new(kinds: &[Kind], clients: usize, ids: bool) -> Finder {
        Finder {
            kinds: kinds.to_vec(),
            found: Vec::new(),
            clients,
            dropped: None,
            ids,
            memory: Default::default(),
        }
    }

    pub(super) fn wants(&self, k: Kind) -> bool {
        self.kinds.contains(&k) && (k == Kind::Fault || !self.found.iter().any(|m| m.kind == k))
    }

    pub(super) fn push(&mut self, mut m: Moment) {
        m.clients = self.clients;
        self.found.push(m);
    }

    /// Looks at the world after one step.
    pub fn observe(&mut self, w: &World, r: &StepRecord) {
        self.fault(r);
        self.notifications(w, r);
        self.holders(w, r);
        self.resource(w, r);
        self.watches(w, r);
        self.nodes(w, r);
        self.stuck(w, r);
        self.changes(w, r);
        self.all_done(w, r);
        if crate::FULL {
            self.votes(w, r);
        }
        self.reads(w, r);
    }

    /// The moments found, in step order; in one step the causes first (a fault, then a
    /// session or lease the service ended), so a caption says why before what followed.
    pub fn finish(mut self) -> Vec<Moment> {
        let cause = |k: Kind| match k {
            Kind::Fault => 0,
            Kind::Expiry | Kind::SessionLost | Kind::Minority => 1,
            _ => 2,
        };
        crate::sort::by_key(&mut self.found, |m| (m.step, cause(m.kind), m.kind));
        self.found
    }
}

pub(super) fn moment(step: u64, kind: Kind, client: Option<usize>) -> Moment {
    Moment {
        step,
        kind,
        client,
        others: Vec::new(),
        n: 0,
        m: 0,
        text: Default::default(),
        fault: None,
        fewer: None,
        clients: 0,
    }
}

pub(super) fn group(step: u64, kind: Kind, clients: &[usize]) -> Moment {
    let mut m = moment(step, kind, clients.first().copied());
    m.others = clients.iter().skip(1).copied().collect();
    m.n = clients.len() as i64;
    m
}

/// The last path component, its random prefix cut (`_c_193d…-lock-0000000003`), or the key.
pub(super) fn short(p: &str) -> String {
    crate::narrate::short_path(p)
}

/// The moments of a run: replays its history once.
pub fn find(sim: &super::Simulation, kinds: &[Kind]) -> Vec<Moment> {
    let ids = sim.scenario().resource == super::scenario::ResourceKind::IdGenerator;
    let mut f = Finder::new(kinds, sim.scenario().clients as usize, ids);
    sim.replay(|w, r| f.observe(w, r));
    f.finish()
}

//! The view model's clients: what each one is doing, derived from its real state so that no
//! label can lie — a crashed client never "holds the lock", a closed one never "watches", a
//! client that believes it holds while the service disagrees says so, and one with no lock at
//! all "works without a lock". Also its process (paused, crashed, closed), its link, and the
//! session or lease countdown as the service sees it.

use super::i18n::t;
use crate::narrate::{phase_text, tail_name};
use crate::recipes::{HoldMode, Phase, Recipe};
use crate::services::ConnState;
use crate::sim::app::AppState;
use crate::sim::client::{Client, Proc};
use crate::sim::types::{Node, Payload, Tick};
use crate::sim::{Lang, World};

/// What a client is doing, as its label says it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    Crashed,
    Closed,
    Done,
    /// Believes it holds, and the service agrees.
    Holds,
    /// Believes it holds; the service no longer says so.
    BelievesOnly,
    /// In its critical section with no lock at all.
    Unlocked,
    /// Its watch on this path is armed at the service.
    Watches(String),
    /// It has asked for a watch that the service has not armed (yet).
    SetsWatch(String),
    /// Its watch fired; the event is on its way to it.
    Notified(String),
    /// Blocked on a row lock another client's transaction holds.
    RowWait(usize),
    /// Redlock: an attempt's votes so far, of how many masters, and answers still to come
    /// (`unwinding`: deleting its keys after a failed attempt).
    Votes {
        votes: u8,
        masters: u8,
        waiting: u8,
        unwinding: bool,
    },
    /// An observer's last read: whether it saw the lock node, and whether the leader's copy
    /// now disagrees (a stale read).
    Saw {
        held: bool,
        stale: bool,
    },
    /// Any other phase of the recipe.
    Phase(Phase),
}

/// The process, as its mark on the card shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProcMark {
    Running,
    Paused { left: Tick },
    Crashed,
    Closed,
}

/// The service's countdown for the client's session or lease.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Countdown {
    /// Nothing to count (no session, no lease, not holding a key with a TTL).
    None,
    /// This much left (of `total`, 0 when unknown).
    Left { left: i64, total: Tick },
    /// The client had one and the service has ended it.
    Ended,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ClientRow {
    pub id: usize,
    pub name: String,
    pub status: Status,
    /// The status in words.
    pub label: String,
    /// A stable CSS modifier for the status.
    pub status_class: &'static str,
    /// Why a learner's recipe stopped with an error (its card says so instead of a status).
    pub error: Option<String>,
    pub believes: bool,
    /// The service itself says it holds.
    pub agrees: bool,
    /// A lower node in its lock directory that it should have waited for: (name, owner).
    pub behind: Option<(String, Option<usize>)>,
    pub hold_count: u32,
    /// Its lock counts re-entries (Curator's InterProcessMutex): the count is drawn on its node.
    pub counts: bool,
    /// READ or WRITE, for a read/write lock.
    pub mode: Option<&'static str>,
    pub proc: ProcMark,
    pub conn: ConnState,
    pub conn_label: String,
    pub partitioned: bool,
    /// The server it talks to is down (its wire is cut for that reason, not by the network).
    pub server_down: bool,
    /// The server it talks to.
    pub server: crate::services::ServerId,
    /// It keeps a connection to every server at once (Redlock): a wire to each.
    pub fans_out: bool,
    /// The next reply to it will be lost (an armed fault).
    pub drop_armed: bool,
    pub countdown: Countdown,
    pub session: String,
    /// Watches its library spent with a NONE event when the connection broke (kazoo).
    pub spent: Vec<String>,
    pub token: Option<i64>,
    /// Redlock: the lock's random value (shortened), shown instead of a token it does not have.
    pub value: Option<String>,
    pub node: Option<String>,
    /// Its node was found again by its protection prefix (its GUID) after a lost reply.
    pub found: bool,
    pub app: AppState,
    pub waits: Vec<Tick>,
    pub acquisitions: u64,
}

/// What every client's label looks up, gathered once per frame.
pub struct Around {
    watches: Vec<crate::services::Watch>,
    entries: Vec<crate::services::Entry>,
    /// Client → the client whose row lock it waits for.
    row_wait: crate::sorted::SortedMap<usize, usize>,
    /// Clients a watch event is on its way to.
    notified: crate::sorted::SortedSet<usize>,
    /// The leader's copy has the lock node (`None`: no leader).
    leader_lock: Option<bool>,
}

impl Around {
    pub fn new(w: &World) -> Around {
        let entries = w.service.entries(w.now);
        let row_wait = entries
            .iter()
            .filter_map(|e| e.row_lock())
            .flat_map(|(h, waiting)| waiting.into_iter().map(move |c| (c, h)))
            .collect();
        let notified = w
            .net
            .in_flight()
            .filter(|e| matches!(&e.payload, Payload::Down(d) if d.is_event()))
            .filter_map(|e| match e.to {
                Node::Client(c) => Some(c),
                _ => None,
            })
            .collect();
        Around {
            leader_lock: crate::sim::detect_reads::leader_has_lock(w),
            watches: w.service.watches(),
            entries,
            row_wait,
            notified,
        }
    }
}

fn status(a: &Around, c: &Client, agrees: bool) -> Status {
    let phase = c.recipe.phase();
    match (c.proc, phase) {
        (Proc::Crashed, _) => Status::Crashed,
        (Proc::Closed, _) => Status::Closed,
        (_, Phase::Holding) if matches!(c.recipe, Recipe::None(_)) => Status::Unlocked,
        (_, Phase::Holding) if agrees => Status::Holds,
        (_, Phase::Holding) => Status::BelievesOnly,
        (_, Phase::Read(seen)) => Status::Saw {
            held: seen.is_some(),
            stale: a.leader_lock.is_some_and(|t| t != seen.is_some()),
        },
        (_, Phase::Idle) if c.app.cfg.observes => Status::Phase(Phase::Idle),
        (_, Phase::Idle) if c.app.state == AppState::Done => Status::Done,
        (_, Phase::Watching(p)) => {
            if a.watches.iter().any(|x| x.conn == c.id && x.path == p) {
                Status::Watches(p)
            } else if a.notified.contains(&c.id) {
                Status::Notified(p)
            } else {
                Status::SetsWatch(p)
            }
        }
        (_, Phase::Requesting | Phase::Backoff) if c.recipe.tally().is_some() => {
            let t = c.recipe.tally().unwrap_or_default();
            Status::Votes {
                votes: t.votes,
                masters: t.masters,
                waiting: t.waiting,
                unwinding: t.unwinding,
            }
        }
        (_, p) => match a.row_wait.get(&c.id) {
            Some(h) => Status::RowWait(*h),
            None => Status::Phase(p),
        },
    }
}

/// A path's last component without its random prefix; a child of the root keeps its slash
/// (`/lock`), as its row on the stage names it.
pub(crate) fn tail(p: &str) -> String {
    match p.rfind('/') {
        Some(0) => p.to_string(),
        _ => tail_name(p.rsplit('/').next().unwrap_or(p)),
    }
}

impl Status {
    pub fn class(&self) -> &'static str {
        match self {
            Status::Crashed => "crashed",
            Status::Closed => "closed",
            Status::Done => "done",
            Status::Holds => "holds",
            Status::BelievesOnly => "believes",
            Status::Unlocked => "unlocked",
            Status::Watches(_) => "watches",
            Status::SetsWatch(_) => "sets-watch",
            Status::Notified(_) => "notified",
            Status::RowWait(_) => "waiting",
            Status::Votes { .. } => "votes",
            Status::Saw { stale: true, .. } => "stale",
            Status::Saw { .. } => "read",
            Status::Phase(Phase::Backoff) => "backoff",
            Status::Phase(Phase::Waiting(_)) => "waiting",
            Status::Phase(_) => "busy",
        }
    }

    pub fn text(&self, hold_count: u32, lang: Lang) -> String {
        self.words(hold_count, lang)
    }

    fn words(&self, hold_count: u32, lang: Lang) -> String {
        let k = |key| t(key, lang).to_string();
        match self {
            Status::Crashed => k("state.crashed"),
            Status::Closed => k("state.closed"),
            Status::Done => k("phase.done"),
            Status::Holds if hold_count > 1 => format!("{} ×{hold_count}", k("status.holds")),
            Status::Holds => k("status.holds"),
            Status::RowWait(h) => format!("{}C{}", k("status.row_wait"), h + 1),
            Status::BelievesOnly => k("status.believes"),
            Status::Unlocked => k("status.unlocked"),
            Status::Watches(p) => format!("{} {}", k("status.watches"), tail(p)),
            Status::SetsWatch(p) => format!("{} {}", k("status.sets_watch"), tail(p)),
            Status::Notified(p) => format!("{}{}", k("status.notified"), tail(p)),
            Status::Phase(p) => phase_text(p, lang),
            Status::Saw { held, stale } => super::forms::saw_text(*held, *stale, lang),
            Status::Votes {
                votes,
                masters,
                waiting,
                unwinding,
            } => {
                let text = match (unwinding, lang) {
                    (false, Lang::En) => format!("{votes}/{masters} votes, {waiting} to come"),
                    (false, Lang::Zh) => {
                        format!("已得 {votes}/{masters} 票，还差 {waiting} 个应答")
                    }
                    (true, Lang::En) => {
                        format!("{votes}/{masters} votes: too few; unlocking, {waiting} to come")
                    }
                    (true, Lang::Zh) => {
                        format!("{votes}/{masters} 票：不够；正在解锁，还差 {waiting} 个应答")
                    }
                };
                match waiting {
                    0 => phase_text(&Phase::Backoff, lang),
                    _ => text,
                }
            }
        }
    }
}

fn countdown(w: &World, c: &Client) -> Countdown {
    let claim = c.claim();
    match w.service.expires_in(w.now, &claim) {
        Some(left) => Countdown::Left {
            left,
            total: c.lib.session_timeout(),
        },
        None if claim.session.is_some() || claim.lease.is_some() => Countdown::Ended,
        None => Countdown::None,
    }
}

/// For an exclusive holder of a sequential node: a lower node in the same directory, which
/// means it is not the holder whatever it believes (the queue's head is).
fn lower_node(w: &World, a: &Around, c: &Client) -> Option<(String, Option<usize>)> {
    if c.recipe.hold_mode() != HoldMode::Exclusive || matches!(c.recipe, Recipe::Semaphore(_)) {
        return None;
    }
    let mine = c.recipe.my_node()?;
    let (dir, name) = mine.rsplit_once('/')?;
    let seq = |n: &str| n.len() >= 10 && n[n.len() - 10..].bytes().all(|b| b.is_ascii_digit());
    if !seq(name) {
        return None;
    }
    let my_seq = &name[name.len() - 10..];
    a.entries
        .iter()
        .filter(|e| {
            e.id()
                .rsplit_once('/')
                .is_some_and(|(d, n)| d == dir && seq(n) && &n[n.len() - 10..] < my_seq)
        })
        .map(|e| {
            (
                e.name(),
                e.owner().and_then(|o| super::entries::owner_client(w, &o)),
            )
        })
        .next()
}

pub fn client_row(w: &World, a: &Around, c: &Client, lang: Lang) -> ClientRow {
    let claim = c.claim();
    let behind = if c.recipe.holding() {
        lower_node(w, a, c)
    } else {
        None
    };
    let agrees = c.alive() && w.service.holds(w.now, &claim) && behind.is_none();
    let status = status(a, c, agrees);
    let proc = match c.proc {
        Proc::Running => ProcMark::Running,
        Proc::Paused { until } => ProcMark::Paused {
            left: until.saturating_sub(w.now),
        },
        Proc::Crashed => ProcMark::Crashed,
        Proc::Closed => ProcMark::Closed,
    };
    let conn = c.lib.conn_state();
    let conn_key = match conn {
        ConnState::Connected => "state.connected",
        ConnState::Connecting => "state.connecting",
        ConnState::Disconnected => "state.disconnected",
        ConnState::Expired => "state.expired",
        ConnState::Closed => "state.closed",
    };
    let session = claim
        .session
        .map(|s| format!("0x{s:x}"))
        .or_else(|| claim.lease.map(|l| format!("{l:x}")));
    let mode = match (&c.recipe, c.recipe.hold_mode()) {
        (Recipe::Rwlock(_), HoldMode::Shared) => Some("READ"),
        (Recipe::Rwlock(_), HoldMode::Exclusive) => Some("WRITE"),
        _ => None,
    };
    ClientRow {
        id: c.id,
        name: c.name(),
        label: match (&status, &c.recipe) {
            (Status::Holds, Recipe::Semaphore(_)) => t("status.lease", lang).to_string(),
            _ => status.text(c.recipe.hold_count(), lang),
        },
        status_class: status.class(),
        error: c.recipe.error().map(str::to_string),
        status,
        believes: c.alive() && c.recipe.holding(),
        agrees,
        behind,
        hold_count: c.recipe.hold_count(),
        counts: matches!(c.recipe, Recipe::Curator(_) | Recipe::Rwlock(_)),
        mode,
        proc,
        conn,
        conn_label: t(conn_key, lang).to_string(),
        partitioned: w.net.cuts(Node::Client(c.id), w.server_of(c.id)),
        server_down: matches!(w.server_of(c.id), Node::Server(s) if w.net.is_down(s)),
        // The server its library talks to now (a ZooKeeper client walks its connect string).
        server: match w.server_of(c.id) {
            Node::Server(s) => s,
            _ => 0,
        },
        fans_out: c.lib.fans_out(),
        drop_armed: w.net.drop_next_reply.contains(&c.id),
        // A crashed client's session still counts down at the server until it expires.
        countdown: if c.proc == Proc::Closed {
            Countdown::None
        } else {
            countdown(w, c)
        },
        session: session.unwrap_or_default(),
        spent: c.lib.spent_watches(),
        token: c.app.token.filter(|_| c.recipe.gives_token()),
        value: c
            .lib
            .fans_out()
            .then(|| {
                c.recipe
                    .belief()
                    .token
                    .map(|v| super::stage::fit_mid(&v, 12, true, 70.0))
            })
            .flatten(),
        node: c.recipe.my_node().map(str::to_string),
        found: c.recipe.found_by_prefix().is_some(),
        app: c.app.state,
        waits: c.app.waits.iter().copied().collect(),
        acquisitions: c.app.acquisitions,
    }
}

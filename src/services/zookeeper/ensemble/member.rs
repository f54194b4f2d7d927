//! One server of the ensemble: its role, its own copy of the data tree (the engine's server in
//! replicated mode), the proposals it has logged and not yet applied, and the history it has
//! applied (what a new leader sends a follower that lacks it).

use crate::sorted::{SortedMap, SortedSet};
use std::collections::VecDeque;

use super::zab::{Origin, Proposal, Vote};
use crate::engine::{Request, ServerConfig, SessionId, Zxid};
use crate::services::api::{ServerId, Tick};

/// How many applied transactions a server keeps for syncing followers (`commitLogCount`).
pub const COMMIT_LOG: usize = 500;

/// What a server is doing in the ensemble.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum State {
    /// Crashed or stopped.
    Down,
    /// Electing: `votes` are the latest notifications heard, `decide_at` the end of the
    /// finalize wait once a quorum agrees with this server's own vote.
    Looking {
        vote: Vote,
        votes: SortedMap<ServerId, Vote>,
        /// Servers not electing, and the leader each one follows.
        settled: SortedMap<ServerId, ServerId>,
        decide_at: Option<Tick>,
    },
    /// Following `leader`: `synced` once its NEWLEADER arrived (nothing else from the leader
    /// can come first on one TCP connection), `serving` once it said UPTODATE.
    Following {
        leader: ServerId,
        synced: bool,
        serving: bool,
    },
    Leading(Box<Lead>),
}

/// A follower as its leader knows it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Learner {
    pub heard: Tick,
    pub accepted_epoch: u32,
    pub last_zxid: Zxid,
    /// It has been sent NEWLEADER: proposals and commits go to it from now on.
    pub forwarding: bool,
    /// It acknowledged NEWLEADER.
    pub acked: bool,
    /// Its link lost a message (a blackholed TCP connection): nothing more goes to it, but
    /// the leader, which cannot tell, counts it synced until syncLimit ticks past the tick
    /// it was last heard in, as then.
    pub broken: Option<Tick>,
}

/// A leader's own state.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Lead {
    pub epoch: u32,
    pub counter: u32,
    /// A quorum acknowledged the new epoch: the leader serves.
    pub established: bool,
    pub since: Tick,
    pub learners: SortedMap<ServerId, Learner>,
    /// Proposals not yet committed, and who has acknowledged each.
    pub acks: SortedMap<Zxid, SortedSet<ServerId>>,
    /// The last proposal committed and how many servers had acknowledged it then (the
    /// stage's ACK counter after the commit).
    pub committed: Option<(Zxid, u8)>,
    /// The tree with every proposal applied: what a new write is validated against
    /// (`outstandingChanges`).
    pub prep: crate::engine::Server,
    /// `sync`s waiting for the proposal before them to commit.
    pub syncs: Vec<(Zxid, Origin)>,
    pub next_ping: Tick,
}

/// A leader's whole state as of a SNAP: a follower too far behind loads it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Snap {
    pub db: crate::engine::Server,
    pub applied: VecDeque<Proposal>,
    pub count: usize,
    pub window_base: Zxid,
}

impl Lead {
    /// The followers proposals and commits go to (those sent NEWLEADER).
    pub fn forwarding(&self) -> Vec<ServerId> {
        let on = self.learners.iter().filter(|(_, l)| l.forwarding);
        on.map(|(f, _)| *f).collect()
    }
}

/// A client request waiting behind its session's earlier write (`CommitProcessor`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Queued {
    pub conn: usize,
    pub xid: i32,
    /// The request and its opcode; `None`: a ping, which waits in the session's queue too
    /// (F22).
    pub request: Option<(Request, crate::engine::Opcode)>,
    /// A write or `sync` this server forwarded: the session's later requests wait for it.
    pub forwarded: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Member {
    pub id: ServerId,
    pub state: State,
    pub db: crate::engine::Server,
    /// Proposals logged and not yet applied, in zxid order.
    pub log: VecDeque<Proposal>,
    /// The last [`COMMIT_LOG`] transactions it applied (ZooKeeper's `commitLogCount`): what
    /// a leader sends a follower that lacks them; one further behind gets a snapshot.
    pub applied: VecDeque<Proposal>,
    /// How many transactions it has applied since the start.
    pub count: usize,
    /// The zxid of the last transaction that left the window (0: none has).
    pub window_base: Zxid,
    pub accepted_epoch: u32,
    pub current_epoch: u32,
    /// The vote its last election ended on (`getCurrentVote`): what it answers a looking
    /// server with while it follows or leads.
    pub end_vote: Option<super::zab::Vote>,
    /// Follower: the last time it heard its leader.
    pub heard: Tick,
    pub paused_until: Tick,
    pub next_session: u64,
    /// Sessions its clients touched since its last ping reply.
    pub touched: SortedSet<SessionId>,
    /// FOLLOWERINFO that arrived while it was still electing (it may become their leader).
    pub early: SortedMap<ServerId, (u32, Zxid)>,
    /// Each session's requests in order, while a forwarded one is outstanding.
    pub queues: SortedMap<SessionId, VecDeque<Queued>>,
}

impl Member {
    pub fn new(id: ServerId, tick: Tick) -> Member {
        Member {
            id,
            state: State::Down,
            db: Self::empty_db(tick),
            log: VecDeque::new(),
            applied: VecDeque::new(),
            count: 0,
            window_base: 0,
            accepted_epoch: 0,
            current_epoch: 0,
            end_vote: None,
            heard: 0,
            paused_until: 0,
            next_session: (u64::from(id) + 1) << 56,
            touched: SortedSet::new(),
            queues: SortedMap::new(),
            early: SortedMap::new(),
        }
    }

    pub fn empty_db(tick: Tick) -> crate::engine::Server {
        crate::engine::Server::new(ServerConfig {
            tick_time_ms: tick,
            container_check_ms: None,
        })
        .replicated()
    }

    /// The last zxid it has logged (applied or not): what it votes with.
    pub fn last_logged(&self) -> Zxid {
        self.log
            .back()
            .map(|p| p.zxid)
            .unwrap_or_else(|| self.db.last_zxid())
    }

    pub fn vote(&self) -> Vote {
        Vote {
            epoch: self.current_epoch,
            zxid: self.last_logged(),
            leader: self.id,
        }
    }

    pub fn is_up(&self) -> bool {
        self.state != State::Down
    }

    pub fn lead(&self) -> Option<&Lead> {
        match &self.state {
            State::Leading(l) => Some(l),
            _ => None,
        }
    }

    pub fn lead_mut(&mut self) -> Option<&mut Lead> {
        match &mut self.state {
            State::Leading(l) => Some(l),
            _ => None,
        }
    }

    /// The leader this server follows or is.
    pub fn leader(&self) -> Option<ServerId> {
        match &self.state {
            State::Following { leader, .. } => Some(*leader),
            State::Leading(_) => Some(self.id),
            _ => None,
        }
    }

    /// A follower that has its leader's NEWLEADER (proposals and commits may follow it).
    pub fn synced_with(&self, l: ServerId) -> bool {
        matches!(self.state, State::Following { leader, synced: true, .. } if leader == l)
    }

    /// Whether it answers clients now: a leader with an established epoch, a follower the
    /// leader said is up to date.
    pub fn serving(&self) -> bool {
        match &self.state {
            State::Following { serving, .. } => *serving,
            State::Leading(l) => l.established,
            _ => false,
        }
    }

    pub fn paused(&self, now: Tick) -> bool {
        now < self.paused_until
    }

    /// A new session id: the server's myid in the top byte, as `SessionTrackerImpl` makes it.
    pub fn new_session_id(&mut self) -> SessionId {
        let id = SessionId(self.next_session);
        self.next_session += 1;
        id
    }

    /// Keeps an applied transaction in the window.
    pub fn remember(&mut self, p: Proposal) {
        self.applied.push_back(p);
        self.count += 1;
        if self.applied.len() > COMMIT_LOG {
            if let Some(old) = self.applied.pop_front() {
                self.window_base = old.zxid;
            }
        }
    }

    /// Logs a proposal (a follower acknowledges it next).
    pub fn log_proposal(&mut self, p: Proposal) {
        if p.zxid > self.last_logged() {
            self.log.push_back(p);
        }
    }
}

//! A ZooKeeper 3.8 ensemble of three or five servers (reference §13): Zab's write path (a
//! follower forwards, the leader proposes, a quorum acknowledges, every server commits and
//! applies to its own tree and fires its own clients' watches), reads from the connected
//! server, sessions tracked by the leader, fast leader election and the new leader's sync.
//! Each server's tree, checks and watches are the engine's, in replicated mode.

mod apply;
mod clients;
mod cow;
mod election;
#[cfg(test)]
mod election_tests;
mod faults;
mod leader;
mod look;
pub mod member;
mod service;
mod timers;
pub mod zab;

use crate::sorted::SortedMap;

use member::{Member, State};
use zab::{Origin, Zab};

use crate::engine::replica::LogTxn;
use crate::engine::{CreateMode, Request, SessionId, Zxid};
use crate::services::api::{ConnId, Outbox, ServerId, Tick};
use crate::services::zookeeper::Down;

type Out = Outbox<Down, Zab>;

/// How long a follower waits for its leader, and a leader for a quorum: syncLimit ticks.
pub const SYNC_LIMIT: Tick = 5;
/// How long a new leader waits for a quorum to sync: initLimit ticks.
pub const INIT_LIMIT: Tick = 10;

/// A connection's server and session now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Attach {
    pub server: ServerId,
    pub session: Option<SessionId>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ensemble {
    pub tick: Tick,
    /// Shared until written ([`Ensemble::m`] copies a member on its first write): a world's
    /// clone, which the exhaustive search makes for every choice, copies only pointers.
    pub members: Vec<cow::Shared<Member>>,
    pub conns: SortedMap<ConnId, Attach>,
    pub owners: SortedMap<SessionId, ConnId>,
    /// The monitor's records: the leader of each established epoch, the committed sequence
    /// as far as any server applied it (zxid and the transaction), and the first broken
    /// promise.
    pub epochs: SortedMap<u32, ServerId>,
    pub committed: std::collections::VecDeque<(Zxid, u64)>,
    /// How many committed transactions were forgotten before `committed[0]`.
    pub committed_base: usize,
    /// Snapshots on their way to followers too far behind for a DIFF (the SNAP packet).
    pub snaps: SortedMap<ServerId, Box<member::Snap>>,
    pub violation: Option<String>,
}

impl Ensemble {
    /// `n` servers that an operator started before the run: the last one leads epoch 1 (with
    /// equal logs the highest server id wins the election), and the lock directory, if any,
    /// was created by an admin session.
    pub fn new(n: usize, tick: Tick, lock_dir: Option<&str>) -> Ensemble {
        let n = n.clamp(1, crate::services::MAX_SERVERS);
        let mut e = Ensemble {
            tick: tick.max(1),
            members: (0..n as ServerId)
                .map(|i| cow::Shared::new(Member::new(i, tick)))
                .collect(),
            conns: SortedMap::new(),
            owners: SortedMap::new(),
            epochs: SortedMap::new(),
            committed: Default::default(),
            committed_base: 0,
            snaps: SortedMap::new(),
            violation: None,
        };
        let leader = (n - 1) as ServerId;
        e.start_leading(0, leader, 1);
        for m in e.members.iter_mut().map(cow::Shared::make_mut) {
            m.current_epoch = 1;
            m.accepted_epoch = 1;
            if m.id != leader {
                m.state = State::Following {
                    leader,
                    synced: true,
                    serving: true,
                };
            }
        }
        e.establish_all(leader);
        if let Some(dir) = lock_dir {
            e.precreate(dir);
        }
        e
    }

    /// The ensemble a run's configuration asks for, if it asks for more than one server.
    pub fn from_config(cfg: &crate::services::ServiceConfig) -> Option<Box<Ensemble>> {
        let n = usize::from(cfg.ensemble.filter(|n| *n > 1)?);
        let dir = cfg.lock_dir.as_deref();
        Some(Box::new(Ensemble::new(n, cfg.tick_time, dir)))
    }

    pub fn n(&self) -> usize {
        self.members.len()
    }

    pub fn quorum(&self) -> usize {
        self.n() / 2 + 1
    }

    /// The established leader, if any server is one.
    pub fn leader(&self) -> Option<ServerId> {
        self.members
            .iter()
            .find(|m| m.lead().is_some_and(|l| l.established))
            .map(|m| m.id)
    }

    fn m(&mut self, s: ServerId) -> &mut Member {
        self.members[usize::from(s)].make_mut()
    }

    /// Commits the operator's admin session at setup: every server applies the same
    /// transactions, as if proposed and acknowledged before the run.
    fn precreate(&mut self, dir: &str) {
        let Some(leader) = self.leader() else { return };
        let admin = self.m(leader).new_session_id();
        let open = LogTxn::CreateSession {
            session: admin,
            timeout_ms: 2 * self.tick,
        };
        self.commit_everywhere(leader, open);
        let ends = dir.match_indices('/').map(|(i, _)| i).skip(1);
        for end in ends.chain([dir.len()]) {
            let request = Request::Create {
                path: dir[..end].into(),
                data: Some(Vec::new()),
                mode: CreateMode::Persistent,
            };
            let Some(lead) = self.m(leader).lead() else {
                return;
            };
            let txn = lead.prep.validate(admin, &request);
            self.commit_everywhere(
                leader,
                LogTxn::Write {
                    session: admin,
                    txn,
                },
            );
        }
        let close = LogTxn::CloseSession {
            session: admin,
            expired: false,
        };
        self.commit_everywhere(leader, close);
    }

    /// A transaction every server applies at once (the operator's setup).
    fn commit_everywhere(&mut self, leader: ServerId, txn: LogTxn) {
        let Some(lead) = self.m(leader).lead_mut() else {
            return;
        };
        lead.counter += 1;
        let zxid = zxid_of(lead.epoch, lead.counter);
        lead.prep.apply_logged(0, zxid, &txn);
        let p = zab::Proposal {
            zxid,
            txn,
            origin: None,
        };
        let mut sink = Out::default();
        for s in 0..self.n() as ServerId {
            self.m(s).log.push_back(p.clone());
            self.apply_through(s, 0, zxid, &mut sink);
        }
    }

    /// Connection `conn` now talks to server `s` (with `session`, once it has one); the server
    /// it left drops the watches it kept for it.
    fn attach(&mut self, conn: ConnId, s: ServerId, session: Option<SessionId>) {
        let old = self.conns.insert(conn, Attach { server: s, session });
        if let Some(Attach {
            server,
            session: Some(old_session),
        }) = old
        {
            if server != s {
                self.m(server).db.handle(
                    0,
                    crate::engine::Input::Disconnect {
                        session: old_session,
                    },
                );
            }
        }
        if let Some(session) = session {
            self.owners.insert(session, conn);
        }
    }

    /// The connection attached to server `s` that owns `session`.
    fn conn_at(&self, s: ServerId, session: SessionId) -> Option<ConnId> {
        let c = *self.owners.get(&session)?;
        (self.conns.get(&c)?.server == s).then_some(c)
    }

    /// Server `s` stops serving: it closes every client connection it has.
    fn drop_clients(&mut self, s: ServerId, out: &mut Out) {
        let gone: Vec<ConnId> = self
            .conns
            .iter()
            .filter(|(_, a)| a.server == s)
            .map(|(c, _)| *c)
            .collect();
        for c in gone {
            if let Some(Attach {
                session: Some(session),
                ..
            }) = self.conns.remove(&c)
            {
                let disconnect = crate::engine::Input::Disconnect { session };
                self.m(s).db.handle(0, disconnect);
            }
            out.send_from(s, c, Down::ConnectionLost);
        }
        self.m(s).queues.clear();
    }

    fn peer(out: &mut Out, from: ServerId, to: ServerId, msg: Zab) {
        out.peer(from, to, msg);
    }

    /// Hands a client's ask to the leader (or submits it, on the leader).
    fn ask(&mut self, now: Tick, s: ServerId, origin: Origin, ask: zab::Ask, out: &mut Out) {
        match self.members[usize::from(s)].leader() {
            Some(l) if l == s => self.submit(now, s, origin, ask, out),
            Some(l) => Self::peer(out, s, l, Zab::Forward { origin, ask }),
            None => {}
        }
    }
}

/// A zxid: the epoch in the high 32 bits, the counter in the low 32.
pub fn zxid_of(epoch: u32, counter: u32) -> Zxid {
    (i64::from(epoch) << 32) | i64::from(counter)
}

/// The epoch a zxid belongs to.
pub fn epoch_of(z: Zxid) -> u32 {
    (z >> 32) as u32
}

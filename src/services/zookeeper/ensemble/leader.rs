//! The leader's side of Zab: a new leader's epoch and the sync of each follower, then the
//! broadcast of every write (proposal, acknowledgements, commit once a quorum has logged it and
//! every earlier proposal is committed) and `sync`.

use crate::sorted::{SortedMap, SortedSet};

use super::member::{Lead, Learner, Snap, State};
use super::zab::{Ask, Origin, Proposal, Zab};
use super::{zxid_of, Ensemble, Out};
use crate::engine::replica::LogTxn;
use crate::engine::{ErrorCode, Request, Txn, Zxid};
use crate::narrate::{Key, Narration};
use crate::services::api::{ServerId, Tick};

impl Ensemble {
    /// Server `s` won an election (or leads from the start): it waits for followers.
    pub(super) fn start_leading(&mut self, now: Tick, s: ServerId, epoch: u32) {
        let m = self.m(s);
        let prep = m.db.clone();
        m.state = State::Leading(Box::new(Lead {
            epoch,
            counter: 0,
            established: false,
            since: now,
            learners: SortedMap::new(),
            acks: SortedMap::new(),
            committed: None,
            prep,
            syncs: Vec::new(),
            next_ping: now,
        }));
    }

    /// The run's first leader: every other server is already its synced follower.
    pub(super) fn establish_all(&mut self, s: ServerId) {
        let ids: Vec<ServerId> = (0..self.n() as ServerId).filter(|i| *i != s).collect();
        if let Some(lead) = self.m(s).lead_mut() {
            for f in ids {
                let l = Learner {
                    accepted_epoch: lead.epoch,
                    forwarding: true,
                    acked: true,
                    ..Learner::default()
                };
                lead.learners.insert(f, l);
            }
            lead.established = true;
        }
        self.epochs.insert(1, s);
    }

    /// A follower reported its log: once a quorum has, the leader picks the new epoch and
    /// syncs them; a later follower is synced at once.
    pub(super) fn follower_info(
        &mut self,
        now: Tick,
        s: ServerId,
        f: ServerId,
        accepted_epoch: u32,
        last_zxid: Zxid,
        out: &mut Out,
    ) {
        let quorum = self.quorum();
        let mine = self.members[usize::from(s)].accepted_epoch;
        let Some(lead) = self.m(s).lead_mut() else {
            return;
        };
        lead.learners.insert(
            f,
            Learner {
                heard: now,
                accepted_epoch,
                last_zxid,
                ..Learner::default()
            },
        );
        if lead.epoch == 0 && lead.learners.len() + 1 >= quorum {
            let top = lead.learners.values().map(|l| l.accepted_epoch).max();
            lead.epoch = top.unwrap_or(0).max(mine) + 1;
            let epoch = lead.epoch;
            self.m(s).accepted_epoch = epoch;
            let all: Vec<ServerId> = self.learner_ids(s);
            for f in all {
                self.sync_learner(s, f, out);
            }
        } else if lead.epoch != 0 {
            self.sync_learner(s, f, out);
        }
    }

    fn learner_ids(&self, s: ServerId) -> Vec<ServerId> {
        self.members[usize::from(s)]
            .lead()
            .map(|l| l.learners.keys().copied().collect())
            .unwrap_or_default()
    }

    /// NEWLEADER to follower `f`: what it lacks of the leader's history (DIFF, after a TRUNC of
    /// anything the leader never had).
    fn sync_learner(&mut self, s: ServerId, f: ServerId, out: &mut Out) {
        let m = &self.members[usize::from(s)];
        let Some(lead) = m.lead() else { return };
        let Some(l) = lead.learners.get(&f) else {
            return;
        };
        let snap = l.last_zxid < m.window_base;
        let (trunc, diff) = if snap {
            (0, m.log.iter().cloned().collect())
        } else {
            let history = m.applied.iter().chain(m.log.iter());
            let trunc = history
                .clone()
                .map(|p| p.zxid)
                .take_while(|z| *z <= l.last_zxid)
                .last()
                .unwrap_or(m.window_base);
            let diff = history.filter(|p| p.zxid > trunc).cloned().collect();
            (trunc, diff)
        };
        let msg = Zab::NewLeader {
            epoch: lead.epoch,
            trunc,
            diff,
            committed: m.db.last_zxid(),
            snap,
        };
        if snap {
            let copy = Snap {
                db: m.db.clone(),
                applied: m.applied.clone(),
                count: m.count,
                window_base: m.window_base,
            };
            self.snaps.insert(f, Box::new(copy));
        }
        if let Some(l) = self.m(s).lead_mut().and_then(|x| x.learners.get_mut(&f)) {
            l.forwarding = true;
        }
        Self::peer(out, s, f, msg);
    }

    /// A follower acknowledged NEWLEADER: with a quorum the new epoch is established.
    pub(super) fn ack_new_leader(
        &mut self,
        now: Tick,
        s: ServerId,
        f: ServerId,
        out: &mut Out,
    ) -> Option<Narration> {
        let quorum = self.quorum();
        let lead = self.m(s).lead_mut()?;
        let l = lead.learners.get_mut(&f)?;
        l.acked = true;
        l.heard = now;
        if lead.established {
            let commit = self.members[usize::from(s)].db.last_zxid();
            Self::peer(out, s, f, Zab::UpToDate { commit });
            return None;
        }
        let acked = lead.learners.values().filter(|l| l.acked).count();
        (acked + 1 >= quorum).then(|| self.establish(now, s, out))
    }

    /// The new epoch starts: the leader commits its whole log, tracks every session afresh and
    /// tells its synced followers they are up to date.
    fn establish(&mut self, now: Tick, s: ServerId, out: &mut Out) -> Narration {
        self.apply_through(s, now, Zxid::MAX, out);
        let m = self.m(s);
        m.db.restart_deadlines(now);
        let prep = m.db.clone();
        let commit = m.db.last_zxid();
        let Some(lead) = m.lead_mut() else {
            return Narration::new(Key::ZabEstablished, None);
        };
        lead.established = true;
        lead.prep = prep;
        lead.since = now;
        let epoch = lead.epoch;
        let acked: Vec<ServerId> = lead
            .learners
            .iter()
            .filter(|(_, l)| l.acked)
            .map(|(f, _)| *f)
            .collect();
        self.m(s).current_epoch = epoch;
        if let Some(prev) = self.epochs.insert(epoch, s).filter(|p| *p != s) {
            self.violate(format!(
                "two leaders in epoch {epoch}: zk-{} and zk-{}",
                prev + 1,
                s + 1
            ));
        }
        if self.members[usize::from(s)].count < self.committed_base + self.committed.len() {
            self.violate(format!(
                "zk-{} leads epoch {epoch} without every committed transaction",
                s + 1
            ));
        }
        for f in acked {
            Self::peer(out, s, f, Zab::UpToDate { commit });
        }
        Narration::new(Key::ZabEstablished, None)
            .a(self.name(s))
            .n(i64::from(epoch))
    }

    /// The leader turns a client's ask into a proposal (or answers a `sync`).
    pub(super) fn submit(
        &mut self,
        now: Tick,
        s: ServerId,
        origin: Origin,
        ask: Ask,
        out: &mut Out,
    ) {
        let Some(lead) = self.m(s).lead_mut().filter(|l| l.established) else {
            return;
        };
        let txn = match ask {
            Ask::Request {
                request: Request::Sync { .. },
                ..
            } => {
                match lead.acks.keys().last().copied() {
                    Some(z) => lead.syncs.push((z, origin)),
                    None => self.synced(now, s, origin, out),
                }
                return;
            }
            Ask::Request { session, request } => {
                let txn = if lead.prep.sessions().is_live(session) {
                    lead.prep.validate(session, &request)
                } else {
                    Txn::Error(ErrorCode::SessionExpired)
                };
                LogTxn::Write { session, txn }
            }
            Ask::Open {
                session,
                timeout_ms,
            } => LogTxn::CreateSession {
                session,
                timeout_ms,
            },
            Ask::Close { session } => {
                lead.prep.mark_closing(session);
                LogTxn::CloseSession {
                    session,
                    expired: false,
                }
            }
        };
        self.propose(now, s, txn, Some(origin), out);
    }

    /// PROPOSAL to every follower being forwarded to; the leader logs it and counts its own ACK.
    pub(super) fn propose(
        &mut self,
        now: Tick,
        s: ServerId,
        txn: LogTxn,
        origin: Option<Origin>,
        out: &mut Out,
    ) -> Zxid {
        let Some(lead) = self.m(s).lead_mut() else {
            return 0;
        };
        lead.counter += 1;
        let zxid = zxid_of(lead.epoch, lead.counter);
        lead.prep.apply_logged(now, zxid, &txn);
        lead.acks.insert(zxid, SortedSet::from([s]));
        let to = lead.forwarding();
        let p = Proposal { zxid, txn, origin };
        for f in to {
            Self::peer(out, s, f, Zab::Proposal(p.clone()));
        }
        self.m(s).log.push_back(p);
        self.try_commit(now, s, out);
        zxid
    }

    /// A follower's ACK.
    pub(super) fn ack(
        &mut self,
        now: Tick,
        s: ServerId,
        f: ServerId,
        zxid: Zxid,
        out: &mut Out,
    ) -> bool {
        let Some(lead) = self.m(s).lead_mut() else {
            return false;
        };
        let Some(l) = lead.learners.get_mut(&f) else {
            return false;
        };
        l.heard = now;
        match lead.acks.get_mut(&zxid) {
            Some(acks) => acks.insert(f),
            None => return false,
        };
        self.try_commit(now, s, out)
    }

    /// Commits, in zxid order, every proposal a quorum has acknowledged; true if one was.
    fn try_commit(&mut self, now: Tick, s: ServerId, out: &mut Out) -> bool {
        let quorum = self.quorum();
        let mut any = false;
        loop {
            let Some(lead) = self.m(s).lead_mut() else {
                return any;
            };
            let Some((&zxid, acks)) = lead.acks.iter().next() else {
                return any;
            };
            if acks.len() < quorum {
                return any;
            }
            lead.committed = Some((zxid, acks.len() as u8));
            lead.acks.remove(&zxid);
            let to = lead.forwarding();
            let (ready, waiting) = lead.syncs.drain(..).partition(|(z, _)| *z <= zxid);
            lead.syncs = waiting;
            for f in to {
                Self::peer(out, s, f, Zab::Commit { zxid });
            }
            self.apply_through(s, now, zxid, out);
            for (_, origin) in ready {
                self.synced(now, s, origin, out);
            }
            any = true;
        }
    }

    /// Everything proposed before a `sync` is committed: its server answers it.
    fn synced(&mut self, now: Tick, s: ServerId, origin: Origin, out: &mut Out) {
        if origin.server == s {
            self.answer_forwarded(now, s, origin, out);
        } else {
            Self::peer(out, s, origin.server, Zab::Synced { origin });
        }
    }
}

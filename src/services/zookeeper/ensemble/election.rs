//! Fast leader election (votes by epoch, then last logged zxid, then server id; a quorum that
//! agrees, then `finalizeWait`), and a follower's side of the sync that follows: FOLLOWERINFO,
//! NEWLEADER with a TRUNC/DIFF or SNAP, UPTODATE.

use crate::sorted::SortedMap;

use super::member::State;
use super::zab::{Proposal, Vote, Zab};
use super::{Ensemble, Out};
use crate::engine::Zxid;
use crate::narrate::{Detail, Key, Narration};
use crate::services::api::{ServerId, Tick};

impl Ensemble {
    /// `finalizeWait`: 200 ms, a tenth of the default tickTime (at least one tick here).
    pub fn finalize_wait(&self) -> Tick {
        (self.tick / 10).max(1)
    }

    /// Server `s` stops serving and elects: it closes its clients and sends its vote to all.
    pub(super) fn enter_looking(&mut self, now: Tick, s: ServerId, out: &mut Out) {
        self.drop_clients(s, out);
        let vote = self.members[usize::from(s)].vote();
        self.m(s).state = State::Looking {
            vote,
            votes: SortedMap::from([(s, vote)]),
            settled: SortedMap::new(),
            decide_at: None,
        };
        self.m(s).heard = now;
        self.broadcast_vote(s, vote, true, out);
    }

    fn broadcast_vote(&self, s: ServerId, vote: Vote, looking: bool, out: &mut Out) {
        for to in (0..self.n() as ServerId).filter(|t| *t != s) {
            Self::peer(out, s, to, Zab::Vote { vote, looking });
        }
    }

    /// A notification from `from` reaches `s`.
    pub(super) fn on_vote(
        &mut self,
        now: Tick,
        s: ServerId,
        from: ServerId,
        theirs: Vote,
        looking: bool,
        out: &mut Out,
    ) -> Narration {
        let quorum = self.quorum();
        let wait = self.finalize_wait();
        let me = &self.members[usize::from(s)];
        let State::Looking { vote, .. } = &me.state else {
            if looking {
                let current = me.end_vote.unwrap_or(Vote {
                    epoch: me.current_epoch,
                    zxid: me.last_logged(),
                    leader: me.leader().unwrap_or(s),
                });
                Self::peer(
                    out,
                    s,
                    from,
                    Zab::Vote {
                        vote: current,
                        looking: false,
                    },
                );
            }
            return self.vote_narration(s);
        };
        let mut mine = *vote;
        let mut changed = false;
        if looking && theirs > mine {
            mine = theirs;
            changed = true;
        } else if looking && theirs < mine {
            Self::peer(
                out,
                s,
                from,
                Zab::Vote {
                    vote: mine,
                    looking: true,
                },
            );
        }
        let follow = {
            let State::Looking {
                vote,
                votes,
                settled,
                decide_at,
            } = &mut self.m(s).state
            else {
                return self.vote_narration(s);
            };
            *vote = mine;
            votes.insert(s, mine);
            if looking {
                votes.insert(from, theirs);
                settled.remove(&from);
            } else if theirs == mine {
                // A server that already left this election on the same vote still counts
                // toward it (`receivedFollowingNotification`, same election epoch).
                settled.insert(from, theirs.leader);
                votes.insert(from, theirs);
            } else {
                settled.insert(from, theirs.leader);
                votes.remove(&from);
            }
            if changed {
                *decide_at = None;
            }
            let agree = votes.values().filter(|v| **v == mine).count();
            if agree >= quorum {
                decide_at.get_or_insert(now + wait);
            }
            // With a quorum on its own vote it leaves at once, without the finalize wait, if
            // the vote is its own or its leader said it leads (`checkLeader`).
            let leads = |l: ServerId| l == s || settled.get(&l) == Some(&l);
            let backed = |l: ServerId| settled.values().filter(|x| **x == l).count();
            if !looking && theirs == mine && agree >= quorum && leads(mine.leader) {
                Some(mine.leader)
            } else {
                settled
                    .iter()
                    .find(|(k, l)| *k == *l && backed(**l) >= quorum)
                    .map(|(l, _)| *l)
            }
        };
        if changed {
            self.broadcast_vote(s, mine, true, out);
        }
        if let Some(l) = follow {
            let end = if theirs.leader == l {
                theirs
            } else {
                Vote { leader: l, ..mine }
            };
            return self.conclude(now, s, end, out);
        }
        self.vote_narration(s)
    }

    fn vote_narration(&self, s: ServerId) -> Narration {
        let m = &self.members[usize::from(s)];
        if !matches!(m.state, State::Looking { .. }) {
            let leader = self.name(current_leader(m, s));
            return Narration::new(Key::ZabAnswerVote, None)
                .a(self.name(s))
                .b(Detail::Words([leader.clone(), leader]));
        }
        let target = match &self.members[usize::from(s)].state {
            State::Looking { vote, .. } => self.name(vote.leader),
            _ => self.name(self.members[usize::from(s)].leader().unwrap_or(s)),
        };
        Narration::new(Key::ZabVote, None)
            .a(self.name(s))
            .b(Detail::Text(target))
    }

    /// The finalize wait is over: if a quorum still agrees, `s` leads or follows.
    pub(super) fn decide(&mut self, now: Tick, s: ServerId, out: &mut Out) -> Option<Narration> {
        let quorum = self.quorum();
        let State::Looking {
            vote,
            votes,
            decide_at: Some(at),
            ..
        } = &self.members[usize::from(s)].state
        else {
            return None;
        };
        if *at > now {
            return None;
        }
        let (vote, agree) = (*vote, votes.values().filter(|v| **v == *vote).count());
        if agree < quorum {
            if let State::Looking { decide_at, .. } = &mut self.m(s).state {
                *decide_at = None;
            }
            return None;
        }
        Some(self.conclude(now, s, vote, out))
    }

    /// `s` leaves the election on `vote`: it leads if the vote is its own, else follows.
    fn conclude(&mut self, now: Tick, s: ServerId, vote: Vote, out: &mut Out) -> Narration {
        self.m(s).end_vote = Some(vote);
        if vote.leader != s {
            return self.follow(now, s, vote.leader, out);
        }
        self.start_leading(now, s, 0);
        let early = std::mem::take(&mut self.m(s).early);
        for (f, (epoch, zxid)) in early {
            self.follower_info(now, s, f, epoch, zxid, out);
        }
        Narration::new(Key::ZabLeads, None).a(self.name(s))
    }

    /// `s` follows `l` and reports how far its log goes.
    fn follow(&mut self, now: Tick, s: ServerId, l: ServerId, out: &mut Out) -> Narration {
        let m = self.m(s);
        m.state = State::Following {
            leader: l,
            synced: false,
            serving: false,
        };
        m.heard = now;
        let info = Zab::FollowerInfo {
            accepted_epoch: m.accepted_epoch,
            last_zxid: m.last_logged(),
        };
        Self::peer(out, s, l, info);
        Narration::new(Key::ZabFollows, None)
            .a(self.name(s))
            .b(Detail::Text(self.name(l)))
    }

    /// NEWLEADER reaches a follower: it drops what the leader never had, logs what it lacks
    /// (or loads the snapshot), applies what is committed and acknowledges.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new_leader(
        &mut self,
        now: Tick,
        s: ServerId,
        l: ServerId,
        epoch: u32,
        trunc: Zxid,
        diff: Vec<Proposal>,
        committed: Zxid,
        snap: bool,
        out: &mut Out,
    ) -> Narration {
        let what = if snap {
            [
                "“SNAP”: it loads the leader's snapshot".to_string(),
                "“SNAP”：加载领导者的快照".to_string(),
            ]
        } else {
            [
                format!("“DIFF”, {} transactions after 0x{trunc:x}", diff.len()),
                format!("“DIFF”，0x{trunc:x} 之后的 {} 个事务", diff.len()),
            ]
        };
        if snap {
            if let Some(copy) = self.snaps.remove(&s) {
                let m = self.m(s);
                m.db = copy.db;
                m.applied = copy.applied;
                m.count = copy.count;
                m.window_base = copy.window_base;
            }
            self.m(s).log.clear();
        } else {
            self.m(s).log.retain(|p| p.zxid <= trunc);
        }
        for p in diff {
            self.m(s).log_proposal(p);
        }
        let m = self.m(s);
        m.accepted_epoch = epoch;
        m.current_epoch = epoch;
        m.heard = now;
        if let State::Following { synced, .. } = &mut m.state {
            *synced = true;
        }
        self.apply_through(s, now, committed, out);
        Self::peer(out, s, l, Zab::AckNewLeader);
        Narration::new(Key::ZabSync, None)
            .a(self.name(s))
            .b(Detail::Words(what))
    }

    /// UPTODATE: the follower applies what is committed and serves clients.
    pub(super) fn up_to_date(
        &mut self,
        now: Tick,
        s: ServerId,
        l: ServerId,
        commit: Zxid,
        out: &mut Out,
    ) -> Narration {
        self.apply_through(s, now, commit, out);
        let m = self.m(s);
        m.heard = now;
        if let State::Following { serving, .. } = &mut m.state {
            *serving = true;
        }
        Narration::new(Key::ZabServing, None)
            .a(self.name(s))
            .b(Detail::Text(self.name(l)))
    }
}

fn current_leader(m: &super::member::Member, s: ServerId) -> ServerId {
    m.leader().unwrap_or(s)
}

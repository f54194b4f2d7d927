//! A message between two servers of the ensemble, dispatched to the side of Zab it belongs to.

use super::member::State;
use super::zab::{Proposal, Zab};
use super::{epoch_of, Ensemble, Out};
use crate::narrate::{Detail, Key, Narration};
use crate::services::api::{ServerId, Tick};

impl Ensemble {
    /// A message from server `from` reaches server `to`.
    pub fn on_peer(
        &mut self,
        now: Tick,
        from: ServerId,
        to: ServerId,
        msg: Zab,
        out: &mut Out,
    ) -> Narration {
        self.wake(now, to, out);
        let quiet = self.quiet(to, from, &msg);
        let m = &self.members[usize::from(to)];
        if !m.is_up() {
            return quiet;
        }
        let follows = matches!(m.state, State::Following { leader, .. } if leader == from);
        // On one TCP connection NEWLEADER comes first: anything else from the leader before it
        // means the connection lost something, and the follower syncs again.
        let early = follows
            && !m.synced_with(from)
            && matches!(
                msg,
                Zab::Proposal(_) | Zab::Commit { .. } | Zab::UpToDate { .. }
            );
        if early {
            self.enter_looking(now, to, out);
            return Narration::new(Key::ZabLeaderLost, None)
                .a(self.name(to))
                .b(Detail::Words([
                    format!("{} before its NEWLEADER", msg.label()),
                    format!("在 NEWLEADER 之前收到 {}", msg.label()),
                ]));
        }
        let leads = m.lead().is_some();
        match msg {
            Zab::Vote { vote, looking } => self.on_vote(now, to, from, vote, looking, out),
            Zab::FollowerInfo {
                accepted_epoch,
                last_zxid,
            } => {
                if leads {
                    self.follower_info(now, to, from, accepted_epoch, last_zxid, out);
                } else if matches!(m.state, State::Looking { .. }) {
                    self.m(to).early.insert(from, (accepted_epoch, last_zxid));
                }
                quiet
            }
            Zab::NewLeader {
                epoch,
                trunc,
                diff,
                committed,
                snap,
            } if follows => {
                self.new_leader(now, to, from, epoch, trunc, diff, committed, snap, out)
            }
            Zab::AckNewLeader if leads => self.ack_new_leader(now, to, from, out).unwrap_or(quiet),
            Zab::UpToDate { commit } if follows => self.up_to_date(now, to, from, commit, out),
            Zab::Forward { origin, ask } if leads => {
                if let Some(l) = self
                    .m(to)
                    .lead_mut()
                    .and_then(|l| l.learners.get_mut(&from))
                {
                    l.heard = now;
                }
                let before = self.members[usize::from(to)].last_logged();
                self.submit(now, to, origin, ask, out);
                let after = self.members[usize::from(to)].last_logged();
                if after == before {
                    return quiet;
                }
                Narration::new(Key::ZabPropose, None)
                    .a(self.name(to))
                    .b(Detail::Text(format!("0x{after:x}")))
            }
            Zab::Proposal(p) if follows => self.on_proposal(now, to, from, p, out),
            Zab::Ack { zxid } if leads => {
                if self.ack(now, to, from, zxid, out) {
                    return Narration::new(Key::ZabCommit, None)
                        .a(self.name(to))
                        .b(Detail::Text(format!("0x{zxid:x}")));
                }
                self.ack_counted(to, zxid)
            }
            Zab::Commit { zxid } if follows => {
                self.m(to).heard = now;
                if self.members[usize::from(to)]
                    .log
                    .iter()
                    .all(|p| p.zxid != zxid)
                {
                    // A commit for a proposal it never logged: its link lost something.
                    self.enter_looking(now, to, out);
                    return Narration::new(Key::ZabLeaderLost, None).a(self.name(to)).b(
                        Detail::Words([
                            format!("0x{zxid:x} was never proposed to it"),
                            format!("从未收到 0x{zxid:x} 的提议"),
                        ]),
                    );
                }
                self.apply_through(to, now, zxid, out);
                Narration::new(Key::ZabApply, None)
                    .a(self.name(to))
                    .b(Detail::Text(format!("0x{zxid:x}")))
            }
            Zab::Ping if follows => {
                self.m(to).heard = now;
                let touched = std::mem::take(&mut self.m(to).touched)
                    .into_iter()
                    .collect();
                Self::peer(out, to, from, Zab::PingReply { touched });
                quiet
            }
            Zab::PingReply { touched } if leads => {
                if let Some(l) = self
                    .m(to)
                    .lead_mut()
                    .and_then(|l| l.learners.get_mut(&from))
                {
                    l.heard = now;
                }
                for s in touched {
                    self.m(to).db.touch_session(s, now);
                }
                quiet
            }
            Zab::Revalidate {
                conn,
                session,
                last_zxid,
                watches,
            } if leads => {
                let valid = self.m(to).db.touch_session(session, now);
                let reply = Zab::Validated {
                    conn,
                    session,
                    valid,
                    last_zxid,
                    watches,
                };
                Self::peer(out, to, from, reply);
                quiet
            }
            Zab::Validated {
                conn,
                session,
                valid,
                last_zxid,
                watches,
            } if follows => self.validated(now, to, conn, session, valid, last_zxid, watches, out),
            Zab::Synced { origin } if follows => {
                self.answer_forwarded(now, to, origin, out);
                quiet
            }
            Zab::Reset => self.on_reset(now, to, from, follows, out),
            _ => quiet,
        }
    }

    /// What a message that changes nothing worth its own sentence says: a heartbeat between
    /// a leader and its follower, a message to a server that is down, or what arrived where.
    fn quiet(&self, to: ServerId, from: ServerId, msg: &Zab) -> Narration {
        let (t, f) = (self.name(to), self.name(from));
        let label = msg.label();
        let words = match msg {
            _ if !self.members[usize::from(to)].is_up() => {
                return Narration::new(Key::ZabToDown, None)
                    .a(t)
                    .b(Detail::Words([format!("{f}'s {label}"), format!("{f} 的 {label}")]));
            }
            Zab::Ping => [
                format!("Leader {f} pings follower {t}"),
                format!("领导者 {f} 向跟随者 {t} 发送心跳"),
            ],
            Zab::PingReply { .. } => [
                format!("Follower {f} answers leader {t}'s ping with the sessions its clients kept alive"),
                format!("跟随者 {f} 回应领导者 {t} 的心跳，并报告其客户端保持存活的会话"),
            ],
            _ => {
                return Narration::new(Key::ZabReceives, None)
                    .a(t)
                    .b(Detail::Words([format!("{label} from {f}"), format!("{f} 的 {label}")]));
            }
        };
        Narration::new(Key::ZabHeartbeat, None).b(Detail::Words(words))
    }

    /// An ACK that commits nothing: the count so far, or one more after the commit.
    fn ack_counted(&self, to: ServerId, zxid: i64) -> Narration {
        let acks = self.members[usize::from(to)]
            .lead()
            .and_then(|l| l.acks.get(&zxid));
        let key = if acks.is_some() {
            Key::ZabAckCount
        } else {
            Key::ZabAckLate
        };
        Narration::new(key, None)
            .a(self.name(to))
            .b(Detail::Text(format!("0x{zxid:x}")))
            .n(acks.map_or(0, |a| a.len() as i64))
    }

    /// A follower logs a proposal and acknowledges it; a gap in its leader's stream means its
    /// connection lost something, and it syncs again.
    fn on_proposal(
        &mut self,
        now: Tick,
        s: ServerId,
        l: ServerId,
        p: Proposal,
        out: &mut Out,
    ) -> Narration {
        let last = self.members[usize::from(s)].last_logged();
        self.m(s).heard = now;
        // The leader's proposals follow the follower's log without a hole: the next counter in
        // the same epoch, or the first of a new one.
        let next = if epoch_of(p.zxid) == epoch_of(last) {
            last + 1
        } else {
            super::zxid_of(epoch_of(p.zxid), 1)
        };
        let gap = p.zxid != next;
        if gap {
            self.enter_looking(now, s, out);
            return Narration::new(Key::ZabLeaderLost, None)
                .a(self.name(s))
                .b(Detail::Words([
                    format!("a gap before 0x{:x}", p.zxid),
                    format!("0x{:x} 之前有缺口", p.zxid),
                ]));
        }
        let zxid = p.zxid;
        self.m(s).log_proposal(p);
        Self::peer(out, s, l, Zab::Ack { zxid });
        Narration::new(Key::ZabAck, None)
            .a(self.name(s))
            .b(Detail::Text(format!("0x{zxid:x}")))
    }

    fn on_reset(
        &mut self,
        now: Tick,
        s: ServerId,
        from: ServerId,
        follows: bool,
        out: &mut Out,
    ) -> Narration {
        if follows {
            self.enter_looking(now, s, out);
            return Narration::new(Key::ZabLeaderLost, None)
                .a(self.name(s))
                .b(Detail::Words([
                    format!("{} is gone", self.name(from)),
                    format!("{} 已不在", self.name(from)),
                ]));
        }
        if let Some(lead) = self.m(s).lead_mut() {
            lead.learners.remove(&from);
        }
        Narration::new(Key::ZabReset, None)
            .a(self.name(s))
            .b(Detail::Text(self.name(from)))
    }
}

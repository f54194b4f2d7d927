//! The ensemble's own clocks: the leader's heartbeat every half tick and its quorum check, a
//! follower's syncLimit wait for its leader, the end of an election's finalize wait, a new
//! leader's initLimit wait for followers, and session expiry (the leader's alone).

use super::member::State;
use super::zab::Zab;
use super::{Ensemble, Out, INIT_LIMIT, SYNC_LIMIT};
use crate::narrate::{Detail, Key, Narration};
use crate::services::api::{ServerId, Tick};

impl Ensemble {
    /// The next tick at which some server acts on its own.
    pub fn next_deadline(&self) -> Option<Tick> {
        self.members
            .iter()
            .filter_map(|m| self.deadline_of(m.id).map(|t| t.max(m.paused_until)))
            .min()
    }

    /// In the timeless model only an election's finalize wait ends on its own (a crashed
    /// leader's followers learn of it from the reset connection, not from a timeout).
    pub fn timeless_deadline(&self) -> Option<Tick> {
        self.members
            .iter()
            .filter_map(|m| match &m.state {
                State::Looking { decide_at, .. } => *decide_at,
                _ => None,
            })
            .min()
    }

    fn limit(&self) -> Tick {
        SYNC_LIMIT * self.tick
    }

    fn deadline_of(&self, s: ServerId) -> Option<Tick> {
        let m = &self.members[usize::from(s)];
        match &m.state {
            State::Down => None,
            State::Following { .. } => Some(m.heard + self.limit() + 1),
            State::Looking { decide_at, .. } => Some(
                decide_at
                    .unwrap_or(m.heard + 2 * self.tick)
                    .min(m.heard + 2 * self.tick),
            ),
            State::Leading(l) if !l.established => Some(l.since + INIT_LIMIT * self.tick),
            State::Leading(l) => {
                let expiry = m.db.sessions().next_deadline();
                Some(expiry.map_or(l.next_ping, |e| e.min(l.next_ping)))
            }
        }
    }

    /// Server `s` acts on its own timers that are due before it handles a message (after a
    /// pause, its waits have timed out before it reads what waited in its sockets).
    pub(super) fn wake(&mut self, now: Tick, s: ServerId, out: &mut Out) {
        let m = &self.members[usize::from(s)];
        if !m.paused(now) && self.deadline_of(s).is_some_and(|t| t <= now) {
            self.timers_of(now, s, out);
        }
    }

    /// Runs every server's due timers.
    pub fn tick(&mut self, now: Tick, out: &mut Out) -> Narration {
        let mut said = None;
        for s in 0..self.n() as ServerId {
            let m = &self.members[usize::from(s)];
            if m.paused(now) || self.deadline_of(s).is_none_or(|t| t > now) {
                continue;
            }
            if let Some(n) = self.timers_of(now, s, out) {
                said.get_or_insert(n);
            }
        }
        self.prune_committed();
        said.unwrap_or_else(|| match self.leader() {
            Some(l) => Narration::new(Key::ZabPings, None).a(self.name(l)),
            None => Narration::new(Key::ServiceTick, None),
        })
    }

    fn timers_of(&mut self, now: Tick, s: ServerId, out: &mut Out) -> Option<Narration> {
        let m = &self.members[usize::from(s)];
        match &m.state {
            State::Down => None,
            State::Following { leader, .. } => {
                let leader = *leader;
                (now > m.heard + self.limit()).then(|| {
                    self.enter_looking(now, s, out);
                    Narration::new(Key::ZabLeaderLost, None)
                        .a(self.name(s))
                        .b(Detail::Words([
                            format!("no word from {} for syncLimit ticks", self.name(leader)),
                            format!("syncLimit 个时钟单位内没有 {} 的消息", self.name(leader)),
                        ]))
                })
            }
            State::Looking { decide_at, .. } => {
                if decide_at.is_some_and(|t| t <= now) {
                    return self.decide(now, s, out);
                }
                if now >= m.heard + 2 * self.tick {
                    // No decision yet: send the vote again (a notification may have been lost).
                    let vote = match &m.state {
                        State::Looking { vote, .. } => *vote,
                        _ => m.vote(),
                    };
                    self.m(s).heard = now;
                    for to in (0..self.n() as ServerId).filter(|t| *t != s) {
                        Self::peer(
                            out,
                            s,
                            to,
                            Zab::Vote {
                                vote,
                                looking: true,
                            },
                        );
                    }
                }
                None
            }
            State::Leading(l) if !l.established => {
                (now >= l.since + INIT_LIMIT * self.tick).then(|| self.lose_quorum(now, s, out))
            }
            State::Leading(_) => self.lead_timers(now, s, out),
        }
    }

    /// The leader: expire due sessions; every half tick, ping and check the quorum.
    fn lead_timers(&mut self, now: Tick, s: ServerId, out: &mut Out) -> Option<Narration> {
        let mut said = None;
        for session in self.m(s).db.due_sessions(now) {
            self.m(s).db.mark_closing(session);
            if let Some(l) = self.m(s).lead_mut() {
                l.prep.mark_closing(session);
            }
            let txn = crate::engine::replica::LogTxn::CloseSession {
                session,
                expired: true,
            };
            self.propose(now, s, txn, None, out);
            said.get_or_insert(
                Narration::new(Key::ZabExpire, None)
                    .a(self.name(s))
                    .b(Detail::Text(format!("0x{:x}", session.0))),
            );
        }
        let limit = self.limit();
        let quorum = self.quorum();
        let (t, half) = (self.tick.max(1), (self.tick / 2).max(1));
        let lead = self.m(s).lead_mut()?;
        if lead.next_ping > now {
            return said;
        }
        lead.next_ping = now + half;
        // The leader counts whole ticks and checks its quorum as each one begins: a learner
        // is synced while the tick is at most syncLimit past the one it was last heard in
        // (`LearnerHandler.synced`). A cut-off leader so quits 10-12 s after it last heard,
        // and the majority, timing out at 10 s, may elect before it does (F16).
        let since = lead.since;
        let tick_of = |at: Tick| at.saturating_sub(since) / t;
        let begins = tick_of(now) > tick_of(now.saturating_sub(half));
        let fresh = lead
            .learners
            .values()
            .filter(|l| {
                let heard = match l.broken {
                    Some(h) => h,
                    None if l.forwarding => l.heard,
                    None => return false,
                };
                tick_of(now) <= tick_of(heard) + SYNC_LIMIT
            })
            .count();
        if begins && fresh + 1 < quorum && now >= since + limit {
            return Some(self.lose_quorum(now, s, out));
        }
        let to = lead.forwarding();
        for f in to {
            Self::peer(out, s, f, Zab::Ping);
        }
        said
    }

    fn lose_quorum(&mut self, now: Tick, s: ServerId, out: &mut Out) -> Narration {
        self.enter_looking(now, s, out);
        Narration::new(Key::ZabQuorumLost, None).a(self.name(s))
    }
}

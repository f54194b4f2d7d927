//! A server of the ensemble crashes (its process and memory are gone; its log and snapshots
//! stay on disk; the operating system resets its connections, so its clients and its peers
//! learn at once), restarts from its disk or empty and elects, or pauses.

use super::member::{Member, State};
use super::zab::Zab;
use super::{Ensemble, Out};
use crate::narrate::{Detail, Key, Narration};
use crate::services::api::{ServerId, Tick};

impl Ensemble {
    pub fn crash(&mut self, _now: Tick, s: ServerId, out: &mut Out) -> Option<Narration> {
        let m = self.members.get(usize::from(s))?;
        if !m.is_up() {
            return None;
        }
        let was_leader = m.lead().is_some();
        self.drop_clients(s, out);
        for to in (0..self.n() as ServerId).filter(|t| *t != s) {
            if self.members[usize::from(to)].is_up() {
                Self::peer(out, s, to, Zab::Reset);
            }
        }
        let m = self.m(s);
        m.state = State::Down;
        m.touched.clear();
        m.early.clear();
        let what = if was_leader {
            [
                "the leader; its log is on disk, and every transaction a majority logged is on another server's disk too",
                "它是领导者；它的日志在磁盘上，而过半数记录过的每个事务也在另一台服务器的磁盘上",
            ]
        } else {
            ["its log is on disk", "它的日志在磁盘上"]
        };
        Some(
            Narration::new(Key::ServerCrash, None)
                .a(self.name(s))
                .b(Detail::Words(what.map(str::to_string))),
        )
    }

    pub fn restart(
        &mut self,
        now: Tick,
        s: ServerId,
        keep_disk: bool,
        out: &mut Out,
    ) -> Option<Narration> {
        if self.members.get(usize::from(s))?.is_up() {
            return None;
        }
        if keep_disk {
            self.m(s).db.forget_watches();
        } else {
            let fresh = Member::new(s, self.tick);
            let next = self.members[usize::from(s)].next_session;
            *self.m(s) = Member {
                next_session: next,
                ..fresh
            };
        }
        self.enter_looking(now, s, out);
        let key = if keep_disk {
            Key::ServerRestartDisk
        } else {
            Key::ServerRestart
        };
        Some(Narration::new(key, None).a(self.name(s)))
    }

    /// An operator expires a session now: the leader proposes its close.
    pub fn expire_now(
        &mut self,
        now: Tick,
        session: crate::engine::SessionId,
        conn: usize,
        out: &mut Out,
    ) -> Option<Narration> {
        let l = self.leader()?;
        if !self.members[usize::from(l)].db.sessions().is_live(session) {
            return None;
        }
        self.m(l).db.mark_closing(session);
        if let Some(lead) = self.m(l).lead_mut() {
            lead.prep.mark_closing(session);
        }
        let txn = crate::engine::replica::LogTxn::CloseSession {
            session,
            expired: true,
        };
        self.propose(now, l, txn, None, out);
        Some(Narration::new(Key::CmdExpire, Some(conn)))
    }

    pub fn pause(&mut self, s: ServerId, until: Tick) {
        if let Some(m) = self
            .members
            .get_mut(usize::from(s))
            .map(super::cow::Shared::make_mut)
        {
            m.paused_until = m.paused_until.max(until);
        }
    }

    /// The network lost a message between servers. Zab's links are TCP connections, which do
    /// not lose one message and carry on: the connection is broken. The leader sends the
    /// follower nothing more, yet counts it synced for syncLimit ticks (it cannot tell a
    /// blackholed link from a quiet one: F15, F16); that follower hears nothing more, times
    /// out and syncs again.
    pub fn lost(&mut self, from: ServerId, to: ServerId) {
        for (l, f) in [(from, to), (to, from)] {
            let lead = self
                .members
                .get_mut(usize::from(l))
                .and_then(|m| m.make_mut().lead_mut());
            if let Some(x) = lead.and_then(|lead| lead.learners.get_mut(&f)) {
                x.broken = x.broken.or(Some(x.heard));
                (x.forwarding, x.acked) = (false, false);
            }
        }
    }
}

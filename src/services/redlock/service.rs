//! Redlock's masters as one lock service: each request names the master it is for, runs there
//! on that master's clock, and is answered from there; each master expires its own keys; a
//! crash, a restart (empty, from its AOF, or held back past the longest TTL), a pause and a
//! clock jump happen to one master. The service holds a client's lock while a majority of
//! masters hold its value.

use super::master::Master;
use crate::sorted::SortedMap;

use super::wire::{expired, label, reply_label};
use super::{Down, Redlock, Up};
use crate::narrate::{Detail, Key, Narration};
use crate::services::api::{
    self, Claim, ConnId, Failover, LockService, NoPeer, Outbox, Role, ServerId, ServerInfo, Tick,
    Watch,
};
use crate::services::redis::KeyRow;

type Out = Outbox<Down, NoPeer>;

impl Redlock {
    /// A master's name on the stage.
    pub fn name(s: ServerId) -> String {
        format!("redis-{}", s + 1)
    }

    /// Records the keys master `s` gained and lost since `before`.
    fn diff(&self, s: ServerId, before: &[String], out: &mut Out) -> Vec<String> {
        let after = self.masters[usize::from(s)].keys();
        let on = |k: &String| api::on_server(s, k);
        out.created
            .extend(after.iter().filter(|k| !before.contains(k)).map(on));
        let gone: Vec<String> = before
            .iter()
            .filter(|k| !after.contains(k))
            .map(on)
            .collect();
        out.deleted.extend(gone.iter().cloned());
        gone
    }

    fn master(&mut self, s: ServerId) -> Option<&mut Master> {
        self.masters.get_mut(usize::from(s))
    }

    /// When each master holding `token` lets it go (world time), longest first.
    /// A master that is down under the delayed-restart policy cannot come back before the
    /// longest TTL has passed, so it can vote for nobody else while the key it had at its
    /// crash would still be live: it counts as holding that key until then.
    fn holds_until(&self, now: Tick, token: &str) -> Vec<Tick> {
        let held_down = self.delayed_restart;
        let mut ends: Vec<Tick> = self
            .masters
            .iter()
            .filter_map(|m| match m.down {
                false => m.holding(now, token),
                true if held_down => m.held_at_crash(now, token),
                true => None,
            })
            .map(|end| end.unwrap_or(Tick::MAX))
            .collect();
        crate::sort::by(&mut ends, |a, b| b.cmp(a));
        ends
    }

    /// How many masters make a majority.
    pub fn quorum(&self) -> usize {
        self.masters.len() / 2 + 1
    }

    /// Restarts that a delayed-restart policy held back and whose time has come.
    fn due_restarts(&mut self, now: Tick, out: &mut Out) -> Option<Narration> {
        let due = self
            .masters
            .iter()
            .position(|m| m.down && m.restart_at.is_some_and(|(t, _)| t <= now))?;
        let keep = self.masters[due].restart_at.is_some_and(|(_, k)| k);
        self.restart_server(now, due as ServerId, keep, out)
    }
}

impl LockService for Redlock {
    type Up = Up;
    type Down = Down;
    type Entry = KeyRow;
    type Peer = NoPeer;

    fn receive(&mut self, now: Tick, conn: ConnId, up: Up, out: &mut Out) -> Narration {
        self.now = now;
        let s = up.to;
        let Some(m) = self.master(s).filter(|m| !m.down) else {
            return Narration::new(Key::ServiceTick, None);
        };
        if up.is_connect() {
            m.clients.insert(conn);
            out.send_from(s, conn, Down::Connected { from: s });
            return Narration::new(Key::RedlockConnected, Some(conn)).a(Redlock::name(s));
        }
        let before = m.keys();
        let reply = m.command(now, conn as u32, &up.cmd);
        self.diff(s, &before, out);
        let said = Narration::new(Key::RedlockRequest, Some(conn))
            .a(Redlock::name(s))
            .b(Detail::Text(format!(
                "{} → {}",
                label(&up.cmd),
                reply_label(&reply)
            )));
        out.send_from(s, conn, Down::Reply { from: s, reply });
        said
    }

    fn hangup(&mut self, _: Tick, conn: ConnId, _: &mut Out) -> Narration {
        for m in &mut self.masters {
            m.redis.close(conn as u32);
        }
        Narration::new(Key::SvcHangup, Some(conn)).a("")
    }

    fn next_deadline(&self) -> Option<Tick> {
        let now = self.now;
        self.masters
            .iter()
            .filter_map(|m| m.next_deadline(now))
            .min()
    }

    fn tick(&mut self, now: Tick, out: &mut Out) -> Narration {
        self.now = now;
        if let Some(n) = self.due_restarts(now, out) {
            return n;
        }
        let mut gone: SortedMap<String, Vec<String>> = SortedMap::new();
        for s in 0..self.masters.len() as ServerId {
            let before = self.masters[usize::from(s)].keys();
            self.masters[usize::from(s)].tick(now);
            for id in self.diff(s, &before, out) {
                let key = api::server_of_id(&id).1.to_string();
                gone.entry(key).or_default().push(Redlock::name(s));
            }
        }
        match gone.is_empty() {
            true => Narration::new(Key::ServiceTick, None),
            false => Narration::new(Key::RedlockExpired, None).b(Detail::Words(expired(&gone))),
        }
    }

    fn expire(&mut self, _: Tick, _: &Claim<'_>, _: &mut Out) -> Option<Narration> {
        None
    }

    fn failover(&mut self, _: Tick, _: &mut Out) -> Failover {
        Failover {
            key: Key::FailoverRedlock,
            stall: 0,
        }
    }

    fn holds(&self, now: Tick, claim: &Claim<'_>) -> bool {
        claim
            .token
            .is_some_and(|t| self.holds_until(now, t).len() >= self.quorum())
    }

    fn expires_in(&self, now: Tick, claim: &Claim<'_>) -> Option<i64> {
        let ends = self.holds_until(now, claim.token?);
        let end = *ends.get(self.quorum() - 1)?;
        (end != Tick::MAX).then(|| end as i64 - now as i64)
    }

    fn watches(&self) -> Vec<Watch> {
        Vec::new()
    }

    fn entries(&self, now: Tick) -> Vec<KeyRow> {
        let up = self.masters.iter().enumerate().filter(|(_, m)| !m.down);
        up.flat_map(|(s, m)| m.rows(now, s as ServerId)).collect()
    }

    fn stamp(&self) -> Option<(&'static str, i64)> {
        None
    }

    fn servers(&self) -> Vec<ServerInfo> {
        (0..self.masters.len() as ServerId)
            .map(|s| self.server_info(s))
            .collect()
    }

    fn crash_server(&mut self, now: Tick, s: ServerId, out: &mut Out) -> Option<Narration> {
        let name = Redlock::name(s);
        let Some(m) = self.master(s).filter(|m| !m.down) else {
            let n = Narration::new(Key::NotApplicable, None);
            return Some(n.a(format!("crashing {name} (not running)")));
        };
        for conn in std::mem::take(&mut m.clients) {
            // Its host's kernel closes every connection to it.
            out.send_from(s, conn, Down::Reset { from: s });
        }
        let gone = m.crash(now);
        Some(
            Narration::new(Key::ServerCrash, None)
                .a(name)
                .b(Detail::Nodes(gone)),
        )
    }

    fn restart_server(
        &mut self,
        now: Tick,
        s: ServerId,
        keep: bool,
        out: &mut Out,
    ) -> Option<Narration> {
        let name = Redlock::name(s);
        let (delayed, ttl) = (self.delayed_restart, self.max_ttl);
        let Some(m) = self.master(s).filter(|m| m.down) else {
            let n = Narration::new(Key::NotApplicable, None);
            return Some(n.a(format!("restarting {name} (not down)")));
        };
        let allowed = m.crashed_at.saturating_add(ttl).saturating_add(1);
        if delayed && now < allowed {
            m.restart_at = Some((allowed, keep));
            return Some(
                Narration::new(Key::RedlockHeldDown, None)
                    .a(name)
                    .n(allowed as i64),
            );
        }
        m.restart(now, keep);
        self.diff(s, &[], out);
        let key = if keep {
            Key::ServerRestartDisk
        } else {
            Key::ServerRestart
        };
        Some(Narration::new(key, None).a(name))
    }

    fn pause_server(&mut self, s: ServerId, until: Tick) {
        if let Some(m) = self.master(s) {
            m.paused_until = m.paused_until.max(until);
        }
    }

    fn jump_clock(&mut self, now: Tick, s: ServerId, by: i64, _: &mut Out) -> Option<Narration> {
        self.now = now;
        let m = self.master(s)?;
        m.clock.jump(by);
        let key = if by >= 0 {
            Key::ClockJumpForward
        } else {
            Key::ClockJumpBack
        };
        Some(Narration::new(key, None).a(Redlock::name(s)).n(by.abs()))
    }

    fn up_server(m: &Up) -> Option<ServerId> {
        Some(m.to)
    }

    fn up_label(m: &Up) -> String {
        label(&m.cmd)
    }
    fn down_label(m: &Down) -> String {
        match m {
            Down::Reply { reply, .. } => reply_label(reply),
            Down::Connected { .. } => "connected".into(),
            Down::Refused { .. } => "ECONNREFUSED".into(),
            Down::Reset { .. } => "RST".into(),
        }
    }
    fn heard(c: ConnId, m: &Down) -> Narration {
        let name = Redlock::name(m.from());
        match m {
            Down::Refused { .. } => Narration::new(Key::RedlockRefused, Some(c)).a(name),
            Down::Reset { .. } => Narration::new(Key::RedlockReset, Some(c)).a(name),
            _ => Narration::new(Key::RedlockHeard, Some(c))
                .a(name)
                .b(Detail::Text(Self::down_label(m))),
        }
    }
    fn refusal(&self, s: ServerId) -> Option<Down> {
        Some(Down::Refused { from: s })
    }
    fn refuses_in_flight(&self) -> bool {
        true
    }
    fn is_request(m: &Up) -> bool {
        !m.is_connect()
    }
    fn up_wire(m: &Up) -> api::Wire {
        super::wire::up_wire(m)
    }
    fn down_wire(m: &Down) -> api::Wire {
        let w = api::Wire::default().with("from", Redlock::name(m.from()));
        match m {
            Down::Reply { reply, .. } => w.with("reply", reply.render()),
            _ => w.with("connection", Self::down_label(m)),
        }
    }
}

impl Redlock {
    /// Master `s` as the stage labels it: its role and, when it is off the world's time, its
    /// clock; a master held down by the delayed-restart policy says until when.
    fn server_info(&self, s: ServerId) -> ServerInfo {
        let m = &self.masters[usize::from(s)];
        let clock = m.clock.note(self.now);
        let mut note = match (m.restart_at, clock) {
            (Some((t, _)), _) if m.down => Some([
                format!("held down until t={t}"),
                format!("保持停机直到 t={t}"),
            ]),
            (_, Some(c)) => Some([
                format!("clock {c}"),
                format!("时钟 {}", c.replace(" ms", " 毫秒")),
            ]),
            _ => None,
        };
        if let (Some((t, disk)), false) = (m.restarted, m.down) {
            let [en, zh] = match disk {
                true => [
                    format!("restarted from its AOF at t={t}"),
                    format!("t={t} 时从 AOF 重启"),
                ],
                false => [
                    format!("restarted empty at t={t}"),
                    format!("t={t} 时以空数据重启"),
                ],
            };
            note = Some(match note {
                Some([a, b]) => [format!("{a} · {en}"), format!("{b} · {zh}")],
                None => [en, zh],
            });
        }
        ServerInfo {
            id: s,
            name: Redlock::name(s),
            role: if m.down { Role::Down } else { Role::Master },
            note,
            clock_ahead: m.clock.local(self.now) as i64 - self.now as i64,
        }
    }
}

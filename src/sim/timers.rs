//! A client's own timer firing (start, work done, retries, its library's pings, read timeouts
//! and reconnects), and how the narration names it.

use super::client::{Outgoing, Timer};
use super::narrate::{Key, Narration};
use super::types::ClientId;
use super::world::World;
use crate::services::{LibTimer, ServerId};

impl World {
    pub(super) fn timer(&mut self, c: ClientId, t: Timer) -> Narration {
        let backoff = t == Timer::Retry && self.clients[c].backing_off;
        let (now, rng) = (self.now, &mut self.rng);
        let out = self.clients[c].fire(now, t, rng);
        let reconnect = t == Timer::Lib(LibTimer::Reconnect);
        let to = match reconnect {
            true => self.named_servers(&out),
            false => Vec::new(),
        };
        self.client_sends(c, out);
        if !to.is_empty() {
            // A library with a connection per server names the one it dials again.
            let n = Narration::new(Key::RedlockReconnect, Some(c)).a(to.join(", "));
            return n.phase(self.clients[c].recipe.shown_phase());
        }
        let key = match t {
            Timer::Start => Key::TimerStart,
            Timer::WorkDone => Key::TimerWorkDone,
            Timer::AcquireTimeout => Key::TimerAcquireTimeout,
            Timer::Lib(LibTimer::Ping) => Key::TimerPing,
            Timer::Lib(LibTimer::ReadTimeout) => Key::TimerReadTimeout,
            Timer::Lib(LibTimer::Reconnect) => Key::TimerReconnect,
            Timer::Lib(LibTimer::KeepAlive) => Key::TimerKeepAlive,
            Timer::Lib(LibTimer::Lost) => Key::TimerSessionLost,
            Timer::Lib(LibTimer::Resend) => Key::TimerResend,
            Timer::Retry if backoff => Key::TimerBackoff,
            Timer::Retry => Key::TimerRetry,
            Timer::KeepAlive => Key::TimerKeepAlive,
            Timer::Resend => Key::TimerResend,
        };
        let spent = self.clients[c].lib.spent_watches();
        if let (Key::TimerReadTimeout, Some(p)) = (key, spent.first()) {
            let n = Narration::new(Key::TimerReadTimeoutSpent, Some(c))
                .a(crate::narrate::short_path(p));
            return n.phase(self.clients[c].recipe.shown_phase());
        }
        Narration::new(key, Some(c)).phase(self.clients[c].recipe.shown_phase())
    }

    /// The servers a fanning-out library addresses in `out`, by name.
    fn named_servers(&self, out: &[Outgoing]) -> Vec<String> {
        let servers = self.service.servers();
        let name = |s: ServerId| servers.get(usize::from(s)).map(|i| i.name.clone());
        let fans = |c: &Outgoing| matches!(c, Outgoing::Up(u) if u.server().is_some());
        if servers.len() < 2 || !out.iter().any(fans) {
            return Vec::new();
        }
        out.iter()
            .filter_map(|m| match m {
                Outgoing::Up(u) => u.server().and_then(name),
                _ => None,
            })
            .collect()
    }
}

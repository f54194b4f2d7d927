//! One Redlock master: a standalone Redis 7 server (no replica) with its own clock, which can
//! crash, restart empty or from an `appendfsync always` AOF, pause, and have its clock jump.

use crate::sorted::SortedMap;

use serde::{Deserialize, Serialize};

use super::clock::Clock;
use crate::services::api::Tick;
use crate::services::redis::db::Entry;
use crate::services::redis::{KeyRow, Redis, Reply};

/// A master and its host.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Master {
    pub redis: Redis,
    pub clock: Clock,
    pub down: bool,
    /// World time of its last crash.
    pub crashed_at: Tick,
    /// What an AOF with `appendfsync always` held at the crash (every acknowledged write).
    pub disk: SortedMap<String, Entry>,
    /// A delayed restart waiting: (world time, keep the disk).
    pub restart_at: Option<(Tick, bool)>,
    /// Stopped until then (world time): no expiry cycle runs meanwhile.
    pub paused_until: Tick,
    /// The client connections open to it.
    pub clients: crate::sorted::SortedSet<usize>,
    /// Its last restart: (world time, from its AOF), which its box keeps saying.
    pub restarted: Option<(Tick, bool)>,
}

impl Master {
    pub fn new(clock: Clock) -> Master {
        Master {
            redis: Redis::new(None),
            clock,
            ..Master::default()
        }
    }

    /// The key names it holds (expired or not: a key goes when Redis deletes it).
    pub fn keys(&self) -> Vec<String> {
        self.redis.db.keys.keys().cloned().collect()
    }

    /// One command from connection `conn` at world time `now`, on this server's clock.
    pub fn command(&mut self, now: Tick, conn: u32, args: &[String]) -> Reply {
        let local = self.clock.local(now);
        self.redis.command(local, conn, args)
    }

    /// Its timers at world time `now` (active expiry), unless paused or down.
    pub fn tick(&mut self, now: Tick) {
        if !self.down && now >= self.paused_until {
            self.redis.tick(self.clock.local(now));
        }
    }

    /// When (world time) it next acts on its own: a key's expiry, or a delayed restart.
    pub fn next_deadline(&self, now: Tick) -> Option<Tick> {
        if self.down {
            return self.restart_at.map(|(t, _)| t);
        }
        let local = self.redis.next_deadline()?;
        Some(self.clock.world(local, now).max(self.paused_until))
    }

    /// The process dies: memory and connections gone; the AOF keeps what was acknowledged.
    pub fn crash(&mut self, now: Tick) -> Vec<String> {
        let gone = self.keys();
        self.disk = std::mem::take(&mut self.redis.db.keys);
        self.redis = Redis::new(None);
        self.down = true;
        self.crashed_at = now;
        self.restart_at = None;
        gone
    }

    /// It starts again: with its AOF (`keep_disk`) it loads the keys, and any whose expiry
    /// has passed on its clock is gone at once; the script cache always starts empty.
    pub fn restart(&mut self, now: Tick, keep_disk: bool) {
        let disk = std::mem::take(&mut self.disk);
        self.redis = Redis::new(None);
        if keep_disk {
            let local = self.clock.local(now);
            let live = disk
                .into_iter()
                .filter(|(_, e)| e.expire_at.is_none_or(|t| t > local));
            self.redis.db.keys = live.collect();
        }
        self.down = false;
        self.restart_at = None;
        self.restarted = Some((now, keep_disk));
    }

    /// Its keys as rows, with their PTTL on its own clock.
    pub fn rows(&self, now: Tick, server: u8) -> Vec<KeyRow> {
        let local = self.clock.local(now);
        // Every key it holds until its expiry timer removes it (a step of its own, so the
        // stage can say which clock ran it out), even when a jump has already passed its TTL.
        let db = &self.redis.db;
        db.keys
            .iter()
            .map(|(k, e)| KeyRow {
                key: k.clone(),
                value: e.display(),
                pttl: e.expire_at.map(|t| t.saturating_sub(local)),
                replica: false,
                server,
            })
            .collect()
    }

    /// The key holding `token` that its memory had when it crashed (still in its AOF's copy,
    /// `disk`), if that key would still be live now: its expiry in world time.
    pub fn held_at_crash(&self, now: Tick, token: &str) -> Option<Option<Tick>> {
        let local = self.clock.local(now);
        let (_, e) = self.disk.iter().find(|(_, e)| e.str() == Some(token))?;
        match e.expire_at {
            Some(t) if t <= local => None,
            end => Some(end.map(|t| self.clock.world(t, now))),
        }
    }

    /// The live key holding `token`, and its expiry on this clock.
    pub fn holding(&self, now: Tick, token: &str) -> Option<Option<Tick>> {
        let local = self.clock.local(now);
        let db = &self.redis.db;
        let mut live = db.keys.iter().filter(|(k, _)| !db.expired(local, k));
        let (_, e) = live.find(|(_, e)| e.str() == Some(token))?;
        Some(e.expire_at.map(|t| self.clock.world(t, now)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(w: &[&str]) -> Vec<String> {
        w.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_jump_forward_expires_the_key_early_in_world_time() {
        let mut m = Master::new(Clock::default());
        m.command(0, 1, &words(&["SET", "k", "v", "NX", "PX", "1000"]));
        assert_eq!(m.next_deadline(0), Some(1000));
        m.clock.jump(600);
        assert_eq!(m.next_deadline(10), Some(400));
        assert_eq!(m.holding(10, "v"), Some(Some(400)));
        m.tick(400);
        assert!(m.keys().is_empty());
    }

    #[test]
    fn a_restart_without_disk_is_empty_and_with_it_keeps_live_keys() {
        let mut m = Master::new(Clock::default());
        m.command(0, 1, &words(&["SET", "a", "v", "PX", "100"]));
        m.command(0, 1, &words(&["SET", "b", "v", "PX", "5000"]));
        assert_eq!(m.crash(10).len(), 2);
        m.restart(200, true);
        assert_eq!(m.keys(), ["b"]);
        m.crash(300);
        m.restart(400, false);
        assert!(m.keys().is_empty());
    }
}

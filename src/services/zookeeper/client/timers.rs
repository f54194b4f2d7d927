//! When the ZooKeeper client acts on its own: a ping or a read timeout while connected, a
//! connect timeout or the next attempt while connecting, a reconnect or Curator's LOST while
//! disconnected, kazoo's back-off once every server refused; in the timeless model only the
//! next attempt after a refusal.

use super::{Conn, ZkClient};
use crate::services::api::{LibTimer, Tick};

impl ZkClient {
    pub fn next_timer(&self) -> Option<(Tick, LibTimer)> {
        match self.conn {
            Conn::Connected => {
                let ping = self.last_sent + self.retry_period();
                let read = self.last_heard + (self.timeout * 2 / 3).max(1);
                Some(if read <= ping {
                    (read, LibTimer::ReadTimeout)
                } else {
                    (ping, LibTimer::Ping)
                })
            }
            // An attempt the server refused is followed by the next one soon.
            Conn::Connecting => Some(match self.retry_at.filter(|_| !self.tried) {
                Some(t) => (t, LibTimer::Reconnect),
                None => (
                    self.last_heard + (self.timeout * 2 / 3).max(1),
                    LibTimer::ReadTimeout,
                ),
            }),
            Conn::Disconnected => {
                let lost = self
                    .disconnected_at
                    .filter(|_| self.lost_after_timeout)
                    .map(|t| (t + self.timeout, LibTimer::Lost));
                self.retry_at
                    .map(|t| (t, LibTimer::Reconnect))
                    .into_iter()
                    .chain(lost)
                    .min()
            }
            Conn::Expired | Conn::Closed => None,
        }
    }

    /// In the timeless model only the next attempt after a server closed the connection (and
    /// before that attempt is sent): no pings, no read or session timeouts, no retry of an attempt
    /// still on its way.
    pub(super) fn timeless_timer(&self) -> Option<(Tick, LibTimer)> {
        match self.conn {
            Conn::Disconnected | Conn::Connecting if !self.tried => {
                self.retry_at.map(|t| (t, LibTimer::Reconnect))
            }
            _ => None,
        }
    }

    /// The wait before the next server after one refused a reconnect: at once (a tick), but
    /// kazoo, once its whole connect string refused, sleeps before it starts over: 100 ms,
    /// doubling per pass, at most 60 s (`KazooRetry(delay=0.1, backoff=2, max_delay=60)`;
    /// recorded: 126, 269, 641 ms, F12). Its random jitter (up to 0.4 s) is left out: the
    /// library has no randomness of its own here.
    pub(super) fn refused_delay(&mut self) -> Tick {
        if !self.backoff_after_pass || self.host != self.pass_from {
            return self.reconnect_delay();
        }
        self.passes += 1;
        let ms = (100u64 << (self.passes - 1).min(10)).min(60_000);
        ms.div_ceil(self.tick_ms.max(1)).max(1)
    }
}

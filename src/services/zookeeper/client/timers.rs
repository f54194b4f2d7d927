//! When the ZooKeeper client acts on its own: a ping or a read timeout while connected, a
//! connect timeout or the next attempt while connecting, a reconnect or Curator's LOST while
//! disconnected; in the timeless model only the next attempt after a refusal.

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
}

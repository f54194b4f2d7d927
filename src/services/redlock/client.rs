//! The Redis client under node-redlock: ioredis 4 with its defaults, one connection to each
//! master. Commands on a connection are answered in order; there is no command timeout. When a
//! master's connection closes (its host resets it or refuses a new one), ioredis keeps the
//! unanswered commands and queues new ones (the offline queue), and reconnects after
//! `min(50 × n, 2000)` ms on its n-th try; at every 21st try in a row
//! (`maxRetriesPerRequest` 20) it rejects everything kept with `MaxRetriesPerRequestError`.
//! Connected again, it sends what it kept, in order.

use super::{Answer, Down, Up};
use crate::services::api::{
    self, Claim, ClientLib, ConnState, LibCtx, LibTimer, ServerId, ServiceConfig, Tick, MAX_SERVERS,
};
use crate::services::redis::Reply;

type LibOut = api::LibOut<Up, Answer>;

/// ioredis's `maxRetriesPerRequest`.
const MAX_RETRIES_PER_REQUEST: u32 = 20;

/// ioredis's default `retryStrategy`: the delay before the n-th reconnection, at most
/// [`REDIAL_MAX`].
pub fn retry_delay(n: u32) -> Tick {
    (Tick::from(n) * 50).min(REDIAL_MAX)
}

/// The longest back-off of ioredis's default `retryStrategy` (ms).
pub const REDIAL_MAX: Tick = 2000;

/// What ioredis rejects kept commands with after `maxRetriesPerRequest` tries.
pub fn max_retries_error() -> Reply {
    Reply::Error(format!(
        "MaxRetriesPerRequestError: Reached the max retries per request limit (which is {MAX_RETRIES_PER_REQUEST}). Refer to \"maxRetriesPerRequest\" option for details."
    ))
}

/// What ioredis rejects a command with when the connection is not ready and
/// `enableOfflineQueue` is false.
pub fn not_writeable() -> Reply {
    Reply::Error("Stream isn't writeable and enableOfflineQueue options is false".into())
}

pub fn lib(cfg: &ServiceConfig) -> Lib {
    Lib {
        masters: cfg.masters.unwrap_or(super::super::REDLOCK_MASTERS),
        no_offline_queue: !cfg.offline_queue,
        ..Lib::default()
    }
}

/// One master's connection.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Link {
    /// Commands on the wire, not answered.
    pub sent: Vec<Vec<String>>,
    /// Not connected: reconnection tries so far, and when the next is due (`None` while a
    /// connection attempt is out; `(0, None)`: the first connection, as the client is made).
    pub retrying: Option<(u32, Option<Tick>)>,
    /// Commands kept while closed (unanswered ones first, then the offline queue).
    pub kept: Vec<Vec<String>>,
}

/// The client's connections, by master.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Lib {
    pub masters: u8,
    pub links: [Link; MAX_SERVERS],
    /// The application is done: no more reconnecting (`redlock.quit()`).
    pub quit: bool,
    /// `enableOfflineQueue: false`.
    pub no_offline_queue: bool,
}

impl Lib {
    /// The connection to master `s` closed (at `now`): keep what was on it, and try again.
    fn closed(&mut self, now: Tick, s: ServerId) -> Vec<LibOut> {
        let link = &mut self.links[usize::from(s)];
        let mut kept = std::mem::take(&mut link.sent);
        kept.append(&mut link.kept);
        link.kept = kept;
        let n = link.retrying.map_or(0, |(n, _)| n) + 1;
        link.retrying = Some((n, Some(now + retry_delay(n))));
        if n % (MAX_RETRIES_PER_REQUEST + 1) != 0 {
            return Vec::new();
        }
        let failed = std::mem::take(&mut link.kept);
        let reject = |_| {
            LibOut::Answer(Answer {
                from: s,
                reply: max_retries_error(),
            })
        };
        failed.into_iter().map(reject).collect()
    }

    /// Connected again: send what was kept.
    fn connected(&mut self, s: ServerId) -> Vec<LibOut> {
        let link = &mut self.links[usize::from(s)];
        link.retrying = None;
        let kept = std::mem::take(&mut link.kept);
        link.sent.extend(kept.iter().cloned());
        kept.into_iter()
            .map(|cmd| LibOut::Send(Up { to: s, cmd }))
            .collect()
    }
}

impl ClientLib for Lib {
    type Call = Up;
    type Answer = Answer;
    type Up = Up;
    type Down = Down;

    /// ioredis connects to every master as the client is made (a command before it is ready
    /// waits in the offline queue).
    fn start(&mut self, _: Tick) -> Vec<LibOut> {
        (0..self.masters.min(MAX_SERVERS as u8))
            .map(|s| {
                self.links[usize::from(s)].retrying = Some((0, None));
                LibOut::Send(Up::connect(s))
            })
            .collect()
    }
    fn call(&mut self, _: Tick, call: Up) -> Vec<LibOut> {
        let Some(link) = self.links.get_mut(usize::from(call.to)) else {
            return Vec::new();
        };
        if link.retrying.is_some() && self.no_offline_queue {
            let reply = not_writeable();
            return vec![LibOut::Answer(Answer {
                from: call.to,
                reply,
            })];
        }
        if link.retrying.is_some() {
            link.kept.push(call.cmd);
            return Vec::new();
        }
        link.sent.push(call.cmd.clone());
        vec![LibOut::Send(call)]
    }
    fn receive(&mut self, now: Tick, msg: Down) -> Vec<LibOut> {
        let s = msg.from();
        if usize::from(s) >= MAX_SERVERS {
            return Vec::new();
        }
        match msg {
            Down::Reply { from, reply } => {
                let link = &mut self.links[usize::from(s)];
                if link.sent.is_empty() {
                    return Vec::new();
                }
                link.sent.remove(0);
                vec![LibOut::Answer(Answer { from, reply })]
            }
            Down::Connected { .. } => self.connected(s),
            // A second reset for the same closed connection changes nothing.
            Down::Refused { .. } | Down::Reset { .. }
                if self.links[usize::from(s)]
                    .retrying
                    .is_some_and(|(_, t)| t.is_some()) =>
            {
                let link = &mut self.links[usize::from(s)];
                let mut kept = std::mem::take(&mut link.sent);
                kept.append(&mut link.kept);
                link.kept = kept;
                Vec::new()
            }
            Down::Refused { .. } | Down::Reset { .. } => self.closed(now, s),
        }
    }
    fn next_timer(&self, ctx: LibCtx) -> Option<(Tick, LibTimer)> {
        if self.quit || (ctx.app_done && self.links.iter().all(|l| l.kept.is_empty())) {
            return None;
        }
        let due = self
            .links
            .iter()
            .filter_map(|l| l.retrying.and_then(|(_, t)| t));
        due.min().map(|t| (t, LibTimer::Reconnect))
    }
    fn fire(&mut self, now: Tick, _: LibTimer) -> Vec<LibOut> {
        let due = (0..self.masters).find(|s| {
            let r = self.links[usize::from(*s)].retrying;
            r.is_some_and(|(_, t)| t.is_some_and(|t| t <= now))
        });
        let Some(s) = due else {
            return Vec::new();
        };
        if let Some((_, t)) = self.links[usize::from(s)].retrying.as_mut() {
            *t = None;
        }
        vec![LibOut::Send(Up::connect(s))]
    }
    fn close(&mut self, _: Tick, _: &Claim<'_>) -> Vec<LibOut> {
        self.quit = true;
        vec![LibOut::Hangup]
    }
    fn crash(&mut self) -> Vec<LibOut> {
        self.quit = true;
        vec![LibOut::Hangup]
    }
    fn quiet(&self) -> bool {
        true
    }
    fn fans_out(&self) -> bool {
        true
    }
    fn unanswered(&self) -> usize {
        self.links.iter().map(|l| l.sent.len() + l.kept.len()).sum()
    }
    fn session(&self) -> Option<u64> {
        None
    }
    fn conn_state(&self) -> ConnState {
        ConnState::Connected
    }
    fn session_timeout(&self) -> Tick {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(to: ServerId) -> Up {
        Up {
            to,
            cmd: vec!["GET".into(), "k".into()],
        }
    }

    #[test]
    fn a_reset_keeps_the_command_and_the_reconnect_sends_it_again() {
        let mut l = Lib {
            masters: 5,
            ..Lib::default()
        };
        assert_eq!(l.start(0).len(), 5);
        assert!(l.call(0, cmd(4)).is_empty(), "waits for the connection");
        assert_eq!(l.receive(1, Down::Connected { from: 4 }).len(), 1);
        assert!(l.receive(3, Down::Refused { from: 4 }).is_empty());
        let ctx = LibCtx {
            timeless: false,
            app_done: false,
        };
        assert_eq!(l.next_timer(ctx), Some((53, LibTimer::Reconnect)));
        assert!(l.call(10, cmd(4)).is_empty(), "queued offline");
        assert_eq!(
            l.fire(53, LibTimer::Reconnect),
            [LibOut::Send(Up::connect(4))]
        );
        let again = l.receive(55, Down::Connected { from: 4 });
        assert_eq!(again.len(), 2);
        assert_eq!(l.unanswered(), 2);
    }

    #[test]
    fn the_twenty_first_failed_try_rejects_what_was_kept() {
        let mut l = Lib {
            masters: 5,
            ..Lib::default()
        };
        l.call(0, cmd(1));
        assert_eq!(l.unanswered(), 1);
        let mut now = 1;
        let mut out = l.receive(now, Down::Refused { from: 1 });
        let mut tries = 1;
        while out.is_empty() {
            now += retry_delay(tries);
            assert_eq!(
                l.fire(now, LibTimer::Reconnect),
                [LibOut::Send(Up::connect(1))]
            );
            out = l.receive(now, Down::Refused { from: 1 });
            tries += 1;
        }
        assert_eq!(tries, 21);
        assert_eq!(now, 1 + (1..=20).map(retry_delay).sum::<Tick>());
        assert_eq!(
            out,
            [LibOut::Answer(Answer {
                from: 1,
                reply: max_retries_error()
            })]
        );
    }
}

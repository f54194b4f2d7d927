//! The ZooKeeper client library behind the one interface every lock service's library has.

use super::{Conn, LibOut, ZkClient};
use crate::services::api::{Claim, ClientLib, ConnState, LibCtx, LibTimer, Tick};
use crate::services::zookeeper::wire::{Answer, Call, Down, Up};

impl ClientLib for ZkClient {
    type Call = Call;
    type Answer = Answer;
    type Up = Up;
    type Down = Down;

    fn start(&mut self, now: Tick) -> Vec<LibOut> {
        ZkClient::start(self, now)
    }
    fn call(&mut self, now: Tick, call: Call) -> Vec<LibOut> {
        self.send(now, call)
    }
    fn stale(&self, msg: &Down) -> bool {
        ZkClient::stale(self, msg)
    }
    fn receive(&mut self, now: Tick, msg: Down) -> Vec<LibOut> {
        ZkClient::receive(self, now, msg)
    }
    fn next_timer(&self, ctx: LibCtx) -> Option<(Tick, LibTimer)> {
        if ctx.timeless {
            return self.timeless_timer();
        }
        ZkClient::next_timer(self)
    }
    fn fire(&mut self, now: Tick, timer: LibTimer) -> Vec<LibOut> {
        ZkClient::fire(self, now, timer)
    }
    fn close(&mut self, _: Tick, _: &Claim<'_>) -> Vec<LibOut> {
        ZkClient::close(self)
    }
    /// The session lives on at the server until it times out; nothing is sent.
    fn crash(&mut self) -> Vec<LibOut> {
        Vec::new()
    }
    fn quiet(&self) -> bool {
        self.outstanding() == 0
    }
    fn unanswered(&self) -> usize {
        self.outstanding()
    }
    fn session(&self) -> Option<u64> {
        self.session.map(|s| s.0)
    }
    fn conn_state(&self) -> ConnState {
        match self.conn {
            Conn::Connecting => ConnState::Connecting,
            Conn::Connected => ConnState::Connected,
            Conn::Disconnected => ConnState::Disconnected,
            Conn::Expired => ConnState::Expired,
            Conn::Closed => ConnState::Closed,
        }
    }
    fn spent_watches(&self) -> Vec<String> {
        self.spent()
    }
    fn session_timeout(&self) -> Tick {
        self.timeout
    }
    fn server(&self) -> Option<crate::services::ServerId> {
        (self.hosts > 1).then_some(self.host)
    }
    /// Client `c` starts at server `c mod n` (a connect string shuffled per client, as Curator
    /// and kazoo do, made deterministic).
    fn place(&mut self, c: crate::services::ConnId, servers: usize) {
        let n = servers.clamp(1, crate::services::MAX_SERVERS);
        self.hosts = n as u8;
        self.host = (c % n) as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{ErrorCode, Output, Request, SessionId};

    fn reply(xid: i32) -> Down {
        Down::Output(Output::Reply {
            session: SessionId(1),
            xid,
            zxid: 5,
            result: Err(ErrorCode::NoNode),
        })
    }

    #[test]
    fn a_reply_from_a_connection_given_up_is_stale_and_the_new_one_is_not() {
        let mut c = ZkClient::new(30);
        c.start(0);
        c.receive(
            1,
            Down::Output(Output::Connected {
                session: SessionId(1),
                timeout_ms: 30,
                zxid: 1,
                new_session: true,
            }),
        );
        let delete = Request::Delete {
            path: "/locks/x".into(),
            version: -1,
        };
        c.send(2, delete.clone().into());
        assert!(!c.stale(&reply(1)), "the answer to the pending request");
        c.disconnect(3);
        assert!(
            c.stale(&reply(1)),
            "its request already failed with ConnectionLoss"
        );
        c.receive(
            4,
            Down::Output(Output::Connected {
                session: SessionId(1),
                timeout_ms: 30,
                zxid: 1,
                new_session: false,
            }),
        );
        c.send(5, delete.into());
        assert!(c.stale(&reply(1)) && !c.stale(&reply(2)));
    }

    /// kazoo walks its connect string in order after a drop and, once every server refused,
    /// starts over after 100 ms, then 200, 400 (F12: recorded 126, 269, 641 ms with jitter);
    /// the Java client (Curator) walks on at once.
    #[test]
    fn kazoo_backs_off_after_a_whole_pass_is_refused_and_curator_does_not() {
        for kazoo in [true, false] {
            let mut c = ZkClient::new(30_000);
            (c.hosts, c.host, c.backoff_after_pass) = (3, 0, kazoo);
            c.start(0);
            c.receive(
                1,
                Down::Output(Output::Connected {
                    session: SessionId(1),
                    timeout_ms: 30_000,
                    zxid: 1,
                    new_session: true,
                }),
            );
            c.receive(10, Down::ConnectionLost);
            let mut waits = Vec::new();
            let mut hosts = Vec::new();
            for _ in 0..9 {
                let at = c.retry_at.expect("a retry");
                c.fire(at, LibTimer::Reconnect);
                hosts.push(c.host);
                c.receive(at, Down::ConnectionClosed);
                waits.push(c.retry_at.expect("a retry") - at);
            }
            assert_eq!(
                hosts,
                [1, 2, 0, 1, 2, 0, 1, 2, 0],
                "in order, over and over"
            );
            let want: &[u64] = if kazoo {
                &[1, 1, 100, 1, 1, 200, 1, 1, 400]
            } else {
                &[1; 9]
            };
            assert_eq!(waits, want, "kazoo {kazoo}");
        }
    }

    /// kazoo 2.11 on SUSPENDED (`_reset_watchers`): every watcher is called with a NONE event
    /// and forgotten, and the reconnect sets no watch (it never sends setWatches); the Java
    /// client keeps its tables and sends them with the reconnect (recorded:
    /// `kazoo_waiter_disconnected`).
    #[test]
    fn kazoo_spends_its_watchers_with_none_when_the_connection_breaks_and_java_keeps_them() {
        use crate::engine::{EventType, Response};
        for kazoo in [true, false] {
            let mut c = ZkClient::new(30_000);
            c.drops_watches = kazoo;
            c.start(0);
            let connected = |new_session| {
                Down::Output(Output::Connected {
                    session: SessionId(1),
                    timeout_ms: 30_000,
                    zxid: 1,
                    new_session,
                })
            };
            c.receive(1, connected(true));
            let path = "/locks/x".to_string();
            let watch = Request::Exists {
                path: path.clone(),
                watch: true,
            };
            c.send(2, watch.into());
            c.receive(
                3,
                Down::Output(Output::Reply {
                    session: SessionId(1),
                    xid: 1,
                    zxid: 5,
                    result: Ok(Response::Exists { stat: None }),
                }),
            );
            let out = c.disconnect(4);
            let nones: Vec<&str> = out
                .iter()
                .filter_map(|o| match o {
                    LibOut::Answer(Answer::Event(e)) if e.kind == EventType::None => {
                        Some(e.path.as_str())
                    }
                    _ => None,
                })
                .collect();
            let reconnect = c.fire(c.retry_at.unwrap(), LibTimer::Reconnect);
            let sent = match reconnect.first() {
                Some(LibOut::Send(Up::Reconnect { watches, .. })) => watches.exist.clone(),
                other => panic!("a reconnect, not {other:?}"),
            };
            if kazoo {
                assert_eq!(nones, [path.as_str()], "one NONE for the watcher");
                assert!(sent.is_empty(), "no setWatches");
                assert_eq!(c.spent(), [path.clone()], "shown until it is connected");
                c.receive(6, connected(false));
                assert!(c.spent().is_empty());
            } else {
                assert!(nones.is_empty());
                assert_eq!(sent, [path.clone()]);
            }
        }
    }
}

//! The client library side of a ZooKeeper session (what `ClientCnxn` plus a Curator-style
//! connection manager do): connect, pings at a third of the timeout, a read timeout of two
//! thirds, FIFO pending requests that fail with ConnectionLoss when the connection breaks or
//! SessionExpired when the session is gone, client-side watch tables re-sent on reconnect, and a
//! fresh session after expiry.

use crate::sorted::SortedSet;
use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use super::wire::{Answer, Call, Down, Up};
use crate::engine::{ClientWatches, ErrorCode, Output, Request, Response, SessionId, Zxid};
use crate::services::api::{LibTimer, SessionEvent, Tick};

/// What the library believes about its session.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Conn {
    /// Waiting for the reply to a connect (new session).
    Connecting,
    Connected,
    /// Can't hear the server; the session may still be alive.
    Disconnected,
    /// Learned the session expired; a new one is being opened.
    Expired,
    Closed,
}

type LibOut = crate::services::api::LibOut<Up, Answer>;

mod lib;
mod timers;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ZkClient {
    pub conn: Conn,
    pub session: Option<SessionId>,
    pub requested_timeout: Tick,
    pub timeout: Tick,
    pub last_heard: Tick,
    pub last_sent: Tick,
    pub retry_at: Option<Tick>,
    pub last_zxid: Zxid,
    pending: VecDeque<(i32, Call)>,
    queued: VecDeque<Call>,
    next_xid: i32,
    data_watches: SortedSet<String>,
    exist_watches: SortedSet<String>,
    child_watches: SortedSet<String>,
    had_session: bool,
    /// Declare the session lost a session timeout after the connection went (Curator).
    pub lost_after_timeout: bool,
    disconnected_at: Option<Tick>,
    /// How many servers its connect string names (1: a standalone server), and the one it
    /// talks to now: after a broken connection it tries the next.
    pub hosts: u8,
    pub host: u8,
    /// A reconnect went unanswered since the connection broke: the next one tries another
    /// server (the Java client walks its host list on every attempt).
    tried: bool,
    /// kazoo: back off after a whole pass of the connect string is refused (see `timers.rs`);
    /// the server the pass began at, and how many passes were refused.
    pub backoff_after_pass: bool,
    /// kazoo: a lost connection clears its watchers, each called with a NONE event, and a
    /// reconnect never sends setWatches (kazoo 2.11 `_reset_watchers`; recorded:
    /// `kazoo_waiter_disconnected`). Otherwise the watch tables are re-sent on reconnect.
    pub drops_watches: bool,
    /// The paths whose watchers kazoo spent with a NONE event, until it is connected again.
    spent: SortedSet<String>,
    pub tick_ms: Tick,
    pass_from: u8,
    passes: u32,
}

impl ZkClient {
    pub fn new(requested_timeout: Tick) -> Self {
        ZkClient {
            conn: Conn::Connecting,
            session: None,
            requested_timeout,
            timeout: requested_timeout,
            last_heard: 0,
            last_sent: 0,
            retry_at: None,
            last_zxid: 0,
            pending: VecDeque::new(),
            queued: VecDeque::new(),
            next_xid: 0,
            data_watches: SortedSet::new(),
            exist_watches: SortedSet::new(),
            child_watches: SortedSet::new(),
            had_session: false,
            lost_after_timeout: false,
            disconnected_at: None,
            hosts: 1,
            host: 0,
            tried: false,
            backoff_after_pass: false,
            drops_watches: false,
            spent: SortedSet::new(),
            tick_ms: 1,
            pass_from: 0,
            passes: 0,
        }
    }

    /// The connection broke or never came up: the next server in the connect string.
    fn next_host(&mut self) {
        if self.hosts > 1 {
            self.host = (self.host + 1) % self.hosts;
        }
    }

    /// The first message of a new client.
    pub fn start(&mut self, now: Tick) -> Vec<LibOut> {
        self.conn = Conn::Connecting;
        self.last_sent = now;
        self.last_heard = now;
        vec![LibOut::Send(Up::Connect {
            timeout_ms: self.requested_timeout,
        })]
    }

    /// Watchers spent with a NONE event while the connection is down (kazoo).
    pub fn spent(&self) -> Vec<String> {
        self.spent.iter().cloned().collect()
    }

    pub fn outstanding(&self) -> usize {
        self.pending.len() + self.queued.len()
    }

    pub fn watches(&self) -> ClientWatches {
        ClientWatches {
            data: self.data_watches.iter().cloned().collect(),
            exist: self.exist_watches.iter().cloned().collect(),
            child: self.child_watches.iter().cloned().collect(),
        }
    }

    /// Sends now if connected, else queues until the connection is back.
    pub fn send(&mut self, now: Tick, call: Call) -> Vec<LibOut> {
        if self.conn != Conn::Connected {
            self.queued.push_back(call);
            return Vec::new();
        }
        self.next_xid += 1;
        self.pending.push_back((self.next_xid, call.clone()));
        self.last_sent = now;
        vec![LibOut::Send(Up::Request {
            xid: self.next_xid,
            request: call.request,
            op: call.op,
        })]
    }

    fn flush_queue(&mut self, now: Tick) -> Vec<LibOut> {
        let queued: Vec<Call> = self.queued.drain(..).collect();
        queued.into_iter().flat_map(|r| self.send(now, r)).collect()
    }

    /// A reply that answers no pending request: it was sent on a connection the client has
    /// given up (whose requests already failed with ConnectionLoss). A real client matches
    /// replies by xid on one connection and never reads the old socket again.
    pub fn stale(&self, msg: &Down) -> bool {
        match msg {
            Down::Output(Output::Reply { xid, .. }) | Down::Reply(_, Output::Reply { xid, .. }) => {
                self.pending.front().is_none_or(|(x, _)| x != xid)
            }
            _ => false,
        }
    }

    /// A message from the server.
    pub fn receive(&mut self, now: Tick, msg: Down) -> Vec<LibOut> {
        self.last_heard = now;
        match msg {
            Down::Output(o) | Down::Reply(_, o) => self.output(now, o),
            Down::ConnectionClosed | Down::ConnectionLost => self.dropped(now),
            Down::Closed => {
                self.conn = Conn::Closed;
                Vec::new()
            }
        }
    }

    fn output(&mut self, now: Tick, o: Output) -> Vec<LibOut> {
        match o {
            Output::Connected {
                session,
                timeout_ms,
                new_session,
                ..
            } => self.connected(now, session, timeout_ms, new_session),
            Output::ConnectRejected { .. } => self.expired(now),
            Output::Reply {
                xid, zxid, result, ..
            } => self.reply(xid, zxid, result),
            Output::Notify { event, .. } => {
                self.data_watches.remove(&event.path);
                self.exist_watches.remove(&event.path);
                if !matches!(
                    event.kind,
                    crate::engine::EventType::NodeDataChanged
                        | crate::engine::EventType::NodeCreated
                ) {
                    self.child_watches.remove(&event.path);
                }
                vec![LibOut::Answer(Answer::Event(event))]
            }
            _ => Vec::new(),
        }
    }

    fn connected(
        &mut self,
        now: Tick,
        session: SessionId,
        timeout_ms: u64,
        new_session: bool,
    ) -> Vec<LibOut> {
        self.conn = Conn::Connected;
        self.spent.clear();
        (self.tried, self.passes) = (false, 0);
        self.disconnected_at = None;
        self.session = Some(session);
        self.timeout = timeout_ms;
        self.retry_at = None;
        let event = match (new_session, std::mem::replace(&mut self.had_session, true)) {
            (true, true) => Some(SessionEvent::NewSession),
            (true, false) => None,
            (false, _) => Some(SessionEvent::Reconnected),
        };
        let mut out: Vec<LibOut> = event.map(|e| LibOut::Session(e)).into_iter().collect();
        out.extend(self.flush_queue(now));
        out
    }

    /// The reply to the oldest pending request (see [`ZkClient::stale`] for any other).
    fn reply(&mut self, xid: i32, zxid: Zxid, result: Result<Response, ErrorCode>) -> Vec<LibOut> {
        if self.pending.front().is_none_or(|(x, _)| *x != xid) {
            return Vec::new();
        }
        self.last_zxid = self.last_zxid.max(zxid);
        let Some((_, Call { request, .. })) = self.pending.pop_front() else {
            return Vec::new();
        };
        self.register_watch(&request, &result);
        vec![LibOut::Answer(Answer::Reply { request, result })]
    }

    /// Client-side tables, recorded when the reply arrives (`ZKWatchManager`).
    fn register_watch(&mut self, request: &Request, result: &Result<Response, ErrorCode>) {
        match (request, result) {
            (Request::Exists { path, watch: true }, Ok(Response::Exists { stat: Some(_) })) => {
                self.data_watches.insert(path.clone());
            }
            (Request::Exists { path, watch: true }, Ok(Response::Exists { stat: None })) => {
                self.exist_watches.insert(path.clone());
            }
            (Request::GetData { path, watch: true }, Ok(_)) => {
                self.data_watches.insert(path.clone());
            }
            (Request::GetChildren { path, watch: true }, Ok(_)) => {
                self.child_watches.insert(path.clone());
            }
            _ => {}
        }
    }

    /// The server closed the connection; while reconnecting in an ensemble that server refused
    /// the attempt (electing, or behind): the next one is tried at once.
    fn dropped(&mut self, now: Tick) -> Vec<LibOut> {
        if self.conn == Conn::Disconnected && self.hosts > 1 {
            self.next_host();
            self.tried = false;
            self.retry_at = Some(now + self.refused_delay());
            return Vec::new();
        }
        self.disconnect(now)
    }

    /// The connection is gone: pending requests fail with ConnectionLoss; retry soon.
    pub fn disconnect(&mut self, now: Tick) -> Vec<LibOut> {
        if matches!(self.conn, Conn::Closed | Conn::Disconnected | Conn::Expired) {
            return Vec::new();
        }
        let was_connecting = self.conn == Conn::Connecting;
        self.next_host();
        self.pass_from = self.host;
        self.tried = false;
        self.conn = if was_connecting {
            Conn::Connecting
        } else {
            Conn::Disconnected
        };
        self.retry_at = Some(now + self.reconnect_delay());
        self.disconnected_at = self.disconnected_at.or(Some(now));
        let mut out = self.fail_pending(ErrorCode::ConnectionLoss);
        if !was_connecting {
            out.push(LibOut::Session(SessionEvent::Disconnected));
            if self.drops_watches {
                out.extend(self.spend_watches());
            }
        }
        out
    }

    /// kazoo on SUSPENDED: every watcher is forgotten and called once with a NONE event (a
    /// data or exists watcher per path, and a child watcher per path).
    fn spend_watches(&mut self) -> Vec<LibOut> {
        let data: SortedSet<String> = self
            .data_watches
            .iter()
            .chain(&self.exist_watches)
            .cloned()
            .collect();
        let child = std::mem::take(&mut self.child_watches);
        self.data_watches.clear();
        self.exist_watches.clear();
        self.spent.extend(data.iter().chain(&child).cloned());
        data.into_iter()
            .chain(child)
            .map(|path| {
                LibOut::Answer(Answer::Event(crate::engine::WatchedEvent {
                    kind: crate::engine::EventType::None,
                    path,
                }))
            })
            .collect()
    }

    fn fail_pending(&mut self, e: ErrorCode) -> Vec<LibOut> {
        let failed: Vec<Request> = self.pending.drain(..).map(|(_, c)| c.request).collect();
        failed
            .into_iter()
            .map(|request| {
                LibOut::Answer(Answer::Reply {
                    request,
                    result: Err(e),
                })
            })
            .collect()
    }

    /// The server said the session is gone: everything pending fails, watches are dropped, and
    /// a new session is requested at once.
    fn expired(&mut self, now: Tick) -> Vec<LibOut> {
        self.conn = Conn::Expired;
        self.session = None;
        self.disconnected_at = None;
        let mut out = self.fail_pending(ErrorCode::SessionExpired);
        let queued: Vec<Request> = self.queued.drain(..).map(|c| c.request).collect();
        out.extend(queued.into_iter().map(|request| {
            LibOut::Answer(Answer::Reply {
                request,
                result: Err(ErrorCode::SessionExpired),
            })
        }));
        self.data_watches.clear();
        self.exist_watches.clear();
        self.child_watches.clear();
        out.push(LibOut::Session(SessionEvent::Expired));
        out.extend(self.start(now));
        out
    }

    /// Its wait before reconnecting: with several servers a tick (recorded: ~20 ms after the
    /// drop; `ClientCnxn` sleeps up to 1 s), with one a third of the timeout.
    pub(super) fn reconnect_delay(&self) -> Tick {
        if self.hosts > 1 {
            1
        } else {
            self.retry_period()
        }
    }

    fn retry_period(&self) -> Tick {
        (self.timeout / 3).max(1)
    }

    /// When the library wants to act on its own next (ping, read timeout, reconnect).
    pub fn fire(&mut self, now: Tick, timer: LibTimer) -> Vec<LibOut> {
        match timer {
            LibTimer::Ping => {
                self.last_sent = now;
                vec![LibOut::Send(Up::Ping)]
            }
            LibTimer::ReadTimeout if self.conn == Conn::Connecting => {
                // No answer to the connect: try again (the next server, in an ensemble).
                self.next_host();
                self.start(now)
            }
            LibTimer::ReadTimeout => self.disconnect(now),
            LibTimer::Reconnect => self.reconnect(now),
            LibTimer::Lost => self.expired(now),
            LibTimer::KeepAlive | LibTimer::Resend => Vec::new(),
        }
    }

    fn reconnect(&mut self, now: Tick) -> Vec<LibOut> {
        if std::mem::replace(&mut self.tried, true) {
            self.next_host();
        }
        self.retry_at = Some(now + self.retry_period());
        self.last_sent = now;
        match self.session {
            Some(session) => vec![LibOut::Send(Up::Reconnect {
                session,
                last_zxid: self.last_zxid,
                watches: self.watches(),
            })],
            None => self.start(now),
        }
    }

    /// Graceful close.
    pub fn close(&mut self) -> Vec<LibOut> {
        self.conn = Conn::Closed;
        self.pending.clear();
        self.queued.clear();
        vec![LibOut::Send(Up::Close)]
    }
}

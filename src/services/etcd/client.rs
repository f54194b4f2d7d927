//! The etcd client library: the request/answer library plus the session's lease keep-alive.

use super::service::{Call, Down};
use super::types::{Req, Resp};
use crate::services::api::{
    self, Claim, ClientLib, ConnState, LibCtx, LibTimer, SessionEvent, Tick,
};
use crate::services::reqlib::ReqLib;

type LibOut = api::LibOut<Req, Down>;

/// The etcd client library (`clientv3` with a `concurrency.Session`): requests with read
/// timeout and resend, and the lease keep-alive every third of its TTL.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Lib {
    pub req: ReqLib<Req>,
    /// (lease, period, next send).
    pub keepalive: Option<(i64, Tick, Tick)>,
}

impl Lib {
    pub fn new(read_timeout: Tick) -> Lib {
        Lib {
            req: ReqLib::new(read_timeout),
            keepalive: None,
        }
    }
}

impl ClientLib for Lib {
    type Call = Call;
    type Answer = Down;
    type Up = Req;
    type Down = Down;

    fn start(&mut self, _: Tick) -> Vec<LibOut> {
        Vec::new()
    }
    fn call(&mut self, now: Tick, call: Call) -> Vec<LibOut> {
        match call {
            Call::Req(r) => vec![LibOut::Send(self.req.sent(now, r))],
            Call::KeepAlive(k) => {
                self.keepalive = k.map(|(lease, every)| (lease, every, now + every));
                Vec::new()
            }
        }
    }
    /// A keep-alive answered with TTL <= 0: the lease is gone, and so is the session.
    fn receive(&mut self, _: Tick, msg: Down) -> Vec<LibOut> {
        if let Down::Watch(_) = msg {
            return vec![LibOut::Answer(msg)];
        }
        self.req.answered();
        match msg {
            Down::Resp(Resp::KeepAlive { ttl, .. }) if ttl <= 0 => {
                vec![LibOut::Session(SessionEvent::Expired)]
            }
            Down::Resp(Resp::KeepAlive { .. }) => Vec::new(),
            other => vec![LibOut::Answer(other)],
        }
    }
    fn next_timer(&self, ctx: LibCtx) -> Option<(Tick, LibTimer)> {
        let keepalive = self
            .keepalive
            .filter(|_| !ctx.app_done)
            .map(|(_, _, t)| (t, LibTimer::KeepAlive));
        let resend = self.req.resend_at().map(|t| (t, LibTimer::Resend));
        keepalive.into_iter().chain(resend).min()
    }
    fn fire(&mut self, now: Tick, timer: LibTimer) -> Vec<LibOut> {
        match (timer, self.keepalive) {
            (LibTimer::KeepAlive, Some((lease, every, _))) => {
                self.keepalive = Some((lease, every, now + every));
                vec![LibOut::Send(
                    self.req.sent(now, Req::LeaseKeepAlive { id: lease }),
                )]
            }
            (LibTimer::KeepAlive, None) => Vec::new(),
            _ => self.req.resend(now).map(LibOut::Send).into_iter().collect(),
        }
    }
    /// A graceful close revokes the session's lease, then the connection closes.
    fn close(&mut self, _: Tick, claim: &Claim<'_>) -> Vec<LibOut> {
        let revoke = claim.lease.map(|id| LibOut::Send(Req::LeaseRevoke { id }));
        revoke.into_iter().chain([LibOut::Hangup]).collect()
    }
    fn crash(&mut self) -> Vec<LibOut> {
        vec![LibOut::Hangup]
    }
    fn connection(&self) -> u32 {
        self.req.attempt
    }
    fn quiet(&self) -> bool {
        true
    }
    fn unanswered(&self) -> usize {
        self.req.unanswered.len()
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

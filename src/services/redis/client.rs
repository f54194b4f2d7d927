//! The Redis client library: one connection, a read timeout and a resend.

use super::{Reply, Up};
use crate::services::api::{
    self, Claim, ClientLib, ConnState, LibCtx, LibTimer, ServiceConfig, Tick,
};
use crate::services::reqlib::{ReqLib, Waits};

type Answer = Reply;
type LibOut = api::LibOut<Up, Answer>;

pub fn lib(cfg: &ServiceConfig) -> Lib {
    Lib::new(cfg.read_timeout())
}

impl Waits for Vec<String> {
    fn waits(&self) -> bool {
        false
    }
}

/// The Redis client library: one connection, read timeout and resend.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Lib(pub ReqLib<Up>);

impl Lib {
    pub fn new(read_timeout: Tick) -> Lib {
        Lib(ReqLib::new(read_timeout))
    }
}

impl ClientLib for Lib {
    type Call = Up;
    type Answer = Reply;
    type Up = Up;
    type Down = Reply;

    fn start(&mut self, _: Tick) -> Vec<LibOut> {
        Vec::new()
    }
    fn call(&mut self, now: Tick, call: Up) -> Vec<LibOut> {
        vec![LibOut::Send(self.0.sent(now, call))]
    }
    fn receive(&mut self, _: Tick, msg: Reply) -> Vec<LibOut> {
        self.0.answered();
        vec![LibOut::Answer(msg)]
    }
    fn next_timer(&self, _: LibCtx) -> Option<(Tick, LibTimer)> {
        self.0.resend_at().map(|t| (t, LibTimer::Resend))
    }
    fn fire(&mut self, now: Tick, _: LibTimer) -> Vec<LibOut> {
        self.0.resend(now).map(LibOut::Send).into_iter().collect()
    }
    fn close(&mut self, _: Tick, _: &Claim<'_>) -> Vec<LibOut> {
        vec![LibOut::Hangup]
    }
    fn crash(&mut self) -> Vec<LibOut> {
        vec![LibOut::Hangup]
    }
    fn connection(&self) -> u32 {
        self.0.attempt
    }
    fn quiet(&self) -> bool {
        true
    }
    fn unanswered(&self) -> usize {
        self.0.unanswered.len()
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

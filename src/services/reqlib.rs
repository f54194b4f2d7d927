//! The client library of a request/answer lock service (Redis, etcd, SQL): requests go out in
//! order on one connection, answers come back in order, and a request unanswered for the read
//! timeout is sent again (a lost reply and a cut link look the same to the client).

use std::collections::VecDeque;

use super::api::Tick;

/// A request that legitimately waits (a blocking `FOR UPDATE`) or that the next one replaces
/// (a keep-alive): never resent.
pub trait Waits {
    fn waits(&self) -> bool;
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ReqLib<R> {
    /// Requests sent and not yet answered, oldest first, with when they were (re)sent.
    pub unanswered: VecDeque<(R, Tick)>,
    /// Client read timeout (0: never resend).
    pub read_timeout: Tick,
    /// Counts the attempts given up: an answer to an earlier attempt is not the answer.
    pub attempt: u32,
}

impl<R: Clone + Waits> ReqLib<R> {
    pub fn new(read_timeout: Tick) -> Self {
        ReqLib {
            unanswered: VecDeque::new(),
            read_timeout,
            attempt: 0,
        }
    }

    /// Remembers a request on its way out.
    pub fn sent(&mut self, now: Tick, r: R) -> R {
        self.unanswered.push_back((r.clone(), now));
        r
    }

    /// An answer arrived: it is for the oldest request.
    pub fn answered(&mut self) {
        self.unanswered.pop_front();
    }

    /// When the oldest unanswered request will be sent again.
    pub fn resend_at(&self) -> Option<Tick> {
        let (req, at) = self.unanswered.front()?;
        (!req.waits() && self.read_timeout > 0).then(|| at + self.read_timeout)
    }

    /// Gives up on the oldest request's attempt and sends it again (what arrives for the old
    /// attempt is then stale).
    pub fn resend(&mut self, now: Tick) -> Option<R> {
        let front = self.unanswered.front_mut()?;
        front.1 = now;
        self.attempt = self.attempt.wrapping_add(1);
        Some(front.0.clone())
    }
}

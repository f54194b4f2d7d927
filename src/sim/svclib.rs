//! The client side of the lock services beside ZooKeeper: the recipe's poll timer, the etcd
//! session's keep-alive schedule, and the read timeout that resends an unanswered request.

use std::collections::VecDeque;

use super::client::Outgoing;
use super::types::Tick;
use crate::recipes::wire::{SvcAns, SvcReq};
#[cfg(feature = "services")]
use crate::services::etcd::types::Req;

/// The client side of a non-ZooKeeper lock service: the recipe's poll timer and the etcd
/// session's keep-alive schedule (lease, period, next send).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SvcLib {
    pub retry_at: Option<Tick>,
    pub keepalive: Option<(i64, Tick, Tick)>,
    /// Requests sent and not yet answered, oldest first, with when they were (re)sent.
    pub unanswered: VecDeque<(SvcReq, Tick)>,
    /// Client read timeout: an unanswered request is sent again after this long (a lost
    /// reply or a cut link looks the same to the client). Blocking `FOR UPDATE` waits.
    pub read_timeout: Tick,
    /// The client talks to ZooKeeper (its ZooKeeper library runs).
    pub zk: bool,
}

impl SvcLib {
    /// When the oldest unanswered request will be sent again (never for a blocking SQL
    /// statement, which legitimately waits, nor for keep-alives, which the next one replaces).
    pub(super) fn resend_at(&self) -> Option<Tick> {
        let (req, at) = self.unanswered.front()?;
        (!waits(req) && self.read_timeout > 0).then(|| at + self.read_timeout)
    }

    pub(super) fn resend(&mut self, now: Tick) -> Vec<Outgoing> {
        let Some(front) = self.unanswered.front_mut() else { return Vec::new() };
        front.1 = now;
        vec![Outgoing::Svc(front.0.clone())]
    }
}

/// A request that legitimately waits (a blocking `FOR UPDATE`) or that the next one replaces
/// (a keep-alive): never resent.
#[cfg(feature = "services")]
fn waits(req: &SvcReq) -> bool {
    use crate::services::sql::Stmt;
    matches!(req, SvcReq::Sql(Stmt::SelectForUpdate { nowait: false, .. }) | SvcReq::Etcd(Req::LeaseKeepAlive { .. }))
}

#[cfg(not(feature = "services"))]
fn waits(_: &SvcReq) -> bool {
    true
}

/// A pushed event (an etcd watch message) rather than the answer to a request.
pub fn is_event(a: &SvcAns) -> bool {
    #[cfg(feature = "services")]
    return matches!(a, SvcAns::Watch(_));
    #[cfg(not(feature = "services"))]
    match *a {}
}


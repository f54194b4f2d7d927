//! The lean bundle's stand-in for `svc`: a world without the other lock services only ever
//! hosts ZooKeeper, so each hook has its ZooKeeper answer.

use super::narrate::{Key, Narration};
use super::types::{ClientId, Payload, SvcUp, Tick};
use super::world::{Service, World};
use crate::recipes::ServiceKind;

impl World {
    pub(super) fn at_svc(&mut self, c: ClientId, _: SvcUp) -> Narration {
        Narration::new(Key::ClosedConnection, Some(c))
    }

    pub(super) fn svc_tick(&mut self) -> Narration {
        Narration::new(Key::ServiceTick, None)
    }

    pub(super) fn svc_deadline(&self) -> Option<Tick> {
        None
    }

    /// A ZooKeeper election is short next to the session timeout (a tick time here).
    pub(super) fn failover(&mut self) -> Narration {
        let Service::ZooKeeper(s) = &self.service;
        self.stall_until = self.now + s.config().tick_time_ms;
        Narration::new(Key::FailoverZk, None)
    }

    pub fn svc_says_holder(&self, _: ClientId) -> bool {
        false
    }

    pub fn svc_stuck(&self, _: ClientId) -> bool {
        false
    }

    pub fn service_kind(&self) -> ServiceKind {
        ServiceKind::ZooKeeper
    }
}

pub fn background(p: &Payload) -> bool {
    matches!(p, Payload::SvcUp(SvcUp::Hangup))
}

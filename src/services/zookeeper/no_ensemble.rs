//! The lean bundle's stand-in for the `ensemble` module: ZooKeeper runs standalone there, and a
//! run with several servers goes to the full bundle before it starts (`Scenario::needs_full`).
//! These types have no values, so the calls on them below are unreachable and compile to
//! nothing; they only let the full bundle's call sites stand unchanged.

use super::{Down, Entry, Up};
use crate::engine::SessionId;
use crate::narrate::Narration;
use crate::services::api::{
    Claim, ConnId, Outbox, ServerId, ServerInfo, ServiceConfig, Tick, Watch,
};

type Out = Outbox<Down, zab::Zab>;

/// No ensemble: a type without values.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ensemble {}

/// Methods that take `&self` and the given arguments and can never run: `match *self {}`.
macro_rules! never {
    ($($name:ident($($arg:ty),*) $(-> $ret:ty)?;)*) => {
        $(pub fn $name(&self, $(_: $arg),*) $(-> $ret)? { match *self {} })*
    };
}

impl Ensemble {
    /// Never an ensemble here.
    pub fn from_config(_: &ServiceConfig) -> Option<Box<Ensemble>> {
        None
    }

    never! {
        owner(SessionId) -> Option<ConnId>;
        serving(ConnId) -> ServerId;
        servers() -> Vec<ServerInfo>;
        leader() -> Option<ServerId>;
        next_deadline() -> Option<Tick>;
        timeless_deadline() -> Option<Tick>;
        tick(Tick, &mut Out) -> Narration;
        client(Tick, ServerId, ConnId, Up, &mut Out) -> Narration;
        hangup_at(ServerId, ConnId) -> Narration;
        expire_now(Tick, SessionId, ConnId, &mut Out) -> Option<Narration>;
        on_peer(Tick, ServerId, ServerId, zab::Zab, &mut Out) -> Narration;
        lost(ServerId, ServerId);
        crash(Tick, ServerId, &mut Out) -> Option<Narration>;
        pause(ServerId, Tick);
        restart(Tick, ServerId, bool, &mut Out) -> Option<Narration>;
        holds(&Claim<'_>) -> bool;
        session_entries(u64) -> usize;
        expires_in(Tick, &Claim<'_>) -> Option<i64>;
        entries() -> Vec<Entry>;
        watches() -> Vec<Watch>;
        stamp() -> i64;
        invariant() -> Option<&str>;
    }
}

pub mod zab {
    //! No messages between servers.

    use crate::services::api::Wire;
    use serde::{Deserialize, Serialize};

    /// A message between two servers of an ensemble: none here.
    #[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    pub enum Zab {}

    impl Zab {
        never! {
            label() -> String;
            is_heartbeat() -> bool;
            wire() -> Wire;
        }
    }
}

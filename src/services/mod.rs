//! Lock services, each a pure, deterministic server model with its client library behind one
//! interface ([`api`]): ZooKeeper (the engine behind an adapter) and, with the `services`
//! feature, Redis 7 and etcd 3.4 (checked against recordings of the real servers) and a SQL
//! lock table. The simulator, the monitors and the view only ever see the enums below, which
//! [`registry!`] generates from one list: adding a service is its folder plus a name here.

pub mod api;
pub mod look;
#[macro_use]
mod peers;
#[macro_use]
mod registry;
mod servers;
mod vocab;
pub mod zookeeper;

#[cfg(feature = "services")]
pub mod etcd;
#[cfg(feature = "services")]
pub mod redis;
#[cfg(feature = "services")]
pub mod redlock;
#[cfg(feature = "services")]
mod reqlib;
#[cfg(feature = "services")]
pub mod sql;

use serde::{Deserialize, Serialize};

pub use api::{
    on_server, server_of_id, Claim, ConnId, ConnState, LibCtx, LibTimer, Lifetime, NoPeer, Owner,
    ReplicaState, Role, ServerId, ServerInfo, ServiceConfig, SessionEvent, Tick, Watch, Wire,
    MAX_SERVERS,
};

/// How many masters a Redlock service has unless the scenario says otherwise.
pub const REDLOCK_MASTERS: u8 = 5;

/// Every lock service Lockstep knows, whether or not this build carries its model (the lean
/// bundle knows their names so it can hand a link for one over to the full bundle).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum ServiceKind {
    ZooKeeper,
    Redis,
    Etcd,
    Sql,
    Redlock,
}

impl ServiceKind {
    pub const ALL: [ServiceKind; 5] = [
        ServiceKind::ZooKeeper,
        ServiceKind::Redis,
        ServiceKind::Etcd,
        ServiceKind::Sql,
        ServiceKind::Redlock,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ServiceKind::ZooKeeper => "ZooKeeper",
            ServiceKind::Redis => "Redis",
            ServiceKind::Etcd => "etcd",
            ServiceKind::Sql => "SQL",
            ServiceKind::Redlock => "Redlock",
        }
    }

    /// Whether this build carries the service's model.
    pub fn available(self) -> bool {
        Service::carries(self)
    }

    /// How the view presents it (each service module's own [`look::Look`]).
    pub fn look(self) -> &'static look::Look {
        match self {
            ServiceKind::ZooKeeper => &zookeeper::LOOK,
            #[cfg(feature = "services")]
            ServiceKind::Redis => &redis::LOOK,
            #[cfg(feature = "services")]
            ServiceKind::Etcd => &etcd::LOOK,
            #[cfg(feature = "services")]
            ServiceKind::Sql => &sql::LOOK,
            #[cfg(feature = "services")]
            ServiceKind::Redlock => &redlock::LOOK,
            #[allow(unreachable_patterns)]
            _ => &look::ELSEWHERE,
        }
    }
}

/// Invokes `$mac!` with every lock service this build can carry, each with its `cfg`.
macro_rules! with_services {
    ($mac:ident) => {
        $mac! {
            #[cfg(all())] { ZooKeeper => zookeeper }
            #[cfg(feature = "services")] { Redis => redis, Etcd => etcd, Sql => sql, Redlock => redlock }
        }
    };
}

with_services!(registry);
with_services!(peers);

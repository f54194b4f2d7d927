//! Building a world's parts from a scenario: each client (library, recipe, application) and the
//! lock service as an operator would prepare it.

use super::app::{App, AppConfig};
use super::client::Client;
use super::rng::SimRng;
use super::scenario::Scenario;
use super::world::Service;
use super::zkclient::ZkClient;
use crate::engine::{Server, ServerConfig};
use crate::recipes::{Recipe, RecipeConfig, RecipeKind};

pub(super) fn make_client(sc: &Scenario, i: usize, rng: &mut SimRng) -> Client {
    let writer = !sc.readers.contains(&i);
    let cfg = RecipeConfig {
        kind: sc.recipe,
        writer,
        max_leases: sc.max_leases,
        uuid_seed: rng.next_u64(),
        lease: sc.lease,
        poll: sc.poll,
        ttl_repair: sc.ttl_repair,
    };
    let timeout = sc.timeouts.iter().find(|(c, _)| *c == i).map(|(_, t)| *t).or(sc.acquire_timeout);
    let app_cfg = AppConfig {
        hold_min: sc.hold_min,
        hold_max: sc.hold_max,
        think_min: sc.think_min,
        think_max: sc.think_max,
        rounds: sc.rounds,
        writer: writer || sc.recipe != RecipeKind::Rwlock,
        nesting: sc.nesting,
        acquire_timeout: timeout,
        resource_io: sc.resource_io,
    };
    let start = 1 + rng.range(0, sc.start_spread);
    let mut client = Client::new(i, ZkClient::new(sc.session_timeout), Recipe::new(&cfg), App::new(app_cfg, start));
    client.svc.read_timeout = if sc.timeless { 0 } else { sc.session_timeout };
    client
}

/// The scenario's lock service, prepared as an operator would: ZooKeeper with `/locks`, a
/// SQL table with the lock row that `FOR UPDATE` needs, Redis with its replica if asked.
pub(super) fn make_service(sc: &Scenario) -> Service {
    use crate::recipes::ServiceKind;
    match sc.recipe.service() {
        ServiceKind::ZooKeeper => zookeeper(sc),
        #[cfg(feature = "services")]
        ServiceKind::Redis => Service::Redis(crate::services::redis::Redis::new(sc.replica_lag)),
        #[cfg(feature = "services")]
        ServiceKind::Etcd => Service::Etcd(crate::services::etcd::Etcd::new()),
        #[cfg(feature = "services")]
        ServiceKind::Sql => {
            let mut sql = crate::services::sql::Sql::default();
            if sc.recipe == RecipeKind::SqlRowLock {
                let row = crate::services::sql::Stmt::Insert { name: crate::recipes::sql::ROW.into(), owner: "-".into(), ttl: None };
                sql.execute(0, u32::MAX, row);
            }
            Service::Sql(sql)
        }
        #[cfg(not(feature = "services"))]
        _ => zookeeper(sc),
    }
}

fn zookeeper(sc: &Scenario) -> Service {
    let mut server = Server::new(ServerConfig { tick_time_ms: sc.tick_time, container_check_ms: None });
    if sc.lock_dir_exists {
        precreate_lock_dir(&mut server);
    }
    Service::ZooKeeper(server)
}

/// An operator created `/locks` before the run (one admin session: connect, create, close).
fn precreate_lock_dir(server: &mut Server) {
    use crate::engine::{CreateMode, Input, Output, Request};
    let out = server.handle(0, Input::Connect { timeout_ms: 0 });
    let Some(Output::Connected { session, .. }) = out.into_iter().next() else { return };
    let request = Request::Create { path: crate::recipes::LOCK_DIR.into(), data: Some(Vec::new()), mode: CreateMode::Persistent };
    server.handle(0, Input::Request { session, xid: 1, request });
    server.handle(0, Input::Close { session });
}

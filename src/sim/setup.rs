//! Building a world's parts from a scenario: each client (library, recipe, application) and the
//! lock service as an operator would prepare it.

use super::app::{App, AppConfig};
use super::client::Client;
use super::rng::SimRng;
use super::scenario::{KazooIdentifier, Scenario};
use crate::recipes::{Recipe, RecipeConfig, RecipeKind, LOCK_DIR};
use crate::services::{zookeeper, Lib, Service, ServiceConfig, ServiceKind};

/// The service this build can host for the scenario (a lean build without the recipe's
/// service falls back to ZooKeeper; its page hands such scenarios over before that).
fn kind(sc: &Scenario) -> ServiceKind {
    Some(sc.recipe.service())
        .filter(|k| k.available())
        .unwrap_or(ServiceKind::ZooKeeper)
}

fn config(sc: &Scenario) -> ServiceConfig {
    ServiceConfig {
        tick_time: sc.tick_time,
        lock_dir: sc
            .lock_dir_exists
            .then(|| sc.lock_path.clone().unwrap_or_else(|| LOCK_DIR.to_string())),
        replica_lag: sc.replica_lag,
        lock_row: sc.recipe.operator_row().map(str::to_string),
        session_timeout: sc.session_timeout,
        timeless: sc.timeless,
        lost_after_timeout: sc.recipe.curator_framework(),
        backoff_after_pass: sc.recipe == crate::recipes::RecipeKind::Kazoo,
        kazoo: sc.recipe == crate::recipes::RecipeKind::Kazoo,
        ensemble: sc.ensemble,
        masters: sc.masters,
        clocks: sc.clocks.clone(),
        delayed_restart: sc.delayed_restart,
        max_ttl: sc.lease,
        offline_queue: sc.enable_offline_queue,
    }
}

/// Client `i`, placed on one of the service's `servers` (a ZooKeeper client's connect string).
pub(super) fn make_client(sc: &Scenario, i: usize, servers: usize, rng: &mut SimRng) -> Client {
    let writer = !sc.readers.contains(&i);
    let observer = sc.observers.contains(&i);
    let cfg = RecipeConfig {
        kind: match observer {
            true => RecipeKind::Observer,
            false => sc.recipe,
        },
        writer,
        max_leases: sc.max_leases,
        uuid_seed: rng.next_u64(),
        lease: sc.lease,
        poll: sc.poll,
        ttl_repair: sc.ttl_repair,
        client: i,
        lock_path: sc.lock_path.clone(),
        identifier: (sc.kazoo_identifier == KazooIdentifier::Label).then(|| format!("C{}", i + 1)),
        masters: sc.masters.unwrap_or(crate::services::REDLOCK_MASTERS),
        retry_count: sc.retry_count,
        program: sc.program.as_deref().map(std::sync::Arc::from),
    };
    let timeout = sc
        .timeouts
        .iter()
        .find(|(c, _)| *c == i)
        .map(|(_, t)| *t)
        .or(sc.acquire_timeout);
    let app_cfg = AppConfig {
        hold_min: sc.hold_min,
        hold_max: sc.hold_max,
        think_min: sc.think_min,
        think_max: sc.think_max,
        rounds: if observer { 0 } else { sc.rounds },
        writer: writer || sc.recipe != RecipeKind::Rwlock,
        nesting: sc.nesting,
        acquire_timeout: timeout,
        resource_io: sc.resource_io,
        observes: observer,
    };
    let start = 1 + rng.range(0, sc.start_spread);
    let (kind, svc) = (kind(sc), config(sc));
    let mut lib = Lib::new(kind, &svc).unwrap_or_else(|| Lib::ZooKeeper(zookeeper::lib(&svc)));
    lib.place(i, servers);
    let mut app = App::new(app_cfg, start);
    if observer {
        app.state = super::app::AppState::Done; // it reads only when a command asks
    }
    let mut client = Client::new(i, lib, Recipe::new(&cfg), app);
    client.retry_base = sc.retry_sleep;
    client
}

/// The scenario's lock service, prepared as an operator would: ZooKeeper with `/locks`, a
/// SQL table with the lock row that `FOR UPDATE` needs, Redis with its replica if asked.
pub(super) fn make_service(sc: &Scenario) -> Service {
    let svc = config(sc);
    Service::new(kind(sc), &svc).unwrap_or_else(|| Service::ZooKeeper(zookeeper::service(&svc)))
}

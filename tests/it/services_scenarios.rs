//! Scenario tests for the lock services beside ZooKeeper, named after the protocol step or the
//! failure they show, run on the presets the UI offers.

use lockstep::recipes::RecipeKind;
use lockstep::sim::narrate::Key;
use lockstep::sim::presets;
use lockstep::sim::world::Service;
use lockstep::sim::{Command, Scenario, Simulation, StepRecord, TimedCommand};

fn run(id: &str) -> Simulation {
    run_scenario(presets::find(id).expect("preset").scenario())
}

fn run_scenario(sc: Scenario) -> Simulation {
    let mut sim = Simulation::new(sc);
    sim.run_steps(3000);
    sim
}

fn sent<'a>(sim: &'a Simulation, prefix: &'a str) -> impl Iterator<Item = &'a StepRecord> + 'a {
    sim.records()
        .iter()
        .filter(move |r| r.narration.key == Key::SvcRequest && r.narration.a.starts_with(prefix))
}

#[test]
fn sql_insert_holder_crash_leaves_its_row_and_the_waiters_poll_forever() {
    let sim = run("sql-crash");
    let w = sim.world();
    assert!(w.monitors.stuck.is_some(), "the stuck monitor must notice");
    let Service::Sql(sql) = &w.service else {
        panic!()
    };
    assert_eq!(sql.rows.len(), 1, "the committed row outlives its owner");
    assert!(sent(&sim, "INSERT").count() > 20, "waiters keep polling");
    assert_eq!(
        w.clients[1].app.acquisitions + w.clients[2].app.acquisitions,
        0
    );
}

#[test]
fn sql_lease_takeover_after_expiry_bumps_the_fence_and_fencing_rejects_the_zombie() {
    let sim = run("sql-lease");
    let w = sim.world();
    let takeover = sent(&sim, "UPDATE").find(|r| matches!(&r.narration.b, lockstep::sim::narrate::Detail::Text(t) if t == "UPDATE 1")).expect("a takeover");
    assert!(
        takeover.time >= 2 + 60,
        "only after the 60-tick lease ran out (at {})",
        takeover.time
    );
    assert!(
        w.monitors.belief.is_some(),
        "the paused holder still believes"
    );
    assert!(w.resource.rejected >= 1, "its stale write is fenced off");
    assert!(w.monitors.lost_update.is_none());
}

#[test]
fn select_for_update_blocks_in_the_server_and_a_crash_releases_at_once() {
    let sim = run("sql-row-lock");
    let w = sim.world();
    assert!(
        sim.records()
            .iter()
            .any(|r| r.narration.key == Key::SvcBlocked),
        "waiters block, not poll"
    );
    let hangup = sim
        .records()
        .iter()
        .find(|r| r.narration.key == Key::SvcRollback)
        .expect("the server sees the close");
    let next_hold = sim
        .records()
        .iter()
        .find(|r| {
            r.index > hangup.index
                && r.narration.client == Some(1)
                && r.narration.phase == Some(lockstep::recipes::Phase::Holding)
        })
        .unwrap();
    assert_eq!(
        next_hold.time,
        hangup.time + 1,
        "C2's blocked SELECT returns as soon as C1's transaction is rolled back"
    );
    assert_eq!(
        w.metrics.requests,
        2 * 3 + 2,
        "BEGIN + SELECT per client, COMMIT per finished holder: no polling"
    );
    assert!(w.monitors.belief.is_none() && w.monitors.stuck.is_none());
}

#[test]
fn redis_crash_between_setnx_and_expire_leaves_a_key_without_ttl_forever() {
    let sim = run("redis-setnx-crash");
    let w = sim.world();
    let Service::Redis(r) = &w.service else {
        panic!()
    };
    assert_eq!(
        r.db.keys.get("lock").map(|e| e.expire_at),
        Some(None),
        "TTL -1"
    );
    assert!(w.monitors.stuck.is_some());
    assert!(
        sent(&sim, "EXPIRE").next().is_none(),
        "C1 never sent EXPIRE"
    );
}

#[test]
fn redis_ttl_minus_one_repair_lets_the_waiters_in_after_the_ttl() {
    let sim = run("redis-setnx-repair");
    let w = sim.world();
    let repair = sent(&sim, "EXPIRE lock 2")
        .next()
        .expect("a waiter repairs the key");
    assert!(sent(&sim, "TTL lock")
        .any(|r| matches!(&r.narration.b, lockstep::sim::narrate::Detail::Text(t) if t == ":-1")));
    assert!(w.clients[1].app.acquisitions + w.clients[2].app.acquisitions >= 2);
    let first = sim
        .records()
        .iter()
        .find(|r| {
            r.narration.phase == Some(lockstep::recipes::Phase::Holding)
                && r.narration.client != Some(0)
        })
        .unwrap();
    assert!(
        first.time >= repair.time + 2000,
        "the repaired key lives for its 2 s TTL"
    );
    assert!(w.monitors.stuck.is_none());
    assert!(
        sent(&sim, "WATCH lock").count() >= 2 && sent(&sim, "EXEC").count() >= 2,
        "release by WATCH/MULTI/EXEC"
    );
}

#[test]
fn redis_lease_expiring_during_a_pause_makes_two_holders_and_loses_an_update() {
    let sim = run("redis-lease-pause");
    let m = &sim.world().monitors;
    assert!(m.belief.is_some() && m.lost_update.is_some(), "{m:?}");
    assert!(m.ownership.is_none(), "Redis itself only ever had one key");
    assert_eq!(
        sim.world().resource.rejected,
        0,
        "no token to fence with: fencing on changes nothing"
    );
    let cad = sent(&sim, "EVAL").collect::<Vec<_>>();
    assert!(
        cad.iter().any(
            |r| matches!(&r.narration.b, lockstep::sim::narrate::Detail::Text(t) if t == ":0")
        ),
        "C1's compare-and-delete finds C2's token"
    );
}

#[test]
fn redis_failover_before_replication_loses_an_acknowledged_lock() {
    let sim = run("redis-failover");
    let w = sim.world();
    assert!(sim
        .records()
        .iter()
        .any(|r| r.narration.key == Key::FailoverRedis));
    assert!(w.monitors.belief.is_some(), "C1 and C2 both hold");
    assert_eq!(w.clients[0].app.acquisitions, 1);
    assert_eq!(w.clients[1].app.acquisitions, 1);
}

#[test]
fn etcd_mutex_queues_by_create_revision_and_each_release_wakes_one_waiter() {
    let sim = run("etcd-mutex");
    let w = sim.world();
    let watch_events: Vec<_> = sim
        .records()
        .iter()
        .filter(|r| r.narration.key == Key::SvcWatchEvent)
        .collect();
    assert_eq!(watch_events.len(), 3, "one DELETE per hand-off");
    let mut tokens: Vec<i64> = w.resource.writes.iter().map(|wr| wr.token).collect();
    let sorted = {
        let mut t = tokens.clone();
        t.sort();
        t
    };
    assert_eq!(tokens, sorted, "create revisions grow with every holder");
    tokens.dedup();
    assert_eq!(tokens.len(), 4);
    assert!(w.monitors.belief.is_none());
}

#[test]
fn etcd_lease_expiry_during_a_pause_is_caught_by_create_revision_fencing() {
    let sim = run("etcd-pause-fenced");
    let w = sim.world();
    assert!(
        sim.records()
            .iter()
            .any(|r| r.narration.key == Key::SvcExpiry),
        "the lessor revokes C1's lease"
    );
    assert!(w.monitors.belief.is_some());
    assert!(w.resource.rejected >= 1 && w.monitors.lost_update.is_none());
}

#[test]
fn etcd_leader_change_rearms_leases_and_makes_no_second_holder() {
    let sim = run("etcd-leader-change");
    let w = sim.world();
    assert!(sim
        .records()
        .iter()
        .any(|r| r.narration.key == Key::FailoverEtcd));
    assert!(w.monitors.belief.is_none() && w.monitors.lost_update.is_none());
    assert_eq!(w.clients.iter().map(|c| c.app.acquisitions).sum::<u64>(), 2);
}

#[test]
fn etcd_3_4_waiter_whose_lease_expired_is_still_told_locked() {
    // C2 waits behind C1 and stalls past its lease; C1 releases; C2 wakes, finds no predecessor
    // and (like 3.4.23's Lock) returns "locked" although its own key is gone.
    let sc = Scenario {
        recipe: RecipeKind::EtcdMutex,
        clients: 2,
        latency_min: 1,
        latency_max: 1,
        start_spread: 0,
        hold_min: 3000,
        hold_max: 3000,
        faults: vec![TimedCommand {
            at: 20,
            command: Command::Pause {
                client: 1,
                ticks: 3500,
            },
        }],
        ..Scenario::default()
    };
    let sim = run_scenario(sc);
    let holds_without_key = sim.records().iter().any(|r| {
        r.narration.client == Some(1)
            && r.narration.phase == Some(lockstep::recipes::Phase::Holding)
    });
    assert!(holds_without_key, "C2 is told it holds the lock");
    assert!(
        sim.world().monitors.ownership.is_none(),
        "the service never had two owners"
    );
}

#[test]
fn redis_lost_set_reply_is_resent_and_the_client_locks_itself_out_until_the_ttl() {
    let sc = Scenario {
        recipe: RecipeKind::RedisLease,
        clients: 1,
        latency_min: 1,
        latency_max: 1,
        start_spread: 0,
        lease: 200,
        faults: vec![TimedCommand {
            at: 1,
            command: Command::DropReply { client: 0 },
        }],
        ..Scenario::default()
    };
    let sim = run_scenario(sc);
    let sets: Vec<_> = sent(&sim, "SET lock").collect();
    assert!(
        matches!(&sets[1].narration.b, lockstep::sim::narrate::Detail::Text(t) if t == "$-1"),
        "the resent SET NX finds the client's own key"
    );
    let held = sim
        .records()
        .iter()
        .find(|r| r.narration.phase == Some(lockstep::recipes::Phase::Holding))
        .unwrap();
    assert!(
        held.time >= 200,
        "locked out by its own key until the TTL ran out (held at {})",
        held.time
    );
}

#[test]
fn sql_insert_lost_reply_blocks_the_client_on_its_own_row() {
    let sc = Scenario {
        recipe: RecipeKind::SqlInsert,
        clients: 2,
        latency_min: 1,
        latency_max: 1,
        start_spread: 0,
        faults: vec![TimedCommand {
            at: 1,
            command: Command::DropReply { client: 0 },
        }],
        ..Scenario::default()
    };
    let sim = run_scenario(sc);
    assert!(sim
        .records()
        .iter()
        .any(|r| r.narration.key == Key::TimerResend));
    assert!(
        sim.world().monitors.stuck.is_some(),
        "a row owned by a live client that will never delete it"
    );
}

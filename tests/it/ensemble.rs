//! A ZooKeeper ensemble, step by step (reference §13): a write through a follower is forwarded,
//! proposed, acknowledged by a quorum, committed and applied by every server; the leader's
//! crash keeps a granted lock (same node, same owner, same session) while Redis's failover
//! loses it; the new leader's zxids carry the next epoch; a server cut off from the quorum stops
//! serving and its client moves on with its session (both key frames).

use lockstep::recipes::RecipeKind;
use lockstep::services::zookeeper::ensemble::{epoch_of, Ensemble};
use lockstep::services::{Role, Service};
use lockstep::sim::narrate::Key;
use lockstep::sim::{presets, Command, Lang, Scenario, Simulation, TimedCommand};
use lockstep::view::compare::column_scenario;

fn ensemble(sim: &Simulation) -> &Ensemble {
    match &sim.world().service {
        Service::ZooKeeper(z) => z.ensemble.as_deref().expect("an ensemble"),
        #[allow(unreachable_patterns)]
        _ => panic!("not ZooKeeper"),
    }
}

fn run(sc: Scenario, steps: u64) -> Simulation {
    let mut sim = Simulation::new(sc);
    for _ in 0..steps {
        if !sim.step() {
            break;
        }
    }
    sim
}

fn preset(id: &str) -> Scenario {
    (presets::find(id).expect("preset").build)()
}

fn keys(sim: &Simulation) -> Vec<Key> {
    sim.records().iter().map(|r| r.narration.key).collect()
}

/// C1's lock node on server `s` (path, owner session).
fn lock_nodes(e: &Ensemble, s: usize) -> Vec<(String, u64)> {
    e.members[s]
        .db
        .tree()
        .iter()
        .filter(|(p, _)| p.starts_with("/locks/"))
        .filter_map(|(p, n)| match n.kind {
            lockstep::engine::NodeKind::Ephemeral(o) => Some((p.to_string(), o.0)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_write_through_a_follower_is_forwarded_proposed_acked_committed_then_applied_everywhere() {
    let sc = Scenario {
        faults: vec![],
        ..preset("zk-leader-crash")
    };
    let sim = run(sc, 400);
    let k = keys(&sim);
    // From the first forwarded write on: propose, ACK, commit, apply, in that order.
    let mut at = k
        .iter()
        .position(|x| *x == Key::ZabForward)
        .expect("forwarded");
    for key in [Key::ZabPropose, Key::ZabAck, Key::ZabCommit, Key::ZabApply] {
        at += k[at..].iter().position(|x| *x == key).expect("step");
    }
    let e = ensemble(&sim);
    let last: Vec<i64> = e.members.iter().map(|m| m.db.last_zxid()).collect();
    assert!(last.iter().all(|z| *z == last[0]), "{last:?}");
    assert_eq!(lock_nodes(e, 0), lock_nodes(e, 2));
    assert_eq!(e.invariant(), None);
}

#[test]
fn the_leader_dies_after_the_grant_and_the_lock_node_survives_with_its_owner() {
    let sim = run(preset("zk-leader-crash"), 3000);
    let w = sim.world();
    assert_eq!(w.monitors.belief, None, "two believers");
    assert_eq!(w.monitors.ownership, None);
    let e = ensemble(&sim);
    assert_eq!(e.invariant(), None);
    let roles: Vec<Role> = e.servers().iter().map(|s| s.role).collect();
    assert_eq!(roles, [Role::Follower, Role::Leader, Role::Down]);
    // The new leader's transactions carry epoch 2; the first has counter 1.
    let applied: Vec<i64> = e.members[1].applied.iter().map(|p| p.zxid).collect();
    let first_new = applied
        .iter()
        .find(|z| epoch_of(**z) == 2)
        .expect("epoch 2");
    assert_eq!(*first_new, (2 << 32) | 1);
    // C1 held the lock through the crash, with the session it had before it.
    let k = keys(&sim);
    assert!(k.contains(&Key::ZabEstablished));
    let opened = sim
        .records()
        .iter()
        .filter(|r| r.narration.key == Key::ConnectArrives && r.narration.client == Some(0))
        .count();
    assert_eq!(opened, 1, "C1 opened one session only");
}

#[test]
fn the_same_failover_on_redis_primary_and_replica_gives_two_holders() {
    let redis = column_scenario(&preset("zk-leader-crash"), RecipeKind::RedisLease);
    let sim = run(redis, 3000);
    assert!(
        sim.world().monitors.belief.is_some(),
        "Redis keeps one holder?"
    );
}

#[test]
fn a_server_cut_off_from_the_quorum_stops_serving_and_the_majority_keeps_the_lock() {
    let sim = run(preset("zk-minority"), 3000);
    let w = sim.world();
    assert_eq!(w.monitors.belief, None);
    let e = ensemble(&sim);
    assert_eq!(e.invariant(), None);
    assert!(keys(&sim).contains(&Key::ZabLeaderLost));
    assert_eq!(lock_nodes(e, 1).len(), lock_nodes(e, 2).len());
    // Why it stopped, in words a reader of either language can follow.
    let lost = sim.records().iter().map(|r| &r.narration);
    let lost = lost.filter(|n| n.key == Key::ZabLeaderLost).last().unwrap();
    assert!(
        lost.text(Lang::En)
            .contains("(no word from zk-3 for syncLimit ticks)"),
        "{}",
        lost.text(Lang::En)
    );
    let zh = lost.text(Lang::Zh);
    assert!(
        zh.contains("（syncLimit 个时钟单位内没有 zk-3 的消息）"),
        "{zh}"
    );
}

#[test]
fn a_crashed_follower_restarts_from_disk_and_syncs_with_a_diff() {
    let sc = Scenario {
        faults: vec![
            TimedCommand {
                at: 3,
                command: Command::CrashServer { server: 0 },
            },
            TimedCommand {
                at: 30,
                command: Command::RestartServer {
                    server: 0,
                    keep_disk: true,
                },
            },
        ],
        ..preset("zk-leader-crash")
    };
    let sim = run(sc, 3000);
    let e = ensemble(&sim);
    assert_eq!(e.invariant(), None);
    assert_eq!(e.members[0].db.last_zxid(), e.members[2].db.last_zxid());
    assert!(keys(&sim).contains(&Key::ZabSync));
}

/// F13: a kazoo client whose `acquire` times out while another holds the lock deletes its own
/// contender node, a transaction like any other: every server applies the create and then the
/// delete, and the holder keeps its lock.
#[test]
fn a_kazoo_acquire_that_times_out_deletes_its_node_on_every_server() {
    let sc = Scenario {
        recipe: RecipeKind::Kazoo,
        faults: vec![],
        timeouts: vec![(1, 12)],
        rounds: 1,
        ..preset("zk-leader-crash")
    };
    let sim = run(sc, 3000);
    let recs = sim.records();
    let plain = |p: &String| p.rsplit(':').next().unwrap_or(p).to_string();
    let mut nodes: Vec<String> = recs
        .iter()
        .flat_map(|r| r.created.iter().map(plain))
        .collect();
    nodes.sort();
    nodes.dedup();
    let path = nodes
        .iter()
        .find(|p| p.ends_with("__lock__0000000001"))
        .expect("C2's contender node")
        .clone();
    let said = |r: &&lockstep::sim::StepRecord, what: &str| {
        r.narration.client == Some(1) && r.narration.text(lockstep::sim::Lang::En).contains(what)
    };
    let timeout = recs
        .iter()
        .position(|r| r.narration.key == Key::TimerAcquireTimeout)
        .expect("C2's acquire timed out");
    let deleted = recs
        .iter()
        .position(|r| said(&r, "answer to delete: ok"))
        .expect("C2 deleted its node");
    assert!(timeout < deleted, "the delete follows the timeout");
    let c2_held = recs.iter().any(|r| {
        r.narration.client == Some(1)
            && r.narration.phase == Some(lockstep::recipes::Phase::Holding)
    });
    assert!(!c2_held, "C2 never held the lock");
    assert!(
        recs.iter().any(|r| r.narration.client == Some(0)
            && r.narration.phase == Some(lockstep::recipes::Phase::Holding)),
        "C1 held it"
    );
    let e = ensemble(&sim);
    for s in 0..3 {
        assert!(
            e.members[s].db.tree().get(&path).is_none(),
            "zk-{}: {path} still there",
            s + 1
        );
    }
    assert_eq!(e.invariant(), None);
}

#[test]
fn a_cut_off_server_stopping_and_the_holder_resuming_elsewhere_are_key_frames() {
    use lockstep::sim::moments::{self, Kind};
    use lockstep::sim::Lang;
    let p = presets::find("zk-minority").unwrap();
    let mut sim = Simulation::new(p.scenario());
    sim.run_steps(3000);
    let found = moments::find(&sim, p.moments);
    let caption = |k: Kind| {
        let m = found.iter().find(|m| m.kind == k);
        m.unwrap_or_else(|| panic!("no {k:?} in {found:?}"))
            .caption(Lang::En)
    };
    let minority = caption(Kind::Minority);
    assert!(
        minority.starts_with("zk-1 is cut off from the majority"),
        "{minority}"
    );
    assert!(
        minority.contains("the majority (zk-2 and zk-3) goes on"),
        "{minority}"
    );
    let resumed = caption(Kind::Resumed);
    assert!(
        resumed.starts_with("C1 resumes its session on zk-2"),
        "{resumed}"
    );
    // The leader's crash in zk-leader-crash leaves no minority: its followers elect anew.
    let p = presets::find("zk-leader-crash").unwrap();
    let mut sim = Simulation::new(p.scenario());
    sim.run_steps(3000);
    let kinds = [Kind::Minority, Kind::Resumed];
    let found = moments::find(&sim, &kinds);
    assert!(!found.iter().any(|m| m.kind == Kind::Minority), "{found:?}");
}

/// The leader's line on the stage counts a proposal's acknowledgements: its own first (1 of 3),
/// then a follower's, which makes the quorum and commits it (2 of 3 → committed).
#[test]
fn the_leaders_ack_counter_reaches_a_quorum_before_the_commit() {
    let mut sim = Simulation::new(preset("zk-leader-crash"));
    sim.compute_ahead(400, 400);
    let mut seen = Vec::new();
    for step in 1..=sim.len().min(400) {
        sim.seek(step);
        let leader = sim
            .world()
            .service
            .servers()
            .into_iter()
            .find(|s| s.role == Role::Leader);
        let Some(note) = leader.and_then(|s| s.note) else {
            continue;
        };
        if seen.last() != Some(&note[0]) {
            seen.push(note[0].clone());
        }
    }
    let open = seen
        .iter()
        .position(|n| n.ends_with("ACK 1/3 · commit at 2"));
    let done = seen.iter().position(|n| n.contains("ACK 2/3 → committed"));
    assert!(
        matches!((open, done), (Some(a), Some(b)) if a < b),
        "the leader's lines: {seen:?}"
    );
    assert!(seen.iter().all(|n| !n.contains("ACK 0/")), "{seen:?}");
}

//! Servers as nodes, step by step: a Redis primary answers a write before it replicates it,
//! its replication stream travels the network as messages (delayed, lost in a split, dying with
//! a crashed primary), a failover moves every client to the promoted replica, a restarted
//! replica resynchronises in full — and single-server services stay one server with no traffic
//! between servers.

use lockstep::recipes::RecipeKind;
use lockstep::services::Role;
use lockstep::sim::narrate::Key;
use lockstep::sim::types::{Node, Payload};
use lockstep::sim::{presets, Command, Scenario, Simulation, TimedCommand};

fn at(at: u64, command: Command) -> TimedCommand {
    TimedCommand { at, command }
}

fn redis(faults: Vec<TimedCommand>) -> Scenario {
    Scenario {
        replica_lag: Some(2),
        hold_min: 20,
        hold_max: 20,
        lease: 2000,
        faults,
        fencing: true,
        recipe: RecipeKind::RedisLease,
        clients: 2,
        latency_min: 1,
        latency_max: 1,
        start_spread: 0,
        ..Scenario::default()
    }
}

fn roles(sim: &Simulation) -> Vec<Role> {
    sim.world()
        .service
        .servers()
        .iter()
        .map(|s| s.role)
        .collect()
}

/// The ids of the keys on the stage now (server 1's copies as `@1:key`).
fn keys(sim: &Simulation) -> Vec<String> {
    let w = sim.world();
    w.service.entries(w.now).iter().map(|e| e.id()).collect()
}

/// The first step that put a message between servers on the network.
fn first_peer_send(sim: &mut Simulation) -> u64 {
    for step in 1..=sim.len() {
        sim.seek(step);
        let w = sim.world();
        let sent = &sim.records()[step as usize - 1].sent;
        let peer = |p: &Payload| matches!(p, Payload::Peer(_));
        let on_wire = w.net.in_flight().chain(w.net.lost());
        if on_wire
            .filter(|e| sent.contains(&e.id))
            .any(|e| peer(&e.payload))
        {
            return step;
        }
    }
    panic!("no message between servers");
}

#[test]
fn the_primary_answers_first_and_a_split_loses_the_replication_write() {
    let mut sim = Simulation::new(presets::find("redis-split").unwrap().scenario());
    sim.run_steps(3000);
    let step = first_peer_send(&mut sim);
    let w = sim.world();
    let lost: Vec<_> = w.net.lost().filter(|e| e.from == Node::Server(0)).collect();
    assert_eq!(lost.len(), 1, "the stream's write is lost at step {step}");
    assert_eq!(lost[0].to, Node::Server(1));
    assert!(lost[0].payload.label().contains("SET lock"));
    assert_eq!(roles(&sim), [Role::Primary, Role::Replica]);
    assert!(
        keys(&sim).contains(&"lock".to_string()),
        "the primary has the lock"
    );
    assert!(
        !keys(&sim).iter().any(|k| k.starts_with("@1:")),
        "the replica has nothing"
    );
    sim.seek(sim.len());
    assert_eq!(roles(&sim), [Role::Down, Role::Primary]);
    assert!(
        sim.world().monitors.belief.is_some(),
        "two clients hold the lock"
    );
    let to_new = sim.records().iter().filter_map(|r| r.delivered.as_ref());
    assert!(to_new
        .clone()
        .any(|d| d.to == Node::Server(1) && d.label.starts_with("SET lock")));
}

#[test]
fn without_faults_the_replica_applies_the_write_after_the_lag() {
    let mut sim = Simulation::new(redis(Vec::new()));
    sim.run_steps(3000);
    let set = sim
        .records()
        .iter()
        .find(|r| r.created.contains(&"lock".to_string()));
    let copied = sim
        .records()
        .iter()
        .find(|r| r.created.contains(&"@1:lock".to_string()));
    let (set, copied) = (set.expect("SET"), copied.expect("a copy on the replica"));
    assert!(
        copied.time >= set.time + 2,
        "{} then {}",
        set.time,
        copied.time
    );
    assert_eq!(copied.narration.key, Key::PeerApplied);
    assert_eq!(sim.world().monitors.belief, None);
}

#[test]
fn a_crashed_primary_loses_its_replication_buffer_and_the_failover_moves_every_client() {
    let sc = Scenario {
        replica_lag: Some(5),
        ..redis(vec![at(3, Command::Failover)])
    };
    let mut sim = Simulation::new(sc);
    sim.run_steps(3000);
    assert!(
        !sim.records()
            .iter()
            .any(|r| r.narration.key == Key::PeerSent),
        "the buffered write never left the crashed primary"
    );
    let w = sim.world();
    assert_eq!(roles(&sim), [Role::Down, Role::Primary]);
    assert!((0..2).all(|c| w.server_of(c) == Node::Server(1)));
    assert!(w.monitors.belief.is_some());
}

#[test]
fn a_replica_restarted_empty_gets_a_full_resync() {
    let faults = vec![
        at(6, Command::CrashServer { server: 1 }),
        at(
            9,
            Command::RestartServer {
                server: 1,
                keep_disk: false,
            },
        ),
    ];
    let mut sim = Simulation::new(redis(faults));
    sim.run_steps(3000);
    let keys_at = |sim: &mut Simulation, key: Key| {
        let r = sim
            .records()
            .iter()
            .find(|r| r.narration.key == key)
            .map(|r| r.index);
        sim.seek(r.expect("the step"));
        keys(sim)
    };
    let crashed = keys_at(&mut sim, Key::ServerCrash);
    assert!(
        !crashed.iter().any(|k| k.starts_with("@1:")),
        "its memory is gone"
    );
    assert_eq!(roles(&sim), [Role::Primary, Role::Down]);
    let resync = sim.records().iter().filter_map(|r| r.delivered.as_ref());
    let resync = resync.clone().find(|d| d.label.starts_with("FULLRESYNC"));
    assert!(resync.is_some(), "the primary sends its keyspace");
    let applied = sim.records().iter().find(|r| {
        r.narration.key == Key::PeerApplied
            && r.delivered
                .as_ref()
                .is_some_and(|d| d.label.starts_with("FULLRESYNC"))
    });
    let step = applied.expect("the resync arrives").index;
    sim.seek(step);
    let k = keys(&sim);
    let on_primary = k.iter().filter(|k| !k.starts_with('@')).count();
    let on_replica = k.iter().filter(|k| k.starts_with("@1:")).count();
    assert!(
        on_primary > 0,
        "the lock is held while the replica resyncs: {k:?}"
    );
    assert_eq!(on_primary, on_replica, "{k:?}");
}

#[test]
fn single_server_services_are_one_server_with_no_traffic_between_servers() {
    let single = |p: &&presets::Preset| {
        !["redis-failover", "redis-split"].contains(&p.id)
            && p.scenario().ensemble.is_none()
            && !p.id.starts_with("redlock-")
    };
    for p in presets::all().filter(single) {
        let mut sim = Simulation::new(p.scenario());
        sim.run_steps(2000);
        assert_eq!(sim.world().service.servers().len(), 1, "{}", p.id);
        let peer = sim.records().iter().filter_map(|r| r.delivered.as_ref());
        assert!(
            !peer
                .clone()
                .any(|d| matches!(d.from, Node::Server(_)) && matches!(d.to, Node::Server(_))),
            "{}",
            p.id
        );
    }
}

#[test]
fn a_server_fault_on_a_single_server_service_does_not_apply() {
    let sc = Scenario {
        faults: vec![at(2, Command::CrashServer { server: 0 })],
        ..presets::find("herd").unwrap().scenario()
    };
    let mut sim = Simulation::new(sc);
    sim.run_steps(50);
    let said = sim
        .records()
        .iter()
        .find(|r| matches!(r.action, lockstep::sim::Action::Scripted(_)));
    assert_eq!(said.unwrap().narration.key, Key::NotApplicable);
}

#[test]
fn scenarios_naming_servers_or_clients_that_cannot_exist_are_refused() {
    for (cmd, words) in [
        (Command::CrashServer { server: 200 }, "server 200"),
        (
            Command::Split {
                clients: vec![7],
                servers: vec![],
            },
            "client index 7",
        ),
        (
            Command::Split {
                clients: vec![],
                servers: vec![9],
            },
            "server 9",
        ),
    ] {
        let sc = redis(vec![at(1, cmd)]);
        let e = sc.validate().expect_err("refused");
        assert!(e.contains(words), "{e}");
    }
}

#[test]
fn faults_naming_a_server_the_service_does_not_have_do_not_apply() {
    let faults = vec![
        at(2, Command::CrashServer { server: 5 }),
        at(
            3,
            Command::RestartServer {
                server: 7,
                keep_disk: true,
            },
        ),
        at(
            4,
            Command::RestartServer {
                server: 0,
                keep_disk: false,
            },
        ),
        at(
            5,
            Command::Split {
                clients: vec![1],
                servers: vec![6],
            },
        ),
        at(6, Command::HealSplit),
    ];
    let mut sim = Simulation::new(redis(faults));
    sim.run_steps(3000);
    let scripted = sim
        .records()
        .iter()
        .filter(|r| matches!(r.action, lockstep::sim::Action::Scripted(_)));
    let keys: Vec<Key> = scripted.map(|r| r.narration.key).collect();
    assert_eq!(
        keys,
        [
            Key::NotApplicable,
            Key::NotApplicable,
            Key::NotApplicable,
            Key::CmdSplit,
            Key::CmdHealSplit
        ]
    );
    assert_eq!(roles(&sim), [Role::Primary, Role::Replica]);
}

#[test]
fn a_paused_primary_handles_nothing_and_sends_nothing_until_it_runs_again() {
    let faults = vec![at(
        2,
        Command::PauseServer {
            server: 0,
            ticks: 100,
        },
    )];
    let mut sim = Simulation::new(redis(faults));
    sim.run_steps(3000);
    let handled: Vec<u64> = sim
        .records()
        .iter()
        .filter(|r| matches!(r.narration.key, Key::SvcRequest | Key::PeerSent))
        .map(|r| r.time)
        .collect();
    assert!(!handled.is_empty());
    assert!(
        handled.iter().all(|t| *t <= 2 || *t >= 102),
        "nothing handled while paused: {handled:?}"
    );
    let sent = sim
        .records()
        .iter()
        .find(|r| r.narration.key == Key::PeerSent);
    assert!(sent.expect("the stream leaves after the pause").time >= 102);
}

//! Swarm test for Redis on two servers: many seeds, each drawing clients, timings, a replica
//! lag and server faults — a server's crash, pause and restart (from disk or empty), a split of any
//! clients and servers from the rest, a failover. Whatever happens:
//! - the service never has two owners in its own view (ownership monitor);
//! - a lost update only ever follows two believers (belief monitor);
//! - two believers only ever follow a fault that can lose the lock (a failover, a restart
//!   without persistence, a split that cuts the replication stream before a failover) or a
//!   lease shorter than the work;
//! - once a primary is up, no client talks to a server that is down.
//!
//! A failure prints `seed=N`; `SWARM_SEEDS=10000` runs more.

use lockstep::recipes::RecipeKind;
use lockstep::services::Role;
use lockstep::sim::rng::SimRng;
use lockstep::sim::{Command, Scenario, Simulation, TimedCommand};

fn seeds() -> u64 {
    std::env::var("SWARM_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300)
}

fn fault(rng: &mut SimRng, clients: usize) -> Vec<TimedCommand> {
    let at = rng.range(1, 60);
    let later = at + rng.range(1, 400);
    let t = |at, command| TimedCommand { at, command };
    let server = rng.range(0, 1) as u8;
    match rng.range(0, 5) {
        0 => vec![t(at, Command::Failover)],
        4 => vec![t(
            at,
            Command::PauseServer {
                server,
                ticks: rng.range(1, 3000),
            },
        )],
        1 => vec![t(at, Command::CrashServer { server })],
        2 => vec![
            t(at, Command::CrashServer { server }),
            t(
                later,
                Command::RestartServer {
                    server,
                    keep_disk: rng.chance(1, 2),
                },
            ),
        ],
        _ => {
            let side: Vec<usize> = (0..clients).filter(|_| rng.chance(1, 2)).collect();
            vec![
                t(
                    at,
                    Command::Split {
                        clients: side,
                        servers: vec![server],
                    },
                ),
                t(later, Command::HealSplit),
            ]
        }
    }
}

fn scenario(seed: u64) -> Scenario {
    let mut rng = SimRng::new(seed ^ 0x5e7e);
    let clients = rng.range(2, 4) as u32;
    let faults = (0..rng.range(1, 3))
        .flat_map(|_| fault(&mut rng, clients as usize))
        .collect();
    Scenario {
        recipe: RecipeKind::RedisLease,
        clients,
        seed,
        fencing: rng.chance(1, 2),
        latency_min: 1,
        latency_max: rng.range(1, 4),
        hold_min: 1,
        hold_max: rng.range(1, 40),
        rounds: rng.range(1, 3) as u32,
        start_spread: rng.range(0, 10),
        lease: rng.range(200, 2500),
        replica_lag: Some(rng.range(1, 10)),
        faults,
        ..Scenario::default()
    }
}

fn loses_lock(c: &Command) -> bool {
    matches!(
        c,
        Command::Failover
            | Command::RestartServer {
                keep_disk: false,
                ..
            }
            | Command::CrashServer { .. }
    )
}

#[test]
fn redis_on_two_servers_breaks_only_where_a_server_fault_loses_the_lock() {
    let mut bad = Vec::new();
    let (mut beliefs, mut runs) = (0, 0);
    for seed in 0..seeds() {
        let sc = scenario(seed);
        let mut sim = Simulation::new(sc.clone());
        let mut stray = None;
        for _ in 0..4000 {
            if !sim.step() {
                break;
            }
            let w = sim.world();
            let servers = w.service.servers();
            for c in 0..w.clients.len() {
                let lockstep::sim::types::Node::Server(s) = w.server_of(c) else {
                    continue;
                };
                let up = servers.iter().any(|i| i.id == s && i.role != Role::Down);
                let all_down = servers.iter().all(|i| i.role == Role::Down);
                if !up && !all_down && servers.iter().any(|i| i.role == Role::Primary) {
                    stray = Some(format!(
                        "C{} talks to a down server while a primary is up",
                        c + 1
                    ));
                }
            }
        }
        runs += 1;
        let m = &sim.world().monitors;
        let lease_short = sc.lease < sc.hold_max + 10 * sc.latency_max + 20;
        let losing = sc.faults.iter().any(|t| loses_lock(&t.command));
        if m.ownership.is_some() {
            bad.push(format!("seed={seed}: two owners in the service's view"));
        }
        if m.lost_update.is_some() && m.belief.is_none() {
            bad.push(format!("seed={seed}: a lost update without two believers"));
        }
        if m.belief.is_some() && !losing && !lease_short {
            bad.push(format!(
                "seed={seed}: two believers without a fault that loses the lock"
            ));
        }
        if let Some(s) = stray {
            bad.push(format!("seed={seed}: {s}"));
        }
        beliefs += usize::from(m.belief.is_some());
    }
    assert!(
        bad.is_empty(),
        "{} of {runs} seeds:\n{}",
        bad.len(),
        bad.join("\n")
    );
    assert!(
        beliefs > 0,
        "some seed must lose the lock (the lesson), none did in {runs}"
    );
}

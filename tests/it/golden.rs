//! Trace hashes pinned across processes: every preset run to its end, and a fixed swarm of
//! scenarios with faults for every recipe, hashed (FNV-1a over the step records' JSON) and
//! compared with `tests/golden/trace_hashes.txt`. A change in behaviour shows up here as a
//! named line. `LOCKSTEP_BLESS=1 cargo test --test it golden::` rewrites the file.

use lockstep::recipes::RecipeKind;
use lockstep::sim::rng::SimRng;
use lockstep::sim::{presets, Command, Scenario, Simulation, TimedCommand};

const MAX_STEPS: u64 = 6000;

fn hash(sc: &Scenario) -> u64 {
    let mut sim = Simulation::new(sc.clone());
    sim.run_steps(MAX_STEPS);
    sim.trace_hash()
}

fn fault(rng: &mut SimRng, clients: usize, long: bool) -> Vec<TimedCommand> {
    let c = rng.range(0, clients as u64 - 1) as usize;
    let at = rng.range(1, 60);
    let span = if long { 3000 } else { 40 };
    let command = match rng.range(0, 8) {
        0 => Command::Crash { client: c },
        1 => Command::Close { client: c },
        2 => Command::Expire { client: c },
        3 => Command::Pause {
            client: c,
            ticks: rng.range(1, span),
        },
        4 => Command::DropReply { client: c },
        5 => Command::Latency {
            min: 1,
            max: rng.range(1, 8),
        },
        6 => Command::Failover,
        _ => {
            let heal = at + rng.range(1, span);
            return vec![
                TimedCommand {
                    at,
                    command: Command::Partition { client: c },
                },
                TimedCommand {
                    at: heal,
                    command: Command::Heal { client: c },
                },
            ];
        }
    };
    vec![TimedCommand { at, command }]
}

fn swarm(recipe: RecipeKind, seed: u64) -> Scenario {
    let mut rng = SimRng::new(seed ^ 0x601d);
    let clients = rng.range(2, 5) as u32;
    let long = recipe.service() != lockstep::recipes::ServiceKind::ZooKeeper;
    let faults = (0..rng.range(0, 3))
        .flat_map(|_| fault(&mut rng, clients as usize, long))
        .collect();
    let readers = if recipe == RecipeKind::Rwlock {
        (0..clients as usize).filter(|_| rng.chance(1, 2)).collect()
    } else {
        Vec::new()
    };
    Scenario {
        name: format!("swarm-{}-{seed}", recipe.name()),
        recipe,
        clients,
        seed,
        fencing: rng.chance(1, 2),
        latency_min: 1,
        latency_max: rng.range(1, 4),
        hold_min: 1,
        hold_max: rng.range(1, 30),
        rounds: rng.range(1, 3) as u32,
        start_spread: rng.range(0, 10),
        acquire_timeout: rng.chance(1, 4).then(|| rng.range(3, 30)),
        nesting: if rng.chance(1, 4) { 2 } else { 1 },
        lease: if long {
            rng.range(30, 3000)
        } else {
            Scenario::default().lease
        },
        faults,
        readers,
        ..Scenario::default()
    }
}

fn lines() -> Vec<String> {
    let mut out: Vec<String> = presets::all()
        .map(|p| format!("preset {} {:016x}", p.id, hash(&p.scenario())))
        .collect();
    for recipe in RecipeKind::ALL
        .into_iter()
        .filter(|r| r.service().available())
    {
        for seed in 0..12 {
            let sc = swarm(recipe, seed);
            out.push(format!("{} {:016x}", sc.name, hash(&sc)));
        }
    }
    out
}

#[test]
fn trace_hashes_match_the_committed_ones() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/trace_hashes.txt");
    let got = lines();
    if std::env::var_os("LOCKSTEP_BLESS").is_some() {
        std::fs::write(&path, got.join("\n") + "\n").unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    let want: Vec<&str> = want.lines().collect();
    let changed: Vec<String> = got
        .iter()
        .filter(|l| !want.contains(&l.as_str()))
        .cloned()
        .collect();
    assert!(
        changed.is_empty(),
        "trace hashes changed (LOCKSTEP_BLESS=1 to accept):\n{}",
        changed.join("\n")
    );
    // The lean build (no `services`) checks the ZooKeeper lines only.
    let full = RecipeKind::ALL.iter().all(|r| r.service().available());
    assert!(
        !full || want.len() == got.len(),
        "{} committed lines, {} computed",
        want.len(),
        got.len()
    );
}

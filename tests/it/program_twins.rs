//! The recipe language says what the recipes say: each teaching recipe written in it
//! (`recipes/*.recipe`) gives the same trace — every request, reply, watch, phase and sentence,
//! step for step — as its Rust twin in `src/recipes/`, over many seeds with faults (the
//! swarm's: crashes, closes, expiries, pauses, lost replies, latency, partitions). A failure
//! prints `seed=N` and the first step where the two runs part (`TWIN_WINDOW=40` prints 40 steps
//! before it).

use crate::common;

use lockstep::recipes::RecipeKind;
use lockstep::sim::rng::SimRng;
use lockstep::sim::{Command, Lang, Scenario, Simulation, TimedCommand};

const STEPS: u64 = 3000;

fn text(file: &str) -> String {
    let path = format!("{}/recipes/{file}.recipe", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).unwrap()
}

/// A Redis scenario drawn from the seed (as the services swarm draws them).
fn redis_scenario(recipe: RecipeKind, seed: u64) -> Scenario {
    let mut rng = SimRng::new(seed ^ 0xfeed);
    let clients = rng.range(2, 5) as u32;
    let mut faults = Vec::new();
    for _ in 0..rng.range(0, 3) {
        let client = rng.range(0, u64::from(clients) - 1) as usize;
        let at = rng.range(1, 80);
        let command = match rng.range(0, 4) {
            0 => Command::Crash { client },
            1 => Command::Pause {
                client,
                ticks: rng.range(1, 3000),
            },
            2 => Command::DropReply { client },
            3 => Command::Close { client },
            _ => Command::Latency {
                min: 1,
                max: rng.range(1, 8),
            },
        };
        faults.push(TimedCommand { at, command });
    }
    Scenario {
        recipe,
        clients,
        seed,
        latency_min: 1,
        latency_max: rng.range(1, 4),
        hold_min: 1,
        hold_max: rng.range(1, 40),
        rounds: rng.range(1, 3) as u32,
        start_spread: rng.range(0, 10),
        lease: rng.range(20, 2500),
        faults,
        ..Scenario::default()
    }
}

/// Runs `sc` with the Rust recipe and with the program; panics at the first difference.
fn twins(sc: Scenario, program: RecipeKind, file: &str) {
    let seed = sc.seed;
    let mut rust = Simulation::new(sc.clone());
    rust.run_steps(STEPS);
    let mut prog = Simulation::new(Scenario {
        recipe: program,
        program: Some(text(file)),
        ..sc
    });
    prog.run_steps(STEPS);
    if rust.trace_hash() == prog.trace_hash() {
        return;
    }
    let (a, b) = (rust.records(), prog.records());
    let at = a
        .iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    let back: usize = std::env::var("TWIN_WINDOW")
        .ok()
        .and_then(|w| w.parse().ok())
        .unwrap_or(2);
    let say = |r: &[lockstep::sim::StepRecord]| {
        r.get(at.saturating_sub(back)..(at + 2).min(r.len()))
            .unwrap_or_default()
            .iter()
            .map(|r| format!("  #{} {}", r.index, r.narration.text(Lang::En)))
            .collect::<Vec<_>>()
            .join("\n")
    };
    panic!(
        "{file} seed={seed}: the runs part at step {} ({} and {} steps)\nRust:\n{}\nprogram:\n{}",
        at + 1,
        a.len(),
        b.len(),
        say(a),
        say(b)
    );
}

fn seeds() -> std::ops::Range<u64> {
    common::seeds(1000)
}

#[test]
fn the_naive_lock_in_the_language_is_its_rust_twin() {
    for seed in seeds() {
        twins(
            common::zk::scenario(RecipeKind::Naive, seed),
            RecipeKind::Program,
            "naive",
        );
    }
}

#[test]
fn the_sequential_recipe_in_the_language_is_its_rust_twin() {
    for seed in seeds() {
        let sc = common::zk::scenario(RecipeKind::Sequential, seed);
        twins(sc, RecipeKind::Program, "sequential");
    }
}

#[test]
fn the_no_recheck_bug_in_the_language_is_its_rust_twin() {
    for seed in seeds() {
        let sc = common::zk::scenario(RecipeKind::NoRecheck, seed);
        twins(sc, RecipeKind::Program, "no-recheck");
    }
}

#[test]
fn the_lost_wakeup_bug_in_the_language_is_its_rust_twin() {
    for seed in seeds() {
        let sc = common::zk::scenario(RecipeKind::LostWakeup, seed);
        twins(sc, RecipeKind::Program, "lost-wakeup");
    }
}

#[test]
fn the_redis_setnx_lock_in_the_language_is_its_rust_twin() {
    for seed in seeds() {
        let sc = redis_scenario(RecipeKind::RedisSetnx, seed);
        twins(sc, RecipeKind::RedisProgram, "redis-setnx");
    }
}

#[test]
fn the_redis_lease_lock_in_the_language_is_its_rust_twin() {
    for seed in seeds() {
        let sc = redis_scenario(RecipeKind::RedisLease, seed);
        twins(sc, RecipeKind::RedisProgram, "redis-lease");
    }
}

//! The ZooKeeper swarm's scenarios (tests/it/swarm.rs, tests/it/swarm_naive.rs): each drawn entirely
//! from its seed, with faults that stay within a few session timeouts.

use lockstep::recipes::RecipeKind;
use lockstep::sim::rng::SimRng;
use lockstep::sim::{Command, Scenario, TimedCommand};

/// Steps a swarm run takes.
pub const MAX_STEPS: u64 = 4000;

fn fault(rng: &mut SimRng, clients: usize) -> Vec<TimedCommand> {
    let c = rng.range(0, clients as u64 - 1) as usize;
    let at = rng.range(1, 60);
    let command = match rng.range(0, 6) {
        0 => Command::Crash { client: c },
        1 => Command::Close { client: c },
        2 => Command::Expire { client: c },
        3 => Command::Pause {
            client: c,
            ticks: rng.range(1, 40),
        },
        4 => Command::DropReply { client: c },
        5 => Command::Latency {
            min: 1,
            max: rng.range(1, 8),
        },
        _ => {
            let heal = at + rng.range(1, 40);
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

/// A scenario drawn entirely from the seed. kazoo's also has the application cancel one
/// client's acquire at a drawn tick (drawn last, so the other recipes' scenarios are as they
/// were).
pub fn scenario(recipe: RecipeKind, seed: u64) -> Scenario {
    let mut rng = SimRng::new(seed ^ 0x5eed);
    let clients = rng.range(2, 5) as u32;
    let faults = (0..rng.range(0, 3))
        .flat_map(|_| fault(&mut rng, clients as usize))
        .collect();
    let readers = if recipe == RecipeKind::Rwlock {
        (0..clients as usize).filter(|_| rng.chance(1, 2)).collect()
    } else {
        Vec::new()
    };
    let mut sc = Scenario {
        recipe,
        clients,
        seed,
        fencing: rng.chance(1, 2),
        latency_min: 1,
        latency_max: rng.range(1, 4),
        hold_min: 1,
        hold_max: rng.range(1, 15),
        rounds: rng.range(1, 3) as u32,
        start_spread: rng.range(0, 10),
        acquire_timeout: (recipe == RecipeKind::Curator && rng.chance(1, 4))
            .then(|| rng.range(3, 30)),
        faults,
        readers,
        ..Scenario::default()
    };
    if recipe == RecipeKind::Kazoo {
        let client = rng.range(0, clients as u64 - 1) as usize;
        let at = rng.range(1, 60);
        sc.faults.push(TimedCommand {
            at,
            command: Command::Cancel { client },
        });
    }
    sc
}

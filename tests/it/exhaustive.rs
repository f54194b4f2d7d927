//! Exhaustive search over all interleavings (bounded depth) for 2–3 clients: `sequential` and
//! `curator` are safe and never stuck without faults; each broken recipe has a shortest
//! counterexample, and that counterexample replays as a run in the simulator.

use lockstep::recipes::RecipeKind;
use lockstep::sim::explore::{explore, ExploreConfig, Property};
use lockstep::sim::{Scenario, Simulation};

fn scenario(recipe: RecipeKind, clients: u32) -> Scenario {
    Scenario {
        recipe,
        clients,
        hold_min: 1,
        hold_max: 1,
        rounds: 1,
        ..Scenario::default()
    }
}

fn cfg(allow_close: bool) -> ExploreConfig {
    ExploreConfig {
        max_depth: 200,
        max_states: 400_000,
        allow_close,
        crash_leader: false,
        ..ExploreConfig::bounded()
    }
}

/// Explores 2 and 3 clients of a correct recipe: no violation, the space is exhausted, and it
/// has exactly the pinned number of states (a change in behaviour changes the count).
fn safe_and_stuck_free(recipe: RecipeKind, states: [usize; 2]) {
    for (n, want) in [2, 3].into_iter().zip(states) {
        let out = explore(&scenario(recipe, n), &cfg(false));
        assert!(
            out.counterexample.is_none(),
            "{recipe:?}, {n} clients: {:?}",
            out.counterexample.map(|c| c.0)
        );
        assert!(
            !out.truncated && !out.depth_cut,
            "{recipe:?}, {n} clients: search cut at {} states / depth {}",
            out.states,
            out.depth
        );
        println!(
            "{recipe:?}, {n} clients: {} states, depth {}",
            out.states, out.depth
        );
        assert_eq!(out.states, want, "{recipe:?}, {n} clients: state count");
    }
}

#[test]
fn sequential_is_safe_and_stuck_free_for_two_and_three_clients() {
    safe_and_stuck_free(RecipeKind::Sequential, [270, 34_808]);
}

#[test]
fn curator_is_safe_and_stuck_free_for_two_and_three_clients() {
    safe_and_stuck_free(RecipeKind::Curator, [258, 30_968]);
}

#[test]
fn sequential_stays_safe_when_a_waiter_may_leave() {
    let out = explore(&scenario(RecipeKind::Sequential, 3), &cfg(true));
    assert!(
        out.counterexample
            .as_ref()
            .is_none_or(|c| c.0 != Property::MutualExclusion),
        "sequential broke mutual exclusion"
    );
}

/// Replays a counterexample and checks the monitor fails at its last step.
fn replays(run: lockstep::sim::Run, property: Property) -> u64 {
    let len = run.forced.len() as u64;
    let mut sim = Simulation::from_run(run);
    sim.run_steps(len);
    let m = &sim.world().monitors;
    match property {
        Property::MutualExclusion => assert!(
            m.ownership.is_some(),
            "replayed run does not violate mutual exclusion"
        ),
        Property::Stuck => assert!(
            m.stuck.is_some() || sim.world().enabled().is_empty(),
            "replayed run is not stuck"
        ),
        Property::Protocol => assert!(m.protocol.is_some(), "replayed run breaks no promise"),
    }
    len
}

#[test]
fn no_recheck_shortest_counterexample_is_two_holders() {
    let out = explore(&scenario(RecipeKind::NoRecheck, 3), &cfg(true));
    assert!(!out.truncated, "search truncated at {} states", out.states);
    let (p, run) = out.counterexample.expect("no_recheck must break");
    assert_eq!(p, Property::MutualExclusion);
    let len = replays(run, p);
    println!(
        "no_recheck: counterexample of {len} steps after {} states",
        out.states
    );
    assert_eq!(
        (len, out.states),
        (24, 149_266),
        "the shortest counterexample and the states searched to find it"
    );
}

#[test]
fn lost_wakeup_shortest_counterexample_is_stuck() {
    let out = explore(&scenario(RecipeKind::LostWakeup, 2), &cfg(false));
    let (p, run) = out.counterexample.expect("lost_wakeup must get stuck");
    assert_eq!(p, Property::Stuck);
    let len = replays(run, p);
    println!(
        "lost_wakeup: counterexample of {len} steps after {} states",
        out.states
    );
    assert!(!out.truncated);
    assert_eq!(
        (len, out.states),
        (15, 117),
        "the shortest counterexample and the states searched to find it"
    );
}

/// Curator clients on a three-server ensemble whose leader may crash once, up to `max_states`.
fn ensemble(clients: u32, max_states: usize) -> (Scenario, ExploreConfig) {
    let mut sc = scenario(RecipeKind::Curator, clients);
    sc.ensemble = Some(3);
    let cfg = ExploreConfig {
        max_depth: 400,
        max_states,
        allow_close: false,
        crash_leader: true,
        ..ExploreConfig::bounded()
    };
    (sc, cfg)
}

/// Curator clients on a three-server ensemble whose leader may crash at any point (once): in
/// every interleaving of client requests, Zab's messages, the crash, the votes and the new
/// leader's sync, no server applies a different sequence of transactions than another (the
/// prefix property), no epoch has two leaders, no committed transaction is lost, no two
/// clients hold the lock and no one is stuck. With one client the space is exhausted; with two
/// it is searched breadth-first up to a bound here, and depth-first on every core by the
/// ignored test below (tens of millions of states).
fn ensemble_search(clients: u32, max_states: usize) -> lockstep::sim::explore::Outcome {
    let (sc, cfg) = ensemble(clients, max_states);
    let out = explore(&sc, &cfg);
    println!(
        "ensemble of 3, {clients} Curator client(s), leader crash: {} states, depth {}{}",
        out.states,
        out.depth,
        if out.truncated {
            " (bound reached)"
        } else {
            ""
        }
    );
    if let Some((p, run)) = &out.counterexample {
        let mut sim = Simulation::from_run(run.clone());
        sim.run_steps(run.forced.len() as u64);
        for r in sim.records() {
            eprintln!(
                "{:>4} {}",
                r.index,
                r.narration.text(lockstep::sim::Lang::En)
            );
        }
        panic!(
            "{p:?} after {} steps: {:?}",
            run.forced.len(),
            sim.world().monitors.protocol
        );
    }
    out
}

#[test]
fn ensemble_keeps_the_prefix_property_through_a_leader_crash() {
    let out = ensemble_search(1, 400_000);
    assert!(!out.truncated && !out.depth_cut, "search cut short");
    // 16,576 while the fingerprint left the ensemble out (it hashed the standalone server
    // only, so states whose servers differed were merged). Hashing it found ways to get
    // stuck, each now with its own test: a follower's answer dropped from an election's
    // quorum, a stale socket's close detaching the client from its new server, a handshake on
    // a socket the client had left moving its session there, and (with two clients) the
    // leader's answer to such a handshake doing the same. 31,680 until a session created for a
    // socket its server had closed (it lost its leader first) stopped attaching the client
    // and answering it on its next socket.
    assert_eq!(out.states, 29_097, "state count");
}

/// The depth-first search (which keeps one world per level instead of a frontier) reaches the
/// same states: a fingerprint that missed a part of the state would make the two disagree.
#[test]
fn depth_first_and_breadth_first_searches_reach_the_same_states() {
    let (sc, cfg) = ensemble(1, 400_000);
    let wide = explore(&sc, &cfg);
    for threads in [1, 2] {
        let deep = lockstep::sim::sweep::sweep(&sc, &cfg, threads, &|_| {});
        assert!(deep.counterexample.is_none() && !deep.truncated && !deep.depth_cut);
        assert_eq!(deep.states, wide.states, "{threads} thread(s)");
    }
}

#[test]
fn ensemble_with_two_clients_breaks_nothing_in_its_first_states() {
    let out = ensemble_search(2, 200_000);
    assert!(out.truncated && out.depth >= 18, "depth {}", out.depth);
}

/// The whole space for two clients, depth-first on every core: 83,331,127 states (depth 181)
/// in about 22 minutes on 2 cores, nothing broken. Too long for the README's test command; CI
/// runs it (`LOCKSTEP_LONG=1 scripts/test.sh`), and so does `cargo test --test it exhaustive:: --
/// --ignored --nocapture`, which prints its progress.
#[test]
#[ignore = "long: 83 million states, about 22 minutes on 2 cores"]
fn ensemble_with_two_clients_keeps_its_promises_through_a_leader_crash() {
    let (sc, cfg) = ensemble(2, 400_000_000);
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let start = std::time::Instant::now();
    let say = |n: usize| {
        if n.is_multiple_of(5_000_000) {
            eprintln!("{n} states, {:.0} s", start.elapsed().as_secs_f64());
        }
    };
    let out = lockstep::sim::sweep::sweep(&sc, &cfg, cores, &say);
    println!(
        "ensemble of 3, 2 Curator clients, leader crash: {} states, depth {}, {:.0} s on {cores} threads",
        out.states,
        out.depth,
        start.elapsed().as_secs_f64()
    );
    if let Some((p, run)) = &out.counterexample {
        let mut sim = Simulation::from_run(run.clone());
        sim.run_steps(run.forced.len() as u64);
        for r in sim.records() {
            let text = r.narration.text(lockstep::sim::Lang::En);
            eprintln!("{:>4} {text}", r.index);
        }
        // The run, to replay it (or open it in the page: a run file imports as it is).
        let file = std::env::temp_dir().join("lockstep-ensemble-counterexample.json");
        let saved = serde_json::to_string(run).map(|j| std::fs::write(&file, j));
        eprintln!("saved to {} ({saved:?})", file.display());
        panic!("{p:?} after {} steps", run.forced.len());
    }
    assert!(!out.truncated && !out.depth_cut, "search cut short");
}

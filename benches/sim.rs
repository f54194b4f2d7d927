//! Simulator benchmarks (prints figures; run with `cargo bench --bench sim`):
//! steps per second for `sequential` and `naive` with 10, 100 and 1 000 clients; memory and
//! seek time of a 100 000-step history with 20 clients; exhaustive-search states per second;
//! Break it over recipes in the recipe language against their Rust twins (`-- recipes`: only
//! that; issue 56 asks for at least half the twin's rate).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use lockstep::recipes::RecipeKind;
use lockstep::sim::explore::{explore, ExploreConfig};
use lockstep::sim::{Scenario, Simulation};

/// Counts live heap bytes, to measure what a history holds.
struct Counting;
static LIVE: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        LIVE.fetch_add(l.size(), Ordering::Relaxed);
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        LIVE.fetch_sub(l.size(), Ordering::Relaxed);
        unsafe { System.dealloc(p, l) }
    }
}

#[global_allocator]
static A: Counting = Counting;

fn busy(recipe: RecipeKind, clients: u32) -> Scenario {
    Scenario {
        recipe,
        clients,
        rounds: 1000,
        latency_max: 3,
        start_spread: 20,
        hold_max: 8,
        ..Scenario::default()
    }
}

fn steps_per_second() {
    let all = [
        RecipeKind::Sequential,
        RecipeKind::Naive,
        RecipeKind::RedisLease,
        RecipeKind::EtcdMutex,
        RecipeKind::SqlLease,
        RecipeKind::SqlRowLock,
    ];
    for recipe in all {
        for clients in [10, 100, 1000] {
            let steps = if clients == 1000 { 20_000 } else { 100_000 };
            let mut sim = Simulation::new(busy(recipe, clients));
            let t = Instant::now();
            let done = sim.run_steps(steps);
            let secs = t.elapsed().as_secs_f64();
            println!(
                "steps/s  {:<10} {clients:>5} clients: {:>10.0} ({done} steps in {secs:.2} s)",
                recipe.name(),
                done as f64 / secs
            );
        }
    }
}

/// A ZooKeeper ensemble of five servers under 50 Curator clients: every write is forwarded,
/// proposed, acknowledged and committed, and the leader pings every follower each half tick.
fn ensemble_steps() {
    for servers in [3u8, 5] {
        let sc = Scenario {
            ensemble: Some(servers),
            ..busy(RecipeKind::Curator, 50)
        };
        let mut sim = Simulation::new(sc);
        let t = Instant::now();
        let done = sim.run_steps(100_000);
        let secs = t.elapsed().as_secs_f64();
        println!(
            "steps/s  curator on {servers} servers, 50 clients: {:>10.0} ({done} steps in {secs:.2} s)",
            done as f64 / secs
        );
    }
}

fn history_memory_and_seek() {
    let before = LIVE.load(Ordering::Relaxed);
    let mut sim = Simulation::new(busy(RecipeKind::Sequential, 20));
    let t = Instant::now();
    let done = sim.run_steps(100_000);
    let build = t.elapsed().as_secs_f64();
    let bytes = LIVE.load(Ordering::Relaxed) - before;
    println!(
        "history  {done} steps, 20 clients: built in {build:.2} s, {:.1} MB held ({} keyframes)",
        bytes as f64 / 1e6,
        sim.keyframe_count()
    );
    let targets = [
        99_999u64, 50_000, 12_345, 77_777, 1, 100_000, 63_999, 64_001,
    ];
    let mut worst = 0f64;
    let t = Instant::now();
    for &n in &targets {
        let s = Instant::now();
        sim.seek(n);
        worst = worst.max(s.elapsed().as_secs_f64());
    }
    let mean = t.elapsed().as_secs_f64() / targets.len() as f64;
    println!(
        "seek     mean {:.3} ms, worst {:.3} ms over {} random seeks",
        mean * 1e3,
        worst * 1e3,
        targets.len()
    );
}

fn exhaustive_rate() {
    let sc = Scenario {
        recipe: RecipeKind::Sequential,
        clients: 3,
        hold_min: 1,
        hold_max: 1,
        ..Scenario::default()
    };
    let t = Instant::now();
    let out = explore(
        &sc,
        &ExploreConfig {
            max_depth: 200,
            max_states: 1_000_000,
            allow_close: false,
            crash_leader: false,
            ..ExploreConfig::bounded()
        },
    );
    let secs = t.elapsed().as_secs_f64();
    println!(
        "explore  sequential, 3 clients: {} states in {secs:.2} s = {:.0} states/s",
        out.states,
        out.states as f64 / secs
    );
}

/// Break it (2 clients, crash + pause) over each teaching recipe in the language and over its
/// Rust twin: states per second, and the language's rate as a share of the twin's.
fn recipe_rates() {
    use lockstep::sim::check::{Check, Faults};
    let twins = [
        ("sequential", RecipeKind::Sequential),
        ("naive", RecipeKind::Naive),
        ("no-recheck", RecipeKind::NoRecheck),
        ("lost-wakeup", RecipeKind::LostWakeup),
        ("redis-lease", RecipeKind::RedisLease),
    ];
    for (name, kind) in twins {
        let check = Check {
            text: lockstep::recipes::program::starters::find(name)
                .unwrap()
                .to_string(),
            clients: 2,
            faults: Faults {
                crash: true,
                pause: true,
                close: false,
            },
        };
        let program = check.scenario().unwrap();
        let twin = Scenario {
            recipe: kind,
            program: None,
            ..program.clone()
        };
        let cfg = check.config(2_000_000);
        let rate = |sc: &Scenario| {
            let t = Instant::now();
            let out = explore(sc, &cfg);
            let secs = t.elapsed().as_secs_f64();
            (out.states, secs, out.states as f64 / secs)
        };
        let (p, r) = (rate(&program), rate(&twin));
        println!(
            "break it {name:<11}: recipe {} states in {:.2} s = {:.0}/s; Rust twin {} states in {:.2} s = {:.0}/s; recipe at {:.0}% of the twin's rate",
            p.0, p.1, p.2, r.0, r.1, r.2, 100.0 * p.2 / r.2
        );
    }
}

/// The requirements matrix: every recipe through every probe.
fn matrix_time() {
    let t = Instant::now();
    let rows = lockstep::sim::matrix::matrix();
    println!(
        "matrix: {} recipes × {} probe runs each in {:.0} ms",
        rows.len(),
        lockstep::sim::matrix::PROBES.len() + 2,
        t.elapsed().as_secs_f64() * 1000.0
    );
}

fn main() {
    if std::env::args().any(|a| a == "ensemble") {
        return ensemble_steps();
    }
    if std::env::args().any(|a| a == "recipes") {
        return recipe_rates();
    }
    matrix_time();
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    ensemble_steps();
    steps_per_second();
    history_memory_and_seek();
    exhaustive_rate();
    recipe_rates();
}

//! Scenario files and big runs stay within bounds: a scenario or run text over 4 MiB is refused
//! before it is parsed, more than 10,000 timed commands or forced actions are refused naming the
//! field and the limit, and a thousand-client run allocates about as much per step late in its
//! history as early (no step rebuilds every row or collects every client's timers) and keeps
//! fewer snapshots than one per 512 steps. Heap counted by a global allocator, nothing timed.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use lockstep::sim::scenario::{MAX_FAULTS, MAX_SCENARIO_BYTES};
use lockstep::sim::{Run, Scenario, Simulation};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static CALLS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(l) };
        if !p.is_null() {
            CALLS.fetch_add(1, Ordering::Relaxed);
            let now = LIVE.fetch_add(l.size(), Ordering::Relaxed) + l.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) };
        LIVE.fetch_sub(l.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// One measurement at a time (tests run on threads of one process).
static SERIAL: Mutex<()> = Mutex::new(());

fn faults(n: usize) -> String {
    let one = r#"{"at": 5, "command": {"pause": {"client": 1, "ticks": 30}}}"#;
    format!(
        r#"{{"clients": 3, "faults": [{}]}}"#,
        vec![one; n].join(", ")
    )
}

#[test]
fn scenario_and_run_texts_over_4_mib_are_refused_before_parsing() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    // 4 MiB of faults and one byte more.
    let mut text = faults(MAX_SCENARIO_BYTES / 80);
    let pad = MAX_SCENARIO_BYTES + 1 - text.len();
    text.insert_str(1, &format!(r#""name": "{}", "#, "x".repeat(pad - 12)));
    assert_eq!(text.len(), MAX_SCENARIO_BYTES + 1);
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let scenario = Scenario::from_json(&text).err().unwrap_or_default();
    let run = Run::from_json(&text).err().unwrap_or_default();
    let used = PEAK.load(Ordering::Relaxed) - before;
    assert_eq!(
        scenario,
        "the scenario is 4194305 bytes, more than the 4194304 bytes (4 MiB) a scenario or run \
         may be"
    );
    assert!(run.starts_with("the run is 4194305 bytes"), "{run}");
    assert!(used < 4096, "{used} bytes of heap to refuse it");
}

#[test]
fn more_than_10000_timed_commands_are_refused_naming_the_field_and_the_limit() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    assert_eq!(MAX_FAULTS, 10_000);
    assert!(Scenario::from_json(&faults(MAX_FAULTS)).is_ok());
    assert_eq!(
        Scenario::from_json(&faults(MAX_FAULTS + 1))
            .err()
            .unwrap_or_default(),
        "scenario field `faults`: 10001 timed commands, more than 10000"
    );
    let forced = r#"[3, {"Command": {"crash": {"client": 0}}}]"#;
    let run = |n: usize| {
        format!(
            r#"{{"scenario": {{"clients": 2}}, "forced": [{}]}}"#,
            vec![forced; n].join(", ")
        )
    };
    assert!(Run::from_json(&run(MAX_FAULTS)).is_ok());
    assert_eq!(
        Run::from_json(&run(MAX_FAULTS + 1))
            .err()
            .unwrap_or_default(),
        "run field `forced`: 10001 forced actions, more than 10000"
    );
}

/// Heap allocations per step over the next `steps` steps.
fn allocations_per_step(sim: &mut Simulation, steps: u64) -> usize {
    let before = CALLS.load(Ordering::Relaxed);
    assert_eq!(sim.run_steps(steps), steps);
    (CALLS.load(Ordering::Relaxed) - before) / steps as usize
}

#[test]
fn a_thousand_client_run_does_the_same_work_per_step_late_as_early() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let sc = Scenario::from_json(r#"{"recipe": "curator", "clients": 1000, "rounds": 10}"#)
        .expect("scenario");
    let mut sim = Simulation::new(sc);
    // The start: every client creates its node and lists the thousand others.
    sim.run_steps(11_000);
    let early = allocations_per_step(&mut sim, 2_000);
    sim.run_steps(2_000);
    let late = allocations_per_step(&mut sim, 2_000);
    println!("allocations per step: {early} at steps 11000-13000, {late} at 15000-17000");
    // Each step allocates for what it does (a message, a record), not once per client.
    assert!(early <= 100 && late <= 100, "{early}, {late}");
    assert!(late <= early + 10, "{early}, {late}");
    // Snapshots of a world this big are spaced out (every 512 steps would be 33).
    let kept = sim.keyframe_count();
    assert!(kept < 17_000 / 512, "{kept} snapshots");
}

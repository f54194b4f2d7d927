//! A deterministic mutation fuzzer for the seven parsers that read untrusted text: share-link
//! queries, scenario JSON, compact scenario strings, imported runs, replay scripts, a host
//! page's messages to an embed, and a learner's lock recipe (which, once it compiles, also runs
//! for a few hundred steps: its runtime errors must be messages too). Each case mutates a valid input (byte flips, hostile tokens
//! such as 18446744073709551615, deletions, duplications) and must come back as a value or a
//! message — never a panic — with bounded memory. `FUZZ_CASES=20000 cargo test --release
//! --test fuzz -- --nocapture` for a long run; CI runs a modest count. A failure prints the
//! parser, the seed and the input.

use std::alloc::{GlobalAlloc, Layout, System};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use lockstep::sim::rng::SimRng;
use lockstep::sim::{presets, Action, Command, Run, Scenario};

/// Counts live heap bytes and their peak, so a case's memory can be bounded.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(l) };
        if !p.is_null() {
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

/// Most heap a single case may use on top of what was live before it.
const MAX_CASE_BYTES: usize = 256 << 20;
const MAX_INPUT: usize = 256 * 1024;

const NUMBERS: &[&str] = &[
    "0",
    "1",
    "255",
    "65536",
    "100000",
    "200000",
    "1000000",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "18446744073709551615",
];

const TOKENS: &[&str] = &[
    "18446744073709551615",
    "4294967296",
    "-1",
    "1e309",
    "-0",
    "99999999999999999999999",
    "\"",
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "null",
    "true",
    "%",
    "%%",
    "%FF",
    "&",
    "=",
    "&at=",
    "&clients=",
    "\u{0}",
    "\u{FFFF}",
    "名",
    "\\",
    "\\u0000",
    "\n    ",
    "\n",
    "loop:",
    "if ",
    "wait for the watch",
    "hold",
    "again",
    "break",
    "(",
    ")",
    "{dir}",
    "==",
];

/// The recipe parser's own count of cases per run (issue 56 asks for at least 10,000).
const RECIPE_CASES: u64 = 10_000;

fn mutate(input: &str, rng: &mut SimRng) -> String {
    let mut b = input.as_bytes().to_vec();
    for _ in 0..rng.range(1, 4) {
        let at = rng.range(0, b.len() as u64) as usize;
        match rng.range(0, 5) {
            // A number becomes an extreme one (the value stays well-formed).
            4 => {
                if let Some(start) = (at..b.len()).find(|i| b[*i].is_ascii_digit()) {
                    let end = (start..b.len())
                        .find(|i| !b[*i].is_ascii_digit())
                        .unwrap_or(b.len());
                    let n = NUMBERS[rng.range(0, NUMBERS.len() as u64 - 1) as usize];
                    b.splice(start..end, n.bytes());
                }
            }
            0 if !b.is_empty() => {
                let i = at.min(b.len() - 1);
                b[i] = rng.range(0, 255) as u8;
            }
            1 => {
                let t = TOKENS[rng.range(0, TOKENS.len() as u64 - 1) as usize];
                b.splice(at..at, t.bytes());
            }
            2 => {
                let end = (at + rng.range(0, 40) as usize).min(b.len());
                b.drain(at..end);
            }
            _ => {
                let end = (at + rng.range(0, 200) as usize).min(b.len());
                let piece = b[at..end].to_vec();
                for _ in 0..rng.range(1, 50) {
                    if b.len() + piece.len() > MAX_INPUT {
                        break;
                    }
                    b.splice(at..at, piece.iter().copied());
                }
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

type Parser = fn(&str) -> bool;

fn corpus_scenarios() -> Vec<Scenario> {
    presets::all().map(|p| p.scenario()).collect()
}

fn corpus(which: &str) -> Vec<String> {
    let scs = corpus_scenarios();
    match which {
        "url" => {
            let mut v: Vec<String> = [
                "preset=queue&at=10",
                "preset=gc-pause&seed=9&fencing=on&at=42&lang=zh&embed=1&compare=curator,redis_lease",
                "learn=herd&at=12&lang=zh",
                "learn=&embed=1",
                "preset=custom&clients=4&recipe=kazoo&matrix=1",
            ]
            .map(String::from)
            .to_vec();
            v.extend(
                scs.iter()
                    .map(|s| format!("preset=custom&scenario={}&at=5", s.to_compact())),
            );
            v
        }
        "scenario" => scs.iter().map(Scenario::to_json).collect(),
        "host" => {
            let mut v: Vec<String> = [
                r#"{"type":"lockstep:seek","at":31}"#,
                r#"{"type":"lockstep:step","by":-3}"#,
                r#"{"type":"lockstep:step"}"#,
                r#"{"type":"lockstep:play"}"#,
                r#"{"type":"lockstep:pause","extra":[1,{"a":null}]}"#,
                r#"{"type":"lockstep:load","query":"preset=queue&at=5&lang=zh"}"#,
            ]
            .map(String::from)
            .to_vec();
            v.extend(scs.iter().take(8).map(|s| {
                serde_json::json!({"type": "lockstep:load", "query": format!("scenario={}", s.to_compact())})
                    .to_string()
            }));
            v
        }
        "compact" => scs.iter().map(Scenario::to_compact).collect(),
        "recipe" => files(concat!(env!("CARGO_MANIFEST_DIR"), "/recipes")),
        "run" => scs
            .iter()
            .map(|s| {
                let run = Run {
                    scenario: s.clone(),
                    forced: vec![
                        (3, Action::Command(Command::Crash { client: 0 })),
                        (7, Action::Scripted(0)),
                        (9, Action::Deliver(4)),
                    ],
                };
                serde_json::to_string(&run).unwrap()
            })
            .collect(),
        _ => files(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fidelity/scripts"
        )),
    }
}

/// Every file's text in a folder, in name order.
fn files(dir: &str) -> Vec<String> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect()
}

fn parsers() -> [(&'static str, Parser); 7] {
    [
        ("recipe", recipe_runs),
        ("url", |s| lockstep::view::url::parse(s).1.is_empty()),
        ("scenario", |s| Scenario::from_json(s).is_ok()),
        ("compact", |s| Scenario::from_compact(s).is_ok()),
        ("run", |s| Run::from_json(s).is_ok()),
        ("replay", |s| lockstep::replay::replay_text(s).is_ok()),
        ("host", host_message),
    ]
}

/// A recipe: compiled, and if it compiles, run by two clients for 300 steps.
fn recipe_runs(s: &str) -> bool {
    use lockstep::sim::check::{Check, Faults};
    let c = Check {
        text: s.to_string(),
        clients: 2,
        faults: Faults::default(),
    };
    let Ok(sc) = c.scenario() else {
        return false;
    };
    lockstep::sim::Simulation::new(sc).run_steps(300);
    true
}

/// A host page's message to an embed, as JSON standing in for the structured clone: its
/// fields are read as `ui::embed` reads them off the object, then checked by `view::embed`;
/// a `load` goes on to the link parser, as the page's does.
fn host_message(s: &str) -> bool {
    use lockstep::view::embed::{self, Fields, HostCommand};
    let Ok(v) = serde_json::from_str::<serde_json::Value>(s) else {
        return false;
    };
    let text = |k: &str, max: usize| {
        v.get(k)
            .and_then(|x| x.as_str())
            .filter(|x| x.encode_utf16().count() <= max)
    };
    let fields = Fields {
        kind: text("type", embed::MAX_TYPE),
        at: v.get("at").and_then(|x| x.as_f64()),
        by: v.get("by").and_then(|x| x.as_f64()),
        query: text("query", embed::MAX_QUERY),
    };
    match embed::parse(&fields, 10) {
        Ok(HostCommand::Seek(n)) => n <= embed::furthest(10),
        Ok(HostCommand::Step(by)) => by.abs() <= embed::MAX_BY,
        Ok(HostCommand::Load(q)) => lockstep::view::url::parse(&q).1.is_empty(),
        Ok(_) => true,
        Err(_) => false,
    }
}

#[test]
fn no_input_panics_or_takes_unbounded_memory() {
    let cases: u64 = std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(400);
    // The parsers' own messages for hostile input are expected; a panic message is not.
    std::panic::set_hook(Box::new(|_| {}));
    let mut slowest = (Duration::ZERO, String::new());
    let mut largest = (0usize, String::new());
    let mut total = 0;
    for (name, parse) in parsers() {
        let seeds = corpus(name);
        let mut ok = 0;
        let cases = if name == "recipe" {
            cases.max(RECIPE_CASES)
        } else {
            cases
        };
        for seed in 0..cases {
            let mut rng = SimRng::new(seed ^ 0xf022);
            let base = &seeds[seed as usize % seeds.len()];
            let input = mutate(base, &mut rng);
            let before = LIVE.load(Ordering::Relaxed);
            PEAK.store(before, Ordering::Relaxed);
            let t = Instant::now();
            let got = catch_unwind(AssertUnwindSafe(|| parse(&input)));
            let (took, used) = (t.elapsed(), PEAK.load(Ordering::Relaxed) - before);
            let shown: String = input.chars().take(300).collect();
            let failure = if got.is_err() {
                Some(format!("{name} panicked on seed {seed}: {shown:?}"))
            } else if used >= MAX_CASE_BYTES {
                Some(format!("{name}, seed {seed}: {used} bytes for {shown:?}"))
            } else {
                None
            };
            if let Some(f) = failure {
                let _ = std::panic::take_hook();
                panic!("{f}");
            }
            ok += usize::from(got.unwrap_or(false));
            if took > slowest.0 {
                slowest = (took, format!("{name} seed {seed} ({} bytes)", input.len()));
            }
            if used > largest.0 {
                largest = (used, format!("{name} seed {seed} ({} bytes)", input.len()));
            }
            total += 1;
        }
        println!("{name}: {cases} cases, {ok} still accepted");
    }
    let _ = std::panic::take_hook();
    println!(
        "{total} cases; slowest {:?}: {}; largest {} KB: {}",
        slowest.0,
        slowest.1,
        largest.0 / 1024,
        largest.1
    );
}

//! The native command line: `replay`, `run` and `scenarios`.

use std::io::Write;

use lockstep::sim::presets;
use lockstep::sim::{Lang, Scenario, Simulation};

const USAGE: &str = "usage:
  lockstep replay SCRIPT.json          run a replay script through the simulated ZooKeeper server
  lockstep run --scenario NAME [--seed N] [--steps N] [--json] [--lang en|zh]
                                       print the narrated trace of a preset (or a scenario .json file)
  lockstep scenarios [--lang en|zh]    list the presets
  lockstep matrix [--json]             run every recipe through the fault probes and print the
                                       requirements matrix
";

/// Runs the CLI and returns the process exit status (2 for bad usage or a malformed input).
pub fn main(args: &[String]) -> i32 {
    let result = match args.first().map(String::as_str) {
        Some("replay") => replay(&args[1..]),
        Some("run") => run(&args[1..]),
        Some("scenarios") => scenarios(&args[1..]),
        Some("matrix") => {
            let rows = lockstep::sim::matrix::matrix();
            if args.iter().any(|a| a == "--json") {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&rows).unwrap_or_default()
                );
            } else {
                print!("{}", lockstep::sim::matrix::render(&rows));
            }
            Ok(())
        }
        Some("-h" | "--help" | "help") => {
            print!("{USAGE}");
            Ok(())
        }
        _ => Err(format!("expected a command\n{USAGE}")),
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("lockstep: {e}");
            2
        }
    }
}

fn replay(args: &[String]) -> Result<(), String> {
    let [path] = args else {
        return Err("replay: expected exactly one SCRIPT.json argument".into());
    };
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("replay: cannot read {path}: {e}"))?;
    let out = lockstep::replay::replay_text(&text).map_err(|e| format!("replay: {path}: {e}"))?;
    let _ = writeln!(std::io::stdout().lock(), "{out}");
    Ok(())
}

/// `--flag value` pairs and bare `--switch`es.
fn flag<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map(String::as_str)
}

fn lang(args: &[String]) -> Result<Lang, String> {
    flag(args, "--lang").map_or(Ok(Lang::En), |l| {
        Lang::parse(l).ok_or(format!("--lang: expected en or zh, got {l:?}"))
    })
}

fn load_scenario(name: &str) -> Result<Scenario, String> {
    if let Some(p) = presets::find(name) {
        return Ok(p.scenario());
    }
    if name.ends_with(".json") {
        let text = std::fs::read_to_string(name).map_err(|e| format!("cannot read {name}: {e}"))?;
        return Scenario::from_json(&text);
    }
    Err(format!(
        "unknown scenario {name:?}; `lockstep scenarios` lists the presets"
    ))
}

fn run(args: &[String]) -> Result<(), String> {
    let name = flag(args, "--scenario").ok_or("run: --scenario NAME is required")?;
    let mut sc = load_scenario(name)?;
    if let Some(seed) = flag(args, "--seed") {
        sc.seed = seed
            .parse()
            .map_err(|_| format!("--seed: expected a non-negative integer, got {seed:?}"))?;
    }
    let steps: u64 = flag(args, "--steps").map_or(Ok(500), |s| {
        s.parse()
            .map_err(|_| format!("--steps: expected a number, got {s:?}"))
    })?;
    let lang = lang(args)?;
    let mut sim = Simulation::new(sc);
    sim.run_steps(steps);
    let mut out = std::io::stdout().lock();
    if args.iter().any(|a| a == "--json") {
        let _ = writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(sim.records()).unwrap_or_default()
        );
        return Ok(());
    }
    for r in sim.records() {
        let _ = writeln!(
            out,
            "{:>5} t={:<4} {}",
            r.index,
            r.time,
            r.narration.text(lang)
        );
    }
    let m = &sim.world().monitors;
    let _ = writeln!(out, "-- {} steps; monitors: belief={:?} ownership={:?} lost_update={:?} stuck={:?}; herd factor {:.2}",
        sim.len(), m.belief, m.ownership, m.lost_update, m.stuck, sim.world().metrics.herd_factor());
    Ok(())
}

fn scenarios(args: &[String]) -> Result<(), String> {
    let lang = lang(args)?;
    let mut out = std::io::stdout().lock();
    for p in presets::all() {
        let _ = writeln!(
            out,
            "{:<22} {}\n{:<22} {}\n",
            p.id,
            p.title(lang),
            "",
            p.lesson(lang)
        );
    }
    Ok(())
}

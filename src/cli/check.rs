//! The command line's `check` and `run --recipe`: a recipe file in the language, searched
//! exhaustively or run on the simulated service.

use std::io::Write;

use lockstep::sim::check::{Check, Faults, CLIENTS};
use lockstep::sim::explore::Explorer;
use lockstep::sim::{Scenario, Simulation};

use super::{lang, printable, read_bounded, Flags};

/// The most states `check --max-states` searches (memory grows with it: about 2 KB a state).
const MAX_STATES: usize = 5_000_000;

fn recipe(file: &str, f: &Flags) -> Result<Check, String> {
    let text = read_bounded(file, lockstep::recipes::program::MAX_TEXT, "a recipe")?;
    let clients = f.get("--clients").map_or(Ok(2), |n| {
        n.parse::<u32>()
            .ok()
            .filter(|n| CLIENTS.contains(n))
            .ok_or_else(|| {
                let (a, b) = (CLIENTS.start(), CLIENTS.end());
                format!("--clients: expected {a} to {b}, got {n:?}")
            })
    })?;
    let faults = Faults::parse(f.get("--faults").unwrap_or(""))
        .map_err(|e| format!("--faults: {}", printable(&e, false)))?;
    Ok(Check {
        text,
        clients,
        faults,
    })
}

fn shown(file: &str, e: &str) -> String {
    format!("{}: {}", printable(file, false), printable(e, false))
}

/// `run --recipe FILE`: the scenario that runs the recipe (its clients, a seeded run).
pub fn recipe_scenario(file: &str, f: &Flags) -> Result<Scenario, String> {
    let c = recipe(file, f)?;
    let mut sc = c.scenario().map_err(|e| shown(file, &e))?;
    // A timed run: the scenario's usual hold times, so leases and sessions matter.
    let base = Scenario::default();
    (sc.hold_min, sc.hold_max) = (base.hold_min, base.hold_max);
    Ok(sc)
}

/// `check --recipe FILE`: the verdict, and the shortest run that breaks the recipe.
pub fn check(args: &[String]) -> Result<(), String> {
    let f = Flags::parse(
        args,
        &[
            "--recipe",
            "--clients",
            "--faults",
            "--max-states",
            "--lang",
        ],
        &[],
    )?;
    let file = f
        .get("--recipe")
        .ok_or("check: --recipe FILE is required")?;
    let c = recipe(file, &f)?;
    let lang = lang(&f)?;
    let max = f.get("--max-states").map_or(Ok(400_000), |n| {
        n.parse::<usize>()
            .ok()
            .filter(|n| (1..=MAX_STATES).contains(n))
            .ok_or_else(|| format!("--max-states: expected 1 to {MAX_STATES}, got {n:?}"))
    })?;
    let sc = c.scenario().map_err(|e| shown(file, &e))?;
    let started = std::time::Instant::now();
    let mut search = Explorer::new(&sc, &c.config(max));
    let outcome = loop {
        if let Some(o) = search.run(50_000) {
            break o;
        }
        eprint!("\r{} states…", search.states());
    };
    eprint!("\r");
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "{} clients, faults: {}. {}",
        c.clients,
        c.faults.names(),
        lockstep::view::learn::text::outcome(&outcome, ms, lang)
    );
    if outcome.depth_cut {
        let _ = writeln!(
            out,
            "(some runs were cut at depth {}: the verdict holds up to there)",
            outcome.depth
        );
    }
    let Some((_, run)) = outcome.counterexample else {
        return Ok(());
    };
    let end = run.forced.len() as u64;
    let mut sim = Simulation::from_run(run);
    sim.run_steps(end);
    for r in sim.records() {
        let _ = writeln!(out, "{:>5} {}", r.index, r.narration.text(lang));
    }
    Ok(())
}

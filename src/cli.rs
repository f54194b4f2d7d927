//! The native command line: `replay`, `run`, `check`, `scenarios` and `matrix`.

use std::io::Write;

mod check;

use lockstep::sim::presets;
use lockstep::sim::{Lang, Scenario, Simulation};

const USAGE: &str = "usage:
  lockstep replay SCRIPT.json          run a replay script through the simulated ZooKeeper server
  lockstep run --scenario NAME [--seed N] [--steps N] [--json] [--lang en|zh]
                                       print the narrated trace of a preset (or a scenario .json file)
  lockstep run --recipe FILE [--clients N] [--seed N] [--steps N] [--json] [--lang en|zh]
                                       print the narrated trace of a recipe in the language
  lockstep check --recipe FILE [--clients N] [--faults crash,pause,close] [--max-states N] [--lang en|zh]
                                       search every interleaving: the shortest run that breaks
                                       the recipe, or how many states hold no violation
  lockstep scenarios [--lang en|zh]    list the presets
  lockstep matrix [--json]             run every recipe through the fault probes and print the
                                       requirements matrix
";

/// Runs the CLI and returns the process exit status (2 for bad usage or a malformed input).
pub fn main(args: &[String]) -> i32 {
    let result = match args.first().map(String::as_str) {
        Some("replay") => replay(&args[1..]),
        Some("run") => run(&args[1..]),
        Some("check") => check::check(&args[1..]),
        Some("scenarios") => scenarios(&args[1..]),
        Some("matrix") => matrix(&args[1..]),
        Some("-h" | "--help" | "help") => {
            print!("{USAGE}");
            Ok(())
        }
        _ => Err(format!("expected a command\n{USAGE}")),
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            // The pieces quoted from files and arguments are escaped where they are quoted
            // (newlines too); this keeps the line breaks of the messages written here.
            eprintln!("lockstep: {}", printable(&e, true));
            2
        }
    }
}

/// `text` with every control character (ESC, BEL, NUL, …, C1) and every bidirectional-text
/// control written as a Rust escape (`\u{1b}`, `\0`, `\u{202e}`), so a message quoting a file or
/// an argument cannot drive the terminal or reorder what it shows; with `newlines`, a `\n` stays
/// a line break.
pub(crate) fn printable(text: &str, newlines: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' if newlines => out.push(c),
            '\u{61c}'
            | '\u{200e}'
            | '\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2066}'..='\u{2069}' => out.extend(c.escape_unicode()),
            _ if c.is_control() => out.extend(c.escape_debug()),
            _ => out.push(c),
        }
    }
    out
}

fn matrix(args: &[String]) -> Result<(), String> {
    let f = Flags::parse(args, &[], &["--json"])?;
    let rows = lockstep::sim::matrix::matrix();
    if f.has("--json") {
        println!(
            "{}",
            serde_json::to_string_pretty(&rows).unwrap_or_default()
        );
    } else {
        print!("{}", lockstep::sim::matrix::render(&rows));
    }
    Ok(())
}

fn replay(args: &[String]) -> Result<(), String> {
    let [path] = args else {
        return Err("replay: expected exactly one SCRIPT.json argument".into());
    };
    use lockstep::replay::{output_limit, MAX_SCRIPT_BYTES};
    let shown = printable(path, false);
    let text = read_bounded(path, MAX_SCRIPT_BYTES, "a replay script")
        .map_err(|e| format!("replay: {e}"))?;
    let script = lockstep::replay::parse(&text)
        .map_err(|e| format!("replay: {shown}: {}", printable(&e.to_string(), false)))?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    // A closed stdout (`| head`) ends the replay; nothing is left to report it to.
    let Ok(summary) = lockstep::replay::write(&script, output_limit(text.len()), &mut out) else {
        return Ok(());
    };
    let _ = out.flush();
    if summary.truncated {
        eprintln!(
            "lockstep: replay: {shown}: the output stopped at its limit of {} bytes after {} of {} ops (see \"truncated\")",
            summary.limit, summary.written, summary.ops
        );
    }
    Ok(())
}

/// A file's text, refused before reading if it is larger than `max` bytes (and while reading,
/// should it grow or be a pipe), with a message naming the limit.
pub(crate) fn read_bounded(path: &str, max: usize, what: &str) -> Result<String, String> {
    use std::io::Read;
    let shown = printable(path, false);
    let too_big = || format!("{shown} is larger than {max} bytes, the most {what} may be");
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read {shown}: {e}"))?;
    if file.metadata().is_ok_and(|m| m.len() > max as u64) {
        return Err(too_big());
    }
    let mut bytes = Vec::new();
    file.take(max as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {shown}: {e}"))?;
    if bytes.len() > max {
        return Err(too_big());
    }
    String::from_utf8(bytes)
        .map_err(|_| format!("cannot read {shown}: stream did not contain valid UTF-8"))
}

/// The most steps `run --steps` computes: what a history keeps.
const MAX_STEPS: u64 = lockstep::sim::MAX_HISTORY;

/// A command's flags: `--flag value` pairs and bare `--switch`es, each known to the command;
/// anything else (an unknown flag, a flag without its value, a stray word) is refused.
pub(crate) struct Flags<'a> {
    values: Vec<(&'a str, &'a str)>,
    switches: Vec<&'a str>,
}

impl<'a> Flags<'a> {
    pub(crate) fn parse(
        args: &'a [String],
        valued: &[&str],
        switches: &[&str],
    ) -> Result<Flags<'a>, String> {
        let mut f = Flags {
            values: Vec::new(),
            switches: Vec::new(),
        };
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let a = a.as_str();
            if valued.contains(&a) {
                let v = it.next().filter(|v| !v.starts_with("--"));
                let v = v.ok_or_else(|| format!("{a} needs a value"))?;
                f.values.push((a, v.as_str()));
            } else if switches.contains(&a) {
                f.switches.push(a);
            } else {
                let known: Vec<&str> = valued.iter().chain(switches).copied().collect();
                return Err(format!(
                    "unknown argument {a:?} (this command takes {})",
                    known.join(", ")
                ));
            }
        }
        Ok(f)
    }

    pub(crate) fn get(&self, name: &str) -> Option<&'a str> {
        self.values
            .iter()
            .rev()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| *v)
    }

    pub(crate) fn has(&self, name: &str) -> bool {
        self.switches.contains(&name)
    }
}

pub(crate) fn lang(f: &Flags) -> Result<Lang, String> {
    f.get("--lang").map_or(Ok(Lang::En), |l| {
        Lang::parse(l).ok_or(format!("--lang: expected en or zh, got {l:?}"))
    })
}

fn load_scenario(name: &str) -> Result<Scenario, String> {
    if let Some(p) = presets::find(name) {
        return Ok(p.scenario());
    }
    if name.ends_with(".json") {
        let shown = printable(name, false);
        let most = lockstep::sim::scenario::MAX_SCENARIO_BYTES;
        let text = read_bounded(name, most, "a scenario file")?;
        return Scenario::from_json(&text)
            .map_err(|e| format!("{shown}: {}", printable(&e, false)));
    }
    Err(format!(
        "unknown scenario {name:?}; `lockstep scenarios` lists the presets"
    ))
}

fn run(args: &[String]) -> Result<(), String> {
    let f = Flags::parse(
        args,
        &[
            "--scenario",
            "--recipe",
            "--clients",
            "--seed",
            "--steps",
            "--lang",
        ],
        &["--json"],
    )?;
    let mut sc = match (f.get("--scenario"), f.get("--recipe")) {
        (Some(name), None) => load_scenario(name)?,
        (None, Some(file)) => check::recipe_scenario(file, &f)?,
        _ => return Err("run: give --scenario NAME or --recipe FILE".into()),
    };
    if let Some(seed) = f.get("--seed") {
        sc.seed = seed
            .parse()
            .map_err(|_| format!("--seed: expected a non-negative integer, got {seed:?}"))?;
    }
    let steps: u64 = f.get("--steps").map_or(Ok(500), |s| {
        s.parse()
            .ok()
            .filter(|n| *n <= MAX_STEPS)
            .ok_or_else(|| format!("--steps: expected a number up to {MAX_STEPS}, got {s:?}"))
    })?;
    let lang = lang(&f)?;
    let mut sim = Simulation::new(sc);
    sim.run_steps(steps);
    let mut out = std::io::stdout().lock();
    if f.has("--json") {
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
    if let Some(l) = sim.limit() {
        let _ = writeln!(out, "-- stopped: {}", l.message());
    }
    let m = &sim.world().monitors;
    let _ = writeln!(out, "-- {} steps; monitors: belief={:?} ownership={:?} lost_update={:?} stuck={:?}{}; herd factor {:.2}",
        sim.len(), m.belief, m.ownership, m.lost_update, m.stuck, if m.dead_end { " (a dead end)" } else if m.churn { " (only the flaky network can change it)" } else { "" }, sim.world().metrics.herd_factor());
    // The service's own protocol (Zab: two leaders in one epoch, a committed transaction lost).
    if let Some((step, what)) = &m.protocol {
        let _ = writeln!(out, "-- protocol broken at step {step}: {what}");
    }
    Ok(())
}

fn scenarios(args: &[String]) -> Result<(), String> {
    let lang = lang(&Flags::parse(args, &["--lang"], &[])?)?;
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

//! The native command line: `lockstep replay SCRIPT.json` (more commands come with the simulator).

use std::io::Write;

const USAGE: &str = "usage:\n  lockstep replay SCRIPT.json   run a replay script through the simulated ZooKeeper server\n";

/// Runs the CLI and returns the process exit status (2 for bad usage or a malformed script).
pub fn main(args: &[String]) -> i32 {
    match args.first().map(String::as_str) {
        Some("replay") => replay(&args[1..]),
        Some("-h" | "--help" | "help") => {
            print!("{USAGE}");
            0
        }
        _ => {
            eprint!("{USAGE}");
            2
        }
    }
}

fn replay(args: &[String]) -> i32 {
    let [path] = args else {
        eprintln!("lockstep replay: expected exactly one SCRIPT.json argument");
        return 2;
    };
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("lockstep replay: cannot read {path}: {e}");
            return 2;
        }
    };
    match lockstep::replay::replay_text(&text) {
        Ok(out) => {
            let mut stdout = std::io::stdout().lock();
            let _ = writeln!(stdout, "{out}");
            0
        }
        Err(e) => {
            eprintln!("lockstep replay: {path}: {e}");
            2
        }
    }
}

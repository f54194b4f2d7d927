//! The replay format: a script of ZooKeeper operations per session index in, what every session
//! saw out (results, reply zxids, watch events, final tree). The same script run against a real
//! ZooKeeper 3.8 (see `tests/fidelity/record.py`) must give the same JSON.
//!
//! Limits keep a hostile script from taking unbounded time, memory or output: the script is at
//! most [`MAX_SCRIPT_BYTES`], an op at most [`MAX_OP_BYTES`], at most [`MAX_OPS`] operations
//! and [`MAX_CONNECTS`] connects, each refused when met while reading; the output is written
//! while the script runs and stops at [`output_limit`] of the script's size, saying so.

mod read;
mod run;
mod script;
mod write;

pub use read::parse;
pub use run::run;
pub use script::{Action, Script, ScriptError, ScriptOp};
pub use write::{output_limit, write, Summary};

/// The largest script read (16 MiB).
pub const MAX_SCRIPT_BYTES: usize = 16 << 20;
/// The largest op (1 MiB: ZooKeeper's default `jute.maxbuffer` refuses a larger request).
pub const MAX_OP_BYTES: usize = 1 << 20;
/// The most operations a script may hold, the sub-ops of every multi counted.
pub const MAX_OPS: usize = 200_000;
/// The most `connect` ops (sessions) a script may hold.
pub const MAX_CONNECTS: usize = 100_000;
/// Output may be this many times the script's size…
pub const OUTPUT_PER_SCRIPT_BYTE: u64 = 32;
/// …plus this much (1 MiB).
pub const OUTPUT_EXTRA: u64 = 1 << 20;

/// Parses and runs a script, returning its output document (within the output limit).
pub fn replay_text(text: &str) -> Result<String, ScriptError> {
    let script = parse(text)?;
    let mut out = Vec::new();
    // Writing into memory cannot fail.
    let _ = write(&script, output_limit(text.len()), &mut out);
    Ok(String::from_utf8_lossy(&out).into_owned())
}

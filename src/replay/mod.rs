//! The replay format: a script of ZooKeeper operations per session index in, what every session
//! saw out (results, reply zxids, watch events, final tree). The same script run against a real
//! ZooKeeper 3.8 (see `tests/fidelity/record.py`) must give the same JSON.

mod run;
mod script;

pub use run::run;
pub use script::{parse, Action, Script, ScriptError, ScriptOp};

/// Parses and runs a script, returning pretty JSON text.
pub fn replay_text(text: &str) -> Result<String, ScriptError> {
    let script = parse(text)?;
    Ok(serde_json::to_string_pretty(&run(&script)).unwrap_or_default())
}

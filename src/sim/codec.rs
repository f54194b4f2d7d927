//! A scenario as text: pretty JSON and the compact URL-safe form (base64url of minified JSON),
//! read by `scenario_json` (its errors name the field they are in).

use super::history::Run;
use super::scenario::{Scenario, MAX_SCENARIO_BYTES};

/// Refuses a text larger than [`MAX_SCENARIO_BYTES`] before anything parses it.
fn small_enough(what: &str, text: &str) -> Result<(), String> {
    if text.len() > MAX_SCENARIO_BYTES {
        return Err(format!(
            "the {what} is {} bytes, more than the {MAX_SCENARIO_BYTES} bytes (4 MiB) a scenario \
             or run may be",
            text.len()
        ));
    }
    Ok(())
}

impl Run {
    /// An imported run: a `Run` JSON (with `scenario` and `forced`), or just a `Scenario` JSON;
    /// checked whole (the message names what is wrong).
    pub fn from_json(text: &str) -> Result<Run, String> {
        small_enough("run", text)?;
        // A run file has a `scenario` field; a scenario file does not.
        let run = if crate::json_read::has_field(text, "scenario") {
            super::scenario_json::read_run(text)?
        } else {
            Run {
                scenario: Scenario::from_json(text)?,
                forced: Vec::new(),
            }
        };
        run.validate()?;
        Ok(run)
    }
}

impl Scenario {
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    pub fn from_json(text: &str) -> Result<Scenario, String> {
        small_enough("scenario", text)?;
        let s = super::scenario_json::read_scenario(text)?;
        s.validate()?;
        Ok(s)
    }

    /// A compact URL-safe form: base64url (no padding) of the minified JSON.
    pub fn to_compact(&self) -> String {
        let json = super::scenario_json::write_scenario(self);
        crate::b64url::encode(json)
    }

    pub fn from_compact(s: &str) -> Result<Scenario, String> {
        if s.len() > 20_000 {
            return Err("scenario string is too long".into());
        }
        let bytes = crate::b64url::decode(s.trim())
            .map_err(|e| format!("scenario string is not base64url: {e}"))?;
        let text = String::from_utf8(bytes)
            .map_err(|_| "scenario string is not UTF-8 JSON".to_string())?;
        Self::from_json(&text)
    }
}

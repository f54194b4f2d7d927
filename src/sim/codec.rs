//! A scenario as text: pretty JSON, the compact URL-safe form (base64url of minified JSON), and
//! JSON errors that name the field they are in.

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
        // Whether the object has a `scenario` field (cheaper in the bundle than a `Value`).
        #[derive(serde::Deserialize)]
        struct Shape {
            scenario: Option<serde::de::IgnoredAny>,
        }
        let is_run = serde_json::from_str::<Shape>(text).is_ok_and(|s| s.scenario.is_some());
        let run = if is_run {
            serde_json::from_str::<Run>(text).map_err(|e| json_error("run", text, &e))?
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
        let s: Scenario =
            serde_json::from_str(text).map_err(|e| json_error("scenario", text, &e))?;
        s.validate()?;
        Ok(s)
    }

    /// A compact URL-safe form: base64url (no padding) of the minified JSON.
    pub fn to_compact(&self) -> String {
        let json = serde_json::to_string(self).unwrap_or_default();
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

/// A JSON error that names the field it is in: the last `"key":` before the error's position.
pub fn json_error(what: &str, text: &str, e: &serde_json::Error) -> String {
    let offset: usize = text
        .split_inclusive('\n')
        .take(e.line().saturating_sub(1))
        .map(str::len)
        .sum::<usize>()
        + e.column();
    let mut end = offset.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let before = &text[..end];
    match last_key(before) {
        Some(key) if e.is_data() => format!("{what} field `{key}`: {e}"),
        _ => format!("{what} JSON: {e}"),
    }
}

fn last_key(text: &str) -> Option<&str> {
    let colon = text.rfind(':')?;
    let head = text[..colon].trim_end().strip_suffix('"')?;
    let start = head.rfind('"')?;
    Some(&head[start + 1..])
}

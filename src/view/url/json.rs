//! The parameters that carry JSON: `scenario=` (a scenario, base64url of its JSON) and `run=`
//! (an imported run file, base64url of its text). The lean first page reads neither: serde's
//! reader of a scenario and its fault script is about 10 KB gzip of it, so it hands such a link
//! to the full page (`UrlState::needs_full`), as it does a lesson.

use super::{UrlState, CUSTOM, UI_MAX_CLIENTS};
use crate::sim::{Run, Scenario};

/// True where the lean page hands the parameter over instead of reading it (its tests read it).
fn elsewhere(st: &mut UrlState) -> bool {
    let lean = !crate::view::FULL && !cfg!(test);
    st.elsewhere |= lean;
    lean
}

/// `scenario=`: the run's scenario, whole.
pub(super) fn scenario(st: &mut UrlState, v: &str, errors: &mut Vec<String>) {
    if elsewhere(st) {
        return;
    }
    match Scenario::from_compact(v) {
        Ok(sc) => st.run.scenario = sc,
        Err(e) => errors.push(format!("`scenario`: {e}")),
    }
}

/// `run=`: an imported run, from its first step, in place of the link's own; a bad one leaves
/// the link's run, with the reason (the lean page hands a file over with its own state).
pub(super) fn run(st: &mut UrlState, v: &str, errors: &mut Vec<String>) {
    if elsewhere(st) {
        return;
    }
    let text = crate::b64url::decode(v.trim())
        .map_err(|e| format!("not base64url ({e})"))
        .and_then(|b| String::from_utf8(b).map_err(|_| "not UTF-8".to_string()));
    match text.and_then(|t| read_run(&t)) {
        Ok(run) => {
            (st.preset, st.run, st.at) = (CUSTOM.into(), run, 0);
        }
        Err(e) => errors.push(format!("`run`: {e}; the page keeps the link's run")),
    }
}

/// An imported run file: a `Run` JSON (with `scenario` and `forced`), or just a `Scenario`
/// JSON, with no more clients than this screen shows.
pub fn read_run(text: &str) -> Result<Run, String> {
    let run = Run::from_json(text)?;
    if run.scenario.clients > UI_MAX_CLIENTS {
        return Err(format!(
            "{} clients is more than this screen shows ({UI_MAX_CLIENTS})",
            run.scenario.clients
        ));
    }
    Ok(run)
}

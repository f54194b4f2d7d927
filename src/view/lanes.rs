//! The view model's client lanes: phase, connection state, session or lease countdown, token.

use super::frame::ClientRow;
use super::i18n::t;
use crate::narrate::phase_text;
use crate::recipes::Phase;
use crate::services::ConnState;
use crate::sim::app::AppState;
use crate::sim::client::{Client, Proc};
use crate::sim::{Lang, World};

fn phase_class(p: &Phase) -> &'static str {
    match p {
        Phase::Idle => "idle",
        Phase::Creating | Phase::Requesting => "creating",
        Phase::Listing => "listing",
        Phase::Watching(_) => "watching",
        Phase::Holding => "holding",
        Phase::Releasing => "releasing",
        Phase::Waiting(_) => "waiting",
        Phase::Backoff => "backoff",
    }
}

pub fn client_row(w: &World, c: &Client, lang: Lang) -> ClientRow {
    let phase = c.recipe.phase();
    let (state_class, state_key) = match (c.proc, c.lib.conn_state()) {
        (Proc::Crashed, _) => ("crashed", "state.crashed"),
        (Proc::Closed, _) => ("closed", "state.closed"),
        (Proc::Paused { .. }, _) => ("paused", "state.paused"),
        (_, ConnState::Connected) => ("connected", "state.connected"),
        (_, ConnState::Connecting) => ("connecting", "state.connecting"),
        (_, ConnState::Disconnected) => ("disconnected", "state.disconnected"),
        (_, ConnState::Expired) => ("expired", "state.expired"),
        (_, ConnState::Closed) => ("closed", "state.closed"),
    };
    let claim = c.claim();
    let session = claim
        .session
        .map(|s| format!("0x{s:x}"))
        .or_else(|| claim.lease.map(|l| format!("lease {l:x}")));
    let done = c.app.state == AppState::Done;
    ClientRow {
        id: c.id,
        name: c.name(),
        phase_class: if done && phase == Phase::Idle {
            "done"
        } else {
            phase_class(&phase)
        },
        phase: if done && phase == Phase::Idle {
            t("phase.done", lang).to_string()
        } else {
            phase_text(&phase, lang)
        },
        node: c.recipe.my_node().map(str::to_string),
        session: session.unwrap_or_else(|| "—".into()),
        state_class,
        state: t(state_key, lang).to_string(),
        expires_in: w.service.expires_in(w.now, &claim),
        // The session timeout means something only where there are sessions.
        timeout: c.lib.session_timeout(),
        hold_count: c.recipe.hold_count(),
        token: c.app.token,
        holding: c.recipe.holding(),
        waits: c.app.waits.iter().copied().collect(),
        acquisitions: c.app.acquisitions,
        partitioned: w.net.partitioned.contains(&c.id),
    }
}

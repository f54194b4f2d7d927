//! The view model's client lanes: phase, connection state, session or lease countdown, token.

use super::frame::ClientRow;
use super::i18n::t;
use crate::recipes::Phase;
use crate::sim::app::AppState;
use crate::sim::client::{Client, Proc};
use crate::sim::narrate::phase_text;
use crate::sim::zkclient::Conn;
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
    let zk = w.server().is_some();
    let (state_class, state_key) = match (c.proc, c.zk.conn) {
        (Proc::Crashed, _) => ("crashed", "state.crashed"),
        (Proc::Closed, _) => ("closed", "state.closed"),
        (Proc::Paused { .. }, _) => ("paused", "state.paused"),
        _ if !zk => ("connected", "state.connected"),
        (_, Conn::Connected) => ("connected", "state.connected"),
        (_, Conn::Connecting) => ("connecting", "state.connecting"),
        (_, Conn::Disconnected) => ("disconnected", "state.disconnected"),
        (_, Conn::Expired) => ("expired", "state.expired"),
        (_, Conn::Closed) => ("closed", "state.closed"),
    };
    let session = c.zk.session;
    let expires_in = match w.server() {
        Some(srv) => session.and_then(|s| srv.sessions().get(s)).map(|s| s.expires_at as i64 - w.now as i64),
        #[cfg(feature = "services")]
        None => super::svc_frame::expiry(w, c),
        #[cfg(not(feature = "services"))]
        None => None,
    };
    let done = c.app.state == AppState::Done;
    ClientRow {
        id: c.id,
        name: c.name(),
        phase_class: if done && phase == Phase::Idle { "done" } else { phase_class(&phase) },
        phase: if done && phase == Phase::Idle { t("phase.done", lang).to_string() } else { phase_text(&phase, lang) },
        node: c.recipe.my_node().map(str::to_string),
        session: session.map(|s| s.to_string()).or_else(|| c.recipe.etcd_lease().map(|l| format!("lease {l:x}"))).unwrap_or_else(|| "—".into()),
        state_class,
        state: t(state_key, lang).to_string(),
        expires_in,
        // The session timeout means something only for ZooKeeper sessions.
        timeout: if w.server().is_some() { c.zk.timeout } else { 0 },
        hold_count: c.recipe.hold_count(),
        token: c.app.token,
        holding: c.recipe.holding(),
        waits: c.app.waits.iter().copied().collect(),
        acquisitions: c.app.acquisitions,
        partitioned: w.net.partitioned.contains(&c.id),
    }
}


//! The view model: everything the screen shows for one frame, computed from the world as plain
//! data (so it is unit-tested natively and the Leptos view only renders it).

use crate::engine::{NodeKind, WatchTable};
use crate::sim::resource::WriteRecord;
use crate::sim::types::{Node, Tick};
use crate::sim::{Lang, Simulation, World};

use super::i18n::t;

#[derive(Clone, Debug, PartialEq)]
pub struct ZnodeRow {
    pub path: String,
    pub name: String,
    pub depth: usize,
    pub ephemeral: bool,
    pub sequential: bool,
    pub container: bool,
    pub owner: Option<usize>,
    pub czxid: i64,
    pub mzxid: i64,
    pub pzxid: i64,
    pub version: i32,
    pub cversion: i32,
    pub num_children: i32,
    /// Created by the step that led to this frame.
    pub fresh: bool,
    /// For the other lock services: the entry's fields in the server's words.
    pub detail: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ClientRow {
    pub id: usize,
    pub name: String,
    /// A stable CSS modifier for the phase (`holding`, `watching`, …).
    pub phase_class: &'static str,
    pub phase: String,
    pub node: Option<String>,
    pub session: String,
    pub state_class: &'static str,
    pub state: String,
    /// Ticks until the server would expire the session (None when not applicable).
    pub expires_in: Option<i64>,
    pub timeout: Tick,
    pub hold_count: u32,
    pub token: Option<i64>,
    pub holding: bool,
    pub waits: Vec<Tick>,
    pub acquisitions: u64,
    pub partitioned: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct WatchEdge {
    pub client: usize,
    pub path: String,
    pub child: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MessageDot {
    pub id: u64,
    pub client: Option<usize>,
    /// Towards the client (reply/notification) or away from it.
    pub inbound: bool,
    pub to_resource: bool,
    pub progress: f64,
    pub label: String,
    pub lost: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MonitorView {
    pub belief: Option<u64>,
    pub ownership: Option<u64>,
    pub lost_update: Option<u64>,
    pub stuck: Option<u64>,
    pub believers: Vec<usize>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    pub step: u64,
    pub len: u64,
    pub time: Tick,
    pub finished: bool,
    pub narration: String,
    pub tree: Vec<ZnodeRow>,
    pub clients: Vec<ClientRow>,
    pub watches: Vec<WatchEdge>,
    /// Znodes the step deleted (drawn fading out).
    pub removed: Vec<String>,
    /// Watches that fired in this step: (client, path).
    pub fired: Vec<(usize, String)>,
    pub messages: Vec<MessageDot>,
    pub value: u64,
    pub highest_token: i64,
    pub fencing: bool,
    /// The resource hands out IDs (a lost update is then a duplicate ID).
    pub ids: bool,
    pub writes: Vec<WriteRecord>,
    pub accepted: u64,
    pub rejected: u64,
    pub monitors: MonitorView,
    pub requests: u64,
    pub notifications: u64,
    pub herd_factor: f64,
    pub last_zxid: i64,
    /// "ZooKeeper", "Redis", "etcd" or "SQL".
    pub service: &'static str,
    pub recipe: &'static str,
}

/// Builds the frame at the simulation's cursor.
pub fn build(sim: &Simulation, lang: Lang) -> Frame {
    let w = sim.world();
    let current = sim.current();
    let created: Vec<String> = current
        .map(|r| match &r.narration.b {
            crate::sim::narrate::Detail::Created { path, .. } => vec![path.clone()],
            _ => Vec::new(),
        })
        .unwrap_or_default();
    let m = &w.monitors;
    Frame {
        step: sim.cursor(),
        len: sim.len(),
        time: w.now,
        finished: sim.finished(),
        narration: current.map_or_else(|| t("narration.start", lang).to_string(), |r| r.narration.text(lang)),
        tree: tree(w, &created),
        clients: w.clients.iter().map(|c| super::lanes::client_row(w, c, lang)).collect(),
        watches: watches(w),
        removed: current.map(|r| r.deleted.clone()).unwrap_or_default(),
        fired: current.map(|r| r.fired.iter().map(|(c, _, p)| (*c, p.clone())).collect()).unwrap_or_default(),
        messages: messages(w),
        value: w.resource.value,
        highest_token: w.resource.highest_token,
        fencing: w.resource.fencing,
        ids: sim.scenario().resource == crate::sim::scenario::ResourceKind::IdGenerator,
        writes: w.resource.writes.iter().cloned().collect(),
        accepted: w.resource.accepted,
        rejected: w.resource.rejected,
        monitors: MonitorView { belief: m.belief, ownership: m.ownership, lost_update: m.lost_update, stuck: m.stuck, believers: m.now.believers.clone() },
        requests: w.metrics.requests,
        notifications: w.metrics.notifications,
        herd_factor: w.metrics.herd_factor(),
        last_zxid: w.server().map_or(0, |s| s.last_zxid()),
        service: w.service_kind().name(),
        recipe: sim.scenario().recipe.name(),
    }
}

/// The user's znodes (not `/zookeeper`), parents before children, siblings in sequence order.
fn tree(w: &World, created: &[String]) -> Vec<ZnodeRow> {
    #[cfg(feature = "services")]
    let Some(server) = w.server() else { return super::svc_frame::rows(w, created) };
    #[cfg(not(feature = "services"))]
    let Some(server) = w.server() else { return Vec::new() };
    let t = server.tree();
    let mut rows = Vec::new();
    let mut stack: Vec<(String, usize)> = vec![("/".into(), 0)];
    while let Some((path, depth)) = stack.pop() {
        let Some(node) = t.get(&path) else { continue };
        if path != "/" {
            rows.push(row(w, &path, depth, node, created));
        }
        let names: Vec<String> = node.children.iter().filter(|c| !(path == "/" && *c == "zookeeper")).cloned().collect();
        let kids = crate::recipes::decide::sorted(&names, &["lock-", "__READ__", "__WRIT__", "-"]);
        for k in kids.into_iter().rev() {
            stack.push((crate::engine::path::join(&path, k), depth + 1));
        }
    }
    rows
}

fn row(w: &World, path: &str, depth: usize, node: &crate::engine::tree::Znode, created: &[String]) -> ZnodeRow {
    let st = node.stat();
    let owner = match node.kind {
        NodeKind::Ephemeral(s) => w.session_owner.get(&s).copied(),
        _ => None,
    };
    let name = crate::engine::path::child_name(path).to_string();
    let sequential = name.len() >= 10 && name[name.len() - 10..].bytes().all(|b| b.is_ascii_digit());
    ZnodeRow {
        path: path.to_string(),
        name,
        depth: depth.saturating_sub(1),
        ephemeral: matches!(node.kind, NodeKind::Ephemeral(_)),
        sequential,
        container: node.kind == NodeKind::Container,
        owner,
        czxid: st.czxid,
        mzxid: st.mzxid,
        pzxid: st.pzxid,
        version: st.version,
        cversion: st.cversion,
        num_children: st.num_children,
        fresh: created.iter().any(|c| c == path),
        detail: String::new(),
    }
}

fn watches(w: &World) -> Vec<WatchEdge> {
    #[cfg(feature = "services")]
    let Some(server) = w.server() else { return super::svc_frame::watches(w) };
    #[cfg(not(feature = "services"))]
    let Some(server) = w.server() else { return Vec::new() };
    server
        .watches()
        .all()
        .into_iter()
        .filter_map(|(table, path, s)| {
            let client = *w.session_owner.get(&s)?;
            Some(WatchEdge { client, path, child: table == WatchTable::Child })
        })
        .collect()
}

fn messages(w: &World) -> Vec<MessageDot> {
    let dot = |e: &crate::sim::network::Envelope| {
        let span = e.deliver_at.saturating_sub(e.sent_at).max(1) as f64;
        let progress = ((w.now.saturating_sub(e.sent_at)) as f64 / span).clamp(0.0, 1.0);
        let (client, inbound) = match (e.from, e.to) {
            (Node::Client(c), _) => (Some(c), false),
            (_, Node::Client(c)) => (Some(c), true),
            _ => (None, false),
        };
        let to_resource = e.to == Node::Resource || e.from == Node::Resource;
        MessageDot { id: e.id, client, inbound, to_resource, progress, label: e.payload.label(), lost: e.lost }
    };
    w.net.in_flight().chain(w.net.lost()).map(dot).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::presets;

    #[test]
    fn frame_shows_queue_in_sequence_order_with_owners() {
        let mut sim = Simulation::new(presets::find("queue").unwrap().scenario());
        let mut f = build(&sim, Lang::En);
        while f.watches.is_empty() && sim.step() {
            f = build(&sim, Lang::En);
        }
        let names: Vec<&str> = f.tree.iter().filter(|r| r.depth == 1).map(|r| r.name.as_str()).collect();
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(names, sorted);
        assert!(f.tree.iter().any(|r| r.ephemeral && r.sequential && r.owner.is_some()));
        assert_eq!(f.clients.len(), 6);
        assert!(f.clients.iter().filter(|c| c.holding).count() <= 1);
        assert!(!f.watches.is_empty());
        assert_eq!(f.tree[0].path, "/locks");
    }

    #[test]
    fn narration_and_labels_follow_the_language() {
        let mut sim = Simulation::new(presets::find("herd").unwrap().scenario());
        sim.run_steps(10);
        let (en, zh) = (build(&sim, Lang::En), build(&sim, Lang::Zh));
        assert_ne!(en.narration, zh.narration);
        assert_ne!(en.clients[0].state, zh.clients[0].state);
    }

    #[test]
    fn messages_in_flight_have_progress_between_zero_and_one() {
        let mut sim = Simulation::new(presets::find("queue").unwrap().scenario());
        sim.run_steps(7);
        let f = build(&sim, Lang::En);
        assert!(!f.messages.is_empty());
        assert!(f.messages.iter().all(|m| (0.0..=1.0).contains(&m.progress)));
    }
}

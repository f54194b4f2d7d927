//! The view model: everything the screen shows for one frame, computed from the world as plain
//! data (so it is unit-tested natively and the Leptos view only renders it).

use crate::services::{Entry, Lifetime, Owner, ServiceKind};
use crate::sim::resource::WriteRecord;
use crate::sim::types::{Node, Tick};
use crate::sim::{Lang, Simulation, World};

use super::i18n::t;

/// One entry of the lock service's state (a znode, a key, a lock row), typed per service.
#[derive(Clone, Debug, PartialEq)]
pub struct EntryRow {
    /// Stable identity: the row keeps its place while this is alive.
    pub id: String,
    pub name: String,
    pub depth: usize,
    /// The client the service says it belongs to.
    pub owner: Option<usize>,
    /// Created by the step that led to this frame.
    pub fresh: bool,
    pub entry: Entry,
}

impl EntryRow {
    pub fn lifetime(&self) -> Lifetime {
        self.entry.lifetime()
    }
    /// The fields in the service's words, with the owner named as a client.
    pub fn fields(&self) -> Vec<(&'static str, String)> {
        let owner = self.owner.map(|o| format!("C{}", o + 1));
        let mut f = self.entry.fields();
        for (k, v) in f.iter_mut() {
            if *k == "ephemeralOwner" {
                if let Some(o) = &owner {
                    *v = format!("{o} · {v}");
                }
            }
        }
        f
    }

    /// The hover text: the id, then every field.
    pub fn tip(&self) -> String {
        let fields: Vec<String> = self
            .entry
            .fields()
            .into_iter()
            .filter(|(k, _)| *k != "ephemeralOwner")
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        let owner = self
            .owner
            .map(|o| format!("\nephemeralOwner: C{}", o + 1))
            .filter(|_| self.lifetime() == Lifetime::Session)
            .unwrap_or_default();
        format!("{}\n{}{owner}", self.id, fields.join(" · "))
    }

    /// The short text at the row's right end: its owner and its fencing number.
    pub fn stat(&self) -> String {
        let owner = self
            .owner
            .map(|o| format!("C{}", o + 1))
            .unwrap_or_default();
        match self.entry.stamp() {
            Some((k, v)) => format!("{owner} {k} {v}"),
            None => format!(
                "{owner} {}",
                self.entry
                    .fields()
                    .first()
                    .map(|(k, v)| format!("{k} {v}"))
                    .unwrap_or_default()
            ),
        }
    }

    /// The name without its sequence suffix, and the suffix.
    pub fn split_name(&self) -> (&str, &str) {
        match self.entry.sequence() {
            Some(seq) if self.name.ends_with(seq) => {
                self.name.split_at(self.name.len() - seq.len())
            }
            _ => (self.name.as_str(), ""),
        }
    }
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
    pub tree: Vec<EntryRow>,
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
    /// The service's logical clock ("zxid", 12).
    pub stamp: Option<(&'static str, i64)>,
    pub service: ServiceKind,
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
        narration: current.map_or_else(
            || t("narration.start", lang).to_string(),
            |r| r.narration.text(lang),
        ),
        tree: tree(w, &created),
        clients: w
            .clients
            .iter()
            .map(|c| super::lanes::client_row(w, c, lang))
            .collect(),
        watches: watches(w),
        removed: current.map(|r| r.deleted.clone()).unwrap_or_default(),
        fired: current
            .map(|r| r.fired.iter().map(|(c, _, p)| (*c, p.clone())).collect())
            .unwrap_or_default(),
        messages: messages(w),
        value: w.resource.value,
        highest_token: w.resource.highest_token,
        fencing: w.resource.fencing,
        ids: sim.scenario().resource == crate::sim::scenario::ResourceKind::IdGenerator,
        writes: w.resource.writes.iter().cloned().collect(),
        accepted: w.resource.accepted,
        rejected: w.resource.rejected,
        monitors: MonitorView {
            belief: m.belief,
            ownership: m.ownership,
            lost_update: m.lost_update,
            stuck: m.stuck,
            believers: m.now.believers.clone(),
        },
        requests: w.metrics.requests,
        notifications: w.metrics.notifications,
        herd_factor: w.metrics.herd_factor(),
        stamp: w.service.stamp(),
        service: w.service.kind(),
        recipe: sim.scenario().recipe.name(),
    }
}

/// The client a service's owner stands for (matched against each client's claim).
pub fn owner_client(w: &World, owner: &Owner) -> Option<usize> {
    w.clients
        .iter()
        .find(|c| owner.matches(&c.claim()))
        .map(|c| c.id)
}

/// The service's rows, in its own order.
fn tree(w: &World, created: &[String]) -> Vec<EntryRow> {
    w.service
        .entries(w.now)
        .into_iter()
        .map(|entry| {
            let id = entry.id();
            EntryRow {
                fresh: created.contains(&id),
                name: entry.name(),
                depth: entry.depth(),
                owner: entry.owner().and_then(|o| owner_client(w, &o)),
                id,
                entry,
            }
        })
        .collect()
}

fn watches(w: &World) -> Vec<WatchEdge> {
    let n = w.clients.len();
    w.service
        .watches()
        .into_iter()
        .filter(|x| x.conn < n)
        .map(|x| WatchEdge {
            client: x.conn,
            path: x.path,
            child: x.child,
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
        MessageDot {
            id: e.id,
            client,
            inbound,
            to_resource,
            progress,
            label: e.payload.label(),
            lost: e.lost,
        }
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
        let names: Vec<&str> = f
            .tree
            .iter()
            .filter(|r| r.depth == 1)
            .map(|r| r.name.as_str())
            .collect();
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(names, sorted);
        assert!(f.tree.iter().any(|r| r.lifetime() == Lifetime::Session
            && r.entry.sequence().is_some()
            && r.owner.is_some()));
        assert_eq!(f.clients.len(), 6);
        assert!(f.clients.iter().filter(|c| c.holding).count() <= 1);
        assert!(!f.watches.is_empty());
        assert_eq!(f.tree[0].id, "/locks");
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

//! The view model: everything the screen shows for one frame, computed from the world (and the
//! history up to it) as plain data, so it is unit-tested natively and the UI only draws it.

use super::entries::{self, EntryRow, Ghost};
use super::i18n::t;
use super::lanes::{self, ClientRow};
pub use super::messages::MessageDot;
use super::messages::{arrived, messages};
use super::plan::Plan;
use super::servers::{self, Link, ServerView};
use crate::narrate::Key;
use crate::services::{ReplicaState, ServiceKind};
use crate::sim::app::AppState;
use crate::sim::resource::WriteRecord;
use crate::sim::types::Tick;
use crate::sim::{Lang, Simulation, StepRecord, World};

#[derive(Clone, Debug, PartialEq)]
pub struct WatchEdge {
    pub client: usize,
    pub path: String,
    pub child: bool,
    /// Armed on a node that does not exist.
    pub on_missing: bool,
}

/// The last step (at or before this frame) whose change fired watches.
#[derive(Clone, Debug, PartialEq)]
pub struct Firing {
    pub step: u64,
    /// Who caused it (the client that deleted, or whose session ended).
    pub cause: Option<usize>,
    /// What changed.
    pub path: String,
    pub watchers: Vec<usize>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ResourceView {
    /// Whether anything uses it in this run.
    pub used: bool,
    pub value: u64,
    pub highest_token: i64,
    pub fencing: bool,
    /// The lock hands its holders a fencing token (a czxid, a create revision, a fence
    /// column); Redis's and Redlock's keys and the plain lock rows give none, so every write
    /// carries 0 and fencing compares nothing.
    pub tokens: bool,
    /// It hands out IDs (a lost update is then a duplicate ID).
    pub ids: bool,
    pub writes: Vec<WriteRecord>,
    pub first_lost: Option<WriteRecord>,
    pub accepted: u64,
    pub rejected: u64,
    /// Every client has finished its rounds: the ticks they spent waiting for the lock in all.
    pub all_done: Option<Tick>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct MonitorView {
    pub belief: Option<u64>,
    pub ownership: Option<u64>,
    pub lost_update: Option<u64>,
    pub stuck: Option<u64>,
    pub believers: Vec<usize>,
    pub stuck_now: Vec<usize>,
    /// Ticks without progress after which the stuck monitor speaks.
    pub quiet_limit: u64,
    /// The stuck verdict is certain: nothing can ever happen again.
    pub dead_end: bool,
    /// The stuck verdict holds unless the network loses a session or lets a try through
    /// (reconnect churn).
    pub churn: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    pub step: u64,
    pub len: u64,
    pub time: Tick,
    /// The time at the last computed step (the position's widest text).
    pub end_time: Tick,
    pub finished: bool,
    pub narration: String,
    /// The step that led here was background only (a ping, a keep-alive).
    pub heartbeat: bool,
    pub service: ServiceKind,
    pub recipe: &'static str,
    /// The service's logical clock ("zxid", 12).
    pub stamp: Option<(&'static str, i64)>,
    pub clients: Vec<ClientRow>,
    pub tree: Vec<EntryRow>,
    pub ghosts: Vec<Ghost>,
    /// Group headers: (row, parent).
    pub headers: Vec<(usize, String)>,
    /// Rows the service box needs.
    pub rows: usize,
    pub watches: Vec<WatchEdge>,
    /// Watches that fired in this very step: (client, path).
    pub fired_now: Vec<(usize, String)>,
    pub firing: Option<Firing>,
    pub messages: Vec<MessageDot>,
    /// The message this step delivered (drawn arriving).
    pub arrived: Option<MessageDot>,
    pub resource: ResourceView,
    pub monitors: MonitorView,
    pub replica: Option<ReplicaState>,
    /// The service's servers (one for a single-server service) and the links between them.
    pub servers: Vec<ServerView>,
    pub links: Vec<Link>,
    /// A partition splits some nodes from the rest.
    pub split: bool,
    /// The last failover so far: (step, its narration key).
    pub failover: Option<(u64, Key)>,
    /// Requests stall until then (a leader election).
    pub stall_until: Tick,
    /// How many may hold at once (None: any number of readers).
    pub max_holders: Option<usize>,
    pub requests: u64,
    pub notifications: u64,
    pub herd_factor: f64,
}

/// Builds the frame at the simulation's cursor, with the entries in the plan's rows.
pub fn build(sim: &Simulation, plan: &Plan, lang: Lang) -> Frame {
    let w = sim.world();
    let step = sim.cursor();
    let past = &sim.records()[..step as usize];
    let current = sim.current();
    let created = current.map(|r| r.created.clone()).unwrap_or_default();
    let died_by = |d: u64, keys: &[Key]| {
        past.get(d.saturating_sub(1) as usize)
            .is_some_and(|r| keys.contains(&r.narration.key))
    };
    let expired_at = |d: u64| {
        died_by(
            d,
            &[Key::SessionExpires, Key::SvcExpiry, Key::RedlockExpired],
        )
    };
    let lost_at = |d: u64| {
        past.get(d.saturating_sub(1) as usize)
            .is_some_and(|r| is_failover(r.narration.key))
    };
    let crashed_at = |d: u64| died_by(d, &[Key::ServerCrash]);
    let used = sim.scenario().resource_io;
    let servers = servers::servers(w, lang);
    Frame {
        step,
        len: sim.len(),
        time: w.now,
        end_time: sim.records().last().map_or(w.now, |r| r.time),
        finished: sim.finished(),
        narration: current.map_or_else(
            || t("narration.start", lang).to_string(),
            |r| r.narration.text(lang),
        ),
        heartbeat: current.is_some_and(|r| r.heartbeat),
        service: w.service.kind(),
        recipe: sim.scenario().recipe.name(),
        stamp: w.service.stamp(),
        clients: {
            let around = lanes::Around::new(w);
            w.clients
                .iter()
                .map(|c| lanes::client_row(w, &around, c, lang))
                .collect()
        },
        tree: entries::rows(w, plan, step, &created),
        ghosts: entries::ghosts(plan, step, &expired_at, &lost_at, &crashed_at),
        headers: plan.headers().map(|(r, p)| (r, p.to_string())).collect(),
        rows: plan.rows,
        watches: watches(w),
        fired_now: current
            .map(|r| r.fired.iter().map(|(c, _, p)| (*c, p.clone())).collect())
            .unwrap_or_default(),
        firing: firing(past),
        messages: messages(w),
        arrived: current
            .and_then(|r| r.delivered.as_ref())
            .map(|d| arrived(d, w.now)),
        resource: resource(
            w,
            used,
            sim.scenario().resource == crate::sim::scenario::ResourceKind::IdGenerator,
            sim.scenario().recipe.gives_token(),
        ),
        monitors: monitors(w),
        replica: w.service.replica(),
        links: servers::links(w, &servers),
        servers,
        split: w.net.split.is_some(),
        failover: past
            .iter()
            .rev()
            .find(|r| is_failover(r.narration.key))
            .map(|r| (r.index, r.narration.key)),
        stall_until: w.stall_until,
        max_holders: w.clients.first().and_then(|c| c.recipe.max_holders()),
        requests: w.metrics.requests,
        notifications: w.metrics.notifications,
        herd_factor: w.metrics.herd_factor(),
    }
}

fn is_failover(k: Key) -> bool {
    matches!(
        k,
        Key::FailoverRedis
            | Key::FailoverRedisRestart
            | Key::FailoverEtcd
            | Key::FailoverSql
            | Key::FailoverZk
            | Key::FailoverZab
    )
}

fn firing(past: &[StepRecord]) -> Option<Firing> {
    let r = past.iter().rev().find(|r| !r.fired.is_empty())?;
    Some(Firing {
        step: r.index,
        cause: r.narration.client,
        path: r
            .deleted
            .first()
            .cloned()
            .unwrap_or_else(|| r.fired[0].2.clone()),
        watchers: r.fired.iter().map(|(c, _, _)| *c).collect(),
    })
}

fn resource(w: &World, used: bool, ids: bool, tokens: bool) -> ResourceView {
    let r = &w.resource;
    ResourceView {
        used,
        value: r.value,
        highest_token: r.highest_token,
        fencing: r.fencing,
        tokens,
        ids,
        writes: r.writes.iter().cloned().collect(),
        first_lost: r.first_lost.clone(),
        accepted: r.accepted,
        rejected: r.rejected,
        all_done: (!w.clients.is_empty()
            && w.clients.iter().all(|c| c.app.state == AppState::Done))
        .then(|| w.clients.iter().map(|c| c.app.wait_total).sum()),
    }
}

fn monitors(w: &World) -> MonitorView {
    let m = &w.monitors;
    MonitorView {
        belief: m.belief,
        ownership: m.ownership,
        lost_update: m.lost_update,
        stuck: m.stuck,
        believers: m.now.believers.clone(),
        stuck_now: m.now.stuck.clone(),
        quiet_limit: m.quiet_limit,
        dead_end: m.dead_end,
        churn: m.churn,
    }
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
            on_missing: x.on_missing,
        })
        .collect()
}

/// What a message is, in a word or two: a request's operation ("create2"), a reply's
/// operation and result ("create2 → NodeExists"), an event's type ("NodeDeleted").
#[cfg(test)]
mod tests {
    use super::*;
    use crate::services::Lifetime;
    use crate::sim::presets;

    fn frame_at(id: &str, step: u64) -> Frame {
        let mut sim = Simulation::new(presets::find(id).unwrap().scenario());
        sim.compute_ahead(600, 200);
        sim.seek(step);
        build(&sim, &Plan::new(&sim), Lang::En)
    }

    #[test]
    fn a_queue_has_owned_sequential_nodes_and_at_most_one_holder() {
        let f = frame_at("queue", 48);
        assert!(f.tree.iter().any(|r| r.lifetime() == Lifetime::Session
            && r.entry.sequence().is_some()
            && r.owner.is_some()));
        assert_eq!(f.clients.len(), 6);
        assert!(f.clients.iter().filter(|c| c.believes).count() <= 1);
        assert!(!f.watches.is_empty());
        assert_eq!(f.tree[0].id, "/locks");
    }

    #[test]
    fn narration_and_labels_follow_the_language() {
        let mut sim = Simulation::new(presets::find("herd").unwrap().scenario());
        sim.run_steps(40);
        let plan = Plan::new(&sim);
        let (en, zh) = (build(&sim, &plan, Lang::En), build(&sim, &plan, Lang::Zh));
        assert_ne!(en.narration, zh.narration);
        assert_ne!(en.clients[1].label, zh.clients[1].label);
    }

    #[test]
    fn the_herd_release_fires_five_watches_and_the_firing_stays_known() {
        let f = frame_at("herd", 72);
        assert_eq!(f.fired_now.len(), 5);
        let later = frame_at("herd", 80);
        assert_eq!(later.firing.map(|x| x.watchers.len()), Some(5));
        assert!(later.fired_now.is_empty());
    }

    #[test]
    fn messages_in_flight_have_progress_between_zero_and_one() {
        let f = frame_at("queue", 7);
        assert!(!f.messages.is_empty());
        assert!(f.messages.iter().all(|m| (0.0..=1.0).contains(&m.progress)));
    }
}

//! Exhaustive search over all interleavings (bounded depth), in the timeless model: no pings,
//! no timeouts, and the search branches over the order in which the server and the resource
//! handle messages from different clients, over client timers (start, end of work) and, if
//! asked, over a waiter closing its session, a client crashing (its session or lease then
//! expiring at any later point) and a client pausing (its session or lease may expire while it
//! is stopped; it wakes at any point). A running client handles a message addressed to it at once
//! (client-side handling is local and deterministic, so delaying it only adds orderings the
//! server-side choices already cover). Breadth-first, so the first violation found is a
//! shortest counterexample in this model; it comes back as a [`Run`] that replays in the
//! simulator.

use std::collections::{BTreeSet, VecDeque};
use std::hash::{Hash, Hasher};

use super::app::AppState;
use super::client::Proc;
use super::history::Run;
use super::scenario::{Command, Scenario};
use super::world::{Action, World};
use crate::services::Role;

/// What the search looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Property {
    /// Two clients hold the lock and own their nodes.
    MutualExclusion,
    /// A client waits with nothing left that could wake it (or nothing can happen at all while
    /// someone still waits).
    Stuck,
    /// The lock service broke its own protocol's promise (an ensemble: two leaders in one
    /// epoch, a committed transaction lost, servers applying different sequences).
    Protocol,
}

#[derive(Clone, Debug)]
pub struct ExploreConfig {
    pub max_depth: usize,
    pub max_states: usize,
    /// Also let clients (other than C1) close their session at any point, once.
    pub allow_close: bool,
    /// Also let the leader of a replicated service crash at any point, once.
    pub crash_leader: bool,
    /// Also let one client crash at any point (its session or lease expires at any later one).
    pub crash_client: bool,
    /// Also let one client pause at any point, once: while it is stopped its session or lease
    /// may expire, and it wakes at any point after.
    pub pause_client: bool,
}

impl ExploreConfig {
    /// The exhaustive tests' bounds, with no faults.
    pub fn bounded() -> ExploreConfig {
        ExploreConfig {
            max_depth: 200,
            max_states: 400_000,
            allow_close: false,
            crash_leader: false,
            crash_client: false,
            pause_client: false,
        }
    }
}

/// How long a paused client sleeps in the search (it wakes when the search chooses).
const PAUSE: u64 = super::scenario::MAX_TICKS;

#[derive(Clone, Debug)]
pub struct Outcome {
    pub states: usize,
    pub depth: usize,
    /// True when the bound on states was hit before the space was exhausted.
    pub truncated: bool,
    /// True when some path was cut by the depth bound (the result then holds up to that depth).
    pub depth_cut: bool,
    pub counterexample: Option<(Property, Run)>,
}

/// The scenario in the timeless model: fixed latency and hold times (no random draws).
pub fn timeless(mut sc: Scenario) -> Scenario {
    sc.timeless = true;
    sc.resource_io = false;
    sc.latency_max = sc.latency_min;
    sc.hold_max = sc.hold_min;
    sc.think_max = sc.think_min;
    sc.start_spread = 0;
    sc.faults.clear();
    sc
}

/// A fingerprint of the logical state (ignores step counters, metrics, message ids and the
/// order of sends on different links).
pub(super) fn fingerprint(w: &World) -> u64 {
    let mut h = crate::words::Words::default();
    w.service.hash(&mut h);
    w.resource.hash(&mut h);
    for c in &w.clients {
        (&c.lib, &c.recipe, &c.app, c.proc).hash(&mut h);
    }
    // Link by link (each in send order): two interleavings that only sent on different links
    // in another order reach the same state.
    let mut flying: Vec<_> = w.net.in_flight().collect();
    crate::sort::by_key(&mut flying, |e| (e.from, e.to));
    for e in flying {
        (e.from, e.to, &e.payload, e.conn).hash(&mut h);
    }
    w.client_pauses.hash(&mut h);
    h.finish()
}

fn paused(w: &World, c: usize) -> bool {
    w.clients
        .get(c)
        .is_some_and(|c| matches!(c.proc, Proc::Paused { until } if until > w.now))
}

/// A delivery to a running client (which handles it at once).
fn to_client(w: &World, a: &Action) -> bool {
    let Action::Deliver(id) = a else { return false };
    w.net
        .in_flight()
        .any(|e| e.id == *id && matches!(e.to, super::types::Node::Client(c) if !paused(w, c)))
}

/// A delivery to, or a timer of, a paused client: it waits until the client wakes.
fn held(w: &World, a: &Action) -> bool {
    match a {
        Action::Deliver(id) => w
            .net
            .in_flight()
            .any(|e| e.id == *id && matches!(e.to, super::types::Node::Client(c) if paused(w, c))),
        Action::Timer(c, _) => paused(w, *c),
        _ => false,
    }
}

/// Delivers every message addressed to a client, oldest first, until none is left.
pub(super) fn settle(w: &mut World, path: &mut Vec<Action>) {
    while let Some(a) = w
        .enabled()
        .into_iter()
        .map(|(_, a)| a)
        .find(|a| to_client(w, a))
    {
        w.apply(a.clone());
        path.push(a);
    }
}

pub(super) fn choices(w: &World, cfg: &ExploreConfig) -> Vec<Action> {
    let allow_close = cfg.allow_close;
    let mut v: Vec<Action> = w
        .enabled()
        .into_iter()
        .map(|(_, a)| a)
        .filter(|a| !to_client(w, a) && !held(w, a))
        .collect();
    if allow_close {
        for c in w
            .clients
            .iter()
            .skip(1)
            .filter(|c| c.proc == Proc::Running && c.app.state == AppState::Acquiring)
        {
            v.push(Action::Command(Command::Close { client: c.id }));
        }
    }
    if cfg.crash_leader {
        let servers = w.service.servers();
        let leader = servers.iter().find(|s| s.role == Role::Leader);
        if let (Some(l), false) = (leader, servers.iter().any(|s| s.role == Role::Down)) {
            v.push(Action::Command(Command::CrashServer { server: l.id }));
        }
    }
    client_faults(w, cfg, &mut v);
    v
}

/// A client crash or pause (once), a wake-up, and the service ending the session or lease of
/// a crashed or paused client (while it has one).
fn client_faults(w: &World, cfg: &ExploreConfig, v: &mut Vec<Action>) {
    let busy = |c: &super::client::Client| {
        c.proc == Proc::Running
            && matches!(c.app.state, AppState::Acquiring | AppState::Working { .. })
    };
    let crashed = w.clients.iter().any(|c| c.proc == Proc::Crashed);
    for c in &w.clients {
        let client = c.id;
        if cfg.crash_client && !crashed && busy(c) {
            v.push(Action::Command(Command::Crash { client }));
        }
        if cfg.pause_client && w.client_pauses == 0 && busy(c) {
            v.push(Action::Command(Command::Pause {
                client,
                ticks: PAUSE,
            }));
        }
        let stopped = c.proc == Proc::Crashed || paused(w, client);
        if paused(w, client) {
            v.push(Action::Command(Command::Pause { client, ticks: 0 }));
        }
        if stopped && w.service.expires_in(w.now, &c.claim()).is_some() {
            v.push(Action::Command(Command::Expire { client }));
        }
    }
}

pub(super) fn violation(w: &World, no_choices: bool) -> Option<Property> {
    if w.monitors.protocol.is_some() {
        return Some(Property::Protocol);
    }
    if w.monitors.ownership.is_some() {
        return Some(Property::MutualExclusion);
    }
    let waiting = w
        .clients
        .iter()
        .any(|c| c.alive() && c.app.state == AppState::Acquiring);
    if !w.monitors.now.stuck.is_empty() || (no_choices && waiting) {
        return Some(Property::Stuck);
    }
    None
}

/// A breadth-first search that can run in slices (the browser runs a slice per frame and
/// shows its progress): [`Explorer::run`] explores up to a number of states and returns the
/// outcome once the search is over.
pub struct Explorer {
    sc: Scenario,
    cfg: ExploreConfig,
    seen: BTreeSet<u64>,
    /// Parent links for rebuilding paths: (parent index, the actions of that edge).
    links: Vec<(usize, Vec<Action>)>,
    queue: VecDeque<(World, usize, usize)>,
    depth: usize,
    depth_cut: bool,
}

impl Explorer {
    pub fn new(sc: &Scenario, cfg: &ExploreConfig) -> Explorer {
        let sc = timeless(sc.clone());
        let mut root = World::new(&sc);
        root.timeless = true;
        let mut first = Vec::new();
        settle(&mut root, &mut first);
        Explorer {
            seen: BTreeSet::from([fingerprint(&root)]),
            links: vec![(usize::MAX, first)],
            queue: VecDeque::from([(root, 0usize, 0usize)]),
            sc,
            cfg: cfg.clone(),
            depth: 0,
            depth_cut: false,
        }
    }

    /// States seen so far.
    pub fn states(&self) -> usize {
        self.seen.len()
    }

    fn outcome(&self, truncated: bool, counterexample: Option<(Property, Run)>) -> Outcome {
        Outcome {
            states: self.seen.len(),
            depth: self.depth,
            truncated,
            depth_cut: self.depth_cut,
            counterexample,
        }
    }

    /// Explores until about `budget` more states were seen; the outcome once the search ends.
    pub fn run(&mut self, budget: usize) -> Option<Outcome> {
        let stop = self.seen.len().saturating_add(budget);
        while let Some((w, idx, d)) = self.queue.pop_front() {
            self.depth = self.depth.max(d);
            let acts = choices(&w, &self.cfg);
            if let Some(p) = violation(&w, acts.is_empty()) {
                let run = path_run(&self.sc, &self.links, idx);
                return Some(self.outcome(false, Some((p, run))));
            }
            if d >= self.cfg.max_depth {
                self.depth_cut |= !acts.is_empty();
                continue;
            }
            for a in acts {
                let mut next = w.clone();
                next.apply(a.clone());
                let mut edge = vec![a];
                settle(&mut next, &mut edge);
                if self.seen.insert(fingerprint(&next)) {
                    if self.seen.len() > self.cfg.max_states {
                        return Some(self.outcome(true, None));
                    }
                    self.links.push((idx, edge));
                    self.queue.push_back((next, self.links.len() - 1, d + 1));
                }
            }
            if self.seen.len() >= stop {
                return None;
            }
        }
        Some(self.outcome(false, None))
    }
}

/// Breadth-first search from the scenario's initial state, to its end.
pub fn explore(sc: &Scenario, cfg: &ExploreConfig) -> Outcome {
    let mut e = Explorer::new(sc, cfg);
    loop {
        if let Some(o) = e.run(usize::MAX) {
            return o;
        }
    }
}

fn path_run(sc: &Scenario, links: &[(usize, Vec<Action>)], mut idx: usize) -> Run {
    let mut edges = Vec::new();
    while idx != usize::MAX {
        edges.push(links[idx].1.clone());
        idx = links[idx].0;
    }
    edges.reverse();
    run_of(sc, edges)
}

/// The run that replays a path of edges (each an action and the deliveries it settled).
pub(super) fn run_of(sc: &Scenario, edges: Vec<Vec<Action>>) -> Run {
    let path: Vec<Action> = edges.into_iter().flatten().collect();
    let forced: Vec<(u64, Action)> = path
        .into_iter()
        .enumerate()
        .map(|(i, a)| (i as u64 + 1, a))
        .collect();
    Run {
        scenario: sc.clone(),
        forced,
    }
}

//! Exhaustive search over all interleavings (bounded depth), in the timeless model: no pings,
//! no timeouts, and the search branches over the order in which the server and the resource
//! handle messages from different clients, over client timers (start, end of work) and, if
//! asked, over a waiter closing its session. A client handles a message addressed to it at once
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

/// What the search looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Property {
    /// Two clients hold the lock and own their nodes.
    MutualExclusion,
    /// A client waits with nothing left that could wake it (or nothing can happen at all while
    /// someone still waits).
    Stuck,
}

#[derive(Clone, Debug)]
pub struct ExploreConfig {
    pub max_depth: usize,
    pub max_states: usize,
    /// Also let clients (other than C1) close their session at any point, once.
    pub allow_close: bool,
}

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

/// FNV-1a, 64 bits: a stable hasher (the standard one is seeded per process).
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// A fingerprint of the logical state (ignores step counters, metrics and message ids).
fn fingerprint(w: &World) -> u64 {
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    w.service.hash(&mut h);
    w.resource.hash(&mut h);
    for c in &w.clients {
        (&c.lib, &c.recipe, &c.app, c.proc).hash(&mut h);
    }
    for e in w.net.in_flight() {
        (e.from, e.to, &e.payload).hash(&mut h);
    }
    h.finish()
}

fn to_client(w: &World, a: &Action) -> bool {
    let Action::Deliver(id) = a else { return false };
    w.net
        .in_flight()
        .any(|e| e.id == *id && matches!(e.to, super::types::Node::Client(_)))
}

/// Delivers every message addressed to a client, oldest first, until none is left.
fn settle(w: &mut World, path: &mut Vec<Action>) {
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

fn choices(w: &World, allow_close: bool) -> Vec<Action> {
    let mut v: Vec<Action> = w
        .enabled()
        .into_iter()
        .map(|(_, a)| a)
        .filter(|a| !to_client(w, a))
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
    v
}

fn violation(w: &World, no_choices: bool) -> Option<Property> {
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

/// Breadth-first search from the scenario's initial state.
pub fn explore(sc: &Scenario, cfg: &ExploreConfig) -> Outcome {
    let sc = timeless(sc.clone());
    let mut root = World::new(&sc);
    root.timeless = true;
    let mut first = Vec::new();
    settle(&mut root, &mut first);
    let mut seen = BTreeSet::from([fingerprint(&root)]);
    // Parent links for rebuilding paths: (parent index, the actions of that edge).
    let mut links: Vec<(usize, Vec<Action>)> = vec![(usize::MAX, first)];
    let mut queue = VecDeque::from([(root, 0usize, 0usize)]);
    let mut depth = 0;
    let mut depth_cut = false;
    while let Some((w, idx, d)) = queue.pop_front() {
        depth = depth.max(d);
        let acts = choices(&w, cfg.allow_close);
        if let Some(p) = violation(&w, acts.is_empty()) {
            return Outcome {
                states: seen.len(),
                depth,
                truncated: false,
                depth_cut,
                counterexample: Some((p, path_run(&sc, &links, idx))),
            };
        }
        if d >= cfg.max_depth {
            depth_cut |= !acts.is_empty();
            continue;
        }
        for a in acts {
            let mut next = w.clone();
            next.apply(a.clone());
            let mut edge = vec![a];
            settle(&mut next, &mut edge);
            if seen.insert(fingerprint(&next)) {
                if seen.len() > cfg.max_states {
                    return Outcome {
                        states: seen.len(),
                        depth,
                        truncated: true,
                        depth_cut,
                        counterexample: None,
                    };
                }
                links.push((idx, edge));
                queue.push_back((next, links.len() - 1, d + 1));
            }
        }
    }
    Outcome {
        states: seen.len(),
        depth,
        truncated: false,
        depth_cut,
        counterexample: None,
    }
}

fn path_run(sc: &Scenario, links: &[(usize, Vec<Action>)], mut idx: usize) -> Run {
    let mut edges = Vec::new();
    while idx != usize::MAX {
        edges.push(links[idx].1.clone());
        idx = links[idx].0;
    }
    let path: Vec<Action> = edges.into_iter().rev().flatten().collect();
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

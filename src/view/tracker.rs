//! Keeps the stage's row plan and the run's key frames up to date as the history grows. Both
//! are folds over the steps (which entries exist; what the detectors see), so the tracker
//! observes only the steps the history gained since it last looked, and after a fork (a
//! command injected in the past) goes back to its last checkpoint before the fork. A re-plan
//! costs the steps that changed, not the whole run: a 200-client run at step 13,000 was
//! replayed twice from its start at every re-plan before, which froze the page for seconds.

use crate::sorted::{SortedMap, SortedSet};

use super::plan::{Life, Plan};
use crate::services::{on_server, server_of_id, Lifetime, Role, ServerId};
use crate::sim::moments::{Finder, Kind, Moment};
use crate::sim::{Action, Run, Simulation, StepRecord, World};

/// The row plan's fold: every entry's life so far, those alive now, the servers seen.
#[derive(Clone, Debug, Default)]
pub struct Lives {
    lives: Vec<Life>,
    open: SortedMap<(String, bool), usize>,
    servers: SortedSet<ServerId>,
}

impl Lives {
    pub fn new(initial: &World) -> Lives {
        let mut l = Lives::default();
        l.look(initial, 0);
        l
    }

    /// Looks at the world after a step (a heartbeat that changed nothing is skipped).
    pub fn observe(&mut self, w: &World, r: &StepRecord) {
        if !r.heartbeat || !r.created.is_empty() || !r.deleted.is_empty() {
            self.look(w, r.index)
        }
    }

    pub fn plan(&self, steps: u64) -> Plan {
        Plan::assign(self.lives.clone(), self.servers.clone(), steps)
    }

    fn look(&mut self, w: &World, step: u64) {
        self.servers
            .extend(w.service.servers().iter().map(|s| s.id));
        let mut now: SortedMap<(String, bool), (String, usize, Lifetime)> = w
            .service
            .entries(w.now)
            .into_iter()
            .map(|e| ((e.id(), false), (e.name(), e.depth(), e.lifetime())))
            .collect();
        for (id, name, depth) in missing_copies(w) {
            now.entry((id, true))
                .or_insert((name, depth, Lifetime::Persistent));
        }
        for x in w.service.watches().into_iter().filter(|x| x.on_missing) {
            let depth = x.path.matches('/').count();
            let name = x.path.rsplit('/').next().unwrap_or(&x.path).to_string();
            now.entry((x.path, true))
                .or_insert((name, depth, Lifetime::Persistent));
        }
        let lives = &mut self.lives;
        self.open.retain(|k, i| {
            let alive = now.contains_key(k);
            if !alive {
                lives[*i].died = Some(step);
            }
            alive
        });
        for ((id, phantom), (name, depth, lifetime)) in now {
            let key = (id.clone(), phantom);
            if !self.open.contains_key(&key) {
                self.open.insert(key, self.lives.len());
                let mut life = Life::new(id, name, depth, lifetime);
                (life.born, life.phantom) = (step, phantom);
                self.lives.push(life);
            }
        }
    }
}

/// The owned entries the primary has and its replica lacks (a write that has not arrived, or
/// never will): (the id its copy would have on the replica, name, depth).
fn missing_copies(w: &World) -> Vec<(String, String, usize)> {
    if !crate::FULL {
        return Vec::new(); // no replicas in the lean bundle
    }
    let servers = w.service.servers();
    let role = |s: ServerId| servers.iter().find(|i| i.id == s).map(|i| i.role);
    let Some(replica) = servers
        .iter()
        .find(|s| s.role == Role::Replica)
        .map(|s| s.id)
    else {
        return Vec::new();
    };
    let entries = w.service.entries(w.now);
    let copied = |name: &str| {
        entries
            .iter()
            .any(|e| e.server() == replica && e.name() == name)
    };
    entries
        .iter()
        .filter(|e| e.owner().is_some() && role(e.server()) == Some(Role::Primary))
        .filter(|e| !copied(&e.name()))
        .map(|e| {
            (
                on_server(replica, server_of_id(&e.id()).1),
                e.name(),
                e.depth(),
            )
        })
        .collect()
}

/// Both folds at one step.
#[derive(Clone, Debug)]
struct Seen {
    at: u64,
    lives: Lives,
    finder: Finder,
}

/// A checkpoint every this many steps (a fork replays at most this many, plus the distance
/// to the simulation's snapshot before it).
const EVERY: u64 = 250;

/// The plan and key frames of one run, kept up to date step by step.
#[derive(Clone, Debug)]
pub struct Tracker {
    kinds: Vec<Kind>,
    /// The run observed: a change to its forced actions is a fork at the first that differs.
    run: Run,
    now: Seen,
    saved: Vec<Seen>,
}

impl Tracker {
    pub fn new(sim: &Simulation, kinds: &[Kind]) -> Tracker {
        let sc = sim.scenario();
        let ids = sc.resource == crate::sim::scenario::ResourceKind::IdGenerator;
        let start = Seen {
            at: 0,
            lives: Lives::new(sim.initial()),
            finder: Finder::new(kinds, sc.clients as usize, ids),
        };
        let mut t = Tracker {
            kinds: kinds.to_vec(),
            run: sim.run().clone(),
            now: start.clone(),
            saved: vec![start],
        };
        t.update(sim);
        t
    }

    /// Whether this tracker follows `sim`'s run with these key-frame kinds.
    pub fn follows(&self, sim: &Simulation, kinds: &[Kind]) -> bool {
        self.kinds == kinds && self.run.scenario == sim.run().scenario
    }

    /// Observes what the history gained (after going back before a fork, if there was one).
    pub fn update(&mut self, sim: &Simulation) {
        let fork = first_difference(&self.run.forced, &sim.run().forced);
        let fork = fork
            .map_or(sim.len(), |f| f.saturating_sub(1))
            .min(sim.len());
        if fork < self.now.at {
            self.saved.retain(|s| s.at <= fork);
            self.now = self.saved.last().cloned().expect("step 0 is always kept");
        }
        if self.run != *sim.run() {
            self.run = sim.run().clone();
        }
        let from = self.now.at;
        sim.replay_from(from, |w, r| self.observe(w, r));
    }

    /// Observes a step as it is computed (one that is not the next is left for `update`).
    pub fn observe(&mut self, w: &World, r: &StepRecord) {
        if r.index != self.now.at + 1 {
            return;
        }
        self.now.lives.observe(w, r);
        self.now.finder.observe(w, r);
        self.now.at = r.index;
        if r.index % EVERY == 0 {
            self.saved.push(self.now.clone());
        }
    }

    pub fn plan(&self, sim: &Simulation) -> Plan {
        self.now.lives.plan(sim.len())
    }

    pub fn moments(&self) -> Vec<Moment> {
        self.now.finder.clone().finish()
    }

    /// The steps observed (equal to the history's length once up to date).
    pub fn at(&self) -> u64 {
        self.now.at
    }
}

/// The step of the first forced action in which two runs differ, if any.
fn first_difference(a: &[(u64, Action)], b: &[(u64, Action)]) -> Option<u64> {
    let same = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let next = |v: &[(u64, Action)]| v.get(same).map(|(n, _)| *n);
    match (next(a), next(b)) {
        (None, None) => None,
        (x, y) => Some(x.unwrap_or(u64::MAX).min(y.unwrap_or(u64::MAX))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{presets, Command};

    /// The tracker's plan and key frames equal those computed afresh from the run's start.
    fn same(t: &Tracker, sim: &Simulation, kinds: &[Kind], what: &str) {
        assert_eq!(t.at(), sim.len(), "{what}: observed up to the end");
        assert_eq!(t.plan(sim), Plan::new(sim), "{what}: plan");
        assert_eq!(t.moments(), crate::sim::moments::find(sim, kinds), "{what}");
    }

    #[test]
    fn growth_and_forks_give_what_a_replay_from_the_start_gives() {
        let mut rewound_to_a_checkpoint = 0;
        for p in presets::all() {
            let kinds = p.moments;
            let mut sim = Simulation::new(p.scenario());
            sim.run_steps(25);
            let mut t = Tracker::new(&sim, kinds);
            same(&t, &sim, kinds, p.id);
            sim.run_steps(1300);
            t.update(&sim);
            same(&t, &sim, kinds, &format!("{} grown", p.id));
            // A fork in the past: back past a checkpoint, then a crash injected there.
            sim.seek(sim.len().saturating_sub(150));
            sim.inject(Command::Crash { client: 0 });
            sim.run_steps(300);
            rewound_to_a_checkpoint += usize::from(t.now.at > EVERY + 150);
            t.update(&sim);
            same(&t, &sim, kinds, &format!("{} forked", p.id));
            // A fork with a shorter history and no new steps after it.
            sim.seek(3);
            sim.inject(Command::Crash { client: 1 });
            t.update(&sim);
            same(&t, &sim, kinds, &format!("{} forked early", p.id));
        }
        assert!(
            rewound_to_a_checkpoint > 0,
            "no preset ran past a checkpoint"
        );
    }
}

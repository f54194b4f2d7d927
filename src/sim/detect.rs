//! The key-frame detectors: each looks at one step's record and the world after it, and
//! notes the first moment of its kind (every fault).

use super::client::Proc;
use super::moments::{group, is_fault, moment, short, Finder, Kind};
use super::narrate::{Detail, Key, Lang};
use super::world::World;
use super::StepRecord;
use crate::recipes::{HoldMode, Recipe};
use crate::services::{Lifetime, ServiceKind};
use crate::sorted::SortedMap;

/// What the detectors remember from the step before.
#[derive(Clone, Debug, Default)]
pub struct Memory {
    /// Each client's watched paths.
    watched: SortedMap<usize, Vec<String>>,
    /// Keys with an owner and no expiry.
    forever: Vec<String>,
    /// Row → the connection holding its lock.
    row_holders: SortedMap<String, usize>,
    /// A watch fired since the client last moved its watch.
    woken: Vec<usize>,
    /// Observers' reads on their way.
    pub(super) reads: super::detect_reads::Reads,
}

impl Finder {
    /// Changes from the step before: a watch moved, a key repaired, a row lock handed over,
    /// a replica behind, a session declared lost.
    pub(super) fn changes(&mut self, w: &World, r: &StepRecord) {
        self.memory.woken.extend(r.fired.iter().map(|(c, _, _)| *c));
        self.rewatch(w, r);
        let entries = w.service.entries(w.now);
        if self.wants(Kind::Repaired) {
            let now: Vec<String> = entries
                .iter()
                .filter(|e| e.lifetime() == Lifetime::Persistent && e.owner().is_some())
                .map(|e| e.id())
                .collect();
            let fixed = self
                .memory
                .forever
                .iter()
                .find(|id| {
                    entries
                        .iter()
                        .any(|e| e.id() == **id && matches!(e.lifetime(), Lifetime::Expiring(_)))
                })
                .cloned();
            if let Some(id) = fixed {
                let mut m = moment(r.index, Kind::Repaired, r.narration.client);
                m.text = [short(&id), short(&id)];
                self.push(m);
            }
            self.memory.forever = now;
        }
        let holders: SortedMap<String, usize> = entries
            .iter()
            .filter_map(|e| e.row_lock().map(|(h, _)| (e.id(), h)))
            .collect();
        for (row, h) in &holders {
            match self.memory.row_holders.get(row) {
                Some(before) if before != h && self.wants(Kind::RowHandover) => {
                    let mut m = moment(r.index, Kind::RowHandover, Some(*before));
                    m.others = vec![*h];
                    self.push(m);
                }
                _ => {}
            }
        }
        self.memory.row_holders = holders;
        // Only the full bundle runs replicated services (the lean one hands them over).
        if crate::FULL {
            self.replica_behind(w, r, &entries);
            self.ensemble(w, r);
        }
        if r.narration.key == Key::TimerSessionLost && self.wants(Kind::SessionLost) {
            let mut m = moment(r.index, Kind::SessionLost, r.narration.client);
            m.text = [r.narration.text(Lang::En), r.narration.text(Lang::Zh)];
            self.push(m);
        }
    }

    /// A woken waiter now watches a different node than before.
    fn rewatch(&mut self, w: &World, r: &StepRecord) {
        let mut now: SortedMap<usize, Vec<String>> = SortedMap::new();
        for x in w.service.watches() {
            now.entry(x.conn).or_default().push(x.path);
        }
        for (c, paths) in &now {
            let before = self.memory.watched.get(c);
            let moved =
                before.is_some_and(|b| !b.is_empty() && paths.iter().any(|p| !b.contains(p)));
            let acquiring = w.clients.get(*c).is_some_and(|k| {
                k.alive() && !k.recipe.holding() && k.app.state == super::app::AppState::Acquiring
            });
            if moved && acquiring && self.memory.woken.contains(c) && self.wants(Kind::Rewatch) {
                let mut m = moment(r.index, Kind::Rewatch, Some(*c));
                let p = paths
                    .iter()
                    .find(|p| !before.is_some_and(|b| b.contains(p)))
                    .cloned()
                    .unwrap_or_default();
                m.text = [short(&p), short(&p)];
                self.push(m);
            }
        }
        for (c, paths) in &now {
            if self.memory.watched.get(c) != Some(paths) {
                self.memory.woken.retain(|x| x != c);
            }
        }
        // A client whose watches all fired keeps its old list until it arms a new one.
        for (c, paths) in now {
            self.memory.watched.insert(c, paths);
        }
    }
    pub(super) fn stuck(&mut self, w: &World, r: &StepRecord) {
        if w.monitors.stuck == Some(r.index) && self.wants(Kind::Stuck) {
            let mut m = moment(r.index, Kind::Stuck, w.monitors.now.stuck.first().copied());
            m.n = w.monitors.quiet_limit as i64;
            // 1: a dead end; 2: only the network can free them (reconnect churn).
            m.m = if w.monitors.dead_end {
                1
            } else {
                2 * i64::from(w.monitors.churn)
            };
            m.others = w.monitors.now.stuck.iter().skip(1).copied().collect();
            self.push(m);
        }
    }

    pub(super) fn fault(&mut self, r: &StepRecord) {
        let key = r.narration.key;
        if key == Key::CmdDropReply {
            self.dropped = r.narration.client;
        }
        if is_fault(key) && self.wants(Kind::Fault) {
            let mut m = moment(r.index, Kind::Fault, r.narration.client);
            m.text = [r.narration.text(Lang::En), r.narration.text(Lang::Zh)];
            m.fault = Some(key);
            self.push(m);
        }
    }

    pub(super) fn notifications(&mut self, w: &World, r: &StepRecord) {
        let n = r.fired.len();
        let cause = r.narration.client;
        let kind = match n {
            0 => return,
            1 => Kind::Handoff,
            _ => Kind::Herd,
        };
        if self.wants(kind) {
            let mut m = moment(r.index, kind, cause);
            m.n = n as i64;
            // Those notified that no longer wait for the lock go last; `m` counts them.
            let waits = |c: &usize| {
                w.clients
                    .get(*c)
                    .is_some_and(|k| k.app.state == super::app::AppState::Acquiring)
            };
            let (mut wait, idle): (Vec<usize>, Vec<usize>) =
                r.fired.iter().map(|(c, _, _)| *c).partition(waits);
            m.m = idle.len() as i64;
            wait.extend(idle);
            m.others = wait;
            let what = r.deleted.first().or_else(|| r.fired.first().map(|f| &f.2));
            let what = what.map(|p| short(p)).unwrap_or_default();
            m.text = [what.clone(), what];
            self.push(m);
        }
    }

    pub(super) fn holders(&mut self, w: &World, r: &StepRecord) {
        let believers: Vec<usize> = w.monitors.now.believers.clone();
        let exclusive = believers
            .iter()
            .any(|c| w.clients[*c].recipe.hold_mode() == HoldMode::Exclusive);
        let unlocked = believers
            .iter()
            .any(|c| matches!(w.clients[*c].recipe, Recipe::None(_)));
        if believers.len() >= 2 && unlocked && self.wants(Kind::Unlocked) {
            self.push(group(r.index, Kind::Unlocked, &believers));
        }
        if w.monitors.belief == Some(r.index) && !unlocked && self.wants(Kind::TwoHolders) {
            self.push(group(r.index, Kind::TwoHolders, &believers));
        }
        if believers.len() >= 2 && !exclusive && !unlocked {
            let semaphore = believers
                .iter()
                .any(|c| matches!(w.clients[*c].recipe, Recipe::Semaphore(_)));
            let kind = if semaphore {
                Kind::Leases
            } else {
                Kind::SharedReaders
            };
            if self.wants(kind) {
                self.push(group(r.index, kind, &believers));
            }
        }
        if let Some(c) = w.clients.iter().find(|c| c.recipe.hold_count() >= 2) {
            if self.wants(Kind::Reentrant) {
                let mut m = moment(r.index, Kind::Reentrant, Some(c.id));
                m.n = i64::from(c.recipe.hold_count());
                self.push(m);
            }
        }
    }

    /// Every client has finished its rounds (the end of a run that used the resource): how
    /// many acquisitions, and how long they waited in all.
    pub(super) fn all_done(&mut self, w: &World, r: &StepRecord) {
        use super::app::AppState;
        let done = !w.clients.is_empty()
            && w.clients.iter().all(|c| c.app.state == AppState::Done)
            && !w.resource.writes.is_empty();
        if !done || !self.wants(Kind::AllDone) {
            return;
        }
        let mut m = moment(r.index, Kind::AllDone, None);
        m.n = w.resource.value as i64;
        let lost = w.resource.first_lost.as_ref().map(|l| l.client);
        m.others = lost.into_iter().collect();
        // The cost of the lock (ticks waited) when nothing was lost, else how many updates
        // were made (against the value the resource shows).
        m.m = if lost.is_some() {
            w.resource.accepted as i64
        } else {
            w.clients.iter().map(|c| c.app.wait_total as i64).sum()
        };
        m.text = if self.ids {
            ["IDs".into(), "ID 分配".into()]
        } else {
            ["increments".into(), "递增".into()]
        };
        self.push(m);
    }

    pub(super) fn resource(&mut self, w: &World, r: &StepRecord) {
        if !matches!(
            r.narration.key,
            Key::ResourceWrite | Key::ResourceWritePlain
        ) {
            return;
        }
        let c = r.narration.client;
        match &r.narration.b {
            Detail::Rejected { highest } if self.wants(Kind::Fenced) => {
                let mut m = moment(r.index, Kind::Fenced, c);
                (m.n, m.m) = (r.narration.a.parse().unwrap_or(0), *highest);
                self.push(m);
            }
            _ if w.monitors.lost_update == Some(r.index) && self.wants(Kind::LostUpdate) => {
                let mut m = moment(r.index, Kind::LostUpdate, c);
                let lost = w.resource.first_lost.as_ref();
                m.n = lost.map_or(0, |l| l.value as i64);
                let before = w
                    .resource
                    .writes
                    .iter()
                    .rev()
                    .skip(1)
                    .find(|x| Some(x.client) != c);
                m.others = before.map(|b| b.client).into_iter().collect();
                // 1: a duplicate ID; 2: the writer legitimately holds a lease of a semaphore.
                let leased = c.and_then(|c| w.clients.get(c)).is_some_and(|k| {
                    matches!(k.recipe, Recipe::Semaphore(_)) && k.recipe.holding()
                });
                m.m = if self.ids {
                    1
                } else if leased {
                    2
                } else {
                    0
                };
                self.push(m);
            }
            _ => {}
        }
    }

    pub(super) fn watches(&mut self, w: &World, r: &StepRecord) {
        let watches = w.service.watches();
        if self.wants(Kind::MissingWatch) {
            if let Some(x) = watches.iter().find(|x| x.on_missing) {
                let mut m = moment(r.index, Kind::MissingWatch, Some(x.conn));
                m.text = [x.path.clone(), x.path.clone()];
                self.push(m);
            }
        }
        let waiting: Vec<usize> = w
            .clients
            .iter()
            .filter(|c| c.alive() && !c.recipe.holding() && watches.iter().any(|x| x.conn == c.id))
            .map(|c| c.id)
            .collect();
        let holder = w.clients.iter().any(|c| c.recipe.holding());
        if holder
            && waiting.len() + 1 >= self.clients.min(6)
            && waiting.len() >= 2
            && self.wants(Kind::Waiting)
        {
            let mut m = group(r.index, Kind::Waiting, &waiting);
            let one_path = watches.iter().all(|x| x.path == watches[0].path);
            m.n = waiting.len() as i64;
            m.m = i64::from(one_path);
            m.text = [short(&watches[0].path), short(&watches[0].path)];
            self.push(m);
        }
    }

    pub(super) fn nodes(&mut self, w: &World, r: &StepRecord) {
        let entries = w.service.entries(w.now);
        if self.wants(Kind::Expiry)
            && matches!(
                r.narration.key,
                Key::SessionExpires | Key::SvcExpiry | Key::RedlockExpired
            )
            && !r.deleted.is_empty()
        {
            let mut m = moment(r.index, Kind::Expiry, r.narration.client);
            let what = short(&r.deleted[0]);
            m.text = [what.clone(), what];
            if crate::FULL {
                super::detect_votes::on_masters(&mut m, w, r);
            }
            self.push(m);
        }
        for c in &w.clients {
            let owned = entries
                .iter()
                .filter(|e| {
                    e.owner().is_some_and(|o| o.matches(&c.claim()))
                        && e.lifetime() == Lifetime::Session
                })
                .count();
            if owned >= 2 && self.wants(Kind::Orphan) {
                let mut m = moment(r.index, Kind::Orphan, Some(c.id));
                m.n = owned as i64;
                self.push(m);
            }
            let node = c.recipe.my_node().filter(|n| n.contains("_c_"));
            if let (true, Some(node)) = (self.dropped == Some(c.id), node) {
                self.dropped = None;
                if self.wants(Kind::Adopted) {
                    let mut m = moment(r.index, Kind::Adopted, Some(c.id));
                    m.text = [short(node), short(node)];
                    self.push(m);
                }
            }
        }
        if self.wants(Kind::NoExpiry) && w.service.kind() != ServiceKind::ZooKeeper {
            let forever = entries
                .iter()
                .find(|e| e.lifetime() == Lifetime::Persistent && e.owner().is_some());
            let gone = |o: &crate::services::Owner| {
                w.clients
                    .iter()
                    .any(|c| c.proc == Proc::Crashed && o.matches(&c.claim()))
            };
            if let Some(e) = forever.filter(|e| e.owner().as_ref().is_some_and(gone)) {
                let mut m = moment(r.index, Kind::NoExpiry, None);
                m.text = [e.name(), e.name()];
                self.push(m);
            }
        }
        if self.wants(Kind::RowWaiters) {
            if let Some((holder, waiting)) = entries
                .iter()
                .find_map(|e| e.row_lock())
                .filter(|(_, w)| !w.is_empty())
            {
                let mut m = moment(r.index, Kind::RowWaiters, Some(holder));
                m.others = waiting;
                self.push(m);
            }
        }
    }
}

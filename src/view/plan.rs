//! Where the service's entries sit on the stage, planned once for the whole computed history so
//! that nothing moves: every entry keeps one row for its whole life, and its ghost stays in that
//! row for [`GHOST_STEPS`] steps after it goes. Entries are grouped by parent (a lock directory)
//! and by server (a Redis replica's copies sit under its own header); each group reserves as many rows as it ever needs at once, and within a
//! group a new entry takes the row below the lowest one in use, so a queue reads top to bottom
//! in creation order. A watch on a node that does not exist gets a row of its own while it is
//! armed (the exists-watch of a lost wake-up).

use crate::sorted::{SortedMap, SortedSet};

use super::tracker::Lives;
use crate::services::{on_server, server_of_id, Lifetime, ServerId};
use crate::sim::Simulation;

/// How many steps a deleted entry's ghost stays.
pub const GHOST_STEPS: u64 = 6;

/// One entry's (or missing watched node's) time on the stage.
#[derive(Clone, Debug, PartialEq)]
pub struct Life {
    pub id: String,
    pub name: String,
    pub depth: usize,
    pub lifetime: Lifetime,
    /// The step after which it exists, and the step that deleted it.
    pub born: u64,
    pub died: Option<u64>,
    /// A node that does not exist but is watched.
    pub phantom: bool,
    /// The step it leaves the stage: its ghost's end, cut short when the same id comes back.
    until: Option<u64>,
    group: usize,
    slot: usize,
}

impl Life {
    pub(super) fn new(id: String, name: String, depth: usize, lifetime: Lifetime) -> Life {
        Life {
            id,
            name,
            depth,
            lifetime,
            born: 0,
            died: None,
            phantom: false,
            until: None,
            group: 0,
            slot: 0,
        }
    }

    fn shown_at(&self, step: u64) -> bool {
        self.born <= step && self.until.is_none_or(|u| step < u)
    }
}

/// A run of rows for the children of one parent.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    /// The parent path or key prefix ("" for the root, `@1:` for server 1's copies).
    pub parent: String,
    /// Whether the group prints its parent above its rows.
    pub header: bool,
    /// Its first row, counting headers.
    pub top: usize,
    pub size: usize,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Plan {
    pub groups: Vec<Group>,
    pub lives: Vec<Life>,
    by_id: SortedMap<String, Vec<usize>>,
    /// Rows in all (headers included).
    pub rows: usize,
    /// The history length it was planned for.
    pub steps: u64,
    /// Directories drawn only as their children's header.
    pub hidden: SortedSet<String>,
}

/// The group an entry id belongs to: its parent path, on its server (`@1:` for server 1).
fn parent(id: &str) -> String {
    let (s, id) = server_of_id(id);
    let dir = id.rfind('/').map_or(String::new(), |i| id[..i].to_string());
    match s {
        0 => dir,
        _ => on_server(s, &dir),
    }
}

/// Whether a group holds another server's copies (headed by that server's name).
pub fn on_other_server(parent: &str) -> bool {
    server_of_id(parent).0 > 0
}

impl Plan {
    /// Plans the rows for everything the simulation has computed (from its start; the app
    /// keeps a [`Tracker`](super::tracker::Tracker) that observes only what is new).
    pub fn new(sim: &Simulation) -> Plan {
        let mut lives = Lives::new(sim.initial());
        sim.replay(|w, r| lives.observe(w, r));
        lives.plan(sim.len())
    }

    /// Groups, then rows within each group (see the module's rules).
    pub(super) fn assign(mut lives: Vec<Life>, servers: SortedSet<ServerId>, steps: u64) -> Plan {
        // A ghost (or a missing node's row) gives way when the same id comes back.
        // Lives are in birth order, so the first later life with the same id born after this
        // one died is the earliest.
        let mut same: SortedMap<&str, Vec<usize>> = SortedMap::new();
        for (i, l) in lives.iter().enumerate() {
            same.entry(l.id.as_str()).or_default().push(i);
        }
        let backs: Vec<Option<u64>> = (0..lives.len())
            .map(|i| {
                let later = &same[lives[i].id.as_str()];
                let after = later.partition_point(|j| *j <= i);
                later[after..]
                    .iter()
                    .map(|j| lives[*j].born)
                    .find(|b| Some(*b) >= lives[i].died)
            })
            .collect();
        for (i, back) in backs.into_iter().enumerate() {
            let tail = if lives[i].phantom { 0 } else { GHOST_STEPS };
            lives[i].until = lives[i]
                .died
                .map(|d| back.map_or(d + tail, |b| b.min(d + tail)));
        }
        let mut groups: Vec<Group> = Vec::new();
        for l in lives.iter_mut() {
            let p = parent(&l.id);
            l.group = groups
                .iter()
                .position(|g| g.parent == p)
                .unwrap_or_else(|| {
                    groups.push(Group {
                        parent: p,
                        header: false,
                        top: 0,
                        size: 0,
                    });
                    groups.len() - 1
                });
        }
        // Every other server has a group, if only for its header.
        for s in servers.into_iter().filter(|s| *s > 0) {
            if !groups.iter().any(|g| server_of_id(&g.parent).0 == s) {
                groups.push(Group {
                    parent: on_server(s, ""),
                    header: true,
                    top: 0,
                    size: 0,
                });
            }
        }
        // Other servers' groups go after the first's, by server, in the order they appeared.
        let mut order: Vec<usize> = (0..groups.len()).collect();
        crate::sort::by_key(&mut order, |g| server_of_id(&groups[*g].parent).0);
        size_groups(&mut lives, &mut groups);
        let mut prev: Option<usize> = None;
        for &g in &order {
            groups[g].header = match prev {
                _ if groups[g].parent.is_empty() => false,
                _ if on_other_server(&groups[g].parent) => true,
                Some(p) => {
                    !(groups[p].size == 1
                        && lives
                            .iter()
                            .any(|l| l.group == p && l.id == groups[g].parent))
                }
                None => true,
            };
            prev = Some(g);
        }
        // A directory whose children are listed under its own header needs no row of its own.
        let hidden: SortedSet<String> = groups
            .iter()
            .filter(|g| g.header && !on_other_server(&g.parent))
            .map(|g| g.parent.clone())
            .collect();
        lives.retain(|l| !hidden.contains(&l.id));
        size_groups(&mut lives, &mut groups);
        let mut top = 0;
        for &g in &order {
            groups[g].top = top;
            top += groups[g].size + usize::from(groups[g].header);
        }
        let mut by_id: SortedMap<String, Vec<usize>> = SortedMap::new();
        for (i, l) in lives.iter().enumerate() {
            by_id.entry(l.id.clone()).or_default().push(i);
        }
        Plan {
            groups,
            lives,
            by_id,
            rows: top,
            steps,
            hidden,
        }
    }

    /// The header row that stands for a directory drawn only as a header.
    pub fn header_of(&self, id: &str) -> Option<usize> {
        self.groups
            .iter()
            .find(|g| g.header && g.parent == id)
            .map(|g| g.top)
    }

    /// The row of what is shown for `id` at `step` (its life or its ghost), and that life.
    pub fn row(&self, id: &str, step: u64) -> Option<(usize, &Life)> {
        let i = self
            .by_id
            .get(id)?
            .iter()
            .rev()
            .find(|i| self.lives[**i].shown_at(step))?;
        let l = &self.lives[*i];
        let g = &self.groups[l.group];
        Some((g.top + usize::from(g.header) + l.slot, l))
    }

    /// Everything on the stage at `step`: live entries, ghosts and watched missing nodes.
    pub fn shown(&self, step: u64) -> impl Iterator<Item = (usize, &Life)> {
        self.lives
            .iter()
            .filter(move |l| l.shown_at(step))
            .map(|l| {
                let g = &self.groups[l.group];
                (g.top + usize::from(g.header) + l.slot, l)
            })
    }

    /// The header rows: (row, parent).
    pub fn headers(&self) -> impl Iterator<Item = (usize, &str)> {
        self.groups
            .iter()
            .filter(|g| g.header)
            .map(|g| (g.top, g.parent.as_str()))
    }
}

/// Places every group's lives and sizes the groups.
fn size_groups(lives: &mut [Life], groups: &mut [Group]) {
    for (g, group) in groups.iter_mut().enumerate() {
        let mut mine: Vec<usize> = (0..lives.len()).filter(|i| lives[*i].group == g).collect();
        crate::sort::by_key(&mut mine, |i| lives[*i].born);
        group.size = place(lives, &mine);
    }
}

/// Gives each life in one group (sorted by birth) a row — the row its id had before when that
/// is free, else the next one down — and returns how many rows the group needs.
fn place(lives: &mut [Life], mine: &[usize]) -> usize {
    let end = |l: &Life| l.until.unwrap_or(u64::MAX);
    // The most rows ever in use at once: at each birth, the lives born by then less those
    // ended by then (a sweep; `mine` is sorted by birth).
    let mut ends: Vec<u64> = mine.iter().map(|i| end(&lives[*i])).collect();
    crate::sort::all(&mut ends);
    let mut cap = 0;
    for (k, &i) in mine.iter().enumerate() {
        let at = lives[i].born;
        let born = k + 1 + mine[k + 1..].partition_point(|j| lives[*j].born <= at);
        cap = cap.max(born - ends.partition_point(|e| *e <= at));
    }
    let mut used: Vec<(usize, u64)> = Vec::new();
    let mut last: SortedMap<String, usize> = SortedMap::new();
    for &i in mine {
        let at = lives[i].born;
        used.retain(|(_, until)| at < *until);
        let free = |s: usize| !used.iter().any(|(u, _)| *u == s);
        let next = used.iter().map(|(s, _)| s + 1).max().unwrap_or(0);
        let slot = match last.get(&lives[i].id) {
            Some(s) if free(*s) => *s,
            _ if next < cap => next,
            _ => (0..cap).find(|s| free(*s)).unwrap_or(next),
        };
        lives[i].slot = slot;
        last.insert(lives[i].id.clone(), slot);
        used.push((slot, end(&lives[i])));
    }
    cap.max(used.iter().map(|(s, _)| s + 1).max().unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::presets;

    #[test]
    fn every_preset_keeps_each_entry_in_one_row_and_rows_never_collide() {
        for p in presets::all() {
            let mut sim = Simulation::new(p.scenario());
            sim.compute_ahead(600, 200);
            let plan = Plan::new(&sim);
            for step in 0..=sim.len() {
                let mut rows: Vec<usize> = plan.shown(step).map(|(r, _)| r).collect();
                let n = rows.len();
                crate::sort::all(&mut rows);
                rows.dedup();
                assert_eq!(rows.len(), n, "{} step {step}: two things in one row", p.id);
                assert!(rows.iter().all(|r| *r < plan.rows), "{} step {step}", p.id);
            }
        }
    }

    #[test]
    fn a_queue_reads_top_to_bottom_in_creation_order() {
        let mut sim = Simulation::new(presets::find("queue").unwrap().scenario());
        sim.compute_ahead(60, 200);
        let plan = Plan::new(&sim);
        let mut kids: Vec<(usize, &Life)> = plan.shown(50).filter(|(_, l)| l.depth == 2).collect();
        crate::sort::by_key(&mut kids, |(r, _)| *r);
        let names: Vec<&str> = kids.iter().map(|(_, l)| l.name.as_str()).collect();
        let mut sorted = names.clone();
        crate::sort::all(&mut sorted);
        assert_eq!(names, sorted);
        assert_eq!(plan.row("/locks", 50).map(|(r, _)| r), Some(0));
    }

    #[test]
    fn a_missing_watched_node_gets_a_row() {
        let mut sim = Simulation::new(presets::find("lost-wakeup").unwrap().scenario());
        sim.compute_ahead(60, 200);
        let plan = Plan::new(&sim);
        assert!(plan.shown(40).any(|(_, l)| l.phantom && l.id == "/lock"));
        let lock_rows: Vec<usize> = (0..40)
            .filter_map(|s| plan.row("/lock", s))
            .map(|(r, _)| r)
            .collect();
        assert!(
            lock_rows.windows(2).all(|w| w[0] == w[1]),
            "/lock, its ghost and its watch share one row"
        );
    }
}

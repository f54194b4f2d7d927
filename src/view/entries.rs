//! The view model's service rows: each live entry (a znode, a key, a lock row) with its planned
//! row, owner and marks (protected, READ/WRITE, orphan, row lock and waiters), the ghosts of
//! entries just deleted, and watched nodes that do not exist.

use super::plan::{Life, Plan};
use crate::services::{Entry, Lifetime, Owner};
use crate::sim::World;

/// One entry of the lock service's state, typed per service.
#[derive(Clone, Debug, PartialEq)]
pub struct EntryRow {
    /// Stable identity: the row keeps its place while this is alive.
    pub id: String,
    pub name: String,
    pub depth: usize,
    /// Its row on the stage.
    pub row: usize,
    /// The client the service says it belongs to.
    pub owner: Option<usize>,
    /// Created by the step that led to this frame.
    pub fresh: bool,
    /// Owned by a client that does not know it (it believes another node is its own).
    pub orphan: bool,
    pub entry: Entry,
}

/// A deleted entry's ghost, or a watched node that does not exist.
#[derive(Clone, Debug, PartialEq)]
pub struct Ghost {
    pub id: String,
    pub name: String,
    pub depth: usize,
    pub row: usize,
    /// Steps since it was deleted.
    pub age: u64,
    /// Deleted by the service's own clock (a session expiry, a TTL).
    pub expired: bool,
    /// Gone in a failover: the new primary never had it (a write the replica never got).
    pub lost: bool,
    /// Gone with its server's memory in a crash (its disk may still hold it).
    pub crashed: bool,
    /// Not a ghost: a node that does not exist and is watched.
    pub phantom: bool,
    /// A watched missing node that existed before: the step that deleted it (the deletion a
    /// watch set after it never hears of).
    pub missed: Option<u64>,
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

    /// The name without its sequence suffix, and the suffix.
    pub fn split_name(&self) -> (&str, &str) {
        match self.entry.sequence() {
            Some(seq) if self.name.ends_with(seq) => {
                self.name.split_at(self.name.len() - seq.len())
            }
            _ => (self.name.as_str(), ""),
        }
    }

    /// Curator's protection prefix (`_c_<uuid>-`).
    pub fn protected(&self) -> bool {
        self.name.starts_with("_c_")
    }

    /// READ or WRITE for a read/write lock's node.
    pub fn mode(&self) -> Option<&'static str> {
        if self.name.contains("__READ__") {
            Some("READ")
        } else if self.name.contains("__WRIT__") {
            Some("WRITE")
        } else {
            None
        }
    }
}

/// The client a service's owner stands for (matched against each client's claim).
pub fn owner_client(w: &World, owner: &Owner) -> Option<usize> {
    w.clients
        .iter()
        .find(|c| owner.matches(&c.claim()))
        .map(|c| c.id)
}

/// The service's rows at `step`, each in its planned row (an entry the plan does not know —
/// history computed after it was made — goes below the planned rows).
pub fn rows(w: &World, plan: &Plan, step: u64, created: &[String]) -> Vec<EntryRow> {
    let mut extra = plan.rows;
    let mut rows: Vec<EntryRow> = w
        .service
        .entries(w.now)
        .into_iter()
        .filter(|e| !plan.hidden.contains(&e.id()))
        .map(|entry| {
            let id = entry.id();
            let owner = entry.owner().and_then(|o| owner_client(w, &o));
            let planned = plan
                .row(&id, step)
                .filter(|(_, l)| !l.phantom && l.died.is_none_or(|d| step < d));
            let row = planned.map(|(r, _)| r).unwrap_or_else(|| {
                extra += 1;
                extra - 1
            });
            EntryRow {
                fresh: created.contains(&id),
                name: entry.name(),
                depth: entry.depth(),
                row,
                owner,
                orphan: false,
                id,
                entry,
            }
        })
        .collect();
    mark_orphans(w, &mut rows);
    rows
}

/// An ephemeral whose owner believes another node in the same directory is its own (the
/// node a lost create reply left behind).
fn mark_orphans(w: &World, rows: &mut [EntryRow]) {
    let parent = |id: &str| id.rfind('/').map_or("", |i| &id[..i]).to_string();
    let sessions: Vec<(String, usize, String)> = rows
        .iter()
        .filter(|r| r.lifetime() == Lifetime::Session)
        .filter_map(|r| r.owner.map(|o| (r.id.clone(), o, parent(&r.id))))
        .collect();
    for r in rows.iter_mut() {
        let Some(o) = r.owner.filter(|o| w.clients[*o].alive()) else {
            continue;
        };
        let same: Vec<&str> = sessions
            .iter()
            .filter(|(_, so, p)| *so == o && *p == parent(&r.id))
            .map(|(id, _, _)| id.as_str())
            .collect();
        // Until its create's reply arrives a client knows no node of its own: the newest one
        // is the one it is waiting to hear about, the older ones are orphans.
        let mine = w.clients[o]
            .recipe
            .my_node()
            .or_else(|| same.iter().max().copied());
        r.orphan =
            r.lifetime() == Lifetime::Session && same.len() >= 2 && mine != Some(r.id.as_str());
    }
}

/// The ghosts and watched missing nodes at `step`.
pub fn ghosts(
    plan: &Plan,
    step: u64,
    expired_at: &dyn Fn(u64) -> bool,
    lost_at: &dyn Fn(u64) -> bool,
    crashed_at: &dyn Fn(u64) -> bool,
) -> Vec<Ghost> {
    let gone = |l: &Life| l.phantom || l.died.is_some_and(|d| step >= d);
    plan.shown(step)
        .filter(|(_, l)| gone(l))
        .map(|(row, l)| Ghost {
            id: l.id.clone(),
            name: l.name.clone(),
            depth: l.depth,
            row,
            age: l.died.map_or(0, |d| step.saturating_sub(d)),
            expired: !l.phantom && l.died.is_some_and(expired_at),
            lost: !l.phantom && l.died.is_some_and(lost_at),
            crashed: !l.phantom && l.died.is_some_and(crashed_at),
            phantom: l.phantom,
            missed: l
                .phantom
                .then(|| {
                    plan.lives
                        .iter()
                        .filter(|o| !o.phantom && o.id == l.id)
                        .filter_map(|o| o.died)
                        .filter(|d| *d <= step)
                        .max()
                })
                .flatten(),
        })
        .collect()
}

//! The key frames of an observer's reads: a read a lagging server answered with what the
//! leader no longer has (stale), and a read that saw what the leader has (after `sync`, or on
//! a server that had caught up).

use super::moments::{moment, Finder, Kind};
use super::world::World;
use super::StepRecord;
use crate::narrate::Phase;
use crate::recipes::LOCK_NODE;
use crate::services::{on_server, Role};

/// Observers' reads on their way (the detector's memory): client and whether its read
/// followed a `sync`. A few observers at most, so a list.
#[derive(Clone, Debug, Default)]
pub(super) struct Reads(Vec<(usize, bool)>);

impl Reads {
    fn start(&mut self, c: usize, synced: bool) {
        match self.0.iter_mut().find(|(x, _)| *x == c) {
            Some(e) => e.1 |= synced,
            None => self.0.push((c, synced)),
        }
    }

    /// Ends client `c`'s read: whether it followed a `sync`, `None` if none was on its way.
    fn end(&mut self, c: usize) -> Option<bool> {
        let i = self.0.iter().position(|(x, _)| *x == c)?;
        Some(self.0.swap_remove(i).1)
    }
}

/// Whether the leader's copy of the tree (the committed state; a single server's own) has the
/// lock node; `None` while no server leads.
pub fn leader_has_lock(w: &World) -> Option<bool> {
    if !crate::FULL {
        return None; // only an observer's reads ask, and they run in the full bundle
    }
    let servers = w.service.servers();
    let lead = match servers.len() {
        1 => servers.first(),
        _ => servers.iter().find(|s| s.role == Role::Leader),
    }?;
    let id = on_server(lead.id, LOCK_NODE);
    Some(w.service.entries(w.now).iter().any(|e| e.id() == id))
}

/// What an observer's last read saw, and whether the leader disagrees now: `(held, stale)`.
pub fn read_of(w: &World, c: &super::client::Client) -> Option<(bool, bool)> {
    let Phase::Read(seen) = c.recipe.phase_ref() else {
        return None;
    };
    let held = seen.is_some();
    Some((held, leader_has_lock(w).is_some_and(|t| t != held)))
}

impl Finder {
    /// The step an observer's read is answered: stale or fresh.
    pub(super) fn reads(&mut self, w: &World, r: &StepRecord) {
        if !crate::FULL {
            return; // observers run in the full bundle only
        }
        for c in &w.clients {
            match c.recipe.phase_ref() {
                Phase::Syncing => self.memory.reads.start(c.id, true),
                Phase::Reading => self.memory.reads.start(c.id, false),
                _ => {}
            }
        }
        let Some(c) = r.narration.client.and_then(|c| w.clients.get(c)) else {
            return;
        };
        let Some((held, stale)) = read_of(w, c) else {
            return;
        };
        let Some(synced) = self.memory.reads.end(c.id) else {
            return;
        };
        let kind = if stale {
            Kind::StaleRead
        } else {
            Kind::FreshRead
        };
        if self.wants(kind) {
            let mut m = moment(r.index, kind, Some(c.id));
            m.n = i64::from(held);
            m.m = i64::from(synced);
            let server = c.lib.server().unwrap_or(0);
            let name = w.service.servers().into_iter().find(|s| s.id == server);
            let name = name.map(|s| s.name).unwrap_or_default();
            m.text = [name.clone(), name];
            self.push(m);
        }
    }
}

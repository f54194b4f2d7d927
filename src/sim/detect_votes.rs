//! The Redlock moment: one client holds the lock with a majority of the masters while another,
//! short of a majority, deletes its keys everywhere.

use super::moments::{moment, Finder, Kind};
use super::{StepRecord, World};

impl Finder {
    /// A believer and a client unwinding a failed attempt, at the same time.
    pub(super) fn votes(&mut self, w: &World, r: &StepRecord) {
        if !self.wants(Kind::Quorum) {
            return;
        }
        let holder = w.monitors.now.believers.first().copied();
        let short = w.clients.iter().find_map(|c| {
            let t = c.recipe.tally().filter(|t| t.unwinding)?;
            c.alive().then_some((c.id, t))
        });
        if let (Some(h), Some((c, t))) = (holder, short) {
            let mut m = moment(r.index, Kind::Quorum, Some(h));
            m.others = vec![c];
            m.n = i64::from(t.votes);
            m.m = i64::from(t.masters);
            self.push(m);
        }
    }
}

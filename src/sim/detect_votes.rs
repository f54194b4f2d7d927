//! The Redlock moments: an expiry names its masters; one client holds the lock with a majority of the masters while another,
//! short of a majority, deletes its keys everywhere.

use super::moments::{moment, Finder, Kind, Moment};
use super::narrate::{Key, Lang};
use super::{StepRecord, World};

/// A Redlock expiry moment says which masters ran the key out: the narration says it best.
pub(super) fn on_masters(m: &mut Moment, r: &StepRecord) {
    if r.narration.key == Key::RedlockExpired {
        m.text = [r.narration.text(Lang::En), r.narration.text(Lang::Zh)];
        m.fault = Some(Key::RedlockExpired);
    }
}

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

//! The Redlock moments: an expiry names its masters; one client holds the lock with a majority of the masters while another,
//! short of a majority, deletes its keys everywhere.

use super::moments::{moment, Finder, Kind, Moment};
use super::narrate::{Key, Lang};
use super::{StepRecord, World};

/// A Redlock expiry moment says which masters ran the key out (the narration says it best),
/// and whether a client still waiting for answers has just lost votes it was counting on.
pub(super) fn on_masters(m: &mut Moment, w: &World, r: &StepRecord) {
    if r.narration.key != Key::RedlockExpired {
        return;
    }
    m.text = [r.narration.text(Lang::En), r.narration.text(Lang::Zh)];
    m.fault = Some(Key::RedlockExpired);
    // A client still collecting answers that now has fewer keys than the votes it counted.
    let waiting = w.clients.iter().find_map(|c| {
        let asking = *c.recipe.phase_ref() == crate::recipes::Phase::Requesting;
        let t = c
            .recipe
            .tally()
            .filter(|t| asking && t.waiting > 0 && !t.unwinding)?;
        (c.alive() && keys_of(w, c.id) < i64::from(t.votes)).then_some((c.id, t))
    });
    if let Some((c, t)) = waiting {
        let c = super::captions::name(c);
        let (n, v, all) = (t.waiting, t.votes, t.masters);
        let more = if n == 1 { "answer" } else { "answers" };
        m.text[0].push_str(&format!(" {c} is still waiting for {n} more {more} ({v} of {all} votes so far): its keys run out before its attempt can end."));
        m.text[1].push_str(&format!("{c} 还在等 {n} 个应答（目前 {all} 票中的 {v} 票）：这次尝试还没结束，它的键就已经过期了。"));
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
            if !w.service.holds(w.now, &w.clients[h].claim()) {
                m.fewer = Some(keys_of(w, h));
            }
            self.push(m);
        }
    }
}

/// How many of the masters hold client `c`'s key now.
fn keys_of(w: &World, c: usize) -> i64 {
    let claim = w.clients[c].claim();
    let mine = |e: &&crate::services::Entry| e.owner().is_some_and(|o| o.matches(&claim));
    w.service.entries(w.now).iter().filter(mine).count() as i64
}

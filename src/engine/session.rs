//! Sessions on the server side (`SessionTrackerImpl` + `ExpiryQueue`): timeout negotiation,
//! touches, and expiry deadlines rounded up to the next multiple of tickTime.

use crate::sorted::SortedSet;

use super::types::{SessionId, SessionMap, Time, Work};

/// One live session as the tracker sees it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Session {
    pub id: SessionId,
    /// The negotiated timeout (ms).
    pub timeout_ms: u64,
    /// The expiry bucket this session sits in; it expires when the clock reaches it.
    pub expires_at: Time,
    /// Marked while its closeSession transaction is being prepared.
    pub closing: bool,
}

/// All sessions, keyed by id (ordered, so expiry within a bucket is deterministic), and the
/// live ones by deadline (the `ExpiryQueue`), so finding who is due never scans them all.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SessionTracker {
    sessions: SessionMap<Session>,
    /// (deadline, id) of every session not closing: a function of `sessions`.
    deadlines: SortedSet<(Time, SessionId)>,
    next_id: u64,
    tick_time_ms: u64,
    work: Work,
}

impl SessionTracker {
    pub fn new(tick_time_ms: u64) -> Self {
        SessionTracker {
            sessions: SessionMap::default(),
            deadlines: SortedSet::new(),
            next_id: SessionId::FIRST.0,
            tick_time_ms: tick_time_ms.max(1),
            work: Work::default(),
        }
    }

    pub fn tick_time_ms(&self) -> u64 {
        self.tick_time_ms
    }

    /// Clamps a requested timeout into [2·tickTime, 20·tickTime], as the server negotiates.
    pub fn negotiate(&self, requested_ms: u64) -> u64 {
        requested_ms.clamp(2 * self.tick_time_ms, 20 * self.tick_time_ms)
    }

    /// `ExpiryQueue.roundToNextInterval`: always strictly after `time`.
    fn round_up(&self, time: Time) -> Time {
        (time / self.tick_time_ms + 1) * self.tick_time_ms
    }

    /// Creates a session with the next id and a first deadline.
    pub fn create(&mut self, requested_ms: u64, now: Time) -> Session {
        let id = SessionId(self.next_id);
        self.next_id += 1;
        let timeout_ms = self.negotiate(requested_ms);
        let session = Session {
            id,
            timeout_ms,
            expires_at: self.round_up(now + timeout_ms),
            closing: false,
        };
        self.deadlines.insert((session.expires_at, id));
        self.sessions.insert(id, session.clone());
        session
    }

    /// A session another server created, as its createSession transaction is applied here
    /// (an ensemble): the id and the negotiated timeout come with the transaction.
    pub fn adopt(&mut self, id: SessionId, timeout_ms: u64, now: Time) {
        let session = Session {
            id,
            timeout_ms,
            expires_at: self.round_up(now + timeout_ms),
            closing: false,
        };
        self.deadlines.insert((session.expires_at, id));
        self.sessions.insert(id, session);
    }

    /// Any request or ping from the session pushes its deadline; false if it is gone or closing.
    pub fn touch(&mut self, id: SessionId, now: Time) -> bool {
        let tick = self.tick_time_ms;
        match self.sessions.get_mut(&id) {
            Some(s) if !s.closing => {
                let deadline = (now + s.timeout_ms) / tick * tick + tick;
                if deadline > s.expires_at {
                    self.deadlines.remove(&(s.expires_at, id));
                    self.deadlines.insert((deadline, id));
                    s.expires_at = deadline;
                }
                true
            }
            _ => false,
        }
    }

    pub fn get(&self, id: SessionId) -> Option<&Session> {
        self.sessions.get(&id)
    }

    pub fn is_live(&self, id: SessionId) -> bool {
        self.sessions.get(&id).is_some_and(|s| !s.closing)
    }

    pub fn set_closing(&mut self, id: SessionId) {
        if let Some(s) = self.sessions.get_mut(&id) {
            s.closing = true;
            self.deadlines.remove(&(s.expires_at, id));
        }
    }

    pub fn remove(&mut self, id: SessionId) -> Option<Session> {
        let s = self.sessions.remove(&id)?;
        self.deadlines.remove(&(s.expires_at, id));
        Some(s)
    }

    /// Sessions whose deadline has been reached at `now`, in id order.
    pub fn due(&self, now: Time) -> Vec<SessionId> {
        let mut due: Vec<SessionId> = self
            .deadlines
            .range(..=(now, SessionId(u64::MAX)))
            .map(|(_, id)| *id)
            .collect();
        self.work.add(due.len() + 1);
        crate::sort::all(&mut due);
        due
    }

    /// The earliest deadline of any live session (for a scheduler's next wake-up).
    pub fn next_deadline(&self) -> Option<Time> {
        self.work.add(1);
        self.deadlines.first().map(|(t, _)| *t)
    }

    /// Sessions looked at so far (see [`Work`]).
    pub fn work(&self) -> u64 {
        self.work.get()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Session> {
        self.sessions.values()
    }

    pub fn len(&self) -> usize {
        self.sessions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.sessions.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negotiation_clamps_like_the_observed_server() {
        let t = SessionTracker::new(2000);
        assert_eq!(t.negotiate(1000), 4000);
        assert_eq!(t.negotiate(100_000), 40_000);
        assert_eq!(t.negotiate(30_000), 30_000);
    }

    #[test]
    fn deadline_rounds_up_to_next_tick_and_touch_extends() {
        let mut t = SessionTracker::new(2000);
        let s = t.create(4000, 0);
        assert_eq!(s.id, SessionId::FIRST);
        assert_eq!(s.expires_at, 6000);
        assert!(t.due(5999).is_empty());
        assert!(t.touch(s.id, 2500));
        assert_eq!(t.get(s.id).unwrap().expires_at, 8000);
        assert_eq!(t.due(8000), vec![s.id]);
        assert_eq!(t.create(4000, 0).id, SessionId(SessionId::FIRST.0 + 1));
    }

    #[test]
    fn closing_sessions_cannot_be_touched() {
        let mut t = SessionTracker::new(100);
        let s = t.create(400, 0);
        t.set_closing(s.id);
        assert!(!t.touch(s.id, 10));
        assert!(!t.is_live(s.id));
        assert_eq!(t.next_deadline(), None);
    }
}

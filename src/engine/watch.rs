//! The server's two one-shot watch tables (`WatchManager`): data watches (set by getData and by
//! exists, even on a missing node) and child watches (set by getChildren). At most one entry per
//! (table, path, session), so a session gets one notification per event however often it asked.

use crate::sorted::{SortedMap, SortedSet};

use super::types::{SessionId, Work};

/// Which server table a watch lives in.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum WatchTable {
    Data,
    Child,
}

/// The sessions watching one path, sorted and without duplicates.
type Watchers = SortedSet<SessionId>;

/// Both tables: path → sessions watching it; and per session what it watches (`removeCnxn`
/// drops a session's watches without searching every path).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Watches {
    data: SortedMap<String, Watchers>,
    child: SortedMap<String, Watchers>,
    /// Every watch as (session, table, path): a function of the two tables.
    by_session: SortedSet<(SessionId, WatchTable, String)>,
    work: Work,
}

impl Watches {
    fn table(&self, t: WatchTable) -> &SortedMap<String, Watchers> {
        match t {
            WatchTable::Data => &self.data,
            WatchTable::Child => &self.child,
        }
    }

    fn table_mut(&mut self, t: WatchTable) -> &mut SortedMap<String, Watchers> {
        match t {
            WatchTable::Data => &mut self.data,
            WatchTable::Child => &mut self.child,
        }
    }

    /// Registers a watch; a duplicate is absorbed.
    pub fn add(&mut self, t: WatchTable, path: &str, session: SessionId) {
        let table = self.table_mut(t);
        if table.entry(path.to_string()).or_default().insert(session) {
            self.by_session.insert((session, t, path.to_string()));
        }
    }

    /// Whether any session watches `path` in table `t`.
    pub fn watched(&self, t: WatchTable, path: &str) -> bool {
        self.table(t).contains_key(path)
    }

    pub fn contains(&self, t: WatchTable, path: &str, session: SessionId) -> bool {
        self.table(t)
            .get(path)
            .is_some_and(|s| s.contains(&session))
    }

    /// Fires and removes every watch on `path` in table `t`, skipping `suppressed` sessions
    /// (which keep nothing either: the entry is consumed). Returns the sessions to notify.
    pub fn trigger(
        &mut self,
        t: WatchTable,
        path: &str,
        suppressed: &[SessionId],
    ) -> Vec<SessionId> {
        let fired = self.table_mut(t).remove(path).unwrap_or_default();
        for s in &fired {
            self.by_session.remove(&(*s, t, path.to_string()));
        }
        fired
            .into_iter()
            .filter(|s| !suppressed.contains(s))
            .collect()
    }

    /// Drops all watches of a session (its connection closed: `removeCnxn`).
    pub fn remove_session(&mut self, session: SessionId) {
        // (session, Data, "") sorts before every watch of the session.
        let first = (session, WatchTable::Data, String::new());
        let mine: Vec<(WatchTable, String)> = self
            .by_session
            .range(first..)
            .take_while(|(s, ..)| *s == session)
            .map(|(_, t, path)| (*t, path.clone()))
            .collect();
        self.work.add(mine.len() + 1);
        for (t, path) in mine {
            self.by_session.remove(&(session, t, path.clone()));
            let table = self.table_mut(t);
            if let Some(set) = table.get_mut(&path) {
                set.remove(&session);
                if set.is_empty() {
                    table.remove(&path);
                }
            }
        }
    }

    /// Removes one watch (`removeWatches`); false when there was none (`NoWatcher`).
    pub fn remove(&mut self, t: WatchTable, path: &str, session: SessionId) -> bool {
        let table = self.table_mut(t);
        let Some(set) = table.get_mut(path) else {
            return false;
        };
        let removed = set.remove(&session);
        if set.is_empty() {
            table.remove(path);
        }
        if removed {
            self.by_session.remove(&(session, t, path.to_string()));
        }
        removed
    }

    /// Every registered watch as (table, path, session), data table first, by path.
    pub fn iter(&self) -> impl Iterator<Item = (WatchTable, &str, SessionId)> + '_ {
        let table = |t: WatchTable| {
            self.table(t)
                .iter()
                .flat_map(move |(path, s)| s.iter().map(move |s| (t, path.as_str(), *s)))
        };
        table(WatchTable::Data).chain(table(WatchTable::Child))
    }

    /// Every registered watch as (table, path, session), in a stable order (for views and tests).
    pub fn all(&self) -> Vec<(WatchTable, String, SessionId)> {
        let mut out = Vec::new();
        for t in [WatchTable::Data, WatchTable::Child] {
            for (path, sessions) in self.table(t) {
                out.extend(sessions.iter().map(|s| (t, path.clone(), *s)));
            }
        }
        out
    }

    /// Entries looked at so far when sessions went (see [`super::types::Work`]).
    pub fn work(&self) -> u64 {
        self.work.get()
    }

    pub fn len(&self) -> usize {
        self.data
            .values()
            .chain(self.child.values())
            .map(SortedSet::len)
            .sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: SessionId = SessionId(1);
    const B: SessionId = SessionId(2);

    #[test]
    fn one_entry_per_session_and_path() {
        let mut w = Watches::default();
        w.add(WatchTable::Data, "/x", A);
        w.add(WatchTable::Data, "/x", A);
        w.add(WatchTable::Child, "/x", A);
        assert_eq!(w.len(), 2);
    }

    #[test]
    fn trigger_is_one_shot_and_honours_suppression() {
        let mut w = Watches::default();
        w.add(WatchTable::Data, "/x", A);
        w.add(WatchTable::Data, "/x", B);
        assert_eq!(w.trigger(WatchTable::Data, "/x", &[]), vec![A, B]);
        assert!(w.trigger(WatchTable::Data, "/x", &[]).is_empty());
        w.add(WatchTable::Child, "/x", B);
        w.add(WatchTable::Child, "/x", A);
        assert_eq!(w.trigger(WatchTable::Child, "/x", &[A]), vec![B]);
        assert!(w.is_empty());
    }

    #[test]
    fn session_removal_drops_everything_it_had() {
        let mut w = Watches::default();
        w.add(WatchTable::Data, "/x", A);
        w.add(WatchTable::Child, "/y", A);
        w.add(WatchTable::Child, "/y", B);
        w.remove_session(A);
        assert_eq!(w.all(), vec![(WatchTable::Child, "/y".to_string(), B)]);
        assert!(!w.remove(WatchTable::Data, "/x", A));
    }
}

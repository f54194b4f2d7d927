//! Stable places for the service's entries: an entry keeps its row for its whole life, and for
//! a few steps after it goes its ghost stays there. Rows are handed out in creation order
//! within an *epoch* — the time the service keeps at least one entry below its root — and start
//! from the top again once everything is gone; a new entry reuses no row below the deepest one
//! in use, so the queue reads top to bottom in creation order.

use std::collections::BTreeMap;

use crate::sim::StepRecord;

/// How many steps a deleted entry's ghost stays.
pub const GHOST_STEPS: u64 = 6;

/// Rows of the entries that exist (or were just deleted) at some step.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Slots {
    /// Entry id → its row.
    pub rows: BTreeMap<String, usize>,
    /// Deleted entries still shown: id → (row, step it was deleted at).
    pub ghosts: BTreeMap<String, (usize, u64)>,
}

impl Slots {
    /// The rows at the end of `records` (the cursor's step), given the ids that existed before
    /// the first step (`initial`, in the service's order).
    pub fn at(initial: &[String], records: &[StepRecord]) -> Slots {
        let mut s = Slots::default();
        for id in initial {
            s.place(id);
        }
        for r in records {
            s.apply(r);
        }
        s
    }

    fn next_row(&self) -> usize {
        self.rows
            .values()
            .chain(self.ghosts.values().map(|(row, _)| row))
            .max()
            .map_or(0, |r| r + 1)
    }

    fn place(&mut self, id: &str) {
        if !self.rows.contains_key(id) {
            self.ghosts.remove(id);
            let row = self.next_row();
            self.rows.insert(id.to_string(), row);
        }
    }

    /// One step: ghosts age, deleted entries become ghosts, new entries get the next row (an
    /// empty service starts from the top again).
    pub fn apply(&mut self, r: &StepRecord) {
        self.ghosts.retain(|_, (_, at)| r.index < *at + GHOST_STEPS);
        for id in &r.deleted {
            if let Some(row) = self.rows.remove(id) {
                self.ghosts.insert(id.clone(), (row, r.index));
            }
        }
        for id in &r.created {
            self.place(id);
        }
    }

    /// The row of an entry that exists now, placing it if a record never said it was created
    /// (say, a key copied to a replica by the service's own clock).
    pub fn row_of(&mut self, id: &str) -> usize {
        self.place(id);
        self.rows[id]
    }

    /// How many rows the picture needs.
    pub fn height(&self) -> usize {
        self.next_row()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::narrate::{Key, Narration};
    use crate::sim::world::Action;

    fn rec(index: u64, created: &[&str], deleted: &[&str]) -> StepRecord {
        StepRecord {
            index,
            time: index,
            action: Action::ServiceTimer,
            narration: Narration::new(Key::ServiceTick, None),
            delivered: None,
            sent: Vec::new(),
            fired: Vec::new(),
            created: created.iter().map(|s| s.to_string()).collect(),
            deleted: deleted.iter().map(|s| s.to_string()).collect(),
            heartbeat: false,
        }
    }

    #[test]
    fn rows_are_stable_ghosts_linger_and_an_empty_service_starts_again() {
        let init = vec!["/locks".to_string()];
        let recs = vec![
            rec(1, &["/locks/a"], &[]),
            rec(2, &["/locks/b"], &[]),
            rec(3, &[], &["/locks/a"]),
            rec(4, &["/locks/c"], &[]),
        ];
        let s = Slots::at(&init, &recs);
        assert_eq!(s.rows["/locks"], 0);
        assert_eq!(s.rows["/locks/b"], 2);
        assert_eq!(
            s.rows["/locks/c"], 3,
            "no reuse above the deepest row in use"
        );
        assert_eq!(s.ghosts["/locks/a"], (1, 3));
        let later: Vec<StepRecord> = (5..20).map(|i| rec(i, &[], &[])).collect();
        let s = Slots::at(&init, &[recs, later].concat());
        assert!(s.ghosts.is_empty());
        let empty = Slots::at(
            &[],
            &[
                rec(1, &["k"], &[]),
                rec(2, &[], &["k"]),
                rec(10, &["j"], &[]),
            ],
        );
        assert_eq!(empty.rows["j"], 0);
    }
}

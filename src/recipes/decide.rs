//! Pure lock decisions over a directory listing: sorting by sequence suffix and choosing what
//! to wait for (Curator's `StandardLockInternalsDriver.getsTheLock`, the read lock's rule).

pub use crate::services::zookeeper::rows::{sequence_key, sorted};

/// The verdict of one look at the directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict<'a> {
    /// Our node is not there any more (session expired, or someone deleted it).
    Missing,
    Holds,
    /// Wait for this node to go.
    WaitFor(&'a str),
}

/// Mutex / semaphore rule: we hold iff fewer than `leases` nodes sort before ours; otherwise
/// watch the node `leases` places ahead (the immediate predecessor for a mutex).
pub fn gets_the_lock<'a>(sorted: &[&'a str], mine: &str, leases: usize) -> Verdict<'a> {
    match sorted.iter().position(|n| *n == mine) {
        None => Verdict::Missing,
        Some(i) if i < leases.max(1) => Verdict::Holds,
        Some(i) => Verdict::WaitFor(sorted[i - leases.max(1)]),
    }
}

/// Read-lock rule (Curator): we hold iff no write node sorts before ours; otherwise watch the
/// lowest write node before us.
pub fn reader_gets_the_lock<'a>(sorted: &[&'a str], mine: &str, write_marker: &str) -> Verdict<'a> {
    let Some(i) = sorted.iter().position(|n| *n == mine) else {
        return Verdict::Missing;
    };
    match sorted[..i].iter().find(|n| n.contains(write_marker)) {
        Some(w) => Verdict::WaitFor(w),
        None => Verdict::Holds,
    }
}

/// A textbook waiter sends `exists(path, watch)` and waits for its answer before it waits for
/// the watch: a watch event that comes while that exists is in flight (possible when the
/// answer went astray with a broken connection) is kept, and acted on once the answer is in,
/// as the recipe language does. Acting on it at once started a second step beside the first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Woken {
    /// No watch-setting exists in flight.
    #[default]
    Idle,
    Pending,
    /// In flight, and its watch has fired meanwhile.
    PendingFired,
}

impl Woken {
    /// The watch-setting exists is sent.
    pub fn sent(&mut self) {
        *self = Woken::Pending;
    }

    /// A watch event while watching: true when the waiter acts on it now (its exists was
    /// answered); false when it is kept for the answer.
    pub fn event(&mut self) -> bool {
        match self {
            Woken::Idle => true,
            _ => {
                *self = Woken::PendingFired;
                false
            }
        }
    }

    /// The exists is answered: whether its watch fired meanwhile.
    pub fn answered(&mut self) -> bool {
        std::mem::take(self) == Woken::PendingFired
    }
}

/// The node name inside its directory.
pub fn name_of(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn protection_prefix_does_not_change_order() {
        let c = v(&[
            "_c_ffff-lock-0000000003",
            "_c_0000-lock-0000000005",
            "_c_aaaa-lock-0000000001",
        ]);
        assert_eq!(
            sorted(&c, &["lock-"]),
            [
                "_c_aaaa-lock-0000000001",
                "_c_ffff-lock-0000000003",
                "_c_0000-lock-0000000005"
            ]
        );
    }

    #[test]
    fn gets_the_lock_table() {
        let s = ["a-0", "b-1", "c-2"];
        let cases: [(&str, usize, Verdict); 5] = [
            ("a-0", 1, Verdict::Holds),
            ("b-1", 1, Verdict::WaitFor("a-0")),
            ("c-2", 1, Verdict::WaitFor("b-1")),
            ("c-2", 2, Verdict::WaitFor("a-0")),
            ("z-9", 1, Verdict::Missing),
        ];
        for (mine, leases, want) in cases {
            assert_eq!(gets_the_lock(&s, mine, leases), want, "{mine} {leases}");
        }
        assert_eq!(gets_the_lock(&s, "b-1", 2), Verdict::Holds);
    }

    #[test]
    fn readers_wait_for_the_lowest_earlier_writer_only() {
        let s = [
            "r__READ__0",
            "w__WRIT__1",
            "r__READ__2",
            "w__WRIT__3",
            "r__READ__4",
        ];
        assert_eq!(
            reader_gets_the_lock(&s, "r__READ__0", "__WRIT__"),
            Verdict::Holds
        );
        assert_eq!(
            reader_gets_the_lock(&s, "r__READ__2", "__WRIT__"),
            Verdict::WaitFor("w__WRIT__1")
        );
        assert_eq!(
            reader_gets_the_lock(&s, "r__READ__4", "__WRIT__"),
            Verdict::WaitFor("w__WRIT__1")
        );
        assert_eq!(
            gets_the_lock(&s, "w__WRIT__3", 1),
            Verdict::WaitFor("r__READ__2")
        );
    }

    #[test]
    fn names_without_marker_sort_by_whole_name() {
        assert_eq!(sequence_key("plain", "lock-"), "plain");
        assert_eq!(
            sequence_key("x-lock-lock-0000000002", "lock-"),
            "0000000002"
        );
        assert_eq!(name_of("/locks/a"), "a");
    }
}

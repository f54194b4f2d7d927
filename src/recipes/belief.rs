//! What a recipe believes it holds (its node, token or lease) and, for Redlock, its votes: the
//! trait every recipe implements, most of them with "just my node".

use super::{broken, curator, kazoo, naive, sequential, NoLock};

/// What a recipe believes it has put in the lock service (see [`crate::services::Claim`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Belief<'a> {
    /// The entry it believes is its own (lock node, key, row).
    pub node: Option<&'a str>,
    /// The value it wrote there (a Redis token, a SQL owner).
    pub token: Option<&'a str>,
    /// The lease its entries live on (etcd).
    pub lease: Option<i64>,
}

/// A Redlock attempt as the stage shows it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub votes: u8,
    pub masters: u8,
    /// Answers still to come.
    pub waiting: u8,
    /// The attempt failed: its keys are being deleted everywhere.
    pub unwinding: bool,
}

/// What every recipe can say about itself beyond its phase; most say "just my node".
pub(crate) trait Believes {
    fn node(&self) -> Option<&str>;
    fn belief(&self) -> Belief<'_> {
        Belief {
            node: self.node(),
            ..Belief::default()
        }
    }
    /// A Redlock attempt's votes so far (`None` for every other recipe).
    fn tally(&self) -> Option<Tally> {
        None
    }
    /// The client's clock, before each input (only a recipe that measures time keeps it).
    fn at(&mut self, _now: crate::services::Tick) {}
    /// Its holder gets a fencing token that grows with every grant (a czxid, a create
    /// revision, a fence column); Redis keys and plain lock rows give none.
    fn fences(&self) -> bool {
        true
    }
    /// Why the recipe stopped with an error (only a learner's recipe can).
    fn error(&self) -> Option<&str> {
        None
    }
}

impl Believes for NoLock {
    fn node(&self) -> Option<&str> {
        self.my_node.as_deref()
    }
    fn fences(&self) -> bool {
        false
    }
}

/// Recipes whose belief is only their lock node.
macro_rules! believes_node {
    ($($t:ty),*) => { $(impl Believes for $t { fn node(&self) -> Option<&str> { self.my_node.as_deref() } })* };
}
believes_node!(
    naive::Naive,
    sequential::Sequential,
    curator::Curator,
    curator::Semaphore,
    kazoo::KazooLock,
    broken::NoRecheck,
    broken::LostWakeup
);

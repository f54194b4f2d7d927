//! Curator's InterProcessReadWriteLock: two Curator drivers over one directory (one counter).
//!
//! 1. A writer creates `_c_<uuid>-__WRIT__<seq>`, a reader `_c_<uuid>-__READ__<seq>`, both
//!    EPHEMERAL_SEQUENTIAL in `/locks`, so the shared counter orders readers and writers.
//! 2. A writer holds the lock only when its node is first of all; otherwise it watches its
//!    immediate predecessor of either kind.
//! 3. A reader holds the lock when no write node sorts before it — readers share. Otherwise it
//!    watches the *lowest* write node before it (not its immediate predecessor), so releasing
//!    an earlier reader wakes nobody who cannot proceed.
//! 4. When that writer leaves, every reader behind it wakes and re-lists: many readers waking
//!    together is intended (they can all proceed), not a herd.
//! 5. No reader barging: a reader that arrives after a waiting writer waits behind it.
//!
//! The machinery (protection, retries, guaranteed delete) is the Curator driver's.

use super::curator::{Curator, Flavor};

/// Constructors for the two sides (the state lives in [`Curator`]).
pub struct RwLock;

impl RwLock {
    #[allow(clippy::new_ret_no_self)]
    pub fn new(writer: bool, uuid_seed: u64) -> Curator {
        Curator::with_flavor(
            if writer { Flavor::Write } else { Flavor::Read },
            1,
            uuid_seed,
        )
    }
}

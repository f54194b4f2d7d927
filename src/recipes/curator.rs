//! Curator's InterProcessMutex (and the locks built from the same driver: semaphore-like leases
//! and the read/write lock), as it behaves on the wire (reference §9, §12).
//!
//! 1. Acquire sends an optimistic `create2` of EPHEMERAL_SEQUENTIAL
//!    `/locks/_c_<uuid>-lock-`: the `_c_<uuid>-` protection prefix lets the client find its own
//!    node later. If `/locks` is missing (NoNode), it checks with `exists`, creates the parent as
//!    a CONTAINER, and repeats the create.
//! 2. `getChildren("/locks")` (no watch), sorted by what follows the last `lock-`.
//! 3. Fewer than `max_leases` nodes before ours → we hold it (1 lease = a mutex).
//! 4. Otherwise `getData(predecessor, watch=true)` — getData, not exists, so a vanished
//!    predecessor leaves no creation watch behind; NoNode means "gone": go to 2.
//! 5. Any watch event (or a session event) wakes the waiter, which goes to 2.
//! 6. Our node missing from the listing ("Sequential path not found", e.g. after session
//!    expiry): delete it anyway (NoNode ignored) and start over with a new UUID.
//! 7. A lost create reply (ConnectionLoss): list the directory and adopt the child that starts
//!    with our `_c_<uuid>-` prefix instead of creating a second node.
//! 8. Reentrant: acquiring again while holding only counts; each release counts down and only the
//!    last one deletes the node. Releasing without holding fails with "You do not own the lock".
//! 9. Release is a "guaranteed" delete: retried after connection loss; NoNode is fine.
//! 10. acquire(timeout): when the deadline passes while waiting, delete our node and fail.
//! 11. Like real Curator, a holder whose session expired keeps believing it holds the lock
//!     until it releases (CURATOR-206): only fencing protects the resource then.
//!
//! The read/write lock uses the same machinery with `__READ__` / `__WRIT__` markers: a writer
//! needs to be first; a reader waits only for the lowest write node before it.

use super::decide::{gets_the_lock, name_of, reader_gets_the_lock, sorted, Verdict};
use super::sequential::list;
use super::{
    create_seq, czxid_of, zk, Failure, Phase, RecipeIn, RecipeOut, SessionEvent, ZkIn, LOCK_DIR,
};
use crate::engine::{CreateMode, ErrorCode, Request, Response};

/// Which lock this driver implements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Flavor {
    Mutex,
    Read,
    Write,
}

impl Flavor {
    fn marker(self) -> &'static str {
        match self {
            Flavor::Mutex => "lock-",
            Flavor::Read => "__READ__",
            Flavor::Write => "__WRIT__",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Curator {
    pub phase: Phase,
    pub my_node: Option<String>,
    pub count: u32,
    pub max_leases: u32,
    pub flavor: Flavor,
    token: i64,
    uuid_seed: u64,
    uuid_n: u64,
    uuid: String,
    timed_out: bool,
    after_session: bool,
}

/// splitmix64: turns (seed, n) into well-spread bits for a UUID.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn uuid(seed: u64, n: u64) -> String {
    let a = (mix(seed ^ mix(n)) & 0xffff_ffff_ffff_0fff) | 0x4000;
    let b = (mix(seed.rotate_left(17) ^ n) & 0x3fff_ffff_ffff_ffff) | 0x8000_0000_0000_0000;
    format!(
        "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0xffff,
        b >> 48,
        b & 0xffff_ffff_ffff
    )
}

impl Curator {
    pub fn new(max_leases: u32, uuid_seed: u64) -> Self {
        Self::with_flavor(Flavor::Mutex, max_leases, uuid_seed)
    }

    pub fn with_flavor(flavor: Flavor, max_leases: u32, uuid_seed: u64) -> Self {
        Curator {
            phase: Phase::Idle,
            my_node: None,
            count: 0,
            max_leases,
            flavor,
            token: 0,
            uuid_seed,
            uuid_n: 0,
            uuid: String::new(),
            timed_out: false,
            after_session: false,
        }
    }

    fn prefix(&self) -> String {
        format!("_c_{}-", self.uuid)
    }

    /// A new attempt with a fresh protection UUID.
    fn attempt(&mut self) -> Vec<RecipeOut> {
        self.uuid_n += 1;
        self.uuid = uuid(self.uuid_seed, self.uuid_n);
        self.create()
    }

    fn create(&mut self) -> Vec<RecipeOut> {
        self.phase = Phase::Creating;
        let path = format!("{LOCK_DIR}/{}{}", self.prefix(), self.flavor.marker());
        vec![zk(create_seq(path, b""))]
    }

    fn relist(&mut self) -> Vec<RecipeOut> {
        self.phase = Phase::Listing;
        vec![zk(list())]
    }

    fn delete_mine(&mut self) -> Vec<RecipeOut> {
        let path = self.my_node.clone().unwrap_or_default();
        vec![zk(Request::Delete { path, version: -1 })]
    }

    pub fn handle(&mut self, input: RecipeIn) -> Vec<RecipeOut> {
        match ZkIn::from(input) {
            ZkIn::Acquire => self.acquire(),
            ZkIn::Release => self.release(),
            ZkIn::Reply { request, result } => self.reply(request, result),
            ZkIn::Event(_) if matches!(self.phase, Phase::Watching(_)) => self.relist(),
            ZkIn::Session(e) => self.session(e),
            ZkIn::Timeout => self.timeout(),
            ZkIn::Event(_) | ZkIn::Foreign | ZkIn::Retry => Vec::new(),
        }
    }

    fn acquire(&mut self) -> Vec<RecipeOut> {
        match self.phase {
            Phase::Holding => {
                self.count += 1;
                vec![RecipeOut::Acquired { token: self.token }]
            }
            Phase::Idle => {
                self.timed_out = false;
                self.attempt()
            }
            _ => Vec::new(),
        }
    }

    fn release(&mut self) -> Vec<RecipeOut> {
        if self.phase != Phase::Holding {
            return vec![RecipeOut::Failed(Failure::NotOwner)];
        }
        self.count -= 1;
        if self.count > 0 {
            return vec![RecipeOut::Released];
        }
        self.phase = Phase::Releasing;
        self.delete_mine()
    }

    fn timeout(&mut self) -> Vec<RecipeOut> {
        match self.phase {
            Phase::Listing | Phase::Watching(_) if self.my_node.is_some() => {
                self.timed_out = true;
                self.phase = Phase::Releasing;
                self.delete_mine()
            }
            Phase::Creating => {
                self.timed_out = true;
                Vec::new()
            }
            _ => Vec::new(),
        }
    }

    fn reply(&mut self, request: Request, result: Result<Response, ErrorCode>) -> Vec<RecipeOut> {
        // After a timeout only the delete of our node matters; late listings must not grant.
        let abandoning = self.timed_out && self.phase == Phase::Releasing;
        if abandoning && !matches!(request, Request::Delete { .. }) {
            return Vec::new();
        }
        match (&request, result) {
            (Request::Create { path, .. }, r) if path == LOCK_DIR => match r {
                Ok(_) | Err(ErrorCode::NodeExists) => self.create(),
                _ => self.create(),
            },
            (Request::Create { .. }, r @ Ok(_)) => {
                let (path, token) = czxid_of(&r).unwrap_or_default();
                self.adopt(path, token)
            }
            (Request::Create { .. }, Err(ErrorCode::NoNode)) => {
                vec![zk(Request::Exists {
                    path: LOCK_DIR.into(),
                    watch: false,
                })]
            }
            (Request::Create { .. }, Err(ErrorCode::ConnectionLoss)) => {
                // Protection: look for our own node before creating again.
                self.phase = Phase::Creating;
                vec![zk(list())]
            }
            (Request::Exists { path, .. }, Ok(Response::Exists { stat })) if path == LOCK_DIR => {
                match stat {
                    None => vec![zk(Request::Create {
                        path: LOCK_DIR.into(),
                        data: Some(Vec::new()),
                        mode: CreateMode::Container,
                    })],
                    Some(_) => self.create(),
                }
            }
            (Request::Exists { path, .. }, Ok(Response::Exists { stat: Some(stat) })) => {
                self.adopt(path.clone(), stat.czxid)
            }
            (Request::Exists { .. }, Ok(_)) => self.create(),
            (Request::GetChildren { .. }, Ok(Response::GetChildren { children, .. })) => {
                self.listed(&children)
            }
            (Request::GetData { .. }, Err(ErrorCode::NoNode)) => self.relist(),
            (Request::Delete { .. }, Ok(_) | Err(ErrorCode::NoNode)) => self.deleted(),
            (_, Err(ErrorCode::ConnectionLoss)) => vec![zk(request)],
            (Request::Delete { .. }, Err(_)) => self.deleted(),
            (_, Err(ErrorCode::SessionExpired)) => {
                self.after_session = true;
                Vec::new()
            }
            _ => Vec::new(),
        }
    }

    /// Our node is known (created, or found by its protection prefix).
    fn adopt(&mut self, path: String, token: i64) -> Vec<RecipeOut> {
        self.my_node = Some(path);
        self.token = token;
        if self.timed_out {
            self.phase = Phase::Releasing;
            return self.delete_mine();
        }
        self.relist()
    }

    fn listed(&mut self, children: &[String]) -> Vec<RecipeOut> {
        if !matches!(self.phase, Phase::Listing | Phase::Creating) {
            return Vec::new(); // a stale listing (a re-list already moved us on)
        }
        if self.phase == Phase::Creating {
            // Recovering from a lost create reply: is a node with our prefix there?
            let prefix = self.prefix();
            return match children.iter().find(|c| c.starts_with(&prefix)) {
                Some(found) => vec![zk(Request::Exists {
                    path: format!("{LOCK_DIR}/{found}"),
                    watch: false,
                })],
                None => self.create(),
            };
        }
        let marker = self.flavor.marker();
        let order = sorted(children, &[marker, "__READ__", "__WRIT__"]);
        let mine = self
            .my_node
            .as_deref()
            .map(name_of)
            .unwrap_or_default()
            .to_string();
        let verdict = match self.flavor {
            Flavor::Read => reader_gets_the_lock(&order, &mine, "__WRIT__"),
            _ => gets_the_lock(&order, &mine, self.max_leases as usize),
        };
        match verdict {
            Verdict::Holds => {
                self.phase = Phase::Holding;
                self.count = 1;
                vec![RecipeOut::Acquired { token: self.token }]
            }
            Verdict::WaitFor(p) => {
                let path = format!("{LOCK_DIR}/{p}");
                self.phase = Phase::Watching(path.clone());
                vec![zk(Request::GetData { path, watch: true })]
            }
            Verdict::Missing => {
                // "Sequential path not found": delete it (guaranteed), then a whole new attempt.
                self.phase = Phase::Creating;
                if self.my_node.is_none() {
                    return self.attempt();
                }
                self.delete_mine()
            }
        }
    }

    fn deleted(&mut self) -> Vec<RecipeOut> {
        match self.phase {
            Phase::Creating => {
                self.my_node = None;
                self.attempt()
            }
            _ => {
                self.phase = Phase::Idle;
                self.my_node = None;
                self.count = 0;
                let timed_out = std::mem::take(&mut self.timed_out);
                vec![if timed_out {
                    RecipeOut::Failed(Failure::Timeout)
                } else {
                    RecipeOut::Released
                }]
            }
        }
    }

    fn session(&mut self, e: SessionEvent) -> Vec<RecipeOut> {
        match (e, &self.phase) {
            // The watcher also receives session events: every wake-up re-lists.
            (SessionEvent::Disconnected | SessionEvent::Reconnected, Phase::Watching(_)) => {
                self.relist()
            }
            (SessionEvent::NewSession, Phase::Watching(_) | Phase::Listing) => self.relist(),
            (SessionEvent::NewSession, Phase::Creating)
                if std::mem::take(&mut self.after_session) =>
            {
                self.relist()
            }
            (SessionEvent::NewSession, Phase::Releasing)
                if std::mem::take(&mut self.after_session) =>
            {
                self.delete_mine()
            }
            _ => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recipes::Call;

    #[test]
    fn protected_names_and_reentrancy() {
        let mut c = Curator::new(1, 5);
        let out = c.handle(RecipeIn::Acquire);
        let RecipeOut::Send(Call::ZooKeeper(Request::Create { path, .. })) = &out[0] else {
            panic!()
        };
        assert!(
            path.starts_with("/locks/_c_") && path.ends_with("-lock-"),
            "{path}"
        );
        assert_eq!(path.len(), "/locks/".len() + 40 + "lock-".len());
        assert_eq!(
            c.handle(RecipeIn::Release),
            vec![RecipeOut::Failed(Failure::NotOwner)]
        );
        c.phase = Phase::Holding;
        c.count = 1;
        assert_eq!(
            c.handle(RecipeIn::Acquire),
            vec![RecipeOut::Acquired { token: 0 }]
        );
        assert_eq!(c.count, 2);
        assert_eq!(c.handle(RecipeIn::Release), vec![RecipeOut::Released]);
        assert!(matches!(
            c.handle(RecipeIn::Release)[0],
            RecipeOut::Send(Call::ZooKeeper(Request::Delete { .. }))
        ));
    }

    #[test]
    fn uuids_differ_per_attempt() {
        assert_ne!(uuid(1, 1), uuid(1, 2));
        assert_ne!(uuid(1, 1), uuid(2, 1));
        assert_eq!(uuid(3, 3).len(), 36);
    }
}

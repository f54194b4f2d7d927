//! Two broken recipes that circulate in tutorials, reproduced faithfully for teaching.
//!
//! `no_recheck` — the sequential recipe minus step 5's re-check:
//! 1. Create `/locks/lock-` EPHEMERAL_SEQUENTIAL, list, and watch the immediate predecessor.
//! 2. When the predecessor's watch fires, conclude "I am first now" and hold the lock — without
//!    listing again.
//! 3. Broken when a *middle* waiter leaves (gives up, crashes, its session expires): the node
//!    behind it wakes and takes the lock although the holder in front still has it. Two holders.
//!
//! `lost_wakeup` — a single-node lock that subscribes too late and waits for the wrong thing:
//! 1. Create `/lock` EPHEMERAL. NodeExists → only now call `exists("/lock", watch=true)`.
//! 2. Whatever exists answers, wait for a NodeDeleted event (one that came while exists was in
//!    flight counts).
//! 3. Broken when the holder releases between the failed create and the exists call: exists
//!    finds nothing and arms a *creation* watch; the NodeDeleted it waits for was already sent
//!    to nobody. It waits forever (or, if someone else creates the node, it ignores the
//!    NodeCreated and then has no watch at all).

use super::decide::{gets_the_lock, name_of, sorted, Verdict};
use super::sequential::{list, next_dir, on_the_way, parent, persistent};
use super::{create_seq, czxid_of, zk, Phase, RecipeIn, RecipeOut, ZkIn, LOCK_DIR, LOCK_NODE};
use crate::engine::{CreateMode, ErrorCode, EventType, Request, Response};

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NoRecheck {
    pub phase: Phase,
    pub my_node: Option<String>,
    token: i64,
    /// The lock directory (the scenario's lock path, default `/locks`).
    dir: String,
    woken: super::Woken,
}

impl Default for NoRecheck {
    fn default() -> Self {
        NoRecheck::new(LOCK_DIR)
    }
}

impl NoRecheck {
    pub fn new(dir: &str) -> Self {
        NoRecheck {
            phase: Phase::Idle,
            my_node: None,
            token: 0,
            dir: dir.to_string(),
            woken: super::Woken::default(),
        }
    }

    pub fn handle(&mut self, input: RecipeIn) -> Vec<RecipeOut> {
        match ZkIn::from(input) {
            ZkIn::Acquire if self.phase == Phase::Idle => {
                self.phase = Phase::Creating;
                vec![zk(create_seq(format!("{}/lock-", self.dir), b""))]
            }
            ZkIn::Release if self.phase == Phase::Holding => {
                self.phase = Phase::Releasing;
                let path = self.my_node.clone().unwrap_or_default();
                vec![zk(Request::Delete { path, version: -1 })]
            }
            ZkIn::Event(_) if matches!(self.phase, Phase::Watching(_)) => {
                match self.woken.event() {
                    true => self.hold(),
                    false => Vec::new(),
                }
            }
            ZkIn::Reply { request, result } => self.reply(request, result),
            _ => Vec::new(),
        }
    }

    fn hold(&mut self) -> Vec<RecipeOut> {
        self.phase = Phase::Holding;
        vec![RecipeOut::Acquired { token: self.token }]
    }

    fn reply(&mut self, request: Request, result: Result<Response, ErrorCode>) -> Vec<RecipeOut> {
        match (&request, result) {
            // As the sequential recipe: a missing directory is created, ancestors first.
            (Request::Create { path, .. }, Err(ErrorCode::NoNode))
                if path.starts_with(&format!("{}/lock-", self.dir)) =>
            {
                vec![zk(persistent(&self.dir))]
            }
            (Request::Create { path, .. }, Err(ErrorCode::NoNode))
                if on_the_way(&self.dir, path) =>
            {
                vec![zk(persistent(parent(path)))]
            }
            (Request::Create { path, .. }, Ok(_) | Err(ErrorCode::NodeExists))
                if on_the_way(&self.dir, path) =>
            {
                let next = next_dir(&self.dir, path);
                let path = next.unwrap_or_else(|| format!("{}/lock-", self.dir));
                match path.ends_with("/lock-") {
                    true => vec![zk(create_seq(path, b""))],
                    false => vec![zk(persistent(&path))],
                }
            }
            (Request::Create { .. }, r @ Ok(_)) => {
                let (path, _) = czxid_of(&r).unwrap_or_default();
                let token = super::sequence_token(&path);
                self.my_node = Some(path);
                self.token = token;
                self.phase = Phase::Listing;
                vec![zk(list(&self.dir))]
            }
            (Request::GetChildren { .. }, Ok(Response::GetChildren { children, .. })) => {
                let mine = self
                    .my_node
                    .as_deref()
                    .map(name_of)
                    .unwrap_or_default()
                    .to_string();
                match gets_the_lock(&sorted(&children, &["lock-"]), &mine, 1) {
                    Verdict::WaitFor(p) => {
                        let path = format!("{}/{p}", self.dir);
                        self.phase = Phase::Watching(path.clone());
                        self.woken.sent();
                        vec![zk(Request::Exists { path, watch: true })]
                    }
                    _ => self.hold(),
                }
            }
            (Request::Exists { .. }, Ok(Response::Exists { stat })) => {
                match self.woken.answered() || stat.is_none() {
                    true => self.hold(),
                    false => Vec::new(),
                }
            }
            (_, Err(ErrorCode::ConnectionLoss)) => vec![zk(request)],
            (Request::Delete { .. }, _) => super::released(&mut self.phase, &mut self.my_node),
            _ => Vec::new(),
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct LostWakeup {
    pub phase: Phase,
    pub my_node: Option<String>,
    /// A NodeDeleted that came while the exists was in flight (kept for its answer).
    deleted: bool,
}

fn create() -> Request {
    Request::Create {
        path: LOCK_NODE.into(),
        data: Some(Vec::new()),
        mode: CreateMode::Ephemeral,
    }
}

impl LostWakeup {
    fn create(&mut self) -> Vec<RecipeOut> {
        self.phase = Phase::Creating;
        vec![zk(create())]
    }

    pub fn handle(&mut self, input: RecipeIn) -> Vec<RecipeOut> {
        match ZkIn::from(input) {
            ZkIn::Acquire if self.phase == Phase::Idle => self.create(),
            ZkIn::Release if self.phase == Phase::Holding => {
                self.phase = Phase::Releasing;
                vec![zk(Request::Delete {
                    path: LOCK_NODE.into(),
                    version: -1,
                })]
            }
            ZkIn::Event(e) if e.kind == EventType::NodeDeleted => match self.phase {
                Phase::Waiting(_) => self.create(),
                Phase::Watching(_) => {
                    self.deleted = true;
                    Vec::new()
                }
                _ => Vec::new(),
            },
            ZkIn::Reply { request, result } => self.reply(request, result),
            _ => Vec::new(),
        }
    }

    fn reply(&mut self, request: Request, result: Result<Response, ErrorCode>) -> Vec<RecipeOut> {
        match (&request, &result) {
            (Request::Create { .. }, Ok(_)) => {
                super::granted_by_create(&result, &mut self.phase, &mut self.my_node)
            }
            (Request::Create { .. }, Err(ErrorCode::NodeExists)) => {
                self.phase = Phase::Watching(LOCK_NODE.into());
                self.deleted = false;
                vec![zk(Request::Exists {
                    path: LOCK_NODE.into(),
                    watch: true,
                })]
            }
            // Whatever exists answers, wait for a deletion (unless one came meanwhile).
            (Request::Exists { .. }, Ok(_)) if matches!(self.phase, Phase::Watching(_)) => {
                match std::mem::take(&mut self.deleted) {
                    true => self.create(),
                    false => {
                        self.phase = Phase::Waiting(LOCK_NODE.into());
                        Vec::new()
                    }
                }
            }
            (_, Err(ErrorCode::ConnectionLoss)) => vec![zk(request)],
            (Request::Delete { .. }, _) => super::released(&mut self.phase, &mut self.my_node),
            _ => Vec::new(),
        }
    }
}

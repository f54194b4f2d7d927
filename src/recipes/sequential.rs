//! The ZooKeeper lock recipe (recipes.md "Locks"): a queue of ephemeral-sequential nodes.
//!
//! 1. Create `/locks/lock-` as EPHEMERAL_SEQUENTIAL; the server appends the parent's counter
//!    (`lock-0000000007`). (If `/locks` is missing, create it and retry.)
//! 2. `getChildren("/locks")` without a watch, and sort by the sequence suffix.
//! 3. If our node is the lowest, we hold the lock (token: its sequence number).
//! 4. Otherwise `exists(predecessor, watch=true)` on the node just below ours — only that one,
//!    so a release wakes exactly one waiter (no herd).
//! 5. If exists says the predecessor is already gone, go to 2; else wait for its watch, then go
//!    to 2. Never assume "predecessor gone" means "I hold it": it may have left while older
//!    nodes remain (that mistake is the `no_recheck` recipe).
//! 6. Release: delete our node.
//! 7. This version has no GUID in its node names: if a create's reply is lost (ConnectionLoss),
//!    it creates again and leaves an orphan node owned by its own live session, which can block
//!    the queue until the session ends. Curator's protection mode fixes that (see `curator`).

use super::decide::{gets_the_lock, name_of, sorted, Verdict};
use super::{create_seq, czxid_of, zk, Phase, RecipeIn, RecipeOut, SessionEvent, ZkIn, LOCK_DIR};
use crate::engine::{CreateMode, ErrorCode, Request, Response};

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Sequential {
    pub phase: Phase,
    pub my_node: Option<String>,
    token: i64,
    restart_on_session: bool,
    /// The lock directory (the scenario's lock path, default `/locks`).
    dir: String,
    /// The watch-setting exists is in flight (see [`super::Woken`]).
    woken: super::Woken,
}

impl Default for Sequential {
    fn default() -> Self {
        Sequential::new(LOCK_DIR)
    }
}

pub(crate) fn list(dir: &str) -> Request {
    Request::GetChildren {
        path: dir.into(),
        watch: false,
    }
}

/// After `done` (an ancestor of `dir`, or `dir` itself) exists: the next directory to create on
/// the way down to `dir`, or `None` when `dir` is there.
pub(crate) fn next_dir(dir: &str, done: &str) -> Option<String> {
    let rest = dir.strip_prefix(done)?.strip_prefix('/')?;
    let step = rest.split('/').next()?;
    Some(format!("{done}/{step}"))
}

/// Whether `path` is `dir` or one of its ancestors (not `/`).
pub(crate) fn on_the_way(dir: &str, path: &str) -> bool {
    path.len() > 1 && (dir == path || dir.starts_with(&format!("{path}/")))
}

/// The parent of `path` (`/` for a top-level path).
pub(crate) fn parent(path: &str) -> &str {
    match path.rfind('/') {
        Some(0) | None => "/",
        Some(i) => &path[..i],
    }
}

pub(crate) fn persistent(path: &str) -> Request {
    Request::Create {
        path: path.into(),
        data: Some(Vec::new()),
        mode: CreateMode::Persistent,
    }
}

impl Sequential {
    pub fn new(dir: &str) -> Self {
        Sequential {
            phase: Phase::Idle,
            my_node: None,
            token: 0,
            restart_on_session: false,
            dir: dir.to_string(),
            woken: super::Woken::default(),
        }
    }

    fn create(&mut self) -> Vec<RecipeOut> {
        self.phase = Phase::Creating;
        vec![zk(create_seq(format!("{}/lock-", self.dir), b""))]
    }

    fn relist(&mut self) -> Vec<RecipeOut> {
        self.phase = Phase::Listing;
        vec![zk(list(&self.dir))]
    }

    pub fn handle(&mut self, input: RecipeIn) -> Vec<RecipeOut> {
        match ZkIn::from(input) {
            ZkIn::Acquire if self.phase == Phase::Idle => self.create(),
            ZkIn::Release if self.phase == Phase::Holding => {
                self.phase = Phase::Releasing;
                let path = self.my_node.clone().unwrap_or_default();
                vec![zk(Request::Delete { path, version: -1 })]
            }
            ZkIn::Reply { request, result } => self.reply(request, result),
            ZkIn::Event(_) if matches!(self.phase, Phase::Watching(_)) => {
                match self.woken.event() {
                    true => self.relist(),
                    false => Vec::new(),
                }
            }
            ZkIn::Session(e) => self.session(e),
            _ => Vec::new(),
        }
    }

    fn reply(&mut self, request: Request, result: Result<Response, ErrorCode>) -> Vec<RecipeOut> {
        match (&request, result) {
            // The directory is missing: create it, and its missing ancestors first.
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
                match next_dir(&self.dir, path) {
                    Some(next) => vec![zk(persistent(&next))],
                    None => self.create(),
                }
            }
            (Request::Create { .. }, r @ Ok(_)) => {
                let (path, _) = czxid_of(&r).unwrap_or_default();
                let token = super::sequence_token(&path);
                self.my_node = Some(path);
                self.token = token;
                self.relist()
            }
            (Request::GetChildren { .. }, Ok(Response::GetChildren { children, .. })) => {
                self.decide(&children)
            }
            (Request::Exists { .. }, Ok(Response::Exists { stat })) => {
                match self.woken.answered() || stat.is_none() {
                    true => self.relist(),
                    false => Vec::new(),
                }
            }
            (Request::Delete { .. }, Ok(_) | Err(ErrorCode::NoNode)) => self.released(),
            (_, Err(ErrorCode::ConnectionLoss)) => vec![zk(request)],
            (Request::Delete { .. }, Err(_)) => self.released(),
            (_, Err(ErrorCode::SessionExpired)) => {
                self.restart_on_session = true;
                Vec::new()
            }
            _ => Vec::new(),
        }
    }

    fn decide(&mut self, children: &[String]) -> Vec<RecipeOut> {
        let mine = self
            .my_node
            .as_deref()
            .map(name_of)
            .unwrap_or_default()
            .to_string();
        let order = sorted(children, &["lock-"]);
        match gets_the_lock(&order, &mine, 1) {
            Verdict::Holds => {
                self.phase = Phase::Holding;
                vec![RecipeOut::Acquired { token: self.token }]
            }
            Verdict::WaitFor(p) => {
                let path = format!("{}/{p}", self.dir);
                self.phase = Phase::Watching(path.clone());
                self.woken.sent();
                vec![zk(Request::Exists { path, watch: true })]
            }
            Verdict::Missing => {
                self.my_node = None;
                self.create()
            }
        }
    }

    fn released(&mut self) -> Vec<RecipeOut> {
        super::released(&mut self.phase, &mut self.my_node)
    }

    fn session(&mut self, e: SessionEvent) -> Vec<RecipeOut> {
        super::on_session(
            e,
            &mut self.phase,
            &mut self.my_node,
            &mut self.restart_on_session,
        )
        .unwrap_or_else(|| self.create())
    }
}

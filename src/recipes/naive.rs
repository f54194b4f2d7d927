//! The naive single-node lock, and why it stampedes (the herd effect).
//!
//! 1. Acquire: create `/lock` as an EPHEMERAL node. Success means we hold the lock; the node's
//!    czxid is our fencing token.
//! 2. NodeExists: someone holds it. Call `exists("/lock", watch=true)`.
//! 3. If exists says the node is already gone, go back to 1 at once (never wait for a deletion
//!    that already happened: that is the `lost_wakeup` bug).
//! 4. Otherwise wait. When the watch fires (NodeDeleted), go back to 1.
//! 5. Release: delete `/lock`. Every waiter's watch fires at once and all of them race to
//!    create the node again; one wins, the others fail and watch again. N waiters cost N
//!    notifications, N creates and N−1 exists per hand-off: the herd effect.
//! 6. If the session expires while holding, the server deleted the node: the lock is lost.
//!
//! One step at a time, as the textbook loop runs: an answer counts only in the step it
//! belongs to (a create's while creating, an exists' while watching, a delete's while
//! releasing), and a request lost with its connection is sent again only while its step
//! lasts. Acting on a late exists answer after the watch had already fired started a second
//! create beside the first; the spare create's NodeExists then arrived while the first had
//! won, and the holder went back to watching while its application worked on: a lost update
//! that no monitor saw (swarm seed 3412).

use super::{zk, Phase, RecipeIn, RecipeOut, SessionEvent, ZkIn, LOCK_NODE};
use crate::engine::{CreateMode, ErrorCode, Request, Response};

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Naive {
    pub phase: Phase,
    pub my_node: Option<String>,
    /// Waiting for a new session before retrying.
    restart_on_session: bool,
    /// The watch-setting exists is in flight (see [`super::Woken`]).
    woken: super::Woken,
}

fn create() -> Request {
    Request::Create {
        path: LOCK_NODE.into(),
        data: Some(Vec::new()),
        mode: CreateMode::Ephemeral,
    }
}

impl Naive {
    fn try_create(&mut self) -> Vec<RecipeOut> {
        self.phase = Phase::Creating;
        vec![zk(create())]
    }

    pub fn handle(&mut self, input: RecipeIn) -> Vec<RecipeOut> {
        match ZkIn::from(input) {
            ZkIn::Acquire if self.phase == Phase::Idle => self.try_create(),
            ZkIn::Release if self.phase == Phase::Holding => {
                self.phase = Phase::Releasing;
                vec![zk(Request::Delete {
                    path: LOCK_NODE.into(),
                    version: -1,
                })]
            }
            ZkIn::Reply { request, result } => self.reply(request, result),
            ZkIn::Event(_) if matches!(self.phase, Phase::Watching(_)) => {
                match self.woken.event() {
                    true => self.try_create(),
                    false => Vec::new(),
                }
            }
            ZkIn::Session(e) => self.session(e),
            _ => Vec::new(),
        }
    }

    fn reply(&mut self, request: Request, result: Result<Response, ErrorCode>) -> Vec<RecipeOut> {
        if !self.awaits(&request) {
            return Vec::new();
        }
        match (&request, &result) {
            (Request::Create { .. }, Ok(_)) => {
                super::granted_by_create(&result, &mut self.phase, &mut self.my_node)
            }
            (Request::Create { .. }, Err(ErrorCode::NodeExists)) => {
                self.phase = Phase::Watching(LOCK_NODE.into());
                self.woken.sent();
                vec![zk(Request::Exists {
                    path: LOCK_NODE.into(),
                    watch: true,
                })]
            }
            (Request::Exists { .. }, Ok(Response::Exists { stat })) => {
                match self.woken.answered() || stat.is_none() {
                    true => self.try_create(),
                    false => Vec::new(),
                }
            }
            (Request::Delete { .. }, Ok(_) | Err(ErrorCode::NoNode)) => self.released(),
            (_, Err(ErrorCode::ConnectionLoss)) => vec![zk(request)],
            (Request::Create { .. } | Request::Exists { .. }, Err(ErrorCode::SessionExpired)) => {
                self.restart_on_session = true;
                Vec::new()
            }
            (Request::Delete { .. }, Err(_)) => self.released(),
            _ => Vec::new(),
        }
    }

    /// Whether the current step waits for this request's answer.
    fn awaits(&self, request: &Request) -> bool {
        matches!(
            (request, &self.phase),
            (Request::Create { .. }, Phase::Creating)
                | (Request::Exists { .. }, Phase::Watching(_))
                | (Request::Delete { .. }, Phase::Releasing)
        )
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
        .unwrap_or_else(|| self.try_create())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Stat;

    fn stat(czxid: i64) -> Stat {
        Stat {
            czxid,
            mzxid: czxid,
            ctime: 0,
            mtime: 0,
            version: 0,
            cversion: 0,
            aversion: 0,
            ephemeral_owner: 1,
            data_length: 0,
            num_children: 0,
            pzxid: czxid,
        }
    }

    #[test]
    fn node_exists_then_watch_then_retry_on_deletion() {
        let mut n = Naive::default();
        assert_eq!(n.handle(RecipeIn::Acquire), vec![zk(create())]);
        let out = n.handle(RecipeIn::reply(create(), Err(ErrorCode::NodeExists)));
        assert_eq!(
            out,
            vec![zk(Request::Exists {
                path: "/lock".into(),
                watch: true
            })]
        );
        let req = Request::Exists {
            path: "/lock".into(),
            watch: true,
        };
        let there = Ok(Response::Exists {
            stat: Some(stat(5)),
        });
        assert_eq!(n.handle(RecipeIn::reply(req, there)), vec![]);
        let ev = crate::engine::WatchedEvent {
            kind: crate::engine::EventType::NodeDeleted,
            path: "/lock".into(),
        };
        assert_eq!(n.handle(RecipeIn::event(ev)), vec![zk(create())]);
        let ok = Ok(Response::Create {
            path: "/lock".into(),
            stat: stat(9),
        });
        assert_eq!(
            n.handle(RecipeIn::reply(create(), ok)),
            vec![RecipeOut::Acquired { token: 9 }]
        );
    }

    /// Step 3 when the watch fires before its exists is answered (the answer went astray with
    /// a broken connection): the event is kept, and the answer starts one create, not two.
    #[test]
    fn step_3_a_watch_that_fires_before_its_exists_answer_starts_one_create() {
        let mut n = Naive::default();
        n.handle(RecipeIn::Acquire);
        n.handle(RecipeIn::reply(create(), Err(ErrorCode::NodeExists)));
        let ev = crate::engine::WatchedEvent {
            kind: crate::engine::EventType::NodeDeleted,
            path: "/lock".into(),
        };
        assert_eq!(n.handle(RecipeIn::event(ev)), vec![]);
        let req = Request::Exists {
            path: "/lock".into(),
            watch: true,
        };
        let there = Ok(Response::Exists {
            stat: Some(stat(5)),
        });
        let out = n.handle(RecipeIn::reply(req.clone(), there));
        assert_eq!(out, vec![zk(create())]);
        assert_eq!(n.phase, Phase::Creating);
        let late = n.handle(RecipeIn::reply(req, Ok(Response::Exists { stat: None })));
        assert_eq!(late, vec![], "a second answer starts no second create");
    }

    /// Step 2 for a create that is no longer awaited: the holder stays the holder.
    #[test]
    fn step_2_node_exists_for_a_spare_create_does_not_end_a_hold() {
        let mut n = Naive::default();
        n.handle(RecipeIn::Acquire);
        let ok = Ok(Response::Create {
            path: "/lock".into(),
            stat: stat(40),
        });
        n.handle(RecipeIn::reply(create(), ok));
        let out = n.handle(RecipeIn::reply(create(), Err(ErrorCode::NodeExists)));
        assert_eq!(out, vec![]);
        assert_eq!(n.phase, Phase::Holding);
    }

    #[test]
    fn exists_finding_nothing_retries_at_once() {
        let mut n = Naive::default();
        n.handle(RecipeIn::Acquire);
        n.handle(RecipeIn::reply(create(), Err(ErrorCode::NodeExists)));
        let req = Request::Exists {
            path: "/lock".into(),
            watch: true,
        };
        let out = n.handle(RecipeIn::reply(req, Ok(Response::Exists { stat: None })));
        assert_eq!(out, vec![zk(create())]);
    }
}

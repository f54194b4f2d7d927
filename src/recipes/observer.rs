//! An application that looks at the lock instead of taking it: a dashboard or a health check
//! asking "is `/lock` held?". It sends what kazoo's blocking API sends for `zk.exists(path)`,
//! and for `zk.sync(path)` followed by `zk.exists(path)`:
//!
//! 1. A plain read: `exists("/lock")` without a watch. The connected server answers from its
//!    own copy of the tree, so a follower that lags behind the leader answers with what it has
//!    applied: ZooKeeper promises sequential consistency, not linearizable reads.
//! 2. A read after `sync`: the follower forwards the sync to the leader and answers it only once
//!    it has applied every transaction the leader had committed before it; the `exists` sent
//!    after that answer sees them.
//!
//! A connection loss sends the same request again once the library has reconnected (the
//! application's retry around kazoo's `ConnectionLoss`). What the read saw stays in the phase
//! until the next read, so the stage can show it for as long as it is the client's belief.

use super::belief::Believes;
use super::{zk, Phase, RecipeIn, RecipeOut, ZkIn, LOCK_NODE};
use crate::engine::{ErrorCode, Request, Response};

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Observer {
    pub phase: Phase,
    /// Always `None`: an observer owns nothing.
    pub my_node: Option<String>,
}

impl Believes for Observer {
    fn node(&self) -> Option<&str> {
        self.my_node.as_deref()
    }
    fn fences(&self) -> bool {
        false
    }
}

fn exists() -> Request {
    Request::Exists {
        path: LOCK_NODE.into(),
        watch: false,
    }
}

fn sync() -> Request {
    Request::Sync {
        path: LOCK_NODE.into(),
    }
}

impl Observer {
    pub fn handle(&mut self, input: RecipeIn) -> Vec<RecipeOut> {
        match input {
            RecipeIn::Read { sync: true } if !self.busy() => {
                self.phase = Phase::Syncing;
                vec![zk(sync())]
            }
            RecipeIn::Acquire | RecipeIn::Read { .. } if !self.busy() => self.read(),
            other => match ZkIn::from(other) {
                ZkIn::Reply { request, result } => self.reply(request, result),
                _ => Vec::new(),
            },
        }
    }

    /// A read or a sync is on its way.
    fn busy(&self) -> bool {
        matches!(self.phase, Phase::Syncing | Phase::Reading)
    }

    fn read(&mut self) -> Vec<RecipeOut> {
        self.phase = Phase::Reading;
        vec![zk(exists())]
    }

    fn reply(&mut self, request: Request, result: Result<Response, ErrorCode>) -> Vec<RecipeOut> {
        match (&request, result, &self.phase) {
            (Request::Sync { .. }, Ok(_), Phase::Syncing) => self.read(),
            (Request::Exists { .. }, Ok(Response::Exists { stat }), Phase::Reading) => {
                self.phase = Phase::Read(stat.map(|s| s.czxid));
                vec![RecipeOut::Read]
            }
            (_, Err(ErrorCode::ConnectionLoss), Phase::Syncing | Phase::Reading) => {
                vec![zk(request)]
            }
            (_, Err(_), Phase::Syncing | Phase::Reading) => {
                self.phase = Phase::Idle;
                vec![RecipeOut::Read]
            }
            _ => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Stat;

    fn held(czxid: i64) -> Result<Response, ErrorCode> {
        let stat = Stat {
            czxid,
            mzxid: czxid,
            ctime: 0,
            mtime: 0,
            version: 0,
            cversion: 0,
            aversion: 0,
            ephemeral_owner: 7,
            data_length: 0,
            num_children: 0,
            pzxid: czxid,
        };
        Ok(Response::Exists { stat: Some(stat) })
    }

    #[test]
    fn a_plain_read_is_one_exists_without_a_watch_and_keeps_what_it_saw() {
        let mut o = Observer::default();
        assert_eq!(o.handle(RecipeIn::Read { sync: false }), vec![zk(exists())]);
        let none = Ok(Response::Exists { stat: None });
        assert_eq!(
            o.handle(RecipeIn::reply(exists(), none)),
            vec![RecipeOut::Read]
        );
        assert_eq!(o.phase, Phase::Read(None));
    }

    #[test]
    fn a_synced_read_sends_sync_then_exists_after_its_answer() {
        let mut o = Observer::default();
        assert_eq!(o.handle(RecipeIn::Read { sync: true }), vec![zk(sync())]);
        assert_eq!(o.phase, Phase::Syncing);
        assert_eq!(o.handle(RecipeIn::Read { sync: false }), vec![]);
        let synced = Ok(Response::Sync {
            path: "/lock".into(),
        });
        assert_eq!(
            o.handle(RecipeIn::reply(sync(), synced)),
            vec![zk(exists())]
        );
        o.handle(RecipeIn::reply(exists(), held(0x1_0000_0002)));
        assert_eq!(o.phase, Phase::Read(Some(0x1_0000_0002)));
    }

    #[test]
    fn a_lost_connection_sends_the_same_request_again() {
        let mut o = Observer::default();
        o.handle(RecipeIn::Read { sync: true });
        let lost = Err(ErrorCode::ConnectionLoss);
        assert_eq!(o.handle(RecipeIn::reply(sync(), lost)), vec![zk(sync())]);
    }
}

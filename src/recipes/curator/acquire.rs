//! The acquire side of Curator's lock driver: what each reply to a create, an ancestor walk, a
//! protected lookup, a listing or a watch leads to (the steps of [`super::mutex`]'s essay).

use super::framework::{Mkdirs, Walk, MAX_RETRIES};
use super::mutex::{Curator, Flavor, Op, Retry};
use crate::engine::{ErrorCode, Opcode, Request, Response};
use crate::recipes::decide::{gets_the_lock, name_of, reader_gets_the_lock, sorted, Verdict};
use crate::recipes::Call;
use crate::recipes::{zk, Failure, Phase, RecipeOut};
use crate::services::zookeeper::Call as ZkCall;

impl Curator {
    pub(super) fn created(&mut self, result: Result<Response, ErrorCode>) -> Vec<RecipeOut> {
        match result {
            Ok(Response::Create { path, .. }) => self.adopt(path),
            Err(ErrorCode::NoNode) => {
                let (walk, first) = Mkdirs::start(&self.dir);
                self.send(Op::Mkdirs(walk), first)
            }
            Err(e) => self.done(Some(Failure::Error(e))),
            Ok(_) => Vec::new(),
        }
    }

    pub(super) fn walked(
        &mut self,
        mut walk: Mkdirs,
        request: &Request,
        result: &Result<Response, ErrorCode>,
    ) -> Vec<RecipeOut> {
        let found = matches!(
            result,
            Ok(Response::Exists { stat: Some(_) })
                | Ok(Response::Create { .. })
                | Err(ErrorCode::NodeExists)
        );
        match walk.step(request, found) {
            Walk::Send(r) => self.send(Op::Mkdirs(walk), r),
            Walk::Done => self.create(),
        }
    }

    /// The protected lookup of a retried create: adopt our node, or create it (a node found
    /// after the session changed belongs to the old session: delete it and create anew).
    pub(super) fn found(&mut self, result: Result<Response, ErrorCode>) -> Vec<RecipeOut> {
        let children = match result {
            Ok(Response::GetChildren { children, .. }) => children,
            _ => Vec::new(),
        };
        let prefix = self.prefix();
        // `validateFoundNode` takes the current session as the create's from now on.
        let changed = std::mem::take(&mut self.new_session);
        match children.into_iter().find(|c| c.starts_with(&prefix)) {
            Some(name) if !changed => {
                let out = self.adopt(format!("{}/{name}", self.dir));
                self.adopted = true;
                out
            }
            Some(name) => {
                self.background += 1;
                let stale = zk(Request::Delete {
                    path: format!("{}/{name}", self.dir),
                    version: -1,
                });
                let mut out = vec![stale];
                out.extend(self.create());
                out
            }
            None => self.create(),
        }
    }

    /// Our node is known (created, or found by its protection prefix).
    pub(super) fn adopt(&mut self, path: String) -> Vec<RecipeOut> {
        self.my_node = Some(path);
        self.adopted = false;
        self.list()
    }

    pub(super) fn listed(&mut self, result: Result<Response, ErrorCode>) -> Vec<RecipeOut> {
        let children = match result {
            Ok(Response::GetChildren { children, .. }) => children,
            // NoNode on the directory is an empty list.
            _ => Vec::new(),
        };
        let order = sorted(&children, &[self.flavor.marker(), "__READ__", "__WRIT__"]);
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
                self.out_of_time = None;
                vec![RecipeOut::Acquired {
                    token: self.token(),
                }]
            }
            Verdict::WaitFor(p) => {
                let path = format!("{}/{p}", self.dir);
                self.send(
                    Op::Watch(path.clone()),
                    Request::GetData { path, watch: true },
                )
            }
            Verdict::Missing => self.delete_mine(Op::DeleteMissing),
        }
    }

    /// The watch is set (or the predecessor is gone already: look again).
    pub(super) fn watched(
        &mut self,
        path: String,
        result: Result<Response, ErrorCode>,
    ) -> Vec<RecipeOut> {
        if result.is_err() {
            return self.list();
        }
        self.watchers.commit(&path);
        if let Some(why) = self.out_of_time.clone() {
            return self.delete_mine(Op::GiveUp(why));
        }
        self.phase = Phase::Watching(path);
        Vec::new()
    }

    /// "Sequential path not found": after deleting it, a new attempt after a back-off.
    pub(super) fn start_over(&mut self) -> Vec<RecipeOut> {
        self.my_node = None;
        self.attempts += 1;
        if self.attempts > MAX_RETRIES {
            return self.done(Some(Failure::Error(ErrorCode::NoNode)));
        }
        self.phase = Phase::Creating;
        self.after_sleep = Some(Retry::Attempt);
        vec![RecipeOut::Backoff {
            retry: self.attempts - 1,
        }]
    }

    /// ConnectionLoss or SessionExpired: the retry loop sleeps, then tries again (a failed
    /// `checkWatches` is skipped).
    pub(super) fn retry_later(&mut self) -> Vec<RecipeOut> {
        if self.op == Op::Check {
            self.op = Op::None;
            return self.next_release_step();
        }
        self.retries += 1;
        if self.retries > MAX_RETRIES {
            return self.done(Some(Failure::Error(ErrorCode::ConnectionLoss)));
        }
        // The create call is retried whole: the protected lookup first, also when it failed
        // while walking the parents.
        self.after_sleep = Some(if matches!(self.op, Op::Create | Op::Mkdirs(_)) {
            Retry::Find
        } else {
            Retry::Resend
        });
        vec![RecipeOut::Backoff {
            retry: self.retries - 1,
        }]
    }

    /// The back-off is over.
    pub(super) fn redo(&mut self) -> Vec<RecipeOut> {
        match self.after_sleep.take() {
            Some(Retry::Find) => {
                let retries = self.retries;
                let find = Request::GetChildren {
                    path: self.dir.clone(),
                    watch: false,
                };
                let out = self.send_as(
                    Op::Find,
                    ZkCall {
                        request: find,
                        op: Opcode::GetChildren,
                    },
                );
                self.retries = retries;
                out
            }
            Some(Retry::Resend) => self
                .last
                .clone()
                .map(|c| vec![RecipeOut::Send(Call::ZooKeeper(c))])
                .unwrap_or_default(),
            Some(Retry::Attempt) => self.attempt(),
            None => Vec::new(),
        }
    }
}

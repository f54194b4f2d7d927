//! The lease side of Curator's semaphore ([`super::semaphore`]'s steps 2–3 and 6): what each
//! reply to a lease create, an ancestor walk, a protected lookup or a listing leads to, and
//! what a back-off does when it ends.

use super::framework::{Mkdirs, Walk, MAX_RETRIES};
use super::semaphore::{Redo, Semaphore, Stage};
use crate::engine::{ErrorCode, Opcode, Request, Response};
use crate::recipes::decide::name_of;
use crate::recipes::{zk, Call, Failure, Phase, RecipeOut};
use crate::services::zookeeper::Call as ZkCall;

impl Semaphore {
    /// The back-off is over.
    pub(super) fn redo(&mut self) -> Vec<RecipeOut> {
        match self.after_sleep.take() {
            Some(Redo::Find) => {
                let (retries, path) = (self.retries, self.leases.clone());
                self.stage = Stage::Find;
                let call = ZkCall {
                    request: Request::GetChildren { path, watch: false },
                    op: Opcode::GetChildren,
                };
                self.last = Some(call.request.clone());
                self.retries = retries;
                vec![RecipeOut::Send(Call::ZooKeeper(call))]
            }
            Some(Redo::Attempt) => self.take_mutex(),
            Some(Redo::Resend) => self.last.clone().map(|r| vec![zk(r)]).unwrap_or_default(),
            None => Vec::new(),
        }
    }

    pub(super) fn reply(
        &mut self,
        request: Request,
        result: Result<Response, ErrorCode>,
    ) -> Vec<RecipeOut> {
        if self.background > 0 {
            self.background -= 1;
            return Vec::new();
        }
        let lost = matches!(
            result,
            Err(ErrorCode::ConnectionLoss | ErrorCode::SessionExpired)
        );
        if lost && !matches!(self.stage, Stage::Check(_)) {
            self.retries += 1;
            if self.retries <= MAX_RETRIES {
                let creating = matches!(self.stage, Stage::Create | Stage::Mkdirs(_) | Stage::Find);
                self.after_sleep = Some(if creating { Redo::Find } else { Redo::Resend });
                return vec![RecipeOut::Backoff {
                    retry: self.retries - 1,
                }];
            }
            if matches!(self.stage, Stage::Create | Stage::Mkdirs(_) | Stage::Find) {
                self.failing
                    .get_or_insert(Failure::Error(ErrorCode::ConnectionLoss));
                return self.unlock();
            }
        }
        match std::mem::replace(&mut self.stage, Stage::Idle) {
            Stage::Create => match result {
                Ok(Response::Create { path, .. }) => {
                    self.my_node = Some(path);
                    self.list()
                }
                Err(ErrorCode::NoNode) => {
                    let (walk, first) = Mkdirs::start(&self.leases);
                    self.send(Stage::Mkdirs(walk), first)
                }
                Err(e) => {
                    self.failing.get_or_insert(Failure::Error(e));
                    self.unlock()
                }
                Ok(_) => self.unlock(),
            },
            Stage::Mkdirs(mut walk) => {
                let found = matches!(
                    result,
                    Ok(Response::Exists { stat: Some(_) })
                        | Ok(Response::Create { .. })
                        | Err(ErrorCode::NodeExists)
                );
                match walk.step(&request, found) {
                    Walk::Send(r) => self.send(Stage::Mkdirs(walk), r),
                    Walk::Done => self.create(),
                }
            }
            Stage::Find => self.found(result),
            Stage::Leases => self.listed(result),
            Stage::GiveUp | Stage::Missing => self.unlock(),
            Stage::Check(rest) => self.check(rest),
            Stage::Return => {
                self.phase = Phase::Idle;
                self.my_node = None;
                vec![RecipeOut::Released]
            }
            other => {
                self.stage = other;
                Vec::new()
            }
        }
    }

    /// The protected lookup of a retried create: adopt our node, or create it (a node found
    /// after the session changed belongs to the old session: delete it and create anew).
    fn found(&mut self, result: Result<Response, ErrorCode>) -> Vec<RecipeOut> {
        let children = match result {
            Ok(Response::GetChildren { children, .. }) => children,
            _ => Vec::new(),
        };
        let name = name_of(&self.lease_path).to_string();
        let prefix = &name[..name.len() - "lease-".len()];
        // `validateFoundNode` takes the current session as the create's from now on.
        let changed = std::mem::take(&mut self.new_session);
        match children.into_iter().find(|c| c.starts_with(prefix)) {
            Some(c) if !changed => {
                self.my_node = Some(format!("{}/{c}", self.leases));
                self.list()
            }
            Some(c) => {
                self.background += 1;
                let path = format!("{}/{c}", self.leases);
                let mut out = vec![zk(Request::Delete { path, version: -1 })];
                out.extend(self.create());
                out
            }
            None => self.create(),
        }
    }

    fn listed(&mut self, result: Result<Response, ErrorCode>) -> Vec<RecipeOut> {
        let children = match result {
            Ok(Response::GetChildren { children, .. }) => children,
            Err(e) => {
                self.failing.get_or_insert(Failure::Error(e));
                return self.delete_lease(Stage::GiveUp);
            }
            Ok(_) => Vec::new(),
        };
        self.watchers.commit(&self.leases.clone());
        let mine = self.my_node.as_deref().map(name_of).unwrap_or_default();
        if !children.iter().any(|c| c == mine) {
            self.missing = true;
            self.phase = Phase::Creating;
            return self.delete_lease(Stage::Missing);
        }
        if children.len() <= self.max_leases as usize {
            if self.failing == Some(Failure::Timeout) {
                self.failing = None;
            }
            if self.failing.is_none() {
                return self.unlock();
            }
        }
        if self.failing.is_some() {
            return self.delete_lease(Stage::GiveUp);
        }
        self.stage = Stage::Waiting;
        self.phase = Phase::Watching(self.leases.clone());
        Vec::new()
    }
}

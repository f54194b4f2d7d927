//! kazoo 2.11's `Lock`, request for request as the real library sends them (reference §10,
//! §12; traces in `tests/recipes/traces`):
//!
//! 1. Once per Lock object: `exists(path)`; if missing, `exists` up to a node that exists, then
//!    `create` each missing node top-down (persistent, empty data).
//! 2. `create` (not `create2`) EPHEMERAL_SEQUENTIAL `<path>/<uuid hex>__lock__` (one UUID per
//!    Lock); data: the identifier, empty for kazoo's default `Lock(path)` (the scenario's
//!    `kazoo_identifier: label` makes it `Lock(path, "C1")`).
//! 3. Loop: if cancelled, give up; `getChildren(path)` (not `getChildren2`); the contenders are
//!    the children ending in `__lock__` + 10 digits, compared as strings. Our own node missing:
//!    retry from the top. None smaller than ours: held.
//! 4. Otherwise `getData(immediate predecessor, watch=true)`: NoNode → 3; else wait for the
//!    watch or any session state change, then 3.
//! 5. A retry (ConnectionLoss, SessionExpired, our node gone) reruns the body after a back-off,
//!    first listing the path for the child with our prefix (else it creates again).
//! 6. `cancel()` or a LockTimeout: `_best_effort_cleanup` sends one delete of our node, never
//!    again, and the acquire fails (the watch stays). A delete lost to ConnectionLoss leaves the
//!    node as long as the session lives (`kazoo_cancel_cleanup_lost`), unless this Lock's next
//!    acquire finds it by its prefix. Not reentrant: acquiring a held Lock again blocks.
//! 7. Release: `delete(our node)`; NoNode is fine.
//!
//! The fencing token is the node's sequence number.

use crate::engine::{CreateMode, ErrorCode, Opcode, Request, Response};
use crate::recipes::curator::framework::MAX_RETRIES;
use crate::recipes::{
    sequence_token, Call, Failure, Phase, RecipeConfig, RecipeIn, RecipeOut, ZkIn,
};
use crate::services::zookeeper::Call as ZkCall;

const NODE_NAME: &str = "__lock__";

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Op {
    None,
    /// `exists` walking up (the paths found missing so far, deepest first), then creating.
    Ensure {
        missing: Vec<String>,
        creating: bool,
    },
    Create,
    /// Looking for our node after a retry.
    Find,
    List,
    Watch(String),
    Cleanup(Failure),
    Release,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct KazooLock {
    pub phase: Phase,
    pub my_node: Option<String>,
    dir: String,
    identifier: Vec<u8>,
    uuid: String,
    assured: bool,
    create_tried: bool,
    cancelled: Option<Failure>,
    op: Op,
    last: Option<ZkCall>,
    retries: u32,
    sleeping: bool,
}

/// 32 hex digits, like `uuid.uuid4().hex`, from the client's seed (drawn once per Lock).
fn hex_uuid(seed: u64) -> String {
    crate::recipes::curator::framework::uuid(seed, 0).replace('-', "")
}

impl KazooLock {
    pub fn new(cfg: &RecipeConfig) -> Self {
        KazooLock {
            phase: Phase::Idle,
            my_node: None,
            dir: cfg.lock_dir().to_string(),
            identifier: cfg.identifier.clone().unwrap_or_default().into_bytes(),
            uuid: hex_uuid(cfg.uuid_seed),
            assured: false,
            create_tried: false,
            cancelled: None,
            op: Op::None,
            last: None,
            retries: 0,
            sleeping: false,
        }
    }

    fn prefix(&self) -> String {
        format!("{}{NODE_NAME}", self.uuid)
    }

    fn send(&mut self, op: Op, request: Request, code: Opcode) -> Vec<RecipeOut> {
        self.op = op;
        self.retries = 0;
        let call = ZkCall { request, op: code };
        self.last = Some(call.clone());
        vec![RecipeOut::Send(Call::ZooKeeper(call))]
    }

    pub fn handle(&mut self, input: RecipeIn) -> Vec<RecipeOut> {
        match ZkIn::from(input) {
            ZkIn::Acquire if self.phase == Phase::Idle => {
                self.cancelled = None;
                self.phase = Phase::Creating;
                self.body()
            }
            ZkIn::Release if self.phase == Phase::Holding => {
                self.phase = Phase::Releasing;
                self.delete_mine(Op::Release)
            }
            ZkIn::Release => vec![RecipeOut::Failed(Failure::NotOwner)],
            ZkIn::Reply { request, result } => self.reply(request, result),
            ZkIn::Event(_) | ZkIn::Session(_) => self.wake(),
            ZkIn::Timeout => self.stop(Failure::Timeout),
            ZkIn::Cancel => self.stop(Failure::Cancelled),
            ZkIn::Retry if self.sleeping => {
                self.sleeping = false;
                self.body()
            }
            _ => Vec::new(),
        }
    }

    /// The retried body of `acquire`: the path once, then find or create our node.
    fn body(&mut self) -> Vec<RecipeOut> {
        if !self.assured {
            let exists = Request::Exists {
                path: self.dir.clone(),
                watch: false,
            };
            return self.send(
                Op::Ensure {
                    missing: Vec::new(),
                    creating: false,
                },
                exists,
                Opcode::Exists,
            );
        }
        if std::mem::replace(&mut self.create_tried, true) {
            let list = Request::GetChildren {
                path: self.dir.clone(),
                watch: false,
            };
            return self.send(Op::Find, list, Opcode::GetChildren);
        }
        self.create()
    }

    fn create(&mut self) -> Vec<RecipeOut> {
        self.create_tried = true;
        let path = format!("{}/{}", self.dir, self.prefix());
        let create = Request::Create {
            path,
            data: Some(self.identifier.clone()),
            mode: CreateMode::EphemeralSequential,
        };
        self.send(Op::Create, create, Opcode::Create)
    }

    /// The top of the wait loop: cancelled → give up; else list.
    fn step(&mut self) -> Vec<RecipeOut> {
        if let Some(why) = self.cancelled.clone() {
            return self.cleanup(why);
        }
        self.phase = Phase::Listing;
        let list = Request::GetChildren {
            path: self.dir.clone(),
            watch: false,
        };
        self.send(Op::List, list, Opcode::GetChildren)
    }

    /// A watch or session event turns the loop, unless the cleanup delete is out (past it).
    fn wake(&mut self) -> Vec<RecipeOut> {
        match self.phase {
            Phase::Watching(_) if !self.sleeping && self.op == Op::None => self.step(),
            _ => Vec::new(),
        }
    }

    /// `cancel()` or a LockTimeout: the loop stops at its next turn (at once while waiting).
    fn stop(&mut self, why: Failure) -> Vec<RecipeOut> {
        if matches!(self.phase, Phase::Idle | Phase::Holding | Phase::Releasing) {
            return Vec::new();
        }
        self.cancelled = Some(why);
        self.wake()
    }

    fn cleanup(&mut self, why: Failure) -> Vec<RecipeOut> {
        match self.my_node {
            Some(_) => self.delete_mine(Op::Cleanup(why)),
            None => self.fail(why),
        }
    }

    fn delete_mine(&mut self, op: Op) -> Vec<RecipeOut> {
        let path = self.my_node.clone().unwrap_or_default();
        self.send(op, Request::Delete { path, version: -1 }, Opcode::Delete)
    }

    fn fail(&mut self, why: Failure) -> Vec<RecipeOut> {
        self.phase = Phase::Idle;
        self.my_node = None;
        self.op = Op::None;
        self.cancelled = None;
        vec![RecipeOut::Failed(why)]
    }

    /// KazooRetry: ConnectionLoss and SessionExpired rerun the body after a back-off.
    fn retry(&mut self) -> Vec<RecipeOut> {
        self.retries += 1;
        self.op = Op::None;
        if self.retries > MAX_RETRIES * 4 {
            return self.fail(Failure::Error(ErrorCode::ConnectionLoss));
        }
        self.sleeping = true;
        vec![RecipeOut::Backoff {
            retry: self.retries - 1,
        }]
    }

    fn reply(&mut self, request: Request, result: Result<Response, ErrorCode>) -> Vec<RecipeOut> {
        let op = std::mem::replace(&mut self.op, Op::None);
        if let Err(ErrorCode::ConnectionLoss | ErrorCode::SessionExpired) = result {
            return match op {
                // `_best_effort_cleanup` swallows the error: the node may stay behind.
                Op::Cleanup(why) => self.fail(why),
                // The release is retried as it is.
                Op::Release => {
                    self.op = op;
                    self.last
                        .clone()
                        .map(|c| vec![RecipeOut::Send(Call::ZooKeeper(c))])
                        .unwrap_or_default()
                }
                _ => self.retry(),
            };
        }
        match op {
            Op::Ensure { missing, creating } => self.ensured(missing, creating, &request, &result),
            Op::Create => match result {
                Ok(Response::Create { path, .. }) => {
                    self.my_node = Some(path);
                    self.step()
                }
                Err(e) => self.fail(Failure::Error(e)),
                Ok(_) => Vec::new(),
            },
            Op::Find => {
                let prefix = self.prefix();
                let found = match result {
                    Ok(Response::GetChildren { children, .. }) => {
                        children.into_iter().find(|c| c.starts_with(&prefix))
                    }
                    _ => None,
                };
                match found {
                    Some(name) => {
                        self.my_node = Some(format!("{}/{name}", self.dir));
                        self.step()
                    }
                    None => self.create(),
                }
            }
            Op::List => self.listed(result),
            Op::Watch(path) => match result {
                Ok(_) if self.cancelled.is_none() => {
                    self.phase = Phase::Watching(path);
                    Vec::new()
                }
                _ => self.step(),
            },
            Op::Cleanup(why) => self.fail(why),
            Op::Release => {
                self.phase = Phase::Idle;
                self.my_node = None;
                vec![RecipeOut::Released]
            }
            Op::None => Vec::new(),
        }
    }

    /// `ensure_path`: walk up until a node exists, then create the missing ones top-down.
    fn ensured(
        &mut self,
        mut missing: Vec<String>,
        creating: bool,
        request: &Request,
        result: &Result<Response, ErrorCode>,
    ) -> Vec<RecipeOut> {
        let found = matches!(result, Ok(Response::Exists { stat: Some(_) }));
        if !creating && !found {
            let Request::Exists { path, .. } = request else {
                return Vec::new();
            };
            missing.push(path.clone());
            let parent = crate::engine::path::raw_parent(path)
                .filter(|p| !p.is_empty())
                .unwrap_or("/");
            let exists = Request::Exists {
                path: parent.to_string(),
                watch: false,
            };
            return self.send(
                Op::Ensure {
                    missing,
                    creating: false,
                },
                exists,
                Opcode::Exists,
            );
        }
        match missing.pop() {
            Some(path) => {
                let create = Request::Create {
                    path,
                    data: Some(Vec::new()),
                    mode: CreateMode::Persistent,
                };
                self.send(
                    Op::Ensure {
                        missing,
                        creating: true,
                    },
                    create,
                    Opcode::Create,
                )
            }
            None => {
                self.assured = true;
                self.body()
            }
        }
    }

    /// `_get_predecessor`: contenders compared by their sequence string; the largest smaller
    /// one is the predecessor.
    fn listed(&mut self, result: Result<Response, ErrorCode>) -> Vec<RecipeOut> {
        let children = match result {
            Ok(Response::GetChildren { children, .. }) => children,
            _ => Vec::new(),
        };
        let me = self
            .my_node
            .as_deref()
            .map(crate::recipes::decide::name_of)
            .unwrap_or_default()
            .to_string();
        if !children.contains(&me) {
            return self.retry();
        }
        let mine = contender(&me).unwrap_or_default();
        let smaller = children
            .iter()
            .filter_map(|c| contender(c).map(|s| (s, c)))
            .filter(|(s, _)| *s < mine)
            .max();
        match smaller {
            None => {
                self.phase = Phase::Holding;
                vec![RecipeOut::Acquired {
                    token: sequence_token(&me),
                }]
            }
            Some((_, pred)) => {
                let path = format!("{}/{pred}", self.dir);
                self.send(
                    Op::Watch(path.clone()),
                    Request::GetData { path, watch: true },
                    Opcode::GetData,
                )
            }
        }
    }
}

/// The sequence string of a contender: what follows `__lock__` when it is 10 digits (with an
/// optional minus sign) at the end of the name.
fn contender(name: &str) -> Option<&str> {
    let i = name.rfind(NODE_NAME)?;
    let s = &name[i + NODE_NAME.len()..];
    let digits = s.strip_prefix('-').unwrap_or(s);
    (digits.len() == 10 && digits.bytes().all(|b| b.is_ascii_digit())).then_some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contenders_are_lock_nodes_with_ten_digits() {
        assert_eq!(contender("ab__lock__0000000003"), Some("0000000003"));
        assert_eq!(contender("ab__lock__-000000003"), None);
        assert_eq!(contender("ab__lock__-0000000003"), Some("-0000000003"));
        assert_eq!(contender("_c_x-lock-0000000003"), None);
    }
}

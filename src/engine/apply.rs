//! Applying validated transactions to the tree (`DataTree.processTxn`) and firing the watches
//! each change triggers, in the server's order.

use super::path;
use super::prep::Txn;
use super::protocol::{MultiResult, Output, Response};
use super::tree::{DataTree, NewNode};
use super::types::{ErrorCode, EventType, SessionId, Time, WatchedEvent, Zxid};
use super::watch::{WatchTable, Watches};

/// The mutable parts a transaction touches, plus the notifications it produced.
pub struct Applier<'a> {
    pub tree: &'a mut DataTree,
    pub watches: &'a mut Watches,
    pub zxid: Zxid,
    pub now: Time,
    pub out: &'a mut Vec<Output>,
}

impl Applier<'_> {
    fn notify(
        &mut self,
        table: WatchTable,
        path: &str,
        kind: EventType,
        suppress: &[SessionId],
    ) -> Vec<SessionId> {
        let fired = self.watches.trigger(table, path, suppress);
        for session in &fired {
            let event = WatchedEvent {
                kind,
                path: path.to_string(),
            };
            self.out.push(Output::Notify {
                session: *session,
                event,
            });
        }
        fired
    }

    /// Creates the node, then NodeCreated on it and NodeChildrenChanged on its parent.
    pub fn create(
        &mut self,
        txn_path: &str,
        data: super::protocol::Data,
        kind: super::types::NodeKind,
        parent_counter: i32,
    ) {
        self.tree.create_node(NewNode {
            path: txn_path,
            data,
            kind,
            parent_counter,
            zxid: self.zxid,
            time: self.now,
        });
        self.notify(WatchTable::Data, txn_path, EventType::NodeCreated, &[]);
        let parent = path::event_parent(path::raw_parent(txn_path).unwrap_or("")).to_string();
        self.notify(
            WatchTable::Child,
            &parent,
            EventType::NodeChildrenChanged,
            &[],
        );
    }

    /// Deletes the node: NodeDeleted to data watchers, then to child watchers not already told,
    /// then NodeChildrenChanged on the parent.
    pub fn delete(&mut self, txn_path: &str) {
        if self.tree.delete_node(txn_path, self.zxid).is_none() {
            return;
        }
        let told = self.notify(WatchTable::Data, txn_path, EventType::NodeDeleted, &[]);
        self.notify(WatchTable::Child, txn_path, EventType::NodeDeleted, &told);
        let parent = path::event_parent(path::raw_parent(txn_path).unwrap_or("")).to_string();
        self.notify(
            WatchTable::Child,
            &parent,
            EventType::NodeChildrenChanged,
            &[],
        );
    }

    fn set_data(
        &mut self,
        txn_path: &str,
        data: super::protocol::Data,
        version: i32,
    ) -> Option<super::types::Stat> {
        let stat = self
            .tree
            .set_data(txn_path, data, version, self.zxid, self.now)?;
        self.notify(WatchTable::Data, txn_path, EventType::NodeDataChanged, &[]);
        Some(stat)
    }

    /// Applies a single-op transaction and builds its reply.
    pub fn apply(&mut self, txn: Txn) -> Result<Response, ErrorCode> {
        match txn {
            Txn::Create {
                path,
                data,
                kind,
                parent_counter,
            } => {
                self.create(&path, data, kind, parent_counter);
                let stat = self
                    .tree
                    .get(&path)
                    .map(|n| n.stat())
                    .ok_or(ErrorCode::NoNode)?;
                Ok(Response::Create { path, stat })
            }
            Txn::Delete { path } => {
                self.delete(&path);
                Ok(Response::Delete)
            }
            Txn::SetData {
                path,
                data,
                version,
            } => self
                .set_data(&path, data, version)
                .map(|stat| Response::SetData { stat })
                .ok_or(ErrorCode::NoNode),
            Txn::Check { .. } => Ok(Response::Check),
            Txn::Error(e) => Err(e),
            Txn::Multi(txns) => Ok(Response::Multi(self.apply_multi(txns))),
        }
    }

    /// A multi: if any sub-txn is an error nothing is applied and no watch fires; otherwise
    /// every op is applied in order with its own notifications.
    fn apply_multi(&mut self, txns: Vec<Txn>) -> Vec<MultiResult> {
        if txns.iter().any(|t| matches!(t, Txn::Error(_))) {
            return txns
                .into_iter()
                .map(|t| match t {
                    Txn::Error(e) => MultiResult::Error(e),
                    _ => MultiResult::Error(ErrorCode::RolledBack),
                })
                .collect();
        }
        txns.into_iter().map(|t| self.apply_sub(t)).collect()
    }

    fn apply_sub(&mut self, txn: Txn) -> MultiResult {
        match txn {
            Txn::Create {
                path,
                data,
                kind,
                parent_counter,
            } => {
                self.create(&path, data, kind, parent_counter);
                MultiResult::Create { path }
            }
            Txn::Delete { path } => {
                self.delete(&path);
                MultiResult::Delete
            }
            Txn::SetData {
                path,
                data,
                version,
            } => match self.set_data(&path, data, version) {
                Some(stat) => MultiResult::SetData { stat },
                None => MultiResult::Error(ErrorCode::NoNode),
            },
            Txn::Check { .. } => MultiResult::Check,
            Txn::Error(e) => MultiResult::Error(e),
            Txn::Multi(_) => MultiResult::Error(ErrorCode::BadArguments),
        }
    }
}

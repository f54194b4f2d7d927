//! Request validation in the server's exact check order (`PrepRequestProcessor`): turns a write
//! into a transaction or an error, against the tree plus the pending changes of the same multi.

use crate::sorted::SortedMap;

use super::path;
use super::protocol::{Data, MultiOp};
use super::tree::DataTree;
use super::types::{CreateMode, ErrorCode, NodeKind, SessionId};

/// A validated change, applied later in zxid order (`Txn` records).
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Txn {
    Create {
        path: String,
        data: Data,
        kind: NodeKind,
        parent_counter: i32,
    },
    Delete {
        path: String,
    },
    SetData {
        path: String,
        data: Data,
        version: i32,
    },
    Check {
        path: String,
    },
    Error(ErrorCode),
    Multi(Vec<Txn>),
}

/// What validation needs to know of a node (`ChangeRecord`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Rec {
    version: i32,
    counter: i32,
    kind: NodeKind,
    child_count: i32,
    read_only: bool,
}

/// The tree seen through the changes already prepared in this request.
pub struct Pending<'a> {
    tree: &'a DataTree,
    /// Changes prepared so far in this request, the latest per path (a multi may be long).
    overlay: SortedMap<String, Option<Rec>>,
    session: SessionId,
}

impl<'a> Pending<'a> {
    pub fn new(tree: &'a DataTree, session: SessionId) -> Self {
        Pending {
            tree,
            overlay: SortedMap::new(),
            session,
        }
    }

    fn key(path: &str) -> &str {
        if path.is_empty() {
            "/"
        } else {
            path
        }
    }

    /// `getRecordForPath`: pending change first, then the tree; missing → NoNode.
    fn get(&self, path: &str) -> Result<Rec, ErrorCode> {
        let key = Self::key(path);
        if let Some(rec) = self.overlay.get(key) {
            return rec.ok_or(ErrorCode::NoNode);
        }
        let n = self.tree.get(key).ok_or(ErrorCode::NoNode)?;
        Ok(Rec {
            version: n.version,
            counter: n.create_counter,
            kind: n.kind,
            child_count: n.children.len() as i32,
            read_only: n.read_only,
        })
    }

    fn put(&mut self, path: &str, rec: Option<Rec>) {
        self.overlay.insert(Self::key(path).to_string(), rec);
    }

    /// `pRequest2TxnCreate` (+ `validateCreateRequest`, `validatePathForCreate`).
    pub fn create(&mut self, path: &str, data: Data, mode: CreateMode) -> Result<Txn, ErrorCode> {
        if mode.is_ttl() {
            return Err(ErrorCode::Unimplemented);
        }
        let parent_path = match path::raw_parent(path) {
            Some(p) if !path.contains('\0') => p,
            _ => return Err(ErrorCode::BadArguments),
        };
        let mut parent = self.get(parent_path)?;
        no_auth(&parent)?;
        let full = if mode.is_sequential() {
            format!("{path}{}", path::sequence_suffix(parent.counter))
        } else {
            path.to_string()
        };
        path::validate(&full).map_err(|_| ErrorCode::BadArguments)?;
        if self.get(&full).is_ok() {
            return Err(ErrorCode::NodeExists);
        }
        if matches!(parent.kind, NodeKind::Ephemeral(_)) {
            return Err(ErrorCode::NoChildrenForEphemerals);
        }
        let parent_counter = parent.counter.wrapping_add(1);
        parent.counter = parent_counter;
        parent.child_count += 1;
        self.put(parent_path, Some(parent));
        let kind = self.kind_for(mode);
        self.put(
            &full,
            Some(Rec {
                version: 0,
                counter: 0,
                kind,
                child_count: 0,
                read_only: false,
            }),
        );
        Ok(Txn::Create {
            path: full,
            data,
            kind,
            parent_counter,
        })
    }

    fn kind_for(&self, mode: CreateMode) -> NodeKind {
        match mode {
            m if m.is_ephemeral() => NodeKind::Ephemeral(self.session),
            CreateMode::Container => NodeKind::Container,
            _ => NodeKind::Persistent,
        }
    }

    /// `OpCode.delete`: BadArguments → NoNode (parent) → NoNode → BadVersion → NotEmpty.
    pub fn delete(&mut self, path: &str, version: i32) -> Result<Txn, ErrorCode> {
        let parent_path = match path::raw_parent(path) {
            Some(p) if !path.contains('\0') && !path::is_special(path) => p,
            _ => return Err(ErrorCode::BadArguments),
        };
        let mut parent = self.get(parent_path)?;
        no_auth(&parent)?;
        let node = self.get(path)?;
        check_version(node.version, version)?;
        if node.child_count > 0 {
            return Err(ErrorCode::NotEmpty);
        }
        parent.child_count -= 1;
        self.put(parent_path, Some(parent));
        self.put(path, None);
        Ok(Txn::Delete {
            path: path.to_string(),
        })
    }

    /// `OpCode.setData`: BadArguments → NoNode → BadVersion; the version always goes up by one.
    pub fn set_data(&mut self, path: &str, data: Data, version: i32) -> Result<Txn, ErrorCode> {
        path::validate(path).map_err(|_| ErrorCode::BadArguments)?;
        let mut node = self.get(path)?;
        no_auth(&node)?;
        check_version(node.version, version)?;
        node.version = node.version.wrapping_add(1);
        self.put(path, Some(node));
        Ok(Txn::SetData {
            path: path.to_string(),
            data,
            version: node.version,
        })
    }

    /// `OpCode.check`: BadArguments → NoNode → BadVersion; changes nothing.
    pub fn check(&mut self, path: &str, version: i32) -> Result<Txn, ErrorCode> {
        path::validate(path).map_err(|_| ErrorCode::BadArguments)?;
        let node = self.get(path)?;
        check_version(node.version, version)?;
        Ok(Txn::Check {
            path: path.to_string(),
        })
    }

    fn op(&mut self, op: &MultiOp) -> Result<Txn, ErrorCode> {
        match op {
            MultiOp::Create { path, data, mode } => self.create(path, data.clone(), *mode),
            MultiOp::Delete { path, version } => self.delete(path, *version),
            MultiOp::SetData {
                path,
                data,
                version,
            } => self.set_data(path, data.clone(), *version),
            MultiOp::Check { path, version } => self.check(path, *version),
        }
    }

    /// `OpCode.multi`: each op sees the earlier ones; after the first failure the rest are not
    /// tried. A failed multi becomes a list of error txns: RolledBack before the failing op, its
    /// code, then RuntimeInconsistency.
    pub fn multi(&mut self, ops: &[MultiOp]) -> Txn {
        let mut txns = Vec::with_capacity(ops.len());
        for (i, op) in ops.iter().enumerate() {
            match self.op(op) {
                Ok(t) => txns.push(t),
                Err(e) => return Txn::Multi(failed_multi(ops.len(), i, e)),
            }
        }
        Txn::Multi(txns)
    }
}

fn failed_multi(len: usize, failed_at: usize, err: ErrorCode) -> Vec<Txn> {
    (0..len)
        .map(|i| match i.cmp(&failed_at) {
            std::cmp::Ordering::Less => Txn::Error(ErrorCode::RolledBack),
            std::cmp::Ordering::Equal => Txn::Error(err),
            std::cmp::Ordering::Greater => Txn::Error(ErrorCode::RuntimeInconsistency),
        })
        .collect()
}

/// `checkACL` for writes: the read-only config node refuses CREATE, DELETE and WRITE.
fn no_auth(rec: &Rec) -> Result<(), ErrorCode> {
    if rec.read_only {
        Err(ErrorCode::NoAuth)
    } else {
        Ok(())
    }
}

/// `checkAndIncVersion`: −1 matches any version.
fn check_version(current: i32, expected: i32) -> Result<(), ErrorCode> {
    if expected != -1 && expected != current {
        Err(ErrorCode::BadVersion)
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s() -> SessionId {
        SessionId(7)
    }

    #[test]
    fn create_checks_parent_before_path_shape() {
        let t = DataTree::new();
        let mut p = Pending::new(&t, s());
        assert_eq!(
            p.create("/a/", None, CreateMode::Persistent),
            Err(ErrorCode::NoNode)
        );
        assert_eq!(
            p.create("a", None, CreateMode::Persistent),
            Err(ErrorCode::BadArguments)
        );
        assert_eq!(
            p.create("a/b", None, CreateMode::Persistent),
            Err(ErrorCode::NoNode)
        );
        assert_eq!(
            p.create("/", None, CreateMode::Persistent),
            Err(ErrorCode::NodeExists)
        );
        assert_eq!(
            p.create("/x", None, CreateMode::PersistentWithTtl),
            Err(ErrorCode::Unimplemented)
        );
        assert_eq!(
            p.create("/zookeeper/", None, CreateMode::Persistent),
            Err(ErrorCode::BadArguments)
        );
    }

    #[test]
    fn sequential_suffix_comes_from_counter_and_allows_trailing_slash() {
        let t = DataTree::new();
        let mut p = Pending::new(&t, s());
        let Ok(Txn::Create {
            path,
            parent_counter,
            ..
        }) = p.create("/", None, CreateMode::PersistentSequential)
        else {
            panic!()
        };
        assert_eq!(path, "/0000000000");
        assert_eq!(parent_counter, 1);
        let Ok(Txn::Create { path, .. }) =
            p.create("/0000000000/", None, CreateMode::EphemeralSequential)
        else {
            panic!()
        };
        assert_eq!(path, "/0000000000/0000000000");
        assert_eq!(
            p.create("/0000000000/0000000000/x", None, CreateMode::Persistent),
            Err(ErrorCode::NoChildrenForEphemerals)
        );
    }

    #[test]
    fn delete_precedence_bad_version_beats_not_empty() {
        let t = DataTree::new();
        let mut p = Pending::new(&t, s());
        assert_eq!(p.delete("/", -1), Err(ErrorCode::BadArguments));
        assert_eq!(p.delete("/zookeeper", -1), Err(ErrorCode::BadArguments));
        assert_eq!(
            p.delete("/zookeeper/quota", 3),
            Err(ErrorCode::BadArguments)
        );
        p.create("/d", None, CreateMode::Persistent).unwrap();
        p.create("/d/c", None, CreateMode::Persistent).unwrap();
        assert_eq!(p.delete("/d", 5), Err(ErrorCode::BadVersion));
        assert_eq!(p.delete("/d", 0), Err(ErrorCode::NotEmpty));
        assert_eq!(p.delete("/nope", 5), Err(ErrorCode::NoNode));
    }

    #[test]
    fn set_data_no_node_beats_bad_version_and_bumps_version() {
        let t = DataTree::new();
        let mut p = Pending::new(&t, s());
        assert_eq!(p.set_data("/nope", None, 9), Err(ErrorCode::NoNode));
        assert_eq!(p.set_data("/nope/", None, 9), Err(ErrorCode::BadArguments));
        p.create("/v", None, CreateMode::Persistent).unwrap();
        assert!(p.set_data("/v", None, 0).is_ok());
        assert_eq!(p.check("/v", 0), Err(ErrorCode::BadVersion));
        assert!(p.check("/v", 1).is_ok());
    }

    #[test]
    fn failed_multi_reports_rolled_back_then_error_then_inconsistency() {
        let t = DataTree::new();
        let mut p = Pending::new(&t, s());
        let ops = vec![
            MultiOp::Create {
                path: "/a".into(),
                data: None,
                mode: CreateMode::Persistent,
            },
            MultiOp::Create {
                path: "/a".into(),
                data: None,
                mode: CreateMode::Persistent,
            },
            MultiOp::Check {
                path: "/a".into(),
                version: 0,
            },
        ];
        let Txn::Multi(txns) = p.multi(&ops) else {
            panic!()
        };
        assert_eq!(
            txns,
            vec![
                Txn::Error(ErrorCode::RolledBack),
                Txn::Error(ErrorCode::NodeExists),
                Txn::Error(ErrorCode::RuntimeInconsistency)
            ]
        );
    }
}

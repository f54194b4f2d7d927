//! The data tree (`DataTree.java`): znodes, their persisted stat, the hidden per-parent create
//! counter, and the per-session ephemeral sets. Only applies transactions that were validated.

use crate::sorted::{SortedMap, SortedSet};

use super::javaset::JavaHashSet;
use super::path;
use super::types::{NodeKind, SessionId, SessionMap, Stat, Time, Zxid};

/// One znode as the server stores it (`DataNode` + `StatPersisted`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Znode {
    pub data: Option<Vec<u8>>,
    pub kind: NodeKind,
    pub czxid: Zxid,
    pub mzxid: Zxid,
    pub pzxid: Zxid,
    pub ctime: Time,
    pub mtime: Time,
    pub version: i32,
    /// The stored "cversion": the number of children ever created here (§2 of the reference).
    pub create_counter: i32,
    pub aversion: i32,
    /// Read-only ACL (`READ_ACL_UNSAFE`): only `/zookeeper/config` has one on a default server.
    pub read_only: bool,
    pub children: SortedSet<String>,
}

impl Znode {
    fn new(data: Option<Vec<u8>>, kind: NodeKind, zxid: Zxid, time: Time) -> Self {
        Znode {
            data,
            kind,
            czxid: zxid,
            mzxid: zxid,
            pzxid: zxid,
            ctime: time,
            mtime: time,
            version: 0,
            create_counter: 0,
            aversion: 0,
            read_only: false,
            children: SortedSet::new(),
        }
    }

    /// `DataNode.copyStat`: cversion is derived as `2·C − numChildren`.
    pub fn stat(&self) -> Stat {
        let num_children = self.children.len() as i32;
        Stat {
            czxid: self.czxid,
            mzxid: self.mzxid,
            ctime: self.ctime,
            mtime: self.mtime,
            version: self.version,
            cversion: self
                .create_counter
                .wrapping_mul(2)
                .wrapping_sub(num_children),
            aversion: self.aversion,
            ephemeral_owner: self.kind.visible_owner(),
            data_length: self.data.as_ref().map_or(0, |d| d.len() as i32),
            num_children,
            pzxid: self.pzxid,
        }
    }
}

/// The whole tree. Keys are canonical paths; the root is `/` and also answers to `""`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DataTree {
    nodes: SortedMap<String, Znode>,
    ephemerals: SessionMap<JavaHashSet>,
    containers: SortedSet<String>,
}

impl Default for DataTree {
    fn default() -> Self {
        Self::new()
    }
}

impl DataTree {
    /// A fresh server's tree: `/`, `/zookeeper`, `/zookeeper/config`, `/zookeeper/quota`, all
    /// attached without counting, so `/` shows cversion −1 and `/zookeeper` −2.
    pub fn new() -> Self {
        let mut nodes = SortedMap::new();
        let empty = || Znode::new(Some(Vec::new()), NodeKind::Persistent, 0, 0);
        let mut root = empty();
        root.children.insert("zookeeper".into());
        let mut zk = empty();
        zk.children
            .extend(["config".to_string(), "quota".to_string()]);
        nodes.insert("/".into(), root);
        nodes.insert("/zookeeper".into(), zk);
        // `addConfigNode` sets a read-only ACL with version -1, so its aversion shows -1.
        let mut config = empty();
        config.aversion = -1;
        config.read_only = true;
        nodes.insert("/zookeeper/config".into(), config);
        nodes.insert("/zookeeper/quota".into(), empty());
        DataTree {
            nodes,
            ephemerals: SessionMap::default(),
            containers: SortedSet::new(),
        }
    }

    fn key(path: &str) -> &str {
        if path.is_empty() {
            "/"
        } else {
            path
        }
    }

    /// `nodes.get(path)` on the server's raw path string.
    pub fn get(&self, path: &str) -> Option<&Znode> {
        self.nodes.get(Self::key(path))
    }

    fn get_mut(&mut self, path: &str) -> Option<&mut Znode> {
        self.nodes.get_mut(Self::key(path))
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Every znode in path order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Znode)> {
        self.nodes.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// Children names of `path`, sorted (the real server answers in hash order; every client
    /// sorts, and the replay format prints them sorted).
    pub fn children(&self, path: &str) -> Option<Vec<String>> {
        self.get(path).map(|n| n.children.iter().cloned().collect())
    }

    /// `DataTree.createNode`: the parent's counter and pzxid move only if the new counter is
    /// larger (ZOOKEEPER-3249), which is what makes an overflowed counter stick.
    pub fn create_node(&mut self, req: NewNode<'_>) {
        let parent_path = path::raw_parent(req.path).unwrap_or("");
        let name = path::child_name(req.path).to_string();
        if let Some(parent) = self.get_mut(parent_path) {
            if req.parent_counter > parent.create_counter {
                parent.create_counter = req.parent_counter;
                parent.pzxid = req.zxid;
            }
            parent.children.insert(name);
        }
        let node = Znode::new(req.data, req.kind, req.zxid, req.time);
        match req.kind {
            NodeKind::Ephemeral(owner) => {
                if self.ephemerals.get(&owner).is_none() {
                    self.ephemerals.insert(owner, JavaHashSet::new());
                }
                if let Some(set) = self.ephemerals.get_mut(&owner) {
                    set.insert(req.path);
                }
            }
            NodeKind::Container => {
                self.containers.insert(req.path.to_string());
            }
            NodeKind::Persistent => {}
        }
        self.nodes.insert(req.path.to_string(), node);
    }

    /// `DataTree.deleteNode`: the parent's counter is untouched; its pzxid moves forward.
    pub fn delete_node(&mut self, path: &str, zxid: Zxid) -> Option<Znode> {
        let node = self.nodes.remove(path)?;
        let parent_path = path::raw_parent(path).unwrap_or("");
        if let Some(parent) = self.get_mut(parent_path) {
            parent.children.remove(path::child_name(path));
            if zxid > parent.pzxid {
                parent.pzxid = zxid;
            }
        }
        match node.kind {
            NodeKind::Ephemeral(owner) => {
                if let Some(set) = self.ephemerals.get_mut(&owner) {
                    set.remove(path);
                }
            }
            NodeKind::Container => {
                self.containers.remove(path);
            }
            NodeKind::Persistent => {}
        }
        Some(node)
    }

    /// `DataTree.setData`: version comes from the transaction (current + 1, even for equal bytes).
    pub fn set_data(
        &mut self,
        path: &str,
        data: Option<Vec<u8>>,
        version: i32,
        zxid: Zxid,
        time: Time,
    ) -> Option<Stat> {
        let node = self.get_mut(path)?;
        node.data = data;
        node.version = version;
        node.mzxid = zxid;
        node.mtime = time;
        Some(node.stat())
    }

    /// The session's ephemerals in the order a close transaction deletes them.
    pub fn ephemerals_in_close_order(&self, owner: SessionId) -> Vec<String> {
        self.ephemerals
            .get(&owner)
            .map(|s| s.java_clone().iter().map(str::to_string).collect())
            .unwrap_or_default()
    }

    /// Paths of the session's ephemerals (any order), for invariants and views.
    pub fn ephemeral_count(&self, owner: SessionId) -> usize {
        self.ephemerals.get(&owner).map_or(0, JavaHashSet::len)
    }

    /// Drops the (empty) ephemeral set of a session that has ended.
    pub fn forget_session(&mut self, owner: SessionId) {
        self.ephemerals.remove(&owner);
    }

    /// Containers the ContainerManager would reap: no children, and at least one ever.
    pub fn reapable_containers(&self) -> Vec<String> {
        self.containers
            .iter()
            .filter(|p| {
                self.nodes
                    .get(*p)
                    .is_some_and(|n| n.children.is_empty() && n.create_counter > 0)
            })
            .cloned()
            .collect()
    }

    /// Test/benchmark helper: force a parent's hidden counter (as the reference did on a real
    /// server by editing a snapshot) to reach the overflow behaviour.
    pub fn force_create_counter(&mut self, path: &str, counter: i32) {
        if let Some(n) = self.get_mut(path) {
            n.create_counter = counter;
        }
    }
}

/// Everything `create_node` needs, prepared by the request validator.
pub struct NewNode<'a> {
    pub path: &'a str,
    pub data: Option<Vec<u8>>,
    pub kind: NodeKind,
    /// The parent counter this create stores (`newCversion` = C + 1 at prepare time).
    pub parent_counter: i32,
    pub zxid: Zxid,
    pub time: Time,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn create(t: &mut DataTree, path: &str, zxid: Zxid) {
        let parent = path::raw_parent(path).unwrap();
        let c = t.get(parent).unwrap().create_counter;
        t.create_node(NewNode {
            path,
            data: None,
            kind: NodeKind::Persistent,
            parent_counter: c.wrapping_add(1),
            zxid,
            time: 0,
        });
    }

    #[test]
    fn fresh_tree_has_system_nodes_with_negative_cversion() {
        let t = DataTree::new();
        assert_eq!(t.get("/").unwrap().stat().cversion, -1);
        assert_eq!(t.get("").unwrap().stat().num_children, 1);
        assert_eq!(t.get("/zookeeper").unwrap().stat().cversion, -2);
        assert_eq!(t.get("/zookeeper/quota").unwrap().stat().cversion, 0);
    }

    #[test]
    fn cversion_counts_creates_and_deletes_but_counter_only_creates() {
        let mut t = DataTree::new();
        create(&mut t, "/p", 1);
        create(&mut t, "/p/a", 2);
        create(&mut t, "/p/b", 3);
        t.delete_node("/p/a", 4);
        let p = t.get("/p").unwrap();
        assert_eq!(p.create_counter, 2);
        assert_eq!(p.stat().cversion, 3);
        assert_eq!(p.stat().pzxid, 4);
        assert_eq!(t.get("/").unwrap().stat().cversion, 0);
    }

    #[test]
    fn overflowed_counter_sticks_and_pzxid_stops() {
        let mut t = DataTree::new();
        create(&mut t, "/p", 1);
        t.force_create_counter("/p", i32::MAX);
        create(&mut t, "/p/x", 2);
        let p = t.get("/p").unwrap();
        assert_eq!(p.create_counter, i32::MAX);
        assert_eq!(p.pzxid, 1);
        assert_eq!(p.children.len(), 1);
    }

    #[test]
    fn ephemerals_tracked_per_session() {
        let mut t = DataTree::new();
        create(&mut t, "/t", 1);
        let s = SessionId::FIRST;
        for (i, p) in ["/t/a", "/t/b", "/t/c"].iter().enumerate() {
            t.create_node(NewNode {
                path: p,
                data: None,
                kind: NodeKind::Ephemeral(s),
                parent_counter: i as i32 + 1,
                zxid: 2 + i as i64,
                time: 0,
            });
        }
        assert_eq!(t.ephemerals_in_close_order(s), ["/t/a", "/t/c", "/t/b"]);
        t.delete_node("/t/c", 9);
        assert_eq!(t.ephemeral_count(s), 2);
    }
}

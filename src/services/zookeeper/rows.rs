//! The znode tree as the stage draws it: one typed row per user znode (not `/zookeeper`),
//! parents before children, siblings in sequence order, with the Stat a learner inspects.

use crate::engine::{NodeKind, Server, Stat};
use crate::services::api::{Lifetime, Owner, Row};

/// What kind of znode a row is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ZnodeKind {
    Persistent,
    Ephemeral,
    Container,
}

/// One znode, in ZooKeeper's own words.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Znode {
    pub path: String,
    pub name: String,
    /// Depth below the root's children (`/locks` is 0).
    pub depth: usize,
    pub kind: ZnodeKind,
    /// The name ends in a 10-digit sequence suffix.
    pub sequential: bool,
    /// The ephemeral owner's session.
    pub owner: Option<u64>,
    pub stat: Stat,
    /// The node's data as text (lossy; `None` for null data).
    pub data: Option<String>,
    /// The server whose copy this is (an ensemble has one per server).
    pub server: crate::services::ServerId,
}

impl Row for Znode {
    fn no_expiry(&self) -> Option<[&'static str; 2]> {
        None
    }
    fn id(&self) -> String {
        crate::services::on_server(self.server, &self.path)
    }
    fn server(&self) -> crate::services::ServerId {
        self.server
    }
    fn name(&self) -> String {
        self.name.clone()
    }
    fn depth(&self) -> usize {
        self.depth
    }
    fn owner(&self) -> Option<Owner> {
        self.owner.map(Owner::Session)
    }
    fn lifetime(&self) -> Lifetime {
        match self.kind {
            ZnodeKind::Persistent => Lifetime::Persistent,
            ZnodeKind::Ephemeral => Lifetime::Session,
            ZnodeKind::Container => Lifetime::Container,
        }
    }
    fn sequence(&self) -> Option<&str> {
        self.sequential.then(|| &self.name[self.name.len() - 10..])
    }
    fn stamp(&self) -> Option<(&'static str, i64)> {
        Some(("czxid", self.stat.czxid))
    }
    fn fields(&self) -> Vec<(&'static str, String)> {
        let st = &self.stat;
        let mut f = vec![
            ("czxid", zxid(st.czxid)),
            ("mzxid", zxid(st.mzxid)),
            ("pzxid", zxid(st.pzxid)),
            ("version", st.version.to_string()),
            ("cversion", st.cversion.to_string()),
            ("numChildren", st.num_children.to_string()),
            (
                "ephemeralOwner",
                self.owner.map_or("0".into(), |s| format!("0x{s:x}")),
            ),
        ];
        if let Some(d) = self.data.as_ref().filter(|d| !d.is_empty()) {
            f.push(("data", d.clone()));
        }
        f
    }
}

/// The part after the last `marker` (Curator's `fixForSorting`); the whole name if absent.
pub fn sequence_key<'a>(name: &'a str, marker: &str) -> &'a str {
    name.rfind(marker)
        .map_or(name, |i| &name[i + marker.len()..])
}

/// Children sorted by their sequence key (plain string order, as Curator and kazoo do).
pub fn sorted<'a>(children: &'a [String], markers: &[&str]) -> Vec<&'a str> {
    let key = |n: &'a str| {
        markers
            .iter()
            .map(|m| sequence_key(n, m))
            .min_by_key(|k| k.len())
            .unwrap_or(n)
    };
    // Each key found once (a waiter sorts a thousand children at every hand-off).
    let mut v: Vec<(&str, &str)> = children.iter().map(|n| (key(n), n.as_str())).collect();
    crate::sort::all(&mut v);
    v.into_iter().map(|(_, n)| n).collect()
}

/// Every user znode, depth first.
pub fn tree(server: &Server) -> Vec<Znode> {
    let t = server.tree();
    let mut rows = Vec::new();
    let mut stack: Vec<(String, usize)> = vec![("/".into(), 0)];
    while let Some((path, depth)) = stack.pop() {
        let Some(node) = t.get(&path) else { continue };
        if path != "/" {
            rows.push(row(&path, depth, node));
        }
        let names: Vec<String> = node
            .children
            .iter()
            .filter(|c| !(path == "/" && *c == "zookeeper"))
            .cloned()
            .collect();
        let kids = sorted(&names, &["lock-", "__READ__", "__WRIT__", "-"]);
        for k in kids.into_iter().rev() {
            stack.push((crate::engine::path::join(&path, k), depth + 1));
        }
    }
    rows
}

fn row(path: &str, depth: usize, node: &crate::engine::tree::Znode) -> Znode {
    // A child of the root is named by its path (`/lock`, `/locks`): two of them one under the
    // other would otherwise read as a parent and its child.
    let name = match depth {
        1 => path.to_string(),
        _ => crate::engine::path::child_name(path).to_string(),
    };
    let sequential =
        name.len() >= 10 && name[name.len() - 10..].bytes().all(|b| b.is_ascii_digit());
    let (kind, owner) = match node.kind {
        NodeKind::Ephemeral(s) => (ZnodeKind::Ephemeral, Some(s.0)),
        NodeKind::Container => (ZnodeKind::Container, None),
        _ => (ZnodeKind::Persistent, None),
    };
    let data = node
        .data
        .as_ref()
        .map(|d| String::from_utf8_lossy(d).into_owned());
    Znode {
        path: path.to_string(),
        name,
        depth: depth.saturating_sub(1),
        kind,
        sequential,
        owner,
        stat: node.stat(),
        data,
        server: 0,
    }
}

/// A zxid as ZooKeeper's tools write it once it carries an epoch (`0x100000003`).
fn zxid(z: i64) -> String {
    if z >= 1 << 32 {
        format!("0x{z:x}")
    } else {
        z.to_string()
    }
}

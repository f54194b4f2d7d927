//! The ensemble as the stage and the monitors see it: each server's role and how far it has
//! applied, each server's own copy of the tree, the watches each server keeps for the clients
//! connected to it, and what the lock's holder looks like in the service's own view.

use super::member::State;
use super::{epoch_of, Ensemble};
use crate::engine::{NodeKind, SessionId, WatchTable, Zxid};
use crate::services::api::{Claim, ConnId, Role, ServerId, ServerInfo, Tick, Watch};
use crate::services::zookeeper::rows::{self, Znode};

impl Ensemble {
    pub fn servers(&self) -> Vec<ServerInfo> {
        self.members
            .iter()
            .map(|m| {
                let role = match &m.state {
                    State::Down => Role::Down,
                    State::Looking { .. } => Role::Looking,
                    State::Following { .. } => Role::Follower,
                    State::Leading(_) => Role::Leader,
                };
                let z = m.db.last_zxid();
                let behind = m.log.len();
                let note = match &m.state {
                    State::Down => None,
                    State::Looking { vote, .. } => Some([
                        format!("votes zk-{}", vote.leader + 1),
                        format!("投票给 zk-{}", vote.leader + 1),
                    ]),
                    State::Leading(l) => Some(self.ack_count(l, z)),
                    _ if behind > 0 => Some([
                        format!("applied 0x{z:x} · {behind} logged"),
                        format!("已应用 0x{z:x} · 已记录 {behind}"),
                    ]),
                    _ => Some([format!("applied 0x{z:x}"), format!("已应用 0x{z:x}")]),
                };
                ServerInfo {
                    id: m.id,
                    name: self.name(m.id),
                    role,
                    note,
                    clock_ahead: 0,
                }
            })
            .collect()
    }

    /// A leader's line: how far it has applied — with the ACK count that committed it, once a
    /// majority had logged it ("applied 0x100000007 (ACK 2/3 → committed)") — then the oldest
    /// proposal still short of a quorum and its count ("0x100000008 ACK 1/3 · commit at 2").
    fn ack_count(&self, l: &super::member::Lead, applied: Zxid) -> [String; 2] {
        let (n, q) = (self.n(), self.quorum());
        let mut line = [
            format!("applied 0x{applied:x}"),
            format!("已应用 0x{applied:x}"),
        ];
        if let Some((_, k)) = l.committed.filter(|(c, _)| *c == applied) {
            line[0] += &format!(" (ACK {k}/{n} → committed)");
            line[1] += &format!("（确认 {k}/{n} → 已提交）");
        }
        if let Some((z, acks)) = l.acks.iter().next() {
            let a = acks.len();
            line[0] += &format!(" · 0x{z:x} ACK {a}/{n} · commit at {q}");
            line[1] += &format!(" · 0x{z:x} 确认 {a}/{n} · {q} 个即提交");
        }
        line
    }

    /// The connection a session belongs to.
    pub fn owner(&self, s: SessionId) -> Option<ConnId> {
        self.owners.get(&s).copied()
    }

    /// The server connection `conn` is attached to.
    pub fn serving(&self, conn: ConnId) -> ServerId {
        self.conns.get(&conn).map_or(0, |a| a.server)
    }

    /// The view that speaks for the service: the established leader's, else the running
    /// server that has applied the most.
    fn authority(&self) -> &crate::engine::Server {
        let best = self.leader().map(usize::from).or_else(|| {
            let up = self.members.iter().filter(|m| m.is_up());
            up.max_by_key(|m| (m.db.last_zxid(), m.id))
                .map(|m| usize::from(m.id))
        });
        &self.members[best.unwrap_or(0)].db
    }

    pub fn holds(&self, claim: &Claim<'_>) -> bool {
        let (Some(node), Some(session)) = (claim.node, claim.session) else {
            return false;
        };
        self.authority()
            .tree()
            .get(node)
            .is_some_and(|n| n.kind == NodeKind::Ephemeral(SessionId(session)))
    }

    pub fn session_entries(&self, session: u64) -> usize {
        self.authority().tree().ephemeral_count(SessionId(session))
    }

    /// Ticks until the leader expires this claim's session.
    /// While no leader is established nobody counts: the session's whole timeout is left, as
    /// the next leader restarts every deadline.
    pub fn expires_in(&self, now: Tick, claim: &Claim<'_>) -> Option<i64> {
        let session = SessionId(claim.session?);
        let Some(leader) = self.leader() else {
            let s = self.authority().sessions().get(session)?;
            return Some(s.timeout_ms as i64);
        };
        let db = &self.members[usize::from(leader)].db;
        let s = db.sessions().get(session)?;
        Some(s.expires_at as i64 - now as i64)
    }

    /// Every server's rows, each server's copy with its own ids; a crashed server's are what
    /// its disk keeps (its box is drawn down).
    pub fn entries(&self) -> Vec<Znode> {
        self.members
            .iter()
            .flat_map(|m| {
                rows::tree(&m.db).into_iter().map(move |mut r| {
                    r.server = m.id;
                    r
                })
            })
            .collect()
    }

    /// The watches each server keeps for the clients connected to it.
    pub fn watches(&self) -> Vec<Watch> {
        let mut all = Vec::new();
        for m in self.members.iter().filter(|m| m.is_up()) {
            let tree = m.db.tree();
            for (table, path, s) in m.db.watches().all() {
                let Some(conn) = self.conn_at(m.id, s) else {
                    continue;
                };
                let on_missing = table == WatchTable::Data && tree.get(&path).is_none();
                // The watch lives on this server: it points at this server's copy.
                all.push(Watch {
                    conn,
                    path: crate::services::on_server(m.id, &path),
                    child: table == WatchTable::Child,
                    on_missing,
                });
            }
        }
        all
    }

    /// The leader's last zxid (its epoch in the high half).
    pub fn stamp(&self) -> i64 {
        self.authority().last_zxid()
    }

    /// The first broken promise of Zab, if any: two leaders in one epoch, a committed
    /// transaction lost, or two servers applying different sequences.
    pub fn invariant(&self) -> Option<&str> {
        self.violation.as_deref()
    }

    /// The epoch the service is in now (the stage's headline).
    pub fn epoch(&self) -> u32 {
        epoch_of(self.stamp())
    }
}

//! Redis as a lock service: commands in, RESP replies out, key expiry and replication on the
//! server's clock, failover by promoting the replica (or a restart without persistence), the
//! lock holder as Redis sees it (its token in a live key), and the keys as typed rows.

use super::rows::KeyRow;
use super::servers::{Arrival, Peer};
use super::{Redis, Reply};
use crate::narrate::{Detail, Key, Narration};
use crate::services::api::{
    self, Claim, ConnId, Failover, LockService, Outbox, ServiceConfig, Tick, Watch,
};

/// A command, as its words.
pub type Up = Vec<String>;
pub type Down = Reply;
pub type Call = Up;
pub type Answer = Reply;
pub type Server = Redis;

type Out = Outbox<Reply, Peer>;

pub fn service(cfg: &ServiceConfig) -> Redis {
    Redis::networked(cfg.replica_lag)
}

/// A command as arrows and narration show it (a script's body is `<script>`).
pub fn label(args: &Up) -> String {
    args.iter()
        .map(|a| if a.contains('\n') { "<script>" } else { a })
        .collect::<Vec<_>>()
        .join(" ")
}

impl Redis {
    /// Hands the replication stream the commands produced to the network.
    fn send_stream(&mut self, now: Tick, out: &mut Out) {
        for (from, to, m) in self.take_stream(now) {
            out.peer(from, to, m);
        }
    }

    /// The live key holding this token.
    fn held_by(&self, now: Tick, token: &str) -> Option<&super::db::Entry> {
        self.db
            .keys
            .iter()
            .find(|(k, e)| e.str() == Some(token) && !self.db.expired(now, k))
            .map(|(_, e)| e)
    }
}

impl LockService for Redis {
    type Peer = Peer;
    type Up = Up;
    type Down = Reply;
    type Entry = KeyRow;

    fn receive(&mut self, now: Tick, conn: ConnId, args: Up, out: &mut Out) -> Narration {
        let before = self.keys_now();
        let reply = self.command(now, conn as u32, &args);
        self.diff(before, out);
        out.send(conn, reply);
        self.send_stream(now, out);
        api::answered(conn, label(&args), out, Reply::render)
    }

    fn hangup(&mut self, now: Tick, conn: ConnId, out: &mut Out) -> Narration {
        let before = self.keys_now();
        self.close(conn as u32);
        self.diff(before, out);
        self.send_stream(now, out);
        Narration::new(Key::SvcHangup, Some(conn)).a("")
    }

    fn next_deadline(&self) -> Option<Tick> {
        Redis::next_deadline(self)
    }

    fn tick(&mut self, now: Tick, out: &mut Out) -> Narration {
        let before = self.keys_now();
        Redis::tick(self, now);
        let gone = self.diff(before, out);
        let sent = out.peers.len();
        self.send_stream(now, out);
        if gone.is_empty() {
            let labels: Vec<String> = out.peers[sent..].iter().map(|p| p.msg.label()).collect();
            return match labels.is_empty() {
                true => Narration::new(Key::ServiceTick, None),
                false => Narration::new(Key::PeerSent, None)
                    .a(format!("redis-{}", self.primary_id() + 1))
                    .b(Detail::Text(labels.join("; ").replace("⇢ ", ""))),
            };
        }
        Narration::new(Key::SvcExpiry, None).b(Detail::Nodes(gone))
    }

    /// Redis has no sessions to end; the holder's key can reach its TTL now (the exhaustive
    /// search's "the lease runs out", which time decides in a timed run). A key without a TTL
    /// never does.
    fn expire(&mut self, now: Tick, claim: &Claim<'_>, out: &mut Out) -> Option<Narration> {
        let token = claim.token?;
        let key = self
            .db
            .keys
            .iter()
            .find(|(k, e)| {
                e.str() == Some(token) && e.expire_at.is_some() && !self.db.expired(now, k)
            })
            .map(|(k, _)| k.clone())?;
        let before = self.keys_now();
        self.db.expire(&key);
        let gone = self.diff(before, out);
        self.send_stream(now, out);
        Some(Narration::new(Key::SvcExpiry, None).b(Detail::Nodes(gone)))
    }

    fn failover(&mut self, _: Tick, _: &mut Out) -> Failover {
        if self.fail_over_pair() {
            return Failover {
                key: Key::FailoverRedis,
                stall: 0,
            };
        }
        if self.replica.is_some() {
            self.promote();
            return Failover {
                key: Key::FailoverRedis,
                stall: 0,
            };
        }
        *self = Redis::networked(None);
        Failover {
            key: Key::FailoverRedisRestart,
            stall: 0,
        }
    }

    fn holds(&self, now: Tick, claim: &Claim<'_>) -> bool {
        claim.token.is_some_and(|t| self.held_by(now, t).is_some())
    }

    fn expires_in(&self, now: Tick, claim: &Claim<'_>) -> Option<i64> {
        let e = self.held_by(now, claim.token?)?;
        e.expire_at.map(|t| t as i64 - now as i64)
    }

    fn watches(&self) -> Vec<Watch> {
        Vec::new()
    }

    fn replica(&self) -> Option<crate::services::ReplicaState> {
        // Writes not yet applied (SELECT, MULTI/EXEC and GETACK are not writes).
        let behind = |r: &super::Replica| {
            r.stream
                .iter()
                .filter(|(_, w)| super::replication::is_data(w))
                .count()
        };
        self.replica
            .as_ref()
            .map(|r| crate::services::ReplicaState {
                lag: r.lag,
                behind: self.pair_behind().unwrap_or_else(|| behind(r)),
                cut: r.link_cut,
            })
    }

    fn entries(&self, now: Tick) -> Vec<KeyRow> {
        let mut rows = self.rows(now, &self.db, false);
        if let Some(rep) = &self.replica {
            rows.extend(self.rows(now, &rep.db, true));
        }
        rows
    }

    fn stamp(&self) -> Option<(&'static str, i64)> {
        None
    }

    fn servers(&self) -> Vec<crate::services::ServerInfo> {
        self.server_list()
    }
    fn serving(&self, _: ConnId) -> crate::services::ServerId {
        self.primary_id()
    }
    fn peer(
        &mut self,
        now: Tick,
        _: crate::services::ServerId,
        to: crate::services::ServerId,
        m: Peer,
        out: &mut Out,
    ) -> Narration {
        let before = self.keys_now();
        let name = format!("redis-{}", to + 1);
        match self.stream_in(to, &m) {
            Arrival::Applied => {}
            Arrival::Gap => return Narration::new(Key::PeerGap, None).a(name),
            Arrival::NotReplica => return Narration::new(Key::PeerDropped, None).a(name),
        }
        Redis::tick(self, now);
        self.diff(before, out);
        Narration::new(Key::PeerApplied, None)
            .a(name)
            .b(Detail::Text(m.label().trim_start_matches("⇢ ").to_string()))
    }
    fn peer_lost(
        &mut self,
        _: Tick,
        _: crate::services::ServerId,
        _: crate::services::ServerId,
        _: &Peer,
    ) {
        self.stream_lost();
    }
    fn crash_server(
        &mut self,
        _: Tick,
        s: crate::services::ServerId,
        _: &mut Out,
    ) -> Option<Narration> {
        let before = self.keys_now();
        let name = format!("redis-{}", s + 1);
        if !self.crash(s) {
            return Some(
                Narration::new(Key::NotApplicable, None)
                    .a(format!("crashing {name} (not running)")),
            );
        }
        let gone: Vec<String> = before
            .into_iter()
            .filter(|k| !self.keys_now().contains(k))
            .collect();
        Some(
            Narration::new(Key::ServerCrash, None)
                .a(name)
                .b(Detail::Nodes(gone)),
        )
    }
    fn restart_server(
        &mut self,
        now: Tick,
        s: crate::services::ServerId,
        keep_disk: bool,
        out: &mut Out,
    ) -> Option<Narration> {
        let name = format!("redis-{}", s + 1);
        if !self.restart(s, keep_disk) {
            return Some(
                Narration::new(Key::NotApplicable, None).a(format!("restarting {name} (not down)")),
            );
        }
        self.send_stream(now, out);
        let key = match keep_disk {
            true => Key::ServerRestartDisk,
            false => Key::ServerRestart,
        };
        Some(Narration::new(key, None).a(name))
    }
    fn pause_server(&mut self, s: crate::services::ServerId, until: Tick) {
        if let Some(p) = self.pair.as_mut().filter(|_| s < 2) {
            let i = usize::from(s);
            p.paused[i] = p.paused[i].max(until);
        }
    }
    fn peer_label(m: &Peer) -> String {
        m.label()
    }
    fn peer_wire(m: &Peer) -> crate::services::Wire {
        let (offset, cmds) = match m {
            Peer::Stream { offset, cmds } => (offset, cmds),
            Peer::FullSync { offset, keys } => {
                return crate::services::Wire::default()
                    .with("op", "FULLRESYNC")
                    .with("offset", offset.to_string())
                    .with("keys", keys.len().to_string())
            }
        };
        let stream: Vec<String> = cmds.iter().map(|c| label(c)).collect();
        crate::services::Wire::default()
            .with("op", "replication stream")
            .with("offset", offset.to_string())
            .with("commands", stream.join("; "))
    }

    fn up_label(m: &Up) -> String {
        label(m)
    }
    fn down_label(m: &Reply) -> String {
        m.render()
    }
    fn up_wire(m: &Up) -> crate::services::Wire {
        let (op, args) = label(m)
            .split_once(' ')
            .map_or((label(m), String::new()), |(a, b)| {
                (a.to_string(), b.to_string())
            });
        crate::services::Wire::default()
            .with("op", op)
            .with("args", args)
    }
    fn down_wire(m: &Reply) -> crate::services::Wire {
        crate::services::Wire::default().with("reply", m.render())
    }
}

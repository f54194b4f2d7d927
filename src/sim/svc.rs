//! The world's side of the lock services beside ZooKeeper: requests arriving at Redis, etcd or
//! the SQL server, their answers and watch events routed back, expiry timers, hang-ups of
//! crashed clients, failovers, and what each service says about who holds the lock.

use super::narrate::{Detail, Key, Narration};
use super::types::{ClientId, Node, Payload, SvcUp, Tick};
use super::world::{Service, World};
use crate::recipes::wire::{SvcAns, SvcReq};
use crate::recipes::{Recipe, ServiceKind};
use crate::services::etcd::types::WatchMsg;

impl World {
    /// A request (or a hang-up) from client `c` reaches the service.
    pub(super) fn at_svc(&mut self, c: ClientId, m: SvcUp) -> Narration {
        let now = self.now;
        let conn = c as u32;
        let before = self.entries_mark();
        let label = match &m {
            SvcUp::Req(r) => r.label(),
            SvcUp::Hangup => String::new(),
        };
        let (answers, watch): (Vec<(ClientId, SvcAns)>, Vec<WatchMsg>) = match (&mut self.service, m) {
            (Service::Redis(r), SvcUp::Req(SvcReq::Redis(args))) => (vec![(c, SvcAns::Redis(r.command(now, conn, &args)))], Vec::new()),
            (Service::Etcd(e), SvcUp::Req(SvcReq::Etcd(req))) => {
                let (resp, msgs) = e.request(now, conn, &req);
                (vec![(c, SvcAns::Etcd(resp))], msgs)
            }
            (Service::Sql(s), SvcUp::Req(SvcReq::Sql(stmt))) => {
                let out = s.execute(now, conn, stmt);
                (out.into_iter().map(|(k, a)| (k as ClientId, SvcAns::Sql(a))).collect(), Vec::new())
            }
            (service, SvcUp::Hangup) => {
                let unblocked = service_hangup(service, now, conn);
                let gone = self.entries_gone(before);
                self.deleted_now.extend(gone);
                return self.hangup(c, unblocked);
            }
            _ => (Vec::new(), Vec::new()),
        };
        let gone = self.entries_gone(before);
        self.deleted_now.extend(gone);
        let mine = answers.iter().find(|(k, _)| *k == c).map(|(_, a)| a.label());
        self.answer(answers, watch);
        match mine {
            Some(a) => Narration::new(Key::SvcRequest, Some(c)).a(label).b(Detail::Text(a)),
            None => Narration::new(Key::SvcBlocked, Some(c)).a(label),
        }
    }

    fn hangup(&mut self, c: ClientId, unblocked: Vec<(ClientId, SvcAns)>) -> Narration {
        let sql = matches!(self.service, Service::Sql(_));
        self.answer(unblocked, Vec::new());
        let a = if sql { "; it rolls back the open transaction and frees its row locks" } else { "" };
        Narration::new(Key::SvcHangup, Some(c)).a(a)
    }

    /// Sends answers and watch events to their clients.
    fn answer(&mut self, answers: Vec<(ClientId, SvcAns)>, watch: Vec<WatchMsg>) {
        for (k, a) in answers {
            self.send_down_svc(k, a);
        }
        for m in watch {
            self.send_down_svc(m.conn as ClientId, SvcAns::Watch(m));
        }
    }

    fn send_down_svc(&mut self, c: ClientId, a: SvcAns) {
        if c < self.clients.len() && !matches!(a, SvcAns::Watch(_)) && self.net.drop_next_reply.remove(&c) {
            self.send_lost(c, Payload::SvcDown(a));
            return;
        }
        if c < self.clients.len() {
            self.send(Node::Service, Node::Client(c), Payload::SvcDown(a));
        }
    }

    /// The service's own timers: key expiry and replication (Redis), lease expiry (etcd).
    pub(super) fn svc_tick(&mut self) -> Narration {
        let now = self.now;
        let before = self.entries_mark();
        let watch = match &mut self.service {
            Service::Redis(r) => {
                r.tick(now);
                Vec::new()
            }
            Service::Etcd(e) => e.tick(now),
            _ => Vec::new(),
        };
        self.answer(Vec::new(), watch);
        let gone = self.entries_gone(before);
        self.deleted_now.extend(gone.iter().cloned());
        if gone.is_empty() {
            return Narration::new(Key::ServiceTick, None);
        }
        Narration::new(Key::SvcExpiry, None).b(Detail::Nodes(gone))
    }

    /// Where to look for deletions after a request: etcd's revision (its history says what a
    /// revision deleted, without listing every key), or the few Redis keys / SQL rows.
    fn entries_mark(&self) -> (i64, Vec<String>) {
        match &self.service {
            Service::Etcd(e) => (e.store.revision, Vec::new()),
            _ => (0, self.lock_entries()),
        }
    }

    fn entries_gone(&self, (rev, before): (i64, Vec<String>)) -> Vec<String> {
        use crate::services::etcd::types::EventKind;
        match &self.service {
            Service::Etcd(e) => {
                let new = e.store.history.iter().rev().take_while(|(r, _)| *r > rev);
                new.filter(|(_, ev)| ev.kind == EventKind::Delete).map(|(_, ev)| ev.kv.key.clone()).collect()
            }
            _ => {
                let after = self.lock_entries();
                before.into_iter().filter(|k| !after.contains(k)).collect()
            }
        }
    }

    /// Names of the lock entries the service holds now (keys, rows).
    fn lock_entries(&self) -> Vec<String> {
        match &self.service {
            Service::Redis(r) => r.db.keys.keys().cloned().collect(),
            Service::Etcd(e) => e.store.kvs.keys().cloned().collect(),
            Service::Sql(s) => s.rows.keys().cloned().collect(),
            Service::ZooKeeper(_) => Vec::new(),
        }
    }

    pub(super) fn svc_deadline(&self) -> Option<Tick> {
        match &self.service {
            Service::Redis(r) => r.next_deadline(),
            Service::Etcd(e) => e.next_deadline(),
            _ => None,
        }
    }

    /// The lock service fails over (see [`super::Command::Failover`]).
    pub(super) fn failover(&mut self) -> Narration {
        let now = self.now;
        let key = match &mut self.service {
            Service::Redis(r) if r.replica.is_some() => {
                r.promote();
                Key::FailoverRedis
            }
            Service::Redis(r) => {
                *r = crate::services::redis::Redis::new(None);
                Key::FailoverRedisRestart
            }
            Service::Etcd(e) => {
                e.elect(now);
                self.stall_until = now + crate::services::etcd::ELECTION_TIMEOUT_MS;
                Key::FailoverEtcd
            }
            Service::Sql(s) => {
                let answers = s.failover().into_iter().map(|(k, a)| (k as ClientId, SvcAns::Sql(a))).collect();
                self.answer(answers, Vec::new());
                Key::FailoverSql
            }
            // A ZooKeeper election is short next to the session timeout (a tick time here).
            Service::ZooKeeper(s) => {
                self.stall_until = now + s.config().tick_time_ms;
                Key::FailoverZk
            }
        };
        Narration::new(key, None)
    }

    /// Whether the service itself says client `c` holds the lock right now.
    pub fn svc_says_holder(&self, c: ClientId) -> bool {
        let recipe = &self.clients[c].recipe;
        match (&self.service, recipe) {
            (Service::Redis(r), Recipe::Redis(x)) => {
                r.db.keys.get(crate::recipes::redis::KEY).is_some_and(|e| e.value == x.token && !r.db.expired(self.now, crate::recipes::redis::KEY))
            }
            (Service::Etcd(e), Recipe::Etcd(_)) => {
                let first = e.store.kvs.values().filter(|kv| kv.key.starts_with(crate::recipes::etcd::PREFIX)).min_by_key(|kv| kv.create_revision);
                first.is_some_and(|kv| Some(kv.key.as_str()) == recipe.my_node())
            }
            (Service::Sql(s), Recipe::SqlInsert(x)) => s.rows.get(crate::recipes::sql::ROW).is_some_and(|r| r.owner == x.owner && r.expires_at.is_none_or(|t| t >= self.now)),
            (Service::Sql(s), Recipe::SqlRowLock(_)) => s.row_locks.get(crate::recipes::sql::ROW) == Some(&(c as u32)),
            _ => false,
        }
    }

    /// A polling client can never succeed: the lock entry has no expiry and its owner is gone,
    /// or is this very client, which no longer knows it (its acquire reply was lost).
    pub fn svc_stuck(&self, c: ClientId) -> bool {
        let hopeless = |token: &str| match self.clients.iter().find(|o| o.recipe.lock_id().as_deref() == Some(token)) {
            None => true,
            Some(o) if !o.alive() => true,
            Some(o) if o.id == c => o.svc.unanswered.is_empty() && !self.net.busy(Node::Client(c)),
            Some(_) => false,
        };
        match &self.service {
            Service::Redis(r) => r.db.keys.get(crate::recipes::redis::KEY).is_some_and(|e| e.expire_at.is_none() && hopeless(&e.value) && !self.repairs()),
            Service::Sql(s) => s.rows.get(crate::recipes::sql::ROW).is_some_and(|r| r.expires_at.is_none() && r.owner != "-" && hopeless(&r.owner)),
            _ => false,
        }
    }

    fn repairs(&self) -> bool {
        self.clients.iter().any(|o| matches!(&o.recipe, Recipe::Redis(x) if x.repairs()))
    }

    pub fn service_kind(&self) -> ServiceKind {
        match self.service {
            Service::ZooKeeper(_) => ServiceKind::ZooKeeper,
            Service::Redis(_) => ServiceKind::Redis,
            Service::Etcd(_) => ServiceKind::Etcd,
            Service::Sql(_) => ServiceKind::Sql,
        }
    }
}

/// Traffic that goes on forever in the background (keep-alives) or ends a connection: the
/// world counts as quiet with only these in flight.
pub fn background(p: &Payload) -> bool {
    use crate::services::etcd::types::{Req, Resp};
    matches!(p, Payload::SvcUp(SvcUp::Req(SvcReq::Etcd(Req::LeaseKeepAlive { .. })) | SvcUp::Hangup) | Payload::SvcDown(SvcAns::Etcd(Resp::KeepAlive { .. })))
}

/// What the server does when a client's connection closes.
fn service_hangup(service: &mut Service, now: Tick, conn: u32) -> Vec<(ClientId, SvcAns)> {
    match service {
        Service::Redis(r) => {
            r.close(conn);
            Vec::new()
        }
        Service::Etcd(e) => {
            e.close(conn);
            Vec::new()
        }
        Service::Sql(s) => s.disconnect(now, conn).into_iter().map(|(k, a)| (k as ClientId, SvcAns::Sql(a))).collect(),
        Service::ZooKeeper(_) => Vec::new(),
    }
}

//! A Redis 7 server model: one primary keyspace, per-connection MULTI/WATCH state, and an
//! optional replica fed asynchronously (writes arrive `lag` ms later, with absolute expiry
//! times) that can be promoted, losing whatever had not yet arrived.

pub mod commands;
pub mod db;
pub mod replay;
pub mod reply;
pub mod script;
pub mod service;

use std::collections::{BTreeMap, VecDeque};

use serde::{Deserialize, Serialize};

use db::Db;
pub use reply::Reply;
pub use service::{lib, service, Answer, Call, Down, Entry, KeyRow, Lib, Server, Up};

/// A connection's transaction state.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Conn {
    /// Commands queued since MULTI.
    pub multi: Option<Vec<Vec<String>>>,
    /// A queueing error happened: EXEC answers EXECABORT.
    pub dirty: bool,
    pub watched: Vec<Watched>,
}

/// A WATCHed key and what it looked like at WATCH time.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Watched {
    pub key: String,
    pub writes: u64,
    pub expirations: u64,
    pub expired_at_watch: bool,
}

/// An asynchronously replicated replica.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Replica {
    pub db: Db,
    /// Replication stream: (arrival time, write).
    pub stream: VecDeque<(u64, Vec<String>)>,
    pub lag: u64,
    /// The replica process is stopped: writes queue up and arrive when it resumes.
    pub frozen: bool,
    /// The primary cut the replication link: later writes never reach this replica.
    pub link_cut: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Redis {
    pub db: Db,
    pub conns: BTreeMap<u32, Conn>,
    pub replica: Option<Replica>,
}

impl Redis {
    pub fn new(replica_lag: Option<u64>) -> Redis {
        let replica = replica_lag.map(|lag| Replica { db: Db { replica: true, ..Db::default() }, lag, ..Replica::default() });
        Redis { replica, ..Redis::default() }
    }

    /// One command from connection `conn` at server time `now` (ms).
    pub fn command(&mut self, now: u64, conn: u32, args: &[String]) -> Reply {
        let reply = self.dispatch(now, conn, args);
        self.replicate(now);
        reply
    }

    fn dispatch(&mut self, now: u64, conn: u32, args: &[String]) -> Reply {
        let name = args.first().map(|s| s.to_ascii_lowercase()).unwrap_or_default();
        let c = self.conns.entry(conn).or_default();
        if c.multi.is_some() && !matches!(name.as_str(), "exec" | "discard" | "multi" | "watch") {
            return queue(c, args);
        }
        match name.as_str() {
            "multi" if c.multi.is_some() => Reply::err("MULTI calls can not be nested"),
            "multi" => {
                c.multi = Some(Vec::new());
                Reply::ok()
            }
            "watch" if c.multi.is_some() => Reply::err("WATCH inside MULTI is not allowed"),
            "watch" if args.len() < 2 => Reply::arity("watch"),
            "watch" => self.watch(now, conn, &args[1..]),
            "unwatch" => {
                c.watched.clear();
                Reply::ok()
            }
            "discard" if c.multi.is_none() => Reply::err("DISCARD without MULTI"),
            "discard" => {
                *c = Conn::default();
                Reply::ok()
            }
            "exec" if c.multi.is_none() => Reply::err("EXEC without MULTI"),
            "exec" => self.exec(now, conn),
            "replicaof" | "slaveof" => Reply::ok(),
            "client" if args.iter().map(|a| a.to_ascii_lowercase()).eq(["client", "kill", "type", "replica"]) => self.cut_replica_link(),
            _ => commands::run(&mut self.db, now, args),
        }
    }

    fn watch(&mut self, now: u64, conn: u32, keys: &[String]) -> Reply {
        for k in keys {
            let w = Watched {
                key: k.clone(),
                writes: self.db.writes.get(k).copied().unwrap_or(0),
                expirations: self.db.expirations.get(k).copied().unwrap_or(0),
                expired_at_watch: self.db.expired(now, k),
            };
            self.conns.entry(conn).or_default().watched.push(w);
        }
        Reply::ok()
    }

    /// Whether a watched key was touched: any write, or (if it was live at WATCH time) its
    /// expiry, whether already reclaimed or only logical.
    fn touched(&self, now: u64, w: &Watched) -> bool {
        let writes = self.db.writes.get(&w.key).copied().unwrap_or(0);
        let expirations = self.db.expirations.get(&w.key).copied().unwrap_or(0);
        writes != w.writes || (!w.expired_at_watch && (expirations != w.expirations || self.db.expired(now, &w.key)))
    }

    fn exec(&mut self, now: u64, conn: u32) -> Reply {
        let c = self.conns.remove(&conn).unwrap_or_default();
        if c.dirty {
            return Reply::Error("EXECABORT Transaction discarded because of previous errors.".into());
        }
        if c.watched.iter().any(|w| self.touched(now, w)) {
            return Reply::Array(None);
        }
        let queued = c.multi.unwrap_or_default();
        Reply::Array(Some(queued.iter().map(|cmd| commands::run(&mut self.db, now, cmd)).collect()))
    }

    /// The connection closed: its transaction and watches are forgotten.
    pub fn close(&mut self, conn: u32) {
        self.conns.remove(&conn);
    }

    /// A command sent to the replica: reads see its (possibly stale) data; writes are refused.
    pub fn replica_command(&mut self, now: u64, args: &[String]) -> Reply {
        let Some(r) = self.replica.as_mut() else { return Reply::Error("Connection refused".into()) };
        let name = args.first().map(|s| s.to_ascii_lowercase()).unwrap_or_default();
        match name.as_str() {
            "get" | "exists" | "ttl" | "pttl" | "dbsize" => commands::run(&mut r.db, now, args),
            "replicaof" | "slaveof" => {
                self.promote();
                Reply::ok()
            }
            _ => Reply::Error("READONLY You can't write against a read only replica.".into()),
        }
    }

    /// `CLIENT KILL TYPE replica`: the number of replica links killed.
    fn cut_replica_link(&mut self) -> Reply {
        match self.replica.as_mut().filter(|r| !r.link_cut) {
            Some(r) => {
                r.link_cut = true;
                Reply::Int(1)
            }
            None => Reply::Int(0),
        }
    }

    /// Failover: the replica becomes the primary with whatever it had received.
    pub fn promote(&mut self) {
        let Some(r) = self.replica.take() else { return };
        let lag = r.lag;
        self.db = Db { replica: false, ..r.db };
        self.conns.clear();
        self.replica = Some(Replica { db: Db { replica: true, ..Db::default() }, lag, link_cut: true, ..Replica::default() });
    }

    /// Moves the primary's new writes into the replication stream.
    fn replicate(&mut self, now: u64) {
        let out = std::mem::take(&mut self.db.outbox);
        if let Some(r) = self.replica.as_mut().filter(|r| !r.link_cut) {
            r.stream.extend(out.into_iter().map(|w| (now + r.lag, w)));
        }
    }

    /// Server timers: active expiry on the primary, replication arrivals on the replica.
    pub fn tick(&mut self, now: u64) {
        self.db.active_expire(now);
        self.replicate(now);
        if let Some(r) = self.replica.as_mut().filter(|r| !r.frozen) {
            while r.stream.front().is_some_and(|(t, _)| *t <= now) {
                let (_, w) = r.stream.pop_front().unwrap_or_default();
                r.db.apply_replicated(&w);
            }
        }
    }

    pub fn next_deadline(&self) -> Option<u64> {
        let arrival = self.replica.as_ref().filter(|r| !r.frozen).and_then(|r| r.stream.front().map(|(t, _)| *t));
        [self.db.next_expiry(), arrival].into_iter().flatten().min()
    }
}

/// Inside MULTI: queue the command, or mark the transaction failed on an arity error.
fn queue(c: &mut Conn, args: &[String]) -> Reply {
    if let Some(e) = commands::arity_error(args) {
        c.dirty = true;
        return e;
    }
    c.multi.get_or_insert_with(Vec::new).push(args.to_vec());
    Reply::Status("QUEUED".into())
}

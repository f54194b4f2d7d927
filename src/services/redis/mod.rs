//! A Redis 7 server model: one primary keyspace, per-connection MULTI/WATCH state, and an
//! optional replica fed asynchronously (writes arrive `lag` ms later, with absolute expiry
//! times) that can be promoted, losing whatever had not yet arrived.

mod client;
pub mod commands;
mod crash;
pub mod db;
mod glob;
mod keys;
mod lists;
mod lua;
pub mod replay;
mod replication;
pub mod reply;
mod rows;
pub mod script;
pub mod servers;
pub mod service;
mod table;

use crate::sorted::SortedMap;
use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

pub use client::{lib, Lib};
use db::Db;
pub use reply::Reply;
pub use rows::{Entry, KeyRow};
pub use service::{service, Answer, Call, Down, Server, Up};

/// How the view presents Redis: keys with their PTTL in milliseconds.
pub const LOOK: super::look::Look = super::look::Look {
    product: "Redis 7",
    contents: Some(["keys", "键"]),
    entry: ["key", "键"],
    ttl: |ms| Some(format!("PTTL {ms}")),
    end_session: None,
    lane: "Redis",
    lean: false,
    znodes: false,
    peers: true,
    library_wait: 0,
};

/// A connection's transaction state.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Conn {
    /// Commands queued since MULTI.
    pub multi: Option<Vec<Vec<String>>>,
    /// A queueing error happened: EXEC answers EXECABORT.
    pub dirty: bool,
    pub watched: Vec<Watched>,
    /// The replication offset after this connection's last command: what its WAIT waits for.
    pub woff: u64,
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
    /// Bytes of the stream applied, and the offset last acknowledged to the primary (on
    /// REPLCONF GETACK, and once a second: when the clock enters a new second).
    pub offset: u64,
    pub acked: u64,
    pub ack_second: u64,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Redis {
    pub db: Db,
    pub conns: SortedMap<u32, Conn>,
    pub replica: Option<Replica>,
    /// The primary's replication offset (bytes of the stream it produced).
    pub offset: u64,
    /// SELECT has been sent since the start (or the promotion).
    pub selected: bool,
    /// A blocked WAIT asked for REPLCONF GETACK, sent once the command is done.
    pub getack: bool,
    /// In the simulator: two servers, the replication stream sent as messages.
    pub pair: Option<servers::Pair>,
}

impl Redis {
    pub fn new(replica_lag: Option<u64>) -> Redis {
        let replica = replica_lag.map(|lag| Replica {
            db: Db {
                replica: true,
                ..Db::default()
            },
            lag,
            ..Replica::default()
        });
        Redis {
            replica,
            ..Redis::default()
        }
    }

    /// One command from connection `conn` at server time `now` (ms), answered at once. A
    /// blocking command (BLPOP, WAIT) gets the answer it would get when it stops blocking:
    /// no other client can act in between here (the simulated recipes send neither).
    pub fn command(&mut self, now: u64, conn: u32, args: &[String]) -> Reply {
        self.command_at(now, conn, args).0
    }

    /// One command and the time its answer leaves (later than `now` for BLPOP or WAIT that block).
    pub fn command_at(&mut self, now: u64, conn: u32, args: &[String]) -> (Reply, u64) {
        let (reply, at) = self.dispatch(now, conn, args);
        self.wrap_transaction();
        self.replicate(now);
        self.conns.entry(conn).or_default().woff = self.offset;
        self.send_getack(now);
        (reply, at)
    }

    fn dispatch(&mut self, now: u64, conn: u32, args: &[String]) -> (Reply, u64) {
        let name = args
            .first()
            .map(|s| s.to_ascii_lowercase())
            .unwrap_or_default();
        let c = self.conns.entry(conn).or_default();
        if c.multi.is_some() && !matches!(name.as_str(), "exec" | "discard" | "multi" | "watch") {
            return (queue(c, args), now);
        }
        if let Some(e) = table::arity_error(args) {
            return (e, now);
        }
        match name.as_str() {
            "blpop" => match lists::blpop(&mut self.db, now, args) {
                Ok(reply) => (reply, now),
                Err(0) => (
                    Reply::err(
                        "Lockstep cannot block for ever: no other client can push meanwhile here",
                    ),
                    now,
                ),
                Err(ms) => (Reply::Array(None), now + ms),
            },
            "wait" => self.wait(now, conn, args, true),
            _ => (self.run(now, conn, args), now),
        }
    }

    /// Every command but the blocking ones (and inside EXEC, where they do not block).
    fn run(&mut self, now: u64, conn: u32, args: &[String]) -> Reply {
        let name = args[0].to_ascii_lowercase();
        let c = self.conns.entry(conn).or_default();
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
            "client"
                if args
                    .iter()
                    .map(|a| a.to_ascii_lowercase())
                    .eq(["client", "kill", "type", "replica"]) =>
            {
                self.cut_replica_link()
            }
            "role" => self.role(),
            "wait" => self.wait(now, conn, args, false).0,
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
        writes != w.writes
            || (!w.expired_at_watch
                && (expirations != w.expirations || self.db.expired(now, &w.key)))
    }

    fn exec(&mut self, now: u64, conn: u32) -> Reply {
        let c = self.conns.remove(&conn).unwrap_or_default();
        self.conns.insert(
            conn,
            Conn {
                woff: c.woff,
                ..Conn::default()
            },
        );
        if c.dirty {
            return Reply::Error(
                "EXECABORT Transaction discarded because of previous errors.".into(),
            );
        }
        if c.watched.iter().any(|w| self.touched(now, w)) {
            return Reply::Array(None);
        }
        let queued = c.multi.unwrap_or_default();
        Reply::Array(Some(
            queued.iter().map(|cmd| self.run(now, conn, cmd)).collect(),
        ))
    }

    /// The connection closed: its transaction and watches are forgotten.
    pub fn close(&mut self, conn: u32) {
        self.conns.remove(&conn);
    }

    /// A command sent to the replica: reads see its (possibly stale) data, scripts run until
    /// they write, its own script cache answers; writes are refused.
    pub fn replica_command(&mut self, now: u64, args: &[String]) -> Reply {
        if let Some(e) = table::arity_error(args) {
            return e;
        }
        let role = self.replica_role();
        let Some(r) = self.replica.as_mut() else {
            return Reply::Error("Connection refused".into());
        };
        match args[0].to_ascii_lowercase().as_str() {
            "replicaof" | "slaveof" => {
                self.promote();
                Reply::ok()
            }
            "role" => role,
            "wait" => Reply::err(
                "WAIT cannot be used with replica instances. Please also note that since Redis 4.0 if a replica is configured to be writable (which is not the default) writes to replicas are just local and are not propagated.",
            ),
            "eval" | "evalsha" => script::eval(&mut r.db, now, args, true),
            "multi" | "exec" | "discard" | "watch" | "unwatch" | "client" => Reply::err("Lockstep models no transactions or CLIENT on the replica"),
            name if table::is_write(name) => table::readonly(),
            _ => commands::run(&mut r.db, now, args),
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

    /// Failover: the replica becomes the primary with whatever it had received (its offset and
    /// its own script cache too); its first write sends SELECT again.
    pub fn promote(&mut self) {
        let Some(r) = self.replica.take() else { return };
        let lag = r.lag;
        self.db = Db {
            replica: false,
            ..r.db
        };
        self.conns.clear();
        self.offset = r.offset;
        self.selected = false;
        self.replica = Some(Replica {
            db: Db {
                replica: true,
                ..Db::default()
            },
            lag,
            link_cut: true,
            ..Replica::default()
        });
    }

    /// Server timers: active expiry on the primary, replication arrivals on the replica.
    pub fn tick(&mut self, now: u64) {
        self.db.active_expire(now);
        self.replicate(now);
        self.replica_tick(now);
    }

    pub fn next_deadline(&self) -> Option<u64> {
        let arrival = self
            .replica
            .as_ref()
            .filter(|r| !r.frozen)
            .and_then(|r| r.stream.front().map(|(t, _)| *t));
        [self.db.next_expiry(), arrival, self.stream_due()]
            .into_iter()
            .flatten()
            .min()
            .map(|t| t.max(self.primary_paused_until()))
    }
}

/// Inside MULTI: queue the command, or mark the transaction failed on an arity error.
fn queue(c: &mut Conn, args: &[String]) -> Reply {
    if let Some(e) = table::arity_error(args) {
        c.dirty = true;
        return e;
    }
    c.multi.get_or_insert_with(Vec::new).push(args.to_vec());
    Reply::Status("QUEUED".into())
}

//! Asynchronous replication as Redis 7.0 runs it: the stream of propagated commands (SELECT
//! before the first, MULTI/EXEC around a command that propagated several), the replication
//! offset in bytes of that stream, the replica applying it and acknowledging (on REPLCONF
//! GETACK and once a second), WAIT's answer, and ROLE.

use super::db::{Db, Value};
use super::reply::{parse_int, Reply};
use super::Redis;

/// The addresses of the recordings' primary and replica (ROLE names them).
pub const PRIMARY: (&str, u16) = ("127.0.0.1", 21811);
pub const REPLICA: (&str, u16) = ("127.0.0.1", 21812);

const GETACK: [&str; 3] = ["REPLCONF", "GETACK", "*"];

/// Bytes of a command in RESP: `*n\r\n` then `$len\r\narg\r\n` per word.
pub fn resp_len(cmd: &[String]) -> u64 {
    let head = 3 + cmd.len().to_string().len();
    let body: usize = cmd
        .iter()
        .map(|a| 5 + a.len().to_string().len() + a.len())
        .sum();
    (head + body) as u64
}

/// A write the replica applies (not SELECT, MULTI, EXEC or REPLCONF): what "behind" counts.
pub fn is_data(cmd: &[String]) -> bool {
    !matches!(
        cmd.first().map(String::as_str),
        Some("SELECT" | "MULTI" | "EXEC" | "REPLCONF")
    )
}

fn words(cmd: &[&str]) -> Vec<String> {
    cmd.iter().map(|s| s.to_string()).collect()
}

impl Redis {
    /// After a command: several propagated writes go out as one MULTI/EXEC transaction.
    pub(super) fn wrap_transaction(&mut self) {
        if self.db.outbox.len() > 1 {
            self.db.outbox.insert(0, words(&["MULTI"]));
            self.db.outbox.push(words(&["EXEC"]));
        }
    }

    /// Moves the primary's propagated commands into the replication stream. Without any
    /// replica there is no backlog and the offset stays put, as on a server that never had one.
    pub(super) fn replicate(&mut self, now: u64) {
        let mut out = std::mem::take(&mut self.db.outbox);
        let Some(r) = self.replica.as_mut() else {
            return;
        };
        if out.is_empty() {
            return;
        }
        if !self.selected && out.iter().any(|c| is_data(c)) {
            out.insert(0, words(&["SELECT", "0"]));
            self.selected = true;
        }
        if self.pair.is_some() {
            let start = self.offset;
            self.offset += out.iter().map(|w| resp_len(w)).sum::<u64>();
            if !r.link_cut {
                self.stream_out(now, start, out);
            }
            return;
        }
        for w in out {
            self.offset += resp_len(&w);
            if !r.link_cut {
                r.stream.push_back((now + r.lag, w));
            }
        }
    }

    /// Replication arrivals on the replica, and its once-a-second acknowledgement.
    pub(super) fn replica_tick(&mut self, now: u64) {
        let Some(r) = self.replica.as_mut().filter(|r| !r.frozen) else {
            return;
        };
        while r.stream.front().is_some_and(|(t, _)| *t <= now) {
            let (_, w) = r.stream.pop_front().unwrap_or_default();
            if w.first().is_some_and(|c| c == "REPLCONF") {
                r.acked = r.offset;
            }
            apply(&mut r.db, &w);
            r.offset += resp_len(&w);
        }
        if !r.link_cut && now / 1000 > r.ack_second {
            r.acked = r.offset;
            r.ack_second = now / 1000;
        }
    }

    /// Replicas connected and acknowledged up to `offset` (0 or 1).
    fn acks(&self, offset: u64) -> i64 {
        i64::from(
            self.replica
                .as_ref()
                .is_some_and(|r| !r.link_cut && r.acked >= offset),
        )
    }

    /// WAIT numreplicas timeout: the answer and when it is given. Already enough acknowledged
    /// (or inside MULTI): at once. Otherwise the server asks its replicas (REPLCONF GETACK,
    /// sent after the command) and answers when enough have acknowledged or the timeout passes.
    pub(super) fn wait(
        &mut self,
        now: u64,
        conn: u32,
        args: &[String],
        blocking: bool,
    ) -> (Reply, u64) {
        let Some(want) = parse_int(&args[1]) else {
            return (Reply::not_int(), now);
        };
        let Some(timeout) = parse_int(&args[2]) else {
            return (Reply::err("timeout is not an integer or out of range"), now);
        };
        if timeout < 0 {
            return (Reply::err("timeout is negative"), now);
        }
        let woff = self.conns.get(&conn).map_or(0, |c| c.woff);
        let acked = self.acks(woff);
        if acked >= want || !blocking {
            return (Reply::Int(acked), now);
        }
        self.getack = true;
        // The replica answers GETACK when it arrives, having applied everything before it.
        let timeout = timeout as u64;
        let answer = self
            .replica
            .as_ref()
            .filter(|r| !r.link_cut && !r.frozen)
            .map(|r| now + r.lag);
        let answer = answer.filter(|t| timeout == 0 || *t <= now + timeout);
        let count = if answer.is_some() { 1 } else { acked };
        match answer {
            Some(t) if count >= want => (Reply::Int(count), t),
            _ if timeout == 0 => (
                Reply::err("Lockstep cannot wait for ever: not enough replicas will acknowledge"),
                now,
            ),
            _ => (Reply::Int(count), now + timeout),
        }
    }

    /// Sends the REPLCONF GETACK a blocked WAIT asked for (Redis does it before sleeping).
    pub(super) fn send_getack(&mut self, now: u64) {
        if std::mem::take(&mut self.getack) {
            self.db.outbox.push(words(&GETACK));
            self.replicate(now);
        }
    }

    /// ROLE on the primary: its offset and each connected replica's address and acknowledged offset.
    pub(super) fn role(&self) -> Reply {
        let bulk = |s: String| Reply::Bulk(Some(s));
        let replicas = self.replica.iter().filter(|r| !r.link_cut);
        let listed = replicas.map(|r| {
            Reply::Array(Some(vec![
                bulk(REPLICA.0.into()),
                bulk(REPLICA.1.to_string()),
                bulk(r.acked.to_string()),
            ]))
        });
        Reply::Array(Some(vec![
            bulk("master".into()),
            Reply::Int(self.offset as i64),
            Reply::Array(Some(listed.collect())),
        ]))
    }

    /// ROLE on the replica: its primary, the link's state and the offset it has processed.
    pub(super) fn replica_role(&self) -> Reply {
        let Some(r) = &self.replica else {
            return Reply::Array(None);
        };
        let bulk = |s: &str| Reply::Bulk(Some(s.into()));
        let (state, offset) = if r.link_cut {
            ("connect", -1)
        } else {
            ("connected", r.offset as i64)
        };
        Reply::Array(Some(vec![
            bulk("slave"),
            bulk(PRIMARY.0),
            Reply::Int(PRIMARY.1.into()),
            bulk(state),
            Reply::Int(offset),
        ]))
    }
}

/// Applies a replicated command (names in any case, as clients and scripts sent them) on a
/// replica, which sees expired keys as present (the primary's DEL removes them).
pub fn apply(db: &mut Db, cmd: &[String]) {
    let arg = |i: usize| cmd.get(i).cloned().unwrap_or_default();
    let key = arg(1);
    let exists = db.keys.contains_key(&key);
    let name = arg(0).to_ascii_uppercase();
    match name.as_str() {
        "SET" => {
            let opts: Vec<String> = cmd.iter().skip(3).map(|s| s.to_ascii_uppercase()).collect();
            let has = |o: &str| opts.iter().any(|x| x == o);
            if (has("NX") && exists) || (has("XX") && !exists) {
                return;
            }
            let pxat = opts
                .iter()
                .position(|o| o == "PXAT")
                .and_then(|i| cmd.get(i + 4))
                .and_then(|t| t.parse().ok());
            let keep = db
                .keys
                .get(&key)
                .and_then(|e| e.expire_at)
                .filter(|_| has("KEEPTTL"));
            db.set(&key, &arg(2), pxat.or(keep));
        }
        "SETNX" if !exists => db.set(&key, &arg(2), None),
        "DEL" => {
            for k in &cmd[1..] {
                if db.keys.remove(k).is_some() {
                    db.touch(k);
                }
            }
        }
        "PEXPIREAT" => db.set_expiry(&key, arg(2).parse().ok()),
        "PERSIST" => db.set_expiry(&key, None),
        "INCR" => {
            let e = db.keys.get(&key);
            let n = e.and_then(|e| e.str()).and_then(parse_int).unwrap_or(0);
            let ttl = e.and_then(|e| e.expire_at);
            db.set(&key, &(n + 1).to_string(), ttl);
        }
        "MSET" => {
            for pair in cmd[1..].chunks(2) {
                db.set(&pair[0], pair.get(1).map_or("", String::as_str), None);
            }
        }
        "LPUSH" | "RPUSH" | "LPOP" | "RPOP" => apply_list(db, &name, cmd),
        _ => {}
    }
}

fn apply_list(db: &mut Db, name: &str, cmd: &[String]) {
    let key = &cmd[1];
    let (mut list, ttl) = match db.keys.get(key) {
        Some(e) => (
            if let Value::List(l) = &e.value {
                l.clone()
            } else {
                Default::default()
            },
            e.expire_at,
        ),
        None => (Default::default(), None),
    };
    match name {
        "LPUSH" => cmd[2..].iter().for_each(|v| list.push_front(v.clone())),
        "RPUSH" => cmd[2..].iter().for_each(|v| list.push_back(v.clone())),
        pop => {
            let n = cmd
                .get(2)
                .and_then(|c| c.parse::<usize>().ok())
                .unwrap_or(1);
            for _ in 0..n {
                if pop == "LPOP" {
                    list.pop_front()
                } else {
                    list.pop_back()
                };
            }
        }
    }
    if list.is_empty() {
        db.keys.remove(key);
        db.touch(key);
    } else {
        db.put(key, Value::List(list), ttl);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(s: &str) -> Vec<String> {
        s.split(' ').map(String::from).collect()
    }

    #[test]
    fn resp_lengths_match_redis_offsets() {
        assert_eq!(resp_len(&w("SELECT 0")), 23);
        assert_eq!(resp_len(&w("SET lock tokA PXAT 1700000000000")), 63);
        assert_eq!(resp_len(&w("REPLCONF GETACK *")), 37);
        assert_eq!(resp_len(&w("DEL lock")), 23);
        assert_eq!(resp_len(&w("MULTI")) + resp_len(&w("EXEC")), 29);
    }

    #[test]
    fn script_effects_reach_the_replica_and_count_in_the_offsets() {
        let mut r = Redis::new(Some(1));
        let cad = super::super::lua::COMPARE_AND_DELETE;
        let run = |r: &mut Redis, now: u64, args: &[&str]| {
            r.command(
                now,
                1,
                &args.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            )
        };
        run(
            &mut r,
            1_700_000_000_000,
            &["SET", "lock", "t", "NX", "PX", "30000"],
        );
        r.tick(1_700_000_000_001);
        assert!(r
            .replica
            .as_ref()
            .is_some_and(|x| x.db.keys.contains_key("lock")));
        assert_eq!(
            run(&mut r, 1_700_000_000_001, &["EVAL", cad, "1", "lock", "t"]),
            Reply::Int(1)
        );
        r.tick(1_700_000_000_002);
        let x = r.replica.as_ref().unwrap();
        assert!(x.db.keys.is_empty(), "the script's DEL was applied");
        // SELECT 0, SET lock t PXAT <13 digits>, DEL lock.
        assert_eq!((r.offset, x.offset), (23 + 60 + 23, 23 + 60 + 23));
    }

    #[test]
    fn the_replica_applies_what_the_primary_propagates() {
        let mut db = Db {
            replica: true,
            ..Db::default()
        };
        for c in [
            "SET a 1 PXAT 5",
            "SETNX b 2",
            "SETNX b 3",
            "incr b",
            "RPUSH q x y",
            "lpop q",
            "MSET c 1 d 2",
            "del c d",
            "set e 1",
            "SET e 2 KEEPTTL",
        ] {
            apply(&mut db, &w(c));
        }
        let show: Vec<(String, String, Option<u64>)> = db
            .keys
            .iter()
            .map(|(k, e)| (k.clone(), e.display(), e.expire_at))
            .collect();
        let want = [
            ("a", "1", Some(5)),
            ("b", "3", None),
            ("e", "2", None),
            ("q", "[y]", None),
        ];
        assert_eq!(
            show,
            want.map(|(k, v, t)| (k.to_string(), v.to_string(), t))
        );
    }
}

//! The Redis 7 string and expiry commands lock recipes use, with Redis's argument checks, reply
//! types, TTL rules (a plain SET clears the TTL, a failed NX keeps it, TTL rounds to nearest) and
//! what each propagates to replicas; `run` dispatches every keyspace command.

use super::db::{wrongtype, Db};
use super::reply::{parse_int, Reply};
use super::{keys, lists, script, table};

/// Runs one command against the keyspace at server time `now` (ms), as inside MULTI or a
/// script: BLPOP does not block there.
pub fn run(db: &mut Db, now: u64, args: &[String]) -> Reply {
    if let Some(e) = table::arity_error(args) {
        return e;
    }
    let name = args[0].to_ascii_lowercase();
    let a = |i: usize| args.get(i).map(String::as_str).unwrap_or("");
    match name.as_str() {
        "set" => set(db, now, args),
        "setnx" => setnx(db, now, a(1), a(2)),
        "get" => db.live_str(now, a(1)).map_or_else(|e| e, Reply::Bulk),
        "getset" => getset(db, now, a(1), a(2)),
        "del" => del(db, now, args),
        "exists" => Reply::Int(
            args[1..]
                .iter()
                .filter(|k| db.live(now, k).is_some())
                .count() as i64,
        ),
        "expire" => expire(db, now, args, 1000, "expire"),
        "pexpire" => expire(db, now, args, 1, "pexpire"),
        "ttl" => ttl(db, now, a(1), true),
        "pttl" => ttl(db, now, a(1), false),
        "persist" => persist(db, now, a(1)),
        "incr" => incr(db, now, a(1)),
        "dbsize" => Reply::Int(db.keys.len() as i64),
        // Queued inside MULTI; EXEC unwatches everything anyway.
        "unwatch" => Reply::ok(),
        "eval" | "evalsha" => script::eval(db, now, args, false),
        "script" => script::script(db, args),
        "lpush" | "rpush" | "lpop" | "rpop" | "llen" | "lrange" => lists::run(db, now, args),
        "blpop" => lists::blpop(db, now, args).unwrap_or(Reply::Array(None)),
        _ => keys::run(db, now, args),
    }
}

#[derive(Default)]
struct SetFlags {
    nx: bool,
    xx: bool,
    get: bool,
    keepttl: bool,
    /// (unit multiplier ms, absolute?, raw value)
    expire: Option<(u64, bool, String)>,
}

fn set_flags(args: &[String]) -> Option<SetFlags> {
    let mut f = SetFlags::default();
    let mut i = 3;
    while i < args.len() {
        let opt = args[i].to_ascii_uppercase();
        let next = args.get(i + 1).cloned();
        match opt.as_str() {
            "NX" if !f.xx => f.nx = true,
            "XX" if !f.nx => f.xx = true,
            "GET" => f.get = true,
            "KEEPTTL" if f.expire.is_none() => f.keepttl = true,
            "EX" | "PX" | "EXAT" | "PXAT" if f.expire.is_none() && !f.keepttl && next.is_some() => {
                let unit = if opt.starts_with('E') { 1000 } else { 1 };
                f.expire = Some((unit, opt.ends_with("AT"), next.unwrap_or_default()));
                i += 1;
            }
            _ => return None,
        }
        i += 1;
    }
    Some(f)
}

fn set(db: &mut Db, now: u64, args: &[String]) -> Reply {
    let Some(f) = set_flags(args) else {
        return Reply::syntax();
    };
    let mut expire_at = None;
    if let Some((unit, absolute, raw)) = &f.expire {
        let Some(v) = parse_int(raw) else {
            return Reply::not_int();
        };
        if v <= 0 {
            return Reply::err("invalid expire time in 'set' command");
        }
        let at = (v as u64).checked_mul(*unit).and_then(|ms| {
            if *absolute {
                Some(ms)
            } else {
                now.checked_add(ms)
            }
        });
        match at.filter(|t| *t <= i64::MAX as u64) {
            Some(t) => expire_at = Some(t),
            None => return Reply::err("invalid expire time in 'set' command"),
        }
    }
    let (key, value) = (&args[1], &args[2]);
    let old = db.live(now, key).cloned();
    if f.get && old.as_ref().is_some_and(|e| e.str().is_none()) {
        return wrongtype();
    }
    let old_value = old.as_ref().and_then(|e| e.str().map(String::from));
    if (f.nx && old.is_some()) || (f.xx && old.is_none()) {
        return Reply::Bulk(if f.get { old_value } else { None });
    }
    if f.keepttl {
        expire_at = old.as_ref().and_then(|e| e.expire_at);
    }
    db.set(key, value, expire_at);
    // EX/PX/EXAT go out as `SET k v PXAT ms`; otherwise the command as sent, less GET.
    let pxat = f
        .expire
        .as_ref()
        .is_some_and(|(unit, absolute, _)| *unit == 1 && *absolute);
    match expire_at.filter(|_| f.expire.is_some() && !pxat) {
        Some(t) => db.propagate(&["SET", key, value, "PXAT", &t.to_string()]),
        None if f.get && f.expire.is_none() => {
            let kept: Vec<&String> = args
                .iter()
                .enumerate()
                .filter(|(i, a)| *i < 3 || !a.eq_ignore_ascii_case("get"))
                .map(|(_, a)| a)
                .collect();
            db.propagate(&kept);
        }
        None => db.propagate(args),
    }
    if f.get {
        Reply::Bulk(old_value)
    } else {
        Reply::ok()
    }
}

fn getset(db: &mut Db, now: u64, key: &str, value: &str) -> Reply {
    let old = match db.live_str(now, key) {
        Ok(old) => old,
        Err(e) => return e,
    };
    db.set(key, value, None);
    db.propagate(&["SET", key, value]);
    Reply::Bulk(old)
}

fn del(db: &mut Db, now: u64, args: &[String]) -> Reply {
    let n = args[1..].iter().filter(|k| db.del(now, k)).count();
    if n > 0 {
        db.propagate(args);
    }
    Reply::Int(n as i64)
}

fn setnx(db: &mut Db, now: u64, key: &str, value: &str) -> Reply {
    if db.live(now, key).is_some() {
        return Reply::Int(0);
    }
    db.set(key, value, None);
    db.propagate(&["SETNX", key, value]);
    Reply::Int(1)
}

fn expire_options(args: &[String]) -> Result<[bool; 4], Reply> {
    let mut o = [false; 4]; // NX XX GT LT
    for a in &args[3..] {
        match a.to_ascii_uppercase().as_str() {
            "NX" => o[0] = true,
            "XX" => o[1] = true,
            "GT" => o[2] = true,
            "LT" => o[3] = true,
            _ => return Err(Reply::err(&format!("Unsupported option {a}"))),
        }
    }
    if o[0] && (o[1] || o[2] || o[3]) {
        return Err(Reply::err(
            "NX and XX, GT or LT options at the same time are not compatible",
        ));
    }
    if o[2] && o[3] {
        return Err(Reply::err(
            "GT and LT options at the same time are not compatible",
        ));
    }
    Ok(o)
}

fn expire(db: &mut Db, now: u64, args: &[String], unit: i64, name: &str) -> Reply {
    // Redis parses the options before the number.
    let o = match expire_options(args) {
        Ok(o) => o,
        Err(e) => return e,
    };
    let Some(v) = parse_int(&args[2]) else {
        return Reply::not_int();
    };
    let invalid = || Reply::err(&format!("invalid expire time in '{name}' command"));
    let Some(delta) = v.checked_mul(unit) else {
        return invalid();
    };
    if (now as i64).checked_add(delta).is_none() {
        return invalid();
    }
    let Some(current) = db.live(now, &args[1]).map(|e| e.expire_at) else {
        return Reply::Int(0);
    };
    let when = now as i64 + delta;
    let refused = (o[0] && current.is_some())
        || (o[1] && current.is_none())
        || (o[2] && current.is_none_or(|t| when <= t as i64))
        || (o[3] && current.is_some_and(|t| when >= t as i64));
    if refused {
        return Reply::Int(0);
    }
    if when <= now as i64 {
        db.del(now, &args[1]);
        db.propagate(&["DEL", &args[1]]);
    } else {
        db.set_expiry(&args[1], Some(when as u64));
        db.propagate(&["PEXPIREAT", &args[1], &when.to_string()]);
    }
    Reply::Int(1)
}

fn ttl(db: &mut Db, now: u64, key: &str, seconds: bool) -> Reply {
    match db.live(now, key).map(|e| e.expire_at) {
        None => Reply::Int(-2),
        Some(None) => Reply::Int(-1),
        Some(Some(t)) => {
            let ms = t.saturating_sub(now) as i64;
            Reply::Int(if seconds { (ms + 500) / 1000 } else { ms })
        }
    }
}

fn persist(db: &mut Db, now: u64, key: &str) -> Reply {
    match db.live(now, key).map(|e| e.expire_at) {
        Some(Some(_)) => {
            db.set_expiry(key, None);
            db.propagate(&["PERSIST", key]);
            Reply::Int(1)
        }
        _ => Reply::Int(0),
    }
}

fn incr(db: &mut Db, now: u64, key: &str) -> Reply {
    let entry = db.live(now, key).cloned();
    let current = match &entry {
        None => 0,
        Some(e) => match e.str().map(parse_int) {
            Some(Some(n)) => n,
            Some(None) => return Reply::not_int(),
            None => return wrongtype(),
        },
    };
    let Some(next) = current.checked_add(1) else {
        return Reply::err("increment or decrement would overflow");
    };
    db.set(key, &next.to_string(), entry.and_then(|e| e.expire_at));
    db.propagate(&["INCR", key]);
    Reply::Int(next)
}

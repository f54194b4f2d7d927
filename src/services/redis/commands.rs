//! The Redis 7 string and expiry commands lock recipes use, with Redis's argument checks, reply
//! types and TTL rules (a plain SET clears the TTL, a failed NX keeps it, TTL rounds to nearest).

use super::db::Db;
use super::reply::{parse_int, Reply};

/// Runs one non-transaction command against the keyspace at server time `now` (ms).
pub fn run(db: &mut Db, now: u64, args: &[String]) -> Reply {
    let name = args.first().map(|s| s.to_ascii_lowercase()).unwrap_or_default();
    let a = |i: usize| args.get(i).map(String::as_str).unwrap_or("");
    if let Some(e) = arity_error(args) {
        return e;
    }
    match name.as_str() {
        "set" => set(db, now, args),
        "setnx" => setnx(db, now, a(1), a(2)),
        "get" => Reply::Bulk(db.live(now, a(1)).map(|e| e.value.clone())),
        "getset" => {
            let old = db.live(now, a(1)).map(|e| e.value.clone());
            db.set(a(1), a(2), None);
            Reply::Bulk(old)
        }
        "del" => Reply::Int(args[1..].iter().filter(|k| db.del(now, k)).count() as i64),
        "exists" => Reply::Int(args[1..].iter().filter(|k| db.live(now, k).is_some()).count() as i64),
        "expire" => expire(db, now, args, 1000, "expire"),
        "pexpire" => expire(db, now, args, 1, "pexpire"),
        "ttl" => ttl(db, now, a(1), true),
        "pttl" => ttl(db, now, a(1), false),
        "persist" => persist(db, now, a(1)),
        "incr" => incr(db, now, a(1)),
        "dbsize" => Reply::Int(db.keys.len() as i64),
        // Queued inside MULTI; EXEC unwatches everything anyway.
        "unwatch" => Reply::ok(),
        _ => super::script::eval(db, now, args),
    }
}

/// Redis's command-table checks: unknown command, or wrong number of arguments
/// (positive arity = exact, negative = at least).
pub fn arity_error(args: &[String]) -> Option<Reply> {
    let name = args.first().map(|s| s.to_ascii_lowercase()).unwrap_or_default();
    let arity: i64 = match name.as_str() {
        "set" | "expire" | "pexpire" | "eval" => -3,
        "setnx" | "getset" => 3,
        "get" | "ttl" | "pttl" | "persist" | "incr" => 2,
        "del" | "exists" => -2,
        "dbsize" | "unwatch" => 1,
        _ => return Some(unknown(args)),
    };
    let n = args.len() as i64;
    ((arity > 0 && n != arity) || (arity < 0 && n < -arity)).then(|| Reply::arity(&name))
}

/// `ERR unknown command 'x', with args beginning with: 'a' 'b' ` (Redis 7 wording).
pub fn unknown(args: &[String]) -> Reply {
    let rest: String = args.iter().skip(1).map(|s| format!("'{s}' ")).collect();
    Reply::err(&format!("unknown command '{}', with args beginning with: {rest}", args.first().map(String::as_str).unwrap_or("")))
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
    let Some(f) = set_flags(args) else { return Reply::syntax() };
    let mut expire_at = None;
    if let Some((unit, absolute, raw)) = &f.expire {
        let Some(v) = parse_int(raw) else { return Reply::not_int() };
        if v <= 0 {
            return Reply::err("invalid expire time in 'set' command");
        }
        let at = (v as u64).checked_mul(*unit).and_then(|ms| if *absolute { Some(ms) } else { now.checked_add(ms) });
        match at.filter(|t| *t <= i64::MAX as u64) {
            Some(t) => expire_at = Some(t),
            None => return Reply::err("invalid expire time in 'set' command"),
        }
    }
    let (key, value) = (&args[1], &args[2]);
    let old = db.live(now, key).cloned();
    if (f.nx && old.is_some()) || (f.xx && old.is_none()) {
        return Reply::Bulk(if f.get { old.map(|e| e.value) } else { None });
    }
    if f.keepttl {
        expire_at = old.as_ref().and_then(|e| e.expire_at);
    }
    db.set(key, value, expire_at);
    if f.get {
        Reply::Bulk(old.map(|e| e.value))
    } else {
        Reply::ok()
    }
}

fn setnx(db: &mut Db, now: u64, key: &str, value: &str) -> Reply {
    if db.live(now, key).is_some() {
        return Reply::Int(0);
    }
    db.set(key, value, None);
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
        return Err(Reply::err("NX and XX, GT or LT options at the same time are not compatible"));
    }
    if o[2] && o[3] {
        return Err(Reply::err("GT and LT options at the same time are not compatible"));
    }
    Ok(o)
}

fn expire(db: &mut Db, now: u64, args: &[String], unit: i64, name: &str) -> Reply {
    // Redis parses the options before the number.
    let o = match expire_options(args) {
        Ok(o) => o,
        Err(e) => return e,
    };
    let Some(v) = parse_int(&args[2]) else { return Reply::not_int() };
    let invalid = || Reply::err(&format!("invalid expire time in '{name}' command"));
    let Some(delta) = v.checked_mul(unit) else { return invalid() };
    if (now as i64).checked_add(delta).is_none() {
        return invalid();
    }
    let Some(current) = db.live(now, &args[1]).map(|e| e.expire_at) else { return Reply::Int(0) };
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
    } else {
        db.set_expiry(&args[1], Some(when as u64));
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
            Reply::Int(1)
        }
        _ => Reply::Int(0),
    }
}

fn incr(db: &mut Db, now: u64, key: &str) -> Reply {
    let entry = db.live(now, key).cloned();
    let current = match &entry {
        None => 0,
        Some(e) => match parse_int(&e.value) {
            Some(n) => n,
            None => return Reply::not_int(),
        },
    };
    let Some(next) = current.checked_add(1) else { return Reply::err("increment or decrement would overflow") };
    db.set(key, &next.to_string(), entry.and_then(|e| e.expire_at));
    Reply::Int(next)
}

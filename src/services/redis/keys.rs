//! Commands over the whole keyspace or many keys: KEYS, SCAN, RANDOMKEY, TYPE, MSET, MGET, and
//! the active-expiry switch `DEBUG SET-ACTIVE-EXPIRE`. KEYS skips expired keys without deleting
//! them; SCAN, RANDOMKEY and TYPE delete them (on the primary), as Redis 7.0 does.

use super::db::Db;
use super::glob;
use super::reply::{parse_int, Reply};

fn bulk(s: &str) -> Reply {
    Reply::Bulk(Some(s.to_string()))
}

pub fn run(db: &mut Db, now: u64, args: &[String]) -> Reply {
    let name = args[0].to_ascii_lowercase();
    match name.as_str() {
        "keys" => {
            let hits = db
                .keys
                .keys()
                .filter(|k| !db.expired(now, k) && glob::matches(&args[1], k));
            Reply::Array(Some(hits.map(|k| bulk(k)).collect()))
        }
        "scan" => scan(db, now, args),
        "randomkey" => randomkey(db, now),
        "type" => Reply::Status(db.live(now, &args[1]).map_or("none", |e| e.kind()).into()),
        "mset" => {
            for pair in args[1..].chunks(2) {
                db.set(&pair[0], &pair[1], None);
            }
            db.propagate(args);
            Reply::ok()
        }
        "mget" => {
            let values = args[1..]
                .iter()
                .map(|k| Reply::Bulk(db.live(now, k).and_then(|e| e.str().map(String::from))));
            Reply::Array(Some(values.collect()))
        }
        "debug" => debug(db, args),
        _ => Reply::err(&format!(
            "Lockstep does not model '{}' here",
            args.join(" ")
        )),
    }
}

/// SCAN cursor [MATCH p] [COUNT n] [TYPE t]. Lockstep's keyspaces are small, so the first call
/// returns every key and cursor 0, as Redis does for a small table; a later cursor finds none.
fn scan(db: &mut Db, now: u64, args: &[String]) -> Reply {
    let Ok(cursor) = args[1].parse::<u64>() else {
        return Reply::err("invalid cursor");
    };
    let (mut pattern, mut kind) = (None, None);
    let mut i = 2;
    while i < args.len() {
        let Some(v) = args.get(i + 1) else {
            return Reply::syntax();
        };
        match args[i].to_ascii_lowercase().as_str() {
            "count" => match parse_int(v) {
                None => return Reply::not_int(),
                Some(n) if n < 1 => return Reply::syntax(),
                Some(_) => {}
            },
            "match" => pattern = Some(v.clone()),
            "type" => kind = Some(v.to_ascii_lowercase()),
            _ => return Reply::syntax(),
        }
        i += 2;
    }
    let mut found = Vec::new();
    let candidates: Vec<String> = if cursor == 0 {
        db.keys.keys().cloned().collect()
    } else {
        Vec::new()
    };
    for k in candidates {
        if pattern.as_ref().is_some_and(|p| !glob::matches(p, &k)) {
            continue;
        }
        // The type filter and the expiry check both look the key up, deleting it if expired.
        let Some(e) = db.live(now, &k) else { continue };
        if kind.as_ref().is_some_and(|t| t != e.kind()) {
            continue;
        }
        found.push(bulk(&k));
    }
    Reply::Array(Some(vec![bulk("0"), Reply::Array(Some(found))]))
}

/// RANDOMKEY deletes each expired key it draws and draws again. Lockstep draws in key order,
/// not at random: the answer differs from Redis's only when more than one key is live (or, on
/// a replica whose keys have all expired, where Redis may answer an expired key).
fn randomkey(db: &mut Db, now: u64) -> Reply {
    let keys: Vec<String> = db.keys.keys().cloned().collect();
    for k in keys {
        if db.live(now, &k).is_some() {
            return bulk(&k);
        }
    }
    Reply::Bulk(None)
}

/// `DEBUG SET-ACTIVE-EXPIRE n`: `atoi(n)` zero switches active expiry off, anything else on.
fn debug(db: &mut Db, args: &[String]) -> Reply {
    if !args[1].eq_ignore_ascii_case("set-active-expire") {
        return Reply::err("Lockstep models only DEBUG SET-ACTIVE-EXPIRE");
    }
    if args.len() != 3 {
        return Reply::err(&format!(
            "unknown subcommand or wrong number of arguments for '{}'. Try DEBUG HELP.",
            args[1]
        ));
    }
    db.lazy_only = atoi(&args[2]) == 0;
    Reply::ok()
}

/// C's `atoi`: leading blanks, a sign, then digits up to the first non-digit ("x" is 0).
fn atoi(s: &str) -> i64 {
    let t = s.trim_start();
    let (neg, digits) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let n = digits
        .bytes()
        .take_while(u8::is_ascii_digit)
        .fold(0i64, |n, d| {
            n.wrapping_mul(10).wrapping_add(i64::from(d - b'0'))
        });
    if neg {
        -n
    } else {
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atoi_reads_a_leading_number() {
        assert_eq!(atoi("0"), 0);
        assert_eq!(atoi("2"), 2);
        assert_eq!(atoi("x"), 0);
        assert_eq!(atoi(" -3abc"), -3);
    }
}

//! Redis 7 lists, which blocking lock variants signal through: LPUSH/RPUSH, LPOP/RPOP with an
//! optional count, LLEN, LRANGE and BLPOP, with Redis's argument-check order and WRONGTYPE.

use std::collections::VecDeque;

use super::db::{wrongtype, Db, Value};
use super::reply::{parse_int, Reply};

/// The live list at `key`: `Ok(None)` if there is no key, `Err(WRONGTYPE)` for a string.
fn list(db: &mut Db, now: u64, key: &str) -> Result<Option<VecDeque<String>>, Reply> {
    match db.live(now, key).map(|e| &e.value) {
        None => Ok(None),
        Some(Value::List(l)) => Ok(Some(l.clone())),
        Some(Value::Str(_)) => Err(wrongtype()),
    }
}

/// Stores a list back, keeping its TTL; an empty list deletes the key, as Redis does.
fn store(db: &mut Db, key: &str, l: VecDeque<String>) {
    if l.is_empty() {
        db.keys.remove(key);
        db.touch(key);
        return;
    }
    let ttl = db.keys.get(key).and_then(|e| e.expire_at);
    db.put(key, Value::List(l), ttl);
}

/// LPUSH, RPUSH, LPOP, RPOP, LLEN and LRANGE.
pub fn run(db: &mut Db, now: u64, args: &[String]) -> Reply {
    let name = args[0].to_ascii_lowercase();
    let key = args[1].as_str();
    match name.as_str() {
        "lpush" | "rpush" => {
            let mut l = match list(db, now, key) {
                Ok(l) => l.unwrap_or_default(),
                Err(e) => return e,
            };
            for v in &args[2..] {
                if name == "lpush" {
                    l.push_front(v.clone());
                } else {
                    l.push_back(v.clone());
                }
            }
            let n = l.len();
            store(db, key, l);
            db.propagate(args);
            Reply::Int(n as i64)
        }
        "lpop" | "rpop" => pop(db, now, args, name == "lpop"),
        "llen" => match list(db, now, key) {
            Ok(l) => Reply::Int(l.map_or(0, |l| l.len() as i64)),
            Err(e) => e,
        },
        _ => lrange(db, now, args),
    }
}

fn pop(db: &mut Db, now: u64, args: &[String], left: bool) -> Reply {
    if args.len() > 3 {
        return Reply::arity(&args[0].to_ascii_lowercase());
    }
    let count = match args.get(2).map(|c| parse_int(c).filter(|n| *n >= 0)) {
        None => None,
        Some(Some(n)) => Some(n as usize),
        Some(None) => return Reply::err("value is out of range, must be positive"),
    };
    let key = args[1].as_str();
    let mut l = match list(db, now, key) {
        Err(e) => return e,
        Ok(None) if count.is_some() => return Reply::Array(None),
        Ok(None) => return Reply::Bulk(None),
        Ok(Some(l)) => l,
    };
    if count == Some(0) {
        return Reply::Array(Some(Vec::new()));
    }
    let mut popped = Vec::new();
    while popped.len() < count.unwrap_or(1) {
        match if left { l.pop_front() } else { l.pop_back() } {
            Some(v) => popped.push(Reply::Bulk(Some(v))),
            None => break,
        }
    }
    store(db, key, l);
    db.propagate(args);
    match count {
        Some(_) => Reply::Array(Some(popped)),
        None => popped.pop().unwrap_or(Reply::Bulk(None)),
    }
}

fn lrange(db: &mut Db, now: u64, args: &[String]) -> Reply {
    let (Some(start), Some(stop)) = (parse_int(&args[2]), parse_int(&args[3])) else {
        return Reply::not_int();
    };
    let l = match list(db, now, &args[1]) {
        Ok(l) => l.unwrap_or_default(),
        Err(e) => return e,
    };
    let len = l.len() as i64;
    let from = if start < 0 {
        (len + start).max(0)
    } else {
        start
    };
    let to = if stop < 0 {
        len + stop
    } else {
        stop.min(len - 1)
    };
    if from > to || from >= len {
        return Reply::Array(Some(Vec::new()));
    }
    Reply::Array(Some(
        l.range(from as usize..=to as usize)
            .map(|v| Reply::Bulk(Some(v.clone())))
            .collect(),
    ))
}

/// BLPOP's timeout in milliseconds (seconds as a float, rounded up), or its error.
pub fn timeout_ms(raw: &str) -> Result<u64, Reply> {
    let v = raw.parse::<f64>().ok().filter(|v| !v.is_nan());
    let Some(v) = v else {
        return Err(Reply::err("timeout is not a float or out of range"));
    };
    let ms = (v * 1000.0).ceil();
    // Redis casts to a 64-bit integer: on x86 anything out of range (inf too) becomes negative.
    if !(0.0..9.2e18).contains(&ms) {
        return Err(Reply::err("timeout is negative"));
    }
    Ok(ms as u64)
}

/// BLPOP: `Ok(reply)` when a listed key has an element (or on an error), `Err(ms)` when the
/// client would block for `ms` (0: for ever). Inside MULTI a block answers the null array.
pub fn blpop(db: &mut Db, now: u64, args: &[String]) -> Result<Reply, u64> {
    let ms = match timeout_ms(&args[args.len() - 1]) {
        Ok(ms) => ms,
        Err(e) => return Ok(e),
    };
    for key in &args[1..args.len() - 1] {
        match list(db, now, key) {
            Err(e) => return Ok(e),
            Ok(Some(mut l)) if !l.is_empty() => {
                let v = l.pop_front().unwrap_or_default();
                store(db, key, l);
                db.propagate(&["LPOP", key.as_str()]);
                return Ok(Reply::Array(Some(vec![
                    Reply::Bulk(Some(key.clone())),
                    Reply::Bulk(Some(v)),
                ])));
            }
            Ok(_) => {}
        }
    }
    Err(ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(db: &mut Db, line: &str) -> String {
        let args: Vec<String> = line.split(' ').map(String::from).collect();
        super::super::commands::run(db, 0, &args).render()
    }

    #[test]
    fn lists_push_pop_range_and_vanish_when_empty() {
        let mut db = Db::default();
        assert_eq!(cmd(&mut db, "RPUSH q a b c"), ":3");
        assert_eq!(cmd(&mut db, "LRANGE q -2 100"), "[\"b\", \"c\"]");
        assert_eq!(cmd(&mut db, "RPOP q 2"), "[\"c\", \"b\"]");
        assert_eq!(cmd(&mut db, "LPOP q"), "\"a\"");
        assert!(db.keys.is_empty());
        assert_eq!(cmd(&mut db, "LPOP q 0"), "*-1");
        assert_eq!(db.outbox.len(), 3, "RPUSH, RPOP, LPOP");
    }

    #[test]
    fn blpop_timeouts_round_up_to_milliseconds() {
        assert_eq!(timeout_ms("0.2"), Ok(200));
        assert_eq!(timeout_ms("1e-4"), Ok(1));
        assert_eq!(timeout_ms("-1"), Err(Reply::err("timeout is negative")));
        assert_eq!(timeout_ms("inf"), Err(Reply::err("timeout is negative")));
        assert_eq!(
            timeout_ms("abc"),
            Err(Reply::err("timeout is not a float or out of range"))
        );
    }
}

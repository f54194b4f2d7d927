//! EVAL for the two Lua scripts lock recipes send: compare-and-delete and compare-and-extend.
//! Lockstep has no Lua interpreter: it recognises these scripts by their text (whitespace and
//! quote style ignored) and runs their logic atomically, as Redis runs any script.

use super::db::Db;
use super::reply::{parse_int, Reply};

/// `if redis.call("get",KEYS[1]) == ARGV[1] then return redis.call("del",KEYS[1]) else return 0 end`
pub const COMPARE_AND_DELETE: &str =
    "if redis.call(\"get\",KEYS[1]) == ARGV[1] then\n    return redis.call(\"del\",KEYS[1])\nelse\n    return 0\nend";

/// The same comparison, then `PEXPIRE key ARGV[2]` (lease renewal).
pub const COMPARE_AND_EXTEND: &str =
    "if redis.call(\"get\",KEYS[1]) == ARGV[1] then\n    return redis.call(\"pexpire\",KEYS[1],ARGV[2])\nelse\n    return 0\nend";

fn normal(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).map(|c| if c == '\'' { '"' } else { c }).collect()
}

pub fn eval(db: &mut Db, now: u64, args: &[String]) -> Reply {
    let Some(numkeys) = parse_int(&args[2]) else { return Reply::not_int() };
    if numkeys < 0 {
        return Reply::err("Number of keys can't be negative");
    }
    if numkeys as usize > args.len() - 3 {
        return Reply::err("Number of keys can't be greater than number of args");
    }
    let rest = &args[3..];
    let (keys, argv) = rest.split_at(numkeys as usize);
    let script = normal(&args[1]);
    let delete = script == normal(COMPARE_AND_DELETE);
    if !delete && script != normal(COMPARE_AND_EXTEND) {
        return Reply::err("Lockstep models only the compare-and-delete and compare-and-extend scripts");
    }
    let (Some(key), Some(token)) = (keys.first(), argv.first()) else {
        return Reply::err("Error running script: KEYS[1] or ARGV[1] is nil");
    };
    if db.live(now, key).map(|e| e.value.as_str()) != Some(token.as_str()) {
        return Reply::Int(0);
    }
    if delete {
        return Reply::Int(i64::from(db.del(now, key)));
    }
    let pexpire = vec!["pexpire".to_string(), key.clone(), argv.get(1).cloned().unwrap_or_default()];
    super::commands::run(db, now, &pexpire)
}

//! Replays the Redis, etcd and PostgreSQL scripts recorded from the real servers (tests/services/*) through
//! Lockstep's models and compares every reply.

use std::path::{Path, PathBuf};

fn files(dir: &str, ext: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir).expect("script dir").filter_map(|e| e.ok().map(|e| e.path())).collect();
    v.retain(|p| p.extension().is_some_and(|e| e == ext));
    v.sort();
    v
}

/// Millisecond TTLs read on a real server run a little behind the model's exact clock.
fn close_enough(ours: &str, real: &str) -> bool {
    if ours == real {
        return true;
    }
    let (Some((lo, lr)), Some((_, rr))) = (ours.rsplit_once(" -> :"), real.rsplit_once(" -> :")) else { return false };
    let (Ok(a), Ok(b)) = (lr.parse::<i64>(), rr.parse::<i64>()) else { return false };
    lo.contains(" PTTL ") && a >= b && a - b <= 150
}

fn compare(name: &str, ours: &[String], expected: &str) -> Vec<String> {
    let real: Vec<&str> = expected.lines().collect();
    let mut diffs = Vec::new();
    for (i, r) in real.iter().enumerate() {
        let o = ours.get(i).map(String::as_str).unwrap_or("<missing>");
        if !close_enough(o, r) {
            diffs.push(format!("{name} line {}:\n  model: {o}\n  real:  {r}", i + 1));
        }
    }
    diffs
}

#[test]
fn redis_scripts_match_redis_7() {
    let scripts = files("tests/services/redis", "redis");
    assert!(scripts.len() >= 5);
    let mut diffs = Vec::new();
    for s in &scripts {
        let expected = std::fs::read_to_string(s.with_extension("expected")).expect("expected file");
        let ours = lockstep::services::redis::replay::run(&std::fs::read_to_string(s).unwrap());
        diffs.extend(compare(&s.file_name().unwrap().to_string_lossy(), &ours, &expected));
    }
    assert!(diffs.is_empty(), "{} replies differ from Redis 7:\n{}", diffs.len(), diffs.join("\n"));
}

#[test]
fn etcd_scripts_match_etcd_3_4() {
    let scripts = files("tests/services/etcd", "etcd");
    assert!(scripts.len() >= 7);
    let mut diffs = Vec::new();
    for s in &scripts {
        let expected = std::fs::read_to_string(s.with_extension("expected")).expect("expected file");
        let ours = lockstep::services::etcd::replay::run(&std::fs::read_to_string(s).unwrap());
        diffs.extend(compare(&s.file_name().unwrap().to_string_lossy(), &ours, &expected));
    }
    assert!(diffs.is_empty(), "{} answers differ from etcd 3.4:\n{}", diffs.len(), diffs.join("\n"));
}

#[test]
fn sql_scripts_match_postgresql_15() {
    let scripts = files("tests/services/sql", "pgsql");
    assert!(scripts.len() >= 2);
    let mut diffs = Vec::new();
    for s in &scripts {
        let expected = std::fs::read_to_string(s.with_extension("expected")).expect("expected file");
        let ours = lockstep::services::sql::replay::run(&std::fs::read_to_string(s).unwrap());
        diffs.extend(compare(&s.file_name().unwrap().to_string_lossy(), &ours, &expected));
    }
    assert!(diffs.is_empty(), "{} answers differ from PostgreSQL 15:\n{}", diffs.len(), diffs.join("\n"));
}

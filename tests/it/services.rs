//! Replays the Redis, etcd and PostgreSQL scripts recorded from the real servers (tests/services/*) through
//! Lockstep's models and compares every reply.

use std::path::{Path, PathBuf};

fn files(dir: &str, ext: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("script dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    v.retain(|p| p.extension().is_some_and(|e| e == ext));
    v.sort();
    v
}

/// Millisecond TTLs read on a real server run a little behind the model's exact clock.
fn close_enough(ours: &str, real: &str) -> bool {
    if ours == real {
        return true;
    }
    let (Some((lo, lr)), Some((_, rr))) = (ours.rsplit_once(" -> :"), real.rsplit_once(" -> :"))
    else {
        return false;
    };
    let (Ok(a), Ok(b)) = (lr.parse::<i64>(), rr.parse::<i64>()) else {
        return false;
    };
    lo.contains(" PTTL ") && a >= b && a - b <= 150
}

fn compare(name: &str, ours: &[String], expected: &str) -> Vec<String> {
    let real: Vec<&str> = expected.lines().collect();
    let mut diffs = Vec::new();
    for (i, r) in real.iter().enumerate() {
        let o = ours.get(i).map(String::as_str).unwrap_or("<missing>");
        if !close_enough(o, r) {
            diffs.push(format!(
                "{name} line {}:\n  model: {o}\n  real:  {r}",
                i + 1
            ));
        }
    }
    diffs
}

/// Replays every script in `dir` with `run` and asserts each line matches the recording.
fn check(dir: &str, ext: &str, at_least: usize, server: &str, run: fn(&str) -> Vec<String>) {
    let scripts = files(dir, ext);
    assert!(
        scripts.len() >= at_least,
        "{dir}: {} scripts",
        scripts.len()
    );
    let mut diffs = Vec::new();
    for s in &scripts {
        let expected =
            std::fs::read_to_string(s.with_extension("expected")).expect("expected file");
        let ours = run(&std::fs::read_to_string(s).unwrap());
        diffs.extend(compare(
            &s.file_name().unwrap().to_string_lossy(),
            &ours,
            &expected,
        ));
    }
    assert!(
        diffs.is_empty(),
        "{} answers differ from {server}:\n{}",
        diffs.len(),
        diffs.join("\n")
    );
}

#[test]
fn redis_scripts_match_redis_7() {
    check(
        "tests/services/redis",
        "redis",
        10,
        "Redis 7",
        lockstep::services::redis::replay::run,
    );
}

#[test]
fn etcd_scripts_match_etcd_3_4() {
    check(
        "tests/services/etcd",
        "etcd",
        7,
        "etcd 3.4",
        lockstep::services::etcd::replay::run,
    );
}

#[test]
fn sql_scripts_match_postgresql_15() {
    check(
        "tests/services/sql",
        "pgsql",
        2,
        "PostgreSQL 15",
        lockstep::services::sql::replay::run,
    );
}

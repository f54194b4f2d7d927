//! Replays a recorded Redis script (tests/services/redis/*.redis) through the model and renders
//! each command line as `<line> -> <reply>`, the format the recorder writes from a real server.

use super::{script, Redis};

/// Replication lag the replay assumes: a loopback replica receives writes within a millisecond.
const REPLAY_LAG_MS: u64 = 1;

fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for ch in line.chars() {
        match ch {
            '"' | '\'' => quoted = !quoted,
            c if c.is_whitespace() && !quoted => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Runs a script; the output has one line per input line.
pub fn run(text: &str) -> Vec<String> {
    let mut redis = Redis::new(Some(REPLAY_LAG_MS));
    // A wall-clock time in ms, 13 digits as Redis's own (PXAT values count in replication offsets).
    let (mut now, mut promoted) = (1_700_000_000_000u64, false);
    let mut out = Vec::new();
    for raw in text.lines() {
        let line = raw.trim();
        redis.tick(now);
        if line.is_empty() || line.starts_with('#') {
            out.push(raw.to_string());
            continue;
        }
        if let Some(ms) = line.strip_prefix("sleep ") {
            now += ms.trim().parse::<u64>().unwrap_or(0);
            redis.tick(now);
            out.push(line.to_string());
            continue;
        }
        if line.starts_with('!') {
            directive(&mut redis, line);
            out.push(line.to_string());
            continue;
        }
        let mut args = words(line);
        let who = args.remove(0);
        for a in &mut args {
            *a = match a.as_str() {
                "$CAD" => script::COMPARE_AND_DELETE.to_string(),
                "$EXTEND" => script::COMPARE_AND_EXTEND.to_string(),
                "$RL_LOCK" => script::REDLOCK_LOCK.to_string(),
                "$RL_UNLOCK" => script::REDLOCK_UNLOCK.to_string(),
                "$RL_EXTEND" => script::REDLOCK_EXTEND.to_string(),
                _ => std::mem::take(a),
            };
        }
        let conn = who.bytes().next().unwrap_or(b'A') as u32;
        let reply = if who == "R" && !promoted {
            promoted = args
                .first()
                .is_some_and(|a| a.eq_ignore_ascii_case("replicaof"));
            redis.replica_command(now, &args)
        } else {
            // A command that blocks (WAIT, BLPOP) answers later: the script's clock moves on.
            let (reply, at) = redis.command_at(now, conn, &args);
            now = at;
            reply
        };
        out.push(format!("{line} -> {}", reply.render()));
    }
    out
}

fn directive(redis: &mut Redis, line: &str) {
    let Some(r) = redis.replica.as_mut() else {
        return;
    };
    match line {
        "!freeze-replica" => r.frozen = true,
        "!resume-replica" => r.frozen = false,
        // The primary is gone; whatever had not reached the replica never will.
        _ => r.link_cut = true,
    }
}

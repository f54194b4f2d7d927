//! The Lua scripts lock clients send, which Lockstep recognises by their text (whitespace and
//! quote style ignored) and runs as Rust: compare-and-delete, compare-and-extend, and
//! node-redlock 4.2's lock, unlock and extend. Each `redis.call` runs the real command; its
//! error is raised tagged with the script's SHA1 and line, as Redis 7.0 words it.

use super::db::Db;
use super::reply::Reply;
use super::{commands, table};

/// `if redis.call("get",KEYS[1]) == ARGV[1] then return redis.call("del",KEYS[1]) else return 0 end`
pub const COMPARE_AND_DELETE: &str =
    "if redis.call(\"get\",KEYS[1]) == ARGV[1] then\n    return redis.call(\"del\",KEYS[1])\nelse\n    return 0\nend";

/// The same comparison, then `PEXPIRE key ARGV[2]` (lease renewal).
pub const COMPARE_AND_EXTEND: &str =
    "if redis.call(\"get\",KEYS[1]) == ARGV[1] then\n    return redis.call(\"pexpire\",KEYS[1],ARGV[2])\nelse\n    return 0\nend";

/// node-redlock 4.2.0's `lockScript`: 0 if any key exists, else `SET key ARGV[1] PX ARGV[2]`
/// for every key and the number of keys.
pub const REDLOCK_LOCK: &str = "\n\t-- Return 0 if an entry already exists.\n\tfor i, key in ipairs(KEYS) do\n\t\tif redis.call(\"exists\", key) == 1 then\n\t\t\treturn 0\n\t\tend\n\tend\n\n\t-- Create an entry for each provided key.\n\tfor i, key in ipairs(KEYS) do\n\t\tredis.call(\"set\", key, ARGV[1], \"PX\", ARGV[2])\n\tend\n\n\t-- Return the number of entries added.\n\treturn #KEYS\n";

/// node-redlock 4.2.0's `unlockScript`: deletes (with `pcall`) every key holding ARGV[1] and
/// counts them.
pub const REDLOCK_UNLOCK: &str = "\n\tlocal count = 0\n\tfor i, key in ipairs(KEYS) do\n\t\t-- Only remove entries for *this* lock value.\n\t\tif redis.call(\"get\", key) == ARGV[1] then\n\t\t\tredis.pcall(\"del\", key)\n\t\t\tcount = count + 1\n\t\tend\n\tend\n\n\t-- Return the number of entries removed.\n\treturn count\n";

/// node-redlock 4.2.0's `extendScript`: 0 if any key holds another value (or none), else
/// `SET key ARGV[1] PX ARGV[2]` for every key and the number of keys.
pub const REDLOCK_EXTEND: &str = "\n\t-- Return 0 if an entry exists with a *different* lock value.\n\tfor i, key in ipairs(KEYS) do\n\t\tif redis.call(\"get\", key) ~= ARGV[1] then\n\t\t\treturn 0\n\t\tend\n\tend\n\n\t-- Update the entry for each provided key.\n\tfor i, key in ipairs(KEYS) do\n\t\tredis.call(\"set\", key, ARGV[1], \"PX\", ARGV[2])\n\tend\n\n\t-- Return the number of entries updated.\n\treturn #KEYS\n";

/// A script Lockstep knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Known {
    CompareAndDelete,
    CompareAndExtend,
    RedlockLock,
    RedlockUnlock,
    RedlockExtend,
}

fn normal(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| if c == '\'' { '"' } else { c })
        .collect()
}

/// Which known script this text is, if any.
pub fn recognise(text: &str) -> Option<Known> {
    let t = normal(text);
    let all = [
        (COMPARE_AND_DELETE, Known::CompareAndDelete),
        (COMPARE_AND_EXTEND, Known::CompareAndExtend),
        (REDLOCK_LOCK, Known::RedlockLock),
        (REDLOCK_UNLOCK, Known::RedlockUnlock),
        (REDLOCK_EXTEND, Known::RedlockExtend),
    ];
    all.into_iter()
        .find(|(s, _)| normal(s) == t)
        .map(|(_, k)| k)
}

/// A running script: its text and SHA1 (for error messages), and whether it runs on a
/// read-only replica (a write there is refused).
pub struct Ctx<'a> {
    pub db: &'a mut Db,
    pub now: u64,
    pub text: &'a str,
    pub sha: &'a str,
    pub readonly: bool,
}

impl Ctx<'_> {
    /// The 1-based line of the first `"cmd"` in the script (where its call is).
    fn line(&self, cmd: &str) -> usize {
        let text = self.text.replace('\'', "\"");
        let at = text.find(&format!("\"{cmd}\"")).unwrap_or(0);
        1 + text[..at].matches('\n').count()
    }

    fn tag(&self, cmd: &str, e: Reply) -> Reply {
        match e {
            Reply::Error(msg) => Reply::Error(format!(
                "{msg} script: {}, on @user_script:{}.",
                self.sha,
                self.line(cmd)
            )),
            other => other,
        }
    }

    /// `redis.pcall(...)`: the command's reply, an error included (`nil` arguments are refused).
    pub fn pcall(&mut self, args: &[Option<&str>]) -> Reply {
        let cmd = args[0].unwrap_or_default();
        let Some(words) = args
            .iter()
            .map(|a| a.map(String::from))
            .collect::<Option<Vec<String>>>()
        else {
            return self.tag(
                cmd,
                Reply::err("Lua redis lib command arguments must be strings or integers"),
            );
        };
        if self.readonly && table::is_write(cmd) {
            return self.tag(cmd, table::readonly());
        }
        let reply = commands::run(self.db, self.now, &words);
        if reply.is_error() {
            return self.tag(cmd, reply);
        }
        reply
    }

    /// `redis.call(...)`: as `pcall`, but an error ends the script.
    pub fn call(&mut self, args: &[Option<&str>]) -> Result<Reply, Reply> {
        let reply = self.pcall(args);
        if reply.is_error() {
            return Err(reply);
        }
        Ok(reply)
    }
}

/// Lua's `redis.call("get", key) == ARGV[1]`: false (no key) never equals, nor does nil.
fn same(v: &Reply, token: Option<&str>) -> bool {
    matches!((v, token), (Reply::Bulk(Some(s)), Some(t)) if s == t)
}

/// Runs a known script; `Err` is the error that ended it (its writes so far stay, as in Redis).
pub fn run(
    known: Known,
    ctx: &mut Ctx<'_>,
    keys: &[String],
    argv: &[String],
) -> Result<Reply, Reply> {
    let key1 = keys.first().map(String::as_str);
    let arg = |i: usize| argv.get(i).map(String::as_str);
    match known {
        Known::CompareAndDelete | Known::CompareAndExtend => {
            let v = ctx.call(&[Some("get"), key1])?;
            if !same(&v, arg(0)) {
                return Ok(Reply::Int(0));
            }
            if known == Known::CompareAndDelete {
                ctx.call(&[Some("del"), key1])
            } else {
                ctx.call(&[Some("pexpire"), key1, arg(1)])
            }
        }
        Known::RedlockLock | Known::RedlockExtend => {
            for k in keys {
                let taken = if known == Known::RedlockLock {
                    ctx.call(&[Some("exists"), Some(k)])? == Reply::Int(1)
                } else {
                    !same(&ctx.call(&[Some("get"), Some(k)])?, arg(0))
                };
                if taken {
                    return Ok(Reply::Int(0));
                }
            }
            for k in keys {
                ctx.call(&[Some("set"), Some(k), arg(0), Some("PX"), arg(1)])?;
            }
            Ok(Reply::Int(keys.len() as i64))
        }
        Known::RedlockUnlock => {
            let mut count = 0;
            for k in keys {
                if same(&ctx.call(&[Some("get"), Some(k)])?, arg(0)) {
                    ctx.pcall(&[Some("del"), Some(k)]);
                    count += 1;
                }
            }
            Ok(Reply::Int(count))
        }
    }
}

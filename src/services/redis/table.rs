//! Redis 7.0's command table for the commands Lockstep models: arity (checked before anything
//! else, also when MULTI queues a command) and whether a replica refuses the command as a write.

use super::reply::Reply;

/// (arity, write): positive arity = exact word count, negative = at least that many.
fn spec(name: &str) -> Option<(i64, bool)> {
    let s = match name {
        "get" | "ttl" | "pttl" | "persist" | "llen" | "type" | "keys" => (2, false),
        "incr" => (2, true),
        "setnx" | "getset" => (3, true),
        "wait" | "replicaof" | "slaveof" => (3, false),
        "lrange" => (4, false),
        "set" | "expire" | "pexpire" | "mset" | "lpush" | "rpush" | "blpop" => (-3, true),
        "del" | "lpop" | "rpop" => (-2, true),
        "exists" | "mget" | "scan" | "watch" | "script" | "debug" | "client" => (-2, false),
        "eval" | "evalsha" => (-3, false),
        "dbsize" | "unwatch" | "randomkey" | "role" | "multi" | "exec" | "discard" => (1, false),
        _ => return None,
    };
    Some(s)
}

/// Redis's command-table checks: unknown command, or wrong number of arguments.
pub fn arity_error(args: &[String]) -> Option<Reply> {
    let name = args
        .first()
        .map(|s| s.to_ascii_lowercase())
        .unwrap_or_default();
    let Some((arity, _)) = spec(&name) else {
        return Some(unknown(args));
    };
    let n = args.len() as i64;
    let wrong =
        (arity > 0 && n != arity) || (arity < 0 && n < -arity) || (name == "mset" && n % 2 == 0);
    wrong.then(|| Reply::arity(&name))
}

/// A command a read-only replica refuses (`-READONLY`).
pub fn is_write(name: &str) -> bool {
    spec(&name.to_ascii_lowercase()).is_some_and(|(_, w)| w)
}

/// `ERR unknown command 'x', with args beginning with: 'a' 'b' ` (Redis 7 wording).
pub fn unknown(args: &[String]) -> Reply {
    let rest: String = args.iter().skip(1).map(|s| format!("'{s}' ")).collect();
    Reply::err(&format!(
        "unknown command '{}', with args beginning with: {rest}",
        args.first().map(String::as_str).unwrap_or("")
    ))
}

/// `-READONLY You can't write against a read only replica.`
pub fn readonly() -> Reply {
    Reply::Error("READONLY You can't write against a read only replica.".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split(' ').map(String::from).collect()
    }

    #[test]
    fn arity_counts_words_and_mset_pairs() {
        assert_eq!(arity_error(&words("GET a")), None);
        assert_eq!(arity_error(&words("GET a b")), Some(Reply::arity("get")));
        assert_eq!(
            arity_error(&words("MSET a 1 b")),
            Some(Reply::arity("mset"))
        );
        assert_eq!(arity_error(&words("MSET a 1 b 2")), None);
        assert_eq!(arity_error(&words("LRANGE q 0 -1")), None);
        assert!(arity_error(&words("FOO x"))
            .is_some_and(|r| r.render().contains("unknown command 'FOO'")));
        assert!(
            is_write("LPUSH") && is_write("blpop") && !is_write("EVALSHA") && !is_write("lrange")
        );
    }
}

//! EVAL, EVALSHA and SCRIPT over a server's script cache. Lockstep has no Lua interpreter: it
//! runs only the scripts `lua` recognises, and refuses any other text (at EVAL or SCRIPT LOAD)
//! with a clear error. The cache is keyed by the SHA1 of the exact text, as Redis's is.

use super::db::Db;
use super::lua::{self, Ctx};
use super::reply::{parse_int, Reply};

pub use super::lua::{
    COMPARE_AND_DELETE, COMPARE_AND_EXTEND, REDLOCK_EXTEND, REDLOCK_LOCK, REDLOCK_UNLOCK,
};

/// The SHA1 of a script's text, in lowercase hex (what SCRIPT LOAD answers).
pub fn sha1_hex(text: &str) -> String {
    sha1_smol::Sha1::from(text.as_bytes()).digest().to_string()
}

fn refused() -> Reply {
    Reply::err("Lockstep runs only the compare-and-delete and compare-and-extend scripts and node-redlock 4.2's lock, unlock and extend scripts")
}

fn noscript() -> Reply {
    Reply::Error("NOSCRIPT No matching script. Please use EVAL.".into())
}

/// Caches a recognised script under its SHA1; `None` if Lockstep cannot run it.
fn load(db: &mut Db, text: &str) -> Option<String> {
    lua::recognise(text)?;
    let sha = sha1_hex(text);
    db.scripts.insert(sha.clone(), text.to_string());
    Some(sha)
}

/// EVAL script numkeys key… arg… and EVALSHA sha1 numkeys …: the key count is checked first,
/// then the cache (EVAL adds its script to it), then the script runs. `readonly`: on a replica.
pub fn eval(db: &mut Db, now: u64, args: &[String], readonly: bool) -> Reply {
    let Some(numkeys) = parse_int(&args[2]) else {
        return Reply::not_int();
    };
    if numkeys > (args.len() - 3) as i64 {
        return Reply::err("Number of keys can't be greater than number of args");
    }
    if numkeys < 0 {
        return Reply::err("Number of keys can't be negative");
    }
    let (sha, text) = if args[0].eq_ignore_ascii_case("evalsha") {
        let sha = args[1].to_ascii_lowercase();
        match db.scripts.get(&sha) {
            Some(text) => (sha, text.clone()),
            None => return noscript(),
        }
    } else {
        match load(db, &args[1]) {
            Some(sha) => (sha, args[1].clone()),
            None => return refused(),
        }
    };
    let Some(known) = lua::recognise(&text) else {
        return refused();
    };
    let (keys, argv) = args[3..].split_at(numkeys as usize);
    let mut ctx = Ctx {
        db,
        now,
        text: &text,
        sha: &sha,
        readonly,
    };
    lua::run(known, &mut ctx, keys, argv).unwrap_or_else(|e| e)
}

/// SCRIPT LOAD | EXISTS | FLUSH [ASYNC|SYNC] | KILL, with Redis 7.0's subcommand errors.
pub fn script(db: &mut Db, args: &[String]) -> Reply {
    let sub = args[1].to_ascii_lowercase();
    let arity = |ok: bool| (!ok).then(|| Reply::arity(&format!("script|{sub}")));
    match sub.as_str() {
        "load" => arity(args.len() == 3).unwrap_or_else(|| {
            load(db, &args[2]).map_or_else(refused, |sha| Reply::Bulk(Some(sha)))
        }),
        "exists" => arity(args.len() >= 3).unwrap_or_else(|| {
            let known = args[2..]
                .iter()
                .map(|s| Reply::Int(i64::from(db.scripts.contains_key(&s.to_ascii_lowercase()))));
            Reply::Array(Some(known.collect()))
        }),
        "flush" => arity(args.len() <= 3).unwrap_or_else(|| {
            if args.get(2).is_some_and(|m| {
                !m.eq_ignore_ascii_case("async") && !m.eq_ignore_ascii_case("sync")
            }) {
                return Reply::err("SCRIPT FLUSH only support SYNC|ASYNC option");
            }
            db.scripts.clear();
            Reply::ok()
        }),
        "kill" => arity(args.len() == 2)
            .unwrap_or_else(|| Reply::Error("NOTBUSY No scripts in execution right now.".into())),
        "help" | "debug" => Reply::err("Lockstep models only SCRIPT LOAD, EXISTS, FLUSH and KILL"),
        _ => Reply::err(&format!(
            "unknown subcommand '{}'. Try SCRIPT HELP.",
            args[1]
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(parts: &[&str]) -> Vec<String> {
        parts.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn shas_are_those_redis_and_node_redlock_compute() {
        assert_eq!(
            sha1_hex(COMPARE_AND_DELETE),
            "647c65a442733a1aa440f99908d249d13b4d6c4a"
        );
        assert_eq!(
            sha1_hex(COMPARE_AND_EXTEND),
            "1bfbb99810d66d9ea59b16336fdf07c12b8be9fc"
        );
        assert_eq!(
            sha1_hex(REDLOCK_LOCK),
            "e5a322e2634ef59a516e8ea150cb085afafee684"
        );
        assert_eq!(
            sha1_hex(REDLOCK_UNLOCK),
            "0f0f23b9048b36752b5be114f357ba083449f908"
        );
        assert_eq!(
            sha1_hex(REDLOCK_EXTEND),
            "ce46f80993d5dac20dd066eb301a4e37994bdbed"
        );
    }

    #[test]
    fn the_cache_fills_by_load_and_eval_and_empties_by_flush() {
        let mut db = Db::default();
        let sha = "647c65a442733a1aa440f99908d249d13b4d6c4a";
        assert_eq!(
            eval(
                &mut db,
                0,
                &words(&["EVALSHA", sha, "1", "lock", "t"]),
                false
            ),
            noscript()
        );
        assert_eq!(
            script(&mut db, &words(&["SCRIPT", "LOAD", COMPARE_AND_DELETE])),
            Reply::Bulk(Some(sha.into()))
        );
        let upper = sha.to_ascii_uppercase();
        assert_eq!(
            script(&mut db, &words(&["SCRIPT", "EXISTS", &upper, "abc"])).render(),
            "[:1, :0]"
        );
        assert_eq!(script(&mut db, &words(&["SCRIPT", "FLUSH"])), Reply::ok());
        assert!(db.scripts.is_empty());
        // EVAL caches what it runs, even with a different layout (a new SHA, the same script).
        let respaced = COMPARE_AND_DELETE.replace('"', "'").replace("\n    ", " ");
        assert_eq!(
            eval(
                &mut db,
                0,
                &words(&["EVAL", &respaced, "1", "lock", "t"]),
                false
            ),
            Reply::Int(0)
        );
        assert!(db.scripts.contains_key(&sha1_hex(&respaced)));
        assert_eq!(db.scripts.len(), 1);
    }

    #[test]
    fn other_scripts_are_refused_and_not_cached() {
        let mut db = Db::default();
        assert_eq!(
            script(&mut db, &words(&["SCRIPT", "LOAD", "return 1"])),
            refused()
        );
        assert_eq!(
            eval(&mut db, 0, &words(&["EVAL", "return 1", "0"]), false),
            refused()
        );
        assert!(db.scripts.is_empty());
    }
}

//! How Redlock's traffic reads on the stage: a script is named by what it does (`‹lock›`)
//! rather than its 40-digit SHA1 or its text, the random value is shortened, and the full
//! command stays in the message's wire view.

use super::Up;
use crate::services::api::Wire;
use crate::services::redis::script::{sha1_hex, REDLOCK_EXTEND, REDLOCK_LOCK, REDLOCK_UNLOCK};
use crate::services::redis::Reply;

/// The library's scripts: text, SHA1 (hashed once) and what each does.
fn scripts() -> &'static [(&'static str, String, &'static str); 3] {
    static SCRIPTS: std::sync::OnceLock<[(&str, String, &str); 3]> = std::sync::OnceLock::new();
    SCRIPTS.get_or_init(|| {
        [
            (REDLOCK_LOCK, "lock"),
            (REDLOCK_UNLOCK, "unlock"),
            (REDLOCK_EXTEND, "extend"),
        ]
        .map(|(t, n)| (t, sha1_hex(t), n))
    })
}

/// The library's script a text or SHA1 names, by what it does.
pub fn script_name(text_or_sha: &str) -> Option<&'static str> {
    scripts()
        .iter()
        .find(|(t, sha, _)| *t == text_or_sha || sha.eq_ignore_ascii_case(text_or_sha))
        .map(|(_, _, n)| *n)
}

/// A long value (a lock's 32-digit random value) shortened to its first 6 characters
/// ("3f9a1c…").
fn short(v: &str) -> String {
    match (v.chars().count() > 12, v.char_indices().nth(6)) {
        (true, Some((i, _))) => format!("{}…", &v[..i]),
        _ => v.to_string(),
    }
}

/// "EVALSHA ‹lock› locks:m 3f9a1c… 10000" (other commands word for word, scripts `<script>`).
pub fn label(cmd: &[String]) -> String {
    if cmd.is_empty() {
        return "connect".into();
    }
    let op = cmd.first().map(String::as_str).unwrap_or("");
    let script = match cmd.get(1) {
        Some(s) if op.eq_ignore_ascii_case("evalsha") || op.eq_ignore_ascii_case("eval") => s,
        _ => return crate::services::redis::service::label(&cmd.to_vec()),
    };
    let name = script_name(script).map_or("<script>".to_string(), |n| format!("‹{n}›"));
    let rest: Vec<String> = cmd.iter().skip(3).map(|a| short(a)).collect();
    format!("{op} {name} {}", rest.join(" "))
}

/// A reply as the stage shows it (`:1`, `-NOSCRIPT …`).
pub fn reply_label(r: &Reply) -> String {
    match r {
        Reply::Error(e) => format!("-{}", e.split(' ').next().unwrap_or("ERR")),
        _ => r.render(),
    }
}

/// The command in full: the master, the operation, every argument (a script's text as its
/// SHA1, which is what identifies it).
pub fn up_wire(m: &Up) -> Wire {
    let args: Vec<String> = m
        .cmd
        .iter()
        .skip(1)
        .map(|a| match a.contains('\n') {
            true => match scripts().iter().find(|(t, _, _)| t == a) {
                Some((_, sha, _)) => format!("<script sha1 {sha}>"),
                None => format!("<script sha1 {}>", sha1_hex(a)),
            },
            false => a.clone(),
        })
        .collect();
    Wire::default()
        .with("to", super::Redlock::name(m.to))
        .with("op", m.cmd.first().cloned().unwrap_or_default())
        .with("args", args.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(w: &[&str]) -> Vec<String> {
        w.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn scripts_are_named_by_text_and_by_sha() {
        let sha = sha1_hex(REDLOCK_LOCK);
        let l = label(&words(&[
            "EVALSHA",
            &sha,
            "1",
            "locks:m",
            "0123456789abcdef0123",
            "10000",
        ]));
        assert_eq!(l, "EVALSHA ‹lock› locks:m 012345… 10000");
        let l = label(&words(&["EVAL", REDLOCK_UNLOCK, "1", "locks:m", "ab"]));
        assert_eq!(l, "EVAL ‹unlock› locks:m ab");
        assert_eq!(label(&words(&["GET", "k"])), "GET k");
        let e = Reply::Error("NOSCRIPT No matching script. Please use EVAL.".into());
        assert_eq!(reply_label(&e), "-NOSCRIPT");
    }
}

/// "“lock” on redis-1 and redis-3" / "redis-1、redis-3 上的“lock”": the keys a tick expired,
/// each with the masters whose clocks ran it out.
pub fn expired(gone: &crate::sorted::SortedMap<String, Vec<String>>) -> [String; 2] {
    let en: Vec<String> = gone
        .iter()
        .map(|(k, on)| format!("“{k}” on {}", on.join(", ")))
        .collect();
    let zh: Vec<String> = gone
        .iter()
        .map(|(k, on)| format!("{}上的“{k}”", on.join("、")))
        .collect();
    [en.join("; "), zh.join("；")]
}

//! Redis's wire words as redis-cli prints them: an integer reply `:1` reads 1, a status reply
//! `+OK` reads OK, a nil (`$-1`, `*-1`) reads nil. The stage and the step's sentence both speak
//! this way; the records keep the wire form (what the server sent, and what traces hash).

/// The redis-cli form of a RESP wire word, or `None` if `w` is not one.
pub fn cli_word(w: &str) -> Option<&str> {
    if matches!(w, "$-1" | "*-1") {
        return Some("nil");
    }
    let rest = w.get(1..).filter(|r| !r.is_empty())?;
    let digits = rest
        .strip_prefix('-')
        .unwrap_or(rest)
        .bytes()
        .all(|b| b.is_ascii_digit());
    let status = rest.bytes().all(|b| b.is_ascii_uppercase());
    ((w.starts_with(':') && digits) || (w.starts_with('+') && status)).then_some(rest)
}

/// `text` with every RESP wire word in its redis-cli form (words split at spaces; an array's
/// brackets and commas stay: `[:1, $-1]` reads `[1, nil]`).
pub fn cli_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, w) in text.split(' ').enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let open = w.len() - w.trim_start_matches('[').len();
        let core = w[open..].trim_end_matches([']', ',']);
        out.push_str(&w[..open]);
        out.push_str(cli_word(core).unwrap_or(core));
        out.push_str(&w[open + core.len()..]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_words_read_as_redis_cli_prints_them() {
        assert_eq!(
            cli_text("redis-1 :1 +OK $-1 *-1 :-1"),
            "redis-1 1 OK nil nil -1"
        );
        for w in [
            ":", "+", ":x", "+Ok", "-ERR", "\"v\"", "[:1,", ":--1", "::1",
        ] {
            assert_eq!(cli_word(w), None, "{w}");
        }
    }
}

//! Redis replies (RESP2 types) and their one-line rendering used by goldens and narration.

use serde::{Deserialize, Serialize};

/// One RESP2 reply.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Reply {
    /// `+OK`, `+QUEUED`.
    Status(String),
    /// `:n`.
    Int(i64),
    /// A bulk string, or the null bulk `$-1`.
    Bulk(Option<String>),
    /// An array, or the null array `*-1` (an EXEC aborted by WATCH).
    Array(Option<Vec<Reply>>),
    /// `-ERR …`, `-EXECABORT …` (the text after the dash).
    Error(String),
}

impl Reply {
    pub fn ok() -> Reply {
        Reply::Status("OK".into())
    }

    pub fn err(msg: &str) -> Reply {
        Reply::Error(format!("ERR {msg}"))
    }

    pub fn syntax() -> Reply {
        Reply::err("syntax error")
    }

    pub fn not_int() -> Reply {
        Reply::err("value is not an integer or out of range")
    }

    pub fn arity(cmd: &str) -> Reply {
        Reply::err(&format!("wrong number of arguments for '{cmd}' command"))
    }

    /// `+OK`, `:1`, `"v"`, `$-1`, `*-1`, `[a, b]`, `-ERR …`.
    pub fn render(&self) -> String {
        match self {
            Reply::Status(s) => format!("+{s}"),
            Reply::Int(n) => format!(":{n}"),
            Reply::Bulk(Some(s)) => format!("\"{s}\""),
            Reply::Bulk(None) => "$-1".into(),
            Reply::Array(None) => "*-1".into(),
            Reply::Array(Some(v)) => format!(
                "[{}]",
                v.iter().map(Reply::render).collect::<Vec<_>>().join(", ")
            ),
            Reply::Error(e) => format!("-{e}"),
        }
    }

    pub fn is_error(&self) -> bool {
        matches!(self, Reply::Error(_))
    }
}

/// Parses a decimal integer the way Redis's `string2ll` does (no spaces, no plus sign).
pub fn parse_int(s: &str) -> Option<i64> {
    if s.starts_with('+')
        || s.is_empty()
        || (s.len() > 1 && s.starts_with('0'))
        || s.starts_with("-0")
    {
        return None;
    }
    s.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_every_reply_shape() {
        let v = Reply::Array(Some(vec![Reply::Int(1), Reply::Bulk(None), Reply::ok()]));
        assert_eq!(v.render(), "[:1, $-1, +OK]");
        assert_eq!(Reply::Array(None).render(), "*-1");
        assert_eq!(Reply::syntax().render(), "-ERR syntax error");
        assert_eq!(Reply::Bulk(Some("t".into())).render(), "\"t\"");
    }

    #[test]
    fn integers_parse_strictly() {
        assert_eq!(parse_int("30000"), Some(30000));
        assert_eq!(parse_int("-5"), Some(-5));
        assert_eq!(parse_int("0"), Some(0));
        assert_eq!(parse_int("abc"), None);
        assert_eq!(parse_int("+1"), None);
        assert_eq!(parse_int("01"), None);
    }
}

//! Compact JSON written by hand, byte for byte as serde_json's `to_string` writes the same
//! values (strings escaped as it escapes them, no spaces), for what the pages write: a
//! scenario in a link, a link's commands and the exported run (`sim::scenario_json::write`).
//! serde_json's writer and the derived serializers were about 4 KB gzip of each page; the
//! tests hold the two writers to the same bytes.

use std::fmt::Write as _;

/// A JSON text being written.
#[derive(Default)]
pub struct Writer {
    pub out: String,
    /// Whether the next item needs a comma before it (one came before it in its container).
    comma: bool,
}

impl Writer {
    /// A comma before every item of a container but the first.
    fn item(&mut self) {
        if self.comma {
            self.out.push(',');
        }
        self.comma = true;
    }

    /// Opens a list (`[`) or a map (`{`).
    pub fn open(&mut self, c: char) -> &mut Self {
        self.item();
        self.out.push(c);
        self.comma = false;
        self
    }

    /// Closes a list (`]`) or a map (`}`).
    pub fn close(&mut self, c: char) -> &mut Self {
        self.out.push(c);
        self.comma = true;
        self
    }

    /// A map's key and its colon; its value comes next.
    pub fn key(&mut self, k: &str) -> &mut Self {
        self.string(k);
        self.out.push(':');
        self.comma = false;
        self
    }

    pub fn string(&mut self, s: &str) -> &mut Self {
        self.item();
        self.out.push('"');
        for c in s.chars() {
            match c {
                '"' => self.out.push_str("\\\""),
                '\\' => self.out.push_str("\\\\"),
                '\n' => self.out.push_str("\\n"),
                '\r' => self.out.push_str("\\r"),
                '\t' => self.out.push_str("\\t"),
                '\u{8}' => self.out.push_str("\\b"),
                '\u{c}' => self.out.push_str("\\f"),
                c if c < ' ' => {
                    let _ = write!(self.out, "\\u{:04x}", c as u32);
                }
                c => self.out.push(c),
            }
        }
        self.out.push('"');
        self
    }

    /// A number, `true`, `false` or `null`: any text that needs no escaping.
    pub fn plain(&mut self, v: impl std::fmt::Display) -> &mut Self {
        self.item();
        let _ = write!(self.out, "{v}");
        self
    }

    /// `null` for `None`, else what `some` writes.
    pub fn option<T>(&mut self, v: &Option<T>, some: impl FnOnce(&mut Self, &T)) -> &mut Self {
        match v {
            Some(v) => some(self, v),
            None => {
                self.plain("null");
            }
        }
        self
    }

    /// A list of what `one` writes for each item.
    pub fn list<T>(&mut self, items: &[T], mut one: impl FnMut(&mut Self, &T)) -> &mut Self {
        self.open('[');
        for v in items {
            one(self, v);
        }
        self.close(']')
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn strings_are_escaped_as_serde_escapes_them(s in any::<String>(), t in "[\\x00-\\x20\"\\\\\u{7f}\u{e9}a]{0,12}") {
            for s in [s, t] {
                let mut w = Writer::default();
                w.open('[').string(&s).plain(-3i64).plain(u64::MAX).plain(true).close(']');
                let want = serde_json::to_string(&(s.as_str(), -3i64, u64::MAX, true)).unwrap();
                prop_assert_eq!(w.out, want);
            }
        }
    }

    #[test]
    fn nested_containers_take_their_commas() {
        let mut w = Writer::default();
        w.open('{').key("a").list(&[1, 2], |w, v| {
            w.plain(v);
        });
        w.key("b").open('{').close('}').close('}');
        assert_eq!(w.out, r#"{"a":[1,2],"b":{}}"#);
    }
}

//! JSON strings and skipped values for [`super::Reader`]: a string read as serde_json reads
//! one into a `String` (escapes decoded, surrogates paired, no control characters), and a
//! value skipped as serde_json skips one (`IgnoredAny`: the same grammar, escapes only
//! checked, nesting kept on a heap stack rather than the call stack).

use super::{Reader, Res};

impl Reader<'_> {
    /// A string, decoded.
    pub fn string(&mut self) -> Res<String> {
        self.expect(b'"')?;
        let mut out = Vec::new();
        loop {
            let start = self.pos;
            self.plain();
            out.extend_from_slice(&self.b[start..self.pos]);
            match self.next_byte() {
                Some(b'"') => break,
                Some(b'\\') => self.escape(&mut out)?,
                _ => return Err("not JSON: a string is not closed or holds a control character"),
            }
        }
        String::from_utf8(out).map_err(|_| "not JSON")
    }

    /// Bytes up to a quote, a backslash, a control character or the end.
    fn plain(&mut self) {
        while let Some(&c) = self.b.get(self.pos) {
            if c == b'"' || c == b'\\' || c < 0x20 {
                break;
            }
            self.pos += 1;
        }
    }

    /// The escape after a backslash, decoded into `out`.
    fn escape(&mut self, out: &mut Vec<u8>) -> Res<()> {
        let c = match self.next_byte() {
            Some(c @ (b'"' | b'\\' | b'/')) => c,
            Some(b'b') => 8,
            Some(b'f') => 12,
            Some(b'n') => b'\n',
            Some(b'r') => b'\r',
            Some(b't') => b'\t',
            Some(b'u') => return self.unicode(out),
            _ => return Err("not JSON: a bad escape"),
        };
        out.push(c);
        Ok(())
    }

    /// `\uXXXX` (after its `u`): a code point, or a surrogate pair's two escapes.
    fn unicode(&mut self, out: &mut Vec<u8>) -> Res<()> {
        let lone = "not JSON: a lone surrogate";
        let n = self.hex()?;
        let code = match n {
            0xDC00..=0xDFFF => return Err(lone),
            0xD800..=0xDBFF => {
                if self.next_byte() != Some(b'\\') || self.next_byte() != Some(b'u') {
                    return Err(lone);
                }
                let low = self.hex()?;
                if !(0xDC00..=0xDFFF).contains(&low) {
                    return Err(lone);
                }
                0x10000 + ((u32::from(n) - 0xD800) << 10) + (u32::from(low) - 0xDC00)
            }
            n => u32::from(n),
        };
        let c = char::from_u32(code).ok_or(lone)?;
        out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
        Ok(())
    }

    /// Four hex digits.
    fn hex(&mut self) -> Res<u16> {
        let mut n = 0;
        for _ in 0..4 {
            let d = self.next_byte().and_then(|c| char::from(c).to_digit(16));
            n = n * 16 + d.ok_or("not JSON: a bad escape")?;
        }
        Ok(n as u16)
    }

    /// A string skipped (after its opening quote): escapes checked, not decoded.
    fn skip_string(&mut self) -> Res<()> {
        loop {
            self.plain();
            match self.next_byte() {
                Some(b'"') => return Ok(()),
                Some(b'\\') => match self.next_byte() {
                    Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {}
                    Some(b'u') => drop(self.hex()?),
                    _ => return Err("not JSON: a bad escape"),
                },
                _ => return Err("not JSON: a string is not closed or holds a control character"),
            }
        }
    }

    /// Any one value, skipped.
    pub fn skip(&mut self) -> Res<()> {
        // The open lists and maps, innermost last, and whether the innermost has an item yet.
        let mut open: Vec<u8> = Vec::new();
        let mut first = true;
        loop {
            let close = open.last().map(|&o| o + 2); // `[` + 2 = `]`, `{` + 2 = `}`
            if let Some(close) = close {
                if !self.more(close, &mut first)? {
                    open.pop();
                    first = false;
                    if open.is_empty() {
                        return Ok(());
                    }
                    continue;
                }
                if close == b'}' {
                    self.expect(b'"')?;
                    self.skip_string()?;
                    self.expect(b':')?;
                }
            }
            match self.peek() {
                Some(c @ (b'[' | b'{')) => {
                    self.pos += 1;
                    open.push(c);
                    first = true;
                    continue;
                }
                Some(b'"') => {
                    self.pos += 1;
                    self.skip_string()?;
                }
                Some(b't') => self.word(b"true")?,
                Some(b'f') => self.word(b"false")?,
                Some(b'n') => self.word(b"null")?,
                _ => drop(self.number()?),
            }
            if open.is_empty() {
                return Ok(());
            }
            first = false;
        }
    }
}

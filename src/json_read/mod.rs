//! A pull reader of JSON, for every JSON the pages read: on the lean page a link's `cmds=`
//! (`sim::forced_json`) and the import's lesson-or-run check ([`is_lesson`]); on the full page
//! also scenarios, runs and lessons, read as serde's derive reads structs ([`fields`]).
//! serde_json's reader and the derived visitors were 17 KB gzip of the lean page and 35 KB of
//! the full one; the general-purpose small crates measured no better (miniserde's value tree:
//! 14 KB). It accepts and refuses what serde_json does for the same target types (property
//! tests here, in `forced_json`, `scenario_json` and the lesson reader hold it to that), without
//! serde_json's positions in its messages. Iterative where input nests (`skip`), so no text can
//! overflow the stack.

/// What went wrong, for a message.
pub type Res<T> = Result<T, &'static str>;

/// A cursor over a JSON text.
pub struct Reader<'a> {
    b: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    pub fn new(text: &'a str) -> Self {
        Reader {
            b: text.as_bytes(),
            pos: 0,
        }
    }

    /// The next byte that is not JSON whitespace, not taken.
    pub fn peek(&mut self) -> Option<u8> {
        while let Some(b' ' | b'\n' | b'\t' | b'\r') = self.b.get(self.pos) {
            self.pos += 1;
        }
        self.b.get(self.pos).copied()
    }

    /// Takes `c` if it comes next.
    pub fn eat(&mut self, c: u8) -> bool {
        let hit = self.peek() == Some(c);
        self.pos += usize::from(hit);
        hit
    }

    pub fn expect(&mut self, c: u8) -> Res<()> {
        self.eat(c)
            .then_some(())
            .ok_or("not JSON of the expected shape")
    }

    /// Nothing but whitespace is left.
    pub fn end(&mut self) -> Res<()> {
        self.peek().map_or(Ok(()), |_| Err("trailing characters"))
    }

    /// Whether a list (`close` = `]`) or map (`}`) has another item, having read `first` of
    /// them: takes the comma between items, or the closing bracket.
    pub fn more(&mut self, close: u8, first: &mut bool) -> Res<bool> {
        if self.eat(close) {
            return Ok(false);
        }
        if !std::mem::take(first) {
            self.expect(b',')?;
        }
        Ok(true)
    }

    /// A map's next key and its colon, or `None` at the map's end.
    pub fn key(&mut self, first: &mut bool) -> Res<Option<String>> {
        if !self.more(b'}', first)? {
            return Ok(None);
        }
        let k = self.string()?;
        self.expect(b':')?;
        Ok(Some(k))
    }

    /// Takes `null` if it comes next.
    pub fn null(&mut self) -> Res<bool> {
        if self.peek() != Some(b'n') {
            return Ok(false);
        }
        self.word(b"null").map(|()| true)
    }

    pub fn boolean(&mut self) -> Res<bool> {
        match self.peek() {
            Some(b't') => self.word(b"true").map(|()| true),
            Some(b'f') => self.word(b"false").map(|()| false),
            _ => Err("expected true or false"),
        }
    }

    fn word(&mut self, w: &[u8]) -> Res<()> {
        let hit = self.b[self.pos..].starts_with(w);
        self.pos += if hit { w.len() } else { 0 };
        hit.then_some(()).ok_or("not JSON")
    }

    fn next_byte(&mut self) -> Option<u8> {
        let c = self.b.get(self.pos).copied();
        self.pos += usize::from(c.is_some());
        c
    }

    fn digits(&mut self) -> usize {
        let start = self.pos;
        while let Some(b'0'..=b'9') = self.b.get(self.pos) {
            self.pos += 1;
        }
        self.pos - start
    }

    /// A number (JSON's grammar): where its digits start, whether it is negative, and whether
    /// it is an integer (no fraction or exponent).
    fn number(&mut self) -> Res<(usize, bool, bool)> {
        self.peek();
        let negative = self.b.get(self.pos) == Some(&b'-');
        self.pos += usize::from(negative);
        let start = self.pos;
        match self.digits() {
            0 => return Err("not JSON"),
            n if n > 1 && self.b[start] == b'0' => return Err("not JSON"),
            _ => {}
        }
        let mut whole = true;
        if self.b.get(self.pos) == Some(&b'.') {
            self.pos += 1;
            whole = false;
            (self.digits() > 0).then_some(()).ok_or("not JSON")?;
        }
        if let Some(b'e' | b'E') = self.b.get(self.pos) {
            self.pos += 1;
            whole = false;
            self.pos += usize::from(matches!(self.b.get(self.pos), Some(b'+' | b'-')));
            (self.digits() > 0).then_some(()).ok_or("not JSON")?;
        }
        Ok((start, negative, whole))
    }

    /// An integer in `T`'s range, as serde_json reads one: not a fraction or an exponent, and
    /// not `-0` (a float to serde_json), nor one past `u64` or `i64` (floats too).
    pub fn integer<T: TryFrom<u64> + TryFrom<i64>>(&mut self) -> Res<T> {
        let (start, negative, whole) = self.number()?;
        let wrong = "expected an integer in range";
        if !whole {
            return Err(wrong);
        }
        let mut digits = self.b[start..self.pos].iter();
        let add = |n: u64, d: &u8| n.checked_mul(10)?.checked_add(u64::from(d - b'0'));
        let n = digits.try_fold(0, add).ok_or(wrong)?;
        let v = match negative {
            false => T::try_from(n).ok(),
            true if n == 0 => None,
            true => 0i64
                .checked_sub_unsigned(n)
                .and_then(|v| T::try_from(v).ok()),
        };
        v.ok_or(wrong)
    }
}

pub mod fields;
mod strings;

/// Whether a file is a lesson (it has a `lockstep_lesson` field; see [`has_field`]).
pub fn is_lesson(text: &str) -> bool {
    has_field(text, "lockstep_lesson")
}

/// Whether `text` has the field `key`, as serde's derived reader of `{ key: Option<IgnoredAny> }`
/// says: valid JSON whose `key` is there and not null (in a map with no second one, or as a
/// one-item list, which serde reads as that struct too).
pub fn has_field(text: &str, key: &str) -> bool {
    let mut r = Reader::new(text);
    let said = |r: &mut Reader| -> Res<bool> {
        match r.null()? {
            true => Ok(false),
            false => r.skip().map(|()| true),
        }
    };
    let found = (|| -> Res<bool> {
        let mut first = true;
        let mut found = None;
        if r.eat(b'[') {
            found = Some(
                r.more(b']', &mut first)?
                    .then(|| said(&mut r))
                    .ok_or("empty")??,
            );
            r.expect(b']')?;
        } else {
            r.expect(b'{')?;
            while let Some(k) = r.key(&mut first)? {
                match k == key {
                    true if found.is_some() => return Err("duplicate field"),
                    true => found = Some(said(&mut r)?),
                    false => r.skip()?,
                }
            }
        }
        r.end()?;
        Ok(found.unwrap_or(false))
    })();
    found.unwrap_or(false)
}

#[cfg(test)]
pub(crate) mod tests;

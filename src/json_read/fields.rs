//! Structs, lists and enums as serde's derive reads them from JSON, for the hand readers of
//! commands (`sim::forced_json`), scenarios and runs (`sim::scenario_json`) and lessons
//! (`view::learn::lesson`): a struct from a map of its fields or a list of them in order, a
//! repeated field refused, unknown ones skipped or refused, missing ones defaulted or refused;
//! an enum's variant as a name or a one-key map. Errors name the innermost field they are in.

use super::{Reader, Res};

/// Why a read failed: the innermost field it was in, and what was wrong.
#[derive(Debug, PartialEq)]
pub struct Fail {
    pub field: Option<&'static str>,
    pub why: String,
}

impl From<&'static str> for Fail {
    fn from(why: &'static str) -> Fail {
        Fail {
            field: None,
            why: why.into(),
        }
    }
}

impl Fail {
    /// A failure worded at run time ("unknown field `x`"), its field not yet named.
    pub fn said(why: String) -> Fail {
        Fail { field: None, why }
    }

    /// The message for a `what` file: "scenario field `clients`: …" or "scenario JSON: …".
    pub fn message(&self, what: &str) -> String {
        match self.field {
            Some(f) => format!("{what} field `{f}`: {}", self.why),
            None => format!("{what} JSON: {}", self.why),
        }
    }
}

/// A read that names its field on failure.
pub type Got<T> = Result<T, Fail>;

/// A struct's fields as its derive declares them (serde reads a list form in this order); at
/// most 63 of them (the masks are 64 bits).
pub struct Shape {
    pub names: &'static [&'static str],
    /// Unknown fields are refused (`deny_unknown_fields`), else skipped.
    pub deny: bool,
    /// Bit `i`: field `i` may be left out (`#[serde(default)]`, or the struct's). A field
    /// without one is refused when missing (serde would take a missing `Option` without a
    /// default for `None` in a map; none of the types read here has one).
    pub defaulted: u64,
}

/// Reads a struct of `shape` whose field `i` `field` reads into place.
pub fn object(
    r: &mut Reader,
    shape: &Shape,
    field: &mut dyn FnMut(&mut Reader, usize) -> Got<()>,
) -> Got<()> {
    let n = shape.names.len();
    let named = |i: usize| {
        move |mut f: Fail| {
            f.field = f.field.or(Some(shape.names[i]));
            f
        }
    };
    let mut first = true;
    if r.eat(b'[') {
        let mut open = true;
        for i in 0..n {
            open = open && r.more(b']', &mut first)?;
            if open {
                field(r, i).map_err(named(i))?;
            } else if shape.defaulted & 1 << i == 0 {
                return Err("a list of fields that is too short".into());
            }
        }
        return match open {
            true => r
                .expect(b']')
                .map_err(|_| "a list of fields that is too long".into()),
            false => Ok(()),
        };
    }
    r.expect(b'{')?;
    let mut seen = 0u64;
    while let Some(key) = r.key(&mut first)? {
        match shape.names.iter().position(|n| *n == key) {
            Some(i) if seen & 1 << i != 0 => return Err(named(i)("a repeated field".into())),
            Some(i) => {
                field(r, i).map_err(named(i))?;
                seen |= 1 << i;
            }
            None if shape.deny => return Err(Fail::said(format!("unknown field `{key}`"))),
            None => r.skip()?,
        }
    }
    let missing = !(seen | shape.defaulted) & ((1u64 << n) - 1);
    match missing.trailing_zeros() as usize {
        i if i < n => Err(named(i)("missing field".into())),
        _ => Ok(()),
    }
}

/// A list of items, each read by `one`.
pub fn list<T, E: From<&'static str>>(
    r: &mut Reader,
    one: impl Fn(&mut Reader) -> Result<T, E>,
) -> Result<Vec<T>, E> {
    r.expect(b'[')?;
    let mut first = true;
    let mut out = Vec::new();
    while r.more(b']', &mut first)? {
        out.push(one(r)?);
    }
    Ok(out)
}

/// A two-item list, as serde reads a pair.
pub fn pair<A, B>(
    r: &mut Reader,
    a: impl FnOnce(&mut Reader) -> Res<A>,
    b: impl FnOnce(&mut Reader) -> Res<B>,
) -> Res<(A, B)> {
    r.expect(b'[')?;
    let x = a(r)?;
    r.expect(b',')?;
    let y = b(r)?;
    r.expect(b']').map(|()| (x, y))
}

/// `null` (`None`) or a value `some` reads.
pub fn option<T>(r: &mut Reader, some: impl FnOnce(&mut Reader) -> Got<T>) -> Got<Option<T>> {
    match r.null()? {
        true => Ok(None),
        false => some(r).map(Some),
    }
}

/// An enum's variant as serde writes it, read up to its contents: a unit variant's name
/// (`unit` true), or a map's one key. [`done`] reads the rest.
pub fn variant(r: &mut Reader) -> Res<(String, bool)> {
    if r.peek() == Some(b'"') {
        return Ok((r.string()?, true));
    }
    r.expect(b'{')?;
    let name = r.string()?;
    r.expect(b':')?;
    Ok((name, false))
}

/// The end of a variant's map (after its contents), if it had one.
pub fn done(r: &mut Reader, unit: bool) -> Res<()> {
    match unit {
        true => Ok(()),
        false => r.expect(b'}'),
    }
}

/// A unit variant: a name, or a map of it to `null` (as serde_json reads one).
pub fn unit<T>(r: &mut Reader, unit: bool, v: T) -> Res<T> {
    if !unit && !r.null()? {
        return Err("this variant takes no contents");
    }
    done(r, unit).map(|()| v)
}

/// A variant with contents, read by `read`.
pub fn with<T>(r: &mut Reader, unit: bool, read: impl FnOnce(&mut Reader) -> Res<T>) -> Res<T> {
    if unit {
        return Err("this variant needs contents");
    }
    let v = read(r)?;
    done(r, false).map(|()| v)
}

/// A fieldless enum's value (`"curator"`, or `{"curator": null}`), found by `parse`.
pub fn named<T>(r: &mut Reader, parse: impl Fn(&str) -> Option<T>) -> Got<T> {
    let (n, u) = variant(r)?;
    match parse(&n) {
        Some(v) => Ok(unit(r, u, v)?),
        None => Err(Fail::said(format!("unknown variant `{n}`"))),
    }
}

/// The value a fieldless enum's name stands for in `table` (serde's name of each variant).
pub fn by_name<T: Copy>(table: &[(&str, T)], name: &str) -> Option<T> {
    table.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
}

/// The name `table` gives `v`: the writer's side of [`by_name`]; a value missing from the
/// table is a bug, caught by the tests that write every variant.
pub fn name_of<T: Copy + PartialEq>(table: &[(&'static str, T)], v: T) -> &'static str {
    table.iter().find(|(_, t)| *t == v).map_or("", |(n, _)| *n)
}

/// A whole text that `read` reads, with nothing after it.
pub fn whole<T>(text: &str, read: impl FnOnce(&mut Reader) -> Got<T>) -> Got<T> {
    let mut r = Reader::new(text);
    let v = read(&mut r)?;
    r.end()?;
    Ok(v)
}

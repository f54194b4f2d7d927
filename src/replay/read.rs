//! Reading a replay script op by op, within limits: the text is checked as JSON without building
//! it, then each op is taken from the `ops` array as its own text (kept to echo), parsed alone
//! and dropped, so memory follows the script's size, never the size of a JSON tree of it; too
//! large a script, op, op count or session count is refused when it is met, naming the limit.

use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::Value;

use super::script::{parse_op, Action, Script, ScriptError, ScriptOp};
use super::{MAX_CONNECTS, MAX_OPS, MAX_OP_BYTES, MAX_SCRIPT_BYTES};
use crate::engine::Request;

/// Parses a whole script from JSON text.
pub fn parse(text: &str) -> Result<Script<'_>, ScriptError> {
    if text.len() > MAX_SCRIPT_BYTES {
        return Err(ScriptError(format!(
            "the script is {} bytes, more than the {MAX_SCRIPT_BYTES} bytes (16 MiB) a replay \
             script may be",
            text.len()
        )));
    }
    // Valid JSON first, without building anything (so the messages are those of a JSON error).
    serde_json::from_str::<IgnoredAny>(text)
        .map_err(|e| ScriptError(format!("not valid JSON: {e}")))?;
    let mut reader = Reader::default();
    let mut de = serde_json::Deserializer::from_str(text);
    let read = Root(&mut reader).deserialize(&mut de);
    if let Some(e) = reader.error {
        return Err(e);
    }
    // The JSON is valid, so what failed is the shape: an `ops` or a root of another type.
    if let Err(e) = read {
        return Err(ScriptError(if reader.in_ops {
            EXPECTED_OPS.into()
        } else if !text.trim_start().starts_with('{') {
            "the script must be a JSON object".into()
        } else {
            format!("not valid JSON: {e}")
        }));
    }
    let ops = reader.ops.ok_or_else(|| ScriptError(EXPECTED_OPS.into()))?;
    Ok(Script {
        name: reader.name,
        ops,
    })
}

const EXPECTED_OPS: &str = "field `ops`: expected an array of operations";

/// What has been read so far, and the first error met (reported as is, not as a JSON error).
#[derive(Default)]
struct Reader<'a> {
    name: String,
    ops: Option<Vec<ScriptOp<'a>>>,
    in_ops: bool,
    error: Option<ScriptError>,
}

impl Reader<'_> {
    /// Records `message` and returns the error that stops the JSON reader.
    fn fail<E: serde::de::Error>(&mut self, message: String) -> E {
        self.error.get_or_insert(ScriptError(message));
        E::custom("replay script error")
    }
}

/// The document: an object with `name`, `ops` and anything else (ignored).
struct Root<'r, 'a>(&'r mut Reader<'a>);

impl<'de: 'a, 'a> DeserializeSeed<'de> for Root<'_, 'a> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de: 'a, 'a> Visitor<'de> for Root<'_, 'a> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a replay script object")
    }
    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<(), M::Error> {
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "name" => {
                    let raw = map.next_value::<&'de RawValue>()?;
                    match serde_json::from_str::<String>(raw.get()) {
                        Ok(s) => self.0.name = s,
                        Err(_) => {
                            return Err(self.0.fail("field `name`: expected a string".into()))
                        }
                    }
                }
                "ops" => {
                    self.0.in_ops = true;
                    map.next_value_seed(Ops(self.0))?;
                    self.0.in_ops = false;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

/// The `ops` array, one op at a time (a later `ops` replaces an earlier one, as in a JSON
/// object read whole).
struct Ops<'r, 'a>(&'r mut Reader<'a>);

impl<'de: 'a, 'a> DeserializeSeed<'de> for Ops<'_, 'a> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de: 'a, 'a> Visitor<'de> for Ops<'_, 'a> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array of operations")
    }
    fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<(), S::Error> {
        let mut ops = Vec::new();
        let (mut counted, mut connects) = (0usize, 0usize);
        while let Some(raw) = seq.next_element::<&'de RawValue>()? {
            let i = ops.len();
            let text = raw.get();
            if text.len() > MAX_OP_BYTES {
                return Err(self.0.fail(format!(
                    "op {i}: {} bytes, more than the {MAX_OP_BYTES} bytes (1 MiB, ZooKeeper's \
                     jute.maxbuffer) an op may be",
                    text.len()
                )));
            }
            // Parsed alone, from its own text: the tree of one op lives only this long.
            let value: Value = match serde_json::from_str(text) {
                Ok(v) => v,
                Err(e) => return Err(self.0.fail(format!("op {i}: not valid JSON: {e}"))),
            };
            let op = match parse_op(&value, text) {
                Ok(op) => op,
                Err(e) => return Err(self.0.fail(e.at(&format!("op {i}")).0)),
            };
            counted += match &op.action {
                Action::Request(Request::Multi(sub)) => 1 + sub.len(),
                _ => 1,
            };
            connects += usize::from(matches!(op.action, Action::Connect { .. }));
            if counted > MAX_OPS {
                return Err(self.0.fail(format!(
                    "op {i}: the script has more than {MAX_OPS} operations (multi sub-ops \
                     count), the most a replay runs"
                )));
            }
            if connects > MAX_CONNECTS {
                return Err(self.0.fail(format!(
                    "op {i}: the script opens more than {MAX_CONNECTS} sessions (connect ops), \
                     the most a replay opens"
                )));
            }
            ops.push(op);
        }
        ops.shrink_to_fit();
        self.0.ops = Some(ops);
        Ok(())
    }
}

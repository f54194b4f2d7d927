//! Replay script ops and their fields, with precise errors (op index and field), never a panic
//! (the document around them is read by `read.rs`).

use serde_json::{Map, Value};

use crate::engine::{CreateMode, Data, MultiOp, Request, WatcherType};

/// A parsed script: each op's own text in the script is kept to echo it.
#[derive(Clone, Debug, PartialEq)]
pub struct Script<'a> {
    pub name: String,
    pub ops: Vec<ScriptOp<'a>>,
}

/// One scripted step for session index `s`.
#[derive(Clone, Debug, PartialEq)]
pub struct ScriptOp<'a> {
    pub s: i64,
    pub action: Action,
    /// The op as the script wrote it (JSON text).
    pub echo: &'a str,
}

/// What a script op asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    Connect { timeout_ms: u64 },
    Close,
    Expire,
    Request(Request),
}

/// A script error, naming where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptError(pub String);

impl std::fmt::Display for ScriptError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ScriptError {}

/// A field-level error before the location is known.
pub(super) struct FieldError(String);

impl FieldError {
    pub(super) fn at(self, location: &str) -> ScriptError {
        ScriptError(format!("{location}: {}", self.0))
    }
}

type R<T> = Result<T, FieldError>;

/// One op from its JSON value and its text (kept to echo).
pub(super) fn parse_op<'a>(v: &Value, text: &'a str) -> Result<ScriptOp<'a>, FieldError> {
    let o = v
        .as_object()
        .ok_or_else(|| FieldError("expected an object".into()))?;
    let s = o
        .get("s")
        .and_then(Value::as_i64)
        .ok_or_else(|| FieldError("field `s`: expected an integer session index".into()))?;
    let action = match str_field(o, "op")? {
        "connect" => Action::Connect {
            timeout_ms: u64_field(o, "timeout_ms", 4000)?,
        },
        "close" => Action::Close,
        "expire" => Action::Expire,
        "multi" => Action::Request(Request::Multi(multi_ops(o)?)),
        other => Action::Request(request(o, other)?),
    };
    Ok(ScriptOp {
        s,
        action,
        echo: text,
    })
}

fn request(o: &Map<String, Value>, op: &str) -> R<Request> {
    let path = || str_field(o, "path").map(str::to_string);
    Ok(match op {
        "create" => Request::Create {
            path: path()?,
            data: data_field(o)?,
            mode: mode_field(o)?,
        },
        "delete" => Request::Delete {
            path: path()?,
            version: i32_field(o, "version", -1)?,
        },
        "exists" => Request::Exists {
            path: path()?,
            watch: bool_field(o, "watch")?,
        },
        "get_data" => Request::GetData {
            path: path()?,
            watch: bool_field(o, "watch")?,
        },
        "set_data" => Request::SetData {
            path: path()?,
            data: data_field(o)?,
            version: i32_field(o, "version", -1)?,
        },
        "get_children" => Request::GetChildren {
            path: path()?,
            watch: bool_field(o, "watch")?,
        },
        "sync" => Request::Sync {
            path: opt_str(o, "path")?.unwrap_or("/").to_string(),
        },
        "check_watches" => Request::CheckWatches {
            path: path()?,
            kind: watcher_type(o)?,
        },
        "remove_watches" => Request::RemoveWatches {
            path: path()?,
            kind: watcher_type(o)?,
        },
        other => {
            return Err(FieldError(format!(
                "field `op`: unknown operation {other:?}"
            )))
        }
    })
}

/// `type`: data, children or any (the default).
fn watcher_type(o: &Map<String, Value>) -> R<WatcherType> {
    Ok(match opt_str(o, "type")? {
        None | Some("any") => WatcherType::Any,
        Some("data") => WatcherType::Data,
        Some("children") => WatcherType::Children,
        Some(other) => {
            return Err(FieldError(format!(
                "field `type`: expected data, children or any, not {other:?}"
            )))
        }
    })
}

fn multi_ops(o: &Map<String, Value>) -> R<Vec<MultiOp>> {
    let ops = o
        .get("ops")
        .and_then(Value::as_array)
        .ok_or_else(|| FieldError("field `ops`: expected an array".into()))?;
    ops.iter()
        .enumerate()
        .map(|(i, v)| multi_op(v).map_err(|e| FieldError(format!("sub-op {i}: {}", e.0))))
        .collect()
}

fn multi_op(v: &Value) -> R<MultiOp> {
    let o = v
        .as_object()
        .ok_or_else(|| FieldError("expected an object".into()))?;
    let path = str_field(o, "path")?.to_string();
    Ok(match str_field(o, "op")? {
        "create" => {
            let mode = mode_field(o)?;
            if mode == CreateMode::Container {
                return Err(FieldError(
                    "field `mode`: container is not allowed inside multi".into(),
                ));
            }
            MultiOp::Create {
                path,
                data: data_field(o)?,
                mode,
            }
        }
        "delete" => MultiOp::Delete {
            path,
            version: i32_field(o, "version", -1)?,
        },
        "set_data" => MultiOp::SetData {
            path,
            data: data_field(o)?,
            version: i32_field(o, "version", -1)?,
        },
        "check" => MultiOp::Check {
            path,
            version: i32_field(o, "version", -1)?,
        },
        other => {
            return Err(FieldError(format!(
                "field `op`: {other:?} is not allowed inside multi"
            )))
        }
    })
}

fn str_field<'a>(o: &'a Map<String, Value>, key: &str) -> R<&'a str> {
    opt_str(o, key)?.ok_or_else(|| FieldError(format!("field `{key}`: missing")))
}

fn opt_str<'a>(o: &'a Map<String, Value>, key: &str) -> R<Option<&'a str>> {
    match o.get(key) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(FieldError(format!("field `{key}`: expected a string"))),
    }
}

fn bool_field(o: &Map<String, Value>, key: &str) -> R<bool> {
    match o.get(key) {
        None => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => Err(FieldError(format!("field `{key}`: expected true or false"))),
    }
}

fn i32_field(o: &Map<String, Value>, key: &str, default: i32) -> R<i32> {
    match o.get(key) {
        None => Ok(default),
        Some(v) => v
            .as_i64()
            .and_then(|n| i32::try_from(n).ok())
            .ok_or_else(|| FieldError(format!("field `{key}`: expected a 32-bit integer"))),
    }
}

fn u64_field(o: &Map<String, Value>, key: &str, default: u64) -> R<u64> {
    match o.get(key) {
        None => Ok(default),
        Some(v) => v
            .as_u64()
            .filter(|n| *n <= 1 << 40)
            .ok_or_else(|| FieldError(format!("field `{key}`: expected a non-negative integer"))),
    }
}

fn data_field(o: &Map<String, Value>) -> R<Data> {
    match o.get("data") {
        None => Ok(Some(Vec::new())),
        Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.as_bytes().to_vec())),
        Some(_) => Err(FieldError("field `data`: expected a string or null".into())),
    }
}

fn mode_field(o: &Map<String, Value>) -> R<CreateMode> {
    let mode = opt_str(o, "mode")?.unwrap_or("persistent");
    serde_json::from_value(Value::String(mode.to_string())).map_err(|_| {
        FieldError(format!(
            "field `mode`: unknown mode {mode:?} (persistent, ephemeral, persistent_sequential, ephemeral_sequential, container)"
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;

    #[test]
    fn errors_name_the_op_and_field() {
        let e = parse(r#"{"ops":[{"s":1,"op":"connect"},{"s":1,"op":"create"}]}"#).unwrap_err();
        assert_eq!(e.0, "op 1: field `path`: missing");
        let e = parse(r#"{"ops":[{"s":1,"op":"delete","path":"/a","version":"x"}]}"#).unwrap_err();
        assert_eq!(e.0, "op 0: field `version`: expected a 32-bit integer");
        let e = parse(r#"{"ops":[{"s":1,"op":"multi","ops":[{"op":"sync","path":"/"}]}]}"#)
            .unwrap_err();
        assert!(e.0.starts_with("op 0: sub-op 0: field `op`"), "{}", e.0);
        assert!(parse("[").unwrap_err().0.starts_with("not valid JSON"));
        assert!(parse(r#"{"ops":[{"op":"connect"}]}"#)
            .unwrap_err()
            .0
            .contains("field `s`"));
        assert!(
            parse(r#"{"ops":[{"s":1,"op":"create","path":"/a","mode":"weird"}]}"#)
                .unwrap_err()
                .0
                .contains("mode")
        );
    }

    #[test]
    fn defaults_apply() {
        let s = parse(r#"{"name":"x","ops":[{"s":1,"op":"connect"},{"s":1,"op":"create","path":"/a","data":null}]}"#).unwrap();
        assert_eq!(s.ops[0].action, Action::Connect { timeout_ms: 4000 });
        assert_eq!(
            s.ops[1].action,
            Action::Request(Request::Create {
                path: "/a".into(),
                data: None,
                mode: CreateMode::Persistent
            })
        );
    }
}

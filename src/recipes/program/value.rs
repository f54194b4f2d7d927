//! The values a recipe computes with: nothing, yes/no, numbers, texts, lists of names (a
//! directory's children, in sequence order), a node an operation found, and an error an
//! operation got. Each is plain data, so a client's state stays `Clone + Eq + Hash`.

use super::compile::{Field, Func};
use crate::recipes::decide::{name_of, sorted};

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Value {
    #[default]
    None,
    Bool(bool),
    Int(i64),
    Text(String),
    /// Names, sorted by their sequence suffix (as a lock directory's children are read).
    List(Vec<String>),
    /// A node an operation created or found: its path, czxid and data.
    Node {
        path: String,
        czxid: i64,
        data: Option<String>,
    },
    /// An operation's error, by its name (`NodeExists`, `NoNode`, Redis's `ERR …`).
    Error(String),
}

impl Value {
    /// Whether an `if` takes it as yes: nothing, no, 0, "", an empty list and an error are no.
    pub fn truthy(&self) -> bool {
        match self {
            Value::None | Value::Error(_) => false,
            Value::Bool(b) => *b,
            Value::Int(n) => *n != 0,
            Value::Text(s) => !s.is_empty(),
            Value::List(l) => !l.is_empty(),
            Value::Node { .. } => true,
        }
    }

    /// The value as text, as it goes into a path or a Redis argument.
    pub fn text(&self) -> String {
        match self {
            Value::None => String::new(),
            Value::Bool(b) => b.to_string(),
            Value::Int(n) => n.to_string(),
            Value::Text(s) | Value::Error(s) => s.clone(),
            Value::List(l) => l.join(","),
            Value::Node { path, .. } => path.clone(),
        }
    }

    pub fn int(&self) -> Option<i64> {
        match self {
            Value::Int(n) => Some(*n),
            Value::Text(s) => s.parse().ok(),
            _ => None,
        }
    }

    /// A directory's children as the recipes read them: sorted by sequence suffix.
    pub fn children(names: &[String]) -> Value {
        Value::List(
            sorted(names, &["lock-"])
                .into_iter()
                .map(String::from)
                .collect(),
        )
    }

    /// `value.field`: anything a value does not have is nothing.
    pub fn field(&self, f: Field) -> Value {
        match (self, f) {
            (Value::Error(e), Field::Error) => Value::Text(e.clone()),
            (_, Field::Error) => Value::None,
            (v, Field::Ok) => Value::Bool(!matches!(v, Value::Error(_))),
            (Value::Node { path, .. } | Value::Text(path), Field::Path) => {
                Value::Text(path.clone())
            }
            (Value::Node { path, .. } | Value::Text(path), Field::Name) => {
                Value::Text(name_of(path).to_string())
            }
            (Value::Node { path, .. } | Value::Text(path), Field::Seq) => {
                Value::Int(crate::recipes::sequence_token(path))
            }
            (Value::Node { czxid, .. }, Field::Czxid) => Value::Int(*czxid),
            (Value::Node { data: Some(d), .. }, Field::Data) => Value::Text(d.clone()),
            (Value::Text(t), Field::Data) => Value::Text(t.clone()),
            _ => Value::None,
        }
    }

    /// A function of the language.
    pub fn call(f: Func, args: &[Value]) -> Value {
        let list = |v: &Value| match v {
            Value::List(l) => l.clone(),
            _ => Vec::new(),
        };
        let name = |v: &Value| name_of(&v.text()).to_string();
        match f {
            Func::Lowest => list(&args[0])
                .first()
                .cloned()
                .map_or(Value::None, Value::Text),
            Func::Before => {
                let l = list(&args[0]);
                let me = name(&args[1]);
                match l.iter().position(|n| *n == me) {
                    Some(i) if i > 0 => Value::Text(l[i - 1].clone()),
                    _ => Value::None,
                }
            }
            Func::Has => {
                let me = name(&args[1]);
                Value::Bool(list(&args[0]).iter().any(|n| *n == me))
            }
            Func::Name => Value::Text(name(&args[0])),
            Func::Sequence => Value::Int(crate::recipes::sequence_token(&args[0].text())),
            Func::Count => Value::Int(list(&args[0]).len() as i64),
        }
    }

    /// Equality across kinds: a number equals its text (Redis answers `1` as a number and
    /// stores `"1"` as a text), a node its path.
    pub fn same(&self, other: &Value) -> bool {
        match (self.int(), other.int()) {
            (Some(a), Some(b)) => a == b,
            _ => match (self, other) {
                (Value::None, Value::None) => true,
                (Value::None, _) | (_, Value::None) => false,
                (a, b) => a.text() == b.text(),
            },
        }
    }
}

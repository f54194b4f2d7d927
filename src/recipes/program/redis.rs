//! The recipe language on Redis (full bundle only): a command's words sent as Redis's client
//! library sends them, and its reply as a value.

use super::value::Value;
use super::{Mode, Program, Waiting};
use crate::recipes::{Call, RecipeOut};
use crate::services::redis::Reply;

impl Program {
    /// An answer from a service other than ZooKeeper.
    pub(super) fn other_answer(&mut self, a: crate::recipes::Answer) -> Vec<RecipeOut> {
        match a {
            crate::recipes::Answer::Redis(r) => self.redis_reply(r),
            _ => Vec::new(),
        }
    }

    pub(super) fn compare_and_delete() -> &'static str {
        crate::services::redis::script::COMPARE_AND_DELETE
    }

    pub(super) fn redis_send(&mut self, words: Vec<String>) -> Vec<RecipeOut> {
        vec![RecipeOut::Send(Call::Redis(words))]
    }

    pub(super) fn redis_reply(&mut self, r: Reply) -> Vec<RecipeOut> {
        let Waiting::Redis(words, slot) = &self.waiting else {
            return Vec::new();
        };
        let slot = *slot;
        let won = match (words.first().map(String::as_str), &r) {
            (Some("SETNX"), Reply::Int(1)) => true,
            // A SET answered OK wrote the key, with NX or without (it then overwrote it).
            (Some("SET"), Reply::Status(_)) => true,
            _ => false,
        };
        if won && self.mode == Mode::Lock {
            self.claimed = words.get(1).cloned();
            self.wrote = words.get(2).cloned();
        }
        self.resume(Some((slot, redis_value(r))))
    }
}

/// A Redis reply as a value: a number, a text, nothing (nil), a list, or an error.
fn redis_value(r: Reply) -> Value {
    match r {
        Reply::Int(n) => Value::Int(n),
        Reply::Status(s) => Value::Text(s),
        Reply::Bulk(Some(s)) => Value::Text(s),
        Reply::Bulk(None) | Reply::Array(None) => Value::None,
        Reply::Array(Some(items)) => {
            Value::List(items.into_iter().map(|i| redis_value(i).text()).collect())
        }
        Reply::Error(e) => Value::Error(e),
    }
}

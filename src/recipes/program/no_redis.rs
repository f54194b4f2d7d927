//! The lean first page has no Redis: a recipe on Redis never runs there (the page hands such
//! runs over to the full one), and these stand in for `redis.rs`.

use super::Program;
use crate::recipes::{Answer, RecipeOut};

impl Program {
    pub(super) fn other_answer(&mut self, _: Answer) -> Vec<RecipeOut> {
        Vec::new()
    }

    pub(super) fn compare_and_delete() -> &'static str {
        ""
    }

    pub(super) fn redis_send(&mut self, _: Vec<String>) -> Vec<RecipeOut> {
        Vec::new()
    }
}

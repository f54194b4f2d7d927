//! The course chapter "Break it yourself" (hunt).

use super::super::{Body, Chapter, Hunt};
use crate::recipes::RecipeKind;

pub const CHAPTER: Chapter = Chapter {
    id: "hunt",
    title: ["Break it yourself", "亲手找出错误"],
    intro: [
        "Let the checker look for the bug: it explores every interleaving of messages and timers (breadth first, in the browser) and opens the shortest run that breaks the lock. For a correct recipe it exhausts the space and finds nothing.",
        "让检查器来找错误：它在浏览器里（广度优先）探索消息和定时器的每一种交错顺序，并打开破坏锁的最短运行。对正确的方案，它会穷尽整个状态空间而一无所获。",
    ],
    takeaway: [
        "Tests show a bug only in the runs you thought of; an exhaustive search shows the shortest run you did not.",
        "测试只能在你想到的运行里暴露错误；穷举搜索能找出你没想到的最短运行。",
    ],
    body: Body::Search { hunts: &[Hunt { recipe: RecipeKind::LostWakeup, clients: 2, allow_close: false }, Hunt { recipe: RecipeKind::NoRecheck, clients: 3, allow_close: true }, Hunt { recipe: RecipeKind::Sequential, clients: 3, allow_close: false }] },
};

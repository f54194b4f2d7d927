//! The course's sentences that carry numbers: where the learner is, and what a search found.

use crate::sim::explore::{Outcome, Property};
use crate::sim::Lang;

/// "Chapter 3 of 16".
pub fn chapter_of(i: usize, n: usize, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("第 {} 章，共 {n} 章", i + 1),
        Lang::En => format!("Chapter {} of {n}", i + 1),
    }
}

/// "4,812 states explored".
pub fn explored(states: usize, lang: Lang) -> String {
    match lang {
        Lang::Zh => format!("已探索 {states} 个状态"),
        Lang::En => format!("{states} states explored"),
    }
}

/// What a search found, in one sentence.
pub fn outcome(o: &Outcome, ms: f64, lang: Lang) -> String {
    let (n, secs) = (o.states, crate::view::scene::fixed(ms / 1000.0, 1));
    match (&o.counterexample, lang) {
        (Some((p, run)), Lang::En) => format!(
            "Found after {n} states ({secs} s): {} in a shortest run of {} steps.",
            match p {
                Property::MutualExclusion => "two clients hold the lock",
                Property::Stuck => "a waiter is stuck for ever",
                Property::Protocol => "the servers broke their own protocol",
            },
            run.forced.len()
        ),
        (Some((p, run)), Lang::Zh) => format!(
            "探索 {n} 个状态后找到（{secs} 秒）：最短的运行共 {} 步，{}。",
            run.forced.len(),
            match p {
                Property::MutualExclusion => "两个客户端同时持有锁",
                Property::Stuck => "一个等待者永远卡住",
                Property::Protocol => "服务器违反了自身的协议",
            }
        ),
        (None, Lang::En) if o.truncated => {
            format!("Stopped at the bound of {n} states ({secs} s) without a violation.")
        }
        (None, Lang::Zh) if o.truncated => {
            format!("达到 {n} 个状态的上限（{secs} 秒），没有发现违规。")
        }
        (None, Lang::En) => {
            format!("Every state explored: {n} states ({secs} s), no two holders and no one stuck.")
        }
        (None, Lang::Zh) => {
            format!("状态空间已穷尽：共 {n} 个状态（{secs} 秒），没有两个持有者，也没有人卡住。")
        }
    }
}

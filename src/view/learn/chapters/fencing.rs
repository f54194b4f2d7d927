//! The course chapter "Fencing tokens" (fencing).

use super::super::{Ask, Body, Chapter, Pose};
use crate::sim::moments::Kind;

pub const CHAPTER: Chapter = Chapter {
    id: "fencing",
    title: ["Fencing tokens", "防护令牌"],
    intro: [
        "The same pause, but every write carries a fencing token — the lock node's sequence number, which grows with every grant — and the resource refuses a token lower than the highest it has seen.",
        "同样的停顿，但每次写入都带着防护令牌——锁节点的序号，每次授予锁都会增大——资源拒绝比它见过的最大令牌更小的令牌。",
    ],
    takeaway: [
        "Fencing moves the last check to the resource: the stale holder's write is rejected, whatever it believes.",
        "防护令牌把最后一道检查交给资源：无论过时的持锁者怎么想，它的写入都会被拒绝。",
    ],
    body: Body::Run { preset: "gc-pause-fenced", poses: &[Pose { at: Kind::TwoHolders, ask: Ask::WriteAccepted }] },
};

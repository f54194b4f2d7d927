//! The course chapter "A waiter leaves" (leaving).

use super::super::{Ask, Body, Chapter, Pose};
use crate::sim::moments::Kind;

pub const CHAPTER: Chapter = Chapter {
    id: "leaving",
    title: ["A waiter leaves", "等待者离开"],
    intro: [
        "C2 waits behind C1 and C3 waits behind C2. C2 gives up and closes its session: its node goes, and C3's watch fires although C1 still holds the lock.",
        "C2 排在 C1 后面，C3 排在 C2 后面。C2 放弃并关闭会话：它的节点消失，C3 的监视被触发，尽管 C1 仍持有锁。",
    ],
    takeaway: [
        "A fired watch means \"something changed\", not \"you hold the lock\". The correct recipe lists the children again and watches its new predecessor.",
        "监视被触发只表示“有变化”，而不是“你拿到锁了”。正确的方案会重新列出子节点，并监视新的前驱。",
    ],
    body: Body::Run { preset: "middle-leaves", poses: &[Pose { at: Kind::Fault, ask: Ask::NextWatch }] },
};

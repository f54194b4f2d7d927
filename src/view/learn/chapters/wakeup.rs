//! The course chapter "A lost wake-up" (wakeup).

use super::super::{Ask, Body, Chapter, Pose};
use crate::sim::moments::Kind;

pub const CHAPTER: Chapter = Chapter {
    id: "wakeup",
    title: ["A lost wake-up", "丢失的唤醒"],
    intro: [
        "A variant that subscribes only after its create failed, and then waits only for NodeDeleted. Between the failed create and the exists call, the holder may already have released.",
        "一种变体：创建失败之后才去订阅，并且只等待 NodeDeleted。在创建失败和调用 exists 之间，持锁者可能已经释放了锁。",
    ],
    takeaway: [
        "An exists-watch on a node that is already gone waits for a creation, not a deletion. A recipe must re-check the state after setting its watch.",
        "在已经消失的节点上设置的 exists 监视只会等待创建，而不是删除。锁方案必须在设置监视之后重新检查状态。",
    ],
    body: Body::Run { preset: "lost-wakeup", poses: &[Pose { at: Kind::MissingWatch, ask: Ask::EverAcquires }] },
};

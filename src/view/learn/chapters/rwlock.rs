//! The course chapter "Read/write locks" (rwlock).

use super::super::{Ask, Body, Chapter, Pose};
use crate::sim::moments::Kind;

pub const CHAPTER: Chapter = Chapter {
    id: "rwlock",
    title: ["Read/write locks", "读写锁"],
    intro: [
        "Readers may share the lock; a writer needs everyone before it to leave. Curator names nodes __READ__ and __WRIT__ and each waits only for the nodes that matter to it.",
        "读者可以共享锁；写者需要前面所有人都离开。Curator 用 __READ__ 和 __WRIT__ 命名节点，每个节点只等待与自己相关的节点。",
    ],
    takeaway: [
        "Shared readers and exclusive writers queue in one directory; no reader barges past a waiting writer.",
        "共享的读者和独占的写者在同一个目录里排队；读者不能越过正在等待的写者插队。",
    ],
    body: Body::Run { preset: "rwlock", poses: &[Pose { at: Kind::Handoff, ask: Ask::Notified }] },
};

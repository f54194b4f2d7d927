//! The course chapter "The no-re-check bug" (recheck).

use super::super::{Ask, Body, Chapter, Pose};
use crate::sim::moments::Kind;

pub const CHAPTER: Chapter = Chapter {
    id: "recheck",
    title: ["The no-re-check bug", "不复查的错误"],
    intro: [
        "The same scene with a recipe from many tutorials: when its predecessor's node goes, it believes it holds the lock, without listing the children again.",
        "同样的场景，换成许多教程里的写法：前驱节点一消失，它就认为自己拿到了锁，而不重新列出子节点。",
    ],
    takeaway: [
        "Skipping the re-check after a wake-up breaks mutual exclusion: two clients hold the lock, and the resource loses an update.",
        "唤醒后不复查会破坏互斥：两个客户端同时持有锁，资源丢失了一次更新。",
    ],
    body: Body::Run { preset: "no-recheck", poses: &[Pose { at: Kind::Fault, ask: Ask::Believers }] },
};

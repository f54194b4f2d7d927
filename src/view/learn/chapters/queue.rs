//! The course chapter "The ephemeral-sequential queue" (queue).

use super::super::{Ask, Body, Chapter, Pose};
use crate::sim::moments::Kind;

pub const CHAPTER: Chapter = Chapter {
    id: "queue",
    title: ["The ephemeral-sequential queue", "临时顺序节点排队"],
    intro: [
        "The recipe from ZooKeeper's documentation: every client creates an ephemeral-sequential node under /locks; the lowest holds the lock; every other client watches only the node just before its own.",
        "ZooKeeper 文档中的锁方案：每个客户端在 /locks 下创建临时顺序节点；序号最小的持有锁；其余客户端只监视排在自己前面的那个节点。",
    ],
    takeaway: [
        "Sequence numbers form a queue: each release wakes exactly one waiter, whatever the number of clients.",
        "序号构成了一个队列：无论有多少客户端，每次释放只唤醒一个等待者。",
    ],
    body: Body::Run { preset: "queue", poses: &[Pose { at: Kind::Waiting, ask: Ask::Notified }] },
};

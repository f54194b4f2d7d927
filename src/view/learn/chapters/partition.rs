//! The course chapter "Partitions" (partition).

use super::super::{Ask, Body, Chapter, Pose};
use crate::sim::moments::Kind;

pub const CHAPTER: Chapter = Chapter {
    id: "partition",
    title: ["Partitions", "网络分区"],
    intro: [
        "C1 holds the lock when its link to ZooKeeper is cut. Its library only learns of the cut from silence; the server expires the session and grants the lock to C2.",
        "C1 持有锁时与 ZooKeeper 的网络被切断。它的客户端库只能从沉默中察觉；服务器使会话过期，并把锁交给 C2。",
    ],
    takeaway: [
        "A partitioned holder cannot know it lost the lock in time. Curator's LOST comes after the server has moved on (and InterProcessMutex keeps believing, CURATOR-206).",
        "被隔离的持锁者无法及时知道自己失去了锁。Curator 的 LOST 在服务器已经换人之后才到来（而 InterProcessMutex 仍然相信自己持有锁，CURATOR-206）。",
    ],
    body: Body::Run { preset: "partition", poses: &[Pose { at: Kind::Fault, ask: Ask::Believers }] },
};

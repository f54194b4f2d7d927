//! The course chapter "The naive lock and its herd" (herd).

use super::super::{Ask, Body, Chapter, Pose};
use crate::sim::moments::Kind;

pub const CHAPTER: Chapter = Chapter {
    id: "herd",
    title: ["The naive lock and its herd", "朴素的锁与羊群效应"],
    intro: [
        "The simplest ZooKeeper lock: whoever creates the ephemeral node /lock holds the lock; everyone else sets an exists-watch on it and waits. ZooKeeper fires a watch once, to every watcher.",
        "最简单的 ZooKeeper 锁：谁创建了临时节点 /lock 谁就持有锁；其余客户端用 exists 在它上面设置监视并等待。ZooKeeper 的监视只触发一次，但会通知每一个监视者。",
    ],
    takeaway: [
        "One release wakes every waiter; all but one lose the race and watch again. The cost grows with the number of waiters: the herd effect.",
        "一次释放唤醒所有等待者；只有一个抢到，其余的再次监视。代价随等待者数量增长：这就是羊群效应。",
    ],
    body: Body::Run { preset: "herd", poses: &[Pose { at: Kind::Waiting, ask: Ask::Notified }] },
};

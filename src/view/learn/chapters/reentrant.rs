//! The course chapter "Reentrancy" (reentrant).

use super::super::{Ask, Body, Chapter, Pose};
use crate::sim::moments::Kind;

pub const CHAPTER: Chapter = Chapter {
    id: "reentrant",
    title: ["Reentrancy", "可重入"],
    intro: [
        "Curator's InterProcessMutex is reentrant: a holder that acquires again only counts, and only its last release deletes the node.",
        "Curator 的 InterProcessMutex 是可重入的：持有者再次获取只是计数，只有最后一次释放才会删除节点。",
    ],
    takeaway: [
        "Reentrancy is bookkeeping in the client: the server sees one node per holder, however often it acquires.",
        "可重入是客户端里的记账：无论获取多少次，服务器上每个持有者只有一个节点。",
    ],
    body: Body::Run { preset: "reentrant", poses: &[Pose { at: Kind::Reentrant, ask: Ask::Notified }] },
};

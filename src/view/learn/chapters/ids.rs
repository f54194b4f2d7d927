//! The course chapter "The unique-ID problem" (ids).

use super::super::{Ask, Body, Chapter, Pose};
use crate::sim::moments::Kind;

pub const CHAPTER: Chapter = Chapter {
    id: "ids",
    title: ["The unique-ID problem", "唯一 ID 问题"],
    intro: [
        "Ten machines hand out order numbers: each reads the last ID, adds one and writes it back. Nothing coordinates them. Watch the cards: every one works without a lock, and the ledger below records each ID handed out.",
        "十台机器分配订单号：每台读取最后一个 ID，加一后写回。没有任何协调。看客户端卡片：每台都在不加锁地工作，下方的账本记录了分配出去的每个 ID。",
    ],
    takeaway: [
        "Read-modify-write by several machines at once loses updates: here the same ID went out twice. Something must make them take turns — a lock.",
        "多台机器同时读-改-写会丢失更新：这里同一个 ID 被分配了两次。必须有办法让它们轮流来——这就是锁。",
    ],
    body: Body::Run { preset: "ids-unlocked", poses: &[Pose { at: Kind::Unlocked, ask: Ask::Duplicate }] },
};

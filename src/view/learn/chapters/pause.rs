//! The course chapter "GC pauses: two believers" (pause).

use super::super::{Ask, Body, Chapter, Pose};
use crate::sim::moments::Kind;

pub const CHAPTER: Chapter = Chapter {
    id: "pause",
    title: ["GC pauses: two believers", "GC 停顿：两个自认的持锁者"],
    intro: [
        "C1 holds the lock and freezes in a long GC pause. No pings go out; its session expires and C2 gets the lock. Then C1 wakes up, still believing it holds it.",
        "C1 持有锁时陷入长时间 GC 停顿。心跳发不出去；它的会话过期，C2 拿到锁。随后 C1 醒来，仍然以为自己持有锁。",
    ],
    takeaway: [
        "No lock service can stop a paused process from believing stale things: for a while two clients act as holders, and the stale write lands.",
        "任何锁服务都无法阻止一个停顿的进程相信过时的事情：有一段时间两个客户端都以持锁者的身份行事，过时的写入生效了。",
    ],
    body: Body::Run { preset: "gc-pause", poses: &[Pose { at: Kind::Fault, ask: Ask::Believers }] },
};

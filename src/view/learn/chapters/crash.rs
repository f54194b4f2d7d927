//! The course chapter "Crashes and session expiry" (crash).

use super::super::{Ask, Body, Chapter, Pose};
use crate::sim::moments::Kind;

pub const CHAPTER: Chapter = Chapter {
    id: "crash",
    title: ["Crashes and session expiry", "崩溃与会话过期"],
    intro: [
        "C1 holds the lock and its process dies. Its node is ephemeral: it belongs to C1's session, and the session lives at the server until no ping has arrived for its timeout. Watch C1's ring.",
        "C1 持有锁时进程崩溃。它的节点是临时节点：属于 C1 的会话，而会话会在服务器上一直存在，直到超时时间内都没有收到心跳。留意 C1 的圆环。",
    ],
    takeaway: [
        "A crashed holder does not block the lock forever: its session expires, the server deletes its node and the next waiter is notified — after the session timeout, not at once.",
        "崩溃的持锁者不会永远占着锁：它的会话过期后，服务器删除其节点并通知下一个等待者——但要等到会话超时，而不是立刻。",
    ],
    body: Body::Run { preset: "holder-crash", poses: &[Pose { at: Kind::Fault, ask: Ask::AfterExpiry }] },
};

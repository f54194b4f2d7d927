//! The course chapter "Curator's protection mode" (protection).

use super::super::{Ask, Body, Chapter, Pose};
use crate::sim::moments::Kind;

pub const CHAPTER: Chapter = Chapter {
    id: "protection",
    title: ["Curator's protection mode", "Curator 的保护模式"],
    intro: [
        "A create can succeed at the server while its reply is lost with the connection. Without protection the client creates again and orphans its first node; Curator names nodes _c_<uuid>- so it can find its own after reconnecting.",
        "创建请求可能在服务器上成功，而应答随连接一起丢失。没有保护时，客户端会再创建一次，第一个节点成了孤儿；Curator 用 _c_<uuid>- 命名节点，重连后就能找到自己的节点。",
    ],
    takeaway: [
        "Protection mode turns a lost reply into a lookup: the client adopts the node it created instead of leaving an orphan that blocks the queue.",
        "保护模式把丢失的应答变成一次查找：客户端认领自己创建的节点，而不是留下阻塞队列的孤儿节点。",
    ],
    body: Body::Run { preset: "lost-reply-protected", poses: &[Pose { at: Kind::Fault, ask: Ask::NextSequence }] },
};

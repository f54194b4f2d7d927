//! The course chapter "Redis, etcd and a lock table" (services).

use super::super::{Ask, Body, Chapter, Pose};
use crate::sim::moments::Kind;

pub const CHAPTER: Chapter = Chapter {
    id: "services",
    title: ["Redis, etcd and a lock table", "Redis、etcd 与锁表"],
    intro: [
        "Other services lock differently: a Redis key with a TTL (SET NX PX), an etcd key on a lease ordered by create revision, a row in a SQL table. Here a Redis primary fails over to a replica that never got the lock's key.",
        "其他服务的加锁方式不同：带 TTL 的 Redis 键（SET NX PX）、挂在租约上并按创建版本排序的 etcd 键、SQL 表中的一行。这里 Redis 主节点故障切换到一个从未收到锁键的副本。",
    ],
    takeaway: [
        "Asynchronous replication can forget a lock: after the failover two clients hold it. Compare the services side by side with Compare (in More).",
        "异步复制可能把锁弄丢：故障切换之后两个客户端都持有锁。可以用“更多”里的“对比锁服务”把各服务并排比较。",
    ],
    body: Body::Run { preset: "redis-failover", poses: &[Pose { at: Kind::ReplicaBehind, ask: Ask::Believers }] },
};

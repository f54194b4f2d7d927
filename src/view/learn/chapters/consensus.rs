//! The course chapter "Why a lock needs consensus" (consensus): CP against AP.

use super::super::{Ask, Body, Chapter, Pose};
use crate::sim::moments::Kind;

pub const CHAPTER: Chapter = Chapter {
    id: "consensus",
    title: ["Why a lock needs consensus", "为什么锁需要共识"],
    intro: [
        "The last chapter's Redis primary answered before its replica had the lock, and a failover forgot it. Here three ZooKeeper servers hold the lock instead: a write is committed only once a majority has logged it. C1 holds the lock when the leader crashes.",
        "上一章的 Redis 主节点在副本拿到锁之前就应答了，一次故障切换就把锁弄丢了。这里换成三台 ZooKeeper 服务器：一次写入只有在过半数服务器记录之后才会提交。C1 持有锁时，领导者崩溃了。",
    ],
    takeaway: [
        "A lock committed by a majority survives its leader: any new majority overlaps the old one, so the new leader has the lock node. The price is availability — no server answers while they elect (CP). Redis's asynchronous replication answers first and can forget (AP). Put Redis beside it with Compare (in More).",
        "被过半数提交的锁能在领导者宕机后保留下来：任何新的多数派都与旧的多数派有交集，所以新领导者拥有这个锁节点。代价是可用性——选举期间没有服务器应答（CP）。Redis 的异步复制先应答，可能会忘记（AP）。可以用“更多”里的“对比锁服务”把 Redis 放在旁边对照。",
    ],
    body: Body::Run { preset: "zk-leader-crash", poses: &[Pose { at: Kind::Fault, ask: Ask::Survives }] },
};

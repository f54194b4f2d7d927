//! The course chapter "Redlock and the clock" (redlock): five masters without replication, and
//! the clock every one of them trusts.

use super::super::{Ask, Body, Chapter, Pose};
use crate::sim::moments::Kind;

pub const CHAPTER: Chapter = Chapter {
    id: "redlock",
    title: ["Redlock and the clock", "Redlock 与时钟"],
    intro: [
        "Redlock drops replication: five independent Redis masters, and a client holds the lock when a majority of them set its key and its TTL has time left. No master knows about the others, and each measures TTLs on its own clock. Masters 4 and 5 are down when C1 locks, so C1's lock rests on exactly three masters. Then one of them has its clock stepped forward.",
        "Redlock 不用复制：五个相互独立的 Redis 主节点，客户端在多数主节点写下它的键、且 TTL 还有剩余时才算持有锁。没有哪个主节点知道其他主节点的存在，每个都按自己的时钟计算 TTL。C1 加锁时主节点 4 和 5 已宕机，所以 C1 的锁恰好落在三个主节点上。接着，其中一个主节点的时钟被向前拨了一下。",
    ],
    takeaway: [
        "A majority of independent masters is only as good as each master's memory and clock: a clock that jumps, or a master that restarts empty, silently takes back a vote, and a second client can gather a majority while the first still holds the lock. Redlock's cures are operational (no clock steps, fsync or delayed restarts), and its random value cannot fence a paused holder. A consensus service with ordered tokens does not depend on any of them. The other Redlock presets show the restart, its two cures, and the pause.",
        "独立主节点构成的多数派，其可靠程度取决于每个主节点的记忆和时钟：时钟一跳变，或者主节点空着重启，就悄悄收回了一票，第二个客户端就能在第一个仍持有锁时凑齐多数。Redlock 的补救都靠运维（不许时钟步进、落盘或延迟重启），而它的随机值也挡不住一个停顿过的持锁者。使用有序令牌的共识服务不依赖这些条件。其他 Redlock 预设演示了重启、它的两种补救以及停顿。",
    ],
    body: Body::Run {
        preset: "redlock-clock-jump",
        poses: &[Pose {
            at: Kind::Expiry,
            ask: Ask::Believers,
        }],
    },
};

//! Redlock presets: node-redlock 4.2 on five independent Redis masters (full bundle only). The
//! run's ticks are milliseconds; clients start when the script says (`rounds` 0 and timed
//! acquires), so each lesson's order of events is fixed.

use super::moments::Kind;
use super::presets::{at, base, Preset};
use super::scenario::{Command, Scenario, TimedCommand};
use crate::recipes::RecipeKind;

/// Five masters, two clients that acquire when told, a TTL of `lease` and `hold` ms of work.
fn redlock(lease: u64, hold: u64, faults: Vec<TimedCommand>) -> Scenario {
    Scenario {
        rounds: 0,
        hold_min: hold,
        hold_max: hold,
        lease,
        latency_min: 1,
        latency_max: 2,
        fencing: false,
        faults,
        ..base(RecipeKind::Redlock, 2)
    }
}

fn acquire(t: u64, client: usize) -> TimedCommand {
    at(t, Command::Acquire { client })
}

/// The clients' ioredis fails a command for a master that is down at once
/// (`enableOfflineQueue: false`) instead of holding it for 10.5 s or more.
fn fail_fast(sc: Scenario) -> Scenario {
    Scenario {
        enable_offline_queue: false,
        ..sc
    }
}

/// Masters 4 and 5 are down when C1 locks at 5 ms: it holds the lock on redis-1, 2 and 3.
/// They come back empty at 100 ms; `fault` strikes at 200 ms; C2 asks at 300 ms.
fn three_of_five(fault: Vec<TimedCommand>) -> Scenario {
    let mut f = vec![
        at(0, Command::CrashServer { server: 3 }),
        at(0, Command::CrashServer { server: 4 }),
        acquire(5, 0),
        at(
            100,
            Command::RestartServer {
                server: 3,
                keep_disk: false,
            },
        ),
        at(
            100,
            Command::RestartServer {
                server: 4,
                keep_disk: false,
            },
        ),
    ];
    f.extend(fault);
    f.push(acquire(300, 1));
    fail_fast(redlock(10_000, 2_000, f))
}

/// Redis 3 crashes at 200 ms and is started again 50 ms later, from its AOF or empty.
fn restart(keep_disk: bool) -> Scenario {
    three_of_five(vec![
        at(200, Command::CrashServer { server: 2 }),
        at(
            250,
            Command::RestartServer {
                server: 2,
                keep_disk,
            },
        ),
    ])
}

pub const REDLOCK_PRESETS: &[Preset] = &[
    Preset { id: "redlock-majority", title: ["Redlock: a majority of five masters", "Redlock：五个主节点中的多数"], lesson: [
        "node-redlock sends its lock script to all five independent Redis masters at once; C1 and C2 ask within a tick of each other. The first EVALSHA on each master answers NOSCRIPT (the script is not cached there yet), so each client sends the whole script with EVAL. Each master keeps the key of whichever request reaches it first: C2 wins redis-1, 3 and 5, a majority, and holds the lock; C1 wins only redis-2 and 4, so it deletes its keys from every master and tries again 100 to 300 ms later, until C2 releases.",
        "node-redlock 把加锁脚本同时发给五个相互独立的 Redis 主节点；C1 和 C2 前后相差不到一个时钟单位。每个主节点上的第一个 EVALSHA 都回答 NOSCRIPT（脚本还没缓存在那里），于是客户端改用 EVAL 发送整个脚本。每个主节点保留先到的那个请求写下的键：C2 赢得 redis-1、3、5，构成多数，持有锁；C1 只赢得 redis-2 和 4，于是从每个主节点删除自己的键，100 到 300 毫秒后再试，直到 C2 释放锁。"],
        build: || redlock(10_000, 400, vec![acquire(1, 0), acquire(1, 1)]), moments: &[Kind::Quorum] },
    Preset { id: "redlock-master-down", title: ["Redlock: one master down, the lock 10.5 s late", "Redlock：一个主节点宕机，锁晚到 10.5 秒"], lesson: [
        "Redis-5 is down. Each client's library (ioredis, its defaults) keeps commands for it and redials after 50, 100, 150 … ms, up to 2 s; node-redlock waits for an answer from every master, with no timeout of its own. C1's script for redis-5 fails only at the 21st failed redial, 10.5 s later; then its four votes count, and with a 30 s TTL about 19 s of validity are left. C2 asks at 11 s, but its library has been redialling since the start: its script waits for the 42nd failure, at 43 s, when its 30 s have run out. It unlocks and retries, and each attempt waits 42 s more: with one master down, C2 never gets the lock (node-redlock issue #262).",
        "Redis-5 已宕机。每个客户端的库（ioredis，默认设置）都为它保留命令，并在 50、100、150……毫秒后重拨，最长间隔 2 秒；node-redlock 要等每个主节点都有应答，自己没有超时。C1 发给 redis-5 的脚本直到第 21 次重拨失败、也就是 10.5 秒后才报错；这时它的四票才算数，TTL 为 30 秒，还剩大约 19 秒有效期。C2 在第 11 秒请求加锁，但它的库从一开始就在重拨：它的脚本要等到第 42 次失败，也就是第 43 秒，那时它的 30 秒已经用完。它解锁后重试，而每次尝试都要再等 42 秒：只要一个主节点宕机，C2 就永远拿不到锁（node-redlock 第 262 号问题）。"],
        build: || redlock(30_000, 400, vec![at(0, Command::CrashServer { server: 4 }), acquire(5, 0), acquire(11_000, 1)]), moments: &[Kind::Fault, Kind::Expiry] },
    Preset { id: "redlock-clock-jump", title: ["Redlock: a master's clock jumps", "Redlock：一个主节点的时钟跳变"], lesson: [
        "Masters 4 and 5 are down when C1 locks, so C1 holds the lock with three votes: redis-1, 2 and 3. They come back empty at 100 ms. At 200 ms redis-3's clock jumps 10 s forward (an NTP step): Redis measures TTLs on its own clock, so C1's 10 s key there expires at once. C2 asks and gets redis-3, 4 and 5: a majority. Both believe they hold the lock, nothing tells C1, and one update is lost. Redlock assumes every clock runs at about the same rate; a jump breaks it.",
        "C1 加锁时主节点 4 和 5 已宕机，所以 C1 凭三票持有锁：redis-1、2、3。它们在 100 毫秒时空着重启。200 毫秒时 redis-3 的时钟向前跳了 10 秒（NTP 步进校时）：Redis 按自己的时钟计算 TTL，所以 C1 在那里的 10 秒的键立刻过期。C2 来加锁，拿到 redis-3、4、5：多数。两个客户端都以为自己持有锁，没有任何东西通知 C1，一次更新丢失了。Redlock 假设所有时钟走得差不多快；一次跳变就打破了它。"],
        build: || three_of_five(vec![at(200, Command::ClockJump { server: 2, by: 10_000 })]), moments: &[Kind::Fault, Kind::Expiry, Kind::TwoHolders, Kind::LostUpdate] },
    Preset { id: "redlock-restart-empty", title: ["Redlock: a master restarts empty, two holders", "Redlock：主节点空着重启，两个持锁者"], lesson: [
        "C1 holds the lock on redis-1, 2 and 3 (masters 4 and 5 were down and came back empty). At 200 ms redis-3 crashes, and 50 ms later it starts again without persistence: C1's key there is gone. C2 gets redis-3, 4 and 5, a majority, while C1 still holds the lock, and one update is lost. The cures: fsync every write (appendfsync always), or keep a crashed master down longer than the longest TTL (the next two presets).",
        "C1 在 redis-1、2、3 上持有锁（主节点 4 和 5 曾宕机，空着重启）。200 毫秒时 redis-3 崩溃，50 毫秒后在没有持久化的情况下重新启动：C1 在它上面的键没了。C1 仍持有锁时，C2 拿到了 redis-3、4、5，构成多数，一次更新丢失了。解决办法：每次写入都落盘（“appendfsync always”），或者让崩溃的主节点停机超过最长的 TTL（后两个预设）。"],
        build: || restart(false), moments: &[Kind::Fault, Kind::TwoHolders, Kind::LostUpdate] },
    Preset { id: "redlock-restart-delayed", title: ["Redlock: delayed restart, one holder", "Redlock：延迟重启，只有一个持锁者"], lesson: [
        "The same crashes, but the operator keeps every crashed master down longer than the longest TTL (10 s): redis-4 and 5 until t=10001, redis-3 until t=10201. C2 asks at 300 ms: redis-1 and 2 still hold C1's key and three masters are down, so none of its attempts can reach a majority, and it gives up after 11 (node-redlock's 10 retries). One holder, whatever the restarted masters forgot; the price is that nobody can lock while a majority is held down.",
        "同样的崩溃，但运维让每个崩溃的主节点停机超过最长的 TTL（10 秒）：redis-4 和 5 停到 t=10001，redis-3 停到 t=10201。C2 在 300 毫秒时请求加锁：redis-1 和 2 上还有 C1 的键，另有三个主节点停着，所以它的每次尝试都拿不到多数，11 次之后放弃（node-redlock 默认重试 10 次）。不管重启的主节点忘了什么，都只有一个持锁者；代价是多数主节点停着的时候谁也加不了锁。"],
        build: || Scenario { delayed_restart: true, ..restart(false) }, moments: &[Kind::Fault, Kind::Quorum] },
    Preset { id: "redlock-restart-fsync", title: ["Redlock: restart with appendfsync always, one holder", "Redlock：“appendfsync always”重启，只有一个持锁者"], lesson: [
        "The same crash of redis-3, but it writes every command to its append-only file before answering (appendfsync always). It restarts with C1's key, TTL and all: C2 gets only redis-4 and 5 and keeps retrying until C1 releases at about 2 s; its next attempt wins. The price is a disk write in every lock request.",
        "同样是 redis-3 崩溃，但它在应答之前把每条命令写进只追加文件（“appendfsync always”）。它带着 C1 的键（连同 TTL）重启：C2 只拿到 redis-4 和 5，一直重试，直到 C1 在大约 2 秒时释放锁；它的下一次尝试成功了。代价是每次加锁请求都要写一次磁盘。"],
        build: || restart(true), moments: &[Kind::Fault, Kind::Quorum] },
    Preset { id: "redlock-gc-pause", title: ["Redlock: a pause outlives the TTL", "Redlock：停顿比 TTL 更久"], lesson: [
        "C1 holds the lock on all five masters with a 10 s TTL, reads the counter, and stops for 15 s (a GC pause). Its keys expire on every master; C2 gets the lock and writes. C1 wakes up still believing it holds the lock and writes its stale value: C2's update is lost. A fencing token would stop it, but Redlock's random value has no order: the resource cannot tell the older holder. (antirez's answer: let the resource compare-and-set on the value; Kleppmann's: use a lock service with ordered tokens.)",
        "C1 以 10 秒 TTL 在全部五个主节点上持有锁，读取计数器后停顿 15 秒（GC 停顿）。它的键在每个主节点上都过期了；C2 拿到锁并写入。C1 醒来后仍以为自己持有锁，写入过时的值：C2 的更新丢失了。防护令牌本可以挡住它，但 Redlock 的随机值没有顺序：资源分辨不出哪个持锁者更旧。（antirez 的回答：让资源按这个值做比较并设置；Kleppmann 的回答：用能给出有序令牌的锁服务。）"],
        build: || redlock(10_000, 400, vec![acquire(1, 0), at(40, Command::Pause { client: 0, ticks: 15_000 }), acquire(11_000, 1)]), moments: &[Kind::Fault, Kind::Expiry, Kind::TwoHolders, Kind::LostUpdate] },
];

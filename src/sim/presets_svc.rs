//! Presets for the lock services beside ZooKeeper (full bundle only), each with a title and a
//! one-paragraph lesson in English and Chinese.

use super::moments::Kind;
use super::presets::{at, base, Preset};
use super::scenario::{Command, Scenario, TimedCommand};
use crate::recipes::RecipeKind;

fn svc(recipe: RecipeKind, clients: u32, lease: u64, faults: Vec<TimedCommand>) -> Scenario {
    Scenario {
        hold_min: 20,
        hold_max: 20,
        lease,
        fencing: true,
        faults,
        ..base(recipe, clients)
    }
}

pub const SERVICE_PRESETS: &[Preset] = &[
    Preset { id: "sql-crash", title: ["SQL lock row: the holder crashes", "SQL 锁行：持锁者崩溃"], lesson: [
        "The plain lock table: acquire is INSERT of the row 'lock' (a duplicate key, SQLSTATE 23505, means busy, so waiters poll), release is DELETE. C1 crashes while holding: the committed row stays in the table, nothing ever removes it, and C2 and C3 poll forever. The stuck monitor says so. An expiry column with takeover (next preset) or a session lock fixes this.",
        "最简单的锁表：获取锁就是插入 'lock' 这一行（主键冲突，SQLSTATE 23505，表示被占用，等待者只能轮询），释放就是 DELETE。C1 持锁时崩溃：已提交的行留在表里，没有任何东西会删除它，C2 和 C3 永远轮询下去。卡死监视器会指出这一点。加上过期列和接管规则（下一个预设），或者改用会话锁，才能解决。"], build: || svc(RecipeKind::SqlInsert, 3, 60, vec![at(8, Command::Crash { client: 0 })]), moments: &[Kind::Fault, Kind::Stuck] },
    Preset { id: "sql-lease", title: ["SQL lock row with expiry and fence", "带过期时间和防护号的 SQL 锁行"], lesson: [
        "The lock row carries expires_at and a fence from a sequence. C1 holds it and stalls for 150 ticks; once the row has expired, C2's UPDATE … WHERE expires_at < now() takes it over and bumps the fence. C1 wakes up still believing it holds the lock and writes with its old fence: the resource rejects it. Expiry restores progress; the fence restores safety.",
        "锁行带有 expires_at 和来自序列的防护号。C1 持有它时停顿了 150 个时钟单位；行过期后，C2 的 UPDATE … WHERE expires_at < now() 接管了它并增大防护号。C1 醒来后仍以为自己持有锁，用旧防护号写入：资源拒绝了它。过期保证进展，防护号保证安全。"], build: || svc(RecipeKind::SqlLease, 2, 60, vec![at(8, Command::Pause { client: 0, ticks: 150 })]), moments: &[Kind::Fault, Kind::TwoHolders, Kind::Fenced] },
    Preset { id: "sql-row-lock", title: ["SELECT … FOR UPDATE: the holder crashes", "SELECT … FOR UPDATE：持锁者崩溃"], lesson: [
        "BEGIN; SELECT … FOR UPDATE blocks inside the server until the row is free: no polling, one request per acquisition. The lock lives as long as the transaction, so when C1 crashes, its operating system closes the connection, the server rolls back, and C2's blocked SELECT returns at once. The price: no token, and a paused or half-open holder keeps the row locked.",
        "BEGIN; SELECT … FOR UPDATE 在服务器内部阻塞，直到该行空闲：不需要轮询，每次获取只有一个请求。锁与事务同生共死，所以 C1 崩溃时操作系统关闭连接，服务器回滚，C2 被阻塞的 SELECT 立即返回。代价是：没有令牌，停顿或半开连接的持锁者会一直锁住这一行。"], build: || svc(RecipeKind::SqlRowLock, 3, 60, vec![at(8, Command::Crash { client: 0 })]), moments: &[Kind::RowWaiters, Kind::Fault, Kind::RowHandover] },
    Preset { id: "redis-setnx-crash", title: ["Redis SETNX + EXPIRE: crash in between", "Redis SETNX + EXPIRE：两条命令之间崩溃"], lesson: [
        "The legacy two-command lock: SETNX lock token, then EXPIRE lock 2. C1 crashes after its SETNX succeeded but before it could send EXPIRE: the key has no TTL (TTL answers -1), and every later SETNX answers 0. Nobody ever gets the lock again. SET lock token NX PX ttl does both in one atomic command.",
        "老式的两条命令锁：先 SETNX lock token，再 EXPIRE lock 2。C1 在 SETNX 成功之后、发送 EXPIRE 之前崩溃：这个键没有 TTL（TTL 返回 -1），之后的每个 SETNX 都返回 0。再也没有人能拿到锁。“SET lock token NX PX ttl”用一条原子命令同时完成两件事。"], build: || Scenario { ttl_repair: false, ..svc(RecipeKind::RedisSetnx, 3, 2000, vec![at(3, Command::Crash { client: 0 })]) }, moments: &[Kind::Fault, Kind::NoExpiry, Kind::Stuck] },
    Preset { id: "redis-setnx-repair", title: ["Redis SETNX: the TTL -1 repair", "Redis SETNX：修复 TTL 为 -1 的锁"], lesson: [
        "The same crash, but waiters that find the lock busy ask TTL lock. An answer of -1 means the key has no expiry: either its holder died between SETNX and EXPIRE, or it is alive and its EXPIRE is still on its way; the waiter cannot tell which, so it sends EXPIRE itself (harmless to a live holder, whose own EXPIRE sets the same TTL). Here C1 is dead: two seconds later the key is gone and C2 gets the lock. The release here uses WATCH, GET, MULTI, DEL, EXEC so that it only deletes its own token.",
        "同样的崩溃，但等待者发现锁被占用时会询问 TTL lock。返回 -1 表示这个键没有过期时间：要么持锁者在 SETNX 和 EXPIRE 之间死了，要么它还活着、它的 EXPIRE 还在路上；等待者分辨不出是哪一种，于是自己发送 EXPIRE（对活着的持锁者无害，它自己的 EXPIRE 设置的是同样的 TTL）。这里 C1 已经死了：两秒后键消失，C2 获得锁。这里的释放使用 WATCH、GET、MULTI、DEL、EXEC，只删除自己的令牌。"], build: || svc(RecipeKind::RedisSetnx, 3, 2000, vec![at(3, Command::Crash { client: 0 })]), moments: &[Kind::Fault, Kind::NoExpiry, Kind::Repaired] },
    Preset { id: "redis-lease-pause", title: ["Redis SET NX PX: the lease runs out", "Redis SET NX PX：租约到期"], lesson: [
        "The documented single-instance lock: SET lock token NX PX 50, release with a compare-and-delete script. C1 holds it, reads the counter and stalls for 120 ticks. The key expires; C2 acquires, reads and writes. C1 wakes up, still believing it holds the lock, and writes its stale value: an update is lost. The compare-and-delete keeps C1 from deleting C2's key, but nothing stops the overlapping work, and Redis gives no token to fence with.",
        "官方文档中的单实例锁：SET lock token NX PX 50，用比较后删除的脚本释放。C1 持锁并读取计数器后停顿 120 个时钟单位。键过期了；C2 获得锁并完成读写。C1 醒来后仍以为自己持有锁，写入过时的值：一次更新丢失了。比较后删除能防止 C1 删掉 C2 的键，但阻止不了重叠的工作，而且 Redis 没有可用于防护的令牌。"], build: || svc(RecipeKind::RedisLease, 2, 50, vec![at(8, Command::Pause { client: 0, ticks: 120 })]), moments: &[Kind::Fault, Kind::Expiry, Kind::TwoHolders, Kind::LostUpdate] },
    Preset { id: "redis-failover", title: ["Redis: the primary fails over", "Redis：主节点故障切换"], lesson: [
        "A primary with an asynchronously replicated replica (writes arrive 5 ticks later). C1's SET NX PX succeeds on the primary, which dies before the write reached the replica. The replica is promoted without the lock key, and C2's SET NX PX succeeds too: two holders, although Redis acknowledged C1's lock.",
        "主节点带一个异步复制的副本（写入晚 5 个时钟单位到达）。C1 的 SET NX PX 在主节点上成功，但主节点在这次写入到达副本之前宕机。副本被提升为主节点，却没有这个锁键，于是 C2 的 SET NX PX 也成功了：两个持锁者，尽管 Redis 已经确认了 C1 的锁。"], build: || Scenario { replica_lag: Some(5), ..svc(RecipeKind::RedisLease, 2, 2000, vec![at(3, Command::Failover)]) }, moments: &[Kind::ReplicaBehind, Kind::Fault, Kind::TwoHolders, Kind::LostUpdate] },
    Preset { id: "redis-split", title: ["Redis: the replica never got the lock", "Redis：副本从未收到这把锁"], lesson: [
        "Two servers: redis-1 is the primary, redis-2 its replica, and a partition cuts redis-2 off at tick 1. C1's SET NX PX succeeds on redis-1, which answers first and replicates after: the write leaves for redis-2 two ticks later and is lost in the partition, so redis-2 never has the lock key. Then redis-1 dies, redis-2 is promoted and the partition heals: C2's SET NX PX succeeds on redis-2 while C1 still holds the lock. Asynchronous replication acknowledged a lock that one failover later did not exist.",
        "两台服务器：redis-1 是主节点，redis-2 是它的副本，第 1 个时钟单位时网络分区把 redis-2 隔离开。C1 的 SET NX PX 在 redis-1 上成功；redis-1 先应答、后复制：这次写入在两个时钟单位后发往 redis-2，却在分区中丢失，所以 redis-2 从未有过这个锁键。随后 redis-1 宕机，redis-2 被提升为主节点，分区恢复：C1 仍持有锁时，C2 的 SET NX PX 在 redis-2 上也成功了。异步复制确认过的锁，一次故障切换之后就不存在了。"], build: || Scenario { replica_lag: Some(2), ..svc(RecipeKind::RedisLease, 2, 2000, vec![at(1, Command::Split { clients: vec![], servers: vec![1] }), at(8, Command::Failover), at(9, Command::HealSplit)]) }, moments: &[Kind::ReplicaBehind, Kind::Fault, Kind::TwoHolders, Kind::LostUpdate] },
    Preset { id: "etcd-mutex", title: ["etcd concurrency.Mutex", "etcd concurrency.Mutex"], lesson: [
        "Each session grants a lease and keeps it alive; the mutex puts lock/<lease id> with that lease and queues by create revision. A waiter watches only the key with the next-lower create revision, from the revision of its read. The holder's token is its key's create revision, which grows with every holder: a fencing token for free.",
        "每个会话申请一个租约并保持续期；互斥锁以该租约写入 lock/<租约 ID>，按创建修订号排队。等待者只监视创建修订号比自己小的那一个键，从它读取时的修订号开始监视。持锁者的令牌就是它的键的创建修订号，随每个新持锁者增大：天然的防护令牌。"], build: || svc(RecipeKind::EtcdMutex, 4, 2000, Vec::new()), moments: &[Kind::Waiting] },
    Preset { id: "etcd-pause-fenced", title: ["etcd: keep-alives stop, fencing saves", "etcd：续期中断，防护令牌兜底"], lesson: [
        "C1 holds the mutex and stalls for 4000 ticks: its keep-alives stop, the 2-second lease expires, and the server deletes its key in one revision. C2's watch fires and it takes the lock. C1 wakes up and writes with its old create revision: the resource has seen C2's larger revision and rejects the write.",
        "C1 持有互斥锁时停顿 4000 个时钟单位：续期中断，2 秒的租约到期，服务器在一个修订号中删除它的键。C2 的监视被触发并拿到锁。C1 醒来后用旧的创建修订号写入：资源已经见过 C2 更大的修订号，拒绝了这次写入。"], build: || svc(RecipeKind::EtcdMutex, 2, 2000, vec![at(8, Command::Pause { client: 0, ticks: 4000 })]), moments: &[Kind::Fault, Kind::Expiry, Kind::TwoHolders, Kind::Fenced] },
    Preset { id: "etcd-leader-change", title: ["etcd leader change", "etcd 领导者变更"], lesson: [
        "The etcd leader changes while C1 holds the lock and C2 waits. Requests stall for an election timeout and every lease is re-armed to its TTL plus one second, so a dead holder would block others longer, never shorter. Committed keys survive: no second holder.",
        "C1 持锁、C2 等待时，etcd 领导者发生变更。请求停顿一个选举超时，每个租约都被重置为 TTL 加一秒，所以死掉的持锁者只会让别人等得更久，而不会更短。已提交的键都保留：不会出现第二个持锁者。"], build: || svc(RecipeKind::EtcdMutex, 2, 2000, vec![at(8, Command::Failover)]), moments: &[Kind::Fault] },
];

#[cfg(test)]
mod tests {
    /// The lean bundle hands links to these presets (and the ensemble's) over by id: its copy
    /// of the list must be exactly their ids and titles.
    #[test]
    fn the_lean_bundles_id_list_names_every_service_preset() {
        let names: Vec<_> = super::super::presets_zab::ENSEMBLE_PRESETS
            .iter()
            .chain(super::SERVICE_PRESETS)
            .chain(super::super::presets_redlock::REDLOCK_PRESETS)
            .map(|p| (p.id, p.title))
            .collect();
        let copy: Vec<_> = super::super::presets::SERVICE_PRESET_NAMES
            .iter()
            .map(|p| (p.id, p.title))
            .collect();
        assert_eq!(names, copy);
    }
}

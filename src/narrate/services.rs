//! Narration templates (en, zh) for the lock services beside ZooKeeper, for failovers and (from
//! `zab.rs`) for a ZooKeeper ensemble's traffic. The lean bundle keeps only what a standalone
//! ZooKeeper world can say (the completeness test runs on the full build).

use super::Key;

pub fn covers(k: Key) -> bool {
    matches!(
        k,
        Key::SvcRequest
            | Key::TimerRetry
            | Key::TimerKeepAlive
            | Key::TimerResend
            | Key::SvcBlocked
            | Key::SvcAnswer
            | Key::SvcWatchEvent
            | Key::SvcHangup
            | Key::SvcRollback
            | Key::SvcExpiry
            | Key::SvcCrash
            | Key::FailoverRedis
            | Key::FailoverRedisRestart
            | Key::FailoverEtcd
            | Key::FailoverSql
            | Key::FailoverZk
            | Key::FailoverZab
            | Key::NotApplicable
            | Key::ClockJumpForward
            | Key::ClockJumpBack
            | Key::RedlockHeldDown
            | Key::FailoverRedlock
            | Key::RedlockRequest
            | Key::RedlockHeard
            | Key::RedlockRefused
            | Key::RedlockExpired
            | Key::RedlockReconnect
            | Key::RedlockConnected
            | Key::RedlockReset
    )
}

pub fn template(k: Key) -> (&'static str, &'static str) {
    match k {
        Key::FailoverZk => (
            "Fault: the ZooKeeper ensemble elects a new leader. Requests stall; sessions and ephemeral nodes survive.",
            "故障：ZooKeeper 集群选出新的领导者。请求停顿；会话和临时节点都保留。",
        ),
        Key::FailoverZab => (
            "Fault: the leader crashes. What it held in memory is gone; its log stays on disk. Its connections reset, and the other servers elect a new leader: the one whose log goes furthest.",
            "故障：领导者崩溃。它内存中的一切都没了，日志还在磁盘上。它的连接被重置，其余服务器选出新的领导者：日志最完整的那一台。",
        ),
        _ => other(k).unwrap_or(("{a} does not apply to this lock service.", "{a} 不适用于这个锁服务。")),
    }
}

/// The other services' sentences: only the full bundle can meet them.
#[cfg(not(feature = "services"))]
fn other(_: Key) -> Option<(&'static str, &'static str)> {
    None
}

#[cfg(feature = "services")]
fn other(k: Key) -> Option<(&'static str, &'static str)> {
    Some(match k {
        Key::PeerApplied => (
            "{a} applies the replication stream it received: “{b}”.",
            "{a} 应用收到的复制流：“{b}”。",
        ),
        Key::PeerSent => (
            "{a}'s replication buffer sends its replica what it already answered: “{b}”.",
            "{a} 的复制缓冲区把已经应答过的写入发给副本：“{b}”。",
        ),
        Key::PeerGap => (
            "{a} gets part of the replication stream after a gap (an earlier part was lost): the link is broken and it applies nothing more.",
            "{a} 收到的复制流中间有缺口（之前的一段丢失了）：复制链路断开，之后什么都不再应用。",
        ),
        Key::PeerDropped => (
            "{a} is no replica any more (it was promoted): part of its old primary's replication stream arrives and is dropped.",
            "{a} 已不再是副本（它被提升了）：旧主节点的一段复制流到达后被丢弃。",
        ),
        Key::PeerLost => (
            "“{a}” between two servers is lost in the network (a split, or a crashed end).",
            "服务器之间的“{a}”在网络中丢失（网络分区，或一端已崩溃）。",
        ),
        Key::CmdRead => ("{c} reads /lock: exists(\"/lock\"), answered by the server it is connected to, from its own copy of the tree.", "{c} 读取 /lock：exists(\"/lock\")，由它所连的服务器用自己那份数据树来回答。"),
        Key::CmdSyncRead => ("{c} reads /lock after sync: sync(\"/lock\") first, which its server answers only once it has applied everything the leader committed before it; then exists(\"/lock\").", "{c} 先 sync 再读 /lock：先发 sync(\"/lock\")，它的服务器要等应用完领导者在此之前提交的所有事务后才回答；然后发 exists(\"/lock\")。"),
        Key::AbandonedHandshake => (
            "{c}'s {a} reaches {b} after {c} moved on to another server and closed that connection: the socket is gone, and nothing comes of it.",
            "{c} 的 {a} 到达 {b}，但 {c} 已转向另一台服务器并关闭了那条连接：套接字已不在，这次握手没有任何结果。",
        ),
        Key::CmdPauseLinks => (
            "Fault: {a}'s links to the other servers stall for {n} ticks (its clients still reach it).",
            "故障：{a} 与其他服务器之间的链路停滞 {n} 个时钟单位（它的客户端仍能连上它）。",
        ),
        Key::SvcRequest => ("The server runs {c}'s “{a}” and answers {b}.", "服务器执行 {c} 的“{a}”，应答 {b}。"),
        Key::TimerRetry => ("{c}'s poll delay is over: it tries again.", "{c} 的重试等待结束：再试一次。"),
        Key::TimerKeepAlive => ("{c}'s client library sends a lease keep-alive (every third of the TTL).", "{c} 的客户端库发送租约续期（每隔 TTL 的三分之一）。"),
        Key::TimerResend => ("{c} has had no answer for its read timeout and sends its request again (the first one may or may not have run).", "{c} 在读超时内没有收到应答，再次发送请求（第一次可能已经执行，也可能没有）。"),
        Key::SvcBlocked => ("{c}'s “{a}” has to wait: another transaction holds the row lock.", "{c} 的“{a}”必须等待：另一个事务持有该行锁。"),
        Key::SvcAnswer => ("{c} receives “{a}”.", "{c} 收到“{a}”。"),
        Key::SvcWatchEvent => ("{c}'s watch reports: {a}.", "{c} 的 watch 报告：{a}。"),
        Key::SvcHangup => ("The server sees {c}'s connection close{a}.", "服务器发现 {c} 的连接已关闭{a}。"),
        Key::SvcRollback => ("The server sees {c}'s connection close; it rolls back the open transaction and frees its row locks.", "服务器发现 {c} 的连接已关闭：它回滚未提交的事务，并释放其持有的行锁。"),
        Key::SvcExpiry => ("The server's clock runs out a lease: {b}.", "服务器时钟使租约到期：{b}。"),
        Key::SvcCrash => (
            "Fault: {c} crashes; its connection closes. What it holds stays until the server notices or a TTL runs out.",
            "故障：{c} 崩溃，连接随之关闭。它持有的东西一直保留，直到服务器察觉或 TTL 到期。",
        ),
        Key::FailoverRedis => (
            "Fault: the Redis primary dies and its replica is promoted with only what had been replicated; clients now talk to the new primary.",
            "故障：Redis 主节点宕机，副本被提升为主节点，但只带着已复制过去的数据；客户端改连新主节点。",
        ),
        Key::FailoverRedisRestart => (
            "Fault: the Redis server restarts without persistence: every key, every lock, is gone.",
            "故障：Redis 服务器在没有持久化的情况下重启：所有键、所有锁都消失了。",
        ),
        Key::FailoverEtcd => (
            "Fault: the etcd leader changes. Requests stall for an election timeout; the new leader re-arms every lease to its TTL plus 1 s. Committed keys survive.",
            "故障：etcd 领导者变更。请求停顿一个选举超时；新领导者把每个租约重置为 TTL 加 1 秒。已提交的键都保留。",
        ),
        Key::FailoverSql => (
            "Fault: the database fails over to its standby. Committed rows survive; every open transaction, and every row lock it held, is gone.",
            "故障：数据库切换到备库。已提交的行保留；所有未结束的事务及其持有的行锁都消失了。",
        ),
        k if super::redlock::covers(k) => super::redlock::template(k),
        _ => return super::zab::template(k),
    })
}

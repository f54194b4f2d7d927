//! The sentence templates of every step kind, in English and Simplified Chinese (`{c}` the
//! client, `{a}` the subject, `{b}` the result, `{n}` a number).

use super::{servers, services, Key, Lang};

pub(super) fn template(k: Key, lang: Lang) -> &'static str {
    let (en, zh) = match k {
        k if services::covers(k) => services::template(k),
        k if servers::covers(k) => servers::template(k),
        Key::RequestArrives => ("{c}'s {a} reaches the server: {b}.", "{c} 的 {a} 到达服务器：{b}。"),
        Key::ConnectArrives => ("{c} connects: the server opens session {a} with a {n}-tick timeout.", "{c} 连接：服务器创建会话 {a}，超时 {n} 个时钟单位。"),
        Key::ReconnectArrives => ("{c} reconnects to session {a}: {b}.", "{c} 重新连接会话 {a}：{b}。"),
        Key::PingArrives => ("{c}'s ping reaches the server: session {a} stays alive.", "{c} 的心跳到达服务器：会话 {a} 保持存活。"),
        Key::CloseArrives => ("{c} closes session {a}; the server deletes its ephemeral nodes: {b}.", "{c} 关闭会话 {a}；服务器删除其临时节点：{b}。"),
        Key::ClosedConnection => ("{c}'s {a} arrives on a connection the server already closed: ignored.", "{c} 的 {a} 到达一个服务器已关闭的连接：被忽略。"),
        Key::ReplyArrives => ("{c} receives the answer to {a}: {b}.", "{c} 收到 {a} 的应答：{b}。"),
        Key::EventArrives => ("{c} is notified: {a}.", "{c} 收到通知：{a}。"),
        Key::SessionNews => ("{c} hears about its session: {a}.", "{c} 得知会话状态：{a}。"),
        Key::ResourceRead => ("{c} reads the protected resource: value {n}.", "{c} 读取受保护资源：值为 {n}。"),
        Key::ResourceWritePlain => ("{c} writes {n} (no fencing: its token is not checked): {b}.", "{c} 写入 {n}（无防护：不检查令牌）：{b}。"),
        Key::ResourceWrite => ("{c} writes {n} with fencing token {a}: {b}.", "{c} 用防护令牌 {a} 写入 {n}：{b}。"),
        Key::ResourceAnswer => ("{c} gets the resource's answer: {b}.", "{c} 收到资源的应答：{b}。"),
        Key::PongArrives => ("{c} gets the server's answer to its ping.", "{c} 收到服务器对心跳的应答。"),
        Key::MessageLost => ("{a} between {c} and the server is lost.", "{c} 与服务器之间的 {a} 丢失了。"),
        Key::StaleReply => ("{a} reaches {c} for a request attempt it already gave up (it timed out or its connection broke, and the request was sent again): dropped unread.", "{a} 到达 {c}，但它已放弃了那次请求（超时或连接断开后已重新发送）：未读即丢弃。"),
        Key::ToDeadClient => ("{a} arrives at {c}, which has stopped: nobody reads it.", "{a} 到达已停止的 {c}：无人读取。"),
        Key::TimerStart => ("{c} wants the lock and starts to acquire it.", "{c} 需要锁，开始获取。"),
        Key::TimerWorkDone => ("{c} finishes its work.", "{c} 完成了工作。"),
        Key::TimerAcquireTimeout => ("{c} gives up waiting (acquire timeout).", "{c} 放弃等待（获取超时）。"),
        Key::TimerPing => ("{c} has been idle for a third of its session timeout and sends a ping.", "{c} 空闲了会话超时的三分之一，发送心跳。"),
        Key::TimerReadTimeoutSpent => ("{c} has heard nothing for two thirds of its timeout: it is now Disconnected. kazoo forgets its watch on {a} and calls the watcher with a NONE event; it will not set the watch again when it reconnects.", "{c} 在超时的三分之二内没有收到任何消息：进入 Disconnected。kazoo 清除对 {a} 的监视，并以 NONE 事件调用该监视器；重连后不会再设置这个监视。"),
        Key::TimerReadTimeout => ("{c} has heard nothing for two thirds of its timeout: it is now Disconnected (its session may still be alive).", "{c} 在超时的三分之二内没有收到任何消息：进入 Disconnected（会话可能仍然存活）。"),
        Key::TimerReconnect => ("{c} tries to reconnect to the server.", "{c} 尝试重新连接服务器。"),
        Key::SessionExpires => ("The server expires {c}'s session {a}: no ping for its timeout. Its ephemeral nodes are deleted in one transaction (zxid {n}): {b}.", "服务器使 {c} 的会话 {a} 过期：超时时间内没有心跳。其临时节点在一个事务中被删除（zxid {n}）：{b}。"),
        Key::ServiceTick => ("The server's clock ticks.", "服务器时钟前进。"),
        Key::CmdCrash => ("Fault: {c} crashes: its process is gone, and nothing more comes from it.", "故障：{c} 崩溃：进程没了，之后它不会再发出任何消息。"),
        Key::CmdClose => ("{c} closes its session gracefully and stops.", "{c} 正常关闭会话并停止。"),
        Key::CmdExpire => ("Fault: the server expires {c}'s session now.", "故障：服务器立即使 {c} 的会话过期。"),
        Key::CmdPartition => ("Fault: the network between {c} and the server is cut.", "故障：{c} 与服务器之间的网络被切断。"),
        Key::CmdHeal => ("The network between {c} and the server is back.", "{c} 与服务器之间的网络恢复。"),
        Key::CmdResume => ("{c} wakes from its pause and carries on, still believing what it believed before it stopped.", "{c} 从停顿中醒来，继续运行，仍然相信停顿之前所相信的一切。"),
        Key::CmdPause => ("Fault: {c} stops for {n} ticks (a long GC pause). Nothing runs, no pings are sent.", "故障：{c} 停顿 {n} 个时钟单位（长时间 GC 停顿）。什么都不运行，也不发送心跳。"),
        Key::CmdDropReply => ("Fault: the next reply from the server to {c} will be lost with its connection.", "故障：服务器发给 {c} 的下一个应答将随连接一起丢失。"),
        Key::CmdLatency => ("The network latency is now {a} ticks.", "网络延迟现在为 {a} 个时钟单位。"),
        Key::CmdAcquire => ("{c} is asked to acquire the lock.", "要求 {c} 获取锁。"),
        Key::CmdExtend => ("{c} is asked to extend its lock by its TTL.", "要求 {c} 把锁延长一个 TTL。"),
        Key::CmdCancel => ("{c} is asked to stop waiting for the lock.", "要求 {c} 停止等待锁。"),
        Key::TimerSessionLost => ("{c}'s client library has had no connection for a whole session timeout: it declares the session lost and opens a new one (Curator's LOST).", "{c} 的客户端库在整个会话超时内都没有连接：它认定会话已丢失，并新建一个会话（Curator 的 LOST）。"),
        Key::TimerBackoff => ("{c}'s retry sleep is over: it tries again.", "{c} 的重试等待结束：再试一次。"),
        Key::CmdRelease => ("{c} is asked to release the lock.", "要求 {c} 释放锁。"),
        // Answered by `narrate_svc` above (the completeness test catches a key left empty).
        Key::SvcRequest | Key::TimerRetry | Key::TimerKeepAlive | Key::TimerResend | Key::SvcBlocked | Key::SvcAnswer | Key::SvcWatchEvent | Key::SvcHangup | Key::SvcRollback | Key::SvcExpiry | Key::SvcCrash => ("", ""),
        Key::FailoverRedis | Key::FailoverRedisRestart | Key::FailoverEtcd | Key::FailoverSql | Key::FailoverZk | Key::FailoverZab | Key::NotApplicable => ("", ""),
        Key::ClockJumpForward | Key::ClockJumpBack | Key::RedlockHeldDown | Key::FailoverRedlock => ("", ""),
        Key::RedlockRequest | Key::RedlockHeard | Key::RedlockRefused | Key::RedlockConnected | Key::RedlockReset | Key::RedlockExpired | Key::RedlockReconnect => ("", ""),
        // An ensemble's own traffic (`zab.rs`, full bundle only), through `services::template`.
        Key::ZabAnswerVote | Key::ZabForward | Key::ZabPropose | Key::ZabAck | Key::ZabCommit | Key::ZabApply | Key::ZabHeartbeat | Key::ZabVote | Key::ZabLeads | Key::ZabFollows | Key::ZabSync | Key::ZabServing | Key::ZabEstablished | Key::ZabLeaderLost | Key::ZabQuorumLost | Key::ZabNotServing | Key::ZabRefused | Key::ZabRevalidate | Key::ZabReset | Key::ZabExpire | Key::ZabPings | Key::ZabAckCount | Key::ZabAckLate | Key::ZabReceives | Key::ZabToDown => services::template(k),
        // An observer's reads, a stall of the links between servers and a handshake on a
        // socket the client left (full bundle only).
        Key::CmdRead | Key::CmdSyncRead | Key::CmdPauseLinks | Key::AbandonedHandshake => services::template(k),
        // Replication between a Redis primary and its replica (full bundle only).
        Key::PeerLost | Key::PeerApplied | Key::PeerSent | Key::PeerGap | Key::PeerDropped => services::template(k),
        Key::ServerCrash | Key::ServerRestart | Key::ServerRestartDisk | Key::CmdPauseServer | Key::CmdSplit | Key::CmdHealSplit => ("", ""),
        Key::ReleaseRefused => ("{c} is asked to release a lock it does not hold: the recipe refuses (Curator throws IllegalMonitorStateException: \"You do not own the lock\").", "要求 {c} 释放一个它并未持有的锁：锁方案拒绝（Curator 抛出 IllegalMonitorStateException：“You do not own the lock”）。"),
    };
    if lang == Lang::En {
        en
    } else {
        zh
    }
}

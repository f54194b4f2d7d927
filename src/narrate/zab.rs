//! Narration templates (en, zh) for a ZooKeeper ensemble's own traffic: a write forwarded to
//! the leader, proposed, acknowledged, committed and applied; heartbeats; an election and the
//! new leader's sync; a server that stops serving, or refuses a client that is ahead of it.
//! Only the full bundle has ensembles.

use super::Key;

pub fn template(k: Key) -> Option<(&'static str, &'static str)> {
    Some(match k {
        Key::ZabForward => (
            "{a} is a follower: it forwards “{b}” to its leader.",
            "{a} 是跟随者：它把“{b}”转发给领导者。",
        ),
        Key::ZabPropose => (
            "Leader {a} gives the write zxid {b} and proposes it to every follower; it commits only once a majority has logged it.",
            "领导者 {a} 给这次写入分配 zxid {b}，并向每个跟随者发出提议；只有过半数服务器记录了它才会提交。",
        ),
        Key::ZabAck => (
            "{a} logs proposal {b} and acknowledges it (ACK); it does not apply it yet.",
            "{a} 记录提议 {b} 并确认（ACK）；此时还不应用它。",
        ),
        Key::ZabCommit => (
            "A majority has logged {b}: leader {a} commits it, applies it to its own tree and tells every follower (COMMIT).",
            "过半数服务器已记录 {b}：领导者 {a} 提交它，应用到自己的树上，并通知每个跟随者（COMMIT）。",
        ),
        Key::ZabApply => (
            "{a} applies committed transaction {b} to its own tree.",
            "{a} 把已提交的事务 {b} 应用到自己的树上。",
        ),
        Key::ZabHeartbeat => ("{b} (a heartbeat).", "{b}（心跳）。"),
        Key::ZabPings => (
            "Leader {a} sends its heartbeat (PING) to every follower.",
            "领导者 {a} 向每个跟随者发送心跳（PING）。",
        ),
        Key::ZabAckCount => (
            "Leader {a} counts an ACK of {b}: {n} servers have logged it, not yet a majority.",
            "领导者 {a} 收到 {b} 的一个 ACK：已有 {n} 台服务器记录了它，还不到过半数。",
        ),
        Key::ZabAckLate => (
            "Leader {a} hears one more ACK of {b}, already committed once a majority had logged it.",
            "领导者 {a} 又收到 {b} 的一个 ACK；过半数记录之后它早已提交。",
        ),
        Key::ZabReceives => (
            "{a} receives {b}.",
            "{a} 收到 {b}。",
        ),
        Key::ZabToDown => (
            "{b} reaches {a}, which is down: nothing reads it.",
            "{b} 到达 {a}，但它已宕机：没有进程读取它。",
        ),
        Key::ZabVote => (
            "{a} is electing a leader: its vote is {b} (votes compare by epoch, then last zxid, then server id).",
            "{a} 正在选举领导者：它投票给 {b}（先比纪元，再比最后的 zxid，最后比服务器编号）。",
        ),
        Key::ZabAnswerVote => (
            "{a} is not electing: it answers the notification with the leader it follows, {b}.",
            "{a} 没有在选举：它回复这条通知，告知自己跟随的领导者 {b}。",
        ),
        Key::ZabLeads => (
            "{a} wins the election and will lead a new epoch: it waits for a majority of followers to sync before it serves.",
            "{a} 赢得选举，将领导一个新纪元：在过半数跟随者完成同步之前它不提供服务。",
        ),
        Key::ZabFollows => (
            "{a} follows {b} and tells it how far its log goes (FOLLOWERINFO).",
            "{a} 跟随 {b}，并告诉它自己的日志到哪里（FOLLOWERINFO）。",
        ),
        Key::ZabSync => (
            "{a} syncs with its leader: {b}. Every transaction a majority logged survives the election.",
            "{a} 与领导者同步：{b}。过半数服务器记录过的每个事务都在选举后保留下来。",
        ),
        Key::ZabServing => (
            "{a} is in step with leader {b}: it serves clients.",
            "{a} 已与领导者 {b} 同步：开始为客户端提供服务。",
        ),
        Key::ZabEstablished => (
            "A majority has synced: {a} leads epoch {n} and serves. Every session's timeout starts afresh on the new leader.",
            "过半数已同步：{a} 领导第 {n} 纪元并开始服务。每个会话的超时都在新领导者上重新计时。",
        ),
        Key::ZabLeaderLost => (
            "{a} has lost its leader ({b}): it stops serving, closes its clients' connections and starts an election.",
            "{a} 失去了领导者（{b}）：它停止服务，关闭客户端连接，并开始选举。",
        ),
        Key::ZabQuorumLost => (
            "Leader {a} no longer hears a majority within syncLimit ticks: it steps down, closes its clients' connections and starts an election.",
            "领导者 {a} 在 syncLimit 个时钟单位内听不到过半数服务器：它退位，关闭客户端连接，并开始选举。",
        ),
        Key::ZabNotServing => (
            "{c}'s {b} reaches {a}, which is not serving (it has no leader): it closes the connection, and the client tries the next server.",
            "{c} 的 {b} 到达 {a}，但它没有领导者、不提供服务：它关闭连接，客户端改试下一台服务器。",
        ),
        Key::ZabRefused => (
            "{c} reconnects to {a}, whose log is behind what {c} has already seen ({b}): the server refuses, so the client never goes back in time; it tries the next server.",
            "{c} 重新连接到 {a}，但它的日志落后于 {c} 已经见过的（{b}）：服务器拒绝，客户端不会看到更旧的数据；它改试下一台服务器。",
        ),
        Key::ZabRevalidate => (
            "{c} reconnects to {a} with its session: {a} asks the leader whether the session is still alive.",
            "{c} 带着原会话重新连接到 {a}：{a} 向领导者确认这个会话是否仍然存活。",
        ),
        Key::ZabReset => (
            "{a} sees its connection to {b} reset: that server's process is gone.",
            "{a} 发现与 {b} 的连接被重置：那台服务器的进程已经不在了。",
        ),
        Key::ZabExpire => (
            "Leader {a} expires session {b}: no server has heard from it within its timeout. The close is a transaction, so its ephemeral nodes vanish on every server at one zxid.",
            "领导者 {a} 让会话 {b} 过期：在超时时间内没有任何服务器收到它的消息。关闭会话是一个事务，所以它的临时节点在每台服务器上都于同一个 zxid 消失。",
        ),
        _ => return None,
    })
}

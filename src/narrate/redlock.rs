//! Narration templates (en, zh) for Redlock's masters: a clock jump, a restart the operator
//! holds back past the longest TTL, and the failover Redlock does not have.

use super::Key;

pub fn covers(k: Key) -> bool {
    matches!(
        k,
        Key::ClockJumpForward
            | Key::ClockJumpBack
            | Key::RedlockHeldDown
            | Key::FailoverRedlock
            | Key::RedlockRequest
            | Key::RedlockHeard
            | Key::RedlockRefused
            | Key::RedlockConnected
            | Key::RedlockReset
            | Key::RedlockExpired
            | Key::RedlockReconnect
    )
}

pub fn template(k: Key) -> (&'static str, &'static str) {
    match k {
        Key::RedlockRequest => ("{a} runs {c}'s “{b}”.", "{a} 执行 {c} 的“{b}”。"),
        Key::RedlockHeard => ("{c} hears from {a}: {b}.", "{c} 收到 {a} 的应答：{b}。"),
        Key::RedlockRefused => (
            "{a} is down: its host refuses {c}'s connection (ECONNREFUSED). {c}'s library keeps the command and tries to reconnect later.",
            "{a} 已宕机：它所在的主机拒绝了 {c} 的连接（ECONNREFUSED）。{c} 的客户端库保留这条命令，稍后再尝试重连。",
        ),
        Key::RedlockConnected => ("{a} accepts a connection from {c}'s library.", "{a} 接受了 {c} 的客户端库发起的连接。"),
        Key::RedlockReset => (
            "{a} has crashed: its host closes {c}'s connection. {c}'s library keeps any unanswered command and starts reconnecting (after 50 ms, then 100, 150 … up to 2 s).",
            "{a} 已崩溃：它所在的主机关闭了 {c} 的连接。{c} 的客户端库保留尚未得到应答的命令，并开始重连（50 毫秒后，然后 100、150……最长 2 秒）。",
        ),
        Key::RedlockExpired => (
            "The TTL runs out: {b}.",
            "TTL 到期：{b}。",
        ),
        Key::RedlockReconnect => ("{c}'s library reconnects to {a}.", "{c} 的客户端库重新连接 {a}。"),
        Key::ClockJumpForward => (
            "Fault: {a}'s clock jumps {n} ms forward (an NTP step). Redis measures every TTL on that clock, so its keys now run out {n} ms early.",
            "故障：{a} 的时钟向前跳了 {n} 毫秒（NTP 步进校时）。Redis 按这台机器的时钟计算每个 TTL，所以它上面的键会提前 {n} 毫秒过期。",
        ),
        Key::ClockJumpBack => (
            "Fault: {a}'s clock jumps {n} ms back. Its keys now live {n} ms longer than their TTL said.",
            "故障：{a} 的时钟向后跳了 {n} 毫秒。它上面的键会比 TTL 所说的多活 {n} 毫秒。",
        ),
        Key::RedlockHeldDown => (
            "{a} could start again, but the operator keeps it down until t={n}, longer than the longest TTL (delayed restart): every lock it forgot has expired everywhere by then.",
            "{a} 本可以重新启动，但运维把它一直停着，直到 t={n}，超过最长的 TTL（延迟重启）：到那时，它忘掉的每一把锁在所有节点上都已过期。",
        ),
        _ => (
            "Redlock has no failover: its masters are independent, and nothing is promoted. Crash, restart or pause one master instead.",
            "Redlock 没有故障切换：各个主节点相互独立，没有谁会被提升。请改为让某个主节点崩溃、重启或停顿。",
        ),
    }
}

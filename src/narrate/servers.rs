//! Narration templates (en, zh) for what happens to a server itself: its crash, restart and
//! pause, and a network split among nodes and its heal. Messages between servers (replication)
//! are narrated in `services.rs`, which only the full bundle carries.

use super::Key;

pub fn covers(k: Key) -> bool {
    matches!(
        k,
        Key::ServerCrash
            | Key::ServerRestart
            | Key::ServerRestartDisk
            | Key::CmdPauseServer
            | Key::CmdSplit
            | Key::CmdHealSplit
    )
}

pub fn template(k: Key) -> (&'static str, &'static str) {
    match k {
        Key::ServerCrash => (
            "Fault: server {a} crashes. What it held in memory is gone ({b}); it answers nothing until it restarts.",
            "故障：服务器 {a} 崩溃。它内存中的数据都没了（{b}）；在重启之前它不会应答任何请求。",
        ),
        Key::ServerRestart => (
            "Server {a} starts again, empty: without persistence every key it had is gone.",
            "服务器 {a} 重新启动，数据为空：没有持久化，它原有的键全部消失。",
        ),
        Key::ServerRestartDisk => (
            "Server {a} starts again and loads what its disk had when it crashed.",
            "服务器 {a} 重新启动，并加载崩溃时磁盘上的数据。",
        ),
        Key::CmdPauseServer => (
            "Fault: server {a} stops for {n} ticks (a long GC pause, a stopped VM). It handles nothing; messages to it wait.",
            "故障：服务器 {a} 停顿 {n} 个时钟单位（长时间 GC 停顿、虚拟机被挂起）。它什么都不处理；发给它的消息都在等待。",
        ),
        Key::CmdSplit => (
            "Fault: the network splits: {a} on one side, every other node on the other. Messages across the split are lost.",
            "故障：网络分区：{a} 在一侧，其余节点在另一侧。跨越分区的消息都会丢失。",
        ),
        Key::CmdHealSplit => (
            "The network split heals: every node can reach every other again.",
            "网络分区恢复：所有节点又能互相通信了。",
        ),
        _ => ("", ""),
    }
}

//! The words every layer shares: one sentence per step in English and Simplified Chinese
//! (a [`Narration`] is a key plus its data, rendered on demand in the reader's language), and
//! the named [`Phase`] a lock client is in. Below the lock services and the recipes, so each
//! can say what it did; it imports nothing of the crate.

mod services;

use serde::{Deserialize, Serialize};

/// The named phase of a lock client, as the stage draws it and the narration names it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Phase {
    #[default]
    Idle,
    Creating,
    /// Sending an acquire command (Redis, SQL).
    Requesting,
    Listing,
    /// Waiting for a watch on this path to fire.
    Watching(String),
    Holding,
    Releasing,
    /// Waiting for a deletion that can no longer be announced (the `lost_wakeup` bug), or
    /// for a row lock (SQL `FOR UPDATE`).
    Waiting(String),
    /// Busy: polling again after a delay (Redis and SQL locks).
    Backoff,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Lang {
    En,
    Zh,
}

impl Lang {
    pub fn parse(s: &str) -> Option<Lang> {
        match s {
            "en" => Some(Lang::En),
            "zh" | "zh-CN" | "zh-Hans" => Some(Lang::Zh),
            _ => None,
        }
    }
}

/// What a step did, in words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Key {
    RequestArrives,
    ConnectArrives,
    ReconnectArrives,
    PingArrives,
    CloseArrives,
    ClosedConnection,
    ReplyArrives,
    EventArrives,
    SessionNews,
    ResourceRead,
    ResourceWrite,
    ResourceAnswer,
    PongArrives,
    MessageLost,
    ToDeadClient,
    TimerStart,
    TimerWorkDone,
    TimerAcquireTimeout,
    TimerPing,
    TimerReadTimeout,
    TimerReconnect,
    SessionExpires,
    ServiceTick,
    CmdCrash,
    CmdClose,
    CmdExpire,
    CmdPartition,
    CmdHeal,
    CmdPause,
    CmdDropReply,
    CmdLatency,
    CmdAcquire,
    CmdRelease,
    ReleaseRefused,
    SvcRequest,
    TimerRetry,
    TimerKeepAlive,
    TimerResend,
    SvcBlocked,
    SvcAnswer,
    SvcWatchEvent,
    SvcHangup,
    SvcExpiry,
    SvcCrash,
    FailoverRedis,
    FailoverRedisRestart,
    FailoverEtcd,
    FailoverSql,
    FailoverZk,
    NotApplicable,
}

/// A narration: key, the client it is about, a subject (`a`), a result (`b`, already in the
/// server's own words: paths, error names), a number, and the client's phase afterwards.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Narration {
    pub key: Key,
    pub client: Option<usize>,
    pub a: String,
    pub b: Detail,
    pub n: i64,
    pub phase: Option<Phase>,
}

impl Narration {
    pub fn new(key: Key, client: Option<usize>) -> Self {
        Narration { key, client, a: String::new(), b: Detail::None, n: 0, phase: None }
    }
    pub fn a(mut self, a: impl Into<String>) -> Self {
        self.a = a.into();
        self
    }
    pub fn b(mut self, b: Detail) -> Self {
        self.b = b;
        self
    }
    pub fn n(mut self, n: i64) -> Self {
        self.n = n;
        self
    }
    pub fn phase(mut self, p: Phase) -> Self {
        self.phase = Some(p);
        self
    }

    /// The sentence in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        let c = self.client.map(|i| format!("C{}", i + 1)).unwrap_or_default();
        let s = fill(template(self.key, lang), &c, &self.a, &self.b.text(lang), self.n);
        match &self.phase {
            Some(p) => format!("{s}{}{}", if lang == Lang::En { " Now: " } else { " 现在：" }, phase_text(p, lang)),
            None => s,
        }
    }
}

fn fill(t: &str, c: &str, a: &str, b: &str, n: i64) -> String {
    t.replace("{c}", c).replace("{a}", a).replace("{b}", b).replace("{n}", &n.to_string())
}

/// A result, rendered in the reader's language (paths and error names stay as the server
/// spells them).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Detail {
    None,
    Ok,
    Created { path: String, zxid: i64 },
    Deleted { zxid: i64 },
    Error(String),
    Children(Vec<String>),
    Exists { found: bool, watch: bool },
    Data { watch: bool },
    Synced,
    Nodes(Vec<String>),
    StillAlive,
    SessionGone,
    Accepted,
    LostUpdate,
    Rejected { highest: i64 },
    /// The resource's answers: the value read, the value written.
    Value(u64),
    Wrote(u64),
    Text(String),
}

impl Detail {
    pub fn text(&self, lang: Lang) -> String {
        let zh = lang == Lang::Zh;
        let pick = |en: &str, z: &str| if zh { z.to_string() } else { en.to_string() };
        match self {
            Detail::None => String::new(),
            Detail::Ok => pick("ok", "成功"),
            Detail::Created { path, zxid } => if zh { format!("创建了 {path}（zxid {zxid}）") } else { format!("created {path} (zxid {zxid})") },
            Detail::Deleted { zxid } => if zh { format!("已删除（zxid {zxid}）") } else { format!("deleted (zxid {zxid})") },
            Detail::Error(e) => if zh { format!("失败：{e}") } else { format!("failed with {e}") },
            Detail::Children(c) => if zh { format!("子节点 [{}]", c.join(", ")) } else { format!("children [{}]", c.join(", ")) },
            Detail::Exists { found, watch } => {
                let w = match (watch, found, zh) {
                    (false, _, _) => "",
                    (true, true, false) => ", watch set for its deletion or change",
                    (true, false, false) => ", watch set for its creation",
                    (true, true, true) => "，已设置删除/修改监视",
                    (true, false, true) => "，已设置创建监视",
                };
                format!("{}{w}", if *found { pick("it exists", "节点存在") } else { pick("no such node", "节点不存在") })
            }
            Detail::Data { watch } => if *watch { pick("data returned, watch set", "返回数据，已设置监视") } else { pick("data returned", "返回数据") },
            Detail::Synced => pick("synced", "已同步"),
            Detail::Nodes(n) if n.is_empty() => pick("none", "无"),
            Detail::Nodes(n) => n.join(", "),
            Detail::StillAlive => pick("the session is still alive", "会话仍然存活"),
            Detail::SessionGone => pick("the session has expired", "会话已过期"),
            Detail::Accepted => pick("accepted", "已接受"),
            Detail::LostUpdate => pick("accepted, but another write landed since its read: an update is lost", "被接受，但在它读取之后已有其他写入：一次更新丢失了"),
            Detail::Rejected { highest } => if zh { format!("被拒绝：资源已见过更大的令牌 {highest}") } else { format!("rejected: the resource has seen token {highest}") },
            Detail::Value(v) => if zh { format!("值为 {v}") } else { format!("value {v}") },
            Detail::Wrote(v) => if zh { format!("已写入 {v}") } else { format!("wrote {v}") },
            Detail::Text(t) => t.clone(),
        }
    }
}

/// A phase in words.
pub fn phase_text(p: &Phase, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    match p {
        Phase::Idle => if zh { "空闲" } else { "idle" }.into(),
        Phase::Creating => if zh { "创建锁节点" } else { "creating its node" }.into(),
        Phase::Requesting => if zh { "发送获取锁的请求" } else { "asking the server for the lock" }.into(),
        Phase::Listing => if zh { "列出子节点" } else { "listing the lock directory" }.into(),
        Phase::Watching(x) => if zh { format!("监视 {x}") } else { format!("watching {x}") },
        Phase::Holding => if zh { "持有锁" } else { "holding the lock" }.into(),
        Phase::Releasing => if zh { "释放锁" } else { "releasing" }.into(),
        Phase::Waiting(x) => if zh { format!("等待 {x} 被删除或解锁") } else { format!("waiting for {x} to be deleted or unlocked") },
        Phase::Backoff => if zh { "锁被占用，稍后重试" } else { "busy: polling again after a delay" }.into(),
    }
}

fn template(k: Key, lang: Lang) -> &'static str {
    let (en, zh) = match k {
        k if services::covers(k) => services::template(k),
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
        Key::ResourceWrite => ("{c} writes {n} with fencing token {a}: {b}.", "{c} 用防护令牌 {a} 写入 {n}：{b}。"),
        Key::ResourceAnswer => ("{c} gets the resource's answer: {b}.", "{c} 收到资源的应答：{b}。"),
        Key::PongArrives => ("{c} gets the server's answer to its ping.", "{c} 收到服务器对心跳的应答。"),
        Key::MessageLost => ("{a} between {c} and the server is lost.", "{c} 与服务器之间的 {a} 丢失了。"),
        Key::ToDeadClient => ("{a} arrives at {c}, which has stopped: nobody reads it.", "{a} 到达已停止的 {c}：无人读取。"),
        Key::TimerStart => ("{c} wants the lock and starts to acquire it.", "{c} 需要锁，开始获取。"),
        Key::TimerWorkDone => ("{c} finishes its work.", "{c} 完成了工作。"),
        Key::TimerAcquireTimeout => ("{c} gives up waiting (acquire timeout).", "{c} 放弃等待（获取超时）。"),
        Key::TimerPing => ("{c} has been idle for a third of its session timeout and sends a ping.", "{c} 空闲了会话超时的三分之一，发送心跳。"),
        Key::TimerReadTimeout => ("{c} has heard nothing for two thirds of its timeout: it is now Disconnected (its session may still be alive).", "{c} 在超时的三分之二内没有收到任何消息：进入 Disconnected（会话可能仍然存活）。"),
        Key::TimerReconnect => ("{c} tries to reconnect to the server.", "{c} 尝试重新连接服务器。"),
        Key::SessionExpires => ("The server expires {c}'s session {a}: no ping for its timeout. Its ephemeral nodes are deleted in one transaction (zxid {n}): {b}.", "服务器使 {c} 的会话 {a} 过期：超时时间内没有心跳。其临时节点在一个事务中被删除（zxid {n}）：{b}。"),
        Key::ServiceTick => ("The server's clock ticks.", "服务器时钟前进。"),
        Key::CmdCrash => ("Fault: {c} crashes. Its session lives on at the server until it times out.", "故障：{c} 崩溃。其会话在服务器上一直存活到超时。"),
        Key::CmdClose => ("{c} closes its session gracefully and stops.", "{c} 正常关闭会话并停止。"),
        Key::CmdExpire => ("Fault: the server expires {c}'s session now.", "故障：服务器立即使 {c} 的会话过期。"),
        Key::CmdPartition => ("Fault: the network between {c} and the server is cut.", "故障：{c} 与服务器之间的网络被切断。"),
        Key::CmdHeal => ("The network between {c} and the server is back.", "{c} 与服务器之间的网络恢复。"),
        Key::CmdPause => ("Fault: {c} stops for {n} ticks (a long GC pause). Nothing runs, no pings are sent.", "故障：{c} 停顿 {n} 个时钟单位（长时间 GC 停顿）。什么都不运行，也不发送心跳。"),
        Key::CmdDropReply => ("Fault: the next reply from the server to {c} will be lost with its connection.", "故障：服务器发给 {c} 的下一个应答将随连接一起丢失。"),
        Key::CmdLatency => ("The network latency is now {a} ticks.", "网络延迟现在为 {a} 个时钟单位。"),
        Key::CmdAcquire => ("{c} is asked to acquire the lock.", "要求 {c} 获取锁。"),
        Key::CmdRelease => ("{c} is asked to release the lock.", "要求 {c} 释放锁。"),
        // Answered by `narrate_svc` above (the completeness test catches a key left empty).
        Key::SvcRequest | Key::TimerRetry | Key::TimerKeepAlive | Key::TimerResend | Key::SvcBlocked | Key::SvcAnswer | Key::SvcWatchEvent | Key::SvcHangup | Key::SvcExpiry | Key::SvcCrash => ("", ""),
        Key::FailoverRedis | Key::FailoverRedisRestart | Key::FailoverEtcd | Key::FailoverSql | Key::FailoverZk | Key::NotApplicable => ("", ""),
        Key::ReleaseRefused => ("{c} is asked to release a lock it does not hold: the recipe refuses (Curator throws IllegalMonitorStateException: \"You do not own the lock\").", "要求 {c} 释放一个它并未持有的锁：锁方案拒绝（Curator 抛出 IllegalMonitorStateException：“You do not own the lock”）。"),
    };
    if lang == Lang::En {
        en
    } else {
        zh
    }
}

/// Every key, for completeness tests.
pub const ALL_KEYS: [Key; 50] = [
    Key::SvcRequest, Key::TimerRetry, Key::TimerKeepAlive, Key::TimerResend, Key::SvcBlocked, Key::SvcAnswer, Key::SvcWatchEvent, Key::SvcHangup, Key::SvcExpiry,
    Key::SvcCrash, Key::FailoverRedis, Key::FailoverRedisRestart, Key::FailoverEtcd, Key::FailoverSql,
    Key::FailoverZk, Key::NotApplicable,
    Key::RequestArrives, Key::ConnectArrives, Key::ReconnectArrives, Key::PingArrives, Key::CloseArrives,
    Key::ClosedConnection, Key::ReplyArrives, Key::EventArrives, Key::SessionNews, Key::ResourceRead,
    Key::ResourceWrite, Key::ResourceAnswer, Key::MessageLost, Key::ToDeadClient, Key::TimerStart,
    Key::TimerWorkDone, Key::TimerAcquireTimeout, Key::TimerPing, Key::TimerReadTimeout, Key::TimerReconnect,
    Key::SessionExpires, Key::ServiceTick, Key::CmdCrash, Key::CmdClose, Key::CmdExpire, Key::CmdPartition,
    Key::CmdHeal, Key::CmdPause, Key::CmdDropReply, Key::CmdLatency, Key::CmdAcquire, Key::CmdRelease,
    Key::ReleaseRefused, Key::PongArrives,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_has_both_languages_and_fills_placeholders() {
        for k in ALL_KEYS {
            let n = Narration::new(k, Some(1)).a("x").b(Detail::Ok).n(3);
            for lang in [Lang::En, Lang::Zh] {
                let t = n.text(lang);
                assert!(!t.contains('{'), "{k:?} {lang:?}: {t}");
            }
            assert_ne!(n.text(Lang::En), n.text(Lang::Zh), "{k:?}");
        }
    }

    #[test]
    fn phase_is_appended() {
        let n = Narration::new(Key::TimerStart, Some(0)).phase(Phase::Creating);
        assert_eq!(n.text(Lang::En), "C1 wants the lock and starts to acquire it. Now: creating its node");
        assert!(n.text(Lang::Zh).contains("创建锁节点"));
    }
}

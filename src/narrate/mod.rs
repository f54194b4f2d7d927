//! The words every layer shares: one sentence per step in English and Simplified Chinese
//! (a [`Narration`] is a key plus its data, rendered on demand in the reader's language), and
//! the named [`Phase`] a lock client is in. Below the lock services and the recipes, so each
//! can say what it did; it imports nothing of the crate.

mod all_keys;
mod detail;
mod names;
#[cfg(feature = "services")]
mod redlock;
mod resp;
mod servers;
mod services;
mod templates;
#[cfg(feature = "services")]
mod zab;

pub use all_keys::ALL_KEYS;
pub use detail::Detail;
pub use names::{compact_path, short_name, short_path, tail_name};
pub use resp::{cli_text, cli_word};
use templates::template;

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
    /// An observer waits for its `sync` to come back.
    Syncing,
    /// An observer waits for its read of the lock node.
    Reading,
    /// What an observer's last read saw: the lock node's czxid, or `None` (no node).
    Read(Option<i64>),
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
    /// A write without a token (no fencing).
    ResourceWritePlain,
    ResourceAnswer,
    PongArrives,
    MessageLost,
    ToDeadClient,
    /// An answer for a connection the client has given up.
    StaleReply,
    AbandonedHandshake,
    TimerStart,
    TimerWorkDone,
    TimerAcquireTimeout,
    TimerPing,
    TimerReadTimeout,
    /// kazoo's read timeout: its watchers are spent with a NONE event.
    TimerReadTimeoutSpent,
    TimerReconnect,
    SessionExpires,
    ServiceTick,
    CmdCrash,
    CmdClose,
    CmdExpire,
    CmdPartition,
    CmdHeal,
    CmdPause,
    /// A paused client runs again (a pause of 0 ticks on a paused client).
    CmdResume,
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
    /// A SQL server sees a connection close and rolls its transaction back.
    SvcRollback,
    SvcExpiry,
    SvcCrash,
    FailoverRedis,
    FailoverRedisRestart,
    FailoverEtcd,
    FailoverSql,
    FailoverZk,
    /// A ZooKeeper ensemble's failover: its leader crashes.
    FailoverZab,
    NotApplicable,
    CmdCancel,
    TimerSessionLost,
    TimerBackoff,
    /// A server applies part of the replication stream.
    PeerApplied,
    /// A server sends part of its replication stream.
    PeerSent,
    /// A server refuses part of the stream that came after a gap.
    PeerGap,
    /// A promoted replica drops its old primary's stream.
    PeerDropped,
    ServerCrash,
    ServerRestart,
    ServerRestartDisk,
    CmdPauseServer,
    /// A server's links to the other servers stop carrying messages for a while.
    CmdPauseLinks,
    /// An observer reads the lock node; after `sync`.
    CmdRead,
    CmdSyncRead,
    /// A partition splits any set of nodes from the rest.
    CmdSplit,
    CmdHealSplit,
    /// A message between two servers is lost in the network.
    PeerLost,
    // A ZooKeeper ensemble's own traffic (`zab.rs`).
    ZabAnswerVote,
    ZabForward,
    ZabPropose,
    ZabAck,
    ZabCommit,
    ZabApply,
    ZabHeartbeat,
    ZabVote,
    ZabLeads,
    ZabFollows,
    ZabSync,
    ZabServing,
    ZabEstablished,
    ZabLeaderLost,
    ZabQuorumLost,
    ZabNotServing,
    ZabRefused,
    ZabRevalidate,
    ZabReset,
    ZabExpire,
    /// The leader's heartbeat round; an ACK counted short of a majority, or after the commit;
    /// any other message between servers, and one that reaches a server that is down.
    ZabPings,
    ZabAckCount,
    ZabAckLate,
    ZabReceives,
    ZabToDown,
    /// A server's clock is stepped forward / back (Redlock).
    ClockJumpForward,
    ClockJumpBack,
    /// A Redlock master's restart is held back until the longest TTL has passed.
    RedlockHeldDown,
    /// A failover asked of Redlock, which has none.
    FailoverRedlock,
    /// A Redlock master runs a client's command; the client hears one master's answer; a
    /// master's address refuses a connection; a client's connection attempt succeeds.
    RedlockRequest,
    RedlockHeard,
    RedlockRefused,
    RedlockConnected,
    RedlockReset,
    RedlockExpired,
    RedlockReconnect,
    /// The application asks its Redlock to extend the lock.
    CmdExtend,
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
    /// The client's phase is `Holding`, but the service no longer says it holds (its session
    /// expired, its key ran out): the sentence says it only believes so, as its card does.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub believes: bool,
}

impl Narration {
    pub fn new(key: Key, client: Option<usize>) -> Self {
        Narration {
            key,
            client,
            a: String::new(),
            b: Detail::None,
            n: 0,
            phase: None,
            believes: false,
        }
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
        let c = self
            .client
            .map(|i| format!("C{}", i + 1))
            .unwrap_or_default();
        // Redis's replies read as redis-cli prints them (the record keeps the wire form); the
        // lean build has no Redis.
        let cli = |t: String| if crate::FULL { cli_text(&t) } else { t };
        let s = fill(
            template(self.key, lang),
            &c,
            &cli(self.a.clone()),
            &cli(self.b.text(lang)),
            self.n,
        );
        let now = if lang == Lang::En {
            " Now: "
        } else {
            " 现在："
        };
        match &self.phase {
            Some(Phase::Holding) if self.believes => format!("{s}{now}{}", believes_text(lang)),
            Some(p) => format!("{s}{now}{}", phase_text(p, lang)),
            None => s,
        }
    }
}

fn fill(t: &str, c: &str, a: &str, b: &str, n: i64) -> String {
    t.replace("{c}", c)
        .replace("{a}", a)
        .replace("{b}", b)
        .replace("{n}", &n.to_string())
}

/// A holder's phase when the service no longer agrees.
fn believes_text(lang: Lang) -> &'static str {
    match lang {
        Lang::Zh => "以为自己持有锁，但服务已不这么认为",
        _ => "believes it holds the lock, but the service no longer says so",
    }
}

/// A phase in words.
pub fn phase_text(p: &Phase, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    match p {
        Phase::Idle => if zh { "空闲" } else { "idle" }.into(),
        Phase::Creating => if zh {
            "创建锁节点"
        } else {
            "creating its node"
        }
        .into(),
        Phase::Requesting => if zh {
            "发送获取锁的请求"
        } else {
            "asking for the lock"
        }
        .into(),
        Phase::Listing => if zh {
            "列出子节点"
        } else {
            "listing the lock directory"
        }
        .into(),
        Phase::Watching(x) => {
            if zh {
                format!("监视 {}", names::compact_path(x))
            } else {
                format!("watching {}", names::compact_path(x))
            }
        }
        Phase::Holding => if zh { "持有锁" } else { "holding the lock" }.into(),
        Phase::Releasing => if zh { "释放锁" } else { "releasing" }.into(),
        Phase::Waiting(x) => {
            if zh {
                format!("等待 {x} 被删除或解锁")
            } else {
                format!("waiting for {x} to be deleted or unlocked")
            }
        }
        Phase::Backoff => if zh {
            "锁被占用，稍后重试"
        } else {
            "busy: polling again after a delay"
        }
        .into(),
        Phase::Syncing | Phase::Reading | Phase::Read(_) => read_text(p, zh).into(),
    }
}

/// An observer's phases in words (observers run in the full bundle only).
fn read_text(p: &Phase, zh: bool) -> &'static str {
    let pick = |en, cn| if zh { cn } else { en };
    match p {
        _ if !crate::FULL => "",
        Phase::Syncing => pick(
            "sync: waiting for its server to catch up",
            "sync：等服务器追上领导者",
        ),
        Phase::Reading => pick("reading /lock", "读取 /lock"),
        Phase::Read(Some(_)) => pick("read: /lock exists (held)", "读到：/lock 存在（锁被持有）"),
        _ => pick("read: no /lock (free)", "读到：没有 /lock（锁空闲）"),
    }
}

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
        assert_eq!(
            n.text(Lang::En),
            "C1 wants the lock and starts to acquire it. Now: creating its node"
        );
        assert!(n.text(Lang::Zh).contains("创建锁节点"));
    }
}

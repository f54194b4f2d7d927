//! The ids and titles of the presets only the full bundle runs, which the lean bundle lists and
//! hands over to the full bundle by link.

use super::narrate::Lang;

/// A preset's id and title, without its scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PresetName {
    pub id: &'static str,
    pub title: [&'static str; 2],
}

impl PresetName {
    pub fn title(&self, lang: Lang) -> &'static str {
        self.title[usize::from(lang == Lang::Zh)]
    }
}

/// Presets only the full bundle runs (a ZooKeeper ensemble's, then the other lock services'):
/// the lean bundle knows only their ids and titles, to list them and to hand a link to one of
/// them over to the full bundle.
pub const SERVICE_PRESET_NAMES: [PresetName; 21] = [
    PresetName {
        id: "zk-leader-crash",
        title: ["Ensemble: the leader dies", "集群：领导者宕机"],
    },
    PresetName {
        id: "zk-minority",
        title: [
            "Ensemble: the holder's server is cut off",
            "集群：持锁者所连的服务器被隔离",
        ],
    },
    PresetName {
        id: "zk-stale-read",
        title: [
            "Ensemble: reading from a lagging server",
            "集群：在落后的服务器上读",
        ],
    },
    PresetName {
        id: "sql-crash",
        title: ["SQL lock row: the holder crashes", "SQL 锁行：持锁者崩溃"],
    },
    PresetName {
        id: "sql-lease",
        title: [
            "SQL lock row with expiry and fence",
            "带过期时间和防护号的 SQL 锁行",
        ],
    },
    PresetName {
        id: "sql-row-lock",
        title: [
            "SELECT … FOR UPDATE: the holder crashes",
            "SELECT … FOR UPDATE：持锁者崩溃",
        ],
    },
    PresetName {
        id: "redis-setnx-crash",
        title: [
            "Redis SETNX + EXPIRE: crash in between",
            "Redis SETNX + EXPIRE：两条命令之间崩溃",
        ],
    },
    PresetName {
        id: "redis-setnx-repair",
        title: [
            "Redis SETNX: the TTL -1 repair",
            "Redis SETNX：修复 TTL 为 -1 的锁",
        ],
    },
    PresetName {
        id: "redis-lease-pause",
        title: [
            "Redis SET NX PX: the lease runs out",
            "Redis SET NX PX：租约到期",
        ],
    },
    PresetName {
        id: "redis-failover",
        title: ["Redis: the primary fails over", "Redis：主节点故障切换"],
    },
    PresetName {
        id: "redis-split",
        title: [
            "Redis: the replica never got the lock",
            "Redis：副本从未收到这把锁",
        ],
    },
    PresetName {
        id: "etcd-mutex",
        title: ["etcd concurrency.Mutex", "etcd concurrency.Mutex"],
    },
    PresetName {
        id: "etcd-pause-fenced",
        title: [
            "etcd: keep-alives stop, fencing saves",
            "etcd：续期中断，防护令牌兜底",
        ],
    },
    PresetName {
        id: "etcd-leader-change",
        title: ["etcd leader change", "etcd 领导者变更"],
    },
    PresetName {
        id: "redlock-majority",
        title: [
            "Redlock: a majority of five masters",
            "Redlock：五个主节点中的多数",
        ],
    },
    PresetName {
        id: "redlock-master-down",
        title: [
            "Redlock: one master down, the lock 10.5 s late",
            "Redlock：一个主节点宕机，锁晚到 10.5 秒",
        ],
    },
    PresetName {
        id: "redlock-clock-jump",
        title: [
            "Redlock: a master's clock jumps",
            "Redlock：一个主节点的时钟跳变",
        ],
    },
    PresetName {
        id: "redlock-restart-empty",
        title: [
            "Redlock: a master restarts empty, two holders",
            "Redlock：主节点空着重启，两个持锁者",
        ],
    },
    PresetName {
        id: "redlock-restart-delayed",
        title: [
            "Redlock: delayed restart, one holder",
            "Redlock：延迟重启，只有一个持锁者",
        ],
    },
    PresetName {
        id: "redlock-restart-fsync",
        title: [
            "Redlock: restart with appendfsync always, one holder",
            "Redlock：“appendfsync always”重启，只有一个持锁者",
        ],
    },
    PresetName {
        id: "redlock-gc-pause",
        title: [
            "Redlock: a pause outlives the TTL",
            "Redlock：停顿比 TTL 更久",
        ],
    },
];

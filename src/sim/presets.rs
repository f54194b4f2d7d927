//! Preset scenarios, each with a title and a one-paragraph lesson in English and Chinese.

use super::moments::Kind;
use super::narrate::Lang;
use super::scenario::{Command, ResourceKind, Scenario, TimedCommand};
use crate::recipes::RecipeKind;

/// A preset: id (used in URLs and the CLI), texts, and its scenario.
pub struct Preset {
    pub id: &'static str,
    pub title: [&'static str; 2],
    pub lesson: [&'static str; 2],
    pub build: fn() -> Scenario,
    /// What its key frames show (see [`super::moments`]).
    pub moments: &'static [Kind],
}

impl Preset {
    pub fn title(&self, lang: Lang) -> &'static str {
        self.title[usize::from(lang == Lang::Zh)]
    }
    pub fn lesson(&self, lang: Lang) -> &'static str {
        self.lesson[usize::from(lang == Lang::Zh)]
    }
    pub fn scenario(&self) -> Scenario {
        let mut s = (self.build)();
        s.name = self.id.to_string();
        s
    }
}

pub(super) fn at(at: u64, command: Command) -> TimedCommand {
    TimedCommand { at, command }
}

/// Fixed latency so that "C1 is first" holds in presets that need it.
pub(super) fn base(recipe: RecipeKind, clients: u32) -> Scenario {
    Scenario {
        recipe,
        clients,
        latency_min: 1,
        latency_max: 1,
        start_spread: 0,
        ..Scenario::default()
    }
}

fn herd() -> Scenario {
    Scenario {
        rounds: 1,
        hold_min: 4,
        hold_max: 4,
        ..base(RecipeKind::Naive, 6)
    }
}
fn queue() -> Scenario {
    Scenario {
        hold_min: 4,
        hold_max: 4,
        ..base(RecipeKind::Sequential, 6)
    }
}
fn reentrant() -> Scenario {
    Scenario {
        nesting: 2,
        ..base(RecipeKind::Curator, 3)
    }
}
fn holder_crash() -> Scenario {
    Scenario {
        hold_min: 20,
        hold_max: 20,
        faults: vec![at(8, Command::Crash { client: 0 })],
        ..base(RecipeKind::Sequential, 3)
    }
}
fn middle_leaves() -> Scenario {
    Scenario {
        hold_min: 25,
        hold_max: 25,
        faults: vec![at(10, Command::Close { client: 1 })],
        ..base(RecipeKind::Sequential, 3)
    }
}
fn gc_pause(fencing: bool) -> Scenario {
    Scenario {
        hold_min: 6,
        hold_max: 6,
        fencing,
        faults: vec![at(
            8,
            Command::Pause {
                client: 0,
                ticks: 40,
            },
        )],
        ..base(RecipeKind::Curator, 2)
    }
}
fn partition() -> Scenario {
    Scenario {
        hold_min: 30,
        hold_max: 30,
        fencing: true,
        faults: vec![
            at(8, Command::Partition { client: 0 }),
            at(45, Command::Heal { client: 0 }),
        ],
        ..base(RecipeKind::Curator, 2)
    }
}
fn lost_reply(recipe: RecipeKind) -> Scenario {
    Scenario {
        faults: vec![at(1, Command::DropReply { client: 1 })],
        ..base(recipe, 3)
    }
}
fn no_recheck() -> Scenario {
    Scenario {
        hold_min: 25,
        hold_max: 25,
        faults: vec![at(10, Command::Close { client: 1 })],
        ..base(RecipeKind::NoRecheck, 3)
    }
}
fn lost_wakeup() -> Scenario {
    // C2 stalls (a short GC pause) right after its create failed, while C1 finishes and releases.
    Scenario {
        hold_min: 1,
        hold_max: 1,
        faults: vec![at(
            3,
            Command::Pause {
                client: 1,
                ticks: 10,
            },
        )],
        ..base(RecipeKind::LostWakeup, 2)
    }
}
fn kazoo_queue() -> Scenario {
    Scenario {
        hold_min: 4,
        hold_max: 4,
        ..base(RecipeKind::Kazoo, 4)
    }
}
fn kazoo_cancel() -> Scenario {
    Scenario {
        hold_min: 30,
        hold_max: 30,
        faults: vec![at(14, Command::Cancel { client: 1 })],
        ..base(RecipeKind::Kazoo, 3)
    }
}
fn semaphore() -> Scenario {
    Scenario {
        max_leases: 2,
        hold_min: 40,
        hold_max: 40,
        lock_path: Some("/locks/s".into()),
        lock_dir_exists: false,
        ..base(RecipeKind::CuratorSemaphore, 4)
    }
}
fn rwlock() -> Scenario {
    Scenario {
        readers: vec![0, 2, 3],
        hold_min: 5,
        hold_max: 5,
        ..base(RecipeKind::Rwlock, 5)
    }
}
fn ids(recipe: RecipeKind) -> Scenario {
    Scenario {
        resource: ResourceKind::IdGenerator,
        hold_min: 1,
        hold_max: 2,
        latency_max: 2,
        start_spread: 3,
        ..base(recipe, 10)
    }
}

pub const PRESETS: &[Preset] = &[
    Preset { id: "herd", title: ["Herd effect", "羊群效应"], lesson: [
        "Six clients use one ephemeral /lock node and watch it with exists. Every release fires every waiter's watch at once: all of them race to create /lock, one wins and the rest fail and watch again. Count the notifications per release: that is the herd factor, and it grows with the number of waiters.",
        "六个客户端都使用同一个临时节点 /lock，并用 exists 监视它。每次释放都会同时触发所有等待者的监视：它们一起抢着创建 /lock，只有一个成功，其余失败后再次监视。看看每次释放产生的通知数量：这就是羊群系数，它随等待者数量增长。"], build: herd, moments: &[Kind::Waiting, Kind::Herd] },
    Preset { id: "queue", title: ["Orderly queue", "有序排队"], lesson: [
        "The recipe from ZooKeeper's own documentation (recipes.md), as written there — not what any client library sends: each client creates an ephemeral-sequential node under /locks, lists the directory, and watches only the node just below its own with exists. A release wakes exactly one waiter, which lists again before it believes anything. One notification per hand-off, in sequence order.",
        "ZooKeeper 官方文档（recipes.md）中的锁方案，照文档原样实现——并非某个客户端库实际发送的请求：每个客户端在 /locks 下创建临时顺序节点，列出目录，只用 exists 监视比自己小的那一个节点。每次释放只唤醒一个等待者，它重新列出目录后才做判断。每次交接只有一个通知，按序号排队。"], build: queue, moments: &[Kind::Waiting, Kind::Handoff] },
    Preset { id: "kazoo-queue", title: ["kazoo's Lock", "kazoo 的 Lock"], lesson: [
        "kazoo 2.11's Lock, request for request: the first acquire makes sure /locks exists (exists, walking up, then create); each client creates <uuid hex>__lock__ with a plain create (no Stat back), lists with getChildren (not getChildren2), and watches only its immediate predecessor with getData — which, unlike exists, leaves no watch behind on a node that is already gone. One notification per hand-off, like Curator, with different requests on the wire.",
        "kazoo 2.11 的 Lock，逐个请求照实现：第一次获取先确认 /locks 存在（exists，向上查找，再 create）；每个客户端用普通的 create（不返回 Stat）创建 <uuid 十六进制>__lock__，用 getChildren（不是 getChildren2）列出目录，并用 getData 只监视紧挨着的前驱——与 exists 不同，前驱已消失时不会留下监视。每次交接只有一个通知，和 Curator 一样，但线上的请求不同。"], build: kazoo_queue, moments: &[Kind::Waiting, Kind::Handoff] },
    Preset { id: "kazoo-cancel", title: ["kazoo: a waiter cancels", "kazoo：等待者取消"], lesson: [
        "C1 holds the lock; C2 and C3 wait in line. C2 calls cancel(): its acquire stops at once and deletes its node, but its watch on C1's node stays on the server. C3's watch fires, C3 lists again and now watches C1. When C1 releases, both C2 and C3 are notified — C2 of a lock it no longer wants — and C3 takes the lock.",
        "C1 持有锁，C2 和 C3 排队等待。C2 调用 cancel()：它的获取立即停止并删除自己的节点，但它对 C1 节点的监视仍留在服务器上。C3 的监视被触发，C3 重新列出目录，改为监视 C1。C1 释放时，C2 和 C3 都收到通知——C2 收到的是它已不再需要的锁的通知——C3 拿到锁。"], build: kazoo_cancel, moments: &[Kind::Fault, Kind::Rewatch, Kind::Herd] },
    Preset { id: "semaphore", title: ["Curator semaphore, two leases", "Curator 信号量：两个租约"], lesson: [
        "Curator's InterProcessSemaphoreV2 with two leases and its own layout: an internal mutex under /locks/s/locks and the leases under /locks/s/leases. A client takes the internal mutex, creates its lease node, and lists the leases with a child watch; two leases are free, so C1 and C2 hold at once. C3 finds three leases: it waits — still holding the internal mutex, so C4 waits behind it for the mutex — until a lease goes and NodeChildrenChanged wakes it. Each acquire then sends checkWatches, which leaves the watch on the server: holders hear changes they ignore.",
        "Curator 的 InterProcessSemaphoreV2，两个租约，有自己的目录结构：内部互斥锁在 /locks/s/locks 下，租约在 /locks/s/leases 下。客户端先拿内部互斥锁，再创建租约节点，并带子节点监视列出租约；两个租约空闲，所以 C1 和 C2 同时持有。C3 看到三个租约：它等待——仍然持有内部互斥锁，所以 C4 在它后面等互斥锁——直到一个租约释放、NodeChildrenChanged 把它唤醒。每次获取之后都会发送 checkWatches，而它会把监视留在服务器上：持有者会听到它们不关心的变化。"], build: semaphore, moments: &[Kind::Leases, Kind::LostUpdate] },
    Preset { id: "reentrant", title: ["Reentrant Curator lock", "可重入的 Curator 锁"], lesson: [
        "Curator's InterProcessMutex: protected node names _c_<uuid>-lock-, the predecessor watched with getData. Each client acquires twice (reentrant): the second acquire only counts, and only the last release deletes the node. Watch the count in the client lanes.",
        "Curator 的 InterProcessMutex：受保护的节点名 _c_<uuid>-lock-，用 getData 监视前驱。每个客户端获取两次（可重入）：第二次获取只是计数，只有最后一次释放才删除节点。留意客户端泳道中的计数。"], build: reentrant, moments: &[Kind::Reentrant, Kind::Handoff] },
    Preset { id: "holder-crash", title: ["The holder crashes", "持锁者崩溃"], lesson: [
        "C1 holds the lock and crashes. Nothing happens at once: its session lives on at the server until the timeout passes without a ping. Then the server expires the session, deletes C1's ephemeral node, and the next waiter is notified. Ephemeral nodes are what make the lock survive crashes.",
        "C1 持有锁时崩溃。不会立即发生任何事：它的会话在服务器上一直存活，直到超时时间内没有心跳。然后服务器使会话过期，删除 C1 的临时节点，下一个等待者收到通知。临时节点保证了锁能在崩溃后恢复。"], build: holder_crash, moments: &[Kind::Fault, Kind::Expiry, Kind::Handoff] },
    Preset { id: "middle-leaves", title: ["A middle waiter leaves", "中间的等待者离开"], lesson: [
        "C2 waits behind C1 and C3 waits behind C2. C2 gives up and closes its session: its node vanishes and C3's watch fires. The correct recipe lists the directory again, sees C1 still first, and watches C1 instead. Nothing breaks.",
        "C2 排在 C1 之后，C3 排在 C2 之后。C2 放弃并关闭会话：它的节点消失，C3 的监视被触发。正确的方案会重新列出目录，发现 C1 仍然排第一，于是改为监视 C1。一切正常。"], build: middle_leaves, moments: &[Kind::Fault, Kind::Handoff, Kind::Rewatch] },
    Preset { id: "gc-pause", title: ["GC pause, no fencing", "GC 停顿，无防护令牌"], lesson: [
        "C1 holds the lock, reads the counter, and freezes in a long GC pause. Its session expires, the server deletes its node, and C2 gets the lock, reads and writes. Then C1 wakes up, still believing it holds the lock, and writes its stale value: C2's update is lost. No lock service can prevent this alone.",
        "C1 持有锁并读取计数器后，陷入长时间 GC 停顿。它的会话过期，服务器删除其节点，C2 获得锁并完成读写。随后 C1 醒来，仍以为自己持有锁，写入了过时的值：C2 的更新丢失了。仅靠锁服务无法避免这种情况。"], build: || gc_pause(false), moments: &[Kind::Fault, Kind::Expiry, Kind::TwoHolders, Kind::LostUpdate, Kind::AllDone] },
    Preset { id: "gc-pause-fenced", title: ["GC pause, with fencing", "GC 停顿，有防护令牌"], lesson: [
        "The same pause, but every write carries a fencing token (the lock node's sequence number, which grows with every grant) and the resource rejects a token lower than the highest it has seen. When C1 wakes up and writes with its old token, the write is rejected: the stale holder can no longer do harm.",
        "同样的停顿，但每次写入都带上防护令牌（锁节点的序号，每次授予锁都会增大），资源会拒绝比它见过的最大令牌更小的令牌。C1 醒来后用旧令牌写入时被拒绝：过时的持锁者再也无法造成破坏。"], build: || gc_pause(true), moments: &[Kind::Fault, Kind::Expiry, Kind::TwoHolders, Kind::Fenced, Kind::AllDone] },
    Preset { id: "partition", title: ["Holder partitioned", "持锁者被网络隔离"], lesson: [
        "C1 holds the lock when its link to ZooKeeper is cut. It sees Disconnected after two thirds of its session timeout, and after a whole timeout without a connection Curator's connection manager declares the session lost and opens a new one — yet InterProcessMutex keeps believing it holds the lock (CURATOR-206). Meanwhile the server expired the session and granted the lock to C2: two clients believe they hold it. Fencing rejects C1's late write.",
        "C1 持有锁时，它与 ZooKeeper 的网络被切断。会话超时的三分之二之后它看到 Disconnected；整整一个超时都没有连接之后，Curator 的连接管理器认定会话已丢失并新建一个会话——但 InterProcessMutex 仍然认为自己持有锁（CURATOR-206）。与此同时服务器已使该会话过期，并把锁交给了 C2：两个客户端都认为自己持有锁。防护令牌拒绝了 C1 迟到的写入。"], build: partition, moments: &[Kind::Fault, Kind::Expiry, Kind::SessionLost, Kind::TwoHolders, Kind::Fenced] },
    Preset { id: "lost-reply", title: ["Lost create reply, no protection", "创建应答丢失，无保护"], lesson: [
        "C2's create succeeds on the server but the reply is lost with the connection. The session survives the reconnect, so the node stays, owned by C2, but C2 never learned its name. It creates again: now it owns two nodes, and the orphan blocks the queue until the session ends.",
        "C2 的创建请求在服务器上成功了，但应答随连接一起丢失。重连后会话仍然有效，所以节点保留下来，归 C2 所有，但 C2 不知道它的名字。它再次创建：现在它拥有两个节点，孤儿节点会一直阻塞队列直到会话结束。"], build: || lost_reply(RecipeKind::Sequential), moments: &[Kind::Fault, Kind::Orphan, Kind::Stuck] },
    Preset { id: "lost-reply-protected", title: ["Lost create reply, protected", "创建应答丢失，有保护"], lesson: [
        "The same lost reply with Curator's protection mode: the node name starts with _c_<uuid>-. After reconnecting, C2 lists the directory, finds the child with its own prefix, and adopts it instead of creating a second node. No orphan.",
        "同样的应答丢失，但使用 Curator 的保护模式：节点名以 _c_<uuid>- 开头。重连后 C2 列出目录，找到带有自己前缀的子节点并直接使用它，而不是再创建一个。没有孤儿节点。"], build: || lost_reply(RecipeKind::Curator), moments: &[Kind::Fault, Kind::Adopted] },
    Preset { id: "no-recheck", title: ["Broken: no re-check after wake-up", "错误示范：唤醒后不复查"], lesson: [
        "A tutorial recipe that treats its predecessor's deletion as 'I hold the lock now' without listing again. When the middle waiter C2 leaves, C3 wakes up and takes the lock although C1 still holds it: two holders.",
        "一种教程里常见的写法：前驱被删除就认为“我拿到锁了”，而不重新列出目录。当中间的等待者 C2 离开时，C3 被唤醒并认为拿到了锁，而 C1 仍然持有它：出现两个持锁者。"], build: no_recheck, moments: &[Kind::Fault, Kind::TwoHolders, Kind::LostUpdate] },
    Preset { id: "lost-wakeup", title: ["Broken: lost wake-up", "错误示范：丢失唤醒"], lesson: [
        "A single-node lock that subscribes only after its create failed and then waits only for NodeDeleted. Here C2 stalls for a moment after its create failed; C1 releases meanwhile, so exists finds nothing and arms a creation watch; the deletion it waits for already happened. It waits forever.",
        "一种单节点锁：创建失败之后才去订阅，并且只等待 NodeDeleted。这里 C2 在创建失败后短暂停顿，C1 恰好在此期间释放，exists 发现节点不存在，只设置了创建监视；它要等的删除已经发生过了。它会永远等下去。"], build: lost_wakeup, moments: &[Kind::Fault, Kind::MissingWatch, Kind::Stuck] },
    Preset { id: "rwlock", title: ["Read/write lock", "读写锁"], lesson: [
        "Curator's read/write lock: readers share, a writer needs everyone before it to leave, and a reader waits only on the lowest earlier write node. Watch C1 read, C2 wait to write, and the readers behind C2 wait for it — no reader barging.",
        "Curator 的读写锁：读者共享，写者需要前面所有人都离开，读者只等待比自己早的最小写节点。观察 C1 读、C2 等待写，以及排在 C2 之后的读者等待它——读者不能插队。"], build: rwlock, moments: &[Kind::SharedReaders, Kind::Handoff] },
    Preset { id: "ids-unlocked", title: ["Ten ID generators, no lock", "十个 ID 生成器，无锁"], lesson: [
        "Ten machines each read the last ID, add one, and write it back, with no lock at all. Reads and writes interleave and the same ID is handed out twice: the resource monitor flags a duplicate.",
        "十台机器各自读取最后一个 ID，加一后写回，完全不加锁。读写交错，同一个 ID 被分配了两次：资源监视器报告重复。"], build: || ids(RecipeKind::None), moments: &[Kind::Unlocked, Kind::LostUpdate] },
    Preset { id: "ids-locked", title: ["Ten ID generators, with the lock", "十个 ID 生成器，加锁"], lesson: [
        "The same ten machines take the sequential lock around their read-modify-write. The IDs come out unique and in order; the price is waiting, visible in the wait-time metric.",
        "同样的十台机器在读-改-写外面加上顺序锁。ID 唯一且有序；代价是等待，可以在等待时间指标中看到。"], build: || ids(RecipeKind::Sequential), moments: &[Kind::Waiting, Kind::Handoff, Kind::AllDone] },
];

/// Every preset: standalone ZooKeeper's, then (full bundle) an ensemble's and the other lock
/// services'.
pub fn all() -> impl Iterator<Item = &'static Preset> {
    #[cfg(feature = "services")]
    let more = super::presets_zab::ENSEMBLE_PRESETS
        .iter()
        .chain(super::presets_svc::SERVICE_PRESETS)
        .chain(super::presets_redlock::REDLOCK_PRESETS);
    #[cfg(not(feature = "services"))]
    let more = [].iter();
    PRESETS.iter().chain(more)
}

pub fn find(id: &str) -> Option<&'static Preset> {
    all().find(|p| p.id == id)
}

/// Presets whose lesson is a comparison: the recipes their one-click "side by side" opens in
/// compare mode (the same scenario, faults and seed in each column).
pub fn twin(id: &str) -> Option<[crate::recipes::RecipeKind; 2]> {
    use crate::recipes::RecipeKind;
    match id {
        "zk-leader-crash" => Some([RecipeKind::Curator, RecipeKind::RedisLease]),
        _ => None,
    }
}

pub use super::preset_names::{PresetName, SERVICE_PRESET_NAMES};

/// Whether the preset is an ensemble's or another lock service's (only the full bundle runs
/// it).
pub fn is_service_preset(id: &str) -> bool {
    SERVICE_PRESET_NAMES.iter().any(|p| p.id == id)
}

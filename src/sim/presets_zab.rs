//! Presets of a ZooKeeper ensemble (three servers): the leader dies while C1 holds the lock,
//! and a minority partition cuts off the server C1 is connected to. Each scenario also carries
//! a Redis replica, so compare mode shows the same fault on an asynchronously replicated
//! primary beside it.

use super::moments::Kind;
use super::presets::{at, base, Preset};
use super::scenario::{Command, Scenario, TimedCommand};
use crate::recipes::RecipeKind;

/// Three servers; a Redis column of compare mode gets a replica fed 20 ticks late and a lease
/// that outlives the run, so that only the replication can lose the lock there. Sessions of 40
/// ticks: 20 × tickTime, the server's default maximum (Curator asks for 60 s and gets it).
fn ensemble(faults: Vec<TimedCommand>) -> Scenario {
    Scenario {
        ensemble: Some(3),
        session_timeout: 40,
        replica_lag: Some(20),
        hold_min: 40,
        hold_max: 40,
        lease: 2000,
        fencing: true,
        faults,
        ..base(RecipeKind::Curator, 2)
    }
}

/// The naive lock's holder C1 on zk-1, an observer C2 on zk-2, and zk-2's links to the other
/// servers stalled once both sessions are open; C1 then acquires: its lock node is committed by zk-1 and the leader while
/// zk-2 has not seen it. C2 reads `/lock` plainly, then after `sync`. A tickTime of 10 ticks
/// makes syncLimit (5 ticks) 50 ticks, so the 40-tick stall stays a lag: neither side gives up
/// on the other.
fn stale_read() -> Scenario {
    Scenario {
        ensemble: Some(3),
        tick_time: 10,
        session_timeout: 120,
        hold_min: 150,
        hold_max: 150,
        start_spread: 0,
        observers: vec![1],
        faults: vec![
            at(
                10,
                Command::PauseLinks {
                    server: 1,
                    ticks: 40,
                },
            ),
            at(12, Command::Acquire { client: 0 }),
            at(
                24,
                Command::Read {
                    client: 1,
                    sync: false,
                },
            ),
            at(
                30,
                Command::Read {
                    client: 1,
                    sync: true,
                },
            ),
        ],
        rounds: 0,
        ..base(RecipeKind::Naive, 2)
    }
}

pub const ENSEMBLE_PRESETS: &[Preset] = &[
    Preset { id: "zk-leader-crash", title: ["Ensemble: the leader dies", "集群：领导者宕机"], lesson: [
        "Three ZooKeeper servers; zk-3 leads. C1's lock node is a write: its follower forwards it, the leader proposes it, and it is committed only once a majority (two of three) has logged it. Right after C1 holds the lock, the leader crashes. The followers elect zk-2 (it has every committed transaction), C1 reconnects with the same session, and its lock node is on every surviving server. C2 keeps waiting: one holder. Open compare mode with Redis SET NX PX: the same failover loses the key there.",
        "三台 ZooKeeper 服务器，zk-3 是领导者。C1 的锁节点是一次写入：跟随者把它转发给领导者，领导者发出提议，只有过半数（三台中的两台）记录了它才会提交。C1 刚拿到锁，领导者就崩溃了。跟随者选出 zk-2（它拥有所有已提交的事务），C1 用原来的会话重新连接，它的锁节点在每台存活的服务器上都在。C2 继续等待：只有一个持锁者。打开对比模式，与 Redis SET NX PX 对照：同样的故障切换在那里会丢掉这个键。"], build: || ensemble(vec![at(16, Command::Failover)]), moments: &[Kind::Fault, Kind::Elected, Kind::Handoff] },
    Preset { id: "zk-minority", title: ["Ensemble: the holder's server is cut off", "集群：持锁者所连的服务器被隔离"], lesson: [
        "A partition cuts zk-1 off from every other node; C1, which holds the lock, was connected to it. C1 hears nothing more: after two thirds of its session timeout it says Disconnected (Curator: SUSPENDED) and tries the next server in its connect string, zk-2, with the same session. zk-2 asks the leader, the session is alive, and C1 still holds its lock. zk-1 notices after syncLimit ticks that it has no leader: a minority cannot serve, so it stops. The majority never stopped: C2 kept waiting, and gets the lock only when C1 releases it.",
        "网络分区把 zk-1 与其余所有节点隔开；持有锁的 C1 原本连接在它上面。C1 再也收不到任何消息：过了会话超时的三分之二，它报告 Disconnected（Curator 报告 SUSPENDED），并用原来的会话改试连接串中的下一台服务器 zk-2。zk-2 询问领导者，会话仍然存活，C1 依旧持有锁。zk-1 在 syncLimit 个时钟单位后发现自己没有领导者：少数派不能提供服务，于是停止服务。多数派一直在工作：C2 一直等待，直到 C1 释放锁才拿到它。"], build: || ensemble(vec![at(16, Command::Split { clients: vec![], servers: vec![0] }), at(60, Command::HealSplit)]), moments: &[Kind::Fault, Kind::Minority, Kind::Resumed, Kind::Handoff] },
    Preset { id: "zk-stale-read", title: ["Ensemble: reading from a lagging server", "集群：在落后的服务器上读"], lesson: [
        "C1 takes the naive lock through zk-1 while zk-2's links to the other servers stall. Its create is committed by a majority (zk-1 and the leader, zk-3) without zk-2. C2, connected to zk-2, reads /lock: zk-2 answers from its own copy, and says the lock is free. Reads are served by the server you are connected to; ZooKeeper promises that each client sees writes in order, not that every read is the latest. C2 then calls sync before reading: zk-2 answers the sync only after the leader's answer arrives behind every commit before it, so the read that follows sees C1's node. A lock recipe is not fooled: its create always goes through the leader, and the reply comes only after its server has applied everything before it.",
        "C1 通过 zk-1 获取朴素锁，此时 zk-2 与其他服务器之间的链路停滞。它的创建由过半数（zk-1 和领导者 zk-3）提交，没有 zk-2 参与。连在 zk-2 上的 C2 读取 /lock：zk-2 用自己那份数据回答，说锁是空闲的。读请求由你所连的服务器回答；ZooKeeper 保证每个客户端按顺序看到写入，但不保证每次读到的都是最新值。随后 C2 先调用 sync 再读：zk-2 要等领导者的应答排在之前所有提交之后到达，才回答 sync，所以接下来的读看到了 C1 的节点。锁方案不会被骗：它的创建总是经过领导者，而应答要等它的服务器应用完之前的一切才会发出。"], build: stale_read, moments: &[Kind::Fault, Kind::StaleRead, Kind::FreshRead] },
];

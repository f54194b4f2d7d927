//! The captions of key frames that only the full bundle's lock services and ZooKeeper ensemble
//! can show (SQL row locks, Redis replication and repair, Redlock votes, elections, an
//! observer's reads); the lean bundle drops them (`crate::FULL`).

use super::captions::{name, names};
use super::moments::{Kind, Moment};

impl Moment {
    /// The caption of a key frame only the full bundle finds (empty for any other).
    pub(super) fn full_caption(&self, zh: bool) -> String {
        let c = self.client.map(name).unwrap_or_default();
        let others = names(&self.others, zh);
        let t = &self.text[usize::from(zh)];
        let (n, m) = (self.n, self.m);
        let pick = |en: String, cn: String| if zh { cn } else { en };
        match self.kind {
            Kind::RowWaiters => pick(
                format!("{others} waits for the row {c}'s transaction has locked."),
                format!("{others} 在等待 {c} 的事务锁住的那一行。"),
            ),
            Kind::ReplicaBehind if m == 1 => pick(
                format!("{c}'s lock is on the primary but not on the replica, and the link between them is cut: the write that would copy it ({n} ticks behind) will be lost."),
                format!("{c} 的锁已写入主节点，但副本上没有，而且两者之间的链路已断开：本应复制它的那次写入（晚 {n} 个时钟单位）会丢失。"),
            ),
            Kind::ReplicaBehind => pick(
                format!("{c}'s lock is on the primary but not yet on the replica (lag {n} ticks)."),
                format!("{c} 的锁已写入主节点，但还没有复制到副本（延迟 {n} 个时钟单位）。"),
            ),
            Kind::Repaired => pick(
                format!("A waiter gives the orphaned key {t} an expiry: it will go away now."),
                format!("一个等待者给无主的键 {t} 设置了过期时间：它终将消失。"),
            ),
            Kind::RowHandover => pick(
                format!("{c}'s transaction is gone: PostgreSQL hands the row lock to {others}."),
                format!("{c} 的事务已结束：PostgreSQL 把行锁交给了 {others}。"),
            ),
            Kind::StaleRead if n == 0 => pick(
                format!("Stale read: {t} answers {c} from its own copy, which has no /lock yet. The lock is held: the leader committed it, but {t} has not applied it."),
                format!("过时读：{t} 用自己那份数据回答 {c}，里面还没有 /lock。锁其实已被持有：领导者已提交，但 {t} 还没有应用。"),
            ),
            Kind::StaleRead => pick(
                format!("Stale read: {t} answers {c} from its own copy, which still has /lock. The lock is free: the leader committed its deletion, but {t} has not applied it."),
                format!("过时读：{t} 用自己那份数据回答 {c}，里面还有 /lock。锁其实已空闲：领导者已提交删除，但 {t} 还没有应用。"),
            ),
            Kind::FreshRead if m == 0 => pick(
                format!("{c}'s read on {t} agrees with the leader: {t} has caught up."),
                format!("{c} 在 {t} 上读到的与领导者一致：{t} 已经追上了。"),
            ),
            Kind::FreshRead if n == 1 => pick(
                format!("After sync, {c}'s read sees /lock, as the leader has it: {t} answered the sync only once it had applied everything committed before it."),
                format!("sync 之后，{c} 读到了 /lock，与领导者一致：{t} 先应用完 sync 之前提交的一切，才回答 sync。"),
            ),
            Kind::FreshRead => pick(
                format!("After sync, {c}'s read sees no /lock, as the leader has it: {t} answered the sync only once it had applied everything committed before it."),
                format!("sync 之后，{c} 读到没有 /lock，与领导者一致：{t} 先应用完 sync 之前提交的一切，才回答 sync。"),
            ),
            Kind::Elected if self.client.is_some() => pick(
                format!("A majority elected {t}, which leads epoch {n}. {c}'s lock node was logged by a majority, so the new leader has it: {c} still holds the lock."),
                format!("过半数选出了 {t}，由它领导第 {n} 纪元。{c} 的锁节点曾被过半数记录，所以新领导者也有它：{c} 仍然持有锁。"),
            ),
            Kind::Elected => pick(
                format!("A majority elected {t}, which leads epoch {n}."),
                format!("过半数选出了 {t}，由它领导第 {n} 纪元。"),
            ),
            Kind::Minority | Kind::Resumed => t.clone(),
            Kind::Quorum if self.fewer.is_some() => {
                let k = self.fewer.unwrap_or(0);
                let (en, cn) = match n {
                    0 => (format!("none of {m} votes), so it unlocks every master"), format!("{m} 票中一票也没有），于是向每个主节点发送解锁脚本")),
                    _ => (format!("only {n} of {m} votes), so it deletes its keys from every master"), format!("只有 {m} 票中的 {n} 票），于是从每个主节点删除自己的键")),
                };
                pick(
                    format!("{c} still believes it holds the lock, but only {k} of the {m} masters have its key now: not a majority. {others} can't get one either ({en} and tries again later."),
                    format!("{c} 仍认为自己持有锁，但现在 {m} 个主节点中只有 {k} 个还有它的键，不到多数。{others} 也拿不到多数（{cn}，稍后再试。"),
                )
            }
            Kind::Quorum if self.n == 0 => pick(
                format!("{c} holds the lock: a majority of the masters voted for it. {others} got none of {m} votes; it sends its unlock script to every master anyway and tries again later."),
                format!("{c} 持有锁：多数主节点投给了它。{others} 在 {m} 票中一票也没拿到；它照样向每个主节点发送解锁脚本，稍后再试。"),
            ),
            Kind::Quorum => pick(
                format!("{c} holds the lock: a majority of the masters voted for it. {others} got only {n} of {m} votes, so it deletes its keys from every master and tries again later."),
                format!("{c} 持有锁：多数主节点投给了它。{others} 只拿到 {m} 票中的 {n} 票，于是从每个主节点删除自己的键，稍后再试。"),
            ),
            _ => String::new(),
        }
    }
}

//! The one-line captions of key frames, in English and Chinese, filled from what the moment
//! found (clients, counts, paths); a fault's caption is its own narration.

use super::moments::{Kind, Moment};
use super::narrate::{Key, Lang};

pub(super) fn name(c: usize) -> String {
    format!("C{}", c + 1)
}

/// "C1", "C1 and C2", "C1, C2 and C3" (Chinese: "C1、C2 和 C3").
pub(super) fn names(all: &[usize], zh: bool) -> String {
    let v: Vec<String> = all.iter().map(|c| name(*c)).collect();
    match v.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => {
            let (sep, and) = if zh {
                ("、", " 和 ")
            } else {
                (", ", " and ")
            };
            format!("{}{and}{last}", init.join(sep))
        }
    }
}

impl Moment {
    pub(super) fn everyone(&self) -> Vec<usize> {
        self.client
            .into_iter()
            .chain(self.others.iter().copied())
            .collect()
    }

    /// The caption shown when playback stops here.
    pub fn caption(&self, lang: Lang) -> String {
        let zh = lang == Lang::Zh;
        let c = self.client.map(name).unwrap_or_default();
        let all = names(&self.everyone(), zh);
        let others = names(&self.others, zh);
        let t = &self.text[usize::from(zh)];
        let (n, m) = (self.n, self.m);
        let pick = |en: String, cn: String| if zh { cn } else { en };
        match self.kind {
            // A crashed ZooKeeper client's session outlives it: the key frame says so (the step's
            // own sentence only says what happened, so that a course question about what comes
            // next is not answered by it).
            Kind::Fault if self.fault == Some(Key::CmdCrash) => pick(
                format!("{t} Its session lives on at the server until it times out."),
                format!("{t}其会话在服务器上一直存活到超时。"),
            ),
            Kind::Fault if self.fault == Some(Key::CmdPauseLinks) => pick(
                format!("{t} It answers reads from its own copy but gets no proposal or commit: it falls behind."),
                format!("{t}它用自己的副本回答读请求，但提议和提交都到不了它：它落后于领导者。"),
            ),
            Kind::Fault => t.clone(),
            Kind::Waiting if m == 1 => pick(
                format!("{all} all watch the same {t}: one node, {n} watches."),
                format!("{all} 都监视同一个 {t}：一个节点，{n} 个监视。"),
            ),
            Kind::Waiting if (n as usize) + 1 < self.clients => {
                let rest = self.clients - 1;
                pick(
                    format!("{n} of the {rest} other clients already wait, each watching only the node just before its own: one watch per waiter, in a queue."),
                    format!("其余 {rest} 个客户端中已有 {n} 个在等待，每个只监视排在自己前面的那个节点：每个等待者一个监视，排成一队。"),
                )
            }
            Kind::Waiting => pick(
                format!("Each waiter watches only the node just before its own: a queue of {n} watches."),
                format!("每个等待者只监视排在自己前面的那个节点：{n} 个监视排成一队。"),
            ),
            Kind::Herd if m > 0 => {
                let idle = names(&self.others[self.others.len().saturating_sub(m as usize)..], zh);
                pick(
                    format!("{t} goes: 1 change → {n} notifications; {idle} no longer waits for the lock, yet it is told."),
                    format!("{t} 被删除：1 次变更 → {n} 个通知；{idle} 已不再等待这把锁，却仍被通知。"),
                )
            }
            Kind::Herd => pick(
                format!("{t} goes: 1 change → {n} notifications. Every waiter wakes at once."),
                format!("{t} 被删除：1 次变更 → {n} 个通知，所有等待者同时被唤醒。"),
            ),
            Kind::Handoff => pick(
                format!("{t} goes: 1 change → 1 notification. Only {others} wakes."),
                format!("{t} 被删除：1 次变更 → 1 个通知，只有 {others} 被唤醒。"),
            ),
            Kind::Expiry if self.fault == Some(Key::RedlockExpired) => t.clone(),
            Kind::Expiry if c.is_empty() => pick(
                format!("{t}'s time runs out at the service, and the service deletes it."),
                format!("{t} 在服务端到期，服务端删除了它。"),
            ),
            Kind::Expiry => pick(
                format!("The service ends {c}'s session on its own: {t} is deleted."),
                format!("服务端自行结束了 {c} 的会话：{t} 被删除。"),
            ),
            Kind::TwoHolders => pick(
                format!("{all} both believe they hold the lock."),
                format!("{all} 都认为自己持有锁。"),
            ),
            Kind::LostUpdate if m == 1 => pick(
                format!("The same ID {n} is handed out twice: {all} both got it."),
                format!("同一个 ID {n} 被分配了两次：{all} 都拿到了它。"),
            ),
            Kind::LostUpdate if m == 2 => pick(
                format!("Two lease holders write at once: {c} overwrites {others}'s update."),
                format!("两个租约持有者同时写入：{c} 覆盖了 {others} 的更新。"),
            ),
            Kind::LostUpdate if others.is_empty() => pick(
                format!("{c}'s write lands on a stale read: an update is lost."),
                format!("{c} 基于过时读取的写入生效了：有一次更新丢失。"),
            ),
            Kind::LostUpdate => pick(
                format!("{c}'s stale write lands: {others}'s update is lost."),
                format!("{c} 过时的写入生效了：{others} 的更新丢失。"),
            ),
            Kind::Fenced => pick(
                format!("The resource rejects {c}'s write: token {n} is lower than {m}."),
                format!("资源拒绝了 {c} 的写入：令牌 {n} 小于 {m}。"),
            ),
            Kind::Stuck if self.m == 1 => pick(
                format!("Nothing is left that could ever happen: {c} waits forever."),
                format!("再也不会有任何事件发生：{c} 将永远等待。"),
            ),
            Kind::Stuck if self.m == 2 => pick(
                format!("No progress for {n} ticks, longer than all the run's timers together: {c} is stuck waiting, unless the network, which keeps cutting clients off, loses a session or lets a retry through."),
                format!("{n} 个时钟单位没有任何进展，比本次运行所有计时器加起来还长：{c} 卡在等待中，除非不断切断连接的网络让某个会话丢失，或让一次重试成功。"),
            ),
            Kind::Stuck => pick(
                format!("No progress for {n} ticks, longer than all the run's timers together: {c} is stuck waiting."),
                format!("{n} 个时钟单位没有任何进展，比本次运行所有计时器加起来还长：{c} 卡在等待中。"),
            ),
            Kind::MissingWatch => pick(
                format!("{c}'s exists finds no {t}: its watch now waits for a creation."),
                format!("{c} 的 exists 发现 {t} 不存在：它的监视只会等待节点被创建。"),
            ),
            Kind::Orphan => pick(
                format!("{c} owns {n} nodes: the first is an orphan it never learned about."),
                format!("{c} 拥有 {n} 个节点：第一个是它并不知道的孤儿节点。"),
            ),
            Kind::Adopted => pick(
                format!("{c} finds its own protected node {t} and keeps it: no second node."),
                format!("{c} 找到了自己受保护的节点 {t} 并继续使用：没有第二个节点。"),
            ),
            Kind::Reentrant => pick(
                format!("{c} acquires again: the count is {n}, and no new node is created."),
                format!("{c} 再次获取：计数变为 {n}，不会创建新节点。"),
            ),
            Kind::SharedReaders => pick(
                format!("{all} read at once: readers share the lock."),
                format!("{all} 同时读：读者共享这把锁。"),
            ),
            Kind::Leases => pick(
                format!("{all} hold leases at once: a semaphore is not a mutex."),
                format!("{all} 同时持有租约：信号量不是互斥锁。"),
            ),
            Kind::NoExpiry => pick(
                format!("The key {t} has no expiry and no owner left: it stays for ever."),
                format!("键 {t} 没有过期时间，主人也已不在：它会永远留着。"),
            ),
            Kind::Rewatch => pick(
                format!("{c} lists the children again and now watches {t} instead."),
                format!("{c} 重新列出子节点，现在改为监视 {t}。"),
            ),
            Kind::SessionLost => t.clone(),
            // Only the full bundle's services and ensemble show these (`captions_full.rs`).
            Kind::RowWaiters
            | Kind::ReplicaBehind
            | Kind::Repaired
            | Kind::RowHandover
            | Kind::StaleRead
            | Kind::FreshRead
            | Kind::Elected
            | Kind::Minority
            | Kind::Resumed
            | Kind::Quorum => match crate::FULL {
                true => self.full_caption(zh),
                false => String::new(),
            },
            Kind::Unlocked => pick(
                format!("{n} clients work on the resource at once, with no lock at all."),
                format!("{n} 个客户端在完全无锁的情况下同时操作资源。"),
            ),
            Kind::Stop => pick(self.text[0].clone(), self.text[1].clone()),
            Kind::AllDone if self.others.is_empty() => pick(
                format!("Every client is done: {n} {t}, none lost or handed out twice. The price of the lock: {m} ticks spent waiting in all."),
                format!("所有客户端都已完成：{n} 次{t}，没有丢失，也没有重复。锁的代价：总共等待了 {m} 个时钟单位。"),
            ),
            Kind::AllDone => pick(
                format!("Every client is done, but {others} overwrote another's update: {m} {t} were made, the resource shows {n}."),
                format!("所有客户端都已完成，但 {others} 覆盖了别人的更新：一共做了 {m} 次{t}，资源上只显示 {n}。"),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_lists_read_naturally() {
        assert_eq!(names(&[0, 1, 2], false), "C1, C2 and C3");
        assert_eq!(names(&[0, 1], true), "C1 和 C2");
        assert_eq!(names(&[4], false), "C5");
    }
}

//! The top band: the simulated clock on the right and, from the left, badges for what is true
//! now and matters most — more holders than the lock allows, a stuck waiter, clients working
//! with no lock, how many notifications the last change fired, shared holders, a failover.
//! Badges that do not fit are left out, least important last.

use super::Builder;
use crate::view::geometry::Type;
use crate::view::lanes::Status;
use crate::view::palette::{INK, VIOLATION};
use crate::view::plan::GHOST_STEPS;
use crate::view::scene::{Anchor, Item, Shape};

struct Badge {
    key: &'static str,
    text: String,
    alarm: bool,
    evidence: &'static str,
}

fn names(v: &[usize]) -> String {
    v.iter()
        .map(|c| format!("C{}", c + 1))
        .collect::<Vec<_>>()
        .join(" ")
}

impl Builder<'_> {
    fn badge_list(&self) -> Vec<Badge> {
        let f = self.f;
        let mut out = Vec::new();
        let believers = &f.monitors.believers;
        let unlocked = f.clients.iter().any(|c| c.status == Status::Unlocked);
        let limit = f.max_holders.unwrap_or(usize::MAX);
        let mut add = |key, text: String, alarm, evidence| {
            out.push(Badge {
                key,
                text,
                alarm,
                evidence,
            })
        };
        if believers.len() > limit && !unlocked {
            let n = believers.len();
            add(
                "holders",
                self.say(
                    format!("{n} holders: {}", names(believers)),
                    format!("{n} 个持锁者：{}", names(believers)),
                ),
                true,
                "two-holders",
            );
        }
        if unlocked && believers.len() >= 2 {
            add(
                "unlocked",
                self.say(
                    format!("no lock: {} at once", names(believers)),
                    format!("无锁：{} 同时工作", names(believers)),
                ),
                true,
                "unlocked",
            );
        }
        if !f.monitors.stuck_now.is_empty() {
            let s = names(&f.monitors.stuck_now);
            let n = f.monitors.quiet_limit;
            let verb = if f.monitors.stuck_now.len() == 1 {
                "waits"
            } else {
                "wait"
            };
            add(
                "stuck",
                if f.monitors.dead_end {
                    self.say(
                        format!("stuck: {s} {verb} forever"),
                        format!("卡住：{s} 将永远等待"),
                    )
                } else if f.monitors.churn {
                    self.say(
                        format!("stuck: {s} {verb}, no progress for {n} ticks (only the flaky network can change it)"),
                        format!("卡住：{s} 在等待，{n} 个时钟单位没有进展（只有不稳定的网络能改变它）"),
                    )
                } else {
                    self.say(
                        format!("stuck: {s} {verb}, no progress for {n} ticks"),
                        format!("卡住：{s} 在等待，{n} 个时钟单位没有进展"),
                    )
                },
                true,
                "stuck",
            );
        }
        if let Some(x) = f
            .firing
            .as_ref()
            .filter(|x| f.step < x.step + 2 * GHOST_STEPS)
        {
            let n = x.watchers.len();
            let what = crate::narrate::short_path(&x.path);
            let text = self.say(
                format!(
                    "{what}: 1 change → {n} notification{}",
                    if n == 1 { "" } else { "s" }
                ),
                format!("{what}：1 次变更 → {n} 个通知"),
            );
            add("firing", text, false, "firing");
        }
        if believers.len() >= 2 && limit > 1 && believers.len() <= limit && !unlocked {
            let text = match f.max_holders {
                Some(l) => self.say(
                    format!(
                        "{} of {l} leases held: {}",
                        believers.len(),
                        names(believers)
                    ),
                    format!(
                        "{} 个租约中 {} 个被持有：{}",
                        l,
                        believers.len(),
                        names(believers)
                    ),
                ),
                None => self.say(
                    format!("readers share: {}", names(believers)),
                    format!("读者共享：{}", names(believers)),
                ),
            };
            add(
                "shared",
                text,
                false,
                if f.max_holders.is_some() {
                    "leases"
                } else {
                    "read-write"
                },
            );
        }
        if let Some((step, key)) = f.failover {
            let text = if f.stall_until > f.time {
                self.say(
                    format!("election: requests wait until t={}", f.stall_until),
                    format!("选举中：请求等待到 t={}", f.stall_until),
                )
            } else {
                match key {
                    crate::narrate::Key::FailoverRedis => self.say(
                        format!("step {step}: the replica became the primary"),
                        format!("第 {step} 步：副本成为主节点"),
                    ),
                    crate::narrate::Key::FailoverRedisRestart => self.say(
                        format!("step {step}: Redis restarted empty"),
                        format!("第 {step} 步：Redis 重启后数据为空"),
                    ),
                    crate::narrate::Key::FailoverEtcd => self.say(
                        format!("step {step}: a new etcd leader"),
                        format!("第 {step} 步：etcd 选出新领导者"),
                    ),
                    crate::narrate::Key::FailoverZab => self.say(
                        format!("step {step}: the leader crashed"),
                        format!("第 {step} 步：领导者崩溃"),
                    ),
                    _ => self.say(
                        format!("step {step}: failover"),
                        format!("第 {step} 步：故障切换"),
                    ),
                }
            };
            add("failover", text, true, "failover");
        }
        out
    }

    pub fn badges(&mut self) {
        let g = self.g;
        let b = g.band;
        let big = g.ty.big;
        let clock = format!("t = {}", self.f.time);
        let t = self.text(
            "clock".into(),
            b.right(),
            b.mid_y() + big as f32 * 0.36,
            big,
            Anchor::End,
            vec![(clock.clone(), true)],
            true,
            "ls-clock",
        );
        t.fill = Some(INK);
        let mut x = b.x;
        let end = b.right() - Type::width(&clock, big, true) - 12.0;
        let small = g.ty.small;
        let recent = self
            .f
            .firing
            .as_ref()
            .is_some_and(|x| self.f.step < x.step + GHOST_STEPS);
        for badge in self.badge_list() {
            let bold = if badge.alarm { 1.1 } else { 1.0 };
            // Short of room a badge keeps its first segments ("stuck: C2 C3 wait").
            let room = (end - x - 18.0) / bold;
            let Some(text) = super::fit_forms(&[badge.text.as_str()], small, room) else {
                continue;
            };
            let w = Type::width(&text, small, false) * bold + 18.0;
            let (fill, ink) = match (badge.alarm, badge.key) {
                (true, _) => (VIOLATION, "#ffffff"),
                (false, "firing") if recent => ("#1d2330", "#ffffff"),
                _ => ("#eef0f3", INK),
            };
            let h = small as f32 + 10.0;
            let rect = Item::new(
                format!("badge:{}", badge.key),
                Shape::Rect {
                    x,
                    y: b.mid_y() - h / 2.0,
                    w,
                    h,
                    rx: h / 2.0,
                },
                "ls-badge",
            )
            .fill(fill)
            .data("evidence", badge.evidence);
            self.push(rect);
            let t = self.text(
                format!("badge:{}:t", badge.key),
                x + 9.0,
                b.mid_y() + small as f32 * 0.36,
                small,
                Anchor::Start,
                vec![(text, badge.alarm)],
                false,
                "ls-badge__t",
            );
            t.fill = Some(ink);
            x += w + 8.0;
        }
    }
}

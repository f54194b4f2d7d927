//! Client cards: the client's colour and name, what it is doing (from its real state), its
//! process marks (paused bars, crashed, closed), the session or lease ring as the service
//! counts it down, and the reentrancy count and READ/WRITE mode.

use super::Builder;
use crate::view::geometry::Rect;
use crate::view::lanes::{ClientRow, Countdown, ProcMark, Status};
use crate::view::palette::{self, INK, MUTED, NOBODY, OK, VIOLATION};
use crate::view::scene::{Anchor, Item, Shape};

impl Builder<'_> {
    pub fn cards(&mut self) {
        let f = self.f;
        let two_holders = f.monitors.believers.len() > f.max_holders.unwrap_or(usize::MAX)
            && !f.clients.iter().any(|c| c.status == Status::Unlocked);
        for c in &f.clients {
            let r = self.g.card(c.id);
            let alarm = (two_holders && c.believes)
                || c.status == Status::BelievesOnly
                || f.monitors.stuck_now.contains(&c.id);
            let first = self.items.len();
            self.card(c, r, alarm);
            // Everything on the card opens the client's actions; the card is its tab stop.
            self.tag(first, "client", &c.id.to_string());
            self.reach(first, format!("client:{}", c.id), self.client_name(c));
        }
    }

    fn card(&mut self, c: &ClientRow, r: Rect, alarm: bool) {
        let k = format!("c{}", c.id);
        let colour = palette::client_colour(c.id);
        let dead = matches!(c.proc, ProcMark::Crashed | ProcMark::Closed);
        let stroke = if alarm {
            VIOLATION
        } else if c.status == Status::Holds {
            OK
        } else {
            colour
        };
        let width = if alarm || c.believes { "3" } else { "1.5" };
        let mut card = Item::new(
            k.clone(),
            Shape::Rect {
                x: r.x,
                y: r.y,
                w: r.w,
                h: r.h,
                rx: 6.0,
            },
            format!("ls-card ls-card--{}", c.status_class),
        )
        .fill(if dead { "#eceef1" } else { "#ffffff" })
        .stroke(stroke)
        .attr("stroke-width", width)
        .data("client", c.id.to_string());
        if matches!(c.proc, ProcMark::Paused { .. }) {
            card = card.attr("stroke-dasharray", "7 4");
        }
        if c.status == Status::Closed {
            card = card.opacity(60);
        }
        self.push(card);
        let chip_w = if let Some(size) = self.g.card_size() {
            (size as f32 * if r.w < 180.0 { 2.4 } else { 2.7 }).min(r.w * 0.3)
        } else {
            r.w.min(10.0)
        };
        self.push(
            Item::new(
                format!("{k}:chip"),
                Shape::Rect {
                    x: r.x,
                    y: r.y,
                    w: chip_w,
                    h: r.h,
                    rx: 6.0,
                },
                "ls-card__chip",
            )
            .fill(if dead { NOBODY } else { colour })
            .data("client", c.id.to_string()),
        );
        if !self.g.card_text() {
            return;
        }
        let big = self.g.card_size().unwrap_or(self.g.ty.big);
        let line1 = if self.g.card_two_lines() {
            r.y + r.h / 2.0 - 3.0
        } else {
            r.mid_y() + big as f32 * 0.36
        };
        let name = self.text(
            format!("{k}:name"),
            r.x + chip_w / 2.0,
            r.mid_y() + big as f32 * 0.36,
            big,
            Anchor::Middle,
            vec![(c.name.clone(), true)],
            false,
            "ls-card__name",
        );
        // On the grey chip of a dead client the name is dark (white read at 2.6:1).
        name.fill = Some(if dead {
            INK
        } else {
            palette::client_text(c.id)
        });
        self.process_mark(c, r, chip_w);
        let ring = self.ring(c, r);
        let x = r.x + chip_w + 8.0;
        let max = r.right() - ring - 8.0 - x;
        self.status(c, x, line1, max);
        if self.g.card_two_lines() {
            self.second_line(c, x, line1 + self.g.ty.small as f32 + 8.0, max);
        }
        self.pause_bar(c, r, x, x + max);
    }

    fn status(&mut self, c: &ClientRow, x: f32, y: f32, max: f32) {
        let ink = match c.status {
            Status::BelievesOnly | Status::Saw { stale: true, .. } => VIOLATION,
            Status::Holds => OK,
            Status::Crashed | Status::Closed | Status::Done => MUTED,
            _ => INK,
        };
        let evidence = match c.status {
            Status::Crashed => "client-crashed",
            Status::Closed => "client-closed",
            Status::Unlocked => "unlocked",
            Status::Saw { stale: true, .. } => "stale-read",
            Status::Saw { .. } => "fresh-read",
            Status::Votes {
                unwinding: true, ..
            } => "votes",
            Status::Holds if c.hold_count > 1 => "reentrant",
            _ => "",
        };
        let mut forms = c.status.forms(c.hold_count, self.lang);
        if forms[0] != c.label {
            forms.insert(0, c.label.clone());
        }
        let (ink, evidence) = match &c.error {
            Some(e) => {
                forms = vec![
                    self.say(format!("recipe error: {e}"), format!("实现出错：{e}")),
                    self.say("recipe error", "实现出错"),
                ];
                (VIOLATION, "recipe-error")
            }
            None => (ink, evidence),
        };
        if let (Some(m), true) = (c.mode, c.believes) {
            forms = forms.iter().map(|l| format!("{m} · {l}")).collect();
        }
        // Too long for the big size: the small one (still above the floor), then shorter
        // forms of the words, never half a word.
        let big = self.g.card_size().unwrap_or(self.g.ty.big);
        let small = self.g.ty.small;
        let size = match crate::view::stage::fit_forms(&forms[..1], big, max) {
            Some(_) => big,
            None => small,
        };
        let item = self.label_forms(
            format!("c{}:status", c.id),
            x,
            y,
            size,
            Anchor::Start,
            &forms,
            max,
            "ls-card__status",
        );
        item.fill = Some(ink);
        if c.believes || matches!(c.status, Status::BelievesOnly) {
            item.attrs.push(("font-weight", "600".into()));
        }
        if !evidence.is_empty() {
            item.data.push(("evidence", evidence.into()));
        }
    }

    /// The second line: the process, the link, or the token and node.
    fn second_line(&mut self, c: &ClientRow, x: f32, y: f32, max: f32) {
        let small = self.g.ty.small;
        let session = self.session_words(c);
        let (text, ink, evidence) = match c.proc {
            ProcMark::Paused { left } => (
                self.say(
                    format!("paused {left} more ticks{session}"),
                    format!("停顿中，还剩 {left} 个时钟单位{session}"),
                ),
                VIOLATION,
                "client-paused",
            ),
            ProcMark::Crashed if c.countdown == Countdown::Ended => (
                self.say("process gone · session expired", "进程已终止 · 会话已过期"),
                VIOLATION,
                "client-crashed expired",
            ),
            ProcMark::Crashed => (
                self.say(
                    format!("process gone{session}"),
                    format!("进程已终止{session}"),
                ),
                VIOLATION,
                "client-crashed",
            ),
            ProcMark::Closed => (
                self.say("session closed by the client", "客户端已关闭会话"),
                MUTED,
                "client-closed",
            ),
            _ if c.status == Status::BelievesOnly => {
                let text = match &c.behind {
                    Some((_, Some(o))) => self.say(
                        format!("but C{}'s node is lower", o + 1),
                        format!("但 C{} 的节点序号更小", o + 1),
                    ),
                    Some((n, None)) => self.say(
                        format!("{} is still ahead of it", crate::narrate::tail_name(n)),
                        format!("{} 仍排在它前面", crate::narrate::tail_name(n)),
                    ),
                    None => self.say("the service no longer says so", "服务端已不再这样认为"),
                };
                (text, VIOLATION, "believes")
            }
            _ if c.countdown == Countdown::Ended => (
                self.say(
                    "its session expired at the service",
                    "它在服务端的会话已过期",
                ),
                VIOLATION,
                "expired",
            ),
            _ if c.partitioned && c.server_down => (
                self.say(
                    format!("its server is down; it thinks: {}{session}", c.conn_label),
                    format!("它的服务器已宕机；它以为：{}{session}", c.conn_label),
                ),
                VIOLATION,
                "wire-cut",
            ),
            // kazoo spent its watcher when the connection broke: that is what it did.
            _ if c.partitioned && !c.spent.is_empty() => (
                format!(
                    "{}{}",
                    self.say("link cut; ", "网络被切断；"),
                    self.spent_words(&c.spent[0])
                ),
                VIOLATION,
                "wire-cut",
            ),
            _ if c.partitioned => (
                self.say(
                    format!("link cut; it thinks: {}{session}", c.conn_label),
                    format!("网络被切断；它以为：{}{session}", c.conn_label),
                ),
                VIOLATION,
                "wire-cut",
            ),
            _ => (self.details(c), MUTED, ""),
        };
        let mut forms = vec![text];
        // A cut link keeps its reason, not "it thinks" without what it thinks.
        if c.partitioned && !c.spent.is_empty() {
            forms.push(self.say(
                "link cut · NONE: watch forgotten",
                "网络被切断 · NONE：监视已清除",
            ));
            // The wire draws the cut; the card keeps what kazoo did.
            forms.push(self.say("NONE: watch forgotten", "NONE：监视已清除"));
        }
        if c.partitioned {
            forms.push(match c.server_down {
                true => self.say("its server is down", "它的服务器已宕机"),
                false => self.say("link cut", "网络被切断"),
            });
        }
        // Short of room a pause and its session keep both numbers (the bars below draw them).
        if let (ProcMark::Paused { left }, Countdown::Left { left: s, total }) =
            (c.proc, c.countdown)
        {
            forms.push(match total {
                0 => self.say(
                    format!("pause {left} · lease {s}"),
                    format!("停顿 {left} · 租约 {s}"),
                ),
                _ => self.say(
                    format!("pause {left} · session {s}"),
                    format!("停顿 {left} · 会话 {s}"),
                ),
            });
        }
        let item = self.label_forms(
            format!("c{}:line2", c.id),
            x,
            y,
            small,
            Anchor::Start,
            &forms,
            max,
            "ls-card__line2",
        );
        item.fill = Some(ink);
        if !evidence.is_empty() {
            item.data.push(("evidence", evidence.into()));
        }
    }

    /// " · session ends in 7" while the service still counts down a session nobody renews.
    fn session_words(&self, c: &ClientRow) -> String {
        match c.countdown {
            Countdown::Left { left, total } if total > 0 => self.say(
                format!(" · session ends in {left}"),
                format!(" · 会话 {left} 后结束"),
            ),
            _ => String::new(),
        }
    }

    /// kazoo forgot its watch when the connection broke: its watcher got a NONE event.
    pub(super) fn spent_words(&self, path: &str) -> String {
        let name = crate::view::lanes::tail(path);
        self.say(
            format!("NONE: watch on {name} forgotten"),
            format!("NONE：对 {name} 的监视已清除"),
        )
    }

    /// Its token first (what fencing needs), then the node it believes is its own, then its
    /// connection when not connected.
    fn details(&self, c: &ClientRow) -> String {
        let mut parts: Vec<String> = Vec::new();
        let held = c.believes && c.status != Status::Unlocked;
        match (&c.value, c.token) {
            (Some(v), _) if held => {
                parts.push(self.say(format!("value {v}"), format!("随机值 {v}")))
            }
            (None, Some(t)) if held => {
                // In hex when it is a zxid with an epoch, as the tree's czxid shows it.
                let t = super::service::stamp_text(t);
                parts.push(self.say(format!("token {t}"), format!("令牌 {t}")))
            }
            _ => {}
        }
        if let Some(n) = &c.node {
            let look = self.f.service.look();
            let [en, zh] = look.entry;
            let word = self.say(en, zh);
            let name = crate::view::lanes::tail(n);
            // A key or a row is quoted: "row “lock”" is the lock table's row, where "row lock"
            // would read as the database's row lock (what FOR UPDATE takes).
            let name = if look.znodes {
                name
            } else {
                format!("“{name}”")
            };
            parts.push(match c.found {
                true => self.say(
                    format!("found by its GUID: {name}"),
                    format!("凭 GUID 找回：{name}"),
                ),
                false => format!("{word} {name}"),
            });
        }
        if c.conn != crate::services::ConnState::Connected {
            parts.push(c.conn_label.clone());
        }
        if let Some(p) = c.spent.first() {
            parts.push(self.spent_words(p));
        }
        if let Countdown::Left { left, total: 0 } = c.countdown {
            parts.push(self.ttl(left));
        }
        parts.join(" · ")
    }
}

//! What a keyboard reaches on the stage and what a screen reader says for it: each client,
//! server, entry and message in flight gets one tab stop (on the shape a click opens) whose
//! name says what it is and the state the picture draws for it ("C2, waits for
//! lock-0000000001, connected, session ends in 8"; "zk-3, down"), from the same frame.

use super::Builder;
use crate::view::entries::{EntryRow, Ghost};
use crate::view::lanes::{ClientRow, Countdown, ProcMark};
use crate::view::messages::MessageDot;
use crate::view::servers::ServerView;

impl Builder<'_> {
    /// Makes the item at `at` the keyboard's stop for the thing `id` names.
    pub fn reach(&mut self, at: usize, id: String, name: String) {
        if let Some(i) = self.items.get_mut(at) {
            i.focus = Some(crate::view::scene::Focus { id, name });
        }
    }

    /// A client's name: who, what it does, its connection and its session or lease.
    pub fn client_name(&self, c: &ClientRow) -> String {
        let mut parts = vec![c.name.clone(), c.label.clone()];
        match c.proc {
            ProcMark::Paused { left } => parts.push(self.say(
                format!("paused, {left} ms left"),
                format!("停顿中，剩 {left} ms"),
            )),
            ProcMark::Running => parts.push(c.conn_label.clone()),
            ProcMark::Crashed | ProcMark::Closed => {}
        }
        if c.partitioned {
            parts.push(self.say("cut off from its server", "与服务器断开"));
        }
        // As the card says it: the service's countdown in ticks, not the session's id.
        match c.countdown {
            Countdown::Left { left, .. } => parts.push(self.say(
                format!("session ends in {}", left.max(0)),
                format!("会话 {} 后结束", left.max(0)),
            )),
            Countdown::Ended => parts.push(self.say("session ended", "会话已结束")),
            Countdown::None => {}
        }
        if let Some(p) = c.spent.first() {
            parts.push(self.spent_words(p));
        }
        if let Some(e) = &c.error {
            parts.push(e.clone());
        }
        parts.join(&self.comma())
    }

    /// The list separator in the reader's language.
    fn comma(&self) -> String {
        self.say(", ", "，")
    }

    /// A server's name: its label on the stage ("zk-3 · leader · …") read as a list.
    pub fn server_name(&self, s: &ServerView) -> String {
        s.label.replace(" · ", &self.comma())
    }

    /// An entry's name: its name, whose it is and how long it lives.
    pub fn entry_name(&self, r: &EntryRow) -> String {
        let mut parts = vec![r.name.clone()];
        // A copy on one server of several says whose copy it is.
        let (server, _) = crate::services::server_of_id(&r.id);
        if let Some(v) = self.f.servers.iter().find(|v| server > 0 && v.id == server) {
            parts.push(self.say(format!("on {}", v.name), format!("在 {} 上", v.name)));
        }
        if let Some(o) = r.owner {
            parts.push(self.say(format!("owned by C{}", o + 1), format!("属于 C{}", o + 1)));
        }
        if let Some(m) = r.mode() {
            parts.push(m.to_string());
        }
        parts.push(self.say("open for its fields", "打开查看字段"));
        parts.join(&self.comma())
    }

    /// A deleted entry's ghost (or a watched node that does not exist).
    pub fn ghost_name(&self, g: &Ghost) -> String {
        let what = match (g.phantom, g.expired) {
            (true, _) => self.say("does not exist, watched", "不存在，被监视"),
            (false, true) => self.say("deleted by expiry", "因过期被删除"),
            (false, false) => self.say("deleted", "已删除"),
        };
        format!("{}{}{what}", g.name, self.comma())
    }

    /// A message in flight: what it carries, from where to where.
    pub fn message_name(&self, m: &MessageDot) -> String {
        let client = m.client.map(|c| format!("C{}", c + 1));
        let server = |s: crate::services::ServerId| {
            self.f
                .servers
                .iter()
                .find(|v| v.id == s)
                .map(|v| v.name.clone())
                .unwrap_or_else(|| self.say("the service", "服务"))
        };
        let route = match (m.peer, client) {
            (Some((a, b)), _) => format!("{} → {}", server(a), server(b)),
            (None, Some(c)) if m.inbound => format!("{} → {c}", server(m.server)),
            (None, Some(c)) => format!("{c} → {}", server(m.server)),
            (None, None) => server(m.server),
        };
        let lost = if m.lost {
            self.say(", lost", "，已丢失")
        } else {
            String::new()
        };
        format!("{}{}{route}{lost}", m.label, self.comma())
    }
}

//! Protocol words made plain on the stage (a TCP FIN is "closed", an RST "reset", Redis's
//! `$-1` "nil", `:1` 1 and `+OK` OK, as redis-cli prints them), and the words under a message the network lost ("reply lost: create2 → ok"),
//! so a lost reply is a sentence on its wire, not a lone cross.

use super::Builder;
use crate::view::frame::MessageDot;
use crate::view::palette::VIOLATION;
use crate::view::scene::Anchor;

/// A message's operation in words a learner knows.
pub(super) fn plain(op: &str, zh: bool) -> String {
    op.split(' ')
        // Redis's wire words, as redis-cli prints them (nil, 1, OK).
        .map(|w| {
            crate::narrate::cli_word(w).unwrap_or(match (w, zh) {
                ("FIN", false) => "closed",
                ("FIN", true) => "连接关闭",
                ("RST", false) => "reset",
                ("RST", true) => "连接重置",
                ("read", true) => "读取",
                ("write", true) => "写入",
                ("value", true) => "值",
                ("rejected", true) => "被拒绝",
                ("token", true) => "令牌",
                ("(token", true) => "（令牌",
                _ => w,
            })
        })
        .collect::<Vec<_>>()
        .join(" ")
}

impl Builder<'_> {
    /// Under a lost message on a client's wire: what was lost, in red, on the wire's gap.
    pub(super) fn lost_label(&mut self, m: &MessageDot, (x, y): (f32, f32), transient: bool) {
        let Some(c) = m.client else { return };
        let small = self.g.ty.small;
        if self.g.lane_h < small as f32 * 2.3 {
            return;
        }
        let op = plain(&m.op, self.zh());
        let forms = match m.inbound {
            true => [
                self.say(format!("reply lost: {op}"), format!("应答丢失：{op}")),
                self.say(format!("lost: {op}"), format!("丢失：{op}")),
                self.say("reply lost", "应答丢失"),
            ],
            false => [
                self.say(format!("request lost: {op}"), format!("请求丢失：{op}")),
                self.say(format!("lost: {op}"), format!("丢失：{op}")),
                self.say("request lost", "请求丢失"),
            ],
        };
        let room = (x - self.g.clients.right() - 6.0).max(0.0);
        let t = self.label_forms(
            format!("m{}:lost", m.id),
            x - 2.0,
            y + small as f32 + 3.0,
            small,
            Anchor::End,
            &forms,
            room,
            "ls-msg__lostwords",
        );
        t.fill = Some(VIOLATION);
        t.attrs.push(("font-weight", "600".into()));
        t.data.push(("evidence", "reply-lost".into()));
        t.data.push(("client", c.to_string()));
        t.transient = transient;
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn jargon_becomes_words() {
        assert_eq!(super::plain("RST", false), "reset");
        assert_eq!(super::plain("GET → $-1", false), "GET → nil");
        assert_eq!(super::plain("create2 → ok", true), "create2 → ok");
    }
}

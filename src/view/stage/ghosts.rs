//! The service box's group headers (a lock directory, the Redis replica with its lag) and
//! the rows of what is gone: a deleted entry's ghost, struck through and fading, marked
//! "expired" when the service's clock removed it, and a watched node that does not exist.

use super::Builder;
use crate::view::entries::Ghost;
use crate::view::palette::{INK, MUTED, NOBODY, VIOLATION};
use crate::view::scene::{Anchor, Item, Shape};

impl Builder<'_> {
    pub(super) fn headers(&mut self) {
        let (g, f) = (self.g, self.f);
        let extra = super::replica_row(f).map(|r| (r, "replica:".to_string()));
        for (row, parent) in f.headers.iter().chain(extra.iter()) {
            let y = g.row(*row) + g.ty.small as f32 * 0.36;
            let text = match parent.strip_prefix("replica:") {
                Some(_) => self.replica_header(),
                None => format!("{parent}/"),
            };
            let replica = parent.starts_with("replica:");
            let t = self.label(
                format!("hdr:{parent}"),
                g.service.x + 12.0,
                y,
                g.ty.small,
                Anchor::Start,
                &text,
                g.service.w - 24.0,
                "ls-service__header",
            );
            t.fill = Some(if replica { INK } else { MUTED });
            if replica {
                t.data.push(("evidence", "replica".into()));
            }
        }
    }

    fn replica_header(&self) -> String {
        match self.f.replica {
            Some(r) if r.cut => self.say(
                "replica · link cut: later writes never arrive",
                "副本 · 复制链路已断开：之后的写入不会到达",
            ),
            Some(r) => self.say(
                format!("replica · lag {} ticks · {} writes behind", r.lag, r.behind),
                format!(
                    "副本 · 延迟 {} 个时钟单位 · 落后 {} 次写入",
                    r.lag, r.behind
                ),
            ),
            None => self.say("replica", "副本"),
        }
    }

    pub(super) fn ghost(&mut self, gh: &Ghost) {
        let g = self.g;
        let (x, y, w, h) = self.row_box(gh.row, gh.depth);
        let k = format!("e:{}", gh.id);
        let (stroke, evidence) = if gh.phantom {
            (VIOLATION, "watch-missing")
        } else if gh.expired {
            (VIOLATION, "expired")
        } else if gh.lost {
            (VIOLATION, "failover-lost")
        } else {
            (NOBODY, "deleted")
        };
        let fade = if gh.phantom {
            100
        } else {
            (80 - 10 * gh.age.min(6) as i32).max(25) as u8
        };
        let rect = Item::new(
            format!("{k}:ghost"),
            Shape::Rect {
                x,
                y,
                w,
                h,
                rx: 4.0,
            },
            "ls-entry ls-entry--ghost",
        )
        .fill("none")
        .stroke(stroke)
        .attr("stroke-width", "1.5")
        .attr("stroke-dasharray", "3 3")
        .opacity(fade)
        .data("evidence", evidence)
        .data("entry", gh.id.clone());
        self.push(rect);
        if !g.row_text() {
            return;
        }
        let size = g.row_size();
        let word = match (gh.phantom, gh.expired, gh.lost) {
            (true, _, _) => self.say("no such node · watched", "节点不存在 · 被监视"),
            (_, true, _) => self.say("expired", "已过期"),
            (_, _, true) => self.say("lost in the failover", "故障转移中丢失"),
            _ => self.say("deleted", "已删除"),
        };
        let cy = y + h / 2.0;
        let left = self.chip(
            &format!("{k}:gone"),
            x + w - 6.0,
            cy,
            g.ty.small,
            &word,
            if stroke == VIOLATION {
                VIOLATION
            } else {
                "#ffffff"
            },
            if stroke == VIOLATION {
                "#ffffff"
            } else {
                MUTED
            },
            Some(evidence),
        );
        let name = if gh.phantom {
            gh.id.clone()
        } else {
            crate::narrate::short_name(&gh.name)
        };
        let t = self.label(
            format!("{k}:gname"),
            x + 10.0,
            cy + size as f32 * 0.36,
            size,
            Anchor::Start,
            &name,
            left - x - 16.0,
            "ls-entry__name ls-entry__name--ghost",
        );
        t.fill = Some(MUTED);
        t.opacity = fade;
        if let Shape::Text(tx) = &mut t.shape {
            tx.mono = true;
        }
        if !gh.phantom {
            t.attrs.push(("text-decoration", "line-through".into()));
        }
    }
}

//! The service box's group headers (a lock directory; another server's name, role and state) and
//! the rows of what is gone: a deleted entry's ghost, struck through and fading, marked
//! "expired" when the service's clock removed it, and a watched node that does not exist.

use super::Builder;
use crate::services::server_of_id;
use crate::view::entries::Ghost;
use crate::view::palette::{MUTED, NOBODY, VIOLATION};
use crate::view::scene::{Anchor, Item, Shape};

impl Builder<'_> {
    pub(super) fn headers(&mut self) {
        let (g, f) = (self.g, self.f);
        for (row, parent) in &f.headers {
            let y = g.row(*row) + g.ty.small as f32 * 0.36;
            let (server, dir) = server_of_id(parent);
            // Another server's own header (its name, role and state), or a directory's, which
            // reads the same on every server.
            let own = self
                .server_label(server)
                .filter(|_| server > 0 && dir.is_empty());
            // Rows too thin for a line of text (an ensemble in a 640×400 course embed) keep
            // the servers' headers and drop the directories' (they would overlap the next box).
            if own.is_none() && g.row_h < g.ty.small as f32 + 2.0 {
                continue;
            }
            let server = if own.is_some() { server } else { 0 };
            let (text, ink) = match own {
                Some((label, down)) => (label, Self::server_ink(down)),
                None => (format!("{dir}/"), MUTED),
            };
            let t = self.label(
                format!("hdr:{parent}"),
                g.service.x + 12.0,
                y,
                if server > 0 {
                    g.ty.big.min(g.ty.small + 1)
                } else {
                    g.ty.small
                },
                Anchor::Start,
                &text,
                g.service.w - 24.0 - super::servers::PEER_LANE,
                "ls-service__header",
            );
            t.fill = Some(ink);
            if server > 0 {
                t.attrs.push(("font-weight", "600".into()));
                t.data.push(("evidence", "replica".into()));
                t.data.push(("server", server.to_string()));
            }
        }
    }

    pub(super) fn ghost(&mut self, gh: &Ghost) {
        let g = self.g;
        let (x, y, w, h) = self.row_box(gh.row, gh.depth);
        let k = format!("e:{}", gh.id);
        let (stroke, evidence) = if gh.phantom && server_of_id(&gh.id).0 > 0 {
            (VIOLATION, "replica-missing")
        } else if gh.phantom {
            (VIOLATION, "watch-missing")
        } else if gh.expired {
            (VIOLATION, "expired")
        } else if gh.lost {
            (VIOLATION, "failover-lost")
        } else if gh.crashed {
            (NOBODY, "crashed")
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
        .data("entry", gh.id.clone())
        .focus(format!("entry:{}", gh.id), self.ghost_name(gh));
        self.push(rect);
        if !g.row_text() {
            return;
        }
        let size = g.row_size();
        let copy = gh.phantom && server_of_id(&gh.id).0 > 0;
        let word = match (gh.phantom, gh.expired, gh.lost) {
            (true, _, _) if copy => {
                let forms = [
                    self.say("missing here: not replicated", "此处缺失：尚未复制"),
                    self.say("not replicated", "尚未复制"),
                ];
                super::fit_forms(&forms, g.ty.small, w * 0.7).unwrap_or_default()
            }
            (true, _, _) if gh.missed.is_some() => {
                let forms = [
                    self.say(
                        "deleted before the watch was set: no wake-up",
                        "在监视设置之前已被删除：不会有唤醒",
                    ),
                    self.say("deleted before the watch", "监视之前已被删除"),
                    self.say("missed deletion", "错过删除"),
                ];
                super::fit_forms(&forms, g.ty.small, w * 0.62).unwrap_or_default()
            }
            (true, _, _) => self.say("no such node · watched", "节点不存在 · 被监视"),
            (_, true, _) => self.say("expired", "已过期"),
            (_, _, true) => self.say("lost in the failover", "故障转移中丢失"),
            // Not a DEL: the server's memory went with it (an AOF may still hold the key).
            _ if gh.crashed => {
                let forms = [
                    self.say("crashed: not in memory", "崩溃：内存中已无"),
                    self.say("crashed", "已崩溃"),
                ];
                super::fit_forms(&forms, g.ty.small, w * 0.62).unwrap_or_default()
            }
            _ => self.say("deleted", "已删除"),
        };
        let cy = y + h / 2.0;
        let left = self.chip(
            &format!("{k}:gone"),
            x + w - 6.0,
            cy,
            (g.ty.small, h - 1.0),
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
        let mut names = vec![if gh.phantom && !copy {
            gh.id.clone()
        } else {
            crate::narrate::short_name(&gh.name)
        }];
        names.extend(super::name_forms(&gh.name));
        let t = self.label_forms(
            format!("{k}:gname"),
            x + 10.0,
            cy + size as f32 * 0.36,
            size,
            Anchor::Start,
            &names,
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

//! Marks on a client card: the session (or lease) ring as the service counts it down, the
//! process marks (pause bars, a cross for a crash), and time left in the service's words.

use super::Builder;
use crate::view::geometry::Rect;
use crate::view::lanes::{ClientRow, Countdown, ProcMark};
use crate::view::palette::{self, INK, VIOLATION};
use crate::view::scene::{Anchor, Item, Shape};

impl Builder<'_> {
    /// A red "×" centred at (x, y): a crashed process, an expired session.
    fn cross(&mut self, key: String, x: f32, y: f32, size: u16, class: &str) -> &mut Item {
        let t = self.text(
            key,
            x,
            y,
            size,
            Anchor::Middle,
            vec![("×".into(), true)],
            false,
            class,
        );
        t.fill = Some(VIOLATION);
        t
    }

    /// Time left on an entry, in the service's words (Redis PTTL in ms, an etcd lease in
    /// seconds, a SQL row's expiry).
    pub fn ttl(&self, ms: i64) -> String {
        (self.f.service.look().ttl)(ms)
            .unwrap_or_else(|| self.say(format!("expires in {ms}"), format!("{ms} 后过期")))
    }

    /// Two bars on the chip for a paused process, a cross for a crashed one.
    pub(super) fn process_mark(&mut self, c: &ClientRow, r: Rect, chip_w: f32) {
        let k = format!("c{}", c.id);
        let s = (r.h * 0.28).clamp(5.0, 10.0);
        let (x, y) = (r.x + chip_w - s - 3.0, r.y + 3.0);
        match c.proc {
            ProcMark::Paused { .. } => {
                for (i, dx) in [0.0, s * 0.6].into_iter().enumerate() {
                    let bar = Item::new(
                        format!("{k}:pause{i}"),
                        Shape::Rect {
                            x: x + dx,
                            y,
                            w: s * 0.35,
                            h: s,
                            rx: 1.0,
                        },
                        "ls-procmark",
                    )
                    .fill(VIOLATION)
                    .data("evidence", "client-paused");
                    self.push(bar);
                }
            }
            ProcMark::Crashed => {
                let size = self.g.ty.small;
                let t = self.cross(format!("{k}:x"), x + s / 2.0, y + s, size, "ls-procmark");
                t.data.push(("evidence", "client-crashed".into()));
            }
            _ => {}
        }
    }

    /// The session (or lease) ring at the card's right end; returns the width it takes.
    pub(super) fn ring(&mut self, c: &ClientRow, r: Rect) -> f32 {
        // A narrow card (a phone's) keeps more of its width for words.
        let rad = (r.h / 2.0 - 4.0).min(15.0).min(r.w * 0.075);
        if rad < 5.0 {
            return 0.0;
        }
        let (cx, cy) = (r.right() - rad - 6.0, r.mid_y());
        let k = format!("c{}:ring", c.id);
        match c.countdown {
            Countdown::Left { left, total } if total > 0 => {
                let frac = (left as f32 / total as f32).clamp(0.0, 1.0);
                self.push(
                    Item::new(
                        format!("{k}:track"),
                        Shape::Circle { cx, cy, r: rad },
                        "ls-ring",
                    )
                    .fill("none")
                    .stroke("#dde1e7")
                    .attr("stroke-width", "4"),
                );
                let colour = if frac < 0.34 {
                    VIOLATION
                } else {
                    palette::client_colour(c.id)
                };
                let arc = Item::new(
                    k.clone(),
                    Shape::Arc {
                        cx,
                        cy,
                        r: rad,
                        frac,
                    },
                    "ls-ring__arc",
                )
                .stroke(colour)
                .attr("stroke-width", "4")
                .data("evidence", "session-ring");
                self.push(arc.title(self.say(
                    format!("session: {left} of {total} ticks left at the service"),
                    format!("会话：服务端还剩 {left}/{total} 个时钟单位"),
                )));
                if rad >= 10.0 {
                    let t = self.text(
                        format!("{k}:n"),
                        cx,
                        cy + self.g.ty.small as f32 * 0.36,
                        self.g.ty.small,
                        Anchor::Middle,
                        vec![(left.to_string(), false)],
                        false,
                        "ls-ring__n",
                    );
                    t.fill = Some(INK);
                }
                rad * 2.0 + 8.0
            }
            Countdown::Ended => {
                let ring = Item::new(
                    k.clone(),
                    Shape::Circle { cx, cy, r: rad },
                    "ls-ring ls-ring--ended",
                )
                .fill("none")
                .stroke(VIOLATION)
                .attr("stroke-width", "3")
                .attr("stroke-dasharray", "3 3")
                .data("evidence", "expired");
                self.push(ring);
                let size = self.g.ty.big;
                self.cross(
                    format!("{k}:x"),
                    cx,
                    cy + size as f32 * 0.36,
                    size,
                    "ls-ring__n",
                );
                rad * 2.0 + 8.0
            }
            _ => 0.0,
        }
    }
}

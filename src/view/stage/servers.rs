//! The servers of a multi-server service, each its own box in the service column: the first
//! from the column's top, every other from its header row down to the next server's. A box
//! says who the server is and its role (a down server is greyed and says so); a lane on the
//! column's right carries the messages between servers, along a link drawn cut while a split
//! or a crash separates them. Each client's wire ends on the box of the server it talks to.

use super::Builder;
use crate::services::{server_of_id, ServerId};
use crate::view::frame::Frame;
use crate::view::geometry::Rect;
use crate::view::palette::{INK, MUTED, VIOLATION};
use crate::view::scene::{Anchor, Item, Shape};

/// A paused server's outline (a stopped process, as a paused client's card is marked).
const PAUSED: &str = "#b26b00";

/// The width of the lane between servers, on the column's right.
pub(crate) const PEER_LANE: f32 = 30.0;

/// Where each server's rows start: row 0 for the first, its header's row for every other (in
/// id order; empty for a single server).
pub(crate) fn first_rows(f: &Frame) -> Vec<usize> {
    if f.servers.len() < 2 {
        return Vec::new();
    }
    f.servers
        .iter()
        .map(|s| match s.id {
            0 => Some(0),
            id => f
                .headers
                .iter()
                .filter(|(_, p)| server_of_id(p).0 == id)
                .map(|(r, _)| *r)
                .min(),
        })
        .collect::<Option<Vec<usize>>>()
        .unwrap_or_default()
}

impl Builder<'_> {
    /// Whether the service runs on more than one server (only the full bundle has such
    /// services, so the lean build drops what draws them).
    pub(crate) fn several(&self) -> bool {
        crate::FULL && self.f.servers.len() > 1
    }

    /// Each server's box, in id order.
    pub(crate) fn server_boxes(&self) -> Vec<(ServerId, Rect)> {
        let (g, f) = (self.g, self.f);
        if !self.several() || g.servers.len() != f.servers.len() {
            return vec![(0, g.service)];
        }
        let ids = f.servers.iter().map(|s| s.id);
        ids.zip(g.servers.iter().copied()).collect()
    }

    /// The box of server `s` (the service's box if it has none).
    pub(crate) fn server_box(&self, s: ServerId) -> Rect {
        let boxes = self.server_boxes();
        let found = boxes.iter().find(|(id, _)| *id == s).map(|(_, r)| *r);
        found.unwrap_or(self.g.service)
    }

    /// The boxes of a multi-server service, each with its state.
    pub(super) fn server_frames(&mut self) {
        for (id, r) in self.server_boxes() {
            let down = self.f.servers.iter().any(|s| s.id == id && s.down);
            let paused = self
                .f
                .servers
                .iter()
                .any(|s| s.id == id && s.paused_until.is_some());
            let skewed = self
                .f
                .servers
                .iter()
                .any(|s| s.id == id && s.clock_ahead != 0);
            let leads = self
                .f
                .servers
                .iter()
                .any(|s| s.id == id && s.role == crate::services::Role::Leader);
            let electing = self
                .f
                .servers
                .iter()
                .any(|s| s.id == id && s.role == crate::services::Role::Looking);
            let mut item = Item::new(
                format!("srv{id}"),
                Shape::Rect {
                    x: r.x,
                    y: r.y,
                    w: r.w,
                    h: r.h,
                    rx: 10.0,
                },
                "ls-server",
            )
            .fill(if down { "#eceef1" } else { "#f6f7f9" })
            .stroke(if down { VIOLATION } else { "#c2c8d0" })
            .attr("stroke-width", "1.5")
            .data("server", id.to_string());
            if down {
                item = item
                    .attr("stroke-dasharray", "6 4")
                    .data("evidence", "server-down");
            } else if paused {
                item = item
                    .stroke(PAUSED)
                    .attr("stroke-width", "2.5")
                    .attr("stroke-dasharray", "2 3")
                    .data("evidence", "server-paused");
            } else if skewed {
                item = item
                    .stroke(PAUSED)
                    .attr("stroke-width", "2.5")
                    .data("evidence", "clock-jump");
            } else if leads {
                item = item.attr("stroke-width", "2.5").data("evidence", "leader");
            } else if electing {
                item = item.data("evidence", "electing");
            }
            if let Some(v) = self.f.servers.iter().find(|s| s.id == id) {
                item = item.focus(format!("server:{id}"), self.server_name(v));
            }
            self.push(item);
        }
        self.peer_links();
    }

    /// A server's header line: its name, role and state.
    pub(super) fn server_label(&self, s: ServerId) -> Option<(String, bool)> {
        let v = self.f.servers.iter().find(|v| v.id == s)?;
        Some((v.label.clone(), v.down))
    }

    /// The x of the lane between servers, and the y where it meets server `s`'s box.
    pub(crate) fn peer_end(&self, s: ServerId) -> (f32, f32) {
        let r = self.server_box(s);
        let y = r.y + (self.g.ty.big as f32 + 12.0).min(r.h / 2.0);
        (self.g.service.right() - PEER_LANE / 2.0, y)
    }

    /// The x of the link between servers `a` and `b` (and of the messages on it): a link
    /// between neighbours on the lane's line, one that passes other servers' boxes a step to
    /// the right per box it passes, so that a cut link never lies over a healthy one (zk-1's
    /// cut link to zk-3 ran over the healthy zk-2–zk-3 link).
    pub(crate) fn link_x(&self, a: ServerId, b: ServerId) -> f32 {
        let order = |s| self.f.servers.iter().position(|v| v.id == s).unwrap_or(0);
        let passes = order(a).abs_diff(order(b)).saturating_sub(1);
        let most = self.f.servers.len().saturating_sub(2).max(1);
        let step = ((PEER_LANE / 2.0 - 3.0) / most as f32).min(5.0);
        self.peer_end(a).0 + step * passes as f32
    }

    /// The link between each pair of servers, cut in red while the network separates them; the
    /// first cut is named once, on a halo where the first server's box ends (the links share
    /// one lane, so their midpoints fall on other servers' rows).
    fn peer_links(&mut self) {
        let (mut named, mut stall_named) = (false, false);
        for l in self.f.links.clone() {
            let ((_, y1), (_, y2)) = (self.peer_end(l.a), self.peer_end(l.b));
            let x = self.link_x(l.a, l.b);
            let mut line = Item::new(
                format!("link{}-{}", l.a, l.b),
                Shape::Line {
                    x1: x,
                    y1,
                    x2: x,
                    y2,
                },
                "ls-link",
            )
            .stroke(match (l.cut, l.stalled) {
                (true, _) => VIOLATION,
                (_, true) => PAUSED,
                _ => "#9aa3b2",
            })
            .attr("stroke-width", if l.stalled { "3" } else { "2" })
            .attr(
                "stroke-dasharray",
                if l.cut || l.stalled { "3 5" } else { "6 3" },
            );
            if l.cut {
                line = line.data("evidence", "link-cut");
            } else if l.stalled {
                line = line.data("evidence", "links-paused");
            }
            self.push(line);
            let down = self
                .f
                .servers
                .iter()
                .any(|s| (s.id == l.a || s.id == l.b) && s.down);
            let first = match l.cut {
                true => !std::mem::replace(&mut named, true),
                false => l.stalled && !std::mem::replace(&mut stall_named, true),
            };
            if (l.cut || l.stalled) && !down && first {
                let word = match l.cut {
                    true => self.say("split", "分区"),
                    false => self.say("stalled", "停滞"),
                };
                let stalled = self.f.servers.iter().find(|s| s.stalled).map(|s| s.id);
                let at = match l.cut {
                    true => l.a.min(l.b),
                    false => stalled.unwrap_or(l.a.min(l.b)),
                };
                let y = self.server_box(at).bottom() + self.g.ty.small as f32 * 0.35;
                let t = self.text(
                    format!("link{}-{}:word", l.a, l.b),
                    x - 6.0,
                    y,
                    self.g.ty.small,
                    Anchor::End,
                    vec![(word, true)],
                    false,
                    "ls-link__word",
                );
                t.fill = Some(if l.cut { VIOLATION } else { PAUSED });
                t.attrs.push(("paint-order", "stroke".into()));
                t.attrs.push(("stroke", "#ffffff".into()));
                t.attrs.push(("stroke-width", "4".into()));
                let evidence = if l.cut { "link-cut" } else { "links-paused" };
                t.data.push(("evidence", evidence.into()));
            }
            for (i, y) in [y1, y2].into_iter().enumerate() {
                self.push(
                    Item::new(
                        format!("link{}-{}:{i}", l.a, l.b),
                        Shape::Circle {
                            cx: x,
                            cy: y,
                            r: 3.0,
                        },
                        "ls-link__end",
                    )
                    .fill(match (l.cut, l.stalled) {
                        (true, _) => VIOLATION,
                        (_, true) => PAUSED,
                        _ => MUTED,
                    }),
                );
            }
        }
    }

    /// Where a message between two servers is, `p` of the way.
    pub(crate) fn on_peer_link(&self, from: ServerId, to: ServerId, p: f32) -> (f32, f32) {
        let ((_, y1), (_, y2)) = (self.peer_end(from), self.peer_end(to));
        (self.link_x(from, to), y1 + (y2 - y1) * p.clamp(0.0, 1.0))
    }

    /// The first server's title line (the service column's title when there are several).
    pub(super) fn first_server_title(&self, product: &str) -> Option<(String, bool)> {
        if !self.several() {
            return None;
        }
        let (label, down) = self.server_label(0)?;
        Some((format!("{product} · {label}"), down))
    }

    /// Ink for a server's header.
    pub(super) fn server_ink(down: bool) -> &'static str {
        if down {
            VIOLATION
        } else {
            INK
        }
    }
}

//! Wires and messages. Each client's wire runs to the box of the server it talks to (cut in two
//! with a mark while partitioned); a message is a dot on its wire at its place between its send
//! and delivery ticks — a request filled, a reply hollow, a watch event a diamond, a heartbeat a
//! small ring — and a lost one is crossed out. A message between servers runs on the lane
//! between their boxes, labelled with what it carries.

use super::lost::plain;
use super::Builder;
use crate::view::frame::MessageDot;
use crate::view::palette::{self, MUTED, VIOLATION};
use crate::view::scene::{Anchor, Item, Shape};

const WIRE: &str = "#c5cad3";

impl Builder<'_> {
    /// Client `c`'s wire: from its card to the box of the server it talks to (level with the
    /// card when the box reaches that high, else slanting to the box's nearest point).
    pub(crate) fn wire_ends(&self, c: usize) -> ((f32, f32), (f32, f32)) {
        let s = self.f.clients.get(c).map_or(0, |r| r.server);
        self.wire_to(c, s)
    }

    /// Client `c`'s wire to server `s`'s box.
    fn wire_to(&self, c: usize, s: crate::services::ServerId) -> ((f32, f32), (f32, f32)) {
        let ((x0, y), (x1, _)) = self.g.wire(c);
        if !self.several() {
            return ((x0, y), (x1, y));
        }
        let b = self.server_box(s);
        let margin = (b.h / 2.0).min(12.0);
        // A box a few pixels high (an ensemble in a 640×400 course embed) leaves no range:
        // its middle (clamp would panic on bounds crossed by rounding).
        let (lo, hi) = (b.y + margin, b.bottom() - margin);
        let end = if lo < hi {
            y.clamp(lo, hi)
        } else {
            b.y + b.h / 2.0
        };
        ((x0, y), (x1, end))
    }

    /// The servers a client's wires run to: the one it talks to, or every one (Redlock).
    fn wired(&self, c: &crate::view::lanes::ClientRow) -> Vec<crate::services::ServerId> {
        match c.fans_out && self.several() {
            true => self.f.servers.iter().map(|s| s.id).collect(),
            false => vec![c.server],
        }
    }

    pub fn wires(&mut self) {
        for c in &self.f.clients {
            for s in self.wired(c) {
                self.wire(c, s);
            }
        }
        self.armed_drops();
    }

    fn wire(&mut self, c: &crate::view::lanes::ClientRow, s: crate::services::ServerId) {
        let ((x0, y0), (x1, y1)) = self.wire_to(c.id, s);
        let k = match c.fans_out {
            true => format!("wire{}:{s}", c.id),
            false => format!("wire{}", c.id),
        };
        if !c.partitioned {
            self.push(
                Item::new(
                    k,
                    Shape::Line {
                        x1: x0,
                        y1: y0,
                        x2: x1,
                        y2: y1,
                    },
                    "ls-wire",
                )
                .stroke(WIRE)
                .attr("stroke-width", "2")
                .data("client", c.id.to_string())
                .data("server", s.to_string()),
            );
            return;
        }
        let at = |x: f32| y0 + (y1 - y0) * ((x - x0) / (x1 - x0).max(1.0));
        // A wire that slants to another lane's server is cut near its client, before it
        // crosses the wires of the clients below or above (the mark is then clearly its own).
        let along = if (y1 - y0).abs() > self.g.lane_h * 0.5 {
            0.3
        } else {
            0.5
        };
        let mid = x0 + (x1 - x0) * along;
        let y = at(mid);
        let gap = 8.0;
        for (i, (a, b)) in [(x0, mid - gap), (mid + gap, x1)].into_iter().enumerate() {
            self.push(
                Item::new(
                    format!("{k}:{i}"),
                    Shape::Line {
                        x1: a,
                        y1: at(a),
                        x2: b,
                        y2: at(b),
                    },
                    "ls-wire ls-wire--cut",
                )
                .stroke(VIOLATION)
                .attr("stroke-width", "2")
                .attr("stroke-dasharray", "5 4"),
            );
        }
        let s = (self.g.lane_h * 0.3).clamp(4.0, 9.0);
        for (i, dx) in [-gap, gap].into_iter().enumerate() {
            self.push(
                Item::new(
                    format!("{k}:slash{i}"),
                    Shape::Line {
                        x1: mid + dx - s / 2.0,
                        y1: y + s,
                        x2: mid + dx + s / 2.0,
                        y2: y - s,
                    },
                    "ls-wire__cut",
                )
                .stroke(VIOLATION)
                .attr("stroke-width", "2.5")
                .data("evidence", "wire-cut"),
            );
        }
        if self.g.lane_h >= (self.g.ty.small as f32) * 2.4 {
            let word = self.say("cut", "断开");
            let t = self.text(
                format!("{k}:word"),
                mid,
                y - s - 3.0,
                self.g.ty.small,
                Anchor::Middle,
                vec![(word, true)],
                false,
                "ls-wire__word",
            );
            t.fill = Some(VIOLATION);
            t.data.push(("evidence", "wire-cut".into()));
        }
    }

    /// A cross at the service end of a wire whose next reply will be lost.
    fn armed_drops(&mut self) {
        for c in self.f.clients.iter().filter(|c| c.drop_armed) {
            let (_, (x1, y)) = self.g.wire(c.id);
            let small = self.g.ty.small;
            let forms = [
                self.say("next reply lost ×", "下一个应答将丢失 ×"),
                self.say("reply lost ×", "应答将丢失 ×"),
                self.say("lost ×", "丢失 ×"),
            ];
            let room = (x1 - self.g.clients.right() - 6.0).max(20.0);
            let t = self.label_forms(
                format!("drop{}", c.id),
                x1 - 4.0,
                y + small as f32 + 6.0,
                small,
                Anchor::End,
                &forms,
                room,
                "ls-wire__drop",
            );
            t.fill = Some(VIOLATION);
            t.data.push(("evidence", "reply-lost".into()));
        }
    }

    /// Where a message is: on its client's wire, on the way to the resource, or on the lane
    /// between two servers.
    fn dot_at(&self, m: &MessageDot) -> Option<(f32, f32)> {
        if let Some((from, to)) = m.peer {
            return Some(self.on_peer_link(from, to, m.progress));
        }
        let c = m.client?;
        let p = if m.inbound {
            1.0 - m.progress
        } else {
            m.progress
        };
        if m.to_resource {
            return Some(self.g.to_resource(c, p));
        }
        let fans = self.f.clients.get(c).is_some_and(|r| r.fans_out);
        let ((x0, y0), (x1, y1)) = match fans {
            true => self.wire_to(c, m.server),
            false => self.wire_ends(c),
        };
        Some((
            x0 + (x1 - x0) * p.clamp(0.0, 1.0),
            y0 + (y1 - y0) * p.clamp(0.0, 1.0),
        ))
    }

    /// Where each message's label goes on a shared wire: above it, below it when another label
    /// is already above at that place, or nowhere.
    fn label_places(&self, msgs: &[&MessageDot]) -> Vec<Option<bool>> {
        let mut taken: Vec<((usize, u8), f32, f32, bool)> = Vec::new();
        let mut on_paths: Vec<(f32, f32)> = Vec::new();
        msgs.iter()
            .map(|m| {
                let (c, (x, y)) = (m.client?, self.dot_at(m)?);
                let c = (c, m.server);
                if m.to_resource {
                    // Ways to the resource meet at its top: one label per line of text there.
                    let line = self.g.ty.small as f32 + 3.0;
                    let free = !on_paths
                        .iter()
                        .any(|(a, b)| (y - b).abs() < line && (x - a).abs() < 120.0);
                    on_paths.push((x, y));
                    return free.then_some(true);
                }
                if m.heartbeat || m.lost || m.peer.is_some() {
                    return None;
                }
                let half =
                    crate::view::geometry::Type::width(&m.op, self.g.ty.small, true) / 2.0 + 4.0;
                let free = |above: bool| {
                    !taken.iter().any(|(tc, a, b, ab)| {
                        *tc == c && *ab == above && x + half > *a && x - half < *b
                    })
                };
                let place = [true, false].into_iter().find(|a| free(*a))?;
                taken.push((c, x - half, x + half, place));
                Some(place)
            })
            .collect()
    }

    pub(super) fn dot(&mut self, m: &MessageDot, transient: bool, above: Option<bool>) {
        let Some((x, y)) = self.dot_at(m) else { return };
        let c = m.client.unwrap_or(0);
        let colour = match m.peer {
            Some(_) => "#5b6475",
            None => palette::client_colour(c),
        };
        let r = (self.g.lane_h * 0.1).clamp(3.0, 6.5);
        let k = format!("m{}", m.id);
        let event = m.event;
        let shape = if event {
            let d = r * 1.35;
            Shape::Poly(vec![(x, y - d), (x + d, y), (x, y + d), (x - d, y)])
        } else {
            Shape::Circle {
                cx: x,
                cy: y,
                r: if m.heartbeat { r * 0.55 } else { r },
            }
        };
        let (fill, stroke) = match (m.heartbeat, m.inbound, event) {
            (true, _, _) => ("#ffffff", colour),
            (_, _, true) => (colour, "#1d2330"),
            (_, true, _) => ("#ffffff", colour),
            _ => (colour, "#ffffff"),
        };
        let mut dot = Item::new(
            k.clone(),
            shape,
            if m.heartbeat {
                "ls-msg ls-msg--ping"
            } else {
                "ls-msg"
            },
        )
        .fill(fill)
        .stroke(stroke)
        .attr(
            "stroke-width",
            if m.inbound || m.heartbeat {
                "2.5"
            } else {
                "1.5"
            },
        )
        .data("msg", m.id.to_string())
        .title(m.label.clone());
        if m.lost {
            dot = dot.data("evidence", "reply-lost");
        }
        if transient {
            dot = dot.transient();
        }
        self.push(dot);
        let room = self.g.lane_h >= self.g.ty.small as f32 * 2.3;
        if crate::FULL && m.peer.is_some() {
            self.peer_label(m, (x - r - 4.0, y), transient);
        } else if m.lost {
            let t = self.text(
                format!("{k}:x"),
                x,
                y - r - 3.0,
                self.g.ty.big,
                Anchor::Middle,
                vec![("×".into(), true)],
                false,
                "ls-msg__lost",
            );
            t.fill = Some(VIOLATION);
            t.data.push(("evidence", "reply-lost".into()));
            t.transient = transient;
            self.lost_label(m, (x, y + r), transient);
        } else if let (true, Some(_)) = (m.to_resource, above) {
            // The dotted way to the resource says what travels on it (read, write); by the
            // resource's top edge the words go above the dot, off the border.
            let small = self.g.ty.small as f32;
            let top = self.g.resource.map_or(f32::MAX, |b| b.y);
            let ty = match top - y < small * 1.5 {
                true => y - r - 3.0,
                false => y + small * 0.36,
            };
            let t = self.text(
                format!("{k}:t"),
                x + r + 3.0,
                ty,
                self.g.ty.small,
                Anchor::Start,
                vec![(plain(resource_words(&m.label), self.zh()), false)],
                true,
                "ls-msg__op",
            );
            t.fill = Some(MUTED);
            t.transient = transient;
        } else if let (true, Some(up)) = (room, above) {
            let half =
                crate::view::geometry::Type::width(&plain(&m.op, self.zh()), self.g.ty.small, true)
                    / 2.0;
            // A gap too narrow for the words (a phone's) keeps the dot alone.
            if 2.0 * half + 4.0 > self.g.service.x - self.g.clients.right() {
                return;
            }
            let tx = x.clamp(
                self.g.clients.right() + half + 2.0,
                (self.g.service.x - half - 2.0).max(self.g.clients.right() + half + 2.0),
            );
            let ty = if up {
                y - r - 4.0
            } else {
                y + r + self.g.ty.small as f32 + 2.0
            };
            let t = self.text(
                format!("{k}:t"),
                tx,
                ty,
                self.g.ty.small,
                Anchor::Middle,
                vec![(plain(&m.op, self.zh()), false)],
                true,
                "ls-msg__op",
            );
            t.fill = Some(MUTED);
            t.transient = transient;
        }
    }

    pub fn messages(&mut self) {
        let f = self.f;
        let all: Vec<&MessageDot> = f.messages.iter().chain(f.arrived.iter()).collect();
        // The way to the resource, drawn while something travels it.
        let mut paths: Vec<usize> = all
            .iter()
            .filter(|m| m.to_resource)
            .filter_map(|m| m.client)
            .collect();
        crate::sort::all(&mut paths);
        paths.dedup();
        for c in paths {
            let ((x1, y1), (x2, y2)) = self.g.resource_path(c);
            self.push(
                Item::new(
                    format!("rp{c}"),
                    Shape::Line { x1, y1, x2, y2 },
                    "ls-wire ls-wire--res",
                )
                .stroke(WIRE)
                .attr("stroke-width", "1.5")
                .attr("stroke-dasharray", "4 4"),
            );
        }
        let places = self.label_places(&all);
        let stacks = super::peers::stacks(&all, f.messages.len());
        for (i, m) in all.into_iter().enumerate() {
            // The message this step delivered is at its end: drawn only while the step animates.
            let arrived = i >= f.messages.len();
            match stacks.get(&i) {
                Some(0) => continue,
                Some(n) if *n > 1 => self.stacked_dot(m, arrived, *n),
                _ => self.dot(m, arrived, places[i]),
            }
        }
    }
}

/// A resource message's words without the token it carries (the ledger shows tokens).
fn resource_words(label: &str) -> &str {
    label.split(" (").next().unwrap_or(label)
}

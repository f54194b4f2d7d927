//! Messages on the stage: a dot on its wire at its place between its send and delivery ticks
//! (a request filled, a reply hollow, a watch event a diamond, a heartbeat a small ring), a
//! lost one crossed out with what was lost, a message between servers on the lane between
//! their boxes with what it carries, and each label placed above or below its dot so that
//! neighbours do not collide.

use super::wires::WIRE;
use super::{lost::plain, Builder};
use crate::view::frame::MessageDot;
use crate::view::geometry::{within, Type};
use crate::view::palette::{self, MUTED, VIOLATION};
use crate::view::scene::{Anchor, Item, Shape};

impl Builder<'_> {
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

    /// Where each message's label goes: above its dot, below it when another label already
    /// covers that spot (on its own wire, or on another client's wire that meets the same
    /// server box nearby), or nowhere.
    fn label_places(&self, msgs: &[&MessageDot]) -> Vec<Option<bool>> {
        let small = self.g.ty.small as f32;
        // Each label placed so far: its left and right ends and its baseline.
        let mut taken: Vec<(f32, f32, f32)> = Vec::new();
        // A cut wire's word ("server down") is there first.
        for c in &self.f.clients {
            for s in self.wired(c) {
                if let Some((x, baseline, word)) = self.cut_word(c, s) {
                    // Bold: a tenth wider than the regular face it is measured in.
                    let half = Type::width(&word, self.g.ty.small, false) * 0.55 + 4.0;
                    taken.push((x - half, x + half, baseline));
                }
            }
        }
        let mut on_paths: Vec<(f32, f32)> = Vec::new();
        msgs.iter()
            .map(|m| {
                let (x, y) = self.dot_at(m).filter(|_| m.client.is_some())?;
                if m.to_resource {
                    // Ways to the resource meet at its top: one label per line of text there.
                    let line = small + 3.0;
                    let free = !on_paths
                        .iter()
                        .any(|(a, b)| (y - b).abs() < line && (x - a).abs() < 120.0);
                    on_paths.push((x, y));
                    return free.then_some(true);
                }
                if m.heartbeat || m.lost || m.peer.is_some() {
                    return None;
                }
                let words = Type::width(&plain(&m.op, self.zh()), self.g.ty.small, true) / 2.0;
                let (x, half) = (self.label_x(x, words), words + 4.0);
                let baseline = |above: bool| self.label_baseline(y, above);
                let free = |above: bool| {
                    let ty = baseline(above);
                    !taken
                        .iter()
                        .any(|(a, b, t)| x + half > *a && x - half < *b && (ty - t).abs() < small)
                };
                let place = [true, false].into_iter().find(|a| free(*a))?;
                taken.push((x - half, x + half, baseline(place)));
                Some(place)
            })
            .collect()
    }

    /// Where the label of half-width `half` over a message dot at `x` is centred: between the
    /// cards and the service box, ending before the dot that sits on the box's edge (a watch
    /// event's diamond is 1.35 r wide each side), so its last letter stays readable.
    fn label_x(&self, x: f32, half: f32) -> f32 {
        let r = self.dot_r();
        let (lo, hi) = (
            self.g.clients.right() + half + 2.0,
            self.g.service.x - half - r * 1.35 - 2.0,
        );
        within(x, lo, hi)
    }

    /// A message dot's radius on this stage.
    fn dot_r(&self) -> f32 {
        (self.g.lane_h * 0.1).clamp(3.0, 6.5)
    }

    /// The baseline of a label above or below a dot at height `y`.
    fn label_baseline(&self, y: f32, above: bool) -> f32 {
        match above {
            true => y - self.dot_r() - 4.0,
            false => y + self.dot_r() + self.g.ty.small as f32 + 2.0,
        }
    }

    pub(super) fn dot(&mut self, m: &MessageDot, transient: bool, above: Option<bool>) {
        let Some((x, y)) = self.dot_at(m) else { return };
        let c = m.client.unwrap_or(0);
        let colour = match m.peer {
            Some(_) => "#5b6475",
            None => palette::client_colour(c),
        };
        let r = self.dot_r();
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
        } else if !m.heartbeat {
            dot = dot.focus(format!("msg:{}", m.id), self.message_name(m));
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
            let half = Type::width(&plain(&m.op, self.zh()), self.g.ty.small, true) / 2.0;
            // A gap too narrow for the words (a phone's) keeps the dot alone.
            if 2.0 * half + 4.0 > self.g.service.x - self.g.clients.right() {
                return;
            }
            let tx = self.label_x(x, half);
            let ty = self.label_baseline(y, up);
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

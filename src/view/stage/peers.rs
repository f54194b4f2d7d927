//! Messages between servers: each labelled beside its dot with what it carries, and those
//! drawn on top of each other folded into one dot with a count.

use super::Builder;
use crate::view::frame::MessageDot;
use crate::view::geometry::Type;
use crate::view::palette::{self, VIOLATION};
use crate::view::scene::{Anchor, Shape};

/// How far a label's white halo reaches past its letters (half its stroke).
pub(super) const HALO: f32 = 2.0;

impl Builder<'_> {
    /// A message between servers is labelled left of its dot, over the rows, on a white halo:
    /// what it carries, in red and crossed out when it is lost. Labels on the lane never sit on
    /// each other: one moves a line up or down, or is left out (the dot's title still says it).
    pub(super) fn peer_label(&mut self, m: &MessageDot, (x, y): (f32, f32), transient: bool) {
        let op = super::lost::plain(&m.op, self.zh());
        let (text, class, ink) = match m.lost {
            true => (
                format!("{op} ×"),
                "ls-msg__lost ls-msg__lost--peer",
                VIOLATION,
            ),
            false => (op, "ls-msg__op ls-msg__op--peer", palette::INK),
        };
        let small = self.g.ty.small;
        let line = small as f32 * 1.15;
        let base = y + small as f32 * 0.35;
        // Off the rows' words where a line up or down is clear of them (a server's czxid
        // under "PROPOSAL"), else on its halo over them.
        let left = x - Type::width(&text, small, true);
        let places: Vec<f32> = [0.0, -1.0, 1.0, -2.0, 2.0]
            .into_iter()
            .map(|k| base + k * line)
            .filter(|y| self.lane_free(*y, line))
            .collect();
        let Some(y) = places
            .iter()
            .copied()
            .find(|y| !self.over_words(left, x, *y, small))
            .or(places.first().copied())
        else {
            return;
        };
        let t = self.text(
            format!("m{}:{}", m.id, if m.lost { "x" } else { "t" }),
            x,
            y,
            small,
            Anchor::End,
            vec![(text, m.lost)],
            true,
            class,
        );
        t.fill = Some(ink);
        t.attrs.push(("paint-order", "stroke".into()));
        t.attrs.push(("stroke", "#ffffff".into()));
        // Twice HALO, written out: formatting a float would bring its machinery into the wasm.
        t.attrs.push(("stroke-width", "4".into()));
        if m.lost {
            t.data.push(("evidence", "peer-lost".into()));
        }
        t.transient = transient;
    }

    /// No label between servers is drawn within a line of `y` yet (the next line is free: half
    /// a pixel of slack, as `base + k * line` rounds).
    fn lane_free(&self, y: f32, line: f32) -> bool {
        !self.items.iter().any(|i| {
            i.class.contains("--peer")
                && matches!(&i.shape, Shape::Text(t) if (t.y - y).abs() < line - 0.5)
        })
    }

    /// A label from `left` to `right` on baseline `y`, or its halo, would lie over a word drawn
    /// before it that is not another label on the lane.
    fn over_words(&self, left: f32, right: f32, y: f32, size: u16) -> bool {
        let (left, right) = (left - HALO, right + HALO);
        let (top, bottom) = (
            y - f32::from(size) * 0.8 - HALO,
            y + f32::from(size) * 0.2 + HALO,
        );
        self.items.iter().any(|i| match &i.shape {
            Shape::Text(t) if !i.class.contains("--peer") => {
                let (l, r, t, b) = t.bounds(1.0);
                l < right && left < r && t < bottom && top < b
            }
            _ => false,
        })
    }

    /// The oldest of `n` messages between the same two servers, of one kind, at one place:
    /// one dot labelled with how many (`PROPOSAL ×12`), not `n` dots and labels on each other.
    pub(super) fn stacked_dot(&mut self, m: &MessageDot, transient: bool, n: usize) {
        let mut one = m.clone();
        one.op = format!("{} ×{n}", m.op);
        one.label = format!("{} (×{n})", m.label);
        self.dot(&one, transient, None);
    }
}

/// Messages between servers drawn on top of each other (same two servers, same kind, same
/// place, both delivered or both not): index → how many the first of them stands for, 0 for
/// the rest. Client messages are not in the map.
pub(super) fn stacks(
    all: &[&MessageDot],
    delivered_from: usize,
) -> crate::sorted::SortedMap<usize, usize> {
    let mut first = crate::sorted::SortedMap::new();
    let mut out = crate::sorted::SortedMap::new();
    if !crate::FULL {
        return out; // no servers talk to each other in the lean bundle
    }
    for (i, m) in all.iter().enumerate() {
        let Some(link) = m.peer else { continue };
        let place = (m.progress.clamp(0.0, 1.0) * 200.0).round() as u32;
        let key = (link, m.op.as_str(), m.lost, i >= delivered_from, place);
        match first.get(&key) {
            Some(&j) => {
                *out.entry(j).or_insert(1) += 1;
                out.insert(i, 0);
            }
            None => {
                first.insert(key, i);
                out.insert(i, 1);
            }
        }
    }
    out
}

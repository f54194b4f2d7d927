//! Messages between servers: each labelled beside its dot with what it carries, and those
//! drawn on top of each other folded into one dot with a count.

use super::Builder;
use crate::view::frame::MessageDot;
use crate::view::palette::{self, VIOLATION};
use crate::view::scene::Anchor;

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
        let Some(y) = [0.0, -1.0, 1.0, -2.0, 2.0]
            .into_iter()
            .map(|k| base + k * line)
            .find(|y| self.lane_free(*y, line))
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
        t.attrs.push(("stroke-width", "4".into()));
        if m.lost {
            t.data.push(("evidence", "peer-lost".into()));
        }
        t.transient = transient;
    }

    /// No label between servers is drawn within a line of `y` yet.
    fn lane_free(&self, y: f32, line: f32) -> bool {
        !self.items.iter().any(|i| {
            i.class.contains("--peer")
                && matches!(&i.shape, crate::view::scene::Shape::Text(t) if (t.y - y).abs() < line)
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
) -> std::collections::BTreeMap<usize, usize> {
    let mut first = std::collections::BTreeMap::new();
    let mut out = std::collections::BTreeMap::new();
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

//! Wires: each client's wire runs to the box of the server it talks to, cut in two with a mark
//! while partitioned (or while that server is down), and a cross where its next reply will be
//! lost. The messages on them are drawn in `dots.rs`.

use super::Builder;
use crate::view::geometry::within;
use crate::view::palette::{self, VIOLATION};
use crate::view::scene::{Anchor, Item, Shape};

pub(super) const WIRE: &str = "#c5cad3";

impl Builder<'_> {
    /// Client `c`'s wire: from its card to the box of the server it talks to (level with the
    /// card when the box reaches that high, else slanting to the box's nearest point).
    pub(crate) fn wire_ends(&self, c: usize) -> ((f32, f32), (f32, f32)) {
        let s = self.f.clients.get(c).map_or(0, |r| r.server);
        self.wire_to(c, s)
    }

    /// Client `c`'s wire to server `s`'s box.
    pub(super) fn wire_to(
        &self,
        c: usize,
        s: crate::services::ServerId,
    ) -> ((f32, f32), (f32, f32)) {
        let ((x0, y), (x1, _)) = self.g.wire(c);
        if !self.several() {
            return ((x0, y), (x1, y));
        }
        let b = self.server_box(s);
        let margin = (b.h / 2.0).min(12.0);
        // A box a few pixels high (an ensemble in a 640×400 course embed) leaves no range:
        // its middle.
        let (lo, hi) = (b.y + margin, b.bottom() - margin);
        let end = if lo < hi {
            self.fan_end(s, y, (lo, hi))
        } else {
            b.y + b.h / 2.0
        };
        ((x0, y), (x1, end))
    }

    /// Where a wire from lane height `y` meets server `s`'s box edge `lo..hi`: level with its
    /// card when the box reaches that high; else the wires from beyond the box fan out from its
    /// nearest end in lane order, a label's height apart, so that their messages and labels do
    /// not meet on one point (they cross no other wire to the same box).
    fn fan_end(&self, s: crate::services::ServerId, y: f32, (lo, hi): (f32, f32)) -> f32 {
        if (lo..=hi).contains(&y) {
            return y;
        }
        // Wires to this box from beyond its reach, and those of them nearer its end than `y`.
        let (mut beyond, mut nearer) = (0, 0);
        let to_here =
            |r: &&crate::view::lanes::ClientRow| r.server == s || (r.fans_out && self.several());
        for r in self.f.clients.iter().filter(to_here) {
            let oy = self.g.wire(r.id).0 .1;
            beyond += usize::from(!(lo..=hi).contains(&oy));
            nearer += usize::from(if y < lo { oy < y } else { oy > y });
        }
        let step = (self.g.ty.small as f32 * 1.6).min((hi - lo) / beyond.max(1) as f32);
        // A lane below another ends below it: the wires do not cross.
        let end = match y < lo {
            true => lo + step * nearer as f32,
            false => hi - step * nearer as f32,
        };
        within(end, lo, hi)
    }

    /// The servers a client's wires run to: the one it talks to, or every one (Redlock).
    pub(super) fn wired(
        &self,
        c: &crate::view::lanes::ClientRow,
    ) -> Vec<crate::services::ServerId> {
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
            let line = Shape::Line {
                x1: x0,
                y1: y0,
                x2: x1,
                y2: y1,
            };
            let item = Item::new(k, line, "ls-wire")
                .attr("stroke-width", "2")
                .data("client", c.id.to_string())
                .data("server", s.to_string());
            // Redlock's wires cross on their way to every master: each in its client's colour,
            // faint, says whose it is.
            self.push(match c.fans_out && self.several() {
                true => item.stroke(palette::client_colour(c.id)).opacity(45),
                false => item.stroke(WIRE),
            });
            return;
        }
        let at = |x: f32| y0 + (y1 - y0) * ((x - x0) / (x1 - x0).max(1.0));
        let (mid, y) = self.cut_point(c.id, s);
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
        let arm = self.cut_arm();
        for (i, dx) in [-gap, gap].into_iter().enumerate() {
            self.push(
                Item::new(
                    format!("{k}:slash{i}"),
                    Shape::Line {
                        x1: mid + dx - arm / 2.0,
                        y1: y + arm,
                        x2: mid + dx + arm / 2.0,
                        y2: y - arm,
                    },
                    "ls-wire__cut",
                )
                .stroke(VIOLATION)
                .attr("stroke-width", "2.5")
                .data("evidence", "wire-cut"),
            );
        }
        if let Some((_, baseline, word)) = self.cut_word(c, s) {
            let t = self.text(
                format!("{k}:word"),
                mid,
                baseline,
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

    /// How far a cut's slashes reach above and below the wire.
    fn cut_arm(&self) -> f32 {
        (self.g.lane_h * 0.3).clamp(4.0, 9.0)
    }

    /// Where a cut wire breaks. A wire that slants to another lane's server is cut near its
    /// client, before it crosses the wires of the clients below or above (the mark is then
    /// clearly its own).
    fn cut_point(&self, c: usize, s: crate::services::ServerId) -> (f32, f32) {
        let ((x0, y0), (x1, y1)) = self.wire_to(c, s);
        let along = if (y1 - y0).abs() > self.g.lane_h * 0.5 {
            0.3
        } else {
            0.5
        };
        let mid = x0 + (x1 - x0) * along;
        (mid, y0 + (y1 - y0) * ((mid - x0) / (x1 - x0).max(1.0)))
    }

    /// A cut wire's word over its break (x, baseline, word), when its lane has room for it: a
    /// wire to a crashed server is broken too, but no partition cut it.
    pub(super) fn cut_word(
        &self,
        c: &crate::view::lanes::ClientRow,
        s: crate::services::ServerId,
    ) -> Option<(f32, f32, String)> {
        if !c.partitioned || self.g.lane_h < (self.g.ty.small as f32) * 2.4 {
            return None;
        }
        let down = self.f.servers.iter().any(|v| v.id == s && v.down);
        let word = match down {
            true => self.say("server down", "服务器宕机"),
            false => self.say("cut", "断开"),
        };
        let (mid, y) = self.cut_point(c.id, s);
        Some((mid, y - self.cut_arm() - 3.0, word))
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
}

#[cfg(test)]
mod tests {
    use crate::sim::{presets, Lang, Simulation};
    use crate::view::frame::build;
    use crate::view::palette::client_colour;
    use crate::view::plan::Plan;
    use crate::view::stage::{scene, Opts};

    /// (client, server, stroke) of every whole wire of `preset` at `step`.
    fn wires(preset: &str, step: u64) -> Vec<(String, String, &'static str)> {
        let mut sim = Simulation::new(presets::find(preset).unwrap().scenario());
        sim.compute_ahead(2000, 200);
        sim.seek(step);
        let f = build(&sim, &Plan::new(&sim), Lang::En);
        let lang = Lang::En;
        let s = scene(
            &f,
            &Opts {
                w: 1046,
                h: 740,
                lang,
            },
        );
        let data = |i: &crate::view::scene::Item, k| {
            i.data.iter().find(|(n, _)| *n == k).map(|(_, v)| v.clone())
        };
        s.items
            .iter()
            .filter(|i| i.class == "ls-wire")
            .map(|i| {
                (
                    data(i, "client").unwrap(),
                    data(i, "server").unwrap(),
                    i.stroke.unwrap(),
                )
            })
            .collect()
    }

    #[test]
    fn each_redlock_wire_is_in_its_clients_colour() {
        if !crate::FULL {
            return; // the lean build has no Redlock
        }
        let w = wires("redlock-majority", 1);
        let servers = |c: &str| w.iter().filter(|x| x.0 == c).count();
        assert_eq!((servers("0"), servers("1")), (5, 5), "{w:?}");
        for (c, _, stroke) in &w {
            assert_eq!(*stroke, client_colour(c.parse().unwrap()), "{w:?}");
        }
    }

    #[test]
    fn a_wire_to_one_server_stays_grey() {
        let w = wires("queue", 1);
        assert!(!w.is_empty());
        assert!(w.iter().all(|x| x.2 == super::WIRE), "{w:?}");
    }
}

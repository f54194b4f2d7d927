//! Watches: a curve from an entry's row to its watcher (dashed on the entry, dotted on its
//! children, red on a node that does not exist); the watches the last change fired are drawn
//! solid, and during the step that fires them a pulse runs from the entry to each watcher.

use super::Builder;
use crate::services::{on_server, server_of_id};
use crate::view::palette::{self, VIOLATION};
use crate::view::plan::GHOST_STEPS;
use crate::view::scene::{Enter, Item, Shape};

impl Builder<'_> {
    /// The y of an entry, ghost or missing node by path.
    fn row_y(&self, path: &str) -> Option<(f32, usize)> {
        let f = self.f;
        f.tree
            .iter()
            .find(|r| r.id == path)
            .map(|r| (r.row, r.depth))
            .or_else(|| {
                f.ghosts
                    .iter()
                    .find(|g| g.id == path)
                    .map(|g| (g.row, g.depth))
            })
            .or_else(|| {
                f.headers
                    .iter()
                    .find(|(_, p)| p == path)
                    .map(|(row, _)| (*row, 0))
            })
            .map(|(row, depth)| (self.g.row(row), depth))
    }

    /// The y of `path`'s copy on the server `client` talks to, which sent it the watch event
    /// (an ensemble keeps a copy per server, and a change's record names one copy), else of
    /// `path` itself.
    fn event_y(&self, client: usize, path: &str) -> Option<f32> {
        let s = self.f.clients.get(client).map_or(0, |r| r.server);
        let own = self.row_y(&on_server(s, server_of_id(path).1));
        own.or_else(|| self.row_y(path)).map(|(y, _)| y)
    }

    pub fn watches(&mut self) {
        let f = self.f;
        let recent = f.firing.as_ref().filter(|x| f.step < x.step + GHOST_STEPS);
        for w in &f.watches {
            // A watch's path names the copy it is registered on.
            let Some((ry, _)) = self.row_y(&w.path) else {
                continue;
            };
            let evidence = if w.on_missing {
                "watches watch-missing"
            } else {
                "watches"
            };
            let dash = if w.child { "2 4" } else { "7 4" };
            let colour = if w.on_missing {
                VIOLATION
            } else {
                palette::client_colour(w.client)
            };
            let curve = self.curve(w.client, ry);
            self.push(
                Item::new(
                    format!("w{}:{}:{}", w.client, w.path, w.child),
                    curve,
                    "ls-watch",
                )
                .stroke(colour)
                .attr("stroke-width", "2")
                .attr("stroke-dasharray", dash)
                .fill("none")
                .data("evidence", evidence)
                .data("client", w.client.to_string()),
            );
        }
        if let Some(x) = recent {
            for c in &x.watchers {
                if let Some(ry) = self.event_y(*c, &x.path) {
                    let curve = self.curve(*c, ry);
                    self.push(
                        Item::new(
                            format!("fired{}:{}", x.step, c),
                            curve,
                            "ls-watch ls-watch--fired",
                        )
                        .stroke(palette::client_colour(*c))
                        .attr("stroke-width", "3.5")
                        .fill("none")
                        .data("evidence", "firing"),
                    );
                }
            }
        }
        self.pulses();
    }

    /// A watch's curve from the service's edge at `ry` to the watcher's card.
    fn curve(&self, client: usize, ry: f32) -> Shape {
        let (x1, y1) = (self.g.service.x + 2.0, ry);
        let (x2, y2) = (
            self.g.clients.right() + 3.0,
            self.g.lane(client) + (self.g.lane_h / 5.0).min(10.0),
        );
        Shape::Curve {
            x1,
            y1,
            qx: x2 + (x1 - x2) * 0.75,
            qy: (y1 + y2 * 2.0) / 3.0,
            x2,
            y2,
        }
    }

    /// During the step that fires watches: a pulse from the entry to each watcher's wire.
    fn pulses(&mut self) {
        let f = self.f;
        for (i, (c, path)) in f.fired_now.iter().enumerate() {
            let Some(ry) = self.event_y(*c, path) else {
                continue;
            };
            let (_, (x1, y)) = self.g.wire(*c);
            let r = (self.g.lane_h * 0.12).clamp(4.0, 8.0);
            let pulse = Item::new(
                format!("pulse{}:{i}", f.step),
                Shape::Circle { cx: x1, cy: y, r },
                "ls-pulse",
            )
            .fill(palette::client_colour(*c))
            .stroke("#1d2330")
            .enter(Enter::From(self.g.service.x + 6.0, ry))
            .transient();
            self.push(pulse);
        }
    }
}

//! A paused client's pause against its session or lease, as two bars on one time axis under
//! its words (Kleppmann's fencing diagram draws both so): the session's time left in the
//! client's colour ending at a tick, the pause's time left in red below it. A red bar that
//! runs past the tick is a pause that outlasts the session — before anything has happened.

use super::Builder;
use crate::view::geometry::Rect;
use crate::view::lanes::{ClientRow, Countdown, ProcMark};
use crate::view::palette::{self, INK, VIOLATION};
use crate::view::scene::{Item, Shape};

impl Builder<'_> {
    pub(super) fn pause_bar(&mut self, c: &ClientRow, r: Rect, x0: f32, x1: f32) {
        let (ProcMark::Paused { left: pause }, Countdown::Left { left, .. }) =
            (c.proc, c.countdown)
        else {
            return;
        };
        let w = x1 - x0;
        if !self.g.card_two_lines() || w < 40.0 || r.h < 52.0 {
            return;
        }
        let (session, pause) = (left.max(0) as f32, pause as f32);
        let scale = w / session.max(pause).max(1.0);
        let y = r.bottom() - 10.0;
        let k = format!("c{}:pausebar", c.id);
        let bar = |key: String, y: f32, len: f32, fill: &'static str| {
            Item::new(
                key,
                Shape::Rect {
                    x: x0,
                    y,
                    w: len.max(1.0),
                    h: 3.0,
                    rx: 1.5,
                },
                "ls-pausebar",
            )
            .fill(fill)
        };
        self.push(
            bar(
                format!("{k}:session"),
                y,
                session * scale,
                palette::client_colour(c.id),
            )
            .data("evidence", "pause-bar"),
        );
        self.push(
            bar(format!("{k}:pause"), y + 5.0, pause * scale, VIOLATION)
                .data("evidence", "pause-bar"),
        );
        let end = x0 + session * scale;
        self.push(
            Item::new(
                format!("{k}:end"),
                Shape::Line {
                    x1: end,
                    y1: y - 3.0,
                    x2: end,
                    y2: y + 9.0,
                },
                "ls-pausebar__end",
            )
            .stroke(INK)
            .attr("stroke-width", "1.5"),
        );
    }
}

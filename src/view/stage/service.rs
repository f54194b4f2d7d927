//! The lock service's box: its name and clock in its own words, group headers (a lock
//! directory, the Redis replica with its lag), and each entry in its planned row — owner
//! colour, name with the sequence number bold and a protection prefix kept readable, and its
//! chips (`chips.rs`) — then the ghosts of deleted entries and the nodes that are watched but
//! do not exist.

use super::{fit_mid, Builder};
use crate::services::Lifetime;
use crate::view::entries::EntryRow;
use crate::view::geometry::Type;
use crate::view::palette::{self, INK, VIOLATION};
use crate::view::scene::{Anchor, Item, Shape};

impl Builder<'_> {
    pub fn service(&mut self) {
        let (g, f) = (self.g, self.f);
        let s = g.service;
        if self.several() {
            self.server_frames();
        } else {
            self.push(
                Item::new(
                    "svc",
                    Shape::Rect {
                        x: s.x,
                        y: s.y,
                        w: s.w,
                        h: s.h,
                        rx: 10.0,
                    },
                    "ls-service",
                )
                .fill("#f6f7f9")
                .stroke("#c2c8d0")
                .attr("stroke-width", "1.5"),
            );
        }
        let look = f.service.look();
        let title = match (look.contents, f.stamp) {
            (Some([en, zh]), _) => self.say(
                format!("{} · {en}", look.product),
                format!("{} · {zh}", look.product),
            ),
            (None, Some((k, v))) => format!("{} · {k} {}", look.product, stamp_text(v)),
            (None, None) => look.product.into(),
        };
        let (title, ink) = match self.first_server_title(look.product) {
            Some((t, down)) => (t, Self::server_ink(down)),
            None => (title, INK),
        };
        let big = g.ty.big;
        let several = self.several();
        // Short of room the first server's own words go before the product's name.
        let mut forms = vec![title.clone()];
        if let (true, Some(own)) = (several, title.strip_prefix(look.product)) {
            forms.push(own.trim_start_matches(" · ").to_string());
        }
        let t = self.label_forms(
            "svc:title".into(),
            s.x + 12.0,
            s.y + big as f32 + 5.0,
            big,
            Anchor::Start,
            &forms,
            s.w - 24.0
                - if self.several() {
                    super::servers::PEER_LANE
                } else {
                    0.0
                },
            "ls-service__title",
        );
        t.fill = Some(ink);
        t.attrs.push(("font-weight", "600".into()));
        if several {
            t.data.push(("server", "0".into()));
        }
        self.headers();
        for r in &f.tree {
            let first = self.items.len();
            self.entry(r);
            self.tag(first, "entry", &r.id);
        }
        for gh in &f.ghosts {
            self.ghost(gh);
        }
    }

    pub(super) fn indent(&self, depth: usize) -> f32 {
        (depth.saturating_sub(1) as f32 * 16.0).min(self.g.service.w * 0.2)
    }

    /// The box of one row, and the x where its text starts.
    pub(super) fn row_box(&self, row: usize, depth: usize) -> (f32, f32, f32, f32) {
        let g = self.g;
        let x = g.service.x + 8.0 + self.indent(depth);
        let h = g.row_box_h();
        let lane = if self.several() {
            super::servers::PEER_LANE
        } else {
            0.0
        };
        (
            x,
            g.row(row) - h / 2.0,
            g.service.right() - 8.0 - lane - x,
            h,
        )
    }

    fn entry(&mut self, r: &EntryRow) {
        let g = self.g;
        let (x, y, w, h) = self.row_box(r.row, r.depth);
        let k = format!("e:{}", r.id);
        let life = r.lifetime();
        let mut rect = Item::new(
            k.clone(),
            Shape::Rect {
                x,
                y,
                w,
                h,
                rx: 4.0,
            },
            "ls-entry",
        )
        .fill(r.owner.map_or("#ffffff", palette::client_colour))
        .stroke(if r.orphan { VIOLATION } else { "#8a93a3" })
        .attr("stroke-width", if r.orphan { "2.5" } else { "1.2" })
        .data("entry", r.id.clone());
        if r.owner.is_some() {
            rect = rect.attr("fill-opacity", "0.2");
        }
        if matches!(life, Lifetime::Session | Lifetime::Expiring(_)) {
            rect = rect.attr("stroke-dasharray", "5 3");
        }
        let name = self.entry_name(r);
        self.push(
            rect.title(self.tip(r))
                .focus(format!("entry:{}", r.id), name),
        );
        if let Some(o) = r.owner {
            self.push(
                Item::new(
                    format!("{k}:stripe"),
                    Shape::Rect {
                        x,
                        y,
                        w: 5.0,
                        h,
                        rx: 2.0,
                    },
                    "ls-entry__stripe",
                )
                .fill(palette::client_colour(o)),
            );
        }
        if !g.row_text() {
            return;
        }
        let size = g.row_size();
        let cy = y + h / 2.0;
        // Chips in the small type (never smaller: it is the stage's floor), in boxes as tall as
        // the row allows: an 800×500 embed's five Redlock masters keep each lock's owner and TTL.
        let chip_size = (g.ty.small, h - 1.0);
        let chips = h >= g.ty.small as f32 + 2.0;
        // Chips never take the room the name's sequence number needs.
        // (A name without a sequence number, a Redis key, keeps all of itself.)
        let (stem, seq) = r.split_name();
        let least = match seq.is_empty() {
            true => Type::width(stem, size, true),
            false => Type::width(&least_seq(seq), size, true),
        } + 16.0;
        let left = if chips {
            self.chips(r, (x + w - 6.0, cy), w - 16.0 - least, chip_size)
        } else {
            x + w - 6.0
        };
        self.name(r, x + 10.0, cy + size as f32 * 0.36, size, left - x - 16.0);
    }

    /// The name: a protection prefix muted and shortened as needed, the sequence bold; short
    /// of room, only the sequence number's digits that matter (at least four) after "…".
    fn name(&mut self, r: &EntryRow, x: f32, y: f32, size: u16, max: f32) {
        let (stem, seq) = r.split_name();
        let wid = |s: &str| Type::width(s, size, true);
        let (stem, seq) = if wid(&r.name) <= max {
            (stem.to_string(), seq.to_string())
        } else if !seq.is_empty() && wid(seq) + wid("l…") > max {
            ("…".to_string(), least_seq(seq))
        } else {
            let short = crate::narrate::short_name(stem);
            let room = (max - wid(seq)).max(size as f32 * 2.0);
            let stem = fit_mid(&short, size, true, room).replace("……", "…");
            (stem, seq.to_string())
        };
        let parts = vec![(stem, false), (seq, true)];
        let t = self.text(
            format!("e:{}:name", r.id),
            x,
            y,
            size,
            Anchor::Start,
            parts,
            true,
            "ls-entry__name",
        );
        t.fill = Some(INK);
        if r.protected() {
            t.data.push(("evidence", "protected".into()));
        }
    }

    fn tip(&self, r: &EntryRow) -> String {
        let fields: Vec<String> = r
            .fields()
            .into_iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        format!("{}\n{}", r.id, fields.join(" · "))
    }
}

/// A logical clock as its service writes it: a zxid that carries an epoch (2^32 and up) in
/// hex, as ZooKeeper's own tools show it (`0x100000003`); small ones in decimal.
pub fn stamp_text(v: i64) -> String {
    if v >= 1 << 32 {
        format!("0x{v:x}")
    } else {
        v.to_string()
    }
}

/// A sequence number's digits that matter, at least four (`0000000003` → `0003`).
fn least_seq(seq: &str) -> String {
    let zeros = seq.bytes().take_while(|b| *b == b'0').count();
    let keep = (seq.len() - zeros).max(4).min(seq.len());
    seq[seq.len() - keep..].to_string()
}

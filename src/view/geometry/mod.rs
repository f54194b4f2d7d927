//! Where things go on a stage of a given size: a top band (the clock, badges), the client
//! column with its wires into the service's box beside it (every lane ends on the service),
//! and the protected resource with its ledger across the bottom. The drawing is laid out for the space it gets — never one fixed drawing scaled
//! down — so text keeps its size: at least 13 px on a 1440×900 page, 12 px in an 800×500
//! embed, 11 px at 640×400 or on a phone.

/// Text sizes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Type {
    /// Names, statuses, entry names.
    pub big: u16,
    /// Everything else (stamps, counts, labels on messages).
    pub small: u16,
}

impl Type {
    pub fn for_size(w: u32, h: u32) -> Type {
        if w >= 1000 && h >= 560 {
            Type { big: 16, small: 13 }
        } else if w >= 760 && h >= 340 {
            Type { big: 14, small: 12 }
        } else {
            Type { big: 12, small: 11 }
        }
    }

    /// An estimate of a text's width (system sans-serif; names and paths in monospace; CJK
    /// characters are square).
    pub fn width(text: &str, size: u16, mono: bool) -> f32 {
        let per = if mono { 0.62 } else { 0.57 };
        let em: f32 = text
            .chars()
            .map(|c| if c.is_ascii() { per } else { 1.0 })
            .sum();
        em * size as f32
    }
}

/// A rectangle.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Rect {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}

impl Rect {
    pub fn right(&self) -> f32 {
        self.x + self.w
    }
    pub fn bottom(&self) -> f32 {
        self.y + self.h
    }
    pub fn mid_y(&self) -> f32 {
        self.y + self.h / 2.0
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Geometry {
    pub w: f32,
    pub h: f32,
    pub ty: Type,
    /// The top band: column titles, the clock and the badges.
    pub band: Rect,
    /// The client column and each client's lane centre.
    pub clients: Rect,
    pub lane_h: f32,
    pub lanes: Vec<f32>,
    /// The service's box; its rows start at `rows_top`, `row_h` apart.
    pub service: Rect,
    pub rows_top: f32,
    pub row_h: f32,
    /// The protected resource's box (None when nothing uses it), its ledger's line height.
    pub resource: Option<Rect>,
    pub line_h: f32,
    /// Several servers: each one's box, stacked in the service column, and where its rows
    /// start: (first row, the y of that row's top).
    pub servers: Vec<Rect>,
    breaks: Vec<(usize, f32)>,
}

pub const PAD: f32 = 8.0;

/// The resource strip at its least: its title and two ledger lines.
fn res_least(big: f32, line_h: f32) -> f32 {
    big + 16.0 + 2.0 * line_h
}

impl Geometry {
    /// The layout for `clients` lanes and `rows` entry rows on a `w`×`h` stage.
    pub fn new(w: u32, h: u32, clients: usize, rows: usize, resource: bool) -> Geometry {
        let (wf, hf) = (w.max(240) as f32, h.max(180) as f32);
        let ty = Type::for_size(w, h);
        let (big, small) = (ty.big as f32, ty.small as f32);
        let band = Rect {
            x: PAD,
            y: PAD,
            w: wf - 2.0 * PAD,
            h: big + 12.0,
        };
        let top = band.bottom() + 4.0;
        // A phone's narrow stage gives the cards more of its width (their status words).
        let (cw, gap) = if wf < 500.0 {
            (wf * 0.46, 24.0)
        } else {
            (
                (wf * 0.29).clamp(118.0, 310.0),
                (wf * 0.17).clamp(40.0, 240.0),
            )
        };
        let sx = PAD + cw + gap;
        let sw = (wf - sx - PAD).max(90.0);
        let line_h = small + 7.0;
        // The resource strip: its title and as many ledger lines as a fifth of the stage holds
        // (at least two, at most five).
        let res_h = |lines: f32| {
            if resource {
                big + 16.0 + line_h * lines
            } else {
                0.0
            }
        };
        let avail = |res_h: f32| hf - top - PAD - if resource { res_h + PAD } else { 0.0 };
        let n = clients.max(1) as f32;
        // As many ledger lines as a fifth of the stage holds (two to five), unless the cards
        // would then be too thin for their words: then two, and the cards get the rest.
        let mut res_h = res_h((hf * 0.2 / line_h).floor().clamp(2.0, 5.0));
        if avail(res_h) / n < big + 8.0 {
            res_h = res_h.min(res_least(big, line_h));
        }
        let avail = avail(res_h);
        let lane_h = (avail / n).min(96.0);
        let lanes = (0..clients)
            .map(|i| top + lane_h * (i as f32 + 0.5))
            .collect();
        let service = Rect {
            x: sx,
            y: top,
            w: sw,
            h: avail,
        };
        let rows_top = service.y + big + 14.0;
        let room = service.bottom() - rows_top - 4.0;
        let row_h = (room / rows.max(1) as f32).clamp(4.0, 40.0);
        let resource = resource.then(|| Rect {
            x: PAD,
            y: service.bottom() + PAD,
            w: wf - 2.0 * PAD,
            h: res_h,
        });
        let clients = Rect {
            x: PAD,
            y: top,
            w: cw,
            h: avail,
        };
        Geometry {
            w: wf,
            h: hf,
            ty,
            band,
            clients,
            lane_h,
            lanes,
            service,
            rows_top,
            row_h,
            resource,
            line_h,
            servers: Vec::new(),
            breaks: Vec::new(),
        }
    }

    /// Splits the service column into one box per server, of equal height, server `i`'s rows
    /// starting at `firsts[i]` (the first at 0; `rows` in all).
    pub fn split_servers(&mut self, firsts: &[usize], rows: usize) {
        let n = firsts.len();
        if n < 2 {
            return;
        }
        let gap = 6.0;
        let title = self.rows_top - self.service.y;
        // Every box is as tall as the others, the first taller by the service's title.
        let base = |h: f32| (h - gap * (n - 1) as f32 - (title - 4.0)) / n as f32;
        let row_h = |h: f32| {
            let mut row_h: f32 = 40.0;
            for (i, first) in firsts.iter().enumerate() {
                let end = firsts.get(i + 1).copied().unwrap_or(rows).max(first + 1);
                row_h = row_h.min((base(h) - 8.0) / (end - first) as f32);
            }
            row_h
        };
        if !self.text_fits(row_h(self.service.h)) {
            self.lend_ledger_lines(res_least(self.ty.big as f32, self.line_h));
        }
        // Boxes too short even for their headers (five servers in a 640×400 course embed):
        // the ledger keeps only its title line.
        if base(self.service.h) < self.ty.big as f32 + 10.0 {
            self.lend_ledger_lines(self.ty.big as f32 + 16.0);
        }
        let s = self.service;
        let box_h = base(s.h);
        self.row_h = row_h(s.h).max(4.0);
        let top = |i: usize| match i {
            0 => s.y,
            _ => s.y + title - 4.0 + i as f32 * (box_h + gap),
        };
        self.servers = (0..n)
            .map(|i| Rect {
                x: s.x,
                y: top(i),
                w: s.w,
                h: box_h + if i == 0 { title - 4.0 } else { 0.0 },
            })
            .collect();
        self.breaks = firsts
            .iter()
            .zip(&self.servers)
            .enumerate()
            .map(|(i, (f, b))| (*f, if i == 0 { self.rows_top } else { b.y + 4.0 }))
            .collect();
    }

    fn text_fits(&self, row_h: f32) -> bool {
        row_h >= self.ty.small as f32 + 5.0
    }

    /// Several servers whose rows would be too thin for words: the resource strip keeps two
    /// ledger lines and gives the rest of its height to the servers.
    /// Shrinks the ledger to `least` high, giving the service box the difference.
    fn lend_ledger_lines(&mut self, least: f32) {
        let Some(r) = self.resource.as_mut().filter(|r| r.h > least) else {
            return;
        };
        let spare = r.h - least;
        r.y += spare;
        r.h = least;
        self.service.h += spare;
    }

    pub fn lane(&self, c: usize) -> f32 {
        self.lanes.get(c).copied().unwrap_or(self.clients.y)
    }

    /// A client's card.
    pub fn card(&self, c: usize) -> Rect {
        // A tight lane keeps its card tall enough for a small line of text.
        let gap = if self.card_size() == Some(self.ty.small) {
            2.0
        } else {
            6.0
        };
        let h = (self.lane_h - gap).clamp(2.0, 80.0);
        Rect {
            x: self.clients.x,
            y: self.lane(c) - h / 2.0,
            w: self.clients.w,
            h,
        }
    }

    /// Room on a card for a name and a status line.
    pub fn card_text(&self) -> bool {
        self.card_size().is_some()
    }

    /// The size of a card's words: big when the lane has room, else small on one tight line
    /// (ten clients in a 640×400 embed keep their names and states: fewer words, not none).
    pub fn card_size(&self) -> Option<u16> {
        let (big, small) = (self.ty.big, self.ty.small);
        if self.lane_h >= big as f32 + 8.0 {
            Some(big)
        } else if self.lane_h >= small as f32 + 5.0 {
            Some(small)
        } else {
            None
        }
    }

    /// Room for a second line (token, node, process marks).
    pub fn card_two_lines(&self) -> bool {
        self.lane_h >= (self.ty.big + self.ty.small) as f32 + 16.0
    }

    /// The y of an entry row's centre.
    pub fn row(&self, r: usize) -> f32 {
        let (first, top) = self
            .breaks
            .iter()
            .rev()
            .find(|(f, _)| *f <= r)
            .copied()
            .unwrap_or((0, self.rows_top));
        top + self.row_h * ((r - first) as f32 + 0.5)
    }

    /// Room in a row for its name (a tight row keeps a small name: its rectangle is then
    /// nearly the row's height, see `row_box_h`).
    pub fn row_text(&self) -> bool {
        self.row_h >= self.ty.small as f32 + 2.0
    }

    /// The height of a row's rectangle.
    pub fn row_box_h(&self) -> f32 {
        if self.row_h >= self.ty.small as f32 + 9.0 {
            self.row_h - 4.0
        } else {
            (self.row_h - 1.0).max(2.0)
        }
    }

    /// The text size that fits a row.
    pub fn row_size(&self) -> u16 {
        if self.row_h >= self.ty.big as f32 + 8.0 {
            self.ty.big
        } else {
            self.ty.small
        }
    }

    /// The wire's two ends for client `c`.
    pub fn wire(&self, c: usize) -> ((f32, f32), (f32, f32)) {
        let y = self.lane(c);
        ((self.clients.right() + 2.0, y), (self.service.x - 2.0, y))
    }

    /// Where a message between client `c` and the service is, `p` of the way from the client.
    pub fn on_wire(&self, c: usize, p: f32) -> (f32, f32) {
        let ((x0, y), (x1, _)) = self.wire(c);
        (x0 + (x1 - x0) * p.clamp(0.0, 1.0), y)
    }

    /// The path to the resource for client `c`: from the card's lower right, down through the
    /// gap between the columns, to the top of the resource strip.
    pub fn resource_path(&self, c: usize) -> ((f32, f32), (f32, f32)) {
        let r = self.resource.unwrap_or(self.service);
        let y0 = self.lane(c) + (self.lane_h / 4.0).min(12.0);
        let x1 = self.clients.right() + (self.service.x - self.clients.right()) * 0.35;
        ((self.clients.right() + 2.0, y0), (x1, r.y - 1.0))
    }

    pub fn to_resource(&self, c: usize, p: f32) -> (f32, f32) {
        let ((x0, y0), (x1, y1)) = self.resource_path(c);
        let p = p.clamp(0.0, 1.0);
        (x0 + (x1 - x0) * p, y0 + (y1 - y0) * p)
    }

    /// How many ledger lines fit in the resource strip, and in how many columns.
    pub fn ledger_lines(&self) -> usize {
        let per = self.resource.map_or(0, |r| {
            ((r.h - self.ty.big as f32 - 14.0) / self.line_h)
                .floor()
                .max(0.0) as usize
        });
        per * self.ledger_columns()
    }

    pub fn ledger_columns(&self) -> usize {
        if self.w >= 900.0 {
            2
        } else {
            1
        }
    }
}

#[cfg(test)]
mod tests;

/// `v` kept within `lo..=hi`; `lo` wins if the bounds cross. Unlike `f32::clamp` it never
/// panics, so the wasm carries no panic message that formats floats (`<f32 as Debug>` and the
/// shortest-float algorithms: 14.6 KB of code, kept for that one message; issue 22).
pub fn within(v: f32, lo: f32, hi: f32) -> f32 {
    v.min(hi).max(lo)
}

//! Where things go on a stage of a given size: the client column, the wires, the service's
//! box with its rows, the resource below it, and the text sizes. The drawing is laid out for
//! the space it gets — never one fixed drawing scaled down — so text keeps its size: at least
//! 13 px on a 1440×900 page, 12 px in an 800×500 embed, 11 px at 640×400 or on a phone.

/// Text sizes and the spacing derived from them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Type {
    /// Names, phases, entry names.
    pub big: u16,
    /// Everything else (stamps, counts, labels on messages).
    pub small: u16,
}

impl Type {
    pub fn for_size(w: u32, h: u32) -> Type {
        if w >= 1000 && h >= 560 {
            Type { big: 16, small: 13 }
        } else if w >= 760 && h >= 360 {
            Type { big: 14, small: 12 }
        } else {
            Type { big: 12, small: 11 }
        }
    }

    /// An estimate of a text's width (the stage's font is a system sans-serif; names and
    /// paths are monospace).
    pub fn width(&self, text: &str, size: u16, mono: bool) -> f32 {
        let per = if mono { 0.61 } else { 0.56 };
        text.chars()
            .map(|c| if c.is_ascii() { per } else { 1.0 })
            .sum::<f32>()
            * size as f32
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
}

#[derive(Clone, Debug, PartialEq)]
pub struct Geometry {
    pub w: f32,
    pub h: f32,
    pub ty: Type,
    /// The client column (cards) and each client's lane centre.
    pub clients: Rect,
    pub lane_h: f32,
    pub lanes: Vec<f32>,
    /// The service's box, where its rows start and how tall each is.
    pub service: Rect,
    pub rows_top: f32,
    pub row_h: f32,
    /// The protected resource's box (None when nothing uses it).
    pub resource: Option<Rect>,
    /// Whether there is room for a second line in each client card.
    pub two_lines: bool,
}

pub const PAD: f32 = 10.0;

impl Geometry {
    /// The layout for `clients` lanes and `rows` entry rows on a `w`×`h` stage.
    pub fn new(w: u32, h: u32, clients: usize, rows: usize, resource: bool) -> Geometry {
        let (wf, hf) = (w.max(200) as f32, h.max(160) as f32);
        let ty = Type::for_size(w, h);
        let title = ty.big as f32 + 14.0;
        let cw = (wf * 0.27).clamp(112.0, 300.0);
        let gap = (wf * 0.2).clamp(44.0, 260.0);
        let sx = PAD + cw + gap;
        let sw = (wf - sx - PAD).max(80.0);
        let top = PAD + title;
        let avail = hf - top - PAD;
        let n = clients.max(1) as f32;
        let lane_h = (avail / n).min(110.0);
        let block = lane_h * n;
        let start = top + ((avail - block) / 2.0).max(0.0);
        let lanes = (0..clients)
            .map(|i| start + lane_h * (i as f32 + 0.5))
            .collect();
        let res_h = if resource {
            (hf * 0.27).clamp(64.0, 210.0)
        } else {
            0.0
        };
        let service = Rect {
            x: sx,
            y: top - title + 2.0,
            w: sw,
            h: hf - PAD - (top - title + 2.0) - if resource { res_h + PAD } else { 0.0 },
        };
        let rows_top = service.y + title + 4.0;
        let min_row = ty.big as f32 + 10.0;
        let row_h = ((service.bottom() - rows_top - 6.0) / rows.max(1) as f32)
            .clamp(min_row.min(18.0), 36.0);
        let resource = resource.then(|| Rect {
            x: sx,
            y: service.bottom() + PAD,
            w: sw,
            h: res_h,
        });
        let clients_rect = Rect {
            x: PAD,
            y: top,
            w: cw,
            h: avail,
        };
        let two_lines = lane_h >= (ty.big + ty.small) as f32 + 16.0;
        Geometry {
            w: wf,
            h: hf,
            ty,
            clients: clients_rect,
            lane_h,
            lanes,
            service,
            rows_top,
            row_h,
            resource,
            two_lines,
        }
    }

    pub fn lane(&self, c: usize) -> f32 {
        self.lanes.get(c).copied().unwrap_or(self.clients.y)
    }

    /// A client's card.
    pub fn card(&self, c: usize) -> Rect {
        let h = (self.lane_h - 6.0).clamp(4.0, 84.0);
        Rect {
            x: self.clients.x,
            y: self.lane(c) - h / 2.0,
            w: self.clients.w,
            h,
        }
    }

    /// The y of an entry row's centre.
    pub fn row(&self, r: usize) -> f32 {
        self.rows_top + self.row_h * (r as f32 + 0.5)
    }

    /// Whether lanes have room for any text at all.
    pub fn lane_text(&self) -> bool {
        self.lane_h >= self.ty.small as f32 + 6.0
    }

    /// Where a message between client `c` and the service is, `p` of the way from the client.
    pub fn on_wire(&self, c: usize, p: f32) -> (f32, f32) {
        let (x0, x1) = (self.clients.right() + 2.0, self.service.x - 2.0);
        (x0 + (x1 - x0) * p.clamp(0.0, 1.0), self.lane(c))
    }

    /// Where a message between client `c` and the resource is.
    pub fn to_resource(&self, c: usize, p: f32) -> (f32, f32) {
        let r = self.resource.unwrap_or(self.service);
        let (x0, y0) = (
            self.clients.right() + 2.0,
            self.lane(c) + self.lane_h.min(30.0) / 4.0,
        );
        let (x1, y1) = (r.x - 2.0, r.y + r.h / 2.0);
        let p = p.clamp(0.0, 1.0);
        (x0 + (x1 - x0) * p, y0 + (y1 - y0) * p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_floors_per_stage_size() {
        assert!(Type::for_size(1080, 700).small >= 13);
        assert!(Type::for_size(800, 400).small >= 12);
        assert!(Type::for_size(640, 330).small >= 11);
        assert!(Type::for_size(360, 600).small >= 11);
    }

    #[test]
    fn lanes_fit_the_stage_and_wires_run_between_the_columns() {
        for (w, h, n) in [
            (1080, 720, 6),
            (800, 400, 3),
            (360, 620, 10),
            (1080, 720, 200),
        ] {
            let g = Geometry::new(w, h, n, 8, true);
            assert!(
                g.lanes.iter().all(|y| *y > 0.0 && *y < h as f32),
                "{w}x{h} {n}"
            );
            assert!(g.clients.right() < g.service.x);
            assert!(g.service.right() <= w as f32);
            let (x0, _) = g.on_wire(0, 0.0);
            let (x1, _) = g.on_wire(0, 1.0);
            assert!(x0 < x1);
        }
    }
}

//! The stage as a scene graph: a list of keyed shapes in CSS pixels, ready to draw. The builder
//! (`stage`) makes one for a frame and a stage size; [`super::tween`] moves one scene towards
//! the next for an animation time between two steps; [`Scene::svg_body`] writes it as SVG
//! (and [`super::patch`] item by item, for the page to redraw only what changed); the SVG
//! export and the native tests read the same scene.

/// Where a text is anchored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

/// A text run: parts, each bold or not (a sequence suffix is bold).
#[derive(Clone, Debug, PartialEq)]
pub struct Text {
    pub x: f32,
    pub y: f32,
    pub size: u16,
    pub anchor: Anchor,
    pub parts: Vec<(String, bool)>,
    /// Monospace (names, paths, keys).
    pub mono: bool,
}

impl Text {
    /// Its box as measured (left, right, top, bottom), its width times `widen` (a bold run is
    /// drawn wider than it is measured).
    pub fn bounds(&self, widen: f32) -> (f32, f32, f32, f32) {
        let text: String = self.parts.iter().map(|(p, _)| p.as_str()).collect();
        let w = super::geometry::Type::width(&text, self.size, self.mono) * widen;
        let left = match self.anchor {
            Anchor::Start => self.x,
            Anchor::Middle => self.x - w / 2.0,
            Anchor::End => self.x - w,
        };
        let size = f32::from(self.size);
        (left, left + w, self.y - size * 0.8, self.y + size * 0.2)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    Rect {
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        rx: f32,
    },
    Circle {
        cx: f32,
        cy: f32,
        r: f32,
    },
    Line {
        x1: f32,
        y1: f32,
        x2: f32,
        y2: f32,
    },
    /// A quadratic curve from (x1, y1) to (x2, y2) bending through (qx, qy).
    Curve {
        x1: f32,
        y1: f32,
        qx: f32,
        qy: f32,
        x2: f32,
        y2: f32,
    },
    /// A ring arc around (cx, cy): `frac` of a full turn, clockwise from the top.
    Arc {
        cx: f32,
        cy: f32,
        r: f32,
        frac: f32,
    },
    /// A closed polygon; its first point is its anchor.
    Poly(Vec<(f32, f32)>),
    Text(Text),
}

/// How an item comes onto the stage during a transition.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Enter {
    /// Fades in where it is.
    Fade,
    /// Travels from this point to where it is (a message leaving, a watch event's pulse).
    From(f32, f32),
}

/// One drawable thing.
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    /// Stable identity across frames (what `tween` matches on).
    pub key: String,
    pub shape: Shape,
    pub class: String,
    pub fill: Option<&'static str>,
    pub stroke: Option<&'static str>,
    /// 0..=100.
    pub opacity: u8,
    pub data: Vec<(&'static str, String)>,
    /// Other presentation attributes (stroke-width, stroke-dasharray, fill-opacity, …).
    pub attrs: Vec<(&'static str, String)>,
    pub title: Option<String>,
    pub enter: Enter,
    /// Drawn only while a transition runs (a message arriving, a watch event's pulse).
    pub transient: bool,
    /// What a keyboard reaches: the thing this item stands for and its accessible name.
    pub focus: Option<Focus>,
}

/// A thing on the stage a keyboard can reach (a client, a server, an entry, a message): its
/// identity across frames (`client:2`, `server:1`, `entry:<id>`, `msg:<id>`) and what a
/// screen reader says for it ("C2, waits for lock-0000000001, session 8 s left").
#[derive(Clone, Debug, PartialEq)]
pub struct Focus {
    pub id: String,
    pub name: String,
}

impl Item {
    pub fn new(key: impl Into<String>, shape: Shape, class: impl Into<String>) -> Item {
        Item {
            key: key.into(),
            shape,
            class: class.into(),
            fill: None,
            stroke: None,
            opacity: 100,
            data: Vec::new(),
            attrs: Vec::new(),
            title: None,
            enter: Enter::Fade,
            transient: false,
            focus: None,
        }
    }
    pub fn fill(mut self, c: &'static str) -> Item {
        self.fill = Some(c);
        self
    }
    pub fn stroke(mut self, c: &'static str) -> Item {
        self.stroke = Some(c);
        self
    }
    pub fn opacity(mut self, o: u8) -> Item {
        self.opacity = o;
        self
    }
    pub fn data(mut self, k: &'static str, v: impl Into<String>) -> Item {
        self.data.push((k, v.into()));
        self
    }
    pub fn attr(mut self, k: &'static str, v: impl Into<String>) -> Item {
        self.attrs.push((k, v.into()));
        self
    }
    pub fn title(mut self, t: impl Into<String>) -> Item {
        self.title = Some(t.into());
        self
    }
    pub fn enter(mut self, e: Enter) -> Item {
        self.enter = e;
        self
    }
    pub fn focus(mut self, id: String, name: String) -> Item {
        self.focus = Some(Focus { id, name });
        self
    }
    pub fn transient(mut self) -> Item {
        self.transient = true;
        self
    }
}

/// A whole stage.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scene {
    pub w: u32,
    pub h: u32,
    pub items: Vec<Item>,
}

/// A number with one decimal, without float formatting (smaller wasm).
pub fn num(v: f32) -> String {
    let t = (v * 10.0).round() as i64;
    let (sign, a) = if t < 0 { ("-", -t) } else { ("", t) };
    if a % 10 == 0 {
        format!("{sign}{}", a / 10)
    } else {
        format!("{sign}{}.{}", a / 10, a % 10)
    }
}

/// A number with `decimals` digits after the point, without float formatting.
pub fn fixed(v: f64, decimals: u32) -> String {
    let scale = 10i64.pow(decimals);
    let n = (v * scale as f64).round() as i64;
    if decimals == 0 {
        return n.to_string();
    }
    let sign = if n < 0 { "-" } else { "" };
    let (whole, frac) = (n.abs() / scale, n.abs() % scale);
    format!("{sign}{whole}.{frac:0width$}", width = decimals as usize)
}

impl Shape {
    /// The shape's anchor point (what moves during a transition).
    pub fn point(&self) -> (f32, f32) {
        match self {
            Shape::Rect { x, y, .. } => (*x, *y),
            Shape::Circle { cx, cy, .. } | Shape::Arc { cx, cy, .. } => (*cx, *cy),
            Shape::Line { x1, y1, .. } | Shape::Curve { x1, y1, .. } => (*x1, *y1),
            Shape::Poly(p) => p.first().copied().unwrap_or_default(),
            Shape::Text(t) => (t.x, t.y),
        }
    }

    /// The same shape moved so its anchor point is at (x, y).
    pub fn moved_to(&self, x: f32, y: f32) -> Shape {
        let (x0, y0) = self.point();
        let (dx, dy) = (x - x0, y - y0);
        match self.clone() {
            Shape::Rect { w, h, rx, .. } => Shape::Rect { x, y, w, h, rx },
            Shape::Circle { r, .. } => Shape::Circle { cx: x, cy: y, r },
            Shape::Arc { r, frac, .. } => Shape::Arc {
                cx: x,
                cy: y,
                r,
                frac,
            },
            Shape::Line { x2, y2, .. } => Shape::Line {
                x1: x,
                y1: y,
                x2: x2 + dx,
                y2: y2 + dy,
            },
            Shape::Curve { qx, qy, x2, y2, .. } => Shape::Curve {
                x1: x,
                y1: y,
                qx: qx + dx,
                qy: qy + dy,
                x2: x2 + dx,
                y2: y2 + dy,
            },
            Shape::Poly(p) => Shape::Poly(p.into_iter().map(|(a, b)| (a + dx, b + dy)).collect()),
            Shape::Text(t) => Shape::Text(Text { x, y, ..t }),
        }
    }
}

impl Scene {
    /// Every text on the stage, in order (for tests and the export).
    pub fn texts(&self) -> impl Iterator<Item = &Text> {
        self.items.iter().filter_map(|i| match &i.shape {
            Shape::Text(t) => Some(t),
            _ => None,
        })
    }

    /// Whether anything on the stage is marked as this lesson's evidence (`data-evidence`
    /// holds space-separated names).
    pub fn has_evidence(&self, name: &str) -> bool {
        self.items.iter().any(|i| {
            i.data
                .iter()
                .any(|(k, v)| *k == "evidence" && v.split(' ').any(|e| e == name))
        })
    }

    /// Items that carry a data attribute with this value.
    pub fn with(&self, key: &str, value: &str) -> impl Iterator<Item = &Item> {
        let (key, value) = (key.to_string(), value.to_string());
        self.items
            .iter()
            .filter(move |i| i.data.iter().any(|(k, v)| *k == key && *v == value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_without_float_formatting() {
        assert_eq!(num(12.0), "12");
        assert_eq!(num(12.34), "12.3");
        assert_eq!(num(-0.26), "-0.3");
        assert_eq!(fixed(2.5, 2), "2.50");
        assert_eq!(fixed(-1.25, 1), "-1.3");
    }

    #[test]
    fn text_is_escaped_and_bold_parts_are_spans() {
        let t = Text {
            x: 1.0,
            y: 2.0,
            size: 13,
            anchor: Anchor::Start,
            parts: vec![("<a>".into(), false), ("0007".into(), true)],
            mono: false,
        };
        let s = Scene {
            w: 1,
            h: 1,
            items: vec![Item::new("t", Shape::Text(t), "")],
        }
        .svg_body();
        assert!(
            s.contains("&lt;a&gt;<tspan font-weight=\"700\">0007</tspan>"),
            "{s}"
        );
    }
}

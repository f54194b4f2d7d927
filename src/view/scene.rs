//! The stage as a scene graph: a list of keyed shapes in CSS pixels, ready to draw. The builder
//! (`stage`) makes one for a frame and a stage size; [`tween`] moves one scene towards the next
//! for an animation time between two steps; [`Scene::svg`] writes it as SVG. The UI only sets
//! the string; the SVG export and the native tests read the same scene.

use super::svg::esc;

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
    pub title: Option<String>,
    pub enter: Enter,
    /// Drawn only while a transition runs (a message arriving, a watch event's pulse).
    pub transient: bool,
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
            title: None,
            enter: Enter::Fade,
            transient: false,
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
    pub fn title(mut self, t: impl Into<String>) -> Item {
        self.title = Some(t.into());
        self
    }
    pub fn enter(mut self, e: Enter) -> Item {
        self.enter = e;
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

impl Shape {
    /// The shape's anchor point (what moves during a transition).
    pub fn point(&self) -> (f32, f32) {
        match self {
            Shape::Rect { x, y, .. } => (*x, *y),
            Shape::Circle { cx, cy, .. } | Shape::Arc { cx, cy, .. } => (*cx, *cy),
            Shape::Line { x1, y1, .. } | Shape::Curve { x1, y1, .. } => (*x1, *y1),
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
            Shape::Text(t) => Shape::Text(Text { x, y, ..t }),
        }
    }

    fn svg(&self, attrs: &str, title: &str) -> String {
        match self {
            Shape::Rect { x, y, w, h, rx } => {
                format!(
                    r#"<rect x="{}" y="{}" width="{}" height="{}" rx="{}"{attrs}>{title}</rect>"#,
                    num(*x),
                    num(*y),
                    num(w.max(0.0)),
                    num(h.max(0.0)),
                    num(*rx)
                )
            }
            Shape::Circle { cx, cy, r } => format!(
                r#"<circle cx="{}" cy="{}" r="{}"{attrs}>{title}</circle>"#,
                num(*cx),
                num(*cy),
                num(*r)
            ),
            Shape::Line { x1, y1, x2, y2 } => {
                format!(
                    r#"<line x1="{}" y1="{}" x2="{}" y2="{}"{attrs}>{title}</line>"#,
                    num(*x1),
                    num(*y1),
                    num(*x2),
                    num(*y2)
                )
            }
            Shape::Curve {
                x1,
                y1,
                qx,
                qy,
                x2,
                y2,
            } => format!(
                r#"<path d="M{} {} Q{} {} {} {}" fill="none"{attrs}>{title}</path>"#,
                num(*x1),
                num(*y1),
                num(*qx),
                num(*qy),
                num(*x2),
                num(*y2)
            ),
            Shape::Arc { cx, cy, r, frac } => arc(*cx, *cy, *r, *frac, attrs, title),
            Shape::Text(t) => {
                let anchor = match t.anchor {
                    Anchor::Start => "",
                    Anchor::Middle => r#" text-anchor="middle""#,
                    Anchor::End => r#" text-anchor="end""#,
                };
                let body: String = t
                    .parts
                    .iter()
                    .map(|(s, b)| {
                        if *b {
                            format!("<tspan font-weight=\"700\">{}</tspan>", esc(s))
                        } else {
                            esc(s)
                        }
                    })
                    .collect();
                format!(
                    r#"<text x="{}" y="{}" font-size="{}"{anchor}{attrs}>{title}{body}</text>"#,
                    num(t.x),
                    num(t.y),
                    t.size
                )
            }
        }
    }
}

/// A ring's arc: `frac` of a turn, clockwise from twelve o'clock (a full circle at 1).
fn arc(cx: f32, cy: f32, r: f32, frac: f32, attrs: &str, title: &str) -> String {
    let f = frac.clamp(0.0, 1.0);
    if f >= 0.999 {
        return format!(
            r#"<circle cx="{}" cy="{}" r="{}" fill="none"{attrs}>{title}</circle>"#,
            num(cx),
            num(cy),
            num(r)
        );
    }
    let a = f * std::f32::consts::TAU;
    let (x, y) = (cx + r * a.sin(), cy - r * a.cos());
    let large = if f > 0.5 { 1 } else { 0 };
    format!(
        r#"<path d="M{} {} A{} {} 0 {large} 1 {} {}" fill="none"{attrs}>{title}</path>"#,
        num(cx),
        num(cy - r),
        num(r),
        num(r),
        num(x),
        num(y)
    )
}

impl Item {
    fn svg(&self) -> String {
        let mut attrs = String::new();
        if !self.class.is_empty() {
            attrs.push_str(&format!(r#" class="{}""#, esc(&self.class)));
        }
        if let Some(f) = self.fill {
            attrs.push_str(&format!(r#" fill="{f}""#));
        }
        if let Some(s) = self.stroke {
            attrs.push_str(&format!(r#" stroke="{s}""#));
        }
        if self.opacity < 100 {
            attrs.push_str(&format!(
                r#" opacity="{}""#,
                num(self.opacity as f32 / 100.0)
            ));
        }
        for (k, v) in &self.data {
            attrs.push_str(&format!(r#" data-{k}="{}""#, esc(v)));
        }
        let title = self
            .title
            .as_ref()
            .map(|t| format!("<title>{}</title>", esc(t)))
            .unwrap_or_default();
        self.shape.svg(&attrs, &title)
    }
}

impl Scene {
    /// The scene as the inside of an `<svg>` whose viewBox is `0 0 w h`.
    pub fn svg_body(&self) -> String {
        self.items
            .iter()
            .filter(|i| !i.transient)
            .map(Item::svg)
            .collect()
    }

    /// The scene during a transition (transient items included).
    pub fn svg_moving(&self) -> String {
        self.items.iter().map(Item::svg).collect()
    }

    /// Every text on the stage, in order (for tests and the export).
    pub fn texts(&self) -> impl Iterator<Item = &Text> {
        self.items.iter().filter_map(|i| match &i.shape {
            Shape::Text(t) => Some(t),
            _ => None,
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

fn lerp(a: f32, b: f32, u: f32) -> f32 {
    a + (b - a) * u
}

/// The scene `u` of the way (0..=1) from `prev` to `next`: shared items move and fade between
/// their two states, new ones fade in or travel from where they enter, gone ones fade out.
pub fn tween(prev: &Scene, next: &Scene, u: f32) -> Scene {
    let u = u.clamp(0.0, 1.0);
    let before: std::collections::BTreeMap<&str, &Item> =
        prev.items.iter().map(|i| (i.key.as_str(), i)).collect();
    let mut items: Vec<Item> = Vec::with_capacity(next.items.len());
    for n in &next.items {
        let mut it = n.clone();
        match (before.get(n.key.as_str()), n.enter) {
            (Some(p), _) if !n.transient || matches!(n.enter, Enter::Fade) => {
                let ((x0, y0), (x1, y1)) = (p.shape.point(), n.shape.point());
                it.shape = n.shape.moved_to(lerp(x0, x1, u), lerp(y0, y1, u));
                it.opacity = lerp(p.opacity as f32, n.opacity as f32, u).round() as u8;
            }
            (_, Enter::From(x0, y0)) => {
                let (x1, y1) = n.shape.point();
                it.shape = n.shape.moved_to(lerp(x0, x1, u), lerp(y0, y1, u));
            }
            (_, Enter::Fade) => it.opacity = (n.opacity as f32 * u).round() as u8,
        }
        items.push(it);
    }
    for p in &prev.items {
        if !p.transient && !next.items.iter().any(|n| n.key == p.key) {
            let mut it = p.clone();
            it.opacity = (p.opacity as f32 * (1.0 - u)).round() as u8;
            it.transient = true;
            items.push(it);
        }
    }
    Scene {
        w: next.w,
        h: next.h,
        items,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dot(key: &str, x: f32) -> Item {
        Item::new(
            key,
            Shape::Circle {
                cx: x,
                cy: 10.0,
                r: 4.0,
            },
            "ls-msg",
        )
    }

    #[test]
    fn numbers_without_float_formatting() {
        assert_eq!(num(12.0), "12");
        assert_eq!(num(12.34), "12.3");
        assert_eq!(num(-0.26), "-0.3");
    }

    #[test]
    fn a_shared_item_moves_between_its_two_places() {
        let a = Scene {
            w: 100,
            h: 20,
            items: vec![dot("m1", 10.0), dot("gone", 50.0)],
        };
        let b = Scene {
            w: 100,
            h: 20,
            items: vec![
                dot("m1", 30.0),
                dot("new", 80.0).enter(Enter::From(0.0, 10.0)),
            ],
        };
        let mid = tween(&a, &b, 0.5);
        let x = |k: &str| {
            mid.items
                .iter()
                .find(|i| i.key == k)
                .map(|i| i.shape.point().0)
                .unwrap()
        };
        assert_eq!(x("m1"), 20.0);
        assert_eq!(x("new"), 40.0);
        assert_eq!(
            mid.items.iter().find(|i| i.key == "gone").unwrap().opacity,
            50
        );
        assert!(tween(&a, &b, 1.0).svg_body().contains(r#"cx="30""#));
    }

    #[test]
    fn text_is_escaped_and_bold_parts_are_spans() {
        let t = Text {
            x: 1.0,
            y: 2.0,
            size: 13,
            anchor: Anchor::Start,
            parts: vec![("<a>".into(), false), ("0007".into(), true)],
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

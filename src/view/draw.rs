//! Writing a scene as SVG markup: each shape as its element, every colour, size and data
//! attribute written out (the stage needs no stylesheet to be read, and the export is the same
//! markup), text escaped, numbers with one decimal at most.

use super::scene::{num, Anchor, Item, Scene, Shape};
use super::svg::esc;

impl Shape {
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
                r#"<path d="M{} {} Q{} {} {} {}"{attrs}>{title}</path>"#,
                num(*x1),
                num(*y1),
                num(*qx),
                num(*qy),
                num(*x2),
                num(*y2)
            ),
            Shape::Arc { cx, cy, r, frac } => arc(*cx, *cy, *r, *frac, attrs, title),
            Shape::Poly(p) => {
                let pts: Vec<String> = p
                    .iter()
                    .map(|(a, b)| format!("{},{}", num(*a), num(*b)))
                    .collect();
                format!(
                    r#"<polygon points="{}"{attrs}>{title}</polygon>"#,
                    pts.join(" ")
                )
            }
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
            r#"<circle cx="{}" cy="{}" r="{}"{attrs}>{title}</circle>"#,
            num(cx),
            num(cy),
            num(r)
        );
    }
    let (sin, cos) = sin_cos_turn(f);
    let (x, y) = (cx + r * sin, cy - r * cos);
    let large = if f > 0.5 { 1 } else { 0 };
    format!(
        r#"<path d="M{} {} A{} {} 0 {large} 1 {} {}"{attrs}>{title}</path>"#,
        num(cx),
        num(cy - r),
        num(r),
        num(r),
        num(x),
        num(y)
    )
}

/// The sine and cosine of `f` of a turn, `f` in 0..=1: Taylor series on [−π/2, π/2] after
/// folding by symmetry, within 2e-6 of the true values. `f32::sin` would bring libm's argument
/// reduction for huge angles (`rem_pio2_large`, 3 KB of wasm) to draw a ring's arc.
fn sin_cos_turn(f: f32) -> (f32, f32) {
    use std::f32::consts::{FRAC_PI_2, PI};
    // sin(2πf) = −sin(t) and cos(2πf) = −cos(t) for t = 2πf − π in [−π, π].
    let t = f * 2.0 * PI - PI;
    // Folded into [−π/2, π/2]: sin keeps its value, cos changes sign.
    let (u, flip) = match t {
        t if t > FRAC_PI_2 => (PI - t, -1.0),
        t if t < -FRAC_PI_2 => (-PI - t, -1.0),
        t => (t, 1.0),
    };
    let u2 = u * u;
    let sin = u
        * (1.0
            - u2 / 6.0
                * (1.0 - u2 / 20.0 * (1.0 - u2 / 42.0 * (1.0 - u2 / 72.0 * (1.0 - u2 / 110.0)))));
    let cos = 1.0
        - u2 / 2.0 * (1.0 - u2 / 12.0 * (1.0 - u2 / 30.0 * (1.0 - u2 / 56.0 * (1.0 - u2 / 90.0))));
    (-sin, -cos * flip)
}

impl Item {
    /// The item as SVG: for an export or a poster (`page` false), or for the live page, where
    /// a thing a keyboard reaches carries its tab stop, role and name and the rest is hidden
    /// from assistive technology (the stage's own label and those names tell the picture).
    pub(super) fn svg(&self, page: bool) -> String {
        let mut attrs = String::new();
        match (&self.focus, page) {
            (Some(f), true) => attrs.push_str(&format!(
                r#" tabindex="-1" role="button" aria-haspopup="dialog" aria-label="{}" data-focus="{}""#,
                esc(&f.name),
                esc(&f.id)
            )),
            (None, true) => attrs.push_str(r#" aria-hidden="true""#),
            _ => {}
        }
        if !self.class.is_empty() {
            attrs.push_str(&format!(r#" class="{}""#, esc(&self.class)));
        }
        match (self.fill, &self.shape) {
            (Some(f), _) => attrs.push_str(&format!(r#" fill="{f}""#)),
            (None, Shape::Curve { .. } | Shape::Arc { .. }) => attrs.push_str(r#" fill="none""#),
            _ => {}
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
        for (k, v) in &self.attrs {
            attrs.push_str(&format!(r#" {k}="{}""#, esc(v)));
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
            .map(|i| i.svg(false))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_turns_sine_and_cosine_match_the_standard_librarys() {
        for i in 0..=20_000 {
            let f = i as f32 / 20_000.0;
            let (s, c) = super::sin_cos_turn(f);
            let a = f64::from(f) * std::f64::consts::TAU;
            let off = (f64::from(s) - a.sin())
                .abs()
                .max((f64::from(c) - a.cos()).abs());
            assert!(off < 2e-6, "{f} of a turn: sin {s}, cos {c}, off by {off}");
        }
    }
}

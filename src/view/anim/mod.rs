//! An animation of a run for places that take images but not iframes (issue 23): a list of
//! stills, each a standalone SVG document at the export size — the stage as the page draws it,
//! tweened from step to step as the stage moves, with the caption burnt in beneath (dark for a
//! key frame, as on the page). `ui/anim.rs` rasterises the stills and [`gif`] encodes them.

pub mod gif;

use super::geometry::Type;
use super::patch::markup;
use super::plan::Plan;
use super::scene::Scene;
use super::stage::{scene, Opts};
use super::svg::esc;
use super::tween::tween;
use crate::sim::moments::Moment;
use crate::sim::{Lang, Simulation};

/// The sizes an animation is made at (an 800×500 and a 640×400 embed).
pub const SIZES: [(u32, u32); 2] = [(800, 500), (640, 400)];
/// In-between stills per step and how long each shows (the stage's 300 ms move).
pub const TWEENS: u32 = 5;
pub const TWEEN_MS: u32 = 60;
/// How long a step stays, and a key frame (whose caption is there to be read).
pub const STEP_MS: u32 = 900;
pub const KEY_MS: u32 = 3000;
/// At most this many steps in one animation (about 1,000 stills): a bound on time and memory.
pub const MAX_STEPS: u64 = 160;

/// One still: an SVG document and how long it shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Still {
    pub svg: String,
    pub ms: u32,
}

/// A step's caption: the key frame's line (empty if it is none) and what the step did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Caption {
    pub key: String,
    pub now: Option<String>,
}

/// What an animation needs from the run besides its history: the page's plan and key frames,
/// the preset (its title captions step 0) and the language; and how it is drawn: at `scale`
/// times the export size (2 for a sharper file), with a credit line (a link to the run) burnt
/// into the stage's corner, if one is asked for.
pub struct Source<'a> {
    pub plan: &'a Plan,
    pub moments: &'a [Moment],
    pub preset: &'a str,
    pub lang: Lang,
    pub scale: u32,
    pub credit: Option<&'a str>,
}

/// The stills of the step `sim` is at, moving from `prev` (the previous step's scene, none for
/// the first); returns them and this step's scene, for the next call.
pub fn step(
    sim: &Simulation,
    src: &Source,
    prev: Option<&Scene>,
    w: u32,
    h: u32,
) -> (Vec<Still>, Scene) {
    let frame = super::build(sim, src.plan, src.lang);
    let here: Vec<Moment> = src
        .moments
        .iter()
        .filter(|m| m.step == frame.step)
        .cloned()
        .collect();
    let (key, now) = super::caption::parts(
        frame.step,
        src.preset,
        &here,
        &frame.narration,
        src.lang,
        false,
    );
    let lang = src.lang;
    let next = scene(
        &frame,
        &Opts {
            w,
            h: h - band(h),
            lang,
        },
    );
    let burn = Burn {
        scale: src.scale.max(1),
        credit: src.credit,
    };
    (
        stills(prev, &next, &Caption { key, now }, w, h, &burn),
        next,
    )
}

/// What every still carries besides its step: its scale and the credit line.
#[derive(Clone, Copy, Debug, Default)]
pub struct Burn<'a> {
    pub scale: u32,
    pub credit: Option<&'a str>,
}

/// How many stills `steps` steps make.
pub fn count(steps: u64) -> u64 {
    steps + steps.saturating_sub(1) * u64::from(TWEENS)
}

/// The height of the caption band under the stage of an animation `h` high.
pub fn band(h: u32) -> u32 {
    if h >= 480 {
        78
    } else {
        66
    }
}

/// The stills from the previous step's scene (none for the first) to this one's, then its
/// hold. Scenes are drawn for the stage's part: `w` × (`h` − [`band`]).
pub fn stills(
    prev: Option<&Scene>,
    next: &Scene,
    cap: &Caption,
    w: u32,
    h: u32,
    burn: &Burn,
) -> Vec<Still> {
    let mut out = Vec::new();
    if let Some(p) = prev.filter(|p| p.w == next.w && p.h == next.h) {
        for i in 1..=TWEENS {
            let u = i as f32 / (TWEENS + 1) as f32;
            let mid = tween(p, next, ease(u));
            out.push(Still {
                svg: document(&mid, true, cap, w, h, burn),
                ms: TWEEN_MS,
            });
        }
    }
    let ms = if cap.key.is_empty() { STEP_MS } else { KEY_MS };
    out.push(Still {
        svg: document(next, false, cap, w, h, burn),
        ms,
    });
    out
}

/// Ease in and out, as the stage moves.
fn ease(u: f32) -> f32 {
    let u = u.clamp(0.0, 1.0);
    u * u * (3.0 - 2.0 * u)
}

/// One still as an SVG document: the page's background, the stage in its white box, the
/// caption band.
fn document(scene: &Scene, moving: bool, cap: &Caption, w: u32, h: u32, burn: &Burn) -> String {
    let body: String = markup(scene, moving).into_iter().map(|(_, m)| m).collect();
    let b = band(h);
    let top = h - b;
    let (sw, sh) = (w * burn.scale.max(1), h * burn.scale.max(1));
    // The credit sits in the stage's bottom right corner, small and grey.
    let credit = burn.credit.map_or(String::new(), |c| {
        format!(
            r##"<text x="{}" y="{}" font-size="11" fill="#5f6673" text-anchor="end">{}</text>"##,
            w - 10,
            top - 8,
            esc(c)
        )
    });
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{sw}" height="{sh}" viewBox="0 0 {w} {h}" font-family="system-ui, -apple-system, 'Segoe UI', 'Noto Sans CJK SC', 'PingFang SC', sans-serif"><rect width="{w}" height="{h}" fill="#f3f4f6"/><rect x="0.5" y="0.5" width="{}" height="{}" rx="9" fill="#ffffff" stroke="#d9dce3"/>{body}{credit}{}</svg>"##,
        w - 1,
        top - 1,
        band_svg(cap, w, top, b)
    )
}

/// The caption band at `y`: the key line bold on dark (up to two lines), what the step did
/// under it (as many lines as are left), each line whole words.
fn band_svg(cap: &Caption, w: u32, y: u32, h: u32) -> String {
    let key = !cap.key.is_empty();
    let (bg, ink, soft) = if key {
        ("#1d2330", "#f3f4f6", "#c9cfdb")
    } else {
        ("#f3f4f6", "#1d2330", "#1d2330")
    };
    let (big, small) = if h >= 78 { (15u16, 13u16) } else { (13, 12) };
    let width = w as f32 - 24.0;
    let mut lines: Vec<(String, u16, bool)> = Vec::new();
    if key {
        for l in wrap(&cap.key, big, width).into_iter().take(2) {
            lines.push((l, big, true));
        }
    }
    let room = ((h as f32 - 10.0) / (f32::from(small) * 1.35)) as usize;
    if let Some(now) = &cap.now {
        let left = room.saturating_sub(lines.len()).min(3);
        for l in wrap(now, small, width).into_iter().take(left) {
            lines.push((l, small, false));
        }
    }
    let total: f32 = lines.iter().map(|(_, s, _)| f32::from(*s) * 1.35).sum();
    let mut at = y as f32 + (h as f32 - total) / 2.0;
    let mut text = String::new();
    for (l, size, bold) in &lines {
        at += f32::from(*size) * 1.35;
        let weight = if *bold { r#" font-weight="600""# } else { "" };
        let fill = if *bold { ink } else { soft };
        text.push_str(&format!(
            r#"<text x="12" y="{}" font-size="{size}" fill="{fill}"{weight}>{}</text>"#,
            (at - f32::from(*size) * 0.3).round() as i32,
            esc(l)
        ));
    }
    format!(r#"<rect x="0" y="{y}" width="{w}" height="{h}" rx="8" fill="{bg}"/>{text}"#)
}

/// `text` in lines at most `width` wide (estimated), broken between words, or between any two
/// characters of Chinese.
fn wrap(text: &str, size: u16, width: f32) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for piece in pieces(text) {
        let joined = format!("{line}{piece}");
        if !line.is_empty() && Type::width(joined.trim_end(), size, false) > width {
            lines.push(line.trim_end().to_string());
            line = piece.trim_start().to_string();
        } else {
            line = joined;
        }
    }
    if !line.trim().is_empty() {
        lines.push(line.trim_end().to_string());
    }
    lines
}

/// A text's unbreakable pieces: a word with the space after it, or one CJK character.
fn pieces(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut word = String::new();
    for c in text.chars() {
        if !c.is_ascii() && !c.is_alphanumeric() || (c as u32) >= 0x2E80 {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            out.push(c.to_string());
        } else {
            word.push(c);
            if c == ' ' {
                out.push(std::mem::take(&mut word));
            }
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

#[cfg(test)]
mod tests;

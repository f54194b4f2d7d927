//! Export of the current frame as a standalone SVG document: the same scene the stage draws
//! (every colour and size as an attribute, no stylesheet needed), with a title and the
//! narration below it.

use super::frame::Frame;
use super::stage::{scene, Opts};
use crate::sim::Lang;

/// Escapes text for XML content and attribute values.
pub fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c if c.is_control() && c != '\n' => {}
            c => o.push(c),
        }
    }
    o
}

/// The frame as an SVG document, `w`×`h` for the stage plus a title and a caption line.
pub fn export(frame: &Frame, title: &str, caption: &str, lang: Lang) -> String {
    let (w, h) = (1120u32, 700u32);
    let body = scene(frame, &Opts { w, h, lang }).svg_body();
    let total = h + 72;
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {total}" width="{w}" height="{total}" font-family="system-ui, 'Noto Sans CJK SC', sans-serif"><rect width="100%" height="100%" fill="#ffffff"/><text x="12" y="24" font-size="17" font-weight="600">{}</text><g transform="translate(0 32)">{body}</g><text x="12" y="{}" font-size="15" fill="#1d2330">{}</text></svg>"##,
        esc(title),
        total - 16,
        esc(caption)
    )
}

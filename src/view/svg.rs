//! Export of the current frame as a standalone SVG document (inline styles, escaped text).

use std::fmt::Write;

use super::frame::Frame;
use super::i18n::t;
use super::layout::{client_colour, Stage, CLIENT_W, CLIENT_X, SERVER_W, SERVER_X, WIDTH};
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

/// The frame as an SVG document.
pub fn export(frame: &Frame, title: &str, lang: Lang) -> String {
    let stage = Stage::new(frame.clients.len(), frame.tree.len());
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {h}" width="{WIDTH}" height="{h}" font-family="system-ui, sans-serif" font-size="12">"#,
        h = stage.height + 40
    );
    let _ = write!(
        s,
        r##"<rect width="100%" height="100%" fill="#ffffff"/><text x="16" y="22" font-size="15" font-weight="600">{}</text>"##,
        esc(title)
    );
    let stamp = frame
        .stamp
        .map(|(k, v)| format!(" · {k} {v}"))
        .unwrap_or_default();
    let _ = write!(
        s,
        r##"<text x="{SERVER_X}" y="22">{} {} · t={}{stamp}</text>"##,
        esc(t("ui.step_of", lang)),
        frame.step,
        frame.time
    );
    clients(&mut s, frame, &stage);
    tree(&mut s, frame, &stage);
    let _ = write!(
        s,
        r##"<text x="16" y="{}" fill="#333">{}</text></svg>"##,
        stage.height + 28,
        esc(&frame.narration)
    );
    s
}

fn clients(s: &mut String, frame: &Frame, stage: &Stage) {
    for c in &frame.clients {
        let y = stage.lane(c.id);
        let h = (stage.lane_h - 6).max(2);
        let _ = write!(
            s,
            r##"<rect x="{CLIENT_X}" y="{}" width="{CLIENT_W}" height="{h}" rx="4" fill="{}" fill-opacity="0.18" stroke="{}"/>"##,
            y - h / 2,
            client_colour(c.id),
            client_colour(c.id)
        );
        if stage.lane_h >= 14 {
            let _ = write!(
                s,
                r#"<text x="{}" y="{}">{} · {}</text>"#,
                CLIENT_X + 6,
                y + 4,
                esc(&c.name),
                esc(&c.phase)
            );
        }
    }
    for w in &frame.watches {
        if let Some(ry) = stage.row_of(frame, &w.path) {
            let _ = write!(
                s,
                r#"<path d="M{} {} C {} {}, {} {ry}, {} {ry}" fill="none" stroke="{}" stroke-dasharray="4 3"/>"#,
                CLIENT_X + CLIENT_W,
                stage.lane(w.client),
                SERVER_X - 60,
                stage.lane(w.client),
                SERVER_X - 60,
                SERVER_X + 4,
                client_colour(w.client)
            );
        }
    }
}

fn tree(s: &mut String, frame: &Frame, stage: &Stage) {
    let top = stage.rows.first().copied().unwrap_or(58) - 24;
    let _ = write!(
        s,
        r##"<rect x="{SERVER_X}" y="{top}" width="{SERVER_W}" height="{}" rx="6" fill="none" stroke="#555"/>"##,
        stage.resource_y - top - 20
    );
    for (row, y) in frame.tree.iter().zip(&stage.rows) {
        let fill = row.owner.map_or("#f2f2f2", client_colour);
        let dash = if row.lifetime() != crate::services::Lifetime::Persistent {
            r#" stroke-dasharray="3 2""#
        } else {
            ""
        };
        let x = SERVER_X + 8 + 16 * row.depth as i64;
        let _ = write!(
            s,
            r##"<rect x="{x}" y="{}" width="{}" height="18" rx="3" fill="{fill}" fill-opacity="0.35" stroke="#444"{dash}/>"##,
            y - 13,
            SERVER_W - 16 - 16 * row.depth as i64
        );
        let _ = write!(
            s,
            r#"<text x="{}" y="{}" font-family="monospace">{}</text>"#,
            x + 4,
            y,
            esc(&row.name)
        );
    }
    let _ = write!(
        s,
        r##"<text x="{SERVER_X}" y="{}">resource = {} (token ≥ {})</text>"##,
        stage.resource_y + 24,
        frame.value,
        frame.highest_token
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{presets, Simulation};

    #[test]
    fn export_is_escaped_standalone_svg() {
        let mut sim = Simulation::new(presets::find("queue").unwrap().scenario());
        sim.run_steps(30);
        let f = super::super::frame::build(&sim, Lang::En);
        let svg = export(&f, "<b>queue</b> & co", Lang::En);
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.ends_with("</svg>"));
        assert!(svg.contains("&lt;b&gt;queue&lt;/b&gt; &amp; co"));
        assert!(!svg.contains("<b>"));
        assert!(svg.contains("lock-0000000000"));
    }
}

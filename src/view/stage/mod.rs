//! The stage: one frame drawn as a scene for a stage of a given size. Clients are cards on the
//! left with their session ring and process marks; wires run to the lock service's box, where
//! every entry sits in its planned row; watches are curves from an entry to its watcher;
//! messages are dots on the wires at their place in simulated time; the resource's ledger sits
//! below the service; badges across the top name what is wrong or just happened. Everything
//! that a key frame is about carries `data-evidence`, and every label comes from the frame.

mod badges;
mod cards;
mod ghosts;
mod marks;
mod peers;
mod resource;
mod servers;
mod service;
mod watches;
mod wires;

use super::frame::Frame;
use super::geometry::{Geometry, Type};
use super::scene::{Anchor, Item, Scene, Shape, Text};
use crate::sim::Lang;

/// What the stage is drawn for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Opts {
    pub w: u32,
    pub h: u32,
    pub lang: Lang,
}

/// The frame's scene.
pub fn scene(f: &Frame, o: &Opts) -> Scene {
    let mut g = Geometry::new(o.w, o.h, f.clients.len(), rows_needed(f), f.resource.used);
    g.split_servers(&servers::first_rows(f), rows_needed(f));
    let mut b = Builder {
        f,
        g: &g,
        lang: o.lang,
        items: Vec::with_capacity(64 + f.clients.len() * 12),
    };
    b.items.push(
        Item::new(
            "bg",
            Shape::Rect {
                x: 0.0,
                y: 0.0,
                w: g.w,
                h: g.h,
                rx: 0.0,
            },
            "ls-bg",
        )
        .fill("#ffffff"),
    );
    b.service();
    b.resource();
    b.wires();
    b.watches();
    b.cards();
    b.messages();
    b.badges();
    Scene {
        w: o.w,
        h: o.h,
        items: b.items,
    }
}

/// Rows including any entry the plan did not know about.
fn rows_needed(f: &Frame) -> usize {
    f.tree
        .iter()
        .map(|r| r.row + 1)
        .chain(f.headers.iter().map(|(r, _)| r + 1))
        .chain(f.ghosts.iter().map(|g| g.row + 1))
        .max()
        .unwrap_or(0)
        .max(f.rows)
}

pub(crate) struct Builder<'a> {
    pub f: &'a Frame,
    pub g: &'a Geometry,
    pub lang: Lang,
    pub items: Vec<Item>,
}

/// Plain text, fitted to `max` pixels (cut with an ellipsis).
pub(crate) fn fit(text: &str, size: u16, mono: bool, max: f32) -> String {
    if Type::width(text, size, mono) <= max {
        return text.to_string();
    }
    let mut out = String::new();
    for c in text.chars() {
        out.push(c);
        if Type::width(&out, size, mono) + size as f32 * 0.6 > max {
            out.pop();
            break;
        }
    }
    out.push('…');
    out
}

/// A name fitted to `max` pixels by cutting its middle, so both its start and the end that
/// tells names apart (a sequence number, a lease id) stay.
pub(crate) fn fit_mid(text: &str, size: u16, mono: bool, max: f32) -> String {
    if Type::width(text, size, mono) <= max {
        return text.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    let per = Type::width("m", size, mono).max(1.0);
    let keep = ((max / per).floor() as usize).saturating_sub(1).max(2);
    let tail = (keep * 3 / 5).min(chars.len());
    let head = keep.saturating_sub(tail).min(chars.len() - tail);
    let mut out: String = chars[..head].iter().collect();
    out.push('…');
    out.extend(&chars[chars.len() - tail..]);
    out
}

impl Builder<'_> {
    pub fn zh(&self) -> bool {
        self.lang == Lang::Zh
    }

    /// English or Chinese.
    pub fn say(&self, en: impl Into<String>, zh: impl Into<String>) -> String {
        if self.zh() {
            zh.into()
        } else {
            en.into()
        }
    }

    pub fn push(&mut self, i: Item) {
        self.items.push(i);
    }

    /// Gives every item from `first` on the data attribute `key` (what a click finds).
    pub fn tag(&mut self, first: usize, key: &'static str, value: &str) {
        for i in &mut self.items[first..] {
            if !i.data.iter().any(|(k, _)| *k == key) {
                i.data.push((key, value.to_string()));
            }
        }
    }

    /// A text item.
    #[allow(clippy::too_many_arguments)]
    pub fn text(
        &mut self,
        key: String,
        x: f32,
        y: f32,
        size: u16,
        anchor: Anchor,
        parts: Vec<(String, bool)>,
        mono: bool,
        class: &str,
    ) -> &mut Item {
        let t = Text {
            x,
            y,
            size,
            anchor,
            parts,
            mono,
        };
        self.items.push(Item::new(key, Shape::Text(t), class));
        self.items.last_mut().expect("just pushed")
    }

    /// A single-run text item, fitted to `max` pixels.
    #[allow(clippy::too_many_arguments)]
    pub fn label(
        &mut self,
        key: String,
        x: f32,
        y: f32,
        size: u16,
        anchor: Anchor,
        s: &str,
        max: f32,
        class: &str,
    ) -> &mut Item {
        let s = fit(s, size, false, max);
        self.text(key, x, y, size, anchor, vec![(s, false)], false, class)
    }

    /// A rounded chip with a word in it, right-aligned at `right`; returns its left edge.
    #[allow(clippy::too_many_arguments)]
    pub fn chip(
        &mut self,
        key: &str,
        right: f32,
        cy: f32,
        size: u16,
        word: &str,
        fill: &'static str,
        ink: &'static str,
        evidence: Option<&str>,
    ) -> f32 {
        let w = Type::width(word, size, false) + 10.0;
        let h = size as f32 + 5.0;
        let x = right - w;
        let mut rect = Item::new(
            format!("{key}:bg"),
            Shape::Rect {
                x,
                y: cy - h / 2.0,
                w,
                h,
                rx: h / 2.0,
            },
            "ls-chip",
        )
        .fill(fill);
        if let Some(e) = evidence {
            rect = rect.data("evidence", e);
        }
        self.push(rect);
        let t = self.text(
            format!("{key}:t"),
            x + w / 2.0,
            cy + size as f32 * 0.36,
            size,
            Anchor::Middle,
            vec![(word.to_string(), false)],
            false,
            "ls-chip__t",
        );
        t.fill = Some(ink);
        x
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod fit_tests {
    use super::*;

    #[test]
    fn names_keep_both_ends() {
        let s = fit_mid("lock/694d7a3c1b2e0001", 12, true, 110.0);
        assert!(
            s.starts_with("lock/") && s.ends_with("0001") && s.contains('…'),
            "{s}"
        );
        assert_eq!(fit_mid("short", 12, true, 200.0), "short");
        assert!(fit("a long status line", 12, false, 60.0).ends_with('…'));
    }
}

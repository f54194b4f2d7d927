//! The stage: one frame drawn as a scene for a stage of a given size. Clients are cards on the
//! left with their session ring and process marks; wires run to the lock service's box, where
//! every entry sits in its planned row; watches are curves from an entry to its watcher;
//! messages are dots on the wires at their place in simulated time; the resource's ledger sits
//! below the service; badges across the top name what is wrong or just happened. Everything
//! that a key frame is about carries `data-evidence`, and every label comes from the frame.

mod badges;
mod cards;
mod chips;
mod dots;
mod fit;
mod ghosts;
mod lost;
mod marks;
mod names;
mod pausebar;
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
pub(crate) use fit::{fit_forms, fit_mid, name_forms};

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

    /// A single-run text item, fitted to `max` pixels by dropping whole segments from its end
    /// (empty when not even its first segment fits).
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
        self.label_forms(key, x, y, size, anchor, &[s], max, class)
    }

    /// A text item showing the first of `forms` (longest first) that fits, see `fit_forms`.
    #[allow(clippy::too_many_arguments)]
    pub fn label_forms<S: AsRef<str>>(
        &mut self,
        key: String,
        x: f32,
        y: f32,
        size: u16,
        anchor: Anchor,
        forms: &[S],
        max: f32,
        class: &str,
    ) -> &mut Item {
        let s = fit_forms(forms, size, max).unwrap_or_default();
        self.text(key, x, y, size, anchor, vec![(s, false)], false, class)
    }

    /// A rounded chip with a word in it, right-aligned at `right`, in type `size` (a box `size`
    /// + 5 tall, or at most `most_h`: a short row's); returns its left edge.
    #[allow(clippy::too_many_arguments)]
    pub fn chip(
        &mut self,
        key: &str,
        right: f32,
        cy: f32,
        (size, most_h): (u16, f32),
        word: &str,
        fill: &'static str,
        ink: &'static str,
        evidence: Option<&str>,
    ) -> f32 {
        let w = Type::width(word, size, false) + 10.0;
        let h = (size as f32 + 5.0).min(most_h);
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
mod tests_labels;
#[cfg(test)]
mod tests_names;
#[cfg(test)]
mod tests_overlap;

//! Words on a wire stay readable: over every step of every preset, in both languages, on a
//! page's stage and an embed's, no message's label lies over a cut wire's word ("server down",
//! "cut").

use super::tests_labels::every_frame;
use super::{scene, Opts};
use crate::view::geometry::Type;
use crate::view::scene::{Anchor, Scene, Shape};

/// Each text item whose key ends in `suffix`: (left, right, top, bottom, text).
fn boxes(s: &Scene, suffix: &str) -> Vec<(f32, f32, f32, f32, String)> {
    s.items
        .iter()
        .filter(|i| i.key.ends_with(suffix))
        .filter_map(|i| {
            let Shape::Text(t) = &i.shape else {
                return None;
            };
            let text: String = t.parts.iter().map(|(p, _)| p.as_str()).collect();
            let bold = t.parts.iter().any(|(_, b)| *b);
            let w = Type::width(&text, t.size, t.mono) * if bold { 1.1 } else { 1.0 };
            let left = match t.anchor {
                Anchor::Start => t.x,
                Anchor::Middle => t.x - w / 2.0,
                Anchor::End => t.x - w,
            };
            let size = f32::from(t.size);
            Some((left, left + w, t.y - size * 0.8, t.y + size * 0.2, text))
        })
        .collect()
}

#[test]
fn a_message_label_never_lies_over_a_cut_wires_word() {
    let mut bad: std::collections::BTreeMap<String, String> = Default::default();
    every_frame(|id, step, lang, f| {
        if !f.clients.iter().any(|c| c.partitioned) {
            return;
        }
        for (w, h) in [(1046, 740), (791, 392)] {
            let s = scene(f, &Opts { w, h, lang });
            let words = boxes(&s, ":word");
            for (l, r, t, b, text) in boxes(&s, ":t") {
                for (l2, r2, t2, b2, word) in &words {
                    if l < *r2 && *l2 < r && t < *b2 && *t2 < b {
                        bad.entry(format!("{text:?} over {word:?}"))
                            .or_insert_with(|| format!("{id} step {step} {w}x{h}"));
                    }
                }
            }
        }
    });
    assert!(bad.is_empty(), "{bad:#?}");
}

//! Words on a wire stay readable: over every step of every preset, in both languages, on a
//! page's stage and an embed's, no message's label lies over a cut wire's word ("server down",
//! "cut").

use super::tests_labels::every_frame;
use super::{scene, Opts};
use crate::view::scene::{Scene, Shape, Text};

/// A text's box as drawn and its words: (left, right, top, bottom, text).
fn text_box(t: &Text) -> Box4 {
    // Bold: a tenth wider than the regular face it is measured in.
    let bold = t.parts.iter().any(|(_, b)| *b);
    let (left, right, top, bottom) = t.bounds(if bold { 1.1 } else { 1.0 });
    (
        left,
        right,
        top,
        bottom,
        t.parts.iter().map(|(p, _)| p.as_str()).collect(),
    )
}

/// Each text item whose key ends in `suffix`.
fn boxes(s: &Scene, suffix: &str) -> Vec<Box4> {
    s.items
        .iter()
        .filter(|i| i.key.ends_with(suffix))
        .filter_map(|i| match &i.shape {
            Shape::Text(t) => Some(text_box(t)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_message_label_never_lies_over_a_cut_wires_word() {
    let mut bad: crate::sorted::SortedMap<String, String> = Default::default();
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

/// Each text item whose class says it is a label on the lane between servers, and every other.
fn peer_and_rest(s: &Scene) -> (Vec<Box4>, Vec<Box4>) {
    let (mut peers, mut rest) = (Vec::new(), Vec::new());
    for i in &s.items {
        if let Shape::Text(t) = &i.shape {
            let side = if i.class.contains("--peer") {
                &mut peers
            } else {
                &mut rest
            };
            side.push(text_box(t));
        }
    }
    (peers, rest)
}

type Box4 = (f32, f32, f32, f32, String);

/// A label between servers moves a line or two off the rows' words where that is clear of them
/// (it stays beside its dot, so where rows fill every place near it, it lies over one on its
/// halo). Over every step of every ensemble preset, in both languages, at page and embed size,
/// halo included: 792 of 18,128 labels lie over a word (most a czxid where rows fill the lane's
/// side); 1,868 of 17,574 did before they moved (554 more were left out then: a rounding took
/// the free line next to a label for a taken one), so more than 6 % fails.
#[test]
fn a_label_between_servers_lies_over_a_servers_words_only_where_rows_fill_its_place() {
    if !crate::FULL {
        return; // the lean bundle has no service of several servers
    }
    let mut bad: crate::sorted::SortedMap<String, String> = Default::default();
    let (mut seen, mut over) = (0, 0);
    every_frame(|id, step, lang, f| {
        if f.servers.len() < 2 {
            return;
        }
        for (w, h) in [(1046, 740), (791, 392)] {
            let s = scene(f, &Opts { w, h, lang });
            let (peers, rest) = peer_and_rest(&s);
            seen += peers.len();
            for (l, r, t, b, text) in &peers {
                let h = super::peers::HALO;
                let (l, r, t, b) = (l - h, r + h, t - h, b + h);
                let on = |(l2, r2, t2, b2, _): &&Box4| l < *r2 && *l2 < r && t < *b2 && *t2 < b;
                if let Some((.., word)) = rest.iter().find(on) {
                    over += 1;
                    bad.entry(format!("{text:?} over {word:?}"))
                        .or_insert_with(|| format!("{id} step {step} {w}x{h} {lang:?}"));
                }
            }
        }
    });
    assert!(
        seen > 10_000,
        "only {seen} labels between servers: the walk misses them"
    );
    assert!(
        over * 100 <= seen * 6,
        "{over} of {seen} labels between servers lie over a word: {bad:#?}"
    );
}

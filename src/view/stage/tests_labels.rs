//! The label rule, tested over every step of every preset at every stage size: a label on the
//! stage is never cut at its end. Short of room it takes a shorter form that keeps the words
//! that carry the lesson (a status word's short form, never half a word); a node name may lose
//! the middle of its random prefix or everything before its sequence number, never the
//! sequence number itself. So no text ends in "…", and a card with words always shows its
//! status (at least its shortest form). Nor does the stage speak TCP or RESP (FIN, RST, $-1, :1,
//! +OK).

use super::{scene, Opts};
use crate::sim::{presets, Lang, Simulation};
use crate::view::frame::build;
use crate::view::plan::Plan;
use crate::view::scene::Shape;

/// The stage sizes of a 1440×900 page, an 800×500 embed and course embed, a 640×400 embed and
/// a 360×740 phone.
const SIZES: &[(u32, u32)] = &[(1046, 740), (791, 392), (791, 315), (631, 292), (340, 516)];

/// A word of TCP or of Redis's wire protocol: FIN, RST, a nil (`$-1`, `*-1`), an integer
/// reply (`:1`) or a status reply (`+OK`).
fn resp_or_tcp(w: &str) -> bool {
    let digits = |s: &str| {
        !s.is_empty()
            && s.trim_start_matches('-')
                .bytes()
                .all(|b| b.is_ascii_digit())
    };
    let status = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_uppercase());
    matches!(w, "FIN" | "RST" | "$-1" | "*-1")
        || w.strip_prefix(':').is_some_and(digits)
        || w.strip_prefix('+').is_some_and(status)
}

/// Calls `each(preset id, step, language, frame)` for every step of every preset's run, in
/// both languages.
pub(super) fn every_frame(mut each: impl FnMut(&str, u64, Lang, &crate::view::frame::Frame)) {
    for p in presets::all() {
        let mut sim = Simulation::new(p.scenario());
        sim.compute_ahead(2000, 200);
        let plan = Plan::new(&sim);
        for step in 0..=sim.len() {
            sim.seek(step);
            for lang in [Lang::En, Lang::Zh] {
                each(p.id, step, lang, &build(&sim, &plan, lang));
            }
        }
    }
}

/// The step's sentence under the stage speaks as the stage does: "C2 hears from redis-1: 0",
/// not ":0" (the records keep the wire form).
#[test]
fn no_step_sentence_speaks_redis_wire_words() {
    if !crate::FULL {
        return; // the lean build has no Redis
    }
    let mut bad: crate::sorted::SortedMap<String, String> = Default::default();
    let mut redis_replies = 0;
    every_frame(|id, step, lang, f| {
        let words = f.narration.split([' ', '(', ')', '[', ']', ',', '“', '”']);
        let words: Vec<&str> = words
            .map(|w| w.trim_end_matches(['.', '。', '，']))
            .collect();
        if words
            .iter()
            .any(|w| !matches!(*w, "FIN" | "RST") && resp_or_tcp(w))
        {
            bad.entry(f.narration.clone())
                .or_insert_with(|| format!("{id} step {step} {lang:?}"));
        }
        redis_replies += usize::from(id.starts_with("redlock") && f.narration.contains(": 1."));
    });
    let list: Vec<String> = bad.iter().map(|(k, v)| format!("{k} ({v})")).collect();
    assert!(
        bad.is_empty(),
        "{} sentences:\n{}",
        list.len(),
        list.join("\n")
    );
    assert!(
        redis_replies > 0,
        "no Redlock sentence reads an integer reply"
    );
}

#[test]
fn no_label_is_cut_at_its_end_at_any_step_or_size() {
    let mut bad: crate::sorted::SortedMap<String, String> = Default::default();
    every_frame(|id, step, lang, f| {
        for &(w, h) in SIZES {
            let s = scene(f, &Opts { w, h, lang });
            for i in &s.items {
                let Shape::Text(t) = &i.shape else { continue };
                let text: String = t.parts.iter().map(|(p, _)| p.as_str()).collect();
                let empty_status = i.key.ends_with(":status") && text.is_empty();
                let jargon = text.split([' ', '×', '→']).any(resp_or_tcp);
                if text.ends_with('…') || empty_status || jargon {
                    let kind: String = i.key.chars().filter(|c| !c.is_ascii_digit()).collect();
                    let forms = i
                        .key
                        .strip_prefix('c')
                        .and_then(|k| k.strip_suffix(":status"))
                        .and_then(|k| k.parse::<usize>().ok())
                        .map(|c| f.clients[c].status.forms(f.clients[c].hold_count, lang));
                    bad.entry(format!("{kind} {text:?} {forms:?}"))
                        .or_insert_with(|| format!("{id} step {step} {w}x{h}"));
                }
            }
        }
    });
    let list: Vec<String> = bad.iter().map(|(k, v)| format!("{k} ({v})")).collect();
    assert!(
        bad.is_empty(),
        "{} labels cut at their end:\n{}",
        list.len(),
        list.join("\n")
    );
}

#[test]
fn ten_clients_keep_their_names_and_states_in_a_640x400_embed() {
    for id in ["ids-locked", "ids-unlocked"] {
        let mut sim = Simulation::new(presets::find(id).unwrap().scenario());
        sim.compute_ahead(2000, 200);
        let plan = Plan::new(&sim);
        for step in (0..=sim.len()).step_by(7) {
            sim.seek(step);
            let f = build(&sim, &plan, Lang::En);
            for (w, h) in [(631, 292), (791, 315)] {
                let s = scene(
                    &f,
                    &Opts {
                        w,
                        h,
                        lang: Lang::En,
                    },
                );
                let text = |key: String| {
                    s.items.iter().find_map(|i| match (&i.shape, i.key == key) {
                        (Shape::Text(t), true) => Some(t.size),
                        _ => None,
                    })
                };
                for c in 0..f.clients.len() {
                    for part in ["name", "status"] {
                        let size = text(format!("c{c}:{part}"));
                        assert!(
                            size.is_some_and(|s| s >= 11),
                            "{id} step {step} {w}x{h}: C{} has no {part} of 11 px or more",
                            c + 1
                        );
                    }
                }
                for r in &f.tree {
                    assert!(
                        text(format!("e:{}:name", r.id)).is_some(),
                        "{id} step {step} {w}x{h}: {} has no name",
                        r.id
                    );
                }
            }
        }
    }
}

/// Every preset draws at every step (every 4th) in the small stages a course embed leaves
/// (an ensemble's server boxes a few pixels high at 640×400 once panicked in `clamp`).
#[test]
fn every_preset_draws_in_the_smallest_course_embed_stages() {
    for p in presets::all() {
        let mut sim = Simulation::new(p.scenario());
        sim.compute_ahead(2000, 200);
        let plan = Plan::new(&sim);
        for step in (0..=sim.len()).step_by(4) {
            sim.seek(step);
            let f = build(&sim, &plan, Lang::En);
            for (w, h) in [(631, 195), (560, 182), (631, 150), (791, 240), (400, 120)] {
                let r = std::panic::catch_unwind(|| {
                    scene(
                        &f,
                        &Opts {
                            w,
                            h,
                            lang: Lang::En,
                        },
                    )
                });
                assert!(r.is_ok(), "{} step {step} at {w}x{h} panicked", p.id);
            }
        }
    }
}

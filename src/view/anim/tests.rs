//! The animated export's stills and GIF, natively: counts, captions burnt in whole, motion
//! between steps, and a GIF that decodes to the stills' number, size and delays.

use super::gif::Gif;
use super::*;
use crate::sim::{moments, presets};

/// The stills of steps `from..=to` of a preset, as the page makes them.
fn run(id: &str, from: u64, to: u64, w: u32, h: u32, lang: Lang) -> Vec<Still> {
    let p = presets::find(id).unwrap();
    let mut sim = Simulation::new(p.scenario());
    sim.compute_ahead(to + 10, 50);
    let plan = Plan::new(&sim);
    let found = moments::find(&sim, p.moments);
    let src = Source {
        plan: &plan,
        moments: &found,
        preset: id,
        lang,
        scale: 1,
        credit: None,
    };
    let mut prev = None;
    let mut out = Vec::new();
    for s in from..=to {
        sim.seek(s);
        let (st, sc) = step(&sim, &src, prev.as_ref(), w, h);
        out.extend(st);
        prev = Some(sc);
    }
    out
}

#[test]
fn steps_make_one_hold_each_and_tweens_between_them() {
    let st = run("herd", 10, 20, 800, 500, Lang::En);
    assert_eq!(st.len() as u64, count(11));
    let holds = st.iter().filter(|s| s.ms >= STEP_MS).count();
    assert_eq!(holds, 11);
    for s in &st {
        assert!(s
            .svg
            .starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"800\" height=\"500\""));
        assert!(s.svg.ends_with("</svg>"));
    }
    // The tweens differ from the holds around them: things move.
    assert!(st
        .windows(2)
        .any(|w| w[0].ms == TWEEN_MS && w[0].svg != w[1].svg));
}

#[test]
fn a_key_frame_holds_longer_with_its_caption_burnt_in() {
    let p = presets::find("herd").unwrap();
    let mut sim = Simulation::new(p.scenario());
    sim.compute_ahead(400, 50);
    let found = moments::find(&sim, p.moments);
    let m = found.first().expect("herd has key frames");
    let st = run("herd", m.step - 1, m.step, 640, 400, Lang::Zh);
    let last = st.last().unwrap();
    assert_eq!(last.ms, KEY_MS);
    let caption = m.caption(Lang::Zh);
    let first: String = caption.chars().take(8).collect();
    assert!(
        last.svg.contains(&super::esc(&first)),
        "{first} not in the band"
    );
    assert!(last.svg.contains("#1d2330"), "a key frame's band is dark");
}

#[test]
fn caption_lines_keep_whole_words_and_fit() {
    let text = "C2, C3, C4, C5 and C6 all watch the same lock: one node, 5 watches, and every release wakes all of them at once.";
    let lines = wrap(text, 15, 400.0);
    assert!(lines.len() >= 2);
    assert_eq!(lines.join(" "), text);
    for l in &lines {
        assert!(Type::width(l, 15, false) <= 400.0, "{l}");
    }
    let zh = wrap(
        "每次释放只唤醒一个等待者，它重新列出目录后才做判断。",
        13,
        120.0,
    );
    assert!(zh.len() >= 3);
    assert_eq!(
        zh.concat(),
        "每次释放只唤醒一个等待者，它重新列出目录后才做判断。"
    );
}

#[test]
fn a_gif_of_stills_decodes_to_their_number_size_and_delays() {
    let (w, h) = (40u32, 24u32);
    let mut gif = Gif::new(w, h).unwrap();
    for (i, ms) in [900u32, 60, 3000].into_iter().enumerate() {
        // The second still changes one corner only; the third everything.
        let px: Vec<u8> = (0..w * h)
            .flat_map(|p| {
                let corner = i == 1 && p % w < 5 && p / w < 3;
                let g = if i == 2 {
                    200
                } else if corner {
                    90
                } else {
                    0
                };
                [(p % 200) as u8, g, 30, 255]
            })
            .collect();
        gif.push(&px, ms).unwrap();
    }
    assert_eq!(gif.frames(), 3);
    assert!(
        gif.push(&[0u8; 12], 10).is_err(),
        "a still of the wrong size is refused"
    );
    let bytes = gif.finish().unwrap();
    let mut opts = ::gif::DecodeOptions::new();
    opts.set_color_output(::gif::ColorOutput::RGBA);
    let mut dec = opts.read_info(bytes.as_slice()).unwrap();
    assert_eq!((dec.width(), dec.height()), (40, 24));
    let mut delays = Vec::new();
    let mut rects = Vec::new();
    while let Some(f) = dec.read_next_frame().unwrap() {
        delays.push(f.delay);
        rects.push((f.left, f.top, f.width, f.height));
    }
    assert_eq!(delays, vec![90, 6, 300]);
    assert_eq!(
        rects,
        vec![(0, 0, 40, 24), (0, 0, 5, 3), (0, 0, 40, 24)],
        "only what changed is stored"
    );
}

#[test]
fn a_still_can_be_drawn_twice_as_large_with_a_credit_line() {
    let p = presets::find("herd").unwrap();
    let mut sim = Simulation::new(p.scenario());
    sim.compute_ahead(40, 50);
    let plan = Plan::new(&sim);
    let found = moments::find(&sim, p.moments);
    let src = Source {
        plan: &plan,
        moments: &found,
        preset: "herd",
        lang: Lang::En,
        scale: 2,
        credit: Some("Lockstep · https://x.org/ls/?preset=herd"),
    };
    sim.seek(5);
    let (st, _) = step(&sim, &src, None, 800, 500);
    let svg = &st[0].svg;
    assert!(
        svg.contains(r#"width="1600" height="1000" viewBox="0 0 800 500""#),
        "{}",
        &svg[..200]
    );
    assert!(svg.contains("Lockstep · https://x.org/ls/?preset=herd"));
}

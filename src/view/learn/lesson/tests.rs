//! The lesson file: what it refuses (and says why), and how a lesson's stops become key frames.

use super::super::{find, Chapter, Stop, Text};
use crate::sim::moments::Kind;
use crate::sim::{Lang, Simulation};

fn herd() -> Chapter {
    find("herd").unwrap().1.clone()
}

fn refused(edit: impl Fn(&mut Chapter)) -> String {
    let mut ch = herd();
    edit(&mut ch);
    let text = ch.to_json();
    Chapter::from_json(&text).expect_err("refused")
}

#[test]
fn a_lesson_file_says_what_is_wrong_with_it() {
    let cases: Vec<(Box<dyn Fn(&mut Chapter)>, &str)> = vec![
        (
            Box::new(|c| c.lockstep_lesson = 2),
            "version 2 is not one this Lockstep reads",
        ),
        (Box::new(|c| c.id = "no spaces".into()), "`id`"),
        (Box::new(|c| c.title = Text::default()), "`title`"),
        (
            Box::new(|c| c.preset = Some("nope".into())),
            "no preset \"nope\"",
        ),
        (
            Box::new(|c| {
                c.search.push(crate::view::learn::Hunt {
                    recipe: crate::recipes::RecipeKind::Naive,
                    clients: 2,
                    allow_close: false,
                    task: None,
                })
            }),
            "exactly one of",
        ),
        (
            Box::new(|c| c.stops.push(Stop::default())),
            "`stops[1]`: give either `step` or `at`",
        ),
        (
            Box::new(|c| {
                c.stops.push(Stop {
                    step: Some(0),
                    ..Stop::default()
                })
            }),
            "`stops[1].step`: 0 is not a step",
        ),
        (
            Box::new(|c| c.stops[0].text.zh = "长".repeat(2001)),
            "`stops[0].text.zh`: longer than 2000",
        ),
    ];
    for (edit, says) in cases {
        let e = refused(edit);
        assert!(e.contains(says), "{e:?} should say {says:?}");
    }
    for (text, says) in [
        ("{", "lesson"),
        (
            r#"{"lockstep_lesson": 1, "id": "x", "title": {"en": "t"}, "colour": 1}"#,
            "colour",
        ),
        (
            r#"{"lockstep_lesson": 1, "id": "x", "title": {"en": "t"}, "preset": "herd", "stops": [{"at": "nonsense"}]}"#,
            "nonsense",
        ),
    ] {
        let e = Chapter::from_json(text).expect_err(text);
        assert!(e.contains(says), "{e:?} should say {says:?}");
    }
    let big = format!("{{\"id\": \"{}\"}}", "x".repeat(super::MAX_BYTES));
    assert!(Chapter::from_json(&big)
        .unwrap_err()
        .contains("more than the"));
}

#[test]
fn a_text_in_one_language_shows_in_both() {
    let t = Text::new("", "只有中文");
    assert_eq!(t.get(Lang::En), "只有中文");
    assert_eq!(Text::new("Only English", "").get(Lang::Zh), "Only English");
}

#[test]
fn an_authors_stops_become_key_frames_captioned_in_their_words() {
    let mut ch = herd();
    ch.id = "mine".into();
    ch.stops.push(Stop {
        step: Some(5),
        title: Text::new("Look here", "看这里"),
        text: Text::new("C1 creates /lock.", "C1 创建 /lock。"),
        ..Stop::default()
    });
    let sim = Simulation::from_run(ch.run().unwrap());
    let mut s = sim.clone();
    s.seek(400);
    let found = crate::sim::moments::find(&s, &ch.kinds());
    let all = ch.with_stops(found.clone());
    assert_eq!(
        all.len(),
        found.len() + 1,
        "one stop added; the built-in question adds none"
    );
    let stop = all.iter().find(|m| m.kind == Kind::Stop).unwrap();
    assert_eq!(stop.step, 5);
    assert_eq!(stop.caption(Lang::En), "Look here: C1 creates /lock.");
    assert_eq!(stop.caption(Lang::Zh), "看这里：C1 创建 /lock。");
    assert!(
        all.windows(2).all(|w| w[0].step <= w[1].step),
        "in step order"
    );
    let back = Chapter::from_json(&ch.to_json()).unwrap();
    assert_eq!(back, ch, "the file round-trips");
}

#[test]
fn the_docs_example_lesson_reads() {
    let readme = include_str!("../../../../docs/embedding.md");
    let from = readme
        .find("## Writing your own lesson")
        .expect("the section");
    let start = from + readme[from..].find("```json\n").expect("its example") + 8;
    let end = start + readme[start..].find("```").unwrap();
    let ch = Chapter::from_json(&readme[start..end]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        (ch.id.as_str(), ch.stops.len(), ch.cmds.len()),
        ("my-herd", 2, 1)
    );
}

#[test]
fn the_example_lessons_read_and_their_questions_are_answered_by_the_run() {
    let examples = [(
        "herd-by-step",
        include_str!("../../../../lessons/examples/herd-by-step.json"),
    )];
    for (name, text) in examples {
        let ch = Chapter::from_json(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(ch.to_json(), text, "{name}: canonical form");
        let mut sim = Simulation::from_run(ch.run().unwrap());
        sim.compute_ahead(2000, 200);
        let found = ch.with_stops(crate::sim::moments::find(&sim, &ch.kinds()));
        let qs = super::super::questions::questions(&ch, &sim, &found);
        let asks = ch.stops.iter().filter(|s| s.ask.is_some()).count();
        assert_eq!(qs.len(), asks, "{name}: the run answers every question");
        for s in &ch.stops {
            let step = s.step.expect("an example places its stops by step");
            assert!(found.iter().any(|m| m.step == step && m.kind == Kind::Stop));
        }
    }
}

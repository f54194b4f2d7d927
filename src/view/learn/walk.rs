//! Walks every chapter: its run is deterministic, each question's key frame exists, and each
//! generated question's right answer is what the run then shows, with no wrong option equal
//! to it.

use super::questions::{questions, seq, Question};
use crate::narrate::Key;
use crate::sim::{moments, presets, Simulation};
use crate::view::learn::{course, Ask, Body};

/// A preset only the full bundle runs, known to the lean bundle by id only.
fn lean_knows(preset: &str) -> bool {
    presets::find(preset).is_none() && presets::is_service_preset(preset)
}

fn loaded(preset: &str) -> Simulation {
    let mut sim = Simulation::new(presets::find(preset).expect("chapter preset").scenario());
    sim.compute_ahead(2000, 200);
    sim
}

/// What the run shows at the question's reveal, as the text of the right option.
fn shown(q: &Question, sim: &mut Simulation) -> String {
    let r = sim.records()[q.reveal as usize - 1].clone();
    sim.seek(q.reveal);
    let w = sim.world();
    match q.ask {
        Ask::Notified => r.fired.len().to_string(),
        Ask::NextWatch => {
            let c = r.narration.client.unwrap_or(usize::MAX);
            let watched: Vec<String> = w
                .service
                .watches()
                .into_iter()
                .map(|x| crate::narrate::short_path(&x.path))
                .collect();
            q.options
                .iter()
                .map(|o| o[0].clone())
                .find(|o| watched.contains(o))
                .unwrap_or_else(|| format!("none for {c}"))
        }
        Ask::WriteAccepted => if w.resource.writes.back().is_some_and(|x| x.accepted) {
            "Yes"
        } else {
            "No"
        }
        .into(),
        Ask::Believers => w.monitors.now.believers.len().to_string(),
        Ask::Survives => match w.monitors.now.believers.as_slice() {
            [c] => format!("C{}, as before", c + 1),
            [a, b] => format!("Both C{} and C{}", a + 1, b + 1),
            _ => "?".into(),
        },
        Ask::AfterExpiry => {
            let gone = matches!(r.narration.key, Key::SessionExpires) && !r.deleted.is_empty();
            if gone {
                "The server deletes it when the session times out"
            } else {
                "?"
            }
            .into()
        }
        Ask::EverAcquires => {
            let end = sim.len();
            sim.seek(end);
            if sim.world().monitors.stuck.is_some() {
                "No"
            } else {
                "Yes"
            }
            .into()
        }
        Ask::Duplicate => if w.resource.first_lost.is_some() {
            "Yes"
        } else {
            "No"
        }
        .into(),
        Ask::Read => {
            let c = r.narration.client.and_then(|c| w.clients.get(c));
            match c.map(|c| c.recipe.phase()) {
                Some(crate::recipes::Phase::Read(Some(_))) => "/lock exists: the lock is held",
                Some(crate::recipes::Phase::Read(None)) => "No /lock: the lock looks free",
                _ => "?",
            }
            .into()
        }
        Ask::NextSequence => r
            .created
            .iter()
            .find_map(|id| seq(id))
            .unwrap_or_default()
            .to_string(),
    }
}

#[test]
fn every_chapter_asks_what_its_run_then_shows() {
    let mut asked = 0;
    for ch in course() {
        let (Body::Run, Some(preset)) = (ch.body(), ch.preset()) else {
            continue;
        };
        let poses: Vec<_> = ch.stops.iter().filter(|s| s.ask.is_some()).collect();
        if presets::find(preset).is_none() && lean_knows(preset) {
            continue;
        }
        let mut sim = loaded(preset);
        assert_eq!(
            sim.trace_hash(),
            loaded(preset).trace_hash(),
            "{}: deterministic",
            ch.id
        );
        let found = moments::find(&sim, &ch.kinds());
        for p in &poses {
            assert!(
                found.iter().any(|m| Some(m.kind) == p.at),
                "{}: no {:?} key frame",
                ch.id,
                p.at
            );
        }
        let qs = questions(ch, &sim, &found);
        assert_eq!(qs.len(), poses.len(), "{}: a question per pose", ch.id);
        for q in qs {
            assert!(q.reveal > q.at, "{}: the answer comes later", ch.id);
            assert!(q.options.len() >= 2, "{}: options", ch.id);
            let right = q.options[q.answer][0].clone();
            assert_eq!(
                shown(&q, &mut sim),
                right,
                "{}: {:?} at {} (reveal {})",
                ch.id,
                q.ask,
                q.at,
                q.reveal
            );
            let wrong: Vec<&String> = q
                .options
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != q.answer)
                .map(|(_, o)| &o[0])
                .collect();
            assert!(
                !wrong.contains(&&right),
                "{}: a wrong option equals the answer",
                ch.id
            );
            assert!(
                q.prompt[1]
                    .chars()
                    .any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                "{}: Chinese prompt",
                ch.id
            );
            asked += 1;
        }
    }
    assert!(asked >= 12, "{asked} questions");
}

#[test]
fn chapters_have_ids_texts_and_a_known_preset() {
    let mut ids: Vec<&str> = course().iter().map(|c| c.id.as_str()).collect();
    let n = ids.len();
    crate::sort::all(&mut ids);
    ids.dedup();
    assert_eq!(ids.len(), n, "unique ids");
    for c in course() {
        for t in [&c.title, &c.intro, &c.takeaway] {
            assert!(!t.en.is_empty() && !t.zh.is_empty(), "{}", c.id);
        }
        if let Some(p) = c.preset() {
            let known = presets::find(p).is_some() || lean_knows(p);
            assert!(known, "{}: preset {p}", c.id);
        }
    }
    assert_eq!(super::find("").map(|(i, _)| i), Some(0));
    assert_eq!(n, 20, "the course's 20 lesson files all read");
}

#[test]
fn an_authors_question_at_a_step_is_the_one_the_course_asks_there() {
    for ch in course() {
        let (Body::Run, Some(preset)) = (ch.body(), ch.preset()) else {
            continue;
        };
        if lean_knows(preset) {
            continue;
        }
        let sim = loaded(preset);
        let found = moments::find(&sim, &ch.kinds());
        let mut own = ch.clone();
        for s in &mut own.stops {
            // The same question, placed by step as an author places it in the editor.
            (s.step, s.at) = (s.step_in(&found), None);
        }
        let mut own_found = moments::find(&sim, &own.kinds());
        own_found = own.with_stops(own_found);
        assert_eq!(
            questions(&own, &sim, &own_found),
            questions(ch, &sim, &found),
            "{}",
            ch.id
        );
    }
}

/// Words that would tell a question's answer before the run shows it.
fn telltales(q: &Question) -> Vec<String> {
    let right = q.options[q.answer][0].clone();
    let mut t: Vec<String> = match q.ask {
        Ask::Believers => vec![
            "two holders",
            "2 holders",
            "two believers",
            "both believe",
            "两个持锁者",
            "都认为自己持有",
            "都以为自己持有",
        ],
        Ask::Survives => vec![
            "the lock stays",
            "still holds",
            "one holder",
            "锁还在",
            "仍然持有",
            "只有一个持锁者",
        ],
        Ask::EverAcquires => vec!["forever", "stuck", "never get", "永远", "卡死"],
        Ask::AfterExpiry => vec![
            "until it times out",
            "deletes it when",
            "直到超时",
            "存活到超时",
        ],
        Ask::Notified => vec![],
        Ask::WriteAccepted => vec![
            "rejected",
            "rejects",
            "拒绝",
            "lost update",
            "update is lost",
        ],
        Ask::Duplicate => vec!["twice", "duplicate", "两次", "重复"],
        Ask::Read if right.starts_with("No /lock") => {
            vec!["stale read", "过时读", "falls behind", "落后于领导者"]
        }
        Ask::Read => vec!["after sync,", "sync 之后", "caught up", "追上了"],
        Ask::NextWatch | Ask::NextSequence => vec![],
    }
    .into_iter()
    .map(String::from)
    .collect();
    if q.ask == Ask::Notified {
        for (en, zh) in [("watches", "个监视"), ("notifications", "个通知")] {
            t.push(format!(" {right} {en}"));
            t.push(format!("{right} {zh}"));
        }
    }
    if q.ask == Ask::NextWatch {
        t.push(format!("watches {right} instead"));
    }
    t
}

/// What the page shows at `step` of a chapter's run, as the course draws it.
fn visible(
    ch: &crate::view::learn::Chapter,
    sim: &mut Simulation,
    plan: &crate::view::plan::Plan,
    found: &[moments::Moment],
    qs: &[Question],
    step: u64,
) -> Vec<String> {
    use crate::sim::Lang;
    use crate::view::learn::veil;
    let mut out = Vec::new();
    sim.seek(step);
    let preset = presets::find(ch.preset_name());
    for lang in [Lang::En, Lang::Zh] {
        out.push(ch.title(lang).to_string());
        out.extend(preset.map(|p| p.title(lang).to_string()));
        let f = crate::view::frame::build(sim, plan, lang);
        let here: Vec<moments::Moment> = found.iter().filter(|m| m.step == step).cloned().collect();
        let posing = veil::posing(qs, step);
        let (key, now) =
            crate::view::caption::parts(step, ch.preset_name(), &here, &f.narration, lang, posing);
        out.push(key);
        out.extend(now);
        let s = crate::view::stage::scene(
            &f,
            &crate::view::stage::Opts {
                w: 1440,
                h: 900,
                lang,
            },
        );
        out.extend(
            s.texts()
                .map(|t| t.parts.iter().map(|(p, _)| p.as_str()).collect::<String>()),
        );
        // The timeline's marks up to where the open question veils them.
        let veil_at = veil::marks_veiled_from(qs, step).unwrap_or(u64::MAX);
        out.extend(
            found
                .iter()
                .filter(|m| m.step < veil_at)
                .map(|m| m.caption(lang)),
        );
        if !veil::story_veiled(qs, step) {
            out.push(ch.intro(lang).to_string());
        }
    }
    out
}

#[test]
fn no_visible_text_tells_an_open_questions_answer_before_its_reveal() {
    let mut checked = 0;
    for ch in course() {
        let (Body::Run, Some(preset)) = (ch.body(), ch.preset()) else {
            continue;
        };
        if lean_knows(preset) {
            continue;
        }
        let mut sim = loaded(preset);
        let plan = crate::view::plan::Plan::new(&sim);
        let found = ch.with_stops(moments::find(&sim, &ch.kinds()));
        let qs = questions(ch, &sim, &found);
        for q in &qs {
            let tells = telltales(q);
            for step in q.at..q.reveal {
                for text in visible(ch, &mut sim, &plan, &found, &qs, step) {
                    let lower = text.to_lowercase();
                    for t in &tells {
                        assert!(
                            !lower.contains(&t.to_lowercase()),
                            "{}: the question at {} (reveal {}) is answered at step {step} by “{t}” in: {text}",
                            ch.id,
                            q.at,
                            q.reveal
                        );
                    }
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "{checked} steps checked");
}

#[test]
fn options_are_possible_in_the_run() {
    for ch in course() {
        let (Body::Run, Some(preset)) = (ch.body(), ch.preset()) else {
            continue;
        };
        if lean_knows(preset) {
            continue;
        }
        let sim = loaded(preset);
        let clients = i64::from(sim.scenario().clients);
        let found = ch.with_stops(moments::find(&sim, &ch.kinds()));
        for q in questions(ch, &sim, &found) {
            if !matches!(q.ask, Ask::Believers | Ask::Notified) {
                continue;
            }
            for o in &q.options {
                let n: i64 = o[0].parse().unwrap();
                assert!(
                    (0..=clients).contains(&n),
                    "{}: option {n} with {clients} clients",
                    ch.id
                );
            }
        }
    }
}

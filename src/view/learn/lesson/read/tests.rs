//! The lesson reader against serde's: the same chapter from every lesson serde writes (the
//! course's, with random scenarios, commands, stops and searches put in), and the same answer
//! for those texts edited, with fields left out or added, and in serde's list form.

use super::*;
use crate::json_read::tests::{json_text, mutate, serde_names};
use crate::sim::scenario_json::tests::{every_command, scenario_from};
use crate::sim::world::Action;
use crate::view::learn::builtin::course;
use proptest::prelude::*;
use serde_json::Value;

/// A course chapter with parts from `v` (random numbers) in every field a lesson may have.
fn chapter_from(v: &[u64]) -> Chapter {
    let all = course();
    let mut c = all[v[0] as usize % all.len()].clone();
    let text = |i: usize| {
        Text::new(
            ["", "a\"b", "x"][v[i] as usize % 3],
            ["", "中文\n"][v[i] as usize / 3 % 2],
        )
    };
    c.intro = text(1);
    c.takeaway = text(2);
    c.scenario = (v[3] % 2 == 0).then(|| scenario_from(&v[4..]));
    let commands = every_command();
    c.cmds = (0..v[5] % 3)
        .map(|i| {
            (
                v[6] >> i,
                Action::Command(commands[(v[7] + i) as usize % commands.len()].clone()),
            )
        })
        .collect();
    c.stops = (0..v[8] % 4)
        .map(|i| Stop {
            step: (v[9] >> i & 1 == 0).then_some(v[10] >> i),
            at: (v[11] >> i & 1 == 0).then_some(KINDS[(v[12] >> i) as usize % KINDS.len()].1),
            title: text(13 + i as usize),
            text: text(17 + i as usize),
            ask: (v[21] >> i & 1 == 0).then_some(ASKS[(v[22] >> i) as usize % ASKS.len()].1),
        })
        .collect();
    let recipes = RecipeKind::ALL;
    c.search = (0..v[23] % 3)
        .map(|i| Hunt {
            recipe: recipes[(v[24] >> i) as usize % recipes.len()],
            clients: (v[25] >> i) as u32,
            allow_close: v[26] >> i & 1 == 0,
            task: (v[28] >> i & 1 == 0).then_some(
                crate::recipes::program::starters::Starter::ALL[(v[29] >> i) as usize % 7],
            ),
        })
        .collect();
    c.matrix = v[27] % 2 == 0;
    c
}

use crate::recipes::RecipeKind;

fn any_chapter() -> impl Strategy<Value = Chapter> {
    prop::collection::vec(any::<u64>(), 70).prop_map(|v| chapter_from(&v))
}

fn serde_reads(text: &str) -> Option<Chapter> {
    serde_json::from_str(text).ok()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn reads_every_lesson_serde_writes(c in any_chapter()) {
        let text = c.to_json();
        prop_assert_eq!(read_chapter(&text), Ok(c), "{}", text);
    }

    #[test]
    fn accepts_and_refuses_what_serde_does(c in any_chapter(), e in prop::collection::vec((0usize..3000, 0usize..100), 1..3)) {
        let mut t = serde_json::to_string(&c).unwrap();
        for (at, what) in e {
            t = mutate(&t, at, what);
        }
        prop_assert_eq!(read_chapter(&t).ok(), serde_reads(&t), "{}", t);
    }

    #[test]
    fn fields_left_out_or_added_as_serde_does(c in any_chapter(), keep in any::<u64>(), extra in json_text(), k in 0usize..13) {
        let Value::Object(all) = serde_json::to_value(&c).unwrap() else { unreachable!() };
        let kept: serde_json::Map<String, Value> =
            all.iter().enumerate().filter(|(i, _)| keep >> i & 1 == 1).map(|(_, (k, v))| (k.clone(), v.clone())).collect();
        // A field the writer leaves out (empty) is given as its empty value, as a list must.
        let empty = |f: &str| match f {
            "intro" | "takeaway" => serde_json::json!({}),
            "cmds" | "stops" | "search" => serde_json::json!([]),
            "matrix" => Value::Bool(false),
            _ => Value::Null,
        };
        let list: Vec<Value> = CHAPTER.names.iter().map(|f| all.get(*f).cloned().unwrap_or_else(|| empty(f))).take(k).collect();
        let mut title_as_list = all.clone();
        let t = &c.title;
        title_as_list.insert("title".into(), serde_json::json!([t.en, t.zh]));
        let text = serde_json::to_string(&c).unwrap();
        let stop = r#"{"title":"#;
        for t in [
            serde_json::to_string(&kept).unwrap(),
            serde_json::to_string(&list).unwrap(),
            text.replacen('{', &format!(r#"{{"x":{extra},"#), 1),
            text.replace(stop, &format!(r#"{{"x":{extra},"title":"#)),
            serde_json::to_string(&title_as_list).unwrap(),
            text.replace(r#"{"en":"#, &format!(r#"{{"x":{extra},"en":"#)),
            text.replace(r#"{"recipe":"#, &format!(r#"{{"x":{extra},"recipe":"#)),
        ] {
            prop_assert_eq!(read_chapter(&t).ok(), serde_reads(&t), "{}", t);
        }
    }
}

#[test]
fn the_names_are_serdes() {
    let kinds: Vec<_> = KINDS.iter().map(|(n, _)| n.to_string()).collect();
    assert_eq!(kinds, serde_names::<Kind>());
    for (n, k) in KINDS {
        assert_eq!(serde_json::to_string(&k).unwrap(), format!("\"{n}\""));
    }
    let asks: Vec<_> = ASKS.iter().map(|(n, _)| n.to_string()).collect();
    assert_eq!(asks, serde_names::<Ask>());
    for (n, a) in ASKS {
        assert_eq!(serde_json::to_string(&a).unwrap(), format!("\"{n}\""));
    }
    assert_eq!(ASKS.map(|(_, a)| a), Ask::ALL);
}

#[test]
fn forms_serde_reads_that_it_never_writes() {
    let head = r#""lockstep_lesson": 1, "id": "x", "title": {"en": "t"}"#;
    for rest in [
        r#""preset": "herd""#,
        r#""preset": null, "scenario": null"#,
        r#""stops": [{"at": {"herd": null}}]"#,
        r#""stops": [[3, "herd"]]"#,
        r#""stops": [[null, null, ["a", "b"], {}, "notified"]]"#,
        r#""stops": [[null, null, ["a", "b", "c"]]]"#,
        r#""stops": [{"step": 1, "step": 2}]"#,
        r#""search": [["naive", 2, true]]"#,
        r#""search": [{"recipe": "naive", "clients": 2}]"#,
        r#""search": [{"recipe": "observer", "clients": 2, "allow_close": false}]"#,
        r#""search": [{"recipe": "naive", "clients": 2, "allow_close": false, "x": 1}]"#,
        r#""title": {"en": "again"}"#,
        r#""matrix": true, "cmds": [[1, "ServiceTimer"]]"#,
        r#""scenario": {"clients": 2, "x": 1}"#,
    ] {
        let t = format!("{{{head}, {rest}}}");
        assert_eq!(read_chapter(&t).ok(), serde_reads(&t), "{t}");
    }
    for t in [
        r#"[1, "x", {"en": "t"}]"#,
        r#"[1, "x"]"#,
        "[]",
        "{}",
        r#"{"lockstep_lesson": 1}"#,
    ] {
        assert_eq!(read_chapter(t).ok(), serde_reads(t), "{t}");
    }
}

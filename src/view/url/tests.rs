//! Link round trips, the course's links, and hostile parameters.

use super::*;
use crate::sim::Command;

#[test]
fn round_trip_keeps_everything() {
    let (mut st, errors) = parse(
        "?preset=gc-pause&seed=9&fencing=on&at=42&lang=zh&embed=1&compare=curator,redis_lease",
    );
    assert!(errors.is_empty(), "{errors:?}");
    st.run.forced.push((
        7,
        Action::Command(Command::Pause {
            client: 1,
            ticks: 30,
        }),
    ));
    let (back, errors) = parse(&to_query(&st));
    assert!(errors.is_empty());
    assert_eq!(back, st);
    assert_eq!(back.run.scenario.seed, 9);
    assert!(
        back.run.scenario.fencing && back.embed && back.lang == Some(Lang::Zh) && back.at == 42
    );
    assert_eq!(
        back.compare,
        vec![RecipeKind::Curator, RecipeKind::RedisLease]
    );
    let (st, errors) = parse("compare=etcd_mutex,zk,sql_insert,sql_lease,naive,curator");
    assert_eq!(st.compare.len(), 4);
    assert_eq!(errors.len(), 2, "{errors:?}");
}

#[test]
fn a_matrix_probe_or_import_travels_as_custom_without_complaint() {
    let (mut st, _) = parse("");
    st.preset = CUSTOM.into();
    st.run.scenario =
        crate::sim::matrix::probe(RecipeKind::EtcdMutex, crate::sim::matrix::Probe::Pause);
    let (back, errors) = parse(&to_query(&st));
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(back.run.scenario, st.run.scenario);
    assert!(back.needs_full());
}

#[test]
fn custom_scenarios_travel_whole() {
    let (mut st, _) = parse("");
    st.run.scenario.hold_max = 77;
    let (back, errors) = parse(&to_query(&st));
    assert!(errors.is_empty() && back.run.scenario.hold_max == 77);
}

#[test]
fn hostile_parameters_give_messages_and_defaults() {
    let q = "preset=%3Cscript%3Ealert(1)%3C/script%3E&clients=99999999999999999999&seed=-1&at=1e9&lang=xx&cmds=%%%&scenario=AAAA&fencing=maybe&recipe=zk";
    let (st, errors) = parse(q);
    assert_eq!(st.preset, DEFAULT_PRESET);
    assert_eq!(st.run.scenario, preset_scenario(DEFAULT_PRESET));
    assert!(st.run.forced.is_empty() && st.at == 0 && st.lang.is_none());
    assert_eq!(errors.len(), 9, "{errors:#?}");
    assert!(
        errors[0].contains("<script>alert(1)</script>"),
        "the bad value is quoted as text"
    );
    let (_, errors) = parse(&"a".repeat(70_000));
    assert_eq!(errors.len(), 1);
    // A forced timer for a client that does not exist is refused, not run.
    let cmds = crate::b64url::encode(r#"[[1,{"Timer":[99,"Start"]}]]"#);
    let (st, errors) = parse(&format!("cmds={cmds}"));
    assert!(st.run.forced.is_empty() && errors.len() == 1, "{errors:?}");
    let huge = Scenario {
        start_spread: u64::MAX,
        ..Scenario::default()
    };
    let (st, errors) = parse(&format!("scenario={}", huge.to_compact()));
    assert!(
        errors[0].contains("start_spread") && st.run.scenario == preset_scenario(DEFAULT_PRESET),
        "{errors:?}"
    );
}

#[test]
fn a_course_link_opens_its_chapter_and_preset() {
    let (st, errors) = parse("learn=herd&at=12&lang=zh");
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(
        (st.learn.as_deref(), st.preset.as_str(), st.at),
        (Some("herd"), "herd", 12)
    );
    let (back, _) = parse(&to_query(&st));
    assert_eq!(back, st);
    let (st, errors) = parse("learn=");
    assert!(errors.is_empty());
    assert_eq!(
        st.learn.as_deref(),
        crate::view::learn::course().first().map(|c| c.id.as_str())
    );
    let (st, errors) = parse("learn=%3Cb%3E&embed=1");
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(st.embed && st.learn.is_some());
    let (st, _) = parse("learn=herd&preset=queue");
    assert_eq!(st.preset, "queue", "a named preset wins");
    let (st, _) = parse("learn=matrix");
    assert!(st.needs_full());
}

#[test]
fn a_broken_custom_link_round_trips_to_what_it_showed() {
    // "W10" is base64url for `[]`: a scenario of all defaults.
    let (st, errors) = parse("clients=4294967296&compare=&scenario=W10&preset=custom");
    assert_eq!(errors.len(), 1, "{errors:?}");
    let (back, again) = parse(&to_query(&st));
    assert!(again.is_empty(), "{again:?}");
    assert_eq!(back, st);
    assert_eq!(back.run.scenario.name, st.run.scenario.name);
}

#[test]
fn a_link_asking_for_too_much_work_opens_earlier_with_a_message() {
    let (st, errors) = parse("preset=queue&clients=200&at=200000");
    assert_eq!(st.at, MAX_WORK / 200);
    assert_eq!(errors.len(), 1, "{errors:?}");
    let (st, errors) = parse("preset=queue&at=200000");
    assert!(errors.is_empty() && st.at == 200_000);
}

/// An ensemble runs only in the full bundle: the bench's five-server link, the ensemble's
/// presets (known by id in the lean one) and the course's chapter about it all hand over.
#[test]
fn an_ensemble_needs_the_full_bundle() {
    let five =
        crate::b64url::encode(r#"{"recipe":"curator","clients":50,"ensemble":5,"rounds":3}"#);
    let (st, errors) = parse(&format!("scenario={five}"));
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(st.run.scenario.ensemble, Some(5));
    assert!(st.needs_full());
    for id in ["zk-leader-crash", "zk-minority", "zk-stale-read"] {
        assert!(presets::is_service_preset(id), "{id}");
        let (st, errors) = parse(&format!("preset={id}"));
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(st.preset, id);
        assert!(st.needs_full(), "{id}");
    }
    assert!(parse("learn=consensus").0.needs_full());
    assert!(parse("learn=stale-read").0.needs_full());
    assert!(!parse("preset=queue").0.needs_full());
}

/// Observers (clients that only read) run only in the full bundle, even on one server.
#[test]
fn observers_need_the_full_bundle() {
    let one = crate::b64url::encode(r#"{"recipe":"naive","clients":2,"observers":[1]}"#);
    let (st, errors) = parse(&format!("scenario={one}"));
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(st.run.scenario.observers, vec![1]);
    assert!(st.needs_full());
}

/// `run=` (an imported file the lean page hands over, with its own state beside it): the run
/// from its first step, or the link's own run with the reason.
#[test]
fn a_run_link_replaces_the_run_from_its_first_step() {
    let run = crate::b64url::encode(
        r#"{"scenario":{"recipe":"naive","clients":4,"seed":9},"forced":[[3,{"Command":{"crash":{"client":1}}}]]}"#,
    );
    let (st, errors) = parse(&format!("preset=herd&at=9&run={run}"));
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!((st.preset.as_str(), st.at), (CUSTOM, 0));
    assert_eq!(st.run.scenario.recipe, RecipeKind::Naive);
    assert_eq!(
        (st.run.scenario.clients, st.run.forced.len()),
        (4, 1),
        "{st:?}"
    );
    // A bare scenario is a run without commands.
    let bare = crate::b64url::encode(r#"{"recipe":"curator","clients":3}"#);
    let (st, errors) = parse(&format!("run={bare}"));
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!((st.run.scenario.clients, st.preset.as_str()), (3, CUSTOM));
}

#[test]
fn a_bad_run_link_keeps_the_links_own_run_and_says_why() {
    let b = crate::b64url::encode;
    for (run, why) in [
        ("%%%".to_string(), "not base64url"),
        (b("\u{ff}"), "not JSON"),
        (b(r#"{"clients": -1}"#), "`clients`"),
        (
            b(r#"{"recipe":"naive","clients":201}"#),
            "more than this screen shows",
        ),
    ] {
        let (st, errors) = parse(&format!("preset=herd&at=9&run={run}"));
        assert_eq!((st.preset.as_str(), st.at), ("herd", 9), "{run}");
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].starts_with("`run`: "), "{errors:?}");
        assert!(errors[0].contains(why), "{run}: {errors:?}");
        assert!(
            errors[0].ends_with("the page keeps the link's run"),
            "{errors:?}"
        );
    }
}

#[test]
fn a_learners_recipe_needs_the_studio_page_in_a_run_or_a_lesson() {
    if !crate::FULL {
        return; // the lean page reads no scenario or lesson: it hands both to the full page
    }
    let text = "lock:\n    hold\n";
    let sc = format!(r#"{{"recipe":"program","clients":2,"program":{text:?}}}"#);
    let (st, errors) = parse(&format!("scenario={}", crate::b64url::encode(&sc)));
    assert!(errors.is_empty(), "{errors:?}");
    assert!(st.needs_studio());
    let lesson =
        format!(r#"{{"lockstep_lesson":1,"id":"mine","title":{{"en":"Mine"}},"scenario":{sc}}}"#);
    let (st, errors) = parse(&format!("lesson={}", crate::b64url::encode(&lesson)));
    assert!(errors.is_empty(), "{errors:?}");
    assert!(st.needs_studio());
    assert!(!parse("preset=queue").0.needs_studio());
    assert!(!parse("preset=zk-leader-crash").0.needs_studio());
}

//! The `cmds=` reader against serde's: the same list from every text serde writes, and the same
//! answer (the same list, or a refusal) for texts a hand or a hostile link could write.

use super::*;
use crate::json_read::tests::{json_text, mutate, serde_names};
use crate::sim::command_de::tests::every_command;
use proptest::prelude::*;

type Forced = Vec<(u64, Action)>;

fn serde_reads(text: &str) -> Option<Forced> {
    serde_json::from_str(text).ok()
}

fn timers() -> Vec<Timer> {
    let mut all = vec![
        Timer::Start,
        Timer::WorkDone,
        Timer::AcquireTimeout,
        Timer::Retry,
    ];
    all.extend([Timer::KeepAlive, Timer::Resend]);
    all.extend([LibTimer::Ping, LibTimer::ReadTimeout, LibTimer::Reconnect].map(Timer::Lib));
    all.extend([LibTimer::Lost, LibTimer::KeepAlive, LibTimer::Resend].map(Timer::Lib));
    all
}

fn action() -> impl Strategy<Value = Action> {
    let commands = every_command();
    let timers = timers();
    prop_oneof![
        any::<u64>().prop_map(Action::Deliver),
        (0usize..300, 0..timers.len()).prop_map(move |(c, t)| Action::Timer(c, timers[t])),
        Just(Action::ServiceTimer),
        (0usize..50).prop_map(Action::Scripted),
        (0..commands.len()).prop_map(move |i| Action::Command(commands[i].clone())),
    ]
}

fn forced() -> impl Strategy<Value = Forced> {
    prop::collection::vec((0u64..2_000_000, action()), 0..6)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn reads_every_list_serde_writes(list in forced()) {
        let text = serde_json::to_string(&list).unwrap();
        prop_assert_eq!(crate::sim::scenario_json::write_forced(&list), text.clone());
        prop_assert_eq!(read_forced(&text), Ok(list), "{}", text);
    }

    #[test]
    fn accepts_and_refuses_what_serde_does(list in forced(), edits in prop::collection::vec((0usize..400, 0usize..100), 1..3)) {
        let mut text = serde_json::to_string(&list).unwrap();
        for (at, what) in edits {
            text = mutate(&text, at, what);
        }
        prop_assert_eq!(read_forced(&text).ok(), serde_reads(&text), "{}", text);
    }

    /// Fields serde skips (any JSON) before a command's own, then edits anywhere.
    #[test]
    fn skips_and_refuses_unknown_fields_as_serde_does(list in forced(), extra in json_text(), edits in prop::collection::vec((0usize..4000, 0usize..100), 0..3)) {
        let text = serde_json::to_string(&list).unwrap();
        let mut text = text.replace(r#"{"client":"#, &format!(r#"{{"extra":{extra},"client":"#));
        for (at, what) in edits {
            text = mutate(&text, at, what);
        }
        prop_assert_eq!(read_forced(&text).ok(), serde_reads(&text), "{}", text);
    }
}

/// The timers the tests write and read are every one serde knows (the writer names them by
/// `Debug`, the reader by its own table).
#[test]
fn the_tests_cover_every_timer() {
    let mut names: Vec<String> = timers().iter().map(|t| format!("{t:?}")).collect();
    names.dedup_by(|a, b| a.starts_with("Lib(") && b.starts_with("Lib("));
    let names: Vec<String> = names
        .iter()
        .map(|n| n.split('(').next().unwrap().to_string())
        .collect();
    let mut want = serde_names::<Timer>();
    let mut got = names.clone();
    want.sort();
    got.sort();
    assert_eq!(got, want);
    let libs: Vec<String> = timers()
        .iter()
        .filter_map(|t| match t {
            Timer::Lib(l) => Some(format!("{l:?}")),
            _ => None,
        })
        .collect();
    assert_eq!(libs, serde_names::<LibTimer>());
}

#[test]
fn forms_serde_reads_that_it_never_writes() {
    let same = |t: &str| assert_eq!(read_forced(t).ok(), serde_reads(t), "{t}");
    for t in [
        r#"[[1,{"ServiceTimer":null}]]"#,
        r#"[[1,{"Timer":[0,{"Start":null}]}]]"#,
        r#"[[1,{"Command":{"failover":null}}]]"#,
        r#"[[1,{"Command":{"crash":{"client":0,"extra":[1,{"a":null}]}}}]]"#,
        r#" [ [ 1 , "ServiceTimer" ] ] "#,
        r#"[[1,{"Scripted":"\u0031"}]]"#,
        r#"[[1,{"Timer":[0,"\u0053tart"]}]]"#,
        r#"[[-0,"ServiceTimer"]]"#,
        r#"[[1,{"Deliver":-0}]]"#,
        r#"[[1,{"Command":{"clock_jump":{"server":1,"by":-9223372036854775808}}}]]"#,
        r#"[[1,{"Command":{"split":{"servers":[256]}}}]]"#,
        r#"[[1,{"Command":{"split":{}}}]]"#,
        r#"[[1,{"Command":"crash"}]]"#,
        r#"[[1,{"Timer":[0,"Start",1]}]]"#,
        r#"[[1,"ServiceTimer",2]]"#,
        r#"[[1,{"Deliver":1,"Scripted":2}]]"#,
        r#"[[1,{}]]"#,
        r#"[]"#,
        r#"{}"#,
        "[[1,\"ServiceTimer\"]] x",
        r#"[[1,{"Command":{"crash":{"client":0,"\ud800":1}}}]]"#,
        r#"[[1,{"Command":{"crash":{"client":0,"x":"\ud800"}}}]]"#,
        r#"[[1,{"Command":{"crash":{"client":0,"x":[1,{"a":[],"b":{}},"\u00e9\n"]}}}]]"#,
        r#"[[1,{"Command":{"crash":{"client":0,"x":[1,]}}}]]"#,
        r#"[[1,{"Command":{"crash":{"client":0,"x":{"a":1,}}}}]]"#,
        r#"[[1,{"Command":{"crash":{"client":0,"x":01}}}]]"#,
        r#"[[1,{"Command":{"crash":{"client":0,"x":-1.5e+3}}}]]"#,
        r#"[[1,{"Command":{"crash":{"client":0,"x":1.}}}]]"#,
        r#"[[1,{"Command":{"crash":{"client":0,"x":"\x"}}}]]"#,
        r#"[[1,{"Command":{"crash":{"client":0,"x":nul}}}]]"#,
        r#"[[1,{"Command":{"crash":{"client":18446744073709551615}}}]]"#,
        r#"[[18446744073709551615,"ServiceTimer"]]"#,
        r#"[[18446744073709551616,"ServiceTimer"]]"#,
        r#"[[1,{"Command":{"clock_jump":{"server":1,"by":-9223372036854775809}}}]]"#,
        r#"[[1,{"Command":{"clock_jump":{"server":1,"by":9223372036854775807}}}]]"#,
        r#"[[1,{"\u0043ommand":{"crash":{"client":0}}}]]"#,
        r#"[[1,{"Command":{"crash":{"client":0,"client":2}}}]]"#,
        "[[1,{\"Command\":{\"crash\":{\"client\":0,\"x\":\"a\tb\"}}}]]",
    ] {
        same(t);
    }
}

#[test]
fn says_what_is_wrong() {
    let err = |t: &str| read_forced(t).unwrap_err();
    assert_eq!(err("[[1,"), "not JSON of the expected shape");
    assert_eq!(err(r#"[[1,"Nap"]]"#), "unknown action");
    let missing = err(r#"[[1,{"Command":{"pause":{"client":1}}}]]"#);
    assert_eq!(missing, "a command lacks a field it needs");
    assert_eq!(
        err(r#"[[1,{"Deliver":1.5}]]"#),
        "expected an integer in range"
    );
}

#[test]
fn a_deep_list_is_refused_without_overflowing_the_stack() {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(read_forced(&deep).is_err());
}

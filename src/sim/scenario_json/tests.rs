//! The scenario and run readers against serde's: the same value from every text serde writes,
//! and the same answer (the same value, or a refusal) for texts a hand or a hostile file could
//! write: edited, with fields left out or unknown ones put in, as a list of fields.

use super::*;
use crate::json_read::tests::{json_text, mutate};
pub(crate) use crate::sim::command_de::tests::every_command;
use crate::sim::world::Action;
use proptest::prelude::*;
use serde_json::Value;

/// A scenario whose every field comes from `v` (40 random numbers), so that a field read into
/// the wrong place shows.
pub(crate) fn scenario_from(v: &[u64]) -> Scenario {
    let commands = every_command();
    let small = |i: usize| v[i] % 7;
    let some = |i: usize, x: u64| (v[i] % 3 != 0).then_some(x);
    let recipes: Vec<RecipeKind> = RecipeKind::ALL
        .into_iter()
        .chain([RecipeKind::Observer])
        .collect();
    Scenario {
        name: format!("s{}\u{e9}\"\\", v[0] % 100),
        recipe: recipes[v[1] as usize % recipes.len()],
        clients: v[2] as u32,
        seed: v[3],
        tick_time: v[4],
        session_timeout: v[5] >> 3,
        latency_min: small(6),
        latency_max: v[7],
        hold_min: v[8] % 1000,
        hold_max: v[9],
        think_min: v[10] >> 40,
        think_max: v[11],
        start_spread: v[12] % 5,
        rounds: (v[13] >> 32) as u32,
        fencing: v[14] % 2 == 0,
        resource: [ResourceKind::Counter, ResourceKind::IdGenerator][v[15] as usize % 2],
        readers: (0..small(16)).map(|i| (v[16] >> i) as usize % 9).collect(),
        observers: (0..small(17)).map(|i| (v[17] >> i) as usize % 9).collect(),
        nesting: v[18] as u32 % 4,
        max_leases: v[19] as u32,
        acquire_timeout: some(20, v[20] >> 1),
        timeouts: (0..small(21)).map(|i| (i as usize, v[21] >> i)).collect(),
        faults: (0..small(22) as usize)
            .map(|i| TimedCommand {
                at: v[22] >> i,
                command: commands[(v[23] as usize + i) % commands.len()].clone(),
            })
            .collect(),
        timeless: v[23] % 2 == 1,
        lock_dir_exists: v[24] % 2 == 1,
        resource_io: v[25] % 2 == 1,
        lease: v[26],
        poll: v[27] % 100,
        ttl_repair: v[28] % 2 == 0,
        replica_lag: some(29, small(30)),
        lock_path: some(30, 0).map(|_| format!("/p{}", v[30] % 10)),
        retry_sleep: v[31] % 50,
        kazoo_identifier: [KazooIdentifier::None, KazooIdentifier::Label][v[32] as usize % 2],
        ensemble: some(33, 0).map(|_| v[33] as u8),
        masters: some(34, 0).map(|_| (v[34] >> 8) as u8),
        clocks: (0..small(35))
            .map(|i| (v[35] as i64 >> i, (v[36] >> i) as i32))
            .collect(),
        delayed_restart: v[36] % 2 == 0,
        enable_offline_queue: v[37] % 2 == 0,
        retry_count: v[38] as u32,
        program: some(39, 0).map(|_| format!("lock:\n    hold {}\n", v[39] % 100)),
    }
}

fn any_scenario() -> impl Strategy<Value = Scenario> {
    prop::collection::vec(any::<u64>(), 41).prop_map(|v| scenario_from(&v))
}

fn any_run() -> impl Strategy<Value = Run> {
    let commands = every_command();
    let forced = prop::collection::vec((0u64..1000, 0..commands.len()), 0..4).prop_map(move |l| {
        l.into_iter()
            .map(|(s, c)| (s, Action::Command(commands[c].clone())))
            .collect()
    });
    (any_scenario(), forced).prop_map(|(scenario, forced)| Run { scenario, forced })
}

fn serde_scenario(text: &str) -> Option<Scenario> {
    serde_json::from_str(text).ok()
}

fn serde_run(text: &str) -> Option<Run> {
    serde_json::from_str(text).ok()
}

fn edited(mut text: String, edits: &[(usize, usize)]) -> String {
    for &(at, what) in edits {
        text = mutate(&text, at, what);
    }
    text
}

fn edits() -> impl Strategy<Value = Vec<(usize, usize)>> {
    prop::collection::vec((0usize..1500, 0usize..100), 1..3)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn reads_every_scenario_and_run_serde_writes(run in any_run()) {
        let text = serde_json::to_string(&run.scenario).unwrap();
        prop_assert_eq!(read_scenario(&text), Ok(run.scenario.clone()), "{}", text);
        prop_assert_eq!(write_scenario(&run.scenario), text);
        prop_assert_eq!(write_run(&run), serde_json::to_string(&run).unwrap());
        let pretty = serde_json::to_string_pretty(&run).unwrap();
        prop_assert_eq!(read_run(&pretty), Ok(run), "{}", pretty);
    }

    #[test]
    fn accepts_and_refuses_what_serde_does(run in any_run(), e in edits()) {
        let text = edited(serde_json::to_string(&run.scenario).unwrap(), &e);
        prop_assert_eq!(read_scenario(&text).ok(), serde_scenario(&text), "{}", text);
        let text = edited(serde_json::to_string(&run).unwrap(), &e);
        prop_assert_eq!(read_run(&text).ok(), serde_run(&text), "{}", text);
    }

    /// Fields left out, an unknown one put in (refused in a scenario, skipped in a run and a
    /// timed command), and the list form cut short or made long.
    #[test]
    fn fields_left_out_or_added_as_serde_does(
        sc in any_scenario(), keep in any::<u64>(), extra in json_text(), k in 0usize..=40, e in prop::collection::vec((0usize..1500, 0usize..100), 0..2),
    ) {
        let Value::Object(all) = serde_json::to_value(&sc).unwrap() else { unreachable!() };
        let kept: serde_json::Map<String, Value> =
            all.iter().enumerate().filter(|(i, _)| keep >> i & 1 == 1).map(|(_, (k, v))| (k.clone(), v.clone())).collect();
        let mut texts = vec![serde_json::to_string(&kept).unwrap()];
        let mut list: Vec<Value> = FIELDS.iter().map(|f| all[*f].clone()).take(k).collect();
        if k > FIELDS.len() {
            list.push(extra.parse().unwrap());
        }
        texts.push(serde_json::to_string(&list).unwrap());
        let xfield = format!(r#"{{"x{k}":{extra},"#);
        let sc_text = serde_json::to_string(&sc).unwrap();
        texts.push(sc_text.replacen('{', &xfield, 1));
        texts.push(sc_text.replace(r#"{"at":"#, &format!(r#"{{"x":{extra},"at":"#)));
        for t in texts {
            let t = edited(t, &e);
            prop_assert_eq!(read_scenario(&t).ok(), serde_scenario(&t), "{}", t);
            let run = format!(r#"{{"forced":[],"x":{extra},"scenario":{t}}}"#);
            prop_assert_eq!(read_run(&run).ok(), serde_run(&run), "{}", run);
        }
    }
}

#[test]
fn the_fields_are_serdes_in_its_order() {
    let text = serde_json::to_string(&Scenario::default()).unwrap();
    let mut r = Reader::new(&text);
    let mut first = true;
    let mut keys = Vec::new();
    r.expect(b'{').unwrap();
    while let Some(k) = r.key(&mut first).unwrap() {
        keys.push(k);
        r.skip().unwrap();
    }
    assert_eq!(keys, FIELDS);
}

#[test]
fn forms_serde_reads_that_it_never_writes() {
    let same = |t: &str| {
        assert_eq!(read_scenario(t).ok(), serde_scenario(t), "{t}");
        assert_eq!(read_run(t).ok(), serde_run(t), "{t}");
    };
    for t in [
        r#"{"recipe": {"curator": null}}"#,
        r#"{"recipe": {"curator": 1}}"#,
        r#"{"recipe": "observer", "resource": "id_generator", "kazoo_identifier": "label"}"#,
        r#"{"acquire_timeout": null, "lock_path": null, "ensemble": 3}"#,
        r#"{"name": "a", "name": "b"}"#,
        r#"{"ensemble": 256}"#,
        r#"{"clocks": [[-1, -2147483648]], "timeouts": [[0, 1]]}"#,
        r#"{"clocks": [[-1]]}"#,
        r#"{"timeouts": [[0, 1, 2]]}"#,
        r#"{"faults": [[3, "failover"]]}"#,
        r#"{"faults": [{"at": 1, "command": "failover", "x": [1]}]}"#,
        r#"{"faults": [{"at": 1}]}"#,
        r#"{"faults": [{"at": 1, "at": 2, "command": "failover"}]}"#,
        r#"{"faults": [[1]]}"#,
        r#"{"faults": [[1, "failover", 2]]}"#,
        r#"[]"#,
        r#"["x"]"#,
        r#"["x", "naive", 2]"#,
        r#"["x", null]"#,
        r#"{"scenario": {}, "forced": []}"#,
        r#"{"scenario": {}, "forced": [], "scenario": {}}"#,
        r#"{"scenario": {}}"#,
        r#"{"forced": [], "scenario": {"clients": 2}, "other": {"a": [1, null]}}"#,
        r#"[{}, []]"#,
        r#"[{}]"#,
        r#"[{}, [], 1]"#,
        r#"{"scenario": null, "forced": []}"#,
        r#"{"seed": -0}"#,
        r#"{"seed": 18446744073709551615}"#,
        r#"{"clients": 4294967296}"#,
        r#"{"bogus": 1}"#,
        r#"{"\u006eame": "\ud83d\ude00"}"#,
        r#"{"name": "\ud800"}"#,
        "{\"name\": \"a\"} x",
        "",
    ] {
        same(t);
    }
    let mut list: Vec<Value> = vec![Value::Null; 0];
    let Value::Object(all) = serde_json::to_value(Scenario::default()).unwrap() else {
        unreachable!()
    };
    list.extend(FIELDS.iter().map(|f| all[*f].clone()));
    for extra in [None, Some(Value::Null)] {
        let mut l = list.clone();
        l.extend(extra);
        same(&serde_json::to_string(&l).unwrap());
    }
}

#[test]
fn says_which_field_is_wrong() {
    for (text, says) in [
        (
            r#"{"clients": -1}"#,
            "scenario field `clients`: expected an integer in range",
        ),
        (
            r#"{"recipe": "zk"}"#,
            "scenario field `recipe`: unknown variant `zk`",
        ),
        (r#"{"bogus": 1}"#, "scenario JSON: unknown field `bogus`"),
        (
            r#"{"faults": [{"at": 1, "command": {"pause": {"client": 1}}}]}"#,
            "scenario field `command`: a command lacks a field it needs",
        ),
        (
            r#"{"seed": 1, "seed": 2}"#,
            "scenario field `seed`: a repeated field",
        ),
        (
            r#"{"seed": 1"#,
            "scenario JSON: not JSON of the expected shape",
        ),
    ] {
        assert_eq!(read_scenario(text).unwrap_err(), says);
    }
    let e = read_run(r#"{"scenario": {}}"#).unwrap_err();
    assert_eq!(e, "run field `forced`: missing field");
}

#[test]
fn a_deep_text_is_refused_without_overflowing_the_stack() {
    let deep = format!("{{\"x\": {}{}}}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(read_run(&deep).is_err());
    let deep = format!(
        "{{\"faults\": {}{}}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    assert!(read_scenario(&deep).is_err());
}

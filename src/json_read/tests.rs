//! The reader against serde_json: the same answer (the same value, or a refusal) for strings,
//! integers, skipped values and the lesson check, on texts serde writes and on those texts
//! with edits a hand or a hostile file could make.

use super::*;
use proptest::prelude::*;
use serde::de::IgnoredAny;

/// A JSON value of any shape, as text.
pub(crate) fn json_text() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        any::<u64>().prop_map(serde_json::Value::from),
        (-1e6f64..1e6).prop_map(serde_json::Value::from),
        any::<String>().prop_map(serde_json::Value::from),
    ];
    let tree = leaf.prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::from),
            prop::collection::btree_map("[a-z\\\\\"\u{e9}]{0,3}", inner, 0..4)
                .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    });
    tree.prop_map(|v| serde_json::to_string(&v).unwrap())
}

/// A text with one edit: a character removed, or a token put in at a character boundary.
pub(crate) fn mutate(text: &str, at: usize, what: usize) -> String {
    const TOKENS: [&str; 24] = [
        "",
        "0",
        "-0",
        "1.0",
        "1e2",
        "-1",
        "null",
        "true",
        "\"x\"",
        "[",
        "]",
        "{",
        "}",
        ",",
        ":",
        "18446744073709551616",
        "\\",
        "\\u",
        "\\ud800",
        "\\udc00",
        "\\u00e9",
        "\"",
        "\t",
        "\u{1}",
    ];
    let at = (0..=at.min(text.len()))
        .rev()
        .find(|i| text.is_char_boundary(*i))
        .unwrap_or(0);
    let (head, tail) = text.split_at(at);
    match what % (TOKENS.len() + 1) {
        0 => format!("{head}{}", tail.chars().skip(1).collect::<String>()),
        k => format!("{head}{}{tail}", TOKENS[k - 1]),
    }
}

/// The names of an enum's variants, as serde's message for an unknown one lists them.
pub(crate) fn serde_names<T: serde::de::DeserializeOwned>() -> Vec<String> {
    let e = serde_json::from_str::<T>("\"?\"")
        .err()
        .unwrap()
        .to_string();
    let list = e.split("expected one of ").nth(1).unwrap();
    let list = list.split(" at line").next().unwrap();
    list.split(", ")
        .map(|n| n.trim_matches('`').to_string())
        .collect()
}

fn edited(text: String, edits: &[(usize, usize)]) -> String {
    edits
        .iter()
        .fold(text, |t, &(at, what)| mutate(&t, at, what))
}

fn whole<T>(t: &str, read: impl FnOnce(&mut Reader) -> Res<T>) -> Option<T> {
    let mut r = Reader::new(t);
    read(&mut r).and_then(|v| r.end().map(|()| v)).ok()
}

fn serde_is_lesson(text: &str) -> bool {
    #[derive(serde::Deserialize)]
    struct Shape {
        lockstep_lesson: Option<IgnoredAny>,
    }
    serde_json::from_str::<Shape>(text).is_ok_and(|s| s.lockstep_lesson.is_some())
}

fn edits() -> impl Strategy<Value = Vec<(usize, usize)>> {
    prop::collection::vec((0usize..200, 0usize..100), 0..3)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn strings_read_as_serde_reads_them(s in any::<String>(), e in edits()) {
        let t = edited(serde_json::to_string(&s).unwrap(), &e);
        prop_assert_eq!(whole(&t, |r| r.string()), serde_json::from_str::<String>(&t).ok(), "{:?}", t);
    }

    #[test]
    fn values_skip_as_serde_ignores_them(v in json_text(), e in edits()) {
        let t = edited(v, &e);
        let ours = whole(&t, |r| r.skip()).is_some();
        prop_assert_eq!(ours, serde_json::from_str::<IgnoredAny>(&t).is_ok(), "{:?}", t);
    }

    #[test]
    fn integers_read_as_serde_reads_them(n in any::<i64>(), big in any::<u64>(), e in edits()) {
        for t in [edited(n.to_string(), &e), edited(big.to_string(), &e)] {
            prop_assert_eq!(whole(&t, |r| r.integer::<u64>()), serde_json::from_str::<u64>(&t).ok(), "{}", t);
            prop_assert_eq!(whole(&t, |r| r.integer::<i64>()), serde_json::from_str::<i64>(&t).ok(), "{}", t);
            prop_assert_eq!(whole(&t, |r| r.integer::<u8>()), serde_json::from_str::<u8>(&t).ok(), "{}", t);
        }
    }

    #[test]
    fn lessons_are_told_as_serde_tells_them(v in json_text(), other in json_text(), k in 0usize..6, e in edits()) {
        let t = match k {
            0 => format!(r#"{{"lockstep_lesson":{v},"x":{other}}}"#),
            1 => format!(r#"{{"x":{other},"lockstep_lesson":{v}}}"#),
            2 => format!(r#"{{"lockstep_lesson":{v},"lockstep_lesson":{other}}}"#),
            3 => format!("[{v}]"),
            4 => format!("[{v},{other}]"),
            _ => other.clone(),
        };
        let t = edited(t, &e);
        prop_assert_eq!(is_lesson(&t), serde_is_lesson(&t), "{}", t);
    }
}

#[test]
fn lesson_files_and_run_files() {
    assert!(is_lesson(r#"{"lockstep_lesson": 1, "chapter": {}}"#));
    assert!(!is_lesson(r#"{"lockstep_lesson": null}"#));
    assert!(!is_lesson(r#"{"scenario": {}, "forced": []}"#));
    assert!(!is_lesson(r#"{"lockstep_lesson": 1"#));
    assert!(!is_lesson(""));
}

#[test]
fn deep_nesting_is_skipped_without_the_call_stack() {
    let deep = format!("{}0{}", "[{\"a\":".repeat(200_000), "}]".repeat(200_000));
    assert_eq!(whole(&deep, |r| r.skip()), Some(()));
    assert_eq!(whole(&deep[1..], |r| r.skip()), None);
}

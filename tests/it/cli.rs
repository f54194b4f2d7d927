//! The command line refuses what it does not understand (exit 2 and a message) and bounds the
//! work it is asked for.

use std::process::Command;

fn lockstep(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_lockstep"))
        .args(args)
        .output()
        .expect("the lockstep binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn unknown_flags_and_flags_without_values_are_refused() {
    for args in [
        &["run", "--scenario", "queue", "--stpes", "5"][..],
        &["run", "--scenario", "queue", "--seed"],
        &["run", "--scenario", "--seed", "4"],
        &["run", "--scenario", "queue", "stray"],
        &["scenarios", "--lnag", "zh"],
        &["matrix", "--jsn"],
    ] {
        let (code, out, err) = lockstep(args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(out.is_empty(), "{args:?} printed {out}");
        assert!(err.contains("lockstep: "), "{args:?}: {err}");
    }
    let (_, _, err) = lockstep(&["run", "--scenario", "queue", "--stpes", "5"]);
    assert!(err.contains("\"--stpes\""), "{err}");
}

#[test]
fn steps_are_bounded() {
    let (code, _, err) = lockstep(&[
        "run",
        "--scenario",
        "herd",
        "--steps",
        "18446744073709551615",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("up to 250000"), "{err}");
    let (code, out, _) = lockstep(&["run", "--scenario", "queue", "--steps", "20", "--seed", "3"]);
    assert_eq!(code, 0);
    assert!(out.contains("-- 20 steps"), "{out}");
}

/// Runs the binary with `args`; returns its exit status and its stderr as raw bytes.
fn lockstep_bytes(args: &[&str]) -> (i32, Vec<u8>) {
    let out = Command::new(env!("CARGO_BIN_EXE_lockstep"))
        .args(args)
        .output()
        .expect("the lockstep binary runs");
    (out.status.code().unwrap_or(-1), out.stderr)
}

#[test]
fn errors_never_echo_control_characters_to_the_terminal() {
    let dir = std::env::temp_dir().join(format!("lockstep-cli-ctl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // JSON escapes decode to ESC, BEL and NUL inside serde's and the parsers' messages; a file
    // name carries them raw (an argument cannot hold NUL).
    let evil = r#"\u001b[2J\u001b]0;owned\u0007\u0000"#;
    let scenario = dir.join("scenario.json");
    std::fs::write(&scenario, format!(r#"{{"recipe": "{evil}"}}"#)).unwrap();
    let script = dir.join("script.json");
    std::fs::write(
        &script,
        format!(r#"{{"name": "x", "ops": [{{"s": 0, "op": "{evil}"}}]}}"#),
    )
    .unwrap();
    let run = dir.join("run.json");
    std::fs::write(&run, format!(r#"{{"scenario": {{"{evil}": 1}}}}"#)).unwrap();
    let missing = dir.join("no\u{1b}[31mfile\u{7}\u{9b}2J\u{202e}.json");
    let paths = [&scenario, &script, &run, &missing].map(|p| p.to_str().unwrap().to_owned());
    let cases: Vec<Vec<&str>> = vec![
        vec!["run", "--scenario", &paths[0]],
        vec!["run", "--scenario", &paths[2]],
        vec!["run", "--scenario", &paths[3]],
        vec!["replay", &paths[1]],
        vec!["replay", &paths[3]],
        vec!["run", "--scenario", "\u{1b}[31mqueue\u{7}"],
        vec!["run", "--scenario", "queue", "--seed", "\u{1b}\u{7}"],
        vec!["run", "--scenario", "queue", "--lang", "\u{1b}\u{7}"],
        vec!["run", "--scenario", "queue", "--\u{1b}[2J\u{7}"],
        vec!["\u{1b}[2J\u{7}"],
    ];
    for args in &cases {
        let (code, err) = lockstep_bytes(args);
        assert_eq!(code, 2, "{args:?}: {}", String::from_utf8_lossy(&err));
        let text = String::from_utf8_lossy(&err);
        assert!(text.starts_with("lockstep: "), "{args:?}: {text}");
        let raw: Vec<u8> = err
            .iter()
            .copied()
            .filter(|b| (*b < 0x20 && *b != b'\n') || *b == 0x7f)
            .collect();
        assert!(raw.is_empty(), "{args:?} echoed {raw:?}: {text}");
        // Nor C1's one-character CSI, nor a right-to-left override that reorders the line.
        assert!(!text.contains(['\u{9b}', '\u{202e}']), "{args:?}: {text}");
    }
    // What it shows instead: the characters as escapes, so the message still says what was read.
    let (_, err) = lockstep_bytes(&["run", "--scenario", &paths[3]]);
    let text = String::from_utf8_lossy(&err);
    assert!(
        text.contains(r"no\u{1b}[31mfile\u{7}\u{9b}2J\u{202e}.json"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `std::env::args()` panics (exit 101) on an argument that is not UTF-8.
#[cfg(unix)]
#[test]
fn an_argument_that_is_not_utf8_is_refused_with_a_message() {
    use std::os::unix::ffi::OsStrExt;
    let bad = std::ffi::OsStr::from_bytes(b"run\xff");
    let out = Command::new(env!("CARGO_BIN_EXE_lockstep"))
        .arg(bad)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not valid UTF-8"));
}

#[test]
fn oversized_scripts_and_scenario_files_are_refused_before_they_are_read() {
    let dir = std::env::temp_dir().join(format!("lockstep-cli-big-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Sparse: 16 MiB and one byte of nothing, never read.
    let big = dir.join("big.json");
    let file = std::fs::File::create(&big).unwrap();
    file.set_len((16 << 20) + 1).unwrap();
    let (code, out, err) = lockstep(&["replay", big.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty());
    assert!(
        err.contains("is larger than 16777216 bytes, the most a replay script may be"),
        "{err}"
    );
    // A scenario file: 4 MiB.
    file.set_len((4 << 20) + 1).unwrap();
    let (code, _, err) = lockstep(&["run", "--scenario", big.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("is larger than 4194304 bytes, the most a scenario file may be"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_replay_whose_output_reaches_its_limit_says_so() {
    let dir = std::env::temp_dir().join(format!("lockstep-cli-cut-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // 200 sessions each list 1,000 children: 32 times the script plus 1 MiB is not enough.
    let mut ops = vec![r#"{"s":0,"op":"connect"}"#.to_string()];
    ops.push(r#"{"s":0,"op":"create","path":"/t"}"#.into());
    ops.extend((0..1000).map(|i| format!(r#"{{"s":0,"op":"create","path":"/t/{i}"}}"#)));
    for s in 1..=200 {
        ops.push(format!(r#"{{"s":{s},"op":"connect"}}"#));
        ops.push(format!(r#"{{"s":{s},"op":"get_children","path":"/t"}}"#));
    }
    let text = format!(r#"{{"name":"cut","ops":[{}]}}"#, ops.join(","));
    let script = dir.join("cut.json");
    std::fs::write(&script, &text).unwrap();
    let (code, out, err) = lockstep(&["replay", script.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let limit = 32 * text.len() + (1 << 20);
    assert!(out.len() <= limit + 1024, "{} bytes", out.len());
    let doc: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert!(
        doc["truncated"]["reason"].is_string(),
        "{}",
        doc["truncated"]
    );
    assert!(
        err.contains(&format!("the output stopped at its limit of {limit} bytes")),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 54: a run that breaks the service's own protocol says so in the summary (the Zab
/// monitor's verdict used to reach only the step records).
#[test]
#[cfg_attr(
    not(feature = "services"),
    ignore = "an ensemble needs the services feature"
)]
fn a_broken_protocol_reaches_the_summary() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/reproducers/ensemble-empty-restart-stale-vote-empty-leader-diverges.json"
    );
    let (code, out, err) = lockstep(&["run", "--scenario", file, "--steps", "20000"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("-- protocol broken at step 463: zk-1 leads epoch 2 without every committed transaction"),
        "{}",
        out.lines().rev().take(3).collect::<Vec<_>>().join("\n")
    );
}

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

//! Replays every recorded fidelity script (tests/fidelity/scripts) through the engine and
//! compares with what a real ZooKeeper 3.8 answered (tests/fidelity/expected), plus the three
//! format examples shipped in shared/reference.

use std::path::{Path, PathBuf};

use serde_json::Value;

fn scripts(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    v.retain(|p| p.to_string_lossy().ends_with(".script.json"));
    v.sort();
    v
}

/// The first differing op (or the final tree), rendered for a readable failure.
fn first_difference(ours: &Value, real: &Value) -> String {
    let (a, b) = (ours["ops"].as_array(), real["ops"].as_array());
    if let (Some(a), Some(b)) = (a, b) {
        for (x, y) in a.iter().zip(b) {
            if x != y {
                return format!("op {}:\n  engine: {x}\n  real:   {y}", y["i"]);
            }
        }
        if a.len() != b.len() {
            return format!("op count {} vs {}", a.len(), b.len());
        }
    }
    format!(
        "final_tree:\n  engine: {}\n  real:   {}",
        ours["final_tree"], real["final_tree"]
    )
}

fn check_dir(scripts_dir: &Path, expected_dir: &Path) -> usize {
    let mut failures = Vec::new();
    let all = scripts(scripts_dir);
    for script in &all {
        let name = script
            .file_name()
            .unwrap()
            .to_string_lossy()
            .replace(".script.json", "");
        let expected_path = expected_dir.join(format!("{name}.expected.json"));
        let expected: Value =
            serde_json::from_str(&std::fs::read_to_string(&expected_path).expect("expected file"))
                .unwrap();
        let text = std::fs::read_to_string(script).unwrap();
        let ours = lockstep::replay::run(&lockstep::replay::parse(&text).expect("script parses"));
        if ours != expected {
            failures.push(format!("{name}: {}", first_difference(&ours, &expected)));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} scripts differ from the real server:\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
    all.len()
}

#[test]
fn engine_matches_recordings_of_real_zookeeper() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fidelity");
    let n = check_dir(&root.join("scripts"), &root.join("expected"));
    assert!(n >= 30, "expected at least 30 fidelity scripts, found {n}");
}

#[test]
fn shared_reference_examples_reproduce() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/reference/replay-examples");
    if dir.is_dir() {
        assert_eq!(check_dir(&dir, &dir), 3);
    }
}

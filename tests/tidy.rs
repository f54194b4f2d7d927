//! Architecture invariants, enforced: every source file opens with a `//!` line saying what it
//! owns; the engine, recipes and simulator never read a clock, never use OS randomness and never
//! iterate a HashMap; nothing outside `ui` mentions Leptos or web-sys; files stay reviewable.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn sources() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for d in ["src", "tests", "benches"] {
        rust_files(&root.join(d), &mut files);
    }
    files.sort();
    files
        .into_iter()
        .map(|p| (p.strip_prefix(root).unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).unwrap()))
        .collect()
}

#[test]
fn every_file_opens_with_a_module_doc_line() {
    let bad: Vec<String> = sources().into_iter().filter(|(_, text)| !text.starts_with("//!")).map(|(p, _)| p).collect();
    assert!(bad.is_empty(), "files without a leading //! line: {bad:?}");
}

#[test]
fn the_model_layers_are_deterministic_and_io_free() {
    let forbidden = ["Instant::", "SystemTime", "HashMap<", "HashMap::", "thread_rng", "getrandom", "std::fs", "std::net", "leptos", "web_sys"];
    for (path, text) in sources() {
        let model = ["src/engine/", "src/services/", "src/recipes/", "src/sim/"].iter().any(|d| path.starts_with(d));
        if !model {
            continue;
        }
        for word in forbidden {
            assert!(!text.contains(word), "{path} mentions `{word}`");
        }
    }
}

#[test]
fn only_the_ui_knows_leptos() {
    for (path, text) in sources() {
        if !path.starts_with("src/ui/") && !path.starts_with("tests/tidy.rs") {
            assert!(!text.contains("leptos::"), "{path} uses leptos outside src/ui");
        }
    }
}

#[test]
fn source_files_stay_reviewable() {
    for (path, text) in sources() {
        let lines = text.lines().count();
        assert!(lines <= 400, "{path} has {lines} lines; split it");
    }
}

//! Architecture invariants, enforced: every source file opens with a `//!` line saying what it
//! owns; the model layers never read a clock, never use OS randomness and never iterate a
//! HashMap or use a process-seeded hasher; imports point one way (narrate, engine ← services ←
//! recipes ← sim ← view ← ui); nothing outside `ui` mentions Leptos or web-sys; the `services`
//! feature gates modules and enum variants only; files stay reviewable (`scripts/test.sh` runs
//! `cargo fmt --check` too).

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
        .map(|p| {
            (
                p.strip_prefix(root).unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect()
}

/// The code of a file without its comments (so prose may name anything).
fn code(text: &str) -> String {
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whether `word` occurs as a whole identifier (so `JavaHashSet`, Java's iteration order
/// modelled deterministically, is not `HashSet`).
fn mentions(code: &str, word: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    code.match_indices(word)
        .any(|(i, _)| !code[..i].ends_with(ident) && !code[i + word.len()..].starts_with(ident))
}

/// The layer of a source file under `src/`, by its top folder.
fn layer(path: &str) -> Option<&str> {
    let rest = path.strip_prefix("src/")?;
    let top = rest.split('/').next()?;
    Some(top.strip_suffix(".rs").unwrap_or(top))
}

/// What each layer may import from the crate (besides itself).
fn allowed(layer: &str) -> &'static [&'static str] {
    match layer {
        "narrate" | "engine" | "sort" => &[],
        "services" => &["engine", "narrate"],
        "replay" => &["engine"],
        "recipes" => &["engine", "services", "narrate"],
        "sim" => &["engine", "services", "recipes", "narrate"],
        "view" => &["engine", "services", "recipes", "narrate", "sim"],
        "ui" => &["engine", "services", "recipes", "narrate", "sim", "view"],
        _ => &[
            "engine", "services", "recipes", "narrate", "sim", "view", "replay",
        ],
    }
}

const LAYERS: [&str; 9] = [
    "narrate", "engine", "services", "replay", "recipes", "sim", "view", "ui", "cli",
];

#[test]
fn every_file_opens_with_a_module_doc_line() {
    let bad: Vec<String> = sources()
        .into_iter()
        .filter(|(_, text)| !text.starts_with("//!"))
        .map(|(p, _)| p)
        .collect();
    assert!(bad.is_empty(), "files without a leading //! line: {bad:?}");
}

#[test]
fn imports_point_one_way() {
    let mut bad = Vec::new();
    for (path, text) in sources() {
        let Some(me) = layer(&path) else { continue };
        let code = code(&text);
        for other in LAYERS
            .iter()
            .filter(|l| **l != me && !allowed(me).contains(l))
        {
            if code.contains(&format!("crate::{other}::"))
                || code.contains(&format!("crate::{other};"))
                || code.contains(&format!("crate::{other}::{{"))
            {
                bad.push(format!("{path} imports {other}"));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "imports against the layers:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_model_layers_are_deterministic_and_io_free() {
    let forbidden = [
        "Instant::",
        "SystemTime",
        "HashMap",
        "HashSet",
        "DefaultHasher",
        "RandomState",
        "thread_rng",
        "getrandom",
        "std::fs",
        "std::net",
        "leptos",
        "web_sys",
    ];
    for (path, text) in sources() {
        let model = [
            "src/narrate/",
            "src/engine/",
            "src/services/",
            "src/recipes/",
            "src/sim/",
            "src/view/",
        ]
        .iter()
        .any(|d| path.starts_with(d));
        if !model {
            continue;
        }
        let code = code(&text);
        for word in forbidden {
            let hit = if word.ends_with("::") || word.contains("::") {
                code.contains(word)
            } else {
                mentions(&code, word)
            };
            assert!(!hit, "{path} mentions `{word}`");
        }
    }
}

#[test]
fn only_the_ui_knows_leptos() {
    for (path, text) in sources() {
        if !path.starts_with("src/ui/") && !path.starts_with("tests/it/tidy.rs") {
            assert!(
                !text.contains("leptos::"),
                "{path} uses leptos outside src/ui"
            );
        }
    }
}

/// The lean bundle is the full one minus whole modules and enum variants: no stub files (but
/// one, the ZooKeeper ensemble's uninhabited stand-in, `no_ensemble.rs`), no `#[path]` swaps,
/// no crate-wide `allow`, and few places that name the feature (or the studio page's feature,
/// which gates the animated export and the lesson editor the same way).
#[test]
fn the_services_feature_gates_modules_and_variants_only() {
    let mut sites = Vec::new();
    for (path, text) in sources().into_iter().filter(|(p, _)| p.starts_with("src/")) {
        assert!(
            !text.contains("#[path"),
            "{path} swaps a module with #[path]"
        );
        assert!(
            !text.contains("#![allow") && !text.contains("#![cfg_attr"),
            "{path} has a crate-wide attribute"
        );
        // A `#[cfg]` on a module declaration gates a whole module: those are not counted.
        let code = code(&text);
        let lines: Vec<&str> = code.lines().collect();
        let n = lines
            .iter()
            .enumerate()
            .filter(|(i, l)| {
                let gate = lines.get(i + 1).is_some_and(|next| is_mod_decl(next));
                (l.contains("feature = \"services\"") || l.contains("feature = \"studio\""))
                    && !gate
            })
            .count();
        if n > 0 {
            sites.push(format!("{path}: {n}"));
        }
    }
    let total: usize = sites
        .iter()
        .map(|s| s.rsplit(' ').next().unwrap().parse::<usize>().unwrap())
        .sum();
    assert!(
        total <= 18,
        "{total} sites name the services or studio feature:\n{}",
        sites.join("\n")
    );
}

/// A file holds one responsibility; this cap only catches a file that has clearly grown a
/// second one (the longest legitimate files are match dispatchers and view bodies). Split by
/// responsibility, never just to get under a count.
#[test]
fn source_files_stay_reviewable() {
    for (path, text) in sources() {
        let lines = text.lines().count();
        assert!(
            lines <= 600,
            "{path} has {lines} lines: has it grown a second responsibility?"
        );
    }
}

/// `mod name;` or `pub mod name;` (a file module's declaration).
fn is_mod_decl(line: &str) -> bool {
    let t = line.trim();
    let t = t
        .strip_prefix("pub(crate) ")
        .or_else(|| t.strip_prefix("pub "))
        .unwrap_or(t);
    t.strip_prefix("mod ")
        .is_some_and(|rest| rest.ends_with(';'))
}

/// rustfmt does not reach a module declared inside a macro (rustfmt issue 3253): every
/// module declaration stands at the top level of its file.
#[test]
fn no_module_is_declared_inside_a_macro() {
    for (path, text) in sources().into_iter().filter(|(p, _)| p.starts_with("src/")) {
        for (i, line) in code(&text).lines().enumerate() {
            assert!(
                !(is_mod_decl(line) && line.starts_with(char::is_whitespace)),
                "{path}:{}: a module declared inside a block or macro: {line}",
                i + 1
            );
        }
        assert!(
            !text.contains("$i:item"),
            "{path}: a macro that takes items (modules in it escape cargo fmt)"
        );
    }
}

/// Per-service presentation lives in each service's module (`ServiceKind::look`): the view and
/// the UI never name a service, so a new one changes neither.
#[test]
fn the_view_and_the_ui_never_match_on_a_service() {
    for (path, text) in sources() {
        let shown = path.starts_with("src/view/") || path.starts_with("src/ui/");
        if !shown || path.ends_with("/tests.rs") {
            continue;
        }
        let code = code(&text);
        let body = code.split("#[cfg(test)]").next().unwrap_or("");
        let body = body.split("#[cfg(all(test").next().unwrap_or("");
        assert!(
            !body.contains("ServiceKind::"),
            "{path} names a service (ServiceKind::…): move the presentation into the service's Look"
        );
    }
}

//! `docs/presets.md`, the authors' table of every preset and course chapter with its key
//! frames (the steps an embed's `at`, `start` and `end` and a lesson's stops name), is
//! generated from the runs themselves: this test fails when it is stale and, with
//! `LOCKSTEP_BLESS=1`, writes it anew.

use lockstep::sim::{moments, presets, Lang, Simulation};
use lockstep::view::learn::{course, Body};

fn key_frames(sim: &Simulation, kinds: &[moments::Kind]) -> String {
    let found = moments::find(sim, kinds);
    let mut steps: Vec<String> = Vec::new();
    for m in &found {
        let s = format!("{} {}", m.step, m.evidence());
        if !steps.contains(&s) {
            steps.push(s);
        }
    }
    steps.join(", ")
}

fn table() -> String {
    let mut out = String::from(
        "# Presets and chapters, with their key frames\n\n\
         Generated from the runs by `tests/it/docs_presets.rs` (`LOCKSTEP_BLESS=1 cargo test --test it \
         docs_presets::` writes it anew). A key frame is a step where playback stops and the \
         caption explains; its name is the timeline's `data-evidence` and the embed API's \
         `keyFrame`. Use the steps in a link's `at`, `start` and `end`, or in a lesson's \
         stops. The page column says which page runs it: `index.html` (the lean first page) \
         or `full.html` (every lock service, the course, compare mode).\n\n\
         | preset | title | page | steps | key frames (step name) |\n|---|---|---|---|---|\n",
    );
    for p in presets::all() {
        let mut sim = Simulation::new(p.scenario());
        sim.compute_ahead(20_000, 400);
        let page = if presets::is_service_preset(p.id) {
            "full.html"
        } else {
            "index.html"
        };
        out.push_str(&format!(
            "| `{}` | {} | {page} | {} | {} |\n",
            p.id,
            p.title(Lang::En),
            sim.len(),
            key_frames(&sim, p.moments)
        ));
    }
    out.push_str(
        "\n## Course chapters\n\nEach opens with `?learn=<id>` on `full.html` (the lean page \
         hands the course over), in an embed with `&embed=1`.\n\n\
         | chapter | title | preset | key frames (step name) |\n|---|---|---|---|\n",
    );
    for ch in course() {
        let frames = match (ch.body(), ch.preset().and_then(presets::find)) {
            (Body::Run, Some(p)) => {
                let mut sim = Simulation::new(p.scenario());
                sim.compute_ahead(20_000, 400);
                key_frames(&sim, &ch.kinds())
            }
            (Body::Search { .. }, _) => "the exhaustive search, in the page".to_string(),
            _ => String::new(),
        };
        out.push_str(&format!(
            "| `{}` | {} | {} | {frames} |\n",
            ch.id,
            ch.title(Lang::En),
            ch.preset().map_or(String::new(), |p| format!("`{p}`"))
        ));
    }
    out
}

#[test]
fn the_authors_table_of_presets_is_up_to_date() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/presets.md");
    let want = table();
    if std::env::var("LOCKSTEP_BLESS").is_ok() {
        std::fs::write(path, &want).unwrap();
    }
    let have = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        have == want,
        "docs/presets.md is stale: LOCKSTEP_BLESS=1 cargo test --test it docs_presets:: writes it"
    );
}

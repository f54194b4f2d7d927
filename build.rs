//! The course's lesson files (`lessons/*.json`, in their numbered order) become a table of
//! static rows (`$OUT_DIR/course.rs`, read by `view/learn/builtin.rs`), so the lean first page
//! reads no lesson JSON: an author's lesson opens in the full bundle, which has the reader
//! (`view/learn/lesson.rs`). The files stay the one source; a native test checks that the
//! reader sees the same chapters.

use serde_json::Value;
use std::fmt::Write as _;

fn main() {
    println!("cargo:rerun-if-changed=lessons");
    let mut files: Vec<_> = std::fs::read_dir("lessons")
        .expect("lessons/")
        .map(|e| e.expect("a lesson file").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let mut out = String::from("&[\n");
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
        let text = std::fs::read_to_string(f).expect("a lesson file");
        let v: Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        chapter(&mut out, &v, &f.display().to_string());
    }
    out.push_str("]\n");
    let dir = std::env::var("OUT_DIR").expect("OUT_DIR");
    std::fs::write(std::path::Path::new(&dir).join("course.rs"), out).expect("course.rs");
}

/// `lost_wakeup` → `LostWakeup`.
fn camel(s: &str) -> String {
    s.split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
        })
        .collect()
}

/// `"en", "zh"` of a text (empty where absent).
fn text(v: &Value) -> String {
    let get = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("");
    format!("{:?}, {:?}", get("en"), get("zh"))
}

fn chapter(out: &mut String, v: &Value, file: &str) {
    for k in ["scenario", "cmds"] {
        assert!(
            v.get(k).is_none(),
            "{file}: a built-in chapter runs a preset (no `{k}`)"
        );
    }
    assert_eq!(v["lockstep_lesson"].as_u64(), Some(1), "{file}: version 1");
    let preset = match v.get("preset").and_then(Value::as_str) {
        Some(p) => format!("Some({p:?})"),
        None => "None".into(),
    };
    let null = Value::Null;
    let mut stops = String::new();
    for s in v
        .get("stops")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let kind = |k: &str, ty: &str| match s.get(k).and_then(Value::as_str) {
            Some(name) => format!("Some({ty}::{})", camel(name)),
            None => "None".into(),
        };
        let step = s
            .get("step")
            .and_then(Value::as_u64)
            .map_or("None".into(), |n| format!("Some({n})"));
        let _ = write!(
            stops,
            "({step}, {}, {}, [{}, {}]), ",
            kind("at", "Kind"),
            kind("ask", "Ask"),
            text(s.get("title").unwrap_or(&null)),
            text(s.get("text").unwrap_or(&null)),
        );
    }
    let mut hunts = String::new();
    for h in v
        .get("search")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let _ = write!(
            hunts,
            "Hunt {{ recipe: RecipeKind::{}, clients: {}, allow_close: {}, task: {} }}, ",
            camel(h["recipe"].as_str().expect("a hunt's recipe")),
            h["clients"].as_u64().expect("a hunt's clients"),
            h["allow_close"].as_bool().unwrap_or(false),
            h.get("task")
                .and_then(Value::as_str)
                .map_or("None".into(), |t| format!(
                    "Some(Starter::{})",
                    camel(&t.replace('-', "_"))
                )),
        );
    }
    let _ = writeln!(
        out,
        "({:?}, [{}, {}, {}], {preset}, &[{stops}], &[{hunts}], {}),",
        v["id"].as_str().expect("id"),
        text(&v["title"]),
        text(v.get("intro").unwrap_or(&null)),
        text(v.get("takeaway").unwrap_or(&null)),
        v.get("matrix").and_then(Value::as_bool).unwrap_or(false),
    );
}

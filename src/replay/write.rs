//! Writing a replay's output while it runs, op by op, in the layout of `serde_json`'s pretty
//! printer, within an output limit: an op's record or a final-tree entry that would take the
//! output past it is not written; the document then ends with a `truncated` note instead.

use std::io::{self, Write};

use serde_json::{json, Value};

use super::run::Runner;
use super::script::Script;
use super::{OUTPUT_EXTRA, OUTPUT_PER_SCRIPT_BYTE};

/// What a replay wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Ops in the script, and ops run and written.
    pub ops: usize,
    pub written: usize,
    /// Bytes written, and the limit they had.
    pub bytes: u64,
    pub limit: u64,
    /// The output stopped at its limit (the document says where).
    pub truncated: bool,
}

/// The most output a script of `script_bytes` bytes may produce (besides the closing note).
pub fn output_limit(script_bytes: usize) -> u64 {
    OUTPUT_PER_SCRIPT_BYTE * script_bytes as u64 + OUTPUT_EXTRA
}

/// Counts what goes through.
struct Counted<'w> {
    out: &'w mut dyn Write,
    bytes: u64,
}

impl Counted<'_> {
    fn put(&mut self, s: &str) -> io::Result<()> {
        self.bytes += s.len() as u64;
        self.out.write_all(s.as_bytes())
    }
    /// Writes `sep` and `piece` if both fit under `limit`.
    fn fits(&mut self, limit: u64, sep: &str, piece: &str) -> io::Result<bool> {
        if self.bytes + (sep.len() + piece.len()) as u64 > limit {
            return Ok(false);
        }
        self.put(sep)?;
        self.put(piece)?;
        Ok(true)
    }
}

/// `v` pretty-printed as a value nested `depth` levels deep (two spaces a level).
fn pretty(v: &Value, depth: usize) -> String {
    let text = serde_json::to_string_pretty(v).unwrap_or_default();
    text.replace('\n', &format!("\n{}", "  ".repeat(depth)))
}

/// Runs `script` and writes its output document to `out`, stopping at `limit` bytes.
pub fn write(script: &Script, limit: u64, out: &mut dyn Write) -> io::Result<Summary> {
    let mut w = Counted { out, bytes: 0 };
    let mut runner = Runner::new();
    w.put(&format!(
        "{{\n  \"name\": {},\n  \"ops\": [",
        json!(script.name)
    ))?;
    let mut written = 0;
    for (i, op) in script.ops.iter().enumerate() {
        let record = format!("    {}", pretty(&runner.step(i, op), 2));
        if !w.fits(limit, if i == 0 { "\n" } else { ",\n" }, &record)? {
            break;
        }
        written += 1;
    }
    w.put(if written > 0 { "\n  ]" } else { "]" })?;
    let mut summary = Summary {
        ops: script.ops.len(),
        written,
        bytes: 0,
        limit,
        truncated: written < script.ops.len(),
    };
    let mut note = None;
    if summary.truncated {
        note = Some(format!(
            "ops {written} to {} were not run, and the final tree is not shown",
            script.ops.len() - 1
        ));
    } else {
        w.put(",\n  \"final_tree\": {")?;
        let mut shown = 0;
        for (path, node) in runner.final_tree() {
            let entry = format!("    {}: {}", json!(path), pretty(&node, 2));
            if !w.fits(limit, if shown == 0 { "\n" } else { ",\n" }, &entry)? {
                summary.truncated = true;
                break;
            }
            shown += 1;
        }
        w.put(if shown > 0 { "\n  }" } else { "}" })?;
        if summary.truncated {
            let all = runner.tree_len();
            note = Some(format!(
                "every op ran; the final tree stops after {shown} of its {all} znodes"
            ));
        }
    }
    if let Some(what) = note {
        let truncated = json!({
            "limit_bytes": limit,
            "ops_written": written,
            "reason": format!(
                "the output reached its limit of {limit} bytes ({OUTPUT_PER_SCRIPT_BYTE} times \
                 the script's size, plus {OUTPUT_EXTRA} bytes); {what}"
            ),
        });
        w.put(&format!(",\n  \"truncated\": {}", pretty(&truncated, 1)))?;
    }
    w.put("\n}\n")?;
    summary.bytes = w.bytes;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCRIPT: &str = r#"{"name":"t","ops":[{"s":1,"op":"connect"},
        {"s":1,"op":"create","path":"/a"},{"s":1,"op":"create","path":"/b"}]}"#;

    fn written(limit: u64) -> (Summary, Value, String) {
        let script = super::super::parse(SCRIPT).expect("parses");
        let mut out = Vec::new();
        let summary = write(&script, limit, &mut out).expect("writes");
        let doc = serde_json::from_slice(&out).expect("JSON");
        (summary, doc, String::from_utf8(out).expect("UTF-8"))
    }

    #[test]
    fn a_cut_in_the_final_tree_keeps_every_op_and_says_so() {
        let (whole, doc, text) = written(u64::MAX);
        assert!(!whole.truncated && doc.get("truncated").is_none());
        assert_eq!(doc["final_tree"].as_object().map(|m| m.len()), Some(2));
        // Room for every op and one znode, not two.
        let second = text.find(r#""/b": {"#).expect("/b in the tree") as u64;
        let (cut, doc, _) = written(second);
        assert!(cut.truncated && cut.written == 3 && cut.bytes <= whole.bytes);
        assert_eq!(doc["final_tree"].as_object().map(|m| m.len()), Some(1));
        let reason = doc["truncated"]["reason"].as_str().unwrap_or_default();
        assert!(
            reason.ends_with("the final tree stops after 1 of its 2 znodes"),
            "{reason}"
        );
        // No room for any op: an empty list and the note.
        let (none, doc, _) = written(10);
        assert_eq!(
            (none.written, doc["ops"].as_array().map(Vec::len)),
            (0, Some(0))
        );
        assert_eq!(doc["truncated"]["ops_written"], 0);
    }
}

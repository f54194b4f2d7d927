//! Replay scripts with many sessions, ops or watchers stay within bounds set by the script's
//! size: peak heap (counted by a global allocator, as in `fuzz.rs`), output bytes, and refusal
//! of oversized input while reading it, with a message naming the limit. The generators are
//! the hostile harness's shapes at small sizes; nothing is timed.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use lockstep::replay::{self, MAX_CONNECTS, MAX_OPS, MAX_OP_BYTES};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(l) };
        if !p.is_null() {
            let now = LIVE.fetch_add(l.size(), Ordering::Relaxed) + l.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) };
        LIVE.fetch_sub(l.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// One measurement at a time (tests run on threads of one process).
static SERIAL: Mutex<()> = Mutex::new(());

/// `f`'s result and the most heap it held at once beyond what was live before.
fn peak<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let out = f();
    (out, PEAK.load(Ordering::Relaxed).saturating_sub(before))
}

fn script(ops: impl IntoIterator<Item = String>) -> String {
    let ops: Vec<String> = ops.into_iter().collect();
    format!("{{\"name\":\"bounds\",\"ops\":[{}]}}", ops.join(","))
}

/// `n` sessions, each with an ephemeral and a watch, then every session closes.
fn sessions(n: usize) -> String {
    let mut ops = Vec::new();
    ops.extend((0..n).map(|i| format!(r#"{{"s":{i},"op":"connect"}}"#)));
    ops.extend(
        (0..n).map(|i| format!(r#"{{"s":{i},"op":"create","path":"/e{i}","mode":"ephemeral"}}"#)),
    );
    ops.extend((0..n).map(|i| format!(r#"{{"s":{i},"op":"exists","path":"/w{i}","watch":true}}"#)));
    ops.extend((0..n).map(|i| format!(r#"{{"s":{i},"op":"close"}}"#)));
    script(ops)
}

#[test]
fn twenty_thousand_sessions_take_memory_linear_in_the_script() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let text = sessions(20_000);
    // The whole output in memory (what the fuzzer and tests use): the script, its parsed ops and
    // the output text, never a JSON tree of all of it.
    let (out, used) = peak(|| replay::replay_text(&text).expect("runs"));
    println!(
        "replay_text: {used} bytes of heap for {} script bytes",
        text.len()
    );
    assert!(
        used <= 40 * text.len(),
        "{used} bytes of heap for a {} byte script",
        text.len()
    );
    assert!(out.len() as u64 <= replay::output_limit(text.len()));
    // Streamed (what the CLI does): the parsed script and the server, not the output.
    let script = replay::parse(&text).expect("parses");
    let (summary, used) =
        peak(|| replay::write(&script, u64::MAX, &mut std::io::sink()).expect("writes"));
    assert_eq!((summary.written, summary.truncated), (80_000, false));
    println!(
        "streamed: {used} bytes of heap for {} script bytes",
        text.len()
    );
    assert!(
        used <= 10 * text.len(),
        "{used} bytes of heap streaming a {} byte script",
        text.len()
    );
}

#[test]
fn arrays_are_refused_while_they_are_read_not_after() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    // Not an op at all: refused at the first element.
    let zeros = format!("{{\"ops\":[{}]}}", vec!["0"; 300_000].join(","));
    let (e, used) = peak(|| replay::parse(&zeros).unwrap_err());
    assert_eq!(e.0, "op 0: expected an object");
    assert!(
        used <= zeros.len() / 4,
        "{used} bytes to refuse {}",
        zeros.len()
    );
    // Valid ops and a bad last one: the ops read so far, not a tree of the whole array.
    let mut ops = vec![r#"{"s":0,"op":"sync"}"#.to_string(); 100_000];
    ops.push("0".into());
    let late = script(ops);
    let (e, used) = peak(|| replay::parse(&late).unwrap_err());
    assert_eq!(e.0, "op 100000: expected an object");
    println!(
        "{used} bytes of heap to refuse {} bytes at its last op",
        late.len()
    );
    assert!(
        used <= 8 * late.len(),
        "{used} bytes to refuse {}",
        late.len()
    );
    // One op carrying a huge array: refused by its size, before it is built.
    let junk = format!(
        r#"{{"ops":[{{"s":0,"op":"connect","junk":[{}]}}]}}"#,
        vec!["0"; MAX_OP_BYTES / 2].join(",")
    );
    let (e, used) = peak(|| replay::parse(&junk).unwrap_err());
    assert!(
        e.0.starts_with("op 0: ") && e.0.contains("1048576 bytes"),
        "{}",
        e.0
    );
    assert!(
        used <= junk.len() / 4,
        "{used} bytes to refuse {}",
        junk.len()
    );
}

#[test]
fn op_and_session_counts_are_limited_with_a_message_naming_the_limit() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let many = script((0..=MAX_OPS).map(|_| r#"{"s":0,"op":"sync"}"#.to_string()));
    let e = replay::parse(&many).unwrap_err();
    assert_eq!(
        e.0,
        format!(
            "op {MAX_OPS}: the script has more than {MAX_OPS} operations (multi sub-ops count), \
             the most a replay runs"
        )
    );
    let sub = r#"{"op":"check","path":"/"}"#;
    let multi = format!(
        r#"{{"s":0,"op":"multi","ops":[{}]}}"#,
        vec![sub; 999].join(",")
    );
    let e = replay::parse(&script(vec![multi; MAX_OPS / 1000 + 1])).unwrap_err();
    assert!(
        e.0.contains(&format!("more than {MAX_OPS} operations")),
        "{}",
        e.0
    );
    let connects = script((0..=MAX_CONNECTS).map(|i| format!(r#"{{"s":{i},"op":"connect"}}"#)));
    let e = replay::parse(&connects).unwrap_err();
    assert!(
        e.0.contains(&format!("more than {MAX_CONNECTS} sessions")),
        "{}",
        e.0
    );
}

/// One session's `ephemerals` under /t, then `watchers` sessions each listing /t with a watch
/// (every listing names every ephemeral), then the first session closes (firing every watch).
fn listings(ephemerals: usize, watchers: usize) -> String {
    let mut ops = vec![
        r#"{"s":0,"op":"connect"}"#.to_string(),
        r#"{"s":0,"op":"create","path":"/t"}"#.to_string(),
    ];
    ops.extend(
        (0..ephemerals)
            .map(|i| format!(r#"{{"s":0,"op":"create","path":"/t/e-{i}","mode":"ephemeral"}}"#)),
    );
    for w in 1..=watchers {
        ops.push(format!(r#"{{"s":{w},"op":"connect"}}"#));
        ops.push(format!(
            r#"{{"s":{w},"op":"get_children","path":"/t","watch":true}}"#
        ));
    }
    ops.push(r#"{"s":0,"op":"close"}"#.into());
    script(ops)
}

#[test]
fn output_is_bounded_by_a_multiple_of_the_script_and_says_where_it_stopped() {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let text = listings(2_000, 300);
    let limit = replay::output_limit(text.len());
    assert_eq!(limit, 32 * text.len() as u64 + (1 << 20));
    let out = replay::replay_text(&text).expect("runs");
    println!(
        "{} bytes of output for {} script bytes",
        out.len(),
        text.len()
    );
    // The closing note is the only thing past the limit.
    assert!(
        out.len() as u64 <= limit + 1024,
        "{} bytes of output",
        out.len()
    );
    let doc: serde_json::Value = serde_json::from_str(&out).expect("the output is JSON");
    let written = doc["ops"].as_array().map_or(0, Vec::len);
    assert_eq!(doc["truncated"]["ops_written"], written);
    assert!(written > 2_000 && written < 2_000 + 2 + 600, "{written}");
    let reason = doc["truncated"]["reason"].as_str().unwrap_or_default();
    assert!(
        reason.contains(&format!("limit of {limit} bytes")),
        "{reason}"
    );
    assert!(doc.get("final_tree").is_none());
    // Streamed, the same bytes and the same summary.
    let script = replay::parse(&text).expect("parses");
    let mut streamed = Vec::new();
    let summary = replay::write(&script, limit, &mut streamed).expect("writes");
    assert_eq!(streamed, out.as_bytes());
    assert!(summary.truncated && summary.written == written);
    assert_eq!(summary.bytes, out.len() as u64);
}

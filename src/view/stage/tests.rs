//! The stage's native tests: every preset at every key frame shows its evidence on the stage,
//! at every stage size; text never drops below the size floor; labels never contradict state;
//! entries never move.

use super::{scene, Opts};
use crate::sim::{moments, presets, Lang, Simulation};
use crate::view::frame::build;
use crate::view::plan::Plan;

fn loaded(id: &str) -> Simulation {
    let mut sim = Simulation::new(presets::find(id).unwrap().scenario());
    sim.compute_ahead(2000, 200);
    sim
}

#[test]
fn every_key_frame_shows_its_evidence_at_every_size() {
    for p in presets::all() {
        let mut sim = loaded(p.id);
        let plan = Plan::new(&sim);
        let found = moments::find(&sim, p.moments);
        for k in p.moments {
            assert!(
                found.iter().any(|m| m.kind == *k),
                "{}: no {k:?} moment",
                p.id
            );
        }
        for m in &found {
            sim.seek(m.step);
            let f = build(&sim, &plan, Lang::En);
            for (w, h) in [(1080, 720), (800, 380)] {
                let s = scene(
                    &f,
                    &Opts {
                        w,
                        h,
                        lang: Lang::En,
                    },
                );
                assert!(
                    s.has_evidence(m.evidence()),
                    "{} step {} ({:?}) at {w}x{h}: no {}",
                    p.id,
                    m.step,
                    m.kind,
                    m.evidence()
                );
            }
        }
    }
}

use crate::recipes::Recipe;
use crate::sim::client::Proc;
use crate::view::lanes::Status;

/// Every preset run to its end (or the quiet cut-off) with its plan.
fn runs() -> Vec<(&'static str, Simulation, Plan)> {
    presets::all()
        .map(|p| {
            let sim = loaded(p.id);
            let plan = Plan::new(&sim);
            (p.id, sim, plan)
        })
        .collect()
}

#[test]
fn no_client_label_contradicts_its_state_at_any_step() {
    for (id, mut sim, plan) in runs() {
        for step in 0..=sim.len() {
            sim.seek(step);
            let f = build(&sim, &plan, Lang::En);
            let w = sim.world();
            for (row, c) in f.clients.iter().zip(&w.clients) {
                let at = format!(
                    "{id} step {step} C{}: {:?} {:?}",
                    c.id + 1,
                    row.status,
                    row.label
                );
                match &row.status {
                    Status::Holds => {
                        assert!(
                            c.alive() && c.recipe.holding() && w.service.holds(w.now, &c.claim()),
                            "{at}"
                        );
                        assert!(!matches!(c.recipe, Recipe::None(_)), "{at}");
                    }
                    Status::BelievesOnly => {
                        assert!(c.alive() && c.recipe.holding() && !row.agrees, "{at}")
                    }
                    Status::Unlocked => {
                        assert!(matches!(c.recipe, Recipe::None(_)) && c.alive(), "{at}")
                    }
                    Status::Crashed => assert_eq!(c.proc, Proc::Crashed, "{at}"),
                    Status::Closed => assert_eq!(c.proc, Proc::Closed, "{at}"),
                    Status::Watches(p) => {
                        assert!(
                            c.alive()
                                && w.service
                                    .watches()
                                    .iter()
                                    .any(|x| x.conn == c.id && &x.path == p),
                            "{at}"
                        )
                    }
                    _ => assert!(c.alive() || c.proc == Proc::Closed, "{at}"),
                }
                if matches!(c.proc, Proc::Crashed) {
                    assert_eq!(row.status, Status::Crashed, "{at}");
                }
                if matches!(c.proc, Proc::Closed) {
                    assert_eq!(row.status, Status::Closed, "{at}");
                }
            }
        }
    }
}

#[test]
fn an_entry_keeps_its_place_for_its_whole_life() {
    for (id, mut sim, plan) in runs() {
        let mut before: crate::sorted::SortedMap<String, usize> = Default::default();
        for step in 0..=sim.len() {
            sim.seek(step);
            let f = build(&sim, &plan, Lang::En);
            let created = sim.current().map(|r| r.created.clone()).unwrap_or_default();
            let mut now = crate::sorted::SortedMap::new();
            for r in &f.tree {
                assert!(
                    r.row < plan.rows,
                    "{id} step {step}: {} outside the plan",
                    r.id
                );
                if let (Some(old), false) = (before.get(&r.id), created.contains(&r.id)) {
                    assert_eq!(*old, r.row, "{id} step {step}: {} moved", r.id);
                }
                now.insert(r.id.clone(), r.row);
            }
            let mut rows: Vec<usize> = f
                .tree
                .iter()
                .map(|r| r.row)
                .chain(f.ghosts.iter().map(|g| g.row))
                .collect();
            let n = rows.len();
            rows.sort();
            rows.dedup();
            assert_eq!(rows.len(), n, "{id} step {step}: two things share a row");
            before = now;
        }
    }
}

/// Identifiers, paths, commands and protocol names that Chinese text keeps as they are.
const KEPT: &[&str] = &[
    "ZooKeeper",
    "Redis",
    "etcd",
    "PostgreSQL",
    "SQL",
    "Curator",
    "kazoo",
    "Lockstep",
    "TTL",
    "PTTL",
    "ID",
    "GC",
    "GUID",
    "FIN",
    "zxid",
    "czxid",
    "mzxid",
    "pzxid",
    "revision",
    "create_revision",
    "fence",
    "token",
    "lease",
    "READ",
    "WRITE",
    "LOST",
    "SUSPENDED",
    "REQUEST",
    "PROPOSAL",
    "COMMIT",
    "PING",
    "NOTIFICATION",
    "FOLLOWERINFO",
    "NEWLEADER",
    "UPTODATE",
    "REVALIDATE",
    "SYNC",
    "DIFF",
    "SNAP",
    "TRUNC",
    "syncLimit",
    "create",
    "create2",
    "createContainer",
    "delete",
    "exists",
    "getData",
    "setData",
    "getChildren",
    "getChildren2",
    "checkWatches",
    "removeWatches",
    "ping",
    "pong",
    "connect",
    "reconnect",
    "connected",
    "closeSession",
    "close",
    "sync",
    "multi",
    "NodeCreated",
    "NodeDeleted",
    "NodeDataChanged",
    "NodeChildrenChanged",
    "NodeExists",
    "NoNode",
    "NotEmpty",
    "NoWatcher",
    "SessionExpired",
    "ConnectionLoss",
    "SyncConnected",
    "Disconnected",
    "Expired",
    "Closed",
    "ok",
    "SET",
    "NX",
    "PX",
    "EX",
    "XX",
    "GET",
    "DEL",
    "EVAL",
    "EXEC",
    "MULTI",
    "WATCH",
    "UNWATCH",
    "EXPIRE",
    "PEXPIRE",
    "SETNX",
    "INCR",
    "REPLICAOF",
    "NO",
    "ONE",
    "OK",
    "nil",
    "script",
    "lock",
    "locks",
    "leases",
    "owner",
    "SELECT",
    "INSERT",
    "UPDATE",
    "DELETE",
    "BEGIN",
    "COMMIT",
    "ROLLBACK",
    "FOR",
    "NOWAIT",
    "WHERE",
    "INTO",
    "VALUES",
    "FROM",
    "SKIP",
    "LOCKED",
    "now",
    "interval",
    "expires",
    "put",
    "txn",
    "range",
    "keepalive",
    "revoke",
    "grant",
    "watch",
    "compare",
    "rev",
    "deleted",
    "succeeded",
    "InterProcessMutex",
    "InterProcessSemaphoreV2",
    "Lock",
    "cancel",
    "CURATOR",
    "ms",
    "ticks",
    "ERROR",
    "QUEUED",
    "SQLSTATE",
    "Stat",
    "canceled",
    "created",
    "succeeded",
    "true",
    "false",
    "kvs",
    "RST",
    "EVALSHA",
    "NOSCRIPT",
    "EVAL",
    "ECONNREFUSED",
    "Redlock",
    "ioredis",
    "antirez",
    "Kleppmann",
];

/// The ASCII words of `s` that are not identifiers, paths, numbers, kept names, or inside a
/// quoted command (“SET lock … NX”).
fn english_words(s: &str) -> Vec<String> {
    let mut plain = String::new();
    let mut quoted = false;
    for c in s.chars() {
        match c {
            '“' => quoted = true,
            '”' => quoted = false,
            c if !quoted => plain.push(c),
            _ => {}
        }
    }
    plain
        .split(|c: char| !(c.is_ascii_alphanumeric() || "_/-.:<>=$*#'".contains(c)))
        .map(|tok| tok.trim_matches('\''))
        .filter(|tok| !tok.is_empty())
        .filter(|tok| tok.chars().all(|c| c.is_ascii_alphabetic() || c == '\''))
        .filter(|tok| tok.len() >= 2 && !KEPT.contains(tok))
        .filter(|tok| !(tok.len() <= 3 && tok.chars().all(|c| c.is_ascii_uppercase())))
        .map(str::to_string)
        .collect()
}

#[test]
fn chinese_text_has_no_english_words() {
    let mut bad: crate::sorted::SortedMap<String, String> = Default::default();
    for (id, mut sim, plan) in runs() {
        let p = presets::find(id).unwrap();
        let mut texts = vec![
            p.title(Lang::Zh).to_string(),
            p.lesson(Lang::Zh).to_string(),
        ];
        for m in moments::find(&sim, p.moments) {
            texts.push(m.caption(Lang::Zh));
        }
        for step in 0..=sim.len() {
            sim.seek(step);
            let f = build(&sim, &plan, Lang::Zh);
            texts.push(f.narration.clone());
            let s = scene(
                &f,
                &Opts {
                    w: 1080,
                    h: 720,
                    lang: Lang::Zh,
                },
            );
            texts.extend(
                s.texts()
                    .map(|t| t.parts.iter().map(|(p, _)| p.as_str()).collect::<String>()),
            );
        }
        for t in texts {
            for w in english_words(&t) {
                bad.entry(w).or_insert_with(|| format!("{id}: {t}"));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "English in Chinese text:\n{}",
        bad.iter()
            .map(|(w, t)| format!("  {w:12} in {t}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn the_word_filter_keeps_identifiers_and_finds_english() {
    assert!(english_words("C1 收到 create2 的应答：NodeExists /locks/lock-0000000001").is_empty());
    assert_eq!(
        english_words("收到 its request 的应答"),
        vec!["its", "request"]
    );
}

#[test]
fn a_recipe_that_stops_with_an_error_says_so_on_its_card() {
    if !crate::STUDIO {
        return; // only the studio page runs a learner's recipe (see `Source::new`)
    }
    let c = crate::sim::check::Check {
        text: "lock:\n    loop:\n        x = 1\n".into(),
        clients: 2,
        faults: Default::default(),
    };
    let mut sim = Simulation::new(c.scenario().unwrap());
    sim.compute_ahead(40, 40);
    sim.seek(20);
    let plan = Plan::new(&sim);
    for lang in [Lang::En, Lang::Zh] {
        let f = build(&sim, &plan, lang);
        let s = scene(
            &f,
            &Opts {
                w: 1080,
                h: 720,
                lang,
            },
        );
        assert!(
            s.has_evidence("recipe-error"),
            "{lang:?}: no recipe error on a card"
        );
    }
}

//! The stage of Redlock's masters: no links between masters that never talk, a crashed
//! master's key reads "crashed", a client unwinding too few votes is captioned releasing, and
//! every master's lock row keeps its owner and TTL in an 800×500 embed too; the vote and
//! expiry key frames say what the masters still hold; a connect to a down master comes back
//! refused rather than drawn lost.

use lockstep::sim::{presets, Lang, Simulation};
use lockstep::view::scene::{Scene, Shape};

use crate::common::stage;
use stage::{at, step_of, texts, SIZES};

#[test]
fn redlock_masters_that_never_talk_get_no_link_while_replication_and_a_quorum_do() {
    let has_link = |s: &Scene| s.items.iter().any(|i| i.key.starts_with("link"));
    for (w, h) in SIZES {
        let (f, s) = at("redlock-majority", 63, w, h);
        assert_eq!(f.servers.len(), 5);
        assert!(f.links.is_empty() && !has_link(&s), "redlock {w}x{h}");
        let (f, s) = at("redis-failover", 3, w, h);
        assert!(!f.links.is_empty() && has_link(&s), "redis {w}x{h}");
        let (f, s) = at("zk-leader-crash", 105, w, h);
        assert_eq!(f.links.len(), 3, "zk: every pair of three servers");
        assert!(has_link(&s), "zk {w}x{h}");
    }
}

#[test]
fn a_crashed_masters_key_reads_crashed_not_deleted() {
    let step = step_of("redlock-restart-fsync", "Fault: server redis-3 crashes");
    for (w, h) in SIZES {
        let (_, s) = at("redlock-restart-fsync", step, w, h);
        assert!(s.has_evidence("crashed"), "{w}x{h}");
        let t = texts(&s);
        assert!(!t.iter().any(|x| x == "deleted"), "{w}x{h}: {t:?}");
        assert!(t.iter().any(|x| x.starts_with("crashed")), "{w}x{h}: {t:?}");
    }
}

#[test]
fn a_redlock_client_unlocking_after_too_few_votes_is_captioned_releasing() {
    let ids = [
        "redlock-majority",
        "redlock-master-down",
        "redlock-gc-pause",
    ];
    let mut seen = 0;
    for id in ids {
        let mut sim = Simulation::new(presets::find(id).unwrap().scenario());
        sim.seek_computing_with(2000, |w, r| {
            let n = &r.narration;
            let Some(c) = n.client.filter(|_| n.phase.is_some()) else {
                return;
            };
            let unwinding = w.clients[c].recipe.tally().is_some_and(|t| t.unwinding);
            let text = n.text(Lang::En);
            if unwinding {
                seen += 1;
                assert!(text.ends_with("Now: releasing"), "{id}: {text}");
            }
        });
    }
    assert!(
        seen > 0,
        "no Redlock client unwound a failed attempt in {ids:?}"
    );
}

#[test]
fn every_redlock_masters_lock_row_names_its_owner_and_ttl_in_an_embed_too() {
    // The stage's own size in the page at 1440×900 and in an 800×500 embed.
    for (w, h) in [(1046, 733), (791, 392)] {
        let (_, s) = at("redlock-majority", 63, w, h);
        let chip = |word: &str| {
            let starts = |t: &lockstep::view::scene::Text| t.parts[0].0.starts_with(word);
            s.items
                .iter()
                .filter(|i| i.class == "ls-chip__t")
                .filter(|i| matches!(&i.shape, Shape::Text(t) if starts(t)))
                .count()
        };
        assert_eq!(chip("C1") + chip("C2"), 5, "{w}x{h}: {:?}", texts(&s));
        assert_eq!(chip("PTTL"), 5, "{w}x{h}: {:?}", texts(&s));
        // Never below the stage's type floor (12 px in an 800×500 embed, 13 at 1440×900).
        let floor = if w >= 1000 { 13 } else { 12 };
        for i in s.items.iter().filter(|i| i.class == "ls-chip__t") {
            let Shape::Text(t) = &i.shape else { continue };
            assert!(t.size >= floor, "{w}x{h}: {:?} in {} px", t.parts, t.size);
        }
        for row in s.items.iter().filter(|i| i.class == "ls-entry") {
            let Shape::Rect { y, h: rh, .. } = row.shape else {
                continue;
            };
            let inside = |i: &&lockstep::view::scene::Item| {
                matches!(i.shape, Shape::Rect { y: cy, h: ch, .. }
                    if i.class == "ls-chip" && cy >= y - 0.5 && cy < y + rh && cy + ch <= y + rh + 0.5)
            };
            let within = s
                .items
                .iter()
                .filter(|i| i.class == "ls-chip")
                .filter(inside)
                .count();
            assert!(
                within >= 2,
                "{w}x{h}: a row at y {y} has {within} chips inside it"
            );
        }
    }
}

#[test]
fn a_vote_key_frame_says_won_only_while_the_holders_key_is_on_a_majority() {
    use lockstep::sim::moments::{self, Kind};
    let mut kinds = 0;
    for p in presets::all().filter(|p| p.id.starts_with("redlock-")) {
        let mut sim = Simulation::new(p.scenario());
        sim.run_steps(20_000);
        for m in moments::find(&sim, p.moments)
            .iter()
            .filter(|m| m.kind == Kind::Quorum)
        {
            let caption = m.caption(Lang::En);
            let (_, s) = at(p.id, m.step, 1440, 900);
            let doubted = texts(&s)
                .iter()
                .any(|t| t == "the service no longer says so");
            let lost = caption.contains("still believes it holds the lock, but only");
            assert_eq!(lost, doubted, "{} #{}: {caption}", p.id, m.step);
            assert_eq!(
                caption.contains("holds the lock: a majority"),
                !lost,
                "{} #{}: {caption}",
                p.id,
                m.step
            );
            kinds |= 1 << u8::from(lost);
        }
    }
    assert_eq!(kinds & 1, 1, "a vote won is a key frame somewhere");
}

#[test]
fn a_key_running_out_while_its_client_still_waits_for_answers_says_so() {
    use lockstep::sim::moments::{self, Kind};
    let p = presets::find("redlock-master-down").unwrap();
    let mut sim = Simulation::new(p.scenario());
    sim.run_steps(20_000);
    let found = moments::find(&sim, p.moments);
    let expiry = found
        .iter()
        .find(|m| m.kind == Kind::Expiry)
        .expect("an expiry key frame");
    let caption = expiry.caption(Lang::En);
    assert!(
        caption.contains("C2 is still waiting for 1 more answer (4 of 5 votes so far)"),
        "{caption}"
    );
    let zh = expiry.caption(Lang::Zh);
    assert!(zh.contains("C2 还在等 1 个应答"), "{zh}");
}

#[test]
fn a_connect_to_a_down_master_comes_back_refused_and_is_not_drawn_lost() {
    // Steps 1 and 2 crash redis-4 and redis-5 while both clients' connects are on their way.
    for (w, h) in SIZES {
        for step in [2, 5] {
            let (f, s) = at("redlock-clock-jump", step, w, h);
            let refused = f.messages.iter().filter(|m| m.op == "ECONNREFUSED");
            assert_eq!(refused.count(), 4, "{w}x{h} step {step}: {:?}", f.messages);
            assert!(
                !f.messages.iter().any(|m| m.lost),
                "{w}x{h} step {step}: a refused connect is not a lost one: {:?}",
                f.messages
            );
            assert!(!s.has_evidence("reply-lost"), "{w}x{h} step {step}");
        }
    }
}

#[test]
fn a_master_that_restarted_empty_says_so_in_both_languages() {
    let mut sim = Simulation::new(presets::find("redlock-restart-empty").unwrap().scenario());
    sim.compute_ahead(2000, 200);
    let plan = lockstep::view::plan::Plan::new(&sim);
    sim.seek(82);
    for (lang, words) in [
        (Lang::En, "restarted empty at t=100"),
        (Lang::Zh, "t=100 时以空数据重启"),
    ] {
        let f = lockstep::view::frame::build(&sim, &plan, lang);
        let labels: Vec<&str> = f.servers.iter().map(|s| s.label.as_str()).collect();
        assert!(labels[3].ends_with(words), "{lang:?}: {labels:?}");
        assert!(labels[4].ends_with(words), "{lang:?}: {labels:?}");
    }
}

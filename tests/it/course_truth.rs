//! Teaching-truth defects found by learners (issue 52): each test states what a learner saw
//! that was false, and fails if it comes back.

use lockstep::sim::{presets, Lang, Simulation};
use lockstep::view::frame;
use lockstep::view::lanes::Status;
use lockstep::view::plan::Plan;

use crate::common::stage;

fn run(id: &str, steps: u64) -> Simulation {
    let mut sim = Simulation::new(presets::find(id).unwrap().scenario());
    sim.run_steps(steps);
    sim
}

/// `partition` #44: C1's library declares its session lost while InterProcessMutex still
/// believes it holds the lock; the sentence said "Now: holding the lock" although the server
/// had already expired C1's session and handed the lock to C2.
#[test]
fn a_sentence_never_says_holding_while_the_service_disagrees() {
    let sim = run("partition", 60);
    let r = &sim.records()[43];
    let en = r.narration.text(Lang::En);
    assert!(en.contains("declares the session lost"), "{en}");
    assert!(!en.ends_with("Now: holding the lock"), "{en}");
    assert!(en.contains("believes it holds the lock"), "{en}");
    assert!(r.narration.text(Lang::Zh).contains("以为自己持有锁"));
    // Over every preset, a sentence's "holding" agrees with the card's status at that step.
    for p in presets::all() {
        let mut sim = Simulation::new(p.scenario());
        sim.compute_ahead(600, 100);
        let plan = Plan::new(&sim);
        let n = sim.len().min(600);
        for step in 1..=n {
            let r = sim.records()[step as usize - 1].clone();
            let Some(c) = r
                .narration
                .client
                .filter(|_| r.narration.phase == Some(lockstep::recipes::Phase::Holding))
            else {
                continue;
            };
            sim.seek(step);
            let f = frame::build(&sim, &plan, Lang::En);
            let believes =
                f.clients[c].status == Status::BelievesOnly && f.clients[c].behind.is_none();
            assert_eq!(
                r.narration.believes,
                believes,
                "{} #{step}: {}",
                p.id,
                r.narration.text(Lang::En)
            );
        }
    }
}

/// "zk-3 and its leader exchange a heartbeat: ACK 0x100000007": zk-3 was the leader, and the
/// ACK acknowledged a proposal.
#[test]
fn an_ensemble_never_calls_an_ack_a_heartbeat_nor_gives_its_leader_a_leader() {
    for id in ["zk-leader-crash", "zk-minority", "zk-stale-read"] {
        let sim = run(id, 3000);
        for r in sim.records() {
            for lang in [Lang::En, Lang::Zh] {
                let t = r.narration.text(lang);
                let heartbeat = t.contains("heartbeat") || t.contains("心跳");
                assert!(!(heartbeat && t.contains("ACK")), "{id} #{}: {t}", r.index);
                assert!(!t.contains("and its leader"), "{id} #{}: {t}", r.index);
            }
        }
        let acks = sim
            .records()
            .iter()
            .filter(|r| r.narration.text(Lang::En).contains("one more ACK"))
            .count();
        assert!(acks > 0, "{id}: the third server's ACK is told as late");
    }
}

/// `redlock-restart-fsync` #82 said "C1 won the lock" at t=307; it had won before t=100.
#[test]
fn a_vote_key_frame_says_holds_not_won() {
    use lockstep::sim::moments::{self, Kind};
    let mut seen = 0;
    for p in presets::all().filter(|p| p.id.starts_with("redlock-")) {
        let sim = run(p.id, 20_000);
        for m in moments::find(&sim, p.moments)
            .iter()
            .filter(|m| m.kind == Kind::Quorum)
        {
            for lang in [Lang::En, Lang::Zh] {
                let c = m.caption(lang);
                assert!(
                    !c.contains("won the lock") && !c.contains("赢得"),
                    "{} #{}: {c}",
                    p.id,
                    m.step
                );
            }
            seen += 1;
        }
    }
    assert!(seen > 0);
}

/// `redlock-restart-delayed`: C1, the only legitimate holder, was drawn red ("believes it
/// holds — the service no longer says so") while three masters were held down past its TTL.
#[test]
fn a_holder_whose_masters_are_held_down_past_its_ttl_still_holds() {
    let id = "redlock-restart-delayed";
    let mut sim = Simulation::new(presets::find(id).unwrap().scenario());
    sim.compute_ahead(3000, 100);
    let plan = Plan::new(&sim);
    let mut held = 0;
    for step in 1..=sim.len() {
        sim.seek(step);
        if !sim.world().clients[0].recipe.holding() {
            continue;
        }
        let f = frame::build(&sim, &plan, Lang::En);
        assert_eq!(f.clients[0].status, Status::Holds, "{id} #{step}");
        held += 1;
    }
    assert!(held > 100, "C1 holds for most of the run ({held} steps)");
}

fn frame_at(id: &str, step: u64) -> frame::Frame {
    let mut sim = Simulation::new(presets::find(id).unwrap().scenario());
    sim.compute_ahead(2000, 200);
    let plan = Plan::new(&sim);
    sim.seek(step);
    frame::build(&sim, &plan, Lang::En)
}

/// `herd` drew `/lock` as a row under `locks`, so it read as `/locks/lock`.
#[test]
fn children_of_the_root_are_named_by_their_path() {
    let f = frame_at("herd", 36);
    let mut names: Vec<(&str, usize)> = f.tree.iter().map(|e| (e.name.as_str(), e.depth)).collect();
    names.sort();
    assert_eq!(names, [("/lock", 0), ("/locks", 0)]);
    assert!(
        f.clients[1].label.ends_with("/lock"),
        "a waiter watches /lock: {}",
        f.clients[1].label
    );
}

/// The matrix: "—" meant both "not suffered" and "not modelled"; messages per acquisition
/// counted pings, so the naive lock's herd disappeared.
#[test]
fn the_matrix_tells_not_modelled_from_not_applicable_and_counts_no_heartbeats() {
    use lockstep::recipes::RecipeKind;
    use lockstep::sim::matrix::{row, Outcome, Probe};
    let cell = |r: &lockstep::sim::matrix::Row, p| {
        r.outcomes
            .iter()
            .find(|(q, _, _)| *q == p)
            .map(|(_, o, s)| (o.clone(), *s))
            .unwrap()
    };
    let naive = row(RecipeKind::Naive);
    let seq = row(RecipeKind::Sequential);
    assert_eq!(cell(&naive, Probe::ClockJump).0, Outcome::NotModelled);
    assert_eq!(cell(&naive, Probe::RestartEmpty).0, Outcome::NotApplicable);
    assert_ne!(Outcome::NotModelled.name(), Outcome::NotApplicable.name());
    assert!(
        naive.messages_x10 * 2 > seq.messages_x10 * 3,
        "the herd shows: naive {} vs sequential {} messages per acquisition (tenths)",
        naive.messages_x10,
        seq.messages_x10
    );
    // A failing cell knows the step of its verdict, where the page opens its run.
    let (o, step) = cell(&naive, Probe::Pause);
    assert_eq!(o, Outcome::Fenced);
    assert!(step > 0);
}

/// `redis-setnx-repair`: "TTL −1 means nobody will ever expire it" — it can also be a live
/// holder between SETNX and EXPIRE.
#[test]
fn a_ttl_of_minus_one_is_not_said_to_mean_a_dead_holder() {
    let p = presets::find("redis-setnx-repair").unwrap();
    for lang in [Lang::En, Lang::Zh] {
        let l = p.lesson(lang);
        assert!(
            !l.contains("nobody will ever expire") && !l.contains("永远不会过期"),
            "{l}"
        );
    }
    assert!(p.lesson(Lang::En).contains("alive"));
}

/// `sql-lease`: the holder's card said "row lock", the word for what FOR UPDATE takes.
#[test]
fn a_lock_tables_row_is_never_called_a_row_lock() {
    for step in [11, 41, 50] {
        for (w, h) in stage::SIZES {
            let (_, s) = stage::at("sql-lease", step, w, h);
            let t = stage::texts(&s);
            assert!(
                !t.iter().any(|x| x.contains("row lock")),
                "sql-lease #{step} {w}x{h}: {t:?}"
            );
        }
    }
}

/// A Redis lesson says "Redis gives no token to fence with" while the stage said "fencing on ·
/// token 0".
#[test]
fn a_lock_without_tokens_never_shows_a_token() {
    let id = "redis-lease-pause";
    let mut sim = Simulation::new(presets::find(id).unwrap().scenario());
    sim.compute_ahead(2000, 200);
    let n = sim.len();
    for step in (0..=n).step_by(5) {
        let (_, s) = stage::at(id, step, 1440, 900);
        let t = stage::texts(&s).join(" | ");
        assert!(
            !t.contains("token 0") && !t.contains("highest token"),
            "{id} #{step}: {t}"
        );
        let done = t.contains("update was lost");
        assert!(done || t.contains("gives no token"), "{id} #{step}: {t}");
    }
}

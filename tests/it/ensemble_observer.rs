//! The stale-read preset (`zk-stale-read`), step by step: zk-2's links to the other servers
//! stall, C1's lock node is committed without zk-2, C2's plain read on zk-2 says the lock is
//! free (a stale read, on the stage as a key frame), its `sync` waits until the link carries
//! again, and the read after it sees C1's node. The same facts the recording
//! `stale_read_follower` shows for a real ensemble (F21, F22; `tests/it/ensemble_stale_read.rs`).

use lockstep::narrate::Phase;
use lockstep::services::zookeeper::ensemble::Ensemble;
use lockstep::services::Service;
use lockstep::sim::moments::{self, Kind};
use lockstep::sim::narrate::Key;
use lockstep::sim::{presets, Lang, Simulation};

fn ensemble(sim: &Simulation) -> &Ensemble {
    match &sim.world().service {
        Service::ZooKeeper(z) => z.ensemble.as_deref().expect("an ensemble"),
        #[allow(unreachable_patterns)]
        _ => panic!("not ZooKeeper"),
    }
}

fn has_lock(e: &Ensemble, s: usize) -> bool {
    e.members[s].db.tree().iter().any(|(p, _)| p == "/lock")
}

fn preset() -> Simulation {
    Simulation::new((presets::find("zk-stale-read").expect("preset").build)())
}

/// Steps until `done` holds for the simulation (at most 2,000 steps).
fn until(sim: &mut Simulation, done: impl Fn(&Simulation) -> bool) {
    for _ in 0..2000 {
        if done(sim) {
            return;
        }
        assert!(sim.step(), "the run ended first");
    }
    panic!("not reached in 2000 steps");
}

fn c2_phase(sim: &Simulation) -> Phase {
    sim.world().clients[1].recipe.phase()
}

#[test]
fn a_plain_read_on_the_stalled_follower_says_free_while_the_leader_has_the_lock() {
    let mut sim = preset();
    until(&mut sim, |s| matches!(c2_phase(s), Phase::Read(_)));
    assert_eq!(c2_phase(&sim), Phase::Read(None), "C2 saw no /lock");
    assert!(sim.world().clients[0].recipe.holding(), "C1 holds");
    let e = ensemble(&sim);
    assert!(
        has_lock(e, 0) && has_lock(e, 2),
        "zk-1 and the leader have it"
    );
    assert!(!has_lock(e, 1), "zk-2 does not");
    assert_eq!(
        sim.world().clients[1].lib.server(),
        Some(1),
        "C2 is on zk-2"
    );
}

#[test]
fn sync_waits_for_the_stalled_link_and_the_read_after_it_sees_the_lock() {
    let mut sim = preset();
    until(&mut sim, |s| c2_phase(s) == Phase::Syncing);
    let asked = sim.world().now;
    until(&mut sim, |s| c2_phase(s) == Phase::Reading);
    let stall_ends = sim.world().link_paused(1);
    assert!(
        sim.world().now >= stall_ends,
        "the sync was answered at t={} (asked at t={asked}) before the stall ended at t={stall_ends}",
        sim.world().now
    );
    assert!(
        has_lock(ensemble(&sim), 1),
        "zk-2 applied the create before answering the sync"
    );
    until(&mut sim, |s| matches!(c2_phase(s), Phase::Read(_)));
    assert!(matches!(c2_phase(&sim), Phase::Read(Some(_))));
}

#[test]
fn the_stale_read_and_the_fresh_one_are_key_frames_with_their_captions() {
    let mut sim = preset();
    sim.run_steps(2000);
    let kinds = presets::find("zk-stale-read").unwrap().moments;
    let found = moments::find(&sim, kinds);
    let of = |k: Kind| found.iter().find(|m| m.kind == k).cloned();
    let fault = of(Kind::Fault).expect("the stall is a key frame");
    assert_eq!(fault.fault, Some(Key::CmdPauseLinks));
    assert_eq!(fault.evidence(), "links-paused");
    let stale = of(Kind::StaleRead).expect("a stale read");
    let fresh = of(Kind::FreshRead).expect("a fresh read");
    assert!(fault.step < stale.step && stale.step < fresh.step);
    assert_eq!((stale.client, fresh.client), (Some(1), Some(1)));
    let caption = stale.caption(Lang::En);
    assert!(
        caption.contains("zk-2") && caption.contains("no /lock"),
        "{caption}"
    );
    assert!(
        fresh.caption(Lang::En).starts_with("After sync"),
        "{}",
        fresh.caption(Lang::En)
    );
    assert!(stale.caption(Lang::Zh).contains("过时读"));
    // The lock itself was never in doubt: one holder throughout.
    assert_eq!(sim.world().monitors.belief, None);
    assert_eq!(sim.world().monitors.ownership, None);
}

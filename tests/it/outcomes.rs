//! What a run's key frames and last frames say: a replica cut off or only behind, a failover's
//! lost key, the outcome once every client is done (a fenced write redone, an update lost,
//! unique IDs and their waiting cost), and in one step the cause before what followed.

use lockstep::sim::moments::{self, Kind};
use lockstep::sim::{presets, Lang, Simulation};
use lockstep::view::frame::{build, Frame};
use lockstep::view::plan::Plan;

fn run(id: &str) -> Simulation {
    let mut sim = Simulation::new(presets::find(id).expect("preset").scenario());
    sim.run_steps(20_000);
    sim
}

fn frame_at(sim: &mut Simulation, step: u64) -> Frame {
    let plan = Plan::new(sim);
    sim.seek(step);
    build(sim, &plan, Lang::En)
}

#[test]
fn a_fenced_write_is_redone_so_the_counter_counts_every_increment() {
    let mut fenced = run("gc-pause-fenced");
    let n = fenced.len();
    let end = frame_at(&mut fenced, n);
    assert_eq!(end.resource.rejected, 1, "the stale write was rejected");
    assert_eq!(
        end.resource.value, 2,
        "C1 redid its increment under a new token"
    );
    assert!(end.resource.first_lost.is_none());
    assert!(end.resource.all_done.is_some());
    let mut plain = run("gc-pause");
    let n = plain.len();
    let end = frame_at(&mut plain, n);
    assert_eq!(
        end.resource.value, 1,
        "without fencing one of the two increments is lost"
    );
    assert!(end.resource.first_lost.is_some());
}

#[test]
fn the_outcome_is_a_key_frame_once_every_client_is_done() {
    for (id, lost) in [
        ("gc-pause", true),
        ("gc-pause-fenced", false),
        ("ids-locked", false),
    ] {
        let sim = run(id);
        let kinds = presets::find(id).unwrap().moments;
        let found = moments::find(&sim, kinds);
        let done = found.iter().find(|m| m.kind == Kind::AllDone);
        let done = done.unwrap_or_else(|| panic!("{id}: no all-done key frame in {found:?}"));
        let caption = done.caption(Lang::En);
        assert_eq!(caption.contains("overwrote"), lost, "{id}: {caption}");
        if id == "ids-locked" {
            assert!(
                caption.contains("10 IDs") && caption.contains("waiting"),
                "{caption}"
            );
        }
    }
}

#[test]
fn a_waiting_caption_never_calls_part_of_the_queue_the_queue() {
    let sim = run("ids-locked");
    let found = moments::find(&sim, presets::find("ids-locked").unwrap().moments);
    let w = found
        .iter()
        .find(|m| m.kind == Kind::Waiting)
        .expect("a waiting frame");
    let caption = w.caption(Lang::En);
    if w.n + 1 < 10 {
        assert!(caption.contains(&format!("{} of the 9", w.n)), "{caption}");
    }
}

/// Redis runs only with the `services` feature.
#[cfg(feature = "services")]
#[test]
fn a_key_the_replica_never_got_is_lost_in_the_failover_not_deleted() {
    let mut sim = run("redis-failover");
    let failover = sim
        .records()
        .iter()
        .position(|r| r.narration.key == lockstep::sim::narrate::Key::FailoverRedis)
        .expect("a failover") as u64;
    let f = frame_at(&mut sim, failover + 1);
    let lock = f.ghosts.iter().find(|g| g.name == "lock");
    let lock =
        lock.unwrap_or_else(|| panic!("the primary's lock key leaves a ghost: {:?}", f.ghosts));
    assert!(lock.lost && !lock.expired, "{lock:?}");
}

#[cfg(feature = "services")]
#[test]
fn a_replica_behind_is_captioned_lost_only_when_its_link_is_cut() {
    for (id, cut) in [("redis-split", true), ("redis-failover", false)] {
        let sim = run(id);
        let found = moments::find(&sim, presets::find(id).unwrap().moments);
        let behind = found.iter().find(|m| m.kind == Kind::ReplicaBehind);
        let caption = behind
            .unwrap_or_else(|| panic!("{id}: {found:?}"))
            .caption(Lang::En);
        assert_eq!(
            caption.contains("link between them is cut"),
            cut,
            "{id}: {caption}"
        );
        assert_eq!(caption.contains("will be lost"), cut, "{id}: {caption}");
    }
}

#[test]
fn a_key_frame_of_one_step_says_the_cause_before_what_followed() {
    let sim = run("holder-crash");
    let found = moments::find(&sim, presets::find("holder-crash").unwrap().moments);
    let handoff = found
        .iter()
        .find(|m| m.kind == Kind::Handoff)
        .expect("a handoff");
    let here: Vec<Kind> = found
        .iter()
        .filter(|m| m.step == handoff.step)
        .map(|m| m.kind)
        .collect();
    assert_eq!(here, [Kind::Expiry, Kind::Handoff], "{found:?}");
}

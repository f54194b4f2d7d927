//! Scenario tests named after protocol steps, on the presets the UI offers.

use lockstep::recipes::Phase;
use lockstep::sim::narrate::Key;
use lockstep::sim::presets;
use lockstep::sim::{Lang, Simulation, StepRecord};

fn run(id: &str) -> Simulation {
    let mut sim = Simulation::new(presets::find(id).expect("preset").scenario());
    sim.run_steps(3000);
    sim
}

fn requests<'a>(sim: &'a Simulation, op: &'a str) -> impl Iterator<Item = &'a StepRecord> + 'a {
    sim.records()
        .iter()
        .filter(move |r| r.narration.key == Key::RequestArrives && r.narration.a.starts_with(op))
}

#[test]
fn naive_release_notifies_every_waiter_at_once() {
    let sim = run("herd");
    let first_release = requests(&sim, "delete /lock").next().expect("a release");
    assert_eq!(
        first_release.fired.len(),
        5,
        "all five waiters are told: {:?}",
        first_release.fired
    );
    assert!(sim.world().metrics.herd_factor() > 2.0);
}

#[test]
fn sequential_release_wakes_exactly_one_waiter() {
    let sim = run("queue");
    let releases: Vec<_> = requests(&sim, "delete").collect();
    assert_eq!(releases.len(), 6);
    assert!(
        releases.iter().all(|r| r.fired.len() <= 1),
        "a release woke more than one waiter"
    );
    assert_eq!(releases.iter().filter(|r| r.fired.len() == 1).count(), 5);
}

#[test]
fn curator_reentrant_acquire_sends_no_request_and_last_release_deletes() {
    let sim = run("reentrant");
    assert_eq!(requests(&sim, "create2").count(), 3);
    assert_eq!(requests(&sim, "delete").count(), 3);
    assert!(requests(&sim, "create2")
        .all(|r| r.narration.a.contains("/locks/_c_") && r.narration.a.ends_with("-lock-")));
    // Re-run frame by frame to see a count of 2.
    let mut s = Simulation::new(presets::find("reentrant").unwrap().scenario());
    let mut max = 0;
    while s.step() {
        max = max.max(
            s.world()
                .clients
                .iter()
                .map(|c| c.recipe.hold_count())
                .max()
                .unwrap_or(0),
        );
    }
    assert_eq!(max, 2);
}

#[test]
fn holder_crash_hands_over_only_after_session_expiry() {
    let sim = run("holder-crash");
    let crash = sim
        .records()
        .iter()
        .find(|r| r.narration.key == Key::CmdCrash)
        .unwrap();
    let expiry = sim
        .records()
        .iter()
        .find(|r| r.narration.key == Key::SessionExpires)
        .expect("the session expires");
    assert_eq!(expiry.narration.client, Some(0));
    // The deadline is the last contact plus the timeout (12), rounded up to tickTime (2).
    let last_contact = sim
        .records()
        .iter()
        .filter(|r| r.time <= crash.time && r.narration.client == Some(0))
        .filter(|r| matches!(r.narration.key, Key::PingArrives | Key::RequestArrives))
        .map(|r| r.time)
        .max()
        .unwrap();
    let silent = expiry.time - last_contact;
    assert!(
        (12..=14).contains(&silent),
        "expired {silent} ticks after the last contact"
    );
    assert!(expiry.time > crash.time);
    assert_eq!(expiry.fired.len(), 1, "one waiter hears of the deletion");
    assert!(sim.world().monitors.belief.is_none());
}

#[test]
fn middle_waiter_leaving_makes_the_successor_relist_and_watch_the_holder() {
    let mut sim = Simulation::new(presets::find("middle-leaves").unwrap().scenario());
    let mut watched_holder = false;
    while sim.step() {
        let w = sim.world();
        if let (Phase::Watching(p), Some(h)) =
            (w.clients[2].recipe.phase(), w.clients[0].recipe.my_node())
        {
            watched_holder |= w.clients[0].recipe.holding() && p == h;
        }
    }
    assert!(watched_holder, "C3 never watched C1's node");
    assert!(sim.world().monitors.belief.is_none());
}

#[test]
fn gc_pause_past_the_timeout_loses_an_update_without_fencing() {
    let sim = run("gc-pause");
    let m = &sim.world().monitors;
    assert!(m.belief.is_some() && m.lost_update.is_some() && m.ownership.is_none());
}

#[test]
fn gc_pause_with_fencing_rejects_the_stale_write() {
    let sim = run("gc-pause-fenced");
    let m = &sim.world().monitors;
    assert!(m.belief.is_some() && m.lost_update.is_none());
    assert_eq!(sim.world().resource.rejected(), 1);
}

#[test]
fn partitioned_holder_declares_its_session_lost_yet_keeps_believing_it_holds() {
    let sim = run("partition");
    let at = |key: Key, c: Option<usize>| {
        sim.records()
            .iter()
            .find(|r| r.narration.key == key && (c.is_none() || r.narration.client == c))
            .unwrap()
            .index
    };
    let (lost, heal) = (at(Key::TimerSessionLost, Some(0)), at(Key::CmdHeal, None));
    assert!(
        lost < heal,
        "Curator's connection manager gives the session up while still cut off"
    );
    let expiry = at(Key::SessionExpires, Some(0));
    let granted = sim
        .records()
        .iter()
        .find(|r| {
            r.index > expiry
                && r.narration.client == Some(1)
                && r.narration.phase == Some(lockstep::recipes::Phase::Holding)
        })
        .unwrap()
        .index;
    // CURATOR-206: InterProcessMutex does not react; C1 still believes it holds the lock.
    let mut replay = Simulation::new(sim.scenario().clone());
    replay.run_steps(granted);
    assert_eq!(replay.world().monitors.now.believers, vec![0, 1]);
    assert!(sim.world().monitors.belief.is_some() && sim.world().monitors.lost_update.is_none());
}

#[test]
fn lost_create_reply_without_protection_leaves_an_orphan_that_blocks_the_queue() {
    let sim = run("lost-reply");
    assert_eq!(
        requests(&sim, "create2")
            .filter(|r| r.narration.client == Some(1))
            .count(),
        2
    );
    assert!(sim.world().monitors.stuck.is_some());
}

#[test]
fn protected_create_adopts_its_own_node_after_a_lost_reply() {
    let sim = run("lost-reply-protected");
    assert_eq!(
        requests(&sim, "create2")
            .filter(|r| r.narration.client == Some(1))
            .count(),
        1
    );
    assert!(sim.world().monitors.stuck.is_none());
    assert!(sim.finished() || sim.world().quiescent());
}

#[test]
fn no_recheck_gives_two_holders_when_a_middle_waiter_leaves() {
    let m = run("no-recheck").world().monitors.clone();
    assert!(m.ownership.is_some() && m.belief.is_some());
}

#[test]
fn lost_wakeup_waits_forever() {
    let sim = run("lost-wakeup");
    assert!(sim.world().monitors.stuck.is_some());
    assert_eq!(
        sim.world().clients[1].recipe.phase(),
        Phase::Waiting("/lock".into())
    );
}

#[test]
fn read_write_lock_lets_readers_share_and_writers_wait() {
    let mut sim = Simulation::new(presets::find("rwlock").unwrap().scenario());
    let mut shared = false;
    while sim.step() {
        let holders: Vec<usize> = sim.world().monitors.now.believers.clone();
        shared |= holders.len() >= 2;
        let writer_holds = holders.iter().any(|c| !sim.scenario().readers.contains(c));
        assert!(
            !(writer_holds && holders.len() > 1),
            "a writer shared the lock: {holders:?}"
        );
    }
    assert!(shared, "readers never shared the lock");
}

#[test]
fn id_generators_duplicate_ids_without_the_lock_and_not_with_it() {
    assert!(run("ids-unlocked").world().monitors.lost_update.is_some());
    let locked = run("ids-locked");
    assert!(locked.world().monitors.lost_update.is_none());
    assert_eq!(locked.world().resource.value, 10);
}

#[test]
fn every_preset_runs_and_narrates_in_english_and_chinese() {
    for p in presets::all() {
        let sim = run(p.id);
        assert!(sim.len() > 20, "{}", p.id);
        for r in sim.records() {
            for lang in [Lang::En, Lang::Zh] {
                let t = r.narration.text(lang);
                assert!(!t.is_empty() && !t.contains('{'), "{}: {t}", p.id);
            }
        }
        assert!(!p.lesson(Lang::Zh).is_empty() && !p.title(Lang::Zh).is_empty());
    }
}

#[test]
fn curator_semaphore_with_two_leases_lets_two_clients_hold_at_once_but_never_three() {
    use lockstep::recipes::RecipeKind;
    let sc = lockstep::sim::Scenario {
        recipe: RecipeKind::CuratorSemaphore,
        clients: 4,
        max_leases: 2,
        hold_min: 60,
        hold_max: 60,
        rounds: 2,
        ..Default::default()
    };
    let mut sim = Simulation::new(sc);
    let mut most = 0;
    while sim.step() {
        most = most.max(sim.world().monitors.now.believers.len());
    }
    assert_eq!(most, 2);
    assert!(sim.world().monitors.belief.is_none() && sim.world().monitors.ownership.is_none());
}

#[test]
fn curator_acquire_timeout_deletes_its_own_node_and_gives_up() {
    use lockstep::recipes::RecipeKind;
    let sc = lockstep::sim::Scenario {
        recipe: RecipeKind::Curator,
        clients: 2,
        hold_min: 40,
        hold_max: 40,
        start_spread: 0,
        latency_min: 1,
        latency_max: 1,
        timeouts: vec![(1, 10)],
        ..Default::default()
    };
    let mut sim = Simulation::new(sc);
    sim.run_steps(3000);
    let timeout = sim
        .records()
        .iter()
        .find(|r| r.narration.key == Key::TimerAcquireTimeout)
        .expect("C2 times out");
    assert_eq!(timeout.narration.client, Some(1));
    let c2_deletes = requests(&sim, "delete")
        .filter(|r| r.narration.client == Some(1) && r.time > timeout.time)
        .count();
    assert_eq!(c2_deletes, 1, "C2 deletes its own node after the timeout");
    assert_eq!(sim.world().clients[1].app.acquisitions, 0);
    assert!(sim.world().monitors.belief.is_none());
}

#[test]
fn sequential_and_no_recheck_use_the_scenarios_lock_path_and_create_its_parents() {
    use lockstep::recipes::RecipeKind;
    use lockstep::sim::Scenario;
    for recipe in [RecipeKind::Sequential, RecipeKind::NoRecheck] {
        for exists in [true, false] {
            let sc = Scenario {
                recipe,
                clients: 2,
                lock_path: Some("/a/b".into()),
                lock_dir_exists: exists,
                ..Scenario::default()
            };
            let mut sim = Simulation::new(sc);
            sim.run_steps(2000);
            let creates: Vec<&str> = requests(&sim, "create")
                .map(|r| r.narration.a.as_str())
                .collect();
            assert!(
                creates.iter().any(|a| a.contains("/a/b/lock-")),
                "{recipe:?} (dir exists: {exists}) creates its node in /a/b: {creates:?}"
            );
            assert!(
                creates.iter().all(|a| !a.contains("/locks")),
                "{recipe:?} never touches the default /locks: {creates:?}"
            );
            let done = sim.world().clients.iter().all(|c| c.app.acquisitions > 0);
            assert!(
                done,
                "{recipe:?} (dir exists: {exists}): every client got the lock"
            );
        }
    }
}

#[test]
fn a_lock_path_under_zookeeper_is_refused() {
    use lockstep::sim::Scenario;
    for p in ["/zookeeper/x", "/zookeeper", "/zookeeper/quota/y"] {
        let sc = Scenario {
            lock_path: Some(p.into()),
            ..Scenario::default()
        };
        assert!(sc.validate().is_err(), "{p} accepted");
    }
    let ok = Scenario {
        lock_path: Some("/zookeeperx".into()),
        ..Scenario::default()
    };
    assert!(ok.validate().is_ok());
}

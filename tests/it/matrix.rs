//! The requirements matrix is computed from runs; these are the cells the reference
//! (shared/reference/other-locks.md §1.7, §2.8, §3.4, §4) says each design must show.

use lockstep::recipes::RecipeKind;
use lockstep::sim::matrix::{row, Outcome, Probe, Row, Waits};

/// The ZooKeeper recipes the matrix compares.
const ZOOKEEPER: [RecipeKind; 3] = [
    RecipeKind::Sequential,
    RecipeKind::Curator,
    RecipeKind::Kazoo,
];

fn cell(r: &Row, p: Probe) -> Outcome {
    r.outcomes
        .iter()
        .find(|(q, _, _)| *q == p)
        .map(|(_, o, _)| o.clone())
        .unwrap()
}

#[test]
fn zookeeper_recipes_are_fenced_under_pause_and_hand_over_after_the_session_timeout() {
    for k in ZOOKEEPER {
        let r = row(k);
        assert_eq!(cell(&r, Probe::NoFault), Outcome::Safe);
        assert_eq!(cell(&r, Probe::Pause), Outcome::Fenced, "{k:?}");
        assert!(r.fencing_token && r.waits == Waits::Blocks);
        assert!(
            r.crash_handover.is_some_and(|t| (12..=16).contains(&t)),
            "{k:?} {:?}",
            r.crash_handover
        );
    }
    assert!(
        row(RecipeKind::Curator).reentrant == Some(true)
            && row(RecipeKind::Sequential).reentrant == Some(false)
    );
    assert!(
        row(RecipeKind::Kazoo).reentrant == Some(false),
        "a held kazoo Lock blocks a second acquire"
    );
    assert_eq!(
        cell(&row(RecipeKind::Kazoo), Probe::LostReply),
        Outcome::Safe,
        "kazoo finds its node by prefix"
    );
    assert_eq!(
        cell(&row(RecipeKind::Sequential), Probe::LostReply),
        Outcome::Stuck,
        "the orphan node"
    );
    assert_eq!(
        cell(&row(RecipeKind::Curator), Probe::LostReply),
        Outcome::Safe,
        "protected names"
    );
}

#[test]
fn redis_locks_have_no_token_so_a_pause_past_the_ttl_loses_updates() {
    for k in [RecipeKind::RedisSetnx, RecipeKind::RedisLease] {
        let r = row(k);
        assert_eq!(cell(&r, Probe::Pause), Outcome::Unsafe, "{k:?}");
        assert_eq!(
            cell(&r, Probe::Failover),
            Outcome::Unsafe,
            "{k:?}: async replica loses the key"
        );
        assert!(!r.fencing_token && r.waits == Waits::Polls && r.reentrant == Some(false));
        assert!(
            r.crash_handover.is_some_and(|t| (1900..=2100).contains(&t)),
            "freed by the 2 s TTL: {:?}",
            r.crash_handover
        );
    }
}

#[test]
fn etcd_mutex_is_fenced_by_create_revision_and_survives_a_leader_change() {
    let r = row(RecipeKind::EtcdMutex);
    assert_eq!(cell(&r, Probe::Pause), Outcome::Fenced);
    assert_eq!(cell(&r, Probe::Failover), Outcome::Safe);
    assert!(r.fencing_token && r.waits == Waits::Blocks && r.reentrant == Some(true));
    assert!(
        r.crash_handover.is_some_and(|t| (2000..=2600).contains(&t)),
        "lease TTL + up to 500 ms: {:?}",
        r.crash_handover
    );
}

#[test]
fn sql_designs_break_where_the_reference_says() {
    let insert = row(RecipeKind::SqlInsert);
    assert_eq!(
        cell(&insert, Probe::Crash),
        Outcome::Stuck,
        "the row outlives its owner"
    );
    assert_eq!(insert.crash_handover, None);
    let lease = row(RecipeKind::SqlLease);
    assert_eq!(cell(&lease, Probe::Pause), Outcome::Fenced);
    assert!(lease.fencing_token);
    let rowlock = row(RecipeKind::SqlRowLock);
    assert_eq!(
        cell(&rowlock, Probe::Pause),
        Outcome::Safe,
        "the row stays locked through the pause"
    );
    assert_eq!(
        cell(&rowlock, Probe::Failover),
        Outcome::Unsafe,
        "row locks are not replicated"
    );
    assert!(
        rowlock.crash_handover.is_some_and(|t| t <= 3)
            && rowlock.reentrant == Some(true)
            && rowlock.waits == Waits::Blocks
    );
    assert!(
        rowlock.requests_x10 < insert.requests_x10,
        "blocking beats polling on requests per acquisition"
    );
}

#[test]
fn without_a_lock_nobody_waits_and_nothing_is_reentrant() {
    let r = row(RecipeKind::None);
    assert_eq!(
        r.waits,
        Waits::Never,
        "the `none` row must not claim it blocks or watches"
    );
    assert_eq!(
        r.reentrant, None,
        "the `none` row must not claim reentrancy"
    );
}

/// The CP/AP probes: the server that granted the lock dies right after the grant, and the
/// holder's server is cut off. A three-server ensemble keeps every ZooKeeper recipe's lock (the
/// lock node was committed by a majority before the grant); a Redis primary's replica, promoted
/// without the key, hands it out again.
#[test]
fn a_quorum_keeps_the_lock_when_its_leader_dies_and_async_replication_loses_it() {
    for k in ZOOKEEPER {
        let r = row(k);
        assert_eq!(cell(&r, Probe::LeaderCrash), Outcome::Safe, "{k:?}");
        assert_eq!(cell(&r, Probe::Minority), Outcome::Safe, "{k:?}");
    }
    for k in [RecipeKind::RedisSetnx, RecipeKind::RedisLease] {
        let r = row(k);
        assert_eq!(cell(&r, Probe::LeaderCrash), Outcome::Unsafe, "{k:?}");
        assert_eq!(cell(&r, Probe::Minority), Outcome::Unsafe, "{k:?}");
    }
}

/// Redlock's own probes: a majority of its masters with clocks stepped forward, or restarted
/// without persistence, hands the lock to a second client; its random value fences nothing.
/// Services whose servers log every write, or whose clocks Lockstep does not model, say "—".
#[test]
fn redlock_breaks_on_a_majority_of_jumped_clocks_or_empty_restarts() {
    let r = row(RecipeKind::Redlock);
    assert_eq!(cell(&r, Probe::NoFault), Outcome::Safe);
    assert_eq!(cell(&r, Probe::ClockJump), Outcome::Unsafe);
    assert_eq!(cell(&r, Probe::RestartEmpty), Outcome::Unsafe);
    assert_eq!(
        cell(&r, Probe::Pause),
        Outcome::Unsafe,
        "no token to fence with"
    );
    assert!(!r.fencing_token && r.waits == Waits::Polls);
    for k in [RecipeKind::RedisSetnx, RecipeKind::RedisLease] {
        let r = row(k);
        assert_eq!(
            cell(&r, Probe::RestartEmpty),
            Outcome::Unsafe,
            "{k:?}: no AOF"
        );
        assert_eq!(cell(&r, Probe::ClockJump), Outcome::NotModelled, "{k:?}");
    }
    for k in ZOOKEEPER
        .into_iter()
        .chain([RecipeKind::EtcdMutex, RecipeKind::SqlRowLock])
    {
        let r = row(k);
        assert_eq!(cell(&r, Probe::ClockJump), Outcome::NotModelled, "{k:?}");
        assert_eq!(
            cell(&r, Probe::RestartEmpty),
            Outcome::NotApplicable,
            "{k:?}"
        );
    }
}

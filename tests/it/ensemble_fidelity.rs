//! The ensemble model against what a real three-server ZooKeeper 3.8.0 did
//! (`tests/ensemble/recordings`, facts numbered in `tests/ensemble/FACTS.md`). A small rig
//! drives the model directly: client messages in, server messages delivered in order, time
//! advanced to each timer, a cut server's links dropped. Each test first reads the recorded
//! facts it stands for, then shows the model does the same.
//!
//! Not compared, because they vary run to run or depend on the recorder, not on ZooKeeper:
//! wall-clock timings (election in 0.4–0.6 s, reconnects in milliseconds; the model's latency
//! is the scenario's), absolute zxids (the recorder opened probe sessions first), the low
//! bytes of session ids (time-based in ZooKeeper), which server a client reconnects to (kazoo
//! shuffles), and the natural stale-read rate (F20).

use crate::ensemble_rig;

use ensemble_rig::{create, finding, recording, Rig};
use lockstep::engine::{CreateMode, Output, Request, Response};
use lockstep::services::zookeeper::ensemble::epoch_of;
use lockstep::services::zookeeper::{Down, Up};
use lockstep::services::Role;

/// F1, F2, F4, F5, F6, F7.
#[test]
fn f1_to_f7_a_write_through_a_follower() {
    let r = recording("write_via_follower");
    assert_eq!(
        finding(&r, "create_reply_zxid"),
        finding(&r, "create_stat_czxid")
    );
    assert_eq!(
        finding(&r, "C1_session_creator_byte"),
        finding(&r, "C1_server")
    );
    assert_eq!(finding(&r, "create_reply_zxid")["epoch"], 1);
    let mut rig = Rig::new(false);
    let f = (rig.leader() + 1) % 3;
    let session = rig.connect(f, 0, 10_000);
    assert_eq!(
        session.0 >> 56,
        u64::from(f) + 1,
        "F5: the creating server's id"
    );
    let opened = rig.e.members[usize::from(f)].db.last_zxid();
    assert_eq!(epoch_of(opened), 1, "F7");
    let (zxid, result) = rig
        .request(f, 0, 1, create("/a", CreateMode::Ephemeral))
        .expect("reply");
    assert!(result.is_ok());
    assert_eq!(zxid, opened + 1, "F6: createSession took the zxid before");
    let czxid: Vec<i64> = (0..3)
        .map(|s| rig.e.members[s].db.tree().get("/a").expect("node").czxid)
        .collect();
    assert_eq!(czxid, [zxid; 3], "F1/F2");
    let (read_zxid, _) = rig
        .request(
            f,
            0,
            2,
            Request::GetData {
                path: "/a".into(),
                watch: false,
            },
        )
        .expect("read");
    assert_eq!(
        read_zxid,
        rig.e.members[usize::from(f)].db.last_zxid(),
        "F4"
    );
    assert_eq!(rig.e.invariant(), None);
}

/// F9, F11, F12, F13.
#[test]
fn f9_to_f13_the_leader_is_killed_while_a_client_holds_a_lock() {
    for name in [
        "leader_killed_holding_lock",
        "leader_killed_client_on_leader",
    ] {
        let r = recording(name);
        assert_eq!(
            finding(&r, "first_write_after_election_reply_zxid")["counter"],
            1
        );
        assert_eq!(
            finding(&r, "first_write_after_election_reply_zxid")["epoch"],
            2
        );
        assert_eq!(finding(&r, "C1_session_unchanged"), true);
        let after = finding(&r, "owner_after").as_object().expect("owners");
        for (server, owner) in after {
            assert_eq!(&finding(&r, "owner_before")[server], owner, "F11 in {name}");
        }
    }
    for on_leader in [false, true] {
        let mut rig = Rig::new(true);
        let leader = rig.leader();
        let home = if on_leader { leader } else { (leader + 1) % 3 };
        let session = rig.connect(home, 0, 10_000);
        let node = "/locks/lock-";
        let (_, created) = rig
            .request(home, 0, 1, create(node, CreateMode::EphemeralSequential))
            .expect("reply");
        let Ok(Response::Create { path, .. }) = created else {
            panic!("{created:?}")
        };
        let czxid = rig.e.members[usize::from(leader)]
            .db
            .tree()
            .get(&path)
            .expect("node")
            .czxid;
        rig.crash(leader);
        rig.advance(rig.now + 4000);
        let new = rig.leader();
        assert_ne!(new, leader);
        // F12: C1's connection dropped; it reconnects elsewhere with its session.
        let other = (0..3).find(|s| *s != leader && *s != home).unwrap_or(new);
        let target = if home == leader { other } else { home };
        let last_zxid = czxid;
        rig.take(0);
        rig.send(
            target,
            0,
            Up::Reconnect {
                session,
                last_zxid,
                watches: Default::default(),
            },
        );
        let back = rig.take(0);
        assert!(
            back.iter().any(|(_, d)| matches!(
                d,
                Down::Output(Output::Connected {
                    new_session: false,
                    ..
                })
            )),
            "{back:?}"
        );
        // F11: the node, its owner and czxid on every remaining server.
        for s in (0..3u8).filter(|s| *s != leader) {
            let n = rig.e.members[usize::from(s)]
                .db
                .tree()
                .get(&path)
                .cloned()
                .expect("node survives");
            assert_eq!(n.czxid, czxid);
            assert_eq!(n.kind, lockstep::engine::NodeKind::Ephemeral(session));
        }
        // F9: the election wrote nothing; the next write is (e+1) << 32 | 1.
        let (zxid, _) = rig
            .request(target, 0, 2, create("/after", CreateMode::Persistent))
            .expect("reply");
        assert_eq!(zxid, (2 << 32) | 1);
        assert_eq!(rig.e.invariant(), None);
    }
}

/// F15, F17, F18.
#[test]
fn f15_to_f18_a_follower_cut_off_from_the_quorum() {
    let r = recording("client_server_cut_off");
    assert_eq!(
        finding(&r, "C1_transitions_after_cut"),
        &serde_json::json!(["SUSPENDED", "CONNECTED"])
    );
    assert_eq!(
        finding(&r, "write_sent_through_X_during_cut")["err"],
        "ConnectionLoss"
    );
    let stopped = finding(&r, "X_not_serving_after_ms").as_u64().expect("ms");
    assert!((10_000..11_000).contains(&stopped), "syncLimit × tickTime");
    let mut rig = Rig::new(true);
    let x = (rig.leader() + 1) % 3;
    let session = rig.connect(x, 0, 20_000);
    let made = rig
        .request(x, 0, 1, create("/locks/eph", CreateMode::Ephemeral))
        .expect("created");
    assert!(made.1.is_ok(), "{made:?}");
    let cut_at = rig.now;
    rig.cut.insert(x);
    // F18: a write sent through X during the cut is answered by nothing and applied nowhere.
    assert!(rig
        .request(x, 0, 2, create("/locks/during", CreateMode::Persistent))
        .is_none());
    rig.advance(cut_at + 9_000);
    assert_eq!(
        rig.e.servers()[usize::from(x)].role,
        Role::Follower,
        "still following at 9 s"
    );
    rig.advance(cut_at + 10_100);
    assert_eq!(
        rig.e.servers()[usize::from(x)].role,
        Role::Looking,
        "F15: stops at syncLimit × tickTime"
    );
    assert!(
        rig.take(0)
            .iter()
            .any(|(f, d)| *f == Some(x) && matches!(d, Down::ConnectionLost)),
        "X closes C1"
    );
    // A new client cannot connect to X.
    rig.send(x, 1, Up::Connect { timeout_ms: 20_000 });
    assert!(rig
        .take(1)
        .iter()
        .all(|(_, d)| matches!(d, Down::ConnectionLost)));
    // F17: C1 reconnects to the majority with the same session; its ephemeral stays.
    let m = rig.leader();
    let z = rig.e.members[usize::from(m)].db.last_zxid();
    rig.send(
        m,
        0,
        Up::Reconnect {
            session,
            last_zxid: z,
            watches: Default::default(),
        },
    );
    assert!(rig.take(0).iter().any(|(_, d)| matches!(
        d,
        Down::Output(Output::Connected {
            new_session: false,
            ..
        })
    )));
    for s in (0..3u8).filter(|s| *s != x) {
        let db = &rig.e.members[usize::from(s)].db;
        assert!(db.tree().get("/locks/eph").is_some());
        assert!(db.tree().get("/locks/during").is_none(), "F18");
    }
    assert_eq!(rig.e.invariant(), None);
}

/// F19: a session shorter than syncLimit × tickTime: the majority deletes C1's node while the
/// cut-off server still shows it to C1.
#[test]
fn f19_a_cut_off_server_serves_a_node_the_majority_already_deleted() {
    let r = recording("client_server_cut_off_short_session");
    assert_eq!(
        finding(&r, "C1_reads_on_X_during_cut")["saw_own_lock_node"],
        finding(&r, "C1_reads_on_X_during_cut")["count"]
    );
    assert_eq!(
        finding(&r, "C1_transitions_after_cut"),
        &serde_json::json!(["SUSPENDED", "LOST", "CONNECTED"])
    );
    let mut rig = Rig::new(true);
    let x = (rig.leader() + 1) % 3;
    rig.connect(x, 0, 4_000);
    let made = rig
        .request(x, 0, 1, create("/locks/mine", CreateMode::Ephemeral))
        .expect("created");
    assert!(made.1.is_ok(), "{made:?}");
    rig.cut.insert(x);
    let cut_at = rig.now;
    let read = Request::Exists {
        path: "/locks/mine".into(),
        watch: false,
    };
    let mut saw = 0;
    for (i, t) in (1_000..9_600).step_by(1_000).enumerate() {
        rig.advance(cut_at + t);
        rig.send(x, 0, Up::Ping);
        rig.take(0);
        if let Some((_, Ok(Response::Exists { stat: Some(_) }))) =
            rig.request(x, 0, 10 + i as i32, read.clone())
        {
            saw += 1;
        }
    }
    assert_eq!(saw, 9, "X still shows C1 its node");
    let m = rig.leader();
    assert!(
        rig.e.members[usize::from(m)]
            .db
            .tree()
            .get("/locks/mine")
            .is_none(),
        "the majority expired it"
    );
    assert_eq!(rig.e.invariant(), None);
}

/// The lagging server refuses a client that has seen a later zxid.
#[test]
fn a_server_behind_the_client_refuses_its_reconnect() {
    let r = recording("reconnect_refused_by_lagging_server");
    let refusals = finding(&r, "refusals_in_F1_log")
        .as_array()
        .expect("log lines");
    assert!(refusals[0]
        .as_str()
        .unwrap_or("")
        .contains("client must try another server"));
    let mut rig = Rig::new(true);
    let l = rig.leader();
    let f = (l + 1) % 3;
    let session = rig.connect(l, 0, 10_000);
    let behind = rig.e.members[usize::from(f)].db.last_zxid();
    rig.send(
        f,
        0,
        Up::Reconnect {
            session,
            last_zxid: behind + 1,
            watches: Default::default(),
        },
    );
    assert!(rig
        .take(0)
        .iter()
        .all(|(_, d)| matches!(d, Down::ConnectionLost)));
}

/// F23–F26 (session expiry): one closeSession transaction deletes the ephemeral on every
/// server, and the parent's pzxid is that zxid everywhere.
#[test]
fn an_expired_session_ends_at_one_zxid_on_every_server() {
    let r = recording("session_expiry_in_ensemble");
    let pz = finding(&r, "parent_pzxid_per_server");
    assert!(pz["1"] == pz["2"] && pz["2"] == pz["3"]);
    assert_eq!(finding(&r, "closeSession_txn")["zxid"]["hex"], pz["1"]);
    let mut rig = Rig::new(true);
    let f = (rig.leader() + 1) % 3;
    rig.connect(f, 0, 4_000);
    let made = rig
        .request(
            f,
            0,
            1,
            create("/locks/e-", CreateMode::EphemeralSequential),
        )
        .expect("created");
    assert!(made.1.is_ok(), "{made:?}");
    rig.advance(rig.now + 12_000);
    let pzxid: Vec<i64> = (0..3)
        .map(|s| rig.e.members[s].db.tree().get("/locks").expect("dir").pzxid)
        .collect();
    assert!(pzxid.iter().all(|z| *z == pzxid[0]));
    for m in &rig.e.members {
        assert_eq!(m.db.tree().get("/locks").expect("dir").children.len(), 0);
        assert_eq!(
            m.db.last_zxid(),
            pzxid[0],
            "the close is the last transaction"
        );
    }
}

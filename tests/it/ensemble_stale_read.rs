//! F21-F23 against the model: reads on a follower whose quorum link is paused (the recording
//! `stale_read_follower`, facts in `tests/ensemble/FACTS.md`): the stale read, `sync` and the
//! read queued behind it, and read-your-writes. Absolute zxids are not compared (the recorder
//! made 300 writes first); the relations between them are. F20 (how often a read races a
//! write without a fault) is not deterministic and not compared.

use crate::ensemble_rig;

use ensemble_rig::{create, finding, recording, Rig};
use lockstep::engine::{CreateMode, Output, Request, Response};
use lockstep::services::zookeeper::Down;

fn zxid(v: &serde_json::Value) -> u64 {
    u64::from_str_radix(v["hex"].as_str().expect("hex").trim_start_matches("0x"), 16).unwrap()
}

fn set(data: &str) -> Request {
    Request::SetData {
        path: "/cfg".into(),
        data: Some(data.as_bytes().to_vec()),
        version: -1,
    }
}

fn get() -> Request {
    Request::GetData {
        path: "/cfg".into(),
        watch: false,
    }
}

/// A getData answer: (data, mzxid, the reply header's zxid).
fn read(r: (i64, Result<Response, lockstep::engine::ErrorCode>)) -> (String, i64, i64) {
    match r.1 {
        Ok(Response::GetData { data, stat }) => (
            String::from_utf8(data.unwrap_or_default()).unwrap(),
            stat.mzxid,
            r.0,
        ),
        other => panic!("not a read: {other:?}"),
    }
}

/// The replies `conn` got, by xid.
fn replies(
    rig: &mut Rig,
    conn: usize,
) -> Vec<(i32, i64, Result<Response, lockstep::engine::ErrorCode>)> {
    rig.take(conn)
        .into_iter()
        .filter_map(|(_, d)| match d {
            Down::Reply(
                _,
                Output::Reply {
                    xid, zxid, result, ..
                },
            ) => Some((xid, zxid, result)),
            _ => None,
        })
        .collect()
}

#[test]
fn f21_f22_a_paused_follower_reads_stale_until_sync_brings_the_write() {
    let r = recording("stale_read_follower");
    let stale = finding(&r, "forced_stale_read");
    let write = zxid(finding(&r, "forced_write_reply_zxid"));
    assert_eq!(stale["data"], "300");
    assert_eq!(
        zxid(&stale["mzxid"]) + 1,
        write,
        "F21: the previous value's mzxid"
    );
    assert_eq!(
        zxid(&stale["reply_zxid"]) + 1,
        write,
        "F21: the header one behind"
    );
    assert_eq!(finding(&r, "sync_and_read_pending_while_link_paused"), true);
    assert_eq!(
        zxid(&finding(&r, "sync_result")["reply_zxid"]),
        write,
        "F22"
    );
    assert_eq!(finding(&r, "read_queued_behind_sync")["data"], "new");

    let mut rig = Rig::new(false);
    let l = rig.leader();
    let b = (l + 1) % 3;
    rig.connect(l, 0, 10_000);
    rig.connect(b, 1, 10_000);
    let mut make = create("/cfg", CreateMode::Persistent);
    if let Request::Create { data, .. } = &mut make {
        *data = Some(b"300".to_vec());
    }
    assert!(rig.request(l, 0, 1, make).expect("created").1.is_ok());
    let before = read(rig.request(b, 1, 1, get()).expect("read"));
    assert_eq!(before.0, "300");
    // F21: B's server hears nothing from the leader; the write commits without it.
    rig.held.insert(b);
    let w = rig
        .request(l, 0, 2, set("new"))
        .expect("the write is answered");
    assert!(w.1.is_ok(), "{w:?}");
    let (data, mzxid, header) = read(rig.request(b, 1, 2, get()).expect("a read on B"));
    assert_eq!(data, "300", "F21: the previous value");
    assert_eq!(
        (mzxid + 1, header + 1),
        (w.0, w.0),
        "F21: mzxid and header one behind"
    );
    // F22: the sync goes to the leader and waits; the next read waits behind it.
    let sync = Request::Sync {
        path: "/cfg".into(),
    };
    assert!(rig.request(b, 1, 3, sync).is_none(), "F22: the sync waits");
    assert!(
        rig.request(b, 1, 4, get()).is_none(),
        "F22: the read waits behind it"
    );
    // F22: so does B's ping (kazoo drops a connection whose ping goes unanswered).
    rig.send(b, 1, lockstep::services::zookeeper::Up::Ping);
    let pong = |d: &Down| matches!(d, Down::Output(Output::Pong { .. }));
    assert!(
        !rig.take(1).iter().any(|(_, d)| pong(d)),
        "F22: the ping waits"
    );
    rig.release(b);
    let all = rig.take(1);
    let pong_at = all
        .iter()
        .position(|(_, d)| pong(d))
        .expect("the ping is answered");
    let read_at = all
        .iter()
        .position(|(_, d)| matches!(d, Down::Reply(_, Output::Reply { xid: 4, .. })));
    assert!(read_at < Some(pong_at), "after the sync and the read");
    for (f, d) in all {
        rig.inbox_push(1, f, d);
    }
    let got = replies(&mut rig, 1);
    let by = |x: i32| got.iter().find(|r| r.0 == x).expect("answered");
    assert!(matches!(by(3).2, Ok(Response::Sync { .. })), "{:?}", by(3));
    assert_eq!(by(3).1, w.0, "F22: the sync returns with the write's zxid");
    let after = read((by(4).1, by(4).2.clone()));
    assert_eq!(
        (after.0.as_str(), after.1),
        ("new", w.0),
        "F22: the queued read is fresh"
    );
    assert!(
        got.iter().position(|r| r.0 == 3) < got.iter().position(|r| r.0 == 4),
        "in order"
    );
    assert_eq!(rig.e.invariant(), None);
}

#[test]
fn f23_a_client_reads_its_own_write_on_a_follower() {
    let r = recording("stale_read_follower");
    assert_eq!(finding(&r, "read_your_write_on_follower"), true);
    let mut rig = Rig::new(false);
    let b = (rig.leader() + 1) % 3;
    rig.connect(b, 1, 10_000);
    assert!(rig
        .request(b, 1, 1, create("/cfg", CreateMode::Persistent))
        .unwrap()
        .1
        .is_ok());
    let w = rig.request(b, 1, 2, set("mine")).expect("answered");
    let (data, mzxid, _) = read(rig.request(b, 1, 3, get()).expect("read"));
    assert_eq!((data.as_str(), mzxid), ("mine", w.0), "F23");
}

//! A small rig that drives the ensemble model directly, for the recorded-fact tests: client
//! messages in, server messages delivered in order, time advanced to each timer, a cut
//! server's links dropped, a held server's links paused (what is sent waits, then arrives in
//! order, as over a paused TCP proxy).
// Each test file that uses the rig uses part of it.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use lockstep::engine::{CreateMode, Output, Request, Response, SessionId};
use lockstep::services::api::Outbox;
use lockstep::services::zookeeper::ensemble::zab::Zab;
use lockstep::services::zookeeper::ensemble::Ensemble;
use lockstep::services::zookeeper::{Down, Up};

type Out = Outbox<Down, Zab>;

pub struct Rig {
    pub e: Ensemble,
    pub now: u64,
    q: VecDeque<(u8, u8, Zab)>,
    inbox: BTreeMap<usize, Vec<(Option<u8>, Down)>>,
    pub cut: BTreeSet<u8>,
    pub held: BTreeSet<u8>,
    parked: VecDeque<(u8, u8, Zab)>,
}

impl Rig {
    pub fn new(session_dir: bool) -> Rig {
        let dir = session_dir.then_some("/locks");
        Rig {
            e: Ensemble::new(3, 2000, dir),
            now: 0,
            q: VecDeque::new(),
            inbox: BTreeMap::new(),
            cut: BTreeSet::new(),
            held: BTreeSet::new(),
            parked: VecDeque::new(),
        }
    }

    pub fn absorb(&mut self, out: Out) {
        for ((c, d), f) in out.msgs.into_iter().zip(out.from) {
            self.inbox.entry(c).or_default().push((f, d));
        }
        for p in out.peers {
            if self.cut.contains(&p.from) != self.cut.contains(&p.to) {
                self.e.lost(p.from, p.to);
            } else if self.held.contains(&p.from) || self.held.contains(&p.to) {
                self.parked.push_back((p.from, p.to, p.msg));
            } else {
                self.q.push_back((p.from, p.to, p.msg));
            }
        }
    }

    pub fn settle(&mut self) {
        while let Some((f, t, m)) = self.q.pop_front() {
            let mut o = Out::default();
            self.e.on_peer(self.now, f, t, m, &mut o);
            self.absorb(o);
        }
    }

    pub fn send(&mut self, s: u8, conn: usize, up: Up) {
        let mut o = Out::default();
        self.e.client(self.now, s, conn, up, &mut o);
        self.absorb(o);
        self.settle();
    }

    pub fn advance(&mut self, to: u64) {
        while let Some(d) = self.e.next_deadline().filter(|d| *d <= to) {
            self.now = d.max(self.now);
            let mut o = Out::default();
            self.e.tick(self.now, &mut o);
            self.absorb(o);
            self.settle();
        }
        self.now = to;
    }

    /// Resumes a held server's links: what waited is delivered, in order.
    pub fn release(&mut self, s: u8) {
        self.held.remove(&s);
        let parked = std::mem::take(&mut self.parked);
        for (f, t, m) in parked {
            if self.held.contains(&f) || self.held.contains(&t) {
                self.parked.push_back((f, t, m));
            } else {
                self.q.push_back((f, t, m));
            }
        }
        self.settle();
    }

    pub fn crash(&mut self, s: u8) {
        let mut o = Out::default();
        self.e.crash(self.now, s, &mut o);
        self.absorb(o);
        self.settle();
    }

    /// Puts a message back in `conn`'s inbox (a test that looked at the order first).
    pub fn inbox_push(&mut self, conn: usize, from: Option<u8>, d: Down) {
        self.inbox.entry(conn).or_default().push((from, d));
    }

    pub fn take(&mut self, conn: usize) -> Vec<(Option<u8>, Down)> {
        std::mem::take(self.inbox.entry(conn).or_default())
    }

    /// Connects `conn` at server `s`; its session.
    pub fn connect(&mut self, s: u8, conn: usize, timeout_ms: u64) -> SessionId {
        self.send(s, conn, Up::Connect { timeout_ms });
        self.take(conn)
            .into_iter()
            .find_map(|(_, d)| match d {
                Down::Output(Output::Connected { session, .. }) => Some(session),
                _ => None,
            })
            .expect("connected")
    }

    /// A request; the reply's header zxid and result.
    pub fn request(
        &mut self,
        s: u8,
        conn: usize,
        xid: i32,
        request: Request,
    ) -> Option<(i64, Result<Response, lockstep::engine::ErrorCode>)> {
        let op = request.opcode();
        self.send(s, conn, Up::Request { xid, request, op });
        self.take(conn).into_iter().find_map(|(_, d)| match d {
            Down::Reply(_, Output::Reply { zxid, result, .. }) => Some((zxid, result)),
            _ => None,
        })
    }

    pub fn leader(&self) -> u8 {
        self.e.leader().expect("a leader")
    }
}

pub fn create(path: &str, mode: CreateMode) -> Request {
    Request::Create {
        path: path.into(),
        data: Some(b"x".to_vec()),
        mode,
    }
}

/// A recording of the real ensemble (`tests/ensemble/recordings`).
pub fn recording(name: &str) -> serde_json::Value {
    let path = format!(
        "{}/tests/ensemble/recordings/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("recording");
    serde_json::from_str(&text).expect("json")
}

/// One of a recording's findings.
pub fn finding<'a>(r: &'a serde_json::Value, key: &str) -> &'a serde_json::Value {
    &r["findings"][key]
}

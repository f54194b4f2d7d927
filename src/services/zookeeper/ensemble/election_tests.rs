//! Elections and sockets message by message, each link first in first out: the orders the
//! exhaustive search found stuck before (a follower's answer that counts toward the election,
//! a stale socket closed on a server that is not serving, an answer for a socket that closed).

use std::collections::VecDeque;

use super::member::State;
use super::zab::Zab;
use super::{Ensemble, Out};
use crate::services::api::ServerId;
use crate::services::zookeeper::{Down, Up};

/// An ensemble of three with every link's queue of undelivered messages.
struct Net {
    e: Ensemble,
    links: Vec<((ServerId, ServerId), VecDeque<Zab>)>,
    down: Vec<(usize, Down)>,
}

impl Net {
    fn new() -> Net {
        Net {
            e: Ensemble::new(3, 10, Some("/locks")),
            links: Vec::new(),
            down: Vec::new(),
        }
    }

    fn post(&mut self, out: Out) {
        for p in out.peers {
            match self.links.iter_mut().find(|(l, _)| *l == (p.from, p.to)) {
                Some((_, q)) => q.push_back(p.msg),
                None => self.links.push(((p.from, p.to), VecDeque::from([p.msg]))),
            }
        }
        self.down.extend(out.msgs);
    }

    /// Delivers the oldest message on the link `from` → `to`.
    fn deliver(&mut self, from: ServerId, to: ServerId) -> Zab {
        let q = &mut self
            .links
            .iter_mut()
            .find(|(l, _)| *l == (from, to))
            .unwrap()
            .1;
        let msg = q.pop_front().expect("a message on the link");
        let mut out = Out::default();
        self.e.on_peer(0, from, to, msg.clone(), &mut out);
        self.post(out);
        msg
    }

    /// Delivers everything on every link, oldest link first, until nothing is left.
    fn settle(&mut self) {
        for _ in 0..1_000 {
            let Some((l, _)) = self.links.iter().find(|(_, q)| !q.is_empty()) else {
                return;
            };
            let (from, to) = *l;
            self.deliver(from, to);
        }
        panic!("the ensemble never went quiet");
    }

    /// A message from connection `conn` reaches server `s`; what it answers is posted.
    fn client(&mut self, s: ServerId, conn: crate::services::api::ConnId, up: Up) {
        let mut out = Out::default();
        self.e.client(0, s, conn, up, &mut out);
        self.post(out);
    }

    fn crash(&mut self, s: ServerId) {
        let mut out = Out::default();
        self.e.crash(0, s, &mut out);
        self.post(out);
    }

    /// Ends every finalize wait that is running.
    fn finalize(&mut self) {
        let mut out = Out::default();
        self.e.tick(1_000, &mut out);
        self.post(out);
    }

    fn state(&self, s: ServerId) -> &State {
        &self.e.members[usize::from(s)].state
    }
}

#[test]
fn a_follower_answer_with_the_same_vote_completes_the_quorum_at_once() {
    let mut n = Net::new();
    n.crash(2);
    n.deliver(2, 0); // Reset: zk-1 looks and votes for itself.
    n.deliver(2, 1); // Reset: zk-2 looks and votes for itself (same zxid, higher id).
    n.deliver(0, 1); // zk-1's vote is lower: zk-2 sends its own back.
    n.deliver(1, 0); // zk-2's first vote: zk-1 changes its vote to zk-2; a quorum agrees.
    n.finalize();
    assert!(matches!(n.state(0), State::Following { leader: 1, .. }));
    n.deliver(0, 1); // zk-1's changed vote: zk-2 has a quorum and waits finalizeWait.
    assert!(matches!(n.deliver(0, 1), Zab::FollowerInfo { .. }));
    n.deliver(1, 0); // zk-2's answer to the lower vote reaches zk-1, which follows: it answers.
    assert!(matches!(n.state(1), State::Looking { .. }));
    let answer = n.deliver(0, 1);
    assert!(matches!(answer, Zab::Vote { looking: false, vote } if vote.leader == 1));
    // `receivedFollowingNotification`: the answer is a vote for zk-2 in this election, so it
    // still counts, and zk-2 leads without waiting (it used to drop zk-1 from its quorum and
    // wait for a vote that never came).
    assert!(matches!(n.state(1), State::Leading(_)), "{:?}", n.state(1));
}

#[test]
fn a_server_that_is_not_serving_closes_only_its_own_socket() {
    let mut n = Net::new();
    n.client(1, 7, Up::Connect { timeout_ms: 30 });
    assert_eq!(n.e.conns.get(&7).map(|a| a.server), Some(1));
    n.crash(2);
    n.deliver(2, 0); // zk-1 has no leader: it does not serve.
    let mut out = Out::default();
    // A request the client sent zk-1 on its old socket arrives after it moved to zk-2.
    n.e.client(0, 0, 7, Up::Ping, &mut out);
    assert!(matches!(out.msgs[..], [(7, Down::ConnectionLost)]));
    assert_eq!(n.e.conns.get(&7).map(|a| a.server), Some(1));
}

#[test]
fn a_revalidation_for_a_socket_the_client_left_leaves_its_session_where_it_is() {
    let mut n = Net::new();
    n.client(2, 7, Up::Connect { timeout_ms: 30 });
    n.settle(); // The session's PROPOSAL, the ACKs and the COMMIT.
    let session =
        n.e.conns
            .get(&7)
            .and_then(|a| a.session)
            .expect("a session");
    let resume = || Up::Reconnect {
        session,
        last_zxid: 0,
        watches: Default::default(),
    };
    n.client(0, 7, resume()); // On zk-1: it asks the leader (REVALIDATE).
    n.client(2, 7, resume()); // Then straight on the leader, which resumes it.
    assert_eq!(n.e.conns.get(&7).map(|a| a.server), Some(2));
    n.settle(); // The REVALIDATE, and the leader's answer back to zk-1.
    assert_eq!(
        n.e.conns.get(&7).map(|a| (a.server, a.session)),
        Some((2, Some(session)))
    );
}

#[test]
fn a_session_created_for_a_socket_closed_by_the_election_answers_no_one() {
    let mut n = Net::new();
    n.client(1, 7, Up::Connect { timeout_ms: 30 }); // zk-2 forwards it to the leader, zk-3.
    n.deliver(1, 2); // The leader proposes the new session.
    n.deliver(2, 0); // zk-1 logs it
    n.deliver(2, 1); // and so does zk-2; neither ACK reaches the leader before it dies.
    n.crash(2);
    n.settle(); // zk-2 closes the client's socket, is elected, and commits what a majority logged.
    n.finalize();
    n.settle();
    assert!(matches!(n.state(1), State::Leading(_)), "{:?}", n.state(1));
    let applied = n.e.members[1].db.sessions().len();
    assert!(applied >= 1, "the session survives the election");
    // The client's socket closed when zk-2 lost its leader: the session's answer goes nowhere,
    // and the client (which connects again on a new socket) is not attached to it.
    assert!(
        !n.down
            .iter()
            .any(|(c, d)| *c == 7
                && matches!(d, Down::Output(crate::engine::Output::Connected { .. }))),
        "{:?}",
        n.down
    );
    assert_eq!(n.e.conns.get(&7), None);
}

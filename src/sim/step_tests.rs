//! The world's delivery rules message by message, in the timeless model: a handshake the
//! client sent on a socket it has since left opens nothing (the exhaustive search found a
//! client whose watch was lost to one).

use super::scenario::Scenario;
use super::types::{Node, Payload};
use super::world::{Action, World};
use crate::narrate::Key;
use crate::services::zookeeper::Up as ZkUp;
use crate::services::{Service, Up};

fn attached(w: &World) -> Option<(u8, Option<crate::engine::SessionId>)> {
    let Service::ZooKeeper(z) = &w.service else {
        return None;
    };
    let a = z.ensemble.as_ref()?.conns.get(&0)?;
    Some((a.server, a.session))
}

#[test]
fn a_handshake_on_a_socket_the_client_left_opens_nothing() {
    let sc = Scenario {
        clients: 1,
        ensemble: Some(3),
        ..Scenario::default()
    };
    let mut w = World::new(&sc);
    w.timeless = true;
    while attached(&w).is_none_or(|(_, s)| s.is_none()) {
        let (_, a) = w.enabled().into_iter().next().expect("the client connects");
        w.apply(a);
    }
    let (home, session) = attached(&w).unwrap();
    let other = (home + 1) % 3;
    let reconnect = ZkUp::Reconnect {
        session: session.unwrap(),
        last_zxid: 0,
        watches: Default::default(),
    };
    let id = w.send(
        Node::Client(0),
        Node::Server(other),
        Payload::Up(Up::ZooKeeper(reconnect)),
    );
    let record = w.apply(Action::Deliver(id));
    assert_eq!(record.narration.key, Key::AbandonedHandshake);
    assert_eq!(
        attached(&w),
        Some((home, session)),
        "still on its own server"
    );
}

//! The simulated network: envelopes with send and delivery ticks (so a view can place them in
//! flight), FIFO per link, latency drawn from the world's PRNG, and link faults (partition, a
//! reply lost with its connection). It knows nothing about ZooKeeper.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::rng::SimRng;
use super::types::{ClientId, Node, Payload, Tick};

/// One message on the wire.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Envelope {
    pub id: u64,
    pub from: Node,
    pub to: Node,
    pub sent_at: Tick,
    pub deliver_at: Tick,
    pub payload: Payload,
    /// Lost in transit (partition or fault): it will never be delivered.
    pub lost: bool,
}

/// Latency bounds in ticks (inclusive).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Latency {
    pub min: Tick,
    pub max: Tick,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Network {
    in_flight: BTreeMap<u64, Envelope>,
    /// Lost messages kept until their would-be delivery time, for the view.
    lost: BTreeMap<u64, Envelope>,
    next_id: u64,
    /// The latest delivery tick per link, to keep links FIFO.
    link_tail: BTreeMap<(Node, Node), Tick>,
    /// In-flight messages per endpoint (sender and receiver), for O(log n) `busy`.
    per_node: BTreeMap<Node, usize>,
    /// Clients cut off from the lock service.
    pub partitioned: BTreeSet<ClientId>,
    /// Clients whose next reply from the lock service is lost (with the connection).
    pub drop_next_reply: BTreeSet<ClientId>,
}

impl Network {
    fn cut(&self, from: Node, to: Node) -> bool {
        match (from, to) {
            (Node::Client(c), Node::Service) | (Node::Service, Node::Client(c)) => self.partitioned.contains(&c),
            _ => false,
        }
    }

    /// Sends a message; returns its id. A message on a cut link is lost at once.
    pub fn send(&mut self, now: Tick, from: Node, to: Node, payload: Payload, latency: Latency, rng: &mut SimRng) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        let draw = rng.range(latency.min, latency.max.max(latency.min));
        let tail = self.link_tail.get(&(from, to)).copied().unwrap_or(0);
        let deliver_at = (now + draw).max(tail);
        let lost = self.cut(from, to);
        let env = Envelope { id, from, to, sent_at: now, deliver_at, payload, lost };
        if lost {
            self.lost.insert(id, env);
        } else {
            self.link_tail.insert((from, to), deliver_at);
            self.count(&env, true);
            self.in_flight.insert(id, env);
        }
        id
    }

    /// Messages that can be delivered, oldest first (id order is send order).
    pub fn in_flight(&self) -> impl Iterator<Item = &Envelope> {
        self.in_flight.values()
    }

    /// Lost messages still "in the air" for the view.
    pub fn lost(&self) -> impl Iterator<Item = &Envelope> {
        self.lost.values()
    }

    /// The head of each link: only these may be delivered next (FIFO per link).
    pub fn deliverable(&self) -> Vec<&Envelope> {
        let mut seen = BTreeSet::new();
        self.in_flight.values().filter(|e| seen.insert((e.from, e.to))).collect()
    }

    /// Takes a message out for delivery. A message whose link was cut meanwhile is lost instead.
    pub fn take(&mut self, id: u64) -> Option<Envelope> {
        let mut env = self.in_flight.remove(&id)?;
        self.count(&env, false);
        if self.cut(env.from, env.to) {
            env.lost = true;
            self.lost.insert(id, env.clone());
        }
        Some(env)
    }

    /// Forgets lost messages whose time has passed, and everything addressed to or from a
    /// crashed client.
    pub fn tidy(&mut self, now: Tick) {
        self.lost.retain(|_, e| e.deliver_at > now);
    }

    fn count(&mut self, e: &Envelope, add: bool) {
        for n in [e.from, e.to] {
            let v = self.per_node.entry(n).or_insert(0);
            *v = if add { *v + 1 } else { v.saturating_sub(1) };
            if *v == 0 {
                self.per_node.remove(&n);
            }
        }
    }

    /// Drops every message to or from `c` (its process is gone).
    pub fn forget_client(&mut self, c: ClientId) {
        let gone: Vec<u64> = self.in_flight.values().filter(|e| e.from == Node::Client(c) || e.to == Node::Client(c)).map(|e| e.id).collect();
        for id in gone {
            if let Some(e) = self.in_flight.remove(&id) {
                self.count(&e, false);
            }
        }
    }

    /// The id the next message will get (ids are consecutive).
    pub fn next_id(&self) -> u64 {
        self.next_id
    }

    pub fn len(&self) -> usize {
        self.in_flight.len()
    }

    pub fn is_empty(&self) -> bool {
        self.in_flight.is_empty()
    }

    /// Whether anything is in flight to or from this node.
    pub fn busy(&self, n: Node) -> bool {
        self.per_node.contains_key(&n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::types::{ResUp, ZkUp};

    const L: Latency = Latency { min: 1, max: 5 };

    #[test]
    fn links_are_fifo_even_with_random_latency() {
        let (mut n, mut rng) = (Network::default(), SimRng::new(1));
        let mut last = 0;
        for t in 0..50 {
            let id = n.send(t / 3, Node::Client(0), Node::Service, Payload::ZkUp(ZkUp::Ping), L, &mut rng);
            let at = n.in_flight.get(&id).unwrap().deliver_at;
            assert!(at >= last);
            last = at;
        }
        assert_eq!(n.deliverable().len(), 1);
    }

    #[test]
    fn partition_loses_messages_both_ways_but_not_to_the_resource() {
        let (mut n, mut rng) = (Network::default(), SimRng::new(1));
        n.partitioned.insert(0);
        n.send(0, Node::Client(0), Node::Service, Payload::ZkUp(ZkUp::Ping), L, &mut rng);
        n.send(0, Node::Client(0), Node::Resource, Payload::ResUp(ResUp::Read { token: 1 }), L, &mut rng);
        assert_eq!(n.len(), 1);
        assert_eq!(n.lost().count(), 1);
        n.tidy(100);
        assert_eq!(n.lost().count(), 0);
    }
}

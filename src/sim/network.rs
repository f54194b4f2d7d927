//! The simulated network: envelopes with send and delivery ticks (so a view can place them in
//! flight), FIFO per link, latency drawn from the world's PRNG, and link faults (partition, a
//! reply lost with its connection). It knows nothing about ZooKeeper.

use crate::sorted::SortedSet;

use serde::{Deserialize, Serialize};

use super::rng::SimRng;
use super::types::{ClientId, Node, Payload, Tick};
use crate::services::{ServerId, MAX_SERVERS};

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
    /// The sender's connection (a client's request attempt; for the service's messages, the
    /// one it last heard the client on): an answer for an attempt the client gave up is stale.
    #[serde(default)]
    pub conn: u32,
}

/// Latency bounds in ticks (inclusive).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Latency {
    pub min: Tick,
    pub max: Tick,
}

/// Envelopes in id (= send) order. Ids only grow, so pushing keeps the order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
struct Queue(Vec<Envelope>);

impl Queue {
    fn push(&mut self, e: Envelope) {
        self.0.push(e);
    }
    fn remove(&mut self, id: u64) -> Option<Envelope> {
        let i = self.0.binary_search_by_key(&id, |e| e.id).ok()?;
        Some(self.0.remove(i))
    }
    #[cfg(test)]
    fn get(&self, id: u64) -> Option<&Envelope> {
        self.0
            .binary_search_by_key(&id, |e| e.id)
            .ok()
            .map(|i| &self.0[i])
    }
    fn values(&self) -> std::slice::Iter<'_, Envelope> {
        self.0.iter()
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Network {
    in_flight: Queue,
    /// Lost messages kept until their would-be delivery time, for the view.
    lost: Queue,
    next_id: u64,
    /// The latest delivery tick per link (see [`link`]), to keep links FIFO.
    link_tail: Vec<Tick>,
    /// In-flight messages per endpoint (see [`slot`]), for O(1) `busy`.
    per_node: Vec<u32>,
    /// Clients cut off from the lock service.
    pub partitioned: ClientSet,
    /// Clients whose next reply from the lock service is lost (with the connection).
    pub drop_next_reply: ClientSet,
    /// Servers that are down, by id.
    down: Vec<bool>,
    /// A partition: the nodes on one side (every other node is on the other).
    pub split: Option<SortedSet<Node>>,
}

/// A set of client ids (dense: a flag per client).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ClientSet(Vec<bool>);

impl ClientSet {
    /// Adds `c`; true if it was not there.
    pub fn insert(&mut self, c: ClientId) -> bool {
        if self.0.len() <= c {
            self.0.resize(c + 1, false);
        }
        !std::mem::replace(&mut self.0[c], true)
    }
    /// Removes `c`; true if it was there.
    pub fn remove(&mut self, c: &ClientId) -> bool {
        self.0
            .get_mut(*c)
            .is_some_and(|f| std::mem::replace(f, false))
    }
    pub fn contains(&self, c: &ClientId) -> bool {
        self.0.get(*c).copied().unwrap_or(false)
    }
}

/// Links between servers come first (`MAX_SERVERS`² of them), then each client's links to
/// every server and to the resource, in both directions. Clients never talk to each other.
fn link(from: Node, to: Node) -> usize {
    const S: usize = MAX_SERVERS;
    let other = |n: Node| match n {
        Node::Server(s) => Some(usize::from(s).min(S - 1)),
        Node::Resource => Some(S),
        Node::Client(_) => None,
    };
    match (from, to) {
        (Node::Server(a), Node::Server(b)) => {
            usize::from(a).min(S - 1) * S + usize::from(b).min(S - 1)
        }
        (Node::Client(c), x) => other(x).map_or(usize::MAX, |x| S * S + c * 2 * (S + 1) + 2 * x),
        (x, Node::Client(c)) => {
            other(x).map_or(usize::MAX, |x| S * S + c * 2 * (S + 1) + 2 * x + 1)
        }
        _ => usize::MAX,
    }
}

fn slot(n: Node) -> usize {
    match n {
        Node::Server(s) => usize::from(s).min(MAX_SERVERS - 1),
        Node::Resource => MAX_SERVERS,
        Node::Client(c) => c + MAX_SERVERS + 1,
    }
}

impl Network {
    /// Whether a message from `from` to `to` is lost: it goes to a server that is down, the
    /// client is cut off from the service, or a split puts the two ends on different sides
    /// (the resource stays reachable from both).
    fn cut(&self, from: Node, to: Node) -> bool {
        // What a server sent before it went down is on the wire and still arrives.
        if matches!(to, Node::Server(s) if self.is_down(s)) {
            return true;
        }
        match (from, to) {
            (Node::Client(c), Node::Server(_)) | (Node::Server(_), Node::Client(c))
                if self.partitioned.contains(&c) =>
            {
                return true;
            }
            _ => {}
        }
        self.split.as_ref().is_some_and(|side| {
            from != Node::Resource
                && to != Node::Resource
                && side.contains(&from) != side.contains(&to)
        })
    }

    /// Marks server `s` down (or up again). Going down loses every message in flight to it
    /// (what it sent is on the wire and still arrives); returns them.
    pub fn set_down(&mut self, s: ServerId, down: bool) -> Vec<Envelope> {
        let i = usize::from(s);
        if self.down.len() <= i {
            self.down.resize(i + 1, false);
        }
        self.down[i] = down;
        if !down {
            return Vec::new();
        }
        let n = Node::Server(s);
        let (gone, kept): (Vec<Envelope>, Vec<Envelope>) = std::mem::take(&mut self.in_flight.0)
            .into_iter()
            .partition(|e| e.to == n);
        self.in_flight.0 = kept;
        for e in &gone {
            self.count(e, false);
            self.lost.push(Envelope {
                lost: true,
                ..e.clone()
            });
        }
        crate::sort::by_key(&mut self.lost.0, |e| e.id);
        gone
    }

    /// Whether a message from `from` to `to` would be lost now.
    pub fn cuts(&self, from: Node, to: Node) -> bool {
        self.cut(from, to)
    }

    /// Whether server `s` is down.
    pub fn is_down(&self, s: ServerId) -> bool {
        self.down.get(usize::from(s)) == Some(&true)
    }

    /// Sends a message; returns its id. A message on a cut link is lost at once.
    pub fn send(
        &mut self,
        now: Tick,
        from: Node,
        to: Node,
        payload: Payload,
        latency: Latency,
        rng: &mut SimRng,
        conn: u32,
    ) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        let draw = rng.range(latency.min, latency.max.max(latency.min));
        let l = link(from, to);
        let tail = self.link_tail.get(l).copied().unwrap_or(0);
        let deliver_at = now.saturating_add(draw).max(tail);
        let lost = self.cut(from, to);
        let env = Envelope {
            id,
            from,
            to,
            sent_at: now,
            deliver_at,
            payload,
            lost,
            conn,
        };
        if lost {
            self.lost.push(env);
        } else {
            if l != usize::MAX {
                if self.link_tail.len() <= l {
                    self.link_tail.resize(l + 1, 0);
                }
                self.link_tail[l] = deliver_at;
            }
            self.count(&env, true);
            self.in_flight.push(env);
        }
        id
    }

    /// How many messages are in flight.
    pub fn in_flight_len(&self) -> usize {
        self.in_flight.0.len()
    }

    /// Messages that can be delivered, oldest first (id order is send order).
    pub fn in_flight(&self) -> impl Iterator<Item = &Envelope> {
        self.in_flight.values()
    }

    /// Lost messages still "in the air" for the view.
    pub fn lost(&self) -> impl DoubleEndedIterator<Item = &Envelope> {
        self.lost.values()
    }

    /// Forgets lost message `id` for the view: its host answered it (a refused connection
    /// comes back as the refusal, not as a message lost on its way).
    pub fn answered(&mut self, id: u64) {
        self.lost.remove(id);
    }

    /// The head of each link: only these may be delivered next (FIFO per link).
    pub fn deliverable(&self) -> Vec<&Envelope> {
        let mut seen = vec![false; self.link_tail.len() + 1];
        self.in_flight
            .values()
            .filter(|e| {
                let l = link(e.from, e.to).min(seen.len() - 1);
                !std::mem::replace(&mut seen[l], true)
            })
            .collect()
    }

    /// Takes a message out for delivery. A message whose link was cut meanwhile is lost instead.
    pub fn take(&mut self, id: u64) -> Option<Envelope> {
        let mut env = self.in_flight.remove(id)?;
        self.count(&env, false);
        if self.cut(env.from, env.to) {
            env.lost = true;
            self.lost.push(env.clone());
            crate::sort::by_key(&mut self.lost.0, |e| e.id);
        }
        Some(env)
    }

    /// Forgets lost messages whose time has passed, and everything addressed to or from a
    /// crashed client.
    pub fn tidy(&mut self, now: Tick) {
        self.lost.0.retain(|e| e.deliver_at > now);
    }

    fn count(&mut self, e: &Envelope, add: bool) {
        for n in [e.from, e.to] {
            let i = slot(n);
            if self.per_node.len() <= i {
                self.per_node.resize(i + 1, 0);
            }
            self.per_node[i] = if add {
                self.per_node[i] + 1
            } else {
                self.per_node[i].saturating_sub(1)
            };
        }
    }

    /// Drops every message to or from `c` (its process is gone).
    pub fn forget_client(&mut self, c: ClientId) {
        let (gone, kept): (Vec<Envelope>, Vec<Envelope>) = std::mem::take(&mut self.in_flight.0)
            .into_iter()
            .partition(|e| e.from == Node::Client(c) || e.to == Node::Client(c));
        self.in_flight.0 = kept;
        for e in &gone {
            self.count(e, false);
        }
    }

    /// The id the next message will get (ids are consecutive).
    pub fn next_id(&self) -> u64 {
        self.next_id
    }

    pub fn len(&self) -> usize {
        self.in_flight.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.in_flight.0.is_empty()
    }

    /// Whether anything is in flight to or from this node.
    pub fn busy(&self, n: Node) -> bool {
        self.per_node.get(slot(n)).is_some_and(|c| *c > 0)
    }

    /// Whether anything other than heartbeats (pings, keep-alives and their answers) is in
    /// flight to or from `n`.
    pub fn busy_with_work(&self, n: Node) -> bool {
        self.busy(n)
            && self
                .in_flight()
                .any(|e| (e.from == n || e.to == n) && !e.payload.background())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::services::{zookeeper, Up};
    use crate::sim::types::ResUp;

    fn ping() -> Payload {
        Payload::Up(Up::ZooKeeper(zookeeper::Up::Ping))
    }

    const L: Latency = Latency { min: 1, max: 5 };

    #[test]
    fn links_are_fifo_even_with_random_latency() {
        let (mut n, mut rng) = (Network::default(), SimRng::new(1));
        let mut last = 0;
        for t in 0..50 {
            let id = n.send(
                t / 3,
                Node::Client(0),
                Node::SERVICE,
                ping(),
                L,
                &mut rng,
                0,
            );
            let at = n.in_flight.get(id).unwrap().deliver_at;
            assert!(at >= last);
            last = at;
        }
        assert_eq!(n.deliverable().len(), 1);
    }

    #[test]
    fn partition_loses_messages_both_ways_but_not_to_the_resource() {
        let (mut n, mut rng) = (Network::default(), SimRng::new(1));
        n.partitioned.insert(0);
        n.send(0, Node::Client(0), Node::SERVICE, ping(), L, &mut rng, 0);
        n.send(
            0,
            Node::Client(0),
            Node::Resource,
            Payload::ResUp(ResUp::Read { token: 1 }),
            L,
            &mut rng,
            0,
        );
        assert_eq!(n.len(), 1);
        assert_eq!(n.lost().count(), 1);
        n.tidy(100);
        assert_eq!(n.lost().count(), 0);
    }
}

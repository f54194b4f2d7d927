//! The world: one cloneable snapshot owning everything (lock service, resource, clients,
//! network, PRNG, clock, metrics, monitors). The scheduler picks the next [`Action`]: the
//! earliest message delivery, timer, service timer or scripted command. It never asks which
//! lock service it hosts.

use serde::{Deserialize, Serialize};

use super::client::{Client, Outgoing, Timer};
use super::monitors::Monitors;
use super::network::{Latency, Network};
use super::resource::Resource;
use super::rng::SimRng;
use super::scenario::{Command, Scenario, TimedCommand};
use super::types::{ClientId, Node, Payload, Tick};
pub use crate::services::Service;

/// One thing the simulator can do next; a step applies exactly one.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    Deliver(u64),
    Timer(ClientId, Timer),
    ServiceTimer,
    Scripted(usize),
    Command(Command),
}

/// Counters for the metrics panel.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Metrics {
    pub requests: u64,
    pub notifications: u64,
    /// Notifications delivered to clients that were waiting for the lock.
    pub wakeups: u64,
    /// Lock hand-offs (a holder's release).
    pub releases: u64,
    pub messages: u64,
    /// Of `messages`: pings, keep-alives and their answers, between clients and servers or
    /// between servers.
    pub heartbeats: u64,
    pub lost_messages: u64,
}

impl Metrics {
    /// Wake-ups per release: 1 for a queue, ~N for a herd.
    pub fn herd_factor(&self) -> f64 {
        if self.releases == 0 {
            0.0
        } else {
            self.wakeups as f64 / self.releases as f64
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct World {
    pub now: Tick,
    pub service: Service,
    pub resource: Resource,
    pub clients: Vec<Client>,
    pub net: Network,
    pub rng: SimRng,
    pub latency: Latency,
    /// The scenario's timed commands by time, shared by every snapshot of the run.
    pub script: std::sync::Arc<[TimedCommand]>,
    /// Per client, the connection the service last heard it on (stamped on what it sends).
    pub seen_conn: Vec<u32>,
    pub next_script: usize,
    pub metrics: Metrics,
    pub monitors: Monitors,
    /// Exhaustive-search mode: no pings or read timeouts, every pending event is a choice.
    pub timeless: bool,
    pub steps: u64,
    pub max_leases: u32,
    /// Znodes deleted by the step being applied (moved into its record).
    pub deleted_now: Vec<String>,
    /// Entries created by the step being applied.
    pub created_now: Vec<String>,
    /// Requests to the service wait until then (a leader election in progress).
    pub stall_until: Tick,
    /// Per server, the tick until which it is paused (messages to it wait).
    pub server_paused: Vec<Tick>,
    /// Per server, the tick until which its links to the other servers carry nothing.
    pub links_paused: Vec<Tick>,
    /// Client pauses so far (the exhaustive search pauses a client at most once).
    pub client_pauses: u32,
}

/// The timed commands by time; stable: commands at the same tick keep their order.
fn script(sc: &Scenario) -> std::sync::Arc<[TimedCommand]> {
    let mut script = sc.faults.clone();
    crate::sort::by_key(&mut script, |f| f.at);
    script.into()
}

impl World {
    pub fn new(sc: &Scenario) -> World {
        let mut rng = SimRng::new(sc.seed);
        let service = super::setup::make_service(sc);
        let servers = service.servers().len();
        let clients = (0..sc.clients as usize)
            .map(|i| super::setup::make_client(sc, i, servers, &mut rng))
            .collect();
        let mut w = World {
            now: 0,
            service,
            resource: Resource::new(sc.fencing),
            clients,
            net: Network::default(),
            rng,
            latency: Latency {
                min: sc.latency_min,
                max: sc.latency_max,
            },
            script: script(sc),
            seen_conn: vec![0; sc.clients as usize],
            next_script: 0,
            metrics: Metrics::default(),
            monitors: Monitors::for_scenario(sc),
            timeless: false,
            steps: 0,
            max_leases: sc.max_leases,
            deleted_now: Vec::new(),
            created_now: Vec::new(),
            stall_until: 0,
            server_paused: Vec::new(),
            links_paused: Vec::new(),
            client_pauses: 0,
        };
        w.boot();
        w
    }

    /// Every client library starts at tick 0 (a ZooKeeper client connects; the others need
    /// no handshake).
    fn boot(&mut self) {
        for c in 0..self.clients.len() {
            let out = self.clients[c].start(0);
            self.client_sends(c, out);
        }
    }

    /// Puts a client's outgoing message on the network.
    pub(super) fn send_from(&mut self, c: ClientId, m: Outgoing) {
        let (to, payload) = match m {
            Outgoing::Up(up) => {
                self.metrics.requests += u64::from(up.is_request());
                let to = up.server().map_or_else(|| self.server_of(c), Node::Server);
                (to, Payload::Up(up))
            }
            Outgoing::Hangup => (self.server_of(c), Payload::Hangup),
            Outgoing::Res(r) => (Node::Resource, Payload::ResUp(r)),
        };
        self.send(Node::Client(c), to, payload);
    }

    /// The server client `c` talks to now.
    pub fn server_of(&self, c: ClientId) -> Node {
        let lib = self.clients.get(c).and_then(|x| x.lib.server());
        Node::Server(lib.unwrap_or_else(|| self.service.serving(c)))
    }

    pub(super) fn send(&mut self, from: Node, to: Node, payload: Payload) -> u64 {
        self.metrics.messages += 1;
        self.metrics.heartbeats += u64::from(payload.background() && payload != Payload::Hangup);
        let (conn, latency) = match (from, to) {
            (Node::Client(c), Node::Server(_)) => (self.clients[c].lib.connection(), self.latency),
            (Node::Server(_), Node::Client(c)) => {
                (self.seen_conn.get(c).copied().unwrap_or(0), self.latency)
            }
            (Node::Server(a), Node::Server(b)) => {
                let fixed = self.service.peer_delay(a, b);
                (
                    0,
                    fixed.map_or(self.latency, |t| Latency { min: t, max: t }),
                )
            }
            _ => (0, self.latency),
        };
        let id = self
            .net
            .send(self.now, from, to, payload, latency, &mut self.rng, conn);
        // A message lost at send is the newest lost one (no scan of the lost queue).
        let lost = self.net.lost().next_back().filter(|e| e.id == id).cloned();
        if let Some(e) = lost {
            self.metrics.lost_messages += 1;
            self.lost(&e);
        }
        id
    }

    /// A message was lost. Between servers, the sender's side may notice; a client's message
    /// to a server that is down meets its host's reset (the port is closed), where the service
    /// models one: the client hears at once that the connection failed (and the stage shows
    /// the refusal coming back, not the message lost on its way).
    pub(super) fn lost(&mut self, e: &super::network::Envelope) {
        match (e.from, e.to, &e.payload) {
            (Node::Server(a), Node::Server(b), Payload::Peer(p)) => {
                self.service.peer_lost(self.now, a, b, p);
            }
            (Node::Client(c), Node::Server(s), Payload::Up(_)) if self.net.is_down(s) => {
                if let Some(d) = self.service.refusal(s) {
                    if let Some(seen) = self.seen_conn.get_mut(c) {
                        *seen = e.conn;
                    }
                    self.send(Node::Server(s), Node::Client(c), Payload::Down(d));
                    self.net.answered(e.id);
                }
            }
            _ => {}
        }
    }

    /// Until when server `s`'s links to the other servers carry nothing.
    pub fn link_paused(&self, s: crate::services::ServerId) -> Tick {
        self.links_paused.get(usize::from(s)).copied().unwrap_or(0)
    }

    /// When each possible next action is due (ignoring time in timeless mode).
    pub fn enabled(&self) -> Vec<(Tick, Action)> {
        self.candidates().collect()
    }

    /// [`World::enabled`], one at a time (the scheduler looks at every client at every step;
    /// it keeps the earliest without collecting them).
    fn candidates(&self) -> impl Iterator<Item = (Tick, Action)> + '_ {
        let deliveries = self.net.deliverable().into_iter().map(|e| {
            let at = match e.to {
                Node::Client(c) => match self.clients[c].proc {
                    super::client::Proc::Paused { until } => e.deliver_at.max(until),
                    _ => e.deliver_at,
                },
                Node::Server(s) => {
                    let paused = self.server_paused.get(usize::from(s)).copied();
                    let at = e.deliver_at.max(self.stall_until).max(paused.unwrap_or(0));
                    match e.from {
                        Node::Server(f) => at.max(self.link_paused(f)).max(self.link_paused(s)),
                        _ => at,
                    }
                }
                _ => e.deliver_at,
            };
            (at, Action::Deliver(e.id))
        });
        let timers = self.clients.iter().filter_map(|c| {
            c.next_timer(self.timeless)
                .map(|(t, timer)| (t, Action::Timer(c.id, timer)))
        });
        let service = match self.timeless {
            true => self.service.timeless_deadline(),
            false => self.service.next_deadline(),
        }
        .map(|t| (t, Action::ServiceTimer));
        let script = (!self.timeless)
            .then(|| self.script.get(self.next_script))
            .flatten()
            .map(|f| (f.at, Action::Scripted(self.next_script)));
        deliveries.chain(timers).chain(service).chain(script)
    }

    /// The scheduler's choice: the earliest action; at equal times scripted commands first,
    /// then deliveries (in send order), then the service, then client timers.
    pub fn next_action(&self) -> Option<(Tick, Action)> {
        if self.quiescent() {
            return None;
        }
        let rank = |a: &Action| match a {
            Action::Scripted(_) | Action::Command(_) => 0,
            Action::Deliver(_) => 1,
            Action::ServiceTimer => 2,
            Action::Timer(..) => 3,
        };
        let tie = |a: &Action| match a {
            Action::Deliver(id) => (*id, 0),
            Action::Timer(c, _) => (*c as u64, 0),
            Action::Scripted(i) => (*i as u64, 0),
            _ => (0, 0),
        };
        self.candidates().min_by(|(ta, a), (tb, b)| {
            ta.cmp(tb)
                .then(rank(a).cmp(&rank(b)))
                .then(tie(a).cmp(&tie(b)))
        })
    }
}

impl World {
    /// Nothing left to happen but pings: every application is done (or its process gone), no
    /// scripted command remains, and nothing but pings is in flight.
    pub fn quiescent(&self) -> bool {
        use super::app::AppState;
        let apps_done = self
            .clients
            .iter()
            .all(|c| !c.alive() || (c.app.state == AppState::Done && c.lib.quiet()));
        let only_pings = self.net.in_flight().all(|e| e.payload.background());
        apps_done && only_pings && self.next_script >= self.script.len()
    }
}

//! The world: one cloneable snapshot owning everything (lock service, resource, clients,
//! network, PRNG, clock, metrics, monitors). The scheduler picks the next [`Action`]: the
//! earliest message delivery, timer, service timer or scripted command.

use serde::{Deserialize, Serialize};

use super::client::{Client, Outgoing, Timer};
use super::monitors::Monitors;
use super::network::{Latency, Network};
use super::resource::Resource;
use super::rng::SimRng;
use super::scenario::{Command, Scenario, TimedCommand};
use super::types::{ClientId, Node, Payload, Tick};
use crate::engine::{Server, SessionId};

/// Session id → client. The server hands out consecutive ids, so a list indexed from the
/// first id is enough.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SessionOwners(Vec<Option<ClientId>>);

impl SessionOwners {
    fn slot(s: SessionId) -> Option<usize> {
        usize::try_from(s.0.checked_sub(SessionId::FIRST.0)?).ok()
    }
    pub fn get(&self, s: &SessionId) -> Option<&ClientId> {
        self.0.get(Self::slot(*s)?)?.as_ref()
    }
    pub fn insert(&mut self, s: SessionId, c: ClientId) {
        let Some(i) = Self::slot(s).filter(|i| *i < 1 << 24) else { return };
        if self.0.len() <= i {
            self.0.resize(i + 1, None);
        }
        self.0[i] = Some(c);
    }
}

/// The lock services a world can host; the scenario's recipe decides which.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Service {
    ZooKeeper(Server),
    #[cfg(feature = "services")]
    Redis(crate::services::redis::Redis),
    #[cfg(feature = "services")]
    Etcd(crate::services::etcd::Etcd),
    #[cfg(feature = "services")]
    Sql(crate::services::sql::Sql),
}

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
    pub script: Vec<TimedCommand>,
    pub next_script: usize,
    /// Which client each session belongs to.
    pub session_owner: SessionOwners,
    pub metrics: Metrics,
    pub monitors: Monitors,
    /// Exhaustive-search mode: no pings or read timeouts, every pending event is a choice.
    pub timeless: bool,
    pub steps: u64,
    pub max_leases: u32,
    /// Znodes deleted by the step being applied (moved into its record).
    pub deleted_now: Vec<String>,
    /// Requests to the service wait until then (a leader election in progress).
    pub stall_until: Tick,
}

impl World {
    pub fn new(sc: &Scenario) -> World {
        let mut rng = SimRng::new(sc.seed);
        let service = super::setup::make_service(sc);
        let clients = (0..sc.clients as usize).map(|i| super::setup::make_client(sc, i, &mut rng)).collect();
        let mut w = World {
            now: 0,
            service,
            resource: Resource::new(sc.fencing),
            clients,
            net: Network::default(),
            rng,
            latency: Latency { min: sc.latency_min, max: sc.latency_max },
            script: sc.faults.clone(),
            next_script: 0,
            session_owner: SessionOwners::default(),
            metrics: Metrics::default(),
            monitors: Monitors::default(),
            timeless: false,
            steps: 0,
            max_leases: sc.max_leases,
            deleted_now: Vec::new(),
            stall_until: 0,
        };
        // Stable by time (commands at the same tick keep their order); scripts are short.
        for i in 1..w.script.len() {
            let mut j = i;
            while j > 0 && w.script[j - 1].at > w.script[j].at {
                w.script.swap(j - 1, j);
                j -= 1;
            }
        }
        w.boot();
        w
    }

    /// Every ZooKeeper client opens its session at tick 0 (other services need no handshake).
    fn boot(&mut self) {
        if self.server().is_none() {
            return;
        }
        for c in 0..self.clients.len() {
            let lib = self.clients[c].zk.start(0);
            for l in lib {
                if let super::zkclient::LibOut::Send(m) = l {
                    self.send_from(c, Outgoing::Zk(m));
                }
            }
        }
    }

    /// The ZooKeeper server, if this world runs one.
    pub fn server(&self) -> Option<&Server> {
        match &self.service {
            Service::ZooKeeper(s) => Some(s),
            _ => None,
        }
    }

    pub(super) fn server_mut(&mut self) -> Option<&mut Server> {
        match &mut self.service {
            Service::ZooKeeper(s) => Some(s),
            _ => None,
        }
    }

    /// Puts a client's outgoing message on the network.
    pub(super) fn send_from(&mut self, c: ClientId, m: Outgoing) {
        let (to, payload) = match m {
            Outgoing::Zk(z) => {
                if matches!(z, super::types::ZkUp::Request { .. }) {
                    self.metrics.requests += 1;
                }
                (Node::Service, Payload::ZkUp(z))
            }
            Outgoing::Res(r) => (Node::Resource, Payload::ResUp(r)),
            Outgoing::Svc(r) => {
                self.metrics.requests += 1;
                (Node::Service, Payload::SvcUp(super::types::SvcUp::Req(r)))
            }
        };
        self.send(Node::Client(c), to, payload);
    }

    pub(super) fn send(&mut self, from: Node, to: Node, payload: Payload) -> u64 {
        self.metrics.messages += 1;
        let id = self.net.send(self.now, from, to, payload, self.latency, &mut self.rng);
        // A message lost at send is the newest lost one (no scan of the lost queue).
        if self.net.lost().next_back().is_some_and(|e| e.id == id) {
            self.metrics.lost_messages += 1;
        }
        id
    }

    /// When each possible next action is due (ignoring time in timeless mode).
    pub fn enabled(&self) -> Vec<(Tick, Action)> {
        let mut v = Vec::new();
        for e in self.net.deliverable() {
            let at = match e.to {
                Node::Client(c) => match self.clients[c].proc {
                    super::client::Proc::Paused { until } => e.deliver_at.max(until),
                    _ => e.deliver_at,
                },
                Node::Service => e.deliver_at.max(self.stall_until),
                _ => e.deliver_at,
            };
            v.push((at, Action::Deliver(e.id)));
        }
        for c in &self.clients {
            if let Some((t, timer)) = c.next_timer(self.timeless) {
                v.push((t, Action::Timer(c.id, timer)));
            }
        }
        if !self.timeless {
            if let Some(t) = self.server().and_then(|s| s.next_deadline()).or_else(|| self.svc_deadline()) {
                v.push((t, Action::ServiceTimer));
            }
            if let Some(f) = self.script.get(self.next_script) {
                v.push((f.at, Action::Scripted(self.next_script)));
            }
        }
        v
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
        self.enabled().into_iter().min_by(|(ta, a), (tb, b)| ta.cmp(tb).then(rank(a).cmp(&rank(b))).then(tie(a).cmp(&tie(b))))
    }
}

impl World {
    /// Nothing left to happen but pings: every application is done (or its process gone), no
    /// scripted command remains, and nothing but pings is in flight.
    pub fn quiescent(&self) -> bool {
        use super::app::AppState;
        let apps_done = self.clients.iter().all(|c| !c.alive() || (c.app.state == AppState::Done && c.zk.outstanding() == 0));
        let only_pings = self.net.in_flight().all(|e| {
            matches!(
                e.payload,
                Payload::ZkUp(super::types::ZkUp::Ping)
                    | Payload::ZkDown(super::types::ZkDown::Output(crate::engine::Output::Pong { .. }))
            ) || super::svc::background(&e.payload)
        });
        apps_done && only_pings && self.next_script >= self.script.len()
    }
}

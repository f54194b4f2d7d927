//! Applying one action to the world and recording what it caused, with its narration.

use serde::{Deserialize, Serialize};

use super::client::{Outgoing, Proc, Timer};
use super::narrate::{Detail, Key, Narration};
use super::network::Envelope;
use super::types::{ClientId, Node, Payload, ResDown, ResUp, Tick, ZkDown, ZkUp};
use super::world::{Action, World};
use super::zkclient::LibTimer;
use crate::engine::Output;

/// What one step did.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct StepRecord {
    pub index: u64,
    pub time: Tick,
    pub action: Action,
    pub narration: Narration,
    /// Message delivered (or lost) by this step.
    pub delivered: Option<Delivered>,
    /// Messages sent by this step, by id.
    pub sent: Vec<u64>,
    /// Watch notifications the server emitted: (client, event type, path).
    pub fired: Vec<(ClientId, String, String)>,
    /// Znodes this step deleted.
    pub deleted: Vec<String>,
}

/// A delivered message, as the sequence diagram draws it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Delivered {
    pub id: u64,
    pub from: Node,
    pub to: Node,
    pub sent_at: Tick,
    pub label: String,
    pub lost: bool,
}

impl From<&Envelope> for Delivered {
    fn from(e: &Envelope) -> Self {
        Delivered { id: e.id, from: e.from, to: e.to, sent_at: e.sent_at, label: e.payload.label(), lost: e.lost }
    }
}

impl World {
    /// Applies the scheduler's next action; `None` when nothing is left to happen.
    pub fn step(&mut self) -> Option<StepRecord> {
        let (at, action) = self.next_action()?;
        self.now = self.now.max(at);
        Some(self.apply(action))
    }

    /// Applies a given action now (the scheduler's choice, a user command, or a path step).
    pub fn apply(&mut self, action: Action) -> StepRecord {
        self.steps += 1;
        let before = self.net.next_id();
        let mut fired = Vec::new();
        let (narration, delivered) = match &action {
            Action::Deliver(id) => self.deliver(*id, &mut fired),
            Action::Timer(c, t) if *c < self.clients.len() => (self.timer(*c, *t), None),
            Action::Timer(..) => (Narration::new(Key::ServiceTick, None), None),
            Action::ServiceTimer => (self.service_tick(&mut fired), None),
            Action::Scripted(i) => {
                self.next_script = self.next_script.max(i + 1);
                let cmd = self.script.get(*i).map(|t| t.command.clone());
                (cmd.map(|c| self.command(&c, &mut fired)).unwrap_or_else(|| Narration::new(Key::ServiceTick, None)), None)
            }
            Action::Command(c) => (self.command(c, &mut fired), None),
        };
        self.net.tidy(self.now);
        let sent = (before..self.net.next_id()).collect();
        let deleted = std::mem::take(&mut self.deleted_now);
        let record = StepRecord { index: self.steps, time: self.now, action, narration, delivered, sent, fired, deleted };
        super::monitors::check(self, record.index);
        record
    }

    pub(super) fn client_sends(&mut self, c: ClientId, out: Vec<Outgoing>) {
        for m in out {
            self.send_from(c, m);
        }
    }

    fn deliver(&mut self, id: u64, fired: &mut Vec<(ClientId, String, String)>) -> (Narration, Option<Delivered>) {
        let Some(env) = self.net.take(id) else { return (Narration::new(Key::ServiceTick, None), None) };
        let client = match (env.from, env.to) {
            (Node::Client(c), _) | (_, Node::Client(c)) => Some(c),
            _ => None,
        };
        if env.lost {
            self.metrics.lost_messages += 1;
            return (Narration::new(Key::MessageLost, client).a(env.payload.label()), Some((&env).into()));
        }
        let n = match (env.to, env.payload.clone()) {
            (Node::Service, Payload::ZkUp(m)) => self.at_service(client.unwrap_or(0), m, fired),
            (Node::Resource, Payload::ResUp(m)) => self.at_resource(client.unwrap_or(0), m),
            (Node::Service, Payload::SvcUp(m)) => self.at_svc(client.unwrap_or(0), m),
            (Node::Client(c), p) => self.at_client(c, p),
            _ => Narration::new(Key::ServiceTick, None),
        };
        (n, Some((&env).into()))
    }

    fn at_resource(&mut self, c: ClientId, m: ResUp) -> Narration {
        let answer = self.resource.handle(self.now, c, m.clone());
        let n = match (&m, &answer) {
            (ResUp::Read { .. }, ResDown::ReadOk { value, .. }) => Narration::new(Key::ResourceRead, Some(c)).n(*value as i64),
            (ResUp::Write { value, token, .. }, ResDown::WriteRejected { highest, .. }) => {
                Narration::new(Key::ResourceWrite, Some(c)).n(*value as i64).a(token.to_string()).b(Detail::Rejected { highest: *highest })
            }
            (ResUp::Write { value, token, .. }, _) => {
                let lost = self.resource.writes.back().is_some_and(|w| w.lost_update);
                let d = if lost { Detail::LostUpdate } else { Detail::Accepted };
                Narration::new(Key::ResourceWrite, Some(c)).n(*value as i64).a(token.to_string()).b(d)
            }
            _ => Narration::new(Key::ResourceAnswer, Some(c)),
        };
        self.send(Node::Resource, Node::Client(c), Payload::ResDown(answer));
        n
    }

    fn at_client(&mut self, c: ClientId, p: Payload) -> Narration {
        let label = p.label();
        if !self.clients[c].alive() {
            return Narration::new(Key::ToDeadClient, Some(c)).a(label);
        }
        let was_waiting = matches!(self.clients[c].recipe.phase(), crate::recipes::Phase::Watching(_) | crate::recipes::Phase::Waiting(_));
        let (now, rng) = (self.now, &mut self.rng);
        let (out, n) = match p {
            Payload::ZkDown(m) => {
                let n = super::describe::client_zk(c, &m);
                if let ZkDown::Output(Output::Notify { .. }) = m {
                    self.metrics.notifications += 1;
                    self.metrics.wakeups += u64::from(was_waiting);
                }
                (self.clients[c].receive_zk(now, m, rng), n)
            }
            Payload::SvcDown(m) => {
                let n = if super::client::is_event(&m) {
                    self.metrics.notifications += 1;
                    self.metrics.wakeups += u64::from(was_waiting);
                    Narration::new(Key::SvcWatchEvent, Some(c)).a(m.label())
                } else {
                    Narration::new(Key::SvcAnswer, Some(c)).a(m.label())
                };
                let releasing = self.clients[c].recipe.phase() == crate::recipes::Phase::Releasing;
                let out = self.clients[c].receive_svc(now, m, rng);
                self.metrics.releases += u64::from(releasing && self.clients[c].recipe.phase() != crate::recipes::Phase::Releasing);
                (out, n)
            }
            Payload::ResDown(m) => {
                let b = super::describe::res_answer(&m);
                (self.clients[c].receive_res(now, m, rng), Narration::new(Key::ResourceAnswer, Some(c)).b(b))
            }
            _ => (Vec::new(), Narration::new(Key::ServiceTick, None)),
        };
        self.client_sends(c, out);
        n.phase(self.clients[c].recipe.phase())
    }


    fn timer(&mut self, c: ClientId, t: Timer) -> Narration {
        let (now, rng) = (self.now, &mut self.rng);
        let out = self.clients[c].fire(now, t, rng);
        self.client_sends(c, out);
        let key = match t {
            Timer::Start => Key::TimerStart,
            Timer::WorkDone => Key::TimerWorkDone,
            Timer::AcquireTimeout => Key::TimerAcquireTimeout,
            Timer::Lib(LibTimer::Ping) => Key::TimerPing,
            Timer::Lib(LibTimer::ReadTimeout) => Key::TimerReadTimeout,
            Timer::Lib(LibTimer::Reconnect) => Key::TimerReconnect,
            Timer::Retry => Key::TimerRetry,
            Timer::KeepAlive => Key::TimerKeepAlive,
            Timer::Resend => Key::TimerResend,
        };
        Narration::new(key, Some(c)).phase(self.clients[c].recipe.phase())
    }

    /// The service's own clock: expire due sessions.
    fn service_tick(&mut self, fired: &mut Vec<(ClientId, String, String)>) -> Narration {
        let now = self.now;
        let Some(server) = self.server_mut() else { return self.svc_tick() };
        let outputs = server.handle(now, crate::engine::Input::Tick);
        let n = super::describe::expiry(self, &outputs);
        self.route(None, outputs, fired);
        n
    }

    /// Sends the server's outputs where they belong.
    pub(super) fn route(&mut self, sender: Option<ClientId>, outputs: Vec<Output>, fired: &mut Vec<(ClientId, String, String)>) {
        for o in outputs {
            let (to, payload) = match &o {
                Output::Connected { session, .. } => {
                    let Some(c) = sender else { continue };
                    self.session_owner.insert(*session, c);
                    (c, ZkDown::Output(o))
                }
                Output::ConnectRejected { .. } => (sender.unwrap_or(0), ZkDown::Output(o)),
                Output::Reply { session, .. } | Output::Notify { session, .. } | Output::Pong { session, .. } => {
                    let Some(c) = self.session_owner.get(session).copied() else { continue };
                    if let Output::Notify { event, .. } = &o {
                        fired.push((c, event.kind.name().to_string(), event.path.clone()));
                    }
                    (c, ZkDown::Output(o))
                }
                Output::SessionEnded { session, expired, deleted, .. } => {
                    self.deleted_now.extend(deleted.iter().cloned());
                    let Some(c) = self.session_owner.get(session).copied() else { continue };
                    (c, if *expired { ZkDown::ConnectionClosed } else { ZkDown::Closed })
                }
                Output::ContainerReaped { .. } => continue,
            };
            self.send_down(to, payload);
        }
    }

    fn send_down(&mut self, c: ClientId, payload: ZkDown) {
        let is_reply = matches!(payload, ZkDown::Output(Output::Reply { .. }));
        if is_reply && self.net.drop_next_reply.remove(&c) {
            self.send_lost(c, Payload::ZkDown(payload));
            self.send(Node::Service, Node::Client(c), Payload::ZkDown(ZkDown::ConnectionLost));
            return;
        }
        self.send(Node::Service, Node::Client(c), Payload::ZkDown(payload));
    }

    /// A message that is lost on the way (shown in flight, never delivered).
    pub(super) fn send_lost(&mut self, c: ClientId, payload: Payload) -> u64 {
        let newly_cut = self.net.partitioned.insert(c);
        let id = self.send(Node::Service, Node::Client(c), payload);
        if newly_cut {
            self.net.partitioned.remove(&c);
        }
        id
    }

    pub(super) fn at_service(&mut self, c: ClientId, m: ZkUp, fired: &mut Vec<(ClientId, String, String)>) -> Narration {
        use crate::engine::Input;
        let session = self.clients[c].zk.session;
        let live = session.is_some_and(|s| self.server().is_some_and(|srv| srv.sessions().is_live(s)));
        let input = match &m {
            ZkUp::Connect { timeout_ms } => Input::Connect { timeout_ms: *timeout_ms },
            ZkUp::Reconnect { session, last_zxid, watches } => Input::Reconnect { session: *session, last_zxid: *last_zxid, watches: watches.clone() },
            _ if !live => return Narration::new(Key::ClosedConnection, Some(c)).a(Payload::ZkUp(m).label()),
            ZkUp::Request { xid, request } => Input::Request { session: session.unwrap_or(crate::engine::SessionId(0)), xid: *xid, request: request.clone() },
            ZkUp::Ping => Input::Ping { session: session.unwrap_or(crate::engine::SessionId(0)) },
            ZkUp::Close => Input::Close { session: session.unwrap_or(crate::engine::SessionId(0)) },
        };
        let now = self.now;
        let Some(server) = self.server_mut() else { return Narration::new(Key::ServiceTick, None) };
        let outputs = server.handle(now, input);
        if let ZkUp::Request { request: crate::engine::Request::Delete { path, .. }, .. } = &m {
            if outputs.iter().any(|o| matches!(o, Output::Reply { result: Ok(_), .. })) {
                self.deleted_now.push(path.clone());
                // A hand-off: a client deleted its own lock node.
                self.metrics.releases += u64::from(self.clients[c].recipe.my_node() == Some(path.as_str()));
            }
        }
        let n = super::describe::at_service(self, c, &m, &outputs);
        self.route(Some(c), outputs, fired);
        n
    }

    pub(super) fn mark_crashed(&mut self, c: ClientId) {
        self.clients[c].proc = Proc::Crashed;
        self.net.forget_client(c);
    }
}

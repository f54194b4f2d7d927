//! Applying one action to the world and recording what it caused, with its narration.

use serde::{Deserialize, Serialize};

use super::client::{Outgoing, Proc, Timer};
use super::network::Envelope;
use super::types::{ClientId, Node, Payload, ResDown, ResUp, Tick};
use super::world::{Action, World};
use crate::narrate::{Detail, Key, Narration};
use crate::services::{Down, LibTimer, Out, Peer, ServerId, Up, Wire};

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
    /// Entries (znodes, keys, rows) this step created and deleted, by id.
    pub created: Vec<String>,
    pub deleted: Vec<String>,
    /// Background only: a ping or keep-alive sent, arriving or answered (Step and Play skip
    /// these by default).
    pub heartbeat: bool,
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
    /// The message in full (request or reply, field by field).
    pub wire: Wire,
    /// A ping, a keep-alive or an answer to one.
    pub heartbeat: bool,
}

impl From<&Envelope> for Delivered {
    fn from(e: &Envelope) -> Self {
        Delivered {
            id: e.id,
            from: e.from,
            to: e.to,
            sent_at: e.sent_at,
            label: e.payload.label(),
            lost: e.lost,
            wire: e.payload.wire(),
            heartbeat: e.payload.background() && e.payload != Payload::Hangup,
        }
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
                self.next_script = self.next_script.max(i.saturating_add(1));
                let cmd = self.script.get(*i).map(|t| t.command.clone());
                (
                    cmd.map(|c| self.command(&c, &mut fired))
                        .unwrap_or_else(|| Narration::new(Key::ServiceTick, None)),
                    None,
                )
            }
            Action::Command(c) => (self.command(c, &mut fired), None),
        };
        let narration = self.honest(narration);
        self.net.tidy(self.now);
        let sent = (before..self.net.next_id()).collect();
        let deleted = std::mem::take(&mut self.deleted_now);
        let created = std::mem::take(&mut self.created_now);
        let heartbeat = match (&action, &delivered) {
            (Action::Timer(_, Timer::Lib(LibTimer::Ping) | Timer::KeepAlive), _) => true,
            (Action::Deliver(_), Some(d)) => d.heartbeat,
            _ => false,
        };
        let record = StepRecord {
            index: self.steps,
            time: self.now,
            action,
            narration,
            delivered,
            sent,
            fired,
            created,
            deleted,
            heartbeat,
        };
        super::monitors::check(self, record.index, record.heartbeat);
        record
    }

    /// A sentence that ends "Now: holding the lock" says "believes it holds" when the service
    /// no longer says the client holds (the card's status says the same).
    fn honest(&self, mut n: Narration) -> Narration {
        let holding = n.phase == Some(crate::recipes::Phase::Holding);
        if let Some(c) = n
            .client
            .filter(|_| holding)
            .and_then(|c| self.clients.get(c))
        {
            let lockless = matches!(c.recipe, crate::recipes::Recipe::None(_));
            n.believes = !lockless && !(c.alive() && self.service.holds(self.now, &c.claim()));
        }
        n
    }

    pub(super) fn client_sends(&mut self, c: ClientId, out: Vec<Outgoing>) {
        for m in out {
            self.send_from(c, m);
        }
    }

    fn deliver(
        &mut self,
        id: u64,
        fired: &mut Vec<(ClientId, String, String)>,
    ) -> (Narration, Option<Delivered>) {
        let Some(env) = self.net.take(id) else {
            return (Narration::new(Key::ServiceTick, None), None);
        };
        let client = match (env.from, env.to) {
            (Node::Client(c), _) | (_, Node::Client(c)) => Some(c),
            _ => None,
        };
        if env.lost {
            self.metrics.lost_messages += 1;
            self.lost(&env);
            let key = match client {
                Some(_) => Key::MessageLost,
                None => Key::PeerLost,
            };
            return (
                Narration::new(key, client).a(env.payload.label()),
                Some((&env).into()),
            );
        }
        let n = match (env.to, env.payload.clone()) {
            (Node::Server(at), Payload::Up(m))
                if m.is_handshake() && self.moved_on(env.from, at) =>
            {
                let name = self
                    .service
                    .servers()
                    .get(usize::from(at))
                    .map(|s| s.name.clone());
                Narration::new(Key::AbandonedHandshake, client)
                    .a(m.label())
                    .b(Detail::Text(name.unwrap_or_default()))
            }
            (Node::Server(at), Payload::Up(m)) => {
                let c = client.unwrap_or(0);
                if let Some(seen) = self.seen_conn.get_mut(c) {
                    *seen = env.conn;
                }
                self.at_service(at, c, m, fired)
            }
            (Node::Server(at), Payload::Hangup) => self.at_hangup(at, client.unwrap_or(0), fired),
            (Node::Server(to), Payload::Peer(p)) => {
                let from = match env.from {
                    Node::Server(s) => s,
                    _ => to,
                };
                self.at_peer(from, to, p, fired)
            }
            (Node::Resource, Payload::ResUp(m)) => self.at_resource(client.unwrap_or(0), m),
            (Node::Client(c), p) => self.at_client(c, p, env.conn, env.from),
            _ => Narration::new(Key::ServiceTick, None),
        };
        (n, Some((&env).into()))
    }

    /// The client left server `at` for another one and closed its socket there: a handshake
    /// it sent on that socket opens nothing (a library reads only the server it talks to now).
    fn moved_on(&self, from: Node, at: ServerId) -> bool {
        let Node::Client(c) = from else { return false };
        if !crate::FULL {
            return false; // One server: there is nowhere else to move on to.
        }
        let lib = self.clients.get(c).map(|x| &x.lib);
        lib.and_then(|l| l.server()).is_some_and(|h| h != at)
    }

    fn at_resource(&mut self, c: ClientId, m: ResUp) -> Narration {
        let answer = self.resource.handle(self.now, c, m.clone());
        let n = match (&m, &answer) {
            (ResUp::Read { .. }, ResDown::ReadOk { value, .. }) => {
                Narration::new(Key::ResourceRead, Some(c)).n(*value as i64)
            }
            (ResUp::Write { value, token, .. }, ResDown::WriteRejected { highest, .. }) => {
                Narration::new(write_key(self.resource.fencing), Some(c))
                    .n(*value as i64)
                    .a(token.to_string())
                    .b(Detail::Rejected { highest: *highest })
            }
            (ResUp::Write { value, token, .. }, _) => {
                let lost = self.resource.writes.back().is_some_and(|w| w.lost_update);
                let d = if lost {
                    Detail::LostUpdate
                } else {
                    Detail::Accepted
                };
                Narration::new(write_key(self.resource.fencing), Some(c))
                    .n(*value as i64)
                    .a(token.to_string())
                    .b(d)
            }
            _ => Narration::new(Key::ResourceAnswer, Some(c)),
        };
        self.send(Node::Resource, Node::Client(c), Payload::ResDown(answer));
        n
    }

    fn at_client(&mut self, c: ClientId, p: Payload, conn: u32, from: Node) -> Narration {
        let label = p.label();
        if !self.clients[c].alive() {
            return Narration::new(Key::ToDeadClient, Some(c)).a(label);
        }
        // Watch events travel on their own stream; answers must match the attempt.
        let lib = &self.clients[c].lib;
        let old_attempt = |m: &crate::services::Down| !m.is_event() && conn != lib.connection();
        // A library that walks its connect string reads only the server it talks to now: the
        // socket to any other was closed when it moved on.
        let left = matches!(from, Node::Server(s) if lib.server().is_some_and(|h| h != s));
        if matches!(&p, Payload::Down(m) if left || old_attempt(m) || lib.stale(m)) {
            return Narration::new(Key::StaleReply, Some(c)).a(label);
        }
        let phase = self.clients[c].recipe.phase();
        let was_waiting = matches!(
            phase,
            crate::recipes::Phase::Watching(_) | crate::recipes::Phase::Waiting(_)
        );
        let releasing = phase == crate::recipes::Phase::Releasing;
        let (now, rng) = (self.now, &mut self.rng);
        let (out, n) = match p {
            Payload::Down(m) => {
                let n = m.heard(c);
                if m.is_event() {
                    self.metrics.notifications += 1;
                    self.metrics.wakeups += u64::from(was_waiting);
                }
                (self.clients[c].receive(now, m, rng), n)
            }
            Payload::ResDown(m) => {
                let b = res_answer(&m);
                (
                    self.clients[c].receive_res(now, m, rng),
                    Narration::new(Key::ResourceAnswer, Some(c)).b(b),
                )
            }
            _ => (Vec::new(), Narration::new(Key::ServiceTick, None)),
        };
        // A hand-off: the holder's release finished.
        self.metrics.releases += u64::from(
            releasing && self.clients[c].recipe.phase() != crate::recipes::Phase::Releasing,
        );
        self.client_sends(c, out);
        n.phase(self.clients[c].recipe.shown_phase())
    }

    /// The service's own clock (session and lease expiry, replication).
    fn service_tick(&mut self, fired: &mut Vec<(ClientId, String, String)>) -> Narration {
        if self.timeless {
            // The search fires the timer whenever it chooses: its time has come.
            self.now = self.now.max(self.service.timeless_deadline().unwrap_or(0));
        }
        let mut out = Out::default();
        let n = self.service.tick(self.now, &mut out);
        self.emit(out, fired);
        if matches!(n.key, Key::ServerRestart | Key::ServerRestartDisk) {
            // A restart the service held back (Redlock's delayed restart) comes due.
            self.sync_servers();
        }
        n
    }

    /// Sends what the service emitted and records what it deleted and which watches fired.
    pub(super) fn emit(&mut self, out: Out, fired: &mut Vec<(ClientId, String, String)>) {
        self.created_now.extend(out.created);
        self.deleted_now.extend(out.deleted);
        fired.extend(out.fired);
        let from = out.from.into_iter().chain(std::iter::repeat(None));
        for ((c, d), s) in out.msgs.into_iter().zip(from) {
            self.send_down(c, d, s);
        }
        for p in out.peers {
            self.send(
                Node::Server(p.from),
                Node::Server(p.to),
                Payload::Peer(p.msg),
            );
        }
    }

    /// A message from server `from` arrives at server `to`.
    fn at_peer(
        &mut self,
        from: ServerId,
        to: ServerId,
        p: Peer,
        fired: &mut Vec<(ClientId, String, String)>,
    ) -> Narration {
        let mut out = Out::default();
        let n = self.service.peer(self.now, from, to, p, &mut out);
        self.emit(out, fired);
        n
    }

    /// An answer or event to client `c`; a "lost reply" fault loses the next reply (and, for
    /// ZooKeeper, its connection with it).
    /// `from`: the server it leaves from, if not the one the client talks to now.
    fn send_down(&mut self, c: ClientId, d: Down, from: Option<ServerId>) {
        if c >= self.clients.len() {
            return;
        }
        let src = from.map_or_else(|| self.server_of(c), Node::Server);
        if d.is_reply() && self.net.drop_next_reply.remove(&c) {
            let extra = d.lost_with_connection();
            self.send_lost(c, Payload::Down(d));
            if let Some(e) = extra {
                self.send(src, Node::Client(c), Payload::Down(e));
            }
            return;
        }
        self.send(src, Node::Client(c), Payload::Down(d));
    }

    /// A message that is lost on the way (shown in flight, never delivered).
    pub(super) fn send_lost(&mut self, c: ClientId, payload: Payload) -> u64 {
        let newly_cut = self.net.partitioned.insert(c);
        let id = self.send(self.server_of(c), Node::Client(c), payload);
        if newly_cut {
            self.net.partitioned.remove(&c);
        }
        id
    }

    fn at_service(
        &mut self,
        at: ServerId,
        c: ClientId,
        m: Up,
        fired: &mut Vec<(ClientId, String, String)>,
    ) -> Narration {
        let mut out = Out::default();
        let n = self.service.receive(self.now, at, c, m, &mut out);
        self.emit(out, fired);
        n
    }

    /// The client's connection closed under the service.
    fn at_hangup(
        &mut self,
        at: ServerId,
        c: ClientId,
        fired: &mut Vec<(ClientId, String, String)>,
    ) -> Narration {
        let mut out = Out::default();
        let n = self.service.hangup(self.now, at, c, &mut out);
        self.emit(out, fired);
        n
    }

    pub(super) fn mark_crashed(&mut self, c: ClientId) {
        self.clients[c].proc = Proc::Crashed;
        self.net.forget_client(c);
    }
}

/// With fencing on a write names its token; without fencing the token means nothing.
fn write_key(fencing: bool) -> Key {
    if fencing {
        Key::ResourceWrite
    } else {
        Key::ResourceWritePlain
    }
}

fn res_answer(m: &ResDown) -> Detail {
    match m {
        ResDown::ReadOk { value, .. } => Detail::Value(*value),
        ResDown::WriteOk { value } => Detail::Wrote(*value),
        ResDown::WriteRejected { highest, .. } => Detail::Rejected { highest: *highest },
    }
}

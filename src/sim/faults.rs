//! Faults and user commands, applied as one step each: crash, graceful close, server-side
//! expiry, partition/heal, process pause, a lost reply, latency, and acquire/release requests.

use super::client::{Outgoing, Proc};
use super::narrate::{Key, Narration};
use super::network::Latency;
use super::scenario::Command;
use super::types::{ClientId, Node, Payload, SvcUp};
#[cfg(feature = "services")]
use crate::recipes::wire::SvcReq;
#[cfg(feature = "services")]
use crate::services::etcd::types::Req;
use super::world::World;
use crate::engine::Input;

impl World {
    /// Applies a command now.
    pub fn command(&mut self, cmd: &Command, fired: &mut Vec<(ClientId, String, String)>) -> Narration {
        let c = cmd.client().filter(|c| *c < self.clients.len());
        if cmd.client().is_some() && c.is_none() {
            return Narration::new(Key::ServiceTick, None);
        }
        let ci = c.unwrap_or(0);
        let zk = self.server().is_some();
        let (now, rng) = (self.now, &mut self.rng);
        match cmd {
            Command::Crash { .. } => {
                self.mark_crashed(ci);
                if zk {
                    return Narration::new(Key::CmdCrash, c);
                }
                // The process is gone, its operating system is not: it closes the socket.
                self.send(Node::Client(ci), Node::Service, Payload::SvcUp(SvcUp::Hangup));
                Narration::new(Key::SvcCrash, c)
            }
            Command::Close { .. } if !self.clients[ci].alive() => Narration::new(Key::ToDeadClient, c).a("close"),
            Command::Close { .. } if !zk => {
                self.clients[ci].app.state = super::app::AppState::Done;
                self.clients[ci].proc = Proc::Closed;
                #[cfg(feature = "services")]
                if let Some(id) = self.clients[ci].recipe.etcd_lease() {
                    self.send_from(ci, Outgoing::Svc(SvcReq::Etcd(Req::LeaseRevoke { id })));
                }
                self.send(Node::Client(ci), Node::Service, Payload::SvcUp(SvcUp::Hangup));
                Narration::new(Key::CmdClose, c)
            }
            Command::Close { .. } => {
                let lib = self.clients[ci].zk.close();
                self.clients[ci].app.state = super::app::AppState::Done;
                self.clients[ci].proc = Proc::Closed;
                for l in lib {
                    if let super::zkclient::LibOut::Send(m) = l {
                        self.send_from(ci, Outgoing::Zk(m));
                    }
                }
                Narration::new(Key::CmdClose, c)
            }
            Command::Expire { .. } => self.expire(ci, fired),
            Command::Failover => self.failover(),
            Command::Partition { .. } => {
                self.net.partitioned.insert(ci);
                Narration::new(Key::CmdPartition, c)
            }
            Command::Heal { .. } => {
                self.net.partitioned.remove(&ci);
                Narration::new(Key::CmdHeal, c)
            }
            Command::Pause { ticks, .. } => {
                if self.clients[ci].alive() {
                    self.clients[ci].proc = Proc::Paused { until: now.saturating_add(*ticks) };
                }
                Narration::new(Key::CmdPause, c).n(*ticks as i64)
            }
            Command::DropReply { .. } => {
                self.net.drop_next_reply.insert(ci);
                Narration::new(Key::CmdDropReply, c)
            }
            Command::Latency { min, max } => {
                self.latency = Latency { min: *min, max: (*max).max(*min) };
                Narration::new(Key::CmdLatency, None).a(format!("{min}–{max}"))
            }
            Command::Acquire { .. } => {
                let out = if self.clients[ci].alive() { self.clients[ci].command_acquire(now, rng) } else { Vec::new() };
                self.client_sends(ci, out);
                Narration::new(Key::CmdAcquire, c).phase(self.clients[ci].recipe.phase())
            }
            Command::Release { .. } => {
                let out = if self.clients[ci].alive() { self.clients[ci].command_release(now, rng) } else { Vec::new() };
                self.client_sends(ci, out);
                let key = if self.clients[ci].refused_now { Key::ReleaseRefused } else { Key::CmdRelease };
                Narration::new(key, c).phase(self.clients[ci].recipe.phase())
            }
        }
    }
}

impl World {
    /// The server ends the client's session now: ZooKeeper expires it; etcd revokes its lease
    /// (`etcdctl lease revoke`); Redis and SQL have no sessions to end.
    fn expire(&mut self, ci: ClientId, fired: &mut Vec<(ClientId, String, String)>) -> Narration {
        let now = self.now;
        if let (Some(session), Some(_)) = (self.clients[ci].zk.session, self.server()) {
            let outputs = self.server_mut().map(|s| s.handle(now, Input::Expire { session })).unwrap_or_default();
            self.route(None, outputs, fired);
            return Narration::new(Key::CmdExpire, Some(ci));
        }
        match (self.clients[ci].recipe.etcd_lease(), &mut self.service) {
            #[cfg(feature = "services")]
            (Some(id), super::world::Service::Etcd(e)) => {
                let (_, msgs) = e.request(now, u32::MAX, &Req::LeaseRevoke { id });
                for m in msgs {
                    let to = m.conn as ClientId;
                    if to < self.clients.len() {
                        self.send(Node::Service, Node::Client(to), Payload::SvcDown(crate::recipes::wire::SvcAns::Watch(m)));
                    }
                }
                Narration::new(Key::CmdExpire, Some(ci))
            }
            _ => Narration::new(Key::NotApplicable, Some(ci)).a("expire"),
        }
    }
}

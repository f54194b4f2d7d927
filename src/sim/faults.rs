//! Faults and user commands, applied as one step each: crash, graceful close, server-side
//! expiry, partition/heal, process pause, a lost reply, latency, and acquire/release requests.

use super::client::{Outgoing, Proc};
use super::narrate::{Key, Narration};
use super::network::Latency;
use super::scenario::Command;
use super::types::ClientId;
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
        let (now, rng) = (self.now, &mut self.rng);
        match cmd {
            Command::Crash { .. } => {
                self.mark_crashed(ci);
                Narration::new(Key::CmdCrash, c)
            }
            Command::Close { .. } if !self.clients[ci].alive() => Narration::new(Key::ToDeadClient, c).a("close"),
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
            Command::Expire { .. } => {
                if let Some(session) = self.clients[ci].zk.session {
                    let outputs = self.server_mut().handle(now, Input::Expire { session });
                    self.route(None, outputs, fired);
                }
                Narration::new(Key::CmdExpire, c)
            }
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

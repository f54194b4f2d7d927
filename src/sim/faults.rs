//! Faults and user commands, applied as one step each: crash, graceful close, server-side
//! expiry, partition/heal, process pause, a lost reply, latency, and acquire/release requests.

use super::client::{Client, Outgoing, Proc};
use super::network::Latency;
use super::rng::SimRng;
use super::scenario::Command;
use crate::sorted::SortedSet;

use super::types::{ClientId, Node, Payload, Tick};
use super::world::World;
use crate::narrate::{Key, Narration};
use crate::services::Out;
use crate::services::ServerId;

/// One of the application's commands on [`Client`].
type Ask = fn(&mut Client, Tick, &mut SimRng) -> Vec<Outgoing>;

impl World {
    /// Tells the network which servers are down, as the service says; a server going down
    /// loses what is in flight to and from it.
    pub(super) fn sync_servers(&mut self) {
        for s in self.service.servers() {
            let down = s.role == crate::services::Role::Down;
            if down != self.net.is_down(s.id) {
                let refuse = self.service.refuses_in_flight();
                for e in self.net.set_down(s.id, down) {
                    self.metrics.lost_messages += 1;
                    match (e.from, e.to, &e.payload) {
                        (Node::Server(a), Node::Server(b), Payload::Peer(p)) => {
                            self.service.peer_lost(self.now, a, b, p);
                        }
                        (Node::Client(_), _, Payload::Up(_)) if refuse => self.lost(&e),
                        _ => {}
                    }
                }
            }
        }
    }

    /// Applies a command now.
    pub fn command(
        &mut self,
        cmd: &Command,
        fired: &mut Vec<(ClientId, String, String)>,
    ) -> Narration {
        let c = cmd.client().filter(|c| *c < self.clients.len());
        if cmd.client().is_some() && c.is_none() {
            return Narration::new(Key::ServiceTick, None);
        }
        let ci = c.unwrap_or(0);
        let now = self.now;
        match cmd {
            Command::Crash { .. } => {
                self.mark_crashed(ci);
                let out = self.clients[ci].crash();
                if out.is_empty() {
                    return Narration::new(Key::CmdCrash, c);
                }
                // The process is gone, its operating system is not: it closes the socket.
                self.client_sends(ci, out);
                Narration::new(Key::SvcCrash, c)
            }
            Command::Close { .. } if !self.clients[ci].alive() => {
                Narration::new(Key::ToDeadClient, c).a("close")
            }
            Command::Close { .. } => {
                let out = self.clients[ci].close(now);
                self.client_sends(ci, out);
                Narration::new(Key::CmdClose, c)
            }
            Command::Expire { .. } => self.expire(ci, fired),
            Command::Failover => self.failover(fired),
            Command::CrashServer { server } => self.server_event(*server, None, fired),
            Command::RestartServer { server, keep_disk } => {
                self.server_event(*server, Some(*keep_disk), fired)
            }
            Command::PauseServer { server, ticks } => self.pause_server(*server, *ticks),
            Command::ClockJump { server, by } => self.jump_clock(*server, *by, fired),
            Command::Split { clients, servers } => self.split(clients, servers),
            Command::HealSplit => {
                self.net.split = None;
                Narration::new(Key::CmdHealSplit, None)
            }
            Command::Partition { .. } => {
                self.net.partitioned.insert(ci);
                Narration::new(Key::CmdPartition, c)
            }
            Command::Heal { .. } => {
                self.net.partitioned.remove(&ci);
                Narration::new(Key::CmdHeal, c)
            }
            Command::Pause { ticks: 0, .. }
                if matches!(self.clients[ci].proc, Proc::Paused { .. }) =>
            {
                self.clients[ci].proc = Proc::Running;
                Narration::new(Key::CmdResume, c)
            }
            Command::Pause { ticks, .. } => {
                self.client_pauses = self.client_pauses.saturating_add(1);
                if self.clients[ci].alive() {
                    self.clients[ci].proc = Proc::Paused {
                        until: now.saturating_add(*ticks),
                    };
                }
                Narration::new(Key::CmdPause, c).n(*ticks as i64)
            }
            Command::DropReply { .. } => {
                self.net.drop_next_reply.insert(ci);
                Narration::new(Key::CmdDropReply, c)
            }
            Command::Latency { min, max } => {
                self.latency = Latency {
                    min: *min,
                    max: (*max).max(*min),
                };
                Narration::new(Key::CmdLatency, None).a(format!("{min}–{max}"))
            }
            Command::Acquire { .. } => self.ask(ci, Key::CmdAcquire, Client::command_acquire),
            Command::Extend { .. } => self.ask(ci, Key::CmdExtend, Client::command_extend),
            Command::Cancel { .. } => self.ask(ci, Key::CmdCancel, Client::command_cancel),
            Command::Read { sync, .. } => self.read(ci, *sync),
            Command::PauseLinks { server, ticks } => self.pause_links(*server, *ticks),
            Command::Release { .. } => self.ask(ci, Key::CmdRelease, Client::command_release),
        }
    }

    /// A user's or script's request to client `ci`'s application (acquire, release, extend,
    /// cancel); a crashed client's application does nothing.
    fn ask(&mut self, ci: ClientId, key: Key, f: Ask) -> Narration {
        let client = &mut self.clients[ci];
        let out = match client.alive() {
            true => f(client, self.now, &mut self.rng),
            false => Vec::new(),
        };
        self.client_sends(ci, out);
        let refused = key == Key::CmdRelease && self.clients[ci].refused_now;
        let key = if refused { Key::ReleaseRefused } else { key };
        Narration::new(key, Some(ci)).phase(self.clients[ci].recipe.shown_phase())
    }

    /// The service ends the client's session now (ZooKeeper expires it, etcd revokes its
    /// lease); a service without sessions says it does not apply.
    fn expire(&mut self, ci: ClientId, fired: &mut Vec<(ClientId, String, String)>) -> Narration {
        let mut out = Out::default();
        let claim = self.clients[ci].claim();
        let said = self.service.expire(self.now, &claim, &mut out);
        self.emit(out, fired);
        said.unwrap_or_else(|| Narration::new(Key::NotApplicable, Some(ci)).a("expire"))
    }

    /// Server `s` crashes (`restart` None) or starts again, keeping its disk or not.
    fn server_event(
        &mut self,
        s: ServerId,
        restart: Option<bool>,
        fired: &mut Vec<(ClientId, String, String)>,
    ) -> Narration {
        let mut out = Out::default();
        let said = match restart {
            None => self.service.crash_server(self.now, s, &mut out),
            Some(keep) => self.service.restart_server(self.now, s, keep, &mut out),
        };
        self.sync_servers();
        self.emit(out, fired);
        let what = if restart.is_some() {
            "restart"
        } else {
            "crash"
        };
        said.unwrap_or_else(|| {
            Narration::new(Key::NotApplicable, None).a(format!("a server {what}"))
        })
    }

    /// Server `s`'s clock is stepped by `by` ms.
    fn jump_clock(
        &mut self,
        s: ServerId,
        by: i64,
        fired: &mut Vec<(ClientId, String, String)>,
    ) -> Narration {
        let mut out = Out::default();
        // Only Redlock's masters keep clocks of their own, and they are in the full bundle.
        let said = match crate::FULL {
            true => self.service.jump_clock(self.now, s, by, &mut out),
            false => None,
        };
        self.emit(out, fired);
        said.unwrap_or_else(|| {
            Narration::new(Key::NotApplicable, None).a(format!("a clock jump on server {}", s + 1))
        })
    }

    /// Server `s` stops for `ticks`: deliveries to it wait (the scheduler), and the service
    /// defers its own timers on it.
    fn pause_server(&mut self, s: ServerId, ticks: Tick) -> Narration {
        let name = self.service.servers().into_iter().find(|i| i.id == s);
        let Some(name) = name.filter(|i| i.role != crate::services::Role::Down) else {
            return Narration::new(Key::NotApplicable, None).a(format!("pausing server {}", s + 1));
        };
        let until = self.now.saturating_add(ticks);
        let i = usize::from(s);
        if self.server_paused.len() <= i {
            self.server_paused.resize(i + 1, 0);
        }
        self.server_paused[i] = self.server_paused[i].max(until);
        self.service.pause_server(s, until);
        Narration::new(Key::CmdPauseServer, None)
            .a(name.name)
            .n(ticks as i64)
    }

    /// An observer reads the lock node (after `sync` if asked); observers run in the full
    /// bundle only.
    fn read(&mut self, ci: usize, sync: bool) -> Narration {
        let c = Some(ci);
        if !crate::FULL || !self.clients[ci].alive() {
            return Narration::new(Key::CmdRead, c);
        }
        let out = self.clients[ci].command_read(self.now, sync, &mut self.rng);
        self.client_sends(ci, out);
        let key = if sync { Key::CmdSyncRead } else { Key::CmdRead };
        Narration::new(key, c).phase(self.clients[ci].recipe.shown_phase())
    }

    /// Server `s`'s links to the other servers carry nothing for `ticks`: messages on them
    /// wait (the scheduler), in order.
    fn pause_links(&mut self, s: ServerId, ticks: Tick) -> Narration {
        if !crate::FULL {
            return Narration::new(Key::NotApplicable, None).a("pausing links");
        }
        let name = self.service.servers().into_iter().find(|i| i.id == s);
        let Some(name) = name.filter(|_| self.service.servers().len() > 1) else {
            return Narration::new(Key::NotApplicable, None)
                .a(format!("pausing the links of server {}", s + 1));
        };
        let i = usize::from(s);
        if self.links_paused.len() <= i {
            self.links_paused.resize(i + 1, 0);
        }
        self.links_paused[i] = self.links_paused[i].max(self.now.saturating_add(ticks));
        Narration::new(Key::CmdPauseLinks, None)
            .a(name.name)
            .n(ticks as i64)
    }

    /// A partition: these clients and servers on one side, every other node on the other.
    fn split(&mut self, clients: &[ClientId], servers: &[ServerId]) -> Narration {
        let names = self.service.servers();
        let name = |s: &ServerId| {
            let found = names.iter().find(|i| i.id == *s).map(|i| i.name.clone());
            found.unwrap_or_else(|| format!("server {}", s + 1))
        };
        let side: SortedSet<Node> = clients
            .iter()
            .filter(|c| **c < self.clients.len())
            .map(|c| Node::Client(*c))
            .chain(servers.iter().map(|s| Node::Server(*s)))
            .collect();
        let said: Vec<String> = side
            .iter()
            .map(|n| match n {
                Node::Client(c) => format!("C{}", c + 1),
                Node::Server(s) => name(s),
                Node::Resource => String::new(),
            })
            .collect();
        self.net.split = Some(side);
        Narration::new(Key::CmdSplit, None).a(said.join(", "))
    }

    /// The lock service fails over (see [`Command::Failover`]); requests stall meanwhile.
    fn failover(&mut self, fired: &mut Vec<(ClientId, String, String)>) -> Narration {
        let mut out = Out::default();
        let f = self.service.failover(self.now, &mut out);
        self.sync_servers();
        self.emit(out, fired);
        if f.stall > 0 {
            self.stall_until = self.now + f.stall;
        }
        Narration::new(f.key, None)
    }
}

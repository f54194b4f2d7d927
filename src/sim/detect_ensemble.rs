//! The ensemble's moments: a majority elects a leader that has the lock node, a server cut
//! off from the majority stops serving while the majority goes on, and a holder resumes its
//! session on another server, lock and all.

use super::moments::{moment, Finder, Kind};
use super::narrate::Key;
use super::types::Node;
use super::world::World;
use super::StepRecord;
use crate::services::{Role, ServerId};

impl Finder {
    pub(super) fn ensemble(&mut self, w: &World, r: &StepRecord) {
        let key = r.narration.key;
        if key == Key::ZabEstablished && self.wants(Kind::Elected) {
            let holder = w.clients.iter().find(|c| backed(w, c));
            let mut m = moment(r.index, Kind::Elected, holder.map(|c| c.id));
            m.n = r.narration.n;
            m.text = [r.narration.a.clone(), r.narration.a.clone()];
            self.push(m);
        }
        if matches!(key, Key::ZabLeaderLost | Key::ZabQuorumLost) && self.wants(Kind::Minority) {
            self.minority(w, r);
        }
        if key == Key::ReconnectArrives && self.wants(Kind::Resumed) {
            self.resumed(w, r);
        }
    }

    /// A server that lost its leader, when it is cut off from a majority of the ensemble.
    fn minority(&mut self, w: &World, r: &StepRecord) {
        let servers = w.service.servers();
        let Some(lost) = servers.iter().find(|s| s.name == r.narration.a) else {
            return;
        };
        let reach = |a: ServerId, b: ServerId| {
            a == b || !(w.net.is_down(b) || w.net.cuts(Node::Server(a), Node::Server(b)))
        };
        if 2 * servers.iter().filter(|s| reach(lost.id, s.id)).count() > servers.len() {
            return;
        }
        let serving = |s: &&crate::services::ServerInfo| {
            matches!(s.role, Role::Leader | Role::Follower) && s.id != lost.id
        };
        let rest: Vec<&str> = servers
            .iter()
            .filter(serving)
            .map(|s| s.name.as_str())
            .collect();
        let t = &lost.name;
        let mut m = moment(r.index, Kind::Minority, None);
        m.text = [
            format!("{t} is cut off from the majority: it has no leader, so it stops serving and closes its clients' connections. A minority cannot serve; the majority ({}) goes on.", rest.join(" and ")),
            format!("{t} 与多数派隔开：它没有领导者，于是停止服务并关闭客户端连接。少数派不能提供服务；多数派（{}）照常工作。", rest.join("、")),
        ];
        self.push(m);
    }

    /// A holder whose reconnect was accepted by another server of the ensemble.
    fn resumed(&mut self, w: &World, r: &StepRecord) {
        let Some(c) = r.narration.client.and_then(|c| w.clients.get(c)) else {
            return;
        };
        let servers = w.service.servers();
        let Node::Server(s) = w.server_of(c.id) else {
            return;
        };
        let Some(on) = servers
            .iter()
            .find(|x| x.id == s)
            .filter(|_| servers.len() > 1 && backed(w, c))
        else {
            return;
        };
        let (n, t) = (super::captions::name(c.id), &on.name);
        let mut m = moment(r.index, Kind::Resumed, Some(c.id));
        m.text = [
            format!("{n} resumes its session on {t}: the leader still has the session alive, so its lock node is still there and {n} still holds the lock."),
            format!("{n} 在 {t} 上恢复了原来的会话：领导者那里这个会话仍然存活，所以它的锁节点还在，{n} 仍然持有锁。"),
        ];
        self.push(m);
    }
}

/// A live client that holds the lock, and the service agrees.
fn backed(w: &World, c: &super::client::Client) -> bool {
    c.alive() && c.recipe.holding() && w.service.holds(w.now, &c.claim())
}

//! The lock service's servers as a frame shows them: each one's name, role and state line in
//! the reader's language, whether it is down, and the links between servers (cut by a split or
//! a crash), so the stage can draw a box per server and the messages between them.

use crate::services::{ReplicaState, Role, ServerId};
use crate::sim::types::{Node, Tick};
use crate::sim::{Lang, World};

/// One server on the stage.
#[derive(Clone, Debug, PartialEq)]
pub struct ServerView {
    pub id: ServerId,
    pub name: String,
    pub role: Role,
    /// "redis-2 · replica · lag 2 ticks · 1 write behind".
    pub label: String,
    pub down: bool,
    /// Paused until then (it handles nothing meanwhile).
    pub paused_until: Option<Tick>,
    /// Its own clock reads this many ms ahead of the world's (behind if negative).
    pub clock_ahead: i64,
    /// Its links to the other servers carry nothing for now.
    pub stalled: bool,
}

/// A link between two servers, and whether the network cuts it now.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Link {
    pub a: ServerId,
    pub b: ServerId,
    pub cut: bool,
    /// One end's links carry nothing for now (what is sent on them waits).
    pub stalled: bool,
}

/// The servers, in id order.
pub fn servers(w: &World, lang: Lang) -> Vec<ServerView> {
    let zh = lang == Lang::Zh;
    let replica = w.service.replica();
    w.service
        .servers()
        .into_iter()
        .map(|s| {
            let role = s.role.words()[usize::from(zh)];
            let mut label = format!("{} · {role}", s.name);
            if s.role == Role::Replica {
                if let Some(note) = replica_note(replica, zh) {
                    label = format!("{label} · {note}");
                }
            }
            if let Some(note) = &s.note {
                label = format!("{label} · {}", note[usize::from(zh)]);
            }
            let paused = w.server_paused.get(usize::from(s.id)).copied();
            let paused_until = paused.filter(|t| *t > w.now && s.role != Role::Down);
            if let Some(t) = paused_until {
                label = match zh {
                    true => format!("{label} · 停顿中，直到 t={t}"),
                    false => format!("{label} · paused until t={t}"),
                };
            }
            let until = w.link_paused(s.id);
            let stalled = until > w.now && s.role != Role::Down;
            if stalled {
                label = match zh {
                    true => format!("{label} · 与其他服务器的链路停滞，直到 t={until}"),
                    false => format!("{label} · links stalled until t={until}"),
                };
            }
            ServerView {
                id: s.id,
                name: s.name,
                role: s.role,
                label,
                down: s.role == Role::Down,
                paused_until,
                clock_ahead: s.clock_ahead,
                stalled,
            }
        })
        .collect()
}

/// What a replica's header says of its copy.
fn replica_note(r: Option<ReplicaState>, zh: bool) -> Option<String> {
    let r = r.filter(|_| crate::FULL)?; // no replicas in the lean bundle
    Some(match (r.cut, zh) {
        (true, false) => "link broken: later writes never arrive".into(),
        (true, true) => "复制链路已断开：之后的写入不会到达".into(),
        (false, false) => {
            let writes = if r.behind == 1 { "write" } else { "writes" };
            format!("{} {writes} behind · lag {} ticks", r.behind, r.lag)
        }
        (false, true) => format!("落后 {} 次写入 · 延迟 {} 个时钟单位", r.behind, r.lag),
    })
}

/// Every pair of servers of a multi-server service whose servers talk to each other, cut when
/// the network loses what one sends the other (Redlock's independent masters have none).
pub fn links(w: &World, servers: &[ServerView]) -> Vec<Link> {
    let mut out = Vec::new();
    if !crate::FULL || !w.service.kind().look().peers {
        return out; // one server in the lean bundle, masters that never talk in Redlock
    }
    for (i, a) in servers.iter().enumerate() {
        for b in &servers[i + 1..] {
            let (na, nb) = (Node::Server(a.id), Node::Server(b.id));
            let cut = w.net.cuts(na, nb) || w.net.cuts(nb, na) || a.down || b.down;
            let stalled = w.link_paused(a.id).max(w.link_paused(b.id)) > w.now;
            out.push(Link {
                a: a.id,
                b: b.id,
                cut,
                stalled: stalled && !cut,
            });
        }
    }
    out
}

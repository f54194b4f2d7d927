//! The servers a lock service runs on: each is a node of the simulated network with an id, a
//! name and a role the stage draws (leader, follower, primary, replica, down), and the
//! messages servers send one another travel on that network like any client's.

use serde::{Deserialize, Serialize};

/// A server's place in its service (0 is the first; a single-server service has only 0).
pub type ServerId = u8;

/// The most servers one service runs (five for Redlock or a ZooKeeper ensemble, room to spare).
pub const MAX_SERVERS: usize = 8;

/// What a server is in its service right now, as the stage labels it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Role {
    /// The only server of a single-server service.
    Single,
    /// Takes writes and streams them to its replicas (Redis).
    Primary,
    /// Applies the primary's stream; may lag behind it (Redis).
    Replica,
    /// Orders every write and commits it once a quorum has it (Zab, Raft).
    Leader,
    Follower,
    /// Electing a leader: serves nothing meanwhile.
    Looking,
    /// An independent master (Redlock).
    Master,
    /// Crashed or stopped: messages to it are lost.
    Down,
}

impl Role {
    /// The role in English and Chinese.
    pub fn words(self) -> [&'static str; 2] {
        match self {
            Role::Single => ["server", "服务器"],
            Role::Primary => ["primary", "主节点"],
            Role::Replica => ["replica", "副本"],
            Role::Leader => ["leader", "领导者"],
            Role::Follower => ["follower", "跟随者"],
            Role::Looking => ["electing", "选举中"],
            Role::Master => ["master", "主节点"],
            Role::Down => ["down", "已宕机"],
        }
    }
}

/// One server as the view draws it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ServerInfo {
    pub id: ServerId,
    /// Its name on the stage ("redis-1").
    pub name: String,
    pub role: Role,
    /// A short state line from the service, in English and Chinese ("2 writes behind").
    pub note: Option<[String; 2]>,
    /// How many ms its own clock reads ahead of the world's time (behind if negative): only
    /// servers with their own clocks (Redlock's masters) are ever off.
    pub clock_ahead: i64,
}

impl ServerInfo {
    /// The one server of a single-server service.
    pub fn single() -> ServerInfo {
        ServerInfo {
            id: 0,
            name: "server".into(),
            role: Role::Single,
            note: None,
            clock_ahead: 0,
        }
    }
}

/// The peer message type of a service whose servers never talk to one another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum NoPeer {}

/// A message one server sends another (`from` → `to`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PeerSend<P> {
    pub from: ServerId,
    pub to: ServerId,
    pub msg: P,
}

/// An entry's id on server `s`: server 0's ids are bare, as a single server's always were;
/// another server's copy carries `@s:` in front (`@1:lock`), so each copy is its own row.
pub fn on_server(s: ServerId, id: &str) -> String {
    match s {
        0 => id.to_string(),
        _ => format!("@{s}:{id}"),
    }
}

/// The server an entry id belongs to, and the id without its server prefix.
pub fn server_of_id(id: &str) -> (ServerId, &str) {
    let parsed = id.strip_prefix('@').and_then(|rest| {
        let (n, tail) = rest.split_once(':')?;
        Some((n.parse::<ServerId>().ok()?, tail))
    });
    parsed.unwrap_or((0, id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_ids_name_their_server_except_the_first() {
        assert_eq!(on_server(0, "/locks/a"), "/locks/a");
        assert_eq!(on_server(1, "lock"), "@1:lock");
        assert_eq!(server_of_id("@1:lock"), (1, "lock"));
        assert_eq!(server_of_id("/locks/a"), (0, "/locks/a"));
        assert_eq!(server_of_id("@x:lock"), (0, "@x:lock"));
    }
}

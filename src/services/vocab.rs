//! The words the lock-service interface is made of: connections, what a service emits, what a
//! client claims and who owns an entry, what blocks a waiter, watches, rows, library timers and
//! effects.

use serde::{Deserialize, Serialize};

use crate::narrate::Key;

pub use super::servers::{
    on_server, server_of_id, NoPeer, PeerSend, Role, ServerId, ServerInfo, MAX_SERVERS,
};

/// A message in full, as named fields in the service's own words (`op`, `path`, `mode`,
/// `data`, `watch`, `version`, `result`, …), in order; serialised as a JSON object.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Wire(pub Vec<(String, String)>);

impl Wire {
    pub fn with(mut self, k: &str, v: impl Into<String>) -> Wire {
        self.0.push((k.to_string(), v.into()));
        self
    }

    pub fn get(&self, k: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.as_str())
    }
}

impl Serialize for Wire {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl<'de> Deserialize<'de> for Wire {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Wire, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Wire;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object of strings")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> Result<Wire, A::Error> {
                let mut v = Vec::new();
                while let Some((k, val)) = a.next_entry::<String, String>()? {
                    v.push((k, val));
                }
                Ok(Wire(v))
            }
        }
        d.deserialize_map(V)
    }
}

/// Logical time: the services count it as milliseconds.
pub type Tick = u64;

/// A client's connection to the service (the client's index for now).
pub type ConnId = usize;

/// What the client library tells a recipe about its session.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SessionEvent {
    /// The connection broke (read timeout, lost reply): the session may still be alive.
    Disconnected,
    /// Reconnected to the same session in time: ephemerals and watches survived.
    Reconnected,
    /// The server said the session is gone: its ephemerals were deleted.
    Expired,
    /// The library opened a fresh session after an expiry.
    NewSession,
}

/// Everything a service sent or did while handling one input, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outbox<D, P = super::servers::NoPeer> {
    /// Answers and pushed events, each to one connection, in send order.
    pub msgs: Vec<(ConnId, D)>,
    /// The server each of `msgs` leaves from (`None`: the one the connection talks to).
    pub from: Vec<Option<super::servers::ServerId>>,
    /// Messages to other servers of the service (the Redis replication stream), in send order.
    pub peers: Vec<super::servers::PeerSend<P>>,
    /// Entries (znodes, keys, rows) this input created and deleted, by id, for the step
    /// record (the stage gives a new entry its place and leaves a ghost where one was).
    pub created: Vec<String>,
    pub deleted: Vec<String>,
    /// Watch notifications emitted: (connection, event type, path).
    pub fired: Vec<(ConnId, String, String)>,
}

impl<D, P> Default for Outbox<D, P> {
    fn default() -> Self {
        Outbox {
            msgs: Vec::new(),
            from: Vec::new(),
            peers: Vec::new(),
            created: Vec::new(),
            deleted: Vec::new(),
            fired: Vec::new(),
        }
    }
}

impl<D, P> Outbox<D, P> {
    pub fn send(&mut self, conn: ConnId, d: D) {
        self.msgs.push((conn, d));
        self.from.push(None);
    }

    /// A message to connection `conn` from server `s` (a service whose clients talk to
    /// different servers).
    pub fn send_from(&mut self, s: super::servers::ServerId, conn: ConnId, d: D) {
        self.msgs.push((conn, d));
        self.from.push(Some(s));
    }

    /// A message from server `from` to server `to`.
    pub fn peer(&mut self, from: super::servers::ServerId, to: super::servers::ServerId, msg: P) {
        self.peers.push(super::servers::PeerSend { from, to, msg });
    }

    /// Moves everything into `into`, wrapping each message.
    pub fn drain_into<E, Q>(self, into: &mut Outbox<E, Q>, wrap: fn(D) -> E, peer: fn(P) -> Q) {
        into.msgs
            .extend(self.msgs.into_iter().map(|(c, d)| (c, wrap(d))));
        into.from.extend(self.from);
        into.peers
            .extend(self.peers.into_iter().map(|p| super::servers::PeerSend {
                from: p.from,
                to: p.to,
                msg: peer(p.msg),
            }));
        into.created.extend(self.created);
        into.deleted.extend(self.deleted);
        into.fired.extend(self.fired);
    }
}

/// What a client believes it has put in the service, from its library and its recipe: the
/// service compares it with its own state (who holds the lock in the service's own view).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Claim<'a> {
    pub conn: ConnId,
    /// The library's session (a ZooKeeper session id).
    pub session: Option<u64>,
    /// The entry the recipe believes is its own (lock node, key, row).
    pub node: Option<&'a str>,
    /// The value the recipe wrote into the entry (a Redis token, a SQL owner).
    pub token: Option<&'a str>,
    /// The lease the recipe's entries live on (etcd).
    pub lease: Option<i64>,
}

/// Who an entry belongs to, in the service's own terms; the simulator matches it against
/// each client's [`Claim`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Owner {
    Session(u64),
    Lease(i64),
    Token(String),
    Conn(ConnId),
}

impl Owner {
    /// Whether a client with this claim is the owner.
    pub fn matches(&self, c: &Claim<'_>) -> bool {
        match self {
            Owner::Session(s) => c.session == Some(*s),
            Owner::Lease(l) => c.lease == Some(*l),
            Owner::Token(t) => c.token == Some(t.as_str()),
            Owner::Conn(k) => c.conn == *k,
        }
    }
}

/// The result of a failover: its narration and how long requests stall.
pub struct Failover {
    pub key: Key,
    pub stall: Tick,
}

/// A watch as the stage draws it: which connection waits for which entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Watch {
    pub conn: ConnId,
    pub path: String,
    /// A child watch (fires when children change) rather than one on the entry itself.
    pub child: bool,
    /// Armed on an entry that does not exist (an exists-watch waiting for a creation).
    pub on_missing: bool,
}

/// A second copy of the data the service keeps (a Redis replica), as the stage draws it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplicaState {
    /// How long a write takes to reach it.
    pub lag: Tick,
    /// Writes sent to it that have not arrived yet.
    pub behind: usize,
    /// The replication link is cut: later writes never arrive.
    pub cut: bool,
}

/// How long an entry lives, as the stage marks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lifetime {
    /// Stays until someone deletes it.
    Persistent,
    /// Goes when its owner's session ends (a ZooKeeper ephemeral).
    Session,
    /// Goes when its lease or TTL runs out, in this many ms (`None`: unknown).
    Expiring(Option<i64>),
    /// A ZooKeeper container: reaped once empty.
    Container,
}

/// What the stage and the inspector show of one row, whichever service it comes from. Each
/// service's typed row implements it; the words are the service's own.
pub trait Row {
    /// Stable identity (a path, a key): the row keeps its place while this is alive.
    fn id(&self) -> String;
    /// The label (the last path component, the key).
    fn name(&self) -> String;
    /// Nesting below the service's root.
    fn depth(&self) -> usize {
        0
    }
    fn owner(&self) -> Option<Owner>;
    fn lifetime(&self) -> Lifetime;
    /// A sequence suffix the stage prints bold (`0000000007`).
    fn sequence(&self) -> Option<&str> {
        None
    }
    /// The number a holder would fence with (czxid, create revision, fence).
    fn stamp(&self) -> Option<(&'static str, i64)>;
    /// Every field, in the service's words, for the inspector.
    fn fields(&self) -> Vec<(&'static str, String)>;
    /// The server whose copy this row is.
    fn server(&self) -> ServerId {
        0
    }
    /// Another copy of the data (a Redis replica's key).
    fn replica(&self) -> bool {
        false
    }
    /// How the stage marks an owned row that never expires, in the service's words (English,
    /// Chinese); `None`: the service never leaves an owned row behind (ZooKeeper's owned
    /// nodes are ephemeral).
    fn no_expiry(&self) -> Option<[&'static str; 2]> {
        Some(["no expiry", "无过期时间"])
    }
    /// The connection whose transaction holds the row lock, and those waiting for it.
    fn row_lock(&self) -> Option<(ConnId, Vec<ConnId>)> {
        None
    }
}

/// The connection state a client library is in, as the view shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ConnState {
    Connecting,
    Connected,
    Disconnected,
    Expired,
    Closed,
}

/// A client library's own timers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum LibTimer {
    Ping,
    ReadTimeout,
    Reconnect,
    /// A whole session timeout without a connection: Curator declares the session lost.
    Lost,
    /// Send the lease keep-alive.
    KeepAlive,
    /// The oldest request has gone unanswered for the read timeout: send it again.
    Resend,
}

/// What the simulator tells a library when it asks for its next timer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LibCtx {
    /// The exhaustive search's model: no pings, no read timeouts.
    pub timeless: bool,
    /// The application has finished its rounds.
    pub app_done: bool,
}

/// Effects of a client library.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LibOut<Up, Answer> {
    /// A message for the server.
    Send(Up),
    /// The operating system closes the connection (FIN).
    Hangup,
    /// An answer or event for the recipe.
    Answer(Answer),
    Session(SessionEvent),
}

impl<U, A> LibOut<U, A> {
    /// Wraps the message types into the registry's enums.
    pub fn wrap<V, B>(self, up: fn(U) -> V, answer: fn(A) -> B) -> LibOut<V, B> {
        match self {
            LibOut::Send(u) => LibOut::Send(up(u)),
            LibOut::Hangup => LibOut::Hangup,
            LibOut::Answer(a) => LibOut::Answer(answer(a)),
            LibOut::Session(e) => LibOut::Session(e),
        }
    }
}

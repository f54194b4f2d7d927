//! The one shape every lock service has, ZooKeeper included: a server model behind
//! [`LockService`] (messages in; answers, pushed events, deletions and narration out; its own
//! timers; hang-ups; failover; who holds the lock in its own view; the rows the stage draws)
//! and a client library behind [`ClientLib`] (what a recipe's calls become on the wire, what the
//! wire becomes for the recipe, its timers, close and crash).

use crate::narrate::{Key, Narration};

pub use super::vocab::*;

/// The usual narration of a request/answer service: the request and its answer, or "it has to
/// wait" when no answer for the sender came back at once.
pub fn answered<D, P>(
    conn: ConnId,
    request: String,
    out: &Outbox<D, P>,
    render: fn(&D) -> String,
) -> Narration {
    match out.msgs.iter().find(|(k, _)| *k == conn) {
        Some((_, d)) => Narration::new(Key::SvcRequest, Some(conn))
            .a(request)
            .b(crate::narrate::Detail::Text(render(d))),
        None => Narration::new(Key::SvcBlocked, Some(conn)).a(request),
    }
}

/// Settings a service and its library are built from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServiceConfig {
    /// ZooKeeper's tickTime.
    pub tick_time: Tick,
    /// Whether the lock directory exists before the run (an operator created it).
    pub lock_dir: Option<String>,
    /// Redis: a replica fed this many ticks late.
    pub replica_lag: Option<Tick>,
    /// SQL: a lock row to create before the run (for `FOR UPDATE`).
    pub lock_row: Option<String>,
    /// The session timeout a client asks for (and the read timeout of the other libraries).
    pub session_timeout: Tick,
    /// The ZooKeeper library declares its session lost after a session timeout without a
    /// connection and opens a new one, without asking the server (Curator's connection
    /// manager); otherwise it learns of an expiry only when it reconnects.
    pub lost_after_timeout: bool,
    /// The ZooKeeper library backs off after trying every server of its connect string in
    /// vain (kazoo's connection retry: 100 ms, doubling, at most 60 s; F12); otherwise it
    /// walks on at once.
    pub backoff_after_pass: bool,
    /// The ZooKeeper library is kazoo: a lost connection spends every watcher with a NONE
    /// event, and a reconnect sets no watch again.
    pub kazoo: bool,
    pub timeless: bool,
    /// ZooKeeper: an ensemble of this many servers (`None`: one standalone server).
    pub ensemble: Option<u8>,
    /// Redlock: this many independent masters (`None`: five).
    pub masters: Option<u8>,
    /// Redlock: each master's clock, (offset in ms, rate in parts per million), by index.
    pub clocks: Vec<(i64, i32)>,
    /// Redlock: a crashed master is kept down until the longest TTL has passed.
    pub delayed_restart: bool,
    /// The longest TTL (lease) the application asks for.
    pub max_ttl: Tick,
    /// Redlock: ioredis's `enableOfflineQueue` (default true): a command for a master that is
    /// not connected waits for the connection; false: it fails at once.
    pub offline_queue: bool,
}

impl ServiceConfig {
    /// The request/answer libraries resend after this long (never in the timeless model).
    pub fn read_timeout(&self) -> Tick {
        if self.timeless {
            0
        } else {
            self.session_timeout
        }
    }
}

/// A lock service's server model.
pub trait LockService {
    type Up;
    type Down;
    /// One row of the service's state, in its own words.
    type Entry;
    /// What its servers send one another ([`NoPeer`] when it runs on one server).
    type Peer;

    /// A message from connection `conn` arrives.
    fn receive(
        &mut self,
        now: Tick,
        conn: ConnId,
        msg: Self::Up,
        out: &mut Outbox<Self::Down, Self::Peer>,
    ) -> Narration;
    /// A message from connection `conn` arrives at server `at` (a service whose clients may
    /// talk to any of its servers overrides this; the others ignore `at`).
    fn receive_at(
        &mut self,
        now: Tick,
        _at: ServerId,
        conn: ConnId,
        msg: Self::Up,
        out: &mut Outbox<Self::Down, Self::Peer>,
    ) -> Narration {
        self.receive(now, conn, msg, out)
    }
    /// The connection to server `at` closed under it.
    fn hangup_at(
        &mut self,
        now: Tick,
        _at: ServerId,
        conn: ConnId,
        out: &mut Outbox<Self::Down, Self::Peer>,
    ) -> Narration {
        self.hangup(now, conn, out)
    }
    /// The first promise the service's own protocol broke, if any (Zab: two leaders in one
    /// epoch, a committed transaction lost, servers applying different sequences).
    fn invariant(&self) -> Option<String> {
        None
    }
    /// The connection closed under the server (its client's process is gone).
    fn hangup(
        &mut self,
        now: Tick,
        conn: ConnId,
        out: &mut Outbox<Self::Down, Self::Peer>,
    ) -> Narration;
    /// When the service will act on its own next (expiry, replication).
    fn next_deadline(&self) -> Option<Tick>;
    /// What a client hears when its message reaches the address of server `s` while it is
    /// down: the host resets the connection (`None`: the message vanishes, as if the host were
    /// gone).
    fn refusal(&self, _s: ServerId) -> Option<Self::Down> {
        None
    }
    /// Whether a message in flight to a server when it goes down meets the same refusal (its
    /// host answers a late segment with a reset); otherwise it is silently lost.
    fn refuses_in_flight(&self) -> bool {
        false
    }

    /// In the timeless model (the exhaustive search), the one timer that still fires: one that
    /// ends a wait rather than measures time (an election's finalize wait); it may fire at any
    /// point, and [`LockService::tick`] runs it at this tick.
    fn timeless_deadline(&self) -> Option<Tick> {
        None
    }
    /// The service's own clock.
    fn tick(&mut self, now: Tick, out: &mut Outbox<Self::Down, Self::Peer>) -> Narration;
    /// An operator ends the client's session or lease now; `None` if the service has none.
    fn expire(
        &mut self,
        now: Tick,
        claim: &Claim<'_>,
        out: &mut Outbox<Self::Down, Self::Peer>,
    ) -> Option<Narration>;
    fn failover(&mut self, now: Tick, out: &mut Outbox<Self::Down, Self::Peer>) -> Failover;
    /// Whether the service itself says this claim holds the lock right now.
    fn holds(&self, now: Tick, claim: &Claim<'_>) -> bool;
    /// Ticks until the service ends this client's hold on its own (session, lease, TTL).
    fn expires_in(&self, now: Tick, claim: &Claim<'_>) -> Option<i64>;
    /// The watches that exist now.
    fn watches(&self) -> Vec<Watch>;
    /// The service's second copy, if it keeps one (a Redis replica).
    fn replica(&self) -> Option<ReplicaState> {
        None
    }
    /// The rows the stage draws.
    fn entries(&self, now: Tick) -> Vec<Self::Entry>;
    /// The service's logical clock for the stage ("zxid 12").
    fn stamp(&self) -> Option<(&'static str, i64)>;
    /// How many entries live only as long as this session (ZooKeeper's ephemerals): while
    /// its client cannot reach the service the session may still expire and free them.
    fn session_entries(&self, _session: u64) -> usize {
        0
    }
    /// What the stuck monitor's progress fingerprint sees of the service, hashed into `h`:
    /// each entry's id, owner, whether it can expire and its row lock, and each watch; the tick
    /// the last entry that can expire runs out (`now` where the time left is unknown), `None`
    /// when none can. This runs at every step, so a service with many entries hashes the same
    /// facts without building rows (ZooKeeper does); the default walks [`Self::entries`] and
    /// [`Self::watches`].
    fn progress(&self, now: Tick, mut h: &mut dyn std::hash::Hasher) -> Option<Tick>
    where
        Self::Entry: Row,
    {
        use std::hash::Hash;
        let mut end: Option<Tick> = None;
        for e in self.entries(now) {
            let left = match e.lifetime() {
                Lifetime::Expiring(left) => Some(left.unwrap_or(0).max(0) as Tick),
                _ => None,
            };
            end = end.max(left.map(|l| now.saturating_add(l)));
            (e.id(), e.owner(), left.is_some(), e.row_lock()).hash(&mut h);
        }
        for x in self.watches() {
            (x.conn, x.path, x.child, x.on_missing).hash(&mut h);
        }
        end
    }

    /// Its servers, in id order, with their roles now.
    fn servers(&self) -> Vec<ServerInfo> {
        vec![ServerInfo::single()]
    }
    /// The server connection `conn` talks to now (its library's server: the Redis primary).
    fn serving(&self, _conn: ConnId) -> ServerId {
        0
    }
    /// A message from server `from` arrives at server `to`.
    fn peer(
        &mut self,
        _now: Tick,
        _from: ServerId,
        _to: ServerId,
        _msg: Self::Peer,
        _out: &mut Outbox<Self::Down, Self::Peer>,
    ) -> Narration {
        Narration::new(Key::ServiceTick, None)
    }
    /// The network lost a message between two servers (a partition, a crashed end).
    fn peer_lost(&mut self, _now: Tick, _from: ServerId, _to: ServerId, _msg: &Self::Peer) {}
    /// A fixed one-way delay on the link between two servers (`None`: the world's latency).
    fn peer_delay(&self, _from: ServerId, _to: ServerId) -> Option<Tick> {
        None
    }
    /// Server `s` crashes: its process and memory are gone, and the network loses what is in
    /// flight to and from it. `None`: the service does not model it.
    fn crash_server(
        &mut self,
        _now: Tick,
        _s: ServerId,
        _out: &mut Outbox<Self::Down, Self::Peer>,
    ) -> Option<Narration> {
        None
    }
    /// Server `s` is paused until `until`: the service defers its own timers on it (messages
    /// to it wait in the network meanwhile).
    fn pause_server(&mut self, _s: ServerId, _until: Tick) {}
    /// Server `s` starts again, from its disk or empty.
    fn restart_server(
        &mut self,
        _now: Tick,
        _s: ServerId,
        _keep_disk: bool,
        _out: &mut Outbox<Self::Down, Self::Peer>,
    ) -> Option<Narration> {
        None
    }
    /// Server `s`'s clock is stepped by `by` ms (an NTP step). `None`: every server of this
    /// service reads the world's clock.
    fn jump_clock(
        &mut self,
        _now: Tick,
        _s: ServerId,
        _by: i64,
        _out: &mut Outbox<Self::Down, Self::Peer>,
    ) -> Option<Narration> {
        None
    }
    /// The server a message is addressed to, when the message names one (a Redlock client
    /// talks to every master at once); `None`: the one its library talks to.
    fn up_server(_: &Self::Up) -> Option<ServerId> {
        None
    }
    /// A short label for a message between servers.
    fn peer_label(_: &Self::Peer) -> String {
        String::new()
    }
    /// Background traffic between servers (heartbeats), drawn faintly.
    fn peer_is_heartbeat(_: &Self::Peer) -> bool {
        false
    }
    /// A message between servers in full.
    fn peer_wire(m: &Self::Peer) -> Wire {
        Wire::default().with("op", Self::peer_label(m))
    }

    /// A short label for message arrows ("create2 /locks/lock-").
    fn up_label(m: &Self::Up) -> String;
    /// A request (counted in the metrics), not a handshake, heartbeat or close.
    fn is_request(_: &Self::Up) -> bool {
        true
    }
    /// A handshake that opens or resumes a session on the server it reaches (ZooKeeper's
    /// connect request).
    fn is_handshake(_: &Self::Up) -> bool {
        false
    }
    /// Background traffic that goes on forever (pings, keep-alives).
    fn up_is_heartbeat(_: &Self::Up) -> bool {
        false
    }
    fn down_label(m: &Self::Down) -> String;
    /// A pushed watch event rather than the answer to a request.
    fn is_event(_: &Self::Down) -> bool {
        false
    }
    /// The answer to a request: what a "lost reply" fault loses.
    fn is_reply(m: &Self::Down) -> bool {
        !Self::is_event(m)
    }
    fn down_is_heartbeat(_: &Self::Down) -> bool {
        false
    }
    /// What else the client hears when a reply is lost in transit (ZooKeeper: the connection
    /// breaks with it).
    fn lost_with_connection() -> Option<Self::Down> {
        None
    }
    /// A message to the service in full.
    fn up_wire(m: &Self::Up) -> Wire {
        Wire::default().with("op", Self::up_label(m))
    }
    /// A message from the service in full.
    fn down_wire(m: &Self::Down) -> Wire {
        Wire::default().with("answer", Self::down_label(m))
    }
    /// A client receives this message, in words.
    fn heard(c: ConnId, m: &Self::Down) -> Narration {
        let key = if Self::is_event(m) {
            Key::SvcWatchEvent
        } else {
            Key::SvcAnswer
        };
        Narration::new(key, Some(c)).a(Self::down_label(m))
    }
}

/// A lock service's client library.
pub trait ClientLib {
    type Call;
    type Answer;
    type Up;
    type Down;

    /// The first messages of a new client (ZooKeeper connects).
    fn start(&mut self, now: Tick) -> Vec<LibOut<Self::Up, Self::Answer>>;
    /// The recipe asks for something.
    fn call(&mut self, now: Tick, call: Self::Call) -> Vec<LibOut<Self::Up, Self::Answer>>;
    /// A message from the server.
    fn receive(&mut self, now: Tick, msg: Self::Down) -> Vec<LibOut<Self::Up, Self::Answer>>;
    fn next_timer(&self, ctx: LibCtx) -> Option<(Tick, LibTimer)>;
    fn fire(&mut self, now: Tick, timer: LibTimer) -> Vec<LibOut<Self::Up, Self::Answer>>;
    /// The application closes the client gracefully.
    fn close(&mut self, now: Tick, claim: &Claim<'_>) -> Vec<LibOut<Self::Up, Self::Answer>>;
    /// The process died: what its operating system still sends.
    fn crash(&mut self) -> Vec<LibOut<Self::Up, Self::Answer>>;
    /// A message from the server that answers nothing this library is waiting for on its
    /// current connection (it was sent on one the client gave up): dropped unread.
    fn stale(&self, _msg: &Self::Down) -> bool {
        false
    }
    /// The request attempt answers must belong to: a library that gave up on an attempt (and
    /// sent the request again) ignores what the service says about the old one.
    fn connection(&self) -> u32 {
        0
    }
    /// Nothing more is owed to the application (no request pending or queued).
    fn quiet(&self) -> bool;
    /// Requests sent and not answered (for the stuck monitor).
    fn unanswered(&self) -> usize;
    /// The library's session, if it has one (a ZooKeeper session id).
    fn session(&self) -> Option<u64>;
    /// The server it sends to now, if the library chooses (a ZooKeeper client walks its
    /// connect string); `None`: the service decides.
    fn server(&self) -> Option<ServerId> {
        None
    }
    /// Client `c` of a service with `servers` servers picks where it starts (its shuffled
    /// connect string).
    fn place(&mut self, _c: ConnId, _servers: usize) {}
    /// The library keeps a connection to every server at once (a Redlock client's masters).
    fn fans_out(&self) -> bool {
        false
    }
    fn conn_state(&self) -> ConnState;
    /// Watches the library forgot when its connection broke, each spent with a NONE event
    /// (kazoo), until it is connected again.
    fn spent_watches(&self) -> Vec<String> {
        Vec::new()
    }
    /// The session timeout the library negotiated (0: the service has no sessions).
    fn session_timeout(&self) -> Tick;
}

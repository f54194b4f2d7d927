//! How the stage and the panels present a lock service: its product title, what its rows and
//! timers are called, which faults apply to its sessions. Each service module defines its
//! own [`Look`]; the view asks `ServiceKind::look()` and never matches on a service.

/// A service's presentation, in its own words (English, Chinese).
#[derive(Debug)]
pub struct Look {
    /// The product and version ("ZooKeeper 3.8").
    pub product: &'static str,
    /// What the service box's title adds when there is no logical clock to show ("keys").
    pub contents: Option<[&'static str; 2]>,
    /// What a client's own lock entry is called ("node", "key", "row").
    pub entry: [&'static str; 2],
    /// How time left on an entry is written, from milliseconds.
    pub ttl: fn(i64) -> Option<String>,
    /// A client has a session (or lease) that a fault can end: the fault's action label key.
    pub end_session: Option<&'static str>,
    /// The name a sequence diagram's lane gets.
    pub lane: &'static str,
    /// Whether the lean first page carries the service (else it hands over to the full one).
    pub lean: bool,
    /// Its entries are znodes, with watches and kinds (the legend explains watches, their
    /// events, ephemeral and sequential nodes only for such a service).
    pub znodes: bool,
    /// Its servers talk to each other (an ensemble's quorum, a primary's replication stream), so
    /// the stage draws the links between them; Redlock's masters are independent and get none.
    pub peers: bool,
    /// The longest its client library waits on its own before it tries a server again (ioredis
    /// redials a lost master after a back-off of up to 2 s): the stuck monitor's quiet limit
    /// must outlast it.
    pub library_wait: u64,
}

/// What a build without the service's model knows of it: its name.
pub const ELSEWHERE: Look = Look {
    product: "",
    contents: None,
    entry: ["entry", "条目"],
    ttl: |_| None,
    end_session: None,
    lane: "",
    lean: false,
    znodes: false,
    peers: false,
    library_wait: 0,
};

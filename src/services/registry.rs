//! `registry!` turns the one list of lock services in `services/mod.rs` into the enums the
//! simulator and the view use — the service, its library, what travels on the wire, what a
//! recipe sends and hears, the rows the stage draws — and delegates every call to the
//! variant's module. A variant's `cfg` attribute is written once, in that list.
//!
//! Each module provides `Server` (a [`LockService`](super::api::LockService)), `Lib` (a
//! [`ClientLib`](super::api::ClientLib)), the message types `Up`, `Down`, `Call`, `Answer`,
//! the row type `Entry` (with `owner()`), and `service(cfg)` / `lib(cfg)` constructors.

macro_rules! registry {
    ($( #[$attr:meta] { $( $v:ident => $m:ident ),* $(,)? } )*) => {
        use $crate::narrate::{Key, Narration};
        use $crate::services::api::{ClientLib, Failover, LibOut, LockService, Outbox, Row};

        /// The world's lock service.
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub enum Service { $( $( #[$attr] $v($m::Server), )* )* }

        /// A client's library for its service.
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub enum Lib { $( $( #[$attr] $v($m::Lib), )* )* }

        /// Client → service, on the wire.
        #[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum Up { $( $( #[$attr] $v($m::Up), )* )* }

        /// Service → client, on the wire.
        #[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum Down { $( $( #[$attr] $v($m::Down), )* )* }

        /// What a recipe asks its library for.
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub enum Call { $( $( #[$attr] $v($m::Call), )* )* }

        /// What a library hands its recipe.
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub enum Answer { $( $( #[$attr] $v($m::Answer), )* )* }

        /// One row of a service's state, typed per service.
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub enum Entry { $( $( #[$attr] $v($m::Entry), )* )* }

        pub type Out = Outbox<Down, Peer>;

        impl Service {
            /// The service of this kind, prepared as an operator would (`None`: not in this build).
            pub fn new(kind: ServiceKind, cfg: &ServiceConfig) -> Option<Service> {
                #[allow(unreachable_patterns)]
                match kind {
                    $( $( #[$attr] ServiceKind::$v => Some(Service::$v($m::service(cfg))), )* )*
                    _ => None,
                }
            }

            pub(super) fn carries(kind: ServiceKind) -> bool {
                $( $( #[$attr] if kind == ServiceKind::$v { return true; } )* )*
                false
            }

            pub fn kind(&self) -> ServiceKind {
                match self { $( $( #[$attr] Service::$v(_) => ServiceKind::$v, )* )* }
            }

            /// A message from connection `conn` arrives.
            pub fn receive(&mut self, now: Tick, at: ServerId, conn: ConnId, up: Up, out: &mut Out) -> Narration {
                #[allow(unreachable_patterns)]
                match (self, up) {
                    $( $( #[$attr] (Service::$v(s), Up::$v(m)) => {
                        let mut o = Outbox::default();
                        let n = LockService::receive_at(s, now, at, conn, m, &mut o);
                        o.drain_into(out, Down::$v, Peer::$v);
                        n
                    } )* )*
                    _ => Narration::new(Key::ServiceTick, None),
                }
            }

            pub fn hangup(&mut self, now: Tick, at: ServerId, conn: ConnId, out: &mut Out) -> Narration {
                match self { $( $( #[$attr] Service::$v(s) => {
                    let mut o = Outbox::default();
                    let n = LockService::hangup_at(s, now, at, conn, &mut o);
                    o.drain_into(out, Down::$v, Peer::$v);
                    n
                } )* )* }
            }

            pub fn next_deadline(&self) -> Option<Tick> {
                match self { $( $( #[$attr] Service::$v(s) => LockService::next_deadline(s), )* )* }
            }

            pub fn refusal(&self, at: ServerId) -> Option<Down> {
                match self { $( $( #[$attr] Service::$v(s) => LockService::refusal(s, at).map(Down::$v), )* )* }
            }

            pub fn refuses_in_flight(&self) -> bool {
                match self { $( $( #[$attr] Service::$v(s) => LockService::refuses_in_flight(s), )* )* }
            }

            pub fn timeless_deadline(&self) -> Option<Tick> {
                match self { $( $( #[$attr] Service::$v(s) => LockService::timeless_deadline(s), )* )* }
            }

            pub fn tick(&mut self, now: Tick, out: &mut Out) -> Narration {
                match self { $( $( #[$attr] Service::$v(s) => {
                    let mut o = Outbox::default();
                    let n = LockService::tick(s, now, &mut o);
                    o.drain_into(out, Down::$v, Peer::$v);
                    n
                } )* )* }
            }

            pub fn expire(&mut self, now: Tick, claim: &Claim<'_>, out: &mut Out) -> Option<Narration> {
                match self { $( $( #[$attr] Service::$v(s) => {
                    let mut o = Outbox::default();
                    let n = LockService::expire(s, now, claim, &mut o);
                    o.drain_into(out, Down::$v, Peer::$v);
                    n
                } )* )* }
            }

            pub fn failover(&mut self, now: Tick, out: &mut Out) -> Failover {
                match self { $( $( #[$attr] Service::$v(s) => {
                    let mut o = Outbox::default();
                    let f = LockService::failover(s, now, &mut o);
                    o.drain_into(out, Down::$v, Peer::$v);
                    f
                } )* )* }
            }

            pub fn holds(&self, now: Tick, claim: &Claim<'_>) -> bool {
                match self { $( $( #[$attr] Service::$v(s) => LockService::holds(s, now, claim), )* )* }
            }

            pub fn expires_in(&self, now: Tick, claim: &Claim<'_>) -> Option<i64> {
                match self { $( $( #[$attr] Service::$v(s) => LockService::expires_in(s, now, claim), )* )* }
            }

            pub fn watches(&self) -> Vec<Watch> {
                match self { $( $( #[$attr] Service::$v(s) => LockService::watches(s), )* )* }
            }

            pub fn replica(&self) -> Option<ReplicaState> {
                match self { $( $( #[$attr] Service::$v(s) => LockService::replica(s), )* )* }
            }

            pub fn entries(&self, now: Tick) -> Vec<Entry> {
                match self { $( $( #[$attr] Service::$v(s) => LockService::entries(s, now).into_iter().map(Entry::$v).collect(), )* )* }
            }

            pub fn stamp(&self) -> Option<(&'static str, i64)> {
                match self { $( $( #[$attr] Service::$v(s) => LockService::stamp(s), )* )* }
            }

            /// See [`LockService::session_entries`].
            pub fn session_entries(&self, session: u64) -> usize {
                match self { $( $( #[$attr] Service::$v(s) => LockService::session_entries(s, session), )* )* }
            }

            /// See [`LockService::progress`].
            pub fn progress(&self, now: Tick, h: &mut dyn std::hash::Hasher) -> Option<Tick> {
                match self { $( $( #[$attr] Service::$v(s) => LockService::progress(s, now, h), )* )* }
            }
        }

        type Effects = Vec<LibOut<Up, Answer>>;

        impl Lib {
            /// A client library for this kind of service (`None`: not in this build).
            pub fn new(kind: ServiceKind, cfg: &ServiceConfig) -> Option<Lib> {
                #[allow(unreachable_patterns)]
                match kind {
                    $( $( #[$attr] ServiceKind::$v => Some(Lib::$v($m::lib(cfg))), )* )*
                    _ => None,
                }
            }

            pub fn start(&mut self, now: Tick) -> Effects {
                match self { $( $( #[$attr] Lib::$v(l) => ClientLib::start(l, now).into_iter().map(|o| o.wrap(Up::$v, Answer::$v)).collect(), )* )* }
            }

            /// A call for another service's library is dropped (it cannot happen: a client's
            /// recipe and library are built for the same service).
            pub fn call(&mut self, now: Tick, call: Call) -> Effects {
                #[allow(unreachable_patterns)]
                match (self, call) {
                    $( $( #[$attr] (Lib::$v(l), Call::$v(c)) => ClientLib::call(l, now, c).into_iter().map(|o| o.wrap(Up::$v, Answer::$v)).collect(), )* )*
                    _ => Vec::new(),
                }
            }

            pub fn receive(&mut self, now: Tick, down: Down) -> Effects {
                #[allow(unreachable_patterns)]
                match (self, down) {
                    $( $( #[$attr] (Lib::$v(l), Down::$v(d)) => ClientLib::receive(l, now, d).into_iter().map(|o| o.wrap(Up::$v, Answer::$v)).collect(), )* )*
                    _ => Vec::new(),
                }
            }

            pub fn next_timer(&self, ctx: LibCtx) -> Option<(Tick, LibTimer)> {
                match self { $( $( #[$attr] Lib::$v(l) => ClientLib::next_timer(l, ctx), )* )* }
            }

            pub fn fire(&mut self, now: Tick, t: LibTimer) -> Effects {
                match self { $( $( #[$attr] Lib::$v(l) => ClientLib::fire(l, now, t).into_iter().map(|o| o.wrap(Up::$v, Answer::$v)).collect(), )* )* }
            }

            pub fn close(&mut self, now: Tick, claim: &Claim<'_>) -> Effects {
                match self { $( $( #[$attr] Lib::$v(l) => ClientLib::close(l, now, claim).into_iter().map(|o| o.wrap(Up::$v, Answer::$v)).collect(), )* )* }
            }

            pub fn crash(&mut self) -> Effects {
                match self { $( $( #[$attr] Lib::$v(l) => ClientLib::crash(l).into_iter().map(|o| o.wrap(Up::$v, Answer::$v)).collect(), )* )* }
            }

            /// Whether a message from the server answers nothing on the current connection.
            pub fn stale(&self, down: &Down) -> bool {
                #[allow(unreachable_patterns)]
                match (self, down) {
                    $( $( #[$attr] (Lib::$v(l), Down::$v(d)) => ClientLib::stale(l, d), )* )*
                    _ => false,
                }
            }

            pub fn connection(&self) -> u32 {
                match self { $( $( #[$attr] Lib::$v(l) => ClientLib::connection(l), )* )* }
            }

            pub fn quiet(&self) -> bool {
                match self { $( $( #[$attr] Lib::$v(l) => ClientLib::quiet(l), )* )* }
            }

            pub fn unanswered(&self) -> usize {
                match self { $( $( #[$attr] Lib::$v(l) => ClientLib::unanswered(l), )* )* }
            }

            pub fn session(&self) -> Option<u64> {
                match self { $( $( #[$attr] Lib::$v(l) => ClientLib::session(l), )* )* }
            }

            pub fn conn_state(&self) -> ConnState {
                match self { $( $( #[$attr] Lib::$v(l) => ClientLib::conn_state(l), )* )* }
            }

            /// The server the library sends to now, if it chooses.
            pub fn server(&self) -> Option<ServerId> {
                match self { $( $( #[$attr] Lib::$v(l) => ClientLib::server(l), )* )* }
            }

            /// The library keeps a connection to every server at once.
            pub fn fans_out(&self) -> bool {
                match self { $( $( #[$attr] Lib::$v(l) => ClientLib::fans_out(l), )* )* }
            }

            /// Client `c` picks its first server among `servers`.
            pub fn place(&mut self, c: ConnId, servers: usize) {
                match self { $( $( #[$attr] Lib::$v(l) => ClientLib::place(l, c, servers), )* )* }
            }

            pub fn session_timeout(&self) -> Tick {
                match self { $( $( #[$attr] Lib::$v(l) => ClientLib::session_timeout(l), )* )* }
            }

            pub fn spent_watches(&self) -> Vec<String> {
                match self { $( $( #[$attr] Lib::$v(l) => ClientLib::spent_watches(l), )* )* }
            }
        }

        impl Up {
            /// A short label for message arrows ("create2 /locks/lock-", "SET lock … NX PX 50").
            pub fn label(&self) -> String {
                match self { $( $( #[$attr] Up::$v(m) => <$m::Server as LockService>::up_label(m), )* )* }
            }

            /// The message in full, field by field.
            pub fn wire(&self) -> Wire {
                match self { $( $( #[$attr] Up::$v(m) => <$m::Server as LockService>::up_wire(m), )* )* }
            }

            /// A request (counted in the metrics), not a handshake, heartbeat or close.
            pub fn is_request(&self) -> bool {
                match self { $( $( #[$attr] Up::$v(m) => <$m::Server as LockService>::is_request(m), )* )* }
            }

            /// Background traffic that goes on forever (pings, keep-alives).
            pub fn is_heartbeat(&self) -> bool {
                match self { $( $( #[$attr] Up::$v(m) => <$m::Server as LockService>::up_is_heartbeat(m), )* )* }
            }

            /// A handshake that opens or resumes a session.
            pub fn is_handshake(&self) -> bool {
                match self { $( $( #[$attr] Up::$v(m) => <$m::Server as LockService>::is_handshake(m), )* )* }
            }
        }

        impl Down {
            pub fn label(&self) -> String {
                match self { $( $( #[$attr] Down::$v(m) => <$m::Server as LockService>::down_label(m), )* )* }
            }

            /// The message in full, field by field.
            pub fn wire(&self) -> Wire {
                match self { $( $( #[$attr] Down::$v(m) => <$m::Server as LockService>::down_wire(m), )* )* }
            }

            /// A pushed watch event, not the answer to a request.
            pub fn is_event(&self) -> bool {
                match self { $( $( #[$attr] Down::$v(m) => <$m::Server as LockService>::is_event(m), )* )* }
            }

            /// The answer to a request: what a "lost reply" fault loses.
            pub fn is_reply(&self) -> bool {
                match self { $( $( #[$attr] Down::$v(m) => <$m::Server as LockService>::is_reply(m), )* )* }
            }

            pub fn is_heartbeat(&self) -> bool {
                match self { $( $( #[$attr] Down::$v(m) => <$m::Server as LockService>::down_is_heartbeat(m), )* )* }
            }

            /// What else the client hears when this reply is lost in transit.
            pub fn lost_with_connection(&self) -> Option<Down> {
                match self { $( $( #[$attr] Down::$v(_) => <$m::Server as LockService>::lost_with_connection().map(Down::$v), )* )* }
            }

            /// Client `c` receives this message, in words.
            pub fn heard(&self, c: ConnId) -> Narration {
                match self { $( $( #[$attr] Down::$v(m) => <$m::Server as LockService>::heard(c, m), )* )* }
            }
        }

        impl Entry {
            pub fn id(&self) -> String {
                match self { $( $( #[$attr] Entry::$v(e) => Row::id(e), )* )* }
            }
            pub fn name(&self) -> String {
                match self { $( $( #[$attr] Entry::$v(e) => Row::name(e), )* )* }
            }
            pub fn depth(&self) -> usize {
                match self { $( $( #[$attr] Entry::$v(e) => Row::depth(e), )* )* }
            }
            /// Who the row belongs to, in the service's terms.
            pub fn owner(&self) -> Option<Owner> {
                match self { $( $( #[$attr] Entry::$v(e) => Row::owner(e), )* )* }
            }
            pub fn lifetime(&self) -> Lifetime {
                match self { $( $( #[$attr] Entry::$v(e) => Row::lifetime(e), )* )* }
            }
            pub fn sequence(&self) -> Option<&str> {
                match self { $( $( #[$attr] Entry::$v(e) => Row::sequence(e), )* )* }
            }
            pub fn stamp(&self) -> Option<(&'static str, i64)> {
                match self { $( $( #[$attr] Entry::$v(e) => Row::stamp(e), )* )* }
            }
            pub fn fields(&self) -> Vec<(&'static str, String)> {
                match self { $( $( #[$attr] Entry::$v(e) => Row::fields(e), )* )* }
            }
            pub fn replica(&self) -> bool {
                match self { $( $( #[$attr] Entry::$v(e) => Row::replica(e), )* )* }
            }
            pub fn no_expiry(&self) -> Option<[&'static str; 2]> {
                match self { $( $( #[$attr] Entry::$v(e) => Row::no_expiry(e), )* )* }
            }
            pub fn row_lock(&self) -> Option<(ConnId, Vec<ConnId>)> {
                match self { $( $( #[$attr] Entry::$v(e) => Row::row_lock(e), )* )* }
            }
        }
    };
}

//! `peers!` generates, from the same list as [`registry!`], what a service's servers say to
//! one another (`Peer`, typed per service) and the calls that concern servers: which exist and
//! in what role, which one a connection talks to, a message between two of them, a server's
//! crash and restart.

macro_rules! peers {
    ($( #[$attr:meta] { $( $v:ident => $m:ident ),* $(,)? } )*) => {
        /// Server → server, on the wire.
        #[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum Peer { $( $( #[$attr] $v(<$m::Server as LockService>::Peer), )* )* }

        impl Peer {
            /// A short label for message arrows ("SET lock t1 PX 30000").
            pub fn label(&self) -> String {
                match self { $( $( #[$attr] Peer::$v(m) => <$m::Server as LockService>::peer_label(m), )* )* }
            }

            /// The message in full, field by field.
            pub fn wire(&self) -> Wire {
                match self { $( $( #[$attr] Peer::$v(m) => <$m::Server as LockService>::peer_wire(m), )* )* }
            }

            /// Background traffic between servers (heartbeats).
            pub fn is_heartbeat(&self) -> bool {
                match self { $( $( #[$attr] Peer::$v(m) => <$m::Server as LockService>::peer_is_heartbeat(m), )* )* }
            }
        }

        impl Entry {
            /// The server whose copy this row is.
            pub fn server(&self) -> ServerId {
                match self { $( $( #[$attr] Entry::$v(e) => Row::server(e), )* )* }
            }
        }

        impl Service {
            /// Its servers, in id order, with their roles now.
            pub fn servers(&self) -> Vec<ServerInfo> {
                match self { $( $( #[$attr] Service::$v(s) => LockService::servers(s), )* )* }
            }

            /// The server connection `conn` talks to now.
            pub fn serving(&self, conn: ConnId) -> ServerId {
                match self { $( $( #[$attr] Service::$v(s) => LockService::serving(s, conn), )* )* }
            }

            /// A fixed one-way delay between two servers (`None`: the world's latency).
            pub fn peer_delay(&self, from: ServerId, to: ServerId) -> Option<Tick> {
                match self { $( $( #[$attr] Service::$v(s) => LockService::peer_delay(s, from, to), )* )* }
            }

            /// A message from server `from` arrives at server `to`.
            pub fn peer(&mut self, now: Tick, from: ServerId, to: ServerId, p: Peer, out: &mut Out) -> Narration {
                #[allow(unreachable_patterns)]
                match (self, p) {
                    $( $( #[$attr] (Service::$v(s), Peer::$v(m)) => {
                        let mut o = Outbox::default();
                        let n = LockService::peer(s, now, from, to, m, &mut o);
                        o.drain_into(out, Down::$v, Peer::$v);
                        n
                    } )* )*
                    _ => Narration::new(Key::ServiceTick, None),
                }
            }

            /// The network lost a message between two servers.
            pub fn peer_lost(&mut self, now: Tick, from: ServerId, to: ServerId, p: &Peer) {
                #[allow(unreachable_patterns)]
                match (self, p) {
                    $( $( #[$attr] (Service::$v(s), Peer::$v(m)) => LockService::peer_lost(s, now, from, to, m), )* )*
                    _ => {}
                }
            }

            /// Server `s` crashes (`None`: the service does not model it).
            pub fn crash_server(&mut self, now: Tick, s: ServerId, out: &mut Out) -> Option<Narration> {
                match self { $( $( #[$attr] Service::$v(x) => {
                    let mut o = Outbox::default();
                    let n = LockService::crash_server(x, now, s, &mut o);
                    o.drain_into(out, Down::$v, Peer::$v);
                    n
                } )* )* }
            }

            /// The first promise the service's own protocol broke, if any.
            pub fn invariant(&self) -> Option<String> {
                match self { $( $( #[$attr] Service::$v(x) => LockService::invariant(x), )* )* }
            }

            /// Server `s` is paused until `until`.
            pub fn pause_server(&mut self, s: ServerId, until: Tick) {
                match self { $( $( #[$attr] Service::$v(x) => LockService::pause_server(x, s, until), )* )* }
            }

            /// Server `s` starts again, from its disk or empty.
            pub fn restart_server(&mut self, now: Tick, s: ServerId, keep_disk: bool, out: &mut Out) -> Option<Narration> {
                match self { $( $( #[$attr] Service::$v(x) => {
                    let mut o = Outbox::default();
                    let n = LockService::restart_server(x, now, s, keep_disk, &mut o);
                    o.drain_into(out, Down::$v, Peer::$v);
                    n
                } )* )* }
            }

            /// Server `s`'s clock jumps by `by` ms (`None`: its servers share the world's clock).
            pub fn jump_clock(&mut self, now: Tick, s: ServerId, by: i64, out: &mut Out) -> Option<Narration> {
                match self { $( $( #[$attr] Service::$v(x) => {
                    let mut o = Outbox::default();
                    let n = LockService::jump_clock(x, now, s, by, &mut o);
                    o.drain_into(out, Down::$v, Peer::$v);
                    n
                } )* )* }
            }
        }

        impl Up {
            /// The server this message is addressed to, if it names one.
            pub fn server(&self) -> Option<ServerId> {
                match self { $( $( #[$attr] Up::$v(m) => <$m::Server as LockService>::up_server(m), )* )* }
            }
        }
    };
}

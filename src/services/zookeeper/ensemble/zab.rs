//! What the servers of a ZooKeeper ensemble say to one another (`Leader`/`Learner` packets and
//! `FastLeaderElection` notifications), with the short labels the stage draws.

use serde::{Deserialize, Serialize};

use crate::engine::replica::LogTxn;
use crate::engine::{ClientWatches, Opcode, Request, SessionId, Zxid};
use crate::services::api::{ConnId, ServerId, Wire};

/// Which client a transaction answers, and where: the server it is connected to replies when
/// it applies the transaction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Origin {
    pub server: ServerId,
    pub conn: ConnId,
    pub xid: i32,
    pub op: Option<Opcode>,
}

/// A transaction at its zxid, as proposed and logged.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Proposal {
    pub zxid: Zxid,
    pub txn: LogTxn,
    pub origin: Option<Origin>,
}

/// A vote of `FastLeaderElection`: for server `leader`, whose last logged zxid and epoch these
/// are. Votes compare by epoch, then zxid, then server id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Vote {
    pub epoch: u32,
    pub zxid: Zxid,
    pub leader: ServerId,
}

/// What a server asks of its leader on a client's behalf.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Ask {
    /// A write or `sync`, forwarded (`FollowerRequestProcessor`).
    Request {
        session: SessionId,
        request: Request,
    },
    /// A new session (createSession).
    Open { session: SessionId, timeout_ms: u64 },
    /// The client closes its session (closeSession).
    Close { session: SessionId },
}

/// Server → server.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Zab {
    /// A follower hands its leader a client's write, session or `sync`.
    Forward {
        origin: Origin,
        ask: Ask,
    },
    Proposal(Proposal),
    Ack {
        zxid: Zxid,
    },
    Commit {
        zxid: Zxid,
    },
    /// The leader's heartbeat (every half tick).
    Ping,
    /// A follower's answer: the sessions its clients touched since the last one.
    PingReply {
        touched: Vec<SessionId>,
    },
    /// A client reconnects to this follower with an existing session: is it still alive?
    Revalidate {
        conn: ConnId,
        session: SessionId,
        last_zxid: Zxid,
        watches: ClientWatches,
    },
    Validated {
        conn: ConnId,
        session: SessionId,
        valid: bool,
        last_zxid: Zxid,
        watches: ClientWatches,
    },
    /// The leader has committed everything proposed before a `sync`.
    Synced {
        origin: Origin,
    },
    /// An election notification with the sender's vote; `looking`: it is electing.
    Vote {
        vote: Vote,
        looking: bool,
    },
    /// A new follower tells its leader how far its log goes.
    FollowerInfo {
        accepted_epoch: u32,
        last_zxid: Zxid,
    },
    /// The leader's new epoch and what the follower lacks: drop logged proposals after
    /// `trunc`, log `diff`, apply up to `committed`.
    NewLeader {
        epoch: u32,
        trunc: Zxid,
        diff: Vec<Proposal>,
        committed: Zxid,
        /// SNAP: the follower was too far behind for a DIFF and loads the leader's snapshot.
        snap: bool,
    },
    AckNewLeader,
    /// The follower may serve clients: everything up to `commit` is committed.
    UpToDate {
        commit: Zxid,
    },
    /// The sender's process is gone: the operating system resets its connections.
    Reset,
}

/// `0x100000003` as the stage writes it: epoch 1, counter 3.
pub fn zxid_text(z: Zxid) -> String {
    format!("0x{:x}", z)
}

impl Zab {
    /// A short label for the stage ("PROPOSAL 0x100000003").
    pub fn label(&self) -> String {
        let z = zxid_text;
        match self {
            Zab::Forward { ask, .. } => match ask {
                Ask::Request { request, .. } => format!("REQUEST {}", request.opcode().name()),
                Ask::Open { .. } => "REQUEST createSession".into(),
                Ask::Close { .. } => "REQUEST closeSession".into(),
            },
            Zab::Proposal(p) => format!("PROPOSAL {}", z(p.zxid)),
            Zab::Ack { zxid } => format!("ACK {}", z(*zxid)),
            Zab::Commit { zxid } => format!("COMMIT {}", z(*zxid)),
            Zab::Ping => "PING".into(),
            Zab::PingReply { touched } => format!("PING ({})", touched.len()),
            Zab::Revalidate { .. } => "REVALIDATE".into(),
            Zab::Validated { valid, .. } => {
                format!("REVALIDATE {}", if *valid { "✓" } else { "✗" })
            }
            Zab::Synced { .. } => "SYNC".into(),
            Zab::Vote { vote, .. } => format!("NOTIFICATION zk-{}", vote.leader + 1),
            Zab::FollowerInfo { last_zxid, .. } => format!("FOLLOWERINFO {}", z(*last_zxid)),
            Zab::NewLeader {
                epoch, diff, snap, ..
            } => match snap {
                true => format!("NEWLEADER e{epoch} SNAP"),
                false => format!("NEWLEADER e{epoch} DIFF +{}", diff.len()),
            },
            Zab::AckNewLeader => "ACK NEWLEADER".into(),
            Zab::UpToDate { .. } => "UPTODATE".into(),
            Zab::Reset => "RST".into(),
        }
    }

    /// Heartbeats the stage draws faintly.
    pub fn is_heartbeat(&self) -> bool {
        matches!(self, Zab::Ping | Zab::PingReply { .. })
    }

    /// The message in full.
    pub fn wire(&self) -> Wire {
        let w = Wire::default().with("op", self.label());
        match self {
            Zab::Proposal(p) => w
                .with("zxid", zxid_text(p.zxid))
                .with("session", format!("0x{:x}", p.txn.session().0)),
            Zab::Vote { vote, looking } => w
                .with("epoch", vote.epoch.to_string())
                .with("zxid", zxid_text(vote.zxid))
                .with("state", if *looking { "LOOKING" } else { "settled" }),
            Zab::NewLeader {
                trunc, committed, ..
            } => w
                .with("trunc", zxid_text(*trunc))
                .with("committed", zxid_text(*committed)),
            _ => w,
        }
    }
}

//! A single-server ZooKeeper 3.8 as a pure, deterministic state machine (no clock, no IO).
//!
//! `Server::handle(now, input) -> Vec<Output>` is the only place state changes. Inside: a path
//! validator with the server's own rules, the data tree (with the hidden per-parent create
//! counter and `cversion` derived on read), sessions with tick-rounded deadlines, two one-shot
//! watch tables, and a zxid counter. Validation (`prep`) and application (`apply`) are separate,
//! as in `PrepRequestProcessor` / `DataTree`, so a multi is checked against its own pending
//! changes and applied atomically.

mod apply;
pub mod javaset;
pub mod path;
mod prep;
pub mod protocol;
mod read;
/// Replicated mode for the servers of an ensemble (only the full bundle has ensembles).
#[cfg(feature = "services")]
pub mod replica;
mod server;
pub mod session;
pub mod tree;
pub mod types;
pub mod watch;

pub use prep::Txn;
pub use protocol::{
    ClientWatches, Data, Input, MultiOp, MultiResult, Opcode, Output, Request, Response,
    WatcherType,
};
pub use server::{Server, ServerConfig};
pub use types::{
    CreateMode, ErrorCode, EventType, NodeKind, SessionId, Stat, Time, WatchedEvent, Zxid,
};
pub use watch::WatchTable;

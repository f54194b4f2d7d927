//! Lockstep: distributed locks, step by step, in the browser.
//!
//! Code map (dependencies point one way: `engine, services ← recipes ← sim ← view ← ui`, and
//! `engine ← replay`; docs/architecture.md has the whole map):
//! - [`engine`]: a pure, deterministic model of a standalone ZooKeeper 3.8 server.
//! - [`services`]: every lock service behind one interface (ZooKeeper, and with the `services`
//!   feature Redis, etcd and a SQL lock table).
//! - [`recipes`]: lock recipes as sans-IO client state machines.
//! - [`sim`]: the world, its one seeded PRNG and its history; key frames; the exhaustive search.
//! - [`view`]: the UI's plain-Rust half (frame, stage scene, course, URL state), tested natively.
//! - [`b64url`]: base64url without padding, for texts carried in links.
//! - [`sort`]: the one sort every layer uses (one copy of it in the wasm).
//! - [`words`]: the fast stable hasher of the search's fingerprints.
//! - [`replay`]: the replay script format used to compare the engine with a real server.
//! - `ui` (wasm32 only): the Leptos app, rendering what `view` computed.

/// Whether this build is the full bundle (the `services` feature: every lock service, the
/// ZooKeeper ensemble, compare mode, the matrix). Code that only the full bundle can reach
/// starts with `if !FULL`, so the lean first bundle drops it without another `cfg`.
pub const FULL: bool = cfg!(feature = "services");

/// Whether this build is the studio page's bundle (the `studio` feature: the full bundle, the
/// animated export and the lesson editor). The other pages hand over to it for those two.
pub const STUDIO: bool = cfg!(feature = "studio");

pub mod b64url;
pub mod engine;
pub mod json_read;
pub mod json_write;
pub mod narrate;
pub mod recipes;
pub mod replay;
pub mod services;
pub mod sim;
pub mod sort;
pub mod sorted;
pub mod view;
pub mod words;

#[cfg(target_arch = "wasm32")]
pub mod ui;

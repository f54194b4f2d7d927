//! Lockstep: ZooKeeper distributed locks, step by step, in the browser.
//!
//! Code map (dependencies point one way: `engine ← replay`, later `engine ← recipes ← sim ← ui`):
//! - [`engine`]: a pure, deterministic model of a standalone ZooKeeper 3.8 server.
//! - [`replay`]: the replay script format (JSON in, what each session saw out) used to compare
//!   the engine with recordings of a real server.
//! - `ui` (wasm32 only): the Leptos app.

pub mod engine;
pub mod recipes;
pub mod replay;
pub mod services;
pub mod sim;
pub mod view;

#[cfg(target_arch = "wasm32")]
pub mod ui;

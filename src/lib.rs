//! Lockstep: ZooKeeper distributed locks, step by step, in the browser.
//!
//! Code map (dependencies point one way: `engine ← replay`, later `engine ← recipes ← sim ← ui`):
//! - [`engine`]: a pure, deterministic model of a standalone ZooKeeper 3.8 server.
//! - [`replay`]: the replay script format (JSON in, what each session saw out) used to compare
//!   the engine with recordings of a real server.
//! - `ui` (wasm32 only): the Leptos app.

// The lean bundle (no `services`) keeps the wire types but makes them uninhabited: the code
// that would handle them is then statically unreachable, which is the point.
#![cfg_attr(not(feature = "services"), allow(unreachable_code, unreachable_patterns, unused_imports))]

pub mod engine;
pub mod recipes;
pub mod replay;
#[cfg(feature = "services")]
pub mod services;
pub mod sim;
pub mod view;

#[cfg(target_arch = "wasm32")]
pub mod ui;

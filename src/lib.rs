//! Lockstep: ZooKeeper distributed locks, step by step, in the browser.
//!
//! Code map (dependencies point one way: `engine ← replay`, later `engine ← recipes ← sim ← ui`):
//! - [`engine`]: a pure, deterministic model of a standalone ZooKeeper 3.8 server.
//! - [`replay`]: the replay script format (JSON in, what each session saw out) used to compare
//!   the engine with recordings of a real server.
//! - `ui` (wasm32 only): the Leptos app.

/// Items behind one `cfg` attribute (what `cfg_if` does, for a few module declarations); the
/// lean build has no use for it.
#[allow(unused_macros)]
macro_rules! items {
    ($($i:item)*) => { $($i)* };
}

pub mod engine;
pub mod narrate;
pub mod recipes;
pub mod replay;
pub mod services;
pub mod sim;
pub mod view;

#[cfg(target_arch = "wasm32")]
pub mod ui;

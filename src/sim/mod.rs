//! The simulated world: clients running lock recipes against the simulated server over a
//! simulated network, faults, history, monitors and narration. Plain Rust, deterministic:
//! one seeded PRNG inside the world, logical ticks, ordered maps.

pub mod app;
pub mod client;
mod describe;
pub mod explore;
mod faults;
pub mod history;
#[cfg(feature = "services")]
pub mod matrix;
pub mod monitors;
pub mod narrate;
mod narrate_svc;
pub mod network;
pub mod presets;
#[cfg(feature = "services")]
pub mod presets_svc;
pub mod resource;
pub mod rng;
pub mod scenario;
mod setup;
pub mod step;
mod svclib;
#[cfg(feature = "services")]
mod svc;
#[cfg(not(feature = "services"))]
#[path = "svc_stub.rs"]
mod svc;
pub mod types;
pub mod world;
pub mod zkclient;

pub use narrate::{Lang, Narration};
pub use scenario::{Command, Scenario, TimedCommand};
pub use step::StepRecord;
pub use world::{Action, World};
pub use history::{Run, Simulation};
